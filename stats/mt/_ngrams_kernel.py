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
def _row_keys(tokens, s, n, bits, top, dest):
    """``dest[:n]``: the packed keys of the row ``tokens[s:s + n]`` (key(i) = token i, then
    key(i + 1)'s digits)."""
    k = np.int64(0)
    for i in range(n - 1, -1, -1):
        k = (k >> bits) | (np.int64(tokens[s + i] + 1) << top)
        dest[i] = k


@njit(cache=True, nogil=True)
def _sort_row(row, scratch, count, passes):
    """Sort one row's keys in place (``scratch`` at least as long)."""
    n = row.shape[0]
    if n < _RADIX_MIN * passes:
        _insertion_sort(row)
    else:
        _radix_sort(row, scratch[:n], count, passes)


@njit(cache=True, nogil=True)
def _merge_orders(hk, hs, he, rk, rs, re, max_order, bits, mask, out, p, start_h, start_r):
    """Clipped matches of every order of the sorted keys ``hk[hs:he]`` (hypothesis) against
    ``rk[rs:re]`` (reference), added to ``out[:, p]``: one merge of the two runs in key
    order, in which the n-grams of order n are contiguous groups (a group ends where the
    key's first n digits change). ``ch``/``cr`` count the keys merged from each run so far and
    ``start_h``/``start_r`` where each order's open group began, so a key costs one count.

    Every key is counted in every order's group, also where it is shorter (a key of the
    last ``max_order - 1`` positions of a row, whose digits end in zeros): such a group
    holds only keys equal to it, one per row, and the caller subtracts those pairs
    (:func:`_common_suffix`)."""
    top = bits * (max_order - 1)
    start_h[:] = 0
    start_r[:] = 0
    ch = 0
    cr = 0
    i = hs
    j = rs
    prev = np.int64(0)  # differs from every key in the first digit (a token, not 0)
    while i < he or j < re:
        if j >= re or (i < he and hk[i] <= rk[j]):
            x = hk[i]
            i += 1
            from_h = True
        else:
            x = rk[j]
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
                out[n, p] += min(ch - start_h[n], cr - start_r[n])
                start_h[n] = ch
                start_r[n] = cr
            if first == 0 and (j >= re if from_h else i >= he):
                return  # the other run is done and every group closed: no more matches
            prev = x
        if from_h:
            ch += 1
        else:
            cr += 1
    for n in range(max_order):
        out[n, p] += min(ch - start_h[n], cr - start_r[n])


@njit(cache=True, nogil=True)
def _common_suffix(tokens, hs, hn, rs, rn, limit):
    """How many of the last tokens (at most ``limit``) rows ``tokens[hs:hs + hn]`` and
    ``tokens[rs:rs + rn]`` have in common: the short keys the two rows share (the key of the
    last c positions is the same in both for c up to this length)."""
    c = 0
    while c < limit and c < hn and c < rn and tokens[hs + hn - 1 - c] == tokens[rs + rn - 1 - c]:
        c += 1
    return c


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
    built,
    hyp_rows,
    ref_rows,
    out,
    pairs_lo,
    pairs_hi,
):
    """Rows ``rows_lo:rows_hi``: their packed keys into ``keys``, sorted within each row;
    then pairs ``pairs_lo:pairs_hi``: their clipped matches of every order into ``out``.
    A pair's rows below ``built`` must be sorted in ``keys`` by then; a hypothesis row from
    ``built`` on is keyed and sorted for its pair in a buffer of its own (a row used once:
    no pass over memory for it). One entry point, so a process loads one cached function;
    threads call it on disjoint ranges."""
    top = bits * (max_order - 1)
    passes = (bits * max_order + 7) // 8  # radix digits of 8 bits
    longest = 0
    for r in range(rows_lo, rows_hi):
        longest = max(longest, lengths[r])
    for p in range(pairs_lo, pairs_hi):
        longest = max(longest, lengths[hyp_rows[p]])
    scratch = np.empty(longest, dtype=np.int64)
    row_keys = np.empty(longest, dtype=np.int64)
    count = np.empty(257, dtype=np.int64)
    for r in range(rows_lo, rows_hi):
        s = starts[r]
        n = lengths[r]
        _row_keys(tokens, s, n, bits, top, keys[s : s + n])
        _sort_row(keys[s : s + n], scratch, count, passes)
    mask = (np.int64(1) << bits) - 1
    start_h = np.zeros(max_order, dtype=np.int64)
    start_r = np.zeros(max_order, dtype=np.int64)
    for p in range(pairs_lo, pairs_hi):
        h = hyp_rows[p]
        r = ref_rows[p]
        hn = lengths[h]
        rs = starts[r]
        rn = lengths[r]
        if h >= built:
            _row_keys(tokens, starts[h], hn, bits, top, row_keys)
            _sort_row(row_keys[:hn], scratch, count, passes)
            _merge_orders(
                row_keys, 0, hn, keys, rs, rs + rn, max_order, bits, mask, out, p, start_h, start_r
            )
        else:
            hs = starts[h]
            _merge_orders(
                keys,
                hs,
                hs + hn,
                keys,
                rs,
                rs + rn,
                max_order,
                bits,
                mask,
                out,
                p,
                start_h,
                start_r,
            )
        short = _common_suffix(tokens, starts[h], hn, rs, rn, max_order - 1)
        for n in range(1, max_order):
            out[n, p] -= min(n, short)
