r"""Power of the paired tests on per-item scores of two systems (human ESA, DA or MQM scores,
any segment-level metric, QE): paired t, Wilcoxon signed-rank, paired bootstrap and
approximate randomization.

Definition
----------
With observed per-item differences :math:`d_i = s_i - b_i` (system minus baseline,
:math:`i = 1..N`) and a hypothesised effect :math:`\delta`, the simulation pool is the
differences shifted to that effect, :math:`d_i - \bar d + \delta`. Power at :math:`n` is the
share of ``n_simulations`` data sets of :math:`n` items drawn with replacement from the pool on
which the test rejects at :math:`\alpha` (Card et al. 2020, §3; the per-item resampling of
Graham, Haddow & Koehn 2020). The minimum detectable effect (MDE) at :math:`n` is the smallest
:math:`\delta` whose power in the system's favour reaches ``power`` (80% by default): for each
simulated data set the smallest shift at which the test rejects in the system's favour is found
(closed form for t, vectorised bisection otherwise) and the MDE is the ``power`` quantile of
these. The same index draws serve every effect (common random numbers).

The tests are those the project runs: scipy's ``ttest_rel`` and ``wilcoxon`` (zero_method
``'wilcox'``, no continuity correction; the exact null distribution for up to 50 items without
ties or zeros, the normal approximation with the tie-corrected variance otherwise, as
``method='auto'``), and the paired bootstrap and approximate randomization of
:mod:`stats.mt.randomized` on the mean score (:math:`p = (c+1)/(R+1)`). The resampling tests
run all simulated data sets through one resampling matrix per sample size (bootstrap counts or
swap signs, :math:`R \times n`), so each simulated data set is tested with the same ``R``
resamples: one matrix product per chunk of simulations.

References
----------
D. Card, P. Henderson, U. Khandelwal, R. Jia, K. Mahowald, D. Jurafsky (2020). With Little
Power Comes Great Responsibility. EMNLP. https://aclanthology.org/2020.emnlp-main.745/
Y. Graham, B. Haddow, P. Koehn (2020). Statistical Power and Translationese in Machine
Translation Evaluation. EMNLP. https://aclanthology.org/2020.emnlp-main.6/
"""

from __future__ import annotations

import numpy as np
from scipy import stats as sps

from stats._core.errors import StatsInputError
from stats._core.random import common_seed, resample_counts, rng_and_seed
from stats._core.validation import check_positive_int

from . import engine as power_engine
from ._signed_rank_kernel import signed_rank_sums
from .engine import PowerResult

__all__ = [
    "POWER_TESTS",
    "paired_power",
    "paired_sample_size",
    "paired_t_power",
    "paired_t_mde",
    "normal_mde",
]

#: the per-item tests (names of ``test=``)
from stats._core.choices import POWER_TESTS  # noqa: E402  (the names of ``test=``)

_EXACT_MAX = 50  # scipy's wilcoxon 'auto': exact null distribution up to this many items


def _differences(baseline, system) -> tuple[np.ndarray, float]:
    b = np.asarray(baseline, dtype=float)
    s = np.asarray(system, dtype=float)
    if b.ndim != 1 or s.ndim != 1:
        raise StatsInputError("baseline and system must be 1-D arrays of per-item scores")
    if b.shape != s.shape:
        raise StatsInputError(
            f"baseline and system must score the same items; got {b.size} and {s.size} scores"
        )
    bad = ~(np.isfinite(b) & np.isfinite(s))
    if bad.any():
        raise StatsInputError(
            f"baseline and system: {int(bad.sum())} item(s) without a finite score in both "
            f"(first at position {int(np.argmax(bad))}); drop them first"
        )
    if b.size < 2:
        raise StatsInputError(f"baseline and system need at least 2 items; got {b.size}")
    d = s - b
    if not np.any(d):
        raise StatsInputError(
            "baseline and system have the same score on every item (the same system twice?): "
            "there is no difference to simulate from"
        )
    # no spread, or only the rounding of the subtraction (70.1 - 70.0 and 30.1 - 30.0 differ in
    # their last bits): an MDE from that spread would be rounding noise (1e-15), not a number
    rounding = 16 * np.finfo(float).eps * max(float(np.abs(b).max()), float(np.abs(s).max()))
    if float(np.ptp(d)) <= rounding:
        raise StatsInputError(
            f"baseline and system differ by the same {d[0]:g} on every item: with no spread "
            "in the differences there is nothing to simulate (every test is degenerate)"
        )
    scale = max(float(np.abs(b).mean()), float(np.abs(s).mean()), 1e-300)
    return d, scale


