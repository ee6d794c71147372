"""PERM-BOTH for tie-calibrated acc23 over one long group (stats.metaeval.perm_both._calibrated_one)
against a plain formulation (each permuted metric's tie-calibrated acc23 by
meta_correlation, resample by resample, on the same swaps) and against perm_both's general
path."""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import numpy as np
import pytest

from stats.metaeval.perm_both import _calibrated as _perm_calibrated
from stats.metaeval.perm_both import _calibrated_one as _perm_calibrated_one
from stats.metaeval.perm_both.engine import CorrelationSpec

pytest.importorskip("numba")
sys.path.insert(0, str(Path(__file__).parent))
from test_perm_both_fast import _data, _plain  # noqa: E402  (the shared plain formulation)

pb = importlib.import_module("stats.metaeval.perm_both.core")


@pytest.mark.parametrize("decimals", [None, 1, 0])  # 0, 1: metric ties
def test_one_group_equals_plain(decimals):
    G, Z = _data(seed=7, decimals=decimals)
    pairs = [("a", "b"), ("c", "a"), ("b", "d"), ("d", "c")]
    W = np.random.default_rng(8).random((15, *G.shape)) < 0.5
    W[0] = False
    W[1] = True
    assert _perm_calibrated_one.applies(G, CorrelationSpec("acc23", tie_calibration=True))
    got = _perm_calibrated_one.CalibratedOne(G, Z, pairs).differences(W, np.arange(4))
    want = _plain(G, Z, pairs, W, "acc23", "none", {"tie_calibration": True})
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-12)


def test_perm_both_takes_it_past_the_candidate_limit(monkeypatch):
    # below the shared path's limit the candidates are too many; this path serves the group
    # and gives the general path's p-values and draws for the same seed
    G, Z = _data(seed=3, decimals=1)
    monkeypatch.setattr(_perm_calibrated, "MAX_CANDIDATES", 10)
    assert not _perm_calibrated.applies(G, CorrelationSpec("acc23", tie_calibration=True))
    kw = dict(correlation="acc23", tie_calibration=True, n_resamples=30, rng=5)
    fast = pb.perm_both(Z, G, return_draws=True, **kw)
    monkeypatch.setattr(_perm_calibrated_one, "MAX_CANDIDATES", 10)
    slow = pb.perm_both(Z, G, return_draws=True, **kw)
    np.testing.assert_allclose(fast.draws, slow.draws, rtol=0, atol=1e-12)
    assert fast.pvalue.equals(slow.pvalue)
