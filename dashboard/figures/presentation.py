"""Presentation mode: a copy of a figure sized for a projector -- a 1920 x 1080 slide."""

from __future__ import annotations

import math
from collections.abc import Sequence

import plotly.graph_objects as go

from dashboard.figures.grids import MIN_CELL_PX
from dashboard.figures.overview import LABEL_CELL_FACTOR, _grid_geometry
from dashboard.figures.style import (
    _GLYPH_WIDTH,
    BASE_FONT_SIZE,
    PRESENTATION_FONT_SIZE,
    escape_html,
)

#: The slide a figure must fit in presentation mode (CSS px).
SLIDE_WIDTH, SLIDE_HEIGHT = 1920, 1080
#: Width (CSS px) of a full-width chart on that slide with the sidebar open (measured: 1,410
#: px): the panels of a grid figure with legible columns stand this wide in a row.
SLIDE_GRID_PX = 1400
#: The smaller screen presentation mode serves too (a laptop on a projector: 1400 x 900).
SMALL_SLIDE_WIDTH, SMALL_SLIDE_HEIGHT = 1400, 900
#: Tallest figure in presentation mode: the smaller window's height less the page's scroll
#: margins, so a chart is seen whole without scrolling inside it on either screen (the server
#: cannot tell which one shows it); tick fonts shrink to fit their rows and cells where needed
#: (30 metrics: 13 px column labels, 18 px dot-chart rows), and the pages draw grids that would
#: stack into rows each in a figure of its own (slide_rows, the Metrics page's per-pair grids)
MAX_PRESENTATION_HEIGHT = SMALL_SLIDE_HEIGHT - 60
#: Height stacked grid panels shrink to where their rows stay MIN_FIT_CELL_PX high (the same
#: bound: every figure fits the smaller window)
SMALL_FIT_HEIGHT = MAX_PRESENTATION_HEIGHT
#: Least row height (px) of a grid figure shrunk to fit the slide in presentation mode (its tick
#: labels a line high in it: 13-14 px text on the projector)
MIN_FIT_CELL_PX = 18
#: Panels of a grid figure in one row in presentation mode (the grids compared stand side by
#: side); more wrap into further rows.
MAX_PANELS_PER_ROW = 4
#: Width (CSS px) of a page's content in presentation mode in the narrowest window it serves:
#: 1400 px with the sidebar open (measured: 890 px). A 1920 px slide only widens it.
PRESENTATION_CONTENT_PX = 890
#: Font size (px) of a grid panel's title (grids_side_by_side's annotations) in presentation
#: mode.
_PANEL_TITLE_PX = 16 * PRESENTATION_FONT_SIZE / BASE_FONT_SIZE


