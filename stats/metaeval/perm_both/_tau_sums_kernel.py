"""The compiled sweep of :mod:`stats.metaeval.perm_both._tau_sums` (numba, imported only where
it runs): one Fenwick prefix sum (:func:`_prefix`, which numba inlines) serves every query."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True, nogil=True)
def _prefix(fen, pos):
    """Sum of the Fenwick tree ``fen`` over positions ``1..pos`` (the values below ``pos``)."""
    total = 0
    while pos > 0:
        total += fen[pos]
        pos -= pos & -pos
    return total


@njit(cache=True, nogil=True)
def _sums(order, newblock, pos_u, sorted_u, order_v, sorted_v, out):
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
            below = _prefix(fen, lt[k])
            at_most = _prefix(fen, le[k])
            out[k] = below - (inserted - at_most) - (lt[k] - (n - le[k]))
        for t in range(i, j):
            pos = pos_u[order[t]] + 1
            while pos <= n:
                fen[pos] += 1
                pos += pos & -pos
        inserted += j - i
        for t in range(i, j):  # cells of lower or equal gold: C_k
            k = order[t]
            below = _prefix(fen, lt[k])
            at_most = _prefix(fen, le[k])
            out[k] += below - (inserted - at_most)
        i = j
