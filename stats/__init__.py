"""Statistics for MT evaluation: correlation with humans and the Williams test
(Graham & Baldwin, EMNLP 2014), randomized significance tests (Graham, Mathur & Baldwin,
WMT 2014), quality-estimation evaluation (Graham, ACL 2015), the accuracy of the randomized
tests against a human gold standard, MTME's meta-evaluation and PERM-BOTH, WMT human rankings
and the WMT20-24 QE tasks.

UI-free: depends on numpy, scipy, pandas (and sacrebleu for BLEU/chrF/TER statistics).

What ``import stats`` exports (``stats.__all__``; names load on first use, so the import is
fast):

- every public name of the topic subpackages :mod:`stats.mt`, :mod:`stats.metaeval`,
  :mod:`stats.metaeval.perm_both`, :mod:`stats.pairwise`, :mod:`stats.human`, :mod:`stats.qe`
  and :mod:`stats.power`
  (each also importable from its subpackage, ``stats.qe.compare_qe_systems``); each name
  means one thing;
- every public name of the file-to-result workflows of :mod:`stats.analyses`
  (``stats.metrics_report``, ``stats.load_qe``, ...);
- the errors, budgets and the cache's folder: :class:`StatsInputError`,
  :class:`DegenerateInputWarning`, :func:`check_budget`, :func:`limited_budget`,
  :func:`memory_limit`, :func:`time_bounded`, :class:`OverTimeBound`, :func:`statistics_cache_dir`, and
  :func:`run_isolated` (a computation in a child process that Stop can end).

The readers stay in :mod:`stats.readers` (``stats.readers.read_wmt_scores``). A function named
like its subpackage (``perm_both``) is ``stats.<name>``; ``stats.metaeval.perm_both`` is the
subpackage.
"""

from typing import TYPE_CHECKING

from stats._core.budget import (
    OverTimeBound,
    check_budget,
    limited_budget,
    memory_limit,
    time_bounded,
)
from stats._core.cache import statistics_cache_dir
from stats._core.errors import DegenerateInputWarning, StatsInputError
from stats._core.lazy import lazy_exports as _lazy_exports

from . import analyses as _analyses
from . import human as _human
from . import metaeval as _metaeval
from . import mt as _mt
from . import pairwise as _pairwise
from . import power as _power
from . import qe as _qe
from .metaeval import perm_both as _perm_both

#: public name -> the submodule defining it, imported on first access (:mod:`stats._core.lazy`),
#: gathered from the subpackages' own tables (one home per name); the first subpackage naming
#: a name keeps it
_LAZY: dict[str, str] = {}
for _package in (_mt, _metaeval, _perm_both, _pairwise, _human, _qe, _power, _analyses):
    _prefix = _package.__name__.removeprefix("stats")
    for _name, _source in _package._LAZY.items():
        _LAZY.setdefault(_name, _prefix + _source)
del _package, _prefix, _name, _source

__all__ = [
    # errors and warnings
    "DegenerateInputWarning",
    "StatsInputError",
    # work and memory budgets, the cache's folder
    "OverTimeBound",
    "check_budget",
    "limited_budget",
    "memory_limit",
    "run_isolated",
    "statistics_cache_dir",
    "time_bounded",
    # the statistics and the workflows, by subpackage
    *_LAZY,
]

#: run_isolated's module loads multiprocessing and a process pool: on first use too
_LAZY["run_isolated"] = "._core.workers"

__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)

