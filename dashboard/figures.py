"""Pure figure builders: data in, :class:`plotly.graph_objects.Figure` out.

No Streamlit here and no statistics either: builders receive computed results (p-value
matrices, correlations, ...) and only lay them out. They are tested through ``fig.data`` and
``fig.layout``.

Shared builders every page reuses (keep their signatures stable):

- :func:`correlation_heatmap` -- square matrix of correlations, values printed in the cells.
- :func:`significance_grid` -- pairwise significance: cell (row i, column j) coloured when i
  significantly beats j at ``alpha``; darker for smaller p; hover from extra matrices.
- :func:`grids_side_by_side` -- several heatmap/grid figures as panels of one figure.
- :func:`apply_presentation` -- larger fonts for a projector.
- :func:`base_layout` -- the house style (white template, fonts, margins).

Colours: the Okabe-Ito palette (:data:`PALETTE`) for categories, a single-hue sequential
green for significance (ColorBrewer Greens, colour-blind safe, as the paper's Figure 2b) and the
diverging red-blue scale centred on 0 for correlations.

Page-specific builders live in their own sections below (``# ---- <page> ----``).
"""

from __future__ import annotations

import copy
import hashlib
import math
import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots

# ---------------------------------------------------------------------------------------------
# ---- Shared style ----
# ---------------------------------------------------------------------------------------------

#: Okabe-Ito colour-blind-safe palette (black first, for text-like marks).
PALETTE = (
    "#0072B2",  # blue
    "#D55E00",  # vermillion
    "#009E73",  # bluish green
    "#E69F00",  # orange
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#000000",  # black
)
HIGHLIGHT = "#D55E00"  #: colour for a marked item (e.g. the most influential system)
NOT_SIGNIFICANT = "#E3E3E3"  #: tested but not significant cells in a significance grid
FONT_FAMILY = "Source Sans Pro, Helvetica Neue, Arial, sans-serif"
BASE_FONT_SIZE = 13
PRESENTATION_FONT_SIZE = 20

#: Sequential green (ColorBrewer Greens 3..9), light = barely significant, dark = tiny p.
SIGNIFICANCE_COLORSCALE = [
    [0.0, "#c7e9c0"],
    [0.25, "#a1d99b"],
    [0.5, "#41ab5d"],
    [0.75, "#238b45"],
    [1.0, "#00441b"],
]
#: Diverging red (negative) - white (0) - blue (positive) for correlations in [-1, 1].
CORRELATION_COLORSCALE = "RdBu"
#: Sequential light-to-dark blue for non-negative ranges (ColorBrewer Blues).
SEQUENTIAL_COLORSCALE = "Blues"

#: How many decades of p below alpha the significance colour scale spans.
SIGNIFICANCE_DECADES = 3
#: Colour value of a tested, not significant cell (see :func:`significance_colour_value`): the
#: grey band from here to 0 at the bottom of the significance colour axis.
NOT_SIGNIFICANT_Z = -0.625
_NS_STOP = -NOT_SIGNIFICANT_Z / (SIGNIFICANCE_DECADES - NOT_SIGNIFICANT_Z)
#: The significance colour axis: grey for not significant, then :data:`SIGNIFICANCE_COLORSCALE`.
_SIGNIFICANCE_AXIS_COLORSCALE = [
    [0.0, NOT_SIGNIFICANT],
    [_NS_STOP, NOT_SIGNIFICANT],
    *([_NS_STOP + (1 - _NS_STOP) * at, colour] for at, colour in SIGNIFICANCE_COLORSCALE),
]


_AXIS_STYLE = {
    "gridcolor": "#E5E8EE",
    "linecolor": "#B8BEC8",
    "zerolinecolor": "#C9CED6",
    "ticks": "",
    "automargin": True,
    "title": {"standoff": 12},
}
#: The house template (white, like "plotly_white", Okabe-Ito colourway), registered as
#: plotly's default when this module is imported, so every figure of the app starts from it.
#: Assigning the built-in "plotly_white" to a figure deep-copies and validates a large
#: template (~0.1 s per figure, and ~6 kB more JSON per chart); this one is small.
HOUSE_TEMPLATE = go.layout.Template(
    layout={
        "paper_bgcolor": "#ffffff",
        "plot_bgcolor": "#ffffff",
        "colorway": list(PALETTE),
        "xaxis": _AXIS_STYLE,
        "yaxis": _AXIS_STYLE,
        "hoverlabel": {"align": "left"},
        "hovermode": "closest",
    }
)
pio.templates["mt_significance"] = HOUSE_TEMPLATE
pio.templates.default = "mt_significance"


def base_layout(
    fig: go.Figure, *, title: str | None = None, height: int | None = None
) -> go.Figure:
    """Apply the house style in place and return ``fig`` (fonts, margins, title placement;
    colours come from :data:`HOUSE_TEMPLATE`, plotly's default once this module is imported)."""
    fig.update_layout(base_layout_dict(title=title, height=height))
    return fig


def base_layout_dict(*, title: str | None = None, height: int | None = None) -> dict:
    """The house layout as a plain dict, to build a figure in one call
    (``go.Figure(data, layout={**base_layout_dict(...), ...})``): each ``update_layout`` on a
    finished figure costs milliseconds, which adds up on pages with many panels."""
    layout = {
        "font": {"family": FONT_FAMILY, "size": BASE_FONT_SIZE, "color": "#111111"},
        "margin": {"l": 10, "r": 10, "t": 60 if title else 30, "b": 10},
        "hoverlabel": {"font": {"family": FONT_FAMILY, "size": BASE_FONT_SIZE}},
    }
    if title is not None:
        # 12 px in from the edge: a PNG export is not cut flush at the first letter
        layout["title"] = {
            "text": escape_html(title),  # names in titles are drawn literally, never as HTML
            "x": 0.0,
            "xanchor": "left",
            "pad": {"l": 12},
        }
    if height is not None:
        layout["height"] = height
    return layout


