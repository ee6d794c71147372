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

__all__ = ["PowerResult", "SampleSizeResult", "DEFINITION"]

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
    """Power of a test for several effects and sample sizes, its rejection rate at effect 0
    (its real size under the simulation's null), the minimum detectable effect (MDE) at each
    sample size and the sample size reaching the target power.

    Attributes
    ----------
    power : ndarray, shape (n_effects, n_sizes)
        Share of the simulated data sets on which the test rejects at ``alpha`` in the
        direction of the effect (for ``'two-sided'`` a rejection the wrong way is not power,
        Card et al. 2020); at effect 0, every rejection.
    mc_error : ndarray, shape (n_effects, n_sizes)
        Monte Carlo standard error of ``power``, :math:`\\sqrt{p(1-p)/S}`.
    size : ndarray, shape (n_sizes,)
        Rejection rate at effect 0 (either direction): the test's real size under the
        simulation's null, to set beside ``alpha``; ``notes`` says when it exceeds ``alpha``
        by more than 2 Monte Carlo standard errors.
    size_mc_error : ndarray, shape (n_sizes,)
    mde : ndarray, shape (n_sizes,)
        Smallest effect in the system's favour the test detects with probability
        ``target_power`` at each sample size (NaN when none within the search range).
    sample_size : float
        Items needed for ``target_power`` at the first effect (NaN when not computed or not
        reached within the search's limit); ``sample_size_mc_error`` its Monte Carlo standard
        error (the power's error over the power curve's local slope).
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
    effect_meaning : str
        What "effect" is for this test (one line, also in the outputs).
    notes : tuple of str
        Warnings about this result (excess size, sizes beyond the observed items, ...).
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
    size: np.ndarray | None = field(default=None, repr=False)
    size_mc_error: np.ndarray | None = field(default=None, repr=False)
    sample_size: float = float("nan")
    sample_size_mc_error: float = float("nan")
    effect_meaning: str = ""
    notes: tuple[str, ...] = ()

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


def finish(result: PowerResult, *, size=None, notes=()) -> PowerResult:
    """``result`` with its size (the rejection rate at effect 0 per n, or taken from the
    power at an effect 0 that was computed) and its notes: the size's excess over alpha and
    the given ``notes``; each note is also raised as a :class:`~stats.DegenerateInputWarning`
    (the CLI prints it on standard error)."""
    import warnings
    from dataclasses import replace

    from stats._core.errors import DegenerateInputWarning

    if size is None:
        size = result.size
    size = np.asarray(size, dtype=float)
    out = list(notes)
    out += size_notes(size, result.alpha, result.n_simulations, result.sizes)
    for text in out:
        warnings.warn(text, DegenerateInputWarning, stacklevel=3)
    return replace(result, size=size, size_mc_error=mc_error(size, result.n_simulations),
                   notes=tuple(dict.fromkeys(result.notes + tuple(out))))


def size_notes(size, alpha: float, n_simulations: int, sizes) -> list[str]:
    """The note when the rejection rate at effect 0 exceeds ``alpha`` by more than 2 Monte
    Carlo standard errors of a rate ``alpha`` at some n."""
    se = float(np.sqrt(alpha * (1 - alpha) / n_simulations))
    over = [(n, s) for n, s in zip(sizes, np.asarray(size, float), strict=True)
            if np.isfinite(s) and s > alpha + 2 * se]
    if not over:
        return []
    where = ", ".join(f"{s:.3f} at n={n:,}" for n, s in over)
    return [
        f"the test rejects more often than alpha={alpha:g} when there is no effect ({where}; "
        f"2 Monte Carlo SE = {2 * se:.3f}): it is liberal there, and the power at those sizes "
        "includes that excess"
    ]


def directed(reject: np.ndarray, favour: np.ndarray, effect: float, alternative: str):
    """Rejections that count as power for ``effect``: in the effect's direction (two-sided:
    a rejection the wrong way is not power, Card et al. 2020); at effect 0, every rejection
    (the size); for ``'greater'`` every rejection (all are in the system's favour)."""
    if alternative == "greater" or effect == 0:
        return reject
    return favour if effect > 0 else reject & ~favour


def resampling_reachable(alpha: float, n_resamples: int, smallest_count: int) -> None:
    """Refuse ``n_resamples`` too few for the test ever to reject: its smallest p-value is
    ``smallest_count / (n_resamples + 1)``."""
    p = smallest_count / (n_resamples + 1.0)
    if p >= alpha:
        need = int(np.floor(smallest_count / alpha))
        raise StatsInputError(
            f"n_resamples={n_resamples:,}: the smallest p-value the test can give is "
            f"{smallest_count}/{n_resamples + 1} = {p:.3g}, not below alpha={alpha:g}, so it "
            f"could never reject (power 0); use n_resamples of at least {need:,}"
        )


def beyond_observed_note(sizes, n_observed: int, unit: str = "items") -> list[str]:
    """The note for sample sizes larger than the observed data."""
    big = [n for n in sizes if n > n_observed]
    if not big:
        return []
    return [
        f"n={', '.join(f'{n:,}' for n in big)} exceed{'s' if len(big) == 1 else ''} the "
        f"{n_observed:,} observed {unit}: those data sets resample the observed {unit} with "
        "replacement (repeats), assuming new items would vary as these do"
    ]


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


def _work_per_item(n_simulations: int, n_resamples: int, width: int, discount: float) -> float:
    """Work units (:data:`stats._core.budget.MAX_WORK`'s) of one simulated item."""
    return float(n_simulations) * max(n_resamples, 1) * width / (discount if n_resamples else 1.0)


def _limit() -> float:
    from stats._core import budget as B

    return B._lowest(B.MAX_WORK, B._CONTEXT.get()[0])


def budget(what: str, n_simulations: int, n_resamples: int, sizes, width: int = 1,
           discount: float | None = None) -> None:
    """Refuse before allocating: ``n_simulations x max(n_resamples, 1)`` resamples of
    ``sum(sizes)`` items with ``width`` numbers each (one matrix product per chunk when
    resampling, hence the product ``discount``, :data:`stats._core.budget.PRODUCT_SPEEDUP` by
    default). The refusal names the settings a user controls: simulations, resamples and
    sample sizes."""
    from stats._core import budget as B

    discount = discount or B.PRODUCT_SPEEDUP
    per = max(1.0, float(np.ceil(float(sum(sizes)) * width / (discount if n_resamples else 1))))
    try:
        check_budget(
            what=what,
            n_resamples=n_simulations * max(n_resamples, 1),
            resamples_of={"n_simulations": n_simulations, "n_resamples": max(n_resamples, 1)}
            if n_resamples
            else {"n_simulations": n_simulations},
            n_segments=int(per),
            memory=8.0 * n_simulations * max(sizes) * 3 + 8.0 * max(n_resamples, 1) * max(sizes),
        )
    except StatsInputError as exc:
        if "operations" not in str(exc):
            raise
        limit = _limit()
        work = float(n_simulations) * max(n_resamples, 1) * per
        most = int(limit // per)
        pair = (f"n_simulations={n_simulations:,} x n_resamples={n_resamples:,}" if n_resamples
                else f"n_simulations={n_simulations:,}")
        fewer = (f"n_simulations x n_resamples to at most {most:,} (e.g. n_simulations="
                 f"{max(2, most // max(n_resamples, 1)):,} with these resamples)" if n_resamples
                 else f"n_simulations to at most {most:,}")
        raise StatsInputError(
            f"{what}: {pair} simulated tests over the sample sizes "
            f"({', '.join(f'{n:,}' for n in sizes)}; {sum(sizes):,} items in all) is "
            f"{work:.3g} operations, over the budget of {limit:.3g}; reduce {fewer}, or the "
            "sample sizes"
        ) from None


def search_cap(n_simulations: int, n_resamples: int, sizes, width: int = 1,
               discount: float | None = None) -> int:
    """The largest n the sample-size search simulates at (beyond, it extrapolates and says
    so): at most four times the largest size, and within what the budget leaves after the
    power curve for three evaluations."""
    from stats._core import budget as B

    per = _work_per_item(n_simulations, n_resamples, width, discount or B.PRODUCT_SPEEDUP)
    left = _limit() - per * float(sum(sizes))
    return int(max(max(sizes), min(4 * max(sizes), left / (3.0 * per))))


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


@dataclass(frozen=True, kw_only=True)
class SampleSizeResult:
    """The number of items at which a test reaches the target power for one effect.

    Attributes
    ----------
    sample_size : float
        Smallest n found with power at least ``target_power`` (NaN when ``n_max`` is not
        enough; ``note`` says so).
    mc_error : float
        Monte Carlo standard error of ``sample_size``: the power's binomial error at the
        target over the local slope of power against n (the secant of the bracket that held
        the crossing); 0 for a closed form, NaN when the slope is not positive.
    power : float
        The power reached at ``sample_size``.
    effect, target_power : float
    n_simulations : int
    test : str
    note : str
    """

    sample_size: float
    mc_error: float
    power: float
    effect: float
    target_power: float
    n_simulations: int
    test: str = ""
    note: str = ""


def search_sample_size(
    power_at: Callable[[int], float], target: float, *, n_simulations: int, n_min: int,
    n_max: int, known=None, n_cap: int | None = None, evaluations: int = 1,
) -> tuple[float, float, float, str]:
    """``(n, mc_error, power, note)``: the n in ``[n_min, n_max]`` at which the power
    ``power_at(n)`` (one effect, the same seed at every n: common random numbers) reaches
    ``target``.

    Power is modelled between simulated sizes as :math:`\\Phi^{-1}(p) = a + b\\sqrt n` (a
    test statistic growing as :math:`\\sqrt n`): the crossing is interpolated on that scale
    between the two sizes that bracket it (from ``known``, ``{n: power}``, e.g. the power
    curve already computed), simulated there (``evaluations`` times, one by default, each
    narrowing the bracket; stopping once the simulated power is within one Monte Carlo
    standard error of the target), and read from the final bracket by the same model (the
    simulated curve between two sizes a few percent apart: well within the Monte Carlo
    error of n, which is returned). A crossing beyond ``n_cap`` (default:
    four times the largest size known) is extrapolated from the curve by the same model
    without simulating there, and the note says so."""
    from scipy import stats as sps

    pts = {int(k): float(v) for k, v in (known or {}).items() if n_min <= int(k) <= n_max}
    n_cap = min(n_max, n_cap or 4 * max(pts or {n_min: 0}))
    se_p = float(np.sqrt(target * (1 - target) / n_simulations))

    def p(n: int) -> float:
        if n not in pts:
            pts[n] = float(power_at(n))
        return pts[n]

    def probit(v):
        return sps.norm.ppf(np.clip(v, 0.5 / n_simulations, 1 - 0.5 / n_simulations))

    def cross(lo: int, hi: int) -> float:
        """The crossing between lo and hi on the probit-sqrt(n) scale."""
        y0, y1, yt = probit(p(lo)), probit(p(hi)), probit(target)
        x0, x1 = np.sqrt(lo), np.sqrt(hi)
        if y1 <= y0:
            return float(hi)
        return float(np.clip((x0 + (yt - y0) * (x1 - x0) / (y1 - y0)) ** 2, lo, hi))

    if not pts:
        p(n_min)
    reached = sorted(n for n, v in pts.items() if v >= target)
    if reached and reached[0] == min(pts) and min(pts) > n_min:
        p(n_min)
        reached = sorted(n for n, v in pts.items() if v >= target)
    if reached and reached[0] == n_min:
        return float(n_min), 0.0, p(n_min), ""
    if not reached:  # beyond the sizes known: extrapolate, simulate when within the cap
        near = sorted((n, v) for n, v in pts.items() if 0.5 / n_simulations < v < 1)
        if len(near) >= 2:
            ns, ps = np.array(near[-3:], dtype=float).T
            b, a = np.polyfit(np.sqrt(ns), probit(ps), 1)
            guess = ((probit(target) - a) / b) ** 2 if b > 0 else float("inf")
        else:
            guess = 4.0 * max(pts)
        if not np.isfinite(guess) or guess > n_cap:
            if np.isfinite(guess) and guess <= n_max and len(near) >= 2:
                err = _n_error(dict(near), int(guess), int(guess), target, n_simulations)
                return (float(np.ceil(guess)), err, float("nan"),
                        f"the sample size ({np.ceil(guess):,.0f}) lies beyond the sizes "
                        f"simulated (up to {max(pts):,}): extrapolated from the power curve "
                        "by the model probit(power) = a + b sqrt(n); simulate sizes near it "
                        "to confirm")
            return (float("nan"), float("nan"), float("nan"),
                    f"the power at n={max(pts):,} is {pts[max(pts)]:.3f}, below the target "
                    f"{target:g}, and the curve does not reach it within n_max={n_max:,}")
        hi = int(np.ceil(guess))
        while p(hi) < target:
            if hi >= n_cap:
                return (float("nan"), float("nan"), p(hi),
                        f"the power at n={hi:,} is {p(hi):.3f}, below the target {target:g}")
            hi = min(n_cap, 2 * hi)
        reached = [hi]
    hi = reached[0]
    lo = max(n for n in pts if n < hi)
    for _ in range(evaluations):
        if hi - lo <= 1:
            break
        mid = int(round(cross(lo, hi)))
        mid = min(max(mid, lo + 1), hi - 1)
        if p(mid) >= target:
            hi = mid
        else:
            lo = mid
        if abs(p(mid) - target) < se_p:
            break
    n = float(np.ceil(cross(lo, hi))) if hi - lo > 1 else float(hi)
    return n, _n_error(pts, hi, lo, target, n_simulations), p(hi), ""


def _n_error(pts: dict, hi: int, lo: int, target: float, n_simulations: int) -> float:
    """Monte Carlo standard error of the sample size: the binomial error of the power at the
    target, :math:`\\sqrt{t(1-t)/S}`, over the slope of power against n there. The slope
    comes from the probit model of power, :math:`\\Phi^{-1}(p) = a + b\\sqrt n` (a test
    statistic growing as :math:`\\sqrt n`), fitted to the evaluated points from a third to
    three times the crossing (the secant of the bracket when fewer than two qualify)."""
    from scipy import stats as sps

    n0 = 0.5 * (hi + lo)
    usable = [(n, v) for n, v in pts.items() if 0.005 < v < 0.995]
    near = [(n, v) for n, v in usable if n0 / 3 <= n <= 3 * n0]
    if len(near) < 2:  # an extrapolation: the curve's points nearest to it
        near = sorted(usable, key=lambda nv: abs(np.log(nv[0] / n0)))[:3]
    se_p = float(np.sqrt(target * (1 - target) / n_simulations))
    if len({n for n, _ in near}) >= 2:
        ns, ps = np.array(near, dtype=float).T
        b = np.polyfit(np.sqrt(ns), sps.norm.ppf(ps), 1)[0]
        slope = float(sps.norm.pdf(sps.norm.ppf(target)) * b / (2.0 * np.sqrt(n0)))
    else:
        slope = (pts.get(hi, np.nan) - pts.get(lo, 0.0)) / max(hi - lo, 1)
    return se_p / slope if slope > 0 else float("nan")


def sample_size_result(power_at, effect: float, target: float, *, n_simulations: int,
                       n_min: int, n_max: int, test: str = "", known=None,
                       n_cap: int | None = None) -> SampleSizeResult:
    """:func:`search_sample_size` for ``effect`` as a :class:`SampleSizeResult`; an effect of 0
    or less has no sample size (NaN, said in the note)."""
    if not effect > 0:
        return SampleSizeResult(
            sample_size=float("nan"), mc_error=float("nan"), power=float("nan"),
            effect=float(effect), target_power=target, n_simulations=n_simulations, test=test,
            note=f"no sample size for effect {effect:g}: give an effect in the system's favour "
            "(above 0)",
        )
    if not known:  # no curve yet: sizes growing fourfold until one reaches the target
        known, n_cap, size = {}, n_max, min(n_max, max(n_min, 10))
        while True:
            known[size] = float(power_at(size))
            if known[size] >= target or size >= n_max:
                break
            size = min(n_max, 4 * size)
    n, err, reached, note = search_sample_size(power_at, target, n_simulations=n_simulations,
                                               n_min=n_min, n_max=n_max, known=known,
                                               n_cap=n_cap)
    return SampleSizeResult(sample_size=n, mc_error=err, power=reached, effect=float(effect),
                            target_power=target, n_simulations=n_simulations, test=test,
                            note=note)


def with_sample_size(result: PowerResult, found: SampleSizeResult) -> PowerResult:
    """``result`` with the sample size of ``found`` (and its note)."""
    from dataclasses import replace

    return replace(result, sample_size=found.sample_size,
                   sample_size_mc_error=found.mc_error,
                   notes=result.notes + ((found.note,) if found.note else ()))


def ticker(progress, total: int):
    """``tick(done)``: report ``done / total`` to ``progress`` (a callable taking a fraction,
    e.g. the dashboard's progress bar, whose update is also where a Stop takes effect);
    nothing without one."""
    def tick(done: int) -> None:
        if progress is not None:
            progress(min(1.0, done / max(total, 1)))

    return tick
