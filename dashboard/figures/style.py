"""The house style: palette, colour scales, template, base layout and label helpers.

Colours: the Okabe-Ito palette (:data:`PALETTE`) for categories, a single-hue sequential
green for significance (ColorBrewer Greens, colour-blind safe, as the paper's Figure 2b) and the
diverging red-blue scale centred on 0 for correlations.

Importing this module registers :data:`HOUSE_TEMPLATE` as plotly's default template and
takes two repeated costs out of plotly's property handling (:func:`memoize_property_paths`).
"""

from __future__ import annotations

import copy
import functools
import math
import os
import re
from collections.abc import Sequence

import numpy as np
import plotly.basedatatypes
import plotly.graph_objects as go
import plotly.io as pio
import plotly.validator_cache
from plotly.subplots import make_subplots

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
#: template (slow for every figure, and ~6 kB more JSON per chart); this one is small.
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


def memoize_property_paths() -> None:
    """Take two repeated costs out of plotly's property handling (about a third of the CPU
    time of building a figure on the app's pages: ``update_layout``, ``add_trace``,
    ``make_subplots``), with the same results.

    - plotly parses the path of every property it sets, gets or checks
      (``"xaxis.title.text"``, ``"marker_line_width"``, ``"shapes[0]"``), each time, in pure
      Python. The parse is a function of the string alone: it is remembered here (the list of
      positions it also returns, for error messages, is copied for each caller).
    - Each property's validator is looked up through an import statement run on every call;
      here the lookup calls the same ``ValidatorCache.get_validator`` directly.

    Where plotly has other internals (another version), that part is left as it is. Called
    once, when this module is imported.
    """
    parse = getattr(plotly.basedatatypes, "_str_to_dict_path_full", None)
    if parse is not None and not getattr(parse, "memoized", False):
        cached = functools.lru_cache(maxsize=8192)(parse)

        @functools.wraps(parse)
        def memoized(key_path_str):
            try:
                path, positions = cached(key_path_str)
            except TypeError:  # not hashable: parsed as plotly does
                return parse(key_path_str)
            return path, list(positions)

        memoized.memoized = True  # type: ignore[attr-defined]
        memoized.cache_info = cached.cache_info  # type: ignore[attr-defined]
        plotly.basedatatypes._str_to_dict_path_full = memoized

    base = plotly.basedatatypes.BasePlotlyType
    lookup = getattr(getattr(plotly.validator_cache, "ValidatorCache", None), "get_validator", None)
    names = getattr(getattr(base._get_validator, "__code__", None), "co_names", ())
    if lookup is not None and {"ValidatorCache", "get_validator", "_path_str"} <= set(names):

        def _get_validator(self, prop):
            return lookup(self._path_str, prop)

        base._get_validator = _get_validator


