"""The one resampling engine of the PERM-BOTH tests (:func:`~stats.metaeval.perm_both.core.
perm_both`, :func:`~stats.metaeval.perm_both.pairs.perm_both_pairs`,
:func:`~stats.metaeval.perm_both.pooled.perm_both_pooled_accuracy`,
:func:`~stats.metaeval.perm_both.spa.perm_both_soft_pairwise`).

An entry point validates its own inputs, ranks the metrics by their observed correlation and
gives :func:`run` a ``differences(swaps, idx)`` function: the permuted differences (resamples x
pairs ``idx``) for a chunk of swaps ``swaps``. :func:`run` draws the swaps, counts, stops early as
MTME and builds the :class:`~stats.metaeval.perm_both.core.PermBothResult`.

The five correlation settings travel together as one :class:`CorrelationSpec`; every compiled
kernel module (``_linear``, ``_long``, ``_ties``, ``_calibrated``, ``_calibrated_one``,
``_spa_numba``) answers ``applies(gold, spec) -> bool``: whether it can serve the test of the gold
scores ``gold`` under ``spec``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields

import numpy as np
import pandas as pd

from stats._core.choices import KENDALL_LIKE_THRESHOLD, MIN_GROUP_SIZE
from stats._core.errors import StatsInputError
from stats._core.progress import check_progress
from stats._core.random import check_rng
from stats._core.results import StatisticPvalue
from stats._core.validation import check_positive_int, warn_degenerate

__all__ = ["CorrelationSpec", "PermBothResult"]

#: early stopping as MTME's PermutationSigDiffParams: after each block, stop a pair whose p
#: so far is below EARLY_MIN or above EARLY_MAX
EARLY_MIN, EARLY_MAX = 0.02, 0.5
#: "at least as large" up to this relative tolerance (a resample equal to the data counts)
TOL = 1e-12


@dataclass(frozen=True)
class CorrelationSpec:
    """The correlation a PERM-BOTH test compares, as
    :func:`stats.metaeval.meta_eval.meta_correlation` takes it.

    Attributes
    ----------
    correlation : str
        One of :data:`stats.metaeval.meta_eval.CORRELATIONS`.
    grouping : {'none', 'item', 'system'}
    epsilon : float or None
        Fixed tie threshold of the metric scores (None: 0, or calibrated).
    tie_calibration : bool
        acc23's epsilon calibrated on each (permuted) metric, as MTME.
    threshold : float
        kendall-like's threshold.
    min_group_size : int
        Fewest items a correlation coefficient is computed over (3; 2 follows MTME).
    """

    correlation: str = "pearson"
    grouping: str = "none"
    epsilon: float | None = None
    tie_calibration: bool = False
    threshold: float = KENDALL_LIKE_THRESHOLD
    min_group_size: int = MIN_GROUP_SIZE

    @property
    def eps(self) -> float:
        """The fixed epsilon as a number (0 without one)."""
        return 0.0 if self.epsilon is None else float(self.epsilon)

    def options(self) -> dict:
        """Keyword arguments of :func:`~stats.metaeval.meta_eval.meta_correlation`: the
        fields, by name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True, kw_only=True)