if TYPE_CHECKING:  # the lazy names, for IDEs and type checkers (tests/test_imports.py)
    from ._core.workers import run_isolated
    from .analyses._inputs import FileInput, Files, decode_files
    from .analyses.autorank import (
        AutoRankAnalysis,
        AutoRankLanguagePair,
        WMT25TextStatistics,
        autorank_analysis,
        autorank_metric_set,
        read_autorank_scores,
        wmt25_text_statistics,
    )
    from .analyses.human import (
        accuracy_from_results,
        accuracy_statistics,
        human_gold,
        human_outliers,
        human_rankings,
    )
    from .analyses.human_wmt import is_wmt_human_file, paired_rankings, read_human_ratings, wmt_gold
    from .analyses.meta_eval import (
        LanguagePairMetaEvaluation,
        MetaEvaluation,
        meta_evaluate,
        rr_kendall_like,
    )
    from .analyses.meta_significance import (
        LanguagePairPermBoth,
        SoftPairwiseAnalysis,
        perm_both_analysis,
        pooled_accuracy_perm_both,
        soft_pairwise_analysis,
    )
    from .analyses.metrics import (
        BlockSelection,
        LanguagePairAnalysis,
        LanguagePairTests,
        MetricsAnalysis,
        language_pair_analysis,
        metrics_analysis,
        metrics_report,
        read_metric_scores,
    )
    from .analyses.mt_systems import (
        TEXT_METRICS,
        ScoreFileOptions,
        pair_tests,
        reference_order,
        score_file_options,
        score_statistics,
        segment_texts,
        statistics_from_score_file,
        systems_table_analysis,
        text_statistics,
        text_statistics_by_metric,
        without_systems,
        wmt_segment_scores,
    )
    from .analyses.power import (
        PowerAnalysis,
        human_power_analysis,
        metrics_power_analysis,
        power_analysis,
        power_from_statistics,
    )
    from .analyses.qe import (
        QEAnalysis,
        QEInput,
        load_qe,
        post_edit_reference,
        qe_analysis,
        qe_evaluated_data,
        qe_rescaling,
        qe_rescaling_curve,
    )
    from .analyses.wmt25_texts import AUTORANK_TEXT_METRICS, AutoRankTexts, autorank_texts
    from .human.accuracy import (
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
    from .human.gold import (
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
    from .human.paired import (
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
    from .human.ranking import HumanRankingResult, human_ranking, rank_sum_grid
    from .metaeval.correlation import (
        CorrelationResult,
        LeaveOneOutResult,
        correlate_with_human,
        leave_one_out,
        metric_correlations,
        standard_deviation,
        zscores,
    )
    from .metaeval.meta_eval import (
        CORRELATIONS,
        GROUPINGS,
        MetaCorrelationResult,
        PairwiseAccuracyResult,
        kendall_like_counts,
        mean_system_scores,
        meta_correlation,
        pairwise_accuracy,
    )
    from .metaeval.outliers import MAD_SCALE, mad_outliers, read_outliers_json
    from .metaeval.perm_both.core import perm_both
    from .metaeval.perm_both.engine import CorrelationSpec, PermBothResult
    from .metaeval.perm_both.pairs import perm_both_pairs
    from .metaeval.perm_both.pooled import perm_both_pooled_accuracy
    from .metaeval.perm_both.spa import perm_both_soft_pairwise
    from .metaeval.soft_pairwise import (
        SoftPairwiseAccuracyResult,
        pairwise_permutation_pvalues,
        soft_pairwise_accuracy,
    )
    from .metaeval.task_set_presets import (
        PRESETS,
        TEST_SETS,
        KnownTestSet,
        known_test_set,
        per_language_pair,
        preset,
    )
    from .metaeval.task_sets import (
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
    from .metaeval.williams import (
        ConfidenceInterval,
        WilliamsMatrixResult,
        WilliamsResult,
        williams_all_pairs,
        williams_test,
        williams_winners,
        zou_confidence_interval,
    )
    from .mt.automatic_ranking import (
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
    from .mt.baseline_table import SYSTEMS_TABLE_TESTS, SystemsTableResult, systems_table
    from .mt.contributions import SegmentContributions, segment_contributions
    from .mt.corpus_metrics import CorpusMetric
    from .mt.randomized import (
        RANDOMIZED_TESTS,
        PairwiseSignificanceResult,
        RandomizedTestResult,
        approximate_randomization,
        bootstrap,
        paired_bootstrap,
        pairwise_significance,
    )
    from .mt.sacrebleu_options import (
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
    from .mt.sufficient import (
        METRICS,
        SegmentStatistics,
        extract_statistics,
        metric_score,
        statistics_from_scores,
    )
    from .mt.tokenize_options import (
        TOKENIZERS,
        check_tokenizer,
        default_tokenizer,
        metric_spec,
        parse_metric_spec,
        resolve_options,
    )
    from .pairwise.clusters import separated_clusters, significance_clusters
    from .pairwise.grids import SIDEDNESS, SIDEDNESS_NOTES, GridSignificance, grid_significance
    from .pairwise.multiple import CORRECTIONS, adjust_matrix, adjust_pvalues
    from .power.corpus import CORPUS_TESTS, corpus_power, corpus_sample_size
    from .power.engine import DEFINITION, PowerResult, SampleSizeResult
    from .power.human import domain_power, domain_sample_size
    from .power.paired import (
        POWER_TESTS,
        normal_mde,
        paired_power,
        paired_sample_size,
        paired_t_mde,
        paired_t_power,
    )
    from .power.perm_both import (
        DEFINITION_PERM_BOTH,
        perm_both_grid_mde,
        perm_both_power,
        perm_both_sample_size,
    )
    from .power.williams import (
        POWER,
        WilliamsPowerResult,
        median_detectable_difference,
        williams_detectable_difference,
        williams_grid_power,
        williams_power,
        williams_power_simulation,
        williams_sample_size,
    )
    from .qe.graham import (
        QEEvaluationResult,
        QEScoresResult,
        RescaleResult,
        compare_gold_representations,
        evaluate_qe,
        post_edit_rate,
        prediction_correlations,
        qe_scores,
        qe_williams,
        rescaling_curve,
        rescaling_experiment,
        shift_and_rescale,
    )
    from .qe.wmt import (
        MEASURES,
        POOLED_NOTE,
        QEComparisonResult,
        QELanguagePairResult,
        bootstrap_correlations,
        compare_qe_systems,
        language_pair_data,
        qe_clusters,
        qe_pair_tests,
    )
    from .qe.word import (
        WORD_MEASURES,
        WordLevelResult,
        align_word_tags,
        compare_word_level,
        word_scores_from_confusion,
    )
