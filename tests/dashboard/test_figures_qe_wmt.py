"""Figures of the WMT QE part of the page, through fig.data / fig.layout."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.figures.qe_wmt import qe_leaderboard, qe_lp_heatmap, qe_pair_grid


def test_heatmap_orders_by_average_and_blanks_missing():
    stat = pd.DataFrame(
        {"en-de": [0.5, 0.7, 0.2], "zh-en": [0.4, np.nan, 0.3]}, index=["A", "B", "C"]
    )
    fig = qe_lp_heatmap(stat, measure="spearman", average=pd.Series({"A": 0.45, "C": 0.25}))
    tr = fig.data[0]
    assert list(tr.x) == ["en-de", "zh-en", "average"]
    assert list(tr.y) == ["A", "C", "B"]  # B covers one lp only: no average, last
    assert tr.text[2][1] == "" and tr.text[0][0] == "0.500"


def test_leaderboard_one_trace_per_cluster_with_ci():
    t = pd.DataFrame(
        {
            "spearman": [0.8, 0.7, 0.3],
            "spearman_low": [0.7, 0.6, 0.1],
            "spearman_high": [0.9, 0.8, 0.4],
            "rank": [1, 1, 2],
        },
        index=["A", "B", "C"],
    )
    fig = qe_leaderboard(t, measure="spearman")
    assert [tr.name for tr in fig.data] == ["cluster 1", "cluster 2"]
    assert np.allclose(fig.data[0].error_x.array, [0.1, 0.1])
    assert np.allclose(fig.data[1].error_x.arrayminus, [0.2])


def test_pair_grid_marks_significant_cells_and_meta():
    p = pd.DataFrame(
        [[np.nan, 0.01, 0.2], [np.nan, np.nan, 0.5], [np.nan] * 3],
        index=list("ABC"),
        columns=list("ABC"),
    )
    stat = p.notna() * 0.1
    fig = qe_pair_grid(
        p, alpha=0.05, statistic=stat, measure="kendall", test="perm-both", clusters=[1, 2, 2]
    )
    assert fig.layout.meta["test"] == "perm-both" and fig.layout.meta["clusters"] == [1, 2, 2]
    z = np.asarray(fig.data[0].z, dtype=float)
    assert z[0, 1] > 0 > z[0, 2]  # significant vs tested, not significant
    assert "Kendall" in fig.data[0].hovertemplate
