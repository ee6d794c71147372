"""stats._core.workers.run_chunks: tasks shared between this process (from the back) and worker
processes (from the front), results in task order, errors raised here, progress reported
from the calling thread only."""

from __future__ import annotations

import os
import threading
import time

import pytest

from stats._core.workers import run_chunks


def _where(i: int, pause: float) -> tuple[int, int]:
    """Task: its index and the process that ran it, after ``pause`` seconds."""
    time.sleep(pause)
    return i, os.getpid()


def _fail_on(i: int, bad: int) -> int:
    if i == bad:
        raise ValueError(f"task {i} failed")
    time.sleep(0.05)
    return i


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_results_in_task_order_from_both_sides(jobs):
    # 20 x 0.2 s: time enough for a worker to start on a loaded machine (one job starts none:
    # its tasks run here one after the other, with no pause to wait on)
    tasks = [(i, 0.2 if jobs > 1 else 0.0) for i in range(20)]
    out = run_chunks(_where, tasks, jobs)
    assert [i for i, _ in out] == list(range(20))
    pids = [pid for _, pid in out]
    if jobs == 1:
        assert set(pids) == {os.getpid()}
    else:
        # this process starts with the last task at once (the workers are still starting);
        # the workers take the first
        assert pids[-1] == os.getpid()
        assert pids[0] != os.getpid()
        # each side works through a contiguous run of tasks from its own end
        mine = [k for k, pid in enumerate(pids) if pid == os.getpid()]
        assert mine == list(range(mine[0], 20))


def test_a_single_task_runs_here():
    assert run_chunks(_where, [(0, 0.0)], 4) == [(0, os.getpid())]


@pytest.mark.parametrize("bad", [0, 11])  # a worker's task, this process's task
def test_an_error_is_raised_in_the_caller(bad):
    with pytest.raises(ValueError, match=f"task {bad} failed"):
        run_chunks(_fail_on, [(i, bad) for i in range(12)], 2)


@pytest.mark.parametrize("jobs", [1, 2])
def test_progress_from_the_calling_thread_ends_at_one(jobs):
    seen = []
    caller = threading.get_ident()

    def progress(fraction):
        seen.append((fraction, threading.get_ident()))

    run_chunks(_where, [(i, 0.02) for i in range(8)], jobs, progress=progress)
    fractions = [f for f, _ in seen]
    assert fractions[-1] == 1.0
    assert fractions == sorted(fractions) and all(0 < f <= 1 for f in fractions)
    assert {t for _, t in seen} == {caller}


def test_workers_do_not_run_the_callers_main_script(tmp_path, monkeypatch):
    # as under Streamlit (the page script) or AppTest (a script that cannot run on its own):
    # a worker that re-ran this __main__ would die before its first task
    import sys
    import types
    from multiprocessing import spawn

    script = tmp_path / "page.py"
    script.write_text("raise SystemExit('a worker ran the page script')\n")
    page = types.ModuleType("__main__")
    page.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", page)
    out = run_chunks(_where, [(i, 0.2) for i in range(20)], 2)
    assert [i for i, _ in out] == list(range(20))
    assert {pid for _, pid in out} - {os.getpid()}  # a worker ran some of them
    # outside run_chunks' launching thread multiprocessing prepares children as it always does
    assert spawn.get_preparation_data("x")["init_main_from_path"] == str(script)
