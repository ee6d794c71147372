"""PERM-BOTH's vectorised paths against a plain formulation: each permuted metric built and
its correlation computed resample by resample (the same swaps), and perm_both's p-values
against a plain loop over pairs and resamples."""

from __future__ import annotations

import importlib
import warnings

import numpy as np
import pytest

from stats.metaeval.meta_eval import meta_correlation
from stats.metaeval.perm_both import _linear as lin
from stats.metaeval.perm_both.engine import CorrelationSpec

pb = importlib.import_module("stats.metaeval.perm_both.core")


def _data(seed=1, S=5, n_items=9, decimals=None):
    rng = np.random.default_rng(seed)
    G = np.round(rng.normal(size=(S, n_items)))  # gold with ties
    G[1, 3] = G[2, 7] = np.nan
    G[:, 4] = np.nan
    Z = {}
    for m in "abcd":
        z = G + rng.normal(size=(S, n_items))
        z = np.where(np.isnan(z), rng.normal(size=z.shape), z)
        Z[m] = z if decimals is None else np.round(z, decimals)
    return G, Z


def _plain(G, Z, pairs, W, correlation, grouping, kw):
    """c(a~) - c(b~) by meta_correlation on every permuted metric, one resample at a time."""
    out = np.empty((W.shape[0], len(pairs)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for r, w in enumerate(W):
            for k, (a, b) in enumerate(pairs):
                ta, tb = np.where(w, Z[b], Z[a]), np.where(w, Z[a], Z[b])
                ca, cb = (
                    meta_correlation(
                        t, G, correlation=correlation, grouping=grouping, **kw
                    ).statistic
                    for t in (ta, tb)
                )
                out[r, k] = ca - cb
    return out


CASES = [
    ("spearman", {}),
    ("kendall", {}),
    ("kendall-c", {}),
    ("acc23", {"epsilon": 0.3}),
    ("acc23", {"epsilon": 0.0}),
    ("kendall-like", {"threshold": 0.5}),
]


@pytest.mark.parametrize("grouping", ["none", "item", "system"])
@pytest.mark.parametrize("correlation, kw", CASES)
@pytest.mark.parametrize("decimals", [None, 0])  # 0: metric ties, tau pairs fall back
def test_linear_path_equals_plain(grouping, correlation, kw, decimals):
    G, Z = _data(decimals=decimals)
    pairs = [("a", "b"), ("c", "a"), ("b", "d"), ("d", "c")]
    W = np.random.default_rng(2).random((12, *G.shape)) < 0.5
    W[0] = False  # the observed difference
    const, L, ok = lin.linear_terms(
        G, Z, pairs, correlation, grouping, kw.get("epsilon", 0.0), kw.get("threshold", 25.0)
    )
    if decimals is None:
        assert ok.all()
    want = _plain(G, Z, pairs, W, correlation, grouping, kw)
    got = lin.linear_differences(W, const, L)
    np.testing.assert_allclose(got[:, ok], want[:, ok], rtol=0, atol=1e-12)


@pytest.mark.parametrize(
    "correlation, grouping, kw",
    [
        ("kendall", "item", {}),
        ("acc23", "none", {"epsilon": 0.2}),
        ("kendall", "none", {}),
        ("spearman", "none", {}),
    ],
)
def test_pvalues_equal_a_plain_loop(correlation, grouping, kw):
    # perm_both draws one swap matrix per chunk of resamples from default_rng(seed); the plain
    # loop draws the same matrices and counts pair by pair, resample by resample
    G, Z = _data(seed=3, decimals=1)
    res = pb.perm_both(
        Z,
        G,
        correlation=correlation,
        grouping=grouping,
        n_resamples=40,
        rng=9,
        return_draws=True,
        **kw,
    )
    valid = ~np.isnan(G)
    Zs = {m: pb._zscore(v, valid) for m, v in Z.items()}
    W = np.random.default_rng(9).random((40, *G.shape)) < 0.5
    want = _plain(G, Zs, res.pairs, W, correlation, grouping, kw)
    np.testing.assert_allclose(res.draws.T, want, rtol=0, atol=1e-12)
    for k, (a, b) in enumerate(res.pairs):
        delta = res.statistic.at[a, b]
        p = np.mean(want[:, k] >= delta - 1e-12 * max(1.0, abs(delta)))
        assert res.pvalue.at[a, b] == p


@pytest.mark.parametrize("correlation", ["kendall", "kendall-c", "spearman"])
@pytest.mark.parametrize("grouping", ["none", "system"])
def test_sorting_path_for_long_groups(monkeypatch, correlation, grouping):
    # groups longer than MAX_GROUP_CELLS take the merge-sort-tree path: lower the bar so
    # that these small groups take it, and compare with the plain formulation
    monkeypatch.setattr(lin, "MAX_GROUP_CELLS", 3)
    G, Z = _data(seed=4, n_items=11)
    pairs = [("a", "b"), ("c", "a"), ("b", "d")]
    W = np.random.default_rng(5).random((10, *G.shape)) < 0.5
    W[0] = False
    const, L, ok = lin.linear_terms(G, Z, pairs, correlation, grouping, 0.0, 25.0)
    assert ok.all()
    want = _plain(G, Z, pairs, W, correlation, grouping, {})
    np.testing.assert_allclose(lin.linear_differences(W, const, L), want, rtol=0, atol=1e-12)


def test_prefix_sign_sums_equal_a_loop():
    rng = np.random.default_rng(6)
    ru = rng.integers(0, 8, size=37)
    rv = rng.integers(0, 8, size=50)
    p = rng.integers(0, 38, size=50)
    got = lin._prefix_sign_sums(lin._level_keys(ru, 10), p, rv, 10)
    want = [np.sign(v - ru[:q]).sum() for q, v in zip(p, rv, strict=True)]
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("grouping", ["item", "system"])
@pytest.mark.parametrize("decimals", [None, 1])
def test_calibrated_acc23_equals_plain(grouping, decimals):
    from stats.metaeval.perm_both import _calibrated as cal

    G, Z = _data(seed=7, decimals=decimals)
    pairs = [("a", "b"), ("c", "a"), ("b", "d"), ("d", "c")]
    W = np.random.default_rng(8).random((15, *G.shape)) < 0.5
    W[0] = False
    assert cal.applies(G, CorrelationSpec("acc23", grouping, tie_calibration=True))
    got = cal.Calibrated(G, Z, pairs, grouping).differences(W, np.arange(len(pairs)))
    want = _plain(G, Z, pairs, W, "acc23", grouping, {"tie_calibration": True})
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_calibrated_pvalues_equal_a_plain_loop():
    G, Z = _data(seed=9, decimals=1)
    kw = {"tie_calibration": True}
    res = pb.perm_both(
        Z,
        G,
        correlation="acc23",
        grouping="item",
        n_resamples=30,
        rng=2,
        return_draws=True,
        **kw,
    )
    Zs = {m: pb._zscore(v, np.ones(G.shape, bool)) for m, v in Z.items()}  # as MTME
    W = np.random.default_rng(2).random((30, *G.shape)) < 0.5
    want = _plain(G, Zs, res.pairs, W, "acc23", "item", kw)
    np.testing.assert_allclose(res.draws.T, want, rtol=0, atol=1e-12)


def test_calibrated_scan_numpy_equals_compiled(monkeypatch):
    # the numba scan and the numpy cumulative sums give the same differences
    from stats.metaeval.perm_both import _calibrated as cal

    G, Z = _data(seed=11, decimals=1)
    pairs = [("a", "b"), ("c", "d")]
    W = np.random.default_rng(3).random((9, *G.shape)) < 0.5
    first = cal.Calibrated(G, Z, pairs, "item").differences(W, np.arange(2))
    compiled = cal._compiled()
    monkeypatch.setattr(cal, "_compiled", lambda: None if compiled is not None else cal._scan)
    second = cal.Calibrated(G, Z, pairs, "item").differences(W, np.arange(2))
    np.testing.assert_allclose(first, second, rtol=0, atol=1e-12)
