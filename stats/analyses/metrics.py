"""Metrics against humans, per language pair (Graham & Baldwin, EMNLP 2014): Williams all-pairs
tests of each language pair, correlations with humans, leave-one-out influence.

A *block* is one language pair, test set and reference (the WMT metrics task's REFSET): by
default the test set's own reference; with ``refset='all'`` every reference is its own block.
Reference-free metrics join every block of their language pair. Systems are left out by name
patterns and by the findings' MAD outlier rule (:func:`stats.metaeval.outliers.mad_outliers`); a metric
without a score for a kept system is dropped from the block with a warning, as the organisers
do.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase

import pandas as pd

from stats._core.errors import DegenerateInputWarning, StatsInputError
from stats.metaeval.correlation import (
    CorrelationResult,
    LeaveOneOutResult,
    correlate_with_human,
    leave_one_out,
    metric_correlations,
)
from stats.metaeval.outliers import mad_outliers
from stats.metaeval.williams import WilliamsMatrixResult, williams_all_pairs

from ..readers import name_list
from ..readers.system_level import HUMAN, LanguagePairScores, SystemScores, read_system_scores
from ..readers.wmt import select_refsets
from ._inputs import Files, _recorded

#: robust z above which the MAD rule calls a system an outlier (WMT20 metrics task)
MAD_THRESHOLD = 2.5


@dataclass(frozen=True, kw_only=True)
class BlockSelection:
    """What was left out of one block: ``excluded_systems`` (by a pattern or as outliers, in
    file order), ``outliers`` (those of them left out by the MAD rule), ``without_human``
    (systems with metric scores but no human score: left out, as the organisers do) and
    ``dropped_metrics`` (metrics without a score for a kept system)."""

    excluded_systems: tuple = ()
    outliers: tuple = ()
    dropped_metrics: tuple = ()
    without_human: tuple = ()


@dataclass(frozen=True, kw_only=True)
class SystemsChoice:
    """Which scores make the blocks (see the module docstring).

    Attributes
    ----------
    refset : str or None
        None: the test set's own reference; ``'all'``: every reference; else a REFSET name.
    reference_free : tuple of str
        Metrics that use no reference: they join every reference block of their LP.
    exclude_systems : tuple of str
        System names or shell patterns (:func:`fnmatch.fnmatchcase`), e.g. ``'Human-*'``.
    exclude_outliers : bool
        Leave out the outliers of the block's human scores (:func:`~stats.metaeval.outliers.mad_outliers`).
    outlier_systems : tuple of (lp, tuple of str)
        Outliers as WMT publishes them (``outliers.json``,
        :func:`~stats.metaeval.outliers.read_outliers_json`): left out of their language pair.
    """

    refset: str | None = None
    reference_free: tuple = ()
    exclude_systems: tuple = ()
    exclude_outliers: bool = False
    outlier_systems: tuple = ()


@dataclass(frozen=True, kw_only=True)
class LanguagePairTests:
    """Williams all-pairs tests of one language pair (and test set).

    ``key`` names it: the language pair, or ``"<lp> / <testset>"`` when the files hold several
    test sets of it.
    """

    key: str
    lp: str
    testset: str
    scores: LanguagePairScores
    williams: WilliamsMatrixResult
    refset: str = ""
    selection: BlockSelection = field(default_factory=lambda: BlockSelection())


@dataclass(frozen=True, kw_only=True)
class LanguagePairAnalysis:
    """The tests of one language pair with correlations with humans (``correlation``),
    leave-one-out influence (``influence``) and ``metric_corr``: each correlation kind
    (``pearson``, ``spearman``, ``kendall``) -> the metric-metric matrix of the sign-aligned
    scores, rows and columns in ``williams.order``. ``warnings``: degenerate-input messages."""

    key: str
    lp: str
    testset: str
    scores: LanguagePairScores
    correlation: CorrelationResult
    williams: WilliamsMatrixResult
    influence: LeaveOneOutResult
    metric_corr: dict
    warnings: tuple
    refset: str = ""
    selection: BlockSelection = field(default_factory=lambda: BlockSelection())


@dataclass(frozen=True, kw_only=True)
class MetricsAnalysis:
    """Every language pair (and test set) of some files: ``analyses`` (key ->
    :class:`LanguagePairTests`, file order), ``problems`` (key -> why that language pair could
    not be analysed; it is left out), ``files`` (display names) and ``warnings``."""

    files: tuple
    analyses: dict
    problems: dict
    warnings: tuple


def read_metric_scores(
    files: Files, *, lp: str | None = None, human_score: str = "z"
) -> SystemScores:
    """Read system-level score files (WMT ``METRIC LP TESTSET SYSTEM SCORE``, the metrics
    task's ``METRIC LP TESTSET REFSET SYSTEM SCORE`` and DA files, or wide CSV/TSV, any mix;
    gzip, archives and directories; see :func:`stats.readers.read_system_scores`, whose ``lp``
    and ``human_score`` these are)."""
    return read_system_scores(*files, lp=lp, human_score=human_score)


def _williams(scores: LanguagePairScores, alternative, confidence_level, sign_align):
    return williams_all_pairs(
        scores.metrics,
        scores.human,
        sign_align=sign_align,
        alternative=alternative,
        confidence_level=confidence_level,
    )


def _reference_free(data: SystemScores, names: Sequence[str]) -> SystemScores:
    """``data`` with the REFSET of the named metrics emptied: they join every block."""
    if not names:
        return data
    present = set(data.frame["metric"])
    unknown = [n for n in names if n not in present]
    if unknown:
        raise StatsInputError(
            f"reference-free metric(s) {name_list(unknown)} not in the files; metrics present: "
            f"{name_list(data.metric_names())}"
        )
    if "refset" not in data.frame:
        return data
    frame = data.frame
    frame = frame.assign(refset=frame["refset"].where(~frame["metric"].isin(list(names)), ""))
    return replace(data, frame=frame)


def _rows(data: SystemScores, lp: str, testset: str) -> pd.DataFrame:
    frame = data.frame
    return frame[(frame["lp"] == lp) & frame["testset"].isin([testset, ""])]


def _where(lp: str, testset: str, refset: str = "") -> str:
    return (
        f"language pair {lp!r}"
        + (f", test set {testset!r}" if testset else "")
        + (f", reference {refset!r}" if refset else "")
    )


def _warn_unused(rows: pd.DataFrame, refs: Sequence[str], where: str) -> None:
    """Warn about metrics whose every score is for a reference not analysed (e.g. REFSET
    ``src`` of a QE metric not named reference-free)."""
    used = rows["refset"].isin([*refs, ""])
    unused = rows.loc[~used, "metric"].unique()
    for metric in [m for m in unused if m not in set(rows.loc[used, "metric"])]:
        others = name_list(pd.unique(rows.loc[rows["metric"] == metric, "refset"]))
        warnings.warn(
            f"{where}: metric {metric} has scores only for reference(s) {others}, not analysed; "
            "name it with reference_free=NAME if it uses no reference, or choose refset=NAME",
            DegenerateInputWarning,
            stacklevel=4,
        )


def _block_keys(data: SystemScores, lp: str, testsets: Sequence[str], refset: str | None):
    """``[(key, testset, refset)]``: the blocks of ``lp``; the key adds the test set and the
    reference to the language pair where it has several."""
    out = []
    for t in testsets:
        rows = _rows(data, lp, t)
        refs = select_refsets(rows.get("refset", ()), t, refset, _where(lp, t))
        if "refset" in rows:
            _warn_unused(rows[rows["metric"] != HUMAN], refs, _where(lp, t))
        for r in refs:
            key = (
                lp + (f" / {t}" if len(testsets) > 1 else "") + (f" / {r}" if len(refs) > 1 else "")
            )
            out.append((key, t, r))
    return out


def _block_scores(
    data: SystemScores, lp: str, testset: str, refset: str, choice: SystemsChoice
) -> tuple[LanguagePairScores, BlockSelection]:
    """The aligned scores of one block, after the exclusions of ``choice``."""
    rows = _rows(data, lp, testset)
    if refset:
        rows = rows[rows["refset"].isin([refset, ""])]
    where = _where(lp, testset, refset)
    patterns = choice.exclude_systems
    excluded = [s for s in pd.unique(rows["system"]) if any(fnmatchcase(s, p) for p in patterns)]
    rows = rows[~rows["system"].isin(excluded)]
    human = rows[rows["metric"] == HUMAN]
    outliers: list = []
    published = dict(choice.outlier_systems).get(lp, ())
    if published:
        outliers = [s for s in pd.unique(rows["system"]) if s in set(published)]
        absent = [s for s in published if s not in set(outliers)]
        warnings.warn(
            f"{where}: outliers as published left out: "
            f"{name_list(outliers) if outliers else 'none of ' + name_list(published)}"
            + (f"; not systems of this block (matched nothing): {name_list(absent)}"
               if absent and outliers else ""),
            DegenerateInputWarning,
            stacklevel=3,
        )
        rows = rows[~rows["system"].isin(outliers)]
        human = rows[rows["metric"] == HUMAN]
    if choice.exclude_outliers and len(human):
        mask = mad_outliers(human["score"].to_numpy(), threshold=MAD_THRESHOLD)
        found = list(human["system"][mask])
        warnings.warn(
            f"{where}: MAD rule (robust z of the human scores > {MAD_THRESHOLD:g}): "
            + (f"outlier(s) {name_list(found)} left out" if found
               else f"no outlier among {len(human)} systems"),
            DegenerateInputWarning,
            stacklevel=3,
        )
        outliers += found
        rows = rows[~rows["system"].isin(found)]
        human = human[~mask]
    dropped = []
    unscored: list = []
    if len(human):
        kept = list(human["system"])
        unscored = [s for s in pd.unique(rows["system"]) if s not in set(kept)]
        if unscored:
            warnings.warn(
                f"{where}: system(s) with metric scores but no human score left out: "
                f"{name_list(unscored)}",
                DegenerateInputWarning,
                stacklevel=3,
            )
            rows = rows[rows["system"].isin(kept)]
        metric_rows = rows[rows["metric"] != HUMAN]
        for metric, systems in metric_rows.groupby("metric", sort=False)["system"]:
            have = set(systems)
            missing = [s for s in kept if s not in have]
            if missing:
                dropped.append(metric)
                warnings.warn(
                    f"{where}: metric {metric} has no score for {name_list(missing)}; it is "
                    "left out of this block",
                    DegenerateInputWarning,
                    stacklevel=3,
                )
        rows = rows[~rows["metric"].isin(dropped)]
        if dropped and not (rows["metric"] != HUMAN).any():
            raise StatsInputError(
                f"{where}: no metric has a score for every system with a human score (left "
                f"out: {name_list(dropped)}); exclude the systems they lack"
            )
    scores = SystemScores(frame=rows, files=data.files).language_pair(
        lp, testset=testset, refset=refset or None
    )
    selection = BlockSelection(
        excluded_systems=tuple(excluded + outliers),
        outliers=tuple(outliers),
        dropped_metrics=tuple(dropped),
        without_human=tuple(unscored),
    )
    return scores, selection


def _with_human(data: SystemScores) -> list:
    """The language pairs that have human scores; the others are named in a warning (a set
    of published metric files covers more language pairs than were evaluated by humans). All
    of them when none has any (the error then names the first)."""
    frame = data.frame
    with_human = set(frame.loc[frame["metric"] == HUMAN, "lp"])
    lps = list(data.language_pairs)
    if not with_human:
        return lps
    missing = [lp for lp in lps if lp not in with_human]
    if missing:
        warnings.warn(
            f"language pair(s) without human scores left out: {name_list(missing)}",
            DegenerateInputWarning,
            stacklevel=3,
        )
    return [lp for lp in lps if lp in with_human]


def _choice(
    refset, reference_free, exclude_systems, exclude_outliers, outlier_systems=None
) -> SystemsChoice:
    return SystemsChoice(
        refset=refset,
        reference_free=tuple(reference_free or ()),
        exclude_systems=tuple(exclude_systems or ()),
        exclude_outliers=bool(exclude_outliers),
        outlier_systems=tuple((lp, tuple(s)) for lp, s in dict(outlier_systems or {}).items()),
    )


def _wanted(data: SystemScores, language_pairs, testset) -> list[tuple[str, list]]:
    """``[(lp, test sets)]`` to analyse: the language pairs asked for (each must be in the
    files) or every one with human scores (:func:`_with_human`); ``testset`` (when given,
    it must be a test set of each) or all of them."""
    if language_pairs:
        lps = list(dict.fromkeys(language_pairs))
        for lp_name in lps:
            if lp_name not in data.language_pairs:
                data.language_pair(lp_name)  # raises, naming the language pairs present
    else:
        lps = _with_human(data)
    out = []
    for lp_name in lps:
        testsets = list(data.testsets(lp_name))
        if testset is not None:
            if testset not in testsets and testset != "":
                data.language_pair(lp_name, testset=testset)  # raises, naming those present
            testsets = [testset]
        out.append((lp_name, testsets))
    return out


def metrics_analysis(
    files: Files | SystemScores,
    *,
    language_pairs: Sequence[str] | None = None,
    testset: str | None = None,
    alternative: str = "greater",
    confidence_level: float = 0.95,
    sign_align: bool = True,
    refset: str | None = None,
    reference_free: Sequence[str] = (),
    exclude_systems: Sequence[str] = (),
    exclude_outliers: bool = False,
    outlier_systems=None,
    lp: str | None = None,
    human_score: str = "z",
) -> MetricsAnalysis:
    """Williams all-pairs tests (Graham & Baldwin 2014) for every language pair, test set and
    reference: the one workflow of this analysis (the CLI's ``williams`` and the dashboard's
    "Metrics vs humans" page).

    Missing data, one policy: language pairs without any human score (published metric files
    cover more than humans judged) are left out with one warning naming them; a system
    without a human score is left out of its block, and a metric without a score for a kept
    system is dropped from it, each with a warning (as the organisers do); a block that still
    cannot be analysed (e.g. fewer than 4 systems) is reported in ``problems`` and the others
    are analysed. Only when no block can be analysed is that an error.

    Parameters
    ----------
    files : Files or SystemScores
        Score files, or their contents already read with :func:`read_metric_scores`.
    language_pairs : sequence of str, optional
        The language pairs to analyse, in this order (each must be in the files). Default:
        every language pair with human scores, in file order.
    testset : str, optional
        Only this test set (it must be one of each chosen language pair's). Default: every
        test set, each its own block.
    alternative, confidence_level, sign_align
        As in :func:`stats.metaeval.williams.williams_all_pairs`.
    refset, reference_free, exclude_systems, exclude_outliers, outlier_systems
        As in :class:`SystemsChoice` (``outlier_systems`` also a mapping lp -> systems).
    lp, human_score
        As in :func:`read_metric_scores` (not used when ``files`` is a SystemScores): the
        language pair of DA files whose name ends in none, and the DA score (``'z'`` or
        ``'raw'``).

    Returns
    -------
    MetricsAnalysis
        The blocks by key: the language pair, with `` / <testset>`` and `` / <refset>`` added
        where it has several (each block also holds ``lp``, ``testset`` and ``refset`` apart).

    Raises
    ------
    StatsInputError
        A file cannot be read; a language pair or test set asked for is not in the files; an
        unknown reference-free metric; no block can be analysed (the first problem).
    """
    data = (
        files
        if isinstance(files, SystemScores)
        else read_metric_scores(files, lp=lp, human_score=human_score)
    )
    choice = _choice(refset, reference_free, exclude_systems, exclude_outliers, outlier_systems)
    data = _reference_free(data, choice.reference_free)
    analyses: dict[str, LanguagePairTests] = {}
    problems: dict[str, str] = {}
    with _recorded() as messages:
        _note_unmatched_outliers(choice, data.language_pairs)
        for lp_name, testsets in _wanted(data, language_pairs, testset):
            try:
                keys = _block_keys(data, lp_name, testsets, choice.refset)
            except StatsInputError as exc:
                problems[lp_name] = str(exc)
                continue
            for key, t, ref in keys:
                try:
                    scores, selection = _block_scores(data, lp_name, t, ref, choice)
                    williams = _williams(scores, alternative, confidence_level, sign_align)
                except StatsInputError as exc:
                    problems[key] = str(exc)
                    continue
                analyses[key] = LanguagePairTests(
                    williams=williams, **_block_fields(key, scores, ref, selection)
                )
    if not analyses:
        raise StatsInputError(next(iter(problems.values())))
    return MetricsAnalysis(
        files=data.files, analyses=analyses, problems=problems, warnings=tuple(messages)
    )


def _note_unmatched_outliers(choice: SystemsChoice, language_pairs) -> None:
    """A warning naming the language pairs of published outliers that are not in the files
    (their entries match nothing)."""
    unmatched = [lp for lp, _ in choice.outlier_systems if lp not in set(language_pairs)]
    if unmatched:
        warnings.warn(
            f"outliers: language pair(s) {name_list(unmatched)} are not in the files; their "
            "outliers matched nothing",
            DegenerateInputWarning,
            stacklevel=3,
        )


def _block_fields(key, scores: LanguagePairScores, refset: str, selection) -> dict:
    """The fields naming a block, shared by its tests and its analysis."""
    return {
        "key": key,
        "lp": scores.lp,
        "testset": scores.testset,
        "scores": scores,
        "refset": refset,
        "selection": selection,
    }


def language_pair_analysis(tests: LanguagePairTests) -> LanguagePairAnalysis:
    """Correlations with humans (Pearson, Spearman, Kendall), leave-one-out influence and the
    metric-metric matrices of one block of :func:`metrics_analysis`."""
    scores, williams = tests.scores, tests.williams
    with _recorded() as messages:
        correlation = correlate_with_human(scores.metrics, scores.human)
        influence = leave_one_out(scores.metrics, scores.human)
    aligned = scores.metrics[list(williams.order)] * williams.sign.replace(0, 1)
    metric_corr = {"pearson": williams.metric_corr}
    with warnings.catch_warnings():  # a constant metric is named by correlate_with_human
        warnings.simplefilter("ignore", DegenerateInputWarning)
        for kind in ("spearman", "kendall"):
            metric_corr[kind] = metric_correlations(aligned, method=kind)
    return LanguagePairAnalysis(
        correlation=correlation,
        williams=williams,
        influence=influence,
        metric_corr=metric_corr,
        warnings=tuple(messages),
        **_block_fields(tests.key, scores, tests.refset, tests.selection),
    )


def metrics_report(files: Files | SystemScores, **options) -> tuple[LanguagePairAnalysis, ...]:
    """Every block of :func:`metrics_analysis` (same arguments) with its correlations and
    influence (:func:`language_pair_analysis`), in order. A block left out (``problems`` of
    the analysis) is named in a :class:`~stats.DegenerateInputWarning`, with its reason.

    Raises
    ------
    StatsInputError
        As :func:`metrics_analysis`.
    """
    result = metrics_analysis(files, **options)
    for key, problem in result.problems.items():
        warnings.warn(f"{key} left out: {problem}", DegenerateInputWarning, stacklevel=2)
    return tuple(language_pair_analysis(t) for t in result.analyses.values())
