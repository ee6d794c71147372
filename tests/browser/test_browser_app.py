"""Real-browser checks of the app shell: every page opens, presentation mode toggles."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.browser.helpers import (
    assert_no_exception,
    goto_page,
    remove_upload,
    rerun_after,
    screenshot,
    switch_page,
    upload_files,
    wait_for_charts,
    wait_for_idle,
)

PAGES = [
    ("metrics", "Metrics vs humans"),
    ("qe", "Quality estimation"),
    ("mt_systems", "MT systems"),
    ("human", "Tests vs humans"),
]


@pytest.mark.opens_its_page
def test_every_page_opens_by_its_link_and_requests_nothing_beyond_its_server(page, app_url):
    """Each page opens from its own URL (a deep link) with its title, its name in the
    navigation and no exception; and every request of every page goes to the dashboard's own
    server (or is a data/blob URL made in the page): the dashboard works on a machine without
    internet -- a meeting room, an air-gapped lab -- and no third party learns it was opened
    (Streamlit fetches a ``:material/...:`` favicon from Google's font CDN, for one)."""
    server = urlsplit(app_url).netloc
    outside: list[str] = []

    def note(request) -> None:
        url = urlsplit(request.url)
        if url.scheme not in ("data", "blob") and url.netloc != server:
            outside.append(request.url)

    page.on("request", note)
    for url_path, title in PAGES:
        goto_page(page, app_url, url_path)
        assert page.get_by_text("Page not found").count() == 0, url_path
        assert page.locator("h1").first.inner_text().strip() == title
        nav = page.locator('[data-testid="stSidebarNav"]')
        assert nav.get_by_text(title, exact=True).count() == 1, title
        assert page.title() != ""
        wait_for_charts(page, minimum=1, timeout=120)
        assert_no_exception(page)
    page.wait_for_timeout(1000)  # late requests (icons, fonts) of the last page
    assert outside == []


def _presentation_mode_enlarges_fonts(page, artifacts_dir) -> None:
    """On the default page of a fresh session: presentation mode enlarges the root font, the
    headline numbers beyond their labels, and draws tables as HTML tables in the large font."""
    root = "parseFloat(getComputedStyle(document.documentElement).fontSize)"
    normal = page.evaluate(root)
    rerun_after(
        page, page.locator('[data-testid="stSidebar"]').get_by_text("Presentation mode").click
    )
    # wait for the larger root font itself as well
    page.wait_for_function(f"{root} > {normal * 1.2}", timeout=60_000)
    wait_for_idle(page)
    # the font rule lands early in the rerun: wait for the elements measured below as well
    page.locator('[data-testid="stTable"] td').first.wait_for(timeout=60_000)
    page.locator('[data-testid="stMetricValue"] p').first.wait_for(timeout=60_000)
    wait_for_idle(page)
    large = page.evaluate(root)
    assert large > normal * 1.2
    assert_no_exception(page)
    # headline numbers are larger than their labels (the paragraph rule used to shrink them)
    size = "sel => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize)"
    value = page.evaluate(size, '[data-testid="stMetricValue"] p')
    label = page.evaluate(size, '[data-testid="stMetricLabel"] p')
    assert value > 1.8 * label, (value, label)
    # tables are HTML tables whose text follows the large root font (the dataframe canvas
    # cannot be enlarged)
    assert page.locator('[data-testid="stDataFrame"]').count() == 0
    cell = page.evaluate(size, '[data-testid="stTable"] td')
    assert cell >= 0.95 * large, (cell, large)
    screenshot(page, artifacts_dir, "presentation_mode")


def _wide_scores(path: Path, *, lp: str) -> Path:
    """A small wide score file (7 systems, human, BLEU, chrF) for language pair ``lp``."""
    rows = "".join(
        f"s{i},{0.1 * i:.2f},{10 + 3 * i + i % 3},{40 + 2 * i - i % 2},{lp}\n" for i in range(7)
    )
    path.write_text("system,human,BLEU,chrF,lp\n" + rows)
    return path


def test_uploads_survive_page_switch_stay_in_their_session_and_removing_one_returns_to_the_sample(
    page, browser, app_url, tmp_path, artifacts_dir
):
    """Kept uploads across page switches, in their session only (the other session's page
    then checks presentation mode: ``_presentation_mode_enlarges_fonts``), cleared by the
    button; then (same visit) the x on a file chip clears the kept upload: after a page
    switch the sample is back."""
    wide = _wide_scores(tmp_path / "my_scores.csv", lp="zz-en")
    upload_files(page, [wide])
    assert page.get_by_text("synthetic sample data").count() == 0
    assert page.get_by_text("zz-en").count() >= 1
    switch_page(page, "Quality estimation")
    switch_page(page, "Metrics vs humans")
    assert_no_exception(page)
    assert page.get_by_text("Using your uploaded files: my_scores.csv").count() == 1
    assert page.get_by_text("synthetic sample data").count() == 0
    assert page.get_by_text("zz-en").count() >= 1  # the analysis is still on the upload
    # another browser context (another user) still sees the sample
    other = browser.new_context(viewport={"width": 1600, "height": 1000})
    try:
        p2 = other.new_page()
        p2.set_default_timeout(60_000)
        goto_page(p2, app_url)
        assert p2.get_by_text("synthetic sample data").count() >= 1
        assert p2.get_by_text("zz-en").count() == 0
        assert p2.get_by_text("Using your uploaded files").count() == 0
        _presentation_mode_enlarges_fonts(p2, artifacts_dir)
    finally:
        other.close()
    # the clear button goes back to the sample
    wait_for_idle(page)  # clicked on a page at rest
    rerun_after(page, page.get_by_role("button", name="Clear uploads / use sample data").click)
    assert page.get_by_text("synthetic sample data").count() >= 1

    # the x on a file chip clears the kept upload: after a page switch the sample is back
    removed = _wide_scores(tmp_path / "removed.csv", lp="yy-en")
    upload_files(page, [removed])
    assert page.get_by_text("synthetic sample data").count() == 0
    remove_upload(page, removed.name)
    assert page.get_by_text("synthetic sample data").count() >= 1
    switch_page(page, "MT systems")
    switch_page(page, "Metrics vs humans")
    assert_no_exception(page)
    assert page.get_by_text("Using your uploaded files").count() == 0
    assert page.get_by_text("synthetic sample data").count() >= 1
