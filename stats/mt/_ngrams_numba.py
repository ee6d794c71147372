"""Clipped n-gram matches of every order in one compiled pass (numba), for chrF and BLEU.

Each position of a sequence gets one packed integer key: the token ids (plus one) of the
``max_order`` tokens starting there, ``bits`` bits each, most significant first, and 0 for
the places past the sequence's end (built right to left, one shift per position). The keys
of a sequence are sorted once (LSD radix, 8 bits a pass, for long sequences; insertion sort
for short ones); a lexicographic order of the ``max_order``-grams also groups every shorter
prefix, so the n-grams of each order :math:`n` are the keys' first :math:`n` digits (exact,
no hashing), already sorted and contiguous, and an n-gram that runs past the end is one whose
:math:`n`-th digit is 0. The clipped matches :math:`\\sum_g \\min(c_h(g), c_r(g))` of a
hypothesis against a reference, for every order at once, come from one merge of their sorted
keys: where the merged sequence's first :math:`n` digits change, the open group of each order
from :math:`n` on closes and adds its minimum (group sizes as differences of running counts;
a row's last keys, shorter than ``max_order``, are counted in the longer orders too, and the
pairs of them the two rows share -- their common suffix -- are subtracted). References are
sorted once for all systems; a hypothesis used in one pair only is keyed and sorted for that
pair in a small buffer (no pass over the whole corpus's keys). The compiled code releases the
GIL: several threads sort disjoint rows, then match disjoint pairs.

Used where ``bits * max_order`` fits in 63 bits (:func:`fits`); otherwise
:mod:`stats.mt._ngrams` counts with ``np.unique``. Same numbers either way.

The kernel (:mod:`stats.mt._ngrams_kernel`) runs as compiled ahead of time at install where that
build is present and current (:func:`stats._core.jit.aot`: no numba to load, which cost more
than the matching itself), else as numba's cached JIT kernel.
"""

from __future__ import annotations

import functools
import importlib.util

import numpy as np

__all__ = ["available", "bits_for", "fits", "order_matches"]


@functools.cache
def available() -> bool:
    """Whether the compiled n-gram matching can run (its ahead-of-time build, or numba
    installed; a dependency, without which the numpy path of :mod:`stats.mt._ngrams` runs).
    numba itself is imported only where its kernel runs (:mod:`stats.mt._ngrams_kernel`)."""
    return _aot_kernel() is not None or importlib.util.find_spec("numba") is not None


def _aot_kernel():
    """The kernel compiled ahead of time at install, or None (see :func:`stats._core.jit.aot`)."""
    from stats._core.jit import aot

    return aot("stats.mt._ngrams_kernel", "_kernel")


def _kernel():
    """The matching kernel: compiled ahead of time where built, else numba's."""
    kernel = _aot_kernel()
    if kernel is None:
        from ._ngrams_kernel import _kernel as kernel
    return kernel


def bits_for(n_ids: int) -> int:
    """Bits per token of a packed key (digits 1..n_ids, 0 marks the end)."""
    return max(int(n_ids).bit_length(), 1)


def fits(n_ids: int, max_order: int) -> bool:
    """Whether ``max_order`` tokens of ``n_ids`` distinct ids pack into a non-negative int64."""
    return available() and bits_for(n_ids) * max_order <= 63


#: below this many tokens one thread does it all (starting threads costs more)
MIN_THREADED = 200_000


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
    kernel = _kernel()
    bits = bits_for(n_ids)
    tokens = np.ascontiguousarray(tokens, dtype=np.int32)
    lengths = np.ascontiguousarray(lengths, dtype=np.int64)
    starts = np.cumsum(lengths) - lengths
    hyp_rows = np.ascontiguousarray(hyp_rows, dtype=np.int64)
    ref_rows = np.ascontiguousarray(ref_rows, dtype=np.int64)
    n_rows, n_pairs = len(lengths), len(hyp_rows)
    built = _first_built(hyp_rows, ref_rows, n_rows)
    keys = np.empty(tokens.shape[0], dtype=np.int64)  # pages of rows never sorted stay unmapped
    out = np.zeros((max_order, n_pairs), dtype=np.int64)

    def run(rows: tuple[int, int], pairs: tuple[int, int]) -> None:
        kernel(
            tokens, starts, lengths, max_order, bits, keys, *rows, built, hyp_rows, ref_rows,
            out, *pairs,
        )  # fmt: skip

    threads = max(1, min(int(threads), n_pairs))
    if threads == 1 or tokens.shape[0] < MIN_THREADED:
        run((0, built), (0, n_pairs))
        return out
    from concurrent.futures import ThreadPoolExecutor

    run((0, 0), (0, 0))  # load the compiled function in this thread first
    row_cuts = _cuts(lengths[:built] + 1, threads) if built else [0] * (threads + 1)
    pair_cuts = _cuts(lengths[hyp_rows] + lengths[ref_rows] + 1, threads)
    with ThreadPoolExecutor(threads - 1) as pool:
        for cuts, phase in ((row_cuts, 0), (pair_cuts, 1)):  # the rows sorted, then pairs
            spans = [
                (0, 0, a, b) if phase else (a, b, 0, 0)
                for a, b in zip(cuts[:-1], cuts[1:], strict=True)
            ]
            futures = [pool.submit(run, span[:2], span[2:]) for span in spans[1:]]
            run(spans[0][:2], spans[0][2:])  # this thread takes the first part
            for future in futures:
                future.result()
    return out


def _first_built(hyp_rows: np.ndarray, ref_rows: np.ndarray, n_rows: int) -> int:
    """The first row the kernel keys and sorts for its one pair instead of beforehand: the
    first hypothesis row where every hypothesis row is in one pair and after every reference
    row (rows before it are sorted first), else ``n_rows`` (all sorted first)."""
    if len(hyp_rows) == 0:
        return n_rows
    first = int(hyp_rows.min())
    if len(ref_rows) and int(ref_rows.max()) >= first:
        return n_rows
    if len(np.unique(hyp_rows)) < len(hyp_rows):
        return n_rows
    return first
