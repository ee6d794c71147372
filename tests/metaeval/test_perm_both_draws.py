"""PERM-BOTH draws: the layout a task set combines (MTME's TaskResults.Draws convention)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from stats import StatsInputError

pb = importlib.import_module("stats.metaeval.perm_both.core")


def _data():
    rng = np.random.default_rng(5)
    G = rng.normal(size=(5, 30))
    metrics = {
        "good": G + 0.3 * rng.normal(size=G.shape),
        "mid": G + rng.normal(size=G.shape),
        "bad": rng.normal(size=G.shape),
        "meh": G + 2 * rng.normal(size=G.shape),
    }
    G[0, 3] = np.nan  # a missing gold score
    return metrics, G


@pytest.mark.parametrize("correlation, grouping", [("pearson", "none"), ("kendall", "item")])
def test_draws_give_the_pvalues(correlation, grouping):
    metrics, G = _data()
    res = pb.perm_both(
        metrics,
        G,
        correlation=correlation,
        grouping=grouping,
        n_resamples=300,
        block_size=100,
        early_stopping=True,
        return_draws=True,
        rng=4,
    )
    n = len(res.metrics)
    assert res.draws.shape == (n * (n - 1) // 2, 300)
    assert res.pairs[0] == res.metrics[:2]
    for k, (a, b) in enumerate(res.pairs):
        d = res.pair_draws(a, b)
        used = int(res.n_resamples_used.at[a, b])
        assert len(d) == used
        assert np.isnan(res.draws[k, used:]).all() and not np.isnan(d).any()
        delta = res.statistic.at[a, b]
        p = np.mean(d >= delta - 1e-12 * max(1.0, abs(delta)))
        assert res.pvalue.at[a, b] == p
        np.testing.assert_array_equal(res.pair_draws(b, a), -d)
    # early stopping happened for the clear pairs, so the NaN tail is exercised
    assert res.n_resamples_used.stack().min() < 300


def test_same_seed_same_draws_and_no_draws_by_default():
    metrics, G = _data()
    a = pb.perm_both(metrics, G, n_resamples=50, return_draws=True, rng=1)
    b = pb.perm_both(metrics, G, n_resamples=50, rng=1)
    assert b.draws is None
    np.testing.assert_array_equal(a.pvalue.to_numpy(), b.pvalue.to_numpy())
    with pytest.raises(StatsInputError, match="return_draws"):
        b.pair_draws("good", "bad")
    with pytest.raises(StatsInputError, match="nope"):
        a.pair_draws("good", "nope")
    stat, pval = a
    assert stat is a.statistic and pval is a.pvalue