class PermBothResult(StatisticPvalue):
    """Result of :func:`perm_both`: every pair of metrics of one language pair.

    Square DataFrames indexed and columned by ``metrics`` (best first); cell ``(row, col)``
    holds the test that ``row`` correlates better than ``col`` and is filled only for ``row``
    before ``col``; the mirror cell and the diagonal are NaN.

    Attributes
    ----------
    statistic : DataFrame
        Observed difference of the standardised metrics' correlations, row minus column.
    pvalue : DataFrame
        Share of the permuted differences at least as large (one-sided in the observed
        direction, as the papers and MTME).
    metrics : tuple of str
        Best first (NaN correlation last; ties by name).
    correlations : Series
        Each metric's correlation (:func:`stats.metaeval.meta_eval.meta_correlation` on its scores).
    n_resamples_used : DataFrame
        Resamples each test used (fewer than ``n_resamples`` after early stopping).
    correlation, grouping, level : str
    n_resamples : int
    early_stopping : bool
    draws : ndarray of shape (n_pairs, n_resamples) or None
        With ``return_draws=True``: every resample's permuted difference
        :math:`c(\tilde a^{(r)}) - c(\tilde b^{(r)})`, one row per pair in the order of
        :attr:`pairs` (``np.triu_indices(len(metrics), 1)``: row metric before column metric),
        NaN after the pair's ``n_resamples_used``. Row ``k`` is MTME's
        ``TaskResults.Draws(a, b)[:, 0] - Draws(a, b)[:, 1]`` for ``(a, b) = pairs[k]``, all a
        task set needs (:meth:`pair_draws`; moving both correlations to [0, 1] scales the
        difference by ``1 / (hi - lo)``).
    """

    statistic: pd.DataFrame
    pvalue: pd.DataFrame
    metrics: tuple
    correlations: pd.Series
    n_resamples_used: pd.DataFrame
    correlation: str
    grouping: str
    level: str
    n_resamples: int
    early_stopping: bool
    draws: np.ndarray | None = None

    def __iter__(self):  # unpacks like scipy: statistic, pvalue
        return iter((self.statistic, self.pvalue))

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """Metric pairs ``(better, worse)`` in the row order of :attr:`draws`."""
        i, j = np.triu_indices(len(self.metrics), 1)
        return [(self.metrics[a], self.metrics[b]) for a, b in zip(i, j, strict=True)]

    def pair_draws(self, a: str, b: str) -> np.ndarray:
        """Permuted differences ``c(a~) - c(b~)`` of one pair, the resamples it used.

        Either order: ``pair_draws(b, a) == -pair_draws(a, b)`` (MTME's ``Draws(m1, m2)``
        convention that each draw pertains to ``(m1, m2)``).

        Raises
        ------
        StatsInputError
            No draws kept (``return_draws=False``), or a name not among :attr:`metrics`.
        """
        if self.draws is None:
            raise StatsInputError("draws: this test ran without return_draws=True")
        for m in (a, b):
            if m not in self.metrics:
                raise StatsInputError(f"metric {m!r} is not among {list(self.metrics)}")
        if a == b:
            raise StatsInputError(f"pair_draws needs two different metrics; got {a!r} twice")
        i, j = self.metrics.index(a), self.metrics.index(b)
        lo, hi = min(i, j), max(i, j)
        n = len(self.metrics)
        k = lo * n - lo * (lo + 1) // 2 + (hi - lo - 1)  # row of (lo, hi) in triu order
        used = int(self.n_resamples_used.iat[lo, hi])
        row = self.draws[k, :used]
        return row.copy() if i < j else -row


@dataclass(frozen=True)
class Resampling:
    """How a PERM-BOTH test resamples (validated by :func:`resampling`)."""

    n_resamples: int
    early_stopping: bool
    block_size: int
    return_draws: bool
    rng: np.random.Generator  # checked by stats._core.random.check_rng
    progress: Callable[[float], object] | None


def resampling(
    *, n_resamples, early_stopping, block_size, return_draws, rng, progress
) -> Resampling:
    """The resampling arguments every entry point takes, checked at the public boundary."""
    check_progress(progress)
    return Resampling(
        n_resamples=check_positive_int(n_resamples, "n_resamples"),
        early_stopping=bool(early_stopping),
        block_size=check_positive_int(block_size, "block_size"),
        return_draws=bool(return_draws),
        rng=check_rng(rng),
        progress=progress,
    )


def check_metric_count(n: int) -> None:
    if n < 2:
        raise StatsInputError(f"metrics: PERM-BOTH needs at least two metrics; got {n}")


def ranked(observed: dict) -> list:
    """Metric names best first (NaN correlation last; ties by name)."""
    return sorted(
        observed, key=lambda m: (math.isnan(observed[m]), -np.nan_to_num(observed[m]), m)
    )


def metric_pairs(order: Sequence) -> list[tuple]:
    """Every pair ``(better, worse)`` in ``np.triu_indices`` order."""
    return [(order[i], order[j]) for i in range(len(order)) for j in range(i + 1, len(order))]


