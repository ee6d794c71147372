r"""PERM-BOTH for pair-counting correlations as one matrix product over resamples and pairs.

Kendall's :math:`\tau_b` and :math:`\tau_c`, acc23 at a fixed epsilon and WMT20's Kendall-like
tau are sums over the pairs of cells :math:`(s, t)` of a group of a term that depends only on
the two cells' scores, divided by a normaliser. Under PERM-BOTH cell :math:`k` of
:math:`\tilde a` holds :math:`b_k` when swapped (:math:`w_k = 1`) and :math:`a_k` otherwise,
and :math:`\tilde b` the other one, so a pair's term :math:`F(w_s, w_t)` of the difference
:math:`c(\tilde a) - c(\tilde b)` takes four values with
:math:`F(1, 1) = -F(0, 0)` and :math:`F(0, 1) = -F(1, 0)` (swapping both cells exchanges the
two permuted metrics). The interaction term :math:`F(1,1) - F(1,0) - F(0,1) + F(0,0)` is
therefore zero and, when the normalisers do not depend on the swaps,

.. math::

    c(\tilde a) - c(\tilde b) = \sum_{s<t} F(0, 0)
        + \sum_k w_k \, \ell_k, \qquad
    \ell_k = \sum_{t>k} \bigl(F_{kt}(1,0) - F_{kt}(0,0)\bigr)
           + \sum_{s<k} \bigl(-F_{sk}(1,0) - F_{sk}(0,0)\bigr):

a constant plus a linear function of the swaps, for every resample and pair of metrics at once
one product ``swaps @ coefficients`` (resamples x cells) @ (cells x pairs).

The normalisers are fixed for acc23 (pairs with a gold score), Kendall-like (pairs with
:math:`|\Delta g| \ge` threshold) and, when no pair of cells is tied in any of the four
combinations of the two metrics' scores, for :math:`\tau_b` (:math:`\sqrt{n_0 (n_0 - n_2)}`)
and :math:`\tau_c` (:math:`n^2 (m - 1) / m`, :math:`m` the distinct gold scores); a pair of
metrics with such a tie takes :mod:`stats.metaeval.perm_both._ties` (each permuted metric evaluated exactly,
compiled).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import scipy.stats

from stats.metaeval.meta_eval import group_rows
from stats.metaeval.perm_both import _long as _perm_long
from stats.metaeval.perm_both import _tau_sums

if TYPE_CHECKING:
    from .engine import CorrelationSpec

#: correlations this path handles
LINEAR = ("kendall", "kendall-c", "spearman", "acc23", "kendall-like")
#: pair-of-cells terms held at once (groups x cells x cells per matrix)
_BLOCK = 2_000_000
#: groups longer than this are not held as pair matrices (they grow as cells^2): tau and
#: Spearman take the sorting path, acc23 and Kendall-like the compiled one (stats.metaeval.perm_both._long)
MAX_GROUP_CELLS = 2_000
#: tau and Spearman take the sorting path (:class:`_LongGroup`: :math:`O(n \log^2 n)` per pair
#: of metrics for tau, :math:`O(n \log n)` for Spearman) already above this many cells of a
#: group, where it is the faster one (measured per pair); the pair matrices cost
#: :math:`O(n^2)`, paid again on every simulated data set of :func:`stats.perm_both_power`
#: (benchmarks/perm_both.py ``--cases spearman-power``). The terms are the same: exact sums
#: of signs with metric ties (``raw``), equal within rounding (1e-16) without
SORT_GROUP_CELLS = {"kendall": 256, "kendall-c": 256, "spearman": 128}


def applies(gold: np.ndarray, spec: CorrelationSpec) -> bool:
    """Whether the linear path can serve this test (it may still refuse single pairs)."""
    if spec.correlation not in LINEAR or spec.tie_calibration:
        return False
    if (
        spec.correlation in SORTED
        or group_rows(gold, gold, spec.grouping)[0].shape[1] <= MAX_GROUP_CELLS
    ):
        return True
    return _perm_long.applies(gold, spec)


#: correlations whose long groups take the sorting path (:func:`_sign_sums`)
SORTED = ("kendall", "kendall-c", "spearman")
#: correlations whose normaliser is fixed only without metric ties (checked per pair)
_TIE_FREE = SORTED


def long_cells(correlation: str) -> int:
    """Cells of a group above which its terms are not built as pair matrices."""
    if correlation in SORT_GROUP_CELLS:
        return min(MAX_GROUP_CELLS, SORT_GROUP_CELLS[correlation])
    return MAX_GROUP_CELLS


def _level_keys(ru: np.ndarray, big: int) -> list[np.ndarray]:
    """The merge-sort tree of ``ru`` (positions in gold order): per level, the values sorted
    within aligned blocks of ``2**level`` positions (block id times ``big`` plus the rank)."""
    pos = np.arange(len(ru), dtype=np.int64)
    return [np.sort((pos >> lev) * big + ru) for lev in range(max(1, len(ru).bit_length()))]


def _prefix_sign_sums(keys: list, p: np.ndarray, rv: np.ndarray, big: int) -> np.ndarray:
    r"""For each query :math:`k`: :math:`\sum_{t < p_k} \operatorname{sign}(rv_k - ru_t)`.

    A prefix :math:`[0, p)` is the union of one aligned block of :math:`2^\ell` positions
    per set bit :math:`\ell` of :math:`p`; within a block of the merge-sort tree
    (:func:`_level_keys`) two binary searches count the values below and above.
    :math:`O(n \log^2 n)` for all queries.
    """
    out = np.zeros(len(p), dtype=np.int64)
    for lev, k in enumerate(keys):
        (has,) = np.nonzero(((p >> lev) & 1) == 1)
        if not len(has):
            continue
        start = (p[has] >> (lev + 1)) << (lev + 1)  # the block's first position
        q = (start >> lev) * big + rv[has]
        o = np.argsort(q, kind="stable")  # sorted needles: binary searches 10x faster
        qs, st = q[o], start[o]
        lt = np.searchsorted(k, qs, "left") - st
        le = np.searchsorted(k, qs, "right") - st
        out[has[o]] += lt - ((1 << lev) - le)
    return out


class _LongGroup:
    r"""One long group for Kendall tau-b / tau-c by sorting: cells in gold order, every
    metric's scores as ranks in one shared order, merge-sort trees built once per metric.

    :math:`K_k(v, u) = \sum_t \operatorname{sign}(g_k - g_t)\,\operatorname{sign}(v_k - u_t)`
    for every cell :math:`k`: the cells below :math:`g_k` are the prefix
    :math:`[0, p^{lo}_k)`, those above the suffix from :math:`p^{hi}_k`, so
    :math:`K_k = Q(p^{lo}_k) + Q(p^{hi}_k) - Q(n)` with :math:`Q` the prefix sign sums.
    """

    def __init__(self, g: np.ndarray, scores: dict, correlation: str):
        self.valid = ~np.isnan(g)
        gv = g[self.valid]
        self.n = n = len(gv)
        names = list(scores)
        vals = np.concatenate([scores[m][self.valid] for m in names])
        uniq, rank = np.unique(vals, return_inverse=True)
        self.big = len(uniq) + 1
        self.rank = {m: rank[i * n : (i + 1) * n] for i, m in enumerate(names)}
        self.order = np.argsort(gv, kind="stable")
        gs = gv[self.order]
        self.p_lo = np.searchsorted(gs, gv, "left").astype(np.int64)
        self.p_hi = np.searchsorted(gs, gv, "right").astype(np.int64)
        self.p_both = np.concatenate([self.p_lo, self.p_hi])
        self.order = self.order.astype(np.int64)
        self.newblock = np.r_[True, gs[1:] != gs[:-1]] if n else np.zeros(0, dtype=bool)
        _, g_counts = np.unique(gv, return_counts=True)
        tot = n * (n - 1) // 2
        g_ties = int((g_counts * (g_counts - 1) // 2).sum())
        self.den = np.nan
        self.qc = None
        if correlation == "spearman":  # centred average ranks of gold; metric ranks 1..n
            self.qc = scipy.stats.rankdata(gv) - (n + 1) / 2.0
            sqq = float((self.qc**2).sum())
            if n >= 2 and sqq > 0:
                self.den = np.sqrt(n * (n * n - 1) / 12.0 * sqq)
        elif n >= 2 and g_ties < tot:
            if correlation == "kendall":
                self.den = np.sqrt(float(tot) * float(tot - g_ties))
            else:
                mc = float(min(len(g_counts), n))
                self.den = n * n * (mc - 1) / mc / 2.0
        self._keys: dict = {}
        self._pos: dict = {}  # per metric: its cells sorted by score (_tau_sums.sorted_scores)
        self._sorted: dict = {}
        self._self: dict = {}

    def k_sums(self, v: str, u: str) -> np.ndarray:
        r"""Per cell :math:`k`: :math:`\sum_t h(k, t)\,\operatorname{sign}(v_k - u_t)`, with
        :math:`h = \operatorname{sign}(g_k - g_t)` (Kendall) or
        :math:`(q_k - q_t) / 2` (Spearman, :math:`q` the centred gold ranks: a rank is a count
        of smaller scores, so the rank products are this pair sum plus a constant)."""
        if self.qc is not None:
            return self._spearman_sums(v, u)
        if _tau_sums.compiled() is not None:  # one compiled sweep (the same integers)
            for m in (u, v):
                if m not in self._pos:
                    self._pos[m] = _tau_sums.sorted_scores(self.rank[m])
            return _tau_sums.sign_sums(self.order, self.newblock, self._pos[u], self._pos[v])
        if u not in self._keys:
            ru = self.rank[u][self.order]
            self._keys[u] = _level_keys(ru, self.big)
            self._sorted[u] = np.sort(ru)
        keys, srt, rv = self._keys[u], self._sorted[u], self.rank[v]
        q_n = np.searchsorted(srt, rv, "left") - (self.n - np.searchsorted(srt, rv, "right"))
        both = _prefix_sign_sums(keys, self.p_both, np.concatenate([rv, rv]), self.big)
        return both[: self.n] + both[self.n :] - q_n

    def _spearman_sums(self, v: str, u: str) -> np.ndarray:
        # sum_t q_t sign(v_k - u_t) by one sort of u and cumulative sums of q in its order
        if u not in self._sorted:
            o = np.argsort(self.rank[u], kind="stable")
            self._sorted[u] = (self.rank[u][o], np.r_[0.0, np.cumsum(self.qc[o])])
        srt, cs = self._sorted[u]
        rv = self.rank[v]
        lt = np.searchsorted(srt, rv, "left")
        le = np.searchsorted(srt, rv, "right")
        signs = lt - (self.n - le)
        weighted = 2.0 * cs[lt] + (cs[le] - cs[lt])  # the sum of q is 0
        return 0.5 * (self.qc * signs - weighted)

    def self_sums(self, m: str) -> np.ndarray:
        if m not in self._self:
            self._self[m] = self.k_sums(m, m)
        return self._self[m]

    def tied(self, a: str, b: str) -> bool:
        """A pair of distinct cells tied in some combination of ``a``'s and ``b``'s scores."""
        vals = np.concatenate([self.rank[a], self.rank[b]])
        ids = np.concatenate([np.arange(self.n), np.arange(self.n)])
        o = np.argsort(vals, kind="stable")
        same = vals[o][1:] == vals[o][:-1]
        return bool((same & (ids[o][1:] != ids[o][:-1])).any() or (same[1:] & same[:-1]).any())

    def terms(self, a: str, b: str):
        """``(const, lin)`` of the pair, or None when a metric tie would move the normaliser."""
        lin = np.zeros(len(self.valid))
        if np.isnan(self.den):
            return 0.0, lin
        if self.tied(a, b):
            return None
        k_aa, k_bb = self.self_sums(a), self.self_sums(b)
        lin[self.valid] = (self.k_sums(b, a) - self.k_sums(a, b) - k_aa + k_bb) / self.den
        return 0.5 * float((k_aa - k_bb).sum()) / self.den, lin


def _cells_layout(lin: np.ndarray, shape: tuple, grouping: str) -> np.ndarray:
    """Grouped (groups x c) coefficients back to the (systems x items) cell layout, flat."""
    if grouping == "none":
        return lin.reshape(-1)
    if grouping == "system":
        return lin.reshape(shape).reshape(-1)
    return lin.T.reshape(-1)


def linear_terms(
    gold, standardised, pairs, correlation, grouping, eps, threshold, *, pooled=False, raw=False
):
    """``(const, coefficients, ok)``: per pair the constant, the cell coefficients (cells x pairs, in
    ``gold``'s row-major cell order) and whether the pair qualifies for this path.

    ``pooled`` (acc23 only): one accuracy over the pairs of all groups (MTME's pairwise
    accuracy across language pairs) instead of the mean of the groups' accuracies.

    ``raw`` (tau and Spearman only): the numerators' difference unnormalised, metric ties
    allowed, group by group: ``(const, lin)`` of shapes (pairs x groups) and (pairs x groups
    x cells of a group), sums of sign products (exact in floating point) for every group with
    two gold scores (:mod:`stats.metaeval.perm_both._ties`)."""
    gold_rows, _ = group_rows(gold, gold, grouping)
    groups, c = gold_rows.shape
    valid = ~np.isnan(gold_rows)
    n = valid.sum(axis=1)
    tot = n * (n - 1) // 2
    long = c > long_cells(correlation)
    upper = None if long else np.triu(np.ones((c, c), dtype=bool), 1)
    standardised_rows = {
        m: np.where(valid, group_rows(gold, z, grouping)[1], 0.0) for m, z in standardised.items()
    }
    const = np.zeros(len(pairs))
    coefficients = np.zeros((gold.size, len(pairs)))
    ok = np.ones(len(pairs), dtype=bool)
    step = max(1, _BLOCK // max(1, c * c))

    # per-group weight of a pair's term, fixed by gold alone (0 for a group left out)
    g_sorted = np.sort(np.where(valid, gold_rows, np.inf), axis=1)
    with np.errstate(invalid="ignore"):
        steps = (np.diff(g_sorted, axis=1) != 0) & np.isfinite(g_sorted[:, 1:])
    n_distinct = np.where(n > 0, 1 + steps.sum(1), 0)
    g_tie_pairs = np.zeros(groups)
    counted = np.zeros(groups)
    for g0 in range(0, groups, step):
        gs = slice(g0, min(groups, g0 + step))
        if long:  # gold ties from counts of equal scores
            for gi in range(gs.start, gs.stop):
                _, cnt = np.unique(gold_rows[gi][valid[gi]], return_counts=True)
                g_tie_pairs[gi] = (cnt * (cnt - 1) // 2).sum()
                if correlation == "kendall-like":
                    counted[gi] = _perm_long.counted_pairs(gold_rows[gi][valid[gi]], threshold)
            continue
        dg = gold_rows[gs, :, None] - gold_rows[gs, None, :]
        vp = valid[gs, :, None] & valid[gs, None, :] & upper
        g_tie_pairs[gs] = (vp & (dg == 0)).sum(axis=(1, 2))
        counted[gs] = (vp & (np.abs(dg) >= threshold)).sum(axis=(1, 2))
    qc = None
    if correlation == "spearman":
        ranks = scipy.stats.rankdata(np.where(valid, gold_rows, np.inf), axis=1)
        qc = np.where(valid, ranks - (n[:, None] + 1) / 2.0, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        if correlation == "spearman":
            sqq = (qc**2).sum(axis=1)
            den = np.sqrt(n * (n.astype(float) ** 2 - 1) / 12.0 * sqq)
            use = (n >= 2) & (sqq > 0)
        elif correlation == "kendall":
            den = np.sqrt(tot * (tot - g_tie_pairs))
            use = (n >= 2) & (g_tie_pairs < tot)
        elif correlation == "kendall-c":
            mc = np.minimum(n_distinct, n).astype(float)
            den = n.astype(float) ** 2 * (mc - 1) / mc / 2.0
            use = (n >= 2) & (g_tie_pairs < tot)
        elif correlation == "acc23":
            den = tot.astype(float)
            use = n >= 2
        else:  # kendall-like: pooled over groups, (con - dis) / counted pairs
            den = np.full(groups, float(counted[n >= 2].sum()))
            use = n >= 2
    if raw:
        return _raw_terms(
            gold_rows, standardised_rows, pairs, correlation, grouping, n >= 2, qc, upper, step
        )
    n_use = int(use.sum())
    if n_use == 0 or (correlation == "kendall-like" and den[0] == 0):
        ok[:] = False
        return const, coefficients, ok
    weight = np.where(use, 1.0 / np.where(use, den, 1.0), 0.0)
    if pooled and correlation == "acc23":
        weight = np.where(use, 1.0 / max(1, int(tot[use].sum())), 0.0)
    elif correlation != "kendall-like":
        weight = weight / n_use  # the mean over groups

    if long and correlation in _perm_long.LONG:  # few long groups: compiled, pair by pair
        for k, (a, b) in enumerate(pairs):
            lin = np.zeros((groups, c))
            for gi in np.flatnonzero(use):
                v = valid[gi]
                c0, lin0 = _perm_long.pair_terms(
                    gold_rows[gi][v],
                    standardised_rows[a][gi][v],
                    standardised_rows[b][gi][v],
                    correlation,
                    eps,
                    threshold,
                )
                const[k] += c0 * weight[gi]
                lin[gi, v] = lin0 * weight[gi]
            coefficients[:, k] = _cells_layout(lin, gold.shape, grouping)
        return const, coefficients, ok
    if long:  # long groups by sorting, one group's sorted metrics held at a time
        used_metrics = sorted({m for pair in pairs for m in pair})
        # the row of coefficients (a cell of gold) of each group's columns
        at = np.argsort(
            _cells_layout(np.arange(groups * c).reshape(groups, c), gold.shape, grouping)
        )
        for gi in np.flatnonzero(use):
            ctx = _LongGroup(
                gold_rows[gi], {m: standardised_rows[m][gi] for m in used_metrics}, correlation
            )
            rows = at[gi * c : (gi + 1) * c]
            for k in np.flatnonzero(ok):
                got = ctx.terms(*pairs[k])
                if got is None:
                    ok[k] = False
                    coefficients[:, k] = 0.0
                    continue
                const[k] += got[0] / n_use
                coefficients[rows, k] = got[1] / n_use
        return const, coefficients, ok
    for k, (a, b) in enumerate(pairs):
        za, zb = standardised_rows[a], standardised_rows[b]
        lin = np.zeros((groups, c))
        for g0 in range(0, groups, step):
            gs = slice(g0, min(groups, g0 + step))
            dg = gold_rows[gs, :, None] - gold_rows[gs, None, :]
            vp = valid[gs, :, None] & valid[gs, None, :] & upper & use[gs, None, None]
            x = {u: (za, zb)[u][gs] for u in (0, 1)}
            dm = {(u, v): x[u][:, :, None] - x[v][:, None, :] for u in (0, 1) for v in (0, 1)}
            if correlation in _TIE_FREE and any((vp & (d == 0)).any() for d in dm.values()):
                ok[k] = False
                break
            sg = np.sign(dg)
            if correlation == "spearman":
                sg = 0.5 * (qc[gs, :, None] - qc[gs, None, :])
            if correlation in _TIE_FREE:
                f = {uv: np.sign(d) * sg for uv, d in dm.items()}
            elif correlation == "acc23":
                g_tie = dg == 0
                f = {}
                for uv, d in dm.items():
                    m_tie = np.abs(d) <= eps
                    con = ~g_tie & ~m_tie & ((dg > 0) == (d > 0))
                    f[uv] = (con | (g_tie & m_tie)).astype(float)
            else:
                cnt = np.abs(dg) >= threshold
                f = {}
                for uv, d in dm.items():
                    agree = ((dg > 0) & (d > 0)) | ((dg < 0) & (d < 0))
                    f[uv] = np.where(cnt, np.where(agree, 1.0, -1.0), 0.0)
            w = np.where(vp, weight[gs, None, None], 0.0)
            h00 = np.where(vp, (f[0, 0] - f[1, 1]) * w, 0.0)  # NaN gold times 0 stays NaN
            h10 = np.where(vp, (f[1, 0] - f[0, 1]) * w, 0.0)
            const[k] += h00.sum()
            lin[gs] += (h10 - h00).sum(axis=2) + (-h10 - h00).sum(axis=1)
        if ok[k]:
            coefficients[:, k] = _cells_layout(lin, gold.shape, grouping)
    return const, coefficients, ok


def _raw_terms(gold_rows, standardised_rows, pairs, correlation, grouping, use, qc, upper, step):
    """:func:`linear_terms` with ``raw=True``."""
    groups, c = gold_rows.shape
    valid = ~np.isnan(gold_rows)
    const = np.zeros((len(pairs), groups))
    lin = np.zeros((len(pairs), groups, c))
    if upper is None:  # long groups: by sorting, group by group
        used_metrics = sorted({m for pair in pairs for m in pair})
        for gi in np.flatnonzero(use):
            ctx = _LongGroup(
                gold_rows[gi], {m: standardised_rows[m][gi] for m in used_metrics}, correlation
            )
            for k, (a, b) in enumerate(pairs):
                k_aa, k_bb = ctx.self_sums(a), ctx.self_sums(b)
                lin[k, gi, ctx.valid] = ctx.k_sums(b, a) - ctx.k_sums(a, b) - k_aa + k_bb
                const[k, gi] = 0.5 * float((k_aa - k_bb).sum())
        return const, lin
    for k, (a, b) in enumerate(pairs):
        za, zb = standardised_rows[a], standardised_rows[b]
        for g0 in range(0, groups, step):
            gs = slice(g0, min(groups, g0 + step))
            dg = gold_rows[gs, :, None] - gold_rows[gs, None, :]
            vp = valid[gs, :, None] & valid[gs, None, :] & upper & use[gs, None, None]
            x = {u: (za, zb)[u][gs] for u in (0, 1)}
            sg = np.sign(dg)
            if correlation == "spearman":
                sg = 0.5 * (qc[gs, :, None] - qc[gs, None, :])
            f = {
                (u, v): np.sign(x[u][:, :, None] - x[v][:, None, :]) * sg
                for u in (0, 1)
                for v in (0, 1)
            }
            h00 = np.where(vp, f[0, 0] - f[1, 1], 0.0)
            h10 = np.where(vp, f[1, 0] - f[0, 1], 0.0)
            const[k, gs] = h00.sum(axis=(1, 2))
            lin[k, gs] = (h10 - h00).sum(axis=2) + (-h10 - h00).sum(axis=1)
    return const, lin


def linear_differences(
    swaps: np.ndarray, const: np.ndarray, coefficients: np.ndarray
) -> np.ndarray:
    """Permuted differences (resamples x pairs) for the swaps ``swaps`` (R x systems x items)."""
    R = swaps.shape[0]
    return const[None, :] + swaps.reshape(R, -1).astype(float) @ coefficients