memoize_property_paths()


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
    finished figure validates again, which adds up on pages with many panels."""
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


def subplots(**kwargs) -> go.Figure:
    """``plotly.subplots.make_subplots(**kwargs)``: the same figure (layout, subplot grid), laid
    out by plotly once per set of arguments and copied after that.

    plotly builds the grid's layout and then validates it again into an empty figure through
    ``update_layout``: 7-13 ms for two to six panels on each call, on every rerun of a page. A
    copy is one validation of the same layout (the house template applied as plotly does).
    Arguments that are not numbers, strings or lists of them (``specs``) go to plotly as
    they are."""
    key = tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in kwargs.items()))
    try:
        layout, grid_ref, grid_str = _subplot_grid(key)
    except TypeError:  # not hashable
        return make_subplots(**kwargs)
    fig = go.Figure(layout=copy.deepcopy(layout))
    # the layout's keys in make_subplots' order (template first), so that the JSON is the same
    props = fig.layout._props
    ordered = {k: props[k] for k in ("template", *layout, *props) if k in props}
    props.clear()
    props.update(ordered)
    fig.__dict__["_grid_ref"] = copy.deepcopy(grid_ref)  # as make_subplots attaches them
    fig.__dict__["_grid_str"] = grid_str
    return fig


@functools.lru_cache(maxsize=256)
def _subplot_grid(key: tuple) -> tuple[dict, list, str]:
    """make_subplots' layout (without the template, which a new figure takes from plotly's
    default as make_subplots' does), grid and grid description for the keywords ``key``
    (lists as tuples)."""
    fig = make_subplots(**{k: list(v) if isinstance(v, tuple) else v for k, v in key})
    layout = fig.layout.to_plotly_json()
    layout.pop("template", None)
    return layout, fig._grid_ref, fig._grid_str


def add_axis_lines(fig: go.Figure, lines: Sequence[dict]) -> go.Figure:
    """Add straight lines across plots to ``fig`` in place, in one layout update, and return it:
    the shapes ``fig.add_vline(x=v, **rest)`` (an item with ``"x"``) or ``fig.add_hline(y=v,
    **rest)`` (with ``"y"``) add, item by item, in order.

    ``rest`` holds shape properties (``line``, ``name``) and, for a :func:`make_subplots`
    figure, the subplot's ``row`` and ``col``; without them (or without subplots) the line
    crosses the figure's one plot. As in plotly, a line for a subplot with nothing in it
    (no trace, shape, annotation or image on its own axes) is left out. plotly's calls search
    the subplot grid and set the whole ``shapes`` tuple again for each line, validating every
    shape already there: several ms a line on a page of many panels.
    """
    grid = fig._grid_ref  # None: one plot (plotly's _has_subplots)
    # the axes of what the figure holds, read from its JSON (plotly's getters are slow)
    placed = [(d.get("xaxis") or "x", d.get("yaxis") or "y") for d in fig._data]
    for kind in ("shapes", "annotations", "images"):
        placed += [(d.get("xref") or "x", d.get("yref") or "y") for d in fig._layout.get(kind, ())]
    shapes = []
    for item in lines:
        spec = dict(item)
        row, col = spec.pop("row", None), spec.pop("col", None)
        vertical = "x" in spec
        value = spec.pop("x" if vertical else "y")
        xref, yref = "x", "y"
        if grid is not None and row is not None:
            xaxis, yaxis = grid[row - 1][col - 1][0].layout_keys
            xref, yref = xaxis.replace("axis", ""), yaxis.replace("axis", "")
            if (xref, yref) not in placed:
                continue
        if vertical:
            ends = {"x0": value, "x1": value, "y0": 0, "y1": 1, "yref": f"{yref} domain"}
            ends["xref"] = xref
        else:
            ends = {"x0": 0, "x1": 1, "y0": value, "y1": value, "xref": f"{xref} domain"}
            ends["yref"] = yref
        shapes.append(go.layout.Shape(type="line", **ends, **spec))
    if shapes:
        fig.layout.shapes += tuple(shapes)
    return fig


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


#: Tick labels longer than this many characters are shortened with "…" (hover keeps the name).
MAX_TICK_CHARS = 18
#: Average glyph width as a fraction of the font size (sans-serif), to size gaps for labels.
_GLYPH_WIDTH = 0.58


def escape_html(text) -> str:
    """``text`` with ``&``, ``<`` and ``>`` as HTML entities, so a user-supplied name such as
    ``x<b>y</b>`` is drawn literally in Plotly titles, annotations and tick labels (Plotly reads
    a subset of HTML in every text it draws)."""
    return str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def short_labels(names: Sequence[str], max_chars: int = MAX_TICK_CHARS) -> list[str]:
    """Tick labels for ``names``: HTML-escaped (:func:`escape_html`) and, above ``max_chars``
    characters, shortened to a prefix + "…" (prefix + "…" + suffix where prefixes collide).
    Labels of different names are never alike: where prefix and suffix still collide
    (``yzyalbert-IOL/score_ensemble``, ``yzyalbert-IOL/multilingual/score_ensemble``), each
    of those keeps its name up to where they differ, and its end."""
    shorts = short_label_map(names, max_chars)
    return [shorts[str(n)] for n in names]


def _distinct(names: list[str], max_chars: int) -> list[str]:
    out = [n if len(n) <= max_chars else n[: max_chars - 1] + "…" for n in names]
    if len(set(out)) < len(set(names)):
        head = max(max_chars - 7, 4)
        out = [n if len(n) <= max_chars else n[:head] + "…" + n[-6:] for n in names]
    for _ in range(len(names)):  # widen only the labels still alike, until none is
        seen: dict[str, set] = {}
        for n, s in zip(names, out, strict=True):
            seen.setdefault(s, set()).add(n)
        alike = {s: group for s, group in seen.items() if len(group) > 1}
        if not alike:
            break
        for s, group in alike.items():
            ordered = sorted(group)
            # the first character where some two of them differ: kept, with the ending
            common = len(os.path.commonprefix(ordered))
            for k, n in enumerate(names):
                if n not in group or len(n) <= max_chars:
                    continue
                head = min(common + 4, len(n))
                tail = max(6, max_chars - head - 1)
                label = n if head + tail + 1 >= len(n) else n[:head] + "…" + n[-tail:]
                out[k] = label if label != s else n
    return out


def short_label_map(names: Sequence[str], max_chars: int = MAX_TICK_CHARS) -> dict[str, str]:
    """``{name: label}`` of :func:`short_labels`, for a figure that draws its names one at a
    time (a trace, a panel title each): the labels are made over all of them at once, so two
    names never share one."""
    names = [str(n) for n in dict.fromkeys(str(n) for n in names)]
    return {n: escape_html(s) for n, s in zip(names, _distinct(names, max_chars), strict=True)}


def wrap_text(text, px: float, size: float) -> list[str]:
    """``text`` broken into lines at most ``px`` wide at font ``size`` (estimated glyph widths,
    :data:`_GLYPH_WIDTH`): at spaces, ``_`` or ``-`` where it can, inside a word where one is
    longer than a line; each line HTML-escaped (:func:`escape_html`), to join with ``<br>``."""
    chars = max(4, int(px / (_GLYPH_WIDTH * size)))
    words = re.findall(r"[^\s_-]*[_-]?|\S", str(text).strip())
    lines, line = [], ""
    for word in (w for w in words if w):
        while len(word) > chars:  # longer than a line: cut
            if line:
                lines.append(line)
                line = ""
            lines.append(word[:chars])
            word = word[chars:]
        sep = "" if not line or line.endswith(("_", "-")) else " "
        if len(line) + len(sep) + len(word) > chars:
            lines.append(line)
            line, sep = "", ""
        line += sep + word
    if line or not lines:
        lines.append(line)
    return [escape_html(x) for x in lines]


def shortened_names(fig: go.Figure) -> dict[str, str]:
    """Shortened label -> full name, for every name ``fig`` draws shortened (with "…"): the
    tick labels of its axes (:func:`_category_ticks`) and the end labels of named lines (slope
    charts) -- or, when a figure lists them under ``layout.meta["abbreviated"]`` (labels it
    abbreviates itself, e.g. the agreement map's pairs), those. Hover shows the full names already;
    exports list them (:func:`with_full_names`)."""
    out: dict[str, str] = {}
    layout = fig.layout.to_plotly_json()
    meta = layout.get("meta")
    if isinstance(meta, dict) and isinstance(meta.get("abbreviated"), dict):
        # the figure's own abbreviations (its labels are not whole names shortened)
        return {str(k): str(v) for k, v in meta["abbreviated"].items()}
    for key, axis in layout.items():
        if key.startswith(("xaxis", "yaxis")) and axis.get("ticktext") is not None:
            for full, short in zip(axis.get("tickvals") or (), axis["ticktext"], strict=False):
                if isinstance(full, str) and "…" in str(short) and short != escape_html(full):
                    out[short] = full
    labelled = [
        t for t in fig.data
        if getattr(t, "name", None) and getattr(t, "text", None) is not None
        and not isinstance(t.text, str)
    ]
    shorts = short_label_map([t.name for t in labelled])  # as the figure made them: all at once
    for trace in labelled:
        name = str(trace.name)
        short = shorts[name]
        if short != escape_html(name) and any(short in str(t) for t in trace.text):
            out[short] = name
    return out


#: Characters per line of the full-name key under an exported figure, per 100 px of width.
_KEY_CHARS_PER_100PX = 15


def with_full_names(fig: go.Figure, *, width: int = 1200) -> go.Figure:
    """``fig`` for export: when it shortens names (:func:`shortened_names`), a copy with a key
    under the plot -- "Full names: BLEU_4_closest_ca… = BLEU_4_closest_cased; ..." -- on lines
    fitting ``width`` px, the figure taller by the key; otherwise ``fig`` itself."""
    names = shortened_names(fig)
    if not names:
        return fig
    entries = [f"{short} = {escape_html(full)}" for short, full in names.items()]
    per_line = max(40, int(width / 100 * _KEY_CHARS_PER_100PX))
    lines, line = [], "Full names: "
    for k, entry in enumerate(entries):
        piece = entry + ("; " if k < len(entries) - 1 else "")
        if len(line) + len(piece) > per_line and line.strip():
            lines.append(line.rstrip())
            line = ""
        line += piece
    lines.append(line.rstrip())
    key_px = 18 * len(lines) + 16
    out = go.Figure(fig)
    bottom = out.layout.margin.b if out.layout.margin.b is not None else 80
    height = out.layout.height or 700
    out.update_layout(height=height + key_px, margin={"b": bottom + key_px})
    out.add_annotation(
        text="<br>".join(lines),
        xref="paper",
        yref="paper",
        x=0,
        y=0,
        xanchor="left",
        yanchor="top",
        yshift=-bottom,
        align="left",
        showarrow=False,
        font={"size": 11, "color": "#444444"},
    )
    return out


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


#: Line/text colours: the palette without its yellow (illegible as text on white).
_LINE_COLOURS = tuple(c for c in PALETTE if c != "#F0E442")

#: Colours after the Okabe-Ito eight, for many systems: plotly's Dark24 without its near-black
#: (the palette has black), all dark enough for lines and text on white.
_MORE_COLOURS = (
    "#2E91E5", "#E15F99", "#1CA71C", "#FB0D0D", "#DA16FF", "#B68100", "#750D86", "#EB663B",
    "#511CFB", "#00A08B", "#FB00D1", "#FC0080", "#B2828D", "#6C7C32", "#778AAE", "#862A16",
    "#A777F1", "#620042", "#1616A7", "#DA60CA", "#6C4516", "#0D2A63", "#AF0038",
)  # fmt: skip


def category_colours(n: int, *, lines: bool = False) -> list[str]:
    """``n`` distinct colours for ``n`` categories (systems, metrics), none repeated.

    The Okabe-Ito :data:`PALETTE` first (without its yellow when ``lines``: illegible as a line
    or text on white), then :data:`_MORE_COLOURS` (31 colours in all, 30 for lines), then hues
    a golden angle (137.5 degrees) apart at alternating lightness, which never repeat.
    """
    base = list(_LINE_COLOURS if lines else PALETTE) + list(_MORE_COLOURS)
    out = base[:n]
    for k in range(n - len(out)):
        hue = (k * 137.508) % 360
        light = (38, 52, 30)[k % 3]
        out.append(f"hsl({hue:.1f}, 70%, {light}%)")
    return out


def _rank_labels(system: str, ranks: np.ndarray) -> list[str]:
    """End labels of a slope chart's line: "1. name" at the first point, "name (8)" at the
    last, none between ("–" for a missing rank)."""

    def fmt(r: float) -> str:
        return "–" if not np.isfinite(r) else f"{int(r)}"

    labels = [""] * len(ranks)
    labels[0] = f"{fmt(ranks[0])}. {system}"
    if len(ranks) > 1:
        labels[-1] = f"{system} ({fmt(ranks[-1])})"
    return labels
