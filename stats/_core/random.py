"""Randomness of :mod:`stats`: the one check of ``rng`` and the resampling machinery shared by
every function that draws.

``rng`` is a :class:`numpy.random.Generator` (used as is), a non-negative int seed or None
(fresh entropy); anything else is refused by :func:`check_rng` with one line naming the
argument and what was received. The helpers below draw resamples in bounded chunks from one
stream (the same numbers whatever the chunking), work the chunks in threads, and turn drawn
indices into bootstrap counts or random bits into swap masks.
"""

from __future__ import annotations

import contextlib
import threading
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

from .errors import StatsInputError
from .validation import check_positive_int

__all__ = [
    "CHUNK_BUDGET",
    "bootstrap_weights",
    "check_rng",
    "chunks",
    "common_seed",
    "in_threads",
    "resample_counts",
    "resamples_per_chunk",
    "rng_and_seed",
    "seeded_rng",
    "swap_masks",
]

#: elements per intermediate array of a chunk of resamples (16 MiB of float64)
CHUNK_BUDGET = 1 << 21


def _received(rng) -> str:
    if isinstance(rng, (bool, int, float, str, np.generic)):
        text = repr(rng)
        if len(text) <= 40 and "\n" not in text:
            return text
    return type(rng).__name__


def _seed_value(rng, name: str) -> int | None:
    """The int seed ``rng`` is, None for a Generator or None; anything else refused."""
    if rng is None or isinstance(rng, np.random.Generator):
        return None
    if isinstance(rng, (int, np.integer)) and not isinstance(rng, (bool, np.bool_)) and rng >= 0:
        return int(rng)
    raise StatsInputError(
        f"{name} must be a numpy Generator, a non-negative int seed or None; got {_received(rng)}"
    )


def check_rng(rng, *, name: str = "rng") -> np.random.Generator:
    """The generator ``rng`` stands for: a :class:`numpy.random.Generator` as is, a
    non-negative int seed or None (fresh entropy) through :func:`numpy.random.default_rng`.

    Anything else (``True``, ``-1``, ``"x"``, a float, a legacy ``RandomState``) raises
    :class:`~stats.StatsInputError` naming ``name`` and what was received.

    Examples
    --------
    >>> int(check_rng(1).integers(10))
    4
    >>> check_rng(-1)
    Traceback (most recent call last):
    ...
    stats._core.errors.StatsInputError: rng must be a numpy Generator, a non-negative int seed or None; got -1
    """
    seed = _seed_value(rng, name)
    if isinstance(rng, np.random.Generator):
        return rng
    return np.random.default_rng(seed)


def rng_and_seed(rng, *, name: str = "rng") -> tuple[np.random.Generator, int | None]:
    """:func:`check_rng`'s generator and the int seed ``rng`` was (None for a Generator or
    None), for results that record their seed."""
    return check_rng(rng, name=name), _seed_value(rng, name)


def common_seed(rng, *, name: str = "rng") -> int:
    """One int seed standing for ``rng``: an int seed as is, else one drawn from
    :func:`check_rng`'s generator (from fresh entropy for None). For work that seeds many
    streams alike (common random numbers, pieces run on other workers)."""
    seed = _seed_value(rng, name)
    if seed is None:
        seed = int(check_rng(rng, name=name).integers(2**31))
    return seed


def seeded_rng(seed, *key: int) -> np.random.Generator:
    """The generator of one piece of work: ``seed`` alone, or with ``key`` (e.g. task, block,
    chunk) the independent stream ``SeedSequence(seed, spawn_key=key)``, the same whichever
    worker draws it and in whatever order."""
    if not key:
        return np.random.default_rng(seed)
    return np.random.default_rng(np.random.SeedSequence(seed, spawn_key=key))


