"""Cached data of the AutoRank page: WMT25 automatic scores read once
(:func:`stats.analyses.read_autorank_scores`), the optional systems metadata, system outputs and
references read once each, one language pair's point ranking (drawn at once) and its paired
bootstrap (:func:`stats.analyses.autorank_analysis`)."""

from __future__ import annotations

from collections.abc import Callable

from dashboard.data import Uploads
from dashboard.data._cache import cache_data
from dashboard.data._isolated import isolated, upload_values
from stats.analyses.autorank import (
    AutoRankAnalysis,
    AutoRankLanguagePair,
    autorank_analysis,
    autorank_metric_set,
    read_autorank_scores,
)
from stats.analyses.wmt25_texts import AUTORANK_TEXT_METRICS
from stats.readers.wmt25 import WMT25Scores
from stats.readers.wmt25_metadata import WMT25SystemsMetadata, read_wmt25_systems_metadata
from stats.readers.wmt25_outputs import WMT25Outputs, read_wmt25_outputs
from stats.readers.wmt25_references import WMT25References, read_wmt25_references

#: the optional files of the page: (systems metadata, system outputs, references)
Extras = tuple[Uploads, Uploads, Uploads]
NO_EXTRAS: Extras = ((), (), ())


@cache_data(show_spinner=False, max_entries=8)
def scores(uploads: Uploads) -> WMT25Scores:
    """The uploads read as WMT25 automatic scores (cached on their content)."""
    return read_autorank_scores(list(uploads))


def _one(uploads: Uploads, what: str) -> tuple[str, bytes]:
    if len(uploads) != 1:
        from stats import StatsInputError

        raise StatsInputError(f"{what}: upload one file; got {len(uploads)}")
    return uploads[0]


@cache_data(show_spinner=False, max_entries=4)
def metadata(uploads: Uploads) -> WMT25SystemsMetadata | None:
    """The systems metadata upload read (None without one)."""
    if not uploads:
        return None
    name, data = _one(uploads, "systems metadata")
    return read_wmt25_systems_metadata(data, name=name)


@cache_data(show_spinner=False, max_entries=4)
def outputs(uploads: Uploads) -> WMT25Outputs | None:
    """The system outputs read (None without any)."""
    return read_wmt25_outputs(list(uploads)) if uploads else None


@cache_data(show_spinner=False, max_entries=4)
def references(uploads: Uploads) -> WMT25References | None:
    """The test set with references read (None without one)."""
    return read_wmt25_references(_one(uploads, "references")) if uploads else None


def text_metrics(extras: Extras, lp: str) -> tuple[str, ...]:
    """BLEU and corpus-chrF++ when the outputs and references are uploaded and ``lp`` has a
    reference; none otherwise."""
    refs = references(extras[2])
    if outputs(extras[1]) is None or refs is None or lp not in refs.lps:
        return ()
    return tuple(AUTORANK_TEXT_METRICS)


def _extra_args(extras: Extras) -> dict:
    out, refs = outputs(extras[1]), references(extras[2])
    return {"systems_metadata": metadata(extras[0]), "outputs": out,
            "references": refs if out is not None else None}  # fmt: skip


def preset_metrics(uploads: Uploads, lp: str) -> tuple[str, ...]:
    """The wmt25 preset's metrics for ``lp`` (an error when the pair lacks one)."""
    return autorank_metric_set(scores(uploads), lp)[0]


@cache_data(show_spinner=False, max_entries=32)
def point(
    uploads: Uploads, lp: str, metrics: tuple | None, extras: Extras = NO_EXTRAS
) -> AutoRankLanguagePair:
    """The point ranking of one pair (``metrics`` None: the wmt25 preset; ``extras``: the
    systems metadata, outputs and references uploaded)."""
    result = autorank_analysis(
        scores(uploads), lps=[lp], metrics=metrics, intervals=False, **_extra_args(extras)
    )
    return result.language_pairs[0]


@cache_data(show_spinner=False, max_entries=32)
def ranking(
    uploads: Uploads,
    lp: str,
    metrics: tuple | None,
    *,
    n_resamples: int,
    seed: int,
    alpha: float,
    correction: str,
    confidence_level: float,
    extras: Extras = NO_EXTRAS,
    _progress: Callable[[float], None] | None = None,
) -> AutoRankAnalysis:
    """One pair with its paired bootstrap over documents (``_progress``: not in the cache
    key; the page's progress bar)."""
    return isolated(  # in a child process: Stop ends it, the session's memory budget holds
        autorank_analysis, scores(uploads), work=float(n_resamples) * upload_values(uploads),
        lps=[lp], metrics=metrics, n_resamples=n_resamples,
        rng=seed, alpha=alpha, correction=correction, confidence_level=confidence_level,
        what=f"the paired bootstrap of {lp}", progress=_progress, reduce="use fewer resamples",
        **_extra_args(extras),
    )  # fmt: skip
