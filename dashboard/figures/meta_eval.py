"""Figures of the segment-level section of the "Metrics vs humans" page: correlations with
humans per language pair with bootstrap whiskers (as the WMT metrics findings plot them), the
distribution of the per-group correlations, pairwise accuracy across language pairs, and the
PERM-BOTH significance grid with its clusters."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.clusters import adjusted_grid_args
from dashboard.figures.grids import significance_grid
from dashboard.figures.style import (
    MAX_TICK_CHARS,
    PALETTE,
    _category_rows,
    add_axis_lines,
    base_layout,
    category_colours,
    escape_html,
    subplots,
)

#: Height of one metric row in the dot charts (px).
_ROW_PX = 26


def meta_eval_dots(
    tables: Mapping[str, pd.DataFrame],
    *,
    label: str,
    title: str | None = None,
    cols: int | None = None,
) -> go.Figure:
    """One panel per language pair: each metric's correlation with humans as a dot, its
    bootstrap confidence interval as a whisker, metrics best first from the top.

    ``tables`` maps a language pair to a table indexed by metric (best first) with a column
    ``correlation`` and, when resampled, ``ci_low`` and ``ci_high`` (see
    :func:`dashboard.tables.meta_eval_table`). ``label`` names the correlation (x axis).

    Returns
    -------
    go.Figure
        One scatter per language pair, named by it: ``x`` = correlation, ``y`` = metric names,
        ``error_x`` = the CI (``array`` up, ``arrayminus`` down) when present, ``customdata`` =
        (CI low, CI high), NaN without CIs.
    """
    if not tables:
        raise ValueError("no language pair to draw")
    lps = list(tables)
    ncols = cols or min(len(lps), 3)
    nrows = math.ceil(len(lps) / ncols)
    most = max(len(t) for t in tables.values())
    longest = min(
        max((len(str(m)) for t in tables.values() for m in t.index), default=0), MAX_TICK_CHARS
    )
    fig = subplots(
        rows=nrows,
        cols=ncols,
        subplot_titles=[f"<b>{escape_html(lp)}</b>" for lp in lps],
        # room for the next panel's metric names (ticks are cut at MAX_TICK_CHARS)
        horizontal_spacing=min(0.3, 0.04 + 0.012 * longest) if ncols > 1 else 0.0,
        vertical_spacing=min(0.3 / nrows, 0.12) if nrows > 1 else 0.0,
    )
    for k, lp in enumerate(lps):
        table = tables[lp]
        row, col = divmod(k, ncols)
        names = [str(m) for m in table.index]
        x = table["correlation"].to_numpy(dtype=float)
        has_ci = {"ci_low", "ci_high"} <= set(table.columns)
        lo = table["ci_low"].to_numpy(dtype=float) if has_ci else np.full(len(x), np.nan)
        hi = table["ci_high"].to_numpy(dtype=float) if has_ci else np.full(len(x), np.nan)
        error = (
            {
                "type": "data",
                "symmetric": False,
                "array": hi - x,
                "arrayminus": x - lo,
                "thickness": 1.5,
                "width": 4,
                "color": PALETTE[0],
            }
            if has_ci
            else None
        )
        ci_text = " [%{customdata[0]:.4f}, %{customdata[1]:.4f}]" if has_ci else ""
        fig.add_trace(
            go.Scatter(
                x=x,
                y=names,
                mode="markers",
                name=lp,
                customdata=np.column_stack([lo, hi]),
                error_x=error,
                marker={"size": 11, "color": PALETTE[0], "line": {"width": 1, "color": "#ffffff"}},
                hovertemplate=f"<b>%{{y}}</b>, {escape_html(lp)}<br>{escape_html(label)} = "
                f"%{{x:.4f}}{ci_text}<extra></extra>",
            ),
            row=row + 1,
            col=col + 1,
        )
        fig.update_yaxes(**_category_rows(names), row=row + 1, col=col + 1)
        fig.update_xaxes(title={"text": escape_html(label)}, row=row + 1, col=col + 1)
    base_layout(fig, title=title, height=int(nrows * max(220, _ROW_PX * most + 90) + 60))
    fig.update_layout(showlegend=False, margin={"t": 90 if title else 50})
    return fig


def group_distributions(
    groups: Mapping[str, np.ndarray],
    *,
    label: str,
    grouping: str,
    title: str | None = None,
) -> go.Figure:
    """Box plot per metric of its per-group correlations (one value per item or per system),
    metrics top to bottom in ``groups`` order (best first); the mean, which is the reported
    correlation, is drawn as a dashed line in each box.

    Returns
    -------
    go.Figure
        One horizontal box per metric, named by it: ``x`` = the group correlations.
    """
    names = [str(m) for m in groups]
    colours = category_colours(len(names))
    fig = go.Figure(
        [
            go.Box(
                x=np.asarray(values, dtype=float),
                name=name,
                orientation="h",
                boxmean=True,
                boxpoints="outliers",
                marker={"color": colours[k], "size": 4},
                hovertemplate=f"<b>{escape_html(name)}</b><br>{escape_html(label)} of one "
                f"{grouping} = %{{x:.4f}}<extra></extra>",
            )
            for k, (name, values) in enumerate(zip(names, groups.values(), strict=True))
        ]
    )
    base_layout(fig, title=title, height=int(max(260, 40 * len(names) + 120)))
    fig.update_layout(showlegend=False)
    fig.update_xaxes(title={"text": f"{escape_html(label)} per {grouping}"})
    fig.update_yaxes(**_category_rows(names))
    return fig


def pairwise_accuracy_dots(table: pd.DataFrame, *, title: str | None = None) -> go.Figure:
    """System-level pairwise accuracy (%) of each metric: a small dot per language pair and a
    large diamond for the accuracy pooled across language pairs (Kocmi et al. 2021); metrics top
    to bottom in ``table`` order; a dashed line at 50% (a coin toss).

    ``table`` is :func:`dashboard.tables.pairwise_accuracy_table`: one column per language
    pair and a last column ``all language pairs``.

    Returns
    -------
    go.Figure
        One scatter per language pair and a last one named ``all language pairs``; ``x`` =
        accuracy in %, ``y`` = metric names.
    """
    names = [str(m) for m in table.index]
    pooled_name = table.columns[-1]
    colours = category_colours(len(table.columns))
    traces = [
        go.Scatter(
            x=100 * table[lp].to_numpy(dtype=float),
            y=names,
            mode="markers",
            name=str(lp),
            marker={"size": 8, "color": colours[k + 1], "opacity": 0.8},
            hovertemplate=f"<b>%{{y}}</b>, {escape_html(lp)}: %{{x:.1f}}%<extra></extra>",
        )
        for k, lp in enumerate(table.columns[:-1])
    ]
    traces.append(
        go.Scatter(
            x=100 * table[pooled_name].to_numpy(dtype=float),
            y=names,
            mode="markers",
            name=str(pooled_name),
            marker={"size": 14, "color": "#111111", "symbol": "diamond"},
            hovertemplate=f"<b>%{{y}}</b>, {escape_html(pooled_name)}: %{{x:.1f}}%<extra></extra>",
        )
    )
    fig = go.Figure(traces)
    base_layout(fig, title=title, height=int(max(260, _ROW_PX * len(names) + 150)))
    coin_toss = {"x": 50, "line": {"dash": "dash", "color": "#777777", "width": 1}}
    add_axis_lines(fig, [coin_toss])
    fig.update_xaxes(title={"text": "pairwise accuracy (%)"}, range=[0, 101])
    fig.update_yaxes(**_category_rows(names))
    fig.update_layout(legend={"orientation": "h", "y": -0.25 if len(names) < 6 else -0.12})
    return fig


def perm_both_grid(
    result,
    significance,
    *,
    label: str,
    title: str | None = None,
) -> go.Figure:
    """PERM-BOTH significance grid of one language pair (Deutsch, Dror & Roth 2021): cell (row
    i, column j) coloured when metric i correlates significantly better with humans than
    metric j, by the p-values of ``significance`` (:class:`stats.pairwise.grids.GridSignificance` of
    ``result.pvalue``: adjusted for multiple comparisons when it says so), with lines between
    its significance clusters.

    ``result`` is a :class:`stats.metaeval.perm_both.core.PermBothResult`; ``label`` names the correlation.

    Returns
    -------
    go.Figure
        :func:`dashboard.figures.grids.significance_grid` of the (adjusted) p-values: hover
        adds the raw p when adjusted and the observed difference ``Δ <label>`` (row minus
        column, standardised scores); ``layout.meta["clusters"]`` = the ranks.
    """
    args = adjusted_grid_args(result.pvalue, significance)
    hover = {**args.pop("hover"), f"Δ {label}": (result.statistic, ".4f")}
    return significance_grid(
        **args,
        alpha=significance.alpha,
        hover=hover,
        title=title,
        verb="correlates better with humans than",
        min_p=1.0 / (int(result.n_resamples) + 1),  # where the permutations end
    )