def apply_presentation(fig: go.Figure, presentation: bool) -> go.Figure:
    """Return a copy of ``fig`` sized for a projector when ``presentation`` is true.

    Scales the global font, titles, axis tick labels, annotations (subplot titles) and the text
    printed inside heatmap cells by ``PRESENTATION_FONT_SIZE / BASE_FONT_SIZE``; bigger markers;
    the height grows by 25% (by the font factor when heatmap cells carry text, so it still
    fits). With ``presentation`` false, ``fig`` is returned unchanged (same object).
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
    grid = isinstance(out.layout.meta, dict) and "grid_layout" in out.layout.meta
    if grid:  # side-by-side panels: gaps sized again for the larger tick labels
        _relayout_grids(out, factor)
    elif out.layout.height:
        # matrices with printed values grow with the text so the numbers still fit their cells
        has_cell_text = any(t.type == "heatmap" and t.texttemplate for t in out.data)
        grow = factor if has_cell_text else 1.25
        out.update_layout(height=round(out.layout.height * grow))
        if out.layout.width:  # a square matrix: export width and label margins grow with it
            m = out.layout.margin
            out.update_layout(
                width=round(out.layout.width * grow),
                margin={"l": round((m.l or 0) * factor), "b": round((m.b or 0) * factor)},
            )
    out.for_each_xaxis(lambda ax: _scale_axis_fonts(ax, factor))
    out.for_each_yaxis(lambda ax: _scale_axis_fonts(ax, factor))
    for ann in out.layout.annotations:
        size = ann.font.size or BASE_FONT_SIZE
        ann.update(font={"size": round(size * factor)})
    for trace in out.data:
        if trace.type == "heatmap" and trace.texttemplate:
            size = trace.textfont.size or BASE_FONT_SIZE
            trace.update(textfont={"size": round(size * factor)})
        if trace.type == "scatter" and trace.marker is not None:
            size = trace.marker.size
            if isinstance(size, (int, float)):
                trace.update(marker={"size": round(size * 1.4)})
    return out


#: Significant digits of the numbers a chart sends to the browser (:func:`browser_figure`):
#: as float32 (what plotly's base64 arrays held before); hover labels print at most 4.
BROWSER_DIGITS = 7
#: Trace types drawn on x/y axes: the house template's axis style applies to their axes.
_CARTESIAN = frozenset(
    {"scatter", "scattergl", "bar", "heatmap", "box", "violin", "histogram", "histogram2d",
     "contour", "histogram2dcontour", "image", "waterfall", "funnel", "candlestick", "ohlc"}
)  # fmt: skip
_AXIS_KEY = re.compile(r"^[xy]axis\d*$")


class BrowserFigure(go.Figure):
    """A figure's JSON spec ready for ``st.plotly_chart`` (made by :func:`browser_figure`).

    A ``go.Figure`` only so that Streamlit takes it as one: Streamlit serialises a figure
    through :meth:`to_dict`, which here returns the prepared :attr:`spec` as it is. plotly's
    own ``to_dict`` deep-copies every array and re-encodes numpy arrays as base64 -- the two
    costs this avoids. The figure object's own ``data`` and ``layout`` stay empty: build and
    test with the original figure, not with this.
    """

    def __init__(self, spec: dict):
        super().__init__(_validate=False)
        self._spec = spec  # plotly figures take only underscore attributes

    @property
    def spec(self) -> dict:
        """``{"data": [...], "layout": {...}}`` as sent to the browser."""
        return self._spec

    def to_dict(self) -> dict:
        return {"data": self._spec["data"], "layout": self._spec["layout"]}


def browser_figure(fig: go.Figure) -> BrowserFigure:
    """``fig`` in the form Streamlit's chart draws once: the same picture, JSON-stable.

    Streamlit mounts a new chart and right after that gives plotly.js a JSON copy of the
    same figure (its theme effect). plotly.js redraws from scratch unless the copy compares
    equal to what it has drawn, and these parts never do:

    * typed arrays (plotly's base64 numpy arrays): numbers go as plain lists instead,
      rounded to :data:`BROWSER_DIGITS` significant digits (NaN/inf as null), and
      ``layout.datarevision`` is a hash of the figure's content, so plotly.js compares the
      revision instead of the arrays;
    * ``layout.template`` (compared as an object, so a copy always differs): the house
      template is written into the layout instead (a template with trace defaults stays);
    * ``layout.meta`` (compared the same way): dropped -- it is for Python code
      (:func:`apply_presentation`, tests); and ``layout.width``, which Streamlit replaces by
      the container's width after the first draw (it is for exports).

    Without this, every changed chart was laid out and drawn twice. Exports (kaleido) use
    the original figure.
    """
    digest = hashlib.blake2b(digest_size=8)
    data = [_browser_values(trace.to_plotly_json(), digest) for trace in fig.data]
    layout = _browser_values(fig.layout.to_plotly_json(), digest)
    layout.pop("meta", None)
    layout.pop("width", None)
    template = layout.pop("template", None)
    if template and not _inline_template(layout, template, data):
        layout["template"] = template
    layout["datarevision"] = digest.hexdigest()
    return BrowserFigure({"data": data, "layout": layout})


def _browser_values(value, digest):
    """``value`` with numeric arrays as rounded lists (recursively; other arrays stay numpy,
    which plotly's JSON encoder writes as lists), everything hashed into ``digest``."""
    if isinstance(value, dict):
        return {k: _browser_values(v, digest) for k, v in value.items()}
    if isinstance(value, (pd.Series, pd.Index)):
        value = value.to_numpy()
    if isinstance(value, np.ndarray):
        digest.update(f"{value.dtype}{value.shape}".encode())
        if value.dtype.kind == "O":
            digest.update("\x1f".join(map(str, value.ravel())).encode())
        else:
            digest.update(np.ascontiguousarray(value).tobytes())
        return _rounded_list(value) if value.dtype.kind in "biuf" else value
    if isinstance(value, (list, tuple)):
        digest.update(b"[")
        return [_browser_values(v, digest) for v in value]
    digest.update(repr(value).encode())
    return value


def _rounded_list(values: np.ndarray) -> list:
    """Nested list of ``values`` at :data:`BROWSER_DIGITS` significant digits; None for
    NaN/inf (JSON null, a gap to plotly.js, as NaN was). Integers and booleans unchanged."""
    if values.dtype.kind != "f":
        return values.tolist()
    rounded = round_significant(values, BROWSER_DIGITS)
    finite = np.isfinite(rounded)
    if finite.all():
        return rounded.tolist()
    out = rounded.astype(object)
    out[~finite] = None
    return out.tolist()


def round_significant(values: np.ndarray, digits: int) -> np.ndarray:
    """``values`` (float64) rounded to ``digits`` significant digits, each the double nearest
    its decimal (so it prints short); zero, NaN and inf unchanged."""
    v = np.array(values, dtype=float)
    nonzero = np.isfinite(v) & (v != 0)
    exp = np.zeros(v.shape)
    exp[nonzero] = digits - 1 - np.floor(np.log10(np.abs(v[nonzero])))
    exp = np.clip(exp, -300, 300)
    # m / 10**e with both exact (e <= 22) is the double nearest the decimal: a short JSON number
    with np.errstate(invalid="ignore"):
        mantissa = np.round(v * 10.0**exp)
        rounded = np.where(exp >= 0, mantissa / 10.0**exp, mantissa * 10.0 ** (-exp))
    inexact = nonzero & (np.abs(exp) > 22)  # 10**e not exact in binary: round via the decimal
    if inexact.any():
        rounded[inexact] = [float(f"{x:.{digits}g}") for x in v[inexact]]
    return np.where(nonzero, rounded, v)


def _inline_template(layout: dict, template: dict, data: list[dict]) -> bool:
    """Write the template's layout defaults into ``layout`` (in place; values already set
    win); axis defaults go to every x/y axis the figure has. False, and ``layout`` untouched,
    for a template this cannot write out (trace or item defaults): it is sent as it is."""
    defaults = template.get("layout", {})
    if template.get("data") or any(k.endswith("defaults") for k in defaults):
        return False
    axes = {k for k in layout if _AXIS_KEY.match(k)}
    for trace in data:
        if trace.get("type", "scatter") in _CARTESIAN:
            for letter in "xy":
                ref = trace.get(f"{letter}axis", letter)
                axes.add(f"{letter}axis{ref[1:]}")
    for key, default in defaults.items():
        if key in ("xaxis", "yaxis"):
            for axis in sorted(a for a in axes if a.startswith(key[0])):
                layout[axis] = _with_defaults(layout.get(axis), default)
        else:
            layout[key] = _with_defaults(layout.get(key), default)
    return True


def _with_defaults(value, default):
    """``value`` with ``default`` filled in where unset (nested dicts merged; a set non-dict
    value wins)."""
    if value is None:
        return copy.deepcopy(default)
    if isinstance(value, dict) and isinstance(default, dict):
        out = dict(value)
        for k, d in default.items():
            out[k] = _with_defaults(value.get(k), d)
        return out
    return value


def _scale_axis_fonts(ax, factor: float) -> None:
    tick = ax.tickfont.size or BASE_FONT_SIZE
    ax.update(tickfont={"size": round(tick * factor)})
    if ax.title and ax.title.text:
        size = ax.title.font.size or BASE_FONT_SIZE
        ax.update(title={"font": {"size": round(size * factor)}})


def format_number(value: float, digits: int = 3) -> str:
    """Human-readable number for hover/labels: '-' for NaN, scientific for tiny values."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    value = float(value)
    if value != 0 and abs(value) < 10 ** (-digits):
        return f"{value:.{max(digits - 1, 1)}e}"
    return f"{value:.{digits}f}"


def format_pvalue(p: float) -> str:
    """p-value text: 4 decimals, '< 0.0001' below that, '–' for NaN."""
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    return "< 0.0001" if p < 1e-4 else f"{p:.4f}"


#: Tick labels longer than this many characters are shortened with "…" (hover keeps the name).
MAX_TICK_CHARS = 18
#: Average glyph width as a fraction of the font size (sans-serif), to size gaps for labels.
_GLYPH_WIDTH = 0.58
#: Width (CSS px) the side-by-side grids are laid out for: the content column of a ~1400 px
#: window with the sidebar open is ~930 px (wider windows only widen the gaps).
_GRID_LAYOUT_WIDTH = 900


def escape_html(text) -> str:
    """``text`` with ``&``, ``<`` and ``>`` as HTML entities, so a user-supplied name such as
    ``x<b>y</b>`` is drawn literally in Plotly titles, annotations and tick labels (Plotly reads
    a subset of HTML in every text it draws)."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def short_labels(names: Sequence[str], max_chars: int = MAX_TICK_CHARS) -> list[str]:
    """Tick labels for ``names``: HTML-escaped (:func:`escape_html`) and, above ``max_chars``
    characters, shortened to a prefix + "…" (prefix + "…" + suffix where prefixes collide)."""
    names = [str(n) for n in names]
    out = [n if len(n) <= max_chars else n[: max_chars - 1] + "…" for n in names]
    if len(set(out)) < len(set(names)):
        head = max(max_chars - 7, 4)
        out = [n if len(n) <= max_chars else n[:head] + "…" + n[-6:] for n in names]
    return [escape_html(s) for s in out]


def _label_px(labels: Sequence[str], size: float) -> float:
    """Approximate drawn width in px of the longest label at font ``size``."""
    longest = max((len(s) for s in labels), default=0)
    return _GLYPH_WIDTH * size * longest


def _category_ticks(names: Sequence[str]) -> dict:
    """Axis entries that show ``names`` as short, escaped tick labels (categories keep the full
    names, so hover still shows them)."""
    names = [str(n) for n in names]
    return {"tickmode": "array", "tickvals": names, "ticktext": short_labels(names)}


def _category_rows(names: Sequence[str]) -> dict:
    """Y-axis entries listing ``names`` top to bottom as categories in the given order."""
    return {
        "type": "category",
        "categoryorder": "array",
        "categoryarray": list(names),
        "autorange": "reversed",
        **_category_ticks(names),
    }


def _tick_font_size(n: int) -> int:
    """Tick label size that keeps up to ~60 category labels legible."""
    return int(max(8, min(BASE_FONT_SIZE, 600 / max(n, 1))))


# ---------------------------------------------------------------------------------------------
# ---- Shared heatmaps and significance grids ----
# ---------------------------------------------------------------------------------------------


def correlation_heatmap(
    matrix: pd.DataFrame,
    *,
    title: str | None = None,
    zmin: float = -1.0,
    zmax: float = 1.0,
    value_format: str = ".2f",
    show_values: bool = True,
    colorbar_title: str = "r",
    hover_label: str = "r",
    height: int | None = None,
) -> go.Figure:
    """Heatmap of a square (or rectangular) correlation matrix with the values in the cells.

    Rows run top to bottom in ``matrix.index`` order, columns left to right in
    ``matrix.columns`` order (pass the matrix already ordered, e.g. by |r| with human).
    Colours via ``layout.coloraxis`` (so the figure combines with :func:`grids_side_by_side`):
    diverging red-blue centred on 0 when ``zmin < 0 < zmax``, otherwise sequential blues over
    [zmin, zmax] (zoom in on high correlations, as the paper's Figure 2a). NaN cells stay blank.

    Returns
    -------
    go.Figure
        One ``Heatmap`` trace; ``z`` is ``matrix.to_numpy()``; cell text via ``texttemplate``.
    """
    z = matrix.to_numpy(dtype=float)
    rows = [str(v) for v in matrix.index]
    cols = [str(v) for v in matrix.columns]
    n = max(len(rows), len(cols))
    side = height or int(min(900, max(380, 28 * n + 160)))
    layout = base_layout_dict(title=title, height=side)
    layout.update(_square_category_axes(rows, cols, height=side, right=CORRELATION_COLORBAR_PX))
    decimals = (
        int(value_format[1:-1]) if value_format[:1] == "." and value_format[1:-1].isdigit() else 2
    )
    text = cell_text(z, decimals)
    # the values must fit a cell: estimate its side from the square plot area and shrink the
    # font to fit the longest text; too small to read -> no printed values (hover has them)
    cell_px = layout["meta"]["plot_px"] / max(n, 1)
    longest = max((len(s) for s in text.ravel()), default=1)
    font = min(BASE_FONT_SIZE, (cell_px - 4) / (_GLYPH_WIDTH * max(longest, 1)))
    printed = show_values and font >= 7
    trace = go.Heatmap(
        z=z,
        x=cols,
        y=rows,
        coloraxis="coloraxis",
        xgap=1,
        ygap=1,
        hovertemplate=f"%{{y}} × %{{x}}<br>{hover_label} = %{{z:{value_format}}}<extra></extra>",
        text=text if printed else None,
        texttemplate="%{text}" if printed else None,
        textfont={"size": int(font) if printed else BASE_FONT_SIZE},
        name=title or "correlation",
    )
    layout["coloraxis"] = {
        "colorscale": CORRELATION_COLORSCALE if zmin < 0 < zmax else SEQUENTIAL_COLORSCALE,
        "cmin": zmin,
        "cmax": zmax,
        "cmid": 0.0 if zmin < 0 < zmax else None,
        "colorbar": {"title": {"text": colorbar_title}, "thickness": 14},
    }
    return go.Figure(trace, layout=layout)


def cell_text(values: np.ndarray, decimals: int = 2) -> np.ndarray:
    """Short cell labels for a correlation matrix: ``decimals`` decimals without the leading
    zero (".97", "−.41"; 1 and −1 as "1" and "−1"), "" for NaN -- as journals print r."""
    v = np.asarray(values, dtype=float)
    out = np.full(v.shape, "", dtype=object)
    for idx in zip(*np.nonzero(np.isfinite(v)), strict=True):
        x = round(float(v[idx]), decimals)
        if abs(x) == 1.0:
            s = "1"
        else:
            s = f"{abs(x):.{decimals}f}".lstrip("0")
        out[idx] = ("−" if x < 0 else "") + s
    return out


def _square_category_axes(
    rows: Sequence[str], cols: Sequence[str], *, height: int | None = None, right: int = 10
) -> dict:
    """Layout entries for a matrix: categorical axes in the given order, first row on top,
    square cells, tick labels shortened (:func:`short_labels`; hover keeps the full name).

    With ``height``, also margins sized from the labels (``right`` px on the right, room for a
    colour bar) and a ``width`` that leaves the colour bar next to the matrix (no empty third
    in a PNG export; the page stretches it anyway);
    ``meta["plot_px"]`` is the estimated side of the square plot area.
    """
    size = _tick_font_size(max(len(rows), len(cols)))
    common = {
        "type": "category",
        "categoryorder": "array",
        "tickfont": {"size": size},
        "showgrid": False,
        "zeroline": False,
        "constrain": "domain",
    }
    out = {
        "xaxis": {
            **common,
            **_category_ticks(cols),
            "categoryarray": list(cols),
            "tickangle": -45,
        },
        "yaxis": {
            **common,
            **_category_ticks(rows),
            "categoryarray": list(rows),
            "autorange": "reversed",
            "scaleanchor": "x",
        },
        "plot_bgcolor": "#ffffff",
    }
    if height is not None:
        ylab = _label_px(short_labels(rows), size) + 12
        xlab = _label_px(short_labels(cols), size) * 0.71 + size + 10
        top = 60
        plot_px = max(height - top - xlab - 10, 50)
        out["margin"] = {"l": int(ylab) + 10, "r": right, "t": top, "b": int(xlab) + 10}
        # the margins fit the labels already: no plotly.js automargin pass (a second layout
        # of the whole chart on every draw)
        out["xaxis"]["automargin"] = False
        out["yaxis"]["automargin"] = False
        out["width"] = int(ylab + 10 + plot_px * max(len(cols), 1) / max(len(rows), 1) + right)
        out["meta"] = {"plot_px": plot_px}
    return out


def significance_colour_value(pvalue: np.ndarray, alpha: float) -> np.ndarray:
    r"""Colour value of each cell of a significance grid, in decades of p below ``alpha``.

    .. math:: z = \min\left(\log_{10}\frac{\alpha}{p},\ D\right) \quad (p < \alpha)

    with :math:`D` = ``SIGNIFICANCE_DECADES`` (0: p just below alpha; :math:`D`: p at least
    :math:`D` decades below alpha); tested cells with ``p >= alpha`` get
    :data:`NOT_SIGNIFICANT_Z` (the grey band at the bottom of the colour axis); NaN p
    (untested: mirror half, diagonal) stays NaN.
    The scale is the same for every alpha, so panels built at one alpha share one colour axis.
    Values are rounded to 3 decimals (a thousandth of a decade, far below a visible colour
    step), which keeps the numbers sent to the browser short; p < alpha still gives z >= 0.
    """
    p = np.asarray(pvalue, dtype=float)
    floor = alpha * 10.0 ** (-SIGNIFICANCE_DECADES)
    with np.errstate(divide="ignore", invalid="ignore"):
        value = np.round(np.log10(alpha / np.clip(p, floor, None)), 3)
    return np.where(p < alpha, value, np.where(np.isnan(p), np.nan, NOT_SIGNIFICANT_Z))


HoverSpec = Mapping[str, "pd.DataFrame | tuple[pd.DataFrame, str]"]

#: Right margin (px) kept for a colour bar: plotly.js pushes a too-small margin out to fit the
#: bar and then lays the whole chart out a second time. The significance bar's longest tick,
#: "≥ 0.001 (n.s.)", needs 133-142 px (by font); a correlation bar (-1 ... 1) ~83 px.
SIGNIFICANCE_COLORBAR_PX = 152
CORRELATION_COLORBAR_PX = 95

#: Cells per side up to which a significance grid draws a 1 px gap between cells.
MAX_GAPPED_CELLS = 30


def _unchecked_figure(data: list[dict], layout: dict) -> go.Figure:
    """``go.Figure(data, layout)`` without plotly's per-property validation.

    For the big builders on the alpha path (:func:`significance_grid`,
    :func:`grids_side_by_side`): validating 10 panels of 50 x 50 cells costs ~50 ms of each
    re-render, for dicts this module writes and the figure tests validate
    (``go.Figure(fig.to_dict())`` in tests/dashboard/test_figures_metrics.py). The result is
    an ordinary ``go.Figure``: ``fig.data[k].z``, ``fig.layout.coloraxis`` etc. work as usual.
    """
    return go.Figure(data=data, layout=layout, _validate=False)


#: d3 format of the p-value in significance hover labels.
P_FORMAT = ".3g"


def round_as_shown(values: np.ndarray, fmt: str) -> np.ndarray:
    """``values`` rounded to what the d3 format ``fmt`` prints (``".Nf"``: N decimals,
    ``".Ng"``: N significant digits; other formats: unchanged), as float64, NaN kept.

    Hover data is only ever shown through its format, so rounding it first changes no label
    and keeps the numbers sent to the browser short (p = 1e-60 stays 1e-60).
    """
    v = np.asarray(values, dtype=float)
    match = re.fullmatch(r"\.(\d+)([fg])", fmt)
    if match is None:
        return v
    digits, kind = int(match.group(1)), match.group(2)
    return np.round(v, digits) if kind == "f" else round_significant(v, max(digits, 1))


def _hover_data(
    pvalue: pd.DataFrame, hover: HoverSpec | None
) -> tuple[np.ndarray, list[tuple[str, str]]]:
    """Stack p and the extra hover matrices into ``customdata`` (rows x cols x k), each
    rounded to what its hover format prints (:func:`round_as_shown`)."""
    layers = [round_as_shown(pvalue.to_numpy(dtype=float), P_FORMAT)]
    labels: list[tuple[str, str]] = []
    for label, spec in (hover or {}).items():
        frame, fmt = spec if isinstance(spec, tuple) else (spec, ".3f")
        values = frame.reindex(index=pvalue.index, columns=pvalue.columns)
        layers.append(round_as_shown(values.to_numpy(dtype=float), fmt))
        labels.append((label, fmt))
    return np.stack(layers, axis=-1), labels


def significance_coloraxis(alpha: float) -> dict:
    """``layout.coloraxis`` of the significance figures: grey "n.s." band below 0, greens for
    ``SIGNIFICANCE_DECADES`` decades of p below ``alpha``
    (see :func:`significance_colour_value`)."""
    ticks = [alpha * 10.0**-k for k in range(SIGNIFICANCE_DECADES + 1)]
    return {
        "colorscale": _SIGNIFICANCE_AXIS_COLORSCALE,
        "cmin": NOT_SIGNIFICANT_Z,
        "cmax": SIGNIFICANCE_DECADES,
        "colorbar": {
            "title": {"text": "p"},
            "tickvals": [NOT_SIGNIFICANT_Z / 2, *range(SIGNIFICANCE_DECADES + 1)],
            "ticktext": [
                f"≥ {alpha:g} (n.s.)",
                *(f"{t:g}" if k else f"{t:g} (α)" for k, t in enumerate(ticks)),
            ],
            "thickness": 14,
        },
    }


def significance_grid(
    pvalue: pd.DataFrame,
    *,
    alpha: float = 0.05,
    hover: Mapping[str, pd.DataFrame] | None = None,
    title: str | None = None,
    verb: str = "beats",
    x_title: str | None = None,
    y_title: str | None = None,
    height: int | None = None,
    verdict: bool = True,
) -> go.Figure:
    """Pairwise significance grid (the paper's Figure 2b convention).

    Cell (row i, column j) holds the p-value that item i is better than item j. It is coloured
    when ``p < alpha``, darker for smaller p (``log10(alpha / p)`` on a green scale spanning
    ``SIGNIFICANCE_DECADES`` decades below alpha); tested cells with ``p >= alpha`` are light
    grey (the band at the bottom of the colour bar, labelled "n.s."); NaN cells (mirror half,
    diagonal) stay blank.

    Parameters
    ----------
    pvalue : DataFrame
        Square p-value matrix, rows/columns in display order (best first).
    alpha : float
        Significance level.
    hover : mapping of label -> DataFrame or (DataFrame, d3-format), optional
        Extra numeric matrices shown on hover, in insertion order, e.g.
        ``{"Δr": difference, "95% CI low": ci_low, "95% CI high": ci_high}`` (default format
        ``.3f``); reindexed to ``pvalue``'s labels.
    verb : str
        Hover question wording: "<row> <verb> <col>?".
    verdict : bool
        Say "significant" / "not significant" in each cell's hover (a ``text`` array). Without
        it, hover gives p and alpha only: lighter, for overviews of many large grids.

    Returns
    -------
    go.Figure
        One ``Heatmap`` trace named "significance": ``z`` = :func:`significance_colour_value`
        on ``layout.coloraxis`` (grey band below 0, greens from 0 to ``SIGNIFICANCE_DECADES``),
        ``customdata`` of shape (rows, cols, 1 + len(hover)) -- p first, then the hover matrices
        (rounded to what their formats print, see :func:`round_as_shown`) -- formatted by
        ``hovertemplate`` in the browser (no per-cell Python), and with ``verdict`` a ``text``
        array of "significant" / "not significant" ("" where untested).
        ``layout.meta["alpha"]`` is alpha.
    """
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1); got {alpha!r}")
    rows = [str(v) for v in pvalue.index]
    cols = [str(v) for v in pvalue.columns]
    p = pvalue.to_numpy(dtype=float)
    customdata, labels = _hover_data(pvalue, hover)
    extra = "".join(
        f"<br>{label} = %{{customdata[{k + 1}]:{fmt}}}" for k, (label, fmt) in enumerate(labels)
    )
    question = f"<b>%{{y}}</b> {verb} <b>%{{x}}</b>?<br>p = %{{customdata[0]:{P_FORMAT}}}"
    n = max(len(rows), len(cols))
    trace = {
        "x": cols,
        "y": rows,
        "z": significance_colour_value(p, alpha),
        "coloraxis": "coloraxis",
        "name": "significance",
        # 1 px between cells while they are big; none beyond, where plotly.js can draw the
        # heatmap as one small image (with gaps it paints every cell: ~2x slower to redraw)
        "xgap": 1 if n <= MAX_GAPPED_CELLS else 0,
        "ygap": 1 if n <= MAX_GAPPED_CELLS else 0,
        "customdata": customdata,
        "hoverongaps": False,
    }
    if verdict:
        trace["text"] = np.where(
            np.isnan(p), "", np.where(p < alpha, "significant", "not significant")
        )
        trace["hovertemplate"] = f"{question} (%{{text}} at α = {alpha:g}){extra}<extra></extra>"
    else:
        trace["hovertemplate"] = f"{question} (α = {alpha:g}){extra}<extra></extra>"
    side = height or int(min(900, max(380, 28 * n + 160)))
    layout = base_layout_dict(title=title, height=side)
    layout.update(_square_category_axes(rows, cols, height=side, right=SIGNIFICANCE_COLORBAR_PX))
    layout["coloraxis"] = significance_coloraxis(alpha)
    layout["meta"] = {"alpha": alpha}
    if x_title:
        layout["xaxis"]["title"] = {"text": x_title}
    if y_title:
        layout["yaxis"]["title"] = {"text": y_title}
    return _unchecked_figure([{"type": "heatmap", **trace}], layout)


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
        Blocks per row; default ``min(len(pvalues), 3)``.
    panel_height : int
        Height in px of one block row.
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
        titles; ``layout.meta`` holds ``alpha`` and each block's ``[row, col]`` origin under
        ``"blocks"``.
    """
    if not pvalues:
        raise ValueError("pvalues is empty: nothing to lay out")
    names = list(pvalues)
    ncols = cols or min(len(names), 3)
    nrows = math.ceil(len(names) / ncols)
    side = max(max(p.shape) for p in pvalues.values())
    gap = max(2, round(side * 0.12))
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
    layout = base_layout_dict(title=title, height=int(nrows * (panel_height + 30) + 80))
    hidden = {"visible": False, "fixedrange": True, "automargin": False}
    layout["xaxis"] = {**hidden, "range": [-0.5, width - 0.5], "constrain": "domain"}
    layout["yaxis"] = {
        **hidden,
        "range": [height - 0.5, -0.5 - gap],
        "scaleanchor": "x",
        "constrain": "domain",
    }
    layout["margin"] = {"l": 10, "r": SIGNIFICANCE_COLORBAR_PX, "t": 80 if title else 30, "b": 10}
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
        Panels per row; default ``min(len(figures), 3)``.
    panel_height : int
        Height in px of each panel's cell area; the figure adds the gaps and margins.
    horizontal_spacing : float, optional
        Least gap between panels as a fraction of the width (default: sized from the labels;
        0.02 without tick labels). Widen it for large (presentation) fonts.
    """
    if not figures:
        raise ValueError("figures is empty: nothing to lay out")
    names = list(figures)
    ncols = cols or min(len(names), 3)
    nrows = math.ceil(len(names) / ncols)
    first = figures[names[0]]
    axes = [(figures[n].layout.xaxis, figures[n].layout.yaxis) for n in names]
    n_max = max(max(len(xa.categoryarray or ()), len(ya.categoryarray or ())) for xa, ya in axes)
    size = int(max(7, min(BASE_FONT_SIZE, 300 / max(n_max, 1))))
    rows_shared = len({tuple(ya.categoryarray or ()) for _, ya in axes}) == 1
    grid_spec = {
        "ncols": ncols,
        "nrows": nrows,
        "rows_shared": rows_shared,
        "show": show_tick_labels,
        "y_chars": _longest(short_labels(ya.categoryarray or ()) for _, ya in axes),
        "x_chars": _longest(short_labels(xa.categoryarray or ()) for xa, _ in axes),
        "title": title is not None,
        "panel_height": panel_height,
        "colorbar": first.layout.coloraxis is not None,
        "horizontal_spacing": horizontal_spacing,
    }
    geo = _grid_geometry(grid_spec, size)
    hspace, vspace, width, height = geo["hspace"], geo["vspace"], geo["width"], geo["height"]
    layout = base_layout_dict(title=title, height=geo["height_px"])
    layout["margin"] = geo["margin"]
    layout["plot_bgcolor"] = "#ffffff"
    annotations = []
    traces = []
    # The layout is written as one dict and the figure built in one call (as make_subplots
    # would lay it out: axes numbered row-major, titles as paper annotations): per-panel
    # add_trace/update_xaxes calls cost ~10-30 ms apiece, which adds up with 10+ panels.
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
        xa, ya = axes[k]
        common = {
            "type": "category",
            "categoryorder": "array",
            "tickfont": {"size": size},
            "showgrid": False,
            "zeroline": False,
            "automargin": False,
        }
        layout[f"xaxis{suffix}"] = {
            **common,
            **_category_ticks(xa.categoryarray or ()),
            "showticklabels": show_tick_labels,
            "categoryarray": xa.categoryarray,
            "tickangle": -45,
            "domain": [x0, x0 + width],
            "anchor": f"y{suffix}",
        }
        layout[f"yaxis{suffix}"] = {
            **common,
            **_category_ticks(ya.categoryarray or ()),
            "showticklabels": show_tick_labels and (col == 0 or not rows_shared),
            "categoryarray": ya.categoryarray,
            "autorange": ya.autorange,
            "domain": [max(y1 - height, 0.0), y1],
            "anchor": f"x{suffix}",
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
    if first.layout.coloraxis is not None:
        layout["coloraxis"] = first.layout.coloraxis.to_plotly_json()
    layout["meta"] = {**(first.layout.meta or {}), "grid_layout": grid_spec}
    return _unchecked_figure(traces, layout)


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
    title_px = 26 * size / BASE_FONT_SIZE if size > BASE_FONT_SIZE else 26  # panel title
    gap_px = 16 if (spec["rows_shared"] or not show) else ylab_px + 14
    colorbar_px = SIGNIFICANCE_COLORBAR_PX if spec["colorbar"] else 10
    plot_w = _GRID_LAYOUT_WIDTH - ylab_px - colorbar_px
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
        "margin": {"l": int(ylab_px) + 10, "r": colorbar_px, "t": int(top), "b": int(xlab_px) + 10},
        "height_px": int(round(plot_h + top + xlab_px + 10)),
    }


def _relayout_grids(fig: go.Figure, factor: float) -> None:
    """Recompute the panel domains of a :func:`grids_side_by_side` figure in place for tick
    labels ``factor`` times larger (and 25% taller panels)."""
    spec = dict(fig.layout.meta["grid_layout"])
    size = (fig.layout.xaxis.tickfont.size or BASE_FONT_SIZE) * factor
    spec["panel_height"] = round(spec["panel_height"] * 1.25)
    geo = _grid_geometry(spec, size)
    ncols = spec["ncols"]
    for k, ann in enumerate(fig.layout.annotations):
        row, col = divmod(k, ncols)
        x0 = col * (geo["width"] + geo["hspace"])
        y1 = 1.0 - row * (geo["height"] + geo["vspace"])
        suffix = "" if k == 0 else str(k + 1)
        fig.layout[f"xaxis{suffix}"].domain = [x0, x0 + geo["width"]]
        fig.layout[f"yaxis{suffix}"].domain = [max(y1 - geo["height"], 0.0), y1]
        ann.update(x=x0 + geo["width"] / 2, y=y1)
    fig.update_layout(margin=geo["margin"], height=geo["height_px"])


# ---------------------------------------------------------------------------------------------
# ---- Metrics vs humans (helper E) ----
# ---------------------------------------------------------------------------------------------

#: Warning of Graham & Baldwin (2014, Sec. 4) shown beside every Williams grid.
WINS_NOT_A_RANKING = (
    "The number of metrics a metric significantly beats is **not a ranking**: the power of the "
    "Williams test depends on how strongly the two metrics correlate with each other, so a "
    "metric that correlates with many others has an unfair advantage. Read each pair on its "
    "own (Graham & Baldwin, 2014)."
)


def _zscore(values: pd.Series) -> pd.Series:
    sd = values.std(ddof=1)
    return (values - values.mean()) / sd if sd > 0 else values * 0.0


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
    standardised (mean 0, sd 1). The system in ``most_influential[metric]`` (the one whose
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
    fig = make_subplots(
        rows=nrows,
        cols=ncols,
        subplot_titles=titles,
        horizontal_spacing=0.08,
        vertical_spacing=min(0.3 / nrows, 0.15) if nrows > 1 else 0.0,
    )
    systems = [str(s) for s in human.index]
    hx = _zscore(human) if zscore else human
    x_title = f"{human_label} (z)" if zscore else human_label
    for k, m in enumerate(selected):
        row, col = divmod(k, ncols)
        y = metrics[m].reindex(human.index)
        yv = _zscore(y) if zscore else y
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


def _williams_hover(result, corr_label: str) -> dict:
    """Hover extras of a Williams grid: the difference in r, its confidence interval and the
    correlation between the two compared score sets (labelled ``corr_label``)."""
    level = f"{round(result.confidence_level * 100):g}%"
    return {
        "Δr": (result.difference, ".3f"),
        f"{level} CI low": (result.ci_low, ".3f"),
        f"{level} CI high": (result.ci_high, ".3f"),
        corr_label: (result.metric_corr, ".3f"),
    }


def williams_grid(
    result,
    *,
    alpha: float = 0.05,
    title: str | None = None,
    hover: bool = True,
    height: int | None = None,
) -> go.Figure:
    """Williams significance grid (paper Figure 2b) from a
    :class:`stats.williams.WilliamsMatrixResult`: cell (row i, column j) coloured when metric i
    correlates significantly better with humans than metric j; hover shows p, the difference in
    r and its Zou confidence interval (``hover=False``: p and alpha only, no hover matrices and
    no "significant" text, lighter for big overviews)."""
    fig = significance_grid(
        result.pvalue,
        alpha=alpha,
        hover=_williams_hover(result, "r(metrics)") if hover else None,
        title=title,
        verb="correlates better with humans than",
        height=height,
        verdict=hover,
    )
    return fig


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
    :func:`dashboard.data.correlation_table`).

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
        title={"text": f"|{label}| with humans (◇ = negative)"}, range=[max(0.0, lo - 0.05), 1.0]
    )
    fig.update_yaxes(**_category_rows(names))
    return fig


