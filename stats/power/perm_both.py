r"""Power of PERM-BOTH (two metrics against humans) by simulation over items.

:func:`perm_both_power` asks: with ``n`` items (segments, each with every system's scores),
how often does PERM-BOTH (:func:`stats.perm_both`, Deutsch, Dror & Roth 2021; Pearson, segment
level, no grouping) find metric A significantly better than metric B when A's correlation with
the humans exceeds B's by ``effect``?

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
"""

from __future__ import annotations

import numpy as np

from stats._core.budget import check_budget
from stats._core.errors import StatsInputError
from stats._core.validation import check_positive_int

from . import engine as E
from .engine import PowerResult

__all__ = ["DEFINITION_PERM_BOTH", "perm_both_power"]

#: the definition :func:`perm_both_power` states (docs, JSON output)
DEFINITION_PERM_BOTH = (
    "power at n = share of simulated data sets of n items, drawn with replacement from the "
    "observed items (all systems of an item together), metric B mixed towards A, "
    "B = (1 - lambda) z(A) + lambda z(B), so that r(A, human) - r(B, human) = effect on the "
    "observed items, on which PERM-BOTH finds A better at alpha; mde = the smallest such "
    "difference in Pearson r detected with the target power"
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
    out = np.full(len(effects), np.nan)
    for i, e in enumerate(effects):  # a handful of effects: each a vectorised search
        hit = np.flatnonzero(f >= e)
        if e <= 0:
            out[i] = 0.0
            continue
        if not hit.size:
            continue
        j = hit[0]
        lo, hi = lam[max(j - 1, 0)], lam[j]
        for _ in range(50):
            mid = (lo + hi) / 2.0
            if diff(np.array([mid]))[0] >= e:
                hi = mid
            else:
                lo = mid
        out[i] = hi
    return out, lam, f, top


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
        Differences in Pearson r with the humans, :math:`r(A) - r(B) \ge 0` (module notes).
    n : int or sequence of int
        Items per simulated data set.
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
        ``test='perm-both'``, ``alternative='greater'``, ``metric='pearson'``, ``unit='items'``;
        ``observed_effect`` is :math:`r(A) - r(B)` on the observed items.

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
    valid = np.isfinite(g)
    za, zb = _z(a, valid), _z(b, valid)
    lam, grid, f, top = _lambda_of(za[valid], zb[valid], g[valid], effects)
    if np.isnan(lam).any():
        bad = [e for e, v in zip(effects, lam, strict=True) if np.isnan(v)]
        raise StatsInputError(
            f"effect: mixing B towards A reaches differences in r up to {top:.4g}; got {bad}"
        )
    gen, seed = E.rng_and_seed(rng)
    d = zb - za
    pw = np.zeros((len(effects), len(sizes)))
    mde = np.full(len(sizes), np.nan)
    keep = np.maximum.accumulate(f) == f  # effect -> lambda along the rising part of the grid
    for j, size in enumerate(sizes):
        idx = gen.integers(0, n_items, size=(n_simulations, size))
        seeds = gen.integers(0, 2**63, size=n_simulations)
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
        observed_effect=float(f[np.argmin(np.abs(grid - 1.0))]),
        metric="pearson",
        unit="items",
        definition=DEFINITION_PERM_BOTH,
    )


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
                np.random.default_rng(int(seeds[q])).random((n_resamples, k, size)) < 0.5
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
