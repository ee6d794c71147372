"""PERM-BOTH of pairwise accuracy pooled over language pairs, against a plain re-formulation
of MTME's definition (data.CompareMetricsWithGlobalAccuracy: system scores concatenated over
language pairs, scipy z-scores over the concatenation, one Bernoulli swap per system, pooled
stats.Agreement counts)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.stats

from stats import StatsInputError
from stats.metaeval.perm_both.pooled import perm_both_pooled_accuracy

SIZES = {"aa-bb": 7, "cc-dd": 5, "ee-ff": 9}


def _data():
    rng = np.random.default_rng(12)
    gold, metrics = {}, {}
    for lp, n in SIZES.items():
        g = np.round(rng.normal(size=n), 1)
        gold[lp] = g
        metrics[lp] = {
            "good": g + rng.normal(scale=0.4, size=n),
            "mid": g + rng.normal(scale=1.0, size=n),
            "bad": rng.normal(size=n),
            "tied": np.round(g),
        }
    gold["cc-dd"][2] = np.nan  # a system without a human score
    return gold, metrics


def _accuracy(golds, vec):
    agree = pairs = b = 0
    for g in golds:
        x = vec[b : b + len(g)]
        for i, j in itertools.combinations(range(len(g)), 2):
            agree += np.sign(g[i] - g[j]) == np.sign(x[i] - x[j])
            pairs += 1
        b += len(g)
    return agree / pairs


def _plain(gold, metrics, hi, lo, swaps):
    """MTME's loop: swaps is one boolean vector per resample over the concatenated systems."""
    keep = {lp: ~np.isnan(g) for lp, g in gold.items()}
    golds = [gold[lp][keep[lp]] for lp in gold]
    z_hi = scipy.stats.zscore(np.concatenate([metrics[lp][hi][keep[lp]] for lp in gold]))
    z_lo = scipy.stats.zscore(np.concatenate([metrics[lp][lo][keep[lp]] for lp in gold]))
    delta = _accuracy(golds, z_hi) - _accuracy(golds, z_lo)
    draws = np.array(
        [
            _accuracy(golds, np.where(w, z_lo, z_hi)) - _accuracy(golds, np.where(w, z_hi, z_lo))
            for w in swaps
        ]
    )
    return delta, draws


def test_draws_equal_a_plain_loop_with_the_same_swaps():
    gold, metrics = _data()
    res = perm_both_pooled_accuracy(metrics, gold, n_resamples=25, return_draws=True, rng=4)
    # the swaps perm_both_pooled_accuracy drew: systems x language pairs, NaN-padded
    W = np.random.default_rng(4).random((25, max(SIZES.values()), len(SIZES))) < 0.5
    swaps = [
        np.concatenate([w[:n, j][~np.isnan(gold[lp])] for j, (lp, n) in enumerate(SIZES.items())])
        for w in W
    ]
    for hi, lo in res.pairs:
        delta, draws = _plain(gold, metrics, hi, lo, swaps)
        assert res.statistic.at[hi, lo] == pytest.approx(delta, abs=1e-12)
        np.testing.assert_allclose(res.pair_draws(hi, lo), draws, rtol=0, atol=1e-12)
    assert res.level == "sys" and res.correlation == "pairwise-accuracy"


def test_pvalues_within_monte_carlo_error_of_mtme_definition():
    gold, metrics = _data()
    res = perm_both_pooled_accuracy(metrics, gold, n_resamples=4000, rng=1)
    rng = np.random.default_rng(99)
    n = sum(int((~np.isnan(g)).sum()) for g in gold.values())
    swaps = rng.random((1000, n)) < 0.5
    for hi, lo in [("good", "bad"), ("good", "mid")]:
        delta, draws = _plain(gold, metrics, hi, lo, swaps)
        p = np.mean(draws >= delta - 1e-12)
        se = np.sqrt(max(p * (1 - p), 0.01) * (1 / 1000 + 1 / 4000))
        assert abs(res.pvalue.at[hi, lo] - p) <= 4 * se


def test_bad_input():
    gold, metrics = _data()
    with pytest.raises(StatsInputError, match="same metrics"):
        perm_both_pooled_accuracy({**metrics, "aa-bb": {"good": gold["aa-bb"]}}, gold)
    with pytest.raises(StatsInputError, match="scores but gold has"):
        bad = {lp: dict(v) for lp, v in metrics.items()}
        bad["aa-bb"]["good"] = np.zeros(3)
        perm_both_pooled_accuracy(bad, gold)
