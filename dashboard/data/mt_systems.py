"""Cached data of the "MT systems" page (also used by "Tests vs humans"): segment statistics
extracted once per input (:mod:`stats.analyses`), then the randomized tests over all pairs or
one pair, and the sacreBLEU-style systems table against a baseline, cached per input and
setting."""

from __future__ import annotations

from collections.abc import Callable

import pandas as pd

from dashboard.data import Uploads
from dashboard.data._cache import cache_data
from dashboard.data._isolated import isolated
from stats import StatsInputError, analyses
from stats.mt.baseline_table import SystemsTableResult
from stats.mt.baseline_table import systems_table as stats_systems_table
from stats.mt.contributions import SegmentContributions, segment_contributions
from stats.mt.randomized import (
    PairwiseSignificanceResult,
    RandomizedTestResult,
    pairwise_significance,
)
from stats.mt.sufficient import SegmentStatistics
from stats.mt.tokenize_options import parse_metric_spec
from stats.readers.mt_text import language_pair_of

#: Input kinds (the ``kind`` argument): system outputs + reference, or segment scores.
KIND_TEXT = "text"
KIND_SCORES = "scores"


def _score_files(scores: Uploads) -> list[tuple[str, bytes]]:
    if not scores:
        raise StatsInputError(
            "upload a segment-score file (SYSTEM SEGMENT SCORE [METRIC], or a wide CSV with one "
            "column per system), or WMT metrics task segment-level files"
        )
    return list(scores)


@cache_data(show_spinner=False, max_entries=16)
def score_options(scores: Uploads) -> analyses.ScoreFileOptions:
    """The metrics of the uploaded score file(s), and the (metric, lp, testset, refset) blocks
    of WMT metrics task segment-level files (:func:`stats.analyses.score_file_options`)."""
    return analyses.score_file_options(_score_files(scores))


def score_metrics(scores: Uploads) -> tuple[str, ...]:
    """Metric names in the METRIC column of the uploaded score file(s) (``()`` if none)."""
    return score_options(scores).metrics


@cache_data(show_spinner=False, max_entries=16)
def statistics(
    kind: str,
    references: Uploads,
    files: Uploads,
    metric: str,
    higher_is_better: bool = True,
    block: tuple = (),
    _progress: Callable[[float], None] | None = None,
) -> SegmentStatistics:
    """Per-segment sufficient statistics of all systems, extracted once.

    ``kind`` :data:`KIND_TEXT`: ``references`` and one output file per system in ``files``,
    ``metric`` one of bleu/chrf/ter, optionally with its sacreBLEU options
    (:func:`stats.mt.tokenize_options.metric_spec`; :func:`stats.analyses.text_statistics`). ``kind``
    :data:`KIND_SCORES`: one segment-score file in ``files``, ``metric`` the METRIC to use (""
    when the file has no METRIC column; :func:`stats.analyses.score_statistics`), ``block``
    the ``(lp, testset, refset)`` of WMT metrics task segment-level files (``()``, or None
    in it: the only one, or the test set's own reference).
    ``_progress`` (not part of the cache key) receives the fraction of systems done during
    extraction.
    """
    if kind == KIND_TEXT:
        if not references:
            raise StatsInputError("upload the reference file (one segment per line)")
        if len(files) < 2:
            raise StatsInputError(
                f"upload one output file per system (at least two); got {len(files)}"
            )
        # the metric with its sacreBLEU options (stats.mt.tokenize_options.metric_spec): part
        # of every cache key that holds the metric
        name, options = parse_metric_spec(metric)
        return analyses.text_statistics(
            references, files, metric=name, options=options, progress=_progress
        )
    lp, testset, refset = tuple(block) + (None,) * (3 - len(block))
    return analyses.score_statistics(
        _score_files(files),
        metric=metric or None,
        lower_is_better=not higher_is_better,
        lp=lp,
        testset=testset,
        refset=refset,
    )


def _kept(data: SegmentStatistics, excluded: tuple) -> SegmentStatistics:
    return analyses.without_systems(data, excluded) if excluded else data


