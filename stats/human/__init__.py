"""Human judgements: the gold standard of Graham, Mathur & Baldwin (WMT 2014) and the accuracy
of significance tests against it (:mod:`.gold`, :mod:`.accuracy`), and WMT22-25 human rankings
(:mod:`.ranking`) with paired by-domain tests and Stouffer's combination (:mod:`.paired`).

Every public name of the modules below is importable from here (``stats.human.<name>``) and,
unless noted in :mod:`stats`, from the top (``stats.<name>``); names load on first use.
"""

from typing import TYPE_CHECKING

from stats._core.lazy import lazy_exports as _lazy_exports

#: public name -> the module defining it, imported on first access (:mod:`stats._core.lazy`)
_LAZY = {
    # accuracy
    "ALPHAS": ".accuracy",
    "OUTCOMES": ".accuracy",
    "AccuracyResult": ".accuracy",
    "accuracy_from_pvalues": ".accuracy",
    "accuracy_interval": ".accuracy",
    "compare_accuracies": ".accuracy",
    "min_resamples": ".accuracy",
    "significance_accuracy": ".accuracy",
    "unattainable_alpha_messages": ".accuracy",
    # gold
    "CRITERIA": ".gold",
    "HumanGoldResult": ".gold",
    "RankSumMatrixResult": ".gold",
    "annotator_summary": ".gold",
    "combine_criteria": ".gold",
    "gold_from_segment_scores": ".gold",
    "human_gold_standard": ".gold",
    "pair_conclusions": ".gold",
    "rank_sum_all_pairs": ".gold",
    "standardize_judgements": ".gold",
    "system_scores": ".gold",
    # paired
    "AVERAGES": ".paired",
    "PAIRED_TESTS": ".paired",
    "PairedRankingResult": ".paired",
    "gold_from_ranking": ".paired",
    "item_scores": ".paired",
    "paired_ranking": ".paired",
    "ranking_latex": ".paired",
    "rank_ranges": ".paired",
    "standardize_per_rater": ".paired",
    "stouffer": ".paired",
    # ranking
    "HumanRankingResult": ".ranking",
    "human_ranking": ".ranking",
    "rank_sum_grid": ".ranking",
}

__all__ = list(_LAZY)

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:  # the lazy names, for IDEs and type checkers (tests/test_imports.py)
    from .accuracy import (
        ALPHAS,
        OUTCOMES,
        AccuracyResult,
        accuracy_from_pvalues,
        accuracy_interval,
        compare_accuracies,
        min_resamples,
        significance_accuracy,
        unattainable_alpha_messages,
    )
    from .gold import (
        CRITERIA,
        HumanGoldResult,
        RankSumMatrixResult,
        annotator_summary,
        combine_criteria,
        gold_from_segment_scores,
        human_gold_standard,
        pair_conclusions,
        rank_sum_all_pairs,
        standardize_judgements,
        system_scores,
    )
    from .paired import (
        AVERAGES,
        PAIRED_TESTS,
        PairedRankingResult,
        gold_from_ranking,
        item_scores,
        paired_ranking,
        rank_ranges,
        ranking_latex,
        standardize_per_rater,
        stouffer,
    )
    from .ranking import HumanRankingResult, human_ranking, rank_sum_grid
