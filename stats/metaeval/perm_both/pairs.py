r"""MTME's item-pair permutation test (``perm_test='pairs'``): PERM-BOTH over the pairwise
comparisons of acc23, the test WMT24-25 use for segment-level tie-calibrated acc23.

``mt_metrics_eval.stats.PairwisePermutationSigDiff`` fixes each metric's epsilon once (the
tie-calibrated one unless given; ties are metric differences :math:`|x_s - x_t| \le \epsilon`)
and swaps, for every pair of cells :math:`(s, t)` of a group independently with probability
1/2, which metric's comparison of the pair each permuted metric takes. acc23 of a group is the
share of its pairs compared correctly (both tied, or both untied with the same sign as gold),
averaged over the groups with a pair, so with :math:`c^a_j, c^b_j \in \{0, 1\}` the two
metrics' correctness of pair :math:`j` and :math:`\omega_j` its weight
(:math:`1 / (p_g n_g)`),

.. math::

    \mathrm{acc}(\tilde a) - \mathrm{acc}(\tilde b) = \sum_j s_j\, \omega_j (c^a_j - c^b_j),
    \qquad s_j = -1 \text{ for a swapped pair, else } 1,

one matrix product of the signs with the pairs' weighted differences for every resample and
pair of metrics. Unlike PERM-BOTH over scores, the permuted metrics need not arise from any
pair of score vectors (as MTME's docstring says); each metric keeps its own epsilon.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from stats._core.budget import PRODUCT_SPEEDUP, check_budget
from stats._core.errors import StatsInputError
from stats._core.validation import metric_arrays_like
from stats.metaeval.meta_eval import GROUPINGS, check_choice, group_rows, meta_correlation

from .engine import PermBothResult, check_metric_count, metric_pairs, ranked, resampling, run

__all__ = ["perm_both_pairs"]

#: pairs of cells held at once (every metric's correctness of each)
MAX_PAIRS = 5_000_000


def perm_both_pairs(
    metrics: Mapping[str, object],
    gold,
    *,
    grouping: str = "item",
    epsilon: float | None = None,
    n_resamples: int = 1000,
    early_stopping: bool = False,
    block_size: int = 1000,
    return_draws: bool = False,
    rng=None,
    progress=None,
) -> PermBothResult:
    """Item-pair permutation tests of every pair of metrics on segment-level acc23.

    Parameters
    ----------
    metrics : mapping of str to array_like, shape (n_systems, n_items)
    gold : array_like, shape (n_systems, n_items)
        NaN where missing.
    grouping : {'item', 'system', 'none'}
        As :func:`stats.metaeval.meta_eval.meta_correlation` (pairs are formed within groups).
    epsilon : float or None
        The metrics' tie threshold; None (default) calibrates each metric's own, as MTME's
        ``epsilon1=epsilon2=None``.
    n_resamples, early_stopping, block_size, return_draws, rng, progress
        As :func:`stats.metaeval.perm_both.core.perm_both`; a resample draws one swap per pair of cells.

    Returns
    -------
    PermBothResult
        ``correlation='acc23'``; ``correlations`` the metrics' acc23 at their epsilons.

    Raises
    ------
    StatsInputError
        Fewer than two metrics, shapes that differ, more than :data:`MAX_PAIRS` pairs of cells
        (use grouping 'item').
    """
    check_choice(grouping, GROUPINGS, "grouping")
    resampling_settings = resampling(
        n_resamples=n_resamples,
        early_stopping=early_stopping,
        block_size=block_size,
        return_draws=return_draws,
        rng=rng,
        progress=progress,
    )
    names = list(metrics)
    check_metric_count(len(names))
    gold_matrix = np.asarray(gold, dtype=float)
    arrays = metric_arrays_like({m: metrics[m] for m in names}, gold_matrix)
    gold_rows, _ = group_rows(gold_matrix, gold_matrix, grouping)
    valid = ~np.isnan(gold_rows)
    n = valid.sum(axis=1)
    npairs = n * (n - 1) // 2
    total = int(npairs.sum())
    if total > MAX_PAIRS:
        raise StatsInputError(
            f"the item-pair permutation holds {total:,} pairs of cells, more than "
            f"{MAX_PAIRS:,}; use grouping 'item' (WMT's choice)"
        )
    check_budget(
        what="PERM-BOTH (item pairs)",
        n_resamples=resampling_settings.n_resamples,
        n_segments=max(1, total),
        n_metrics=len(names),
        n_pairs=len(names) * (len(names) - 1) // 2,
        pair_cost=max(1, total) / PRODUCT_SPEEDUP,  # one matrix product per chunk
    )
    fits = {
        m: meta_correlation(
            arrays[m],
            gold_matrix,
            correlation="acc23",
            grouping=grouping,
            epsilon=epsilon,
            tie_calibration=epsilon is None,
        )
        for m in names
    }
    observed = {m: fits[m].statistic for m in names}
    order = ranked(observed)
    c = gold_rows.shape[1]
    gi, si, ti = np.nonzero(
        valid[:, :, None] & valid[:, None, :] & np.triu(np.ones((c, c), dtype=bool), 1)
    )
    dg = gold_rows[gi, si] - gold_rows[gi, ti]
    n_groups = int((npairs > 0).sum())
    weight = 1.0 / (npairs[gi] * max(1, n_groups))
    correct = {}
    for m in order:
        eps = float(epsilon) if epsilon is not None else float(getattr(fits[m], "epsilon", 0.0))
        x = group_rows(gold_matrix, arrays[m], grouping)[1]
        d = x[gi, si] - x[gi, ti]
        m_tie = np.abs(d) <= eps
        g_tie = dg == 0
        ok = (g_tie & m_tie) | (~g_tie & ~m_tie & ((dg > 0) == (d > 0)))
        correct[m] = ok.astype(float) * weight
    pairs = metric_pairs(order)
    D = np.stack([correct[a] - correct[b] for a, b in pairs], axis=1) if total else None

    def differences(swaps, idx):
        if D is None:
            return np.full((swaps.shape[0], len(idx)), np.nan)
        # every pair active (no early stopping): D itself, not a copy of it per chunk
        Dk = D if len(idx) == D.shape[1] else D[:, idx]
        return (1.0 - 2.0 * swaps) @ Dk  # a swapped pair (swaps true) changes sides

    return run(
        differences,
        order,
        observed,
        shape=(total,),
        chunk=max(1, 10_000_000 // max(1, total)),
        resampling=resampling_settings,
        correlation="acc23",
        grouping=grouping,
        level="seg",
    )
