"""The shared parts of the simulated power functions: argument checks, the result, the
per-simulation critical effect (from which the minimum detectable effect is read) and the
search for a sample size.

Every simulated power function draws ``n_simulations`` data sets of ``n`` items with
replacement from the observed items (one ``(n_simulations, n)`` index array per sample size,
drawn once and used for every effect: common random numbers, so the estimated power rises
smoothly with the effect) and evaluates the test on all of them at once (array operations over
simulations and resamples). The Monte Carlo error of a power :math:`\\hat p` from :math:`S`
simulations is its binomial standard error :math:`\\sqrt{\\hat p (1 - \\hat p) / S}`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats._core.budget import check_budget
from stats._core.errors import StatsInputError
from stats._core.validation import check_alpha, check_alternative, check_positive_int

__all__ = ["PowerResult", "DEFINITION"]

#: the definition every simulated power states (docs, JSON output, dashboard caption)
DEFINITION = (
    "power at n = share of simulated data sets of n items, drawn with replacement from the "
    "observed items with the difference shifted to the hypothesised effect, on which the test "
    "rejects at alpha; mde = the smallest effect in the system's favour detected with the "
    "target power (the target-power quantile of each simulated data set's critical effect)"
)

#: the definition of the corpus-metric power (:mod:`stats.power.corpus`)
DEFINITION_CORPUS = (
    "power at n = share of simulated test sets of n segments, drawn with replacement from the "
    "observed segment statistics with the system's matching n-gram (TER: edit) counts "
    "multiplied in every segment by (baseline score + effect) / system score, on which the "
    "test rejects at alpha; mde = the smallest effect in the system's favour detected with "
    "the target power"
)

#: alternatives the power functions take: the effect is "system better than baseline"
ALTERNATIVES = ("two-sided", "greater")

_BISECTIONS = 40  # halvings of the effect bracket in the critical-effect search
_CHUNK = 1 << 22  # elements of one (simulations x items) block


@dataclass(frozen=True, kw_only=True)
class PowerResult:
    """Power of a test for several effects and sample sizes, and the minimum detectable
    effect (MDE) at each sample size.

    Attributes
    ----------
    power : ndarray, shape (n_effects, n_sizes)
        Share of the simulated data sets on which the test rejects at ``alpha`` (all
        rejections: for ``'two-sided'`` in either direction).
    mc_error : ndarray, shape (n_effects, n_sizes)
        Monte Carlo standard error of ``power``, :math:`\\sqrt{p(1-p)/S}`.
    mde : ndarray, shape (n_sizes,)
        Smallest effect in the system's favour the test detects with probability
        ``target_power`` at each sample size (NaN when none within the search range).
    effects : tuple of float
    sizes : tuple of int
    test, alternative, unit : str
        ``unit``: what an item is ("segments", "items", ...).
    alpha, target_power : float
    n_simulations, n_resamples : int
        ``n_resamples`` is 0 for tests without resampling (t, signed-rank).
    seed : int or None
        The integer seed when ``rng`` was one.
    n_observed : int
        Items in the observed data the simulations draw from.
    observed_effect : float
        The difference of the observed data (system minus baseline; positive = system better).
    metric : str
    definition : str
    """

    power: np.ndarray = field(repr=False)
    mc_error: np.ndarray = field(repr=False)
    mde: np.ndarray = field(repr=False)
    effects: tuple[float, ...]
    sizes: tuple[int, ...]
    test: str
    alternative: str
    alpha: float
    target_power: float
    n_simulations: int
    n_resamples: int
    seed: int | None
    n_observed: int
    observed_effect: float
    metric: str = "mean"
    unit: str = "items"
    definition: str = DEFINITION

    def table(self) -> pd.DataFrame:
        """One row per (effect, n): ``effect, n, power, mc_error`` in the order computed."""
        eff, n = np.meshgrid(self.effects, self.sizes, indexing="ij")
        return pd.DataFrame(
            {
                "effect": eff.ravel(),
                "n": n.ravel(),
                "power": self.power.ravel(),
                "mc_error": self.mc_error.ravel(),
            }
        )

    def sample_size(self, effect: float | None = None) -> float:
        """Smallest computed sample size whose power for ``effect`` (default: the first
        effect) reaches ``target_power``, interpolated linearly between the computed sizes;
        NaN when no computed size reaches it (compute larger sizes or call the module's
        ``*_sample_size`` function)."""
        i = 0 if effect is None else _index_of(self.effects, effect)
        return _interpolate_n(self.sizes, self.power[i], self.target_power)


def _index_of(effects, effect) -> int:
    hits = [i for i, e in enumerate(effects) if np.isclose(e, effect)]
    if not hits:
        raise StatsInputError(f"effect {effect!r} was not computed; computed: {list(effects)}")
    return hits[0]


def _interpolate_n(sizes, power, target) -> float:
    order = np.argsort(sizes)
    ns, ps = np.asarray(sizes, float)[order], np.asarray(power, float)[order]
    above = np.nonzero(ps >= target)[0]
    if not len(above):
        return float("nan")
    j = above[0]
    if j == 0 or ps[j] == ps[j - 1]:
        return float(ns[j])
    frac = (target - ps[j - 1]) / (ps[j] - ps[j - 1])
    return float(np.ceil(ns[j - 1] + frac * (ns[j] - ns[j - 1])))


# ---------------------------------------------------------------------------------------------
# Argument checks
# ---------------------------------------------------------------------------------------------


def as_sizes(n, minimum: int = 2) -> tuple[int, ...]:
    values = np.atleast_1d(np.asarray(n, dtype=object))
    if values.ndim != 1 or not len(values):
        raise StatsInputError(f"n must be a positive integer or a list of them; got {n!r}")
    out = []
    for v in values:
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise StatsInputError(f"n must hold integers; got {v!r}")
        if v < minimum:
            raise StatsInputError(f"n must be at least {minimum}; got {int(v)}")
        out.append(int(v))
    return tuple(out)


def as_effects(effect) -> tuple[float, ...]:
    try:
        values = np.atleast_1d(np.asarray(effect, dtype=float))
    except (TypeError, ValueError):
        raise StatsInputError(
            f"effect must be a number or a list of numbers; got {effect!r}"
        ) from None
    if values.ndim != 1 or not len(values) or not np.all(np.isfinite(values)):
        raise StatsInputError(f"effect must be finite numbers; got {effect!r}")
    return tuple(float(v) for v in values)


def check_common(alpha, alternative, power, n_simulations):
    return (
        check_alpha(alpha),
        check_alternative(alternative, ALTERNATIVES),
        check_alpha(power, "power"),
        check_positive_int(n_simulations, "n_simulations", 2),
    )


def budget(what: str, n_simulations: int, n_resamples: int, sizes, width: int = 1) -> None:
    """Refuse before allocating: ``n_simulations x max(n_resamples, 1)`` resamples of
    ``sum(sizes)`` items with ``width`` numbers each (one matrix product per chunk when
    resampling, hence the product discount of :mod:`stats._core.budget`)."""
    from stats._core.budget import PRODUCT_SPEEDUP

    per = float(sum(sizes)) * width
    if n_resamples:
        per /= PRODUCT_SPEEDUP
    check_budget(
        what=what,
        n_resamples=n_simulations * max(n_resamples, 1),
        resamples_of={"n_simulations": n_simulations, "n_resamples": max(n_resamples, 1)}
        if n_resamples
        else {"n_simulations": n_simulations},
        n_segments=max(1, int(np.ceil(per))),
        memory=8.0 * n_simulations * max(sizes) * 3 + 8.0 * max(n_resamples, 1) * max(sizes),
    )


def chunk_size(n: int, n_simulations: int, width: int = 1) -> int:
    return max(1, min(n_simulations, _CHUNK // max(1, n * width)))


def mc_error(power: np.ndarray, n_simulations: int) -> np.ndarray:
    return np.sqrt(power * (1.0 - power) / n_simulations)


# ---------------------------------------------------------------------------------------------
# Critical effects and sample sizes
# ---------------------------------------------------------------------------------------------


def critical_effects(
    rejects: Callable[[np.ndarray], np.ndarray], size: int, lo, hi, steps: int = _BISECTIONS,
    limits: tuple[float, float] | None = None,
) -> np.ndarray:
    """For each of ``size`` simulated data sets the smallest effect at which
    ``rejects(effects)`` (one effect per data set, a boolean per data set: the test rejects
    in the system's favour) turns True, by vectorised bisection in the bracket ``[lo, hi]``
    (scalars or one per data set). With ``limits``, a bracket that does not hold the change
    is widened (doubling, within the limits) for the data sets that need it first: a narrow
    first guess costs fewer steps. ``inf`` when the test does not reject at the upper limit,
    the lower limit when it already rejects there."""
    low = np.broadcast_to(np.asarray(lo, dtype=float), (size,)).copy()
    high = np.broadcast_to(np.asarray(hi, dtype=float), (size,)).copy()
    at_hi, at_lo = rejects(high), rejects(low)
    if limits is not None:
        floor, ceiling = limits
        for _ in range(60):  # widen only the brackets that miss; usually none
            miss_hi, miss_lo = ~at_hi & (high < ceiling), at_lo & (low > floor)
            if not (miss_hi.any() or miss_lo.any()):
                break
            width = high - low
            high = np.where(miss_hi, np.minimum(high + 2 * width, ceiling), high)
            low = np.where(miss_lo, np.maximum(low - 2 * width, floor), low)
            at_hi = np.where(miss_hi, rejects(high), at_hi)
            at_lo = np.where(miss_lo, rejects(low), at_lo)
    start_low = low.copy()
    for _ in range(steps):  # all data sets at once: the count fixes the precision
        mid = (low + high) / 2.0
        up = rejects(mid)
        high, low = np.where(up, mid, high), np.where(up, low, mid)
    return np.where(at_lo, start_low, np.where(at_hi, high, np.inf))


def mde_from_critical(critical: np.ndarray, power: float) -> float:
    """The ``power`` quantile of the critical effects (the effect at which that share of the
    data sets rejects), NaN when it lies beyond the search range."""
    value = float(np.quantile(critical, power, method="inverted_cdf"))
    return value if np.isfinite(value) else float("nan")


def scalar_mde(
    power_at: Callable[[float], float], target: float, guess: float, limit: float,
    steps: int = 24,
) -> float:
    """The smallest effect whose power in the system's favour, ``power_at(effect)`` (one
    effect for every simulated data set: common random numbers), reaches ``target``: the
    bracket ``[guess/1.5, 1.5 guess]`` moved (halving or doubling, up to ``limit``) until it
    holds the crossing, then bisection.
    Equals :func:`mde_from_critical` of the per-data-set critical effects when each data set's
    rejection is monotone in the effect; NaN beyond ``limit``."""
    guess = max(float(guess), 1e-12)
    lo, hi = guess / 1.5, guess * 1.5  # a close first bracket (the guess: a closed form)
    while power_at(hi) < target:
        if hi >= limit:
            return float("nan")
        lo, hi = hi, min(2.0 * hi, limit)
    while lo > 0 and power_at(lo) >= target:
        hi, lo = lo, (lo / 2.0 if lo > guess * 1e-3 else 0.0)
    if lo == 0 and power_at(0.0) >= target:
        return 0.0
    for _ in range(steps):
        mid = (lo + hi) / 2.0
        lo, hi = (lo, mid) if power_at(mid) >= target else (mid, hi)
    return hi


def smallest_n(power_at: Callable[[int], float], target: float, n_min: int, n_max: int) -> int:
    """Smallest n in ``[n_min, n_max]`` with ``power_at(n) >= target`` by bisection (the
    simulated power rises with n up to its Monte Carlo error); raises when ``n_max`` is
    not enough."""
    if power_at(n_max) < target:
        raise StatsInputError(
            f"even n_max={n_max:,} does not reach power {target:g} for this effect; raise "
            "n_max or the effect"
        )
    lo, hi = n_min, n_max
    if power_at(lo) >= target:
        return lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if power_at(mid) >= target:
            hi = mid
        else:
            lo = mid
    return hi
