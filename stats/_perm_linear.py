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
one product ``W @ L`` (resamples x cells) @ (cells x pairs).

The normalisers are fixed for acc23 (pairs with a gold score), Kendall-like (pairs with
:math:`|\Delta g| \ge` threshold) and, when no pair of cells is tied in any of the four
combinations of the two metrics' scores, for :math:`\tau_b` (:math:`\sqrt{n_0 (n_0 - n_2)}`)
and :math:`\tau_c` (:math:`n^2 (m - 1) / m`, :math:`m` the distinct gold scores); a pair of
metrics with such a tie takes the general path.
"""

from __future__ import annotations

import numpy as np

from .meta_eval import _group

#: correlations this path handles
LINEAR = ("kendall", "kendall-c", "acc23", "kendall-like")
#: pair-of-cells terms held at once (groups x cells x cells per matrix)
_BLOCK = 2_000_000
#: groups longer than this are left to the general path (the pair matrices grow as cells^2)
MAX_GROUP_CELLS = 2_000


def applies(G: np.ndarray, correlation: str, grouping: str, tie_calibration: bool) -> bool:
    """Whether the linear path can serve this test (it may still refuse single pairs)."""
    if correlation not in LINEAR or tie_calibration:
        return False
    return _group(G, G, grouping)[0].shape[1] <= MAX_GROUP_CELLS


def _cells_layout(lin: np.ndarray, shape: tuple, grouping: str) -> np.ndarray:
    """Grouped (groups x c) coefficients back to the (systems x items) cell layout, flat."""
    if grouping == "none":
        return lin.reshape(-1)
    if grouping == "system":
        return lin.reshape(shape).reshape(-1)
    return lin.T.reshape(-1)


def linear_terms(G, Z, pairs, correlation, grouping, eps, threshold):
    """``(const, L, ok)``: per pair the constant, the cell coefficients (cells x pairs, in
    ``G``'s row-major cell order) and whether the pair qualifies for this path."""
    Gg, _ = _group(G, G, grouping)
    groups, c = Gg.shape
    valid = ~np.isnan(Gg)
    n = valid.sum(axis=1)
    tot = n * (n - 1) // 2
    upper = np.triu(np.ones((c, c), dtype=bool), 1)
    Zg = {m: np.where(valid, _group(G, z, grouping)[1], 0.0) for m, z in Z.items()}
    const = np.zeros(len(pairs))
    L = np.zeros((G.size, len(pairs)))
    ok = np.ones(len(pairs), dtype=bool)
    step = max(1, _BLOCK // max(1, c * c))

    # per-group weight of a pair's term, fixed by gold alone (0 for a group left out)
    g_sorted = np.sort(np.where(valid, Gg, np.inf), axis=1)
    n_distinct = np.where(
        n > 0, 1 + ((np.diff(g_sorted, axis=1) != 0) & np.isfinite(g_sorted[:, 1:])).sum(1), 0
    )
    g_tie_pairs = np.zeros(groups)
    counted = np.zeros(groups)
    for g0 in range(0, groups, step):
        gs = slice(g0, min(groups, g0 + step))
        dg = Gg[gs, :, None] - Gg[gs, None, :]
        vp = valid[gs, :, None] & valid[gs, None, :] & upper
        g_tie_pairs[gs] = (vp & (dg == 0)).sum(axis=(1, 2))
        counted[gs] = (vp & (np.abs(dg) >= threshold)).sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        if correlation == "kendall":
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
    n_use = int(use.sum())
    if n_use == 0 or (correlation == "kendall-like" and den[0] == 0):
        ok[:] = False
        return const, L, ok
    weight = np.where(use, 1.0 / np.where(use, den, 1.0), 0.0)
    if correlation != "kendall-like":
        weight = weight / n_use  # the mean over groups

    for k, (a, b) in enumerate(pairs):
        za, zb = Zg[a], Zg[b]
        lin = np.zeros((groups, c))
        for g0 in range(0, groups, step):
            gs = slice(g0, min(groups, g0 + step))
            dg = Gg[gs, :, None] - Gg[gs, None, :]
            vp = valid[gs, :, None] & valid[gs, None, :] & upper & use[gs, None, None]
            x = {u: (za, zb)[u][gs] for u in (0, 1)}
            dm = {(u, v): x[u][:, :, None] - x[v][:, None, :] for u in (0, 1) for v in (0, 1)}
            if correlation in ("kendall", "kendall-c") and any(
                (vp & (d == 0)).any() for d in dm.values()
            ):
                ok[k] = False
                break
            sg = np.sign(dg)
            if correlation in ("kendall", "kendall-c"):
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
            L[:, k] = _cells_layout(lin, G.shape, grouping)
    return const, L, ok


def linear_differences(W: np.ndarray, const: np.ndarray, L: np.ndarray) -> np.ndarray:
    """Permuted differences (resamples x pairs) for the swaps ``W`` (R x systems x items)."""
    R = W.shape[0]
    return const[None, :] + W.reshape(R, -1).astype(float) @ L