def apply_presentation(fig: go.Figure, presentation: bool) -> go.Figure:
    """Return a copy of ``fig`` sized for a projector when ``presentation`` is true.

    Scales the global font, titles, axis tick labels, annotations (subplot titles) and the text
    printed inside heatmap cells by ``PRESENTATION_FONT_SIZE / BASE_FONT_SIZE``; bigger markers;
    the height grows by 25% (by the font factor when heatmap cells carry text, so it still
    fits). Tick labels shortened with "…" show the full names again, and the margins grow to
    fit them (plotly's automargin). The panels of a :func:`grids_side_by_side` figure stand in
    one row (up to :data:`MAX_PANELS_PER_ROW`). No figure is taller than
    :data:`MAX_PRESENTATION_HEIGHT`, so each fits a 1920 x 1080 slide. With ``presentation``
    false, ``fig`` is returned unchanged (same object).
    """
    if not presentation:
        return fig
    out = go.Figure(fig)
    factor = PRESENTATION_FONT_SIZE / BASE_FONT_SIZE
    out.update_layout(
        font={"size": PRESENTATION_FONT_SIZE},
        hoverlabel={"font": {"size": PRESENTATION_FONT_SIZE}},
        title={"font": {"size": round(PRESENTATION_FONT_SIZE * 1.3)}},
        legend={"font": {"size": PRESENTATION_FONT_SIZE}},
    )
    out.for_each_xaxis(_full_tick_labels)
    out.for_each_yaxis(_full_tick_labels)
    grid = isinstance(out.layout.meta, dict) and "grid_layout" in out.layout.meta
    if grid:  # side-by-side panels: one row, gaps sized again for the larger, full labels
        _relayout_grids(out, factor)
    elif out.layout.height:
        # matrices with printed values grow with the text so the numbers still fit their cells
        has_cell_text = any(t.type == "heatmap" and t.texttemplate for t in out.data)
        grow = factor if has_cell_text else 1.25
        height = min(round(out.layout.height * grow), MAX_PRESENTATION_HEIGHT)
        grow = height / out.layout.height
        out.update_layout(height=height)
        if out.layout.width:  # a square matrix: export width and label margins grow with it
            m = out.layout.margin
            out.update_layout(
                width=round(out.layout.width * grow),
                margin={"l": round((m.l or 0) * factor), "b": round((m.b or 0) * factor)},
            )
    out.for_each_xaxis(lambda ax: _scale_axis_fonts(ax, factor))
    out.for_each_yaxis(lambda ax: _scale_axis_fonts(ax, factor))
    tick_px = out.layout.meta.get("grid_layout", {}).get("tick_px") if grid else None
    if tick_px:  # the grids' ticks shrunk to fit the slide (_relayout_grids)
        out.for_each_xaxis(lambda ax: ax.update(tickfont={"size": tick_px}))
        out.for_each_yaxis(lambda ax: ax.update(tickfont={"size": tick_px}))
    if not grid and out.layout.height:
        out.update_layout(
            height=min(max(out.layout.height, _height_for_labels(out)), MAX_PRESENTATION_HEIGHT)
        )
        _fit_matrix_ticks(out)
        _fit_category_rows(out)
    for ann in out.layout.annotations:
        size = ann.font.size or BASE_FONT_SIZE
        ann.update(font={"size": round(size * factor)})
    titled = any(
        a.yref == "paper" and a.yanchor == "bottom" and (a.y or 0) >= 1
        for a in out.layout.annotations
    )
    if not grid and titled and out.layout.margin.t:
        # subplot titles above the panels (wrapped QE scatter titles): their margin grows
        # with their font, so a title of several lines stays inside the chart
        out.update_layout(margin={"t": round(out.layout.margin.t * factor)})
    for trace in out.data:
        if trace.type == "heatmap" and trace.texttemplate:
            size = trace.textfont.size or BASE_FONT_SIZE
            trace.update(textfont={"size": round(size * factor)})
            if not _cell_text_fits(out, trace):  # values only where they fit (hover keeps them)
                trace.update(texttemplate=None)
        if trace.type == "scatter" and trace.marker is not None:
            size = trace.marker.size
            if isinstance(size, (int, float)):
                trace.update(marker={"size": round(size * 1.4)})
    return out


def _fit_matrix_ticks(fig: go.Figure) -> None:
    """Tick labels of a square matrix (-45 degree column labels, square cells) no larger than
    its cells keep legible: neighbouring column labels, ``cell sin 45`` apart, a line of text
    apart (30 metrics on a slide: 15 px rather than 20 px, which overprinted each other).
    The cell comes from the figure's height (capped at a slide), its title and the room the
    column labels take; the font not below 10 px."""
    xa, ya = fig.layout.xaxis, fig.layout.yaxis
    if not (fig.layout.width and xa.tickangle in (-45, 45) and ya.scaleanchor == "x"):
        return
    n = max(len(xa.categoryarray or ()), len(ya.categoryarray or ()), 1)
    labels = xa.ticktext if xa.ticktext is not None else xa.categoryarray or ()
    longest = max((len(str(t)) for t in labels), default=0)
    start = xa.tickfont.size or PRESENTATION_FONT_SIZE
    m = fig.layout.margin
    size = start
    while True:
        label = _GLYPH_WIDTH * size * longest + size + 10  # the row names, upright
        below = label * 0.71  # the column names, at -45 degrees
        side = fig.layout.height - (m.t or 60) - below - 10
        # in the narrowest window (PRESENTATION_CONTENT_PX) the square is as wide as the room
        # beside the row names, the right margin and the colour bar
        wide = PRESENTATION_CONTENT_PX - min(m.l or label + 10, label + 10) - (m.r or 80) - 60
        if min(side, wide) / n * 0.71 >= 1.1 * size or size <= 10:  # glyphs end unevenly
            break
        size -= 1
    if size < start:
        xa.update(tickfont={"size": size})
        ya.update(tickfont={"size": size})
    # margins no wider than the labels need (plotly's automargin grows them if they do), so
    # the cells get the room
    fig.update_layout(margin={"l": round(min(m.l or label + 10, label + 10)),
                              "b": round(min(m.b or below + 10, below + 10))})


