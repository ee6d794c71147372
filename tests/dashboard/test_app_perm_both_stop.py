"""PERM-BOTH on the Metrics page (segment-level section) and the Leaderboard's task set run
under dashboard.page_run.run_long: the data layer hands its ``_progress`` to stats (fractions
ending at 1.0), and a run after a click on Stop computes nothing, says so, keeps the controls
and computes afresh on *Run again*."""

from __future__ import annotations

import streamlit as st

from dashboard.data import leaderboard, meta_eval, samples
from dashboard.page_run import _stop_key
from dashboard.sections.metrics_segment import SAMPLES
from tests.dashboard.helpers import assert_no_exception, frame_with

SEGMENT_SAMPLE = next(label for label, segment in SAMPLES.items() if segment)
META = samples.sample_files("meta", samples.META_SAMPLE_FILES)


def _check(calls):
    assert calls and calls[-1] == 1.0
    assert all(b >= a for a, b in zip(calls, calls[1:], strict=False))


def test_data_layer_passes_progress_to_stats():
    st.cache_data.clear()  # a cache hit would never call it
    calls: list = []
    grids, _ = meta_eval.perm_both_grids(
        META, alpha=0.05, correction="none", n_resamples=100, seed=1, gold="mqm",
        level="seg", correlation="pearson", _progress=calls.append,
    )  # fmt: skip
    assert grids
    _check(calls)
    calls.clear()
    choice = next(iter(leaderboard.CHOICES))
    result = leaderboard.ranking(
        META, choice, None, gold="mqm", n_resamples=100, seed=1, alpha=0.05,
        confidence_resamples=0, _progress=calls.append,
    )  # fmt: skip
    assert len(result.tasks) == 4
    _check(calls)
    assert len(calls) >= 4  # across the tasks


def _stopped(at) -> bool:
    return any(i.value.startswith("Stopped:") for i in at.info)


def test_leaderboard_stop_and_run_again(app_test):
    at = app_test("views/leaderboard.py", timeout=120)
    at.session_state["board_resamples"] = 100
    key = _stop_key("", "board_ranking")
    at.session_state[key] = True  # the button's value in the run its click triggers
    at.run()
    assert_no_exception(at)
    assert _stopped(at)
    assert not [d for d in at.dataframe if "average" in getattr(d.value, "columns", [])]
    assert at.selectbox(key="board_task_set") is not None  # the controls stay usable
    at.session_state[key] = False  # a button is True for one run only
    at.button(key=f"{key}_again").click().run()
    assert_no_exception(at)
    assert not _stopped(at)
    assert frame_with(at, "average") is not None
    assert not [b for b in at.button if b.label == "Stop"]  # the bar and button are gone


def test_metrics_perm_both_stop_and_run_again(fresh_run):
    at = fresh_run(timeout=180)
    at.selectbox(key="metrics_sample").set_value(SEGMENT_SAMPLE).run()
    key = _stop_key("", "meta_perm_both")
    at.session_state[key] = True
    at.toggle(key="meta_perm_run").set_value(True).run()
    assert_no_exception(at)
    assert _stopped(at)
    assert at.toggle(key="meta_perm_run").value  # the controls stay as set
    at.session_state[key] = False
    at.button(key=f"{key}_again").click().run()
    assert_no_exception(at)
    assert not _stopped(at)
    assert "cluster" in frame_with(at, "correlation").columns  # the PERM-BOTH clusters
    assert not [b for b in at.button if b.label == "Stop"]
