"""Tables, hover text and display strings of the dashboard pages, shaped from the results of
:mod:`dashboard.data` (pure: pandas in, pandas or strings out; no Streamlit, no caching).

One section per page; the pages show these with :func:`dashboard.components.show_table`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from stats.accuracy import OUTCOMES, AccuracyResult
from stats.analyses import LanguagePairAnalysis, LanguagePairTests
from stats.analyses.meta_eval import LanguagePairMetaEvaluation, MetaEvaluation
from stats.analyses.meta_significance import SoftPairwiseAnalysis
from stats.grids import GridSignificance
from stats.human_ranking import HumanRankingResult
from stats.power import POWER
from stats.qe import QEEvaluationResult, RescaleResult
from stats.randomized import PairwiseSignificanceResult
from stats.systems_table import SystemsTableResult


def side_label(alternative: str) -> str:
    """The label of a test's ``alternative``: "one-sided" for ``"greater"``, else "two-sided"."""
    return "one-sided" if alternative == "greater" else "two-sided"


#: Multiple-comparison corrections (:data:`stats.multiple.CORRECTIONS`) -> widget label.
CORRECTION_LABELS = {"none": "none", "holm": "Holm", "bh": "BH"}
_CORRECTION_NOTES = {
    "none": "raw p-values, no multiple-comparison correction",
    "holm": "p-values adjusted with Holm's method over the grid's pairs (family-wise error, "
    "Holm 1979)",
    "bh": "p-values adjusted with Benjamini-Hochberg over the grid's pairs (false discovery "
    "rate, Benjamini & Hochberg 1995)",
}


def correction_note(significance: GridSignificance) -> str:
    """The caption of a grid's p-values: which correction, the test's sidedness, and how the
    clusters were read (:class:`stats.grids.GridSignificance`)."""
    return (
        f"Coloured by {_CORRECTION_NOTES[significance.correction]}; "
        f"{significance.test_note}. Dark lines separate the significance clusters at "
        f"α = {significance.alpha:g} (rank 1 top left; an item opens a new cluster when an "
        "item of the current cluster beats it significantly, as in the WMT metrics findings)."
    )


def p_label(correction: str) -> str:
    """How a grid's hover names its p-values: "p", or "p (Holm)" / "p (BH)" when adjusted."""
    return "p" if correction == "none" else f"p ({CORRECTION_LABELS[correction]})"


# ---- Metrics vs humans ----

#: Radio labels of the correlation kinds -> the kind.
CORRELATION_KINDS = {"Pearson": "pearson", "Spearman": "spearman", "Kendall": "kendall"}
#: Symbol of each correlation kind.
CORRELATION_SYMBOLS = {"pearson": "r", "spearman": "ρ", "kendall": "τ"}

_BLEU_VARIANT = re.compile(r"bleu(?!rt)", re.IGNORECASE)
#: A name part that is BLEU itself: BLEU, sentBLEU, BLEU4 (not SIMPBLEU, mBLEU, BLEURT).
_BLEU_PART = re.compile(r"(sent)?bleu\d*", re.IGNORECASE)
#: A name part naming another metric, which a "sacreBLEU-" prefix (the tool) does not make BLEU.
_OTHER_METRIC_PART = re.compile(r"chrf\d*\+*|ter|wer|per|cder", re.IGNORECASE)


def _bleu_rank(name) -> tuple[int, int] | None:
    """``(class, number of other parts)`` of a BLEU name for :func:`default_baseline`, or
    ``None``: class 0 names BLEU in a part of its own (BLEU_4_closest_cased, BLEU-refA,
    sacreBLEU-BLEU), class 1 only by the tool (sacreBLEU, sacreBLEU-13a; not sacreBLEU-chrF)."""
    parts = [p for p in re.split(r"[^0-9A-Za-z]+", str(name)) if p]
    rest = [p for p in parts if not _BLEU_PART.fullmatch(p)]
    if len(rest) < len(parts):
        return 0, len(rest)
    tool = [p for p in parts if p.lower() == "sacrebleu"]
    if tool and not any(_OTHER_METRIC_PART.fullmatch(p) for p in parts):
        return 1, len(parts) - len(tool)
    return None


