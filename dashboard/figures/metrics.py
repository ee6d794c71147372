"""Figures of the "Metrics vs humans" page (Graham & Baldwin, 2014)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

import stats  # lazy: a name is imported when first used
from dashboard.figures.clusters import adjusted_grid_args
from dashboard.figures.grids import _williams_hover, in_order, significance_grid
from dashboard.figures.style import (
    HIGHLIGHT,
    PALETTE,
    _category_rows,
    base_layout,
    escape_html,
    format_number,
    subplots,
)

#: Warning of Graham & Baldwin (2014, Sec. 4) shown beside every Williams grid.
WINS_NOT_A_RANKING = (
    "The number of metrics a metric significantly beats is **not a ranking**: the power of the "
    "Williams test depends on how strongly the two metrics correlate with each other, so a "
    "metric that correlates with many others has an unfair advantage. Read each pair on its "
    "own (Graham & Baldwin, 2014)."
)


def metric_scatter(
    human: pd.Series,
    metrics: pd.DataFrame,
    selected: Sequence[str],
    *,
    pearson: Mapping[str, float],
    spearman: Mapping[str, float],
    most_influential: Mapping[str, str | None] | None = None,
    r_without: Mapping[str, float] | None = None,
    zscore: bool = False,
    cols: int | None = None,
    human_label: str = "Human score",
    title: str | None = None,
) -> go.Figure:
    """Human score (x) against metric score (y), one panel per selected metric (paper Fig. 1).

    Panel titles carry r and rho; hover names the system. With ``zscore`` both axes are
    standardised (mean 0, sd 1; :func:`stats.zscores`: a constant metric has no z-scores, its
    panel is empty). The system in ``most_influential[metric]`` (the one whose
    removal changes r the most) is ringed in :data:`HIGHLIGHT` and labelled, with the r
    without it (``r_without[metric]``) in the panel title.

    Returns
    -------
    go.Figure
        Per panel, in ``selected`` order: a "systems" scatter (x = human, y = metric, ``text``
        = system names) and, when given, an "influential" scatter with that one system.
    """
    selected = [m for m in selected if m in metrics.columns]
    if not selected:
        raise ValueError("no metric selected for the scatter plot")
    ncols = cols or min(len(selected), 3)
    nrows = math.ceil(len(selected) / ncols)
    titles = []
    for m in selected:
        head = (
            f"<b>{escape_html(m)}</b>: r = {format_number(pearson.get(m))}, "
            f"ρ = {format_number(spearman.get(m))}"
        )
        sysname = (most_influential or {}).get(m)
        if sysname is not None and r_without is not None:
            head += f"<br><span style='font-size:0.85em'>without {escape_html(sysname)}: r = {format_number(r_without.get(m))}</span>"
        titles.append(head)
    fig = subplots(
        rows=nrows,
        cols=ncols,
        subplot_titles=titles,
        horizontal_spacing=0.08,
        vertical_spacing=min(0.3 / nrows, 0.15) if nrows > 1 else 0.0,
    )
    systems = [str(s) for s in human.index]
    hx = stats.zscores(human, name=human_label) if zscore else human
    x_title = f"{human_label} (z)" if zscore else human_label
    for k, m in enumerate(selected):
        row, col = divmod(k, ncols)
        y = metrics[m].reindex(human.index)
        yv = stats.zscores(y, name=str(m)) if zscore else y
        fig.add_trace(
            go.Scatter(
                x=hx.to_numpy(),
                y=yv.to_numpy(),
                mode="markers",
                text=systems,
                name="systems",
                marker={"size": 10, "color": PALETTE[0], "line": {"width": 1, "color": "#ffffff"}},
                hovertemplate=f"<b>%{{text}}</b><br>{x_title} = %{{x:.4g}}<br>"
                f"{escape_html(m)} = %{{y:.4g}}"
                "<extra></extra>",
            ),
            row=row + 1,
            col=col + 1,
        )
        sysname = (most_influential or {}).get(m)
        if sysname is not None and sysname in human.index:
            i = systems.index(str(sysname))
            fig.add_trace(
                go.Scatter(
                    x=[hx.iloc[i]],
                    y=[yv.iloc[i]],
                    mode="markers+text",
                    text=[escape_html(sysname)],
                    textposition="top center",
                    textfont={"color": HIGHLIGHT},
                    name="most influential system",
                    marker={
                        "size": 18,
                        "color": "rgba(0,0,0,0)",
                        "line": {"width": 2.5, "color": HIGHLIGHT},
                        "symbol": "circle",
                    },
                    hovertemplate="<b>%{text}</b>: removing it changes r the most<extra></extra>",
                ),
                row=row + 1,
                col=col + 1,
            )
        fig.update_xaxes(title={"text": x_title}, row=row + 1, col=col + 1)
        y_title = escape_html(f"{m} (z)" if zscore else m)
        fig.update_yaxes(title={"text": y_title}, row=row + 1, col=col + 1)
    base_layout(fig, title=title, height=380 * nrows + 90)
    fig.update_layout(showlegend=False, margin={"t": 110 if title else 80})
    return fig


def williams_grid(
    result,
    *,
    alpha: float = 0.05,
    title: str | None = None,
    hover: bool = True,
    height: int | None = None,
    significance=None,
    order: Sequence[str] | None = None,
) -> go.Figure:
    """Williams significance grid (paper Figure 2b) from a
    :class:`stats.metaeval.williams.WilliamsMatrixResult`: cell (row i, column j) coloured when metric i
    correlates significantly better with humans than metric j; hover shows p, the difference in
    r and its Zou confidence interval (``hover=False``: p and alpha only, no hover matrices and
    no "significant" text, lighter for big overviews).

    With ``significance`` (:class:`stats.pairwise.grids.GridSignificance` of ``result.pvalue``) the
    cells are coloured by its adjusted p-values (the raw ones in the hover) and its clusters
    are drawn (:func:`dashboard.figures.clusters.adjusted_grid_args`).

    Metrics run in ``result.order`` (|r| with humans, highest first), or in ``order`` -- one
    order for every panel of a page (:func:`dashboard.tables.metric_order`); metrics missing
    from ``order`` come last. A cell still holds the test that its row beats its column.
    Cluster lines are drawn only in the ranking order (they mark where the ranking splits)."""
    pvalue = in_order(result.pvalue, order)
    if significance is None:
        args = {"pvalue": pvalue, "hover": {}}
    else:
        args = adjusted_grid_args(pvalue, significance)
        if list(pvalue.index) != list(result.pvalue.index):
            args.pop("clusters")
    extra = args.pop("hover")
    return significance_grid(
        **args,
        alpha=alpha,
        hover={**extra, **_williams_hover(result, "r(metrics)")} if hover else None,
        title=title,
        verb="correlates better with humans than",
        height=height,
        verdict=hover,
    )


def correlation_dots(
    table: pd.DataFrame,
    *,
    kind: str = "pearson",
    baseline: str | None = None,
    title: str | None = None,
) -> go.Figure:
    """Dot chart of each metric's |correlation| with humans, metrics top to bottom in ``table``
    order (as the paper compares error metrics by |r|). Metrics with a negative correlation
    (error metrics such as TER) are open diamonds; the baseline metric is drawn in
    :data:`HIGHLIGHT`. Hover gives the signed value.

    ``table`` is indexed by metric with a column named ``kind`` (see
    :func:`dashboard.tables.correlation_table`).

    Returns
    -------
    go.Figure
        One scatter: ``x`` = |value|, ``y`` = metric names, ``customdata`` = signed value.
    """
    names = [str(m) for m in table.index]
    values = table[kind].to_numpy(dtype=float)
    label = {"pearson": "Pearson r", "spearman": "Spearman ρ", "kendall": "Kendall τ"}[kind]
    colours = [HIGHLIGHT if m == baseline else PALETTE[0] for m in names]
    symbols = ["diamond-open" if v < 0 else "circle" for v in values]
    fig = go.Figure(
        go.Scatter(
            x=np.abs(values),
            y=names,
            customdata=values,
            mode="markers",
            marker={"size": 13, "color": colours, "symbol": symbols, "line": {"width": 2}},
            name=f"|{label}|",
            hovertemplate=f"<b>%{{y}}</b><br>{label} = %{{customdata:.4f}}<extra></extra>",
        )
    )
    base_layout(fig, title=title, height=int(max(260, 24 * len(names) + 110)))
    finite = np.abs(values[np.isfinite(values)])
    lo = float(finite.min()) if finite.size else 0.0
    fig.update_xaxes(
        # two lines: the chart stands in a narrow column beside the correlation table
        title={"text": f"|{label}| with humans<br>(◇ = negative)"},
        range=[max(0.0, lo - 0.05), 1.0],
    )
    fig.update_yaxes(**_category_rows(names))
    return fig
