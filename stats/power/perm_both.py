r"""Power of PERM-BOTH (two metrics against humans) by simulation over items.

:func:`perm_both_power` asks: with ``n`` items (segments, each with every system's scores),
how often does PERM-BOTH (:func:`stats.perm_both`, Deutsch, Dror & Roth 2021; segment level,
any correlation and grouping it runs: Pearson, Spearman, Kendall's tau-b and tau-c,
Kendall-like, acc23 with a fixed or calibrated epsilon; no grouping, by item, by system) find
metric A significantly better than metric B when A's correlation with the humans exceeds B's by
``effect``? Below :math:`r` is Pearson's; any other correlation :math:`c` takes its place, with
the notes of `Other correlations`_.

Definition
----------
The effect is put into the observed data by mixing B towards A: with :math:`z_A, z_B` the two
metrics standardised over the cells with a gold score,

.. math:: B_\lambda = (1 - \lambda)\, z_A + \lambda\, z_B,\qquad \lambda \ge 0,

and :math:`\lambda` solved (on a fine grid, then bisection) so that
:math:`r(A, g) - r(B_\lambda, g) =` ``effect`` on all the observed items (:math:`\lambda = 1`
is the observed B; effect 0 makes B a copy of A, which the test never prefers). Power at n =
the share of ``n_simulations`` simulated data sets of n items, drawn with replacement from the
observed items (every system's cells of an item together), on which PERM-BOTH with
``n_resamples`` swaps finds A better at ``alpha`` (A's sample correlation the higher and its
one-sided p below ``alpha``), as the rest of :mod:`stats.power` defines power. The item draws
and the swaps are drawn once per sample size and used for every effect (common random
numbers); each simulated data set's swaps come from its own seed, drawn from ``rng``, exactly
as :func:`stats.perm_both` draws them with that seed (``tests/power/test_perm_both_power.py``
runs :func:`stats.perm_both` on the same data sets with the same seeds).

Vectorised
----------
For a swap mask :math:`w` the permuted metrics are :math:`\tilde a = z_a + w\delta`,
:math:`\tilde b = z_b - w\delta` with :math:`\delta = z_b - z_a`; in a simulated data set
:math:`z_b` is linear in the centred cells :math:`a_c, d_c` of :math:`A` and
:math:`B_1 - A`, so every permuted Pearson correlation, for any :math:`\lambda`, follows from
seven products of the swap matrix with per-cell terms (:math:`a_c g, d_c g, a_c, d_c, a_c^2,
a_c d_c, d_c^2`), computed once per sample size as batched matrix products. The minimum
detectable effect is then the target-power quantile of each data set's critical effect
(:func:`stats.power.engine.critical_effects`), each step costing no new swaps.

Other correlations
------------------
Every other setting runs the one PERM-BOTH engine (:mod:`stats.metaeval.perm_both.engine`, its
kernels chosen as :func:`stats.perm_both` chooses them) on each simulated data set: metric A
against B mixed at each effect's :math:`\lambda`, all tested with the same swaps, drawn from
the data set's seed as :func:`stats.perm_both` draws them (the golden test runs
:func:`stats.perm_both` on the same data sets and seeds). The mixing is solved on the observed
data in that correlation and grouping; rank correlations move in steps, so :math:`\lambda` is
the smallest mixing whose difference reaches at least the effect. The minimum detectable
effect is read from the power on a grid of effects up to the largest the mixing reaches, then
on a finer grid between the two that bracket the target, interpolated linearly. A simulated
data set with ``n`` items costs one PERM-BOTH of two passes, each over the requested effects
(or the grid's): without grouping the engine's pair-of-cells terms of acc23 and Kendall-like
grow as the square of the cells (tau and Spearman sort long groups instead,
:data:`stats.metaeval.perm_both._linear.SORT_GROUP_CELLS`), so keep
``n_simulations x n_resamples`` moderate there.
"""

from __future__ import annotations

import math

import numpy as np

from stats._core.budget import check_budget
from stats._core.choices import CORRELATIONS, GROUPINGS, KENDALL_LIKE_THRESHOLD
from stats._core.errors import StatsInputError
from stats._core.random import check_rng, rng_and_seed
from stats._core.validation import check_positive_int
from stats.metaeval.perm_both.engine import CorrelationSpec

