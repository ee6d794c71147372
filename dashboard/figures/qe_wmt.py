"""Figures of the "Quality estimation" page for WMT20-24 QE files: the systems x language
pairs heatmap, the leaderboard of one language pair (primary measure with its bootstrap CI,
coloured by significance cluster) and the pairwise grid of one language pair."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.grids import significance_grid
from dashboard.figures.style import PALETTE, _category_rows, base_layout_dict

__all__ = ["qe_lp_heatmap", "qe_leaderboard", "qe_pair_grid"]

MEASURE_LABELS = {
    "spearman": "Spearman ρ",
    "pearson": "Pearson r",
    "kendall": "Kendall τ",
    "mcc": "MCC",
}


def qe_lp_heatmap(
    statistic: pd.DataFrame,
    *,
    measure: str,
    average: pd.Series | None = None,
    pooled=(),
    title: str | None = None,
) -> go.Figure:
    """Systems (rows, best average first) x language pairs (columns) of ``measure``; an
    ``average`` column when given (the task's multilingual figure). Blank cells: no
    submission. ``z`` holds the values, ``text`` them to 3 decimals; the axes are titled
    "language pair" (x, on top) and "system" (y). The average of a system in ``pooled`` (a
    method over separately submitted files: not a figure the task published) is marked "†";
    ``layout.meta["pooled"]`` lists them."""
    frame = statistic.copy()
    if average is not None and len(average):
        frame["average"] = average.reindex(frame.index)
    key = frame["average"] if "average" in frame else frame.mean(axis=1)
    frame = frame.loc[key.sort_values(ascending=False, na_position="last").index]
    z = frame.to_numpy(dtype=float)
    text = np.where(np.isnan(z), "", np.vectorize(lambda v: f"{v:.3f}")(np.nan_to_num(z)))
    marked = [str(s) for s in frame.index if s in set(pooled)] if "average" in frame else []
    if marked:
        col = list(frame.columns).index("average")
        text = text.astype(object)
        for i, s in enumerate(frame.index):
            if str(s) in marked and text[i, col]:
                text[i, col] = f"{text[i, col]} †"
    label = MEASURE_LABELS.get(measure, measure)
    height = max(260, 34 * len(frame) + 140)
    layout = base_layout_dict(title=title, height=height)
    layout["yaxis"] = {
        "autorange": "reversed",
        "type": "category",
        "showgrid": False,
        "title": {"text": "system"},
    }
    layout["xaxis"] = {
        "type": "category",
        "side": "top",
        "showgrid": False,
        "title": {"text": "language pair"},
    }
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=[str(c) for c in frame.columns],
            y=[str(i) for i in frame.index],
            text=text,
            texttemplate="%{text}",
            colorscale="Blues",
            colorbar={"title": {"text": label}},
            hovertemplate=f"%{{y}}, %{{x}}: {label} = %{{z:.4f}}<extra></extra>",
            xgap=1,
            ygap=1,
            name=measure,
        ),
        layout=layout,
    )
    fig.layout.meta = {**(fig.layout.meta or {}), "pooled": marked}
    return fig


def qe_leaderboard(table: pd.DataFrame, *, measure: str, title: str | None = None) -> go.Figure:
    """One marker per system (best at the top) at its ``measure`` with a horizontal bar from
    ``{measure}_low`` to ``{measure}_high``, one trace per significance cluster
    (``table['rank']``, legend "cluster k"). Row labels over
    :data:`~dashboard.figures.style.MAX_TICK_CHARS` characters (WMT QE ``team/method`` names)
    are shortened with "…" (:func:`~dashboard.figures.style.short_labels`), so in a half-page
    column the bars keep most of the width; the categories, hover and
    :func:`~dashboard.figures.style.shortened_names` (the page's legend, exports' key) keep the
    full names."""
    label = MEASURE_LABELS.get(measure, measure)
    fig = go.Figure(layout=base_layout_dict(title=title, height=max(240, 30 * len(table) + 120)))
    for k, (rank, part) in enumerate(table.groupby("rank", sort=True)):
        v = part[measure].to_numpy(dtype=float)
        fig.add_trace(
            go.Scatter(
                x=v,
                y=[str(s) for s in part.index],
                mode="markers",
                name=f"cluster {int(rank)}",
                marker={"color": PALETTE[k % len(PALETTE)], "size": 10},
                error_x={
                    "type": "data",
                    "symmetric": False,
                    "array": part[f"{measure}_high"].to_numpy(dtype=float) - v,
                    "arrayminus": v - part[f"{measure}_low"].to_numpy(dtype=float),
                },
                hovertemplate=f"%{{y}}: {label} = %{{x:.4f}}<extra>cluster {int(rank)}</extra>",
            )
        )
    fig.update_yaxes(**_category_rows([str(s) for s in table.index]))
    fig.update_xaxes(title_text=label)
    return fig


def qe_pair_grid(
    pvalue: pd.DataFrame,
    *,
    alpha: float,
    statistic: pd.DataFrame | None = None,
    measure: str,
    test: str,
    clusters=None,
    title: str | None = None,
) -> go.Figure:
    """The pairwise grid of one language pair: cell (row, column) coloured when the row system
    correlates significantly better (``test``: Williams, PERM-BOTH or paired bootstrap); hover
    adds the difference of ``measure`` (row minus column)."""
    label = MEASURE_LABELS.get(measure, measure)
    hover = None
    if statistic is not None:
        hover = {
            f"Δ {label}": (statistic.reindex(index=pvalue.index, columns=pvalue.columns), ".4f")
        }
    fig = significance_grid(
        pvalue,
        alpha=alpha,
        hover=hover,
        title=title,
        verb=f"has a higher {label} than",
        clusters=clusters,
    )
    fig.layout.meta = {**(fig.layout.meta or {}), "test": test, "measure": measure}
    return fig
