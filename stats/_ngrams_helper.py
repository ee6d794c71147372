"""The compiled n-gram matching in a helper process that loads it while this process works.

Loading numba and the cached kernel of :mod:`stats._ngrams_kernel` costs about 0.4 s of CPU
(numba's import and its typing registries), all of it holding the GIL: a thread cannot
overlap it with anything. A one-shot command (``python -m stats randomized`` with BLEU or
chrF on text files) calls :func:`start` first: a forked copy of this process loads the
kernel on another core while this one imports pandas, reads and tokenizes the files; then
:func:`stats._ngrams_numba.order_matches` sends it the token arrays (pickled over a pipe) and
reads the counts back. The helper runs the same kernel on the same arrays, so the counts are
the same. If anything goes wrong with it (it died, it answered with an error), the matching
runs in this process instead. :func:`stop` (also called at exit) ends it, at once if it was
never asked, and reaps it (its CPU time counts as this process's children's).

A fork, not a new interpreter: the helper starts with numpy already loaded and costs little
more CPU than loading the kernel here would (a new interpreter importing numpy again cost
about 0.2 s more, which a busy machine pays in wall time too). So only where ``os.fork`` is
safe to use without ``exec``: on Linux, from a process running one thread. Nor where numba is
missing or already loaded here, or when one core is asked for. And only on an idle machine
(the load average below the cores less one and a half; as ``make --load-average`` decides
whether to start another job): measured on a shared 2-core machine, already at a load
average of 1.2-5 the helper only waited for a core, and its own cost (the fork's
copy-on-write pages, the pipe: 0.1-0.4 s of CPU) made the command slower, not faster.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import pickle
import signal
import sys
import threading

__all__ = ["order_matches", "running", "start", "stop"]

_lock = threading.Lock()
_pid: int | None = None  # the helper's process id
_requests = None  # this process's ends of the two pipes (binary files)
_replies = None
_asked = False


def start(jobs: int | None = None) -> bool:
    """Fork the helper, once per process; return whether one runs.

    Not started when ``jobs`` (default: all cores) is 1, when numba is missing or already
    loaded here, off Linux, when this process runs other threads, or when the machine is not
    idle.
    """
    global _pid, _requests, _replies
    cores = os.cpu_count() or 1
    if min(jobs or cores, cores) < 2 or "numba" in sys.modules:
        return False
    if not sys.platform.startswith("linux") or threading.active_count() != 1:
        return False
    if os.getloadavg()[0] >= cores - 1.5:  # not idle: the helper would wait for a core
        return False
    if importlib.util.find_spec("numba") is None:
        return False
    import numpy  # noqa: F401 - loaded before the fork: the helper needs it, and so do we

    with _lock:
        if _pid is not None:
            return True
        to_helper, from_here = os.pipe()
        to_here, from_helper = os.pipe()
        sys.stdout.flush()
        sys.stderr.flush()
        try:
            pid = os.fork()
        except OSError:
            for fd in (to_helper, from_here, to_here, from_helper):
                os.close(fd)
            return False
        if pid == 0:  # the helper: never returns
            try:
                os.close(from_here)
                os.close(to_here)
                serve(os.fdopen(to_helper, "rb"), os.fdopen(from_helper, "wb"))
            finally:
                os._exit(0)
        os.close(to_helper)
        os.close(from_helper)
        _pid = pid
        _requests = os.fdopen(from_here, "wb")
        _replies = os.fdopen(to_here, "rb")
        atexit.register(stop)
    return True


def running() -> bool:
    """Whether a helper is running."""
    with _lock:
        if _pid is None:
            return False
        try:
            done, _ = os.waitpid(_pid, os.WNOHANG)
        except ChildProcessError:
            return False
        return done == 0


def order_matches(tokens, lengths, n_ids, max_order, hyp_rows, ref_rows, *, threads: int):
    """:func:`stats._ngrams_numba.local_order_matches` in the helper, or None (no helper,
    or it failed: then it is stopped and the caller computes here)."""
    import numpy as np

    global _asked
    with _lock:  # one request at a time on the pipe
        if _pid is None or _requests is None or _replies is None:
            return None
        _asked = True
        small = np.min_scalar_type(max(int(n_ids) - 1, 0))  # ids as sent: smallest dtype
        request = (
            (
                np.ascontiguousarray(tokens, dtype=small),
                np.asarray(lengths),
                int(n_ids),
                int(max_order),
                np.asarray(hyp_rows),
                np.asarray(ref_rows),
            ),
            int(threads),
        )
        try:
            pickle.dump(request, _requests, protocol=pickle.HIGHEST_PROTOCOL)
            _requests.flush()
            status, value = pickle.load(_replies)
        except Exception:  # noqa: BLE001 - a dead or confused helper: compute here
            status, value = "error", None
    if status != "ok":
        stop()
        return None
    return value


def stop() -> None:
    """End the helper (at once if it was never asked) and reap it."""
    global _pid, _requests, _replies
    with _lock:
        pid, requests, replies = _pid, _requests, _replies
        _pid = _requests = _replies = None
    if pid is None:
        return
    if not _asked:
        try:
            os.kill(pid, signal.SIGKILL)  # still loading numba, for nothing
        except ProcessLookupError:
            pass
    for end in (requests, replies):
        try:
            if end is not None:
                end.close()  # the helper's end of input: it exits
        except OSError:
            pass
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def serve(requests, replies) -> None:
    """The helper's main loop: load the kernel, then answer requests until the input ends."""
    import gc

    gc.disable()  # loading numba makes some 10^5 long-lived objects and no garbage
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)  # nothing the helper prints reaches the command's output
    os.dup2(devnull, 2)
    import numpy as np

    from . import _ngrams_numba

    one = np.ones(2, dtype=np.int64)
    _ngrams_numba.local_order_matches(np.arange(4), one * 2, 4, 4, one[:1], one[:1] * 0)
    gc.freeze()
    gc.enable()
    while True:
        try:
            args, threads = pickle.load(requests)
        except EOFError:
            break
        reply: tuple[str, object]
        try:
            reply = ("ok", _ngrams_numba.local_order_matches(*args, threads=threads))
        except Exception as exc:  # noqa: BLE001 - reported; the caller computes it itself
            reply = ("error", repr(exc))
        pickle.dump(reply, replies, protocol=pickle.HIGHEST_PROTOCOL)
        replies.flush()
