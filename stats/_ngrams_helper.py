"""The compiled n-gram matching in a helper process that loads it while this process works.

Loading numba and the cached kernel of :mod:`stats._ngrams_kernel` costs about 0.4 s of CPU
(numba's import and its typing registries), all of it holding the GIL: a thread cannot
overlap it with anything. A one-shot command (``python -m stats randomized`` with BLEU or
chrF on text files) calls :func:`start` first: a helper process loads the kernel on another
core while this one imports pandas, reads and tokenizes the files; then
:func:`stats._ngrams_numba.order_matches` sends it the token arrays (pickled over a pipe) and
reads the counts back. The helper runs the same kernel on the same arrays, so the counts are
the same. If anything goes wrong with it (it could not start, it died, it answered with an
error), the matching runs in this process instead. :func:`stop` (also called at exit) ends
it, at once if it was never asked, and reaps it (its CPU time counts as this process's
children's).

Only started where numba is not loaded yet (a process that has the kernel loaded gains
nothing from a helper), and only when more than one core may be used.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import pickle
import subprocess
import sys
import threading
from pathlib import Path

__all__ = ["order_matches", "running", "start", "stop"]

_lock = threading.Lock()
_helper: subprocess.Popen | None = None
_asked = False

#: the helper's program: this package's directory first on its path, then :func:`serve`
_PROGRAM = (
    "import sys; sys.path.insert(0, {root!r}); from stats._ngrams_helper import serve; serve()"
)


def start(jobs: int | None = None) -> bool:
    """Start the helper, once per process; return whether one runs.

    Not started when ``jobs`` (default: all cores) is 1, when numba is missing, or when
    numba is already loaded here.
    """
    global _helper
    if (jobs or os.cpu_count() or 1) < 2 or "numba" in sys.modules:
        return False
    if importlib.util.find_spec("numba") is None:
        return False
    with _lock:
        if _helper is None:
            root = str(Path(__file__).resolve().parents[1])
            try:
                _helper = subprocess.Popen(
                    [sys.executable, "-c", _PROGRAM.format(root=root)],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                )
            except OSError:
                return False
            atexit.register(stop)
    return True


def running() -> bool:
    """Whether a helper is running."""
    with _lock:
        return _helper is not None and _helper.poll() is None


def order_matches(tokens, lengths, n_ids, max_order, hyp_rows, ref_rows, *, threads: int):
    """:func:`stats._ngrams_numba.local_order_matches` in the helper, or None (no helper,
    or it failed: then it is stopped and the caller computes here)."""
    import numpy as np

    global _asked
    with _lock:  # one request at a time on the pipe
        helper = _helper
        if helper is None or helper.poll() is not None:
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
            assert helper.stdin is not None and helper.stdout is not None
            pickle.dump(request, helper.stdin, protocol=pickle.HIGHEST_PROTOCOL)
            helper.stdin.flush()
            status, value = pickle.load(helper.stdout)
        except Exception:  # noqa: BLE001 - a dead or confused helper: compute here
            status, value = "error", None
    if status != "ok":
        stop()
        return None
    return value


def stop() -> None:
    """End the helper (at once if it was never asked) and reap it."""
    global _helper
    with _lock:
        helper, _helper = _helper, None
    if helper is None:
        return
    if not _asked:
        helper.kill()  # still loading numba, for nothing
    try:
        assert helper.stdin is not None
        helper.stdin.close()  # the helper's end of input: it exits
    except OSError:
        pass
    helper.wait()
    if helper.stdout is not None:
        helper.stdout.close()


def serve() -> None:
    """The helper's main loop: load the kernel, then answer requests until the input ends."""
    import gc

    gc.disable()  # loading numba makes some 10^5 long-lived objects and no garbage
    out = os.fdopen(os.dup(1), "wb")  # the answers' pipe; anything printed goes to stderr
    os.dup2(2, 1)
    import numpy as np

    from . import _ngrams_numba

    one = np.ones(2, dtype=np.int64)
    _ngrams_numba.local_order_matches(np.arange(4), one * 2, 4, 4, one[:1], one[:1] * 0)
    gc.freeze()
    gc.enable()
    source = sys.stdin.buffer
    while True:
        try:
            args, threads = pickle.load(source)
        except EOFError:
            break
        reply: tuple[str, object]
        try:
            reply = ("ok", _ngrams_numba.local_order_matches(*args, threads=threads))
        except Exception as exc:  # noqa: BLE001 - reported; the caller computes it itself
            reply = ("error", repr(exc))
        pickle.dump(reply, out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()
    out.close()
    os._exit(0)  # a helper process: nothing to tidy (the kernel and arrays die with it)