#: Least room (px) a row of a category axis gets per px of its tick font: a line of text and
#: a little air, so neighbouring labels never touch
ROW_PER_FONT_PX = 1.3


def _fit_category_rows(fig: go.Figure) -> None:
    """Tick labels of the category rows of a chart capped at :data:`MAX_PRESENTATION_HEIGHT`
    (a dot chart of 30 metrics) no taller than their rows: the font shrinks until a row is
    :data:`ROW_PER_FONT_PX` lines of it high (not below 10 px). The rows' room is the figure's
    height less its title and the x axis' tick labels and two-line title. Square matrices are
    :func:`_fit_matrix_ticks`' work."""
    xa, ya = fig.layout.xaxis, fig.layout.yaxis
    if ya.scaleanchor == "x" or ya.type not in (None, "category"):
        return
    n = len(ya.categoryarray or ())
    if n < 2:
        return
    size = ya.tickfont.size or PRESENTATION_FONT_SIZE
    x_size = xa.tickfont.size or PRESENTATION_FONT_SIZE
    room = fig.layout.height - max(fig.layout.margin.t or 0, 30) - 4 * x_size - 10
    y_span = (ya.domain[1] - ya.domain[0]) if ya.domain else 1.0
    row = room * y_span / n
    if row < ROW_PER_FONT_PX * size:
        ya.update(tickfont={"size": max(10, math.floor(row / ROW_PER_FONT_PX))})


def _cell_text_fits(fig: go.Figure, trace) -> bool:
    """Whether the printed values of heatmap ``trace`` fit its cells in presentation mode:
    each value's width (its characters at the trace's font) within a cell of a figure
    :data:`PRESENTATION_CONTENT_PX` wide (the narrowest window it serves), and a line of text
    within a cell's height."""
    text = trace.text
    if text is None:
        return True
    import numpy as np

    cells = np.asarray(text, dtype=object)
    if cells.ndim != 2:
        return True
    n_rows, n_cols = max(cells.shape[0], 1), max(cells.shape[1], 1)
    size = trace.textfont.size or PRESENTATION_FONT_SIZE
    longest = max((len(str(v)) for v in cells.ravel()), default=0) * _GLYPH_WIDTH * size
    xa = fig.layout[f"xaxis{(trace.xaxis or 'x')[1:]}"]
    ya = fig.layout[f"yaxis{(trace.yaxis or 'y')[1:]}"]
    m = fig.layout.margin
    x_span = (xa.domain[1] - xa.domain[0]) if xa.domain else 1.0
    y_span = (ya.domain[1] - ya.domain[0]) if ya.domain else 1.0
    width = min(fig.layout.width or PRESENTATION_CONTENT_PX, PRESENTATION_CONTENT_PX)
    width -= (m.l or 80) + (m.r or 80)
    height = (fig.layout.height or 450) - (m.t or 100) - (m.b or 80)
    cell_w, cell_h = width * x_span / n_cols, height * y_span / n_rows
    return longest <= 0.9 * cell_w and size * 1.2 <= cell_h


def _full_tick_labels(ax) -> None:
    """Tick labels shortened with "…" back to the full names; the margins then grow to fit
    every tick label (automargin), as the larger font needs anyway."""
    if ax.tickvals is not None and ax.ticktext is not None:
        if any("…" in str(t) for t in ax.ticktext):
            ax.update(ticktext=[escape_html(v) for v in ax.tickvals])
    ax.update(automargin=True)


