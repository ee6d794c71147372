"""PERM-BOTH of soft pairwise accuracy: draws equal a plain loop (each permuted metric's SPA by
soft_pairwise_accuracy with the same inner signs and swaps), p-values within Monte Carlo error of
a plain re-formulation of MTME's definition (PermutationSigDiff with the PCE correlation, no
grouping: scipy z-scores, a Bernoulli swap per cell, fixed inner sign flips as
pce.compute_pairwise_p_values's fixed seed)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from stats import StatsInputError
from stats.metaeval.perm_both.spa import perm_both_soft_pairwise
from stats.metaeval.soft_pairwise import soft_pairwise_accuracy


def _data():
    rng = np.random.default_rng(21)
    S, n_items = 5, 30
    G = rng.normal(size=(S, 1)) * 0.4 + rng.normal(size=(S, n_items))
    metrics = {
        "good": G + rng.normal(scale=0.5, size=G.shape),
        "mid": G + rng.normal(scale=1.5, size=G.shape),
        "bad": rng.normal(size=G.shape),
    }
    G[2, 4] = np.nan  # an item left out (not scored for every system)
    return G, metrics


def _spa_difference(G, za, zb, w, seed, k):
    ta, tb = np.where(w, zb, za), np.where(w, za, zb)
    res = soft_pairwise_accuracy({"a": ta, "b": tb}, G, n_resamples=k, rng=seed)
    return res.statistic["a"] - res.statistic["b"]


def test_draws_equal_a_plain_loop():
    G, metrics = _data()
    res = perm_both_soft_pairwise(
        metrics, G, n_resamples=12, n_permutations=200, return_draws=True, rng=3
    )
    keep = ~np.isnan(G).any(axis=0)
    gen = np.random.default_rng(3)
    gen.random((200, keep.sum()))  # the inner signs come first
    W = gen.random((12, G.shape[0], keep.sum())) < 0.5
    Z = {m: scipy.stats.zscore(v[:, keep], axis=None) for m, v in metrics.items()}
    Gk = G[:, keep]
    for hi, lo in res.pairs:
        want = [_spa_difference(Gk, Z[hi], Z[lo], w, 3, 200) for w in W]
        np.testing.assert_allclose(res.pair_draws(hi, lo), want, rtol=0, atol=1e-12)
        assert res.statistic.at[hi, lo] == pytest.approx(
            res.correlations[hi] - res.correlations[lo], abs=1e-12
        )
    assert list(res.correlations.index) == list(
        soft_pairwise_accuracy(metrics, G, n_resamples=200, rng=3).statistic.index
    )


def test_pvalues_within_monte_carlo_error_of_mtme_definition():
    G, metrics = _data()
    res = perm_both_soft_pairwise(metrics, G, n_resamples=1000, n_permutations=100, rng=5)
    keep = ~np.isnan(G).any(axis=0)
    Gk = G[:, keep]
    Z = {m: scipy.stats.zscore(v[:, keep], axis=None) for m, v in metrics.items()}
    rng = np.random.default_rng(77)  # independent swaps
    for hi, lo in [("good", "bad"), ("good", "mid")]:
        if res.metrics.index(hi) > res.metrics.index(lo):
            hi, lo = lo, hi
        delta = _spa_difference(Gk, Z[hi], Z[lo], np.zeros(Gk.shape, bool), 5, 100)
        draws = [
            _spa_difference(Gk, Z[hi], Z[lo], rng.random(Gk.shape) < 0.5, 5, 100)
            for _ in range(200)
        ]
        p = np.mean(np.array(draws) >= delta - 1e-12)
        se = np.sqrt(max(p * (1 - p), 0.01) * (1 / 200 + 1 / 1000))
        assert abs(res.pvalue.at[hi, lo] - p) <= 4 * se


def test_bad_input():
    G, metrics = _data()
    with pytest.raises(StatsInputError, match="at least two metrics"):
        perm_both_soft_pairwise({"good": metrics["good"]}, G)
    with pytest.raises(StatsInputError, match="n_permutations"):
        perm_both_soft_pairwise(metrics, G, n_permutations=0)
