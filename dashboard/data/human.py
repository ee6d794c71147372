"""Cached data of the "Tests vs humans" page: the human gold standard and the accuracy of the
randomized tests (run by :mod:`dashboard.data.mt_systems`) against it (:mod:`stats.analyses`)."""

from __future__ import annotations

from dashboard.data import Uploads, mt_systems
from dashboard.data._cache import cache_data
from stats import StatsInputError, analyses
from stats.human.accuracy import AccuracyResult
from stats.human.gold import HumanGoldResult
from stats.human.paired import PairedRankingResult
from stats.human.ranking import HumanRankingResult


@cache_data(show_spinner=False, max_entries=16)
def gold(
    judgements: Uploads, exclude: tuple[str, ...] = (), block: tuple[str, ...] = ()
) -> HumanGoldResult:
    """The human gold standard of the judgements file(s) without the systems of ``exclude``,
    combined at 0.05 (:func:`stats.analyses.human_gold`; use
    :meth:`~stats.human.gold.HumanGoldResult.combined_pvalue` for other levels).

    ``block``: the ``(protocol, language pair)`` of WMT22-25 files holding several
    (:func:`blocks`): the gold standard of that one, the grid of its WMT24 paired ranking as
    :func:`stats.analyses.paired_rankings` ranks it (:func:`paired`, the same defaults as
    :func:`stats.analyses.human_wmt.wmt_gold`), by
    :func:`stats.human.paired.gold_from_ranking`."""
    if not block:
        return analyses.human_gold(judgements, exclude=exclude)
    from stats.human.paired import gold_from_ranking

    for ranking in paired(judgements, 0.05, exclude=exclude):
        if (ranking.protocol, ranking.lp) == tuple(block):
            return gold_from_ranking(ranking)
    raise StatsInputError(
        f"judgements: no {block[0]} ratings of {block[1]} in these files"
        + (" without the excluded systems" if exclude else "")
    )


@cache_data(show_spinner=False, max_entries=16)
def blocks(judgements: Uploads) -> tuple[tuple[str, str], ...]:
    """``(protocol, language pair)`` of every ranking WMT22-25 files give, in the order of
    :func:`stats.analyses.paired_rankings` (protocol as read, language pairs sorted): more
    than one means the page asks which one the gold standard and the tests are about."""
    out: dict[str, set] = {}
    for ratings in analyses.read_human_ratings(judgements):
        out.setdefault(ratings.protocol, set()).update(ratings.frame["lp"].astype(str))
    return tuple((protocol, lp) for protocol, lps in out.items() for lp in sorted(lps))


@cache_data(show_spinner=False, max_entries=16)
def outliers(judgements: Uploads, block: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The systems of the judgements that the findings' MAD rule flags
    (:func:`stats.analyses.human_outliers`)."""
    return analyses.human_outliers(gold(judgements, (), block))


@cache_data(show_spinner=False, max_entries=16)
def accuracy(
    judgements: Uploads,
    kind: str,
    references: Uploads,
    files: Uploads,
    metrics: tuple[tuple[str, str, bool], ...],
    tests: tuple[str, ...],
    n_resamples: int,
    seed: int,
    exclude: tuple[str, ...] = (),
    block: tuple = (),
    human_block: tuple[str, ...] = (),
) -> AccuracyResult:
    """Accuracy of every (metric, test) against the gold standard of ``judgements``, at the
    three levels of the paper's Tables 1-2 (:func:`stats.analyses.accuracy_from_results`).

    ``metrics``: ``(name shown, metric argument of :func:`~dashboard.data.mt_systems.pairwise`,
    higher_is_better)`` per metric; the systems of ``exclude`` are left out of the gold
    standard and of every test; ``block``: the ``(lp, testset, refset)`` of WMT segment-level
    files, for every metric (:func:`~dashboard.data.mt_systems.statistics`); ``human_block``:
    the ``(protocol, language pair)`` of the gold standard (:func:`gold`). Each test runs
    one-sided over all pairs through the cached :func:`~dashboard.data.mt_systems.pairwise`,
    so the two pages share results for the same files and settings.
    """
    results = {
        (name, test): mt_systems.pairwise(
            kind, references, files, metric, higher, test, n_resamples, "greater", seed, block
        )
        for name, metric, higher in metrics
        for test in tests
    }
    return analyses.accuracy_from_results(
        gold(judgements, exclude, human_block),
        results,
        n_resamples=n_resamples,
        seed=seed,
        exclude=exclude,
    )


@cache_data(show_spinner=False, max_entries=16)
def rankings(judgements: Uploads, alpha: float) -> list[HumanRankingResult]:
    """Findings-style human rankings of the judgement or published DA files, one per language
    pair (:func:`stats.analyses.human_rankings`: Wilcoxon grid and cluster lines at ``alpha``)."""
    return analyses.human_rankings(judgements, alpha=alpha)


@cache_data(show_spinner=False, max_entries=16)
def file_kinds(judgements: Uploads) -> tuple[str, ...]:
    """What each judgements file is (:func:`stats.analyses.human_wmt.human_file_kind`)."""
    from stats.analyses.human_wmt import human_file_kind
    from stats.readers import load_text

    return tuple(human_file_kind(load_text(data, name)[0], name) for name, data in judgements)


@cache_data(show_spinner=False, max_entries=16)
def paired(
    judgements: Uploads,
    alpha: float,
    test: str = "signed-rank",
    average: str = "macro",
    correction: str = "none",
    exclude: tuple[str, ...] = (),
) -> list[PairedRankingResult]:
    """WMT24-style rankings of the judgement files (documents files among them give the
    domains), one per protocol and language pair (:func:`stats.analyses.paired_rankings`)."""
    return analyses.paired_rankings(
        judgements, test=test, average=average, alpha=alpha, correction=correction,
        exclude=exclude,
    )  # fmt: skip


@cache_data(show_spinner=False, max_entries=16)
def read_summary(judgements: Uploads) -> tuple[str, ...]:
    """One line per WMT22-25 human file read: protocol, ratings, systems, language pairs and
    the rows dropped as WMT's scripts drop them (:meth:`HumanRatings.describe`)."""
    return tuple(r.describe() for r in analyses.read_human_ratings(judgements))
