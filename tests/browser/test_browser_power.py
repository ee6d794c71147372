"""Real browser (Playwright + Debian chromium): the Power page draws the power curves (one line
per effect, power against n) and the MDE curve from the bundled sample scores, as plotly.js drew
them; the curves hold stats.analyses.power_from_statistics's numbers (float32 transport: 1e-6)
and presentation mode redraws them without an exception, every chart within a 1400 x 900
window and a 1920 x 1080 slide. At its defaults on a 12-system upload the page computes, and
its layout fits both windows (resized after the computation: no second run)."""

from __future__ import annotations

import numpy as np
import pytest

from stats.analyses import power_from_statistics, score_statistics
from tests.browser.helpers import (
    SLIDE_1920,
    WINDOW_1400,
    assert_charts_within_windows,
    assert_no_exception,
    chart_count,
    goto_page,
    screenshot,
    toggle_presentation,
    upload_files,
    wait_for_charts,
    wait_until_still,
)

SCORES = "sample_data/mt/segment_scores.tsv"

#: the right edge and height of every drawn chart, and the page's horizontal overflow
_FITS_JS = """
() => ({
  charts: [...document.querySelectorAll('.js-plotly-plot')].map(gd => {
    const b = gd.getBoundingClientRect();
    return {right: b.right, height: b.height};
  }),
  scroll: document.documentElement.scrollWidth - document.documentElement.clientWidth,
})
"""

_CURVES_JS = """
gd => gd._fullData.map(t => ({name: t.name, x: Array.from(t.x), y: Array.from(t.y)}))
"""


@pytest.mark.opens_its_page
def test_power_page_draws_the_curves_then_computes_at_its_defaults_on_a_12_system_upload(
    page, app_url, artifacts_dir, tmp_path
):
    """One visit: the sample's curves, in presentation mode too; then a 12-system upload."""
    goto_page(page, app_url, "power", timeout=240)
    wait_for_charts(page, minimum=2, timeout=240)
    assert_no_exception(page)
    curves = page.locator(".st-key-power_curves_box .js-plotly-plot")
    drawn = curves.evaluate(_CURVES_JS)
    mde = page.locator(".st-key-power_mde_box .js-plotly-plot").evaluate(_CURVES_JS)
    screenshot(page, artifacts_dir, "power")
    data = score_statistics(SCORES, metric="chrF")
    expected = power_from_statistics(
        data,
        baseline=data.systems[0],
        system=data.systems[1],
        effect=[0.5, 1, 2],
        n=None,
        test="t",
        n_simulations=500,
        n_resamples=500,
        rng=12345,
    ).result
    order = np.argsort(expected.sizes)
    names = [c["name"] for c in drawn]
    assert names == ["effect 0.5", "effect 1", "effect 2", "effect 0 (size; α = 0.05)"]
    np.testing.assert_allclose(drawn[3]["y"], expected.size[order], atol=1e-6)
    for i, curve in enumerate(drawn[:3]):
        assert curve["x"] == [int(v) for v in np.asarray(expected.sizes)[order]]
        np.testing.assert_allclose(curve["y"], expected.power[i][order], atol=1e-6)
        assert np.all(np.diff(curve["y"]) >= 0)  # power rises with n
    np.testing.assert_allclose(mde[0]["y"], np.asarray(expected.mde)[order], rtol=1e-6)
    assert np.all(np.diff(mde[0]["y"]) < 0)  # the MDE falls with n

    # presentation mode (the same visit, the numbers cached): every chart within both windows
    toggle_presentation(page)
    assert_no_exception(page)
    assert_charts_within_windows(page, minimum=2)
    toggle_presentation(page)  # off again: the upload below is checked in the page's own mode

    # 12 systems x 557 segments (WMT23 en-de size), every control at its default: the page
    # computes (no refusal), draws the curves with the rate at effect 0 beside them, and states
    # the sample size with its Monte Carlo error
    from tests.dashboard.test_app_power_defaults import _scores_file

    path = _scores_file(tmp_path, 12, 557)
    wait_for_charts(page, minimum=2, timeout=240)
    upload_files(page, [path], index=0)
    wait_for_charts(page, minimum=2, timeout=240)
    assert_no_exception(page)
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0
    drawn = page.locator(".st-key-power_curves_box .js-plotly-plot").evaluate(_CURVES_JS)
    assert [c["name"] for c in drawn][-1] == "effect 0 (size; α = 0.05)"
    assert all(max(c["x"]) == 1110 for c in drawn)  # twice the 557 segments
    assert all(0 <= y < 0.15 for y in drawn[-1]["y"])
    body = page.locator("body").inner_text()
    assert "Sample size for 80% power at effect 0.5" in body and "Monte Carlo SE" in body
    assert "12 systems x 557 segments" in body
    screenshot(page, artifacts_dir, "power-12-systems")

    # the same result in a 1400 x 900 window and on a 1920 x 1080 slide: resized, not rerun
    runs = len(page._e2e_script_runs.events)
    for viewport in (WINDOW_1400, SLIDE_1920):
        page.set_viewport_size(viewport)
        wait_until_still(page, timeout=120)
        fits = page.evaluate(_FITS_JS)
        assert fits["scroll"] <= 1, (viewport, fits)  # no horizontal scrolling
        for chart in fits["charts"]:
            assert chart["right"] <= viewport["width"] + 1, (viewport, chart)
            assert chart["height"] <= viewport["height"], (viewport, chart)
        assert chart_count(page) >= 2
    assert page._e2e_script_runs.events[runs:] == []  # no script run: nothing recomputed
    assert_no_exception(page)
