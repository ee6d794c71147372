"""Clipped n-gram matches of every order in one compiled pass (numba), for chrF and BLEU.

Each position of a sequence gets one packed integer key: the token ids (plus one) of the
``max_order`` tokens starting there, ``bits`` bits each, most significant first, and 0 for
the places past the sequence's end (built right to left, one shift per position). The keys
of a sequence are sorted once (LSD radix, 8 bits a pass, for long sequences; comparisons for
short ones); a lexicographic order of the ``max_order``-grams also groups every shorter
prefix, so the n-grams of each order :math:`n` are the keys' first :math:`n` digits (exact,
no hashing), already sorted and contiguous, and an n-gram that runs past the end is one whose
:math:`n`-th digit is 0. The clipped matches :math:`\\sum_g \\min(c_h(g), c_r(g))` of a
hypothesis against a reference, for every order at once, come from one merge of their sorted
keys: where the merged sequence's first :math:`n` digits change, the open group of each order
from :math:`n` on closes and adds its minimum. References are sorted once for all systems.
The compiled code releases the GIL: several threads sort disjoint rows, then match disjoint
pairs.

Used where ``bits * max_order`` fits in 63 bits (:func:`fits`); otherwise
:mod:`stats._ngrams` counts with ``np.unique`` as before. Same numbers either way.
"""

from __future__ import annotations

import numpy as np

__all__ = ["available", "bits_for", "fits", "order_matches"]

try:  # numba is a dependency; without it the numpy path of stats._ngrams runs
    import numba
    from numba import njit
except ImportError:  # pragma: no cover
    numba = None


def available() -> bool:
    """Whether the compiled n-gram matching can run (numba importable)."""
    return numba is not None


def bits_for(n_ids: int) -> int:
    """Bits per token of a packed key (digits 1..n_ids, 0 marks the end)."""
    return max(int(n_ids).bit_length(), 1)


def fits(n_ids: int, max_order: int) -> bool:
    """Whether ``max_order`` tokens of ``n_ids`` distinct ids pack into a non-negative int64."""
    return numba is not None and bits_for(n_ids) * max_order <= 63


#: rows shorter than this many elements per radix pass are sorted by comparisons instead
_RADIX_MIN = 32
#: below this many tokens one thread does it all (starting threads costs more)
MIN_THREADED = 200_000

if numba is not None:

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
                row.sort()
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


def _cuts(cost: np.ndarray, parts: int) -> list[int]:
    """Bounds cutting ``cost``'s items into ``parts`` runs of about equal total cost."""
    cum = np.cumsum(cost)
    inner = np.searchsorted(cum, cum[-1] * np.arange(1, parts) / parts, side="right")
    return [0, *inner.tolist(), len(cost)]


def order_matches(
    tokens: np.ndarray,
    lengths: np.ndarray,
    n_ids: int,
    max_order: int,
    hyp_rows: np.ndarray,
    ref_rows: np.ndarray,
    *,
    threads: int = 1,
) -> np.ndarray:
    """Clipped matches, int64 (max_order, pairs), of sequence ``hyp_rows[p]`` against
    sequence ``ref_rows[p]`` for n = 1..max_order; ``tokens`` are ids in ``0..n_ids-1`` of the
    concatenated sequences of ``lengths``. Needs :func:`fits`. ``threads``: the compiled code
    runs without the GIL in that many threads (sorting the rows, then matching the pairs),
    for :data:`MIN_THREADED` tokens or more; the counts do not depend on it."""
    bits = bits_for(n_ids)
    tokens = np.ascontiguousarray(tokens, dtype=np.int64)
    lengths = np.ascontiguousarray(lengths, dtype=np.int64)
    starts = np.cumsum(lengths) - lengths
    hyp_rows = np.ascontiguousarray(hyp_rows, dtype=np.int64)
    ref_rows = np.ascontiguousarray(ref_rows, dtype=np.int64)
    keys = np.empty(tokens.shape[0], dtype=np.int64)
    out = np.zeros((max_order, hyp_rows.shape[0]), dtype=np.int64)

    def run(rows: tuple[int, int], pairs: tuple[int, int]) -> None:
        _kernel(
            tokens, starts, lengths, max_order, bits, keys, *rows, hyp_rows, ref_rows, out, *pairs
        )

    n_rows, n_pairs = len(lengths), len(hyp_rows)
    threads = max(1, min(int(threads), n_pairs))
    if threads == 1 or tokens.shape[0] < MIN_THREADED:
        run((0, n_rows), (0, n_pairs))
        return out
    from concurrent.futures import ThreadPoolExecutor

    run((0, 0), (0, 0))  # load the compiled function in this thread first
    row_cuts = _cuts(lengths + 1, threads)
    pair_cuts = _cuts(lengths[hyp_rows] + lengths[ref_rows] + 1, threads)
    with ThreadPoolExecutor(threads - 1) as pool:
        for cuts, phase in ((row_cuts, 0), (pair_cuts, 1)):  # all rows sorted, then pairs
            spans = [
                (0, 0, a, b) if phase else (a, b, 0, 0)
                for a, b in zip(cuts[:-1], cuts[1:], strict=True)
            ]
            futures = [pool.submit(run, span[:2], span[2:]) for span in spans[1:]]
            run(spans[0][:2], spans[0][2:])  # this thread takes the first part
            for future in futures:
                future.result()
    return out
