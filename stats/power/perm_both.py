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
The effect is put into the observed data with the design held: metric B keeps its observed
correlation :math:`\rho` with metric A while its correlation with the humans drops below A's
by the effect. With :math:`a = z_A` (A standardised over the cells with a gold score),
:math:`u` the standardised part of the gold scores orthogonal to :math:`a`, and :math:`w` the
standardised part of :math:`z_B` orthogonal to both (B's own residual pattern),

.. math:: B_t = \rho\, a + \beta_t\, u + \gamma_t\, w,\quad
          \beta_t = \frac{r_{Ag}(1-\rho) - t}{\sqrt{1 - r_{Ag}^2}},\quad
          \gamma_t = \sqrt{1 - \rho^2 - \beta_t^2},

so that :math:`r(A, B_t) = \rho` and :math:`r(A, g) - r(B_t, g) = t` on all the observed
cells (at the observed difference :math:`B_t` is the observed B; at :math:`t = 0` the two
metrics correlate equally with the humans, PERM-BOTH's null, with their observed correlation
with each other). Mixing B towards A, as this module did before, raised :math:`r(A, B)`
(0.54 to 0.78 at a reported MDE), which makes the two metrics easier to tell apart than the
data are. When effect 0 is out of reach with the observed :math:`\rho`
(:math:`r_{Ag}^2 > (1 + \rho)/2`: B correlates too little with A to correlate with the humans
as well as A), the simulation uses the least correlation that reaches it,
:math:`2 r_{Ag}^2 - 1`, and the result's notes say so. Power at n = the share of ``n_simulations`` simulated data sets of n items, drawn
with replacement from the observed items (every system's cells of an item together), on which
PERM-BOTH with ``n_resamples`` swaps finds A better at ``alpha`` (A's sample correlation the
higher and its one-sided p below ``alpha``), as the rest of :mod:`stats.power` defines power;
``size`` is the rejection rate at effect 0. The item draws and the swaps are drawn once per
sample size and used for every effect (common random numbers); each simulated data set's
swaps come from its own seed, drawn from ``rng``, exactly as :func:`stats.perm_both` draws
them with that seed (``tests/power/test_perm_both_power.py`` runs :func:`stats.perm_both` on
the same data sets with the same seeds).

Vectorised
----------
For a swap mask :math:`w` the permuted metrics are :math:`\tilde a = z_a + w\delta`,
:math:`\tilde b = z_b - w\delta` with :math:`\delta = z_b - z_a`; in a simulated data set
both are linear in the centred cells of the basis :math:`(a, u, w)`, so every permuted
Pearson correlation, for any :math:`t`, follows from twelve products of the swap matrix with
per-cell terms (each basis vector times the gold scores, each basis vector, and the six
products of two), computed once per sample size as batched matrix products. The minimum
detectable effect is then the target-power quantile of each data set's critical effect
(:func:`stats.power.engine.critical_effects`), each step costing no new swaps.

Other correlations
------------------
Every other setting runs the one PERM-BOTH engine (:mod:`stats.metaeval.perm_both.engine`, its
kernels chosen as :func:`stats.perm_both` chooses them) on each simulated data set: metric A
against :math:`B_t` at each effect's :math:`t`, all tested with the same swaps, drawn from
the data set's seed as :func:`stats.perm_both` draws them (the golden test runs
:func:`stats.perm_both` on the same data sets and seeds). :math:`t` is solved on the observed
data in that correlation and grouping; rank correlations move in steps, so :math:`t` is
the smallest whose difference reaches at least the effect. The minimum detectable
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
from stats._core.random import check_rng, common_seed, rng_and_seed
from stats._core.validation import check_positive_int
from stats.metaeval.perm_both.engine import CorrelationSpec

from . import engine as power_engine
from .engine import PowerResult

__all__ = ["DEFINITION_PERM_BOTH", "perm_both_grid_mde", "perm_both_power",
           "perm_both_sample_size"]

#: the definition :func:`perm_both_power` states (docs, JSON output)
DEFINITION_PERM_BOTH = (
    "power at n = share of simulated data sets of n items, drawn with replacement from the "
    "observed items (all systems of an item together), metric B rebuilt with its observed "
    "correlation with A held, B = rho z(A) + beta u + gamma w (u: the humans' part not "
    "explained by A, w: B's own residual), so that c(A, human) - c(B, human) = effect on the "
    "observed items (c: the test's correlation, Pearson r by default; at least the effect "
    "where c moves in steps), on which PERM-BOTH finds A better at alpha; mde = the smallest "
    "such difference detected with the target power"
)

_TOL = 1e-12  # PERM-BOTH's relative tolerance on "at least as large" (its engine's TOL)
_CHUNK = 1 << 22  # elements of one (simulations x swaps x cells) block


def _pearson(sxg, sx, sxx, n, sg, sgg):
    with np.errstate(divide="ignore", invalid="ignore"):
        return (sxg - sx * sg / n) / np.sqrt((sxx - sx**2 / n) * (sgg - sg**2 / n))


class _Family:
    r"""Metric B at a hypothesised difference ``t`` in Pearson's r with the humans, its
    correlation with A held (module notes): on the cells with a gold score, with
    :math:`a = z_A`, :math:`u` the standardised part of the humans orthogonal to :math:`a` and
    :math:`w` the standardised part of :math:`z_B` orthogonal to both,

    .. math:: B_t = \rho\, a + \beta_t\, u + \gamma_t\, w,\quad
              \beta_t = \frac{r_{Ag}(1 - \rho) - t}{\sqrt{1 - r_{Ag}^2}},\quad
              \gamma_t = \sqrt{1 - \rho^2 - \beta_t^2},

    so that :math:`r(A, B_t) = \rho` (the observed :math:`r(A, B)`) and
    :math:`r(A, g) - r(B_t, g) = t` on the observed cells; at the observed difference
    :math:`B_t` is the observed B."""

    def __init__(self, za, zb, g, valid, grouping: str = "none"):
        self.g = g
        # a grouped correlation sees only the differences within its groups: the design is
        # built from the parts within the groups, and B keeps its own group means (offset)
        axis = {"none": None, "item": 0, "system": 1}[grouping]
        za_c, zb_c, g_c = (_within(x, valid, axis) for x in (za, zb, g))
        self.offset = zb - zb_c
        sd_a = float(np.sqrt(np.mean(za_c[valid] ** 2))) or 1.0
        av, bv, gv = za_c[valid] / sd_a, zb_c[valid], g_c[valid]
        bv = bv / (float(np.sqrt(np.mean(bv**2))) or 1.0)
        gs = gv / (float(np.sqrt(np.mean(gv**2))) or 1.0)
        self.r_ag = float(np.mean(av * gs))
        self.rho = float(np.mean(av * bv))
        u_v = gs - self.r_ag * av
        nu = float(np.sqrt(np.mean(u_v**2)))
        if not nu > 1e-12:
            raise StatsInputError("gold: the human scores are a linear function of metric A; "
                                  "no other metric can be simulated around them")
        u_v = u_v / nu
        u = np.zeros_like(za)
        u[valid] = u_v
        a = za_c / sd_a
        sd_b = float(np.sqrt(np.mean(zb_c[valid] ** 2))) or 1.0
        self.scale_b = sd_b
        beta_obs = float(np.mean(bv * u_v))
        w = zb_c / sd_b - self.rho * a - beta_obs * u
        gamma_obs = float(np.sqrt(np.mean(w[valid] ** 2)))
        self.basis = np.stack([a, u, w / gamma_obs if gamma_obs > 1e-12 else w])
        self.rho_observed, self.note = self.rho, ""
        if self.r_ag**2 > (1.0 + self.rho) / 2.0:  # effect 0 out of reach with rho held
            self.rho = min(1.0, 2.0 * self.r_ag**2 - 1.0 + 1e-9)
            self.note = (
                f"B's correlation with A is {self.rho_observed:.3f}, too low for B to correlate "
                f"with the humans as well as A does (r={self.r_ag:.3f}): the simulated B "
                f"correlates {self.rho:.3f} with A, the least that lets effect 0 (the test's "
                "null) be simulated, and power is for that design"
            )
        self.s = float(np.sqrt(max(1.0 - self.r_ag**2, 1e-300)))
        reach = float(np.sqrt(max(1.0 - self.rho**2, 0.0))) * self.s
        self.top = self.r_ag * (1.0 - self.rho) + reach  # beta = -sqrt(1 - rho^2)
        self.bottom = self.r_ag * (1.0 - self.rho) - reach  # beta = +sqrt(1 - rho^2)
        self.observed = self.r_ag - float(np.mean(bv * gs))

    def coef(self, t) -> np.ndarray:
        """(..., 3) coefficients of B_t on the basis (a, u, w)."""
        t = np.asarray(t, dtype=float)
        beta = (self.r_ag * (1.0 - self.rho) - t) / self.s
        gamma = np.sqrt(np.clip(1.0 - self.rho**2 - beta**2, 0.0, None))
        return np.stack([np.full(t.shape, self.rho), beta, gamma], axis=-1)

    def metric(self, t, cols=None) -> np.ndarray:
        """B_t for each ``t`` (shape (len(t), systems, items), or ``cols`` of the items);
        with :meth:`keep_values`, each B_t carried onto B's observed values."""
        if self.values is not None:
            out = np.stack([self._mapped(float(tv)) for tv in np.atleast_1d(t)])
            return out if cols is None else out[:, :, cols]
        return self._raw(np.atleast_1d(t), cols)

    def _raw(self, t, cols=None) -> np.ndarray:
        basis = self.basis if cols is None else self.basis[:, :, cols]
        offset = self.offset if cols is None else self.offset[:, cols]
        return offset + self.scale_b * np.tensordot(self.coef(t), basis, axes=(1, 0))

    values = None

    def keep_values(self, zb) -> None:
        """Rank correlations and those that count ties see B's values, not only its order:
        from now on B_t is carried onto the observed values of standardised B, cell for cell
        by rank (the smallest B_t gets B's smallest value, ...), so that B keeps its own
        ties and spread at every t (at the observed difference B_t is B itself)."""
        self.values = np.sort(zb, axis=None)
        self._cache: dict[float, np.ndarray] = {}

    def _mapped(self, t: float) -> np.ndarray:
        if t not in self._cache:
            raw = self._raw(np.array([t]))[0]
            out = np.empty(raw.size)
            out[np.argsort(raw, axis=None, kind="stable")] = self.values
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[t] = out.reshape(raw.shape)
        return self._cache[t]

def _within(x, valid, axis):
    """``x`` centred within its groups (the mean over the valid cells of each column for
    ``axis`` 0, each row for 1; over all valid cells for None), 0 where not valid."""
    v = np.where(valid, x, 0.0)
    if axis is None:
        mean = v.sum() / max(valid.sum(), 1)
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = v.sum(axis=axis, keepdims=True) / valid.sum(axis=axis, keepdims=True)
        mean = np.nan_to_num(mean)
    return np.where(valid, x - mean, 0.0)


def _t_of(fam: _Family, effects, spec):
    """The Pearson parameter ``t`` of :class:`_Family` for each effect in the test's
    correlation, the grid's (t, difference) along its rising part, and the largest difference
    reached. Pearson without grouping: ``t`` is the effect."""
    if spec == _PEARSON:
        t = np.asarray(effects, dtype=float)
        grid = np.linspace(0.0, fam.top, 3)
        return np.where(t <= fam.top, t, np.nan), grid, grid, fam.top
    lo = max(fam.bottom, -0.25 * fam.top)
    grid = np.linspace(lo, fam.top * (1 - 1e-9), _SPEC_GRID)
    f = _curve(fam, spec, grid)
    f = np.nan_to_num(f, nan=-np.inf)
    top = float(np.max(f)) if np.isfinite(f).any() else float("nan")
    out = np.full(len(effects), np.nan)
    for i, e in enumerate(effects):  # a handful of effects, each a bisection on the curve
        hit = np.flatnonzero(f >= e)
        if not hit.size:
            continue
        j = hit[0]
        if j == 0:
            out[i] = grid[0]
            continue
        a_, b_ = grid[j - 1], grid[j]
        for _ in range(40):
            mid = (a_ + b_) / 2.0
            if _curve(fam, spec, [mid])[0] >= e:
                b_ = mid
            else:
                a_ = mid
        out[i] = b_
    keep = np.maximum.accumulate(f) == f
    return out, f[keep], grid[keep], top


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
    sample_size: bool = False,
    n_max: int = 100_000,
    progress=None,
    _mde: bool = True,
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
    effects = power_engine.as_effects(effect)
    if min(effects) < 0:
        raise StatsInputError(
            f"effect: give differences r(A) - r(B) of at least 0 (A the better metric); "
            f"got {min(effects)}"
        )
    sizes = power_engine.as_sizes(n)
    alpha, _, power, n_simulations = power_engine.check_common(
        alpha, "greater", power, n_simulations
    )
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    k, n_items = g.shape
    power_engine.budget("PERM-BOTH power", n_simulations, n_resamples, sizes, width=7 * k)
    # what power_engine.budget does not count: the swap products and per-cell terms held
    check_budget(
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
    fam = _Family(_z(a, valid), _z(b, valid), g, valid, spec.grouping)
    if spec != _PEARSON:
        fam.keep_values(_z(b, valid))
    ts, f_keep, grid_keep, top = _t_of(fam, (*effects, 0.0), spec)
    if np.isnan(ts).any():
        bad = [e for e, v in zip(effects, ts, strict=False) if np.isnan(v)]
        raise StatsInputError(
            f"effect: with B's observed correlation with A held (r={fam.rho:.3f}), the "
            f"difference in {spec.correlation} reaches at most {top:.4g}; got {bad}"
        )
    notes = [fam.note] if fam.note else []
    if spec != _PEARSON:
        least = float(_curve(fam, spec, [ts[-1]])[0])
        if least > 0.005:
            notes.append(
                f"with B's observed correlation with A held, the difference in "
                f"{spec.correlation} cannot go below {least:.3g} on these data (the two "
                "metrics' values and ties differ), so the 'effect 0' rate is measured at that "
                "difference: it is not the test's size"
            )
    gen, seed = rng_and_seed(rng)
    pw = np.zeros((len(ts), len(sizes)))
    mde = np.full(len(sizes), np.nan)
    tick = power_engine.ticker(progress, len(sizes) + bool(sample_size))
    for j, size in enumerate(sizes):
        tick(j)
        idx = gen.integers(0, n_items, size=(n_simulations, size))
        seeds = gen.integers(0, 2**63, size=n_simulations)
        if spec != _PEARSON:
            pw[:, j], mde[j] = _engine_size(
                a, fam, g, idx, seeds, ts, (f_keep, grid_keep, top), spec, n_resamples,
                alpha, power, _mde,
            )
            continue
        sim = _Simulated(fam.basis, g, valid, idx, seeds, n_resamples)
        for i, tv in enumerate(ts):
            pw[i, j] = sim.rejects(fam.coef(tv), alpha).mean()
        if _mde:
            def rejects_at(eff: np.ndarray, sim=sim) -> np.ndarray:
                return sim.rejects(fam.coef(eff), alpha)

            crit = power_engine.critical_effects(rejects_at, n_simulations, 0.0, top)
            mde[j] = power_engine.mde_from_critical(crit, power)
    observed = fam.observed if spec == _PEARSON else float(
        _curve(fam, spec, [fam.observed])[0])
    result = PowerResult(
        power=pw[:-1],
        mc_error=power_engine.mc_error(pw[:-1], n_simulations),
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
        observed_effect=observed,
        metric=spec.correlation + ("" if spec.grouping == "none" else f" by {spec.grouping}"),
        unit="items",
        definition=DEFINITION_PERM_BOTH,
        effect_meaning=EFFECT_PERM_BOTH.format(corr=spec.correlation, rho=fam.rho),
    )
    if not _mde:
        return result
    tick(len(sizes))
    if sample_size:
        found = perm_both_sample_size(
            metric_a, metric_b, gold, effect=effects[0], correlation=correlation,
            grouping=grouping, epsilon=epsilon, tie_calibration=tie_calibration,
            threshold=threshold, alpha=alpha, power=power, n_simulations=n_simulations,
            n_resamples=n_resamples, n_max=n_max, rng=seed if seed is not None else gen,
            _known=dict(zip(sizes, pw[0], strict=True)),
            _n_cap=power_engine.search_cap(n_simulations, n_resamples, sizes, 7 * k, None),
        )
        result = power_engine.with_sample_size(result, found)
    notes = notes + power_engine.beyond_observed_note(sizes, n_items)
    return power_engine.finish(result, size=pw[-1], notes=notes)


#: what "effect" means for PERM-BOTH power
EFFECT_PERM_BOTH = (
    "effect = c(A, human) - c(B, human) on the observed items, c the test's correlation "
    "({corr}): metric B rebuilt from A, the humans' part not explained by A and B's own "
    "residual so that its correlation with A stays r = {rho:.3f} (the observed one unless a "
    "note says otherwise) while its "
    "correlation with the humans is lower by the effect (at effect 0 both metrics correlate "
    "equally with the humans: the test's null)"
)


def perm_both_sample_size(
    metric_a,
    metric_b,
    gold,
    *,
    effect: float,
    correlation: str = "pearson",
    grouping: str = "none",
    epsilon: float | None = None,
    tie_calibration: bool = False,
    threshold: float = KENDALL_LIKE_THRESHOLD,
    alpha: float = 0.05,
    power: float = 0.8,
    n_simulations: int = 200,
    n_resamples: int = 200,
    n_max: int = 100_000,
    rng=None,
    _known=None,
    _n_cap: int | None = None,
) -> power_engine.SampleSizeResult:
    """Smallest number of items at which :func:`perm_both_power` for ``effect`` reaches
    ``power``, with its Monte Carlo error (one seed for every n;
    :func:`stats.power.engine.search_sample_size`).

    Examples
    --------
    >>> import numpy as np
    >>> from stats.power import perm_both_sample_size
    >>> gen = np.random.default_rng(0)
    >>> gold = gen.normal(size=(4, 60))
    >>> a, b = gold + gen.normal(0, 1, gold.shape), gold + gen.normal(0, 2, gold.shape)
    >>> res = perm_both_sample_size(a, b, gold, effect=0.2, n_simulations=100,
    ...                             n_resamples=100, rng=1)
    >>> 10 < res.sample_size < 200
    True
    """
    seed = common_seed(rng)

    def power_at(size: int) -> float:
        res = perm_both_power(
            metric_a, metric_b, gold, effect=effect, n=size, correlation=correlation,
            grouping=grouping, epsilon=epsilon, tie_calibration=tie_calibration,
            threshold=threshold, alpha=alpha, power=power, n_simulations=n_simulations,
            n_resamples=n_resamples, rng=seed, _mde=False,
        )
        return float(res.power[0, 0])

    target = power_engine.check_common(alpha, "greater", power, 2)[2]
    return power_engine.sample_size_result(
        power_at, effect, target, n_simulations=n_simulations, n_min=3, n_max=n_max,
        test="perm-both", known=_known, n_cap=_n_cap,
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


def _curve(fam: _Family, spec, ts):
    r""":math:`c(A, g) - c(B_t, g)` for each ``ts`` (the correlation of ``spec``, as the
    PERM-BOTH engine evaluates a stack of metrics, :func:`~stats.metaeval.perm_both.core.
    resampled_correlations`), in chunks of metrics."""
    from stats.metaeval.perm_both.core import resampled_correlations

    g = fam.g
    c_a = resampled_correlations(g, fam.basis[0][None], spec)[0]
    ts = np.asarray(ts, dtype=float)
    out = np.empty(len(ts))
    step = max(1, _CURVE_CELLS // max(1, g.size))
    for c0 in range(0, len(ts), step):  # chunks of grid points, each a stacked evaluation
        out[c0 : c0 + step] = c_a - resampled_correlations(g, fam.metric(ts[c0 : c0 + step]), spec)
    return out


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
    standardised = {
        "A": zscore(a_s, on), **{m: zscore(x, on) for m, x in zip(names, mixes, strict=True)}
    }
    pairs = [("A", m) for m in names]
    differences, chunk = engine_paths(g_s, standardised, pairs, spec)
    resampling_settings = resampling(
        n_resamples=n_resamples, early_stopping=False, block_size=n_resamples,
        return_draws=False, rng=int(seed), progress=None,
    )
    delta, counts, used, _ = resample(
        differences, len(pairs), g_s.shape, chunk=chunk, resampling=resampling_settings
    )
    with np.errstate(invalid="ignore"):
        return (delta > 0) & (counts / used < alpha)


def _engine_size(a, fam, g, idx, seeds, ts, curve, spec, n_resamples, alpha, power, mde=True):
    """Power per effect (their ``ts``) and the MDE at one sample size by the PERM-BOTH
    engine, data set by data set (each a whole PERM-BOTH over its resamples and effects at
    once). The MDE: power on a grid of :data:`_MDE_GRID` effects up to the largest reachable,
    then on a finer grid between the two that bracket ``power`` (the same swaps: each data
    set keeps its seed), interpolated linearly between the two fine effects that bracket it."""
    f_keep, grid_keep, top = curve

    def t_of(effects):
        return np.interp(effects, f_keep, grid_keep)

    def rejects(tv):  # (data sets, effects)
        out = np.empty((len(seeds), len(tv)), dtype=bool)
        for s in range(len(seeds)):  # one PERM-BOTH per data set; resamples are array work
            cols = idx[s]
            out[s] = _engine_rejects(a[:, cols], fam.metric(tv, cols), g[:, cols], spec,
                                     seeds[s], n_resamples, alpha)
        return out

    if not mde:
        return rejects(ts).mean(axis=0), float("nan")
    coarse = top * np.arange(1, _MDE_GRID + 1) / _MDE_GRID
    hits = rejects(np.r_[ts, t_of(coarse)])
    pw = hits[:, : len(ts)].mean(axis=0)
    p_coarse = hits[:, len(ts) :].mean(axis=0)
    above = np.flatnonzero(p_coarse >= power)
    if not above.size:
        return pw, float("nan")
    k = above[0]
    lo, p_lo = (coarse[k - 1], p_coarse[k - 1]) if k > 0 else (0.0, pw[-1])  # pw[-1]: effect 0
    inner = lo + (coarse[k] - lo) * np.arange(1, _MDE_REFINE) / _MDE_REFINE
    fine = np.r_[lo, inner, coarse[k]]
    p_fine = np.r_[p_lo, rejects(t_of(inner)).mean(axis=0), p_coarse[k]]
    hit = np.flatnonzero(p_fine >= power)
    j = int(hit[0])
    if j == 0:
        return pw, float(fine[0])
    frac = (power - p_fine[j - 1]) / (p_fine[j] - p_fine[j - 1])
    return pw, float(fine[j - 1] + frac * (fine[j] - fine[j - 1]))


def _z(x, valid):
    v = x[valid]
    sd = v.std()
    return (x - v.mean()) / (sd if sd > 0 else 1.0)


#: the pairs (j, l) of basis vectors whose cell products the swaps are multiplied with
_PAIRS = ((0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2))


class _Simulated:
    """The simulated data sets of one sample size: the swap products with the per-cell terms
    of the basis (a, u, w) of :class:`_Family` (computed once), from which PERM-BOTH's p-value
    follows for any metric B = c . (a, u, w): each data set's cells centred, B standardised
    within the data set as :func:`stats.perm_both` standardises it."""

    def __init__(self, basis, g, valid, idx, seeds, n_resamples):
        s, size = idx.shape
        k = g.shape[0]
        m = k * size
        self.N = np.empty(s)
        self.sg, self.sgg = np.empty(s), np.empty(s)
        self.V = np.empty((s, 3, 3))
        self.XG = np.empty((s, 3))
        products = np.empty((s, n_resamples, 12))
        step = max(1, _CHUNK // max(1, n_resamples * m, 12 * m))
        for c0 in range(0, s, step):  # chunks of data sets (memory bound), no per-swap loop
            c1 = min(s, c0 + step)
            ix = idx[c0:c1]
            v = valid[:, ix].transpose(1, 0, 2).reshape(c1 - c0, m)  # (S, cells), system-major
            gg = np.where(v, g[:, ix].transpose(1, 0, 2).reshape(c1 - c0, m), 0.0)
            X = basis[:, :, ix].transpose(2, 1, 3, 0).reshape(c1 - c0, m, 3)
            n = v.sum(axis=1).astype(float)
            with np.errstate(invalid="ignore", divide="ignore"):
                mean = np.where(v[..., None], X, 0).sum(axis=1) / n[:, None]
            X = np.where(v[..., None], X - mean[:, None, :], 0.0)
            self.N[c0:c1] = n
            self.sg[c0:c1], self.sgg[c0:c1] = gg.sum(axis=1), (gg**2).sum(axis=1)
            self.V[c0:c1] = np.einsum("smj,sml->sjl", X, X)
            self.XG[c0:c1] = np.einsum("smj,sm->sj", X, gg)
            terms = np.concatenate(
                [X * gg[..., None], X, np.stack([X[..., j] * X[..., q] for j, q in _PAIRS], 2)],
                axis=2,
            )
            # the swaps of each data set, as stats.perm_both draws them with that seed
            swaps = np.stack([
                check_rng(int(seeds[q])).random((n_resamples, k, size)) < 0.5
                for q in range(c0, c1)
            ]).reshape(c1 - c0, n_resamples, m)
            products[c0:c1] = np.matmul(swaps.astype(np.float64), terms)
        self.P = products

    def _quad(self, x, y):
        """sum over swapped cells of (x . X)(y . X), per data set and swap."""
        P = self.P
        out = 0.0
        for q, (j, m) in enumerate(_PAIRS):
            c = x[:, j] * y[:, m] + (x[:, m] * y[:, j] if j != m else 0.0)
            out = out + c[:, None] * P[..., 6 + q]
        return out

    def rejects(self, cb, alpha):
        """Boolean per data set: PERM-BOTH finds A better at ``alpha`` with metric B the
        basis combination ``cb`` (shape (3,) or one row per data set)."""
        s = self.N.shape[0]
        cb = np.broadcast_to(np.asarray(cb, dtype=float), (s, 3))
        n = self.N
        va = self.V[:, 0, 0]
        vb = np.einsum("sj,sjl,sl->s", cb, self.V, cb)
        sa = np.sqrt(va / n)
        sa = np.where(sa > 0, sa, 1.0)
        sb = np.sqrt(vb / n)
        sb = np.where(sb > 0, sb, 1.0)
        ka = np.zeros((s, 3))
        ka[:, 0] = 1.0 / sa
        kb = cb / sb[:, None]
        k = kb - ka  # z_b - z_a = k . X
        zag, zbg = (ka * self.XG).sum(1), (kb * self.XG).sum(1)
        saa, sbb = va / sa**2, vb / sb**2
        r_a = _pearson(zag, 0.0, saa, n, self.sg, self.sgg)
        r_b = _pearson(zbg, 0.0, sbb, n, self.sg, self.sgg)
        delta = r_a - r_b  # (S,)
        P = self.P
        wdg = np.einsum("sj,srj->sr", k, P[..., 0:3])
        wd = np.einsum("sj,srj->sr", k, P[..., 3:6])
        wsq = self._quad(kb, kb) - self._quad(ka, ka)  # swapped cells: z_b^2 - z_a^2
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
