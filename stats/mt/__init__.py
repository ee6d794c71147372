"""MT systems: sacreBLEU's segment statistics for BLEU, chrF and TER (tokenizer options, the
compiled n-gram and TER kernels), the randomized tests of Graham, Mathur & Baldwin (WMT 2014),
the systems table, each segment's contribution to a pair's difference, and WMT25's automatic
ranking (AutoRank) with its bootstrap intervals.

Every public name of the modules below is importable from here (``stats.mt.<name>``) and,
unless noted in :mod:`stats`, from the top (``stats.<name>``); names load on first use.
"""

from stats._core.lazy import lazy_exports as _lazy_exports

#: public name -> the module defining it, imported on first access (:mod:`stats._core.lazy`)
_LAZY = {
    # automatic_ranking (WMT25's AutoRank)
    "AUTORANK_PRESETS": ".automatic_ranking",
    "WMT25_CHRF_ONLY": ".automatic_ranking",
    "WMT25_METRICS": ".automatic_ranking",
    "WMT25_REFERENCE_LPS": ".automatic_ranking",
    "AutoRankBootstrapResult": ".automatic_ranking",
    "AutoRankResult": ".automatic_ranking",
    "autorank": ".automatic_ranking",
    "autorank_bootstrap": ".automatic_ranking",
    "autorank_latex": ".automatic_ranking",
    "autorank_metrics": ".automatic_ranking",
    "metric_digits": ".automatic_ranking",
    "findings_shading": ".automatic_ranking",
    "paragraph_correlations": ".automatic_ranking",
    # contributions
    "SegmentContributions": ".contributions",
    "segment_contributions": ".contributions",
    # randomized
    "RANDOMIZED_TESTS": ".randomized",
    "RandomizedTestResult": ".randomized",
    "PairwiseSignificanceResult": ".randomized",
    "paired_bootstrap": ".randomized",
    "bootstrap": ".randomized",
    "approximate_randomization": ".randomized",
    "pairwise_significance": ".randomized",
    # sufficient
    "METRICS": ".sufficient",
    "SegmentStatistics": ".sufficient",
    "extract_statistics": ".sufficient",
    "statistics_from_scores": ".sufficient",
    "metric_score": ".sufficient",
    # baseline_table
    "SYSTEMS_TABLE_TESTS": ".baseline_table",
    "SystemsTableResult": ".baseline_table",
    "systems_table": ".baseline_table",
}

__all__ = list(_LAZY)

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)
