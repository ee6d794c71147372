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

from stats._core.budget import check_budget, limited_budget
from stats._core.errors import DegenerateInputWarning, StatsInputError
from stats._core.lazy import lazy_exports as _lazy_exports

#: public name -> the submodule defining it, imported on first access (:mod:`._lazy`)
_LAZY = {
    "mad_outliers": ".metaeval.outliers",
    "williams_winners": ".metaeval.williams",
    "AccuracyResult": ".human.accuracy",
    "accuracy_from_pvalues": ".human.accuracy",
    "accuracy_interval": ".human.accuracy",
    "compare_accuracies": ".human.accuracy",
    "significance_accuracy": ".human.accuracy",
    "LanguagePairMetaEvaluation": ".analyses.meta_eval",
    "MetaEvaluation": ".analyses.meta_eval",
    "meta_evaluate": ".analyses.meta_eval",
    "significance_clusters": ".metaeval.clusters",
    "CorrelationResult": ".metaeval.correlation",
    "LeaveOneOutResult": ".metaeval.correlation",
    "correlate_with_human": ".metaeval.correlation",
    "leave_one_out": ".metaeval.correlation",
    "metric_correlations": ".metaeval.correlation",
    "GridSignificance": ".metaeval.grids",
    "grid_significance": ".metaeval.grids",
    "HumanGoldResult": ".human.gold",
    "RankSumMatrixResult": ".human.gold",
    "annotator_summary": ".human.gold",
    "combine_criteria": ".human.gold",
    "human_gold_standard": ".human.gold",
    "rank_sum_all_pairs": ".human.gold",
    "standardize_judgements": ".human.gold",
    "system_scores": ".human.gold",
    "MetaCorrelationResult": ".metaeval.meta_eval",
    "PairwiseAccuracyResult": ".metaeval.meta_eval",
    "mean_system_scores": ".metaeval.meta_eval",
    "meta_correlation": ".metaeval.meta_eval",
    "pairwise_accuracy": ".metaeval.meta_eval",
    "adjust_matrix": ".metaeval.multiple",
    "adjust_pvalues": ".metaeval.multiple",
    "PermBothResult": ".metaeval.perm_both.core",
    "perm_both": ".metaeval.perm_both.core",
    "PowerResult": ".power",
    "corpus_power": ".power",
    "corpus_sample_size": ".power",
    "domain_power": ".power",
    "normal_mde": ".power",
    "paired_power": ".power",
    "paired_sample_size": ".power",
    "paired_t_mde": ".power",
    "paired_t_power": ".power",
    "WilliamsPowerResult": ".power.williams",
    "williams_detectable_difference": ".power.williams",
    "williams_grid_power": ".power.williams",
    "williams_power": ".power.williams",
    "williams_power_simulation": ".power.williams",
    "QEEvaluationResult": ".qe.graham",
    "QEScoresResult": ".qe.graham",
    "RescaleResult": ".qe.graham",
    "compare_gold_representations": ".qe.graham",
    "evaluate_qe": ".qe.graham",
    "post_edit_rate": ".qe.graham",
    "prediction_correlations": ".qe.graham",
    "qe_scores": ".qe.graham",
    "qe_williams": ".qe.graham",
    "rescaling_curve": ".qe.graham",
    "rescaling_experiment": ".qe.graham",
    "shift_and_rescale": ".qe.graham",
    "PairwiseSignificanceResult": ".mt.randomized",
    "RandomizedTestResult": ".mt.randomized",
    "approximate_randomization": ".mt.randomized",
    "bootstrap": ".mt.randomized",
    "paired_bootstrap": ".mt.randomized",
    "pairwise_significance": ".mt.randomized",
    "SystemsTableResult": ".mt.systems_table",
    "systems_table": ".mt.systems_table",
    "SoftPairwiseAccuracyResult": ".metaeval.soft_pairwise",
    "soft_pairwise_accuracy": ".metaeval.soft_pairwise",
    "SegmentStatistics": ".mt.sufficient",
    "SegmentContributions": ".mt.contributions",
    "segment_contributions": ".mt.contributions",
    "extract_statistics": ".mt.sufficient",
    "statistics_from_scores": ".mt.sufficient",
    "WilliamsMatrixResult": ".metaeval.williams",
    "WilliamsResult": ".metaeval.williams",
    "williams_all_pairs": ".metaeval.williams",
    "williams_test": ".metaeval.williams",
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
    # power and sample size (stats.power)
    "PowerResult",
    "corpus_power",
    "corpus_sample_size",
    "domain_power",
    "normal_mde",
    "paired_power",
    "paired_sample_size",
    "paired_t_mde",
    "paired_t_power",
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
