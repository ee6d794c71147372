r"""PERM-BOTH for tie-calibrated acc23: the epsilon search of every resample without sorting.

Tie-calibrated acc23 (Deutsch et al. 2023) is acc23 at :math:`\epsilon = 0` plus the best gain
over :math:`\epsilon` of the pairs whose metric difference it turns into a tie:

.. math::

    \mathrm{acc}^*(x) = \mathrm{acc}_{23}(x; 0)
        + \frac{1}{n_g}\max\Bigl(0, \max_\epsilon \sum_{(s,t):\,|x_s - x_t| \le \epsilon}
          \frac{\delta_{st}}{p_{g(s,t)}}\Bigr),

with :math:`\delta = +1` for a pair tied in gold (it becomes correct), :math:`-1` for a
concordant pair (it becomes wrong), :math:`p_g` the pairs of its group and :math:`n_g` the
groups with a pair. Under PERM-BOTH a pair's metric difference in :math:`\tilde a` is one of
four values fixed before resampling, :math:`x^u_s - x^v_t` with :math:`u, v \in \{a, b\}` the
metric each cell took, and in :math:`\tilde b` the one with both choices flipped. So the
:math:`4 \times` pairs candidates are sorted once per pair of metrics; a resample selects one
candidate per pair, and its gain curve is a cumulative sum over the presorted candidates of the
selected steps, its best epsilon a maximum at the ends of runs of equal differences. No
per-resample sort, and the resamples are rows of one array. The acc23 at :math:`\epsilon = 0`
part is linear in the swaps (:mod:`stats.metaeval.perm_both._linear`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from stats._core.jit import njit_one
from stats.metaeval.meta_eval import group_rows
from stats.metaeval.perm_both import _linear as _perm_linear

if TYPE_CHECKING:
    from .engine import CorrelationSpec


def _scan(swaps_by_cell, step, u, v, s, t, run_end):
    """Best gain of ``a~`` and ``b~`` per resample: the running sum of the steps each selects,
    its maximum at the ends of runs of equal differences (0 when no epsilon helps).

    ``swaps_by_cell`` is cells x resamples, so the inner loop runs along resamples (contiguous,
    branch-free: it vectorises), candidate by candidate in sorted order."""
    R, K = swaps_by_cell.shape[1], len(step)
    acc_a = np.zeros(R)
    acc_b = np.zeros(R)
    hi_a = np.zeros(R)
    hi_b = np.zeros(R)
    for j in range(K):
        ws = swaps_by_cell[s[j]]
        wt = swaps_by_cell[t[j]]
        uj, vj, st = u[j], v[j], step[j]
        for r in range(R):
            acc_a[r] += st * ((ws[r] == uj) & (wt[r] == vj))
            acc_b[r] += st * ((ws[r] != uj) & (wt[r] != vj))
        if run_end[j]:
            for r in range(R):
                hi_a[r] = max(hi_a[r], acc_a[r])
                hi_b[r] = max(hi_b[r], acc_b[r])
    out = np.empty((2, R))
    out[0] = hi_a
    out[1] = hi_b
    return out


def _compiled():
    """The compiled :func:`_scan`, or None without numba (the numpy cumulative sums then)."""
    return njit_one(_scan)


#: candidates (4 per pair of cells) of one pair of metrics held at once; more take the
#: general path
MAX_CANDIDATES = 8_000_000
#: resamples x candidates of one cumulative sum
_CHUNK = 6_000_000


def applies(gold: np.ndarray, spec: CorrelationSpec) -> bool:
    """Tie-calibrated acc23 with groups small enough for the candidate arrays."""
    if spec.correlation != "acc23" or not spec.tie_calibration:
        return False
    gold_rows, _ = group_rows(gold, gold, spec.grouping)
    n = (~np.isnan(gold_rows)).sum(axis=1)
    return 4 * int((n * (n - 1) // 2).sum()) <= MAX_CANDIDATES


class Calibrated:
    """Per pair of metrics: the acc23-at-0 linear terms and the sorted gain candidates."""

    def __init__(self, gold, standardised, pairs, grouping):
        self.gold, self.standardised, self.grouping = gold, standardised, grouping
        self.pairs = pairs
        self.const0, self.coefficients0, _ = _perm_linear.linear_terms(
            gold, standardised, pairs, "acc23", grouping, 0.0, 25.0
        )
        gold_rows, _ = group_rows(gold, gold, grouping)
        cells = group_rows(gold, np.arange(gold.size, dtype=float).reshape(gold.shape), grouping)[1]
        valid = ~np.isnan(gold_rows)
        n = valid.sum(axis=1)
        npairs = n * (n - 1) // 2
        self.n_groups = int((npairs > 0).sum())
        groups, c = gold_rows.shape
        gi, si, ti = np.nonzero(
            valid[:, :, None] & valid[:, None, :] & np.triu(np.ones((c, c), dtype=bool), 1)
        )
        self.gi, self.si, self.ti = gi, si, ti
        self.s_cell = cells[gi, si].astype(np.int64)
        self.t_cell = cells[gi, ti].astype(np.int64)
        self.dg = gold_rows[gi, si] - gold_rows[gi, ti]
        self.wgt = 1.0 / npairs[gi]
        self.standardised_rows = {
            m: group_rows(gold, z, grouping)[1] for m, z in standardised.items()
        }

    def _candidates(self, a, b):
        """Sorted candidates with a nonzero step: |difference|, step, cells' choices, run ends."""
        za, zb = self.standardised_rows[a], self.standardised_rows[b]
        x = (za, zb)
        vals, steps, us, vs, ss, ts = [], [], [], [], [], []
        g_tie = self.dg == 0
        for u in (0, 1):
            for v in (0, 1):
                d = x[u][self.gi, self.si] - x[v][self.gi, self.ti]
                m_tie = d == 0
                con = ~g_tie & ~m_tie & ((self.dg > 0) == (d > 0))
                step = np.where(g_tie & ~m_tie, 1.0, np.where(con, -1.0, 0.0)) * self.wgt
                keep = step != 0
                vals.append(np.abs(d[keep]))
                steps.append(step[keep])
                us.append(np.full(keep.sum(), u, dtype=bool))
                vs.append(np.full(keep.sum(), v, dtype=bool))
                ss.append(self.s_cell[keep])
                ts.append(self.t_cell[keep])
        val = np.concatenate(vals)
        o = np.argsort(val, kind="stable")
        val = val[o]
        run_end = np.r_[val[1:] != val[:-1], True] if len(val) else np.zeros(0, bool)
        cat = [np.concatenate(v)[o] for v in (steps, us, vs, ss, ts)]
        return (*cat, run_end)

    def differences(self, swaps: np.ndarray, idx) -> np.ndarray:
        """Permuted differences (resamples x pairs ``idx``) for the swaps ``swaps``."""
        R = swaps.shape[0]
        flat_swaps = swaps.reshape(R, -1)
        out = _perm_linear.linear_differences(swaps, self.const0[idx], self.coefficients0[:, idx])
        if self.n_groups == 0:
            return np.full((R, len(idx)), np.nan)
        swaps_by_cell = None
        for col, k in enumerate(idx):
            step, u, v, s, t, run_end = self._candidates(*self.pairs[k])
            if not len(step):
                continue
            scan = _compiled()
            if scan is not None:
                if swaps_by_cell is None:
                    swaps_by_cell = np.ascontiguousarray(flat_swaps.T).view(np.uint8)
                best = scan(swaps_by_cell, step, u.view(np.uint8), v.view(np.uint8), s, t, run_end)
                out[:, col] += (best[0] - best[1]) / self.n_groups
                continue
            ends = np.flatnonzero(run_end)
            width = max(1, _CHUNK // len(step))
            for r0 in range(0, R, width):
                ws = flat_swaps[r0 : r0 + width, s]
                wt = flat_swaps[r0 : r0 + width, t]
                best = []
                for flip in (False, True):  # a~ takes choices (u, v); b~ the flipped ones
                    sel = (ws != (u ^ flip)) | (wt != (v ^ flip))
                    gain = np.cumsum(np.where(sel, 0.0, step), axis=1)[:, ends]
                    best.append(np.maximum(gain.max(axis=1), 0.0))
                out[r0 : r0 + width, col] += (best[0] - best[1]) / self.n_groups
        return out