def _height_for_labels(fig: go.Figure) -> int:
    """Least height (px) that leaves the category rows of ``fig`` a legible size under its
    title and above its full, rotated column labels (plotly's automargin stops short of a
    plot area under 64 px and then draws labels outside the figure)."""
    below = 0.0
    for ax in fig.select_xaxes():
        if ax.tickvals is None or ax.ticktext is None:
            continue
        size = ax.tickfont.size or BASE_FONT_SIZE
        longest = max((len(str(t)) for t in ax.ticktext), default=0)
        slant = 0.71 if ax.tickangle in (-45, 45) else 1.0
        below = max(below, _GLYPH_WIDTH * size * longest * slant + size + 10)
    rows = 0
    for ax in fig.select_yaxes():
        if ax.categoryarray is not None:
            rows = max(rows, len(ax.categoryarray) * (ax.tickfont.size or BASE_FONT_SIZE) * 1.6)
    return round((fig.layout.margin.t or 60) + max(rows, 120) + below + 10)


def _scale_axis_fonts(ax, factor: float) -> None:
    tick = ax.tickfont.size or BASE_FONT_SIZE
    ax.update(tickfont={"size": round(tick * factor)})
    if ax.title and ax.title.text:
        size = ax.title.font.size or BASE_FONT_SIZE
        ax.update(title={"font": {"size": round(size * factor)}})


def _relayout_grids(fig: go.Figure, factor: float) -> None:
    """Recompute the panel domains of a :func:`grids_side_by_side` figure in place for tick
    labels ``factor`` times larger and shown in full, up to :data:`MAX_PANELS_PER_ROW` panels a
    row, 25% taller panels -- less if the figure would outgrow :data:`MAX_PRESENTATION_HEIGHT`."""
    spec = dict(fig.layout.meta["grid_layout"])
    n = len(fig.layout.annotations)
    size = (fig.layout.xaxis.tickfont.size or BASE_FONT_SIZE) * factor
    longest = {"x": 0, "y": 0}
    for letter, axes in (("x", fig.select_xaxes()), ("y", fig.select_yaxes())):
        for ax in axes:
            labels = ax.ticktext if ax.ticktext is not None else ax.categoryarray or ()
            longest[letter] = max([longest[letter], *(len(str(t)) for t in labels)])
    spec["x_chars"], spec["y_chars"] = longest["x"], longest["y"]
    spec["panel_height"] = round(spec["panel_height"] * 1.25)
    spec["axis_title_font"] = BASE_FONT_SIZE * factor  # scaled with the other fonts below
    # legible columns (16-30 items): fewer panels a row until neighbouring -45 degree column
    # labels keep a line apart, as on the page; they stack rather than shrink
    legible, items = spec.get("legible_columns"), spec.get("n_max") or 1
    for ncols in range(min(n, MAX_PANELS_PER_ROW), 0, -1):
        spec["ncols"], spec["nrows"] = ncols, math.ceil(n / ncols)
        geo = _grid_geometry(spec, size)
        panel_px = geo["width"] * (SLIDE_GRID_PX - geo["margin"]["l"] - geo["margin"]["r"])
        if ncols == 1 or not legible or panel_px / items >= LABEL_CELL_FACTOR * size:
            break
    if geo["height_px"] > MAX_PRESENTATION_HEIGHT:
        # shorter panels to fit a slide -- but, with legible columns, rows a line high (the
        # stacked panels then fit a slide each, the figure scrolls)
        least = math.ceil(1.3 * size * items) if legible else 120
        excess = geo["height_px"] - MAX_PRESENTATION_HEIGHT
        spec["panel_height"] = max(spec["panel_height"] - math.ceil(excess / spec["nrows"]), least)
        geo = _grid_geometry(spec, size)
    # rows of panels stacked and taller than the smaller window (e.g. 4 language pairs of
    # 12 metrics at 1400 x 900: 1,046 px): where rows of MIN_FIT_CELL_PX fit, the panels and
    # their tick labels shrink to that, so the figure is seen whole there too; otherwise (more
    # items) it stays legible and the page gives each row of panels a figure of its own
    # (slide_rows)
    if geo["height_px"] > SMALL_FIT_HEIGHT and legible and spec["nrows"] > 1:
        floor = items * MIN_FIT_CELL_PX
        for height in range(spec["panel_height"], floor - 1, -4):  # the tallest that fits
            trial = {**spec, "panel_height": height}
            trial_size = min(size, height / (1.3 * items))
            if _grid_geometry(trial, trial_size)["height_px"] <= SMALL_FIT_HEIGHT:
                spec, size = trial, trial_size
                spec["tick_px"] = round(size, 1)
                geo = _grid_geometry(spec, size)
                break
    ncols = spec["ncols"]
    rows_shared = spec["rows_shared"]
    for k, ann in enumerate(fig.layout.annotations):
        row, col = divmod(k, ncols)
        x0 = col * (geo["width"] + geo["hspace"])
        y1 = 1.0 - row * (geo["height"] + geo["vspace"])
        suffix = "" if k == 0 else str(k + 1)
        fig.layout[f"xaxis{suffix}"].domain = [x0, x0 + geo["width"]]
        yaxis = fig.layout[f"yaxis{suffix}"]
        yaxis.domain = [max(y1 - geo["height"], 0.0), y1]
        if spec["show"]:  # rows shared: only the first column names them
            yaxis.showticklabels = col == 0 or not rows_shared
        if spec.get("y_title"):  # left of the first column only
            yaxis.title.text = spec["y_title"] if col == 0 else None
        ann.update(x=x0 + geo["width"] / 2, y=y1)
    fig.update_layout(margin=geo["margin"], height=geo["height_px"])
    fig.layout.meta = {**fig.layout.meta, "grid_layout": spec}  # the layout drawn


