"""Cached data of the "Quality estimation" page: :mod:`stats.analyses` (QE from files), cached
on the files' content and the options, so the lambda slider recomputes only the rescaling."""

from __future__ import annotations

import pandas as pd

from dashboard.data import Uploads
from dashboard.data._cache import cache_data
from stats import analyses
from stats.qe.graham import RescaleResult


@cache_data(show_spinner=False, max_entries=32)
def load(uploads: Uploads, allow_constant: bool = False) -> analyses.QEInput:
    """The uploaded files (predictions, gold file, post-editing table, recognised by their
    content) read (:func:`stats.analyses.load_qe`)."""
    return analyses.load_qe(uploads, allow_constant=allow_constant, find_roles=True)


@cache_data(show_spinner=False, max_entries=32)
def analysis(
    uploads: Uploads,
    allow_constant: bool = False,
    rate: bool = False,
    alternative: str = "greater",
) -> analyses.QEAnalysis:
    """Pearson/Spearman/MAE/RMSE with ranks, the Williams grid, prediction correlations and
    (with a post-editing table) the PER-vs-PET test (:func:`stats.analyses.qe_analysis`); the
    lambda slider does not recompute this (see :func:`rescaling`)."""
    return analyses.qe_analysis(load(uploads, allow_constant), rate=rate, alternative=alternative)


@cache_data(show_spinner=False, max_entries=128)
def rescaling(
    uploads: Uploads, sd_ratio: float, allow_constant: bool = False, rate: bool = False
) -> RescaleResult:
    """MAE/RMSE before and after rescaling to ``sd_ratio`` x the gold SD
    (:func:`stats.analyses.qe_rescaling`), cached per lambda so moving the slider back and
    forth is instant."""
    return analyses.qe_rescaling(load(uploads, allow_constant), sd_ratio=sd_ratio, rate=rate)


@cache_data(show_spinner=False, max_entries=32)
def rescaling_by_lambda(
    uploads: Uploads, allow_constant: bool = False, rate: bool = False
) -> pd.DataFrame:
    """MAE and RMSE of every system for lambda = 0.05, 0.10, ..., 1.50
    (:func:`stats.analyses.qe_rescaling_curve`)."""
    return analyses.qe_rescaling_curve(load(uploads, allow_constant), rate=rate)
