"""The signed-rank statistic of many simulated data sets in one compiled pass (numba).

:func:`stats.power.paired._signed_rank_pool` keeps every simulated data set as counts over the
observed items (the pool) and ranks them along the pool sorted by absolute value. With numpy
that takes several passes over (data sets x pool) temporaries per effect (a gather, two
cumulative sums, midranks, products); :func:`_sums` does it in one pass per data set without
temporaries. The results are the same numbers: midranks are multiples of 1/2 and their sums
(T+) and weighted squares (the tie-corrected variance) are exact in floating point whatever the
order of summation.
"""

from __future__ import annotations

import numpy as np

from stats._core.jit import njit_one


def _sums(counts, order, bounds, positive, has_zero, out):  # pragma: no cover - compiled
    """Per data set ``r`` (row of ``counts``, rows x pool): ``out[r] = (T+, 4 var, zeros,
    largest group)`` for the pool sorted by ``order``, groups of equal absolute values
    ``bounds[i]:bounds[i+1]`` of the sorted pool (group 0 the zeros when ``has_zero``),
    ``positive`` per sorted position."""
    rows = counts.shape[0]
    groups = len(bounds) - 1
    for r in range(rows):
        row = counts[r]
        cum = 0.0
        zeros = 0.0
        tplus = 0.0
        var4 = 0.0
        largest = 0.0
        for i in range(groups):
            g = 0.0
            pos = 0.0
            for q in range(bounds[i], bounds[i + 1]):
                c = row[order[q]]
                g += c
                if positive[q]:
                    pos += c
            cum += g
            if g > largest:
                largest = g
            if i == 0 and has_zero:
                zeros = g
                continue
            if g > 0:
                mid = cum - (g - 1.0) / 2.0 - zeros
                tplus += pos * mid
                var4 += g * mid * mid
        out[r, 0] = tplus
        out[r, 1] = var4
        out[r, 2] = zeros
        out[r, 3] = largest


def compiled():
    """The compiled kernel, or None without numba."""
    return njit_one(_sums)


def signed_rank_sums(counts: np.ndarray, values: np.ndarray):
    """``(tplus, var, zeros, largest)`` per row of ``counts`` (data sets x pool, int32 or
    int64) for the pool ``values``, or None without numba (the caller's array path runs):
    T+, the tie-corrected variance of T+ under H0 (sum of squared midranks / 4), the zeros
    and the largest group of equal absolute values per data set."""
    kernel = compiled()
    if kernel is None:
        return None
    a = np.abs(values)
    order = np.argsort(a, kind="stable")
    sa = a[order]
    bounds = np.r_[0, np.flatnonzero(sa[1:] != sa[:-1]) + 1, sa.size].astype(np.int64)
    positive = values[order] > 0
    out = np.empty((counts.shape[0], 4))
    kernel(np.ascontiguousarray(counts), order.astype(np.int64), bounds, positive,
           bool(sa[0] == 0), out)
    return out[:, 0], out[:, 1] / 4.0, out[:, 2], out[:, 3]