from . import engine as E
from .engine import PowerResult

__all__ = ["DEFINITION_PERM_BOTH", "perm_both_grid_mde", "perm_both_power"]

#: the definition :func:`perm_both_power` states (docs, JSON output)
DEFINITION_PERM_BOTH = (
    "power at n = share of simulated data sets of n items, drawn with replacement from the "
    "observed items (all systems of an item together), metric B mixed towards A, "
    "B = (1 - lambda) z(A) + lambda z(B), so that c(A, human) - c(B, human) = effect on the "
    "observed items (c: the test's correlation, Pearson r by default; at least the effect "
    "where c moves in steps), on which PERM-BOTH finds A better at alpha; mde = the smallest "
    "such difference detected with the target power"
)

_TOL = 1e-12  # PERM-BOTH's relative tolerance on "at least as large" (its engine's TOL)
_GRID = 4097  # points of the lambda grid of the effect injection
_CHUNK = 1 << 22  # elements of one (simulations x swaps x cells) block


def _pearson(sxg, sx, sxx, n, sg, sgg):
    with np.errstate(divide="ignore", invalid="ignore"):
        return (sxg - sx * sg / n) / np.sqrt((sxx - sx**2 / n) * (sgg - sg**2 / n))


def _lambda_of(za, zb, g, effects):
    """:math:`\\lambda` with r(A, g) - r(B_λ, g) = effect on the observed cells (``za``, ``zb``,
    ``g`` the valid cells, flat), and the largest effect the mixing reaches."""
    t = np.linspace(0.0, 0.999, _GRID)
    lam = t / (1.0 - t)  # 0 .. 999

    r_a = _rows_corr(za[None, :], g)[0]

    def diff(lv):
        return r_a - _rows_corr((1.0 - lv[:, None]) * za + lv[:, None] * zb, g)

    f = diff(lam)
    top = float(np.nanmax(f))
    return _bisect_effects(f, lam, effects, lambda mid: diff(np.array([mid]))[0], 50), lam, f, top


def _bisect_effects(f, lam, effects, at, steps):
    """For each effect the smallest λ whose difference ``at(λ)`` reaches it:
    the first grid point of ``f`` (the differences on the grid ``lam``) that does, then
    ``steps`` bisections between it and the point before (0 for effects <= 0, NaN for one the
    mixing never reaches)."""
    out = np.full(len(effects), np.nan)
    for i, e in enumerate(effects):  # a handful of effects, each a bisection
        if e <= 0:
            out[i] = 0.0
            continue
        hit = np.flatnonzero(f >= e)
        if not hit.size:
            continue
        j = hit[0]
        lo, hi = lam[max(j - 1, 0)], lam[j]
        for _ in range(steps):
            mid = (lo + hi) / 2.0
            if at(mid) >= e:
                hi = mid
            else:
                lo = mid
        out[i] = hi
    return out


def _rows_corr(b, g):
    bc = b - b.mean(axis=1, keepdims=True)
    gc = g - g.mean()
    return (bc @ gc) / np.sqrt((bc**2).sum(axis=1) * (gc**2).sum())


def _check(metric_a, metric_b, gold):
    arrays = []
    for name, x in (("metric_a", metric_a), ("metric_b", metric_b), ("gold", gold)):
        try:
            arr = np.asarray(x, dtype=float)
        except (TypeError, ValueError):
            raise StatsInputError(f"{name} must be numbers, shape (n_systems, n_items)") from None
        if arr.ndim == 1:
            arr = arr[None, :]
        if arr.ndim != 2:
            raise StatsInputError(f"{name} must have shape (n_systems, n_items); got {arr.shape}")
        arrays.append(arr)
    a, b, g = arrays
    if a.shape != g.shape or b.shape != g.shape:
        raise StatsInputError(
            f"metric_a {a.shape}, metric_b {b.shape} and gold {g.shape} must have one shape"
        )
    if not (np.isfinite(a).all() and np.isfinite(b).all()):
        raise StatsInputError("metric_a and metric_b must be complete (finite everywhere)")
    if np.isfinite(g).sum() < 3 or g.shape[1] < 2:
        raise StatsInputError("gold: need at least 3 scored cells over at least 2 items")
    return a, b, g


