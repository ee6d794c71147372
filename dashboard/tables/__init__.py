"""Tables, hover text and display strings of the dashboard pages, shaped from the results of
:mod:`dashboard.data` (pure: pandas in, pandas or strings out; no Streamlit, no caching).

One module per page (:mod:`~dashboard.tables.metrics`, :mod:`~dashboard.tables.meta_eval`,
:mod:`~dashboard.tables.mt`, :mod:`~dashboard.tables.qe`, :mod:`~dashboard.tables.human`) and
:mod:`~dashboard.tables.common` for labels they share; the pages show these with
:func:`dashboard.components.show_table`. Names are reached as ``tables.NAME``; a page imports
only the modules whose names it uses (PEP 562), not the statistics behind every page.
"""

from __future__ import annotations

import importlib

#: name -> the module of this package that defines it
_HOMES = {
    "side_label": "common",
    "CORRECTION_LABELS": "common",
    "correction_note": "common",
    "p_label": "common",
    "CORRELATION_KINDS": "metrics",
    "CORRELATION_SYMBOLS": "metrics",
    "default_baseline": "metrics",
    "correlation_table": "metrics",
    "metric_order": "metrics",
    "williams_grid_note": "metrics",
    "sparse_grid_lps": "metrics",
    "significance_summary": "metrics",
    "cluster_table": "metrics",
    "CLUSTER_COLUMN": "metrics",
    "WINNER_COLUMN": "metrics",
    "RULES": "metrics",
    "power_line": "metrics",
    "refset_options": "meta_eval",
    "MAD_HELP": "meta_eval",
    "left_out_note": "meta_eval",
    "metric_options": "meta_eval",
    "refset_label": "meta_eval",
    "selection_note": "meta_eval",
    "META_CORRELATIONS": "meta_eval",
    "META_SYMBOLS": "meta_eval",
    "META_GROUPINGS": "meta_eval",
    "meta_variant": "meta_eval",
    "meta_eval_table": "meta_eval",
    "meta_group_statistics": "meta_eval",
    "pairwise_accuracy_table": "meta_eval",
    "soft_pairwise_table": "meta_eval",
    "TEXT_METRICS": "mt",
    "MT_TEST_LABELS": "mt",
    "mt_system_table": "mt",
    "mt_pvalue_table": "mt",
    "MT_TABLE_TESTS": "mt",
    "mt_baseline_table": "mt",
    "qe_rank_table": "qe",
    "HUMAN_TEST_LABELS": "human",
    "score_metric_choices": "human",
    "most_accurate": "human",
    "human_paper_table": "human",
    "conclusion_text": "human",
    "human_agreement_details": "human",
    "human_agreement": "human",
    "human_disagreements": "human",
    "human_ranking_table": "human",
}


def __getattr__(name: str):
    try:
        home = _HOMES[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_HOMES])
