"""Cached data of the "Power" page: the segment statistics of :mod:`dashboard.data.mt_systems`
(extracted once per input) and the power curves of :func:`stats.analyses.power_from_statistics`,
cached per input and setting."""

from __future__ import annotations

import math
from collections.abc import Callable

from dashboard.data import Uploads, mt_systems
from dashboard.data._cache import cache_data
from dashboard.data._isolated import isolated
from stats import analyses


@cache_data(show_spinner=False, max_entries=32)
def power_curves(
    kind: str,
    references: Uploads,
    files: Uploads,
    metric: str,
    higher_is_better: bool,
    baseline: str,
    system: str,
    effects: tuple[float, ...],
    sizes: tuple[int, ...] | None,
    test: str,
    alpha: float,
    n_simulations: int,
    n_resamples: int,
    seed: int,
    _progress: Callable[[float], None] | None = None,
) -> analyses.PowerAnalysis:
    """Power of ``test`` for ``system`` over ``baseline`` at ``effects`` x ``sizes`` (None:
    :func:`stats.analyses.power.default_sizes`), the size at effect 0, the MDE at 80% per
    size and the sample size for the first effect. ``_progress`` (not part of the cache key)
    receives the fraction done: the first fifth scoring the systems, the rest simulating."""

    def part(lo: float, hi: float):
        if _progress is None:
            return None
        return lambda f: _progress(lo + (hi - lo) * f)

    data = mt_systems.statistics(kind, references, files, metric, higher_is_better,
                                 _progress=part(0.0, 0.2))
    return isolated(  # in a child process: Stop ends it, the session's memory budget holds
        analyses.power_from_statistics,
        data, baseline=baseline, system=system, effect=list(effects),
        n=None if sizes is None else list(sizes), test=test, alpha=alpha,
        n_simulations=n_simulations, n_resamples=n_resamples, rng=seed,
        work=math.inf, what="simulating power", progress=part(0.2, 1.0),
        reduce="use fewer simulations or resamples",
    )


def systems(kind: str, references: Uploads, files: Uploads, metric: str,
            higher_is_better: bool) -> tuple[str, ...]:
    """The systems of the input, in input order."""
    return mt_systems.statistics(kind, references, files, metric, higher_is_better).systems
