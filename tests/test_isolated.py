"""stats._core.workers.run_isolated: a computation in a child process that
is ended at once when the caller's progress callback raises (the dashboard's Stop), killed
with a one-line input error past its memory budget while it runs (not checked after), and
whose result or error comes back to the caller."""

from __future__ import annotations

import os
import threading
import time

import pytest

from stats import OverTimeBound, StatsInputError, limited_budget
from stats._core import workers
from stats._core.workers import (
    RemoteTraceback,
    memory_bound,
    memory_budget,
    private_memory,
    run_isolated,
)


def _add(a, b, *, progress):
    progress(0.25, "adding")
    progress(0.75)
    return a + b, os.getpid()


def _fails(kind, *, progress):
    raise kind("line 3 of scores.tsv: not a number")


def _over_bound(*, progress):
    raise OverTimeBound("clusters: an estimated 9 min", seconds=540.0, max_seconds=300.0,
                        most=5000)


def _spin(seconds, *, progress):
    """Pure Python for ``seconds``, saying nothing after its pid (a reader or kernel that
    reports no progress)."""
    progress(0.0, f"pid {os.getpid()}")
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        n += 1
    return n


def _grow(step_mb, steps, *, progress):
    """Hold ``step_mb`` more MB every 20 ms (a reader building its tables), ``steps`` times."""
    held = []
    for _ in range(steps):
        held.append(bytearray(step_mb * 2**20))
        for i in range(0, len(held[-1]), 4096):  # touched: resident
            held[-1][i] = 1
        time.sleep(0.02)
    return len(held)


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_the_result_and_progress_come_back_to_the_calling_thread():
    seen, details = [], []
    caller = threading.get_ident()

    def progress(fraction):
        seen.append((fraction, threading.get_ident()))

    progress.describe = details.append
    total, pid = run_isolated(_add, 2, 3, what="adding", progress=progress)
    assert total == 5 and pid != os.getpid()  # computed in another process
    # each report of the child, in order (heartbeats before the first repeat 0)
    assert [f for f, _ in seen if f][:2] == [0.25, 0.75]
    assert {t for _, t in seen} == {caller}
    told = [d for d in details if d.startswith("adding: ")]  # the child's text, time, memory
    assert told and "of memory (budget" in told[0]


@pytest.mark.parametrize("kind", [StatsInputError, ValueError])
def test_an_error_of_the_child_is_raised_here_with_its_traceback(kind):
    with pytest.raises(kind, match="line 3 of scores.tsv: not a number") as info:
        run_isolated(_fails, kind, what="reading")
    assert isinstance(info.value.__cause__, RemoteTraceback)
    assert "_fails" in str(info.value.__cause__)


def test_a_time_bound_of_the_child_comes_back_whole():
    # keyword-only fields: it must survive the pipe (the Leaderboard offers the CLI from them)
    with pytest.raises(OverTimeBound, match="an estimated 9 min") as info:
        run_isolated(_over_bound, what="clusters")
    assert (info.value.seconds, info.value.max_seconds, info.value.most) == (540.0, 300.0, 5000)


class _Stopped(Exception):
    """What Streamlit raises in a script run whose user pressed Stop."""


def test_a_progress_callback_that_raises_kills_the_child_at_once():
    details: list = []
    armed: dict = {}

    def progress(fraction):
        # stops half a second after the child has said its pid (it is computing by then)
        if any(d.startswith("pid ") for d in details):
            stop_at = armed.setdefault("at", time.monotonic() + 0.5)
            if time.monotonic() > stop_at:
                raise _Stopped

    progress.describe = details.append
    with pytest.raises(_Stopped):
        run_isolated(_spin, 120.0, what="spinning", progress=progress)
    stop_at = armed["at"]
    took = time.monotonic() - stop_at
    # a heartbeat reaches the callback within 0.1 s of the stop; the child is killed then
    assert took < 1.0, f"ended {took:.2f} s after the stop"
    pid = int(next(d for d in details if d.startswith("pid ")).split(":")[0][4:])
    assert pid != os.getpid()
    while _alive(pid) and time.monotonic() - stop_at < 1.0:  # killed: gone at once
        time.sleep(0.02)
    assert not _alive(pid), "the child is still computing a second after the stop"