@cache_data(show_spinner=False, max_entries=64)
def pairwise(
    kind: str,
    references: Uploads,
    files: Uploads,
    metric: str,
    higher_is_better: bool,
    test: str,
    n_resamples: int,
    alternative: str,
    seed: int,
    block: tuple = (),
    excluded: tuple = (),
    _progress: Callable[[float], None] | None = None,
) -> PairwiseSignificanceResult:
    """All-pairs randomized test on :func:`statistics` without the systems ``excluded``.
    ``_progress`` (not part of the cache key) receives the fraction done while it runs."""
    data = _kept(statistics(kind, references, files, metric, higher_is_better, block), excluded)
    return isolated(  # in a child process: Stop ends it, the session's memory budget holds
        pairwise_significance,
        data,
        work=float(n_resamples) * data.stats.size * max(len(data.systems) - 1, 1),
        test=test,
        n_resamples=n_resamples,
        alternative=alternative,
        rng=seed,
        what=f"the {test} test of every pair of systems",
        progress=_progress,
        reduce="use fewer resamples or systems",
    )


@cache_data(show_spinner=False, max_entries=64)
def pair_tests(
    kind: str,
    references: Uploads,
    files: Uploads,
    metric: str,
    higher_is_better: bool,
    x: str,
    y: str,
    tests: tuple[str, ...],
    n_resamples: int,
    alternative: str,
    seed: int,
    block: tuple = (),
    excluded: tuple = (),
) -> dict[str, RandomizedTestResult]:
    """The chosen tests for one pair (X, Y) with their pseudo-statistic distributions
    (:func:`stats.analyses.pair_tests`); with the same seed the p-values equal the all-pairs
    grid's."""
    return analyses.pair_tests(
        _kept(statistics(kind, references, files, metric, higher_is_better, block), excluded),
        x,
        y,
        tests=tests,
        n_resamples=n_resamples,
        alternative=alternative,
        rng=seed,
    )


@cache_data(show_spinner=False, max_entries=32)
def systems_table(
    kind: str,
    references: Uploads,
    files: Uploads,
    metrics: tuple[str, ...],
    higher_is_better: bool,
    baseline: str,
    test: str,
    n_resamples: int,
    seed: int,
    block: tuple = (),
    excluded: tuple = (),
    _progress: Callable[[float], None] | None = None,
) -> SystemsTableResult:
    """sacreBLEU's paired ``test`` of every system against ``baseline`` on ``metrics`` (text:
    bleu/chrf/ter; scores: METRIC names, "" for a file without one), from the statistics of
    :func:`statistics` (same ``block``) without the systems ``excluded``
    (:func:`stats.systems_table`). ``_progress`` (not part of the cache key) receives the
    fraction done."""
    data = [
        _kept(statistics(kind, references, files, m, higher_is_better, block), excluded)
        for m in dict.fromkeys(metrics)
    ]
    return isolated(  # in a child process: Stop ends it, the session's memory budget holds
        stats_systems_table, data, work=float(n_resamples) * sum(d.stats.size for d in data),
        baseline=baseline, test=test, n_resamples=n_resamples,
        rng=seed, what=f"the {test} test of every system against {baseline}",
        progress=_progress, reduce="use fewer resamples, systems or metrics",
    )  # fmt: skip


@cache_data(show_spinner=False, max_entries=32)
def contributions(inputs: tuple, x: str, y: str, block: tuple = ()) -> SegmentContributions:
    """Each segment's contribution to the difference of systems ``x`` and ``y``
    (:func:`stats.segment_contributions` on :func:`statistics`; ``inputs`` its first five
    arguments: kind, references, files, metric, higher_is_better)."""
    return segment_contributions(statistics(*inputs, block), x, y)


def language_pair(references: Uploads, files: Uploads) -> str | None:
    """The language pair the uploaded files' names agree on (``generaltest2023.en-ja...``)."""
    return language_pair_of(references, files)


@cache_data(show_spinner=False, max_entries=16)
def reference_order(references: Uploads, files: Uploads, metric: str) -> str | None:
    """With several references: their order, and for chrF whether it changes any segment's
    statistics (:func:`stats.analyses.reference_order`); ``None`` for one reference."""
    if len(references) < 2:
        return None
    name, options = parse_metric_spec(metric)
    names = ", ".join(n for n, _ in references)
    if name != "chrf":
        return f"{len(references)} references in this order: {names}"
    return analyses.reference_order(references, files, options=options)


@cache_data(show_spinner=False, max_entries=16)
def segment_texts(
    references: Uploads, files: Uploads, x: str, y: str, source: Uploads = ()
) -> pd.DataFrame:
    """Source (one uploaded file, optional), reference and the two hypotheses of every segment
    (:func:`stats.analyses.segment_texts`)."""
    if len(source) > 1:
        raise StatsInputError(
            f"upload one source file (one line per segment); got {len(source)}: "
            + ", ".join(name for name, _ in source)
        )
    return analyses.segment_texts(references, files, x, y, source=source[0] if source else None)
