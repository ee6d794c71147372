"""PERM-BOTH: the batched correlations against meta_correlation, the matrix-product Pearson
path against the batched one, and p-values against MTME's PermutationSigDiff."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest

from stats import StatsInputError
from stats.metaeval.meta_eval import meta_correlation
from stats.metaeval.perm_both.engine import CorrelationSpec

# the module (``stats.perm_both`` is the function)
pb = importlib.import_module("stats.metaeval.perm_both.core")


@pytest.fixture(scope="module")
def small():
    rng = np.random.default_rng(0)
    S, N_ITEMS = 5, 9
    G = np.round(rng.normal(size=(S, N_ITEMS)))
    G[1, 3] = np.nan
    G[:, 4] = np.nan
    return G, np.round(rng.normal(size=(30, S, N_ITEMS)), 1)


@pytest.mark.parametrize("grouping", ["none", "item", "system"])
@pytest.mark.parametrize(
    "correlation, kw",
    [("pearson", {}), ("spearman", {}), ("kendall", {}), ("kendall-c", {}),
     ("kendall-like", {"threshold": 0.5}), ("acc23", {"epsilon": 0.15}),
     ("acc23", {"tie_calibration": True})],
)
def test_batched_resamples_equal_meta_correlation(small, grouping, correlation, kw):
    G, M = small
    got = pb.resampled_correlations(G, M, CorrelationSpec(correlation, grouping, **kw))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ref = [meta_correlation(m, G, correlation=correlation, grouping=grouping, **kw).statistic
               for m in M]
    np.testing.assert_allclose(got, ref, rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "correlation, grouping, eps",
    [("pearson", "none", 0.0), ("pearson", "item", 0.0), ("pearson", "system", 0.0),
     ("acc23", "item", 0.0), ("acc23", "item", 0.25), ("acc23", "system", 0.25)],
)
def test_matrix_product_paths_equal_batched(correlation, grouping, eps):
    # Pearson by products of the swaps with per-cell terms, acc23 by quadratic forms: the
    # same differences as evaluating each permuted metric
    rng = np.random.default_rng(1)
    S, N_ITEMS = 5, 9
    G = np.round(rng.normal(size=(S, N_ITEMS)))
    G[1, 3] = G[2, 7] = np.nan
    G[:, 4] = np.nan
    Z = {m: np.round(rng.normal(size=(S, N_ITEMS)), 1) for m in "abcd"}
    pairs = [("a", "b"), ("c", "a"), ("b", "d"), ("d", "c")]
    W = rng.random((40, S, N_ITEMS)) < 0.5
    spec = CorrelationSpec(correlation, grouping, epsilon=eps)
    fast = pb._differences(G, Z, pairs, W, spec)
    slow = pb._differences(G, Z, pairs, W, spec, fast=False)
    np.testing.assert_allclose(fast, slow, rtol=0, atol=1e-12)


def test_exact_enumeration_tiny():
    # 2 systems x 3 items = 6 cells: all 2^6 swap patterns enumerate the permutation
    # distribution; with many resamples the p-value converges to the exact share
    G = np.array([[1.0, 2.0, 4.0], [3.0, 0.5, 2.5]])
    a = np.array([[1.2, 2.5, 3.9], [2.0, 0.1, 2.9]])
    b = np.array([[2.0, 1.0, 3.0], [2.5, 1.5, 1.0]])
    res = pb.perm_both({"a": a, "b": b}, G, n_resamples=20000, rng=3)
    hi, lo = res.metrics
    valid = ~np.isnan(G)
    Z = {m: pb._zscore(v, valid) for m, v in (("a", a), ("b", b))}
    patterns = (np.arange(64)[:, None] >> np.arange(6)) & 1
    W = patterns.astype(bool).reshape(64, 2, 3)
    d = pb._differences(G, Z, [(hi, lo)], W, CorrelationSpec(), fast=False)
    observed = d[0, 0]  # pattern 0: nothing swapped
    exact = np.mean(d[:, 0] >= observed - 1e-12)
    assert res.statistic.at[hi, lo] == pytest.approx(observed)
    assert res.pvalue.at[hi, lo] == pytest.approx(exact, abs=0.012)  # SE ~0.0035


def test_early_stopping_and_layout():
    rng = np.random.default_rng(2)
    G = rng.normal(size=(6, 40))
    metrics = {"good": G + 0.3 * rng.normal(size=G.shape), "bad": rng.normal(size=G.shape),
               "mid": G + 1.0 * rng.normal(size=G.shape)}
    res = pb.perm_both(metrics, G, n_resamples=3000, block_size=500, early_stopping=True, rng=0)
    assert res.metrics == ("good", "mid", "bad")
    assert res.pvalue.at["good", "bad"] == 0.0
    assert res.n_resamples_used.at["good", "bad"] == 500  # stopped after the first block
    assert np.isnan(res.pvalue.at["bad", "good"]) and np.isnan(res.pvalue.at["good", "good"])
    full = pb.perm_both(metrics, G, n_resamples=1000, rng=0)
    assert (full.n_resamples_used.stack().dropna() == 1000).all()


def test_bad_input():
    G = np.zeros((3, 4))
    with pytest.raises(StatsInputError, match="at least two metrics"):
        pb.perm_both({"a": G}, G)
    with pytest.raises(StatsInputError, match="shape"):
        pb.perm_both({"a": G, "b": np.zeros((3, 5))}, G)
    with pytest.raises(StatsInputError, match="n_resamples"):
        pb.perm_both({"a": G, "b": G}, G, n_resamples=0)


# Data and golden values for PERM-BOTH against MTME: mt_metrics_eval.stats.PermutationSigDiff
# (google-research/mt-metrics-eval, run outside the project with PYTHONPATH=/tmp/mtme, numpy
# seed 7, k=1000 resamples, early stopping off via block_size=k) on these 6 systems x 16 items
# (None = missing gold), corr1 = the lower metric, corr2 = the higher; MTME's corr_fcn and
# average_by: scipy.stats.pearsonr 'none' / 'sys', scipy.stats.spearmanr 'none',
# KendallVariants(variant='b') 'item', KendallVariants(variant='acc23', epsilon=0.3) 'none'
# (the epsilon applies to the standardised scores, in MTME as here),
# KendallWithTiesOpt(variant='acc23', sample_rate=1.0) 'item'. Values are (p, delta).
GOLD = [
    [2.0, 0.0, 1.0, 0.0, 3.0, None, 2.0, 1.0, 3.0, 1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
    [-1.0, 0.0, None, 0.0, 2.0, 0.0, 2.0, 1.0, 0.0, 1.0, 1.0, 0.0, 3.0, 1.0, 1.0, None],
    [1.0, 1.0, -2.0, 1.0, -1.0, 0.0, 1.0, 0.0, 3.0, 1.0, 1.0, -1.0, None, -1.0, 0.0, 2.0],
    [-1.0, 1.0, -1.0, 0.0, 1.0, -1.0, -1.0, 0.0, 0.0, None, 1.0, 0.0, -1.0, 0.0, 0.0, 0.0],
    [0.0, -1.0, 3.0, 0.0, 0.0, -2.0, None, -1.0, 0.0, 1.0, 1.0, 0.0, -2.0, -1.0, 0.0, 1.0],
    [-2.0, 1.0, -2.0, None, -2.0, -4.0, -3.0, -1.0, -1.0, -1.0, -1.0, -2.0, -2.0, 1.0, -1.0, -1.0],
]
M_A = [
    [2.2, 0.4, 2.0, -0.5, 3.9, -0.8, 1.3, 0.7, 5.2, 1.4, -0.5, 0.9, 0.4, -1.2, -1.0, 0.2],
    [-0.4, -0.7, 0.7, -0.5, 3.0, 1.2, 0.1, 1.1, 1.3, 2.1, 0.8, 0.0, 2.4, 2.3, 0.9, 1.2],
    [0.8, 1.9, -3.1, 1.6, -1.6, 0.2, 0.2, 0.2, 3.4, 1.0, 2.4, -1.9, 2.8, -0.1, 1.4, 1.0],
    [-0.5, 1.5, -0.5, -0.4, 0.4, -0.3, -0.1, -1.0, 0.0, -1.5, 0.2, -1.1, -0.7, 0.7, 0.3, -1.1],
    [-0.7, -0.8, 3.7, -0.2, 0.1, -1.9, -0.5, -1.4, -0.9, 3.0, -0.2, 0.2, -1.8, -2.0, 0.3, 0.9],
    [-2.7, 1.8, -1.2, -0.4, -2.1, -3.8, -2.3, -1.5, 0.7, -0.1, 0.8, -1.3, -2.1, 0.5, -1.1, -0.8],
]
M_B = [
    [3.0, -1.5, 0.0, 1.1, 3.7, 1.2, 2.3, 0.2, 3.0, 1.0, -0.9, 0.3, 0.5, 0.1, -0.3, 0.4],
    [0.4, 0.1, -1.4, -1.4, 2.4, 0.9, 0.6, 2.5, 0.8, 0.1, 1.4, 0.1, 2.8, 1.8, 0.9, 1.7],
    [3.0, 0.2, -1.8, 0.3, -0.6, 0.2, 0.0, -0.4, 4.1, 1.6, 3.9, -0.1, 2.9, -1.4, -1.1, 2.9],
    [0.4, 0.2, -1.6, -0.4, 1.0, -1.9, 0.1, 0.7, -0.3, -1.2, 1.1, -1.2, -1.1, 0.6, 1.1, -0.4],
    [0.8, -2.6, 2.7, 0.8, -1.5, -3.4, -0.2, 0.1, 0.9, 1.3, 0.4, 1.4, -1.8, -2.7, -0.7, 1.3],
    [-2.1, 0.5, -3.6, -1.4, -1.3, -3.5, -3.7, -0.7, 0.9, -0.3, -0.3, -2.9, -3.0, 0.7, 0.2, -0.9],
]
M_C = [
    [1.7, 0.3, -0.1, -0.3, 2.0, 0.2, 2.6, -0.2, 2.0, -0.6, 1.2, -0.2, 1.2, 0.8, 0.7, 0.6],
    [-1.5, -2.0, 1.1, -0.2, 0.5, 0.2, 1.8, -0.1, -0.7, 0.8, 1.5, -0.5, 4.1, 0.4, 0.8, 0.3],
    [1.2, -1.4, -2.7, 1.1, -0.2, 1.0, 0.2, 0.1, 2.8, -0.4, 2.4, -0.3, 3.2, -0.8, 0.8, 0.9],
    [-1.9, -0.3, -2.8, -0.3, -0.5, 0.7, -1.6, -1.1, 1.4, -0.9, 0.6, 1.2, 0.8, 0.5, -0.5, -0.3],
    [-1.1, 0.0, 1.5, 0.8, -1.8, -2.1, 0.4, 0.2, -0.6, -1.3, -1.1, 0.1, -1.7, 0.1, 1.2, -0.2],
    [-1.6, -0.9, -2.0, -1.1, -1.5, -4.2, -1.0, -2.2, -2.5, -2.1, 1.1, -2.2, -3.1, 1.0, -0.7, -1.1],
]

MTME_PERM_BOTH = {
    ("pearson", "none", ()): {
        ("A", "B"): (0.224, 0.01836584922998974),
        ("A", "C"): (0.001, 0.131513422888485),
        ("B", "C"): (0.003, 0.11314757365849526),
    },
    ("acc23", "item", (("tie_calibration", True),)): {
        ("A", "B"): (0.097, 0.04374999999999962),
        ("A", "C"): (0.016, 0.10833333333333317),
        ("B", "C"): (0.073, 0.06458333333333355),
    },
    ("pearson", "system", ()): {
        ("A", "B"): (0.374, 0.013864866042780144),
        ("A", "C"): (0.002, 0.1728017257511678),
        ("B", "C"): (0.013, 0.15893685970838767),
    },
    ("spearman", "none", ()): {
        ("A", "B"): (0.124, 0.04339595389007567),
        ("A", "C"): (0.002, 0.19205333850461104),
        ("B", "C"): (0.021, 0.14865738461453537),
    },
    ("kendall", "item", ()): {
        ("A", "B"): (0.246, 0.037100542754008425),
        ("A", "C"): (0.015, 0.17178521879104258),
        ("B", "C"): (0.074, 0.13468467603703416),
    },
    ("acc23", "none", (("epsilon", 0.3),)): {
        ("A", "B"): (0.098, 0.028855975485189034),
        ("A", "C"): (0.003, 0.10137895812053122),
        ("B", "C"): (0.025, 0.07252298263534218),
    },
}


@pytest.mark.parametrize("case", list(MTME_PERM_BOTH), ids=lambda c: f"{c[0]}-{c[1]}")
def test_equals_mtme_permutation_sig_diff(case):
    correlation, grouping, kw = case
    gold = np.array([[np.nan if v is None else v for v in row] for row in GOLD], dtype=float)
    metrics = {"A": np.array(M_A), "B": np.array(M_B), "C": np.array(M_C)}
    n = 2000  # Monte Carlo error below MTME's own (1000 resamples)
    res = pb.perm_both(metrics, gold, correlation=correlation, grouping=grouping,
                       n_resamples=n, rng=1, **dict(kw))
    assert res.metrics == ("A", "B", "C")
    for (hi, lo), (p, delta) in MTME_PERM_BOTH[case].items():
        assert res.statistic.at[hi, lo] == pytest.approx(delta, abs=1e-9)
        # Monte Carlo error of both sides: MTME 1000 resamples, ours n
        se = np.sqrt(max(p * (1 - p), 0.01) * (1 / 1000 + 1 / n))
        assert abs(res.pvalue.at[hi, lo] - p) <= 4 * se
