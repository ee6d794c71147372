"""AppTest: every message a page shows names a control on the page (its label), never a Python
argument (``gold=FILE``, ``allow_constant=True``, ``lp=XX-YY``, ``include_human=True``); and the
Metrics page's segment-level "Exclude systems" control (as ``meta-eval --exclude-systems``),
kept in the link."""

from __future__ import annotations

import re

import numpy as np
import pytest

from dashboard.sections.metrics_segment import SAMPLES
from stats.analyses.meta_eval import meta_evaluate
from stats.readers import read_meta_eval
from tests._wmt20_like import write_wmt20_like
from tests.dashboard.conftest import REPO_ROOT
from tests.dashboard.helpers import assert_no_exception, files, frame_with
from tests.dashboard.test_app_view_settings import param

QE = REPO_ROOT / "sample_data" / "qe"
ZIP = REPO_ROOT / "sample_data" / "meta" / "wmt-sample.zip"
SEGMENT_SAMPLE = next(label for label, segment in SAMPLES.items() if segment)

#: a library argument in a message: ``name=VALUE`` or one of the names the readers use bare
ARGUMENT = re.compile(
    r"\b(?:[a-z]+(?:_[a-z]+)*=(?:[A-Z]|True|False|all)"
    r"|allow_constant|include_human|exclude_systems|n_resamples|post_edit|min_group_size)"
)


def _shown(at) -> str:
    """Every message and caption the page shows."""
    return " | ".join(
        e.value for kind in (at.error, at.warning, at.info, at.caption) for e in kind
    )


def _no_arguments(at) -> str:
    text = _shown(at)
    assert not ARGUMENT.search(text), ARGUMENT.search(text)
    return text


def test_qe_constant_system_names_the_toggle(fresh_run):
    rows = ["sid,gold,A,FLAT"] + [
        f"{i},{(i * 7) % 11 / 10:.2f},{(i * 5) % 9 / 10:.2f},0.5" for i in range(1, 21)
    ]
    at = fresh_run("views/qe.py")
    at.file_uploader(key="qe_upload").set_value(
        ("c.csv", ("\n".join(rows) + "\n").encode(), "text/csv")
    ).run()
    assert_no_exception(at)
    assert len(at.error) == 1
    assert "the “Keep constant systems” control" in _no_arguments(at)


def test_qe_submissions_without_gold_say_to_upload_it(fresh_run):
    at = fresh_run("views/qe.py")
    at.file_uploader(key="qe_upload").set_value(
        files(QE / "wmt" / "baseline.txt", QE / "wmt" / "ALPHA-svr.txt")
    ).run()
    assert_no_exception(at)
    assert len(at.error) == 1
    assert "upload the gold labels with them" in _no_arguments(at)


def test_qe_gold_file_alone_says_to_upload_it_with_the_predictions(fresh_run):
    at = fresh_run("views/qe.py")
    at.file_uploader(key="qe_upload").set_value(files(QE / "wmt_gold.txt")).run()
    assert_no_exception(at)
    assert len(at.error) == 1
    _no_arguments(at)


def test_da_file_without_a_language_pair_says_to_rename_it(fresh_run, tmp_path):
    paths = write_wmt20_like(tmp_path / "wmt20", n_systems=4)
    da = next(p for p in paths if p.name == "ad-sys-scores-de-en.csv")
    unnamed = tmp_path / "da.csv"
    unnamed.write_bytes(da.read_bytes())
    bleu = next(p for p in paths if p.name == "BLEU.sys.score")
    at = fresh_run(timeout=120)
    at.file_uploader(key="metrics_upload").set_value(files(bleu, unnamed)).run()
    assert_no_exception(at)
    assert len(at.error) == 1
    assert "rename the file so that it does" in _no_arguments(at)


# ---- the segment-level section: Exclude systems, and its messages ----


def test_exclude_systems_control_as_the_cli(fresh_run):
    at = fresh_run(timeout=120)
    at.selectbox(key="metrics_sample").set_value(SEGMENT_SAMPLE).run()
    at.number_input(key="meta_resamples").set_value(0).run()
    assert_no_exception(at)
    options = at.multiselect(key="meta_exclude").options
    data = read_meta_eval(ZIP)
    assert options == list(data.systems())
    gone = options[:2]
    at.multiselect(key="meta_exclude").set_value(gone).run()
    assert_no_exception(at)
    assert not at.error
    table = frame_with(at, "correlation")
    want = meta_evaluate(data.with_systems(exclude_systems=gone), gold="mqm",
                         correlation="pearson", grouping="item").language_pairs[0]
    assert table.loc[list(want.metrics), "correlation"].to_numpy() == pytest.approx(
        np.array([want.results[m].statistic for m in want.metrics]), abs=1e-12
    )
    shown = _no_arguments(at)
    assert "left out by choice" in shown and all(s in shown for s in gone)
    assert param(at, "exclude_systems") == gone


def test_exclude_systems_from_the_link(app_test):
    gone = list(read_meta_eval(ZIP).systems())[-1]
    at = app_test(timeout=120)
    at.query_params["exclude_systems"] = [gone]
    at.run()
    at.selectbox(key="metrics_sample").set_value(SEGMENT_SAMPLE).run()
    assert_no_exception(at)
    assert at.multiselect(key="meta_exclude").value == [gone]


def test_small_groups_and_human_translations_named_in_page_words(fresh_run, tmp_path):
    # 3 systems + a human translation, by system: one system has 2 human scores
    rng = np.random.default_rng(4)
    rows = []
    for s in ("sysA", "sysB", "sysC", "Human-A.0"):
        for j in range(8):
            g = float(rng.normal())
            human = "None" if s == "sysC" and j >= 2 else repr(g)
            rows.append(f"HUMAN\tde-en\tt\t{s}\t{j}\t{human}")
            rows.append(f"BLEU\tde-en\tt\t{s}\t{j}\t{g + float(rng.normal()):.4f}")
            rows.append(f"chrF\tde-en\tt\t{s}\t{j}\t{g + float(rng.normal()):.4f}")
    path = tmp_path / "segments.tsv"
    path.write_text("\n".join(rows) + "\n")
    at = fresh_run(timeout=120)
    at.file_uploader(key="metrics_upload").set_value(files(path)).run()
    at.radio(key="meta_grouping").set_value("system").run()
    assert_no_exception(at)
    assert not at.error
    shown = _no_arguments(at)
    assert "Human translations as systems" in shown
    assert "fewer than 3 items, so the correlation is undefined" in shown


def test_a_budget_refusal_names_the_pages_resamples_control():
    # the library's "reduce n_resamples to at most N", as each page's resamples control
    from dashboard import components
    from dashboard.components.uploads import name_controls
    from dashboard.sections import metrics_segment, qe_wmt
    from stats import StatsInputError
    from stats._core.budget import check_budget

    with pytest.raises(StatsInputError) as caught:
        check_budget(what="bootstrap", n_resamples=10**9, n_segments=10**6, n_systems=50)
    message = str(caught.value)
    assert "n_resamples" in message
    for controls, label in (
        (metrics_segment.BOOTSTRAP_CONTROLS, "“Bootstrap resamples (0: no intervals)”"),
        (metrics_segment.PERMUTATION_CONTROLS, "“Permutations”"),
        (qe_wmt.CONTROLS, "“Resamples (bootstrap CIs, PERM-BOTH, word level)”"),
        (components.resamples_named("Resamples"), "“Resamples”"),
    ):
        shown = name_controls(message, controls)
        assert label in shown and not ARGUMENT.search(shown), shown
