r"""PERM-BOTH for Kendall's tau-b, tau-c and Spearman when the metrics' scores tie.

With ties among the scores the normalisers of tau-b (:math:`\sqrt{(n_0 - n_1)(n_0 - n_2)}`,
:math:`n_1` the pairs tied in the metric), tau-c (:math:`n^2 (m - 1) / m`, :math:`m` the
distinct scores) and Spearman (the sum of squared centred average ranks,
:math:`(n^3 - n - \sum_v (c_v^3 - c_v)) / 12`) depend on which cells were swapped, so the
difference is no longer the linear function of the swaps of :mod:`stats.metaeval.perm_both._linear`; real
data ties often (two systems with the same output get the same score; discrete metrics).

Each permuted metric is instead evaluated exactly per resample, in one compiled pass over the
resamples and pairs (numba), without sorting: the scores of both metrics of a pair are ranked
once per group in one shared order, so that every permuted metric is a choice, cell by cell,
between two precomputed ranks. Per group and resample:

- the count :math:`c_v` of each rank gives :math:`n_1 = \sum_v \binom{c_v}{2}`, the distinct
  scores and, by a running sum over the ranks, each cell's centred average rank
  :math:`\tfrac12 (\#\{t: x_t < x_k\} - \#\{t: x_t > x_k\})` (Spearman);
- the numerator :math:`\sum_{s<t} \operatorname{sign}(g_s - g_t)\operatorname{sign}(x_s - x_t)`
  of tau comes from a Fenwick tree over the ranks, the cells taken in gold order (cells tied
  in gold queried before any of them is inserted): :math:`O(n \log n)`.

Tau's numerator of :math:`\tilde b` is that of :math:`\tilde a` minus the difference of the
numerators, which stays linear in the swaps (:func:`stats.metaeval.perm_both._linear.linear_terms` with
``raw=True``: exact sums of signs): one tree pass per resample, not two. Where the two
metrics tie symmetrically (their scores tie on the same cells, e.g. identical outputs, and no
score of one is a score of the other) :math:`\tilde a` and :math:`\tilde b` tie on the same
pairs in every resample and share the normaliser, so the difference is that linear numerator
over the normaliser from the counts: no tree at all.

The per-group values and their mean over the groups where they are defined follow
:func:`stats.metaeval.meta_eval.meta_correlation` step by step (tau from the integer counts, so the
same floating-point operations), so the differences equal the general path's: byte for byte
for tau on the tree route, within rounding (1e-16) on the symmetric one and for Spearman.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.stats

from stats._core.jit import njit_one
from stats.metaeval.meta_eval import group_rows
from stats.metaeval.perm_both import _linear as _perm_linear

if TYPE_CHECKING:
    from .engine import CorrelationSpec

#: correlations this path serves
TIED = ("kendall", "kendall-c", "spearman")
_MODE = {"kendall": 0, "kendall-c": 1, "spearman": 2}
#: per-pair ranks (cells with a gold score x pairs) prepared at once
_RANK_CELLS = 4_000_000
#: tau-b over one group with symmetric ties as array work (:meth:`Tied._symmetric`): the
#: kernel's symmetric route, the same numbers (False: the kernel serves them)
SYMMETRIC_PRODUCTS = True


def _kernel(
    swaps, cells, goff, newblock, ra, rb, nv, dc, dl, sym, q, syy, n2, gdist, mode, out
):  # pragma: no cover
    """``out[p, 0, r, g]``: correlation of ``a~`` of pair ``p`` in group ``g`` of resample
    ``r`` (NaN where undefined), ``out[p, 1, r, g]`` that of ``b~``; for a pair whose ties
    are symmetric (``sym``) the difference and 0."""
    R = swaps.shape[0]
    P = ra.shape[0]
    groups = len(goff) - 1
    longest = 0
    for g in range(groups):
        longest = max(longest, goff[g + 1] - goff[g])
    size = 2 * longest + 2
    cnt = np.zeros(size, np.int64)  # per rank: cells holding it
    ins = np.zeros(size, np.int64)  # per rank: cells inserted so far (tau)
    fen = np.zeros(size, np.int64)  # Fenwick tree over ranks (1-based) or rank prefix counts
    x = np.zeros(max(1, longest), np.int64)
    for p in range(P):
        for r in range(R):
            wr = swaps[r]
            for g in range(groups):
                lo = goff[g]
                n = goff[g + 1] - lo
                out[p, 0, r, g] = np.nan
                out[p, 1, r, g] = np.nan
                if n < 2:
                    continue
                V = nv[p, g]
                tot = n * (n - 1) // 2
                ds = dc[p, g]  # numerator of a~ minus that of b~: linear in the swaps
                for i in range(n):
                    if wr[cells[lo + i]] != 0:
                        ds += dl[p, lo + i]
                for flip in range(2):  # 0: a~ (a cell swapped takes b), 1: b~
                    for i in range(n):
                        k = lo + i
                        if (wr[cells[k]] != 0) != (flip == 1):
                            x[i] = rb[p, k]
                        else:
                            x[i] = ra[p, k]
                    n1 = 0
                    dist = 0
                    t3 = 0.0
                    for i in range(n):
                        c = cnt[x[i]]
                        n1 += c
                        t3 += 3.0 * c * (c + 1)  # (c+1)^3 - (c+1) - (c^3 - c)
                        if c == 0:
                            dist += 1
                        cnt[x[i]] = c + 1
                    val = np.nan
                    if sym[p]:  # the same ties in b~: one common normaliser
                        if mode == 2:
                            sxx = (float(n) ** 3 - n - t3) / 12.0
                            if dist >= 2 and gdist[g] >= 2:
                                val = ds / np.sqrt(sxx * syy[g])
                        elif n1 != tot and n2[g] != tot:
                            if mode == 0:
                                val = ds / np.sqrt((tot - n1) * (tot - n2[g]))
                            else:
                                mc = min(gdist[g], dist)
                                val = 2 * ds / (float(n) ** 2 * (mc - 1) / mc)
                        for i in range(n):
                            cnt[x[i]] = 0
                        if not np.isnan(val):
                            out[p, 0, r, g] = val
                            out[p, 1, r, g] = 0.0
                        break
                    if mode == 2:
                        run = 0
                        for v in range(V):
                            fen[v] = run
                            run += cnt[v]
                        num = 0.0
                        sxx = 0.0
                        for i in range(n):
                            v = x[i]
                            rc = 0.5 * (fen[v] - (n - fen[v] - cnt[v]))
                            num += q[lo + i] * rc
                            sxx += rc * rc
                        for v in range(V):
                            fen[v] = 0
                        if dist >= 2 and gdist[g] >= 2:
                            val = num / np.sqrt(sxx * syy[g])
                            val = min(1.0, max(-1.0, val))
                    else:
                        if flip == 0:  # a~'s numerator by a Fenwick tree; b~'s from ds
                            s = 0
                            inserted = 0
                            i = 0
                            while i < n:
                                j = i + 1
                                while j < n and not newblock[lo + j]:
                                    j += 1
                                for t in range(
                                    i, j
                                ):  # cells below in gold: lower ranks minus higher
                                    v = x[t]
                                    less = 0
                                    pos = v  # prefix [0, v): Fenwick positions 1..v
                                    while pos > 0:
                                        less += fen[pos]
                                        pos -= pos & -pos
                                    s += less - (inserted - less - ins[v])
                                for t in range(i, j):
                                    v = x[t]
                                    ins[v] += 1
                                    pos = v + 1
                                    while pos <= V:
                                        fen[pos] += 1
                                        pos += pos & -pos
                                inserted += j - i
                                i = j
                            for v in range(V + 1):
                                fen[v] = 0
                            for i in range(n):
                                ins[x[i]] = 0
                            s_a = s
                        else:
                            s = s_a - np.int64(round(ds))
                        if n1 != tot and n2[g] != tot:
                            if mode == 0:
                                val = s / np.sqrt((tot - n1) * (tot - n2[g]))
                            else:
                                mc = min(gdist[g], dist)
                                val = 2 * s / (float(n) ** 2 * (mc - 1) / mc)
                    for i in range(n):
                        cnt[x[i]] = 0
                    out[p, flip, r, g] = val


def compiled():
    """The compiled kernel, or None without numba."""
    return njit_one(_kernel)


def applies(gold: np.ndarray, spec: CorrelationSpec) -> bool:
    """Whether pairs that the linear path refuses can be served here."""
    return spec.correlation in TIED and not spec.tie_calibration and compiled() is not None


class Tied:
    """The gold side of every group (cells in gold order, gold ties, Spearman's gold ranks),
    built once; per pair of metrics, both metrics' ranks in one shared order per group."""

    def __init__(self, gold, standardised, pairs, correlation, grouping):
        self.standardised, self.pairs, self.mode = standardised, pairs, _MODE[correlation]
        self.gold, self.correlation, self.grouping = gold, correlation, grouping
        gold_rows, _ = group_rows(gold, gold, grouping)
        cells = group_rows(
            gold, np.arange(gold.size, dtype=np.int64).reshape(gold.shape), grouping
        )[1]
        valid = ~np.isnan(gold_rows)
        n = valid.sum(axis=1)
        key = np.where(valid, gold_rows, np.inf)
        order = np.argsort(key, axis=1, kind="stable")
        pos = [order[g, : n[g]] for g in range(len(n))]  # each group's valid cells by gold
        self.gi = np.repeat(np.arange(len(n)), n)
        self.ci = np.concatenate(pos) if len(pos) else np.zeros(0, np.int64)
        self.goff = np.r_[0, np.cumsum(n)].astype(np.int64)
        self.cells = cells[self.gi, self.ci].astype(np.int64)
        gs = gold_rows[self.gi, self.ci]
        first = np.zeros(len(gs), dtype=bool)
        first[self.goff[:-1][n > 0]] = True
        self.newblock = first | np.r_[True, gs[1:] != gs[:-1]]
        block = np.cumsum(self.newblock) - 1
        size = np.bincount(block).astype(np.int64)
        bgroup = self.gi[self.newblock]
        self.n2 = np.bincount(bgroup, size * (size - 1) // 2, minlength=len(n)).astype(np.int64)
        self.gdist = np.bincount(bgroup, minlength=len(n)).astype(np.int64)
        ranks = scipy.stats.rankdata(key, axis=1)
        qc = ranks - (n[:, None] + 1) / 2.0
        self.q = qc[self.gi, self.ci]
        self.syy = np.bincount(self.gi, self.q * self.q, minlength=len(n))
        self.standardised_rows = {
            m: group_rows(gold, z, grouping)[1][self.gi, self.ci] for m, z in standardised.items()
        }
        self._ranks: dict = {}

    def _raw(self, pairs) -> dict:
        """The linear numerators' terms of ``pairs`` not prepared yet, from one call (a long
        group sorts each metric once for all of them)."""
        todo = [p for p in dict.fromkeys(pairs) if p not in self._ranks]
        if not todo:
            return {}
        const, lin = _perm_linear.linear_terms(
            self.gold, self.standardised, todo, self.correlation, self.grouping, 0.0, 25.0, raw=True
        )
        return {p: (const[k], lin[k][self.gi, self.ci]) for k, p in enumerate(todo)}

    def _pair_ranks(self, a, b, raw=None):
        """Both metrics' scores as dense ranks within each group (ties share a rank);
        ``raw``: the pair's entry of :meth:`_raw`, if prepared."""
        if (a, b) in self._ranks:
            return self._ranks[a, b]
        vals = np.concatenate([self.standardised_rows[a], self.standardised_rows[b]])
        grp = np.concatenate([self.gi, self.gi])
        o = np.lexsort((vals, grp))
        vs, gs = vals[o], grp[o]
        new = np.r_[True, (vs[1:] != vs[:-1]) | (gs[1:] != gs[:-1])]
        dense = np.cumsum(new) - 1
        start = np.r_[True, gs[1:] != gs[:-1]]
        base = np.repeat(dense[start], np.diff(np.r_[np.flatnonzero(start), len(gs)]))
        rank = np.empty(len(vals), dtype=np.int64)
        rank[o] = dense - base
        groups = len(self.goff) - 1
        nv = np.zeros(groups, dtype=np.int64)
        np.maximum.at(nv, grp, rank + 1)
        m = len(self.gi)
        ra, rb = rank[:m], rank[m:]
        # symmetric ties: a's scores tie on the same cells as b's, and no score of a is one of
        # b's, so b~ ties exactly where a~ does (a~ and b~ exchange every cell's two scores)
        big = int(nv.max(initial=1))
        key_a, key_b = self.gi * big + ra, self.gi * big + rb
        sym = (
            len(np.unique(key_a)) == len(np.unique(key_b)) == len(np.unique(key_a * big + rb))
            and not np.isin(key_a, key_b).any()
        )
        const, lin = self._raw([(a, b)])[a, b] if raw is None else raw
        got = (ra, rb, nv, const, lin, sym)
        if len(self._ranks) * 4 * m < _RANK_CELLS:
            self._ranks[a, b] = got
        return got

    def differences(self, swaps: np.ndarray, idx) -> np.ndarray:
        """Permuted differences (resamples x pairs ``idx``) for the swaps ``swaps``."""
        R = swaps.shape[0]
        flat_swaps = np.ascontiguousarray(swaps.reshape(R, -1)).view(np.uint8)
        out = np.empty((R, len(idx)))
        kernel = compiled()
        groups = len(self.goff) - 1
        width = max(1, _RANK_CELLS // max(1, 4 * len(self.gi), 2 * R * groups))
        for p0 in range(0, len(idx), width):  # a few pairs' ranks at a time bound the memory
            chunk = idx[p0 : p0 + width]
            todo = [tuple(self.pairs[k]) for k in chunk]
            raw = self._raw(todo)
            got = [self._pair_ranks(a, b, raw.get((a, b))) for a, b in todo]
            ra = np.stack([g[0] for g in got])
            rb = np.stack([g[1] for g in got])
            nv = np.stack([g[2] for g in got])
            lin = (np.stack([g[3] for g in got]), np.stack([g[4] for g in got]))
            sym = np.array([g[5] for g in got])
            fast = sym & (self.mode == 0) & (groups == 1) & SYMMETRIC_PRODUCTS
            if fast.any():  # tau-b over one group, symmetric ties: products and counts
                at = p0 + np.flatnonzero(fast)
                out[:, at] = self._symmetric(flat_swaps, ra[fast], lin[0][fast, 0], lin[1][fast])
                if fast.all():
                    continue
                ra, rb, nv, sym = ra[~fast], rb[~fast], nv[~fast], sym[~fast]
                lin = (lin[0][~fast], lin[1][~fast])
                chunk = chunk[~fast]
            vals = np.empty((len(chunk), 2, R, groups))
            gold = (self.q, self.syy, self.n2, self.gdist, self.mode)
            kernel(
                flat_swaps, self.cells, self.goff, self.newblock, ra, rb, nv, *lin, sym, *gold, vals
            )
            # the mean over defined groups exactly as the general path takes it
            ok = ~np.isnan(vals)
            with np.errstate(invalid="ignore", divide="ignore"):
                mean = np.where(
                    ok.any(axis=3), np.where(ok, vals, 0.0).sum(axis=3) / ok.sum(axis=3), np.nan
                )
            rest: np.ndarray | slice = (
                p0 + np.flatnonzero(~fast) if fast.any() else slice(p0, p0 + len(chunk))
            )
            out[:, rest] = (mean[:, 0] - mean[:, 1]).T
        return out

    def _symmetric(self, flat_swaps, ra, dc, dl) -> np.ndarray:
        r"""Tau-b differences (resamples x pairs) of pairs whose ties are symmetric, over one
        group: what the kernel's symmetric route computes, as array work.

        The numerators' difference is :math:`d_c + w \cdot d_l` (a product of the swaps with sums of
        signs: integers, exact in floating point, as the kernel's running sum). Cells tied in
        :math:`\tilde a` are the cells of one tie class of :math:`a` (the same in :math:`b`)
        that were swapped alike, so :math:`n_1 = \sum_c \binom{m_c}{2} +
        \binom{s_c - m_c}{2}` with :math:`m_c` the swapped cells of class :math:`c` of size
        :math:`s_c`: one sum of the swaps per class, shared by the pairs whose metrics tie on
        the same classes."""
        R, n = flat_swaps.shape[0], len(self.cells)
        tot = n * (n - 1) // 2
        n2 = int(self.n2[0])
        out = np.full((R, len(ra)), np.nan)
        if n < 2 or n2 == tot:
            return out
        swaps = flat_swaps[:, self.cells]
        ds = np.empty((R, len(ra)))
        for r0 in range(0, R, 256):  # the product a few resamples at a time bounds the memory
            w = swaps[r0 : r0 + 256].astype(float)
            ds[r0 : r0 + 256] = dc[None, :] + w @ dl.T
        n1 = np.empty((R, len(ra)), dtype=np.int64)
        classes: dict = {}
        for k in range(len(ra)):
            _, first, inv = np.unique(ra[k], return_index=True, return_inverse=True)
            label = first[inv]  # the class as its first cell: the same for the same classes
            key = label.tobytes()
            if key not in classes:
                o = np.argsort(label, kind="stable")
                start = np.flatnonzero(np.r_[True, label[o][1:] != label[o][:-1]])
                size = np.diff(np.r_[start, n])
                m = np.add.reduceat(swaps[:, o].astype(np.int64), start, axis=1)
                classes[key] = (m * (m - 1) // 2 + (size - m) * (size - m - 1) // 2).sum(axis=1)
            n1[:, k] = classes[key]
        ok = n1 != tot
        with np.errstate(invalid="ignore", divide="ignore"):
            val = ds / np.sqrt((tot - n1) * (tot - n2))
        out[ok] = val[ok]
        return out