def zscore(x: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """``x`` standardised over the cells ``valid`` (a constant metric only centred)."""
    v = x[valid]
    sd = v.std()
    return (x - v.mean()) / (sd if sd > 0 else 1.0)


def run(
    differences,
    order: Sequence,
    observed: dict,
    *,
    shape: tuple,
    chunk: int,
    resampling: Resampling,
    correlation: str,
    grouping: str,
    level: str,
) -> PermBothResult:
    """Resample (:func:`resample`) and build the result grids (:func:`result`)."""
    delta, counts, used, kept = resample(
        differences, len(order) * (len(order) - 1) // 2, shape, chunk=chunk, resampling=resampling
    )
    return result(
        order,
        observed,
        delta,
        counts,
        used,
        kept,
        correlation=correlation,
        grouping=grouping,
        level=level,
        n_resamples=resampling.n_resamples,
        early_stopping=resampling.early_stopping,
    )


def resample(differences, n_pairs, shape, *, chunk, resampling: Resampling):
    """The resampling loop: ``differences(swaps, idx)`` gives the permuted differences (resamples
    x pairs ``idx``) for ``swaps`` (resamples x ``shape``); blocks with early stopping as
    MTME, chunks of a block bounding the memory. Returns the observed differences, the counts
    at least as large, the resamples used and the draws.

    ``progress(fraction)``, if given, is called after every chunk with the share of the
    resamples done (increasing, 1.0 last, also when early stopping ends every pair sooner);
    it draws nothing from ``rng``, so results are the same with or without it."""
    n_resamples, progress = resampling.n_resamples, resampling.progress
    delta = differences(np.zeros((1, *shape), dtype=bool), np.arange(n_pairs))[0]
    gen = resampling.rng
    counts = np.zeros(n_pairs)
    used = np.zeros(n_pairs, dtype=int)
    active = np.ones(n_pairs, dtype=bool)
    kept = np.full((n_pairs, n_resamples), np.nan) if resampling.return_draws else None
    done = 0
    while done < n_resamples and active.any():
        block = min(resampling.block_size, n_resamples - done)
        idx = np.flatnonzero(active)
        for c0 in range(0, block, chunk):  # chunks of one block bound the memory
            swaps = gen.random((min(chunk, block - c0), *shape)) < 0.5
            diffs = differences(swaps, idx)
            tol = TOL * np.maximum(1.0, np.abs(delta[idx]))
            counts[idx] += (diffs >= delta[idx] - tol).sum(axis=0)
            if kept is not None:
                kept[idx, done + c0 : done + c0 + swaps.shape[0]] = diffs.T
            used[idx] += swaps.shape[0]
            if progress is not None:
                progress((done + c0 + swaps.shape[0]) / n_resamples)
        done += block
        if resampling.early_stopping:
            p_now = counts / np.maximum(used, 1)
            active &= ~((p_now < EARLY_MIN) | (p_now > EARLY_MAX))
    if progress is not None and done < n_resamples:  # early stopping ended every pair
        progress(1.0)
    return delta, counts, used, kept


def result(order, observed, delta, counts, used, kept, **meta) -> PermBothResult:
    """The result grids (row metric before column metric) from the per-pair arrays."""
    iu = np.triu_indices(len(order), 1)  # the order of ``pairs``

    def grid(values) -> pd.DataFrame:
        out = np.full((len(order), len(order)), np.nan)
        out[iu] = values
        return pd.DataFrame(out, index=order, columns=order)

    undefined = [m for m in order if not np.isfinite(observed[m])]
    i, j = iu
    bad = ~np.isfinite(np.asarray(delta, dtype=float))
    if undefined:
        none = np.array([not np.isfinite(observed[m]) for m in order])
        bad = bad | none[i] | none[j]
        warn_degenerate(
            f"PERM-BOTH ({meta['correlation']}): correlation undefined for "
            f"{', '.join(map(str, undefined))} (constant scores, or no group where it is "
            "defined): no test against it, p-value, interval and rank undefined (NaN)",
            stacklevel=4,
        )
    with np.errstate(invalid="ignore", divide="ignore"):
        pvalues = np.where(bad, np.nan, counts / used)
    if kept is not None and bad.any():
        kept = kept.copy()
        kept[bad] = np.nan
    stat, pval, n_used = grid(np.where(bad, np.nan, delta)), grid(pvalues), grid(used)
    return PermBothResult(
        statistic=stat,
        pvalue=pval,
        metrics=tuple(order),
        correlations=pd.Series({m: observed[m] for m in order}, dtype=float),
        n_resamples_used=n_used,
        draws=kept,
        **{**meta, "early_stopping": bool(meta["early_stopping"])},
    )
