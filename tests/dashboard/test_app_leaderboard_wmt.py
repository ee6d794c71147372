"""AppTest of the Leaderboard on a long-format upload as WMT writes it (hyphenated metric names,
``Human-A.0`` with metric scores only, ``Human-B.0`` with human scores) and WMT's
``outliers.json``: what the file was read as, the notes naming the systems left
out, rank's choices, and the final ranking after the point ranking."""

from __future__ import annotations

from tests._wmt_published import HYPHENATED, long_text, outliers_json
from tests.dashboard.helpers import assert_no_exception, frame_with


def _captions(at) -> str:
    return " | ".join(c.value for c in at.caption)


def test_leaderboard_on_wmt_long_file_with_outliers(app_test):
    at = app_test("views/leaderboard.py", timeout=180)
    at.session_state["board_resamples"] = 100
    at.run()
    at.file_uploader(key="board_upload").set_value(
        [("scores.tsv", long_text().encode(), "text/tab-separated-values")]
    ).run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    text = _captions(at)
    assert "scores.tsv: read as long text (METRIC LP TESTSET SYSTEM SEGMENT SCORE), 2 LPs" in text
    assert "Human-A.0" in text and "Human-B.0" in text
    table = frame_with(at, "average")
    assert sorted(m.replace("[noref]", "") for m in table.index) == sorted(HYPHENATED)
    assert table["cluster"].notna().all()  # the final ranking replaced the point one
    at.multiselect(key="board_lps").set_value(["de-en"]).run()
    at.file_uploader(key="board_outliers_file").set_value(
        [("outliers.json", outliers_json({"de-en": ["Sys0.100"]}).encode(), "application/json")]
    ).run()
    assert_no_exception(at)
    assert "de-en: system(s) Sys0.100 left out as outliers" in _captions(at)


def test_a_file_that_fits_two_formats_is_refused_until_chosen(app_test):
    from tests.analyses.test_task_set_wmt_reading import _ambiguous_text

    at = app_test("views/leaderboard.py", timeout=180)
    at.session_state["board_resamples"] = 100
    at.run()
    at.file_uploader(key="board_upload").set_value(
        [("scores.txt", _ambiguous_text().encode(), "text/plain")]
    ).run()
    assert_no_exception(at)
    assert any("fits two formats" in e.value for e in at.error)
    at.selectbox(key="board_input_format").set_value("long text").run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    assert frame_with(at, "average") is not None


def test_metrics_page_captions_what_each_file_was_read_as(fresh_run):
    from tests import _wmt_data as wmt

    at = fresh_run()
    at.file_uploader(key="metrics_upload").set_value(
        [("wmt20-sys.zip", wmt.zip_bytes(wmt.system_level_files()), "application/zip")]
    ).run()
    assert_no_exception(at)
    assert "read as WMT system-level scores (METRIC LP TESTSET REFSET SYSTEM SCORE" in _captions(at)
    assert "read as WMT DA system-level scores" in _captions(at)
