"""AppTest: on the Metrics-vs-humans page, the note that human translations
were left out names the page's own control, and that control keeps them; files with a DOMAIN
column offer a Domain control whose numbers are the CLI's (meta-eval --domain)."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pytest

from stats.analyses.meta_eval import meta_evaluate
from stats.readers import read_meta_eval
from tests.dashboard.helpers import assert_no_exception, files, frame_with
from tests.readers.test_readers_meta_domains import scores, write


def test_human_translations_note_names_the_page_control(fresh_run, tmp_path):
    rng = np.random.default_rng(2)
    systems = ("sysA", "sysB", "sysC", "Human-A.0")
    rows = []
    for s in systems:
        for j in range(12):
            g = float(rng.normal())
            rows.append(f"HUMAN\tde-en\tt\t{s}\t{j}\t{g!r}")
            rows.append(f"BLEU\tde-en\tt\t{s}\t{j}\t{g + float(rng.normal()):.4f}")
            rows.append(f"chrF\tde-en\tt\t{s}\t{j}\t{g + float(rng.normal()):.4f}")
    path = tmp_path / "segments.tsv"
    path.write_text("\n".join(rows) + "\n")
    at = fresh_run(timeout=120)
    at.file_uploader(key="metrics_upload").set_value(files(path)).run()
    assert_no_exception(at)
    assert not at.error
    warned = " ".join(w.value for w in at.warning)
    assert "Human-A.0" in warned and "Human translations as systems" in warned
    assert "include_human" not in warned
    before = frame_with(at, "correlation")
    at.checkbox(key="meta_include_human").check().run()
    assert_no_exception(at)
    assert "Human-A.0" not in " ".join(w.value for w in at.warning)
    after = frame_with(at, "correlation")
    assert not np.allclose(before["correlation"].sort_index(), after["correlation"].sort_index())


def test_domain_control_on_files_with_a_domain_column(fresh_run, tmp_path):
    gold, metrics = scores(4)
    root = write(tmp_path / "mslc", gold, metrics)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for p in sorted(root.rglob("*.score")):
            zf.write(p, p.relative_to(root.parent).as_posix())
    path = tmp_path / "mslc.zip"
    path.write_bytes(buf.getvalue())
    at = fresh_run(timeout=120)
    at.file_uploader(key="metrics_upload").set_value(
        files(path, mime="application/zip")
    ).run()
    assert_no_exception(at)
    assert not at.error
    assert at.selectbox(key="meta_domain").options == ["all", "news", "social", "speech"]
    at.number_input(key="meta_resamples").set_value(0).run()
    at.selectbox(key="meta_domain").set_value("social").run()
    assert_no_exception(at)
    table = frame_with(at, "correlation")
    lp = meta_evaluate(read_meta_eval(path).in_domain("social"), gold="mqm",
                       correlation="pearson", grouping="item").language_pairs[0]
    for m in lp.metrics:
        assert table.loc[m, "correlation"] == pytest.approx(lp.results[m].statistic, abs=1e-12)