@pytest.mark.skipif(private_memory(os.getpid()) is None, reason="needs /proc/<pid>/smaps_rollup")
def test_the_memory_budget_is_held_while_the_child_runs():
    rss_before = _rss_mb()
    t0 = time.monotonic()
    with pytest.raises(StatsInputError) as info:
        # 40 x 20 MB = 800 MB asked for, the budget 150 MiB
        run_isolated(_grow, 20, 40, what="reading big.zip", max_memory=150 * 2**20,
                     reduce="upload fewer or smaller files")  # fmt: skip
    message = str(info.value)
    assert message.startswith("reading big.zip: needs more than 150 MiB of memory"), message
    assert message.endswith("; upload fewer or smaller files")
    stopped_at = float(message.split("stopped at ")[1].split(" MiB")[0].replace(",", ""))
    assert 150 < stopped_at < 150 + 80  # killed within a few steps of the budget
    assert time.monotonic() - t0 < 30
    assert _rss_mb() - rss_before < 50  # none of it in this process


@pytest.mark.skipif(private_memory(os.getpid()) is None, reason="needs /proc/<pid>/smaps_rollup")
def test_the_cheap_bound_is_above_the_exact_figure_and_spares_its_reading(monkeypatch):
    import numpy as np  # a process with mappings enough to make smaps_rollup slow

    held = np.ones(2**22)
    for pid in (os.getpid(), os.getppid()):
        bound, exact = memory_bound(pid), private_memory(pid)
        assert bound is not None and exact is not None and bound >= exact, (pid, bound, exact)
    assert memory_bound(2**22 + 12345) is None  # no such process
    del held
    # a child well within its budget for ~1 s: the exact figure is read about once a second
    # for the progress line, not at every look (every 0.05 s)
    reads = []
    real = workers.private_memory
    monkeypatch.setattr(workers, "private_memory", lambda pid: reads.append(pid) or real(pid))
    details: list[str] = []
    progress = lambda fraction: None  # noqa: E731
    progress.describe = details.append
    run_isolated(_spin, 1.0, what="spinning", progress=progress)
    assert 1 <= len(reads) <= 4, len(reads)
    without_progress_line = len(reads)
    run_isolated(_spin, 1.0, what="spinning")
    assert len(reads) == without_progress_line  # no progress line, bound far below: none


def test_the_default_budget_is_the_sessions():
    with limited_budget(max_memory=2**30):
        assert memory_budget() == 2**30
    with limited_budget(max_memory=300 * 2**20), pytest.raises(StatsInputError, match="300 MiB"):
        run_isolated(_grow, 20, 40, what="reading")


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024


def _own_nice(*, progress):
    time.sleep(0.5)  # a few heartbeats
    return os.getpriority(os.PRIO_PROCESS, 0)


def test_the_child_computes_at_the_lowered_priority_and_the_caller_watches_at_its_own():
    """A caller whose thread was lowered (its nice value raised): the child computes at that
    priority, while the calling thread answers the heartbeat at the
    process's priority where the process may raise it again (a Stop is not kept waiting for
    a busy machine's spare time)."""
    def thread_nice() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    base = os.getpriority(os.PRIO_PROCESS, os.getpid())
    seen, out = [], {}

    def script_thread():  # as Streamlit's: not the process's main thread
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), min(base + 10, 19))
        out["lowered"] = thread_nice()
        out["child"] = run_isolated(
            _own_nice, what="x", progress=lambda f: seen.append(thread_nice())
        )
        out["after"] = thread_nice()

    thread = threading.Thread(target=script_thread)
    thread.start()
    thread.join(60)
    assert out["lowered"] == min(base + 10, 19)
    assert out["child"] == out["lowered"] == out["after"]
    if os.geteuid() == 0:  # only a privileged process may raise it again
        assert seen and set(seen) == {base}


def test_a_lower_priority_can_be_asked_for_the_child():
    here = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    assert run_isolated(_own_nice, what="x", nice=19) == 19
    assert run_isolated(_own_nice, what="x", nice=-5) == here  # never higher than the caller


def _budgeted(work, *, progress):
    from stats import check_budget

    check_budget(what="resampling", n_resamples=int(work), n_segments=1)
    return "ran"


def test_the_child_computes_inside_the_callers_budget():
    """A session's limited_budget (a context variable of the calling thread) holds in the
    child too, as it would in the thread: the child's check refuses what the session may not
    run, and runs what it may."""
    with limited_budget(max_work=1e6):
        with pytest.raises(StatsInputError, match="over the budget of 1e\\+06"):
            run_isolated(_budgeted, 2e6, what="resampling")
        assert run_isolated(_budgeted, 1e5, what="resampling") == "ran"
    assert run_isolated(_budgeted, 2e6, what="resampling") == "ran"  # outside: the library's
