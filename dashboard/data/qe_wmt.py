"""Cached data of the "Quality estimation" page for WMT20-24 QE files: the uploads sorted by
content, the sentence-level comparison per language pair, the grid of another measure for one
language pair, and word-level scores (:mod:`stats.analyses.qe_wmt`).

Reading the submissions and every computation after it run in a child process
(:func:`stats.run_isolated`, the functions of :mod:`._qe_wmt_work`): Stop ends
them at once, and a session's memory budget is held while the files are read, not checked
after.
"""

from __future__ import annotations

import pandas as pd

from dashboard.data import Uploads
from dashboard.data import _qe_wmt_work as work
from dashboard.data._cache import cache_data
from dashboard.data._isolated import HEAVY_NICE
from stats import run_isolated
from stats.analyses import qe_wmt as wmt
from stats.qe.wmt import QEPairTestsResult

#: the fork server imports it once: each child starts without importing anything
_PRELOAD = (work.__name__,)
_FEWER = "upload fewer or smaller files"


@cache_data(show_spinner=False, max_entries=32)
def files(uploads: Uploads) -> wmt.QEWMTFiles | None:
    """The uploads sorted into WMT QE roles, each file as ``(name, size in bytes)``, or None
    when they are not WMT20-24 QE files (the page then reads them as the Graham 2015 layouts).
    Sorted in a child process (:func:`._qe_wmt_work.roles`): unpacking and decoding an archive
    holds neither the server's memory nor its interpreter."""
    if not uploads:
        return None
    return run_isolated(
        work.roles, uploads, what="sorting the QE files", reduce=_FEWER, preload=_PRELOAD,
        nice=HEAVY_NICE,  # not queued for a slot (light work for most uploads): the lowest
    )  # priority, so that an archive of hundreds of MB does not slow the server's answers


@cache_data(show_spinner=False, max_entries=16)
def comparison(
    uploads: Uploads,
    primary: str,
    n_resamples: int,
    seed: int,
    _progress=None,
) -> wmt.QEWMTAnalysis:
    """Correlations with bootstrap CIs, MAE/RMSE and the average for every language pair
    (:func:`stats.analyses.qe_wmt.qe_wmt_analysis` without the pairwise tests: those are run
    for the language pair shown, :func:`pair_tests`)."""
    return run_isolated(
        work.compare, uploads, primary, n_resamples, seed,
        what="reading and comparing the QE submissions", progress=_progress, reduce=_FEWER,
        preload=_PRELOAD, nice=HEAVY_NICE,
    )  # fmt: skip


@cache_data(show_spinner=False, max_entries=32)
def pair_tests(
    uploads: Uploads,
    primary: str,
    n_resamples: int,
    seed: int,
    lp: str,
    measure: str,
    alpha: float,
    correction: str,
    _progress=None,
) -> tuple[QEPairTestsResult, pd.DataFrame, pd.Series]:
    """Every pair of systems of ``lp`` tested on ``measure`` (Williams for Pearson, PERM-BOTH
    for Spearman and Kendall; :func:`stats.qe.wmt.qe_pair_tests`, seeded with ``seed``) and
    the grid's adjusted p-values and clusters (:func:`stats.qe.wmt.qe_clusters`); the tests'
    ``mde`` at ``alpha`` for the note beside the pairs not significant."""
    res = comparison(uploads, primary, n_resamples, seed).result
    lpr = res.language_pairs[lp]
    return run_isolated(
        work.pair_tests, lpr.predictions, lpr.gold, lpr.table, lp, measure, n_resamples, seed,
        alpha, correction, what=f"testing every pair of systems of {lp}", progress=_progress,
        reduce="use fewer resamples", preload=_PRELOAD, nice=HEAVY_NICE,
    )  # fmt: skip


@cache_data(show_spinner=False, max_entries=32)
def prediction_correlations(
    uploads: Uploads, primary: str, n_resamples: int, seed: int, lp: str, order: tuple
) -> pd.DataFrame:
    """Pearson r between the systems' predictions of ``lp`` (systems in ``order``;
    :func:`stats.prediction_correlations`: a constant system's row and column undefined)."""
    from stats import prediction_correlations

    res = comparison(uploads, primary, n_resamples, seed).result
    return prediction_correlations(res.language_pairs[lp].predictions[list(order)])


@cache_data(show_spinner=False, max_entries=16)
def word_level(
    uploads: Uploads,
    n_resamples: int,
    alpha: float,
    correction: str,
    seed: int,
    _progress=None,
):
    """Word-level MCC/F1 and paired bootstrap grids
    (:func:`stats.analyses.qe_wmt.qe_word_analysis`); the exclude index, when uploaded,
    leaves its sentences out."""
    return run_isolated(
        work.word_level, uploads, n_resamples, alpha, correction, seed,
        what="reading and scoring the word-level files", progress=_progress, reduce=_FEWER,
        preload=_PRELOAD, nice=HEAVY_NICE,
    )  # fmt: skip
