"""Worker processes: for the CPU-bound extraction steps (TER, BLEU tokenisation,
:func:`run_chunks`), and one child process per computation that must stop on demand and
within a memory cap (:func:`run_isolated`)."""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
import time
import traceback
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from multiprocessing import spawn

from .errors import StatsInputError

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
    if getattr(_launching, "workers", False) or _WITHOUT_MAIN["depth"] > 0:
        data.pop("init_main_from_path", None)
        data.pop("init_main_from_name", None)
    return data


#: how many :func:`without_main_module` blocks are open (in any thread)
_WITHOUT_MAIN = {"depth": 0}
_WITHOUT_MAIN_LOCK = threading.Lock()


@contextlib.contextmanager
def without_main_module():
    """Child processes spawned while this block is open, from any thread (Dask's nanny starts
    its workers from its event loop's thread), do not re-run the caller's ``__main__``: as for
    :func:`run_chunks`' workers, which run only functions of this package. Under Streamlit or
    AppTest the main module is a page script (or a generated one that cannot run alone), and
    a ``LocalCluster``'s workers would run it, or die, before their first task."""
    spawn.get_preparation_data = _preparation_data
    with _WITHOUT_MAIN_LOCK:
        _WITHOUT_MAIN["depth"] += 1
    try:
        yield
    finally:
        with _WITHOUT_MAIN_LOCK:
            _WITHOUT_MAIN["depth"] -= 1


def process_pool(max_workers: int, preload: tuple[str, ...] = ()) -> ProcessPoolExecutor:
    """A process pool whose workers start from a fork server, not as forks of this process.

    The dashboard extracts statistics inside Streamlit's multi-threaded server, and a forked
    copy of a threaded process can inherit a lock held by another thread and hang; the fork
    server is a fresh single-threaded process. Work submitted must be a module-level function.

    ``preload``: modules the fork server imports before forking the workers (so each worker
    does not import them again); only heeded when the fork server is not running yet.
    """
    return ProcessPoolExecutor(max_workers=max_workers, mp_context=_context(preload))


#: modules every caller asked the fork server to import (it imports them when it starts, the
#: first time any caller starts a process; later additions are imported by the children)
_PRELOAD: dict[str, None] = {}


def _context(preload: tuple[str, ...]):
    """The fork server's context, asked to import ``preload`` (with every module asked before:
    one fork server serves :func:`run_chunks` and :func:`run_isolated`)."""
    context = multiprocessing.get_context("forkserver")
    _PRELOAD.update(dict.fromkeys(preload))
    context.set_forkserver_preload(list(_PRELOAD))  # not "__main__": see _preparation_data
    spawn.get_preparation_data = _preparation_data  # idempotent; standard unless _launching
    return context


def run_chunks(
    func, tasks: list[tuple], jobs: int, *, preload: tuple[str, ...] = (), progress=None
) -> list:
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


# ---------------------------------------------------------------------------------------------
# ---- One computation in a child process: stopped on demand, within a memory cap ----
# ---------------------------------------------------------------------------------------------

#: seconds between two looks at an isolated child: its messages, its memory
POLL_SECONDS = 0.05
#: seconds between two exact readings of a child's own memory for its progress line
MEMORY_SHOWN_SECONDS = 1.0
#: seconds between two calls of the caller's progress callback while the child says nothing:
#: each is a point where the caller can end the run (a dashboard bar raises there after Stop)
HEARTBEAT_SECONDS = 0.1


class RemoteTraceback(Exception):
    """The child's traceback, as the ``__cause__`` of an error re-raised here."""

    def __init__(self, text: str):
        super().__init__(text)
        self.text = text

    def __str__(self) -> str:
        return self.text


def private_memory(pid: int) -> int | None:
    """Bytes of memory process ``pid`` holds alone, resident or swapped (``Private_Clean +
    Private_Dirty + Swap`` of ``/proc/<pid>/smaps_rollup``): what it adds to the machine, not
    the pages it still shares with the fork server it came from. None where that cannot be
    read (not Linux, the process gone)."""
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            text = f.read()
    except OSError:
        return None
    total = 0
    for line in text.splitlines():
        if line.startswith((b"Private_Clean:", b"Private_Dirty:", b"Swap:")):
            total += int(line.split()[1]) * 1024
    return total