def default_baseline(metrics: Sequence[str]) -> str | None:
    """The BLEU metric to compare against, or ``None`` when there is none.

    The names WMT uses for BLEU are split into parts at every character that is not a letter
    or digit ("BLEU_4_closest_cased" -> BLEU, 4, closest, cased). In order of preference:

    1. a name that is 'BLEU' (any case);
    2. a name with a part that is BLEU itself -- BLEU, sentBLEU or BLEU4
       (BLEU_4_closest_cased, sacreBLEU-BLEU, BLEU-refA);
    3. a name with the part sacreBLEU and none naming another metric (sacreBLEU,
       sacreBLEU-13a; not sacreBLEU-chrF);
    4. any other BLEU variant: a name containing 'bleu' *not* followed by 'rt' (SIMPBLEU,
       mBLEU; BLEURT is a different, trained metric), the first in ``metrics``.

    Within 2 and 3 the name with the fewest other parts wins, then the first alphabetically
    (sacreBLEU-BLEU before sacreBLEU-BLEU-refB, BLEU-refA before BLEU-refB), whatever the order
    of ``metrics``. With none, ``None`` is returned and the page picks its own fallback (the
    metrics page takes the metric with the lowest |r|, the one the others are tested against
    most usefully).
    """
    for name in metrics:
        if str(name).lower() == "bleu":
            return name
    ranked = [(rank, str(m).lower(), m) for m in metrics if (rank := _bleu_rank(m)) is not None]
    if ranked:
        return min(ranked, key=lambda t: t[:2])[2]
    return next((name for name in metrics if _BLEU_VARIANT.search(str(name))), None)


def correlation_table(analysis: LanguagePairAnalysis, kind: str = "pearson") -> pd.DataFrame:
    """One row per metric: r, rho, tau (signed), n, and the leave-one-out influence; rows
    ordered by ``|kind|`` with humans, highest first."""
    corr = analysis.correlation
    loo = analysis.influence
    table = pd.DataFrame(
        {
            "pearson": corr.pearson,
            "spearman": corr.spearman,
            "kendall": corr.kendall,
            "n": corr.n,
            "pearson_pvalue": corr.pearson_pvalue,
            "most_influential": loo.most_influential.reindex(corr.pearson.index),
            "pearson_without": loo.max_change.reindex(corr.pearson.index) + corr.pearson,
        }
    )
    table.index.name = "metric"
    order = table[kind].abs().sort_values(ascending=False, kind="stable", na_position="last")
    return table.loc[order.index]


def metric_order(
    analyses: Mapping[str, LanguagePairTests | LanguagePairAnalysis], first: str | None = None
) -> list[str]:
    """One metric order for every panel of a page: the Williams order (|r| with humans, highest
    first) of language pair ``first``, then the metrics it lacks by their mean rank over the
    language pairs that have them (ties in first-seen order)."""
    orders = [list(a.williams.order) for a in analyses.values()]
    head = list(analyses[first].williams.order) if first in analyses else []
    seen = list(dict.fromkeys(m for o in orders for m in o))
    ranks = {m: np.mean([o.index(m) / max(len(o) - 1, 1) for o in orders if m in o]) for m in seen}
    rest = sorted((m for m in seen if m not in set(head)), key=lambda m: ranks[m])
    return head + rest


