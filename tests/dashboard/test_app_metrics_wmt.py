"""AppTest: the Metrics-vs-humans page with WMT metrics task files as published (a .zip of
REFSET system-level files and DA system-level files, made by tests/_wmt_data.py): the reference
selector, reference-free metrics and the system exclusion controls."""

from __future__ import annotations

import pytest

from tests import _wmt_data as wmt
from tests.dashboard.helpers import assert_no_exception


def _texts(at):
    return " ".join(
        [c.value for c in at.caption]
        + [w.value for w in at.warning]
        + [m.value for m in at.markdown]
    )


@pytest.fixture
def at(fresh_run):
    at = fresh_run()
    archive = wmt.zip_bytes(wmt.system_level_files())
    at.file_uploader(key="metrics_upload").set_value(
        [("wmt20-sys.zip", archive, "application/zip")]
    ).run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    return at


def test_zip_of_published_files_is_read_as_system_level(at):
    assert len(at.get("plotly_chart")) == 5  # not the segment-level view
    # 7 files: one summary line on the page, each file's line in the expander below it (and
    # nowhere else: AppTest's captions include those inside expanders)
    summary = [c.value for c in at.caption if c.value.startswith("Read ")]
    assert summary == [
        "Read 7 files: 5 as WMT system-level scores (METRIC LP TESTSET REFSET SYSTEM SCORE, 6 "
        "fields); 2 as WMT DA system-level scores (RAW.SCR Z.SCR N SYS N.ALL). Together 2 LPs, "
        "5 metrics, human scores."
    ], summary
    (box,) = [e for e in at.expander if e.label == "What each file was read as (7 files)"]
    lines = [c.value for c in box.caption]
    assert len(lines) == 7 and all(": read as " in line for line in lines), lines
    assert sum(": read as " in c.value for c in at.caption) == 7
    assert at.selectbox(key="metrics_lp").options == ["cs-en", "en-de"]
    # the metric whose every REFSET is src starts as reference-free: src is no reference
    assert at.multiselect(key="metrics_reference_free").value == ["COMET-QE"]
    assert at.selectbox(key="metrics_refset").options[1:-1] == ["newstest2020", "newstestB2020"]
    at.multiselect(key="metrics_reference_free").set_value([]).run()
    own, *refs, every = at.selectbox(key="metrics_refset").options
    assert (own, refs, every) == (
        "the test set's own",
        ["newstest2020", "newstestB2020", "src"],
        "all (one block each)",
    )
    at.multiselect(key="metrics_reference_free").set_value(["COMET-QE"]).run()
    # the metric without a score for one cs-en system is dropped, and a caption says so
    assert "Left out of cs-en" in _texts(at) and "METEOR" in _texts(at)


def test_reference_selector_switches_blocks(at):
    at.multiselect(key="metrics_reference_free").set_value(["COMET-QE"]).run()
    at.selectbox(key="metrics_refset").set_value("all").run()
    assert_no_exception(at)
    assert at.selectbox(key="metrics_lp").options == [
        "cs-en",
        "en-de / newstest2020",
        "en-de / newstestB2020",
    ]
    at.selectbox(key="metrics_lp").set_value("en-de / newstestB2020").run()
    assert_no_exception(at)
    assert "COMET-QE" in at.multiselect(key="metrics_scatter").options
    assert len(at.get("plotly_chart")) == 5


def test_exclusion_changes_the_systems(at):
    n = lambda: int(next(m.value for m in at.metric if m.label == "Systems (n)"))  # noqa: E731
    before = n()
    at.multiselect(key="metrics_exclude").set_value([wmt.OUTLIER]).run()
    assert n() == before - 1
    assert f"excluded systems {wmt.OUTLIER}" in _texts(at)
    at.multiselect(key="metrics_exclude").set_value([]).run()
    at.checkbox(key="metrics_outliers").check().run()
    assert_no_exception(at)
    assert n() == before - 1 and f"MAD outliers {wmt.OUTLIER}" in _texts(at)
    assert len(at.get("plotly_chart")) == 5


def test_read_as_summary_needs_every_files_format():
    import pandas as pd  # noqa: PLC0415

    from dashboard.sections.metrics_choice import read_as_summary  # noqa: PLC0415
    from stats.readers.system_level import SystemScores  # noqa: PLC0415

    frame = pd.DataFrame({"lp": ["de-en", "de-en"], "metric": ["BLEU", "HUMAN"]})
    kind = "a wide table (system, human, one column per metric)"
    scores = SystemScores(frame=frame, files=("a.tsv", "b.tsv"), formats=(kind, kind))
    assert read_as_summary(scores) == (
        "Read 2 files: 2 as a wide table (system, human, one column per metric). "
        "Together 1 LP, 1 metric, human scores."
    )
    # a file whose format is not known: no summary (the page shows each file's line instead)
    unknown = SystemScores(frame=frame, files=("a.tsv", "b.tsv"), formats=(kind,))
    assert read_as_summary(unknown) is None
