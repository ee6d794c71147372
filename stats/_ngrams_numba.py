"""Clipped n-gram matches of every order in one compiled pass (numba), for chrF and BLEU.

Each position of a sequence gets one packed integer key: the token ids (plus one) of the
``max_order`` tokens starting there, ``bits`` bits each, most significant first, and 0 for
the places past the sequence's end. The keys of a sequence are sorted once; a lexicographic
order of the ``max_order``-grams also groups every shorter prefix, so the n-grams of each
order :math:`n` are the keys shifted right by ``bits * (max_order - n)`` (exact, no hashing),
already sorted, and an n-gram that runs past the end is the one whose last digit is 0. The
clipped matches :math:`\\sum_g \\min(c_h(g), c_r(g))` of a hypothesis against a reference
are then one merge of their sorted keys per order. References are sorted once for all
systems.

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


if numba is not None:

    @njit(cache=True, nogil=True)
    def _sorted_keys(tokens, starts, lengths, max_order, bits):
        """Packed ``max_order``-gram key of every position, sorted within each sequence."""
        keys = np.empty(tokens.shape[0], dtype=np.int64)
        for r in range(starts.shape[0]):
            s = starts[r]
            n = lengths[r]
            for i in range(n):
                k = np.int64(0)
                for j in range(max_order):
                    k <<= bits
                    if i + j < n:
                        k |= tokens[s + i + j] + 1
                keys[s + i] = k
            keys[s : s + n].sort()
        return keys

    @njit(cache=True, nogil=True)
    def _merge(keys, hs, he, rs, re, shift, mask):
        """sum over n-grams of min(hyp count, ref count): one merge of sorted keys."""
        i = hs
        j = rs
        total = 0
        while i < he and j < re:
            a = keys[i] >> shift
            if (a & mask) == 0:  # runs past the hypothesis' end
                i += 1
                continue
            b = keys[j] >> shift
            if (b & mask) == 0:
                j += 1
                continue
            if a < b:
                i += 1
            elif a > b:
                j += 1
            else:
                ci = 0
                while i < he and (keys[i] >> shift) == a:
                    ci += 1
                    i += 1
                cj = 0
                while j < re and (keys[j] >> shift) == a:
                    cj += 1
                    j += 1
                total += min(ci, cj)
        return total

    @njit(cache=True, nogil=True)
    def _all_matches(tokens, starts, lengths, hyp_rows, ref_rows, max_order, bits):
        """(max_order, pairs): clipped n-gram matches of pair p (hyp_rows[p], ref_rows[p]).
        One entry point, so a process loads one cached function."""
        keys = _sorted_keys(tokens, starts, lengths, max_order, bits)
        out = np.zeros((max_order, hyp_rows.shape[0]), dtype=np.int64)
        mask = (np.int64(1) << bits) - 1
        for p in range(hyp_rows.shape[0]):
            h = hyp_rows[p]
            r = ref_rows[p]
            hs = starts[h]
            he = hs + lengths[h]
            rs = starts[r]
            re = rs + lengths[r]
            for n in range(1, max_order + 1):
                out[n - 1, p] = _merge(keys, hs, he, rs, re, bits * (max_order - n), mask)
        return out


def order_matches(
    tokens: np.ndarray,
    lengths: np.ndarray,
    n_ids: int,
    max_order: int,
    hyp_rows: np.ndarray,
    ref_rows: np.ndarray,
) -> np.ndarray:
    """Clipped matches, int64 (max_order, pairs), of sequence ``hyp_rows[p]`` against
    sequence ``ref_rows[p]`` for n = 1..max_order; ``tokens`` are ids in ``0..n_ids-1`` of the
    concatenated sequences of ``lengths``. Needs :func:`fits`."""
    bits = bits_for(n_ids)
    lengths = np.ascontiguousarray(lengths, dtype=np.int64)
    starts = np.cumsum(lengths) - lengths
    return _all_matches(
        np.ascontiguousarray(tokens, dtype=np.int64),
        starts,
        lengths,
        np.ascontiguousarray(hyp_rows, dtype=np.int64),
        np.ascontiguousarray(ref_rows, dtype=np.int64),
        max_order,
        bits,
    )
