"""Cached data of the "Quality estimation" page for WMT20-24 QE files: the uploads sorted by
content, the sentence-level comparison per language pair, the grid of another measure for one
language pair, and word-level scores (:mod:`stats.analyses.qe_wmt`)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from dashboard.data import Uploads
from stats import StatsInputError
from stats.analyses import qe_wmt as wmt
from stats.qe.wmt import QEPairTestsResult, qe_clusters, qe_pair_tests


@st.cache_data(show_spinner=False, max_entries=32)
def files(uploads: Uploads) -> wmt.QEWMTFiles | None:
    """The uploads sorted into WMT QE roles, or None when they are not WMT20-24 QE files (the
    page then reads them as the Graham 2015 layouts)."""
    if not uploads:
        return None
    try:
        level = wmt.is_wmt_qe_input(list(uploads))
    except StatsInputError:  # undecodable or unreadable: the page's own reader names it
        return None
    if level is None:
        return None
    return wmt.sort_wmt_qe_files(list(uploads))


@st.cache_data(show_spinner=False, max_entries=16)
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
    f = files(uploads)
    inp = wmt.load_qe_wmt(list(f.submissions), gold=f.gold, exclude=f.exclude)
    return wmt.qe_wmt_analysis(
        inp, primary=primary, n_resamples=n_resamples, rng=seed, tests=False
    )


@st.cache_data(show_spinner=False, max_entries=32)
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
    tests = qe_pair_tests(
        lpr.predictions, lpr.gold, measure=measure, n_resamples=n_resamples, rng=seed,
        mde_alpha=alpha,
    )
    adjusted, rank = qe_clusters(
        tests.pvalue, lpr.table[measure], alpha=alpha, correction=correction, context=lp
    )
    return tests, adjusted, rank


@st.cache_data(show_spinner=False, max_entries=32)
def prediction_correlations(
    uploads: Uploads, primary: str, n_resamples: int, seed: int, lp: str, order: tuple
) -> pd.DataFrame:
    """Pearson r between the systems' predictions of ``lp`` (systems in ``order``;
    :func:`stats.prediction_correlations`: a constant system's row and column undefined)."""
    from stats import prediction_correlations

    res = comparison(uploads, primary, n_resamples, seed).result
    return prediction_correlations(res.language_pairs[lp].predictions[list(order)])


@st.cache_data(show_spinner=False, max_entries=16)
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
    from stats.readers.qe_wmt import read_qe_exclude

    f = files(uploads)
    subs, gold = wmt.load_qe_word(list(f.word_submissions), gold=f.word_gold)
    ex = None
    if f.exclude is not None:
        ex = read_qe_exclude(f.exclude[1], name=f.exclude[0])
    return wmt.qe_word_analysis(
        subs,
        gold,
        n_resamples=n_resamples,
        alpha=alpha,
        correction=correction,
        rng=seed,
        exclude=ex,
    )
