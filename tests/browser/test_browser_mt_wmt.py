"""Real browser (Playwright + Debian chromium): the "MT systems" page with a .zip of WMT metrics
task segment-level files as published (tests/_wmt_data.py: a gzipped headerless file and one
with a header, two language pairs, two references of en-de). The p-value grid drawn in the
browser holds the workflow's p-values of the chosen block."""

from __future__ import annotations

import numpy as np
import pytest

from dashboard.figures import grids
from stats.analyses import score_statistics
from stats.mt.randomized import pairwise_significance
from tests import _wmt_data as wmt
from tests.browser.helpers import (
    assert_no_exception,
    choose_option,
    goto_page,
    rerun_after,
    screenshot,
    upload_files,
    wait_for_charts,
)

#: the first heatmap of the significance grids as drawn: its axes and the p-value of each cell
_GRID_JS = """
() => {
  const gd = document.querySelector('.st-key-mt_grids .js-plotly-plot');
  const t = gd._fullData[0];
  const p = Array.from(t.customdata, row => Array.from(row, cell => cell == null ? null : cell[0]));
  return {x: Array.from(t.x), y: Array.from(t.y), p: p, title: gd._fullLayout.annotations.map(a => a.text)};
}
"""


@pytest.mark.opens_its_page
def test_zip_of_published_segment_files_pvalue_grid(page, app_url, artifacts_dir, tmp_path):
    goto_page(page, app_url, "mt_systems")
    wait_for_charts(page, minimum=3)
    rerun_after(page, page.locator(".st-key-mt_source").get_by_text("Segment scores").click)
    files = wmt.segment_level_files()
    archive = tmp_path / "wmt20-seg.zip"
    archive.write_bytes(wmt.zip_bytes(files))
    upload_files(page, [archive])
    page.locator(".st-key-mt_score_lp").wait_for()
    choose_option(page, "mt_score_metric", "COMET")  # the page opens on the BLEU metric, sentBLEU
    choose_option(page, "mt_score_lp", "en-de")
    choose_option(page, "mt_score_refset", "newstestB2020")
    page.keyboard.press("Escape")
    wait_for_charts(page, minimum=3)
    assert_no_exception(page)
    page.get_by_text("reference newstestB2020").first.wait_for()

    grid = page.evaluate(_GRID_JS)
    data = score_statistics([archive], metric="COMET", lp="en-de", refset="newstestB2020")
    want = pairwise_significance(data, test="paired-bootstrap", n_resamples=1000, rng=12345)
    assert list(grid["y"]) == list(want.systems)  # best first, without the human reference
    shown = np.array([[np.nan if v is None else v for v in row] for row in grid["p"]])
    expected = grids.round_as_shown(want.pvalue.loc[grid["y"], grid["x"]], ".3g")
    np.testing.assert_array_equal(shown, expected)
    screenshot(page, artifacts_dir, "mt_systems_wmt_segments")