def check_effect_range(baseline, system, effects, what: str = "scores") -> None:
    """Refuse an effect no mean difference of these scores can reach: beyond the span of the
    observed scores (max - min over both systems)."""
    both = np.concatenate([np.asarray(baseline, float).ravel(), np.asarray(system, float).ravel()])
    span = float(both.max() - both.min())
    bad = [e for e in effects if abs(e) > span]
    if bad:
        raise StatsInputError(
            f"effect {bad[0]:g} is outside the {what}' range: they span {both.min():g} to "
            f"{both.max():g}, so no mean difference exceeds {span:g}"
        )


def symmetric_pool(d: np.ndarray):
    """The signed-rank test's null from observed differences ``d``: ``(values, fixed,
    share)``. The items whose two scores differ are centred on their median and symmetrised
    (each centred difference and its negative: symmetric about 0, the test's null), and
    items with equal scores stay exact zeros (``fixed``). ``share``: the share of items
    whose scores differ; an effect D shifts the symmetrised values by D / share, so that the
    mean difference is D while equal items stay equal."""
    nz = d != 0
    x = d[nz]
    c = x - np.median(x)
    zeros = np.zeros(2 * int((~nz).sum()))
    values = np.concatenate([c, -c, zeros])
    fixed = np.r_[np.zeros(2 * x.size, dtype=bool), np.ones(zeros.size, dtype=bool)]
    return values, fixed, float(nz.mean())


#: what "effect" means, per test (docs, JSON output, the Power page)
EFFECT_MEAN = (
    "effect = the mean per-item difference, system minus baseline: the observed differences "
    "centred on their mean (the test's null: mean 0), then shifted by the effect"
)
EFFECT_SIGNED_RANK = (
    "effect = the mean per-item difference, system minus baseline: the differences of the "
    "items whose scores differ are centred on their median and symmetrised (each with its "
    "negative: the signed-rank null, symmetric about 0), then shifted by effect / (share of "
    "items whose scores differ); items with equal scores stay equal"
)


def effect_meaning(test: str) -> str:
    """What "effect" means for a per-item ``test`` (one line)."""
    return EFFECT_SIGNED_RANK if test == "signed-rank" else EFFECT_MEAN


def _check_test(test: str) -> str:
    if test not in POWER_TESTS:
        raise StatsInputError(f"test must be one of {', '.join(POWER_TESTS)}; got {test!r}")
    return test


# ---------------------------------------------------------------------------------------------
# The tests, vectorised over simulated data sets (rows)
# ---------------------------------------------------------------------------------------------


