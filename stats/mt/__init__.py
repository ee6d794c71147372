"""MT systems: sacreBLEU's segment statistics for BLEU, chrF and TER (tokenizer options, the
compiled n-gram and TER kernels), the randomized tests of Graham, Mathur & Baldwin (WMT 2014),
the systems table, each segment's contribution to a pair's difference, and WMT25's automatic
ranking (AutoRank) with its bootstrap intervals.

Every public name of the modules below is importable from here (``stats.mt.<name>``) and,
unless noted in :mod:`stats`, from the top (``stats.<name>``); names load on first use.
"""

from typing import TYPE_CHECKING

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
    "ParagraphArrays": ".automatic_ranking",
    "autorank": ".automatic_ranking",
    "autorank_bootstrap": ".automatic_ranking",
    "autorank_latex": ".automatic_ranking",
    "autorank_metrics": ".automatic_ranking",
    "metric_digits": ".automatic_ranking",
    "findings_shading": ".automatic_ranking",
    "paragraph_correlations": ".automatic_ranking",
    # corpus_metrics (BLEU, chrF++ in AutoRank)
    "CorpusMetric": ".corpus_metrics",
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
    # sacrebleu_options
    "SACREBLEU_OPTIONS": ".sacrebleu_options",
    "WMT_RELEASED_TOKENIZERS": ".sacrebleu_options",
    "SacrebleuOption": ".sacrebleu_options",
    "describe_options": ".sacrebleu_options",
    "non_default_options": ".sacrebleu_options",
    "sacrebleu_defaults": ".sacrebleu_options",
    "sacrebleu_signature": ".sacrebleu_options",
    "wmt_released_tokenizer": ".sacrebleu_options",
    "wmt_tokenizer_note": ".sacrebleu_options",
    # sufficient
    "METRICS": ".sufficient",
    "SegmentStatistics": ".sufficient",
    "extract_statistics": ".sufficient",
    "statistics_from_scores": ".sufficient",
    "metric_score": ".sufficient",
    # tokenize_options
    "TOKENIZERS": ".tokenize_options",
    "check_tokenizer": ".tokenize_options",
    "default_tokenizer": ".tokenize_options",
    "metric_spec": ".tokenize_options",
    "parse_metric_spec": ".tokenize_options",
    "resolve_options": ".tokenize_options",
    # baseline_table
    "SYSTEMS_TABLE_TESTS": ".baseline_table",
    "SystemsTableResult": ".baseline_table",
    "systems_table": ".baseline_table",
}

__all__ = list(_LAZY)

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:  # the lazy names, for IDEs and type checkers (tests/test_imports.py)
    from .automatic_ranking import (
        AUTORANK_PRESETS,
        WMT25_CHRF_ONLY,
        WMT25_METRICS,
        WMT25_REFERENCE_LPS,
        AutoRankBootstrapResult,
        AutoRankResult,
        ParagraphArrays,
        autorank,
        autorank_bootstrap,
        autorank_latex,
        autorank_metrics,
        findings_shading,
        metric_digits,
        paragraph_correlations,
    )
    from .baseline_table import SYSTEMS_TABLE_TESTS, SystemsTableResult, systems_table
    from .contributions import SegmentContributions, segment_contributions
    from .corpus_metrics import CorpusMetric
    from .randomized import (
        RANDOMIZED_TESTS,
        PairwiseSignificanceResult,
        RandomizedTestResult,
        approximate_randomization,
        bootstrap,
        paired_bootstrap,
        pairwise_significance,
    )
    from .sacrebleu_options import (
        SACREBLEU_OPTIONS,
        WMT_RELEASED_TOKENIZERS,
        SacrebleuOption,
        describe_options,
        non_default_options,
        sacrebleu_defaults,
        sacrebleu_signature,
        wmt_released_tokenizer,
        wmt_tokenizer_note,
    )
    from .sufficient import (
        METRICS,
        SegmentStatistics,
        extract_statistics,
        metric_score,
        statistics_from_scores,
    )
    from .tokenize_options import (
        TOKENIZERS,
        check_tokenizer,
        default_tokenizer,
        metric_spec,
        parse_metric_spec,
        resolve_options,
    )
