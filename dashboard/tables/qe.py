"""Tables of the Quality estimation page (Pearson vs MAE/RMSE ranks; every language pair of
a WMT QE comparison in one table).

Pure: pandas in, pandas or strings out; no Streamlit, no caching."""

from __future__ import annotations

import pandas as pd

from stats.qe.graham import QEEvaluationResult, RescaleResult


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


def qe_all_pairs(result, primary: str) -> pd.DataFrame:
    """Every language pair of a :class:`stats.qe.wmt.QEComparisonResult` in one table, indexed
    ``(lp, system)``, each pair's systems best first by ``primary``: the three correlations
    with their bootstrap bounds (primary first), MAE and RMSE."""
    measures = [primary, *(m for m in ("spearman", "pearson", "kendall") if m != primary)]
    cols = [c for m in measures for c in (m, f"{m}_low", f"{m}_high")] + ["mae", "rmse"]
    frames = {lp: r.table[cols] for lp, r in result.language_pairs.items()}
    table = pd.concat(frames, names=["lp", "system"])
    return table
