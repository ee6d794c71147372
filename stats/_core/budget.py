"""Work and memory budgets, checked before a resampling test allocates anything.

A resampling test costs about ``n_resamples x (n_segments x n_systems + n_pairs)`` element
operations (randomized tests: every resample re-sums every system's statistics, then compares
every pair) and holds ``n_resamples x n_systems`` resampled scores in memory. A request past
:data:`MAX_WORK` or :data:`MAX_MEMORY_BYTES`, or with more than :data:`MAX_SYSTEMS` systems or
:data:`MAX_METRICS` metrics, is refused with one :class:`~stats.StatsInputError` line saying
what to reduce, instead of exhausting the memory or running for hours. The limits are module
constants so a caller with a bigger machine can raise them (``stats._core.budget.MAX_WORK = ...``);
the dashboard passes smaller per-session memory limits.

Inside :func:`time_bounded` (the command line, the dashboard's long runs) no operation count
refuses work: memory still bounds it before it starts, and a time the caller states
(``max_seconds``) is checked against the estimate (work / :data:`OPERATIONS_PER_SECOND`),
refused with :class:`OverTimeBound`; the caller shows progress and lets the user stop.
"""

from __future__ import annotations

import contextlib
import contextvars
import math
from collections.abc import Mapping

from .errors import StatsInputError

__all__ = [
    "MAX_MEMORY_BYTES",
    "MAX_METRICS",
    "MAX_SYSTEMS",
    "MAX_WORK",
    "OPERATIONS_PER_SECOND",
    "PRODUCT_SPEEDUP",
    "OverTimeBound",
    "check_budget",
    "check_run_budget",
    "estimated_seconds",
    "limited_budget",
    "memory_limit",
    "time_bounded",
]

#: element operations one call may do (about a minute of numpy on one core)
MAX_WORK = 1e10
#: bytes one call may hold at once
MAX_MEMORY_BYTES = 2 * 2**30
#: how many of the work's element operations a matrix product (BLAS) does in the time numpy's
#: element-wise work does one: a conservative share of the measured ratio (PERM-BOTH's item-pair
#: product at WMT24 size, 1.5e10 multiply-adds per 500 resamples, took about 2 s of CPU, some 45x
#: the element-wise rate MAX_WORK assumes); a path that is one product divides its cost by it
PRODUCT_SPEEDUP = 10.0
#: systems compared in one test (all pairs: n (n - 1) / 2 of them)
MAX_SYSTEMS = 1000
#: metrics compared in one test or grid
MAX_METRICS = 500


#: (max_work, max_memory) of the current context (:func:`limited_budget`); None: the module limits
_CONTEXT: contextvars.ContextVar[tuple[float | None, float | None]] = contextvars.ContextVar(
    "stats_budget", default=(None, None)
)


@contextlib.contextmanager
def limited_budget(*, max_work: float | None = None, max_memory: float | None = None):
    """Lower the budget of every :func:`check_budget` inside the ``with`` block.

    The limits hold for the current thread (a :class:`contextvars.ContextVar`), so a server
    running one thread per session (Streamlit) caps each session without affecting the
    others. Limits above the module constants are ignored.
    """
    token = _CONTEXT.set((max_work, max_memory))
    try:
        yield
    finally:
        _CONTEXT.reset(token)


#: element operations, as the budgets count them, done per second by one process: the
#: estimate :func:`time_bounded` checks ``max_seconds`` against (seconds = operations / rate).
#: Measured with benchmarks/time_estimate.py on the project's shared 2-core machine (2 CPUs,
#: load average 17-19 from eight sessions): the 3-pair task set (``rank``: 15 systems x 1,500
#: segments x 20 metrics, 1,000 resamples, 2.59e10 operations) 17.9 s CPU (1.45e9 operations
#: per CPU second; PERM-BOTH's products), 162 s wall -- and 13 s CPU, 46 s wall at load 10;
#: ``randomized`` on 16 systems x 2,000 scores, 10,000 resamples: paired bootstrap 3.2e8
#: operations in 1.1 s CPU with the reading (7e8 a CPU second over the difference from 1,000
#: resamples), approximate randomization 3.5e8 in 0.2 s CPU. One rate serves every kind (they
#: differ by 2-3x, the machine's load by more): 5e8, so the task set is estimated at 52 s (46 s
#: wall at load 10; was 130 s at 2e8) and element-wise paths err long. Wall time grows with
#: the load (about CPU x load / cores once the load is over the cores: 8.5 x at load 17).
OPERATIONS_PER_SECOND = 5e8

