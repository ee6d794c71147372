r"""PERM-BOTH for soft pairwise accuracy (SPA; Thompson et al., WMT 2024), as MTME defines it.

MTME tests the difference of two metrics' SPA (``data.CompareMetricsWithPairwiseConfidenceError``)
with its PERM-BOTH test (``stats.PermutationSigDiff``, no grouping): both metrics' segment
scores standardised, each (system, item) cell's pair of scores swapped with probability 1/2,
and the SPA of each permuted metric computed again, its pairwise permutation p-values included.

The inner permutation tests (sign flips of the items' differences, as
:func:`stats.metaeval.soft_pairwise.soft_pairwise_accuracy`) use one set of ``n_permutations`` sign
vectors for the humans and every permuted metric, as MTME (``pce.compute_pairwise_p_values``
seeds its generator with a fixed seed in every call, so every call flips the same signs; ours
come from ``rng``). The permuted metrics' partial sums are linear in the swaps:
for :math:`\tilde a = a + w \circ (b - a)`, :math:`\sigma \tilde a_s^\top = \sigma a_s^\top +
\sigma (w_s \circ (b_s - a_s))^\top`, and the last term is :math:`Q_b - Q_a` with :math:`Q_m =
\sigma (w_s \circ m_s)^\top`: a span of resamples is one matrix product with the sign matrix
per metric (not per pair of metrics), and :math:`\tilde b`'s sums are :math:`\sigma b_s^\top -
(Q_b - Q_a)`. What remains, counting for every resample, pair of metrics and pair of systems the
sign flips whose null sum reaches the observed one, is a compiled loop
(:mod:`stats.metaeval.perm_both._spa_numba`) on threads over fixed spans of resamples.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from stats._core.random import check_rng
from stats._core.validation import check_positive_int
from stats.metaeval.perm_both import _spa_numba
from stats.metaeval.soft_pairwise import pairwise_permutation_pvalues, soft_pairwise_accuracy

from .engine import (
    TOL,
    CorrelationSpec,
    PermBothResult,
    check_metric_count,
    resampling,
    run,
    zscore,
)

__all__ = ["perm_both_soft_pairwise"]

_TOL = TOL  # the engine's rule for "at least as large"
#: bytes of the per-metric partial sums (metrics x resamples x systems x permutations) of
#: one span of resamples; each thread holds one span (under glibc's 32 MiB mmap threshold, so
#: the buffers are reused rather than mapped and faulted in afresh)
_Q_BYTES = 16_000_000


def perm_both_soft_pairwise(
    metrics: Mapping[str, object],
    gold,
    *,
    n_resamples: int = 1000,
    n_permutations: int = 1000,
    early_stopping: bool = False,
    block_size: int = 1000,
    return_draws: bool = False,
    jobs: int | None = None,
    rng=None,
    progress=None,
) -> PermBothResult:
    """PERM-BOTH tests of every pair of metrics on soft pairwise accuracy (module notes).

    Parameters
    ----------
    metrics : mapping of str to array_like, shape (n_systems, n_items)
    gold : array_like, shape (n_systems, n_items)
        Human scores, NaN where missing; items without a human score for every system are
        left out (as :func:`~stats.metaeval.soft_pairwise.soft_pairwise_accuracy`).
    n_resamples : int
        PERM-BOTH swaps (default 1000).
    n_permutations : int
        Sign flips of the inner pairwise permutation tests (default 1000, MTME's).
    early_stopping, block_size, return_draws, progress
        As :func:`stats.metaeval.perm_both.core.perm_both`.
    jobs : int, optional
        Threads over spans of resamples (default: all cores); the spans are fixed, so any
        number gives the same bytes.
    rng : int, Generator or None
        One generator: the inner sign flips first (the same as
        ``soft_pairwise_accuracy(..., n_resamples=n_permutations, rng=rng)``, whose values are
        ``correlations``), then the swaps.

    Returns
    -------
    PermBothResult
        ``correlation='soft-pairwise-accuracy'``, ``level='sys'``.

    Raises
    ------
    StatsInputError
        As :func:`~stats.metaeval.soft_pairwise.soft_pairwise_accuracy`; fewer than two metrics.
    """
    gen = check_rng(rng)
    resampling_settings = resampling(
        n_resamples=n_resamples,
        early_stopping=early_stopping,
        block_size=block_size,
        return_draws=return_draws,
        rng=gen,  # after the inner sign flips
        progress=progress,
    )
    n_permutations = check_positive_int(n_permutations, "n_permutations")
    n_jobs = (os.cpu_count() or 1) if jobs is None else check_positive_int(jobs, "jobs")
    check_metric_count(len(metrics))
    state = gen.bit_generator.state
    spa = soft_pairwise_accuracy(metrics, gold, n_resamples=n_permutations, rng=gen)
    gen.bit_generator.state = state
    gold_matrix = np.asarray(gold, dtype=float)
    keep = ~np.isnan(gold_matrix).any(axis=0)
    gold_matrix = gold_matrix[:, keep]
    signs = np.where(gen.random((n_permutations, gold_matrix.shape[1])) < 0.5, -1.0, 1.0)
    order = list(spa.statistic.index)
    standardised = {
        m: zscore(np.asarray(metrics[m], dtype=float)[:, keep], np.ones(gold_matrix.shape, bool))
        for m in order
    }
    human = pairwise_permutation_pvalues(gold_matrix, signs)
    iu = np.triu_indices(gold_matrix.shape[0], 1)
    p_h = human[iu]
    base = np.stack(
        [(signs @ standardised[m].T).T for m in order]
    )  # metrics x systems x permutations
    total = np.stack([standardised[m].sum(axis=1) for m in order])  # metrics x systems
    Zs = np.stack([standardised[m] for m in order])
    pairs = [(i, j) for i in range(len(order)) for j in range(i + 1, len(order))]
    S, n_items = gold_matrix.shape
    K = n_permutations
    spec = CorrelationSpec(correlation="soft-pairwise-accuracy")
    kernel = _spa_numba.compiled() if _spa_numba.applies(gold_matrix, spec) else None
    former_span = max(1, 2_000_000 // max(1, K * S))  # resamples of the former code's spans

    def span(swaps, single, pa, pb, used_m, buf):
        """SPA differences of the resamples ``swaps`` (one span) for the columns ``pa``/``pb``
        (positions in ``used_m``, the metrics they use); ``buf``: the thread's (Q, T, xw)."""
        R = swaps.shape[0]
        Q, T, xw = buf  # reused span after span (no fresh pages to fault in)
        xw = xw[:R]
        for u, m in enumerate(used_m):  # linear in the swaps: one product per metric, not pair
            np.copyto(xw, 0.0)
            np.copyto(xw, Zs[m], where=swaps)  # the swapped cells' scores
            np.matmul(xw.reshape(-1, n_items), signs.T, out=Q[u, :R].reshape(-1, K))
            np.sum(xw, axis=2, out=T[u, :R])
        t = (T[pb, :R] - T[pa, :R]).transpose(1, 0, 2)  # R x columns x systems
        tot = np.stack([total[used_m[pa]] + t, total[used_m[pb]] - t], axis=2)  # R x c x 2 x S
        obs = tot[..., iu[0]] - tot[..., iu[1]]
        thr = obs - _TOL * np.maximum(1.0, np.abs(obs))
        if kernel is not None:
            n = np.empty(thr.shape, dtype=np.int64)
            kernel(Q, base[used_m], thr, pa, pb, np.arange(R), n)
        else:
            n = _spa_numba.counts_numpy(Q[:, :R], base[used_m], thr, pa, pb)
        x = np.abs(n / K - p_h)  # R x columns x 2 x system pairs
        # mean over the system pairs in the former array code's order (same bytes): a running
        # sum, but numpy's pairwise sum where that code's span had one resample
        mean = np.ascontiguousarray(np.moveaxis(x, -1, 0)).sum(axis=0) / x.shape[-1]
        mean[single] = x[single].mean(axis=-1)
        spa = 1.0 - mean
        return spa[..., 0] - spa[..., 1]

    def differences(swaps, idx):
        R = swaps.shape[0]
        used_m, cols = np.unique([pairs[k] for k in idx], return_inverse=True)
        cols = cols.reshape(len(idx), 2).astype(np.int64)
        pa, pb = np.ascontiguousarray(cols[:, 0]), np.ascontiguousarray(cols[:, 1])
        width = min(R, max(1, _Q_BYTES // (8 * len(used_m) * S * K)))
        starts = range(0, R, width)
        out = np.empty((R, len(idx)))
        single = np.zeros(R, dtype=bool)
        single[-1] = (R - 1) % former_span == 0
        n_threads = min(n_jobs, len(starts))

        def thread(t):  # spans t, t + n_threads, ...: fixed spans, so any n_jobs, same bytes
            buf = (
                np.empty((len(used_m), width, S, K)),
                np.empty((len(used_m), width, S)),
                np.empty((width, S, n_items)),
            )
            for r0 in starts[t::n_threads]:
                rows = slice(r0, r0 + width)
                out[rows] = span(swaps[rows], single[rows], pa, pb, used_m, buf)

        if n_threads > 1:
            with ThreadPoolExecutor(n_threads) as pool:
                list(pool.map(thread, range(n_threads)))
        else:
            thread(0)
        return out

    return run(
        differences,
        order,
        spa.statistic.to_dict(),
        shape=gold_matrix.shape,
        chunk=max(1, 20_000_000 // max(1, gold_matrix.size)),
        resampling=resampling_settings,
        correlation="soft-pairwise-accuracy",
        grouping="none",
        level="sys",
    )