def williams_grid_note(lp: str, williams, alpha: float) -> str | None:
    """Why the Williams grid of ``lp`` holds one test or none, in words (``None`` when it holds
    more): one metric has nothing to be tested against, two metrics make a single test (its
    outcome spelled out), and undefined correlations (a constant metric) leave every cell
    untested. (Fewer than 4 systems are an input error of :mod:`stats.analyses`.)"""
    order = list(williams.order)
    p = williams.pvalue.to_numpy(dtype=float)
    tested = np.argwhere(np.isfinite(p))
    if len(order) < 2:
        return (
            f"{lp} has a single metric ({', '.join(order) or 'none'}): there is nothing to test "
            f"it against. Upload scores of a second metric for {lp} to compare metrics."
        )
    if len(tested) == 0:
        return (
            f"No Williams test could be computed for {lp}: the metrics' correlations with "
            "humans are undefined (constant scores). The grid stays empty."
        )
    if len(tested) > 1:
        return None
    i, j = tested[0]
    pvalue = p[i, j]
    verdict = "significantly" if pvalue < alpha else "not significantly"
    return (
        f"{lp} has only two metrics, so its grid is a single Williams test: {order[i]} "
        f"correlates {verdict} better with humans than {order[j]} (p = {pvalue:.3g}, "
        f"α = {alpha:g}, n = {williams.n} systems). More metrics give a fuller grid."
    )


def sparse_grid_lps(analyses: Mapping[str, LanguagePairTests | LanguagePairAnalysis]) -> list:
    """The language pairs whose Williams grid holds at most one test (see
    :func:`williams_grid_note`)."""
    return [
        key
        for key, a in analyses.items()
        if np.isfinite(a.williams.pvalue.to_numpy(dtype=float)).sum() <= 1
    ]


def significance_summary(
    analyses: Mapping[str, LanguagePairTests | LanguagePairAnalysis],
    *,
    alpha: float,
    baseline: str | None,
    significance: Mapping[str, GridSignificance] | None = None,
) -> pd.DataFrame:
    """Per language pair: systems, metrics, pairs tested, share of pairs significantly
    different at ``alpha``, best metric, and the metrics significantly beating ``baseline``.

    With ``significance`` (language pair -> :class:`stats.grids.GridSignificance` of its
    Williams grid), "significant" reads the adjusted p-values and a last column lists the
    metrics of the top significance cluster."""
    rows = []
    for key, a in analyses.items():
        w = a.williams
        m = len(w.order)
        n_pairs = m * (m - 1) // 2
        if significance is None:
            significant = w.significant(alpha)
        else:
            adjusted = significance[key].pvalue_adjusted
            significant = adjusted.lt(alpha) & adjusted.notna()
        sig = significant.to_numpy()
        if baseline is not None and baseline in w.order:
            beats = list(significant.index[significant[baseline].to_numpy()])
            beats_text = ", ".join(beats) if beats else "none"
        else:
            beats, beats_text = [], "(baseline absent)"
        rows.append(
            {
                "language pair": key,
                "systems": w.n,
                "metrics": m,
                "pairs": n_pairs,
                "significant pairs": int(sig.sum()),
                "share significant": sig.sum() / n_pairs if n_pairs else float("nan"),
                "best |r|": w.order[0],
                "beat baseline": len(beats),
                "metrics significantly beating baseline": beats_text,
            }
        )
        if significance is not None:
            rank = significance[key].rank
            rows[-1]["top cluster"] = ", ".join(map(str, rank.index[rank.to_numpy() == 1]))
    return pd.DataFrame(rows).set_index("language pair")


def cluster_table(
    values: pd.Series, rank: pd.Series, *, value_name: str = "correlation"
) -> pd.DataFrame:
    """The items of a significance grid best first (``rank``'s order, e.g.
    :attr:`stats.grids.GridSignificance.rank`) with their significance cluster (1 = top) and
    their value (``values``, e.g. each metric's correlation with humans) as ``value_name``."""
    order = list(rank.index)
    return pd.DataFrame(
        {
            "cluster": rank.to_numpy(dtype=int),
            value_name: values.reindex(order).to_numpy(dtype=float),
        },
        index=pd.Index(order, name="metric"),
    )


