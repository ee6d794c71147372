"""Helpers for browser tests (import from ``tests.browser.helpers``); see conftest.py."""

from __future__ import annotations

import functools
import time
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from google.protobuf.message import DecodeError
from playwright.sync_api import Error as PlaywrightError
from streamlit.proto.BackMsg_pb2 import BackMsg
from streamlit.proto.ForwardMsg_pb2 import ForwardMsg

#: A Plotly chart counts as drawn when its SVG exists inside the Streamlit chart element
#: (one match per chart: Plotly draws several .main-svg layers per chart).
CHART_SELECTOR = '[data-testid="stPlotlyChart"] .js-plotly-plot:has(.main-svg)'
EXCEPTION_SELECTOR = '[data-testid="stException"]'
ERROR_SELECTOR = '[data-testid="stAlertContentError"]'
#: How often a ``page.wait_for_function`` predicate is evaluated (ms). Playwright's default
#: evaluates it on every animation frame, and asking for every frame keeps the browser making
#: frames for the page 60 times a second while it waits (about 0.14 CPU-s per second of
#: waiting, against 0.03 s polled every 100 ms).
POLL_MS = 100


class ScriptRuns:
    """What the page's websocket(s) say about script runs, in the order the frames travel.

    The browser asks for a run with a ``rerun_script`` BackMsg; the server answers with
    ``session_status_changed(script_is_running=True)``, the run's deltas, ``script_finished``
    and ``session_status_changed(script_is_running=False)``. These messages are the server's
    own account of a run, so a run that starts and ends between two renders of the page is
    still seen (the page's ``data-test-script-state`` attribute can miss it).
    """

    def __init__(self, page) -> None:
        #: ("request",), ("start",), ("finish", status) and ("idle",), as they arrived.
        self.events: list[tuple] = []
        page.on("websocket", self._attach)

    def _attach(self, ws) -> None:
        ws.on("framesent", self._sent)
        ws.on("framereceived", self._received)

    def _sent(self, payload) -> None:
        msg = _parse(BackMsg, payload)
        if msg is not None and msg.WhichOneof("type") == "rerun_script":
            self.events.append(("request",))

    def _received(self, payload) -> None:
        msg = _parse(ForwardMsg, payload)
        kind = msg.WhichOneof("type") if msg is not None else None
        if kind == "script_finished":
            self.events.append(("finish", msg.script_finished))
        elif kind == "session_status_changed":
            running = msg.session_status_changed.script_is_running
            self.events.append(("start",) if running else ("idle",))

    def completed_since(self, mark: int) -> bool:
        """Whether, after ``events[mark]``, a run was requested, started, finished (other than
        cut short for a newer rerun) and the server then reported itself idle -- in that
        order, and the server is idle now."""
        step = 0  # 0: want a request, 1: a start, 2: a finish, 3: idle
        for event in self.events[mark:]:
            kind = event[0]
            if step == 0 and kind == "request":
                step = 1
            elif step == 1 and kind == "start":
                step = 2
            elif step == 2 and kind == "finish" and event[1] != _FINISHED_EARLY:
                step = 3
            elif step == 3 and kind == "idle":
                step = 4
            elif step == 4 and kind in ("request", "start"):
                step = 1 if kind == "request" else 2  # another run followed: wait for it too
        return step == 4

    @property
    def idle(self) -> bool:
        """Whether the server's last word on this page's session is "not running" and no run
        was requested since (True before any): a request not yet answered is a run to come."""
        status = [e[0] for e in self.events if e[0] in ("request", "start", "idle")]
        return not status or status[-1] == "idle"


_FINISHED_EARLY = ForwardMsg.ScriptFinishedStatus.Value("FINISHED_EARLY_FOR_RERUN")


def _parse(kind, payload):
    if not isinstance(payload, bytes | bytearray):
        return None
    msg = kind()
    try:
        msg.ParseFromString(bytes(payload))
    except DecodeError:
        return None
    return msg


