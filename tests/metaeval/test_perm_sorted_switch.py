"""PERM-BOTH's sorting path for tau and Spearman (stats.metaeval.perm_both._linear._LongGroup),
taken above SORT_GROUP_CELLS cells of a group, against the pair-of-cells matrices it replaced
there (the same terms: exact with metric ties, within rounding without) and against
scipy.stats.kendalltau / spearmanr on each permuted metric, below and above the switch-over."""

from __future__ import annotations

import importlib

import numpy as np
import pytest
import scipy.stats

from stats.metaeval.perm_both import _linear as lin
from stats.metaeval.perm_both import _ties as ties

pb = importlib.import_module("stats.metaeval.perm_both.core")
pytest.importorskip("numba")

TIED = ("kendall", "kendall-c", "spearman")


def _data(n_items, seed=3, rounded=True):
    """4 systems: gold with ties and missing cells; metrics discrete (ties) or continuous,
    and items repeated as a draw with replacement repeats them (cells tied in every metric)."""
    rng = np.random.default_rng(seed)
    G = np.round(2 * rng.normal(size=(4, n_items)))
    Z = {m: G + 1.5 * rng.normal(size=G.shape) for m in "abc"}
    if rounded:
        Z = {m: np.round(z) for m, z in Z.items()}
    G[rng.random(G.shape) < 0.05] = np.nan
    if rounded:  # repeated items
        cols = rng.integers(0, n_items, n_items)
        G, Z = G[:, cols], {m: z[:, cols] for m, z in Z.items()}
    return G, Z


def _matrices(monkeypatch):
    monkeypatch.setattr(lin, "SORT_GROUP_CELLS", {c: 10**9 for c in TIED})


PAIRS = [("a", "b"), ("c", "a"), ("b", "c")]


@pytest.mark.parametrize("correlation", TIED)
@pytest.mark.parametrize("n_items", [20, 100])  # 80 cells (below the switch), 400 (above)
def test_sorted_terms_equal_the_pair_matrices(monkeypatch, correlation, n_items):
    cells = 4 * n_items
    assert (cells > lin.long_cells(correlation)) == (n_items == 100)
    for rounded in (True, False):
        G, Z = _data(n_items, rounded=rounded)
        args = (G, Z, PAIRS, correlation, "none", 0.0, 25.0)
        with monkeypatch.context() as mp:
            _matrices(mp)
            old_raw, old = lin.linear_terms(*args, raw=True), lin.linear_terms(*args)
        new_raw, new = lin.linear_terms(*args, raw=True), lin.linear_terms(*args)
        for x, y in zip(old_raw, new_raw, strict=True):  # sums of sign products: exact
            np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(old[2], new[2])  # the same pairs refused (ties)
        assert new[2].all() != rounded
        # normalised terms: the same sums in another order
        np.testing.assert_allclose(new[0], old[0], rtol=0, atol=1e-15)
        np.testing.assert_allclose(new[1], old[1], rtol=0, atol=1e-15)


@pytest.mark.parametrize("grouping", ["system", "item"])
def test_sorted_terms_of_many_groups_equal_the_pair_matrices(monkeypatch, grouping):
    # every group sorted (the switch lowered to 3 cells): each group's terms land on its cells
    for correlation in TIED:
        for rounded in (True, False):
            G, Z = _data(12, seed=6, rounded=rounded)
            args = (G, Z, PAIRS, correlation, grouping, 0.0, 25.0)
            with monkeypatch.context() as mp:
                _matrices(mp)
                old_raw, old = lin.linear_terms(*args, raw=True), lin.linear_terms(*args)
            with monkeypatch.context() as mp:
                mp.setattr(lin, "SORT_GROUP_CELLS", {c: 3 for c in TIED})
                new_raw, new = lin.linear_terms(*args, raw=True), lin.linear_terms(*args)
            for x, y in zip(old_raw, new_raw, strict=True):
                np.testing.assert_array_equal(x, y)
            np.testing.assert_array_equal(old[2], new[2])
            np.testing.assert_allclose(new[0][new[2]], old[0][old[2]], rtol=0, atol=1e-15)
            np.testing.assert_allclose(new[1], old[1], rtol=0, atol=1e-15)


@pytest.mark.parametrize("correlation", ["kendall", "spearman"])
@pytest.mark.parametrize("n_items", [20, 100])
def test_tied_differences_equal_scipy_per_resample(correlation, n_items):
    G, Z = _data(n_items, seed=4)
    W = np.random.default_rng(1).random((6, *G.shape)) < 0.5
    W[0] = False
    got = ties.Tied(G, Z, PAIRS, correlation, "none").differences(W, np.arange(len(PAIRS)))
    ok = ~np.isnan(G)
    fn = scipy.stats.kendalltau if correlation == "kendall" else scipy.stats.spearmanr
    for r, w in enumerate(W):
        for k, (a, b) in enumerate(PAIRS):
            ta, tb = np.where(w, Z[b], Z[a]), np.where(w, Z[a], Z[b])
            want = fn(ta[ok], G[ok])[0] - fn(tb[ok], G[ok])[0]
            assert got[r, k] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("correlation", TIED)
def test_perm_both_same_pvalues_with_the_switch(monkeypatch, correlation):
    # one group of 400 cells, with ties (the tie kernel) and without (the linear product)
    for rounded in (True, False):
        G, Z = _data(100, seed=5, rounded=rounded)
        kw = dict(correlation=correlation, n_resamples=60, rng=2, return_draws=True)
        new = pb.perm_both(Z, G, **kw)
        with monkeypatch.context() as mp:
            _matrices(mp)
            old = pb.perm_both(Z, G, **kw)
        assert new.pvalue.equals(old.pvalue)
        if rounded:  # exact sums of signs feed the tie kernel: the same bytes
            np.testing.assert_array_equal(new.draws, old.draws)
        np.testing.assert_allclose(new.draws, old.draws, rtol=0, atol=1e-14)
