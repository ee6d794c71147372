"""the data layer's long computations that report no progress of their own
(the Power page's simulation, the WMT QE comparison) run in a child process, so that Stop ends
them: when the page's progress callback raises (Streamlit does so in a run whose user pressed
Stop), the computation ends within a second and nothing of it keeps running."""

from __future__ import annotations

import os
import random
import time

import pytest
import streamlit as st

from dashboard.data import mt_systems, power, samples
from dashboard.data import qe_wmt as qe_data
from tests._big_qe import write_qe_upload

STOP_LIMIT = 1.0  #: seconds from Stop to the computation's end


class _Stopped(Exception):
    """What Streamlit raises in a script run whose user pressed Stop."""


def _stopping(after: float):
    """A progress callback that raises (Stop) from ``after`` seconds after its first call (the
    computation is running then); the bar's details are kept in ``state["texts"]``."""
    state = {"at": None, "texts": []}

    def progress(fraction):
        now = time.monotonic()
        if state["at"] is None:
            state["at"] = now + after
        if now > state["at"]:
            raise _Stopped

    progress.describe = state["texts"].append
    return progress, state


def _children() -> set[int]:
    """Live processes whose parent is a child of this process (the fork server's children)."""
    mine = os.getpid()
    parents, alive = {}, set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry)] = int(fields[1])
        if fields[0] != "Z":
            alive.add(int(entry))
    servers = {pid for pid, ppid in parents.items() if ppid == mine}
    return {pid for pid, ppid in parents.items() if ppid in servers} & alive


def _assert_stopped_within_a_second(call, progress, state, *, detail: bool = True):
    before = _children()
    with pytest.raises(_Stopped):
        call(progress)
    took = time.monotonic() - state["at"]
    assert took < STOP_LIMIT, f"ended {took:.2f} s after Stop; the bar said {state['texts'][-3:]}"
    if detail:  # the bar's detail: the child's time and memory
        assert any("of memory" in t for t in state["texts"]), "not run in a child process"
    time.sleep(0.2)
    assert _children() <= before, "a child process is still computing"


def test_stop_ends_the_power_simulation():
    st.cache_data.clear()
    files = samples.mt_sample_scores()
    inputs = (mt_systems.KIND_SCORES, (), files, "", True)
    metric_names = mt_systems.score_options(files).metrics
    if metric_names:
        inputs = (mt_systems.KIND_SCORES, (), files, metric_names[0], True)
    systems = power.systems(*inputs)
    mt_systems.statistics(*inputs)  # extracted first (cached): what is stopped is the simulation
    progress, state = _stopping(2.0)
    _assert_stopped_within_a_second(
        lambda p: power.power_curves(
            *inputs,
            systems[0],
            systems[1],
            (0.5, 1.0),
            None,
            "paired-bootstrap",
            0.05,
            8000,  # (2,000 simulations ended 1.4 s after their first report on a quiet machine)
            2000,
            random.randrange(2**31),
            _progress=p,
        ),  # fmt: skip
        progress,
        state,
        detail=False,  # the page's callback is wrapped (its fifths): no detail passed on
    )


def test_stop_ends_the_qe_comparison(tmp_path):
    st.cache_data.clear()
    paths = write_qe_upload(tmp_path, segments=20_000, teams=4, seed=random.randrange(2**31))
    uploads = tuple((p.name, p.read_bytes()) for p in paths)
    qe_data.files(uploads)
    progress, state = _stopping(3.0)
    _assert_stopped_within_a_second(
        lambda p: qe_data.comparison(uploads, "spearman", 1000, 1, _progress=p), progress, state
    )


def _mt_scores_inputs():
    files = samples.mt_sample_scores()
    metric_names = mt_systems.score_options(files).metrics
    return (mt_systems.KIND_SCORES, (), files, metric_names[0] if metric_names else "", True)


def test_stop_ends_the_mt_tests_of_every_pair_run_in_a_child_from_a_second_of_work():
    """Another page's long computation (MT systems, all pairs: 8 systems x 500 segments at
    400,000 resamples, over :data:`dashboard.data._isolated.ISOLATE_FROM`) runs in a child:
    Stop ends it within a second, the bar says its memory. (At 50,000 resamples the child's
    work after its first progress report took 0.41 s on a quiet 2-core machine, less than the
    half second before Stop: the call ended unstopped. 400,000 take about 3 s there.)"""
    from dashboard.data._isolated import ISOLATE_FROM

    st.cache_data.clear()
    inputs = _mt_scores_inputs()
    data = mt_systems.statistics(*inputs)
    assert 400_000 * data.stats.size * (len(data.systems) - 1) > ISOLATE_FROM
    progress, state = _stopping(0.5)
    _assert_stopped_within_a_second(
        lambda p: mt_systems.pairwise(
            *inputs, "paired-bootstrap", 400_000, "two-sided", random.randrange(2**31),
            _progress=p,
        ),
        progress, state,
    )  # fmt: skip


def test_the_sessions_memory_cap_holds_while_another_pages_computation_runs():
    """The session's budget (``stats.limited_budget``, 1 GiB in the dashboard) is held by the
    child while it computes: past it, the child is killed and one line names the computation."""
    from stats import StatsInputError, limited_budget

    st.cache_data.clear()
    inputs = _mt_scores_inputs()
    with (
        limited_budget(max_memory=4 * 2**20),
        pytest.raises(StatsInputError, match="the paired-bootstrap test of every pair of sys"),
    ):
        mt_systems.pairwise(
            *inputs, "paired-bootstrap", 50_000, "two-sided", random.randrange(2**31)
        )