# ---------------------------------------------------------------------------------------------
# ---- MT systems (helper B) ----
# ---------------------------------------------------------------------------------------------

#: Colour of the pseudo-statistics a randomized test counts (at least as extreme as observed).
MT_COUNTED = HIGHLIGHT
#: Colour of the other pseudo-statistics.
MT_NOT_COUNTED = "#9DB9D3"
_MT_REL_TOL = 1e-9  # as stats.randomized: rounding-level ties count as extreme


def mt_system_scores(
    scores: pd.Series,
    ci_low: pd.Series,
    ci_high: pd.Series,
    *,
    label: str,
    higher_is_better: bool = True,
    confidence_level: float = 0.95,
    title: str | None = None,
) -> go.Figure:
    """Corpus score of each system with its bootstrap confidence interval (dot + error bar).

    Systems run top to bottom in ``scores.index`` order (pass them best first).

    Returns
    -------
    go.Figure
        One ``Scatter``: ``x`` = scores, ``y`` = system names, ``error_x.array`` = high - score,
        ``error_x.arrayminus`` = score - low.
    """
    names = [str(s) for s in scores.index]
    x = scores.to_numpy(dtype=float)
    lo = ci_low.reindex(scores.index).to_numpy(dtype=float)
    hi = ci_high.reindex(scores.index).to_numpy(dtype=float)
    level = f"{round(confidence_level * 100)}%"
    fig = go.Figure(
        go.Scatter(
            x=x,
            y=names,
            mode="markers",
            marker={"size": 10, "color": PALETTE[0]},
            error_x={
                "type": "data",
                "symmetric": False,
                "array": hi - x,
                "arrayminus": x - lo,
                "thickness": 2,
                "width": 6,
                "color": PALETTE[0],
            },
            customdata=np.stack([lo, hi], axis=-1),
            hovertemplate=f"<b>%{{y}}</b><br>{escape_html(label)} = %{{x:.4g}}<br>{level} CI "
            "[%{customdata[0]:.4g}, %{customdata[1]:.4g}]<extra></extra>",
            name=label,
        )
    )
    base_layout(fig, title=title, height=int(min(900, max(260, 34 * len(names) + 120))))
    better = "higher is better" if higher_is_better else "lower is better"
    fig.update_xaxes(title={"text": f"{escape_html(label)} ({better}; bars: {level} bootstrap CI)"})
    fig.update_yaxes(**_category_rows(names))
    return fig


