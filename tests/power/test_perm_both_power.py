"""PERM-BOTH power (stats.power.perm_both): golden against a plain loop of stats.perm_both on
the same simulated data sets with the same swap seeds (the second formulation: the package's
own PERM-BOTH, run data set by data set), and the shape of power and MDE."""

from __future__ import annotations

import numpy as np
import pytest

from stats import perm_both
from stats._core.errors import StatsInputError
from stats.power.perm_both import _lambda_of, _z, perm_both_power


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
    za, zb = _z(a, valid), _z(b, valid)
    lam = _lambda_of(za[valid], zb[valid], gold[valid], effects)[0]
    for i, lv in enumerate(lam):
        mixed = za + lv * (zb - za)
        hits = 0
        for s in range(sims):  # the plain loop: stats.perm_both on each data set
            r = perm_both({"A": a[:, idx[s]], "B": mixed[:, idx[s]]}, gold[:, idx[s]],
                          n_resamples=reps, rng=int(seeds[s]))
            hits += r.metrics[0] == "A" and r.pvalue.at["A", "B"] < alpha
        assert res.power[i, 0] == pytest.approx(hits / sims, abs=1e-12)  # same draws
    # the mixing hits the effect: r(A) - r(B_lambda) on the observed cells
    for e, lv in zip(effects, lam, strict=True):
        rb = np.corrcoef((za + lv * (zb - za))[valid], gold[valid])[0, 1]
        assert np.corrcoef(za[valid], gold[valid])[0, 1] - rb == pytest.approx(e, abs=1e-9)


def test_power_rises_with_n_and_effect_and_mde_falls():
    a, b, gold = _data(k=4, n=80, seed=2)
    res = perm_both_power(a, b, gold, effect=[0.0, 0.05, 0.15, 0.3], n=[20, 80],
                          n_simulations=150, n_resamples=100, rng=3)
    assert (res.power[0] == 0).all()  # effect 0: B is a copy of A
    assert (np.diff(res.power, axis=0) >= -2 * res.mc_error.max()).all()
    assert (res.power[1:, 1] >= res.power[1:, 0] - 0.05).all()
    assert res.mde[1] < res.mde[0]
    assert res.test == "perm-both" and res.unit == "items" and res.metric == "pearson"


def test_bad_input_names_the_argument():
    a, b, gold = _data()
    with pytest.raises(StatsInputError, match="effect"):
        perm_both_power(a, b, gold, effect=-0.1, n=10)
    with pytest.raises(StatsInputError, match="effect: mixing"):
        perm_both_power(a, b, gold, effect=5.0, n=10)
    with pytest.raises(StatsInputError, match="one shape"):
        perm_both_power(a, b[:, :5], gold, effect=0.1, n=10)


def test_work_and_memory_refused_before_allocation():
    a, b, gold = _data()
    with pytest.raises(StatsInputError, match="PERM-BOTH power"):
        perm_both_power(a, b, gold, effect=0.1, n=[10_000], n_simulations=100_000,
                        n_resamples=100_000)
