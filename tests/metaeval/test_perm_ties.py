"""PERM-BOTH with metric ties (tau-b, tau-c, Spearman; stats.metaeval.perm_both._ties) against the general
path, which evaluates each permuted metric with meta_correlation's batched code (a plain
second formulation), on the same swaps."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from stats.metaeval.perm_both import _linear as _perm_linear
from stats.metaeval.perm_both import _ties as _perm_ties
from stats.metaeval.perm_both.engine import CorrelationSpec

pb = importlib.import_module("stats.metaeval.perm_both.core")

pytest.importorskip("numba")


def _tied_data(seed=5, S=4, n_items=40):
    """Gold with ties and missing cells; metrics rounded (discrete), one constant on some
    items and one on some systems (groups where every score ties: NaN), and cells copied from
    system 0 (identical outputs: every metric ties there)."""
    rng = np.random.default_rng(seed)
    G = np.round(rng.normal(size=(S, n_items)))
    Z = {m: np.round(G + 2 * rng.normal(size=G.shape)) for m in "abc"}
    Z["d"] = G + rng.normal(size=G.shape)  # continuous
    G[rng.random(G.shape) < 0.1] = np.nan
    Z["a"][:, :6] = 1.0
    Z["b"][:2, :] = 0.0
    same = rng.random(n_items) < 0.3
    for z in Z.values():
        z[1:3, same] = z[0, same]
    return G, Z


PAIRS = [("a", "b"), ("c", "a"), ("b", "d"), ("d", "c")]


@pytest.mark.parametrize("grouping", ["none", "item", "system"])
@pytest.mark.parametrize("correlation", ["kendall", "kendall-c", "spearman"])
def test_tied_pairs_equal_the_general_path(correlation, grouping):
    G, Z = _tied_data()
    W = np.random.default_rng(2).random((20, *G.shape)) < 0.5
    W[0] = False  # the observed difference
    W[1] = True  # every cell swapped
    _, _, ok = _perm_linear.linear_terms(G, Z, PAIRS, correlation, grouping, 0.0, 25.0)
    assert not ok.any()  # every pair ties somewhere: none is linear
    got = _perm_ties.Tied(G, Z, PAIRS, correlation, grouping).differences(W, np.arange(4))
    want = pb._differences(G, Z, PAIRS, W, CorrelationSpec(correlation, grouping), fast=False)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    if correlation == "spearman":  # sums of the ranks' products in another order
        np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
    else:  # tau from the same integer counts by the same operations: the same bytes
        np.testing.assert_array_equal(got, want)
    np.testing.assert_allclose(got[1], -got[0], rtol=0, atol=1e-12)  # swapping all: b - a


def test_long_group_equals_the_general_path():
    # one group of 640 cells: the general path counts tau by sorting (scipy's kendalltau)
    G, Z = _tied_data(seed=6, S=4, n_items=160)
    W = np.random.default_rng(3).random((6, *G.shape)) < 0.5
    got = _perm_ties.Tied(G, Z, PAIRS, "kendall", "none").differences(W, np.arange(4))
    want = pb._differences(G, Z, PAIRS, W, CorrelationSpec("kendall"), fast=False)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("correlation, grouping", [("kendall", "item"), ("spearman", "none")])
def test_perm_both_with_ties_equals_the_general_path(monkeypatch, correlation, grouping):
    # the same seed gives the same p-values and draws with this path as without it
    G, Z = _tied_data(seed=7)
    kw = dict(correlation=correlation, grouping=grouping, n_resamples=50, rng=4)
    fast = pb.perm_both(Z, G, return_draws=True, **kw)
    monkeypatch.setattr(_perm_ties, "applies", lambda *a: False)
    slow = pb.perm_both(Z, G, return_draws=True, **kw)
    np.testing.assert_allclose(fast.draws, slow.draws, rtol=0, atol=1e-12)
    assert fast.pvalue.equals(slow.pvalue)
    np.testing.assert_allclose(fast.statistic, slow.statistic, rtol=0, atol=1e-12)
    if correlation == "kendall":
        np.testing.assert_array_equal(fast.draws, slow.draws)


def _twin_data(seed=5, S=5, n_items=60):
    """Continuous metrics that tie only where systems share an output (every metric ties
    there), one item where all systems do; metrics a and b take the same constant on it."""
    rng = np.random.default_rng(seed)
    G = np.round(rng.normal(size=(S, n_items)))
    Z = {m: G + rng.normal(size=G.shape) for m in "abc"}
    G[rng.random(G.shape) < 0.1] = np.nan
    same = rng.random(n_items) < 0.4
    for z in Z.values():
        z[1:4, same] = z[0, same]
        z[:, 7] = 3.0
    Z["c"][:, 7] = 2.0
    return G, Z


@pytest.mark.parametrize("grouping", ["none", "item", "system"])
@pytest.mark.parametrize("correlation", ["kendall", "kendall-c", "spearman"])
def test_symmetric_ties_equal_the_general_path(correlation, grouping):
    # ties only between cells tied in both metrics: a~ and b~ share the normaliser, and the
    # difference is the linear numerator over it (no Fenwick tree); a and b share a score
    # (3.0), so that pair takes the exact per-metric route
    G, Z = _twin_data()
    pairs = [("a", "b"), ("c", "a"), ("b", "c")]
    W = np.random.default_rng(2).random((30, *G.shape)) < 0.5
    W[0] = False
    tied = _perm_ties.Tied(G, Z, pairs, correlation, grouping)
    assert [tied._pair_ranks(*p)[5] for p in pairs] == [False, True, True]
    got = tied.differences(W, np.arange(3))
    # the kernels on the gold scores as given (groups of 2 included: perm_both's engine_paths
    # masks the groups too small before any kernel sees them)
    spec = CorrelationSpec(correlation, grouping, min_group_size=2)
    want = pb._differences(G, Z, pairs, W, spec, fast=False)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)
