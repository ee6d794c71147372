"""Randomized significance tests for MT systems: paired bootstrap resampling, bootstrap
resampling with shift-to-zero, and approximate randomization, for one pair of systems or for
all pairs at once.

The three tests are implemented exactly as the pseudo-code of Graham, Mathur & Baldwin (2014)
defines them (Figures 1-4), on any metric whose system score is a function of summed
per-segment sufficient statistics (:class:`~stats.mt.sufficient.SegmentStatistics`: BLEU, chrF,
TER through sacrebleu, or the mean of segment scores).

Test statistic
    :math:`\\delta = S_X - S_Y`, the corpus-score difference; for metrics where lower is better
    (TER) the sign is flipped, :math:`\\delta = S_Y - S_X`, so that :math:`\\delta > 0` always
    means "X is better than Y" and ``alternative='greater'`` always means H1: X is better.

p-values
    With :math:`c` the number of pseudo-statistics at least as extreme as the observed one among
    :math:`R` resamples, :math:`p = (c + 1) / (R + 1)` (the observed data counts as one of the
    resamples; Davison & Hinkley 1997, §4.2; North, Curtis & Sham 2002). The paper's figures
    reject when :math:`c/R \\le \\alpha`; :math:`(c+1)/(R+1)` never returns 0 and keeps the
    Type I error at or below :math:`\\alpha`. Pseudo-statistics within floating-point rounding
    (1e-9 relative to the magnitude of the two systems' scores) of the observed statistic
    count as at least as extreme.

Few segments
    With a single segment every bootstrap resample is that segment (all resamples identical)
    and approximate randomization can only swap it, so :math:`(c+1)/(R+1)` would report the
    smallest p-value for any difference: the p-values are NaN instead, with a
    :class:`~stats.DegenerateInputWarning`. Below :data:`FEW_SEGMENTS` (10) segments the tests
    run but warn that they have little resolution: approximate randomization has only
    :math:`2^n` distinct swap patterns (512 at :math:`n = 9`) and bootstrap resamples repeat
    the same few segments, so their p-values are coarse and unreliable.

Why the Riezler & Maxwell (2005) bootstrap was effectively one-sided
    Their pseudo-code first takes absolute values of the bootstrap pseudo-statistics and then
    shifts them to zero by subtracting the (unconventionally computed) mean, counting
    :math:`|S_{X_b}-S_{Y_b}| - \\tau_B \\ge |S_X - S_Y|`. After taking absolute values, every
    pseudo-statistic below the mean can never be counted, so only one tail of the null
    distribution is used: the test is one-sided while their approximate randomization (which
    compares :math:`|S_{X_r}-S_{Y_r}| \\ge |S_X-S_Y|` with no shift) is two-sided, and the
    comparison of their p-values was not like for like (Graham et al. 2014, §2; doubling the
    bootstrap p-values makes the two tests agree closely). Here the shift is applied first and
    the absolute value second (Figure 1), :math:`|S_{X_b}-S_{Y_b}-\\tau_B| \\ge |S_X-S_Y|`,
    with :math:`\\tau_B = \\frac1B\\sum_b (S_{X_b}-S_{Y_b})`.

All pairs at once
    One resampling matrix (bootstrap counts :math:`W \\in \\mathbb{N}^{R\\times n}`, or
    approximate-randomization swap masks :math:`M \\in \\{0,1\\}^{R\\times n}`) is multiplied
    with the stacked statistics of all systems, :math:`W\\,[S_1 \\cdots S_K]`, so every system's
    resampled sums come from one matrix product. For approximate randomization the pseudo
    systems of pair :math:`(i, j)` are :math:`T_i + (M S_j - M S_i)` and
    :math:`T_j - (M S_j - M S_i)` (:math:`T` = totals), so :math:`M S` for all systems gives
    all pairs. The same resampling matrix serves every pair (each pair's test is exactly the
    single-pair test with the same seed). Resamples are processed in chunks to bound memory;
    the random draws do not depend on the chunk size. Bootstrap draws take one double per
    segment (index :math:`\\lfloor U n\\rfloor`); swap masks one random bit per segment
    (the bits of 64-bit words, lowest first, each row starting a new word).

References
----------
Y. Graham, N. Mathur, T. Baldwin (2014). Randomized Significance Tests in Machine Translation.
WMT 2014, https://aclanthology.org/W14-3333/ (doi:10.3115/v1/W14-3333).
P. Koehn (2004). Statistical Significance Tests for Machine Translation Evaluation. EMNLP,
https://aclanthology.org/W04-3250/.
S. Riezler, J. T. Maxwell (2005). On Some Pitfalls in Automatic Evaluation and Significance
Testing for MT. https://aclanthology.org/W05-0908/.
E. W. Noreen (1989). Computer Intensive Methods for Testing Hypotheses. Wiley.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats._core.budget import check_budget
from stats._core.errors import StatsInputError
from stats._core.random import (
    CHUNK_BUDGET,
    chunks,
    in_threads,
    resamples_per_chunk,
    rng_and_seed,
    swap_masks,
)
from stats._core.results import StatisticPvalue
from stats._core.validation import (
    align_by_label,
    as_float_array,
    check_alpha,
    check_alternative,
    check_confidence_level,
    check_positive_int,
    warn_degenerate,
)

from ._resampling import _REL_TOL, _bootstrap_system_scores, _stacked
from .sufficient import SegmentStatistics, statistics_from_scores

__all__ = [
    "RANDOMIZED_TESTS",
    "RandomizedTestResult",
    "PairwiseSignificanceResult",
    "paired_bootstrap",
    "bootstrap",
    "approximate_randomization",
    "pairwise_significance",
]

#: the three randomized tests, in the order of the paper's tables (the names
#: :func:`pairwise_significance` accepts)
from stats._core.choices import RANDOMIZED_TESTS  # noqa: E402  (re-exported)

#: pseudo statistics (pairs x resamples) per temporary array of the randomization's scoring
_SCORE_CELLS = 2**15

#: below this many segments the tests warn that they have little resolution (with n segments
#: approximate randomization has 2**n swap patterns: 512 at n = 9); below 2 they return NaN
FEW_SEGMENTS = 10



# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RandomizedTestResult(StatisticPvalue):
    """Result of a randomized test for one pair of systems (X = ``x``, Y = ``y``).

    Attributes
    ----------
    statistic : float
        Observed difference :math:`S_X - S_Y` (:math:`S_Y - S_X` when lower is better), so
        positive means X is better.
    pvalue : float
        :math:`(c + 1) / (R + 1)` with :math:`c` the number of resamples in :attr:`counted`
        (doubled for the two-sided paired bootstrap).
    test, alternative : str
    n_resamples : int
    seed : int or None
        The integer seed when ``rng`` was an int.
    x, y : str
        System names.
    score_x, score_y : float
        Corpus scores on the metric's usual scale.
    score_x_ci, score_y_ci, difference_ci : tuple of float
        Percentile bootstrap confidence intervals (``confidence_level``) of each system's score
        and of the difference (for approximate randomization from an extra bootstrap of
        ``n_ci_resamples`` resamples).
    distribution : ndarray
        The pseudo-statistics :math:`S_{X_b} - S_{Y_b}` (bootstrap tests) or
        :math:`S_{X_r} - S_{Y_r}` (approximate randomization), sign-adjusted like ``statistic``.
    counted : ndarray of bool
        Mask over :attr:`null_distribution`: the resamples the p-value counts, made by the same
        comparison (and tolerance) that counts them. Bootstrap (after the shift) and
        approximate randomization: the pseudo-statistics at least as extreme as ``statistic``
        (``'greater'``: :math:`\\ge`, ``'less'``: :math:`\\le`, ``'two-sided'``: in absolute
        value); paired bootstrap: the resamples in which X does not beat Y (``<= 0``;
        ``'less'``: ``>= 0``; ``'two-sided'``: the smaller of these two tails, the ``<= 0``
        one on a tie). With :math:`c` = ``counted.sum()`` and :math:`R` = ``n_resamples``,

        .. math:: p = \\frac{c + 1}{R + 1}

        for every test and alternative, except the two-sided paired bootstrap, where
        :math:`p = \\min\\left(1, 2\\,\\frac{c + 1}{R + 1}\\right)`. (With fewer than two
        segments the p-value is NaN and ``counted`` is still the mask.)
    shift : float
        :math:`\\tau_B`, the mean pseudo-statistic subtracted by the shift-to-zero bootstrap
        (0 for the other tests).
    """

    statistic: float
    pvalue: float
    test: str
    alternative: str
    n_resamples: int
    seed: int | None
    x: str
    y: str
    metric: str
    label: str
    higher_is_better: bool
    score_x: float
    score_y: float
    score_x_ci: tuple[float, float]
    score_y_ci: tuple[float, float]
    difference_ci: tuple[float, float]
    confidence_level: float
    n_segments: int
    distribution: np.ndarray = field(repr=False)
    counted: np.ndarray = field(repr=False)
    shift: float = 0.0

    @property
    def null_distribution(self) -> np.ndarray:
        """The distribution the statistic is compared with: the pseudo-statistics shifted by
        :math:`\\tau_B` for the bootstrap; as they are for the other tests."""
        return self.distribution - self.shift

    @property
    def threshold(self) -> float:
        """Where the count cut-off lies on :attr:`null_distribution`: 0 for the paired
        bootstrap (Figure 4 counts resamples where Y beats X), the observed statistic else."""
        return 0.0 if self.test == "paired-bootstrap" else self.statistic

    def confidence_interval(self, confidence_level: float | None = None) -> tuple[float, float]:
        """Percentile bootstrap confidence interval of the difference at ``confidence_level``
        (default: the level the test was run with). The bootstrap tests read another level
        from their resamples; approximate randomization keeps only its interval's level."""
        if confidence_level is None or confidence_level == self.confidence_level:
            return self.difference_ci
        level = check_confidence_level(confidence_level)
        if self.test == "approximate-randomization":
            raise StatsInputError(
                f"confidence_level: approximate randomization kept its bootstrap interval at "
                f"{self.confidence_level} only; got {confidence_level!r} (run the test with "
                "that confidence_level)"
            )
        low, high = _quantiles(self.distribution, level)
        return (float(low), float(high))

    @property
    def min_pvalue(self) -> float:
        """Smallest p-value this test can give, :math:`1/(R+1)`: nothing is significant at
        an alpha at or below it, whatever the data."""
        return 1.0 / (self.n_resamples + 1)


