"""Real browser (Playwright + Debian chromium): the "Metrics vs humans" page with a .zip of WMT
metrics task files as published (REFSET system-level files for two references and DA
system-level human files, made by tests/_wmt_data.py): the charts draw, the reference selector
switches the blocks and excluding a system changes the systems analysed. With WMT20-like files
(tests/_wmt20_like.py: 14 metric files, 6 DA files): at most one summary element, no warning
box per metric, and a page of reasonable height."""

from __future__ import annotations

from tests import _wmt_data as wmt
from tests.browser.helpers import (
    assert_no_exception,
    choose_option,
    screenshot,
    upload_files,
    wait_for_charts,
)


def _systems(page) -> int:
    metric = page.locator('[data-testid="stMetric"]').filter(has_text="Systems (n)")
    return int(metric.locator('[data-testid="stMetricValue"]').inner_text())


def test_zip_of_published_files_reference_selector_and_exclusion(page, artifacts_dir, tmp_path):
    archive = tmp_path / "wmt20-sys.zip"
    archive.write_bytes(wmt.zip_bytes(wmt.system_level_files()))
    upload_files(page, [archive])
    assert wait_for_charts(page, minimum=5) >= 5  # the system-level view, not the segment one
    assert page.locator(".st-key-metrics_refset").count() == 1
    assert_no_exception(page)
    n = _systems(page)  # cs-en: the MT systems and the outlier
    assert n == len(wmt.systems("cs-en"))

    # COMET-QE (REFSET src) starts as reference-free and the human translation Human-B.0 is
    # left out; every reference: en-de's second reference is a block of its own
    free = page.locator(".st-key-metrics_reference_free")
    assert free.get_by_text("COMET-QE").count() == 1
    choose_option(page, "metrics_refset", "all (one block each)")
    choose_option(page, "metrics_lp", "en-de / newstestB2020")
    assert wait_for_charts(page, minimum=5) >= 5
    assert _systems(page) == len(wmt.systems("en-de")) - 1  # without Human-B.0
    assert_no_exception(page)

    # leaving out the outlier changes the systems of the block on screen; the one summary of
    # what was left out says so when opened
    choose_option(page, "metrics_exclude", wmt.OUTLIER)
    assert _systems(page) == len(wmt.systems("en-de")) - 2
    summary = page.locator('[data-testid="stExpander"]').filter(has_text="Left out")
    assert summary.count() == 1
    summary.locator("summary").click()
    summary.get_by_text(f"excluded systems {wmt.OUTLIER}").first.wait_for()
    assert wait_for_charts(page, minimum=5) >= 5
    assert_no_exception(page)
    page.keyboard.press("Escape")
    screenshot(page, artifacts_dir, "metrics_wmt_published")


def test_wmt20_like_files_one_summary_and_reasonable_height(page, artifacts_dir, tmp_path):
    from tests._wmt20_like import write_wmt20_like

    upload_files(page, write_wmt20_like(tmp_path / "wmt20"))
    assert wait_for_charts(page, minimum=5) >= 5
    assert_no_exception(page)
    alerts = page.locator('[data-testid="stAlert"]')
    assert alerts.filter(has_text="has no score for").count() == 0  # no box per metric
    assert page.locator('[data-testid="stExpander"]').filter(has_text="Left out").count() <= 1
    assert "lp=cs-en" in page.url  # the findings' first language pair (the files: en-zh)
    height = page.evaluate("document.querySelector('[data-testid=\"stMain\"]').scrollHeight")
    # WMT20's files made a 40,924 px page; stacked legible grids, read-as captions and MDE
    # notes add about 400 px to the former 9,000 bound
    assert height < 12_000, height
    screenshot(page, artifacts_dir, "metrics_wmt20_like")
