"""Real browser at 1400 x 900, issue 37.4 off the MT systems page: "Tests vs humans" with
human judgements of 16 generated systems (one with a WMT name longer than the ticks keep).
The gold standard's three grids stack rather than stand abreast, and no two tick labels
overlap (label boxes measured as on the MT page); the long name has its legend."""

from __future__ import annotations

import numpy as np

from tests.browser.helpers import (
    assert_no_exception,
    goto_page,
    upload_files,
    wait_for_charts,
    wait_until_still,
)
from tests.browser.test_browser_legibility import _overlaps
from tests.browser.test_browser_mt_meeting import _TICKS_JS, _panels

SYSTEMS = [
    "ONLINE-A", "ONLINE-B", "Samsung_Research_Philippines", "ONLINE-G", "ONLINE-M",
    "ONLINE-W", "ONLINE-Y", "GPT4-5shot", "Lan-BridgeMT", "NLLB_Greedy", "NLLB_MBR_BLEU",
    "ZengHuiMT", "AIRC", "CUNI-GA", "SKIM", "UvA-LTL",
]  # fmt: skip


def _judgements(path):
    """Adequacy and fluency of 16 systems x 12 segments by 4 annotators, the systems' quality
    spread so that the humans separate many pairs."""
    rng = np.random.default_rng(37)
    lines = ["SYSTEM\tSEGMENT\tANNOTATOR\tCRITERION\tSCORE\n"]
    for k, system in enumerate(SYSTEMS):
        for seg in range(1, 13):
            for ann in range(1, 5):
                for criterion in ("adequacy", "fluency"):
                    score = np.clip(80 - 3 * k + rng.normal(0, 8), 0, 100)
                    lines.append(f"{system}\t{seg}\tann{ann}\t{criterion}\t{score:.0f}\n")
    path.write_text("".join(lines))
    return path


def test_gold_grids_of_sixteen_systems_legible_at_1400(page, app_url, tmp_path):
    page.set_viewport_size({"width": 1400, "height": 900})
    goto_page(page, app_url, "human")
    wait_for_charts(page, minimum=1, timeout=120)
    upload_files(page, [_judgements(tmp_path / "judgements.tsv")], index=0)
    grids = page.locator(".st-key-human_gold_grids .js-plotly-plot")
    grids.wait_for(timeout=120_000)
    wait_until_still(page)
    assert_no_exception(page)
    grids.scroll_into_view_if_needed()
    page.wait_for_function(
        f"() => ({_TICKS_JS})('human_gold_grids').xt.length === 3 * {len(SYSTEMS)}",
        timeout=30_000,
    )
    ticks = page.evaluate(_TICKS_JS, "human_gold_grids")
    panels = _panels(ticks["xt"])
    assert len(panels) >= 2, [len(p) for p in panels]  # stacked: not three abreast
    for panel in panels:
        anchors = sorted(b[2] for b in panel)
        steps = [b - a for a, b in zip(anchors, anchors[1:], strict=False)]
        assert len(panel) % len(SYSTEMS) == 0 and all(
            s * 0.7071 >= ticks["font"]
            for s in steps
            if s < 200  # within a panel
        ), (len(panel), ticks["font"], steps)
    assert len(ticks["yt"]) >= len(SYSTEMS) and _overlaps(ticks["yt"]) == 0
    assert page.get_by_text("Samsung_Research_… = Samsung_Research_Philippines").count() >= 1
