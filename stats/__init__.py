"""Statistics for MT evaluation: correlation with humans and the Williams test
(Graham & Baldwin, EMNLP 2014), randomized significance tests (Graham, Mathur & Baldwin,
WMT 2014), quality-estimation evaluation (Graham, ACL 2015), and the accuracy of the
randomized tests against a human gold standard.

UI-free: depends on numpy, scipy, pandas (and sacrebleu for BLEU/chrF/TER statistics).

Everything is importable from the top: the statistics (``stats.williams_test``, ...), their
``*Result`` classes (which unpack as ``statistic, pvalue``), and the file-to-result workflows
of :mod:`stats.analyses` (``stats.metrics_report``, ``stats.load_qe``, ...). Names load on
first use, so ``import stats`` stays fast.
"""

from ._budget import check_budget, limited_budget
from ._errors import DegenerateInputWarning, StatsInputError
from ._lazy import lazy_exports as _lazy_exports

#: public name -> the submodule defining it, imported on first access (:mod:`._lazy`)
_LAZY = {
    "mad_outliers": ".outliers",
    "williams_winners": ".williams",
    "AccuracyResult": ".accuracy",
    "accuracy_from_pvalues": ".accuracy",
    "accuracy_interval": ".accuracy",
    "compare_accuracies": ".accuracy",
    "significance_accuracy": ".accuracy",
    "LanguagePairMetaEvaluation": ".analyses.meta_eval",
    "MetaEvaluation": ".analyses.meta_eval",
    "meta_evaluate": ".analyses.meta_eval",
    "significance_clusters": ".clusters",
    "CorrelationResult": ".correlation",
    "LeaveOneOutResult": ".correlation",
    "correlate_with_human": ".correlation",
    "leave_one_out": ".correlation",
    "metric_correlations": ".correlation",
    "GridSignificance": ".grids",
    "grid_significance": ".grids",
    "HumanGoldResult": ".human",
    "RankSumMatrixResult": ".human",
    "annotator_summary": ".human",
    "combine_criteria": ".human",
    "human_gold_standard": ".human",
    "rank_sum_all_pairs": ".human",
    "standardize_judgements": ".human",
    "system_scores": ".human",
    "MetaCorrelationResult": ".meta_eval",
    "PairwiseAccuracyResult": ".meta_eval",
    "mean_system_scores": ".meta_eval",
    "meta_correlation": ".meta_eval",
    "pairwise_accuracy": ".meta_eval",
    "adjust_matrix": ".multiple",
    "adjust_pvalues": ".multiple",
    "PermBothResult": ".perm_both",
    "perm_both": ".perm_both",
    "WilliamsPowerResult": ".power",
    "williams_detectable_difference": ".power",
    "williams_grid_power": ".power",
    "williams_power": ".power",
    "williams_power_simulation": ".power",
    "QEEvaluationResult": ".qe",
    "QEScoresResult": ".qe",
    "RescaleResult": ".qe",
    "compare_gold_representations": ".qe",
    "evaluate_qe": ".qe",
    "post_edit_rate": ".qe",
    "prediction_correlations": ".qe",
    "qe_scores": ".qe",
    "qe_williams": ".qe",
    "rescaling_curve": ".qe",
    "rescaling_experiment": ".qe",
    "shift_and_rescale": ".qe",
    "PairwiseSignificanceResult": ".randomized",
    "RandomizedTestResult": ".randomized",
    "approximate_randomization": ".randomized",
    "bootstrap": ".randomized",
    "paired_bootstrap": ".randomized",
    "pairwise_significance": ".randomized",
    "SystemsTableResult": ".systems_table",
    "systems_table": ".systems_table",
    "SoftPairwiseAccuracyResult": ".soft_pairwise",
    "soft_pairwise_accuracy": ".soft_pairwise",
    "SegmentStatistics": ".sufficient",
    "SegmentContributions": ".contributions",
    "segment_contributions": ".contributions",
    "extract_statistics": ".sufficient",
    "statistics_from_scores": ".sufficient",
    "WilliamsMatrixResult": ".williams",
    "WilliamsResult": ".williams",
    "williams_all_pairs": ".williams",
    "williams_test": ".williams",
}

__all__ = [
    # WMT metrics task tables: winners and outlier systems
    "mad_outliers",
    "williams_winners",
    # errors and warnings
    "DegenerateInputWarning",
    "StatsInputError",
    # work and memory budgets
    "check_budget",
    "limited_budget",
    # randomized significance tests
    "PairwiseSignificanceResult",
    "RandomizedTestResult",
    "SegmentStatistics",
    "approximate_randomization",
    "bootstrap",
    "extract_statistics",
    "paired_bootstrap",
    "pairwise_significance",
    "systems_table",
    "SystemsTableResult",
    "statistics_from_scores",
    # the segment explorer: each segment's part in a pair's difference
    "SegmentContributions",
    "segment_contributions",
    # correlation with humans and the Williams test
    "CorrelationResult",
    "LeaveOneOutResult",
    "WilliamsMatrixResult",
    "WilliamsResult",
    "correlate_with_human",
    "leave_one_out",
    "metric_correlations",
    "williams_all_pairs",
    "williams_test",
    # quality estimation
    "QEEvaluationResult",
    "QEScoresResult",
    "RescaleResult",
    "compare_gold_representations",
    "evaluate_qe",
    "post_edit_rate",
    "prediction_correlations",
    "qe_scores",
    "qe_williams",
    "rescaling_curve",
    "rescaling_experiment",
    "shift_and_rescale",
    # human gold standard and the accuracy of significance tests
    "AccuracyResult",
    "HumanGoldResult",
    "RankSumMatrixResult",
    "accuracy_from_pvalues",
    "accuracy_interval",
    "annotator_summary",
    "combine_criteria",
    "compare_accuracies",
    "human_gold_standard",
    "rank_sum_all_pairs",
    "significance_accuracy",
    "standardize_judgements",
    "system_scores",
    "GridSignificance",
    "LanguagePairMetaEvaluation",
    "MetaCorrelationResult",
    "MetaEvaluation",
    "PairwiseAccuracyResult",
    "PermBothResult",
    "SoftPairwiseAccuracyResult",
    "WilliamsPowerResult",
    "adjust_matrix",
    "adjust_pvalues",
    "grid_significance",
    "mean_system_scores",
    "meta_correlation",
    "meta_evaluate",
    "pairwise_accuracy",
    "perm_both",
    "significance_clusters",
    "soft_pairwise_accuracy",
    "williams_detectable_difference",
    "williams_grid_power",
    "williams_power",
    "williams_power_simulation",
]


# One import for each file-to-result workflow: every public name of stats.analyses
# (``stats.metrics_report``, ``stats.load_qe``, ``stats.text_statistics``, ...), as lazily as
# the rest (importing stats.analyses loads only its own lazy table).
from . import analyses as _analyses  # noqa: E402

for _name in _analyses.__all__:
    if _name not in _LAZY:
        _LAZY[_name] = ".analyses"
        __all__.append(_name)
del _name

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)
