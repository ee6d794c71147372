"""Fixtures for real-browser tests: the dashboard served by ``streamlit run`` and Playwright
pages in Debian's chromium (never ``playwright install``).

Fixtures
--------
app_url : str (session)
    Base URL (``http://127.0.0.1:<port>``) of ``streamlit run dashboard/app.py --server.headless
    true --server.address 127.0.0.1 --server.port <free port>`` started from the repo root with
    ``BROWSER_PATH`` set; ready once ``/_stcore/health`` answers ``ok``; killed after the session.
    Server output goes to ``<artifacts>/streamlit-<port>.log``.
browser (session)
    A Playwright ``Browser``: chromium at ``/usr/bin/chromium`` with the flags of the brief.
page (function)
    A fresh ``Page`` (its own Streamlit session, in the browser context of its size that the
    worker's pages share) 1600x1000, 60 s timeouts, with the ``app_url`` opened and the first script run finished (as the server reports it
    over the websocket, followed from the start: see ``track_script_runs``). Downloads are
    accepted. A test marked ``opens_its_page`` gets the page blank (its script runs tracked)
    and opens the app itself: loading the default page first would only cost its run.
slide_page (function)
    The same in a 1920x1080 window (presentation mode on a projector).
artifacts_dir : pathlib.Path (session)
    Where screenshots and logs go: ``$ARTIFACTS_DIR`` or ``<repo>/artifacts/browser``.

When ``/usr/bin/chromium`` is missing the tests skip -- unless ``CI=true``, where they fail.
Every test in ``tests/browser`` is marked ``browser``.

Helpers (``tests/browser/helpers.py``): ``goto_page(page, app_url, url_path)``,
``switch_page(page, title)`` (another page through the sidebar, same browser page and session:
cheaper than a page load), ``wait_for_idle(page)``, ``rerun_after(page, action)`` (do a click/upload and wait for the
script run it triggers to finish; fails when none does), ``wait_for_charts(page, minimum)``,
``wait_until_still(page)`` (before an exact count of something the browser may still add),
``upload_files(page, paths, index=0)`` (fails unless the uploader lists the files, none
uploading or failed), ``remove_upload(page, name, index=0)`` (the x of a file's chip: an
uploader appends, so several files are checked one at a time in one visit by uploading the next
and removing the previous), ``choose_option(page, key, option)`` (every selectbox pick),
``chart_count(page)``, ``assert_no_exception(page)``,
``screenshot(page, artifacts_dir, name)``, ``fail_with_page_state(page, what)`` (an
``AssertionError`` with what the page shows -- ``page_state(page)`` -- and the server log's
tail: use it when a wait of a test's own times out), ``toggle_presentation(page)`` (the
sidebar's presentation mode, on or off), ``assert_charts_within_windows(page)`` (resized in the
same visit to ``WINDOW_1400`` and ``SLIDE_1920``: every chart within each window; no rerun) and
``charts_beyond(page, viewport)``; selectors ``CHART_SELECTOR``,
``ERROR_SELECTOR``, ``EXCEPTION_SELECTOR``. Widgets with ``key=k`` are wrapped in an element
with CSS class ``st-key-k``: ``page.locator(".st-key-metrics_alpha").get_by_text("0.01").click()``.

Example::

    from tests.browser.helpers import assert_no_exception, goto_page, wait_for_charts

    def test_qe_page_draws(page, app_url, artifacts_dir):
        goto_page(page, app_url, "qe")            # url_path of the page in dashboard/app.py
        wait_for_charts(page, minimum=2)
        assert_no_exception(page)
        page.screenshot(path=str(artifacts_dir / "qe.png"), full_page=True)
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests.browser.helpers import (
    goto_page,
    set_server_log,
    track_script_runs,
    wait_until_healthy,
)

CHROMIUM = "/usr/bin/chromium"
#: Chromium reads only the last ``--disable-features``, so ours repeats the list Playwright
#: passes (1.65, ``chromiumSwitches.ts``) and adds the omnibox popup's WebUI: headless
#: Chromium keeps one loaded in a renderer of its own, never shown, which took about 2 % of
#: the browser tests' CPU.
PLAYWRIGHT_DISABLED_FEATURES = (
    "AvoidUnnecessaryBeforeUnloadCheckSync",
    "DestroyProfileOnBrowserClose",
    "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable",
    "LensOverlay",
    "MediaRouter",
    "PaintHolding",
    "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin",
    "OptimizationHints",
    "NetworkTimeServiceQuerying",
    "AimEnabled",
    "PreconnectToSearch",
    "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
)
DISABLED_FEATURES = (*PLAYWRIGHT_DISABLED_FEATURES, "WebUIOmniboxPopup", "WebUIOmniboxAimPopup")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    # one renderer process per site and browser context: a worker's pages of the app share
    # it, with its compiled scripts and decoded resources, instead of each page starting a
    # renderer that compiles the frontend's bundles again (see ``_context_for``)
    "--process-per-site",
    "--disable-features=" + ",".join(DISABLED_FEATURES),
]

#: Added to every page of the shared contexts before the app's own scripts: no CSS animation
#: or transition (Streamlit's running indicator, spinners, skeletons and the fade of stale
#: elements otherwise repaint every frame of every script run, each frame composited in
#: software). What the tests check is the state a page settles in, which is the same.
NO_ANIMATIONS_JS = """
(() => {
  const sheet = new CSSStyleSheet();
  sheet.replaceSync('*, *::before, *::after { animation: none !important; '
                    + 'transition: none !important; }');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
})();
"""
REPO_ROOT = Path(__file__).resolve().parents[2]


def pytest_collection_modifyitems(config, items):
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.browser)


def _require_chromium() -> None:
    if os.path.exists(CHROMIUM):
        return
    message = f"{CHROMIUM} not found (apt install chromium)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message + "; CI=true, so browser tests must run")
    pytest.skip(message)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def artifacts_dir() -> Path:
    path = Path(os.environ.get("ARTIFACTS_DIR", REPO_ROOT / "artifacts" / "browser"))
    path.mkdir(parents=True, exist_ok=True)
    return path


@pytest.fixture(scope="session")
def app_url(artifacts_dir):
    _require_chromium()
    port = _free_port()
    env = dict(os.environ, BROWSER_PATH=os.environ.get("BROWSER_PATH", CHROMIUM))
    log = open(artifacts_dir / f"streamlit-{port}.log", "wb")  # noqa: SIM115
    cmd = [
        sys.executable, "-m", "streamlit", "run", "dashboard/app.py",
        "--server.headless", "true",
        "--server.address", "127.0.0.1",
        "--server.port", str(port),
        "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    set_server_log(Path(log.name))  # its tail goes into the helpers' failure messages
    url = f"http://127.0.0.1:{port}"
    try:
        why = wait_until_healthy(url, proc, timeout=90)
        if why is not None:
            pytest.fail(f"streamlit did not become healthy: {why}; see {log.name}")
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
        log.close()


@pytest.fixture(scope="session")
def browser():
    _require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="session")
def _context_for(browser, app_url):
    """``viewport -> context``: one browser context per window size, shared by the pages of a
    test session (worker). Its HTTP cache keeps the frontend's bundles parsed, which a fresh
    context parses again (about 0.7 s of CPU per page load). Each page is still its own
    Streamlit session (its own websocket); the tests of session isolation open contexts of
    their own.

    Each context keeps one page open on the server's health answer (plain text, no Streamlit
    session): with ``--process-per-site`` the app's pages then join one living renderer
    process rather than each starting one. Pages prefer reduced motion and have CSS
    animations and transitions off (``NO_ANIMATIONS_JS``)."""
    made: dict = {}

    def context_for(viewport: dict):
        size = (viewport["width"], viewport["height"])
        if size not in made:
            context = browser.new_context(
                viewport=viewport, accept_downloads=True, reduced_motion="reduce"
            )
            context.add_init_script(NO_ANIMATIONS_JS)
            context.new_page().goto(f"{app_url}/_stcore/health")
            made[size] = context
        return made[size]

    yield context_for
    for context in made.values():
        context.close()


@contextlib.contextmanager
def opened_page(context, app_url, *, blank: bool = False):
    """A fresh page (own Streamlit session) in ``context`` with the app opened (left blank,
    its script runs tracked, when ``blank``)."""
    pg = context.new_page()
    pg.set_default_timeout(60_000)
    if blank:
        track_script_runs(pg)
    else:
        # Wait for the server to report the first run finished (a server that has just
        # started can be slow to begin it; the page alone may read "notRunning" before it
        # starts).
        goto_page(pg, app_url, timeout=180)
    try:
        yield pg
    finally:
        pg.close()


def _blank(request) -> bool:
    return request.node.get_closest_marker("opens_its_page") is not None


@pytest.fixture
def page(_context_for, app_url, request):
    with opened_page(
        _context_for({"width": 1600, "height": 1000}), app_url, blank=_blank(request)
    ) as pg:
        yield pg


@pytest.fixture
def slide_page(_context_for, app_url, request):
    """Like ``page``, in a 1920 x 1080 window (a projector's slide)."""
    with opened_page(
        _context_for({"width": 1920, "height": 1080}), app_url, blank=_blank(request)
    ) as pg:
        yield pg
