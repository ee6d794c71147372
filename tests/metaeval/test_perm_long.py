"""PERM-BOTH's linear terms of acc23 (fixed epsilon) and Kendall-like tau for long groups
(stats.metaeval.perm_both._long, compiled) against a plain formulation: each permuted metric built and
its correlation computed by meta_correlation, resample by resample, on the same swaps."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from stats.metaeval.perm_both import _linear as lin
from stats.metaeval.perm_both.engine import CorrelationSpec

pytest.importorskip("numba")
sys.path.insert(0, str(Path(__file__).parent))
from test_perm_both_fast import _data, _plain  # noqa: E402  (the shared plain formulation)

pb = importlib.import_module("stats.metaeval.perm_both.core")


@pytest.mark.parametrize("grouping", ["none", "system", "item"])
@pytest.mark.parametrize(
    "correlation, kw",
    [
        ("acc23", {"epsilon": 0.3}),
        ("acc23", {"epsilon": 0.0}),
        ("kendall-like", {"threshold": 0.5}),
        ("kendall-like", {"threshold": 1.0}),
    ],
)
@pytest.mark.parametrize("decimals", [None, 0])  # 0: metric ties
def test_long_groups_equal_plain(monkeypatch, grouping, correlation, kw, decimals):
    # lower the bar so that these small groups count as long
    monkeypatch.setattr(lin, "MAX_GROUP_CELLS", 3)
    G, Z = _data(seed=4, n_items=11, decimals=decimals)
    assert lin.applies(G, CorrelationSpec(correlation, grouping))
    pairs = [("a", "b"), ("c", "a"), ("b", "d")]
    W = np.random.default_rng(5).random((10, *G.shape)) < 0.5
    W[0] = False
    const, L, ok = lin.linear_terms(
        G, Z, pairs, correlation, grouping, kw.get("epsilon", 0.0), kw.get("threshold", 25.0)
    )
    assert ok.all()
    want = _plain(G, Z, pairs, W, correlation, grouping, kw)
    np.testing.assert_allclose(lin.linear_differences(W, const, L), want, rtol=0, atol=1e-12)


def test_perm_both_long_group_equals_the_general_path(monkeypatch):
    # the same seed gives the same p-values through perm_both with the path as without it
    G, Z = _data(seed=6, n_items=30, decimals=1)
    kw = dict(correlation="kendall-like", grouping="none", threshold=0.5, n_resamples=40, rng=3)
    monkeypatch.setattr(lin, "MAX_GROUP_CELLS", 20)
    fast = pb.perm_both(Z, G, return_draws=True, **kw)
    monkeypatch.setattr(lin, "applies", lambda *a: False)
    slow = pb.perm_both(Z, G, return_draws=True, **kw)
    np.testing.assert_allclose(fast.draws, slow.draws, rtol=0, atol=1e-12)
    assert fast.pvalue.equals(slow.pvalue)
