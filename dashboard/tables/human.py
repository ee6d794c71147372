"""Tables and display strings of the Tests vs humans page (accuracy, agreement, rankings).

Pure: pandas in, pandas or strings out; no Streamlit, no caching."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from stats.human.accuracy import OUTCOMES, AccuracyResult
from stats.human.ranking import HumanRankingResult

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
