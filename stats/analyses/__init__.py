"""File-to-result workflows shared by ``python -m stats`` and the dashboard, one module per
analysis (``metrics``, ``qe``, ``mt_systems``, ``human``, ``meta_eval``, ``meta_significance``);
this package re-exports them all.

Each analysis is written once here: the CLI (:mod:`stats.cli`) parses arguments and formats
what these functions return; the dashboard's data layer caches them. Nothing here prints,
caches or knows about a page.

Inputs
------
Files enter as :data:`FileInput`: a path (``str`` / ``os.PathLike``, as the CLI passes them),
or a ``(name, bytes)`` pair (as the dashboard passes uploads: the name is what error messages
call the file). :data:`Files` is a sequence of them. Every reader of :mod:`stats.readers`
accepts both. :func:`decode_files` reads and decodes files once for several steps (a kind
detected from the content, then the workflow): its items are taken as they are.

Results
-------
Frozen keyword-only dataclasses: the ``*Result`` objects of :mod:`stats`, or a small
workflow result holding several of them together. ``warnings`` of a workflow result lists the
:class:`~stats.DegenerateInputWarning` messages raised computing it (each once); every
warning is also still emitted, so a caller that records warnings (the CLI) sees them all.

Workflows
---------
Metrics against humans, per language pair (Graham & Baldwin, EMNLP 2014)
    - :func:`read_metric_scores` (files) -> :class:`~stats.readers.system_level.SystemScores`
    - :func:`metrics_analysis` (files or SystemScores; language pairs, test set; alternative,
      confidence level, sign alignment; reference, reference-free metrics, excluded systems
      and outliers) -> :class:`MetricsAnalysis`: the one workflow (CLI and dashboard) --
      Williams all-pairs tests of every block (language pair, test set, reference:
      :class:`LanguagePairTests`, with what was left out in a :class:`BlockSelection`); one
      missing-data policy: a block that cannot be analysed is reported in ``problems``.
    - :func:`language_pair_analysis` (:class:`LanguagePairTests`) -> :class:`LanguagePairAnalysis`:
      adds correlations with humans, leave-one-out influence and metric-metric correlations.
    - :func:`metrics_report` (the same arguments) -> tuple of :class:`LanguagePairAnalysis`:
      every block of :func:`metrics_analysis` analysed, the left-out ones named in warnings.
QE from files (Graham, ACL 2015)
    - :func:`load_qe` (files; gold, post-editing table, layout) -> :class:`QEInput`
    - :func:`qe_evaluated_data` (QEInput; rate) -> :class:`~stats.readers.qe.QEData`: the
      labels and predictions evaluated (converted to post-edit rate with ``rate``).
    - :func:`post_edit_reference` (post-editing table; reference) -> str or None: the rule
      choosing the reference column.
    - :func:`qe_analysis` (QEInput; rate, sd_ratio, alternative, reference) ->
      :class:`QEAnalysis`
    - :func:`qe_rescaling` (QEInput; sd_ratio, rate) -> :class:`~stats.qe.graham.RescaleResult`
    - :func:`qe_rescaling_curve` (QEInput; rate) -> DataFrame
MT systems: randomized tests from files (Graham, Mathur & Baldwin, WMT 2014)
    - :func:`text_statistics` (reference files, one output file per system; metric) ->
      :class:`~stats.mt.sufficient.SegmentStatistics`; :func:`text_statistics_by_metric` (the
      same files; several metrics) -> dict of metric name -> SegmentStatistics, the files
      read once
    - :func:`score_statistics` (one segment-score file, or WMT metrics task segment-level
      files; metric, lower_is_better, lp, testset, refset) ->
      :class:`~stats.mt.sufficient.SegmentStatistics`
    - :func:`score_file_options` (the same files) -> :class:`ScoreFileOptions`: the metrics,
      and the (metric, lp, testset, refset) blocks of WMT files, to choose from
    - :func:`wmt_segment_scores` (WMT segment-level files; metric, lp, testset, refset) ->
      DataFrame of items (DOCID:SEGID) x systems
    - :func:`segment_texts` (reference files, output files; two systems, source) ->
      DataFrame of each segment's source, reference, both hypotheses and length, for the
      segment explorer with :func:`stats.segment_contributions`
    - :func:`without_systems` (SegmentStatistics; names) -> SegmentStatistics without them
    - then :func:`stats.mt.randomized.pairwise_significance` for all pairs, or
      :func:`pair_tests` (SegmentStatistics; two systems, tests) -> dict of test name ->
      :class:`~stats.mt.randomized.RandomizedTestResult`
    - :func:`systems_table_analysis` (text files or a segment-score file; metrics, baseline,
      test) -> :class:`~stats.mt.baseline_table.SystemsTableResult` (sacreBLEU's paired tests
      against a baseline)
Tests against humans (Graham, Mathur & Baldwin, WMT 2014, Tables 1-2)
    - :func:`human_gold` (judgement files; alpha, systems to exclude) ->
      :class:`~stats.human.gold.HumanGoldResult`; :func:`human_outliers` (gold; threshold) -> the
      systems the findings' MAD rule flags
    - :func:`accuracy_statistics` (text files with metrics and/or a segment-score file) ->
      dict of metric name -> SegmentStatistics
    - then :func:`stats.human.accuracy.significance_accuracy` (runs the tests), or
      :func:`accuracy_from_results` (gold, all-pairs results already computed, excluded
      systems) ->
      :class:`~stats.human.accuracy.AccuracyResult`
    - :func:`human_rankings` (published DA segment files or judgement files; lp, score, alpha)
      -> list of :class:`~stats.human.ranking.HumanRankingResult` (findings' Wilcoxon grid
      and cluster lines)

Choice of the post-edit reference column
----------------------------------------
:func:`post_edit_reference` is the one rule: a named reference must be a column of the table
(case-insensitive, else :class:`~stats.StatsInputError` naming the columns found); without a
name, ``hter`` when the table has it, else its first further column (after SID, TIME, WORDS),
else none (no PER-vs-PET test).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from stats._core.lazy import lazy_exports as _lazy_exports

#: public name -> the module defining it, imported on first access (:mod:`stats._core.lazy`)
_LAZY = {
    "FileInput": "._inputs",
    "Files": "._inputs",
    "decode_files": "._inputs",
    "accuracy_from_results": ".human",
    "accuracy_statistics": ".human",
    "human_gold": ".human",
    "human_rankings": ".human",
    "human_outliers": ".human",
    "LanguagePairMetaEvaluation": ".meta_eval",
    "MetaEvaluation": ".meta_eval",
    "meta_evaluate": ".meta_eval",
    "rr_kendall_like": ".meta_eval",
    "LanguagePairPermBoth": ".meta_significance",
    "SoftPairwiseAnalysis": ".meta_significance",
    "perm_both_analysis": ".meta_significance",
    "soft_pairwise_analysis": ".meta_significance",
    "pooled_accuracy_perm_both": ".meta_significance",
    "BlockSelection": ".metrics",
    "LanguagePairAnalysis": ".metrics",
    "LanguagePairTests": ".metrics",
    "MetricsAnalysis": ".metrics",
    "language_pair_analysis": ".metrics",
    "metrics_analysis": ".metrics",
    "metrics_report": ".metrics",
    "read_metric_scores": ".metrics",
    "TEXT_METRICS": ".mt_systems",
    "pair_tests": ".mt_systems",
    "systems_table_analysis": ".mt_systems",
    "score_statistics": ".mt_systems",
    "statistics_from_score_file": ".mt_systems",
    "ScoreFileOptions": ".mt_systems",
    "segment_texts": ".mt_systems",
    "without_systems": ".mt_systems",
    "score_file_options": ".mt_systems",
    "wmt_segment_scores": ".mt_systems",
    "text_statistics": ".mt_systems",
    "text_statistics_by_metric": ".mt_systems",
    "reference_order": ".mt_systems",
    "QEAnalysis": ".qe",
    "QEInput": ".qe",
    "load_qe": ".qe",
    "post_edit_reference": ".qe",
    "qe_analysis": ".qe",
    "qe_evaluated_data": ".qe",
    "qe_rescaling": ".qe",
    "qe_rescaling_curve": ".qe",
}

__all__ = [
    "FileInput",
    "Files",
    "decode_files",
    # metrics against humans (stats.analyses.metrics)
    "LanguagePairTests",
    "LanguagePairAnalysis",
    "MetricsAnalysis",
    "read_metric_scores",
    "metrics_analysis",
    "language_pair_analysis",
    "metrics_report",
    "BlockSelection",
    # quality estimation (stats.analyses.qe)
    "QEInput",
    "QEAnalysis",
    "load_qe",
    "qe_evaluated_data",
    "post_edit_reference",
    "qe_analysis",
    "qe_rescaling",
    "qe_rescaling_curve",
    # MT systems (stats.analyses.mt_systems)
    "TEXT_METRICS",
    "text_statistics",
    "text_statistics_by_metric",
    "reference_order",
    "score_statistics",
    "statistics_from_score_file",
    "ScoreFileOptions",
    "segment_texts",
    "without_systems",
    "score_file_options",
    "wmt_segment_scores",
    "pair_tests",
    "systems_table_analysis",
    # tests against humans (stats.analyses.human)
    "human_gold",
    "accuracy_statistics",
    "accuracy_from_results",
    "human_outliers",
    "human_rankings",
    # segment-level meta-evaluation (stats.analyses.meta_eval, .meta_significance)
    "LanguagePairMetaEvaluation",
    "MetaEvaluation",
    "meta_evaluate",
    "rr_kendall_like",
    "LanguagePairPermBoth",
    "SoftPairwiseAnalysis",
    "perm_both_analysis",
    "soft_pairwise_analysis",
    "pooled_accuracy_perm_both",
]


__getattr__, __dir__ = _lazy_exports(__name__, _LAZY)

# ---- WMT22-25 human rankings (stats.analyses.human_wmt) ----
_LAZY.update(
    {
        "paired_rankings": ".human_wmt",
        "read_human_ratings": ".human_wmt",
        "wmt_gold": ".human_wmt",
        "is_wmt_human_file": ".human_wmt",
    }
)
__all__ += ["paired_rankings", "read_human_ratings", "wmt_gold", "is_wmt_human_file"]

# ---- power and sample size (stats.analyses.power) ----
_POWER = ("PowerAnalysis", "power_analysis", "power_from_statistics", "human_power_analysis",
          "metrics_power_analysis")
_LAZY.update({n: ".power" for n in _POWER})
__all__ += list(_POWER)

# ---- WMT25 AutoRank from the general task's automatic scores (stats.analyses.autorank) ----
_AUTORANK = ("AutoRankAnalysis", "AutoRankLanguagePair", "autorank_analysis",
             "autorank_metric_set", "read_autorank_scores", "WMT25TextStatistics",
             "wmt25_text_statistics")
_LAZY.update({n: ".autorank" for n in _AUTORANK})
__all__ += list(_AUTORANK)

# ---- BLEU and chrF++ for AutoRank from the outputs and references (stats.analyses.wmt25_texts) ----
_WMT25_TEXTS = ("AUTORANK_TEXT_METRICS", "AutoRankTexts", "autorank_texts")
_LAZY.update({n: ".wmt25_texts" for n in _WMT25_TEXTS})
__all__ += list(_WMT25_TEXTS)

if TYPE_CHECKING:  # the lazy names, for IDEs and type checkers (tests/test_imports.py)
    from ._inputs import FileInput, Files, decode_files
    from .autorank import (
        AutoRankAnalysis,
        AutoRankLanguagePair,
        WMT25TextStatistics,
        autorank_analysis,
        autorank_metric_set,
        read_autorank_scores,
        wmt25_text_statistics,
    )
    from .human import (
        accuracy_from_results,
        accuracy_statistics,
        human_gold,
        human_outliers,
        human_rankings,
    )
    from .human_wmt import is_wmt_human_file, paired_rankings, read_human_ratings, wmt_gold
    from .meta_eval import (
        LanguagePairMetaEvaluation,
        MetaEvaluation,
        meta_evaluate,
        rr_kendall_like,
    )
    from .meta_significance import (
        LanguagePairPermBoth,
        SoftPairwiseAnalysis,
        perm_both_analysis,
        pooled_accuracy_perm_both,
        soft_pairwise_analysis,
    )
    from .metrics import (
        BlockSelection,
        LanguagePairAnalysis,
        LanguagePairTests,
        MetricsAnalysis,
        language_pair_analysis,
        metrics_analysis,
        metrics_report,
        read_metric_scores,
    )
    from .mt_systems import (
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
    from .power import (
        PowerAnalysis,
        human_power_analysis,
        metrics_power_analysis,
        power_analysis,
        power_from_statistics,
    )
    from .qe import (
        QEAnalysis,
        QEInput,
        load_qe,
        post_edit_reference,
        qe_analysis,
        qe_evaluated_data,
        qe_rescaling,
        qe_rescaling_curve,
    )
    from .wmt25_texts import AUTORANK_TEXT_METRICS, AutoRankTexts, autorank_texts