def memory_bound(pid: int) -> int | None:
    """An upper bound of :func:`private_memory`: ``VmRSS + VmSwap`` of ``/proc/<pid>/status``,
    all the memory process ``pid`` has resident or swapped, the pages it shares with the fork
    server included. The kernel keeps these as counters, so reading them takes microseconds,
    where ``smaps_rollup`` walks every mapping of the process (about 6 ms for a process with
    numpy, scipy and pandas loaded). None where that cannot be read."""
    try:
        with open(f"/proc/{pid}/status", "rb") as f:
            text = f.read()
    except OSError:
        return None
    total, seen = 0, 0
    for line in text.splitlines():
        if line.startswith((b"VmRSS:", b"VmSwap:")):
            total += int(line.split()[1]) * 1024
            seen += 1
    return total if seen else None


def _size(nbytes: float) -> str:
    return f"{nbytes / 2**30:.1f} GiB" if nbytes >= 2**30 else f"{nbytes / 2**20:,.0f} MiB"


def _thread_nice() -> int | None:
    try:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    except (AttributeError, OSError):
        return None


@contextlib.contextmanager
def _watching_priority(nice: int | None):
    """This thread at its process's priority for the block, where it was lowered to ``nice``
    (a dashboard's heavy run) and the process may raise it again: the child computes at
    ``nice``, and this thread, which only watches it, answers a Stop at once instead of
    waiting for a busy machine's spare time. Restored afterwards."""
    try:
        tid, base = threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, os.getpid())
    except (AttributeError, OSError):
        yield
        return
    raised = False
    if nice is not None and nice > base:
        with contextlib.suppress(OSError):  # not permitted: it watches at the lower priority
            os.setpriority(os.PRIO_PROCESS, tid, base)
            raised = True
    try:
        yield
    finally:
        if raised:
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, tid, nice)


def _isolated_child(conn, func, args, kwargs, nice, pass_progress, limits) -> None:
    """The child of :func:`run_isolated`: ``func(*args, progress=..., **kwargs)`` (without
    ``progress`` unless ``pass_progress``), its progress and then its result (or its error
    and traceback) sent on ``conn``; inside the caller's budget (``limits``:
    :func:`_budget_limits`)."""
    from . import budget

    budget._CONTEXT.set(limits[0])
    budget._TIME.set(limits[1])
    if nice is not None:  # the caller's priority (a dashboard's heavy run: the lowest)
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, 0, nice)

    def report(fraction: float, text: str | None = None) -> None:
        conn.send(("progress", float(fraction), text))

    try:
        result = func(*args, **({"progress": report} if pass_progress else {}), **kwargs)
    except BaseException as exc:  # noqa: BLE001 - handed to the caller
        text = traceback.format_exc()
        try:
            conn.send(("error", exc, text))
        except Exception:  # noqa: BLE001 - an error that does not pickle: its text
            conn.send(("error", RuntimeError(f"{type(exc).__name__}: {exc}"), text))
        return
    conn.send(("done", result))


def _budget_limits() -> tuple:
    """The caller's limits of :mod:`stats._core.budget` (a session's :func:`stats.limited_budget`,
    a time bound), which a child process would not otherwise hold: context variables."""
    from . import budget

    return budget._CONTEXT.get(), budget._TIME.get()


def memory_budget() -> float:
    """The memory one computation may hold now: :data:`stats._core.budget.MAX_MEMORY_BYTES`,
    or the lower limit of the enclosing :func:`stats.limited_budget` (a dashboard session's)."""
    from . import budget

    return budget._lowest(budget.MAX_MEMORY_BYTES, budget._CONTEXT.get()[1])


