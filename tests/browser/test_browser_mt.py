"""Real-browser test of the "MT systems" page: a malformed upload through the page's file
inputs is one error line, then a reference and system outputs are read and the significance
grids drawn; screenshots."""

from __future__ import annotations

import pytest

from tests._data import write_mt_sample_head
from tests.browser.helpers import (
    ERROR_SELECTOR,
    assert_no_exception,
    goto_page,
    remove_upload,
    screenshot,
    upload_files,
    wait_for_charts,
)


@pytest.mark.opens_its_page
def test_mt_page_malformed_upload_then_upload_and_grids(page, app_url, artifacts_dir, tmp_path):
    """One visit: the sample drawn; outputs of unequal length refused in one message; then
    the real files uploaded beside the malformed ones, which are removed (see
    ``remove_upload``)."""
    goto_page(page, app_url, "mt_systems")
    wait_for_charts(page, minimum=3)  # sample data: scores, grids, distributions
    assert_no_exception(page)
    screenshot(page, artifacts_dir, "mt_systems_sample")

    ref = tmp_path / "ref.txt"
    ref.write_text("a b c\nd e f\ng h i\n")
    short = tmp_path / "Short.txt"
    short.write_text("a b c\n")
    full = tmp_path / "Full.txt"
    full.write_text("a b c\nd e f\ng h i\n")
    upload_files(page, [ref], index=0)
    upload_files(page, [full, short], index=1)
    error = page.locator(ERROR_SELECTOR)
    error.first.wait_for()
    assert "Short.txt has 1 lines but ref.txt has 3" in error.first.inner_text()
    assert_no_exception(page)
    screenshot(page, artifacts_dir, "mt_systems_error")

    reference, hyps = write_mt_sample_head(tmp_path, 120, ("Aurora", "Cirrus", "Delta", "Harbor"))
    upload_files(page, hyps, index=1)  # system outputs uploader
    remove_upload(page, short.name, index=1)
    remove_upload(page, full.name, index=1)
    upload_files(page, [reference], index=0)  # reference uploader
    remove_upload(page, ref.name, index=0)
    wait_for_charts(page, minimum=3)
    assert_no_exception(page)
    assert page.locator(ERROR_SELECTOR).count() == 0
    body = page.locator('[data-testid="stMain"]').inner_text()
    assert "Pairwise significance" in body
    assert "Showing the bundled" not in body  # the uploads replaced the sample
    # the grid figure holds the four uploaded systems
    grid = page.locator('[data-testid="stPlotlyChart"]').nth(1)
    text = grid.inner_text()
    for name in ("Aurora", "Cirrus", "Delta", "Harbor"):
        assert name in text
    assert "Glacier" not in text
    screenshot(page, artifacts_dir, "mt_systems_uploaded")