@dataclass(frozen=True, kw_only=True)
class PairwiseSignificanceResult(StatisticPvalue):
    """All-pairs randomized test results.

    Square DataFrames are indexed and columned by :attr:`systems` (best first). The cell
    ``(row, col)`` holds the value for the pair where ``row`` has the better corpus score
    (ties: the earlier system); the mirror cell and the diagonal are NaN.

    Attributes
    ----------
    statistic : DataFrame
        Observed improvement of row over col (positive).
    pvalue : DataFrame
        p-value of the test of H1 "row is better than col" (``alternative='greater'``) or of
        "row and col differ" (``'two-sided'``).
    systems : tuple of str
        Best first.
    scores, score_ci_low, score_ci_high : Series
        Corpus scores and their percentile bootstrap confidence limits, in ``systems`` order.
    diff_ci_low, diff_ci_high : DataFrame
        Bootstrap confidence limits of the improvement of row over col.
    """

    statistic: pd.DataFrame
    pvalue: pd.DataFrame
    systems: tuple[str, ...]
    scores: pd.Series
    score_ci_low: pd.Series
    score_ci_high: pd.Series
    diff_ci_low: pd.DataFrame
    diff_ci_high: pd.DataFrame
    test: str
    alternative: str
    n_resamples: int
    seed: int | None
    n_segments: int
    metric: str
    label: str
    higher_is_better: bool
    confidence_level: float
    signature: str = ""

    @property
    def min_pvalue(self) -> float:
        """Smallest p-value these tests can give, :math:`1/(R+1)`: nothing is significant at
        an alpha at or below it, whatever the data."""
        return 1.0 / (self.n_resamples + 1)

    def significant(self, alpha: float = 0.05) -> pd.DataFrame:
        """Boolean DataFrame: p-value < ``alpha`` (False where no test sits).

        Warns (:class:`~stats.DegenerateInputWarning`) when ``alpha`` is not above
        :attr:`min_pvalue`: then every cell is False because of the number of resamples, not
        the data.
        """
        alpha = check_alpha(alpha)
        if self.min_pvalue >= alpha:
            warn_degenerate(
                f"with {self.n_resamples} resamples the smallest attainable p-value is "
                f"1/({self.n_resamples}+1) = {self.min_pvalue:.4g}, not below alpha {alpha:g}: "
                "no pair can be significant at this level",
                stacklevel=2,
            )
        return (self.pvalue < alpha).fillna(False).astype(bool)

    def pairs(self) -> pd.DataFrame:
        """One row per pair: better, worse, statistic, pvalue, diff_ci_low, diff_ci_high."""
        stacked = self.pvalue.stack(future_stack=True).dropna()
        rows = [
            {
                "better": r,
                "worse": c,
                "statistic": self.statistic.at[r, c],
                "pvalue": p,
                "diff_ci_low": self.diff_ci_low.at[r, c],
                "diff_ci_high": self.diff_ci_high.at[r, c],
            }
            for (r, c), p in stacked.items()
        ]
        return pd.DataFrame(
            rows, columns=["better", "worse", "statistic", "pvalue", "diff_ci_low", "diff_ci_high"]
        )

    def system_table(self) -> pd.DataFrame:
        """Systems (best first) with score and confidence limits."""
        return pd.DataFrame(
            {
                "system": list(self.systems),
                "score": self.scores.to_numpy(),
                "ci_low": self.score_ci_low.to_numpy(),
                "ci_high": self.score_ci_high.to_numpy(),
            }
        )


