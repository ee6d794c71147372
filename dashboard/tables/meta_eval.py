"""Tables and display strings of the segment-level meta-evaluation on the Metrics page
(MTME-style correlations, pairwise and soft pairwise accuracy).

Pure: pandas in, pandas or strings out; no Streamlit, no caching."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

if TYPE_CHECKING:  # annotations only: the first page does not load the meta-evaluation code
    from stats.analyses.meta_eval import LanguagePairMetaEvaluation, MetaEvaluation
    from stats.analyses.meta_significance import SoftPairwiseAnalysis


#: Correlation choices of the segment-level section: label -> :func:`stats.metaeval.meta_eval.meta_correlation`
#: ``correlation``.
def refset_options(frame: pd.DataFrame, reference_free: Sequence[str] = ()) -> list:
    """The reference choices of system-level scores: None (the test set's own reference),
    each REFSET name present (reference-free metrics' rows are not references) and ``'all'``
    when there are several; ``[]`` when the files name no reference."""
    if "refset" not in frame:
        return []
    rows = frame[~frame["metric"].isin(list(reference_free))]
    names = sorted(r for r in pd.unique(rows["refset"]) if r)
    return [None, *names, *(["all"] if len(names) > 1 else [])] if names else []


MAD_HELP = (
    "Leave out the systems whose human score is an outlier of its block: "
    "|x - median| / (1.4826 MAD) > 2.5, as in the WMT metrics findings."
)


def left_out_note(excluded: Sequence[str], outliers: Sequence[str]) -> str:
    """The sentence captions and reports give for systems left out (``""`` for none), with
    the MAD outliers among them marked."""
    if not excluded:
        return ""
    names = [f"{s} (MAD outlier)" if s in set(outliers) else str(s) for s in excluded]
    return f"left out: {', '.join(names)}"


def metric_options(frame: pd.DataFrame) -> list:
    """The metric names of system-level scores (human scores are not a metric)."""
    return sorted(m for m in pd.unique(frame["metric"]) if m != "HUMAN")


def refset_label(option: str | None) -> str:
    """How a :func:`refset_options` choice is shown."""
    if option is None:
        return "the test set's own"
    return "all (one block each)" if option == "all" else option


def selection_note(key: str, selection) -> str:
    """What the workflow left out of block ``key`` (a
    :class:`stats.analyses.metrics.BlockSelection`), or ``''`` when nothing was."""
    outliers = set(selection.outliers)
    parts = []
    if named := [s for s in selection.excluded_systems if s not in outliers]:
        parts.append(f"excluded systems {', '.join(named)}")
    if selection.outliers:
        parts.append(f"MAD outliers {', '.join(selection.outliers)}")
    if selection.without_human:
        parts.append(f"systems without a human score {', '.join(selection.without_human)}")
    if selection.dropped_metrics:
        parts.append(
            f"metrics without a score for every kept system {', '.join(selection.dropped_metrics)}"
        )
    return f"Left out of {key}: " + "; ".join(parts) + "." if parts else ""


META_CORRELATIONS = {
    "Pearson r": "pearson",
    "Spearman ρ": "spearman",
    "Kendall τb": "kendall",
    "Kendall τc": "kendall-c",
    "Kendall-like τ (WMT20)": "kendall-like",
    "acc23 (Deutsch et al. 2023)": "acc23",
}
#: Short axis / column label of each correlation (and of pairwise accuracy).
META_SYMBOLS = {
    "pearson": "Pearson r",
    "spearman": "Spearman ρ",
    "kendall": "Kendall τb",
    "kendall-c": "Kendall τc",
    "kendall-like": "Kendall-like τ",
    "acc23": "acc23",
    "pairwise-accuracy": "pairwise accuracy",
}
#: How each grouping is described in captions.
META_GROUPINGS = {
    "none": "no grouping (all segments at once)",
    "item": "grouped by item: one correlation per segment across systems, averaged",
    "system": "grouped by system: one correlation per system across segments, averaged",
}


def meta_variant(evaluation: MetaEvaluation, *, gold: str) -> str:
    """The caption naming what was computed: correlation, level, grouping and gold scores."""
    level = "segment level" if evaluation.level == "seg" else "system level"
    text = f"{META_SYMBOLS[evaluation.correlation]} with {gold} scores, {level}"
    if evaluation.level == "seg":
        text += f", {META_GROUPINGS[evaluation.grouping]}"
    return text


def meta_eval_table(
    lp: LanguagePairMetaEvaluation, clusters: pd.Series | None = None
) -> pd.DataFrame:
    """One row per metric, best first: rank (none, NA, where the correlation is undefined), the
    significance cluster (when ``clusters``,
    metric -> rank, e.g. PERM-BOTH's :attr:`stats.pairwise.grids.GridSignificance.rank`), the
    correlation, its bootstrap CI (when resampled), the acc23 epsilon (when acc23) and the
    groups averaged."""
    results = lp.results
    first = next(iter(results.values()))
    defined = np.array([np.isfinite(results[m].statistic) for m in lp.metrics], dtype=bool)
    rank = pd.array(np.cumsum(defined), dtype="Int64")  # an undefined correlation: no rank
    rank[~defined] = pd.NA
    table = pd.DataFrame({"rank": rank}, index=pd.Index(list(lp.metrics), name="metric"))
    if clusters is not None:
        table["cluster"] = pd.array(
            clusters.reindex(table.index).to_numpy(dtype=float), dtype="Float64"
        ).astype("Int64")
    table["correlation"] = [results[m].statistic for m in lp.metrics]
    if first.confidence_interval is not None:
        table["ci_low"] = [results[m].confidence_interval[0] for m in lp.metrics]
        table["ci_high"] = [results[m].confidence_interval[1] for m in lp.metrics]
    if first.correlation == "acc23":
        table["epsilon"] = [results[m].epsilon for m in lp.metrics]
    table["groups"] = [results[m].n_groups for m in lp.metrics]
    return table


def meta_group_statistics(lp: LanguagePairMetaEvaluation) -> dict[str, np.ndarray]:
    """Metric (best first) -> the finite correlations of its groups (items or systems)."""
    out = {}
    for m in lp.metrics:
        values = np.asarray(lp.results[m].group_statistics, dtype=float)
        out[m] = values[np.isfinite(values)]
    return out


def pairwise_accuracy_table(evaluation: MetaEvaluation) -> pd.DataFrame:
    """System-level pairwise accuracy: one row per metric, one column per language pair and
    ``all language pairs`` (pooled, Kocmi et al. 2021); rows by the pooled accuracy, best first
    (metrics missing from some language pair last)."""
    columns = {
        lp.lp: pd.Series({m: r.statistic for m, r in lp.results.items()}, dtype=float)
        for lp in evaluation.language_pairs
    }
    pooled = pd.Series(evaluation.across_language_pairs or {}, dtype=float)
    table = pd.DataFrame(columns)
    table["all language pairs"] = pooled
    order = list(pooled.index) + [m for m in table.index if m not in pooled.index]
    table = table.loc[order]
    table.index.name = "metric"
    return table


def soft_pairwise_table(analysis: SoftPairwiseAnalysis) -> pd.DataFrame:
    """Soft pairwise accuracy (Thompson et al. 2024): one row per metric, one column per
    language pair and ``average over language pairs``; rows by the average, best first
    (metrics missing from some language pair last)."""
    table = pd.DataFrame({lp: r.statistic for lp, r in analysis.language_pairs.items()})
    average = pd.Series(analysis.across_language_pairs, dtype=float)
    table["average over language pairs"] = average
    order = list(average.index) + [m for m in table.index if m not in average.index]
    table = table.loc[order]
    table.index.name = "metric"
    return table