def mt_significance_grids(
    results: Mapping[str, object],
    *,
    alpha: float = 0.05,
    title: str | None = None,
    cols: int | None = None,
) -> go.Figure:
    """The pairwise significance grids of several randomized tests side by side (paper
    Figure 8): cell (row, col) coloured when row's score is significantly better.

    Parameters
    ----------
    results : mapping of panel title -> PairwiseSignificanceResult
        (anything with ``pvalue``, ``statistic``, ``diff_ci_low``, ``diff_ci_high`` square
        DataFrames and ``label``, ``confidence_level``), all on the same systems.
    alpha : float
    cols : int, optional
        Panels per row (default: all in one row).

    Returns
    -------
    go.Figure
        One heatmap trace per panel (trace ``k`` for panel ``k``) as :func:`significance_grid`
        builds it, hover with the difference and its bootstrap CI.
    """
    panels = {}
    for name, res in results.items():
        level = round(res.confidence_level * 100)
        panels[name] = significance_grid(
            res.pvalue,
            alpha=alpha,
            hover={
                f"Δ {res.label}": (res.statistic, ".3f"),
                f"{level}% CI low": (res.diff_ci_low, ".3f"),
                f"{level}% CI high": (res.diff_ci_high, ".3f"),
            },
            verb="is better than",
        )
    n = max((len(r.pvalue) for r in results.values()), default=0)
    return grids_side_by_side(
        panels,
        cols=cols or max(len(panels), 1),
        title=title,
        panel_height=int(min(700, max(360, 26 * n + 140))),
    )