# ---------------------------------------------------------------------------------------------
# Engine
# ---------------------------------------------------------------------------------------------


def _check_test(test: str) -> str:
    if test not in RANDOMIZED_TESTS:
        raise StatsInputError(
            f"test must be one of {', '.join(RANDOMIZED_TESTS)}; got {test!r}"
        )
    return test


def _quantiles(values: np.ndarray, confidence_level: float) -> np.ndarray:
    a = (1 - confidence_level) / 2
    return np.quantile(values, [a, 1 - a], axis=0)


def _counted(test: str, alternative: str, null: np.ndarray, obs: np.ndarray,
             tol: np.ndarray) -> np.ndarray:
    """The pseudo-statistics a p-value counts: the one rule of "at least as extreme".

    ``null`` is (R, P), one column per pair; ``obs`` and ``tol`` are (P,). Bootstrap (after
    the shift) and approximate randomization count the values at least as extreme as the
    observed statistic, within ``tol`` (floating-point rounding) of it. The paired bootstrap
    counts the resamples in which X does not beat Y (``<= 0``; ``'less'``: ``>= 0``), exact
    comparisons with 0; two-sided it keeps the smaller of the two tails (the lower one on a
    tie), whose count :func:`_pvalues_from_counts` doubles.
    """
    if test == "paired-bootstrap":
        below, above = null <= 0, null >= 0
        if alternative == "greater":
            return below
        if alternative == "less":
            return above
        return np.where(below.sum(axis=0) <= above.sum(axis=0), below, above)
    if alternative == "greater":
        return null >= obs - tol
    if alternative == "less":
        return null <= obs + tol
    return np.abs(null) >= np.abs(obs) - tol


