"""Real-browser tests of the "Quality estimation" page: sample data, upload through the page's
file input, malformed upload, screenshots."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.helpers import (
    ERROR_SELECTOR,
    assert_no_exception,
    chart_count,
    goto_page,
    remove_upload,
    screenshot,
    upload_files,
    wait_for_charts,
    wait_for_idle,
)

QE = Path(__file__).resolve().parents[2] / "sample_data" / "qe"


@pytest.mark.opens_its_page
def test_qe_page_sample_lambda_slider_then_malformed_upload_then_wmt_submissions(
    page, app_url, artifacts_dir, tmp_path
):
    """One visit: the sample's charts drawn, the lambda slider redraws them; then a
    malformed upload is one line, and the WMT submissions and gold are read."""
    goto_page(page, app_url, "qe")
    n = wait_for_charts(page, minimum=7)
    assert n >= 7
    assert_no_exception(page)
    body = page.locator('[data-testid="stMain"]').inner_text()
    assert "Pearson r versus MAE" in body
    assert "CONSERV-mean" in body
    screenshot(page, artifacts_dir, "qe_sample")
    # the main area scrolls inside the page, so a full-page shot shows only the top: also
    # save every chart as drawn
    charts = page.locator('[data-testid="stPlotlyChart"]')
    for i in range(charts.count()):
        charts.nth(i).scroll_into_view_if_needed()
        charts.nth(i).screenshot(path=str(artifacts_dir / f"qe_sample_chart{i}.png"))
        assert (artifacts_dir / f"qe_sample_chart{i}.png").stat().st_size > 5000

    # the lambda slider, on the same sample
    main = page.locator('[data-testid="stMain"]')
    assert main.get_by_text("rescale to λ = 0.5 × gold SD").count() == 1
    wait_for_idle(page)  # the slider is focused on a page at rest
    thumb = page.locator('[data-testid="stSlider"] input[type="range"]').first
    thumb.focus()
    for _ in range(4):  # 0.50 -> 0.70 in steps of 0.05
        thumb.press("ArrowRight")
    # each key press may rerun the app: wait for the last value's text, then for the server
    # to finish every run the presses asked for
    main.get_by_text("rescale to λ = 0.7 × gold SD").wait_for()
    wait_for_idle(page)
    assert main.get_by_text("rescale to λ = 0.7 × gold SD").count() == 1
    wait_for_charts(page, minimum=7)
    assert_no_exception(page)
    screenshot(page, artifacts_dir, "qe_lambda_0.7")

    # then, in the same visit, a malformed file: one line, no chart; the WMT files are
    # uploaded beside it, which is then removed (see ``remove_upload``)
    bad = tmp_path / "broken.txt"
    bad.write_text("METRIC SID SCORE RANK HUMAN\nA 1 0.2 0 0.5\nA 2 oops 0 0.4\n")
    upload_files(page, [bad])
    error = page.locator(ERROR_SELECTOR)
    error.first.wait_for()
    assert "broken.txt, line 3, column SCORE: 'oops' is not a number" in error.first.inner_text()
    assert_no_exception(page)
    assert chart_count(page) == 0
    screenshot(page, artifacts_dir, "qe_malformed_upload")

    upload_files(
        page,
        [QE / "wmt" / "ALPHA-svr.txt", QE / "wmt" / "baseline.txt", QE / "wmt_gold.txt"],
    )
    remove_upload(page, bad.name)
    wait_for_charts(page, minimum=7)
    assert_no_exception(page)
    assert page.locator(ERROR_SELECTOR).count() == 0
    metric_values = main.locator('[data-testid="stMetricValue"]').all_inner_texts()
    assert metric_values[:2] == ["600", "2"]
    assert "synthetic sample" not in main.inner_text()
    screenshot(page, artifacts_dir, "qe_uploaded_wmt")
