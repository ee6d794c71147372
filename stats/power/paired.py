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

from . import engine as E
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
    scale = max(float(np.abs(b).mean()), float(np.abs(s).mean()), 1e-300)
    return s - b, scale


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

    def __init__(self, test, x, alpha, alternative, shared, tol):
        self.test, self.x, self.alpha, self.alt, self.tol = test, x, alpha, alternative, tol
        n = x.shape[1]
        self.n = n
        if test == "t":
            self.m = x.mean(axis=1)
            self.se = x.std(axis=1, ddof=1) / np.sqrt(n)
        elif test == "paired-bootstrap":
            weights = shared  # (R, n) counts
            self.r = weights.shape[0]
            self.pseudo = (x @ weights.T) / n  # resampled means of the centred data
        elif test == "approximate-randomization":
            signs, self.g = shared  # (R, n) of +-1, their row means
            self.r = signs.shape[0]
            self.m = x.mean(axis=1)
            self.pseudo = (x @ signs.T) / n

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
        return E.critical_effects(fav, rows, -hi, hi)


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
    alpha, alternative, power, n_simulations = E.check_common(
        alpha, alternative, power, n_simulations
    )
    resampling = test in ("paired-bootstrap", "approximate-randomization")
    n_resamples = check_positive_int(n_resamples, "n_resamples") if resampling else 0
    d, scale = _differences(baseline, system)
    effects, sizes = E.as_effects(effect), E.as_sizes(n)
    E.budget(f"{test} power", n_simulations, n_resamples, sizes)
    gen, seed = rng_and_seed(rng)
    centred = d - d.mean()
    hi = 4.0 * float(np.abs(centred).max()) + 4.0 * abs(float(d.mean())) + 1e-9
    pw = np.zeros((len(effects), len(sizes)))
    mde = np.full(len(sizes), np.nan)
    for j, size in enumerate(sizes):  # loop over sample sizes; simulations are array rows
        if test == "signed-rank":
            pw[:, j], mde[j] = _signed_rank_sizes(
                centred, size, effects, gen, n_simulations, alpha, alternative, power, hi
            )
            continue
        shared = _shared(test, gen, n_resamples, size)
        crit = []
        step = E.chunk_size(size, n_simulations, max(1, n_resamples // 64))
        for start in range(0, n_simulations, step):
            rows = min(step, n_simulations - start)
            x = centred[gen.integers(0, d.size, (rows, size))]
            tester = _Tester(test, x, alpha, alternative, shared, 1e-9 * scale)
            for i, e in enumerate(effects):
                pw[i, j] += tester.rejects(e)[0].sum()
            crit.append(tester.critical(hi))
        mde[j] = E.mde_from_critical(np.concatenate(crit), power)
    pw /= n_simulations
    return PowerResult(
        power=pw,
        mc_error=E.mc_error(pw, n_simulations),
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
    )


def _signed_rank_sizes(centred, size, effects, gen, n_simulations, alpha, alternative,
                       power, hi):
    """Rejections (summed over simulations) per effect and the MDE at one sample size: the
    data sets kept as counts over the observed items (:func:`_signed_rank_pool`)."""
    pool = centred.size
    # the counts run over the distinct observed values (few for integer scores such as ESA)
    values, inverse = np.unique(centred, return_inverse=True)
    step = max(1, min(n_simulations, (1 << 22) // max(values.size, size)))
    drawn = [
        gen.integers(0, pool, (min(step, n_simulations - s0), size))
        for s0 in range(0, n_simulations, step)
    ]
    if size <= _PERMUTATION_MAX:

        def tests(e):
            return [_signed_rank_small(centred[i] + e, alternative) for i in drawn]
    else:
        # items x data sets: the compiled sums walk the pool with all data sets at a time
        counts = [_pool_counts(inverse[i], values.size, items_first=True) for i in drawn]
        del drawn

        def tests(e):
            return [_signed_rank_pool(c, values + e, size, alternative, items_first=True)
                    for c in counts]

    hits = [sum(int((p < alpha).sum()) for p, _ in tests(e)) for e in effects]

    def favour(e):
        return sum(int(((p < alpha) & up).sum()) for p, up in tests(e)) / n_simulations

    sd = float(centred.std(ddof=1)) or 1.0
    guess = float(paired_t_mde(sd=sd, n=size, alpha=alpha, power=power, alternative=alternative))
    return np.asarray(hits, dtype=float), E.scalar_mde(favour, power, guess, hi, steps=12)


def _shared(test, gen, n_resamples, size):
    """The resampling matrix all simulated data sets of this size are tested with."""
    if test == "paired-bootstrap":
        return resample_counts(gen.integers(0, size, (n_resamples, size)), np.float64)
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
    n_max: int = 10_000,
    rng=None,
) -> int:
    """Smallest number of items at which :func:`paired_power` for ``effect`` reaches
    ``power``: bisection over n, every n simulated with the same seed (common random
    numbers). Raises :class:`~stats.StatsInputError` when ``n_max`` items are not enough.

    Examples
    --------
    >>> import numpy as np
    >>> from stats.power import paired_sample_size
    >>> gen = np.random.default_rng(0)
    >>> base = gen.normal(70, 15, 500)
    >>> paired_sample_size(base, base + gen.normal(1, 10, 500), effect=2, rng=1)
    171
    """
    n_max = check_positive_int(n_max, "n_max", 3)
    seed = common_seed(rng)  # one seed for every n: common random numbers

    def power_at(size: int) -> float:
        res = paired_power(
            baseline, system, effect=effect, n=size, test=test, alpha=alpha,
            alternative=alternative, power=power, n_simulations=n_simulations,
            n_resamples=n_resamples, rng=seed,
        )
        return float(res.power[0, 0])

    return E.smallest_n(power_at, E.check_common(alpha, alternative, power, 2)[2], 2, n_max)


# ---------------------------------------------------------------------------------------------
# Closed form: the paired t test's power from the noncentral t
# ---------------------------------------------------------------------------------------------


def paired_t_power(*, effect, sd, n, alpha: float = 0.05, alternative: str = "two-sided"):
    r"""Power of the paired t test from the noncentral :math:`t` distribution.

    With :math:`\nu = n - 1` degrees of freedom, noncentrality
    :math:`\lambda = \delta\sqrt{n}/\sigma` and critical value :math:`c = t_{1-\alpha,\nu}`
    (:math:`t_{1-\alpha/2,\nu}` two-sided), power is :math:`P(T_{\nu,\lambda} > c)`
    (plus :math:`P(T_{\nu,\lambda} < -c)` two-sided). Exact for normal differences; the
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
    alpha, alternative, _, _ = E.check_common(alpha, alternative, 0.5, 2)
    effect, sd, n = (np.asarray(v, dtype=float) for v in (effect, sd, n))
    if np.any(n < 2) or np.any(sd <= 0):
        raise StatsInputError("n must be at least 2 and sd positive")
    df = n - 1.0
    nc = effect * np.sqrt(n) / sd
    crit = sps.t.isf(alpha / 2 if alternative == "two-sided" else alpha, df)
    out = sps.nct.sf(crit, df, nc)
    if alternative == "two-sided":
        out = out + sps.nct.cdf(-crit, df, nc)
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
    alpha, alternative, power, _ = E.check_common(alpha, alternative, power, 2)
    se = np.asarray(se, dtype=float)
    z = sps.norm.isf(alpha / 2 if alternative == "two-sided" else alpha) + sps.norm.ppf(power)
    out = np.where(np.isfinite(se) & (se > 0), z * se, np.nan)
    return out[()] if out.ndim == 0 else out
