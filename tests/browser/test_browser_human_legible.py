"""Real browser at 1400 x 900, legibility off the MT systems page: "Tests vs humans" with
human judgements of 16 generated systems (one with a WMT name longer than the ticks keep).
The gold standard's three grids stack rather than stand abreast; with segment scores of
the 16 systems, the agreement map's 120 pairs stand in stacked blocks; no two tick labels
overlap in either (label boxes measured as on the MT page); the long name has its legend."""

from __future__ import annotations

import numpy as np
import pytest

from tests.browser.helpers import (
    assert_no_exception,
    goto_page,
    rerun_after,
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


def _scores(path):
    """One metric's segment scores of the 16 systems (SYSTEM SEGMENT SCORE METRIC)."""
    rng = np.random.default_rng(38)
    lines = ["SYSTEM\tSEGMENT\tSCORE\tMETRIC\n"]
    for k, system in enumerate(SYSTEMS):
        lines += [
            f"{system}\t{seg}\t{60 - 2 * k + rng.normal(0, 6):.3f}\tchrF\n" for seg in range(1, 13)
        ]
    path.write_text("".join(lines))
    return path


def _assert_labels_apart(page, key: str, n_x: int) -> int:
    """No two -45 degree x labels of a panel closer than a line of text, no y labels
    overlapping, ``n_x`` x labels drawn; returns the number of panel rows."""
    page.locator(f".st-key-{key} .js-plotly-plot").scroll_into_view_if_needed()
    page.wait_for_function(f"() => ({_TICKS_JS})('{key}').xt.length === {n_x}", timeout=30_000)
    ticks = page.evaluate(_TICKS_JS, key)
    panels = _panels(ticks["xt"])
    for panel in panels:
        anchors = sorted(b[2] for b in panel)
        steps = [b - a for a, b in zip(anchors, anchors[1:], strict=False)]
        assert all(s * 0.7071 >= ticks["font"] for s in steps), (key, ticks["font"], steps)
    assert ticks["yt"] and _overlaps(ticks["yt"]) == 0, key
    return len(panels)


@pytest.mark.opens_its_page
def test_gold_grids_of_sixteen_systems_legible_at_1400(page, app_url, tmp_path, artifacts_dir):
    page.set_viewport_size({"width": 1400, "height": 900})
    goto_page(page, app_url, "human")
    wait_for_charts(page, minimum=1, timeout=120)
    upload_files(page, [_judgements(tmp_path / "judgements.tsv")], index=0)
    grids = page.locator(".st-key-human_gold_grids .js-plotly-plot")
    grids.wait_for(timeout=120_000)
    wait_until_still(page)
    assert_no_exception(page)
    assert _assert_labels_apart(page, "human_gold_grids", 3 * len(SYSTEMS)) >= 2  # stacked
    assert page.get_by_text("Samsung_Research_… = Samsung_Research_Philippines").count() >= 1

    # segment scores of the 16 systems: the agreement map of 120 pairs, in stacked blocks
    rerun_after(page, page.get_by_text("Segment scores", exact=True).click)
    upload_files(page, [_scores(tmp_path / "scores.tsv")], index=1)
    page.locator(".st-key-human_agreement .js-plotly-plot").wait_for(timeout=180_000)
    wait_until_still(page)
    assert_no_exception(page)
    assert _assert_labels_apart(page, "human_agreement", 120) >= 3
    page.locator(".st-key-human_agreement").screenshot(
        path=str(artifacts_dir / "human_agreement_16_systems_1400.png")
    )
    assert page.get_by_text("Samsung_Resea… = Samsung_Research_Philippines").count() >= 1