def panels_per_row(names: Sequence[str], titles: Sequence[str]) -> int:
    """How many square significance grids over the items ``names`` (the same rows in every
    panel), titled ``titles``, stand side by side in presentation mode: the most (up to
    :data:`MAX_PANELS_PER_ROW`) for which, in a figure :data:`PRESENTATION_CONTENT_PX` wide
    with full row names and a colour bar, every panel keeps cells of :data:`MIN_CELL_PX` and is
    as wide as its title (so titles never print over each other). At least 1.
    """
    n = max(len(names), 1)
    factor = PRESENTATION_FONT_SIZE / BASE_FONT_SIZE
    size = int(max(7, min(BASE_FONT_SIZE, 300 / n))) * factor  # grids_side_by_side's ticks
    longest = max((len(str(v)) for v in names), default=0)
    title_px = max((_GLYPH_WIDTH * _PANEL_TITLE_PX * len(str(t)) for t in titles), default=0.0)
    need = max(n * MIN_CELL_PX, title_px + 8)
    for ncols in range(min(len(titles), MAX_PANELS_PER_ROW), 1, -1):
        spec = {
            "ncols": ncols, "nrows": 1, "rows_shared": True, "show": True,
            "y_chars": longest, "x_chars": longest, "title": True, "panel_height": 400,
            "colorbar": True, "horizontal_spacing": None,
        }  # fmt: skip
        geo = _grid_geometry(spec, size)
        plot_px = PRESENTATION_CONTENT_PX - geo["margin"]["l"] - geo["margin"]["r"]
        if geo["width"] * plot_px >= need:
            return ncols
    return 1


def slide_rows(titles: Sequence[str], names: Sequence[str]) -> list[list[str]]:
    """``titles`` (grid panels over ``names``) in rows of :func:`panels_per_row`: one figure
    per row in presentation mode, each a slide high, instead of one figure whose wrapped rows
    would have to shrink to fit the slide."""
    titles = list(titles)
    k = panels_per_row(names, titles)
    return [titles[i : i + k] for i in range(0, len(titles), k)]


def fits_slide(fig: go.Figure) -> bool:
    """Whether ``fig`` in presentation mode (:func:`apply_presentation`) is seen whole in the
    smaller window (no taller than :data:`MAX_PRESENTATION_HEIGHT`): a page draws the panels
    of one that is not (legible grids stacked into rows) each in a figure of its own."""
    return (apply_presentation(fig, True).layout.height or 0) <= MAX_PRESENTATION_HEIGHT
