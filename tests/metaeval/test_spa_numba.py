"""The compiled counting step of soft pairwise accuracy's PERM-BOTH (stats.metaeval.perm_both._spa_numba) against
a plain second formulation: every count by direct enumeration of the sign flips, and the
resulting draws with the array path (numba absent), on threads and in one thread."""

from __future__ import annotations

import numpy as np
import pytest

from stats.metaeval.perm_both import _spa_numba
from stats.metaeval.perm_both import spa as pbs


def _inputs(seed=0, M=4, R=3, S=5, K=40):
    rng = np.random.default_rng(seed)
    Q = rng.normal(size=(M, R, S, K)).round()  # whole numbers: exact ties with thresholds
    base = rng.normal(size=(M, S, K)).round()
    pa = np.array([0, 0, 2], dtype=np.int64)
    pb = np.array([1, 3, 3], dtype=np.int64)
    P = S * (S - 1) // 2
    thr = rng.normal(size=(R, len(pa), 2, P)).round()
    return Q, base, thr, pa, pb


def _plain(Q, base, thr, pa, pb):
    """n[r, c, side, (i, j)] = #{k : V_ki - V_kj >= thr}, one sign flip at a time."""
    R, S, K = Q.shape[1], Q.shape[2], Q.shape[3]
    out = np.zeros(thr.shape, dtype=np.int64)
    for r in range(R):
        for c, (a, b) in enumerate(zip(pa, pb, strict=True)):
            for side in range(2):
                for k in range(K):
                    q = Q[b, r, :, k] - Q[a, r, :, k]
                    v = (base[a, :, k] + q if side == 0 else base[b, :, k] - q).tolist()
                    p = 0
                    for i in range(S):
                        for j in range(i + 1, S):
                            out[r, c, side, p] += v[i] - v[j] >= thr[r, c, side, p]
                            p += 1
    return out


def test_counts_equal_direct_enumeration():
    args = _inputs()
    want = _plain(*args)
    np.testing.assert_array_equal(_spa_numba.counts_numpy(*args), want)
    kernel = _spa_numba.compiled()
    if kernel is None:
        pytest.skip("numba not installed")
    got = np.full(want.shape, -1, dtype=np.int64)
    kernel(*args, np.arange(want.shape[0]), got)
    np.testing.assert_array_equal(got, want)


def _data():
    rng = np.random.default_rng(4)
    S, n_items = 6, 25
    G = rng.normal(size=(S, 1)) + rng.normal(size=(S, n_items))
    metrics = {f"m{k}": G + rng.normal(scale=0.5 + k, size=G.shape) for k in range(4)}
    return G, metrics


def test_threads_spans_and_array_path_give_the_same_bytes(monkeypatch):
    G, metrics = _data()
    kw = {"n_resamples": 9, "n_permutations": 50, "return_draws": True, "rng": 2}
    one = pbs.perm_both_soft_pairwise(metrics, G, jobs=1, **kw)
    # spans of 2 resamples on 2 threads, then the array path (as without numba)
    monkeypatch.setattr(pbs, "_Q_BYTES", 2 * 8 * 4 * 6 * 50)
    two = pbs.perm_both_soft_pairwise(metrics, G, jobs=2, **kw)
    monkeypatch.setattr(_spa_numba, "compiled", lambda: None)
    arr = pbs.perm_both_soft_pairwise(metrics, G, jobs=1, **kw)
    for other in (two, arr):
        np.testing.assert_array_equal(other.draws, one.draws)
        assert other.pvalue.equals(one.pvalue)
        assert other.statistic.equals(one.statistic)
