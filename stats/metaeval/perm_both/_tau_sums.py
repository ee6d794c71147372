r"""Kendall's per-cell sign sums of one long group in one compiled sweep (numba).

For every cell :math:`k` of a group with gold :math:`g` and two score vectors :math:`v, u`:

.. math::

    K_k(v, u) = \sum_t \operatorname{sign}(g_k - g_t)\,\operatorname{sign}(v_k - u_t)
              = A_k + C_k - S_k,

with :math:`A_k` the sum over the cells :math:`t` of lower gold, :math:`C_k` over those of
lower or equal gold and :math:`S_k` over all cells of :math:`\operatorname{sign}(v_k - u_t)`
(the cells of higher gold enter :math:`K` with the opposite sign). One sweep in gold order
inserts each gold block's :math:`u` into a Fenwick tree over :math:`u`'s sorted positions,
querying the block's cells before (:math:`A`) and after (:math:`C`) it:
:math:`O(n \log n)` per pair of score vectors, integers throughout, so the sums equal those
of the merge-sort tree of :class:`stats.metaeval.perm_both._linear._LongGroup` (its array
fallback) exactly.
"""

from __future__ import annotations

import numpy as np

from stats._core.jit import njit_one


def _sums(order, newblock, pos_u, sorted_u, order_v, sorted_v, out):  # pragma: no cover
    """``out[k]`` = :math:`K_k`; ``order`` the cells by gold (stable), ``newblock[i]`` whether
    sorted position ``i`` starts a gold block, ``pos_u[t]`` cell ``t``'s position in ``u``
    sorted (``sorted_u``), ``order_v`` the cells by ``v`` and ``sorted_v`` ``v`` sorted."""
    n = len(order)
    lt = np.empty(n, np.int64)  # per cell k: the u values below v_k, and at most v_k
    le = np.empty(n, np.int64)
    below = 0
    at_most = 0
    for i in range(n):  # a merge of the two sorted vectors
        x = sorted_v[i]
        while below < n and sorted_u[below] < x:
            below += 1
        if at_most < below:
            at_most = below
        while at_most < n and sorted_u[at_most] <= x:
            at_most += 1
        lt[order_v[i]] = below
        le[order_v[i]] = at_most
    fen = np.zeros(n + 1, np.int64)
    inserted = 0
    i = 0
    while i < n:
        j = i + 1
        while j < n and not newblock[j]:
            j += 1
        for t in range(i, j):  # cells of lower gold: A_k - S_k
            k = order[t]
            below = 0
            pos = lt[k]
            while pos > 0:
                below += fen[pos]
                pos -= pos & -pos
            at_most = 0
            pos = le[k]
            while pos > 0:
                at_most += fen[pos]
                pos -= pos & -pos
            out[k] = below - (inserted - at_most) - (lt[k] - (n - le[k]))
        for t in range(i, j):
            pos = pos_u[order[t]] + 1
            while pos <= n:
                fen[pos] += 1
                pos += pos & -pos
        inserted += j - i
        for t in range(i, j):  # cells of lower or equal gold: C_k
            k = order[t]
            below = 0
            pos = lt[k]
            while pos > 0:
                below += fen[pos]
                pos -= pos & -pos
            at_most = 0
            pos = le[k]
            while pos > 0:
                at_most += fen[pos]
                pos -= pos & -pos
            out[k] += below - (inserted - at_most)
        i = j


def compiled():
    """The compiled kernel, or None without numba."""
    return njit_one(_sums)


def sorted_scores(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(order, position, sorted)`` of a score vector: the cells by score (stable), each
    cell's position in that order, the scores sorted (int64 ranks or floats)."""
    order = np.argsort(x, kind="stable").astype(np.int64)
    pos = np.empty(len(x), dtype=np.int64)
    pos[order] = np.arange(len(x))
    return order, pos, np.ascontiguousarray(x[order])


def sign_sums(order, newblock, u: tuple, v: tuple) -> np.ndarray | None:
    r""":math:`K_k(v, u)` for every cell (int64), or None without numba.

    ``order``: the cells by gold (stable); ``newblock``: per sorted position, whether it starts
    a gold block; ``u``, ``v``: :func:`sorted_scores` of the two score vectors (of one dtype,
    comparable)."""
    kernel = compiled()
    if kernel is None:
        return None
    out = np.empty(len(order), dtype=np.int64)
    kernel(order, newblock, u[1], u[2], v[0], v[2], out)
    return out
