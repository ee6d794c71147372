"""Tables and display strings of the MT systems page (system scores, p-values, the
sacreBLEU-style systems table).

Pure: pandas in, pandas or strings out; no Streamlit, no caching."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from stats.mt.baseline_table import SystemsTableResult
from stats.mt.randomized import PairwiseSignificanceResult

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


def mt_baseline_table(
    result: SystemsTableResult, alpha: float
) -> tuple[pd.DataFrame, pd.DataFrame]:
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
        "baseline"
        if s == result.baseline
        else (
            "† " + ", ".join(m for m in result.metrics if significant.at[s, m])
            if significant.loc[s].any()
            else ""
        )
        for s in result.systems
    ]
    marks = pd.DataFrame(False, index=table.index, columns=table.columns)
    marks[list(dagger)] = pd.DataFrame(dagger, index=table.index)
    return table, marks
