"""The work of :mod:`dashboard.data.qe_wmt` that runs in a child process
(:func:`stats._core.workers.run_isolated`): reading the WMT QE files and every computation
after it. No Streamlit here: the fork server imports this module for its children, and each
function reports its phases to ``progress(fraction, text)``."""

from __future__ import annotations

from stats.analyses import qe_wmt as wmt
from stats.qe.wmt import qe_clusters, qe_pair_tests


def _megabytes(files: tuple) -> str:
    return f"{sum(len(data) for _, data in files) / 1e6:,.1f} MB"


def compare(f: wmt.QEWMTFiles, primary: str, n_resamples: int, seed: int, *, progress):
    """:func:`dashboard.data.qe_wmt.comparison`'s work, in the child process."""
    progress(0.0, f"reading {len(f.submissions):,} submission file(s), {_megabytes(f.submissions)}")
    inp = wmt.load_qe_wmt(list(f.submissions), gold=f.gold, exclude=f.exclude)
    progress(0.5, "correlations and bootstrap CIs")
    return wmt.qe_wmt_analysis(
        inp, primary=primary, n_resamples=n_resamples, seed=seed, tests=False
    )


def pair_tests(
    predictions, gold, table, lp, measure, n_resamples, seed, alpha, correction, *, progress
):
    """:func:`dashboard.data.qe_wmt.pair_tests`' work, in the child process."""
    tests = qe_pair_tests(
        predictions, gold, measure=measure, n_resamples=n_resamples, rng=seed, mde_alpha=alpha
    )
    adjusted, rank = qe_clusters(
        tests.pvalue, table[measure], alpha=alpha, correction=correction, context=lp
    )
    return tests, adjusted, rank


def word_level(f: wmt.QEWMTFiles, n_resamples, alpha, correction, seed, *, progress):
    """:func:`dashboard.data.qe_wmt.word_level`'s work, in the child process."""
    from stats.readers.qe_wmt import read_qe_exclude

    progress(0.0, f"reading {len(f.word_submissions):,} tag file(s), "
                  f"{_megabytes(f.word_submissions)}")  # fmt: skip
    subs, gold = wmt.load_qe_word(list(f.word_submissions), gold=f.word_gold)
    ex = None
    if f.exclude is not None:
        ex = read_qe_exclude(f.exclude[1], name=f.exclude[0])
    progress(0.5, "MCC, F1 and paired bootstrap")
    return wmt.qe_word_analysis(
        subs,
        gold,
        n_resamples=n_resamples,
        alpha=alpha,
        correction=correction,
        seed=seed,
        exclude=ex,
    )