def _pvalues_from_counts(test: str, alternative: str, counts, n_resamples: int) -> np.ndarray:
    """:math:`(c + 1)/(R + 1)` of the counts of :func:`_counted`; the two-sided paired
    bootstrap doubles it (capped at 1), its count being the smaller tail's."""
    pvalue = (np.asarray(counts, dtype=float) + 1.0) / (n_resamples + 1.0)
    if test == "paired-bootstrap" and alternative == "two-sided":
        pvalue = np.minimum(1.0, 2.0 * pvalue)
    return pvalue


def _run(
    data: SegmentStatistics,
    ii: np.ndarray,
    jj: np.ndarray,
    *,
    test: str,
    alternative: str,
    n_resamples: int,
    confidence_level: float,
    rng,
    chunk_size,
    n_ci_resamples: int,
    keep: bool,
    progress: Callable[[float], None] | None,
    stacklevel: int,
    jobs: int | None = None,
):
    """Run ``test`` for the pairs (ii[p], jj[p]), statistic oriented as S_ii - S_jj.

    ``stacklevel``: of warnings, counted from this function (2 = its caller)."""
    k, n, d = data.stats.shape
    extra = n_ci_resamples if test == "approximate-randomization" else 0
    resamples = n_resamples + extra
    check_budget(
        what=test,
        n_resamples=n_resamples,
        extra_resamples=extra,
        n_segments=n,
        n_systems=k,
        n_pairs=len(ii),
        memory=8.0 * resamples * k + (9.0 * n_resamples * len(ii) if keep else 0.0),
    )
    gen, seed = rng_and_seed(rng)
    sign = 1.0 if data.higher_is_better else -1.0
    exact = np.asarray(data.corpus_scores, dtype=float)
    obs = sign * (exact[ii] - exact[jj])
    # Ties within rounding count as "at least as extreme". The tolerance is relative to the
    # magnitude of the scores (for a mean metric: of the mean |segment score|), not to 1, so
    # it scales with the data: an absolute floor of 1e-9 made every pseudo-statistic "tie"
    # with the observed one for scores on a small scale (e.g. 1e-10) and returned p = 1.
    magnitude = np.abs(data.score(np.abs(data.stats).sum(axis=1)))  # (K,)
    tol = _REL_TOL * np.maximum.reduce([np.abs(obs), magnitude[ii], magnitude[jj]])
    n_pairs = len(ii)
    s2, dtype = _stacked(data)
    dist = counted = None

    if test in ("paired-bootstrap", "bootstrap"):
        scores = _bootstrap_system_scores(
            data, s2, dtype, n_resamples, gen, chunk_size, progress, (0.0, 0.9), jobs
        )
        counts = np.zeros(n_pairs)
        tau = np.zeros(n_pairs)  # tau_B of the shift-to-zero bootstrap, Figures 1 and 3
        diff_ci = np.empty((2, n_pairs))
        pc = max(1, CHUNK_BUDGET // n_resamples)
        dists, masks = [], []
        for p0 in range(0, n_pairs, pc):  # chunks of pairs (bounded memory)
            sl = slice(p0, p0 + pc)
            diffs = sign * (scores[:, ii[sl]] - scores[:, jj[sl]])  # (B, P)
            diff_ci[:, sl] = _quantiles(diffs, confidence_level)
            if test == "bootstrap":
                tau[sl] = diffs.mean(axis=0)
            null = diffs - tau[sl] if test == "bootstrap" else diffs
            mask = _counted(test, alternative, null, obs[sl], tol[sl])
            counts[sl] = mask.sum(axis=0)
            if keep:
                dists.append(diffs)
                masks.append(mask)
        if keep:
            dist = np.concatenate(dists, axis=1)
            counted = np.concatenate(masks, axis=1)
        ci_scores = scores
    else:
        totals = data.stats.sum(axis=1)  # (K, d)
        c = resamples_per_chunk(chunk_size, n_resamples, max(n, k * d))
        # pairs scored at once: about _SCORE_CELLS pseudo statistics per temporary, so the
        # score's column-by-column passes stay in the core's cache instead of streaming
        # whole-chunk arrays through memory (same operations per element: same doubles)
        pc = max(1, min(CHUNK_BUDGET // (c * d), _SCORE_CELLS // c))
        counts = np.zeros(n_pairs)
        if keep:
            dist = np.empty((n_resamples, n_pairs))
            counted = np.empty((n_resamples, n_pairs), dtype=bool)
        # statistic-major columns (d, K): M S comes out as (d, K, size), so each statistic of
        # each pseudo system is one contiguous row, which the score's column-by-column
        # arithmetic reads at memory speed (the (size, P, d) layout strides by d)
        s2_major = np.ascontiguousarray(
            s2.reshape(n, k, d).transpose(0, 2, 1).reshape(n, d * k)
        ) if dtype == np.float32 else None
        totals_t = totals.T[:, :, None]  # (d, K, 1)

        def work(start, size, swapped):
            # Figure 2: swap each segment's pair of translations with probability 0.5
            if dtype == np.float32:  # integer sums, exact in any order of summation
                q = (s2_major.T @ swapped.astype(dtype).T).astype(np.float64)  # M S, (d*K, size)
                q = q.reshape(d, k, size)
            else:  # float64 sums: masks @ stacked statistics, the order the bootstrap sums in
                q = (swapped.astype(dtype) @ s2).reshape(size, k, d)
                q = np.ascontiguousarray(q.transpose(2, 1, 0), dtype=np.float64)
            chunk_counts = np.zeros(n_pairs)
            for p0 in range(0, n_pairs, pc):
                sl = slice(p0, p0 + pc)
                delta = q[:, jj[sl]]
                delta -= q[:, ii[sl]]  # (d, P, size)
                sx = data.score(np.moveaxis(totals_t[:, ii[sl]] + delta, 0, -1))  # (P, size)
                sy = data.score(np.moveaxis(totals_t[:, jj[sl]] - delta, 0, -1))
                pseudo = (sign * (sx - sy)).T  # (size, P)
                mask = _counted(test, alternative, pseudo, obs[sl], tol[sl])
                chunk_counts[sl] = mask.sum(axis=0)
                if keep:
                    dist[start : start + size, sl] = pseudo
                    counted[start : start + size, sl] = mask
            return chunk_counts

        def done(start, size, chunk_counts):
            counts[:] += chunk_counts  # in chunk order: the sums of a serial run
            if progress is not None:
                progress(0.8 * (start + size) / n_resamples)

        # chunks of resamples (bounded memory)
        in_threads(jobs, chunks(n_resamples, c),
                    lambda _, size: swap_masks(gen, size, n), work, done)
        ci_scores = _bootstrap_system_scores(
            data, s2, dtype, n_ci_resamples, gen, chunk_size, progress, (0.8, 0.95), jobs
        )
        diff_ci = np.empty((2, n_pairs))
        pc = max(1, CHUNK_BUDGET // n_ci_resamples)
        for p0 in range(0, n_pairs, pc):
            sl = slice(p0, p0 + pc)
            diff_ci[:, sl] = _quantiles(
                sign * (ci_scores[:, ii[sl]] - ci_scores[:, jj[sl]]), confidence_level
            )
    score_ci = _quantiles(ci_scores, confidence_level)  # (2, K)
    if n < 2:  # every resample is the one segment: the intervals are no intervals
        score_ci = np.full_like(score_ci, np.nan)
        diff_ci = np.full_like(diff_ci, np.nan)
    pvalue = _pvalues_from_counts(test, alternative, counts, n_resamples)
    pvalue = _check_segment_count(n, pvalue, stacklevel + 1)
    if progress is not None:
        progress(1.0)
    return {
        "seed": seed,
        "obs": obs,
        "pvalue": np.asarray(pvalue, dtype=float),
        "diff_ci": diff_ci,
        "score_ci": score_ci,
        "dist": dist,
        "counted": counted,
        "tau": tau if test == "bootstrap" else None,
    }


def _check_segment_count(n: int, pvalue: np.ndarray, stacklevel: int) -> np.ndarray:
    """NaN p-values for fewer than 2 segments; a warning below :data:`FEW_SEGMENTS`."""
    if n < 2:
        warn_degenerate(
            f"only {n} segment: every bootstrap resample is that segment and approximate "
            "randomization can only swap it, so a randomized test cannot tell the systems "
            "apart; p-values are NaN, and so are the confidence intervals and ranks (give more "
            "segments)",
            stacklevel=stacklevel + 1,
        )
        return np.full_like(pvalue, np.nan)
    if n < FEW_SEGMENTS:
        warn_degenerate(
            f"only {n} segments: too few for a randomized test to resolve small p-values "
            f"(approximate randomization has {2**n} distinct swap patterns, and bootstrap "
            "resamples repeat the same few segments); treat these p-values with caution",
            stacklevel=stacklevel + 1,
        )
    return pvalue


def _check_common(n_resamples, confidence_level, n_ci_resamples):
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    confidence_level = check_confidence_level(confidence_level)
    n_ci_resamples = check_positive_int(n_ci_resamples, "n_ci_resamples")
    return n_resamples, confidence_level, n_ci_resamples


# ---------------------------------------------------------------------------------------------
# One pair
# ---------------------------------------------------------------------------------------------


def _paired_segments(x, y):
    """Pair two Series of segment scores by their labels (segment ids), not by position.

    The tests resample or swap *pairs* of translations of the same segment, so x[i] and y[i]
    must be the same segment. Two Series labelled by segment ids are aligned on their labels
    (:func:`stats._core.validation.align_by_label`); labels that do not match are an input error;
    pandas' default 0..n-1 index on either side means "by position".
    """
    if not (isinstance(x, pd.Series) and isinstance(y, pd.Series)):
        return x, y
    y = align_by_label(
        y,
        x.index,
        message="x and y score different segments (Series index)",
        missing="only in x:",
        extra="only in y:",
    )
    return x, y


def _single(test, x, y, data, alternative, n_resamples, confidence_level, rng, chunk_size,
            n_ci_resamples, progress) -> RandomizedTestResult:
    check_alternative(alternative)
    n_resamples, confidence_level, n_ci_resamples = _check_common(
        n_resamples, confidence_level, n_ci_resamples
    )
    if data is None:
        x, y = _paired_segments(x, y)
        xs = as_float_array(x, "x")
        ys = as_float_array(y, "y")
        if xs.shape != ys.shape:
            raise StatsInputError(
                f"x and y must have the same number of segments; got {xs.size} and {ys.size}"
            )
        pair = statistics_from_scores(pd.DataFrame({"x": xs, "y": ys}))
    else:
        if not isinstance(data, SegmentStatistics):
            raise StatsInputError(
                f"data must be a SegmentStatistics; got {type(data).__name__}"
            )
        if x == y:
            raise StatsInputError(f"x and y must be two different systems; got {x!r} twice")
        pair = data.subset([x, y])
    out = _run(
        pair,
        np.array([0]),
        np.array([1]),
        test=test,
        alternative=alternative,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        rng=rng,
        chunk_size=chunk_size,
        n_ci_resamples=n_ci_resamples,
        keep=True,
        progress=progress,
        stacklevel=4,
    )
    return RandomizedTestResult(
        statistic=float(out["obs"][0]),
        pvalue=float(out["pvalue"][0]),
        test=test,
        alternative=alternative,
        n_resamples=n_resamples,
        seed=out["seed"],
        x=pair.systems[0],
        y=pair.systems[1],
        metric=pair.metric,
        label=pair.label,
        higher_is_better=pair.higher_is_better,
        score_x=float(pair.corpus_scores[0]),
        score_y=float(pair.corpus_scores[1]),
        score_x_ci=(float(out["score_ci"][0, 0]), float(out["score_ci"][1, 0])),
        score_y_ci=(float(out["score_ci"][0, 1]), float(out["score_ci"][1, 1])),
        difference_ci=(float(out["diff_ci"][0, 0]), float(out["diff_ci"][1, 0])),
        confidence_level=confidence_level,
        n_segments=pair.n_segments,
        distribution=out["dist"][:, 0].copy(),
        counted=out["counted"][:, 0].copy(),
        shift=float(out["tau"][0]) if out["tau"] is not None else 0.0,
    )


_SINGLE_PARAMS = """
    Parameters
    ----------
    x, y : str or array_like
        With ``data``: the names of systems X and Y in ``data``. Without: 1-D arrays of
        segment scores of X and Y (system score = mean segment score, higher is better).
    data : SegmentStatistics, optional
        Per-segment sufficient statistics (BLEU/chrF/TER/mean) of the systems.
    alternative : {'greater', 'less', 'two-sided'}
        ``'greater'``: H1 is that X is better than Y (H0: X is not better).
    n_resamples : int
        Number of resamples R (or B).
    confidence_level : float
        Of the percentile bootstrap confidence intervals.
    rng : int, numpy.random.Generator or None
        A non-negative int seed, a Generator or None (fresh entropy). An int is recorded in
        the result as ``seed``.
    chunk_size : int, optional
        Resamples processed per chunk (memory bound). Results do not depend on it.
    n_ci_resamples : int
        Bootstrap resamples for the confidence intervals where the test itself does not
        bootstrap (approximate randomization).
    progress : callable, optional
        Called with the fraction done (0..1).

    Returns
    -------
    RandomizedTestResult
"""


def paired_bootstrap(
    x,
    y,
    *,
    data: SegmentStatistics | None = None,
    alternative: str = "greater",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    rng=None,
    chunk_size: int | None = None,
    n_ci_resamples: int = 1000,
    progress: Callable[[float], None] | None = None,
) -> RandomizedTestResult:
    """Paired bootstrap resampling test (Koehn 2004; Graham et al. 2014, Figure 4).

    Resample segments with replacement B times (the same segments for both systems) and count
    the resamples in which X does not beat Y:

    .. math:: c = \\#\\{b : S_{X_b} - S_{Y_b} \\le 0\\},\\qquad p = \\frac{c + 1}{B + 1}.

    Figure 4 counts :math:`S_{X_b} < S_{Y_b}`; ties are counted too here, so that identical
    systems get :math:`p = 1` rather than the smallest p-value. ``'less'`` counts
    :math:`S_{X_b} - S_{Y_b} \\ge 0`; ``'two-sided'`` is twice the smaller one-sided p-value
    (capped at 1). The paired bootstrap does not simulate the null distribution; the
    pseudo-statistics estimate the sampling distribution of the difference, and the cut-off is
    0 (:attr:`RandomizedTestResult.threshold`).

    References: Koehn (2004) https://aclanthology.org/W04-3250/ ; Graham, Mathur & Baldwin
    (2014) https://aclanthology.org/W14-3333/ .

    Examples
    --------
    Two systems' segment scores (the mean is the metric); the test asks whether x beats y.

    >>> import numpy as np
    >>> from stats import paired_bootstrap
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(0.5, 0.1, size=200)
    >>> y = x - 0.05 + rng.normal(0, 0.05, size=200)
    >>> res = paired_bootstrap(x, y, n_resamples=1000, rng=1)
    >>> round(float(res.statistic), 4), float(res.pvalue) < 0.05
    (0.0544, True)
    """
    return _single("paired-bootstrap", x, y, data, alternative, n_resamples, confidence_level,
                   rng, chunk_size, n_ci_resamples, progress)


def bootstrap(
    x,
    y,
    *,
    data: SegmentStatistics | None = None,
    alternative: str = "greater",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    rng=None,
    chunk_size: int | None = None,
    n_ci_resamples: int = 1000,
    progress: Callable[[float], None] | None = None,
) -> RandomizedTestResult:
    """Bootstrap resampling test with shift-to-zero (Graham et al. 2014, Figures 1 and 3).

    The bootstrap distribution of :math:`S_{X_b} - S_{Y_b}` is shifted to mean zero (Noreen
    1989) to simulate H0, with :math:`\\tau_B = \\frac1B\\sum_{b=1}^B (S_{X_b} - S_{Y_b})`:

    .. math::
        c_{\\text{greater}} &= \\#\\{b : S_{X_b} - S_{Y_b} - \\tau_B \\ge S_X - S_Y\\}
        \\quad\\text{(Figure 3)}\\\\
        c_{\\text{two-sided}} &= \\#\\{b : |S_{X_b} - S_{Y_b} - \\tau_B| \\ge |S_X - S_Y|\\}
        \\quad\\text{(Figure 1)}

    and :math:`p = (c+1)/(B+1)`. (``'less'``: :math:`\\le`.) Note the order: shift first,
    absolute value second; Riezler & Maxwell (2005) took absolute values before shifting,
    which silently made their "two-sided" bootstrap one-sided (see the module docstring).

    References: Graham, Mathur & Baldwin (2014) https://aclanthology.org/W14-3333/ ;
    Riezler & Maxwell (2005) https://aclanthology.org/W05-0908/ .

    Examples
    --------
    The bootstrap shifted to zero (Graham, Mathur & Baldwin 2014).

    >>> import numpy as np
    >>> from stats import bootstrap
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(0.5, 0.1, size=200)
    >>> res = bootstrap(x, x, n_resamples=500, rng=1)
    >>> float(res.statistic), float(res.pvalue) > 0.05
    (0.0, True)
    """
    return _single("bootstrap", x, y, data, alternative, n_resamples, confidence_level,
                   rng, chunk_size, n_ci_resamples, progress)


def approximate_randomization(
    x,
    y,
    *,
    data: SegmentStatistics | None = None,
    alternative: str = "greater",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    rng=None,
    chunk_size: int | None = None,
    n_ci_resamples: int = 1000,
    progress: Callable[[float], None] | None = None,
) -> RandomizedTestResult:
    """Approximate randomization test (Riezler & Maxwell 2005; Graham et al. 2014, Figure 2).

    In each of R shuffles every segment's pair of translations is swapped between X and Y
    with probability 0.5, and the pseudo-statistic :math:`S_{X_r} - S_{Y_r}` is computed on
    the shuffled corpora:

    .. math::
        c_{\\text{greater}} = \\#\\{r : S_{X_r} - S_{Y_r} \\ge S_X - S_Y\\},\\quad
        c_{\\text{two-sided}} = \\#\\{r : |S_{X_r} - S_{Y_r}| \\ge |S_X - S_Y|\\},\\quad
        p = \\frac{c+1}{R+1}.

    As R grows the p-value tends to the exact permutation p-value over all :math:`2^n`
    swaps.

    References: Riezler & Maxwell (2005) https://aclanthology.org/W05-0908/ ; Graham, Mathur
    & Baldwin (2014) https://aclanthology.org/W14-3333/ ; Noreen (1989).

    Examples
    --------
    The same two systems with approximate randomization.

    >>> import numpy as np
    >>> from stats import approximate_randomization
    >>> rng = np.random.default_rng(0)
    >>> x = rng.normal(0.5, 0.1, size=200)
    >>> y = x - 0.05 + rng.normal(0, 0.05, size=200)
    >>> res = approximate_randomization(x, y, n_resamples=1000, rng=1)
    >>> round(float(res.statistic), 4), float(res.pvalue) < 0.05
    (0.0544, True)
    """
    return _single("approximate-randomization", x, y, data, alternative, n_resamples,
                   confidence_level, rng, chunk_size, n_ci_resamples, progress)


for _f in (paired_bootstrap, bootstrap, approximate_randomization):
    _f.__doc__ = _f.__doc__.replace("\n    References:", _SINGLE_PARAMS + "\n    References:", 1)


# ---------------------------------------------------------------------------------------------
# All pairs
# ---------------------------------------------------------------------------------------------


def pairwise_significance(
    data: SegmentStatistics,
    *,
    test: str,
    n_resamples: int = 1000,
    alternative: str = "greater",
    confidence_level: float = 0.95,
    rng=None,
    chunk_size: int | None = None,
    n_ci_resamples: int = 1000,
    progress: Callable[[float], None] | None = None,
    jobs: int | None = None,
) -> PairwiseSignificanceResult:
    """Randomized significance test for every pair of systems at once.

    Parameters
    ----------
    data : SegmentStatistics
        Per-segment sufficient statistics of all systems (:func:`stats.extract_statistics`
        or :func:`stats.statistics_from_scores`).
    test : {'paired-bootstrap', 'bootstrap', 'approximate-randomization'}
        See :func:`paired_bootstrap`, :func:`bootstrap`, :func:`approximate_randomization`.
    n_resamples : int
    alternative : {'greater', 'two-sided'}
        ``'greater'`` tests, for each pair, H1 "the system with the better corpus score is
        better"; the p-value sits in that system's row.
    confidence_level : float
    rng : int, Generator or None
        An int is recorded as ``seed``. With the same seed, the p-value of pair (X, Y) equals
        that of the single-pair function for X and Y.
    chunk_size : int, optional
        Resamples per chunk; memory is bounded by about ``chunk_size * max(n_segments,
        n_pairs * d)`` floats. Results do not depend on it.
    n_ci_resamples : int
        Bootstrap resamples for confidence intervals under approximate randomization.
    progress : callable, optional
        Called with the fraction done (0..1) after each chunk.
    jobs : int, optional
        Threads over chunks of resamples (numpy releases the GIL in the array work; the draws
        stay in this thread, so the results are the same for any ``jobs``). Default 1.

    Returns
    -------
    PairwiseSignificanceResult

    Notes
    -----
    With :math:`W` the :math:`R\\times n` resampling matrix and :math:`S_k` the
    :math:`n\\times d` statistics of system :math:`k`, the resampled sums of all systems are the
    one product :math:`W [S_1 \\cdots S_K]`; for approximate randomization the pseudo systems of
    pair :math:`(i,j)` are :math:`T_i + M(S_j - S_i)` and :math:`T_j - M(S_j - S_i)`.
    p-values are :math:`(c + 1)/(R + 1)`; see the module docstring.

    References: Graham, Mathur & Baldwin (2014) https://aclanthology.org/W14-3333/ .
    """
    if not isinstance(data, SegmentStatistics):
        raise StatsInputError(f"data must be a SegmentStatistics; got {type(data).__name__}")
    _check_test(test)
    check_alternative(alternative, ("greater", "two-sided"))
    n_resamples, confidence_level, n_ci_resamples = _check_common(
        n_resamples, confidence_level, n_ci_resamples
    )
    if data.n_systems < 2:
        raise StatsInputError(f"need at least two systems to compare; got {data.n_systems}")
    sign = 1.0 if data.higher_is_better else -1.0
    order = np.argsort(-sign * np.asarray(data.corpus_scores), kind="stable")  # best first
    ii, jj = np.triu_indices(data.n_systems, k=1)
    ii, jj = order[ii], order[jj]  # ii is better than (or tied with) jj
    out = _run(
        data,
        ii,
        jj,
        test=test,
        alternative=alternative,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        rng=rng,
        chunk_size=chunk_size,
        n_ci_resamples=n_ci_resamples,
        keep=False,
        progress=progress,
        stacklevel=3,
        jobs=jobs,
    )
    names = [data.systems[i] for i in order]

    def square(values):
        m = np.full((data.n_systems, data.n_systems), np.nan)
        m[ii, jj] = values
        m = m[np.ix_(order, order)]
        return pd.DataFrame(m, index=names, columns=names)

    def series(values):
        return pd.Series(np.asarray(values)[order], index=names, name=data.label)

    return PairwiseSignificanceResult(
        statistic=square(out["obs"]),
        pvalue=square(out["pvalue"]),
        systems=tuple(names),
        scores=series(data.corpus_scores),
        score_ci_low=series(out["score_ci"][0]),
        score_ci_high=series(out["score_ci"][1]),
        diff_ci_low=square(out["diff_ci"][0]),
        diff_ci_high=square(out["diff_ci"][1]),
        test=test,
        alternative=alternative,
        n_resamples=n_resamples,
        seed=out["seed"],
        n_segments=data.n_segments,
        metric=data.metric,
        label=data.label,
        higher_is_better=data.higher_is_better,
        confidence_level=confidence_level,
        signature=data.signature,
    )