def perm_both_power(
    metric_a,
    metric_b,
    gold,
    *,
    effect,
    n,
    correlation: str = "pearson",
    grouping: str = "none",
    epsilon: float | None = None,
    tie_calibration: bool = False,
    threshold: float = KENDALL_LIKE_THRESHOLD,
    alpha: float = 0.05,
    power: float = 0.8,
    n_simulations: int = 200,
    n_resamples: int = 200,
    rng=None,
) -> PowerResult:
    r"""Power and minimum detectable effect of PERM-BOTH (metric A better than metric B).

    Parameters
    ----------
    metric_a, metric_b : array_like, shape (n_systems, n_items)
        The two metrics' segment scores (complete); A is the one hypothesised better.
    gold : array_like, shape (n_systems, n_items)
        Human scores, NaN where missing.
    effect : float or sequence of float
        Differences in the correlation with the humans, :math:`c(A) - c(B) \ge 0` (module
        notes).
    n : int or sequence of int
        Items per simulated data set.
    correlation, grouping, epsilon, tie_calibration, threshold
        The correlation PERM-BOTH compares, as :func:`stats.perm_both` takes them at segment
        level (every correlation but ``'pairwise-accuracy'``, system level only); the default
        Pearson without grouping takes the closed-form swap products, the others the PERM-BOTH
        engine itself (:func:`stats.metaeval.perm_both.engine.resample`), data set by data set.
    alpha : float
        Level of the test.
    power : float
        Target power of the minimum detectable effect (default 0.8).
    n_simulations : int
        Simulated data sets per sample size.
    n_resamples : int
        PERM-BOTH swaps per simulated data set.
    rng : int, numpy.random.Generator or None

    Returns
    -------
    PowerResult
        ``test='perm-both'``, ``alternative='greater'``, ``metric`` the correlation (with the
        grouping when there is one, e.g. ``'kendall by item'``), ``unit='items'``;
        ``observed_effect`` is :math:`c(A) - c(B)` on the observed items.

    References
    ----------
    D. Deutsch, R. Dror and D. Roth (2021). A Statistical Analysis of Summarization Evaluation
    Metrics Using Resampling Methods. TACL. https://doi.org/10.1162/tacl_a_00417
    D. Card et al. (2020). With Little Power Comes Great Responsibility. EMNLP.
    https://aclanthology.org/2020.emnlp-main.745/

    Examples
    --------
    >>> import numpy as np
    >>> from stats.power.perm_both import perm_both_power
    >>> gen = np.random.default_rng(0)
    >>> gold = gen.normal(size=(4, 60))
    >>> a, b = gold + gen.normal(0, 1, gold.shape), gold + gen.normal(0, 2, gold.shape)
    >>> res = perm_both_power(a, b, gold, effect=[0.1, 0.3], n=[30, 60],
    ...                       n_simulations=100, n_resamples=100, rng=1)
    >>> bool(res.power[1, 1] > res.power[0, 0])
    True
    """
    a, b, g = _check(metric_a, metric_b, gold)
    spec = _spec(correlation, grouping, epsilon, tie_calibration, threshold, a, g)
    effects = E.as_effects(effect)
    if min(effects) < 0:
        raise StatsInputError(
            f"effect: give differences r(A) - r(B) of at least 0 (A the better metric); "
            f"got {min(effects)}"
        )
    sizes = E.as_sizes(n)
    alpha, _, power, n_simulations = E.check_common(alpha, "greater", power, n_simulations)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    k, n_items = g.shape
    E.budget("PERM-BOTH power", n_simulations, n_resamples, sizes, width=7 * k)
    check_budget(  # what E.budget does not count: the swap products and per-cell terms held
        what="PERM-BOTH power",
        memory=8.0 * n_simulations * (7 * n_resamples + 12 * k * max(sizes)) + 8.0 * _CHUNK,
    )
    if spec != _PEARSON:  # the engine path: a whole PERM-BOTH per data set, two passes
        from stats.metaeval.perm_both.core import SORT_GROUP_CELLS, long_cells

        cells = {"none": k * max(sizes), "system": max(sizes), "item": k}[spec.grouping]
        terms = cells**2  # the pair-of-cells terms of a group, or tau's and Spearman's sorting
        if spec.correlation in SORT_GROUP_CELLS and cells > long_cells(spec.correlation):
            terms = cells * math.log2(cells) ** 2
        check_budget(  # per pair: the swaps' cells, and the terms of a group that the
            what="PERM-BOTH power",  # engine builds once per data set (amortised)
            n_resamples=n_simulations * n_resamples,
            resamples_of={"n_simulations": n_simulations, "n_resamples": n_resamples},
            n_segments=k * sum(sizes),
            n_pairs=len(effects) + _MDE_GRID + _MDE_REFINE - 1,
            pair_cost=k * max(sizes) + terms * len(sizes) / n_resamples,
        )
    valid = np.isfinite(g)
    za, zb = _z(a, valid), _z(b, valid)
    if spec == _PEARSON:
        lam, grid, f, top = _lambda_of(za[valid], zb[valid], g[valid], effects)
    else:
        lam, grid, f, top = _lambda_of_spec(za, zb, g, effects, spec)
    if np.isnan(lam).any():
        bad = [e for e, v in zip(effects, lam, strict=True) if np.isnan(v)]
        raise StatsInputError(
            f"effect: mixing B towards A reaches differences in {spec.correlation} up to "
            f"{top:.4g}; got {bad}"
        )
    gen, seed = rng_and_seed(rng)
    d = zb - za
    pw = np.zeros((len(effects), len(sizes)))
    mde = np.full(len(sizes), np.nan)
    keep = np.maximum.accumulate(f) == f  # effect -> lambda along the rising part of the grid
    for j, size in enumerate(sizes):
        idx = gen.integers(0, n_items, size=(n_simulations, size))
        seeds = gen.integers(0, 2**63, size=n_simulations)
        if spec != _PEARSON:
            pw[:, j], mde[j] = _engine_size(
                a, za, zb - za, g, idx, seeds, lam, (f[keep], grid[keep], top), spec,
                n_resamples, alpha, power,
            )
            continue
        sim = _Simulated(za, d, g, valid, idx, seeds, n_resamples)
        for i, lv in enumerate(lam):
            pw[i, j] = sim.rejects(np.full(n_simulations, lv), alpha).mean()

        def rejects_at(eff, sim=sim):
            lv = np.interp(eff, f[keep], grid[keep])
            return sim.rejects(lv, alpha)

        crit = E.critical_effects(rejects_at, n_simulations, 0.0, top)
        mde[j] = E.mde_from_critical(crit, power)
    return PowerResult(
        power=pw,
        mc_error=E.mc_error(pw, n_simulations),
        mde=mde,
        effects=effects,
        sizes=sizes,
        test="perm-both",
        alternative="greater",
        alpha=alpha,
        target_power=power,
        n_simulations=n_simulations,
        n_resamples=n_resamples,
        seed=seed,
        n_observed=n_items,
        observed_effect=(float(f[np.argmin(np.abs(grid - 1.0))]) if spec == _PEARSON
                         else float(_curve(za, zb, g, spec, np.array([1.0]))[0])),
        metric=spec.correlation + ("" if spec.grouping == "none" else f" by {spec.grouping}"),
        unit="items",
        definition=DEFINITION_PERM_BOTH,
    )


