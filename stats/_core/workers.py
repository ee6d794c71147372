"""Worker processes for the CPU-bound extraction steps (TER, BLEU tokenisation)."""

from __future__ import annotations

import multiprocessing
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from multiprocessing import spawn

#: set in the thread that starts :func:`run_chunks`' workers: their preparation data then
#: names no main module (see :func:`_preparation_data`)
_launching = threading.local()
_stdlib_preparation_data = spawn.get_preparation_data


def _preparation_data(name):
    """``multiprocessing.spawn.get_preparation_data``, without the caller's main module when
    :func:`run_chunks` starts its workers.

    A child started by the fork server re-runs the parent's ``__main__`` from its path before
    it unpickles its work. Streamlit replaces ``sys.modules["__main__"]`` by the page script
    it runs (and AppTest by a generated script that cannot run on its own), so each worker
    would run a dashboard page, or die, before scoring one segment. The workers only run
    functions of this package, which they import by name: they need no main module.
    Everywhere else (another thread, another library's pool) the data are the standard ones.
    """
    data = _stdlib_preparation_data(name)
    if getattr(_launching, "workers", False):
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
    return data


def process_pool(max_workers: int, preload: tuple[str, ...] = ()) -> ProcessPoolExecutor:
    """A process pool whose workers start from a fork server, not as forks of this process.

    The dashboard extracts statistics inside Streamlit's multi-threaded server, and a forked
    copy of a threaded process can inherit a lock held by another thread and hang; the fork
    server is a fresh single-threaded process. Work submitted must be a module-level function.

    ``preload``: modules the fork server imports before forking the workers (so each worker
    does not import them again); only heeded when the fork server is not running yet.
    """
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(list(preload))  # not "__main__": see _preparation_data
    spawn.get_preparation_data = _preparation_data  # idempotent; standard unless _launching
    return ProcessPoolExecutor(max_workers=max_workers, mp_context=context)


def run_chunks(func, tasks: list[tuple], jobs: int, *, preload: tuple[str, ...] = (),
               progress=None) -> list:
    """``[func(*task) for task in tasks]`` on ``jobs`` cores: ``jobs - 1`` worker processes
    take the tasks from the front while this process takes them from the back, until the two
    meet.

    This process starts at once, while the workers are still starting (a fork server importing
    ``preload`` takes a few tenths of a second; a helper thread starts them and hands each one
    task at a time, so none sits queued behind a busy worker at the end), and no core waits on
    a process that only collects results. Order tasks longest first: the short ones then end
    the run on both sides. ``func`` must be a module-level function. ``progress(fraction)`` is
    called from this thread only (Streamlit's progress bars must be).
    """
    n = len(tasks)
    results: list = [None] * n
    if jobs <= 1 or n < 2:
        for i, task in enumerate(tasks):
            results[i] = func(*task)
            if progress is not None:
                progress((i + 1) / n)
        return results
    lock = threading.Lock()
    state = {"front": 0, "back": n - 1, "done": 0, "stop": False}
    failure: list[BaseException] = []

    def take(end: str) -> int | None:
        with lock:
            if state["stop"] or state["front"] > state["back"]:
                return None
            i = state[end]
            state[end] += 1 if end == "front" else -1
            return i

    def finished(i: int, value) -> None:
        results[i] = value
        with lock:
            state["done"] += 1

    def feed() -> None:  # the helper thread: one task at a time per worker, from the front
        _launching.workers = True  # the pool starts its workers in this thread, at submit
        try:
            with process_pool(min(jobs - 1, n - 1), preload=preload) as pool:
                running: dict = {}
                for _ in range(min(jobs - 1, n - 1)):
                    if (i := take("front")) is not None:
                        running[pool.submit(func, *tasks[i])] = i
                while running:
                    ready, _ = wait(running, return_when=FIRST_COMPLETED)
                    for future in ready:
                        finished(running.pop(future), future.result())
                        if (i := take("front")) is not None:
                            running[pool.submit(func, *tasks[i])] = i
        except BaseException as exc:  # re-raised in the calling thread
            failure.append(exc)
            with lock:
                state["stop"] = True

    helper = threading.Thread(target=feed, name="run_chunks-feed", daemon=True)
    helper.start()
    try:
        while (i := take("back")) is not None:
            finished(i, func(*tasks[i]))
            if progress is not None:
                progress(state["done"] / n)
    except BaseException:
        with lock:  # the workers take no new task
            state["stop"] = True
        raise
    finally:
        helper.join()
    if failure:
        raise failure[0]
    if progress is not None:
        progress(1.0)
    return results
