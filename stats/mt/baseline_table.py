"""The sacreBLEU/WMT-style systems table: every system against one baseline system, on several
metrics at once, as sacreBLEU's ``--paired-bs`` and ``--paired-ar`` report it (Post 2018;
sacreBLEU 2.x, ``sacrebleu.significance``).

One row per system (the baseline first), one column per metric, each cell
``score (μ ± CI)`` with the p-value of the system against the baseline. The resampling draws
are sacreBLEU's: with the same integer seed, the bootstrap means, confidence half-widths and
p-values are sacreBLEU's own (``tests/mt/test_systems_table.py`` runs ``PairedTest`` live).

References
----------
M. Post (2018). A Call for Clarity in Reporting BLEU Scores. WMT 2018,
https://aclanthology.org/W18-6319/ (doi:10.18653/v1/W18-6319).
P. Koehn (2004). Statistical Significance Tests for Machine Translation Evaluation. EMNLP,
https://aclanthology.org/W04-3250/.
S. Riezler, J. T. Maxwell (2005). On Some Pitfalls in Automatic Evaluation and Significance
Testing for MT. https://aclanthology.org/W05-0908/.
Y. Graham, N. Mathur, T. Baldwin (2014). Randomized Significance Tests in Machine Translation.
WMT 2014, https://aclanthology.org/W14-3333/.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.budget import check_budget
from stats._core.errors import StatsInputError
from stats._core.random import chunks, in_threads, resamples_per_chunk, rng_and_seed
from stats._core.results import StatisticPvalue
from stats._core.validation import check_alpha, check_confidence_level, check_positive_int

from ._resampling import _REL_TOL, _bootstrap_system_scores, _stacked
from .randomized import _check_segment_count
from .sufficient import SegmentStatistics

__all__ = ["SYSTEMS_TABLE_TESTS", "SystemsTableResult", "systems_table"]

#: the two paired tests of sacreBLEU (``--paired-bs``, ``--paired-ar``), with its default
#: numbers of resamples
SYSTEMS_TABLE_TESTS = {"paired-bootstrap": 1000, "approximate-randomization": 10000}


@dataclass(frozen=True, kw_only=True)
class SystemsTableResult(StatisticPvalue):
    """Every system against the baseline, on every metric.

    DataFrames are indexed by :attr:`systems` (the baseline first, then the other systems in
    input order) and columned by :attr:`metrics` (metric labels). The baseline's row of
    ``statistic`` and ``pvalue`` is NaN.

    Attributes
    ----------
    statistic : DataFrame
        The test statistic :math:`|S_{sys} - S_{base}|` (corpus scores).
    pvalue : DataFrame
        Two-sided p-value of the system against the baseline (see :func:`systems_table`).
    score : DataFrame
        Corpus score.
    mean, ci : DataFrame
        Bootstrap mean :math:`\\mu` of the score and the confidence half-width (sacreBLEU's
        ``μ ± CI``).
    systems, metrics : tuple of str
    baseline : str
    test : {'paired-bootstrap', 'approximate-randomization'}
    alternative : str
        Always ``'two-sided'`` (as sacreBLEU tests).
    n_resamples : int
        Bootstrap resamples or randomization trials of the test.
    n_ci_resamples : int
        Bootstrap resamples of :attr:`mean` and :attr:`ci` (``n_resamples`` for the paired
        bootstrap, which uses its own resamples).
    seed : int or None
    confidence_level : float
    n_segments : dict
        Segments of each metric.
    higher_is_better : dict
        Direction of each metric (False for TER).
    signatures : dict
        sacrebleu signature of each metric (``""`` for segment scores).
    spread : DataFrame or None
        Standard deviation of the bootstrap differences :math:`S_{sys,r} - S_{b,r}` (same
        resamples for every system; NaN for the baseline): the standard error of the
        difference, from which a page states the minimum detectable effect.
    """

    statistic: pd.DataFrame
    pvalue: pd.DataFrame
    score: pd.DataFrame
    mean: pd.DataFrame
    ci: pd.DataFrame
    systems: tuple[str, ...]
    metrics: tuple[str, ...]
    baseline: str
    test: str
    alternative: str
    n_resamples: int
    n_ci_resamples: int
    seed: int | None
    confidence_level: float
    n_segments: dict
    higher_is_better: dict
    signatures: dict
    spread: pd.DataFrame | None = None

    @property
    def min_pvalue(self) -> float:
        """Smallest attainable p-value, :math:`1/(R+1)`."""
        return 1.0 / (self.n_resamples + 1)

    def significant(self, alpha: float = 0.05) -> pd.DataFrame:
        """Boolean DataFrame: the system differs significantly from the baseline on the
        metric, p-value < ``alpha`` (False on the baseline's row and where p is NaN)."""
        alpha = check_alpha(alpha)
        return (self.pvalue < alpha).fillna(False).astype(bool)

    def long(self, alpha: float = 0.05) -> pd.DataFrame:
        """One row per (system, metric): system, metric, score, mean, ci, statistic, pvalue,
        significant; systems in table order, metrics in column order."""
        sig = self.significant(alpha)
        frames = {
            "score": self.score,
            "mean": self.mean,
            "ci": self.ci,
            "statistic": self.statistic,
            "pvalue": self.pvalue,
            "significant": sig,
        }
        # each frame's cells as ``.at`` gives them (a column's own scalars), looked up by
        # position, not one label lookup per cell (most of the time this frame took)
        cells = {
            name: (frame.index.get_indexer(self.systems), [frame[m].array for m in self.metrics])
            for name, frame in frames.items()
        }
        rows = []
        for i, s in enumerate(self.systems):
            for j, m in enumerate(self.metrics):
                row: dict[str, object] = {"system": s, "metric": m}
                for name, (at, columns) in cells.items():
                    row[name] = columns[j][at[i]]
                row["significant"] = bool(row["significant"])
                rows.append(row)
        return pd.DataFrame(rows)


def _ci_half_width(scores: np.ndarray, confidence_level: float):
    """sacreBLEU's ``estimate_ci`` for every column: the mean, and half the distance between
    the sorted resampled scores at positions :math:`k` and :math:`B - k - 1`,
    :math:`k = \\lfloor B (1 - \\gamma) / 2 \\rfloor` (:math:`B / 40` at :math:`\\gamma` = 0.95)."""
    b = scores.shape[0]
    k = math.floor(b * (1.0 - confidence_level) / 2.0 + 1e-9)
    ordered = np.sort(scores, axis=0)
    return scores.mean(axis=0), 0.5 * (ordered[b - k - 1] - ordered[k])


def _swap_chunk(chunk_size, n_resamples: int, n: int, width: int) -> int:
    """Chunk of randomization trials whose boolean draws use whole 32-bit words (numpy draws
    32 booleans per word and drops the rest of the word at the end of a call), so the chunked
    stream equals sacreBLEU's single ``rng.integers(2, size=(R, n), dtype=bool)``."""
    step = 32 // math.gcd(n, 32)
    c = resamples_per_chunk(chunk_size, n_resamples, width)
    return max(step, c - c % step)


def _tolerance(data: SegmentStatistics, obs: np.ndarray, b: int) -> np.ndarray:
    """Floating-point rounding of a pseudo-statistic: 1e-9 relative to the scores' magnitude
    (as :mod:`stats.mt.randomized` counts ties)."""
    magnitude = np.abs(data.score(np.abs(data.stats).sum(axis=1)))
    return _REL_TOL * np.maximum.reduce([obs, magnitude, np.full_like(magnitude, magnitude[b])])


def _one_metric(data: SegmentStatistics, b: int, *, test, n_resamples, n_ci_resamples,
                confidence_level, gen0, chunk_size, jobs, progress, span):
    """p-values, bootstrap means and half-widths of every system of ``data`` against system
    ``b``, drawing from a copy of ``gen0`` (every metric gets the same draws, as in
    sacreBLEU)."""
    k, n, d = data.stats.shape
    gen = copy.deepcopy(gen0)
    s2, dtype = _stacked(data)
    totals = data.stats.sum(axis=1)  # (K, d)
    # the observed statistic through the same vectorised score as the pseudo-statistics, so
    # that a resample equal to the data compares equal
    exact = data.score(totals)
    obs = np.abs(exact - exact[b])
    tol = _tolerance(data, obs, b)

    def part(lo, hi):
        if progress is None:
            return None
        return lambda f: progress(span[0] + (span[1] - span[0]) * (lo + (hi - lo) * f))

    if test == "paired-bootstrap":
        scores = _bootstrap_system_scores(data, s2, dtype, n_resamples, gen, chunk_size,
                                          part(0.0, 1.0), (0.0, 1.0), jobs, integer_draws=True)
        diffs = np.abs(scores - scores[:, [b]])  # (B, K)
        null = diffs - diffs.mean(axis=0)
        counts = (null > obs + tol).sum(axis=0)
        mean, half = _ci_half_width(scores, confidence_level)
        spread = np.std(scores - scores[:, [b]], axis=0)
    else:
        counts = np.zeros(k)
        c = _swap_chunk(chunk_size, n_resamples, n, max(n, k * d))

        def work(start, size, swapped):
            # sacreBLEU's pseudo systems: a takes the baseline's segment where swapped, the
            # system's elsewhere; b the other way round
            q = (swapped.astype(dtype) @ s2).astype(np.float64).reshape(size, k, d)
            delta = q[:, [b]] - q  # (size, K, d)
            pseudo = np.abs(data.score(totals + delta) - data.score(totals[b] - delta))
            return (pseudo > obs + tol).sum(axis=0)

        def done(start, size, chunk_counts):
            counts[:] += chunk_counts
            if progress is not None:
                part(0.0, 0.8)((start + size) / n_resamples)

        in_threads(jobs, chunks(n_resamples, c),
                    lambda _, size: gen.integers(2, size=(size, n), dtype=bool), work, done)
        scores = _bootstrap_system_scores(data, s2, dtype, n_ci_resamples, gen, chunk_size,
                                          part(0.8, 0.95), (0.0, 1.0), jobs, integer_draws=True)
        mean, half = _ci_half_width(scores, confidence_level)
        spread = np.std(scores - scores[:, [b]], axis=0)
        # sacreBLEU bootstraps the baseline with a fresh generator of the same seed
        base = data.subset([data.systems[b]])
        s2b, dtype_b = _stacked(base)
        base_scores = _bootstrap_system_scores(base, s2b, dtype_b, n_ci_resamples,
                                               copy.deepcopy(gen0), chunk_size, part(0.95, 1.0),
                                               (0.0, 1.0), jobs, integer_draws=True)
        mean[b], half[b] = (v[0] for v in _ci_half_width(base_scores, confidence_level))
    pvalue = (counts + 1.0) / (n_resamples + 1.0)
    # a copy of the baseline: every pseudo-statistic is 0, none "more extreme" than 0
    pvalue[np.all(data.stats == data.stats[b], axis=(1, 2))] = 1.0
    pvalue = _check_segment_count(n, pvalue, stacklevel=4)
    pvalue[b] = np.nan
    stat = np.abs(np.asarray(data.corpus_scores, dtype=float) - data.corpus_scores[b])
    stat[b] = np.nan
    spread[b] = np.nan
    return stat, pvalue, mean, half, spread


def _check_data(data) -> list[SegmentStatistics]:
    items = [data] if isinstance(data, SegmentStatistics) else list(data)
    if not items:
        raise StatsInputError("data: give at least one SegmentStatistics (one per metric)")
    for i, item in enumerate(items):
        if not isinstance(item, SegmentStatistics):
            raise StatsInputError(
                f"data[{i}] must be a SegmentStatistics; got {type(item).__name__}"
            )
    systems = items[0].systems
    labels = [item.label for item in items]
    repeated = sorted({x for x in labels if labels.count(x) > 1})
    if repeated:
        raise StatsInputError(f"data: metric label(s) given twice: {', '.join(repeated)}")
    for item in items[1:]:
        if set(item.systems) != set(systems):
            missing = sorted(set(systems) - set(item.systems))
            extra = sorted(set(item.systems) - set(systems))
            raise StatsInputError(
                f"data: {item.label} scores other systems than {items[0].label}"
                + (f"; missing: {', '.join(missing)}" if missing else "")
                + (f"; extra: {', '.join(extra)}" if extra else "")
            )
    if len(systems) < 2:
        raise StatsInputError(f"need at least two systems to compare; got {len(systems)}")
    return items


def systems_table(
    data: SegmentStatistics | Sequence[SegmentStatistics],
    *,
    baseline: str | None = None,
    test: str = "paired-bootstrap",
    n_resamples: int | None = None,
    n_ci_resamples: int = 1000,
    confidence_level: float = 0.95,
    rng=None,
    chunk_size: int | None = None,
    jobs: int | None = None,
    progress: Callable[[float], None] | None = None,
) -> SystemsTableResult:
    """sacreBLEU's paired tests of every system against a baseline, on several metrics.

    Parameters
    ----------
    data : SegmentStatistics or sequence of SegmentStatistics
        One per metric (BLEU, chrF, TER from text; the mean of uploaded segment scores), all
        of the same systems; the column of each is its ``label``.
    baseline : str, optional
        The baseline system; default the first system of ``data`` (as sacreBLEU takes the
        first system given).
    test : {'paired-bootstrap', 'approximate-randomization'}
        sacreBLEU's ``--paired-bs`` or ``--paired-ar``.
    n_resamples : int, optional
        Resamples B (bootstrap) or trials R (randomization); default 1000 and 10000, as
        sacreBLEU.
    n_ci_resamples : int
        Bootstrap resamples of the mean and CI under approximate randomization (sacreBLEU's
        ``n_ar_confidence``); the paired bootstrap uses its own ``n_resamples``.
    confidence_level : float
        0.95 is sacreBLEU's interval.
    rng : int, numpy.random.Generator or None
        A non-negative int seed, a Generator or None (fresh entropy). sacreBLEU's default
        seed is 12345 (``SACREBLEU_SEED``); every metric draws from the same initial state.
    chunk_size : int, optional
        Resamples per chunk (memory bound); the results do not depend on it.
    jobs : int, optional
        Threads over chunks (the draws stay in order, results do not depend on it).
    progress : callable, optional
        Called with the fraction done (0..1).

    Returns
    -------
    SystemsTableResult

    Notes
    -----
    With :math:`S` the corpus score, :math:`b` the baseline and the observed statistic
    :math:`\\delta = |S_{sys} - S_b|`:

    Paired bootstrap (sacreBLEU ``_paired_bs_test``, after Koehn 2004 and the Moses script
    ``bootstrap-hypothesis-difference-significance.pl``): B resamples of segment indices
    ``rng.choice(n, (B, n))``, the same for every system; with
    :math:`d_r = |S_{sys,r} - S_{b,r}|`,

    .. math:: c = \\#\\{r : d_r - \\bar d > \\delta\\},\\qquad p = \\frac{c + 1}{B + 1}.

    This takes absolute values *before* shifting to zero, the Riezler & Maxwell (2005) order
    that :mod:`stats.mt.randomized` shows to be effectively one-sided; it is reproduced here
    because the table is sacreBLEU's. :math:`\\mu` is the mean of :math:`S_{sys,r}` and the
    CI half-width :math:`\\tfrac12 (S_{(B-k)} - S_{(k+1)})`, with :math:`S_{(i)}` the sorted
    resampled scores and :math:`k = \\lfloor B(1-\\gamma)/2 \\rfloor`.

    Approximate randomization (sacreBLEU ``_paired_ar_test``, after Riezler & Maxwell 2005
    and MultEval): R swap masks ``rng.integers(2, size=(R, n), dtype=bool)``; pseudo systems
    :math:`A_r`, :math:`B_r` take the baseline's / the system's segment where swapped, and

    .. math:: c = \\#\\{r : |S_{A_r} - S_{B_r}| > \\delta\\},\\qquad p = \\frac{c + 1}{R + 1}.

    :math:`\\mu` and CI come from ``n_ci_resamples`` bootstrap resamples drawn after the
    masks from the same generator; the baseline's from a generator in the initial state, as
    sacreBLEU bootstraps the baseline with a freshly seeded generator.

    "More extreme" is strict, as in sacreBLEU; pseudo-statistics within floating-point
    rounding (1e-9 relative to the scores) of :math:`\\delta` are not counted. Deliberate
    differences from sacreBLEU 2.6: a system whose statistics equal the baseline's on every
    segment gets :math:`p = 1` (sacreBLEU counts no pseudo-statistic above a zero difference
    and reports the smallest p-value, :math:`1/(R+1)`, for a copy of the baseline); seed 0 is
    a seed here (sacreBLEU passes ``None`` to the non-baseline systems for seed 0); and the
    resampled scores are computed in float64 from exact integer sums (sacreBLEU computes them
    from float32 sums, so its μ and CI agree to about 1e-5 on a 0-100 scale).

    References: Post (2018) https://aclanthology.org/W18-6319/ ; Koehn (2004)
    https://aclanthology.org/W04-3250/ ; Riezler & Maxwell (2005)
    https://aclanthology.org/W05-0908/ .
    """
    items = _check_data(data)
    if test not in SYSTEMS_TABLE_TESTS:
        raise StatsInputError(
            f"test must be one of {', '.join(SYSTEMS_TABLE_TESTS)}; got {test!r}"
        )
    if n_resamples is None:
        n_resamples = SYSTEMS_TABLE_TESTS[test]
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    n_ci_resamples = check_positive_int(n_ci_resamples, "n_ci_resamples")
    confidence_level = check_confidence_level(confidence_level)
    systems = items[0].systems
    if baseline is None:
        baseline = systems[0]
    elif baseline not in systems:
        raise StatsInputError(
            f"baseline: unknown system {baseline!r}; known systems: {', '.join(systems)}"
        )
    order = (baseline, *[s for s in systems if s != baseline])
    gen0, seed = rng_and_seed(rng)
    n_ci = n_resamples if test == "paired-bootstrap" else n_ci_resamples
    for item in items:
        check_budget(what=f"systems table ({test}, {item.label})",
                     n_resamples=n_resamples + (n_ci if test != "paired-bootstrap" else 0),
                     n_segments=item.n_segments, n_systems=item.n_systems,
                     n_pairs=item.n_systems - 1, memory=8.0 * (n_resamples + n_ci) * 3 * len(order))
    columns: dict[str, dict] = {
        name: {} for name in ("statistic", "pvalue", "score", "mean", "ci", "spread")
    }
    for i, item in enumerate(items):
        aligned = item.subset(order)
        stat, pvalue, mean, half, spread = _one_metric(
            aligned, 0, test=test, n_resamples=n_resamples, n_ci_resamples=n_ci,
            confidence_level=confidence_level, gen0=gen0, chunk_size=chunk_size, jobs=jobs,
            progress=progress, span=(i / len(items), (i + 1) / len(items)),
        )
        for name, values in zip(
            columns, (stat, pvalue, aligned.corpus_scores, mean, half, spread), strict=True
        ):
            columns[name][item.label] = np.asarray(values, dtype=float)
    if progress is not None:
        progress(1.0)
    frames = {name: pd.DataFrame(cols, index=list(order)) for name, cols in columns.items()}
    return SystemsTableResult(
        **frames,
        systems=order,
        metrics=tuple(item.label for item in items),
        baseline=baseline,
        test=test,
        alternative="two-sided",
        n_resamples=n_resamples,
        n_ci_resamples=n_ci,
        seed=seed,
        confidence_level=confidence_level,
        n_segments={item.label: item.n_segments for item in items},
        higher_is_better={item.label: item.higher_is_better for item in items},
        signatures={item.label: item.signature for item in items},
    )