def power_line(n: int, detectable: float, alpha: float, power: float = POWER) -> str:
    """The Williams power sentence of one language pair: the median smallest difference in r
    detected with ``power`` at ``alpha`` (:func:`stats.power.median_detectable_difference`),
    phrased as the CLI's ``williams --power``."""
    if detectable != detectable:
        return f"**Power:** with {n} systems, no pair of metrics has a detectable difference."
    return (
        f"**Power:** with {n} systems, differences in r below **{detectable:.3f}** (median over "
        f"the metric pairs) are not detected with {power:.0%} power at α = {alpha:g} "
        "(Williams test, noncentral-t approximation)."
    )


# ---- Metrics vs humans: segment-level meta-evaluation ----


#: Correlation choices of the segment-level section: label -> :func:`stats.meta_eval.meta_correlation`
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
    """One row per metric, best first: rank, the significance cluster (when ``clusters``,
    metric -> rank, e.g. PERM-BOTH's :attr:`stats.grids.GridSignificance.rank`), the
    correlation, its bootstrap CI (when resampled), the acc23 epsilon (when acc23) and the
    groups averaged."""
    results = lp.results
    first = next(iter(results.values()))
    table = pd.DataFrame(
        {"rank": np.arange(1, len(lp.metrics) + 1)},
        index=pd.Index(list(lp.metrics), name="metric"),
    )
    if clusters is not None:
        table["cluster"] = clusters.reindex(table.index).to_numpy()
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


# ---- MT systems ----

#: Text metrics offered on the MT systems and Tests vs humans pages: label -> stats metric name.
TEXT_METRICS = {"BLEU": "bleu", "chrF": "chrf", "TER": "ter"}
#: Display names of the three randomized tests (paper Figure 8 panel titles), in the paper's
#: order.
MT_TEST_LABELS = {
    "paired-bootstrap": "Paired bootstrap resampling",
    "bootstrap": "Bootstrap resampling",
    "approximate-randomization": "Approximate randomization",
}


def mt_system_table(result: PairwiseSignificanceResult) -> pd.DataFrame:
    """Systems best first with score and bootstrap CI, indexed by system."""
    level = round(result.confidence_level * 100)
    table = result.system_table().set_index("system")
    table.index.name = "system"
    return table.rename(
        columns={
            "score": result.label,
            "ci_low": f"{level}% CI low",
            "ci_high": f"{level}% CI high",
        }
    )


def mt_pvalue_table(results: Mapping[str, PairwiseSignificanceResult]) -> pd.DataFrame:
    """One row per pair (better, worse) with the observed difference, its bootstrap CI and
    the p-value of every test, for export."""
    merged: pd.DataFrame | None = None
    for test, res in results.items():
        pairs = res.pairs().set_index(["better", "worse"])
        if merged is None:
            merged = pairs[["statistic", "diff_ci_low", "diff_ci_high"]].copy()
        merged[f"p ({MT_TEST_LABELS.get(test, test)})"] = pairs["pvalue"]
    if merged is None:
        return pd.DataFrame()
    return merged.reset_index()


#: sacreBLEU's two paired tests as the systems table offers them (its option in brackets)
MT_TABLE_TESTS = {
    "paired-bootstrap": "Paired bootstrap (sacreBLEU --paired-bs)",
    "approximate-randomization": "Approximate randomization (sacreBLEU --paired-ar)",
}


