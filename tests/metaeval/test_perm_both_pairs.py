"""MTME's item-pair permutation (perm_test='pairs') against a plain re-formulation of
mt_metrics_eval.stats.PairwisePermutationSigDiff: each metric's pairwise-difference matrix per
group (ties where |difference| <= its epsilon), a symmetric swap matrix per group and resample,
the hybrids' acc23 per group averaged over groups."""

from __future__ import annotations

import numpy as np
import pytest

from stats import StatsInputError
from stats.metaeval.meta_eval import meta_correlation
from stats.metaeval.perm_both.pairs import perm_both_pairs


def _data():
    rng = np.random.default_rng(31)
    G = np.round(rng.normal(size=(5, 8)))
    G[1, 2] = G[3, 6] = np.nan
    metrics = {
        "a": np.round(G + rng.normal(scale=0.6, size=G.shape), 1),
        "b": np.round(G + rng.normal(scale=1.2, size=G.shape), 1),
        "c": np.round(rng.normal(size=G.shape), 1),
    }
    for v in metrics.values():
        v[np.isnan(v)] = 0.0
    return G, metrics


def _acc23_groups(gold_cols, diffs, ties):
    vals = []
    for g, d, t in zip(gold_cols, diffs, ties, strict=True):
        n = len(g)
        if n < 2:
            continue
        dg = g[:, None] - g[None, :]
        iu = np.triu_indices(n, 1)
        gt, dgu, du, tu = dg[iu] == 0, dg[iu], d[iu], t[iu]
        ok = (gt & tu) | (~gt & ~tu & (np.sign(dgu) == np.sign(du)))
        vals.append(ok.mean())
    return np.mean(vals)


def _plain_draws(G, x1, x2, eps1, eps2, W):
    """MTME's loop with the swaps W (resamples x pairs, in item-by-item upper-triangle order)."""
    cols = [(~np.isnan(G[:, i])) for i in range(G.shape[1])]
    gold = [G[ok, i] for i, ok in enumerate(cols)]

    def pd_(x, eps):
        out = []
        for i, ok in enumerate(cols):
            v = x[ok, i]
            d = v[:, None] - v[None, :]
            t = np.abs(d) <= eps
            out.append((np.where(t, 0.0, d), t))
        return out

    p1, p2 = pd_(x1, eps1), pd_(x2, eps2)
    draws = []
    for w in W:
        h1d, h1t, h2d, h2t, k = [], [], [], [], 0
        for (d1, t1), (d2, t2) in zip(p1, p2, strict=True):
            n = len(d1)
            m = np.zeros((n, n), bool)
            iu = np.triu_indices(n, 1)
            m[iu] = w[k : k + len(iu[0])]
            k += len(iu[0])
            m = ~(m | m.T)  # a pair not swapped: hybrid 1 takes metric 1's comparison
            h1d.append(np.where(m, d1, d2))
            h1t.append(np.where(m, t1, t2))
            h2d.append(np.where(m, d2, d1))
            h2t.append(np.where(m, t2, t1))
        draws.append(_acc23_groups(gold, h1d, h1t) - _acc23_groups(gold, h2d, h2t))
    return np.array(draws)


@pytest.mark.parametrize("epsilon", [None, 0.25])
def test_draws_equal_mtme_loop_with_the_same_swaps(epsilon):
    G, metrics = _data()
    res = perm_both_pairs(metrics, G, epsilon=epsilon, n_resamples=30, return_draws=True, rng=6)
    n_pairs = sum(int(k * (k - 1) // 2) for k in (~np.isnan(G)).sum(axis=0))
    W = np.random.default_rng(6).random((30, n_pairs)) < 0.5
    for hi, lo in res.pairs:
        eps = {
            m: epsilon
            if epsilon is not None
            else meta_correlation(
                metrics[m], G, correlation="acc23", grouping="item", tie_calibration=True
            ).epsilon
            for m in (hi, lo)
        }
        want = _plain_draws(G, metrics[hi], metrics[lo], eps[hi], eps[lo], W)
        np.testing.assert_allclose(res.pair_draws(hi, lo), want, rtol=0, atol=1e-12)
        assert res.statistic.at[hi, lo] == pytest.approx(
            res.correlations[hi] - res.correlations[lo], abs=1e-12
        )
        p = np.mean(want >= res.statistic.at[hi, lo] - 1e-12)
        assert res.pvalue.at[hi, lo] == pytest.approx(p, abs=1e-12)


def test_too_many_pairs_is_refused():
    G = np.zeros((40, 80))
    with pytest.raises(StatsInputError, match="grouping 'item'"):
        perm_both_pairs({"a": G, "b": G}, G, grouping="none")


class _Started(Exception):
    pass


def test_wmt24_size_runs_within_the_default_budget():
    """The WMT24 task's piece (15 systems x 1,500 items, 20 metrics: 190 pairs, 500 resamples)
    is one matrix product per chunk: within the default work budget (it was refused as
    element-wise work), while ten times that work in one call still is not. Four metrics (6
    pairs) at 500 x 190 / 6 resamples do the same work, faster to set up."""
    rng = np.random.default_rng(0)
    G = np.round(rng.normal(size=(15, 1500)) * 4) / 4
    metrics = {f"m{k}": G + rng.normal(scale=1 + k, size=G.shape) for k in range(4)}
    same_work = 500 * 190 // 6

    def stop(fraction):
        raise _Started  # the first chunk ran: not refused

    with pytest.raises(_Started):
        perm_both_pairs(metrics, G, n_resamples=same_work, epsilon=0.0, progress=stop, rng=1)
    with pytest.raises(StatsInputError, match="PERM-BOTH \\(item pairs\\)"):
        perm_both_pairs(metrics, G, n_resamples=10 * same_work, epsilon=0.0)
