"""PERM-BOTH power (stats.power.perm_both): golden against a plain loop of stats.perm_both on
the same simulated data sets with the same swap seeds (the second formulation: the package's
own PERM-BOTH, run data set by data set), and the shape of power and MDE."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from stats import perm_both
from stats._core.errors import StatsInputError
from stats.metaeval.meta_eval import meta_correlation
from stats.power.perm_both import _PEARSON, _Family, _t_of, _z, perm_both_power


def _data(k=3, n=40, seed=0, missing=False):
    gen = np.random.default_rng(seed)
    gold = gen.normal(size=(k, n))
    a = gold + gen.normal(0, 1.0, gold.shape)
    b = gold + gen.normal(0, 1.6, gold.shape)
    if missing:
        gold[gen.random(gold.shape) < 0.1] = np.nan
    return a, b, gold


@pytest.mark.parametrize("missing", [False, True])
def test_same_rejections_as_a_loop_of_perm_both(missing):
    a, b, gold = _data(missing=missing)
    effects, size, sims, reps, alpha = (0.05, 0.15), 25, 30, 60, 0.1
    res = perm_both_power(a, b, gold, effect=effects, n=size, alpha=alpha,
                          n_simulations=sims, n_resamples=reps, rng=5)
    # the draws of perm_both_power (module notes): items, then one swap seed per data set
    gen = np.random.default_rng(5)
    idx = gen.integers(0, gold.shape[1], size=(sims, size))
    seeds = gen.integers(0, 2**63, size=sims)
    valid = np.isfinite(gold)
    fam = _Family(_z(a, valid), _z(b, valid), gold, valid)
    ts = _t_of(fam, effects, _PEARSON)[0]
    for i, tv in enumerate(ts):
        mixed = fam.metric(tv)[0]
        hits = 0
        for s in range(sims):  # the plain loop: stats.perm_both on each data set
            r = perm_both({"A": a[:, idx[s]], "B": mixed[:, idx[s]]}, gold[:, idx[s]],
                          n_resamples=reps, rng=int(seeds[s]))
            hits += r.metrics[0] == "A" and r.pvalue.at["A", "B"] < alpha
        assert res.power[i, 0] == pytest.approx(hits / sims, abs=1e-12)  # same draws
    # the design holds the effect: r(A) - r(B_t) on the observed cells, with r(A, B_t) the
    # observed r(A, B)
    za = _z(a, valid)
    r_ab = np.corrcoef(a[valid], b[valid])[0, 1]
    for e, tv in zip(effects, ts, strict=True):
        bt = fam.metric(tv)[0]
        rb = np.corrcoef(bt[valid], gold[valid])[0, 1]
        assert np.corrcoef(za[valid], gold[valid])[0, 1] - rb == pytest.approx(e, abs=1e-9)
        assert np.corrcoef(za[valid], bt[valid])[0, 1] == pytest.approx(r_ab, abs=1e-9)
    # at the observed difference B_t is the observed B (standardised)
    assert fam.metric(fam.observed)[0] == pytest.approx(_z(b, valid), abs=1e-9)


def test_power_rises_with_n_and_effect_and_mde_falls():
    a, b, gold = _data(k=4, n=80, seed=2)
    res = perm_both_power(a, b, gold, effect=[0.0, 0.05, 0.15, 0.3], n=[20, 80],
                          n_simulations=150, n_resamples=100, rng=3)
    # effect 0: the metrics correlate equally with the humans (the test's null), so PERM-BOTH
    # rejects at about alpha, never more than alpha + 3 Monte Carlo SE
    assert (res.power[0] == res.size).all()
    assert (res.size <= 0.05 + 3 * np.sqrt(0.05 * 0.95 / 150)).all()
    assert (np.diff(res.power, axis=0) >= -2 * res.mc_error.max()).all()
    assert (res.power[1:, 1] >= res.power[1:, 0] - 0.05).all()
    assert res.mde[1] < res.mde[0]
    assert res.test == "perm-both" and res.unit == "items" and res.metric == "pearson"


def test_bad_input_names_the_argument():
    a, b, gold = _data()
    with pytest.raises(StatsInputError, match="effect"):
        perm_both_power(a, b, gold, effect=-0.1, n=10)
    with pytest.raises(StatsInputError, match="effect: with B.s observed correlation with A held"):
        perm_both_power(a, b, gold, effect=5.0, n=10)
    with pytest.raises(StatsInputError, match="one shape"):
        perm_both_power(a, b[:, :5], gold, effect=0.1, n=10)


def test_work_and_memory_refused_before_allocation():
    a, b, gold = _data()
    with pytest.raises(StatsInputError, match="PERM-BOTH power"):
        perm_both_power(a, b, gold, effect=0.1, n=[10_000], n_simulations=100_000,
                        n_resamples=100_000)


# ---- the other correlations: the PERM-BOTH engine, data set by data set ----------------------

def _discrete(k=4, n=30, seed=0):
    """Metric scores with ties (rounded) and integer gold (ESA-like): the tie paths of the
    engine and, for acc23, a calibration that matters."""
    gen = np.random.default_rng(seed)
    latent = gen.normal(size=(k, n))
    gold = np.clip(np.rint(2 * latent + 3), 0, 6)
    a = np.round(latent + gen.normal(0, 0.7, latent.shape), 1)
    b = np.round(latent + gen.normal(0, 1.3, latent.shape), 1)
    return a, b, gold


@pytest.mark.parametrize("options", [
    {"correlation": "spearman"},
    {"correlation": "kendall", "grouping": "item"},
    {"correlation": "kendall-c", "grouping": "system"},
    {"correlation": "acc23", "grouping": "item", "tie_calibration": True},
    {"correlation": "acc23", "tie_calibration": True},
    {"correlation": "kendall-like", "threshold": 1.0},
    {"correlation": "pearson", "grouping": "item"},
])
def test_engine_path_same_rejections_as_a_loop_of_perm_both(options):
    a, b, gold = _discrete(k=3, n=24)
    gold[0, 3] = np.nan  # a missing human score
    size, sims, reps, alpha = 10, 12, 40, 0.2
    res = perm_both_power(a, b, gold, effect=0.1, n=size, alpha=alpha, n_simulations=sims,
                          n_resamples=reps, rng=7, **options)
    gen = np.random.default_rng(7)  # the draws of perm_both_power (module notes)
    idx = gen.integers(0, gold.shape[1], size=(sims, size))
    seeds = gen.integers(0, 2**63, size=sims)
    valid = np.isfinite(gold)
    fam = _Family(_z(a, valid), _z(b, valid), gold, valid, options.get("grouping", "none"))
    fam.keep_values(_z(b, valid))  # the engine path: B keeps its own values and ties
    t = _t_of(fam, (0.1,), _spec(a=a, g=gold, **options))[0][0]
    mixed = fam.metric(t)[0]
    hits = 0
    for s in range(sims):  # the plain loop: stats.perm_both on each data set, its seed
        r = perm_both({"A": a[:, idx[s]], "B": mixed[:, idx[s]]}, gold[:, idx[s]],
                      n_resamples=reps, rng=int(seeds[s]), **options)
        hits += r.metrics[0] == "A" and r.pvalue.at["A", "B"] < alpha
    assert res.power[0, 0] == pytest.approx(hits / sims, abs=1e-12)
    assert res.metric.startswith(options["correlation"])
    # the mixing reaches the effect in the chosen correlation (meta_correlation, whole data):
    # rank correlations move in steps, so the smallest mixing at or above it
    za = _z(a, valid)
    c = [meta_correlation(x, gold, **_spec(a=a, g=gold, **options).options()).statistic
         for x in (za, mixed)]
    below = fam.metric(t - 1e-6 * max(abs(t), 1e-3))[0]
    c_below = meta_correlation(below, gold, **_spec(a=a, g=gold, **options).options()).statistic
    assert c[0] - c[1] >= 0.1 - 1e-9
    if t > max(fam.bottom, -0.25 * fam.top) + 1e-9:  # not the grid's first point: the least
        assert c[0] - c_below < 0.1


def _spec(a, g, correlation="pearson", grouping="none", tie_calibration=False,
          threshold=25.0, epsilon=None):
    from stats.power.perm_both import _spec as spec

    return spec(correlation, grouping, epsilon, tie_calibration, threshold, a, g)


def _rank_corr(x, g, correlation):
    """Spearman (Pearson of the average ranks: cells below plus half the cells tied, itself
    included) or Kendall's tau-b (sums of sign products over the pairs of cells) of the last
    axis of ``x`` (..., groups, m) with ``g`` (groups, m): the plain formulas, checked against
    scipy.stats.spearmanr / kendalltau below."""

    def rankdata(v, axis=-1):
        below = (v[..., None, :] < v[..., :, None]).sum(-1)
        return below + ((v[..., None, :] == v[..., :, None]).sum(-1) + 1) / 2

    if correlation == "spearman":
        rx, rg = rankdata(x, axis=-1), rankdata(g, axis=-1)
        rx = rx - rx.mean(axis=-1, keepdims=True)
        rg = rg - rg.mean(axis=-1, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (rx * rg).sum(-1) / np.sqrt((rx**2).sum(-1) * (rg**2).sum(-1))
    sx = np.sign(x[..., :, None] - x[..., None, :])
    sg = np.sign(g[..., :, None] - g[..., None, :])
    m = g.shape[-1]
    n0 = m * (m - 1) / 2
    n1 = ((sx == 0).sum(axis=(-1, -2)) - m) / 2
    n2 = ((sg == 0).sum(axis=(-1, -2)) - m) / 2
    with np.errstate(invalid="ignore", divide="ignore"):
        return (sx * sg).sum(axis=(-1, -2)) / 2 / np.sqrt((n0 - n1) * (n0 - n2))


def _grouped(x, g, correlation, grouping):
    """The correlation of ``x`` (..., systems, items) with ``g`` under ``grouping``: the mean
    over the groups where it is defined (MTME's averaging)."""
    if grouping == "none":
        x, g = x.reshape(*x.shape[:-2], 1, -1), g.reshape(1, -1)
    elif grouping == "item":
        x, g = np.swapaxes(x, -1, -2), g.T
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a group without any defined value
        return np.nanmean(_rank_corr(x, g, correlation), axis=-1)


@pytest.mark.parametrize("correlation,grouping", [("spearman", "none"), ("kendall", "item")])
def test_power_matches_an_independent_scipy_monte_carlo(correlation, grouping):
    """Golden: the engine's power against a plain Monte Carlo loop with its own
    permutation test (own swaps; correlations by the plain formulas, anchored on
    scipy.stats.spearmanr / kendalltau), same item draws, 2,000 simulations: within 3
    points."""
    from scipy.stats import kendalltau, spearmanr

    from stats.power.perm_both import _engine_rejects

    gen = np.random.default_rng(11)
    k, n_items, size, sims, reps, alpha = 3, 40, 12, 2000, 40, 0.1
    if grouping == "none":  # ties from the draws with replacement: the engine's tie path
        k, size = 2, 10
    gold = gen.normal(size=(k, n_items))
    a = gold + gen.normal(0, 0.8, gold.shape)
    b = gold + gen.normal(0, 1.4, gold.shape)
    spec = _spec(a=a, g=gold, correlation=correlation, grouping=grouping)
    valid = np.isfinite(gold)
    fam = _Family(_z(a, valid), _z(b, valid), gold, valid, grouping)
    fam.keep_values(_z(b, valid))
    mixed = fam.metric(_t_of(fam, (0.15,), spec)[0][0])[0]
    draws = np.random.default_rng(3)
    idx = draws.integers(0, n_items, size=(sims, size))
    seeds = draws.integers(0, 2**63, size=sims)
    ours = np.mean([_engine_rejects(a[:, i], mixed[None, :, i], gold[:, i], spec, s, reps,
                                    alpha)[0] for i, s in zip(idx, seeds, strict=True)])
    own = np.random.default_rng(99)  # the reference's own swaps
    hits = 0
    scipy_corr = {"spearman": spearmanr, "kendall": kendalltau}[correlation]
    for q, i in enumerate(idx):  # the plain loop: one data set, one permutation test
        A, B, G = a[:, i], mixed[:, i], gold[:, i]
        A, B = (A - A.mean()) / A.std(), (B - B.mean()) / B.std()
        W = own.random((reps, *G.shape)) < 0.5
        # one evaluation: A, B, then each resample's swapped A and swapped B
        c = _grouped(np.concatenate([A[None], B[None], np.where(W, B, A), np.where(W, A, B)]),
                     G, correlation, grouping)
        obs, null = c[0] - c[1], c[2 : 2 + reps] - c[2 + reps :]
        if q < 3 and grouping == "none":  # the plain formula is scipy's
            assert c[0] == pytest.approx(scipy_corr(A.ravel(), G.ravel()).statistic, abs=1e-12)
        if q < 3 and grouping == "item":
            assert c[0] == pytest.approx(np.nanmean(
                [scipy_corr(A[:, j], G[:, j]).statistic for j in range(size)]), abs=1e-12)
        p = np.mean(null >= obs - 1e-12 * max(1.0, abs(obs)))
        hits += obs > 0 and p < alpha
    assert abs(ours - hits / sims) < 0.03, (ours, hits / sims)


def test_other_correlations_rise_with_effect_and_refuse_what_perm_both_refuses():
    a, b, gold = _discrete(k=3, n=30, seed=4)
    res = perm_both_power(a, b, gold, effect=[0.0, 0.1, 0.3], n=[8, 30],
                          correlation="kendall", grouping="item", n_simulations=30,
                          n_resamples=40, rng=2)
    assert (res.power[0] == res.size).all()  # effect 0: the rejection rate is the size
    assert res.power[2, 1] >= res.power[1, 1] >= res.power[0, 1]
    assert res.power[2, 1] >= res.power[2, 0]
    assert np.isnan(res.mde[0]) or res.mde[1] <= res.mde[0]
    assert res.metric == "kendall by item"
    with pytest.raises(StatsInputError, match="correlation"):
        perm_both_power(a, b, gold, effect=0.1, n=10, correlation="pairwise-accuracy")
    with pytest.raises(StatsInputError, match="grouping"):
        perm_both_power(a, b, gold, effect=0.1, n=10, correlation="kendall", grouping="lp")


def test_grid_mde_is_the_one_sided_normal_mde_of_each_pairs_permuted_differences():
    from stats.power import normal_mde
    from stats.power.perm_both import perm_both_grid_mde

    a, b, gold = _data(k=1, n=80, seed=6)
    metrics = {"a": a, "b": b, "c": (a + b) / 2}
    res = perm_both(metrics, gold, correlation="kendall", n_resamples=200, rng=2,
                    return_draws=True)
    mde = perm_both_grid_mde(res, alpha=0.1, power=0.9)
    for x, y in res.pairs:
        se = np.std(res.pair_draws(x, y))
        assert mde.at[x, y] == pytest.approx(normal_mde(se=se, alpha=0.1, power=0.9,
                                                        alternative="greater"))
        assert np.isnan(mde.at[y, x])
    with pytest.raises(StatsInputError, match="return_draws"):
        perm_both_grid_mde(perm_both(metrics, gold, n_resamples=20, rng=1))
