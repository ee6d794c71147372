"""Presentation mode of the MT systems page's significance grids: at the
content width of a 1400 px window (the narrowest presentation width) every panel keeps legible
cells, panel titles never overlap, and each figure fits a 1920 x 1080 slide. Tested through
fig.layout; the browser measures the drawn page in tests/browser/test_browser_mt_presentation.py.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from dashboard.figures import grids, mt_systems, presentation
from dashboard.figures.style import _GLYPH_WIDTH

#: 12 systems as WMT23 en-de names them (short names from the file names), two of them long.
WMT_NAMES = [
    "ONLINE-W", "GPT4-5shot", "ONLINE-B", "ONLINE-Y", "Lan-BridgeMT-constrained-contrastive",
    "ONLINE-A", "NLLB_MBR_BLEU_greedy_baseline_3.3B", "ONLINE-G", "ZengHuiMT", "ONLINE-M",
    "AIRC", "NLLB_Greedy",
]  # fmt: skip
TITLES = ["Paired bootstrap resampling", "Bootstrap resampling", "Approximate randomization"]


def _result(names, seed):
    """What mt_significance_grids reads of a PairwiseSignificanceResult, seeded."""
    rng = np.random.default_rng(seed)
    n = len(names)
    upper = np.triu(np.ones((n, n), dtype=bool), 1)
    p = np.where(upper, rng.uniform(0, 0.2, (n, n)), np.nan)
    frame = lambda v: pd.DataFrame(v, index=names, columns=names)  # noqa: E731
    return SimpleNamespace(
        pvalue=frame(p), statistic=frame(np.where(upper, 1.0, np.nan)),
        diff_ci_low=frame(np.where(upper, 0.5, np.nan)),
        diff_ci_high=frame(np.where(upper, 1.5, np.nan)),
        label="BLEU", confidence_level=0.95,
    )  # fmt: skip


def _slides(names):
    results = {t: _result(names, k) for k, t in enumerate(TITLES)}
    return [
        presentation.apply_presentation(
            mt_systems.mt_significance_grids(
                {t: results[t] for t in row}, title="BLEU: row better than column"
            ),
            True,
        )
        for row in presentation.slide_rows(TITLES, names)
    ]


def _panels(fig, width=presentation.PRESENTATION_CONTENT_PX):
    """Per panel: (left, right, top) of its plot area in px and its cell side (px)."""
    m = fig.layout.margin
    plot_w, plot_h = width - m.l - m.r, fig.layout.height - m.t - m.b
    out = []
    for k in range(len(fig.layout.annotations)):
        suffix = "" if k == 0 else str(k + 1)
        xd, yd = fig.layout[f"xaxis{suffix}"].domain, fig.layout[f"yaxis{suffix}"].domain
        n = len(fig.layout[f"xaxis{suffix}"].categoryarray)
        cell = min((xd[1] - xd[0]) * plot_w, (yd[1] - yd[0]) * plot_h) / n
        out.append((m.l + xd[0] * plot_w, m.l + xd[1] * plot_w, yd[1], cell))
    return out


def _title_boxes(fig, width=presentation.PRESENTATION_CONTENT_PX):
    """Estimated (left, right) px of each panel title (glyph width x font size x length)."""
    m = fig.layout.margin
    plot_w = width - m.l - m.r
    boxes = []
    for ann in fig.layout.annotations:
        half = _GLYPH_WIDTH * ann.font.size * len(ann.text) / 2
        centre = m.l + ann.x * plot_w
        boxes.append((centre - half, centre + half))
    return boxes


@pytest.mark.parametrize(
    "names",
    [WMT_NAMES, WMT_NAMES[:4], [n[:8] for n in WMT_NAMES], [f"sys-{k}" for k in range(30)]],
    ids=["wmt12-long", "four", "twelve-short", "thirty"],
)
def test_each_panel_legible_titles_apart_each_figure_one_slide(names):
    slides = _slides(names)
    assert sum(len(f.layout.annotations) for f in slides) == len(TITLES)  # every test shown
    for fig in slides:
        panels = _panels(fig)
        assert min(p[3] for p in panels) >= grids.MIN_CELL_PX, panels
        assert len({round(p[2], 6) for p in panels}) == 1  # one row per figure: same top
        boxes = sorted(_title_boxes(fig))
        assert all(a[1] <= b[0] for a, b in zip(boxes, boxes[1:], strict=False)), boxes
        assert fig.layout.height <= presentation.MAX_PRESENTATION_HEIGHT
        # full names, not shortened with "…"
        assert list(fig.layout.yaxis.ticktext) == [str(n) for n in names]


def test_panels_per_row_follows_names_and_titles():
    assert presentation.panels_per_row(WMT_NAMES, TITLES) == 1  # long names: stacked
    assert presentation.panels_per_row(["A", "B", "C"], ["PB", "BS", "AR"]) == 3
    # short names but long titles: two titles would print over each other in a row
    assert presentation.panels_per_row(WMT_NAMES[:4], TITLES) < 3
    assert presentation.slide_rows(TITLES, WMT_NAMES) == [[t] for t in TITLES]
    assert presentation.slide_rows(["PB", "BS", "AR"], ["A", "B"]) == [["PB", "BS", "AR"]]


def test_the_single_figure_of_legible_columns_stacks_on_a_slide():
    """The one figure of three panels (before the page split it into a figure per slide row)
    put its panels in one row on a slide: slivers (cells under MIN_CELL_PX). Built with
    ``legible_columns``, presentation mode now stacks them until they keep legible cells in a
    full-width chart on the slide."""
    results = {t: _result(WMT_NAMES, k) for k, t in enumerate(TITLES)}
    fig = presentation.apply_presentation(mt_systems.mt_significance_grids(results), True)
    assert fig.layout.meta["grid_layout"]["legible_columns"]
    assert fig.layout.meta["grid_layout"]["ncols"] < len(TITLES)
    assert min(p[3] for p in _panels(fig, presentation.SLIDE_GRID_PX)) >= grids.MIN_CELL_PX


def test_sacrebleu_table_scores_short_on_a_slide(monkeypatch):
    """The sacreBLEU table on a slide: 0-100 scores with 2 decimals (49.96, as sacreBLEU's own
    table is short), 0-1 scores keep 4; off a slide always 4."""
    from dashboard.sections import mt_table

    bleu, comet = pd.Series([49.9607, 36.1]), pd.Series([0.8123, 0.7])
    monkeypatch.setattr(mt_table.components, "presentation_mode", lambda: True)
    assert (mt_table._score_format(bleu), mt_table._score_format(comet)) == ("%.2f", "%.4f")
    monkeypatch.setattr(mt_table.components, "presentation_mode", lambda: False)
    assert (mt_table._score_format(bleu), mt_table._score_format(comet)) == ("%.4f", "%.4f")
