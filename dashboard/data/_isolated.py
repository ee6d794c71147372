"""The long computations of the data layer, each in a child process
(:func:`stats.run_isolated`): Stop ends one at once, and the session's memory budget holds
while it runs, not only at its next progress report. No Streamlit here: the fork server
imports this module for its children."""

from __future__ import annotations

import warnings

from stats import run_isolated

#: the scheduling priority (Linux nice value) of the child processes the long computations run
#: in: the lowest, so that the server's own threads (uploads, redraws, a Stop) and the
#: browsers on the same machine come first. The server's threads keep theirs (see
#: :func:`dashboard.page_run.run_steps`).
HEAVY_NICE = 19
#: what the fork server imports once, before its first child: each child starts with the
#: modules of the computations it may run (``stats.analyses`` alone imports them lazily; a
#: child that imported pandas itself would take seconds to start on a busy machine)
PRELOAD = (
    __name__,
    "stats.mt.randomized",
    "stats.mt.baseline_table",
    "stats.analyses.task_set",
    "stats.analyses.autorank",
    "stats.analyses.meta_significance",
    "stats.analyses.power",
)


#: element operations (resamples x values, roughly) from which a computation runs in a child
#: process (about a second of numpy on one core, as stats.check_budget counts): below, it ends
#: within about a second in the script thread (Stop at its next progress report), where a
#: child would cost more than the work (0.1-0.3 s to start and import what it needs)
ISOLATE_FROM = 2e8


def upload_values(uploads) -> float:
    """A rough count of the values in ``uploads`` (one per 8 bytes), for ``work``."""
    return sum(len(data) for _, data in uploads) / 8


def isolated(func, *args, work: float, what: str, progress=None, reduce: str, **kwargs):
    """``func(*args, progress=..., **kwargs)`` in a child process at :data:`HEAVY_NICE`
    (:func:`stats.run_isolated`; ``what`` and ``reduce`` name the computation and what the
    user can do when it needs more memory than the session's budget), or here when its
    ``work`` (element operations, roughly) is under :data:`ISOLATE_FROM`."""
    if work < ISOLATE_FROM:
        return func(*args, progress=progress, **kwargs)
    return run_isolated(
        func, *args, what=what, progress=progress, reduce=reduce, preload=PRELOAD,
        nice=HEAVY_NICE, **kwargs,
    )  # fmt: skip


def recording_warnings(func, *args, **kwargs) -> tuple:
    """``func(*args, **kwargs)`` and the distinct messages of the warnings it gave (they come
    back from a child process as text)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = func(*args, **kwargs)
    return result, tuple(dict.fromkeys(str(w.message) for w in caught))
