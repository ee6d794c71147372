"""The signed-rank statistic of many simulated data sets in one compiled pass (numba).

:func:`stats.power.paired._signed_rank_pool` keeps every simulated data set as counts over the
observed items (the pool) and ranks them along the pool sorted by absolute value. With numpy
that takes several passes over (data sets x pool) temporaries per effect (a gather, two
cumulative sums, midranks, products); :func:`_sums` walks the sorted pool once, all data sets
at a time (the counts held pool x data sets, so each step is a contiguous vector of counts).
The results are the same numbers: midranks are multiples of 1/2 and their sums (T+) and
weighted squares (the tie-corrected variance) are exact in floating point whatever the order
of summation.
"""

from __future__ import annotations

import numpy as np

from stats._core.jit import njit_one


def _sums(counts, order, bounds, positive, has_zero, out):  # pragma: no cover - compiled
    """``out[:, r] = (T+, 4 var, zeros, largest group)`` of data set ``r`` (column of
    ``counts``, pool x data sets) for the pool sorted by ``order``, groups of equal absolute
    values ``bounds[i]:bounds[i+1]`` of the sorted pool (group 0 the zeros when
    ``has_zero``), ``positive`` per sorted position."""
    rows = counts.shape[1]
    groups = len(bounds) - 1
    cum = np.zeros(rows)
    g = np.zeros(rows)
    pos = np.zeros(rows)
    tplus, var4, zeros, largest = out[0], out[1], out[2], out[3]
    tplus[:] = 0.0
    var4[:] = 0.0
    zeros[:] = 0.0
    largest[:] = 0.0
    for i in range(groups):
        g[:] = 0.0
        pos[:] = 0.0
        for q in range(bounds[i], bounds[i + 1]):
            c = counts[order[q]]
            if positive[q]:
                for r in range(rows):
                    g[r] += c[r]
                    pos[r] += c[r]
            else:
                for r in range(rows):
                    g[r] += c[r]
        if i == 0 and has_zero:
            for r in range(rows):
                cum[r] += g[r]
                zeros[r] = g[r]
                largest[r] = max(largest[r], g[r])
            continue
        for r in range(rows):
            cum[r] += g[r]
            largest[r] = max(largest[r], g[r])
            mid = cum[r] - (g[r] - 1.0) / 2.0 - zeros[r]
            tplus[r] += pos[r] * mid  # g = 0: adds 0
            var4[r] += g[r] * mid * mid


def compiled():
    """The compiled kernel, or None without numba."""
    return njit_one(_sums)


def signed_rank_sums(counts: np.ndarray, values: np.ndarray, *, items_first: bool = False):
    """``(tplus, var, zeros, largest)`` per data set of ``counts`` (data sets x pool, or pool
    x data sets with ``items_first``; int32 or int64) for the pool ``values``, or None without
    numba (the caller's array path runs): T+, the tie-corrected variance of T+ under H0 (sum
    of squared midranks / 4), the zeros and the largest group of equal absolute values."""
    kernel = compiled()
    if kernel is None:
        return None
    a = np.abs(values)
    order = np.argsort(a, kind="stable")
    sa = a[order]
    bounds = np.r_[0, np.flatnonzero(sa[1:] != sa[:-1]) + 1, sa.size].astype(np.int64)
    positive = values[order] > 0
    by_item = np.ascontiguousarray(counts if items_first else counts.T)
    out = np.empty((4, by_item.shape[1]))
    kernel(by_item, order.astype(np.int64), bounds, positive, bool(sa[0] == 0), out)
    return out[0], out[1] / 4.0, out[2], out[3]
