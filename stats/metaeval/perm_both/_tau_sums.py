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

import functools

import numpy as np


@functools.cache
def compiled():
    """The compiled kernel (:mod:`._tau_sums_kernel`), or None without numba."""
    try:
        from stats.metaeval.perm_both import _tau_sums_kernel  # noqa: PLC0415 (loads numba)
    except ImportError:  # pragma: no cover - exercised where numba is absent
        return None
    return _tau_sums_kernel._sums


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
