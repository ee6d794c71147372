"""Colours for many systems: no two categories share a colour (the QE page's 11 systems once
repeated three colours), and the yellow is never a line."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.figures import PALETTE, category_colours, qe_rank_change, qe_rescale_curve


def test_category_colours_distinct_for_many():
    assert category_colours(8) == list(PALETTE)
    for n in (11, 22, 31, 60, 200):
        colours = category_colours(n)
        assert len(colours) == n and len(set(colours)) == n, n
    lines = category_colours(40, lines=True)
    assert "#F0E442" not in lines and len(set(lines)) == 40


def test_rescale_curve_22_systems_distinct_solid_lines():
    systems = [f"system-{k:02d}" for k in range(22)]
    lam = np.linspace(0, 1.5, 4)
    curve = pd.DataFrame(
        [
            {"system": s, "sd_ratio": x, "mae": 0.5 + k / 100 + x / 10}
            for k, s in enumerate(systems)
            for x in lam
        ]
    )
    fig = qe_rescale_curve(curve, sd_ratio=0.8)
    lines = [t for t in fig.data if t.mode == "lines"]
    assert [t.name for t in lines] == systems
    assert len({t.line.color for t in lines}) == 22
    assert {t.line.dash for t in lines} <= {None, "solid"}
    # 22 systems in the legend: the plot grows rather than squeezing them into 430 px
    assert fig.layout.height >= 250 + 20 * 22


def test_rank_change_11_changed_systems_distinct():
    n = 11
    table = pd.DataFrame(
        {"rank_pearson": np.arange(1, n + 1), "rank_mae": np.arange(n, 0, -1)},
        index=[f"sys{k}" for k in range(n)],
    )
    table.loc["sys5", "rank_mae"] = 100  # the middle system changed too
    fig = qe_rank_change(table)
    colours = [t.line.color for t in fig.data]
    assert len(set(colours)) == n
