"""MT systems: segment statistics from files, randomized tests for a pair (Graham, Mathur &
Baldwin, WMT 2014), and the sacreBLEU-style systems table (every system against a baseline on
several metrics, Post 2018).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from .._choices import TEXT_METRICS as TEXT_METRICS  # re-exported
from .._errors import StatsInputError
from ..randomized import (
    RandomizedTestResult,
    approximate_randomization,
    bootstrap,
    paired_bootstrap,
)
from ..readers._common import source_name
from ..readers.segments import read_parallel, read_segment_scores, score_file_metrics
from ..sufficient import SegmentStatistics, extract_statistics, statistics_from_scores
from ..systems_table import SystemsTableResult, systems_table
from ._inputs import FileInput, Files, _named

_SINGLE_TESTS = {
    "paired-bootstrap": paired_bootstrap,
    "bootstrap": bootstrap,
    "approximate-randomization": approximate_randomization,
}


def _check_two_systems(n: int, systems, label: str | None = None) -> None:
    if n < 2:
        raise StatsInputError(
            (f"{label}: " if label else "")
            + f"need at least two systems to compare; got {n} ({', '.join(map(str, systems))})"
        )


def text_statistics(
    references: Files,
    hypotheses: Files,
    *,
    metric: str = "bleu",
    progress: Callable[[float], None] | None = None,
    jobs: int | None = None,
) -> SegmentStatistics:
    """Per-segment sufficient statistics of ``metric`` (bleu, chrf or ter) for every system.

    Parameters
    ----------
    references : Files
        One or more reference files, one segment per line.
    hypotheses : Files
        One output file per system (at least two), aligned with the references; the system
        name is the file name without its extension.
    metric : {'bleu', 'chrf', 'ter'}
    progress : callable, optional
        Receives the fraction of systems done.
    jobs : int, optional
        Worker processes for TER extraction (default: all cores).

    Raises
    ------
    StatsInputError
        Fewer than two systems; anything :func:`stats.readers.segments.read_parallel` or
        :func:`stats.sufficient.extract_statistics` rejects.
    """
    refs, hyps = read_parallel(references, hypotheses)
    _check_two_systems(len(hyps), hyps)
    return extract_statistics(refs, hyps, metric=metric, progress=progress, jobs=jobs)


def score_statistics(
    scores: FileInput,
    *,
    metric: str | None = None,
    lower_is_better: bool | Callable[[str], bool] = False,
) -> SegmentStatistics:
    """Segment scores of one file (long ``SYSTEM SEGMENT SCORE [METRIC]`` or wide) as
    :class:`~stats.sufficient.SegmentStatistics` (the corpus score is the mean).

    Parameters
    ----------
    scores : FileInput
    metric : str, optional
        Which METRIC of a long file holding several (case-insensitive).
    lower_is_better : bool or callable
        Whether a lower score is better; or a function of the metric's name (the METRIC value,
        ``'mean'`` for a file without one) that says so (and may raise for a name it does not
        expect).

    Raises
    ------
    StatsInputError
        Fewer than two systems (the file named); anything
        :func:`stats.readers.segments.read_segment_scores` rejects.
    """
    source, name = _named(scores)
    frame = read_segment_scores(source, metric=metric, name=name)
    lower = (
        lower_is_better(str(frame.columns.name or "mean"))
        if callable(lower_is_better)
        else bool(lower_is_better)
    )
    _check_two_systems(frame.shape[1], frame.columns, source_name(source, name))
    return statistics_from_scores(
        frame, label=frame.columns.name or "mean score", higher_is_better=not lower
    )


def pair_tests(
    data: SegmentStatistics,
    x: str,
    y: str,
    *,
    tests: Sequence[str],
    n_resamples: int,
    alternative: str = "greater",
    rng=None,
) -> dict[str, RandomizedTestResult]:
    """The randomized ``tests`` (names of :data:`stats.randomized.TESTS`) of system ``x``
    against ``y``, with their pseudo-statistic distributions; with the same integer ``rng``
    the p-values equal those of :func:`stats.randomized.pairwise_significance`."""
    unknown = [t for t in tests if t not in _SINGLE_TESTS]
    if unknown:
        raise StatsInputError(
            f"tests: unknown test(s) {', '.join(map(repr, unknown))}; choose from "
            f"{', '.join(_SINGLE_TESTS)}"
        )
    return {
        t: _SINGLE_TESTS[t](
            x, y, data=data, alternative=alternative, n_resamples=n_resamples, rng=rng
        )
        for t in tests
    }


def systems_table_analysis(
    *,
    references: Files = (),
    hypotheses: Files = (),
    scores: FileInput | None = None,
    metrics: Sequence[str] | None = None,
    lower_is_better: bool | Callable[[str], bool] = False,
    baseline: str | None = None,
    test: str = "paired-bootstrap",
    n_resamples: int | None = None,
    rng=None,
    jobs: int | None = None,
    progress: Callable[[float], None] | None = None,
    load: Callable[[str], SegmentStatistics] | None = None,
) -> SystemsTableResult:
    """The sacreBLEU-style systems table (:func:`stats.systems_table.systems_table`) of text
    files or of a segment-score file.

    Parameters
    ----------
    references, hypotheses : Files
        Text input: reference file(s) and one output file per system.
    scores : FileInput, optional
        Segment-score input instead (long ``SYSTEM SEGMENT SCORE [METRIC]`` or wide).
    metrics : sequence of str, optional
        Text: names of :data:`TEXT_METRICS` (default all three, in that order). Scores: names
        of the file's METRIC column (default every metric of the file; a file without one has
        the single metric ``""``).
    lower_is_better : bool or callable
        Scores only: see :func:`score_statistics` (the table's p-values are two-sided, so the
        direction only labels the metric).
    baseline, test, n_resamples, rng, jobs, progress
        See :func:`stats.systems_table.systems_table` (``jobs`` also extracts TER).
    load : callable, optional
        ``load(metric)`` returns the statistics of one metric in place of reading the files
        (the dashboard passes its cached extraction); the metric names are those above.

    Raises
    ------
    StatsInputError
        An unknown metric or baseline, and anything the readers reject.
    """
    if scores is not None:
        source, name = _named(scores)
        found = score_file_metrics(source, name=name) or ("",)
        chosen = tuple(found) if metrics is None else tuple(metrics)
        if "" not in found:
            lowered = {m.lower(): m for m in found}
            unknown = [m for m in chosen if m.lower() not in lowered]
            if unknown:
                raise StatsInputError(
                    f"metrics: {', '.join(map(repr, unknown))} not in the METRIC column of "
                    f"{source_name(source, name)} ({', '.join(found)})"
                )

        def read(metric: str) -> SegmentStatistics:
            return score_statistics(scores, metric=metric or None, lower_is_better=lower_is_better)
    else:
        chosen = TEXT_METRICS if metrics is None else tuple(metrics)
        unknown = [m for m in chosen if m not in TEXT_METRICS]
        if unknown:
            raise StatsInputError(
                f"metrics: unknown text metric(s) {', '.join(map(repr, unknown))}; choose from "
                f"{', '.join(TEXT_METRICS)}"
            )

        def read(metric: str) -> SegmentStatistics:
            return text_statistics(references, hypotheses, metric=metric, jobs=jobs)
    if not chosen:
        raise StatsInputError("metrics: choose at least one metric")
    data = [(load or read)(m) for m in dict.fromkeys(chosen)]
    return systems_table(
        data, baseline=baseline, test=test, n_resamples=n_resamples, rng=rng, jobs=jobs,
        progress=progress,
    )
