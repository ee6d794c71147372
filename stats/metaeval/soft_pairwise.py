r"""Soft pairwise accuracy (Thompson, Mathur, Deutsch & Khayrallah, WMT 2024).

Pairwise accuracy counts the system pairs that a metric orders as humans do. Soft pairwise
accuracy compares instead how *confident* each side is: for every pair of systems
:math:`(i, j)`, a one-sided paired permutation test on the segment scores gives
:math:`p^{h}_{ij}` (humans) and :math:`p^{m}_{ij}` (the metric) for ":math:`i` better than
:math:`j`", and

.. math::

    \mathrm{SPA} = 1 - \binom{S}{2}^{-1} \sum_{i<j} \bigl|p^{h}_{ij} - p^{m}_{ij}\bigr| .

The permutation test of a pair flips the sign of each item's difference with probability 1/2:
with :math:`\sigma^{(r)} \in \{\pm 1\}^{I}`,

.. math::

    p_{ij} = \frac{1}{R} \sum_{r=1}^{R}
    \mathbb{1}\Bigl[\textstyle\sum_k \sigma^{(r)}_k (x_{ik} - x_{jk}) \ge \sum_k (x_{ik} - x_{jk})
    \Bigr],

computed for all pairs at once from the products :math:`\sigma x_i^\top` (the same signs serve
every pair, and humans and metric, as in the reference implementation). Only the items that
humans scored for every system are used.

References
----------
B. Thompson, N. Mathur, D. Deutsch and H. Khayrallah. 2024. Improving Statistical Significance
in Human Evaluation of Automatic Metrics via Soft Pairwise Accuracy. Ninth Conference on
Machine Translation (WMT). https://arxiv.org/abs/2409.09598
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError
from stats._core.random import check_rng
from stats._core.results import StatisticPvalue
from stats._core.validation import check_positive_int, metric_arrays_like

__all__ = ["SoftPairwiseAccuracyResult", "pairwise_permutation_pvalues", "soft_pairwise_accuracy"]

_TOL = 1e-12


@dataclass(frozen=True, kw_only=True)
class SoftPairwiseAccuracyResult(StatisticPvalue):
    """Result of :func:`soft_pairwise_accuracy` for one language pair.

    Attributes
    ----------
    statistic : Series
        Soft pairwise accuracy of each metric, best first.
    pvalue : float
        Always NaN (a meta-metric, not a test).
    human_pvalues : ndarray, shape (S, S)
        :math:`p^h_{ij}` for :math:`i < j` (upper triangle; NaN elsewhere), systems in input
        order.
    metric_pvalues : dict
        Metric -> its :math:`p^m` matrix, same layout.
    n_items : int
        Items scored by humans for every system (the ones used).
    n_resamples : int
    """

    statistic: pd.Series
    pvalue: float
    human_pvalues: np.ndarray
    metric_pvalues: dict
    n_items: int
    n_resamples: int


def pairwise_permutation_pvalues(scores, signs: np.ndarray) -> np.ndarray:
    """One-sided paired permutation p-values of "system i better than system j" for every
    pair, from ``scores`` (S x I) and the sign matrix ``signs`` (R x I of +-1); the upper
    triangle is filled, the rest NaN."""
    x = np.asarray(scores, dtype=float)
    partial = signs @ x.T  # R x S
    total = x.sum(axis=1)
    observed = total[:, None] - total[None, :]
    null = partial[:, :, None] - partial[:, None, :]  # R x S x S
    tol = _TOL * np.maximum(1.0, np.abs(observed))
    p = (null >= observed - tol).mean(axis=0)
    out = np.full(p.shape, np.nan)
    iu = np.triu_indices(len(x), 1)
    out[iu] = p[iu]
    return out


def soft_pairwise_accuracy(
    metrics: Mapping[str, object], gold, *, n_resamples: int = 1000, rng=None
) -> SoftPairwiseAccuracyResult:
    """Soft pairwise accuracy of every metric against the gold scores (module notes).

    Parameters
    ----------
    metrics : mapping of str to array_like, shape (n_systems, n_items)
        Segment scores of each metric.
    gold : array_like, shape (n_systems, n_items)
        Human scores, NaN where missing; items without a human score for some system are
        left out.
    n_resamples : int
        Sign flips of the permutation tests (default 1000).
    rng : int, Generator or None
        Seed or generator (:func:`stats._core.random.check_rng`).

    Raises
    ------
    StatsInputError
        Shapes that differ, fewer than two systems, no item scored by humans for every
        system, a bad ``n_resamples``.

    Examples
    --------
    Two metrics scored against humans over 4 systems x 30 items.

    >>> import numpy as np
    >>> from stats import soft_pairwise_accuracy
    >>> rng = np.random.default_rng(0)
    >>> gold = rng.normal(size=(4, 30)) + np.arange(4)[:, None]
    >>> metrics = {'close': gold + rng.normal(0, 0.5, gold.shape), 'noisy': gold + rng.normal(0, 3, gold.shape)}
    >>> res = soft_pairwise_accuracy(metrics, gold, n_resamples=200, rng=1)
    >>> res.statistic.round(3).to_dict()
    {'close': 0.999, 'noisy': 0.924}
    """
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    gold_matrix = np.asarray(gold, dtype=float)
    if gold_matrix.ndim != 2 or gold_matrix.shape[0] < 2:
        raise StatsInputError(
            f"gold must be (systems x items) with 2+ systems; got {gold_matrix.shape}"
        )
    keep = ~np.isnan(gold_matrix).any(axis=0)
    if not keep.any():
        raise StatsInputError("gold: no item has a human score for every system")
    arrays = {m: a[:, keep] for m, a in metric_arrays_like(metrics, gold_matrix).items()}
    gold_matrix = gold_matrix[:, keep]
    gen = check_rng(rng)
    signs = np.where(gen.random((n_resamples, gold_matrix.shape[1])) < 0.5, -1.0, 1.0)
    human = pairwise_permutation_pvalues(gold_matrix, signs)
    iu = np.triu_indices(gold_matrix.shape[0], 1)
    mp = {m: pairwise_permutation_pvalues(a, signs) for m, a in arrays.items()}
    spa = {m: 1.0 - float(np.mean(np.abs(human[iu] - p[iu]))) for m, p in mp.items()}
    order = sorted(spa, key=lambda m: (-spa[m], m))
    return SoftPairwiseAccuracyResult(
        statistic=pd.Series({m: spa[m] for m in order}, dtype=float),
        pvalue=float("nan"),
        human_pvalues=human,
        metric_pvalues=mp,
        n_items=int(keep.sum()),
        n_resamples=n_resamples,
    )