def mt_counted(result) -> np.ndarray:
    """Mask of the pseudo-statistics ``result`` counts in its p-value (shown highlighted).

    Paired bootstrap (Figure 4): resamples where X does not beat Y (``<= 0``; for
    ``'less'`` ``>= 0``; two-sided: the smaller tail). Bootstrap (Figures 1, 3; after the
    shift) and approximate randomization (Figure 2): at least as extreme as the statistic.
    """
    values = np.asarray(result.null_distribution, dtype=float)
    stat = float(result.statistic)
    tol = _MT_REL_TOL * max(1.0, abs(stat))
    if result.test == "paired-bootstrap":
        below, above = values <= 0, values >= 0
        if result.alternative == "greater":
            return below
        if result.alternative == "less":
            return above
        return below if below.sum() <= above.sum() else above
    if result.alternative == "greater":
        return values >= stat - tol
    if result.alternative == "less":
        return values <= stat + tol
    return np.abs(values) >= abs(stat) - tol


def _pseudo_bins(values: np.ndarray, counted: np.ndarray, res, bins: int):
    """Bin edges shared by the "counted" and "not counted" bars, with every cut-off the test
    applies (0 for the paired bootstrap, the statistic and its mirror otherwise) on a bin edge,
    and each value's bin index -- a value sitting on a cut-off goes to the side where it
    belongs, so the highlighted bars end exactly at the cut-off line."""
    stat = float(res.statistic)
    # (cut-off, the test counts the values right of it)
    if res.test == "paired-bootstrap":
        sides = [(0.0, bool(np.any(counted & (values > 0))))]
    elif res.alternative == "two-sided" and stat != 0:
        sides = [(abs(stat), True), (-abs(stat), False)]
    else:
        sides = [(stat, res.alternative != "less")]
    cuts = [cut for cut, _ in sides]
    finite = values[np.isfinite(values)]
    lo = min([*cuts, float(finite.min())] if finite.size else cuts)
    hi = max([*cuts, float(finite.max())] if finite.size else cuts)
    width = (hi - lo) / max(bins, 1) or 1.0
    if len(cuts) == 2:  # both mirrored cut-offs on edges: a whole number of bins between them
        width = (cuts[0] - cuts[1]) / max(1, round((cuts[0] - cuts[1]) / width))
    start = cuts[0] - math.ceil((cuts[0] - lo) / width - 1e-9) * width
    n_bins = max(1, math.ceil((hi - start) / width - 1e-9))
    if start + n_bins * width <= hi:  # the maximum itself must fall inside the last bin
        n_bins += 1
    edges = start + width * np.arange(n_bins + 1)
    idx = np.clip(np.floor((values - start) / width), 0, n_bins - 1).astype(int)
    tol = _MT_REL_TOL * max(1.0, abs(stat)) + 1e-9 * width
    for cut, right in sides:
        at = np.abs(values - cut) <= tol
        if not at.any():
            continue
        k = int(round((cut - start) / width))  # the edge on the cut-off
        inside, outside = (k, k - 1) if right else (k - 1, k)
        idx[at & counted] = min(max(inside, 0), n_bins - 1)
        idx[at & ~counted] = min(max(outside, 0), n_bins - 1)
    return edges, idx


