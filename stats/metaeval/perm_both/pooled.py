r"""PERM-BOTH for system-level pairwise accuracy pooled over language pairs (MTME's global
accuracy, Kocmi et al. 2021).

The accuracy of a metric over several language pairs counts the pairs of systems of the same
language pair that the metric orders as humans do (equal signs of the differences, ties
included), over all such pairs:

.. math::

    \mathrm{acc} = \frac{\sum_\ell \#\{i<j \in \ell:\ \operatorname{sign}(h_i - h_j) =
    \operatorname{sign}(m_i - m_j)\}}{\sum_\ell \binom{S_\ell}{2}}.

PERM-BOTH as ``mt_metrics_eval.data.CompareMetricsWithGlobalAccuracy`` defines it: the system
scores of all language pairs are concatenated, each metric standardised over the
concatenation, and each (language pair, system) cell's pair of scores swapped with probability
1/2. The difference of the two permuted accuracies is linear in the swaps
(:mod:`stats.metaeval.perm_both._linear`), so every resample and pair of metrics is one matrix product.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from stats._core.errors import StatsInputError
from stats.metaeval.perm_both import _linear as _perm_linear

from .engine import (
    PermBothResult,
    check_metric_count,
    metric_pairs,
    ranked,
    resampling,
    run,
    zscore,
)

__all__ = ["perm_both_pooled_accuracy"]


def perm_both_pooled_accuracy(
    metrics: Mapping[str, Mapping[str, object]],
    gold: Mapping[str, object],
    *,
    n_resamples: int = 1000,
    early_stopping: bool = False,
    block_size: int = 1000,
    return_draws: bool = False,
    rng=None,
    progress=None,
) -> PermBothResult:
    """PERM-BOTH tests of every pair of metrics on pairwise accuracy pooled over language pairs.

    Parameters
    ----------
    metrics : mapping of language pair to a mapping of metric name to array_like (n_systems,)
        Each language pair's system-level scores of each metric (the same metrics in every
        language pair).
    gold : mapping of language pair to array_like (n_systems,)
        Human system scores, NaN for a system without one (left out, as MTME's None).
    n_resamples, early_stopping, block_size, return_draws, rng, progress
        As :func:`stats.metaeval.perm_both.core.perm_both`.

    Returns
    -------
    PermBothResult
        ``correlation='pairwise-accuracy'``, ``level='sys'``, ``grouping='pooled'``.

    Raises
    ------
    StatsInputError
        No language pair, metrics that differ between language pairs, fewer than two metrics,
        lengths that differ from the gold's.

    Examples
    --------
    System-level pairwise accuracy pooled over two language pairs.

    >>> from stats import perm_both_pooled_accuracy
    >>> gold = {'en-de': [1.0, 2.0, 3.0, 4.0], 'en-ja': [2.0, 1.0, 3.0]}
    >>> metrics = {'en-de': {'a': [1.0, 2.0, 3.0, 4.0], 'b': [2.0, 1.0, 4.0, 3.0]}, 'en-ja': {'a': [2.0, 1.0, 3.0], 'b': [1.0, 2.0, 3.0]}}
    >>> res = perm_both_pooled_accuracy(metrics, gold, n_resamples=100, rng=1)
    >>> res.correlations.round(3).to_dict()
    {'a': 1.0, 'b': 0.667}
    """
    resampling_settings = resampling(
        n_resamples=n_resamples,
        early_stopping=early_stopping,
        block_size=block_size,
        return_draws=return_draws,
        rng=rng,
        progress=progress,
    )
    lps = list(gold)
    if not lps:
        raise StatsInputError("gold: no language pair given")
    names = list(metrics.get(lps[0], {}))
    for lp in lps:
        if lp not in metrics or set(metrics[lp]) != set(names):
            raise StatsInputError(
                f"metrics[{lp!r}]: every language pair needs the same metrics as {lps[0]!r}"
            )
    check_metric_count(len(names))
    golds = [np.asarray(gold[lp], dtype=float).ravel() for lp in lps]
    width = max(len(g) for g in golds)
    # systems x language pairs, NaN-padded: a group (column) per language pair
    gold_matrix = np.full((width, len(lps)), np.nan)
    arrays = {m: np.zeros((width, len(lps))) for m in names}
    for j, (lp, g) in enumerate(zip(lps, golds, strict=True)):
        gold_matrix[: len(g), j] = g
        for m in names:
            v = np.asarray(metrics[lp][m], dtype=float).ravel()
            if v.shape != g.shape:
                raise StatsInputError(
                    f"metrics[{lp!r}][{m!r}] has {v.size} scores but gold has {g.size}"
                )
            if not np.isfinite(v[~np.isnan(g)]).all():
                raise StatsInputError(f"metrics[{lp!r}][{m!r}]: scores must be finite numbers")
            arrays[m][: len(g), j] = np.nan_to_num(v)
    valid = ~np.isnan(gold_matrix)
    if int(sum(math.comb(int(k), 2) for k in valid.sum(axis=0))) == 0:
        raise StatsInputError("gold: no language pair has two systems with human scores")
    observed = {m: _pooled_accuracy(gold_matrix, arrays[m]) for m in names}
    order = ranked(observed)
    standardised = {m: zscore(arrays[m], valid) for m in order}  # over the concatenation, as MTME
    pairs = metric_pairs(order)
    const, coefficients, _ = _perm_linear.linear_terms(
        gold_matrix, standardised, pairs, "acc23", "item", 0.0, 0.0, pooled=True
    )

    def differences(swaps, idx):
        return _perm_linear.linear_differences(swaps, const[idx], coefficients[:, idx])

    return run(
        differences,
        order,
        observed,
        shape=gold_matrix.shape,
        chunk=max(1, 10_000_000 // max(1, gold_matrix.size)),
        resampling=resampling_settings,
        correlation="pairwise-accuracy",
        grouping="pooled",
        level="sys",
    )


def _pooled_accuracy(gold: np.ndarray, metric: np.ndarray) -> float:
    """Agreements over all within-column pairs of systems with gold scores."""
    agree = pairs = 0
    for j in range(gold.shape[1]):
        ok = ~np.isnan(gold[:, j])
        g, m = gold[ok, j], metric[ok, j]
        iu = np.triu_indices(len(g), 1)
        dg = np.sign(g[:, None] - g[None, :])[iu]
        dm = np.sign(m[:, None] - m[None, :])[iu]
        agree += int((dg == dm).sum())
        pairs += len(dg)
    return agree / pairs
