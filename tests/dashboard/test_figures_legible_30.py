"""Legibility with WMT23-sized inputs (30 metrics, 8 QE language pairs), through fig.layout: the
fixes the browser test (tests/browser/test_browser_legible_wmt.py) measured -- axis titles on
the all-language-pairs panels and the QE systems x language pairs heatmap, the dot chart's two
line axis title, and presentation mode on a slide: grids with legible columns stack, square
matrices' tick fonts fit their cells."""

from __future__ import annotations

import math
import re

import numpy as np
import pandas as pd

from dashboard.figures import (
    correlation_dots,
    correlation_heatmap,
    grids_side_by_side,
    presentation,
    significance_grid,
)
from dashboard.figures.overview import LABEL_CELL_FACTOR
from dashboard.figures.qe_wmt import qe_lp_heatmap
from tests._legible_data import METRICS, METRICS_LPS, QE_LPS


def _pvalues(names) -> pd.DataFrame:
    n = len(names)
    p = np.full((n, n), np.nan)
    upper = np.triu_indices(n, 1)
    p[upper] = np.random.default_rng(3).uniform(0, 0.1, len(upper[0]))
    return pd.DataFrame(p, index=list(names), columns=list(names))


def _all_lps(**kw):
    panels = {lp: significance_grid(_pvalues(METRICS)) for lp in METRICS_LPS}
    return grids_side_by_side(
        panels,
        cols=3,
        legible_columns=True,
        x_title="column: compared with",
        y_title="row: correlates better?",
        **kw,
    )


def _axes(fig, letter: str) -> list:
    lay = fig.layout.to_plotly_json()
    return [lay[k] for k in sorted(lay) if re.fullmatch(f"{letter}axis\\d*", k)]


def test_all_lp_panels_have_axis_titles_with_room():
    fig = _all_lps()
    spec = fig.layout.meta["grid_layout"]
    assert spec["ncols"] == 1  # 30 metrics: stacked
    xs, ys = _axes(fig, "x"), _axes(fig, "y")
    assert len(xs) == len(METRICS_LPS)
    assert all(a["title"]["text"] == "column: compared with" for a in xs)
    # rows titled left of the first column (every panel, stacked)
    assert all(a["title"]["text"] == "row: correlates better?" for a in ys)
    plain = grids_side_by_side(
        {lp: significance_grid(_pvalues(METRICS)) for lp in METRICS_LPS}, legible_columns=True
    )
    assert "title" not in _axes(plain, "x")[0]
    assert fig.layout.margin.l > plain.layout.margin.l  # room for the row title
    assert fig.layout.margin.b > plain.layout.margin.b  # ... and the column title


def test_presentation_stacks_30_metric_panels_with_rows_a_line_high():
    fig = presentation.apply_presentation(_all_lps(panel_height=480), True)
    spec = fig.layout.meta["grid_layout"]
    size = fig.layout.xaxis.tickfont.size
    assert spec["ncols"] == 1, spec  # three abreast left 7 px between column labels
    m = fig.layout.margin
    plot_w = presentation.SLIDE_GRID_PX - m.l - m.r
    lo, hi = fig.layout.xaxis.domain
    assert (hi - lo) * plot_w / len(METRICS) >= LABEL_CELL_FACTOR * size * 0.9
    # rows not shrunk to fit one slide: each a line of the (larger) tick font
    plot_h = fig.layout.height - m.t - m.b
    lo, hi = fig.layout.yaxis.domain
    assert (hi - lo) * plot_h / len(METRICS) >= 1.2 * size
    # the row title only left of the first column
    assert fig.layout.yaxis.title.text == "row: correlates better?"


def test_presentation_fits_square_matrix_ticks_to_their_cells():
    rng = np.random.default_rng(0)
    corr = pd.DataFrame(rng.uniform(0.5, 1, (30, 30)), index=list(METRICS), columns=list(METRICS))
    for fig in (correlation_heatmap(corr), significance_grid(_pvalues(METRICS))):
        big = presentation.apply_presentation(fig, True)
        size = big.layout.xaxis.tickfont.size
        assert big.layout.yaxis.tickfont.size == size
        assert 10 <= size < 20  # not the 20 px that overprinted each other
        longest = max(len(str(t)) for t in big.layout.xaxis.ticktext)
        below = 0.58 * size * longest * 0.71 + size + 10
        side = big.layout.height - big.layout.margin.t - below - 10
        assert side / 30 * math.sin(math.radians(45)) >= size  # neighbours a line apart
    few = presentation.apply_presentation(significance_grid(_pvalues(METRICS[:6])), True)
    assert few.layout.xaxis.tickfont.size == 20  # cells large enough: the slide's font


def test_dot_chart_axis_title_on_two_lines():
    table = pd.DataFrame({"pearson": np.linspace(0.9, -0.5, 30)}, index=list(METRICS))
    fig = correlation_dots(table)
    assert fig.layout.xaxis.title.text == "|Pearson r| with humans<br>(◇ = negative)"


def test_qe_heatmap_of_8_language_pairs_titles_its_axes():
    systems = [f"team{k}/method{k}" for k in range(6)]
    stat = pd.DataFrame(
        np.random.default_rng(1).uniform(0.2, 0.6, (6, 8)), index=systems, columns=list(QE_LPS)
    )
    fig = qe_lp_heatmap(stat, measure="spearman", average=stat.mean(axis=1))
    assert list(fig.data[0].x) == [*QE_LPS, "average"]
    assert fig.layout.xaxis.title.text == "language pair"
    assert fig.layout.yaxis.title.text == "system"


def test_presentation_charts_fit_the_smaller_window():
    """Presentation mode serves a 1920 x 1080 slide and a 1400 x 900 window alike (the server
    cannot tell which): every chart no taller than the smaller window; the 30 x 30 matrices'
    labels shrink to their cells, a 30-row dot chart's to its rows; legible grids stacked
    past the window are drawn by the page one per language pair (fits_slide)."""
    small = presentation.SMALL_SLIDE_HEIGHT
    rng = np.random.default_rng(0)
    corr = pd.DataFrame(rng.uniform(0.5, 1, (30, 30)), index=list(METRICS), columns=list(METRICS))
    dots = correlation_dots(pd.DataFrame({"pearson": np.linspace(0.9, -0.5, 30)},
                                         index=list(METRICS)))  # fmt: skip
    for fig in (correlation_heatmap(corr), significance_grid(_pvalues(METRICS)), dots):
        big = presentation.apply_presentation(fig, True)
        assert big.layout.height <= presentation.MAX_PRESENTATION_HEIGHT <= small - 60
        assert big.layout.yaxis.tickfont.size >= 10
    big = presentation.apply_presentation(dots, True)
    size = big.layout.yaxis.tickfont.size
    room = big.layout.height - 30 - 4 * big.layout.xaxis.tickfont.size - 10
    assert room / 30 >= presentation.ROW_PER_FONT_PX * size  # rows a line and air apart
    assert not presentation.fits_slide(_all_lps(panel_height=480))  # 3 x 30: per pair
    assert presentation.fits_slide(significance_grid(_pvalues(METRICS)))