#: (on, max_seconds) of the current context (:func:`time_bounded`)
_TIME: contextvars.ContextVar[tuple[bool, float | None]] = contextvars.ContextVar(
    "stats_time_bound", default=(False, None)
)


class OverTimeBound(StatsInputError):
    """A computation whose estimated time is over the ``max_seconds`` of :func:`time_bounded`.

    Attributes: ``seconds`` (the estimate), ``max_seconds`` and ``most`` (the most resamples
    that fit, or None when resamples are not what costs the time)."""

    def __init__(self, message: str, *, seconds: float, max_seconds: float, most: int | None):
        super().__init__(message)
        self.seconds, self.max_seconds, self.most = seconds, max_seconds, most

    def __reduce__(self):  # pickled whole: an isolated child process raises it to the server
        return (_over_time_bound, (str(self), self.seconds, self.max_seconds, self.most))


def _over_time_bound(message: str, seconds: float, max_seconds: float, most: int | None):
    """:class:`OverTimeBound` from its pickled fields."""
    return OverTimeBound(message, seconds=seconds, max_seconds=max_seconds, most=most)


def estimated_seconds(work: float) -> float:
    """Seconds ``work`` element operations take at :data:`OPERATIONS_PER_SECOND`.

    >>> estimated_seconds(2e10)
    40.0
    """
    return float(work) / OPERATIONS_PER_SECOND


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:,.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:,.1f} min"
    return f"{seconds / 3600:,.1f} h"


@contextlib.contextmanager
def time_bounded(*, max_seconds: float | None = None):
    """Bound the work of every check inside the ``with`` block by time, not by an operation
    count: :data:`MAX_WORK` and :func:`limited_budget`'s ``max_work`` refuse nothing there
    (memory limits still do); with ``max_seconds``, a computation whose estimated time
    (:func:`estimated_seconds`) is over it is refused before it starts
    (:class:`OverTimeBound`, naming ``max_seconds`` and the most resamples that fit).

    For callers that show progress and let the user stop a run (the command line, the
    dashboard's Stop button); holds for the current thread, like :func:`limited_budget`.

    Examples
    --------
    >>> with time_bounded(max_seconds=1):
    ...     check_run_budget(what="task set", n_resamples=1000, per_resample=1e7)
    Traceback (most recent call last):
    ...
    stats._core.budget.OverTimeBound: task set: n_resamples=1,000 x 1e+07 operations per resample is 1e+10 operations, an estimated 20 s, over max_seconds=1; reduce n_resamples to at most 50, or allow more time
    """
    if max_seconds is not None and not (float(max_seconds) > 0):
        raise StatsInputError(f"max_seconds must be a positive number; got {max_seconds!r}")
    token = _TIME.set((True, None if max_seconds is None else float(max_seconds)))
    try:
        yield
    finally:
        _TIME.reset(token)


def _over_time(what: str, given: str, work: float, per_resample: float, fixed: float = 0.0,
               extra: int = 0) -> bool:
    """In :func:`time_bounded`: refuse work whose estimate is over ``max_seconds`` (and say
    True: the time bound replaces the operation count); outside it: False."""
    on, max_seconds = _TIME.get()
    if not on:
        return False
    if max_seconds is not None and estimated_seconds(work) > max_seconds:
        room = max_seconds * OPERATIONS_PER_SECOND - fixed
        most = math.floor(room / max(per_resample, 1.0)) - extra if room > 0 else 0
        raise OverTimeBound(
            f"{what}: {given} is {work:.3g} operations, an estimated "
            f"{_duration(estimated_seconds(work))}, over max_seconds={max_seconds:g}; "
            + (f"reduce n_resamples to at most {most:,}, or allow more time" if most >= 1
               else "allow more time")
            ,
            seconds=estimated_seconds(work),
            max_seconds=max_seconds,
            most=most if most >= 1 else None,
        )
    return True


def _lowest(*limits: float | None) -> float:
    return min(v for v in limits if v is not None)


def memory_limit() -> float:
    """The bytes one computation may hold now: :data:`MAX_MEMORY_BYTES`, or a smaller
    :func:`limited_budget` of the current context (a dashboard session's cap).

    Examples
    --------
    >>> with limited_budget(max_memory=2**20):
    ...     memory_limit()
    1048576
    """
    return _lowest(MAX_MEMORY_BYTES, _CONTEXT.get()[1])


