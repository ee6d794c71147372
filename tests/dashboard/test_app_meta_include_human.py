"""AppTest (issue 43.6): on the Metrics-vs-humans page, the note that human translations were
left out names the page's own control, and that control keeps them."""

from __future__ import annotations

import numpy as np

from tests.dashboard.helpers import assert_no_exception, files, frame_with


def test_human_translations_note_names_the_page_control(app_test, tmp_path):
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
    at = app_test(timeout=120)
    at.run()
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