def run_isolated(
    func,
    *args,
    what: str,
    progress=None,
    max_memory: float | None = None,
    reduce: str = "use smaller input",
    preload: tuple[str, ...] = (),
    pass_progress: bool = True,
    nice: int | None = None,
    **kwargs,
):
    """``func(*args, progress=report, **kwargs)`` run in a child process of the fork server
    (:func:`process_pool`'s), its result returned here; the child can be ended at any moment,
    which a thread cannot.

    - **Stop**: ``progress(fraction)`` is called here, in the calling thread, at each report
      of the child (``report(fraction, text=None)``) and at least every
      :data:`HEARTBEAT_SECONDS` meanwhile; if it raises (a dashboard whose user pressed Stop),
      the child is killed at once and the exception goes on. When ``progress`` has a
      ``describe(text)`` attribute it is also told the child's ``text``, the time so far and
      the child's memory.
    - **Memory**: the child's own memory is checked every :data:`POLL_SECONDS` (its cheap
      upper bound :func:`memory_bound`, and :func:`private_memory` when the bound passes the
      budget); past ``max_memory`` (default :func:`memory_budget`) it is killed
      and :class:`StatsInputError` says so (``what``: the computation; ``reduce``: what the
      user can do).
    - **Budget**: the child computes inside the caller's :func:`stats.limited_budget` (and time
      bound), as it would here.
    - **Errors**: an error of ``func`` is raised here again, its traceback as the cause; a
      child that dies without a word (killed by the system) raises :class:`RuntimeError`.

    ``pass_progress=False``: ``func`` takes no ``progress`` (a library function run as it
    is; Stop and the memory cap hold all the same). The child runs at the calling thread's
    priority, or at ``nice`` where that is lower (a higher nice value); the calling thread
    watches it at its process's (:func:`_watching_priority`). ``func``, ``args`` and the result must
    pickle; ``func`` must be a module-level function. ``preload``: modules for the fork server
    to import (heeded when it starts). Linux only for the memory cap (elsewhere unchecked).
    """
    limit = float(memory_budget() if max_memory is None else max_memory)
    thread_nice = _thread_nice()
    child_nice = thread_nice if nice is None or thread_nice is None else max(thread_nice, nice)
    with _watching_priority(thread_nice):
        return _run_isolated(
            func, args, kwargs, what, progress, limit, reduce, preload, pass_progress, child_nice
        )


def _kill(child) -> None:
    """SIGKILL ``child``, first raised to this process's priority where that is allowed: a
    killed process exits (and gives its memory back) only when it is next scheduled, which on
    a busy machine, at the lowest priority, can take seconds."""
    with contextlib.suppress(OSError, AttributeError):
        os.setpriority(os.PRIO_PROCESS, child.pid, os.getpriority(os.PRIO_PROCESS, os.getpid()))
    child.kill()


def _run_isolated(func, args, kwargs, what, progress, limit, reduce, preload, pass_progress,
                  nice):  # fmt: skip
    context = _context(preload)
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(
        target=_isolated_child,
        args=(sender, func, args, kwargs, nice, pass_progress, _budget_limits()),
        daemon=True,
    )
    _launching.workers = True  # no main module in the child: see _preparation_data
    try:
        child.start()
    finally:
        _launching.workers = False
        sender.close()
    show = getattr(progress, "describe", None)
    t0 = beat = time.monotonic()
    fraction, text, used = 0.0, None, 0
    next_exact = t0  # the first progress line has the exact figure
    try:
        while True:
            if receiver.poll(POLL_SECONDS):
                try:
                    message = receiver.recv()
                except EOFError:  # the child ended without a word
                    break
                if message[0] == "done":
                    return message[1]
                if message[0] == "error":
                    raise message[1] from RemoteTraceback(message[2])
                fraction, text = message[1], message[2] or text
                beat = 0.0  # told now
            # the exact figure costs milliseconds: it is read when the cheap bound passes the
            # limit, and about once a second for the progress line
            now = time.monotonic()
            bound = memory_bound(child.pid)
            if bound is None or bound > limit or (show is not None and now >= next_exact):
                used = private_memory(child.pid) or used
                next_exact = now + MEMORY_SHOWN_SECONDS
            if used > limit:
                _kill(child)
                raise StatsInputError(
                    f"{what}: needs more than {_size(limit)} of memory, the budget of one "
                    f"computation here (stopped at {_size(used)}); {reduce}"
                )
            if progress is not None and now - beat >= HEARTBEAT_SECONDS:
                beat = now
                if show is not None:
                    show(
                        f"{text + ': ' if text else ''}{now - t0:.0f} s, "
                        f"{_size(used)} of memory (budget {_size(limit)})"
                    )
                progress(fraction)
        child.join(5)
        raise RuntimeError(
            f"{what}: the worker process ended without a result (exit code {child.exitcode})"
        )
    finally:
        if child.is_alive():
            _kill(child)
        # killed, it ends at once; its exit status (which the fork server passes on) is not
        # waited for: the caller's slot is free now (multiprocessing reaps it later)
        child.join(0)
        receiver.close()