def track_script_runs(page) -> ScriptRuns:
    """Start following the script runs of ``page`` (websockets opened from now on; call it
    before the page loads the app). Idempotent; returns the page's :class:`ScriptRuns`."""
    runs = getattr(page, "_e2e_script_runs", None)
    if runs is None:
        runs = ScriptRuns(page)
        page._e2e_script_runs = runs
        # the browser console's errors (the frontend logs there a websocket message it could
        # not process), for failure messages
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text[:500]) if m.type == "error" else None)
        page._e2e_console_errors = errors
    return runs


_APP_STATE_JS = """
() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return app ? [app.getAttribute('data-test-script-state'),
                app.getAttribute('data-test-connection-state')] : [null, null];
}
"""


def wait_for_idle(page, timeout: float = 60.0, settle: float = 0.4) -> None:
    """Wait until the websocket is connected and the script has stopped running.

    The page's state must read ``notRunning`` twice, ``settle`` seconds apart, and, on a page
    whose runs are tracked (:func:`track_script_runs`), the server's last status message must
    say it is not running, with no run requested since. On a tracked page the first read may
    be one of an earlier call: a page found idle then, with no script run message since, has
    been idle since then (a page at rest is not waited on again for ``settle``). To wait for
    the run an action triggers, use :func:`rerun_after`: this function alone cannot tell a
    rerun that has not started yet from idleness.
    """
    deadline = time.monotonic() + timeout
    runs = getattr(page, "_e2e_script_runs", None)
    # a tracked page found idle before, with no script run message since: idle since then
    # (a run requested, started or ended in between would be in ``runs.events``)
    last = getattr(page, "_e2e_idle_since", None)
    idle_since = last[0] if runs is not None and last and last[1] == len(runs.events) else None
    state = conn = None
    while time.monotonic() < deadline:
        # read without auto-waiting: the app element may be re-mounted meanwhile, and only
        # this loop's deadline decides how long that may take
        try:
            state, conn = page.evaluate(_APP_STATE_JS)
        except PlaywrightError:  # the page navigated away during the read: not idle yet
            state = conn = None
        if state == "notRunning" and conn == "CONNECTED" and (runs is None or runs.idle):
            if runs is not None and (last is None or last[1] != len(runs.events)):
                # a message since the last read: idle from now on, if at all
                idle_since = None
            if idle_since is None:
                idle_since = time.monotonic()
            if runs is not None:
                last = (idle_since, len(runs.events))
                page._e2e_idle_since = last
            if time.monotonic() - idle_since >= settle:
                return
        else:
            idle_since = None
            last = page._e2e_idle_since = None
        page.wait_for_timeout(100)  # lets Playwright deliver websocket events meanwhile
    fail_with_page_state(page, f"app still running after {timeout} s (state {state!r}, {conn!r})")


def rerun_after(page, action, timeout: float = 60.0) -> None:
    """Do ``action()`` (a click, an upload, a navigation, ...) and wait until the script run it
    triggers has *finished* and the page has settled. Fails (``AssertionError``) when no run
    was requested, started and finished within ``timeout`` seconds: an action that should
    rerun the app and does not is a failure, not something to wait out.
    Example: ``rerun_after(page, lambda: page.get_by_text("0.01").click())``."""
    runs = getattr(page, "_e2e_script_runs", None)
    if runs is None:
        raise RuntimeError(
            "rerun_after needs track_script_runs(page) called before the page loaded the app "
            "(the page fixture and goto_page do it)"
        )
    mark = len(runs.events)
    start = time.monotonic()
    action()
    while not runs.completed_since(mark):
        if time.monotonic() - start > timeout:
            seen = [e[0] for e in runs.events[mark:]]
            fail_with_page_state(
                page,
                f"no script run finished within {timeout} s of the action; the websocket "
                f"showed {seen or 'nothing'} (expected request, start, finish, idle)",
            )
        page.wait_for_timeout(50)  # lets Playwright deliver websocket events meanwhile
    wait_for_idle(page, timeout=max(1.0, timeout - (time.monotonic() - start)))


