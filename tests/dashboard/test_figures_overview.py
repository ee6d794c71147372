"""The all-language-pairs overviews wrap their panels into rows: with WMT20's 30 metrics a cell
stays at least MIN_OVERVIEW_CELL_PX wide at a 1400 px window, read from fig.layout."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dashboard.figures import grids, overview

# WMT20-like metric names (18 characters and more, shortened on the ticks)
NAMES = [f"metric-{k:02d}-" + "x" * (k % 12) for k in range(30)]
LAYOUT_WIDTHS = (grids._GRID_LAYOUT_WIDTH, 1400)  # the page's figure at a 1400 px window; 1400


def _pvalues(names, seed) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    p = np.triu(rng.uniform(0, 0.2, (len(names), len(names))), 1)
    p[np.tril_indices(len(names))] = np.nan
    return pd.DataFrame(p, index=names, columns=names)


def _panels(n_lps: int, *, same_metrics: bool) -> dict:
    """Significance grids of ``n_lps`` language pairs; each LP its own subset of the metrics
    (as WMT20's) unless ``same_metrics``."""
    rng = np.random.default_rng(7)
    out = {}
    for k in range(n_lps):
        names = NAMES if same_metrics else [n for n in NAMES if rng.random() < 0.9]
        out[f"xx-{k:02d}"] = grids.significance_grid(_pvalues(names, k))
    return out


def _smallest_cell_px(fig, width: int) -> float:
    """The narrowest or shortest cell (px) of any panel, with the figure ``width`` px wide."""
    lay = fig.layout
    plot_w = width - lay.margin.l - lay.margin.r
    plot_h = lay.height - lay.margin.t - lay.margin.b
    cells = []
    for k in range(len(fig.data)):
        suffix = "" if k == 0 else str(k + 1)
        xa, ya = lay[f"xaxis{suffix}"], lay[f"yaxis{suffix}"]
        cells.append((xa.domain[1] - xa.domain[0]) * plot_w / len(xa.categoryarray))
        cells.append((ya.domain[1] - ya.domain[0]) * plot_h / len(ya.categoryarray))
    return min(cells)


@pytest.mark.parametrize("same_metrics", [True, False])
def test_thirty_metrics_wrap_into_rows_keeping_cells_legible(same_metrics):
    panels = _panels(10, same_metrics=same_metrics)
    fig = overview.grids_side_by_side(panels, cols=3, title="All LPs")
    ncols = fig.layout.meta["grid_layout"]["ncols"]
    assert ncols < 3  # 3 a row would draw cells below the bar
    for width in LAYOUT_WIDTHS:
        assert _smallest_cell_px(fig, width) >= overview.MIN_OVERVIEW_CELL_PX
    # the panels wrap: as many rows as it takes, every panel titled, none overlapping
    assert fig.layout.meta["grid_layout"]["nrows"] == -(-10 // ncols)
    tops = sorted({round(a.y, 6) for a in fig.layout.annotations}, reverse=True)
    assert len(tops) == fig.layout.meta["grid_layout"]["nrows"]
    rows = sorted({tuple(fig.layout[f"yaxis{'' if k == 0 else k + 1}"].domain) for k in range(10)})
    assert len(rows) == len(tops)
    for below, above in zip(rows, rows[1:], strict=False):
        assert below[1] < above[0]  # a gap between rows: no title over a panel's cells


def test_few_items_keep_three_panels_a_row():
    panels = {f"lp{k}": grids.significance_grid(_pvalues(NAMES[:8], k)) for k in range(6)}
    fig = overview.grids_side_by_side(panels)
    assert fig.layout.meta["grid_layout"]["ncols"] == 3


def test_mosaic_of_many_metrics_wraps_and_keeps_cells_legible():
    names = [f"m{k}" for k in range(45)]
    fig = overview.significance_mosaic(
        {f"lp{k}": _pvalues(names, k) for k in range(6)}, cols=3, title="t"
    )
    lay = fig.layout
    x_units = lay.xaxis.range[1] - lay.xaxis.range[0]
    y_units = lay.yaxis.range[0] - lay.yaxis.range[1]
    plot_h = lay.height - lay.margin.t - lay.margin.b
    for width in LAYOUT_WIDTHS:
        plot_w = width - lay.margin.l - lay.margin.r
        # one scale on both axes (scaleanchor): the tighter one sizes a cell
        assert min(plot_w / x_units, plot_h / y_units) >= overview.MIN_OVERVIEW_CELL_PX
    origins = lay.meta["blocks"]
    assert len({c for _, c in origins.values()}) < 3  # fewer blocks a row than asked
