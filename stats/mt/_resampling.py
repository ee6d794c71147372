"""What the randomized tests of :mod:`.randomized` and :mod:`.baseline_table` resample that is
specific to segment statistics: the stacked statistics and the bootstrap's system scores (the
generic machinery is :mod:`stats._core.random`)."""

from __future__ import annotations

import numpy as np

from stats._core.random import (
    bootstrap_weights,
    chunks,
    in_threads,
    resample_counts,
    resamples_per_chunk,
)

from .sufficient import SegmentStatistics

_REL_TOL = 1e-9


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


def _bootstrap_system_scores(data, s2, dtype, n_resamples, rng, chunk_size, progress, span,
                             jobs=None, *, integer_draws=False):
    """Scores of every system on ``n_resamples`` bootstrap resamples: array (B, K).

    ``integer_draws``: draw the segment indices as ``rng.integers(0, n, (B, n))``, which is
    what sacreBLEU's ``rng.choice(n, (B, n))`` draws (the same stream whatever the chunking),
    instead of ``floor(U * n)`` from uniform doubles."""
    k, n, d = data.stats.shape
    c = resamples_per_chunk(chunk_size, n_resamples, max(n, k * d))
    out = np.empty((n_resamples, k))
    if integer_draws:
        def draw(_, size):
            return rng.integers(0, n, size=(size, n))
        weights = resample_counts
    else:
        def draw(_, size):
            return rng.random((size, n))
        weights = bootstrap_weights

    def work(start, size, drawn):
        sums = (weights(drawn, dtype) @ s2).astype(np.float64).reshape(size, k, d)
        out[start : start + size] = data.score(sums)

    def done(start, size, _):
        if progress is not None:
            progress(span[0] + (span[1] - span[0]) * (start + size) / n_resamples)

    # chunks of resamples (bounded memory)
    in_threads(jobs, chunks(n_resamples, c), draw, work, done)
    return out
