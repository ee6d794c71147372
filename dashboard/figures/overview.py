"""Many grids in one figure: the all-language-pairs overviews (the paper's Figure 3), as
subplots with tick labels (:func:`grids_side_by_side`) or, for grids too large for labels, one
heatmap (:func:`significance_mosaic`). Panels wrap into rows so that a cell stays at least
:data:`MIN_OVERVIEW_CELL_PX` wide in a :data:`~dashboard.figures.grids._GRID_LAYOUT_WIDTH` px
figure.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.grids import (
    _GRID_LAYOUT_WIDTH,
    P_FORMAT,
    SIGNIFICANCE_COLORBAR_PX,
    _matrix_axis,
    _unchecked_figure,
    round_as_shown,
    significance_coloraxis,
    significance_colour_value,
)
from dashboard.figures.style import (
    _GLYPH_WIDTH,
    BASE_FONT_SIZE,
    _category_ticks,
    base_layout_dict,
    escape_html,
    short_labels,
)

#: Smallest cell (px) of a panel of the all-language-pairs overviews (:func:`grids_side_by_side`,
#: :func:`significance_mosaic`) in a :data:`_GRID_LAYOUT_WIDTH` px figure (a 1400 px window):
#: one a pointer can hover. Panels wrap into more rows (fewer a row) to keep it.
MIN_OVERVIEW_CELL_PX = 10
#: Least cell width, in tick-font sizes, under which the -45 degree column labels of two
#: neighbouring cells overlap (their baselines are cell / sqrt(2) apart; a line of text is
#: about 1.2 font sizes high), with room to spare
LABEL_CELL_FACTOR = 1.6


def significance_mosaic(
    pvalues: Mapping[str, pd.DataFrame],
    *,
    alpha: float = 0.05,
    cols: int | None = None,
    title: str | None = None,
    panel_height: int = 360,
    verb: str = "beats",
) -> go.Figure:
    """Many large significance grids side by side as ONE heatmap (the paper's Figure 3 when
    there are too many items per grid for tick labels).

    Looks like :func:`grids_side_by_side` of :func:`significance_grid` panels without tick
    labels -- a titled block per key, the same colours and colour bar -- but all blocks sit
    on one pair of hidden numeric axes (block k's cells at ``x0``/``y0``), separated by blank
    space. Each subplot costs plotly.js its own axes, clip paths and hover layers, so ten
    50 x 50 panels as subplots redraw about twice as slowly as one mosaic; this keeps an alpha
    change quick.

    Parameters
    ----------
    pvalues : mapping of block title -> square p-value DataFrame
        Rows/columns in display order (best first); blocks may differ in size and labels.
    cols : int, optional
        Most blocks per row; default ``min(len(pvalues), 3)``. Fewer when a cell would be
        narrower than :data:`MIN_OVERVIEW_CELL_PX` in a :data:`_GRID_LAYOUT_WIDTH` px figure.
    panel_height : int
        Height in px of one block row (more when its cells would be shorter than
        :data:`MIN_OVERVIEW_CELL_PX`).
    verb : str
        Hover question wording: "<row> <verb> <col>?".

    Returns
    -------
    go.Figure
        One ``Heatmap`` per block, named by its key, at ``x0``/``y0`` = the block's origin:
        ``z`` = :func:`significance_colour_value`, ``customdata`` = p (rounded as its label
        prints it, :func:`round_as_shown`), ``text`` = row name and
        ``hovertext`` = column name for tested cells ("" elsewhere; HTML-escaped), on
        ``layout.coloraxis`` as :func:`significance_grid`. ``layout.annotations`` are the block
        titles, then the two axis titles (column at the bottom, row at the left); ``layout.meta`` holds ``alpha`` and each block's ``[row, col]`` origin under
        ``"blocks"``.
    """
    if not pvalues:
        raise ValueError("pvalues is empty: nothing to lay out")
    names = list(pvalues)
    side = max(max(p.shape) for p in pvalues.values())
    gap = max(2, round(side * 0.12))
    plot_w = _GRID_LAYOUT_WIDTH - 10 - SIGNIFICANCE_COLORBAR_PX  # the margins below
    ncols = min(cols or 3, len(names))
    while ncols > 1 and plot_w / (ncols * side + (ncols - 1) * gap) < MIN_OVERVIEW_CELL_PX:
        ncols -= 1  # wrap: fewer blocks a row, so a cell keeps MIN_OVERVIEW_CELL_PX
    nrows = math.ceil(len(names) / ncols)
    row_px = max(panel_height + 30, math.ceil((side + gap) * MIN_OVERVIEW_CELL_PX))
    height, width = nrows * side + (nrows - 1) * gap, ncols * side + (ncols - 1) * gap
    traces, annotations, origins = [], [], {}
    for k, name in enumerate(names):
        p = pvalues[name]
        r0, c0 = divmod(k, ncols)
        r0, c0 = r0 * (side + gap), c0 * (side + gap)
        origins[str(name)] = [r0, c0]
        values = p.to_numpy(dtype=float)
        tested = ~np.isnan(values)
        rows = np.array([escape_html(v) for v in p.index], dtype=str)
        cols_ = np.array([escape_html(v) for v in p.columns], dtype=str)
        traces.append(
            {
                "type": "heatmap",
                "z": significance_colour_value(values, alpha),
                "x0": c0,
                "dx": 1,
                "y0": r0,
                "dy": 1,
                "customdata": round_as_shown(values, P_FORMAT),
                "text": np.where(tested, rows[:, None], ""),
                "hovertext": np.where(tested, cols_[None, :], ""),
                "hovertemplate": (
                    f"{escape_html(name)}: <b>%{{text}}</b> {verb} <b>%{{hovertext}}</b>?<br>"
                    f"p = %{{customdata:{P_FORMAT}}} (α = {alpha:g})<extra></extra>"
                ),
                "hoverongaps": False,
                "coloraxis": "coloraxis",
                "name": str(name),
            }
        )
        annotations.append(
            {
                "text": escape_html(name),
                "x": c0 + (values.shape[1] - 1) / 2,
                "y": r0 - 0.5,
                "xref": "x",
                "yref": "y",
                "xanchor": "center",
                "yanchor": "bottom",
                "showarrow": False,
                "font": {"size": 16},
            }
        )
    top = 80 if title else 30
    y_units = height + gap  # the y range below, in cells
    layout = base_layout_dict(
        title=title,
        height=max(int(nrows * row_px + 104), math.ceil(top + 34 + y_units * MIN_OVERVIEW_CELL_PX)),
    )
    hidden = {"visible": False, "fixedrange": True, "automargin": False}
    layout["xaxis"] = {**hidden, "range": [-0.5, width - 0.5], "constrain": "domain"}
    layout["yaxis"] = {
        **hidden,
        "range": [height - 0.5, -0.5 - gap],
        "scaleanchor": "x",
        "constrain": "domain",
    }
    layout["margin"] = {"l": 34, "r": SIGNIFICANCE_COLORBAR_PX, "t": top, "b": 34}
    # the blocks have too many items for tick labels: the axes say what rows and columns are
    axis_title = {"xref": "paper", "yref": "paper", "showarrow": False, "font": {"size": 13}}
    annotations += [
        {**axis_title, "text": "column: compared with (hover a cell for the names)",
         "x": 0.5, "y": 0, "yshift": -26, "xanchor": "center", "yanchor": "bottom"},
        {**axis_title, "text": f"row: {escape_html(verb)} the column?", "x": 0, "y": 0.5,
         "xshift": -26, "textangle": -90, "xanchor": "left", "yanchor": "middle"},
    ]  # fmt: skip
    layout["annotations"] = annotations
    layout["coloraxis"] = significance_coloraxis(alpha)
    layout["meta"] = {"alpha": alpha, "blocks": origins}
    return _unchecked_figure(traces, layout)


def grids_side_by_side(
    figures: Mapping[str, go.Figure],
    *,
    cols: int | None = None,
    title: str | None = None,
    panel_height: int = 380,
    show_tick_labels: bool = True,
    horizontal_spacing: float | None = None,
    legible_columns: bool = False,
    x_title: str | None = None,
    y_title: str | None = None,
) -> go.Figure:
    """Several heatmaps / significance grids as panels of one figure (paper's Figure 3).

    Each input figure's traces are copied into its own subplot, titled with the mapping key;
    the first figure's ``layout.coloraxis`` becomes the shared colour axis (build all panels
    with the same builder and parameters so they share a scale). Category orders and reversed
    y-axes are carried over.

    Long names never overprint a neighbour: tick labels are shortened to
    :data:`MAX_TICK_CHARS` characters (:func:`short_labels`; hover keeps the full name); when
    every panel has the same rows (e.g. the same systems under several tests) only the first
    column shows them; otherwise the gap between panels is sized from the longest label
    (laid out for a :data:`_GRID_LAYOUT_WIDTH` px wide figure), and the gap between rows from
    the rotated column labels plus the panel title.

    Parameters
    ----------
    figures : mapping of panel title -> Figure
    cols : int, optional
        Most panels per row; default ``min(len(figures), 3)``. Fewer when a cell would be
        narrower than :data:`MIN_OVERVIEW_CELL_PX` in a :data:`_GRID_LAYOUT_WIDTH` px figure
        (the panels wrap into more rows; ``layout.meta["grid_layout"]["ncols"]`` says how many).
    panel_height : int
        Height in px of each panel's cell area (at least :data:`MIN_OVERVIEW_CELL_PX` per row
        of the largest panel); the figure adds the gaps and margins.
    horizontal_spacing : float, optional
        Least gap between panels as a fraction of the width (default: sized from the labels;
        0.02 without tick labels). Widen it for large (presentation) fonts.
    legible_columns : bool
        Wrap (stack the panels) until a cell is wide enough that the -45 degree column labels
        of neighbouring cells do not overlap (:data:`LABEL_CELL_FACTOR` times the tick font),
        rather than shrink them (16-30 MT systems under three tests at 1400 px).
    x_title, y_title : str, optional
        Axis titles: ``x_title`` under every panel, ``y_title`` left of the panels of the first
        column (the gaps and margins make room for them). Kept under
        ``layout.meta["grid_layout"]`` for :func:`dashboard.figures.presentation.apply_presentation`.
    """
    if not figures:
        raise ValueError("figures is empty: nothing to lay out")
    names = list(figures)
    first = figures[names[0]]
    axes = [(figures[n].layout.xaxis, figures[n].layout.yaxis) for n in names]
    n_max = max(max(len(xa.categoryarray or ()), len(ya.categoryarray or ())) for xa, ya in axes)
    size = int(max(7, min(BASE_FONT_SIZE, 300 / max(n_max, 1))))
    rows_shared = len({tuple(ya.categoryarray or ()) for _, ya in axes}) == 1
    panel_height = max(panel_height, math.ceil(MIN_OVERVIEW_CELL_PX * n_max))
    grid_spec = {
        "rows_shared": rows_shared,
        "show": show_tick_labels,
        "y_chars": _longest(short_labels(ya.categoryarray or ()) for _, ya in axes),
        "x_chars": _longest(short_labels(xa.categoryarray or ()) for xa, _ in axes),
        "title": title is not None,
        "panel_height": panel_height,
        "colorbar": first.layout.coloraxis is not None,
        "horizontal_spacing": horizontal_spacing,
        "legible_columns": legible_columns and show_tick_labels,
        "n_max": n_max,
        "x_title": escape_html(x_title) if x_title else None,
        "y_title": escape_html(y_title) if y_title else None,
    }
    # wrap: fewer panels a row until a cell keeps MIN_OVERVIEW_CELL_PX at the layout width
    least = MIN_OVERVIEW_CELL_PX
    if legible_columns and show_tick_labels:
        least = max(least, LABEL_CELL_FACTOR * size)
    for ncols in range(min(cols or 3, len(names)), 0, -1):
        grid_spec.update(ncols=ncols, nrows=math.ceil(len(names) / ncols))
        geo = _grid_geometry(grid_spec, size)
        if ncols == 1 or _panel_px(geo) / max(n_max, 1) >= least:
            break
    ncols = grid_spec["ncols"]
    hspace, vspace, width, height = geo["hspace"], geo["vspace"], geo["width"], geo["height"]
    layout = base_layout_dict(title=title, height=geo["height_px"])
    layout["margin"] = geo["margin"]
    layout["plot_bgcolor"] = "#ffffff"
    annotations = []
    traces = []
    shapes = []
    # The layout is written as one dict and the figure built in one call (as make_subplots
    # would lay it out: axes numbered row-major, titles as paper annotations): per-panel
    # add_trace/update_xaxes calls validate and copy each time, which adds up with 10+ panels.
    for k, name in enumerate(names):
        fig = figures[name]
        row, col = divmod(k, ncols)
        x0 = col * (width + hspace)
        y1 = 1.0 - row * (height + vspace)
        suffix = "" if k == 0 else str(k + 1)
        for trace in fig.data:
            spec = trace.to_plotly_json()
            spec["xaxis"], spec["yaxis"] = f"x{suffix}", f"y{suffix}"
            traces.append(spec)
        for shape in fig.layout.shapes:  # cluster lines, on the panel's axes
            shapes.append({**shape.to_plotly_json(), "xref": f"x{suffix}", "yref": f"y{suffix}"})
        xa, ya = axes[k]
        common = {**_matrix_axis(size), "automargin": False}
        layout[f"xaxis{suffix}"] = {
            **common,
            **_category_ticks(xa.categoryarray or ()),
            "showticklabels": show_tick_labels,
            "categoryarray": xa.categoryarray,
            "tickangle": -45,
            "domain": [x0, x0 + width],
            "anchor": f"y{suffix}",
            **_axis_title(grid_spec["x_title"]),
        }
        layout[f"yaxis{suffix}"] = {
            **common,
            **_category_ticks(ya.categoryarray or ()),
            "showticklabels": show_tick_labels and (col == 0 or not rows_shared),
            "categoryarray": ya.categoryarray,
            "autorange": ya.autorange,
            "domain": [max(y1 - height, 0.0), y1],
            "anchor": f"x{suffix}",
            **_axis_title(grid_spec["y_title"] if col == 0 else None),
        }
        annotations.append(
            {
                "text": escape_html(name),
                "x": x0 + width / 2,
                "y": y1,
                "xref": "paper",
                "yref": "paper",
                "xanchor": "center",
                "yanchor": "bottom",
                "yshift": 4,
                "showarrow": False,
                "font": {"size": 16},
            }
        )
    layout["annotations"] = annotations
    if shapes:
        layout["shapes"] = shapes
    if first.layout.coloraxis is not None:
        layout["coloraxis"] = first.layout.coloraxis.to_plotly_json()
    layout["meta"] = {**(first.layout.meta or {}), "grid_layout": grid_spec}
    return _unchecked_figure(traces, layout)


def _axis_title(text: str | None, size: float = BASE_FONT_SIZE) -> dict:
    """An axis's ``title`` entry (none without ``text``): ``size`` px, 4 px beyond the tick
    labels (the geometry of :func:`_grid_geometry` leaves room for one line)."""
    if not text:
        return {}
    return {"title": {"text": text, "font": {"size": size}, "standoff": 4}}


def axis_title_px(spec: Mapping) -> float:
    """Room (px) for one line of axis title of a :func:`grids_side_by_side` spec."""
    return 1.3 * spec.get("axis_title_font", BASE_FONT_SIZE) + 6


def _panel_px(geo: Mapping) -> float:
    """Width (px) of one panel of a :func:`_grid_geometry` in a :data:`_GRID_LAYOUT_WIDTH` px
    figure."""
    margin = geo["margin"]
    return geo["width"] * (_GRID_LAYOUT_WIDTH - margin["l"] - margin["r"])


def _longest(groups) -> int:
    return max((len(s) for group in groups for s in group), default=0)


def _grid_geometry(spec: Mapping, size: float) -> dict:
    """Gaps, panel sizes (paper fractions), margins and height (px) of
    :func:`grids_side_by_side` for tick labels of ``size`` px (also re-run by
    :func:`apply_presentation` with the larger font)."""
    ncols, nrows, show = spec["ncols"], spec["nrows"], spec["show"]
    ylab_px = _GLYPH_WIDTH * size * spec["y_chars"] + 10 if show else 0.0
    # -45 degree labels: vertical extent ~ length / sqrt(2), plus the first glyph's height
    xlab_px = _GLYPH_WIDTH * size * spec["x_chars"] * 0.71 + size + 6 if show else 0.0
    # axis titles: a line under every panel's column labels, left of the first column's rows
    xlab_px += axis_title_px(spec) if spec.get("x_title") else 0.0
    ytitle_px = axis_title_px(spec) if spec.get("y_title") else 0.0
    title_px = 26 * size / BASE_FONT_SIZE if size > BASE_FONT_SIZE else 26  # panel title
    gap_px = 16 if (spec["rows_shared"] or not show) else ylab_px + 14
    colorbar_px = SIGNIFICANCE_COLORBAR_PX if spec["colorbar"] else 10
    plot_w = _GRID_LAYOUT_WIDTH - ylab_px - ytitle_px - colorbar_px
    hspace = gap_px / plot_w if show else 0.02
    if spec["horizontal_spacing"] is not None:
        hspace = max(hspace, spec["horizontal_spacing"]) if show else spec["horizontal_spacing"]
    hspace = min(hspace, 0.8 / (ncols - 1)) if ncols > 1 else 0.0
    vgap_px = xlab_px + title_px + 8
    plot_h = spec["panel_height"] * nrows + vgap_px * (nrows - 1)
    top = (60 if spec["title"] else 10) + title_px
    return {
        "hspace": hspace,
        "vspace": vgap_px / plot_h if nrows > 1 else 0.0,
        "width": (1.0 - hspace * (ncols - 1)) / ncols,
        "height": (1.0 - (vgap_px / plot_h if nrows > 1 else 0.0) * (nrows - 1)) / nrows,
        "margin": {
            "l": int(ylab_px + ytitle_px) + 10,
            "r": colorbar_px,
            "t": int(top),
            "b": int(xlab_px) + 10,
        },
        "height_px": int(round(plot_h + top + xlab_px + 10)),
    }
