"""The compiled kernels of :mod:`stats.mt._ngrams_numba` (numba, imported only where they run)."""

from __future__ import annotations

import numpy as np
from numba import njit

#: rows shorter than this many elements per radix pass are insertion-sorted instead (at most
#: (16 * passes)**2 / 4 moves; numba's own sort would add a second to compiling)
_RADIX_MIN = 16


@njit(cache=True, nogil=True)
def _insertion_sort(a):
    """Sort the short ``a`` in place."""
    for i in range(1, a.shape[0]):
        x = a[i]
        j = i - 1
        while j >= 0 and a[j] > x:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = x


@njit(cache=True, nogil=True)
def _radix_sort(a, scratch, count, passes):
    """Sort the non-negative ``a`` in place: LSD radix, 8 bits per pass, ``passes``
    passes (a pass whose digit is the same everywhere is skipped)."""
    n = a.shape[0]
    src = a
    dst = scratch
    in_a = True
    shift = 0
    for _ in range(passes):
        count[:] = 0
        for i in range(n):
            count[((src[i] >> shift) & 255) + 1] += 1
        if count[((src[0] >> shift) & 255) + 1] != n:
            for d in range(256):
                count[d + 1] += count[d]
            for i in range(n):
                d = (src[i] >> shift) & 255
                dst[count[d]] = src[i]
                count[d] += 1
            src, dst = dst, src
            in_a = not in_a
        shift += 8
    if not in_a:
        a[:] = src


@njit(cache=True, nogil=True)
def _merge_orders(keys, hs, he, rs, re, max_order, bits, mask, out, p, open_h, open_r):
    """Clipped matches of every order of the sorted keys ``hs:he`` (hypothesis) against
    ``rs:re`` (reference), added to ``out[:, p]``: one merge of the two runs in key
    order, in which the n-grams of order n are contiguous groups (a group ends where the
    key's first n digits change); ``open_h``/``open_r`` count each order's open group."""
    top = bits * (max_order - 1)
    open_h[:] = 0
    open_r[:] = 0
    i = hs
    j = rs
    prev = np.int64(0)  # differs from every key in the first digit (a token, not 0)
    while i < he or j < re:
        if j >= re or (i < he and keys[i] <= keys[j]):
            x = keys[i]
            i += 1
            from_h = True
        else:
            x = keys[j]
            j += 1
            from_h = False
        if x != prev:
            diff = x ^ prev
            first = 0  # the first digit where x and prev differ
            shift = top
            while ((diff >> shift) & mask) == 0:
                first += 1
                shift -= bits
            for n in range(first, max_order):  # the groups of orders > first end
                out[n, p] += min(open_h[n], open_r[n])
                open_h[n] = 0
                open_r[n] = 0
            if first == 0 and (j >= re if from_h else i >= he):
                break  # the other run is done and every group closed: no more matches
            prev = x
        shift = top
        for n in range(max_order):  # x holds an n-gram of every order up to its end
            if ((x >> shift) & mask) == 0:
                break
            if from_h:
                open_h[n] += 1
            else:
                open_r[n] += 1
            shift -= bits
    for n in range(max_order):
        out[n, p] += min(open_h[n], open_r[n])


@njit(cache=True, nogil=True)
def _kernel(
    tokens,
    starts,
    lengths,
    max_order,
    bits,
    keys,
    rows_lo,
    rows_hi,
    hyp_rows,
    ref_rows,
    out,
    pairs_lo,
    pairs_hi,
):
    """Rows ``rows_lo:rows_hi``: their packed keys into ``keys``, sorted within each row;
    then pairs ``pairs_lo:pairs_hi``: their clipped matches of every order into ``out``
    (whose rows must be sorted by then). One entry point, so a process loads one cached
    function; threads call it on disjoint ranges."""
    top = bits * (max_order - 1)
    passes = (bits * max_order + 7) // 8  # radix digits of 8 bits
    longest = 0
    for r in range(rows_lo, rows_hi):
        longest = max(longest, lengths[r])
    scratch = np.empty(longest, dtype=np.int64)
    count = np.empty(257, dtype=np.int64)
    for r in range(rows_lo, rows_hi):
        s = starts[r]
        n = lengths[r]
        k = np.int64(0)
        for i in range(n - 1, -1, -1):  # key(i) = token i, then key(i + 1)'s digits
            k = (k >> bits) | (np.int64(tokens[s + i] + 1) << top)
            keys[s + i] = k
        row = keys[s : s + n]
        if n < _RADIX_MIN * passes:
            _insertion_sort(row)
        else:
            _radix_sort(row, scratch[:n], count, passes)
    mask = (np.int64(1) << bits) - 1
    open_h = np.zeros(max_order, dtype=np.int64)
    open_r = np.zeros(max_order, dtype=np.int64)
    for p in range(pairs_lo, pairs_hi):
        h = hyp_rows[p]
        r = ref_rows[p]
        hs = starts[h]
        he = hs + lengths[h]
        rs = starts[r]
        re = rs + lengths[r]
        _merge_orders(keys, hs, he, rs, re, max_order, bits, mask, out, p, open_h, open_r)
