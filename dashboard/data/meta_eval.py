"""Cached data of the segment-level section of the "Metrics vs humans" page: the files read by
:func:`stats.readers.read_meta_eval`, meta-evaluated by
:func:`stats.analyses.meta_eval.meta_evaluate`, every pair of metrics tested with PERM-BOTH and
soft pairwise accuracy (:mod:`stats.analyses.meta_significance`), cached on the files' content
and the settings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from dashboard.data import Uploads
from dashboard.data._cache import cache_data
from dashboard.data._isolated import isolated, recording_warnings, upload_values
from stats.pairwise.grids import grid_significance
from stats.readers import MetaEvalData, is_meta_eval_source, read_meta_eval

if TYPE_CHECKING:  # imported where used: the first page (system-level sample) needs none
    from stats.analyses.meta_eval import MetaEvaluation
    from stats.analyses.meta_significance import LanguagePairPermBoth, SoftPairwiseAnalysis


def is_segment_level(uploads: Uploads) -> bool:
    """Whether ``uploads`` are meta-evaluation data (any of them: an MTME archive, segment-level
    long text or wide CSV; :func:`stats.readers.is_meta_eval_source`) rather than system-level
    score files."""
    return any(is_meta_eval_source(upload) for upload in uploads)


@cache_data(show_spinner=False, max_entries=16)
def load(uploads: Uploads, input_format: str | None = None) -> MetaEvalData:
    """The files read (any mix of MTME archives, long text, wide CSV and WMT segment files;
    ``input_format``: how text files are read, None: detected)."""
    return read_meta_eval(*uploads, input_format=input_format)


@dataclass(frozen=True)
class FilesShown:
    """What the segment-level section shows of the files on every run (:func:`shown`)."""

    #: what each file was read as, one line per file
    read_as: str
    #: the human score types
    gold_names: tuple[str, ...]
    #: every system with a score (human or metric)
    systems: tuple


@cache_data(show_spinner=False, max_entries=16)
def shown(uploads: Uploads) -> FilesShown:
    """What the section shows of the files on every run, cached on its own: each hit of
    :func:`load` unpickles all the data read."""
    data = load(uploads)
    return FilesShown(
        read_as=data.read_as, gold_names=tuple(data.gold_names()), systems=tuple(data.systems())
    )


def chosen(
    uploads: Uploads,
    include_human: bool = False,
    domain: str | None = None,
    exclude_systems: tuple[str, ...] = (),
):
    """The files read, with the page's choice of systems and domain
    (:meth:`stats.readers.MetaEvalData.with_systems`, :meth:`~stats.readers.MetaEvalData.in_domain`)."""
    return load(uploads).with_systems(
        include_human=include_human, exclude_systems=exclude_systems
    ).in_domain(domain)


@cache_data(show_spinner=False, max_entries=16)
def domains(uploads: Uploads) -> tuple[str, ...]:
    """The domains the files name (MTME-layout files with a DOMAIN column), sorted."""
    data = load(uploads)
    return tuple(sorted({d for lp in data.language_pairs for d in data.domains(lp)}))


@cache_data(show_spinner=False, max_entries=16)
def system_scores_from_files(uploads: Uploads, gold: str, domain: str | None = None) -> bool:
    """Whether system-level results use system scores read from ``.sys.score`` files (or, for
    a domain, ``.domain.score`` files) for some language pair, which leave no segments to
    resample."""
    data = load(uploads).in_domain(domain)
    return any(
        data.table(lp, gold=gold, level="sys").gold_sys is not None for lp in data.language_pairs
    )


@cache_data(show_spinner="Correlating metrics with humans…", max_entries=64)
def evaluation(
    uploads: Uploads,
    *,
    gold: str,
    level: str,
    correlation: str,
    grouping: str = "none",
    epsilon: float | None = None,
    tie_calibration: bool = False,
    threshold: float | None = None,
    n_resamples: int = 0,
    seed: int | None = None,
    include_human: bool = False,
    domain: str | None = None,
    exclude_systems: tuple[str, ...] = (),
) -> tuple[MetaEvaluation, tuple[str, ...]]:
    """Every metric of every language pair correlated with the gold scores ``gold``
    (:func:`stats.analyses.meta_eval.meta_evaluate`), and the distinct warnings it gave (e.g. a
    language pair where no group has a correlation).

    Cached on (file content, settings): switching pages or the language pair on screen does not
    recompute. ``threshold`` is ``kendall-like``'s (None: the stats default);
    ``include_human`` keeps human translations as systems, ``exclude_systems`` leaves systems
    out and ``domain`` (None: all) keeps one domain's segments (:func:`chosen`).
    """
    from stats.analyses.meta_eval import meta_evaluate  # noqa: PLC0415

    extra = {} if threshold is None else {"threshold": threshold}
    return recording_warnings(
        meta_evaluate,
        chosen(uploads, include_human, domain, exclude_systems),
        gold=gold,
        level=level,
        correlation=correlation,
        grouping=grouping,
        epsilon=epsilon,
        tie_calibration=tie_calibration,
        n_resamples=n_resamples,
        rng=seed,
        **extra,
    )


@cache_data(show_spinner=False, max_entries=32)
def _perm_both(
    uploads: Uploads,
    *,
    n_resamples: int,
    seed: int,
    threshold: float | None = None,
    _progress: Callable[[float], None] | None = None,
    **settings,
) -> tuple[tuple[LanguagePairPermBoth, ...], tuple[str, ...]]:
    from stats.analyses.meta_significance import perm_both_analysis  # noqa: PLC0415

    extra = {} if threshold is None else {"threshold": threshold}
    include_human = settings.pop("include_human", False)
    domain = settings.pop("domain", None)
    exclude_systems = settings.pop("exclude_systems", ())
    return isolated(  # in a child process: Stop ends it, the session's memory budget holds
        recording_warnings,
        perm_both_analysis,
        chosen(uploads, include_human, domain, exclude_systems),
        work=float(n_resamples) * upload_values(uploads),
        n_resamples=n_resamples,
        rng=seed,
        what="PERM-BOTH of every pair of metrics",
        progress=_progress,
        reduce="use fewer resamples",
        **settings,
        **extra,
    )


def perm_both_grids(
    uploads: Uploads,
    *,
    alpha: float,
    correction: str,
    n_resamples: int,
    seed: int,
    _progress: Callable[[float], None] | None = None,
    **settings,
) -> tuple[dict[str, LanguagePairPermBoth], tuple[str, ...]]:
    """PERM-BOTH for every pair of metrics of every language pair
    (:func:`stats.analyses.meta_significance.perm_both_analysis` with ``settings``: gold,
    level, grouping, correlation and its tie or threshold settings, as :func:`evaluation`),
    as lp -> tests whose ``significance`` holds the p-values adjusted with ``correction`` and
    the clusters at ``alpha``; and the distinct warnings.

    The permutations are cached on (file content, settings, ``n_resamples``, ``seed``):
    changing alpha or the correction only re-reads the grids
    (:func:`stats.pairwise.grids.grid_significance`). ``_progress`` (not part of the cache key)
    receives the fraction done while the permutations run (:func:`dashboard.page_run.run_long`).
    """
    tests, problems = _perm_both(
        uploads, n_resamples=n_resamples, seed=seed, _progress=_progress, **settings
    )
    grids = {
        t.lp: replace(
            t,
            significance=grid_significance(t.result.pvalue, alpha=alpha, correction=correction),
        )
        for t in tests
    }
    return grids, problems


@cache_data(show_spinner="Soft pairwise accuracy…", max_entries=32)
def soft_pairwise(
    uploads: Uploads,
    *,
    gold: str,
    n_resamples: int,
    seed: int,
    include_human: bool = False,
    domain: str | None = None,
    exclude_systems: tuple[str, ...] = (),
) -> tuple[SoftPairwiseAnalysis, tuple[str, ...]]:
    """Soft pairwise accuracy of every metric per language pair and averaged over them
    (:func:`stats.analyses.meta_significance.soft_pairwise_analysis`), and its warnings."""
    from stats.analyses.meta_significance import soft_pairwise_analysis  # noqa: PLC0415

    return recording_warnings(
        soft_pairwise_analysis, chosen(uploads, include_human, domain, exclude_systems),
        gold=gold, n_resamples=n_resamples, rng=seed,
    )  # fmt: skip
