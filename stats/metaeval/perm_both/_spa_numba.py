r"""The counting step of soft pairwise accuracy's PERM-BOTH (:mod:`stats.metaeval.perm_both.spa`), compiled.

For one resample and one pair of metrics :math:`(a, b)`, the permuted metrics' partial sums
under the inner sign flips are :math:`V^{\tilde a} = \sigma a^\top + q` and :math:`V^{\tilde b} =
\sigma b^\top - q` (permutations x systems), with :math:`q = Q_b - Q_a` and :math:`Q_m = \sigma
(w \circ z_m)^\top` computed once per metric. Each system pair's p-value counts the sign
flips whose null sum reaches the observed one less the tolerance:

.. math::

    n_{ij} = \#\{k : V_{ki} - V_{kj} \ge \theta_{ij}\},

:math:`\theta` precomputed with :data:`stats.metaeval.perm_both.spa._TOL`'s rule. Every number is the
same IEEE operation as numpy's on the same operands, so the counts are the same as the array
formulation's (:func:`counts_numpy`), with no resamples x permutations x pairs temporary.
Systems are rows of the partial sums (systems x permutations), so the count of a system pair
is one contiguous, branch-free loop over the permutations (it vectorises).
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

import numpy as np

from stats._core.jit import njit_one

if TYPE_CHECKING:
    from .engine import CorrelationSpec

__all__ = ["compiled", "counts_numpy"]


def _counts(Q, base, thr, pa, pb, rows, out):
    """Counts ``out[r, c, side, pair]`` for resamples ``rows``.

    ``Q``: metrics x resamples x systems x permutations; ``base``: metrics x systems x
    permutations (the unpermuted partial sums); ``thr``: resamples x pairs ``c`` x 2 x system
    pairs; ``pa``/``pb``: each column's metrics."""
    S, K = base.shape[1], base.shape[2]
    va = np.empty((S, K))
    vb = np.empty((S, K))
    for r in rows:
        for c in range(pa.shape[0]):
            a = pa[c]
            b = pb[c]
            for s in range(S):
                for k in range(K):
                    q = Q[b, r, s, k] - Q[a, r, s, k]
                    va[s, k] = base[a, s, k] + q
                    vb[s, k] = base[b, s, k] - q
            p = 0
            for i in range(S):
                for j in range(i + 1, S):
                    ta = thr[r, c, 0, p]
                    tb = thr[r, c, 1, p]
                    na = 0
                    nb = 0
                    for k in range(K):
                        na += va[i, k] - va[j, k] >= ta
                        nb += vb[i, k] - vb[j, k] >= tb
                    out[r, c, 0, p] = na
                    out[r, c, 1, p] = nb
                    p += 1


def counts_numpy(Q, base, thr, pa, pb) -> np.ndarray:
    """The same counts with array operations (where numba is absent), one column at a time."""
    R, S = Q.shape[1], Q.shape[2]
    iu = np.triu_indices(S, 1)
    out = np.empty((R, len(pa), 2, len(iu[0])), dtype=np.int64)
    for c, (a, b) in enumerate(zip(pa, pb, strict=True)):
        q = Q[b] - Q[a]  # R x S x K
        for side, v in enumerate((base[a][None] + q, base[b][None] - q)):
            null = v[:, iu[0]] - v[:, iu[1]]  # R x pairs x K
            out[:, c, side] = (null >= thr[:, c, side, :, None]).sum(axis=2)
    return out


def _contiguous(kernel, Q, base, thr, pa, pb, rows, out):
    """``kernel`` on C-contiguous arrays: the one specialisation compiled at install
    (:data:`stats._core.jit.KERNELS`), whatever layout numpy gave the slices."""
    c = np.ascontiguousarray
    kernel(c(Q), c(base), c(thr), c(pa), c(pb), c(rows), out)


def compiled():
    """The compiled :func:`_counts` (it releases the GIL), or None without numba."""
    kernel = njit_one(_counts)
    return None if kernel is None else functools.partial(_contiguous, kernel)


def applies(gold: np.ndarray, spec: CorrelationSpec) -> bool:
    """Whether the compiled counts serve this test (soft pairwise accuracy, with numba)."""
    return spec.correlation == "soft-pairwise-accuracy" and compiled() is not None
