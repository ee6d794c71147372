r"""PERM-BOTH for tie-calibrated acc23 over one long group (grouping ``none``), compiled.

The method is :mod:`stats.metaeval.perm_both._calibrated`'s: every pair of cells has four candidate metric
differences, one per choice of metric in each cell; sorted once per pair of metrics, a
resample's gain curve is a running sum over the candidates it selects, its best epsilon the
maximum at the ends of runs of equal differences. One group of :math:`n` cells has
:math:`2 n (n - 1)` candidates, more than that module holds at once, so here each candidate is
packed into one 32-bit key (the pair of cells, the two choices and the sign of its step;
the two cells are looked up) and the sorted candidates take 5 bytes each; the running sums
count steps as integers (one weight, :math:`1 / \binom{n}{2}`, for the single group). Work
per resample is linear in the candidates: the exact search, as the general path, without
sorting per resample.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stats._core.jit import njit_one
from stats.metaeval.perm_both import _linear as _perm_linear

if TYPE_CHECKING:
    from .engine import CorrelationSpec

#: candidates of one pair of metrics held at once (5 bytes each sorted; about 20 while sorting)
MAX_CANDIDATES = 24_000_000
#: sorted candidates kept between chunks of resamples (bytes, all pairs of metrics)
_CACHE_BYTES = 256 * 2**20


def _scan(swaps_by_cell, key, si, ti, run_end):  # pragma: no cover - compiled
    """Best gain (in steps) of ``a~`` and ``b~`` per resample; ``swaps_by_cell`` is cells x
    resamples."""
    R, K = swaps_by_cell.shape[1], len(key)
    acc_a = np.zeros(R, np.int64)
    acc_b = np.zeros(R, np.int64)
    hi_a = np.zeros(R, np.int64)
    hi_b = np.zeros(R, np.int64)
    for j in range(K):
        k = key[j]
        p = k >> 3
        u = (k >> 2) & 1
        v = (k >> 1) & 1
        st = 1 if (k & 1) == 1 else -1
        ws = swaps_by_cell[si[p]]
        wt = swaps_by_cell[ti[p]]
        for r in range(R):
            acc_a[r] += st * ((ws[r] == u) & (wt[r] == v))
            acc_b[r] += st * ((ws[r] != u) & (wt[r] != v))
        if run_end[j]:
            for r in range(R):
                hi_a[r] = max(hi_a[r], acc_a[r])
                hi_b[r] = max(hi_b[r], acc_b[r])
    out = np.empty((2, R), np.int64)
    out[0] = hi_a
    out[1] = hi_b
    return out


def compiled():
    """The compiled scan, or None without numba."""
    return njit_one(_scan)


def applies(gold: np.ndarray, spec: CorrelationSpec) -> bool:
    """Tie-calibrated acc23 over one group whose candidates fit :data:`MAX_CANDIDATES`."""
    if spec.correlation != "acc23" or not spec.tie_calibration or spec.grouping != "none":
        return False
    n = int((~np.isnan(gold)).sum())
    return 2 * n * (n - 1) <= MAX_CANDIDATES and compiled() is not None


class CalibratedOne:
    """The acc23-at-0 linear terms of every pair of metrics, the group's pairs of cells."""

    def __init__(self, gold, standardised, pairs):
        self.pairs = pairs
        self.const0, self.coefficients0, _ = _perm_linear.linear_terms(
            gold, standardised, pairs, "acc23", "none", 0.0, 25.0
        )
        g = gold.reshape(-1)
        cells = np.flatnonzero(~np.isnan(g))
        n = len(cells)
        s, t = np.triu_indices(n, 1)
        self.si = cells[s].astype(np.int32)
        self.ti = cells[t].astype(np.int32)
        del s, t
        dg = g[self.si] - g[self.ti]
        self.g_tie = dg == 0
        self.up = dg > 0
        self.wgt = 1.0 / max(1, len(self.si))
        self.standardised = {m: z.reshape(-1) for m, z in standardised.items()}
        self._cache: dict = {}
        self._held = 0

    def _candidates(self, a, b):
        """Sorted keys (pair of cells << 3 | u << 2 | v << 1 | gain) and run ends."""
        if (a, b) in self._cache:
            return self._cache[a, b]
        x = (self.standardised[a], self.standardised[b])
        vals, keys = [], []
        for u in (0, 1):
            for v in (0, 1):
                d = x[u][self.si] - x[v][self.ti]
                m_tie = d == 0
                gain = self.g_tie & ~m_tie  # tied in gold: correct once tied in the metric
                con = ~self.g_tie & ~m_tie & (self.up == (d > 0))  # concordant: then wrong
                keep = np.flatnonzero(gain | con)
                vals.append(np.abs(d[keep]))
                keys.append((keep * 8 + (4 * u + 2 * v) + gain[keep]).astype(np.int32))
                del d, m_tie, gain, con, keep
        val = np.concatenate(vals)
        del vals
        o = np.argsort(val)  # the order within equal values does not matter: integer sums
        val = val[o]
        key = np.concatenate(keys)[o]
        run_end = np.r_[val[1:] != val[:-1], True] if len(val) else np.zeros(0, bool)
        if self._held + 5 * len(key) <= _CACHE_BYTES:  # kept for the next chunk
            self._cache[a, b] = key, run_end
            self._held += 5 * len(key)
        return key, run_end

    def differences(self, swaps: np.ndarray, idx) -> np.ndarray:
        """Permuted differences (resamples x pairs ``idx``) for the swaps ``swaps``."""
        R = swaps.shape[0]
        out = _perm_linear.linear_differences(swaps, self.const0[idx], self.coefficients0[:, idx])
        if not len(self.si):
            return np.full((R, len(idx)), np.nan)
        swaps_by_cell = np.ascontiguousarray(swaps.reshape(R, -1).T).view(np.uint8)
        scan = compiled()
        for col, k in enumerate(idx):
            key, run_end = self._candidates(*self.pairs[k])
            if len(key):
                best = scan(swaps_by_cell, key, self.si, self.ti, run_end)
                out[:, col] += (best[0] - best[1]) * self.wgt
        return out
