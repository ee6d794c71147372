"""Meta-evaluation of metrics against humans: correlations, the Williams test (Graham &
Baldwin, EMNLP 2014), MTME's meta-evaluation statistics, soft pairwise accuracy, PERM-BOTH
(:mod:`stats.metaeval.perm_both`), outlier systems and the WMT23-25 task sets. Significance
grids, clusters and multiple comparisons are :mod:`stats.pairwise`.

Every public name of the modules below is importable from here (``stats.metaeval.<name>``) and,
unless noted in :mod:`stats`, from the top (``stats.<name>``); names load on first use.
"""

from typing import TYPE_CHECKING

from stats._core.lazy import lazy_exports as _lazy_exports

#: public name -> the module defining it, imported on first access (:mod:`stats._core.lazy`)
_LAZY = {
    # correlation
    "CorrelationResult": ".correlation",
    "LeaveOneOutResult": ".correlation",
    "correlate_with_human": ".correlation",
    "leave_one_out": ".correlation",
    "metric_correlations": ".correlation",
    "standard_deviation": ".correlation",
    "zscores": ".correlation",
    # meta_eval
    "CORRELATIONS": ".meta_eval",
    "GROUPINGS": ".meta_eval",
    "MetaCorrelationResult": ".meta_eval",
    "PairwiseAccuracyResult": ".meta_eval",
    "mean_system_scores": ".meta_eval",
    "meta_correlation": ".meta_eval",
    "kendall_like_counts": ".meta_eval",
    "pairwise_accuracy": ".meta_eval",
    # outliers
    "MAD_SCALE": ".outliers",
    "mad_outliers": ".outliers",
    "read_outliers_json": ".outliers",
    # soft_pairwise
    "SoftPairwiseAccuracyResult": ".soft_pairwise",
    "pairwise_permutation_pvalues": ".soft_pairwise",
    "soft_pairwise_accuracy": ".soft_pairwise",
    # task_set_presets
    "PRESETS": ".task_set_presets",
    "TEST_SETS": ".task_set_presets",
    "KnownTestSet": ".task_set_presets",
    "known_test_set": ".task_set_presets",
    "per_language_pair": ".task_set_presets",
    "preset": ".task_set_presets",
    # task_sets
    "Task": ".task_sets",
    "TaskOutcome": ".task_sets",
    "TaskSet": ".task_sets",
    "TaskSetResult": ".task_sets",
    "assign_weights": ".task_sets",
    "average_correlations": ".task_sets",
    "average_pvalues": ".task_sets",
    "average_confidence_intervals": ".task_sets",
    "average_difference_spread": ".task_sets",
    "average_ranks": ".task_sets",
    "combine_tasks": ".task_sets",
    "correlation_range": ".task_sets",
    "read_task_set": ".task_sets",
    # williams
    "ConfidenceInterval": ".williams",
    "WilliamsMatrixResult": ".williams",
    "WilliamsResult": ".williams",
    "williams_all_pairs": ".williams",
    "williams_test": ".williams",
    "williams_winners": ".williams",
    "zou_confidence_interval": ".williams",
}

__all__ = list(_LAZY)

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:  # the lazy names, for IDEs and type checkers (tests/test_imports.py)
    from .correlation import (
        CorrelationResult,
        LeaveOneOutResult,
        correlate_with_human,
        leave_one_out,
        metric_correlations,
        standard_deviation,
        zscores,
    )
    from .meta_eval import (
        CORRELATIONS,
        GROUPINGS,
        MetaCorrelationResult,
        PairwiseAccuracyResult,
        kendall_like_counts,
        mean_system_scores,
        meta_correlation,
        pairwise_accuracy,
    )
    from .outliers import MAD_SCALE, mad_outliers, read_outliers_json
    from .soft_pairwise import (
        SoftPairwiseAccuracyResult,
        pairwise_permutation_pvalues,
        soft_pairwise_accuracy,
    )
    from .task_set_presets import (
        PRESETS,
        TEST_SETS,
        KnownTestSet,
        known_test_set,
        per_language_pair,
        preset,
    )
    from .task_sets import (
        Task,
        TaskOutcome,
        TaskSet,
        TaskSetResult,
        assign_weights,
        average_confidence_intervals,
        average_correlations,
        average_difference_spread,
        average_pvalues,
        average_ranks,
        combine_tasks,
        correlation_range,
        read_task_set,
    )
    from .williams import (
        ConfidenceInterval,
        WilliamsMatrixResult,
        WilliamsResult,
        williams_all_pairs,
        williams_test,
        williams_winners,
        zou_confidence_interval,
    )