#: Pearson without grouping: the closed-form swap products (:class:`_Simulated`)
_PEARSON = CorrelationSpec()
_SPEC_GRID = 257  # points of the lambda grid for the other correlations (each a correlation)
_CURVE_CELLS = 2_000_000  # cells of the mixed metrics evaluated at once on that grid
_MDE_GRID = 8  # effects of the first pass of the MDE search (engine path)
_MDE_REFINE = 8  # steps between the two bracketing effects in the second pass


def _spec(correlation, grouping, epsilon, tie_calibration, threshold, a, g):
    """The :class:`~stats.metaeval.perm_both.engine.CorrelationSpec` of the test, checked as
    :func:`stats.perm_both` checks it (the observed correlation of A, which also validates the
    combination of options)."""
    from stats.metaeval.meta_eval import check_choice, meta_correlation

    check_choice(correlation, CORRELATIONS, "correlation")
    check_choice(grouping, GROUPINGS, "grouping")
    if correlation == "pairwise-accuracy":
        raise StatsInputError(
            "correlation: pairwise-accuracy is system level only; PERM-BOTH power simulates "
            "segment-level tests (choose another correlation)"
        )
    spec = CorrelationSpec(correlation=correlation, grouping=grouping, epsilon=epsilon,
                           tie_calibration=bool(tie_calibration), threshold=float(threshold))
    meta_correlation(a, g, level="seg", **spec.options())  # raises on a bad combination
    return spec