def resamples_per_chunk(requested, n_resamples: int, width: int) -> int:
    """Resamples per chunk: ``requested`` (a positive int) or, for None, as many as keep an
    intermediate of ``width`` numbers a resample within :data:`CHUNK_BUDGET` (at most 4,096)."""
    if requested is None:
        return max(1, min(n_resamples, CHUNK_BUDGET // max(width, 1), 4096))
    return check_positive_int(requested, "chunk_size")


def chunks(n_resamples: int, size: int) -> list[tuple[int, int]]:
    """``(start, size)`` of each chunk of ``size`` resamples (the last one shorter)."""
    return [(start, min(size, n_resamples - start)) for start in range(0, n_resamples, size)]


def in_threads(jobs: int | None, chunks, draw, work, done) -> None:
    """For each ``(start, size)`` of ``chunks``: ``draw(start, size)`` here and in order (the
    random stream is the one a single thread draws), ``work(start, size, drawn)`` on one of
    ``jobs`` threads (numpy releases the GIL in the array work), then ``done(start, size,
    result)`` here, again in chunk order, so results equal a serial run bit for bit. At most
    ``jobs + 1`` chunks are drawn ahead (bounded memory); ``jobs`` None or 1 runs serially."""
    if not jobs or jobs <= 1 or len(chunks) < 2:
        for start, size in chunks:
            done(start, size, work(start, size, draw(start, size)))
        return
    with _one_blas_thread(), ThreadPoolExecutor(max_workers=jobs) as pool:
        pending: deque = deque()
        for start, size in chunks:
            pending.append((start, size, pool.submit(work, start, size, draw(start, size))))
            while len(pending) > jobs:
                s0, z0, future = pending.popleft()
                done(s0, z0, future.result())
        while pending:
            s0, z0, future = pending.popleft()
            done(s0, z0, future.result())


#: how many :func:`in_threads` runs are inside :func:`_one_blas_thread` (threads of a server
#: may run several at once), and the limits the first of them set
_blas_lock = threading.Lock()
_blas_users = 0
_blas_limits: Any = None


@contextlib.contextmanager
def _one_blas_thread():
    """A context in which BLAS (numpy's OpenBLAS) runs each product on one thread: the
    ``jobs`` threads of :func:`in_threads` are the parallelism, and BLAS's own threads on top
    of them only contend for the same cores (and spin while they wait: measured on 2 cores,
    approximate randomization of 190 pairs used twice the CPU with them). threadpoolctl sets
    it, process-wide: the first of overlapping runs sets it, the last one out restores BLAS's
    own setting. Without threadpoolctl nothing changes."""
    global _blas_users, _blas_limits
    with _blas_lock:
        if _blas_users == 0:
            try:
                from threadpoolctl import threadpool_limits  # noqa: PLC0415 (parallel runs only)
            except ImportError:  # pragma: no cover - a dependency; without it BLAS keeps its threads
                _blas_limits = None
            else:
                _blas_limits = threadpool_limits(limits=1, user_api="blas")
        _blas_users += 1
    try:
        yield
    finally:
        with _blas_lock:
            _blas_users -= 1
            if _blas_users == 0 and _blas_limits is not None:
                _blas_limits.restore_original_limits()
                _blas_limits = None


def bootstrap_weights(uniform: np.ndarray, dtype) -> np.ndarray:
    """Bootstrap counts from uniform doubles (B, n), which are overwritten: row b holds how
    often each item is drawn in resample b.

    Indices are floor(U * n), so the stream of draws is the same whatever the chunking.
    """
    n = uniform.shape[1]
    uniform *= n  # in place: a fresh draw
    idx = uniform.astype(np.intp)
    np.minimum(idx, n - 1, out=idx)
    return resample_counts(idx, dtype)


def resample_counts(idx: np.ndarray, dtype) -> np.ndarray:
    """Bootstrap counts (B, n) from drawn item indices ``idx`` (B, n) in ``0..n-1``: row b
    holds how often each item is drawn in resample b. ``idx`` is overwritten."""
    size, n = idx.shape
    flat = idx if idx.dtype == np.intp else idx.astype(np.intp)
    flat += (np.arange(size, dtype=np.intp) * n)[:, None]  # in place: idx is a fresh draw
    return np.bincount(flat.ravel(), minlength=size * n).reshape(size, n).astype(dtype)


def swap_masks(gen: np.random.Generator, size: int, n: int) -> np.ndarray:
    """Approximate-randomization swap masks, bool (size, n): each item swapped with
    probability 1/2, one random bit each.

    Row by row, ``ceil(n / 64)`` raw 64-bit words (``integers(0, 2**64, dtype=uint64)`` takes
    them straight from the bit generator) whose bits, lowest first, are the row's swaps; so the
    stream does not depend on how the rows are chunked, and drawing costs a 64th of one
    double per item."""
    words = (n + 63) // 64
    raw = gen.integers(0, 2**64, size=(size, words), dtype=np.uint64, endpoint=False)
    # little-endian bytes: the bits of each word lowest first, whatever the machine
    raw = raw.astype("<u8", copy=False)
    bits = np.unpackbits(raw.view(np.uint8), axis=1, count=n, bitorder="little")
    return bits.view(bool)
