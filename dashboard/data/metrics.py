"""Cached data of the "Metrics vs humans" page: :mod:`stats.analyses` (metrics against humans
per language pair), the grids' adjusted p-values and clusters (:mod:`stats.pairwise.grids`) and the
Williams test's power (:mod:`stats.power.williams`), cached on the files' content and the settings
(for the bundled sample also on disk between server starts:
:func:`~dashboard.data.samples.kept_for_sample`)."""

from __future__ import annotations

from dashboard.data import Uploads
from dashboard.data._cache import cache_data
from dashboard.data.samples import kept_for_sample
from stats import analyses
from stats.pairwise.grids import GridSignificance, grid_significance
from stats.power.williams import POWER, median_detectable_difference, williams_grid_power
from stats.readers.system_level import SystemScores, is_published_system_level

#: No selection: the test set's own reference, every system, no reference-free metric.
#: A choice is ``(refset, reference_free, exclude_systems, exclude_outliers,
#: outlier_systems)`` (hashable, the fields of :class:`stats.analyses.metrics.SystemsChoice`).
ALL_SYSTEMS: tuple = (None, (), (), False, ())
CHOICE_FIELDS = (
    "refset", "reference_free", "exclude_systems", "exclude_outliers", "outlier_systems"
)


@cache_data(show_spinner=False, max_entries=32)
@kept_for_sample
def load_system_scores(uploads: Uploads) -> SystemScores:
    """The system-level score files (WMT or wide format, any mix), read."""
    return analyses.read_metric_scores(uploads)


@cache_data(show_spinner=False, max_entries=32)
@kept_for_sample
def is_published(uploads: Uploads) -> bool:
    """Whether ``uploads`` hold WMT metrics task system-level files as published (REFSET or DA
    files, also inside .gz/.zip/.tar.gz), read here rather than as MTME segment-level data."""
    return is_published_system_level(list(uploads))


@cache_data(show_spinner=False, max_entries=32)
@kept_for_sample
def analysis(
    uploads: Uploads, alternative: str = "greater", choice: tuple = ALL_SYSTEMS
) -> analyses.MetricsAnalysis:
    """Williams all-pairs tests for every language pair (and test set) in ``uploads``
    (:func:`stats.analyses.metrics_analysis`) with the reference and systems of ``choice``
    (see :data:`ALL_SYSTEMS`).

    Cached on (file content, alternative, choice): changing alpha, the selected LP, the
    baseline or the displayed correlation kind re-renders without recomputing. The per-LP
    details (correlations, influence) are computed on demand by :func:`lp_analysis`.
    """
    return analyses.metrics_analysis(
        load_system_scores(uploads),
        alternative=alternative,
        **dict(zip(CHOICE_FIELDS, choice, strict=True)),
    )


@cache_data(show_spinner=False, max_entries=64)
@kept_for_sample
def lp_analysis(
    uploads: Uploads, key: str, alternative: str = "greater", choice: tuple = ALL_SYSTEMS
) -> analyses.LanguagePairAnalysis:
    """Correlations with humans, leave-one-out influence and the metric-metric matrices of the
    language pair ``key`` of :func:`analysis` (:func:`stats.analyses.language_pair_analysis`);
    only the LP on screen is computed."""
    return analyses.language_pair_analysis(analysis(uploads, alternative, choice).analyses[key])


@cache_data(show_spinner=False, max_entries=64)
@kept_for_sample
def williams_significance(
    uploads: Uploads, alternative: str, alpha: float, correction: str, choice: tuple = ALL_SYSTEMS
) -> dict[str, GridSignificance]:
    """Language pair -> its Williams grid's p-values adjusted with ``correction`` and its
    significance clusters at ``alpha`` (:func:`stats.pairwise.grids.grid_significance`)."""
    return {
        key: grid_significance(
            a.williams.pvalue, alpha=alpha, correction=correction, alternative=alternative
        )
        for key, a in analysis(uploads, alternative, choice).analyses.items()
    }


@cache_data(show_spinner=False, max_entries=64)
@kept_for_sample
def williams_power(
    uploads: Uploads, key: str, alternative: str, alpha: float, choice: tuple = ALL_SYSTEMS
) -> float:
    """The smallest difference in r that the Williams tests of language pair ``key`` detect
    with :data:`stats.power.williams.POWER` power at ``alpha``, median over its metric pairs
    (:func:`stats.power.williams.williams_grid_power`; NaN when no pair has one)."""
    grid = williams_grid_power(
        analysis(uploads, alternative, choice).analyses[key].williams, alpha=alpha, power=POWER
    )
    return median_detectable_difference(grid)


@cache_data(show_spinner=False, max_entries=64)
@kept_for_sample
def williams_mdes(
    uploads: Uploads, key: str, alternative: str, alpha: float, choice: tuple, power: float
):
    """The smallest difference in r each Williams test of language pair ``key`` detects with
    ``power`` at ``alpha`` (:func:`stats.power.williams_grid_power`: metric x metric, NaN where
    untested), for :func:`dashboard.components.power_note.williams_mde_note`."""
    return williams_grid_power(
        analysis(uploads, alternative, choice).analyses[key].williams, alpha=alpha, power=power
    )


def findings_order(keys) -> list:
    """Block keys in the order of the WMT findings' tables: into English first, then out of
    English, then the rest, each alphabetical (``cs-en``, ``de-en``, ..., ``en-cs``, ...); a
    key's language pair is its text before the first `` / ``."""

    def rank(key: str):
        lp = key.split(" / ")[0]
        src, _, tgt = lp.partition("-")
        group = 0 if tgt == "en" else 1 if src == "en" else 2
        return (group, lp, key)

    return sorted(keys, key=rank)
