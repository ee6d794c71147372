"""Names shortened on axes ("BLEU_4_closest_ca…") stay whole on hover and in exports."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dashboard import export
from dashboard.figures import (
    qe_rank_change,
    shortened_names,
    significance_grid,
    with_full_names,
)

LONG = ["BLEU_4_closest_cased", "TerrorCat", "sacreBLEU-BLEU-refB-longer"]


def _grid():
    p = pd.DataFrame(np.nan, index=LONG, columns=LONG)
    p.iloc[0, 1], p.iloc[0, 2], p.iloc[1, 2] = 0.001, 0.2, 0.04
    return significance_grid(p, alpha=0.05, title="grid")


def test_grid_hover_has_full_names_ticks_are_short():
    fig = _grid()
    assert list(fig.data[0].x) == LONG and list(fig.data[0].y) == LONG  # hover: %{x}, %{y}
    assert "%{y}" in fig.data[0].hovertemplate and "%{x}" in fig.data[0].hovertemplate
    assert "BLEU_4_closest_ca…" in fig.layout.xaxis.ticktext
    assert shortened_names(fig) == {
        "BLEU_4_closest_ca…": "BLEU_4_closest_cased",
        "sacreBLEU-BLEU-re…": "sacreBLEU-BLEU-refB-longer",
    }


def test_export_copy_lists_full_names_below():
    fig = _grid()
    out = with_full_names(fig, width=600)
    key = out.layout.annotations[-1]
    assert key.text.startswith("Full names: ")
    assert "BLEU_4_closest_ca… = BLEU_4_closest_cased" in key.text
    assert "sacreBLEU-BLEU-refB-longer" in key.text
    grown = out.layout.height - fig.layout.height
    assert grown > 0 and out.layout.margin.b - fig.layout.margin.b == grown
    assert key.yshift == -fig.layout.margin.b  # under the old bottom edge, in the new room
    assert fig.layout.annotations == ()  # the shown figure is unchanged
    short = significance_grid(pd.DataFrame(np.nan, index=["A", "B"], columns=["A", "B"]))
    assert with_full_names(short) is short


def test_slope_chart_end_labels_key():
    table = pd.DataFrame(
        {"rank_pearson": [1, 2], "rank_mae": [2, 1]},
        index=["FBK-UPV-UEDIN-nowp-long", "dan-moses"],
    )
    names = shortened_names(qe_rank_change(table))
    assert names == {"FBK-UPV-UEDIN-now…": "FBK-UPV-UEDIN-nowp-long"}  # not "r" (Pearson r)


@pytest.mark.browser  # kaleido drives Chromium
@pytest.mark.skipif(export.find_browser() is None, reason="kaleido needs Chromium")
def test_svg_export_holds_full_names():
    svg = export.figure_to_bytes(_grid(), "svg").decode()
    assert "BLEU_4_closest_cased" in svg and "sacreBLEU-BLEU-refB-longer" in svg