def _run_started_after(page, action, timeout: float = 60.0) -> None:
    """Do ``action()`` and wait until the server has started the run it asked for (not for
    its end); fails when none was requested and started within ``timeout`` seconds."""
    runs = getattr(page, "_e2e_script_runs", None)
    if runs is None:
        raise RuntimeError("needs track_script_runs(page) before the page loaded the app")
    mark = len(runs.events)
    start = time.monotonic()
    action()
    while True:
        kinds = [e[0] for e in runs.events[mark:]]
        if "request" in kinds and "start" in kinds[kinds.index("request") :]:
            return
        if time.monotonic() - start > timeout:
            fail_with_page_state(
                page, f"no script run started within {timeout} s; the websocket showed {kinds}"
            )
        page.wait_for_timeout(50)


def goto_page(page, app_url: str, url_path: str = "", timeout: float = 120.0) -> None:
    """Open a page by its ``url_path`` (see dashboard/app.py) and wait until its first run
    has finished (a fresh load opens a new websocket, so the page is tracked from here on)
    and the browser has drawn what it sent (a context's first load also parses the frontend's
    bundles: on a loaded machine the elements can lag the run's end, and an uploader counted
    by its index before its neighbour is drawn would be the wrong one)."""
    track_script_runs(page)
    rerun_after(page, lambda: page.goto(f"{app_url}/{url_path}"), timeout=timeout)
    wait_until_still(page, quiet=0.3, frames=5, timeout=timeout)


def switch_page(page, title: str, timeout: float = 120.0) -> None:
    """Open another page through the sidebar navigation (same browser page and Streamlit
    session, as a user's click: cheaper than loading a page) and wait as :func:`goto_page`
    does: its run finished, what it sent drawn, its title the page's heading.

    The session's other state comes along (kept uploads are per uploader; the MT systems
    page's uploads are offered on "Tests vs humans"): visit pages in an order where that does
    not change what a test checks."""
    wait_for_idle(page)  # the link is clicked on a page at rest, not mid-redraw
    link = page.locator('[data-testid="stSidebarNav"]').get_by_text(title, exact=True)
    rerun_after(page, link.click, timeout=timeout)
    wait_until_still(page, quiet=0.3, frames=5, timeout=timeout)
    heading = page.locator("h1").first.inner_text().strip()
    if heading != title:
        fail_with_page_state(page, f"heading {heading!r} after switching to {title!r}")


_STILL_JS = """
() => {
  if (window._e2eStill) window._e2eStill.stop();
  const still = {last: performance.now(), frames: 0, done: false};
  still.observer = new MutationObserver(() => { still.last = performance.now(); still.frames = 0; });
  still.observer.observe(document.body, {subtree: true, childList: true, attributes: true,
                                         characterData: true});
  still.stop = () => { still.done = true; still.observer.disconnect(); };
  const tick = () => { if (!still.done) { still.frames += 1; requestAnimationFrame(tick); } };
  requestAnimationFrame(tick);
  window._e2eStill = still;
}
"""


def wait_until_still(page, quiet: float = 1.0, frames: int = 30, timeout: float = 60.0) -> None:
    """Wait until nothing in the page's DOM has changed for ``quiet`` seconds *and* ``frames``
    animation frames (the frame count stretches the wait on a loaded machine, where the
    browser's own follow-up work -- a chart's second layout -- is delayed as well). Use it
    before asserting an exact count of something the browser may still be adding to."""
    page.evaluate(_STILL_JS)
    page.wait_for_function(
        "([ms, n]) => window._e2eStill.frames >= n && performance.now() - window._e2eStill.last >= ms",
        arg=[quiet * 1000, frames],
        timeout=timeout * 1000,
    )
    # the frame counter asks for every animation frame while it runs, which keeps the
    # browser making frames for the page 60 times a second: stop it once the page is still
    page.evaluate("() => window._e2eStill && window._e2eStill.stop()")


