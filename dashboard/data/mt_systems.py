"""Cached data of the "MT systems" page (also used by "Tests vs humans"): segment statistics
extracted once per input (:mod:`stats.analyses`), then the randomized tests over all pairs or
one pair, and the sacreBLEU-style systems table against a baseline, cached per input and
setting."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from dashboard.data import Uploads
from stats import StatsInputError, analyses
from stats.randomized import (
    PairwiseSignificanceResult,
    RandomizedTestResult,
    pairwise_significance,
)
from stats.readers.segments import score_file_metrics
from stats.sufficient import SegmentStatistics
from stats.systems_table import SystemsTableResult

#: Input kinds (the ``kind`` argument): system outputs + reference, or segment scores.
KIND_TEXT = "text"
KIND_SCORES = "scores"


def _one_score_file(scores: Uploads) -> tuple[str, bytes]:
    if len(scores) != 1:
        names = ", ".join(name for name, _ in scores) or "none"
        raise StatsInputError(
            "upload one segment-score file (SYSTEM SEGMENT SCORE [METRIC], or a wide CSV with "
            f"one column per system); got {len(scores)}: {names}"
        )
    return scores[0]


@st.cache_data(show_spinner=False, max_entries=16)
def score_metrics(scores: Uploads) -> tuple[str, ...]:
    """Metric names in the METRIC column of the uploaded score file (``()`` if none)."""
    name, raw = _one_score_file(scores)
    return score_file_metrics(raw, name=name)


@st.cache_data(show_spinner=False, max_entries=16)
def statistics(
    kind: str,
    references: Uploads,
    files: Uploads,
    metric: str,
    higher_is_better: bool = True,
    _progress: Callable[[float], None] | None = None,
) -> SegmentStatistics:
    """Per-segment sufficient statistics of all systems, extracted once.

    ``kind`` :data:`KIND_TEXT`: ``references`` and one output file per system in ``files``,
    ``metric`` one of bleu/chrf/ter (:func:`stats.analyses.text_statistics`). ``kind``
    :data:`KIND_SCORES`: one segment-score file in ``files``, ``metric`` the METRIC to use (""
    when the file has no METRIC column; :func:`stats.analyses.score_statistics`).
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
        return analyses.text_statistics(references, files, metric=metric, progress=_progress)
    return analyses.score_statistics(
        _one_score_file(files), metric=metric or None, lower_is_better=not higher_is_better
    )


@st.cache_data(show_spinner=False, max_entries=64)
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
    _progress: Callable[[float], None] | None = None,
) -> PairwiseSignificanceResult:
    """All-pairs randomized test on :func:`statistics`. ``_progress`` (not part of the cache
    key) receives the fraction done while it runs."""
    return pairwise_significance(
        statistics(kind, references, files, metric, higher_is_better),
        test=test,
        n_resamples=n_resamples,
        alternative=alternative,
        rng=seed,
        progress=_progress,
    )


@st.cache_data(show_spinner=False, max_entries=64)
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
) -> dict[str, RandomizedTestResult]:
    """The chosen tests for one pair (X, Y) with their pseudo-statistic distributions
    (:func:`stats.analyses.pair_tests`); with the same seed the p-values equal the all-pairs
    grid's."""
    return analyses.pair_tests(
        statistics(kind, references, files, metric, higher_is_better),
        x,
        y,
        tests=tests,
        n_resamples=n_resamples,
        alternative=alternative,
        rng=seed,
    )


@st.cache_data(show_spinner=False, max_entries=32)
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
    _progress: Callable[[float], None] | None = None,
) -> SystemsTableResult:
    """sacreBLEU's paired ``test`` of every system against ``baseline`` on ``metrics`` (text:
    bleu/chrf/ter; scores: METRIC names, "" for a file without one), from the statistics of
    :func:`statistics` (:func:`stats.analyses.systems_table_analysis`). ``_progress`` (not
    part of the cache key) receives the fraction done."""
    return analyses.systems_table_analysis(
        references=references,
        hypotheses=files,
        scores=_one_score_file(files) if kind == KIND_SCORES else None,
        metrics=metrics,
        lower_is_better=not higher_is_better,
        baseline=baseline,
        test=test,
        n_resamples=n_resamples,
        rng=seed,
        progress=_progress,
        load=lambda metric: statistics(kind, references, files, metric, higher_is_better),
    )