def size_text(nbytes: float) -> str:
    """``1.5 GiB``-style size for a message."""
    return _size(nbytes)


def _size(nbytes: float) -> str:
    for unit, scale in (("TiB", 2**40), ("GiB", 2**30), ("MiB", 2**20)):
        if nbytes >= scale:
            return f"{nbytes / scale:,.1f} {unit}"
    return f"{nbytes:,.0f} bytes"


def check_budget(
    *,
    what: str,
    n_resamples: int = 1,
    n_segments: int = 1,
    n_systems: int | None = None,
    n_metrics: int | None = None,
    n_pairs: int = 0,
    pair_cost: float = 1.0,
    memory: float = 0.0,
    max_work: float | None = None,
    max_memory: float | None = None,
    extra_resamples: int = 0,
    resamples_of: Mapping[str, int] | None = None,
) -> None:
    """Refuse a computation larger than the budget, before anything is allocated.

    Parameters
    ----------
    what : str
        The computation, as the message names it (e.g. ``"paired-bootstrap"``).
    n_resamples, n_segments : int
        Resamples and the items each resample draws (segments, or items of a meta-evaluation).
    n_systems, n_metrics : int, optional
        Checked against :data:`MAX_SYSTEMS` / :data:`MAX_METRICS`; ``n_systems`` also counts
        in the work, as ``n_segments x n_systems`` per resample.
    n_pairs : int
        Pairs compared on each resample (systems or metrics).
    pair_cost : float
        Operations per pair and resample (1 for a difference of two scores; the number of
        cells for a statistic recomputed over the whole table, as PERM-BOTH does).
    memory : float
        Bytes the computation holds at once (the caller's estimate from its array shapes).
    extra_resamples : int
        Resamples the computation adds to ``n_resamples`` (approximate randomization's bootstrap
        for the interval): counted in the work, while messages name the ``n_resamples`` given.
    resamples_of : mapping, optional
        The arguments the caller was given whose product is ``n_resamples`` (e.g.
        ``{"n_simulations": 1000, "n_resamples": 1000}`` for a power simulation): messages
        name them, and the advice bounds their product and the last of them, the others kept;
        ``{}`` for a computation without resamples (its advice is fewer systems or segments).
    max_work, max_memory : float, optional
        Smaller limits than :data:`MAX_WORK` / :data:`MAX_MEMORY_BYTES`; :func:`limited_budget` sets
        them for a whole block (e.g. one dashboard session).

    Raises
    ------
    StatsInputError
        One line naming the sizes received, the limit, and what to reduce.

    Notes
    -----
    .. math::

        W = R \\, (n \\, \\max(K, 1) + P \\, c)

    with :math:`R` resamples, :math:`n` segments, :math:`K` systems, :math:`P` pairs and
    :math:`c` the ``pair_cost``;
    :math:`W` must not exceed the work limit.
    """
    context_work, context_memory = _CONTEXT.get()
    work_limit = _lowest(MAX_WORK, context_work, max_work)
    memory_limit = _lowest(MAX_MEMORY_BYTES, context_memory, max_memory)
    if n_systems is not None and n_systems > MAX_SYSTEMS:
        raise StatsInputError(
            f"{what}: {n_systems:,} systems is over the limit of {MAX_SYSTEMS:,} "
            f"({n_systems * (n_systems - 1) // 2:,} pairs); compare fewer systems"
        )
    if n_metrics is not None and n_metrics > MAX_METRICS:
        raise StatsInputError(
            f"{what}: {n_metrics:,} metrics is over the limit of {MAX_METRICS:,}; "
            "compare fewer metrics"
        )
    per_resample = float(n_segments) * max(n_systems or 1, 1) + float(n_pairs) * pair_cost
    work = float(n_resamples + extra_resamples) * per_resample
    names = dict({"n_resamples": n_resamples} if resamples_of is None else resamples_of)
    given = " x ".join(f"{k}={v:,}" for k, v in names.items()) + (
        f" (+ {extra_resamples:,} for the interval)" if extra_resamples else ""
    )
    given = f"{given} x " if given else ""
    systems = "the number of systems"
    if memory > memory_limit:
        fewer = [" x ".join(names)] if names else []
        fewer += [systems] if n_systems and (n_systems > 2 or not names) else []
        raise StatsInputError(
            f"{what}: {given.removesuffix(' x ')}{' with ' if given else ''}{n_segments:,} "
            f"segments{f', {n_systems:,} systems' if n_systems else ''} needs about "
            f"{_size(memory)} of memory, over the budget of {_size(memory_limit)}; reduce "
            f"{' or '.join(fewer) or 'the data'}"
        )
    if _over_time(
        what,
        f"{given} x {n_segments:,} segments" + (f" x {n_systems:,} systems" if n_systems else ""),
        work, per_resample, extra=extra_resamples,
    ):
        return
    if work > work_limit:
        most = max(1, math.floor(work_limit / max(per_resample, 1)) - extra_resamples)
        size = f"{systems} or segments" if n_systems else "the number of segments"
        advice = f"{_at_most(names, most)}, or {size}" if names else size
        raise StatsInputError(
            f"{what}: {given}{n_segments:,} segments"
            f"{f' x {n_systems:,} systems' if n_systems else ''}"
            f"{f' (+ {n_pairs:,} pairs)' if n_pairs else ''} is {work:.3g} operations, over the "
            f"budget of {work_limit:.3g}; reduce {advice}"
        )