def mt_baseline_table(result: SystemsTableResult, alpha: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The sacreBLEU-style systems table, indexed by system (the baseline first): per metric
    its score, bootstrap mean μ, CI half-width and p-value against the baseline, then
    "vs baseline" ("baseline", or † and the metrics on which the system differs significantly
    at ``alpha``). Also the † mask over the table (True on those metrics' score cells), for
    the export marks."""
    level = round(result.confidence_level * 100)
    significant = result.significant(alpha)
    columns, dagger = {}, {}
    for m in result.metrics:
        columns[m] = result.score[m]
        columns[f"{m} μ"] = result.mean[m]
        columns[f"{m} ± {level}% CI"] = result.ci[m]
        columns[f"{m} p"] = result.pvalue[m]
        dagger[m] = significant[m]
    table = pd.DataFrame(columns, index=pd.Index(result.systems, name="system"))
    table["vs baseline"] = [
        "baseline" if s == result.baseline
        else ("† " + ", ".join(m for m in result.metrics if significant.at[s, m])
              if significant.loc[s].any() else "")
        for s in result.systems
    ]
    marks = pd.DataFrame(False, index=table.index, columns=table.columns)
    marks[list(dagger)] = pd.DataFrame(dagger, index=table.index)
    return table, marks


# ---- Quality estimation ----


def qe_rank_table(result: QEEvaluationResult, rescale: RescaleResult) -> pd.DataFrame:
    """The page's main table, one row per system in Pearson order: r, its rank, MAE, its rank,
    the rank change (MAE rank - r rank; positive = MAE ranks the system lower than r does),
    RMSE and its rank, Spearman, and MAE/RMSE after rescaling to ``rescale.sd_ratio``."""
    scores = result.scores
    order = list(result.order)
    ranks = scores.ranks.loc[order]
    table = pd.DataFrame(
        {
            "pearson": scores.statistic.loc[order],
            "rank_pearson": ranks["pearson"],
            "mae": scores.mae.loc[order],
            "rank_mae": ranks["mae"],
            "rank_change": ranks["mae"] - ranks["pearson"],
            "rmse": scores.rmse.loc[order],
            "rank_rmse": ranks["rmse"],
            "spearman": scores.spearman.loc[order],
            "mae_rescaled": rescale.mae_rescaled.loc[order],
            "rmse_rescaled": rescale.rmse_rescaled.loc[order],
        }
    )
    table.index.name = "system"
    return table


# ---- Tests vs humans ----

#: Column labels of the paper's Tables 1-2.
HUMAN_TEST_LABELS = {
    "paired-bootstrap": "Paired Bootst. Resamp.",
    "bootstrap": "Bootst. Resamp.",
    "approximate-randomization": "Approx. Rand.",
}


def score_metric_choices(names: Sequence[str]) -> dict[str, str]:
    """Metrics of a segment-score file (its METRIC values, ``names``): display name -> the
    ``metric`` argument of :func:`dashboard.data.mt_systems.pairwise`; a file without a METRIC
    column is one metric, "mean score" (argument ``""``)."""
    return {n: n for n in names} if names else {"mean score": ""}


def most_accurate(result: AccuracyResult, alpha: float) -> tuple[float, str, list[str]]:
    """The highest accuracy at ``alpha``, a short text naming who reaches it (ties summarised)
    and every "metric / test label" reaching it."""
    best = result.table[result.table["alpha"] == alpha].sort_values(
        "accuracy", ascending=False, kind="stable"
    )
    top = best.iloc[0]
    ties = best[np.isclose(best["accuracy"].to_numpy(dtype=float), float(top["accuracy"]))]
    tied = [
        f"{m} / {HUMAN_TEST_LABELS[t]}" for m, t in zip(ties["metric"], ties["test"], strict=True)
    ]
    if len(ties) == 1:
        who = tied[0]
    elif len(ties) == len(best) and ties["metric"].nunique() == 1:
        who = f"{top['metric']}: all {len(ties)} tests tie"
    elif len(ties) == len(best):
        who = f"all {len(ties)} metric × test combinations tie"
    else:
        who = f"{len(ties)} tie: " + "; ".join(tied)
    return float(top["accuracy"]), who, tied


def human_paper_table(result: AccuracyResult) -> pd.DataFrame:
    """The accuracy table as laid out in the paper's Tables 1-2: one row per (alpha, metric),
    per test the number of correct conclusions ("Conc.") and "Acc. (%)" with its exact 95%
    CI, e.g. ``"80.3 [68.7, 89.1]"``."""
    t = result.table
    rows = []
    for a in result.alphas:
        for m in result.metrics:
            row = {"alpha": f"{a:g}", "Metric": m}
            for test in result.tests:
                hit = t[(t["alpha"] == a) & (t["metric"] == m) & (t["test"] == test)]
                label = HUMAN_TEST_LABELS.get(test, test)
                if hit.empty:
                    row[f"{label}: Conc."] = None
                    row[f"{label}: Acc. (%)"] = "–"
                    continue
                r = hit.iloc[0]
                row[f"{label}: Conc."] = int(r["correct"])
                row[f"{label}: Acc. (%)"] = (
                    f"{100 * r['accuracy']:.1f} [{100 * r['ci_low']:.1f}, {100 * r['ci_high']:.1f}]"
                )
            rows.append(row)
    return pd.DataFrame(rows)


def conclusion_text(codes, a, b) -> np.ndarray:
    """Vectorised: "<a> better" (+1), "<b> better" (-1), "no significant difference" (0)."""
    codes = np.asarray(codes)
    a = np.asarray(a, dtype=object)
    b = np.asarray(b, dtype=object)
    return np.where(
        codes > 0, a + " better", np.where(codes < 0, b + " better", "no significant difference")
    )


def human_agreement_details(result: AccuracyResult, alpha: float) -> pd.DataFrame:
    """Hover text for :func:`dashboard.figures.agreement_heatmap` at ``alpha``: per cell
    "humans: ...; test: ...", same rows/columns as ``result.agreement_matrix(alpha)``."""
    ag = result.agreement[result.agreement["alpha"] == alpha]
    label = ag["metric"] + " / " + ag["test"]
    pair = ag["system_a"] + " vs " + ag["system_b"]
    a, b = ag["system_a"].to_numpy(dtype=object), ag["system_b"].to_numpy(dtype=object)
    text = (
        "humans: "
        + conclusion_text(ag["gold"], a, b).astype(object)
        + "; test: "
        + conclusion_text(ag["conclusion"], a, b).astype(object)
    )
    frame = pd.DataFrame({"row": label, "pair": pair, "text": text})
    out = frame.pivot(index="row", columns="pair", values="text")
    return out.reindex(index=pd.unique(label), columns=pd.unique(pair))


def human_agreement(result: AccuracyResult, alpha: float) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(outcome codes, hover text) for :func:`dashboard.figures.agreement_heatmap` at ``alpha``,
    rows labelled "metric · test label" (the paper's test names)."""
    outcome = result.agreement_matrix(alpha)
    details = human_agreement_details(result, alpha)
    names = {
        f"{m} / {t}": f"{m} · {HUMAN_TEST_LABELS.get(t, t)}"
        for m in result.metrics
        for t in result.tests
    }
    return outcome.rename(index=names), details.rename(index=names)


def human_disagreements(result: AccuracyResult, alpha: float) -> pd.DataFrame:
    """The pairs on which a test and the humans disagree at ``alpha``, readable."""
    ag = result.agreement[(result.agreement["alpha"] == alpha) & ~result.agreement["correct"]]
    a, b = ag["system_a"].to_numpy(dtype=object), ag["system_b"].to_numpy(dtype=object)
    return pd.DataFrame(
        {
            "metric": ag["metric"].to_numpy(),
            "test": ag["test"].to_numpy(),
            "pair": a + " vs " + b,
            "humans": conclusion_text(ag["gold"], a, b),
            "test says": conclusion_text(ag["conclusion"], a, b),
            "outcome": np.asarray(OUTCOMES, dtype=object)[ag["outcome"].to_numpy(dtype=int)],
        }
    )


def human_ranking_table(result: HumanRankingResult) -> pd.DataFrame:
    """A findings-style human ranking: one row per system, best first, with its cluster (1 =
    top; the findings draw a line where the cluster changes), mean z, mean raw, segments."""
    frame = result.to_frame()
    return frame.rename(
        columns={"cluster": "cluster", "z": "mean z", "raw": "mean raw", "n": "segments"}
    )
