"""Helpers for browser tests (import from ``tests.browser.helpers``); see conftest.py."""

from __future__ import annotations

import time
from collections.abc import Sequence
from pathlib import Path

from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

#: A Plotly chart counts as drawn when its SVG exists inside the Streamlit chart element
#: (one match per chart: Plotly draws several .main-svg layers per chart).
CHART_SELECTOR = '[data-testid="stPlotlyChart"] .js-plotly-plot:has(.main-svg)'
EXCEPTION_SELECTOR = '[data-testid="stException"]'
ERROR_SELECTOR = '[data-testid="stAlertContentError"]'


def wait_for_idle(page, timeout: float = 60.0, settle: float = 0.4) -> None:
    """Wait until the websocket is connected and the script has stopped running.

    The state must read ``notRunning`` twice, ``settle`` seconds apart, so a rerun that is just
    being scheduled (after an upload or a widget change) is not mistaken for idleness.
    """
    deadline = time.monotonic() + timeout
    app = page.locator('[data-testid="stApp"]')
    app.wait_for(timeout=timeout * 1000)
    idle_since = None
    while time.monotonic() < deadline:
        state = app.get_attribute("data-test-script-state")
        conn = app.get_attribute("data-test-connection-state")
        if state == "notRunning" and conn == "CONNECTED":
            if idle_since is None:
                idle_since = time.monotonic()
            elif time.monotonic() - idle_since >= settle:
                return
        else:
            idle_since = None
        time.sleep(0.1)
    raise TimeoutError(f"app still running after {timeout} s (state {state!r}, {conn!r})")


_COUNT_RUNS_JS = """
() => {
  window._e2eRuns = 0;
  const app = document.querySelector('[data-testid="stApp"]');
  // Count from the mutation records, not the attribute's current value: a fast rerun can go
  // running -> notRunning before the observer's callback runs, and both changes then arrive
  // in one batch (reading getAttribute would see only 'notRunning' and miss the run).
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.oldValue === 'running' && app.getAttribute('data-test-script-state') !== 'running') {
        window._e2eRuns += 1;
      }
    }
  }).observe(app, {attributes: true, attributeOldValue: true,
                   attributeFilter: ['data-test-script-state']});
}
"""


def rerun_after(page, action, timeout: float = 60.0) -> None:
    """Do ``action()`` (a click, an upload, ...) and wait until the script run it triggers has
    *finished* -- robust on a busy machine, where the rerun may start after ``wait_for_idle``'s
    settle time. Example: ``rerun_after(page, lambda: page.get_by_text("0.01").click())``."""
    page.evaluate(_COUNT_RUNS_JS)
    action()
    try:
        page.wait_for_function("window._e2eRuns > 0", timeout=min(timeout, 15.0) * 1000)
    except PlaywrightTimeoutError:
        # A fast run can start and finish within one React render batch, so the attribute
        # never reads 'running' (seen: upload done and drawn, 0 runs counted). Fall through to
        # the settled-idle wait; the caller's assertions on the page content then decide.
        pass
    wait_for_idle(page, timeout=timeout)


def goto_page(page, app_url: str, url_path: str = "") -> None:
    """Open a page by its ``url_path`` (see dashboard/app.py) and wait for its first run."""
    page.goto(f"{app_url}/{url_path}")
    wait_for_idle(page)


def chart_count(page) -> int:
    """Number of Plotly charts drawn on the page right now."""
    return page.locator(CHART_SELECTOR).count()


def wait_for_charts(page, minimum: int, timeout: float = 60.0) -> int:
    """Wait until at least ``minimum`` Plotly charts are drawn; return the count."""
    page.wait_for_function(
        "([sel, n]) => document.querySelectorAll(sel).length >= n",
        arg=[CHART_SELECTOR, minimum],
        timeout=timeout * 1000,
    )
    return chart_count(page)


def upload_files(page, paths: Sequence[str | Path], index: int = 0) -> None:
    """Upload files through the ``index``-th ``st.file_uploader`` on the page and wait until
    the rerun they trigger has finished (file chips may show shortened names, so they are not
    matched)."""
    field = page.locator('[data-testid="stFileUploader"] input[type="file"]').nth(index)
    rerun_after(page, lambda: field.set_input_files([str(p) for p in paths]))


def assert_no_exception(page) -> None:
    """Fail if Streamlit shows an exception element (a traceback) anywhere on the page."""
    n = page.locator(EXCEPTION_SELECTOR).count()
    assert n == 0, f"{n} exception element(s) shown: " + " | ".join(
        page.locator(EXCEPTION_SELECTOR).all_inner_texts()
    )


def screenshot(page, artifacts_dir: Path, name: str) -> Path:
    """Full-page screenshot to ``<artifacts_dir>/<name>.png``; returns the path."""
    path = Path(artifacts_dir) / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


def download(
    page, key: str, tmp_path: Path, *, label: str | None = None, timeout: float = 90.0
) -> Path:
    """Click the download button in the ``.st-key-<key>`` container (the one named ``label``
    if given), save the file under its suggested name in ``tmp_path`` and return its path."""
    buttons = page.locator(f".st-key-{key}")
    button = buttons.get_by_role("button", name=label) if label else buttons.get_by_role("button")
    with page.expect_download(timeout=timeout * 1000) as info:
        button.first.click()
    path = Path(tmp_path) / info.value.suggested_filename
    info.value.save_as(path)
    return path
