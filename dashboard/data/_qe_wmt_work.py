"""The work of :mod:`dashboard.data.qe_wmt` that runs in a child process
(:func:`stats._core.workers.run_isolated`): reading the WMT QE files and every computation
after it. No Streamlit here: the fork server imports this module for its children, and each
function reports its phases to ``progress(fraction, text)``."""

from __future__ import annotations

from stats import StatsInputError
from stats.analyses import qe_wmt as wmt
from stats.qe.wmt import qe_clusters, qe_pair_tests
from stats.readers.qe_wmt import read_qe_exclude


def roles(uploads, *, progress) -> wmt.QEWMTFiles | None:
    """:func:`dashboard.data.qe_wmt.files`' work, in the child process: the uploads sorted into
    WMT QE roles (:func:`stats.analyses.qe_wmt.sort_wmt_qe_files`), each file as ``(name, size
    in bytes)`` -- its content stays in the child, the server holds only what was uploaded --,
    or None when they are not WMT20-24 QE files."""
    try:
        level = wmt.is_wmt_qe_input(list(uploads))
    except StatsInputError:  # undecodable or unreadable: the page's own reader names it
        return None
    if level is None:
        return None
    f = wmt.sort_wmt_qe_files(list(uploads))

    def sized(pair):
        return None if pair is None else (pair[0], len(pair[1]))

    return wmt.QEWMTFiles(
        submissions=tuple(map(sized, f.submissions)),
        gold=sized(f.gold),
        exclude=sized(f.exclude),
        word_submissions=tuple(map(sized, f.word_submissions)),
        word_gold=sized(f.word_gold),
    )


def _megabytes(files: tuple) -> str:
    return f"{sum(len(data) for _, data in files) / 1e6:,.1f} MB"


def compare(uploads, primary: str, n_resamples: int, seed: int, *, progress):
    """:func:`dashboard.data.qe_wmt.comparison`'s work, in the child process."""
    progress(0.0, "unpacking and sorting the files")
    f = wmt.sort_wmt_qe_files(list(uploads))
    progress(0.0, f"reading {len(f.submissions):,} submission file(s), {_megabytes(f.submissions)}")
    inp = wmt.load_qe_wmt(list(f.submissions), gold=f.gold, exclude=f.exclude)
    progress(0.5, "correlations and bootstrap CIs")
    return wmt.qe_wmt_analysis(
        inp, primary=primary, n_resamples=n_resamples, rng=seed, tests=False
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


def word_level(uploads, n_resamples, alpha, correction, seed, *, progress):
    """:func:`dashboard.data.qe_wmt.word_level`'s work, in the child process."""
    progress(0.0, "unpacking and sorting the files")
    f = wmt.sort_wmt_qe_files(list(uploads))
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
        rng=seed,
        exclude=ex,
    )
