"""Shared matrices: correlation heatmaps and significance grids, with the geometry that sizes
them from their labels (several of them side by side: :mod:`dashboard.figures.overview`).

Cell (row i, column j) of a significance grid is coloured when i significantly beats j at
``alpha``, darker for smaller p (:func:`significance_colour_value`); every page's grids share
:func:`significance_coloraxis`.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.clusters import cluster_shapes
from dashboard.figures.style import (
    _GLYPH_WIDTH,
    _SIGNIFICANCE_AXIS_COLORSCALE,
    BASE_FONT_SIZE,
    CORRELATION_COLORSCALE,
    NOT_SIGNIFICANT_Z,
    SEQUENTIAL_COLORSCALE,
    SIGNIFICANCE_DECADES,
    _category_ticks,
    _label_px,
    _tick_font_size,
    base_layout_dict,
    round_significant,
    short_labels,
)

#: Width (CSS px) the side-by-side grids are laid out for: the content column of a ~1400 px
#: window with the sidebar open is ~930 px (wider windows only widen the gaps).
_GRID_LAYOUT_WIDTH = 900
#: Width (CSS px) of one of two page columns in that window (measured: 462 px).
HALF_COLUMN_PX = 460
#: Smallest legible cell (px) of a matrix: a 13 px label per row, and rotated column labels
#: 22 x sin(45 degrees) = 15.6 px apart.
MIN_CELL_PX = 22


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
    colorbar_px: int | None = None,
) -> go.Figure:
    """Heatmap of a square (or rectangular) correlation matrix with the values in the cells.

    Rows run top to bottom in ``matrix.index`` order, columns left to right in
    ``matrix.columns`` order (pass the matrix already ordered, e.g. by |r| with human).
    Colours via ``layout.coloraxis`` (so the figure combines with :func:`grids_side_by_side`):
    diverging red-blue centred on 0 when ``zmin < 0 < zmax``, otherwise sequential blues over
    [zmin, zmax] (zoom in on high correlations, as the paper's Figure 2a). NaN cells stay blank.
    ``colorbar_px`` is the right margin kept for the colour bar (default
    :data:`CORRELATION_COLORBAR_PX`); beside a significance grid pass
    :data:`SIGNIFICANCE_COLORBAR_PX`, so the two matrices get the same size.

    Returns
    -------
    go.Figure
        One ``Heatmap`` trace; ``z`` is ``matrix.to_numpy()``; cell text via ``texttemplate``.
    """
    z = matrix.to_numpy(dtype=float)
    rows = [str(v) for v in matrix.index]
    cols = [str(v) for v in matrix.columns]
    n = max(len(rows), len(cols))
    side = height or matrix_height(rows, cols)
    layout = base_layout_dict(title=title, height=side)
    right = colorbar_px or CORRELATION_COLORBAR_PX
    layout.update(_square_category_axes(rows, cols, height=side, right=right))
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


#: Largest cell side (px) of a matrix's default height: a grid of two or three items stays a
#: small grid, not one blown-up block.
MAX_CELL_PX = 64


def matrix_height(rows: Sequence[str], cols: Sequence[str]) -> int:
    """Default height (px) of a matrix figure: 28 px per item + 160 px, from 380 to 900 px,
    but no taller than cells of :data:`MAX_CELL_PX` need (under the title and column labels)."""
    n = max(len(rows), len(cols), 1)
    size = _tick_font_size(n)
    xlab = _label_px(short_labels(cols), size) * 0.71 + size + 10
    fitted = 60 + xlab + 10 + MAX_CELL_PX * n
    return int(min(900, max(380, 28 * n + 160), fitted))


def fits_half_column(names: Sequence[str], *, colorbar_px: int | None = None) -> bool:
    """Whether a square matrix of ``names`` keeps cells of :data:`MIN_CELL_PX` in one of two
    page columns (:data:`HALF_COLUMN_PX`, a 1400 px window): row labels, the cells and the
    colour bar (default :data:`SIGNIFICANCE_COLORBAR_PX`). Otherwise a page shows it full
    width."""
    n = max(len(names), 1)
    size = _tick_font_size(n)
    ylab = _label_px(short_labels(names), size) + 12
    right = colorbar_px or SIGNIFICANCE_COLORBAR_PX
    return ylab + 10 + n * MIN_CELL_PX + right <= HALF_COLUMN_PX


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


def _matrix_axis(size: float) -> dict:
    """Axis entries every matrix shares: categories in the given order, tick labels of
    ``size`` px, no grid or zero line."""
    return {
        "type": "category",
        "categoryorder": "array",
        "tickfont": {"size": size},
        "showgrid": False,
        "zeroline": False,
    }


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
    common = {**_matrix_axis(size), "constrain": "domain"}
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


def in_order(matrix: pd.DataFrame, order: Sequence[str] | None) -> pd.DataFrame:
    """Square ``matrix`` with rows and columns in ``order`` (its labels missing from ``order``
    last, in their own order; labels of ``order`` it lacks skipped); unchanged for ``None``."""
    if order is None:
        return matrix
    present = set(matrix.index)
    keep = [m for m in order if m in present]
    keep += [m for m in matrix.index if m not in set(keep)]
    return matrix.reindex(index=keep, columns=keep)


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
    :func:`grids_side_by_side`): validating 10 panels of 50 x 50 cells is a noticeable part
    of each re-render, for dicts this module writes and the figure tests validate
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


def significance_coloraxis(alpha: float, *, min_p: float | None = None) -> dict:
    """``layout.coloraxis`` of the significance figures: grey "n.s." band below 0, greens for
    ``SIGNIFICANCE_DECADES`` decades of p below ``alpha``
    (see :func:`significance_colour_value`) -- or, with ``min_p`` (the smallest p the test can
    give: :math:`1/(R+1)` of a resampling test with R resamples), down to ``min_p``, its last
    tick, where the scale ends (1,000 resamples: 0.05, 0.005, 0.000999; no 5e-05 no p reaches)."""
    decades = float(SIGNIFICANCE_DECADES)
    if min_p is not None and 0 < min_p < alpha:
        decades = min(decades, math.log10(alpha / min_p))
    whole = [k for k in range(SIGNIFICANCE_DECADES + 1) if k <= decades + 1e-9]
    values = [float(k) for k in whole]
    labels = [f"{alpha * 10.0**-k:g}" if k else f"{alpha:g} (α)" for k in whole]
    if decades - whole[-1] > 0.15:  # the end of the scale: the smallest p, labelled
        values.append(round(decades, 3))
        labels.append(f"{min_p:.3g}")  # the end of the scale: no p below it
    elif min_p is not None and decades < SIGNIFICANCE_DECADES:
        labels[-1] = f"{min_p:.3g}"
    return {
        "colorscale": _SIGNIFICANCE_AXIS_COLORSCALE,
        "cmin": NOT_SIGNIFICANT_Z,
        "cmax": round(decades, 3) if decades < SIGNIFICANCE_DECADES else SIGNIFICANCE_DECADES,
        "colorbar": {
            "title": {"text": "p"},
            "tickvals": [NOT_SIGNIFICANT_Z / 2, *values],
            "ticktext": [f"≥ {alpha:g} (n.s.)", *labels],
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
    clusters: Sequence[int] | None = None,
    p_label: str = "p",
    min_p: float | None = None,
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
    clusters : sequence of int (None or NaN: no cluster), optional
        Significance cluster of each row (best first, as ``pvalue``'s rows): lines between
        the clusters (:func:`dashboard.figures.clusters.cluster_shapes`).
    p_label : str
        Name of ``pvalue`` in the hover, e.g. "p (Holm)" for adjusted p-values.
    min_p : float, optional
        The smallest p the test can give (a resampling test's :math:`1/(R+1)`): the colour
        scale ends there (:func:`significance_coloraxis`).

    Returns
    -------
    go.Figure
        One ``Heatmap`` trace named "significance": ``z`` = :func:`significance_colour_value`
        on ``layout.coloraxis`` (grey band below 0, greens from 0 to ``SIGNIFICANCE_DECADES``),
        ``customdata`` of shape (rows, cols, 1 + len(hover)) -- p first, then the hover matrices
        (rounded to what their formats print, see :func:`round_as_shown`) -- formatted by
        ``hovertemplate`` in the browser (no per-cell Python), and with ``verdict`` a ``text``
        array of "significant" / "not significant" ("" where untested).
        ``layout.meta["alpha"]`` is alpha; with ``clusters``, ``layout.meta["clusters"]`` is
        the list of ranks and ``layout.shapes`` the lines between them.
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
    question = f"<b>%{{y}}</b> {verb} <b>%{{x}}</b>?<br>{p_label} = %{{customdata[0]:{P_FORMAT}}}"
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
    side = height or matrix_height(rows, cols)
    layout = base_layout_dict(title=title, height=side)
    layout.update(_square_category_axes(rows, cols, height=side, right=SIGNIFICANCE_COLORBAR_PX))
    layout["coloraxis"] = significance_coloraxis(alpha, min_p=min_p)
    layout["meta"] = {"alpha": alpha}
    if clusters is not None:
        layout["shapes"] = cluster_shapes(clusters)
        layout["meta"]["clusters"] = [None if r is None or r != r else int(r) for r in clusters]
    if x_title:
        layout["xaxis"]["title"] = {"text": x_title}
    if y_title:
        layout["yaxis"]["title"] = {"text": y_title}
    return _unchecked_figure([{"type": "heatmap", **trace}], layout)


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
