"""Figures of the "Quality estimation" page (Graham, 2015)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

import stats  # lazy: a name is imported when first used
from dashboard.figures.grids import HALF_COLUMN_PX, _williams_hover, significance_grid
from dashboard.figures.style import (
    BASE_FONT_SIZE,
    HIGHLIGHT,
    PALETTE,
    _category_ticks,
    _label_px,
    _rank_labels,
    add_axis_lines,
    base_layout,
    category_colours,
    escape_html,
    format_number,
    short_label_map,
    subplots,
    wrap_text,
)

#: Most distinct values a label/prediction set may have to be drawn as bars of counts.
QE_DISCRETE_MAX_VALUES = 10
#: Bars above this multiple of the panel's median are drawn off-scale with their value printed.
_QE_OFF_SCALE_FACTOR = 4.0


#: Graham (2015) caveat shown beside the QE Williams grid.
QE_WINS_NOT_A_RANKING = (
    "Do not rank QE systems by the number of systems they significantly beat: the power of the "
    "Williams test depends on how strongly two systems' predictions correlate with each other "
    "(see the prediction correlation heatmap). Read each pair on its own (Graham, 2015)."
)


def qe_rank_change(
    table: pd.DataFrame, *, measures: Sequence[str] = ("pearson", "mae"), title: str | None = None
) -> go.Figure:
    """Slope chart of each system's rank under several measures (1 = best, at the top).

    ``table`` is indexed by system with columns ``rank_<measure>`` (see
    :meth:`stats.qe.graham.QEScoresResult.to_frame`). Systems whose rank differs between the measures are
    drawn in colour with thick lines; systems ranked the same are thin grey lines.

    Returns
    -------
    go.Figure
        One scatter per system, in ``table`` order, named by the system: ``x`` = measure labels,
        ``y`` = ranks; ``meta`` = ``{"changed": bool}``.
    """
    labels = {"pearson": "Pearson r", "spearman": "Spearman ρ", "mae": "MAE", "rmse": "RMSE"}
    xs = [labels.get(m, m) for m in measures]
    fig = go.Figure()
    colour_k = 0
    colours = category_colours(len(table), lines=True)
    labels = []
    shorts = short_label_map(table.index)  # one label per system, none alike
    for system, row in table.iterrows():
        ranks = np.array([row[f"rank_{m}"] for m in measures], dtype=float)
        finite = ranks[np.isfinite(ranks)]
        changed = bool(finite.size and np.ptp(finite) > 0)
        if changed:
            colour = colours[colour_k]
            colour_k += 1
        else:
            colour = "#9A9A9A"
        text = _rank_labels(shorts[str(system)], ranks)
        labels += text
        fig.add_trace(
            go.Scatter(
                x=xs,
                y=ranks,
                mode="lines+markers+text",
                name=str(system),
                text=text,
                textposition=["middle left"] + ["top center"] * (len(xs) - 2) + ["middle right"],
                textfont={"color": colour},
                line={"color": colour, "width": 3 if changed else 1.2},
                marker={"size": 9 if changed else 6, "color": colour},
                meta={"changed": changed},
                cliponaxis=False,
                hovertemplate=f"<b>{escape_html(system)}</b><br>%{{x}}: rank %{{y}}<extra></extra>",
                showlegend=False,
            )
        )
    n = len(table)
    top = (60 if title else 20) + 30  # the measure names sit on top, under the title
    base_layout(fig, title=title, height=int(max(300, 30 * n + 90 + top)))
    # the labels carry the ranks ("1. name" on the left, "name (8)" on the right)
    fig.update_yaxes(autorange="reversed", showticklabels=False, zeroline=False, dtick=1)
    # short, horizontal column headers: in a narrow column long ones would be turned vertical
    # and run into the title
    short = {"pearson": "r", "spearman": "ρ", "mae": "MAE", "rmse": "RMSE"}
    fig.update_xaxes(
        type="category",
        categoryorder="array",
        categoryarray=xs,
        side="top",
        showgrid=True,
        tickmode="array",
        tickvals=xs,
        ticktext=[short.get(m, m) for m in measures],
        tickangle=0,
    )
    # the names sit in the margins: size them from the longest label (names are shortened)
    side_px = int(_label_px(labels, BASE_FONT_SIZE)) + 24
    fig.update_layout(margin={"l": side_px, "r": side_px, "t": top})
    return fig


def qe_rescale_bars(table: pd.DataFrame, *, sd_ratio: float, title: str | None = None) -> go.Figure:
    """MAE and RMSE of each system before and after shifting to the gold mean and rescaling to
    ``sd_ratio`` x the gold SD (paper Tables 2 and 3), as grouped bars in two panels.

    ``table`` is indexed by system (display order) with columns ``mae``, ``mae_rescaled``,
    ``rmse``, ``rmse_rescaled`` (see :meth:`stats.qe.graham.RescaleResult.to_frame`).

    Returns
    -------
    go.Figure
        Traces: "original" (MAE panel), "rescaled" (MAE panel), "original" (RMSE panel),
        "rescaled" (RMSE panel); ``x`` = systems, ``y`` = values.
    """
    systems = [str(s) for s in table.index]
    fig = subplots(rows=1, cols=2, subplot_titles=["MAE", "RMSE"], horizontal_spacing=0.08)
    label = f"shifted to gold mean, {sd_ratio:g} × gold SD"
    for col, measure in enumerate(("mae", "rmse"), start=1):
        for name, column, colour in (
            ("original", measure, PALETTE[0]),
            (label, f"{measure}_rescaled", PALETTE[1]),
        ):
            fig.add_trace(
                go.Bar(
                    x=systems,
                    y=table[column].to_numpy(dtype=float),
                    name=name,
                    legendgroup=name,
                    showlegend=col == 1,
                    marker={"color": colour},
                    hovertemplate=f"<b>%{{x}}</b><br>{measure.upper()} ({name}) = %{{y:.4f}}"
                    "<extra></extra>",
                ),
                row=1,
                col=col,
            )
    # A system on another scale (e.g. effort classes 1-3 against HTER) would flatten every
    # other bar: cut the axis at the largest ordinary value and label the off-scale bars.
    off_scale: dict[str, list[str]] = {}
    for col, measure in enumerate(("mae", "rmse"), start=1):
        values = table[[measure, f"{measure}_rescaled"]].to_numpy(dtype=float)
        finite = values[np.isfinite(values)]
        if not finite.size:
            continue
        cap = _QE_OFF_SCALE_FACTOR * float(np.median(finite))
        ordinary = finite[finite <= cap]
        if ordinary.size == finite.size or not ordinary.size:
            continue
        top = float(ordinary.max()) * 1.3
        fig.update_yaxes(range=[0, top], row=1, col=col)
        axis = "" if col == 1 else str(col)
        for system, row in table.iterrows():
            for column in (measure, f"{measure}_rescaled"):
                v = float(row[column])
                if np.isfinite(v) and v > cap:
                    off_scale.setdefault(measure, []).append(str(system))
                    fig.add_annotation(
                        x=str(system),
                        y=top,
                        xref=f"x{axis}",
                        yref=f"y{axis}",
                        text=f"{v:.3g} ↑",
                        showarrow=False,
                        yanchor="top",
                        font={"size": 11, "color": HIGHLIGHT},
                    )
    height = 460
    base_layout(fig, title=title, height=height)
    # top to bottom: title, legend, panel titles -- each in its own band of the top margin
    top = 120 if title else 80
    fig.update_layout(
        barmode="group",
        meta={"off_scale": off_scale},
        legend={
            "orientation": "h",
            "yref": "container",
            "yanchor": "top",
            "y": 1 - (46 if title else 8) / height,
            "x": 0,
        },
        margin={"t": top},
    )
    if title:
        fig.update_layout(title={"yref": "container", "y": 1, "yanchor": "top", "pad": {"t": 12}})
    fig.update_xaxes(tickangle=-45, type="category", **_category_ticks(systems))
    return fig


def qe_rescale_curve(
    curve: pd.DataFrame,
    *,
    sd_ratio: float,
    measure: str = "mae",
    original: Mapping[str, float] | None = None,
    title: str | None = None,
) -> go.Figure:
    """``measure`` (MAE or RMSE) of each system as a function of lambda (predictions shifted to
    the gold mean and rescaled to lambda x the gold SD), with a vertical line at ``sd_ratio``.

    ``curve`` is the long table of :func:`stats.qe.graham.rescaling_curve`. ``original`` (system ->
    value of the unmodified predictions) adds a dotted horizontal reference per system.

    Returns
    -------
    go.Figure
        One line per system (in first-appearance order), named by the system; ``x`` = lambda;
        then one marker trace with each system's value at ``sd_ratio`` (in the same order and
        colours). The vertical line is a layout shape.
    """
    fig = go.Figure()
    systems = list(dict.fromkeys(curve["system"]))
    colours = category_colours(len(systems), lines=True)
    at = []  # each system's value at the current lambda, read off its line
    for k, system in enumerate(systems):
        part = curve[curve["system"] == system]
        at.append(float(np.interp(sd_ratio, *_sorted_xy(part, measure))))
        colour = colours[k]
        fig.add_trace(
            go.Scatter(
                x=part["sd_ratio"].to_numpy(dtype=float),
                y=part[measure].to_numpy(dtype=float),
                mode="lines",
                name=escape_html(system),
                line={"color": colour, "width": 2},
                hovertemplate=f"<b>{escape_html(system)}</b><br>λ = %{{x:.2f}}<br>{measure.upper()} = "
                "%{y:.4f}<extra></extra>",
            )
        )
    if original:
        # each system's original value: a dotted line across the plot, as fig.add_hline draws
        # it, all set in one call (add_hline validates the whole layout again for each line)
        fig.update_layout(
            shapes=[
                {
                    "type": "line",
                    "xref": "x domain",
                    "x0": 0,
                    "x1": 1,
                    "yref": "y",
                    "y0": float(original[system]),
                    "y1": float(original[system]),
                    "line": {"color": colours[k], "width": 1, "dash": "dot"},
                }
                for k, system in enumerate(systems)
                if system in original and np.isfinite(original[system])
            ]
        )
    # ... marked on its line
    fig.add_trace(
        go.Scatter(
            x=[float(sd_ratio)] * len(systems),
            y=at,
            mode="markers",
            name=f"at λ = {sd_ratio:g}",
            marker={"color": colours, "size": 9, "line": {"color": "#111111", "width": 1}},
            customdata=[escape_html(s) for s in systems],
            hovertemplate=f"<b>%{{customdata}}</b><br>λ = {sd_ratio:g}<br>{measure.upper()} = "
            "%{y:.4f}<extra></extra>",
            showlegend=False,
        )
    )
    # the current lambda: a dashed line with its value on top, as fig.add_vline(...,
    # annotation_position="top") draws them
    add_axis_lines(
        fig, [{"x": float(sd_ratio), "line": {"color": "#111111", "width": 1.5, "dash": "dash"}}]
    )
    fig.add_annotation(
        text=f"λ = {sd_ratio:g}", showarrow=False, x=float(sd_ratio), xref="x", xanchor="center",
        y=1, yref="y domain", yanchor="bottom",
    )  # fmt: skip
    # the legend lists every system: the plot grows with them instead of being squeezed
    base_layout(fig, title=title, height=max(430, 250 + 20 * len(systems)))
    fig.update_xaxes(title={"text": "λ (rescaled SD / gold SD)"})
    # the axis follows the curves; an original value far above them (another scale) is left out
    values = curve[measure].to_numpy(dtype=float)
    values = values[np.isfinite(values)]
    if values.size:
        top = float(values.max())
        near = [v for v in (original or {}).values() if np.isfinite(v) and v <= 1.5 * top]
        fig.update_yaxes(range=[0, max([top, *near]) * 1.08])
    fig.update_yaxes(title={"text": measure.upper()})
    return fig


def _sorted_xy(part: pd.DataFrame, measure: str) -> tuple[np.ndarray, np.ndarray]:
    order = np.argsort(part["sd_ratio"].to_numpy(dtype=float), kind="stable")
    return (
        part["sd_ratio"].to_numpy(dtype=float)[order],
        part[measure].to_numpy(dtype=float)[order],
    )


def _is_discrete(values: np.ndarray) -> bool:
    uniq = np.unique(values[np.isfinite(values)])
    return 0 < uniq.size <= QE_DISCRETE_MAX_VALUES


def qe_distributions(
    gold: pd.Series,
    predictions: pd.DataFrame,
    systems: Sequence[str],
    *,
    mae: Mapping[str, float] | None = None,
    bins: int = 30,
    cols: int | None = None,
    title: str | None = None,
) -> go.Figure:
    """Histograms of the gold labels and of each selected system's predictions (paper Figures 1
    and 2a), one panel each, gold first.

    Sets with at most :data:`QE_DISCRETE_MAX_VALUES` distinct values (e.g. effort classes
    1/2/3) are drawn as bars of counts at each value; continuous ones as histograms with
    ``bins`` equal-width bins (computed here with numpy, so every bar is in ``fig.data``).
    All panels share one x-axis (``matches``) and the continuous ones the same bin edges, so
    spreads compare at a glance: a conservative system looks as narrow as it is (Graham 2015,
    Figure 2a). Panel titles give each set's standard deviation.

    Returns
    -------
    go.Figure
        One ``Bar`` trace per panel, named "gold" then the system names; ``x`` = value (or bin
        centre), ``y`` = count; ``meta`` = ``{"discrete": bool}``.
    """
    panels = [("gold", gold.to_numpy(dtype=float))] + [
        (str(s), predictions[s].to_numpy(dtype=float)) for s in systems if s in predictions
    ]
    ncols = cols or min(len(panels), 3)
    nrows = math.ceil(len(panels) / ncols)
    titles = []
    shorts = short_label_map([name for name, _ in panels], 30)
    for name, values in panels:
        sd = f"SD = {format_number(stats.standard_deviation(values, name=name))}"
        # two lines (name, then the numbers) so a title never runs past its panel
        small = "<br><span style='font-size:0.85em'>{}</span>"
        if name == "gold":
            titles.append("<b>gold labels</b>" + small.format(sd))
        elif mae and name in mae:
            numbers = f"MAE = {format_number(mae[name], 4)}, {sd}"
            titles.append(f"<b>{shorts[name]}</b>" + small.format(numbers))
        else:
            titles.append(f"<b>{shorts[name]}</b>" + small.format(sd))
    # one set of bin edges for every continuous panel (same width, same positions)
    continuous = [v[np.isfinite(v)] for _, v in panels if not _is_discrete(v[np.isfinite(v)])]
    pooled = np.concatenate(continuous) if continuous else np.array([])
    shared_edges = np.histogram_bin_edges(pooled, bins=bins) if pooled.size else None
    fig = subplots(
        rows=nrows,
        cols=ncols,
        subplot_titles=titles,
        horizontal_spacing=0.07,
        vertical_spacing=min(0.3 / nrows, 0.15) if nrows > 1 else 0.0,
    )
    colours = category_colours(len(panels))
    for k, (name, values) in enumerate(panels):
        row, col = divmod(k, ncols)
        values = values[np.isfinite(values)]
        discrete = _is_discrete(values)
        if discrete:
            x, counts = np.unique(values, return_counts=True)
            width = 0.6 * float(np.min(np.diff(x))) if x.size > 1 else 0.6
        else:
            counts, edges = np.histogram(values, bins=shared_edges)
            x = (edges[:-1] + edges[1:]) / 2
            width = float(edges[1] - edges[0]) if edges.size > 1 else None
        fig.add_trace(
            go.Bar(
                x=x,
                y=counts,
                width=width,
                name=name,
                marker={"color": "#555555" if name == "gold" else colours[k - 1]},
                meta={"discrete": discrete},
                showlegend=False,
                hovertemplate=f"<b>{escape_html(name)}</b><br>value %{{x:.3g}}: %{{y}} sentences"
                "<extra></extra>",
            ),
            row=row + 1,
            col=col + 1,
        )
        if discrete:
            fig.update_xaxes(tickvals=list(x), row=row + 1, col=col + 1)
    base_layout(fig, title=title, height=260 * nrows + 110)
    fig.update_layout(bargap=0.02, margin={"t": 110 if title else 60})
    fig.update_xaxes(matches="x", showticklabels=True)  # one scale for gold and predictions
    return fig


#: Font size (px) of plotly's subplot titles (make_subplots) and the height of one of their lines.
SUBPLOT_TITLE_PX, TITLE_LINE_PX = 16, 19


def qe_standardised_scatter(
    gold: pd.Series,
    predictions: pd.DataFrame,
    systems: Sequence[str],
    *,
    pearson: Mapping[str, float],
    mae: Mapping[str, float],
    standardise: bool = True,
    title: str | None = None,
    width: int = HALF_COLUMN_PX,
) -> go.Figure:
    """Gold labels (x) against predictions (y) for two (or more) systems, side by side (paper
    Figure 3). Each panel's title (the system's name, r, MAE) is wrapped to the panel in a
    ``width`` px figure (default: half the page at 1400 px), the top margin made room for it. With ``standardise`` both axes are in standard deviations from the mean of each
    distribution, so a system with conservative variance is no longer hidden by its scale; the
    panel titles give r (unchanged by standardising) and MAE (of the raw predictions).

    Returns
    -------
    go.Figure
        Per system: a "sentences" scatter (``x`` = gold, ``y`` = prediction, z-scores when
        ``standardise``) and a dotted "y = x" line.
    """
    systems = [s for s in systems if s in predictions]
    if not systems:
        raise ValueError("no system selected for the scatter plot")
    # titles wrapped to their panel (at a 1400 px window): neighbouring titles never run
    # into each other ("core_ensemble: r = 0.42COMETTD...")
    panel_px = (width - 140) * (1 - 0.08 * (len(systems) - 1)) / len(systems) - 8
    wrapped = []
    for s in systems:
        r, error = f"r = {format_number(pearson.get(s))}", f"MAE = {format_number(mae.get(s), 4)}"
        numbers = wrap_text(f"{r}, {error}", panel_px, SUBPLOT_TITLE_PX)
        if len(numbers) > 1:  # r and MAE on lines of their own
            numbers = wrap_text(r, panel_px, SUBPLOT_TITLE_PX) + wrap_text(
                error, panel_px, SUBPLOT_TITLE_PX
            )
        wrapped.append((wrap_text(s, panel_px, SUBPLOT_TITLE_PX), numbers))
    titles = [f"<b>{'<br>'.join(name)}</b><br>{'<br>'.join(numbers)}" for name, numbers in wrapped]
    lines = max(len(name) + len(numbers) for name, numbers in wrapped)
    fig = subplots(rows=1, cols=len(systems), subplot_titles=titles, horizontal_spacing=0.08)
    g = gold.to_numpy(dtype=float)
    gx = stats.zscores(g, name="gold") if standardise else g
    ids = [str(i) for i in gold.index]
    colours = category_colours(len(systems))
    for k, s in enumerate(systems):
        p = predictions[s].to_numpy(dtype=float)
        py = stats.zscores(p, name=str(s)) if standardise else p
        fig.add_trace(
            go.Scattergl(
                x=gx,
                y=py,
                mode="markers",
                name=f"{s}",
                text=ids,
                marker={"size": 5, "color": colours[k], "opacity": 0.55},
                hovertemplate="sentence %{text}<br>gold %{x:.3g}<br>prediction %{y:.3g}"
                "<extra></extra>",
                showlegend=False,
            ),
            row=1,
            col=k + 1,
        )
        both = np.concatenate([gx[np.isfinite(gx)], py[np.isfinite(py)]])
        lo, hi = (float(both.min()), float(both.max())) if both.size else (0.0, 1.0)
        fig.add_trace(
            go.Scatter(
                x=[lo, hi],
                y=[lo, hi],
                mode="lines",
                name="y = x",
                line={"color": "#777777", "dash": "dot", "width": 1},
                hoverinfo="skip",
                showlegend=False,
            ),
            row=1,
            col=k + 1,
        )
        unit = " (SDs from the mean)" if standardise else ""
        fig.update_xaxes(title={"text": f"gold{unit}"}, row=1, col=k + 1)
        fig.update_yaxes(title={"text": f"prediction{unit}"}, row=1, col=k + 1)
    top = (60 if title else 20) + int(TITLE_LINE_PX * lines) + 8
    base_layout(fig, title=title, height=380 + top)
    fig.update_layout(margin={"t": top})
    fig.layout.meta = {"title_lines": lines}
    return fig


def qe_williams_grid(result, *, alpha: float = 0.05, title: str | None = None) -> go.Figure:
    """Williams significance grid for QE systems (paper Figures 5-7) from a
    :class:`stats.metaeval.williams.WilliamsMatrixResult` computed with signed r: the shared
    :func:`significance_grid` with the difference in r, its confidence interval and the
    correlation between the two systems' predictions on hover."""
    return significance_grid(
        result.pvalue,
        alpha=alpha,
        hover=_williams_hover(result, "r(predictions)"),
        title=title,
        verb="correlates better with the gold labels than",
    )
