"""Real-browser checks of the app shell: every page opens, presentation mode toggles."""

from __future__ import annotations

import pytest

from tests.browser.helpers import assert_no_exception, goto_page, screenshot, wait_for_idle

PAGES = [
    ("metrics", "Metrics vs humans"),
    ("qe", "Quality estimation"),
    ("mt_systems", "MT systems"),
    ("human", "Tests vs humans"),
]


@pytest.mark.parametrize(("url_path", "title"), PAGES)
def test_every_page_opens_without_exception(page, app_url, url_path, title):
    goto_page(page, app_url, url_path)
    assert_no_exception(page)
    nav = page.locator('[data-testid="stSidebarNav"]')
    assert nav.get_by_text(title, exact=True).count() == 1
    assert page.title() != ""


def test_presentation_mode_enlarges_fonts(page, app_url, artifacts_dir):
    root = "parseFloat(getComputedStyle(document.documentElement).fontSize)"
    normal = page.evaluate(root)
    page.locator('[data-testid="stSidebar"]').get_by_text("Presentation mode").click()
    # the rerun may start late on a busy machine: wait for the larger root font itself
    page.wait_for_function(f"{root} > {normal * 1.2}", timeout=60_000)
    wait_for_idle(page)
    large = page.evaluate(root)
    assert large > normal * 1.2
    assert_no_exception(page)
    screenshot(page, artifacts_dir, "presentation_mode")