def _at_most(names: Mapping[str, int], most: int) -> str:
    """``n_resamples to at most 5`` or, for a product of arguments, ``n_simulations x
    n_resamples to at most 5,000 (n_resamples to at most 5 with n_simulations=1,000)``."""
    if len(names) == 1:
        return f"{next(iter(names))} to at most {most:,}"
    *others, last = names
    kept = math.prod(max(int(names[k]), 1) for k in others)
    product = f"{' x '.join(names)} to at most {most:,}"
    if most < kept:  # the last alone cannot bring it under: the product is the advice
        return product
    held = ", ".join(f"{k}={names[k]:,}" for k in others)
    return f"{product} ({last} to at most {most // kept:,} with {held})"


#: element operations one pair of systems of a human ranking costs besides its items (a test
#: per pair and domain, its p-value and the ranking's bookkeeping: 1,500 systems, 1.1 million
#: pairs of 5 items, ran past 120 s)
PAIR_OVERHEAD = 2e4
#: element operations one task of a task set costs besides its resamples (tables, observed
#: correlations, p-values, Python per piece): 0.12 s per task measured with 100 small tasks on
#: 2 shared cores, about 2e7 of the operations :data:`MAX_WORK` counts
TASK_OVERHEAD = 2e7


def check_run_budget(
    *, what: str, n_resamples: int, per_resample: float, n_tasks: int = 0, fewer: str = "tasks"
) -> None:
    """Refuse a whole run (every task of a task set, every system pair of a ranking) larger
    than the budget, before its first piece runs: the pieces each pass :func:`check_budget`,
    but a run of many pieces is bounded here as one computation, with the refusal
    ``meta-eval`` gives for the same work.

    ``per_resample``: element operations of one resample summed over the run's parts (for
    PERM-BOTH, ``cells x (1 + pairs)`` of each task's block); ``n_tasks`` tasks add
    :data:`TASK_OVERHEAD` each; ``fewer``: what else to reduce.

    Examples
    --------
    >>> check_run_budget(what="task set", n_resamples=10**9, per_resample=1e4)
    Traceback (most recent call last):
    ...
    stats._core.errors.StatsInputError: task set: n_resamples=1,000,000,000 x 1e+04 operations per resample is 1e+13 operations for the whole run, over the budget of 1e+10; reduce n_resamples to at most 1,000,000, or the number of tasks
    """
    context_work, _ = _CONTEXT.get()
    limit = _lowest(MAX_WORK, context_work)
    fixed = n_tasks * TASK_OVERHEAD
    work = float(n_resamples) * float(per_resample) + fixed
    given = f"n_resamples={n_resamples:,} x {per_resample:.3g} operations per resample"
    if _over_time(what, given, work, per_resample, fixed):
        return
    if work > limit:
        if fixed >= limit:
            raise StatsInputError(
                f"{what}: {n_tasks:,} {fewer} cost about {fixed:.3g} operations before any "
                f"resample, over the budget of {limit:.3g} for a whole run; run at most "
                f"{int(limit // TASK_OVERHEAD):,} {fewer} at a time"
            )
        most = max(1, math.floor((limit - fixed) / max(per_resample, 1.0)))
        raise StatsInputError(
            f"{what}: n_resamples={n_resamples:,} x {per_resample:.3g} operations per resample "
            f"is {work:.3g} operations for the whole run, over the budget of {limit:.3g}; "
            f"reduce n_resamples to at most {most:,}, or the number of {fewer}"
        )
