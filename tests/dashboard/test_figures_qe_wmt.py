"""Figures of the WMT QE part of the page, through fig.data / fig.layout."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.figures.qe_wmt import qe_leaderboard, qe_lp_heatmap, qe_pair_grid
from dashboard.figures.style import (
    BASE_FONT_SIZE,
    MAX_TICK_CHARS,
    _label_px,
    shortened_names,
    with_full_names,
)
from stats.readers.qe_wmt import system_label
from tests._legible_data import QE_TEAMS


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


def test_leaderboard_shortens_long_team_method_labels_keeping_full_names():
    # the generated WMT23 QE teams (tests/_legible_data.py) under the reader's own labels
    names = [system_label(team, False, method) for team, method, _ in QE_TEAMS]
    n = len(names)
    v = np.linspace(0.8, 0.2, n)
    t = pd.DataFrame(
        {"spearman": v, "spearman_low": v - 0.1, "spearman_high": v + 0.1,
         "rank": [1, 1, 2, 2, 3, 3]},
        index=names,
    )  # fmt: skip
    fig = qe_leaderboard(t, measure="spearman")
    ya = fig.layout.yaxis
    assert list(ya.tickvals) == list(ya.categoryarray) == names  # rows best first, whole
    ticks = list(ya.ticktext)
    assert max(len(s) for s in ticks) == MAX_TICK_CHARS and len(set(ticks)) == n
    # at 1400 px the chart stands in a 462 px half column: labels within a third of it
    # (the full names took 290 px)
    assert _label_px(ticks, BASE_FONT_SIZE) <= 462 / 3 < _label_px(names, BASE_FONT_SIZE)
    # hover and the page's legend / export key have the full names
    assert [y for tr in fig.data for y in tr.y] == names
    assert all("%{y}" in tr.hovertemplate for tr in fig.data)
    long = [s for s in names if len(s) > MAX_TICK_CHARS]
    assert long and sorted(shortened_names(fig).values()) == sorted(long)
    key = with_full_names(fig).layout.annotations[-1].text
    assert all(s in key for s in long)
    assert list(t.index) == names  # the table (CSV/LaTeX exports) keeps them


def test_heatmap_marks_a_pooled_average():
    """A method averaged over separately submitted per-pair files is not a figure the task
    published: its average cell carries "†"."""
    stat = pd.DataFrame(
        {"en-de": [0.5, 0.4], "zh-en": [0.3, 0.6]}, index=["t/pooled", "t/multilingual/m"]
    )
    avg = stat.mean(axis=1)
    fig = qe_lp_heatmap(stat, measure="spearman", average=avg, pooled=["t/pooled"])
    (trace,) = fig.data
    rows = list(trace.y)
    assert trace.text[rows.index("t/pooled")][-1] == "0.400 †"
    assert trace.text[rows.index("t/multilingual/m")][-1] == "0.500"
    assert fig.layout.meta["pooled"] == ["t/pooled"]
    assert "†" not in str(qe_lp_heatmap(stat, measure="spearman", average=avg).data[0].text)
