"""Real browser at 1400 x 900 (the window the grids were illegible in): the Metrics page with
12 metrics under long WMT names -- the Williams grid has cells of a legible size, its tick
labels do not overlap, and it is at least as large as the correlation heatmap beside it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.conftest import opened_page
from tests.browser.helpers import (
    assert_no_exception,
    screenshot,
    upload_files,
    wait_for_charts,
    wait_until_still,
)
from tests.browser.test_browser_metrics import SAMPLE

#: WMT-12 style names for the sample's 12 metrics (several longer than the 18-character ticks).
LONG_NAMES = {
    "BLEU": "BLEU_4_closest_cased",
    "NIST": "NIST_5_closest_cased",
    "TER": "TER_v0.7.25_cased",
    "METEOR": "METEOR-1.3-adq-tuned",
    "AMBER": "AMBER_NL",
    "SEMPOS": "SEMPOS",
    "PosF": "PosF",
    "TerrorCat": "TerrorCat",
    "SAGAN": "SAGAN-STS",
    "WER": "WER_cased",
    "PER": "PER_cased",
    "chrF": "chrF_beta3",
}
#: Smallest legible cell (px) of a significance grid with 12 metrics.
MIN_CELL_PX = 22

_SIZES_JS = """
key => {
  const gd = document.querySelector('.st-key-' + key + ' .js-plotly-plot');
  const L = gd._fullLayout;
  const boxes = sel => [...gd.querySelectorAll(sel)].map(e => {
    const r = e.getBoundingClientRect();
    return [r.left, r.top, r.right, r.bottom];
  });
  return {w: L.width, h: L.height, m: L.margin, x: L.xaxis._length, y: L.yaxis._length, n: L.xaxis.categoryarray.length,
          xt: boxes('.xtick text'), yt: boxes('.ytick text')};
}
"""


@pytest.fixture
def page_1400(_context_for, app_url):
    """The app's default page in a 1400 x 900 window (the worker's context of that size,
    whose cache keeps the frontend's bundles parsed)."""
    with opened_page(_context_for({"width": 1400, "height": 900}), app_url) as pg:
        yield pg


def _long_named_metrics(tmp_path: Path) -> Path:
    lines = SAMPLE.joinpath("metrics.tsv").read_text().splitlines(keepends=True)
    body = [
        f"{LONG_NAMES.get(m, m)}\t{rest}" for m, rest in (ln.split("\t", 1) for ln in lines[1:])
    ]
    path = tmp_path / "metrics.tsv"
    path.write_text(lines[0] + "".join(body))
    return path


def _overlaps(boxes, slack: float = 0.5) -> int:
    """Pairs of label boxes that intersect (more than ``slack`` px each way)."""
    count = 0
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if (
                min(a[2], b[2]) - max(a[0], b[0]) > slack
                and min(a[3], b[3]) - max(a[1], b[1]) > slack
            ):
                count += 1
    return count


def _rotated_overlaps(boxes, font_px: float = 13.0) -> int:
    """Neighbouring -45 degree labels that overlap: their bounding boxes always intersect
    diagonally, but parallel lines of text whose anchors (right ends) are ``d`` px apart lie
    ``d sin 45`` apart, which must be at least the font size."""
    anchors = sorted(b[2] for b in boxes)
    steps = [b - a for a, b in zip(anchors, anchors[1:], strict=False)]
    return sum(s * 0.7071 < font_px for s in steps)


def test_grids_legible_at_1400(page_1400, artifacts_dir, tmp_path):
    page = page_1400
    upload_files(page, [SAMPLE / "human.tsv", _long_named_metrics(tmp_path)])
    wait_for_charts(page, minimum=5)
    wait_until_still(page)
    assert_no_exception(page)
    screenshot(page, artifacts_dir, "metrics_1400")
    grid = page.evaluate(_SIZES_JS, "metrics_grid")
    heat = page.evaluate(_SIZES_JS, "metrics_heatmap")
    assert grid["n"] == heat["n"] == 12
    cell = min(grid["x"], grid["y"]) / grid["n"]
    assert cell >= MIN_CELL_PX, ({k: grid[k] for k in "whmxy"}, {k: heat[k] for k in "whmxy"})
    # the significance grid is not smaller than the heatmap it is read against
    assert min(grid["x"], grid["y"]) >= min(heat["x"], heat["y"]) - 1, (grid, heat)
    for fig in (grid, heat):
        assert len(fig["yt"]) == 12 and _overlaps(fig["yt"]) == 0
        assert len(fig["xt"]) == 12 and _rotated_overlaps(fig["xt"]) == 0
