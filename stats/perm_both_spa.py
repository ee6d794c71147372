r"""PERM-BOTH for soft pairwise accuracy (SPA; Thompson et al., WMT 2024), as MTME defines it.

MTME tests the difference of two metrics' SPA (``data.CompareMetricsWithPairwiseConfidenceError``)
with its PERM-BOTH test (``stats.PermutationSigDiff``, no grouping): both metrics' segment
scores standardised, each (system, item) cell's pair of scores swapped with probability 1/2,
and the SPA of each permuted metric computed again, its pairwise permutation p-values included.

The inner permutation tests (sign flips of the items' differences, as
:func:`stats.soft_pairwise.soft_pairwise_accuracy`) use one set of ``n_permutations`` sign
vectors for the humans and every permuted metric, as MTME (``pce.compute_pairwise_p_values``
seeds its generator with a fixed seed in every call, so every call flips the same signs; ours
come from ``rng``). The permuted metrics' partial sums are linear in the swaps:
for :math:`\tilde a = a + w \circ (b - a)`, :math:`\sigma \tilde a_s^\top = \sigma a_s^\top +
\sigma (w_s \circ (b_s - a_s))^\top`, so a chunk of resamples is one matrix product with the
sign matrix, and :math:`\tilde b`'s sums are :math:`\sigma(a_s + b_s)^\top` minus
:math:`\tilde a`'s.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ._errors import StatsInputError
from ._progress import check_progress
from ._validation import check_positive_int
from .perm_both import PermBothResult, _resample, _result, _zscore
from .soft_pairwise import pairwise_permutation_pvalues, soft_pairwise_accuracy

__all__ = ["perm_both_soft_pairwise"]

_TOL = 1e-12
#: resamples x permutations x systems held at once
_CHUNK = 2_000_000


def perm_both_soft_pairwise(
    metrics: Mapping[str, object],
    gold,
    *,
    n_resamples: int = 1000,
    n_permutations: int = 1000,
    early_stopping: bool = False,
    block_size: int = 1000,
    return_draws: bool = False,
    rng=None,
    progress=None,
) -> PermBothResult:
    """PERM-BOTH tests of every pair of metrics on soft pairwise accuracy (module notes).

    Parameters
    ----------
    metrics : mapping of str to array_like, shape (n_systems, n_items)
    gold : array_like, shape (n_systems, n_items)
        Human scores, NaN where missing; items without a human score for every system are
        left out (as :func:`~stats.soft_pairwise.soft_pairwise_accuracy`).
    n_resamples : int
        PERM-BOTH swaps (default 1000).
    n_permutations : int
        Sign flips of the inner pairwise permutation tests (default 1000, MTME's).
    early_stopping, block_size, return_draws, progress
        As :func:`stats.perm_both.perm_both`.
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
        As :func:`~stats.soft_pairwise.soft_pairwise_accuracy`; fewer than two metrics.
    """
    check_progress(progress)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    n_permutations = check_positive_int(n_permutations, "n_permutations")
    block_size = check_positive_int(block_size, "block_size")
    if len(metrics) < 2:
        raise StatsInputError(f"metrics: PERM-BOTH needs at least two metrics; got {len(metrics)}")
    gen = np.random.default_rng(rng)
    state = gen.bit_generator.state
    spa = soft_pairwise_accuracy(metrics, gold, n_resamples=n_permutations, rng=gen)
    gen.bit_generator.state = state
    G = np.asarray(gold, dtype=float)
    keep = ~np.isnan(G).any(axis=0)
    G = G[:, keep]
    signs = np.where(gen.random((n_permutations, G.shape[1])) < 0.5, -1.0, 1.0)
    order = list(spa.statistic.index)
    Z = {
        m: _zscore(np.asarray(metrics[m], dtype=float)[:, keep], np.ones(G.shape, bool))
        for m in order
    }
    human = pairwise_permutation_pvalues(G, signs)
    iu = np.triu_indices(G.shape[0], 1)
    p_h = human[iu]
    partial = {m: signs @ z.T for m, z in Z.items()}  # permutations x systems
    total = {m: z.sum(axis=1) for m, z in Z.items()}
    pairs = [(order[i], order[j]) for i in range(len(order)) for j in range(i + 1, len(order))]

    def spa_rows(P, T):
        """SPA per resample from partial sums P (R x K x S) and totals T (R x S)."""
        obs = T[:, iu[0]] - T[:, iu[1]]  # R x pairs
        null = P[:, :, iu[0]] - P[:, :, iu[1]]  # R x K x pairs
        tol = _TOL * np.maximum(1.0, np.abs(obs))
        p = (null >= (obs - tol)[:, None, :]).mean(axis=1)
        return 1.0 - np.abs(p - p_h[None, :]).mean(axis=1)

    def differences(W, idx):
        R = W.shape[0]
        out = np.empty((R, len(idx)))
        S, n_items = G.shape
        width = max(1, _CHUNK // max(1, n_permutations * S))
        for col, k in enumerate(idx):
            a, b = pairs[k]
            d = Z[b] - Z[a]
            for r0 in range(0, R, width):
                xw = np.where(W[r0 : r0 + width], d, 0.0)  # the swapped cells' changes
                q = (xw.reshape(-1, n_items) @ signs.T).reshape(len(xw), S, -1)
                q = q.transpose(0, 2, 1)  # R x K x S
                t = xw.sum(axis=2)
                spa_a = spa_rows(partial[a][None] + q, total[a][None] + t)
                spa_b = spa_rows(partial[b][None] - q, total[b][None] - t)
                out[r0 : r0 + width, col] = spa_a - spa_b
        return out

    delta, counts, used, kept = _resample(
        differences,
        len(pairs),
        G.shape,
        n_resamples=n_resamples,
        block_size=block_size,
        early_stopping=early_stopping,
        return_draws=return_draws,
        chunk=max(1, 20_000_000 // max(1, G.size)),
        rng=gen,
        progress=progress,
    )
    return _result(
        order,
        spa.statistic.to_dict(),
        delta,
        counts,
        used,
        kept,
        correlation="soft-pairwise-accuracy",
        grouping="none",
        level="sys",
        n_resamples=n_resamples,
        early_stopping=early_stopping,
    )