def mt_pseudo_distributions(
    results: Mapping[str, object],
    *,
    bins: int = 40,
    title: str | None = None,
    cols: int | None = None,
) -> go.Figure:
    """Pseudo-statistic distributions of the randomized tests for one pair of systems, with
    the actual statistic marked (paper Figures 5 and 6).

    Each panel is a histogram of the distribution the test compares with (bootstrap: after the
    shift to zero by :math:`\\tau_B`); the bars the test counts are highlighted
    (:func:`mt_counted`), the actual statistic is a solid vertical line (two-sided: also its
    mirror), the paired bootstrap's cut-off at 0 is dashed.

    Parameters
    ----------
    results : mapping of panel title -> RandomizedTestResult

    Returns
    -------
    go.Figure
        Per panel two ``Bar`` traces (``name`` "counted" / "not counted"; their ``y`` sum to the
        number of resamples) and vertical-line shapes with ``name`` "actual statistic",
        "mirrored statistic" or "cut-off".
    """
    names = list(results)
    if not names:
        raise ValueError("results is empty: nothing to draw")
    ncols = cols or len(names)
    nrows = math.ceil(len(names) / ncols)
    titles = [f"{name}<br><sup>p = {format_pvalue(results[name].pvalue)}</sup>" for name in names]
    fig = make_subplots(
        rows=nrows, cols=ncols, subplot_titles=titles, horizontal_spacing=0.06,
        vertical_spacing=0.18 if nrows > 1 else 0.0,
    )  # fmt: skip
    for k, name in enumerate(names):
        res = results[name]
        row, col = divmod(k, ncols)
        row, col = row + 1, col + 1
        values = np.asarray(res.null_distribution, dtype=float)
        stat = float(res.statistic)
        counted = mt_counted(res)
        edges, idx = _pseudo_bins(values, counted, res, bins)
        centers = (edges[:-1] + edges[1:]) / 2
        widths = np.diff(edges)
        for mask, label, colour in (
            (counted, "counted", MT_COUNTED),
            (~counted, "not counted", MT_NOT_COUNTED),
        ):
            counts = np.bincount(idx[mask], minlength=edges.size - 1)
            fig.add_trace(
                go.Bar(
                    x=centers,
                    y=counts,
                    width=widths,
                    marker={"color": colour, "line": {"width": 0}},
                    name=label,
                    legendgroup=label,
                    showlegend=k == 0,
                    customdata=np.stack([edges[:-1], edges[1:]], axis=-1),
                    hovertemplate=f"{label}: %{{y}} resamples<br>[%{{customdata[0]:.3g}}, "
                    "%{customdata[1]:.3g})<extra></extra>",
                ),
                row=row,
                col=col,
            )
        lines = [(stat, "actual statistic", "solid", PALETTE[7])]
        if res.alternative == "two-sided" and res.test != "paired-bootstrap":
            lines.append((-stat, "mirrored statistic", "dot", PALETTE[7]))
        if res.test == "paired-bootstrap":
            lines.append((0.0, "cut-off", "dash", "#555555"))
        for x, label, dash, colour in lines:
            fig.add_vline(
                x=x, line={"color": colour, "dash": dash, "width": 2}, name=label,
                row=row, col=col,
            )  # fmt: skip
        shift = f" − τ_B ({format_number(res.shift)})" if res.test == "bootstrap" else ""
        fig.update_xaxes(title={"text": f"S_X − S_Y{shift}"}, row=row, col=col)
    fig.update_yaxes(title={"text": "resamples"}, row=1, col=1)
    base_layout(fig, title=title, height=360 * nrows + (120 if title else 70))
    fig.update_layout(
        barmode="stack",
        bargap=0,
        legend={"orientation": "h", "y": -0.2},
        # title, then each panel's two-line title (test name, p) above its plot
        margin={"t": 110 if title else 60},
    )
    return fig


# ---------------------------------------------------------------------------------------------
# ---- Quality estimation (helper C) ----
# ---------------------------------------------------------------------------------------------

#: Most distinct values a label/prediction set may have to be drawn as bars of counts.
QE_DISCRETE_MAX_VALUES = 10
#: Bars above this multiple of the panel's median are drawn off-scale with their value printed.
_QE_OFF_SCALE_FACTOR = 4.0
#: Line/text colours for QE charts: the palette without its yellow (illegible as text on white).
_QE_COLOURS = tuple(c for c in PALETTE if c != "#F0E442")

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
    :meth:`stats.qe.QEScoresResult.table`). Systems whose rank differs between the measures are
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
    labels = []
    for system, row in table.iterrows():
        ranks = np.array([row[f"rank_{m}"] for m in measures], dtype=float)
        finite = ranks[np.isfinite(ranks)]
        changed = bool(finite.size and np.ptp(finite) > 0)
        if changed:
            colour = _QE_COLOURS[colour_k % len(_QE_COLOURS)]
            colour_k += 1
        else:
            colour = "#9A9A9A"
        text = _rank_labels(short_labels([system])[0], ranks)
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


def _rank_labels(system: str, ranks: np.ndarray) -> list[str]:
    def fmt(r: float) -> str:
        return "–" if not np.isfinite(r) else f"{int(r)}"

    labels = [""] * len(ranks)
    labels[0] = f"{fmt(ranks[0])}. {system}"
    if len(ranks) > 1:
        labels[-1] = f"{system} ({fmt(ranks[-1])})"
    return labels


