"""Presentation mode on a 1920 x 1080 slide (dashboard/figures/presentation.py): full names in
place of shortened tick labels, the panels of a grid figure in one row, and no figure taller
than the slide allows. (The browser measures the drawn charts: tests/browser/
test_browser_wmt_pages.py.)"""

from __future__ import annotations

import numpy as np
import pandas as pd
from plotly.subplots import make_subplots

from dashboard.figures import grids, overview, presentation
from tests.dashboard.test_figures_metrics import LONG, _long_pvalues


def test_full_names_replace_shortened_tick_labels():
    fig = grids.significance_grid(_long_pvalues(LONG))
    assert any("…" in t for t in fig.layout.xaxis.ticktext)
    big = presentation.apply_presentation(fig, True)
    assert list(big.layout.xaxis.ticktext) == LONG and list(big.layout.yaxis.ticktext) == LONG
    assert big.layout.xaxis.automargin and big.layout.yaxis.automargin
    assert any("…" in t for t in fig.layout.xaxis.ticktext)  # the input is left as it was


def test_grid_panels_stand_in_one_row_and_fit_the_slide():
    panels = {f"test {k}": grids.significance_grid(_long_pvalues(LONG)) for k in range(3)}
    fig = overview.grids_side_by_side(panels, cols=1)  # stacked: as a page built it
    assert len({fig.layout[f"yaxis{s}"].domain[1] for s in ("", "2", "3")}) == 3
    big = presentation.apply_presentation(fig, True)
    tops = {big.layout[f"yaxis{s}"].domain[1] for s in ("", "2", "3")}
    assert tops == {1.0}
    lefts = [big.layout[f"xaxis{s}"].domain[0] for s in ("", "2", "3")]
    assert lefts == sorted(lefts) and len(set(lefts)) == 3
    assert big.layout.height <= presentation.MAX_PRESENTATION_HEIGHT
    # rows shared: only the first panel names them
    assert [big.layout[f"yaxis{s}"].showticklabels for s in ("", "2", "3")] == [
        True,
        False,
        False,
    ]
    assert list(big.layout.xaxis.ticktext) == LONG


def test_many_panels_wrap_and_still_fit():
    names = [f"n{i}" for i in range(12)]
    pvalue = _long_pvalues(names)
    panels = {f"lp{k}": grids.significance_grid(pvalue) for k in range(6)}
    big = presentation.apply_presentation(overview.grids_side_by_side(panels, cols=1), True)
    tops = sorted({round(big.layout[f"yaxis{s}"].domain[1], 6) for s in ("", *"23456")})
    assert len(tops) == 2  # 4 + 2 panels
    assert big.layout.height <= presentation.MAX_PRESENTATION_HEIGHT


def test_tall_figures_are_capped_and_long_labels_get_room():
    fig = make_subplots(rows=3, cols=1)
    for row in (1, 2, 3):
        fig.add_scatter(x=[1, 2], y=[1, 2], row=row, col=1)
    fig.update_layout(height=1500)
    assert presentation.apply_presentation(fig, True).layout.height == (
        presentation.MAX_PRESENTATION_HEIGHT
    )
    # a short matrix of long pair names: tall enough for the rotated labels under it
    pairs = [f"{a} vs {b}" for a, b in zip(LONG, LONG[1:], strict=False)]
    outcome = pd.DataFrame(np.zeros((2, len(pairs))), index=["a", "b"], columns=pairs)
    heat = grids.correlation_heatmap(outcome, show_values=False)
    heat.update_layout(height=320, width=None)
    big = presentation.apply_presentation(heat, True)
    longest = max(len(p) for p in pairs)
    size = big.layout.xaxis.tickfont.size
    assert big.layout.height >= 0.58 * size * longest * 0.71 + big.layout.margin.t
    assert big.layout.height <= presentation.MAX_PRESENTATION_HEIGHT


def test_stacked_grids_of_a_dozen_items_fit_the_small_slide():
    # the all-language-pairs Williams panels of WMT-12-like data (4 pairs x 12 metrics) were
    # 1,046 px tall in presentation mode: their rows and ticks shrink (not below
    # MIN_FIT_CELL_PX) so the figure fits 1400 x 900 without scrolling inside it
    import numpy as np
    import pandas as pd

    from dashboard import figures

    names = ["TerrorCat", "METEOR", "SAGAN", "SEMPOS", "PosF", "chrF", "BLEU", "NIST", "TER",
             "WER", "AMBER", "PER"]  # fmt: skip
    rng = np.random.default_rng(0)
    panels = {
        lp: figures.significance_grid(
            pd.DataFrame(rng.random((12, 12)), index=names, columns=names), alpha=0.05
        )
        for lp in ("cs-en", "de-en", "es-en", "fr-en")
    }
    fig = figures.grids_side_by_side(
        panels, cols=2, title="Williams significance per language pair (one-sided, α = 0.05)",
        panel_height=480, horizontal_spacing=0.16, legible_columns=True,
        x_title="column: compared with", y_title="row: correlates better?",
    )  # fmt: skip
    big = presentation.apply_presentation(fig, True)
    spec = big.layout.meta["grid_layout"]
    assert big.layout.height <= presentation.SMALL_FIT_HEIGHT < presentation.SMALL_SLIDE_HEIGHT
    assert spec["panel_height"] >= 12 * presentation.MIN_FIT_CELL_PX
    assert big.layout.xaxis.tickfont.size == big.layout.yaxis4.tickfont.size == spec["tick_px"]
    assert spec["tick_px"] >= 12
