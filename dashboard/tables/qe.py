"""Tables of the Quality estimation page (Pearson vs MAE/RMSE ranks).

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