def _signed_rank_null(n: int) -> np.ndarray:
    """P(T+ = t), t = 0..n(n+1)/2, for n items without ties or zeros (exact enumeration by
    the usual recursion over ranks)."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for k in range(1, n + 1):  # loop over ranks, not over data sets
        counts[k:] = counts[k:] + counts[:-k].copy()
    return counts / counts.sum()


class _Tester:
    """The test on a block X (data sets x items) of centred differences; ``rejects(e)`` for
    effects ``e`` (scalar or one per data set) returns (reject, reject in the system's
    favour)."""

    def __init__(self, test, x, alpha, alternative, shared, tol, raw=None):
        self.test, self.x, self.alpha, self.alt, self.tol = test, x, alpha, alternative, tol
        n = x.shape[1]
        self.n = n
        if test == "t":
            self.m = x.mean(axis=1)
            self.se = x.std(axis=1, ddof=1) / np.sqrt(n)
        elif test == "paired-bootstrap":
            weights = shared[0]  # (R, n) counts
            self.r = weights.shape[0]
            self.pseudo = self._product(x, raw, weights) / n  # resampled means, centred data
        elif test == "approximate-randomization":
            signs, self.g = shared[0], shared[1]  # (R, n) of +-1, their row means
            self.r = signs.shape[0]
            self.m = x.mean(axis=1)
            self.pseudo = self._product(x, raw, signs) / n

    @staticmethod
    def _product(x, raw, mat):
        """``x @ mat.T``; with ``raw`` (the uncentred integer differences in float32 and the
        centring mean), one float32 product, exact for integers below 2**24, then the centring
        (x = raw - mean): the same sums at half the cost of a float64 product."""
        if raw is None:
            return x @ mat.T
        values, mean = raw
        return (values @ mat.astype(np.float32).T).astype(np.float64) - mean * mat.sum(axis=1)

    def rejects(self, e):
        e = np.broadcast_to(np.asarray(e, dtype=float), (self.x.shape[0],))
        a, alt = self.alpha, self.alt
        if self.test == "t":
            with np.errstate(divide="ignore", invalid="ignore"):
                t = (self.m + e) / self.se
            crit = sps.t.isf(a / 2 if alt == "two-sided" else a, self.n - 1)
            fav = t > crit
            return (fav | (t < -crit) if alt == "two-sided" else fav), fav
        if self.test == "paired-bootstrap":
            pseudo = self.pseudo + e[:, None]
            below = (pseudo <= 0).sum(axis=1)
            above = (pseudo >= 0).sum(axis=1)
            if alt == "greater":
                p = (below + 1.0) / (self.r + 1.0)
                return p < a, p < a
            p = np.minimum(1.0, 2.0 * (np.minimum(below, above) + 1.0) / (self.r + 1.0))
            return p < a, (p < a) & (below <= above)
        # approximate randomization
        obs = self.m + e
        pseudo = self.pseudo + e[:, None] * self.g[None, :]
        if alt == "greater":
            count = (pseudo >= (obs - self.tol)[:, None]).sum(axis=1)
        else:
            count = (np.abs(pseudo) >= (np.abs(obs) - self.tol)[:, None]).sum(axis=1)
        p = (count + 1.0) / (self.r + 1.0)
        return p < a, (p < a) & (obs > 0)

    def critical(self, hi: float) -> np.ndarray:
        if self.test == "t":  # closed form: t(e) = (m + e) / se crosses crit at this e
            crit = sps.t.isf(self.alpha / 2 if self.alt == "two-sided" else self.alpha, self.n - 1)
            with np.errstate(invalid="ignore"):
                out = crit * self.se - self.m
            return np.where(self.se > 0, out, np.inf)
        rows = self.x.shape[0]
        fav = lambda e: self.rejects(e)[1]  # noqa: E731
        # a close first bracket from the t test's closed form (the mean tests' MDE is about
        # the t test's), widened within [-hi, hi] where it misses; 14 halvings of it are far
        # below the MDE's Monte Carlo error. Data sets rejecting at 0 count as 0: the MDE, a
        # quantile at the target power, lies above that share
        sd = float(self.x.std(ddof=1)) or 1.0
        guess = float(paired_t_mde(sd=sd, n=self.n, alpha=self.alpha, power=0.8,
                                   alternative=self.alt))
        return power_engine.critical_effects(
            fav, rows, 0.0, 2.0 * guess, steps=14, limits=(0.0, hi)
        )


_PERMUTATION_MAX = 13  # scipy's 'auto' with ties or zeros: all 2**n sign flips up to here


def _signed_rank_small(y: np.ndarray, alternative: str):
    """scipy's ``wilcoxon`` p-values for rows of at most 13 items: the exact distribution of
    T+ over all :math:`2^n` sign flips of the (mid)ranks (scipy's permutation test in
    ``method='auto'`` with ties or zeros; the exact distribution without them)."""
    rows, n = y.shape
    a = np.abs(y)
    ranks = sps.rankdata(np.where(a == 0, np.nan, a), axis=1, nan_policy="omit")
    ranks = np.where(a == 0, 0.0, ranks)
    tplus = np.where(y > 0, ranks, 0.0).sum(axis=1)
    flips = (np.arange(2**n)[:, None] >> np.arange(n)[None, :]) & 1  # (2^n, n)
    null = flips.astype(float) @ ranks.T  # (2^n, rows)
    tol = 1e-12 * np.maximum(1.0, tplus)
    greater = (null >= tplus - tol).mean(axis=0)
    less = (null <= tplus + tol).mean(axis=0)
    p = greater if alternative == "greater" else np.minimum(1.0, 2 * np.minimum(greater, less))
    nz = (a > 0).sum(axis=1)
    return np.where(nz > 0, p, np.nan), tplus > nz * (nz + 1) / 4.0


def _pool_counts(idx: np.ndarray, size: int, items_first: bool = False) -> np.ndarray:
    """(rows, size) counts: how often each observed item is drawn in each data set ((size,
    rows) with ``items_first``)."""
    rows = idx.shape[0]
    if items_first:
        flat = (idx * rows + np.arange(rows)[:, None]).ravel()
        return np.bincount(flat, minlength=rows * size).reshape(size, rows)
    flat = (idx + (np.arange(rows) * size)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * size).reshape(rows, size)


def _signed_rank_sums_array(counts: np.ndarray, values: np.ndarray):
    """:func:`stats.power._signed_rank_kernel.signed_rank_sums` with numpy (without numba):
    T+, its tie-corrected null variance, the zeros and the largest group per data set."""
    a = np.abs(values)
    order = np.argsort(a, kind="stable")
    sa = a[order]
    ends = np.flatnonzero(np.r_[sa[1:] != sa[:-1], True])  # last of each group of equal |v|
    cs = counts[:, order]
    if ends.size == sa.size:  # every |value| distinct: each group is one observed value
        g = cs.astype(float)
        cum = np.cumsum(g, axis=1)
        pos = g * (values[order] > 0)
    else:
        cum = np.cumsum(cs, axis=1, dtype=np.int32)[:, ends].astype(float)  # items to a group
        g = np.diff(cum, axis=1, prepend=0.0)  # items per group and data set
        cpos = np.cumsum(cs * (values[order] > 0), axis=1, dtype=np.int32)[:, ends]
        pos = np.diff(cpos, axis=1, prepend=0).astype(float)
    z = g[:, 0] if sa[0] == 0 else np.zeros(counts.shape[0])
    mid = cum - (g - 1.0) / 2.0 - z[:, None]  # midranks among the non-zeros
    if sa[0] == 0:
        mid[:, 0] = 0.0
    tplus = (pos * mid).sum(axis=1)
    var = (g * mid**2).sum(axis=1) / 4.0  # = n(n+1)(2n+1)/24 - sum(t^3 - t)/48
    return tplus, var, z, g.max(axis=1)


def _signed_rank_pool(counts: np.ndarray, values: np.ndarray, n: int, alternative: str,
                      compiled: bool = True, items_first: bool = False):
    """p-values of scipy's ``wilcoxon`` (zero_method 'wilcox', method 'auto': exact null up
    to 50 items without ties or zeros, else the normal approximation with the tie-corrected
    variance, no continuity correction) for data sets given as ``counts`` (rows x pool) of
    the pool ``values``, and whether T+ lies above its null mean.

    Every data set is drawn from the same pool, so the order of ``|values|`` is sorted once
    and each data set's midranks are cumulative counts along it: O(rows x pool) per call,
    no sort per data set; compiled (numba) in one pass over the pool unless ``compiled`` is
    False (the numpy formulation, same numbers). ``items_first``: ``counts`` is pool x rows."""
    sums = None if not compiled else signed_rank_sums(counts, values, items_first=items_first)
    if sums is not None:  # one compiled pass (stats.power._signed_rank_kernel): same numbers
        tplus, var, z, largest = sums
    else:
        tplus, var, z, largest = _signed_rank_sums_array(counts.T if items_first else counts,
                                                         values)
    nz = n - z
    mean = nz * (nz + 1) / 4.0
    with np.errstate(divide="ignore", invalid="ignore"):
        zstat = (tplus - mean) / np.sqrt(var)
    p = sps.norm.sf(zstat) if alternative == "greater" else 2.0 * sps.norm.sf(np.abs(zstat))
    if n <= _EXACT_MAX:
        exact = (z == 0) & (largest <= 1)
        if exact.any():
            pmf = _signed_rank_null(n)
            sf = np.cumsum(pmf[::-1])[::-1]  # P(T+ >= t)
            cdf = np.cumsum(pmf)  # P(T+ <= t)
            t = np.rint(tplus[exact]).astype(int)
            pe = sf[t] if alternative == "greater" else np.minimum(1.0, 2 * np.minimum(sf[t], cdf[t]))
            p = p.copy()
            p[exact] = pe
    p = np.where(nz > 0, p, np.nan)
    return p, tplus > mean


# ---------------------------------------------------------------------------------------------
# Public functions
# ---------------------------------------------------------------------------------------------


def paired_power(
    baseline,
    system,
    *,
    effect,
    n,
    test: str = "t",
    alpha: float = 0.05,
    alternative: str = "two-sided",
    power: float = 0.8,
    n_simulations: int = 1000,
    n_resamples: int = 1000,
    rng=None,
    sample_size: bool = False,
    n_max: int = 100_000,
    progress=None,
    _mde: bool = True,
) -> PowerResult:
    r"""Simulated power of a paired test on per-item scores, and the minimum detectable
    effect, for each effect and sample size.

    Power at :math:`n` for effect :math:`\delta` = the share of simulated data sets of
    :math:`n` items, drawn with replacement from the observed differences
    :math:`d_i - \bar d + \delta` (:math:`d_i` = system minus baseline), on which the test
    rejects at ``alpha`` (module notes).

    Parameters
    ----------
    baseline, system : array_like, shape (N,)
        Per-item scores of the two systems on the same items (higher is better; negate
        error scores such as MQM penalties first).
    effect : float or sequence of float
        Hypothesised differences, system minus baseline, on the score's scale.
    n : int or sequence of int
        Sample sizes (items per simulated data set), at least 2.
    test : {'t', 'signed-rank', 'paired-bootstrap', 'approximate-randomization'}
    alpha : float
    alternative : {'two-sided', 'greater'}
        ``'greater'``: H1 "system better"; two-sided power counts rejections either way.
    power : float
        Target power of the MDE (default 0.8).
    n_simulations : int
        Simulated data sets per sample size.
    n_resamples : int
        Resamples of each bootstrap / randomization test (ignored by t and signed-rank).
    rng : int, numpy.random.Generator or None
        Keyword-only seed.

    Returns
    -------
    PowerResult
        ``power`` and ``mc_error`` of shape (effects, sizes), ``mde`` per size.

    References
    ----------
    Card et al. (2020), EMNLP, https://aclanthology.org/2020.emnlp-main.745/ ;
    Graham, Haddow & Koehn (2020), EMNLP, https://aclanthology.org/2020.emnlp-main.6/ .

    Examples
    --------
    >>> import numpy as np
    >>> from stats.power import paired_power
    >>> gen = np.random.default_rng(0)
    >>> base = gen.normal(70, 15, 500)
    >>> syst = base + gen.normal(1, 10, 500)
    >>> res = paired_power(base, syst, effect=[1, 2], n=[100, 400], rng=1)
    >>> res.power.round(2).tolist()
    [[0.19, 0.57], [0.56, 1.0]]
    >>> res.mde.round(2).tolist()
    [2.65, 1.35]
    """
    test = _check_test(test)
    alpha, alternative, power, n_simulations = power_engine.check_common(
        alpha, alternative, power, n_simulations
    )
    resampling = test in ("paired-bootstrap", "approximate-randomization")
    n_resamples = check_positive_int(n_resamples, "n_resamples") if resampling else 0
    if resampling:  # the bootstrap's two-sided p doubles the smaller count
        power_engine.resampling_reachable(alpha, n_resamples, 2 if (
            test == "paired-bootstrap" and alternative == "two-sided") else 1)
    d, scale = _differences(baseline, system)
    effects, sizes = power_engine.as_effects(effect), power_engine.as_sizes(n)
    check_effect_range(baseline, system, effects)
    power_engine.budget(f"{test} power", n_simulations, n_resamples, sizes)
    gen, seed = rng_and_seed(rng)
    centred = d - d.mean()
    hi = 4.0 * float(np.abs(centred).max()) + 4.0 * abs(float(d.mean())) + 1e-9
    evals = (*effects, 0.0)  # the last: the size (rejection rate at effect 0)
    pw = np.zeros((len(evals), len(sizes)))
    mde = np.full(len(sizes), np.nan)
    if test == "signed-rank":
        pool = symmetric_pool(d)
    # integer differences (ESA, DA, MQM): the resampling products in float32, exact while every
    # sum stays below 2**24 (module notes)
    exact32 = np.all(d == np.round(d)) and float(np.abs(d).max()) * max(sizes) < 2**24
    d32 = d.astype(np.float32) if exact32 else None
    tick = power_engine.ticker(progress, len(sizes) + bool(sample_size))
    for j, size in enumerate(sizes):  # loop over sample sizes; simulations are array rows
        tick(j)
        if test == "signed-rank":
            pw[:, j], mde[j] = _signed_rank_sizes(
                pool, size, evals, gen, n_simulations, alpha, alternative, power, hi, _mde
            )
            continue
        shared = _shared(test, gen, n_resamples, size)
        crit = []
        step = power_engine.chunk_size(size, n_simulations, max(1, n_resamples // 64))
        for start in range(0, n_simulations, step):
            rows = min(step, n_simulations - start)
            idx = gen.integers(0, d.size, (rows, size))
            x = centred[idx]
            raw = (d32[idx], float(d.mean())) if d32 is not None and shared is not None else None
            tester = _Tester(test, x, alpha, alternative, shared, 1e-9 * scale, raw)
            for i, e in enumerate(evals):
                reject, favour = tester.rejects(e)
                pw[i, j] += power_engine.directed(reject, favour, e, alternative).sum()
            if _mde:
                crit.append(tester.critical(hi))
        if _mde:
            mde[j] = power_engine.mde_from_critical(np.concatenate(crit), power)
    pw /= n_simulations
    notes = power_engine.beyond_observed_note(sizes, d.size) + _small_n_notes(
        test, sizes, alpha, alternative, n_resamples
    )
    result = PowerResult(
        power=pw[:-1],
        mc_error=power_engine.mc_error(pw[:-1], n_simulations),
        mde=mde,
        effects=effects,
        sizes=sizes,
        test=test,
        alternative=alternative,
        alpha=alpha,
        target_power=power,
        n_simulations=n_simulations,
        n_resamples=n_resamples,
        seed=seed,
        n_observed=int(d.size),
        observed_effect=float(d.mean()),
        effect_meaning=effect_meaning(test),
    )
    tick(len(sizes))
    if sample_size:
        found = paired_sample_size(
            baseline, system, effect=effects[0], test=test, alpha=alpha,
            alternative=alternative, power=power, n_simulations=n_simulations,
            n_resamples=n_resamples, n_max=n_max, rng=seed if seed is not None else gen,
            _known=dict(zip(sizes, pw[0], strict=True)),
            _n_cap=power_engine.search_cap(n_simulations, n_resamples, sizes, 1, None),
        )
        result = power_engine.with_sample_size(result, found)
    return power_engine.finish(result, size=pw[-1], notes=notes) if _mde else result


def _small_n_notes(test, sizes, alpha, alternative, n_resamples) -> list[str]:
    """Sizes at which the test cannot reject at all."""
    if test != "signed-rank":
        return []
    k = 2.0 if alternative == "two-sided" else 1.0
    never = [n for n in sizes if n < 64 and k / 2.0**n >= alpha]
    if not never:
        return []
    return [f"at n={', '.join(map(str, never))} the signed-rank test cannot reject at "
            f"alpha={alpha:g} (its smallest p-value is {k:g}/2^n): power 0 there by design"]


def _signed_rank_sizes(pool, size, effects, gen, n_simulations, alpha, alternative,
                       power, hi, mde=True):
    """Rejections (summed over simulations, in each effect's direction: ``power_engine.directed``)
    per effect and the MDE at one sample size: the data sets drawn from the symmetric pool
    (:func:`symmetric_pool`) and kept as counts over its distinct values."""
    full, fixed, share = pool
    n_pool = full.size
    # the counts run over the distinct pool values (few for integer scores such as ESA), the
    # items with equal scores apart (they stay 0 at every effect)
    values, inverse = np.unique(full[~fixed], return_inverse=True)
    index = np.full(n_pool, values.size)
    index[~fixed] = inverse
    step = max(1, min(n_simulations, (1 << 22) // max(values.size + 1, size)))
    drawn = [
        gen.integers(0, n_pool, (min(step, n_simulations - s0), size))
        for s0 in range(0, n_simulations, step)
    ]
    if size <= _PERMUTATION_MAX:

        def tests(e):
            return [_signed_rank_small(np.where(fixed[i], 0.0, full[i] + e / share),
                                       alternative) for i in drawn]
    else:
        # items x data sets: the compiled sums walk the pool with all data sets at a time
        counts = [_pool_counts(index[i], values.size + 1, items_first=True) for i in drawn]
        del drawn

        def tests(e):
            shifted = np.r_[values + e / share, 0.0]
            return [_signed_rank_pool(c, shifted, size, alternative, items_first=True)
                    for c in counts]

    def hits(e):
        return sum(int(power_engine.directed(p < alpha, (p < alpha) & up, e, alternative).sum())
                   for p, up in tests(e))

    out = np.asarray([hits(e) for e in effects], dtype=float)
    if not mde:
        return out, np.nan

    def favour(e):
        return sum(int(((p < alpha) & up).sum()) for p, up in tests(e)) / n_simulations

    sd = float(full.std(ddof=1)) or 1.0
    guess = float(paired_t_mde(sd=sd, n=size, alpha=alpha, power=power, alternative=alternative))
    return out, power_engine.scalar_mde(favour, power, guess, hi, steps=12)


def _shared(test, gen, n_resamples, size):
    """The resampling matrix all simulated data sets of this size are tested with."""
    if test == "paired-bootstrap":
        return (resample_counts(gen.integers(0, size, (n_resamples, size)), np.float64),)
    if test == "approximate-randomization":
        signs = 1.0 - 2.0 * gen.integers(0, 2, (n_resamples, size)).astype(np.float64)
        return signs, signs.mean(axis=1)
    return None


def paired_sample_size(
    baseline,
    system,
    *,
    effect: float,
    test: str = "t",
    alpha: float = 0.05,
    alternative: str = "two-sided",
    power: float = 0.8,
    n_simulations: int = 1000,
    n_resamples: int = 1000,
    n_max: int = 100_000,
    rng=None,
    _known=None,
    _n_cap: int | None = None,
) -> power_engine.SampleSizeResult:
    """Smallest number of items at which :func:`paired_power` for ``effect`` (in the
    system's favour when positive) reaches ``power``, with its Monte Carlo error: every n
    simulated with the same seed (common random numbers), the crossing bracketed then bisected
    to half its Monte Carlo error (:func:`stats.power.engine.search_sample_size`). NaN with a
    ``note`` when ``n_max`` items are not enough.

    Examples
    --------
    >>> import numpy as np
    >>> from stats.power import paired_sample_size
    >>> gen = np.random.default_rng(0)
    >>> base = gen.normal(70, 15, 500)
    >>> res = paired_sample_size(base, base + gen.normal(1, 10, 500), effect=2, rng=1)
    >>> 120 < res.sample_size < 240, 0 < res.mc_error < 20
    (True, True)
    """
    n_max = check_positive_int(n_max, "n_max", 3)
    seed = common_seed(rng)  # one seed for every n: common random numbers

    def power_at(size: int) -> float:
        res = paired_power(
            baseline, system, effect=effect, n=size, test=test, alpha=alpha,
            alternative=alternative, power=power, n_simulations=n_simulations,
            n_resamples=n_resamples, rng=seed, _mde=False,
        )
        return float(res.power[0, 0])

    target = power_engine.check_common(alpha, alternative, power, 2)[2]
    return power_engine.sample_size_result(
        power_at, effect, target, n_simulations=n_simulations, n_min=2, n_max=n_max, test=test,
        known=_known, n_cap=_n_cap,
    )


# ---------------------------------------------------------------------------------------------
# Closed form: the paired t test's power from the noncentral t
# ---------------------------------------------------------------------------------------------


def paired_t_power(*, effect, sd, n, alpha: float = 0.05, alternative: str = "two-sided"):
    r"""Power of the paired t test from the noncentral :math:`t` distribution.

    With :math:`\nu = n - 1` degrees of freedom, noncentrality
    :math:`\lambda = \delta\sqrt{n}/\sigma` and critical value :math:`c = t_{1-\alpha,\nu}`
    (:math:`t_{1-\alpha/2,\nu}` two-sided), power is :math:`P(T_{\nu,\lambda} > c)`
    (two-sided: in the effect's direction, :math:`P(T_{\nu,\lambda} < -c)` for a negative
    effect and both at effect 0, where it is the size :math:`\alpha`). Exact for normal differences; the
    simulated power of :func:`paired_power` with ``test='t'`` converges to it as the
    observed differences approach normality.

    Parameters
    ----------
    effect, sd, n : float or array_like
        Mean difference, its standard deviation and the number of items (broadcast).
    alpha : float
    alternative : {'two-sided', 'greater'}

    Examples
    --------
    >>> from stats.power import paired_t_power
    >>> round(float(paired_t_power(effect=1.0, sd=10.0, n=800)), 3)
    0.806
    """
    alpha, alternative, _, _ = power_engine.check_common(alpha, alternative, 0.5, 2)
    effect, sd, n = (np.asarray(v, dtype=float) for v in (effect, sd, n))
    if np.any(n < 2) or np.any(sd <= 0):
        raise StatsInputError("n must be at least 2 and sd positive")
    df = n - 1.0
    nc = effect * np.sqrt(n) / sd
    crit = sps.t.isf(alpha / 2 if alternative == "two-sided" else alpha, df)
    up, down = sps.nct.sf(crit, df, nc), sps.nct.cdf(-crit, df, nc)
    if alternative == "two-sided":  # the effect's direction (both at effect 0: the size)
        out = np.where(effect > 0, up, np.where(effect < 0, down, up + down))
    else:
        out = up
    return out[()] if out.ndim == 0 else out


def paired_t_mde(*, sd, n, alpha: float = 0.05, power: float = 0.8,
                 alternative: str = "two-sided"):
    """Smallest mean difference :func:`paired_t_power` detects with ``power`` (vectorised
    bisection on the closed form).

    Examples
    --------
    >>> from stats.power import paired_t_mde
    >>> round(float(paired_t_mde(sd=10.0, n=800)), 3)
    0.992
    """
    sd, n = np.broadcast_arrays(np.asarray(sd, dtype=float), np.asarray(n, dtype=float))
    def reaches(effect):
        return paired_t_power(effect=effect, sd=sd, n=n, alpha=alpha,
                              alternative=alternative) >= power

    lo, hi = np.zeros(sd.shape), 4.0 * sd / np.sqrt(n)  # about the normal approximation's
    for _ in range(40):  # double where short (nct is unreliable far beyond the crossing)
        hi = np.where(reaches(hi), hi, 2 * hi)
    for _ in range(60):  # vectorised over inputs
        mid = (lo + hi) / 2
        up = reaches(mid)
        hi, lo = np.where(up, mid, hi), np.where(up, lo, mid)
    return hi[()] if hi.ndim == 0 else hi


def normal_mde(*, se, alpha: float = 0.05, power: float = 0.8,
               alternative: str = "two-sided"):
    r"""Minimum detectable effect of a test whose statistic is about normal with standard
    error ``se`` (normal approximation):
    :math:`(z_{1-\alpha/2} + z_{\mathrm{power}})\,\mathrm{se}` (:math:`z_{1-\alpha}`
    one-sided). With ``se`` the spread of a paired bootstrap's or approximate randomization's
    resampled differences it approximates the MDE of that test on the data as observed (the
    number of segments as tested); the simulated :func:`paired_power` /
    :func:`stats.power.corpus_power` give it at other sizes. NaN where ``se`` is not finite
    and positive.

    Examples
    --------
    >>> from stats.power import normal_mde
    >>> round(float(normal_mde(se=1.0)), 3)
    2.802
    """
    alpha, alternative, power, _ = power_engine.check_common(alpha, alternative, power, 2)
    se = np.asarray(se, dtype=float)
    z = sps.norm.isf(alpha / 2 if alternative == "two-sided" else alpha) + sps.norm.ppf(power)
    out = np.where(np.isfinite(se) & (se > 0), z * se, np.nan)
    return out[()] if out.ndim == 0 else out