def qe_rescale_bars(table: pd.DataFrame, *, sd_ratio: float, title: str | None = None) -> go.Figure:
    """MAE and RMSE of each system before and after shifting to the gold mean and rescaling to
    ``sd_ratio`` x the gold SD (paper Tables 2 and 3), as grouped bars in two panels.

    ``table`` is indexed by system (display order) with columns ``mae``, ``mae_rescaled``,
    ``rmse``, ``rmse_rescaled`` (see :meth:`stats.qe.RescaleResult.table`).

    Returns
    -------
    go.Figure
        Traces: "original" (MAE panel), "rescaled" (MAE panel), "original" (RMSE panel),
        "rescaled" (RMSE panel); ``x`` = systems, ``y`` = values.
    """
    systems = [str(s) for s in table.index]
    fig = make_subplots(rows=1, cols=2, subplot_titles=["MAE", "RMSE"], horizontal_spacing=0.08)
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

    ``curve`` is the long table of :func:`stats.qe.rescaling_curve`. ``original`` (system ->
    value of the unmodified predictions) adds a dotted horizontal reference per system.

    Returns
    -------
    go.Figure
        One line per system (in first-appearance order), named by the system; ``x`` = lambda.
        The vertical line is a layout shape.
    """
    fig = go.Figure()
    systems = list(dict.fromkeys(curve["system"]))
    for k, system in enumerate(systems):
        part = curve[curve["system"] == system]
        colour = _QE_COLOURS[k % len(_QE_COLOURS)]
        fig.add_trace(
            go.Scatter(
                x=part["sd_ratio"].to_numpy(dtype=float),
                y=part[measure].to_numpy(dtype=float),
                mode="lines",
                name=escape_html(system),
                line={
                    "color": colour,
                    "width": 2,
                    "dash": "solid" if k < len(_QE_COLOURS) else "dash",
                },
                hovertemplate=f"<b>{escape_html(system)}</b><br>λ = %{{x:.2f}}<br>{measure.upper()} = "
                "%{y:.4f}<extra></extra>",
            )
        )
    if original:
        for k, system in enumerate(systems):
            if system in original and np.isfinite(original[system]):
                fig.add_hline(
                    y=float(original[system]),
                    line={"color": _QE_COLOURS[k % len(_QE_COLOURS)], "width": 1, "dash": "dot"},
                )
    fig.add_vline(
        x=float(sd_ratio),
        line={"color": "#111111", "width": 1.5, "dash": "dash"},
        annotation_text=f"λ = {sd_ratio:g}",
        annotation_position="top",
    )
    base_layout(fig, title=title, height=430)
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
    for name, values in panels:
        finite = values[np.isfinite(values)]
        sd = f"SD = {format_number(float(np.std(finite, ddof=1)) if finite.size > 1 else math.nan)}"
        # two lines (name, then the numbers) so a title never runs past its panel
        small = "<br><span style='font-size:0.85em'>{}</span>"
        if name == "gold":
            titles.append("<b>gold labels</b>" + small.format(sd))
        elif mae and name in mae:
            numbers = f"MAE = {format_number(mae[name], 4)}, {sd}"
            titles.append(f"<b>{short_labels([name], 30)[0]}</b>" + small.format(numbers))
        else:
            titles.append(f"<b>{short_labels([name], 30)[0]}</b>" + small.format(sd))
    # one set of bin edges for every continuous panel (same width, same positions)
    continuous = [v[np.isfinite(v)] for _, v in panels if not _is_discrete(v[np.isfinite(v)])]
    pooled = np.concatenate(continuous) if continuous else np.array([])
    shared_edges = np.histogram_bin_edges(pooled, bins=bins) if pooled.size else None
    fig = make_subplots(
        rows=nrows,
        cols=ncols,
        subplot_titles=titles,
        horizontal_spacing=0.07,
        vertical_spacing=min(0.3 / nrows, 0.15) if nrows > 1 else 0.0,
    )
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
                marker={"color": "#555555" if name == "gold" else PALETTE[(k - 1) % len(PALETTE)]},
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


def _z(values: np.ndarray) -> np.ndarray:
    sd = values.std(ddof=1)
    return (values - values.mean()) / sd if sd > 0 else values * np.nan


def qe_standardised_scatter(
    gold: pd.Series,
    predictions: pd.DataFrame,
    systems: Sequence[str],
    *,
    pearson: Mapping[str, float],
    mae: Mapping[str, float],
    standardise: bool = True,
    title: str | None = None,
) -> go.Figure:
    """Gold labels (x) against predictions (y) for two (or more) systems, side by side (paper
    Figure 3). With ``standardise`` both axes are in standard deviations from the mean of each
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
    titles = [
        f"<b>{escape_html(s)}</b>: r = {format_number(pearson.get(s))}, "
        f"MAE = {format_number(mae.get(s), 4)}"
        for s in systems
    ]
    fig = make_subplots(rows=1, cols=len(systems), subplot_titles=titles, horizontal_spacing=0.08)
    g = gold.to_numpy(dtype=float)
    gx = _z(g) if standardise else g
    ids = [str(i) for i in gold.index]
    for k, s in enumerate(systems):
        p = predictions[s].to_numpy(dtype=float)
        py = _z(p) if standardise else p
        fig.add_trace(
            go.Scattergl(
                x=gx,
                y=py,
                mode="markers",
                name=f"{s}",
                text=ids,
                marker={"size": 5, "color": PALETTE[k % len(PALETTE)], "opacity": 0.55},
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
    base_layout(fig, title=title, height=460)
    fig.update_layout(margin={"t": 80})
    return fig


def qe_williams_grid(result, *, alpha: float = 0.05, title: str | None = None) -> go.Figure:
    """Williams significance grid for QE systems (paper Figures 5-7) from a
    :class:`stats.williams.WilliamsMatrixResult` computed with signed r: the shared
    :func:`significance_grid` with the difference in r, its confidence interval and the
    correlation between the two systems' predictions on hover."""
    return significance_grid(
        result.pvalue,
        alpha=alpha,
        hover=_williams_hover(result, "r(predictions)"),
        title=title,
        verb="correlates better with the gold labels than",
    )


# ---------------------------------------------------------------------------------------------
# ---- Tests vs humans (helper D) ----
# ---------------------------------------------------------------------------------------------

#: Colours of the agreement heatmap, one per :data:`stats.accuracy.OUTCOMES` code
#: (agree, significant where humans tie, tied where humans differ, opposite direction).
AGREEMENT_COLOURS = ("#E3E3E3", "#E69F00", "#56B4E9", "#D55E00")
#: Short labels of the outcome codes for the colour bar.
AGREEMENT_LABELS = (
    "agrees with humans",
    "test significant, humans tied",
    "test tied, humans significant",
    "opposite direction",
)
CRITERION_TITLES = {"adequacy": "Adequacy", "fluency": "Fluency", "combined": "Combined"}


def human_gold_grids(
    pvalues: Mapping[str, pd.DataFrame],
    *,
    alpha: float = 0.05,
    mean_z: Mapping[str, pd.Series] | None = None,
    title: str | None = None,
    panel_height: int = 420,
) -> go.Figure:
    """The human gold standard as significance grids side by side (paper Figure 7).

    One :func:`significance_grid` per entry of ``pvalues`` (e.g. adequacy, fluency, combined),
    laid out by :func:`grids_side_by_side` with a shared colour scale: cell (row i, column j)
    coloured when humans judge system i significantly better than system j (one-sided
    Wilcoxon rank-sum on standardised scores, ``p < alpha``).

    Parameters
    ----------
    pvalues : mapping of panel key -> square p-value DataFrame
        Keys ``adequacy``/``fluency``/``combined`` get capitalised panel titles.
    mean_z : mapping of panel key -> Series, optional
        Mean standardised score per system; hover then shows the difference row - column.

    Returns
    -------
    go.Figure
        One heatmap trace per panel, as :func:`significance_grid` builds it;
        ``layout.meta["alpha"]`` = ``alpha``.
    """
    panels = {}
    for key, p in pvalues.items():
        hover = None
        if mean_z is not None and key in mean_z:
            z = mean_z[key].reindex(p.index).to_numpy(dtype=float)
            diff = pd.DataFrame(z[:, None] - z[None, :], index=p.index, columns=p.columns)
            hover = {"Δ mean z (row − column)": (diff, ".3f")}
        panels[CRITERION_TITLES.get(key, str(key))] = significance_grid(
            p, alpha=alpha, hover=hover, verb="is judged better than"
        )
    return grids_side_by_side(
        panels, cols=min(len(panels), 3), title=title, panel_height=panel_height
    )


def accuracy_intervals(
    table: pd.DataFrame,
    *,
    test_labels: Mapping[str, str] | None = None,
    chance: float | None = 50.0,
    title: str | None = None,
) -> go.Figure:
    """Accuracy of each metric x test with its exact 95% CI, one panel per alpha.

    ``table`` has the columns of :attr:`stats.accuracy.AccuracyResult.table` (``metric``,
    ``test``, ``alpha``, ``correct``, ``pairs``, ``accuracy``, ``ci_low``, ``ci_high``;
    fractions). Metrics run top to bottom in first-appearance order; the tests of a metric are
    dodged vertically and coloured from :data:`PALETTE`. A dashed line marks ``chance`` (%), the
    paper's coin-toss reference.

    Returns
    -------
    go.Figure
        One scatter per (alpha, test), named by the test label, ``x`` = accuracy in %,
        ``error_x`` = CI in %, ``y`` = metric position (tick labels = metric names),
        ``customdata`` = (correct, pairs, CI low %, CI high %).
    """
    labels = dict(test_labels or {})
    alphas = list(dict.fromkeys(table["alpha"]))
    metrics = list(dict.fromkeys(table["metric"]))
    tests = list(dict.fromkeys(table["test"]))
    pos = {m: i for i, m in enumerate(metrics)}
    width = 0.6 / max(len(tests), 1)
    fig = make_subplots(
        rows=1,
        cols=len(alphas),
        shared_yaxes=True,
        subplot_titles=[f"α = {a:g}" for a in alphas],
        horizontal_spacing=0.04,
    )
    for c, a in enumerate(alphas, start=1):
        sub = table[table["alpha"] == a]
        for k, test in enumerate(tests):
            rows = sub[sub["test"] == test]
            acc = 100 * rows["accuracy"].to_numpy(dtype=float)
            lo = 100 * rows["ci_low"].to_numpy(dtype=float)
            hi = 100 * rows["ci_high"].to_numpy(dtype=float)
            offset = (k - (len(tests) - 1) / 2) * width
            fig.add_trace(
                go.Scatter(
                    x=acc,
                    y=[pos[m] + offset for m in rows["metric"]],
                    mode="markers",
                    name=labels.get(test, test),
                    legendgroup=test,
                    showlegend=c == 1,
                    marker={"size": 10, "color": PALETTE[k % len(PALETTE)]},
                    error_x={
                        "type": "data",
                        "symmetric": False,
                        "array": hi - acc,
                        "arrayminus": acc - lo,
                        "thickness": 1.5,
                        "width": 3,
                    },
                    text=list(rows["metric"]),
                    customdata=np.column_stack(
                        [rows["correct"].to_numpy(), rows["pairs"].to_numpy(), lo, hi]
                    ),
                    hovertemplate=f"<b>%{{text}}</b>, {labels.get(test, test)}, α = {a:g}"
                    "<br>%{customdata[0]} of %{customdata[1]} correct: %{x:.1f}%"
                    " [%{customdata[2]:.1f}, %{customdata[3]:.1f}]<extra></extra>",
                ),
                row=1,
                col=c,
            )
        if chance is not None:
            fig.add_vline(
                x=chance, line={"dash": "dash", "color": "#777777", "width": 1}, row=1, col=c
            )
        fig.update_xaxes(range=[0, 101], title={"text": "accuracy (%)"}, row=1, col=c)
    fig.update_yaxes(
        tickvals=list(range(len(metrics))),
        ticktext=short_labels(metrics),
        autorange="reversed",
        showgrid=False,
        zeroline=False,
    )
    base_layout(fig, title=title, height=int(max(300, 60 * len(metrics) + 170)))
    fig.update_layout(
        legend={"orientation": "h", "y": -0.25, "x": 0}, margin={"t": 80 if title else 50}
    )
    return fig


def agreement_heatmap(
    outcome: pd.DataFrame,
    *,
    details: pd.DataFrame | None = None,
    title: str | None = None,
) -> go.Figure:
    """Where each test agrees and disagrees with the humans: rows = metric / test, columns =
    system pairs, cell colour = outcome code (:data:`AGREEMENT_LABELS`).

    Built on :func:`correlation_heatmap` (same axes and cell layout) with a discrete colour
    scale of :data:`AGREEMENT_COLOURS`.

    Parameters
    ----------
    outcome : DataFrame of int codes 0-3
        E.g. :meth:`stats.accuracy.AccuracyResult.agreement_matrix`.
    details : DataFrame of str, optional
        Same shape; hover text per cell (e.g. "humans: A better; test: no difference").

    Returns
    -------
    go.Figure
        One heatmap trace, ``z`` = the codes; ``layout.coloraxis`` discrete with colour-bar
        ticks at 0..3 labelled by outcome.
    """
    fig = correlation_heatmap(
        outcome.astype(float),
        title=title,
        zmin=-0.5,
        zmax=3.5,
        show_values=False,
        colorbar_title="",
        hover_label="outcome",
    )
    names = np.asarray(AGREEMENT_LABELS, dtype=object)
    codes = outcome.to_numpy()
    text = names[np.clip(np.nan_to_num(codes.astype(float), nan=0).astype(int), 0, 3)]
    if details is not None:
        extra = details.reindex(index=outcome.index, columns=outcome.columns).to_numpy(dtype=object)
        text = np.char.add(np.char.add(text.astype(str), "<br>"), extra.astype(str))
    fig.update_traces(
        customdata=text,
        hovertemplate="<b>%{y}</b><br>%{x}<br>%{customdata}<extra></extra>",
    )
    scale = []
    for k, colour in enumerate(AGREEMENT_COLOURS):
        scale += [[k / 4, colour], [(k + 1) / 4, colour]]
    rows, cols = outcome.shape
    fig.update_layout(
        coloraxis={
            "colorscale": scale,
            "cmin": -0.5,
            "cmax": 3.5,
            "cmid": None,
            "colorbar": {
                "tickvals": [0, 1, 2, 3],
                "ticktext": list(AGREEMENT_LABELS),
                "thickness": 14,
                "title": {"text": ""},
            },
        },
        height=int(min(900, max(320, 26 * rows + 200))),
        width=None,  # not square: the export uses its default width
    )
    fig.update_yaxes(scaleanchor=None)
    return fig


def annotator_spread(summary: pd.DataFrame, *, title: str | None = None) -> go.Figure:
    """Each annotator's raw mean score ± one SD, per criterion (sorted, most lenient first).

    Shows what per-annotator standardisation removes: lenient and strict annotators (means far
    apart) and different spreads (SD). ``summary`` has the columns of
    :func:`stats.human.annotator_summary` (``criterion``, ``annotator``, ``n``, ``mean``,
    ``sd``, ``min``, ``max``). A dashed line marks each criterion's mean over all judgements.

    Returns
    -------
    go.Figure
        One scatter per criterion (name = criterion), ``x`` = annotators, ``y`` = means,
        ``error_y`` = SDs, ``customdata`` = (n, sd, min, max).
    """
    criteria = list(dict.fromkeys(summary["criterion"]))
    fig = make_subplots(
        rows=len(criteria),
        cols=1,
        subplot_titles=[CRITERION_TITLES.get(c, c) for c in criteria],
        vertical_spacing=0.18 if len(criteria) > 1 else 0.0,
    )
    for r, crit in enumerate(criteria, start=1):
        sub = summary[summary["criterion"] == crit].sort_values(
            "mean", ascending=False, kind="stable"
        )
        n = sub["n"].to_numpy(dtype=float)
        mean = sub["mean"].to_numpy(dtype=float)
        fig.add_trace(
            go.Scatter(
                x=[str(a) for a in sub["annotator"]],
                y=mean,
                mode="markers",
                name=crit,
                marker={"size": 9, "color": PALETTE[(r - 1) % len(PALETTE)]},
                error_y={
                    "type": "data",
                    "array": sub["sd"].to_numpy(dtype=float),
                    "thickness": 1.2,
                },
                customdata=sub[["n", "sd", "min", "max"]].to_numpy(dtype=float),
                hovertemplate="<b>%{x}</b> (" + crit + ")<br>mean %{y:.1f}, SD %{customdata[1]:.1f}"
                "<br>%{customdata[0]:.0f} judgements, range %{customdata[2]:.0f}-%{customdata[3]:.0f}"
                "<extra></extra>",
            ),
            row=r,
            col=1,
        )
        overall = float(np.sum(n * mean) / np.sum(n)) if n.sum() else float("nan")
        fig.add_hline(
            y=overall, line={"dash": "dash", "color": "#777777", "width": 1}, row=r, col=1
        )
        fig.update_yaxes(title={"text": "raw score (mean ± SD)"}, row=r, col=1)
        fig.update_xaxes(type="category", tickangle=-45, row=r, col=1)
    base_layout(fig, title=title, height=300 * len(criteria) + 90)
    fig.update_layout(showlegend=False)
    return fig


def standardisation_ranks(scores: pd.DataFrame, *, title: str | None = None) -> go.Figure:
    """System ranks by raw mean score and by mean standardised (z) score, per criterion.

    A slope chart (1 = best, at the top): a line that crosses others is a system whose place
    depends on who happened to judge it. ``scores`` is :func:`stats.human.system_scores`
    (columns ``<criterion>_raw`` and ``<criterion>_z``). Systems whose rank changes are drawn
    in colour, the others in grey. The criteria are stacked (one panel per row) and the labels
    carry the ranks ("1. name" on the left, "name (1)" on the right) in margins sized from the
    longest name, so nothing collides or is clipped in a narrow column.

    Returns
    -------
    go.Figure
        Per criterion panel, one scatter per system (name = system), ``x`` = ["raw mean",
        "mean z"], ``y`` = the two ranks; ``meta`` = ``{"changed": bool}``.
    """
    criteria = [c for c in ("adequacy", "fluency") if f"{c}_z" in scores.columns]
    nrows = max(len(criteria), 1)
    panel_px = int(max(220, 30 * len(scores) + 60))
    fig = make_subplots(
        rows=nrows,
        cols=1,
        subplot_titles=[CRITERION_TITLES[c] for c in criteria],
        vertical_spacing=min(90 / (panel_px * nrows + 90 * (nrows - 1)), 0.3) if nrows > 1 else 0,
    )
    labels = []
    for r, crit in enumerate(criteria, start=1):
        raw = scores[f"{crit}_raw"].rank(ascending=False, method="min")
        z = scores[f"{crit}_z"].rank(ascending=False, method="min")
        colour_k = 0
        for system in scores.index:
            ranks = np.array([raw[system], z[system]], dtype=float)
            if np.isnan(ranks).any():
                continue
            changed = ranks[0] != ranks[1]
            colour = _QE_COLOURS[colour_k % len(_QE_COLOURS)] if changed else "#9A9A9A"
            colour_k += int(changed)
            name = short_labels([system])[0]
            text = _rank_labels(name, ranks)
            labels += text
            fig.add_trace(
                go.Scatter(
                    x=["raw mean", "mean z"],
                    y=ranks,
                    mode="lines+markers+text",
                    name=str(system),
                    text=text,
                    textposition=["middle left", "middle right"],
                    textfont={"color": "#111111" if changed else "#6A6A6A"},
                    cliponaxis=False,
                    line={"color": colour, "width": 3 if changed else 1.5},
                    marker={"color": colour, "size": 8},
                    meta={"changed": bool(changed)},
                    customdata=[scores.at[system, f"{crit}_raw"], scores.at[system, f"{crit}_z"]],
                    hovertemplate=f"<b>{escape_html(system)}</b> ({crit})<br>%{{x}}: rank %{{y}}"
                    "<br>score %{customdata:.3f}<extra></extra>",
                    showlegend=False,
                ),
                row=r,
                col=1,
            )
        fig.update_yaxes(
            autorange="reversed", showticklabels=False, zeroline=False, dtick=1, row=r, col=1
        )
        fig.update_xaxes(range=[-0.05, 1.05], side="top", row=r, col=1)
    side_px = int(_label_px(labels, BASE_FONT_SIZE)) + 24
    top = (60 if title else 20) + 40  # title, panel title and the column headers
    base_layout(fig, title=title, height=panel_px * nrows + 90 * (nrows - 1) + top + 20)
    fig.update_layout(margin={"l": side_px, "r": side_px, "t": top, "b": 20})
    fig.update_annotations(yshift=22)  # panel titles above the column headers
    return fig