def chart_count(page) -> int:
    """Number of Plotly charts drawn on the page right now."""
    return page.locator(CHART_SELECTOR).count()


_CHARTS_OR_EXCEPTION_JS = """
([sel, exc, n]) => document.querySelectorAll(sel).length >= n || !!document.querySelector(exc)
"""


def wait_for_charts(page, minimum: int, timeout: float = 60.0) -> int:
    """Wait until at least ``minimum`` Plotly charts are drawn; return the count.

    Fails at once when the page shows an exception (a run that crashed draws no more charts),
    and on timeout; either way with what the page shows and the server log's tail."""
    try:
        page.wait_for_function(
            _CHARTS_OR_EXCEPTION_JS,
            arg=[CHART_SELECTOR, EXCEPTION_SELECTOR, minimum],
            timeout=timeout * 1000,
            polling=POLL_MS,
        )
    except PlaywrightError:
        fail_with_page_state(page, f"fewer than {minimum} charts after {timeout} s")
    if page.locator(EXCEPTION_SELECTOR).count():
        fail_with_page_state(page, f"an exception shown while waiting for {minimum} charts")
    return chart_count(page)


# ---- Diagnostics: what the page shows and what the server logged, for failure messages ----

#: the ``streamlit run`` log of this test process's server (set by the ``app_url`` fixture)
_server_log: Path | None = None


def set_server_log(path: Path | None) -> None:
    """Name the server log whose tail :func:`fail_with_page_state` reports."""
    global _server_log
    _server_log = path


def server_log_tail(lines: int = 40) -> str:
    """The last ``lines`` lines of the server's log ("" when there is none)."""
    if _server_log is None or not _server_log.exists():
        return ""
    return "\n".join(_server_log.read_text(errors="replace").splitlines()[-lines:])


_PAGE_STATE_JS = """
([charts, exc]) => {
  const all = sel => [...document.querySelectorAll(sel)];
  const app = document.querySelector('[data-testid="stApp"]');
  return {
    url: location.href,
    script: app?.getAttribute('data-test-script-state'),
    connection: app?.getAttribute('data-test-connection-state'),
    charts: all(charts).length,
    chart_elements: all('[data-testid="stPlotlyChart"]').length,
    tables: all('[data-testid="stTable"]').length,
    dataframes: all('[data-testid="stDataFrame"]').length,
    progress: all('[data-testid="stProgress"]').map(e => e.innerText.slice(0, 120)),
    stale: all('[data-stale="true"]').length,
    file_chips: all('[data-testid="stFileChip"]').length,
    chips_uploading: all('[data-testid="stFileChipIconSpinner"]').length,
    chips_failed: all('[data-testid="stFileChip"]:has([data-testid="stFileChipIconError"])')
      .map(e => e.innerText.slice(0, 200)),
    alerts: all('[data-testid="stAlert"]').map(e => e.innerText.slice(0, 300)),
    exceptions: all(exc).map(e => e.innerText.slice(0, 2000)),
    dialogs: all('[role="dialog"]').map(e => e.innerText.slice(0, 500)),
  };
}
"""


def page_state(page) -> dict:
    """What the page shows now: URL, script and connection state, counts of charts, tables,
    data frames and stale elements, progress texts, uploaded files (all, still uploading,
    failed), alerts, exception and dialog texts, and the browser console's last errors."""
    try:
        shown = page.evaluate(_PAGE_STATE_JS, [CHART_SELECTOR, EXCEPTION_SELECTOR])
    except PlaywrightError as exc:  # the page went away: say so rather than hide the failure
        shown = {"unreadable": str(exc).splitlines()[0]}
    shown["console_errors"] = getattr(page, "_e2e_console_errors", [])[-10:]
    return shown


def fail_with_page_state(page, what: str) -> None:
    """Raise ``AssertionError(what)`` with :func:`page_state` and the server log's tail."""
    tail = server_log_tail()
    raise AssertionError(
        f"{what}; the page shows {page_state(page)}"
        + (f"\n--- server log (last lines) ---\n{tail}" if tail else "")
    )


