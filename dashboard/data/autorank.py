"""Cached data of the AutoRank page: WMT25 automatic scores read once
(:func:`stats.analyses.read_autorank_scores`), one language pair's point ranking (drawn at
once) and its paired bootstrap (:func:`stats.analyses.autorank_analysis`)."""

from __future__ import annotations

from collections.abc import Callable

import streamlit as st

from dashboard.data import Uploads
from dashboard.data._isolated import isolated, upload_values
from stats.analyses.autorank import (
    AutoRankAnalysis,
    AutoRankLanguagePair,
    autorank_analysis,
    autorank_metric_set,
    read_autorank_scores,
)
from stats.readers.wmt25 import WMT25Scores


@st.cache_data(show_spinner=False, max_entries=8)
def scores(uploads: Uploads) -> WMT25Scores:
    """The uploads read as WMT25 automatic scores (cached on their content)."""
    return read_autorank_scores(list(uploads))


def preset_metrics(uploads: Uploads, lp: str) -> tuple[str, ...]:
    """The wmt25 preset's metrics for ``lp`` (an error when the pair lacks one)."""
    return autorank_metric_set(scores(uploads), lp)[0]


@st.cache_data(show_spinner=False, max_entries=32)
def point(uploads: Uploads, lp: str, metrics: tuple | None) -> AutoRankLanguagePair:
    """The point ranking of one pair (``metrics`` None: the wmt25 preset)."""
    result = autorank_analysis(scores(uploads), lps=[lp], metrics=metrics, intervals=False)
    return result.language_pairs[0]


@st.cache_data(show_spinner=False, max_entries=32)
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
    _progress: Callable[[float], None] | None = None,
) -> AutoRankAnalysis:
    """One pair with its paired bootstrap over documents (``_progress``: not in the cache
    key; the page's progress bar)."""
    return isolated(  # in a child process: Stop ends it, the session's memory budget holds
        autorank_analysis, scores(uploads), work=float(n_resamples) * upload_values(uploads),
        lps=[lp], metrics=metrics, n_resamples=n_resamples,
        rng=seed, alpha=alpha, correction=correction, confidence_level=confidence_level,
        what=f"the paired bootstrap of {lp}", progress=_progress, reduce="use fewer resamples",
    )  # fmt: skip
