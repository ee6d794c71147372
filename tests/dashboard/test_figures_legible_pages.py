"""Legibility on the pages other than MT systems: with 16-30 systems (or metrics) at 1400 px
the grids stack instead of shrinking, so neighbouring -45 degree column labels cannot overlap;
the agreement map of Tests vs humans stacks blocks of pairs with abbreviated names and a
legend; QE scatter titles wrap to their panel; the leaderboard keeps the ends of long names.
All measured through fig.layout (the browser test measures drawn label boxes)."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pandas as pd
import pytest

from dashboard.figures import (
    grids_side_by_side,
    human,
    human_gold_grids,
    shortened_names,
    significance_grid,
    with_full_names,
)
from dashboard.figures.grids import _GRID_LAYOUT_WIDTH
from dashboard.figures.leaderboard import LABEL_CHARS, ranking_dots
from dashboard.figures.overview import LABEL_CELL_FACTOR
from dashboard.figures.qe import SUBPLOT_TITLE_PX, TITLE_LINE_PX, qe_standardised_scatter
from dashboard.figures.style import _GLYPH_WIDTH, wrap_text

WMT_NAMES = [
    "ONLINE-A", "ONLINE-B", "Samsung_Research_Philippines", "ONLINE-G", "ONLINE-M", "ONLINE-W", "ONLINE-Y", "GPT4-5shot",
    "Lan-BridgeMT", "NLLB_Greedy", "NLLB_MBR_BLEU", "ZengHuiMT", "AIRC", "CUNI-GA",
    "SKIM", "UvA-LTL",
]  # fmt: skip


def _pvalues(names: list[str]) -> pd.DataFrame:
    n = len(names)
    p = np.full((n, n), np.nan)
    upper = np.triu_indices(n, 1)
    p[upper] = np.random.default_rng(3).uniform(0, 0.1, len(upper[0]))
    return pd.DataFrame(p, index=names, columns=names)


def _cells_px(fig) -> list[float]:
    """Each panel's cell width (px) in the page's :data:`_GRID_LAYOUT_WIDTH` px figure."""
    lay = fig.layout
    plot = _GRID_LAYOUT_WIDTH - lay.margin.l - lay.margin.r
    out = []
    for key in lay.to_plotly_json():
        if key.startswith("xaxis"):
            axis = lay[key]
            lo, hi = axis.domain
            out.append((hi - lo) * plot / len(axis.categoryarray))
    return out


def _assert_columns_apart(fig) -> None:
    font = fig.layout.xaxis.tickfont.size
    cells = _cells_px(fig)
    assert cells and min(cells) >= LABEL_CELL_FACTOR * font, (cells, font)


@pytest.mark.parametrize("n", [16, 30])
def test_human_gold_grids_stack_rather_than_overlap(n):
    names = (WMT_NAMES + [f"system-{k}" for k in range(30)])[:n]
    p = _pvalues(names)
    fig = human_gold_grids({"adequacy": p, "fluency": p, "combined": p})
    assert fig.layout.meta["grid_layout"]["ncols"] < 3  # stacked, not three abreast
    _assert_columns_apart(fig)
    assert shortened_names(fig) == {"Samsung_Research_…": "Samsung_Research_Philippines"}


def test_human_gold_grids_of_few_systems_stay_abreast():
    p = _pvalues(WMT_NAMES[:6])
    fig = human_gold_grids({"adequacy": p, "fluency": p, "combined": p})
    assert fig.layout.meta["grid_layout"]["ncols"] == 3


def test_all_language_pair_grids_of_many_metrics_stack():
    # the Metrics page's all-LP panels and PERM-BOTH's: grids_side_by_side(legible_columns=True)
    metrics = [f"COMET-22-variant-{k}" for k in range(20)]
    panels = {lp: significance_grid(_pvalues(metrics)) for lp in ("en-de", "en-ja", "zh-en")}
    crowded = grids_side_by_side(panels, cols=3)
    legible = grids_side_by_side(panels, cols=3, legible_columns=True)
    assert min(_cells_px(crowded)) < LABEL_CELL_FACTOR * crowded.layout.xaxis.tickfont.size
    assert legible.layout.meta["grid_layout"]["ncols"] < 3
    _assert_columns_apart(legible)


def _agreement(n_systems: int, names=WMT_NAMES):
    systems = (list(names) + [f"sys-{k}" for k in range(40)])[:n_systems]
    pairs = [f"{a} vs {b}" for a, b in itertools.combinations(systems, 2)]
    rows = [
        f"{m} · {t}"
        for m in ("BLEU", "chrF", "COMET")
        for t in ("Bootst. Resamp.", "Approx. Rand.")
    ]
    codes = np.random.default_rng(1).integers(0, 4, (len(rows), len(pairs)))
    return pd.DataFrame(codes, index=rows, columns=pairs)


@pytest.mark.parametrize("n_systems", [12, 16, 30])
def test_agreement_map_stacks_blocks_of_pairs_labels_never_overlap(n_systems):
    outcome = _agreement(n_systems)
    fig = human.agreement_heatmap(outcome)
    lay = fig.layout
    # every pair once, in order, over the stacked blocks
    assert [x for t in fig.data for x in t.x] == list(outcome.columns)
    for t in fig.data:
        np.testing.assert_array_equal(
            np.asarray(t.z, dtype=float), outcome.loc[:, list(t.x)].to_numpy(dtype=float)
        )
    assert len(fig.data) == -(-len(outcome.columns) // lay.meta["pairs_per_block"])
    assert len(fig.data) > 1  # 66 pairs and more: stacked, not squeezed into one row
    _assert_columns_apart(fig)
    font = lay.xaxis.tickfont.size
    assert font >= 10  # not shrunk
    # rows high enough for their labels; blocks apart by the rotated pair labels
    plot_h = lay.height - lay.margin.t - lay.margin.b
    domains = sorted(lay[f"yaxis{'' if k == 0 else k + 1}"].domain for k in range(len(fig.data)))
    for lo, hi in domains:
        assert (hi - lo) * plot_h / len(outcome.index) >= 1.5 * font
    longest = max(len(s) for s in lay.xaxis.ticktext)
    for (_, hi), (lo, _) in itertools.pairwise(domains):
        assert (lo - hi) * plot_h >= _GLYPH_WIDTH * font * longest * 0.71
    # the long name abbreviated the same way in every pair, with the legend's map
    assert lay.meta["abbreviated"] == {"Samsung_Resea…": "Samsung_Research_Philippines"}
    assert shortened_names(fig) == lay.meta["abbreviated"]
    ticks = [
        s for k in range(len(fig.data)) for s in lay[f"xaxis{'' if k == 0 else k + 1}"].ticktext
    ]
    assert not any("Samsung_Research_Philippines" in s for s in ticks)
    assert sum("Samsung_Resea…" in s for s in ticks) == n_systems - 1
    # exports carry the legend too
    key = with_full_names(fig).layout.annotations[-1].text
    assert "Samsung_Resea… = Samsung_Research_Philippines" in key


def test_agreement_map_of_few_pairs_is_one_block():
    outcome = _agreement(5)
    fig = human.agreement_heatmap(outcome)
    (trace,) = fig.data
    assert list(trace.x) == list(outcome.columns)
    assert fig.layout.meta["pairs_per_block"] == 10
    assert (
        human.agreement_heatmap(_agreement(4, ["A", "B", "C", "D"])).layout.meta["abbreviated"]
        == {}
    )


def _title_lines(text: str) -> list[str]:
    return [re.sub(r"</?b>", "", s) for s in text.split("<br>")]


@pytest.mark.parametrize(
    "names",
    [
        ["core_ensemble", "COMETTD_wmt23_qe_submission"],
        ["HW-TSC_ensemble_of_models_primary", "Unbabel-IST_CometKiwi_XXL"],
    ],
)
def test_qe_scatter_titles_wrap_within_their_panels(names):
    gold = pd.Series(np.linspace(0, 1, 20))
    preds = pd.DataFrame({n: np.linspace(0, 1, 20) ** (k + 1) for k, n in enumerate(names)})
    pearson, mae = dict.fromkeys(names, 0.4213), dict.fromkeys(names, 0.12345)
    fig = qe_standardised_scatter(gold, preds, names, pearson=pearson, mae=mae)
    titles = [a.text for a in fig.layout.annotations if a.yref == "paper" and a.y == 1]
    assert len(titles) == len(names)
    widths = []
    for k, (name, text) in enumerate(zip(names, titles, strict=True)):
        lines = _title_lines(text)
        # the whole name and both figures are there, broken at line ends only
        assert "".join(lines).replace(" ", "").startswith(name.replace(" ", ""))
        assert "r = 0.421" in text and "MAE = 0.1235" in text
        axis = fig.layout[f"xaxis{'' if k == 0 else k + 1}"]
        widths.append((axis.domain, max(len(s) for s in lines)))
    # each title line fits its panel (half a 1400 px page): neighbours cannot touch
    plot = 460 - 140
    for (lo, hi), chars in widths:
        assert chars * _GLYPH_WIDTH * SUBPLOT_TITLE_PX <= (hi - lo) * plot
    lines = fig.layout.meta["title_lines"]
    assert lines == max(len(_title_lines(t)) for t in titles) and lines >= 2
    assert fig.layout.margin.t >= lines * TITLE_LINE_PX


def test_wrap_text_breaks_at_separators_and_escapes():
    assert wrap_text("core_ensemble_of_models", 100, 10) == ["core_ensemble_of_", "models"]
    assert wrap_text("a<b>", 1000, 10) == ["a&lt;b&gt;"]
    assert all(len(s) <= 17 for s in wrap_text("x" * 50, 100, 10))


def test_leaderboard_keeps_both_ends_of_long_names_with_a_legend():
    labels = ["metricx-24-hybrid-xl-v2p6-qe-ensemble[noref]*", "BLEU*", "chrF*"]
    fig = ranking_dots(labels, [0.9, 0.8, 0.7], [1, 2, 2])
    ticks = list(fig.layout.yaxis.ticktext)
    assert ticks[1:] == ["BLEU*", "chrF*"]
    assert len(ticks[0]) <= LABEL_CHARS and ticks[0].endswith("[noref]*")
    assert shortened_names(fig) == {ticks[0]: labels[0]}
    assert fig.data[0].text[0] == labels[0]  # hover has the name whole


def test_agreement_map_in_presentation_one_block_a_slide_sized_for_its_font():
    from dashboard.figures import AGREEMENT_SLIDE, apply_presentation
    from dashboard.figures.presentation import PRESENTATION_CONTENT_PX

    outcome = _agreement(12)
    per_block = human.agreement_heatmap(outcome, **AGREEMENT_SLIDE).layout.meta["pairs_per_block"]
    assert per_block < human.agreement_heatmap(outcome).layout.meta["pairs_per_block"]
    slide = human.agreement_heatmap(outcome.iloc[:, :per_block], **AGREEMENT_SLIDE)
    assert len(slide.data) == 1
    shown = apply_presentation(slide, True)
    font = shown.layout.xaxis.tickfont.size
    assert font == AGREEMENT_SLIDE["label_px"]
    # full row labels and the colour bar at the larger font, then the cells
    rows = max(len(r) for r in outcome.index) * _GLYPH_WIDTH * font
    colorbar = human.AGREEMENT_COLORBAR_PX * font / human.AGREEMENT_FONT_PX
    assert (PRESENTATION_CONTENT_PX - rows - 22 - colorbar) / per_block >= LABEL_CELL_FACTOR * font