_UPLOADED_JS = """
([index, n, busy]) => {
  const uploader = document.querySelectorAll('[data-testid="stFileUploader"]')[index];
  return !!uploader && uploader.querySelectorAll('[data-testid="stFileChip"]').length >= n
    && !uploader.querySelector(busy);
}
"""


def upload_files(page, paths: Sequence[str | Path], index: int = 0) -> None:
    """Upload files through the ``index``-th ``st.file_uploader`` on the page and wait until
    the run they trigger has finished; fails unless the uploader then lists at least as many
    files as ``paths``, none uploading or failed (file chips may show shortened names, so they
    are not matched)."""
    # uploaders are counted on a page at rest: mid-run, elements not yet redrawn can leave the
    # ``index``-th uploader another one (a reference once landed in the explorer's source)
    wait_for_idle(page)
    uploader = page.locator('[data-testid="stFileUploader"]').nth(index)
    field = uploader.locator('input[type="file"]')
    rerun_after(page, lambda: field.set_input_files([str(p) for p in paths]))
    # On a loaded machine the run above can be one the uploader asked for before its files
    # were uploaded (it ran without them); the files' own run is asked for once every file is
    # uploaded: wait for that, then for the app to be idle again.
    busy = '[data-testid="stFileChipIconSpinner"], [data-testid="stFileChipIconError"]'
    done = [index, len(paths), busy]
    try:
        page.wait_for_function(_UPLOADED_JS, arg=done, timeout=60_000, polling=POLL_MS)
    except PlaywrightError:
        pass  # reported below, with what the page shows
    wait_for_idle(page)
    if not page.evaluate(_UPLOADED_JS, done):
        chips = uploader.locator('[data-testid="stFileChip"]').count()
        fail_with_page_state(
            page,
            f"upload of {len(paths)} file(s) to uploader {index}: "
            f"{chips} listed once the app was idle again (or some uploading or failed)",
        )


_CHIP_DELETE = (
    '[data-testid="stFileChipDeleteBtn"] button, button[data-testid="stFileChipDeleteBtn"]'
)


def remove_upload(page, name: str, index: int = 0, timeout: float = 60.0) -> None:
    """Remove the file ``name`` from the ``index``-th ``st.file_uploader`` with its chip's x
    button and wait for the run that triggers; fails unless the chip is then gone.

    A multi-file uploader appends what is uploaded to it: to check several files one at a
    time in one page visit, upload the next file and then remove the previous one (the run
    after the removal is the new file's run alone, and no sample is drawn in between)."""
    wait_for_idle(page)  # the chips are found on a page at rest, not mid-redraw
    uploader = page.locator('[data-testid="stFileUploader"]').nth(index)
    chips = uploader.locator('[data-testid="stFileChip"]')
    chip = chips.filter(has_text=name)
    if chip.count() != 1:
        fail_with_page_state(page, f"{chip.count()} file chip(s) named {name!r} to remove")
    rerun_after(page, chip.locator(_CHIP_DELETE).first.click, timeout=timeout)
    if chips.filter(has_text=name).count():
        fail_with_page_state(page, f"the chip of {name!r} is still shown after its removal")


