"""The resampling machinery of the randomized tests, shared by :mod:`.randomized`,
:mod:`.systems_table`, :mod:`stats.power` and :mod:`stats.qe.wmt`: seeds, the stacked segment
statistics, bounded chunks of resamples drawn in one stream and worked in threads, and the
bootstrap's resample weights and system scores."""

from __future__ import annotations

from collections import deque
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from stats._core.errors import StatsInputError
from stats._core.validation import check_positive_int

from .sufficient import SegmentStatistics

_BUDGET = 1 << 21  # elements per intermediate array in a chunk (16 MiB of float64)
_REL_TOL = 1e-9


def _rng_and_seed(rng):
    if isinstance(rng, (bool, np.bool_)):
        raise StatsInputError(f"rng must be an int seed, a numpy Generator or None; got {rng!r}")
    if isinstance(rng, (int, np.integer)):
        if rng < 0:
            raise StatsInputError(f"rng (seed) must be a non-negative integer; got {rng}")
        return np.random.default_rng(int(rng)), int(rng)
    try:
        return np.random.default_rng(rng), None
    except (TypeError, ValueError):
        raise StatsInputError(
            f"rng must be an int seed, a numpy Generator or None; got {type(rng).__name__}"
        ) from None


def _stacked(data: SegmentStatistics):
    """(n, K*d) matrix of statistics and the dtype to multiply in.

    float32 when the statistics are integers small enough that every partial sum is exact
    in float32 (n * max < 2**24), which halves the cost of the matrix product; else float64.
    """
    k, n, d = data.stats.shape
    s2 = np.ascontiguousarray(data.stats.transpose(1, 0, 2).reshape(n, k * d))
    exact32 = (
        data.metric != "mean"
        and np.all(s2 == np.round(s2))
        and float(np.abs(s2).max(initial=0.0)) * n < 2**24
    )
    dtype = np.float32 if exact32 else np.float64
    return s2.astype(dtype), dtype


def _chunk(chunk_size, n_resamples: int, width: int) -> int:
    if chunk_size is None:
        return max(1, min(n_resamples, _BUDGET // max(width, 1), 4096))
    return check_positive_int(chunk_size, "chunk_size")


def _bootstrap_weights(uniform: np.ndarray, dtype) -> np.ndarray:
    """Bootstrap counts from uniform doubles (B, n), which are overwritten: row b holds how
    often each segment is drawn in resample b.

    Indices are floor(U * n), so the stream of draws is the same whatever the chunking.
    """
    n = uniform.shape[1]
    uniform *= n  # in place: a fresh draw
    idx = uniform.astype(np.intp)
    np.minimum(idx, n - 1, out=idx)
    return _resample_counts(idx, dtype)


def _resample_counts(idx: np.ndarray, dtype) -> np.ndarray:
    """Bootstrap counts (B, n) from drawn segment indices ``idx`` (B, n) in ``0..n-1``: row b
    holds how often each segment is drawn in resample b. ``idx`` is overwritten."""
    size, n = idx.shape
    flat = idx if idx.dtype == np.intp else idx.astype(np.intp)
    flat += (np.arange(size, dtype=np.intp) * n)[:, None]  # in place: idx is a fresh draw
    return np.bincount(flat.ravel(), minlength=size * n).reshape(size, n).astype(dtype)


def _swap_masks(gen: np.random.Generator, size: int, n: int) -> np.ndarray:
    """Approximate-randomization swap masks, bool (size, n): each segment swapped with
    probability 1/2, one random bit each.

    Row by row, ``ceil(n / 64)`` raw 64-bit words (``integers(0, 2**64, dtype=uint64)`` takes
    them straight from the bit generator) whose bits, lowest first, are the row's swaps; so the
    stream does not depend on how the rows are chunked, and drawing costs a 64th of one
    double per segment (which was a third of the test's time on 2,000 segments)."""
    words = (n + 63) // 64
    raw = gen.integers(0, 2**64, size=(size, words), dtype=np.uint64, endpoint=False)
    # little-endian bytes: the bits of each word lowest first, whatever the machine
    raw = raw.astype("<u8", copy=False)
    bits = np.unpackbits(raw.view(np.uint8), axis=1, count=n, bitorder="little")
    return bits.view(bool)


def _chunks(n_resamples: int, c: int):
    return [(start, min(c, n_resamples - start)) for start in range(0, n_resamples, c)]


def _in_threads(jobs: int | None, chunks, draw, work, done) -> None:
    """For each ``(start, size)`` of ``chunks``: ``draw(start, size)`` here and in order (the
    random stream is the one a single thread draws), ``work(start, size, drawn)`` on one of
    ``jobs`` threads (numpy releases the GIL in the array work), then ``done(start, size,
    result)`` here, again in chunk order, so results equal a serial run bit for bit. At most
    ``jobs + 1`` chunks are drawn ahead (bounded memory); ``jobs`` None or 1 runs serially."""
    if not jobs or jobs <= 1 or len(chunks) < 2:
        for start, size in chunks:
            done(start, size, work(start, size, draw(start, size)))
        return
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        pending: deque = deque()
        for start, size in chunks:
            pending.append((start, size, pool.submit(work, start, size, draw(start, size))))
            while len(pending) > jobs:
                s0, z0, future = pending.popleft()
                done(s0, z0, future.result())
        while pending:
            s0, z0, future = pending.popleft()
            done(s0, z0, future.result())


def _bootstrap_system_scores(data, s2, dtype, n_resamples, rng, chunk_size, progress, span,
                             jobs=None, *, integer_draws=False):
    """Scores of every system on ``n_resamples`` bootstrap resamples: array (B, K).

    ``integer_draws``: draw the segment indices as ``rng.integers(0, n, (B, n))``, which is
    what sacreBLEU's ``rng.choice(n, (B, n))`` draws (the same stream whatever the chunking),
    instead of ``floor(U * n)`` from uniform doubles."""
    k, n, d = data.stats.shape
    c = _chunk(chunk_size, n_resamples, max(n, k * d))
    out = np.empty((n_resamples, k))
    if integer_draws:
        def draw(_, size):
            return rng.integers(0, n, size=(size, n))
        weights = _resample_counts
    else:
        def draw(_, size):
            return rng.random((size, n))
        weights = _bootstrap_weights

    def work(start, size, drawn):
        sums = (weights(drawn, dtype) @ s2).astype(np.float64).reshape(size, k, d)
        out[start : start + size] = data.score(sums)

    def done(start, size, _):
        if progress is not None:
            progress(span[0] + (span[1] - span[0]) * (start + size) / n_resamples)

    # chunks of resamples (bounded memory)
    _in_threads(jobs, _chunks(n_resamples, c), draw, work, done)
    return out