def _curve(za, zb, g, spec, lam):
    r""":math:`c(A, g) - c(B_\lambda, g)` for each ``lam`` (the correlation of ``spec``, as
    the PERM-BOTH engine evaluates a stack of metrics, :func:`~stats.metaeval.perm_both.core.
    resampled_correlations`), in chunks of mixed metrics."""
    from stats.metaeval.perm_both.core import resampled_correlations

    c_a = resampled_correlations(g, za[None], spec)[0]
    out = np.empty(len(lam))
    step = max(1, _CURVE_CELLS // max(1, g.size))
    d = zb - za
    for c0 in range(0, len(lam), step):  # chunks of grid points, each a stacked evaluation
        lv = np.asarray(lam[c0 : c0 + step], dtype=float)
        out[c0 : c0 + step] = c_a - resampled_correlations(g, za[None] + lv[:, None, None] * d[None], spec)
    return out


def _lambda_of_spec(za, zb, g, effects, spec):
    """:func:`_lambda_of` for any correlation of ``spec`` (whole arrays, its grouping): a
    coarser grid (each point a correlation of all cells), then bisection."""
    t = np.linspace(0.0, 0.999, _SPEC_GRID)
    lam = t / (1.0 - t)
    f = _curve(za, zb, g, spec, lam)
    top = float(np.nanmax(f)) if np.isfinite(f).any() else float("nan")
    out = _bisect_effects(f, lam, effects, lambda mid: _curve(za, zb, g, spec, [mid])[0], 40)
    return out, lam, np.nan_to_num(f, nan=-np.inf), top


def _engine_rejects(a_s, mixes, g_s, spec, seed, n_resamples, alpha):
    """PERM-BOTH on one simulated data set, through its one engine: metric A (``a_s``,
    systems x items) against each mixed B (``mixes``, one per effect), all pairs tested with
    the same swaps, drawn from ``seed`` exactly as :func:`stats.perm_both` draws them. True
    where A is the better (a positive observed difference) with p below ``alpha``."""
    from stats.metaeval.perm_both.core import engine_paths
    from stats.metaeval.perm_both.engine import resample, resampling, zscore

    valid = ~np.isnan(g_s)
    on = np.ones_like(valid) if spec.tie_calibration else valid  # as stats.perm_both
    names = [f"B{i}" for i in range(len(mixes))]
    Z = {"A": zscore(a_s, on), **{m: zscore(x, on) for m, x in zip(names, mixes, strict=True)}}
    pairs = [("A", m) for m in names]
    differences, chunk = engine_paths(g_s, Z, pairs, spec)
    how = resampling(n_resamples=n_resamples, early_stopping=False, block_size=n_resamples,
                     return_draws=False, rng=int(seed), progress=None)
    delta, counts, used, _ = resample(differences, len(pairs), g_s.shape, chunk=chunk, how=how)
    with np.errstate(invalid="ignore"):
        return (delta > 0) & (counts / used < alpha)


def _engine_size(a, za, d, g, idx, seeds, lam, curve, spec, n_resamples, alpha, power):
    """Power per effect (``lam``) and the MDE at one sample size by the PERM-BOTH engine, data
    set by data set (each a whole PERM-BOTH over its resamples and effects at once). The MDE:
    power on a grid of :data:`_MDE_GRID` effects up to the largest reachable, then on a finer
    grid between the two that bracket ``power`` (the same swaps: each data set keeps its
    seed), interpolated linearly between the two fine effects that bracket it."""
    f_keep, grid_keep, top = curve

    def lam_of(effects):
        return np.where(np.asarray(effects) <= 0, 0.0, np.interp(effects, f_keep, grid_keep))

    def rejects(lams):  # (data sets, effects)
        out = np.empty((len(seeds), len(lams)), dtype=bool)
        for s in range(len(seeds)):  # one PERM-BOTH per data set; resamples are array work
            cols = idx[s]
            mixes = za[None, :, cols] + np.asarray(lams)[:, None, None] * d[None, :, cols]
            out[s] = _engine_rejects(a[:, cols], mixes, g[:, cols], spec, seeds[s],
                                     n_resamples, alpha)
        return out

    coarse = top * np.arange(1, _MDE_GRID + 1) / _MDE_GRID
    hits = rejects(np.r_[lam, lam_of(coarse)])
    pw = hits[:, : len(lam)].mean(axis=0)
    p_coarse = hits[:, len(lam) :].mean(axis=0)
    above = np.flatnonzero(p_coarse >= power)
    if not above.size:
        return pw, float("nan")
    k = above[0]
    lo, p_lo = (coarse[k - 1], p_coarse[k - 1]) if k > 0 else (0.0, 0.0)  # 0: B is A
    inner = lo + (coarse[k] - lo) * np.arange(1, _MDE_REFINE) / _MDE_REFINE
    fine = np.r_[lo, inner, coarse[k]]
    p_fine = np.r_[p_lo, rejects(lam_of(inner)).mean(axis=0), p_coarse[k]]
    j = int(np.flatnonzero(p_fine >= power)[0])  # > 0: p_lo is below the target
    frac = (power - p_fine[j - 1]) / (p_fine[j] - p_fine[j - 1])
    return pw, float(fine[j - 1] + frac * (fine[j] - fine[j - 1]))


def _z(x, valid):
    v = x[valid]
    sd = v.std()
    return (x - v.mean()) / (sd if sd > 0 else 1.0)


class _Simulated:
    """The simulated data sets of one sample size: the swap products with the per-cell terms
    (computed once), from which PERM-BOTH's p-value follows for any :math:`\\lambda`."""

    def __init__(self, za, d, g, valid, idx, seeds, n_resamples):
        s, size = idx.shape
        k = g.shape[0]
        m = k * size
        v = valid[:, idx].transpose(1, 0, 2).reshape(s, m)  # (S, cells), system-major
        gg = np.where(v, g[:, idx].transpose(1, 0, 2).reshape(s, m), 0.0)
        A = za[:, idx].transpose(1, 0, 2).reshape(s, m)
        D = d[:, idx].transpose(1, 0, 2).reshape(s, m)
        self.N = v.sum(axis=1).astype(float)
        with np.errstate(invalid="ignore", divide="ignore"):
            ma = np.where(v, A, 0).sum(axis=1) / self.N
            md = np.where(v, D, 0).sum(axis=1) / self.N
        ac = np.where(v, A - ma[:, None], 0.0)
        dc = np.where(v, D - md[:, None], 0.0)
        self.sg, self.sgg = gg.sum(axis=1), (gg**2).sum(axis=1)
        self.vaa, self.vad, self.vdd = ((ac * ac).sum(1), (ac * dc).sum(1), (dc * dc).sum(1))
        self.sag, self.sdg = (ac * gg).sum(1), (dc * gg).sum(1)
        terms = np.stack([ac * gg, dc * gg, ac, dc, ac * ac, ac * dc, dc * dc], axis=2)
        # the swaps of each data set, as stats.perm_both draws them with that seed
        products = np.empty((s, n_resamples, 7))
        step = max(1, _CHUNK // max(1, n_resamples * m))
        for c0 in range(0, s, step):  # chunks of data sets (memory bound), no per-swap loop
            c1 = min(s, c0 + step)
            W = np.stack([
                check_rng(int(seeds[q])).random((n_resamples, k, size)) < 0.5
                for q in range(c0, c1)
            ]).reshape(c1 - c0, n_resamples, m)
            products[c0:c1] = np.matmul(W.astype(np.float64), terms[c0:c1])
        self.P = products

    def rejects(self, lam, alpha):
        """Boolean per data set: PERM-BOTH finds A better at ``alpha`` with B mixed at
        ``lam`` (one per data set)."""
        lam = np.asarray(lam, dtype=float)
        n = self.N
        sa = np.sqrt(self.vaa / n)
        sa = np.where(sa > 0, sa, 1.0)
        sb = np.sqrt((self.vaa + 2 * lam * self.vad + lam**2 * self.vdd) / n)
        sb = np.where(sb > 0, sb, 1.0)
        # z_b - z_a = al * a_c + be * d_c;  z_b^2 - z_a^2 = q1 a_c^2 + q2 a_c d_c + q3 d_c^2
        al, be = 1.0 / sb - 1.0 / sa, lam / sb
        q1, q2, q3 = 1.0 / sb**2 - 1.0 / sa**2, 2.0 * lam / sb**2, lam**2 / sb**2
        zag, zbg = self.sag / sa, (self.sag + lam * self.sdg) / sb
        saa = (self.vaa / sa**2)
        sbb = (self.vaa + 2 * lam * self.vad + lam**2 * self.vdd) / sb**2
        r_a = _pearson(zag, 0.0, saa, n, self.sg, self.sgg)
        r_b = _pearson(zbg, 0.0, sbb, n, self.sg, self.sgg)
        delta = r_a - r_b  # (S,)
        P = self.P
        wdg = al[:, None] * P[..., 0] + be[:, None] * P[..., 1]
        wd = al[:, None] * P[..., 2] + be[:, None] * P[..., 3]
        wsq = q1[:, None] * P[..., 4] + q2[:, None] * P[..., 5] + q3[:, None] * P[..., 6]
        sg, sgg, nn = self.sg[:, None], self.sgg[:, None], n[:, None]
        rx = _pearson(zag[:, None] + wdg, wd, saa[:, None] + wsq, nn, sg, sgg)
        ry = _pearson(zbg[:, None] - wdg, -wd, sbb[:, None] - wsq, nn, sg, sgg)
        tol = _TOL * np.maximum(1.0, np.abs(delta))
        p = ((rx - ry) >= (delta - tol)[:, None]).mean(axis=1)
        return (delta > 0) & (p < alpha)


def perm_both_grid_mde(result, *, alpha: float = 0.05, power: float = 0.8):
    r"""Minimum detectable difference of every tested pair of a PERM-BOTH grid, by the normal
    approximation from the spread of its permuted differences:
    :math:`(z_{1-\alpha} + z_{\mathrm{power}})\,\mathrm{sd}(c(\tilde a) - c(\tilde b))`
    (one-sided, as PERM-BOTH; :func:`stats.power.normal_mde`). The permuted differences are
    the test's null distribution, so their spread is the standard error of the observed
    difference under H0; :func:`perm_both_power` simulates the MDE instead, at any sample size.

    Parameters
    ----------
    result : stats.metaeval.perm_both.PermBothResult
        A test run with ``return_draws=True``.
    alpha, power : float

    Returns
    -------
    pandas.DataFrame
        Same layout as ``result.pvalue``: the difference in the test's correlation detected
        with ``power`` in each tested cell (row metric better than column metric), NaN
        elsewhere and where the spread is zero or undefined.

    Raises
    ------
    StatsInputError
        ``result`` ran without ``return_draws=True``.

    Examples
    --------
    >>> import numpy as np
    >>> from stats import perm_both
    >>> from stats.power.perm_both import perm_both_grid_mde
    >>> gen = np.random.default_rng(0)
    >>> gold = gen.normal(size=(1, 200))
    >>> res = perm_both({"a": gold + gen.normal(0, 1, gold.shape),
    ...                  "b": gold + gen.normal(0, 1.1, gold.shape)}, gold,
    ...                 correlation="spearman", n_resamples=500, return_draws=True, rng=1)
    >>> mde = perm_both_grid_mde(res)
    >>> bool(0.05 < mde.iat[0, 1] < 0.3), bool(np.isnan(mde.iat[1, 0]))
    (True, True)
    """
    import pandas as pd

    from .paired import normal_mde

    if getattr(result, "draws", None) is None:
        raise StatsInputError("result: run PERM-BOTH with return_draws=True for the spread")
    m = len(result.metrics)
    out = np.full((m, m), np.nan)
    iu = np.triu_indices(m, 1)  # the order of the draws' rows
    with np.errstate(invalid="ignore"):
        spread = np.nanstd(result.draws, axis=1) if result.draws.size else np.zeros(0)
    out[iu] = normal_mde(se=spread, alpha=alpha, power=power, alternative="greater")
    out[np.isnan(result.pvalue.to_numpy(dtype=float))] = np.nan
    return pd.DataFrame(out, index=result.pvalue.index, columns=result.pvalue.columns)