def choose_option(
    page,
    key: str,
    option: str,
    *,
    typed: str | None = None,
    attempts: int = 3,
    wait: bool = True,
) -> None:
    """Pick ``option`` in the selectbox (or multiselect) with widget key ``key`` and wait for
    the run it triggers (:func:`rerun_after`). ``typed`` is what is typed to filter the list
    (``option`` by default); typing filters without a rerun. ``wait=False``: return once the
    run is under way (requested and started), for a test that acts during it (a Stop).

    The list is opened on a page at rest, and opened again (up to ``attempts`` times) when it
    closed before the click landed: a late redraw of the widget closes an open list, and the
    option's click then waits for an element that is gone.
    """
    for attempt in range(attempts):
        wait_for_idle(page)
        page.keyboard.press("Escape")  # close a list left open by the previous choice
        box = page.locator(f".st-key-{key}").get_by_role("combobox").first
        box.click()
        box.fill(typed if typed is not None else option)
        item = page.get_by_role("option").filter(has_text=option).first
        try:
            item.wait_for(timeout=15_000)
            if wait:
                rerun_after(page, functools.partial(item.click, timeout=10_000))
            else:
                _run_started_after(page, functools.partial(item.click, timeout=10_000))
            return
        except PlaywrightError:  # the list closed under the click: open it again
            if attempt == attempts - 1:
                fail_with_page_state(
                    page, f"option {option!r} of {key!r} not clickable after {attempts} tries"
                )


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


def wait_until_healthy(url: str, proc, timeout: float = 90.0, poll: float = 0.3) -> str | None:
    """Poll the Streamlit server ``proc`` at ``url`` until ``/_stcore/health`` answers ``ok``:
    None then, or why not ("exited with N", "no health answer in T s")."""
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            return f"exited with {proc.returncode}"
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                if resp.read().strip() == b"ok":
                    return None
        except OSError:
            pass
        if time.monotonic() > deadline:
            return f"no health answer in {timeout:g} s"
        time.sleep(poll)


# ---- Presentation mode: every chart within the window ----

#: the meeting room's two windows: a laptop's 1400 x 900 and a 1920 x 1080 slide
WINDOW_1400 = {"width": 1400, "height": 900}
SLIDE_1920 = {"width": 1920, "height": 1080}

#: every drawn chart's box (CSS px) and the widget key of the container holding it
_CHART_BOXES_JS = """
() => [...document.querySelectorAll('.js-plotly-plot')].map(gd => {
  const b = gd.getBoundingClientRect();
  const key = [...(gd.closest('[class*="st-key-"]') || document.body).classList]
    .find(c => c.startsWith('st-key-')) || '';
  return {key, width: b.width, height: b.height};
}).filter(b => b.width > 0)
"""


def toggle_presentation(page, timeout: float = 300.0) -> None:
    """Click the sidebar's "Presentation mode" toggle and wait until the run it triggers has
    finished and the page has stopped changing (presentation mode is per Streamlit session:
    a test's page starts with it off)."""
    toggle = page.locator('[data-testid="stSidebar"]').get_by_text("Presentation mode")
    rerun_after(page, toggle.click, timeout=timeout)
    wait_for_idle(page, timeout=timeout)
    wait_until_still(page, timeout=min(timeout, 120.0))


def charts_beyond(page, viewport: dict) -> list[dict]:
    """The drawn charts wider or taller than the window ``viewport`` (``[]``: all fit);
    fails when no chart is drawn at all."""
    boxes = page.evaluate(_CHART_BOXES_JS)
    assert boxes, "no chart drawn"
    return [b for b in boxes if b["width"] > viewport["width"] or b["height"] > viewport["height"]]


def assert_charts_within_windows(
    page, viewports: Sequence[dict] = (WINDOW_1400, SLIDE_1920), *, minimum: int = 1
) -> None:
    """Resize the window to each of ``viewports`` in turn (the same visit: no script run, the
    charts re-lay out in the browser), and fail unless at least ``minimum`` charts are drawn
    and each lies within the window; the window's size is restored afterwards."""
    before = page.viewport_size
    try:
        for viewport in viewports:
            page.set_viewport_size(viewport)
            # a resize re-lays out the charts in the browser alone: a shorter quiet spell
            wait_until_still(page, quiet=0.5, frames=15, timeout=120)
            if chart_count(page) < minimum:
                fail_with_page_state(page, f"fewer than {minimum} charts at {viewport}")
            beyond = charts_beyond(page, viewport)
            if beyond:
                fail_with_page_state(page, f"charts beyond the {viewport} window: {beyond}")
    finally:
        if before is not None:
            page.set_viewport_size(before)
