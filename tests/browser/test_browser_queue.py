"""Real browser, three sessions on one server: while one
session runs a long bounded computation (the Leaderboard's task set at 10,000 resamples per
task, holding the heavy slot(s) of :class:`dashboard.page_run.FairSlots`), a second session's
long computation waits for a slot, its bar saying its place in the queue, and its Stop cancels
the wait; a third session's page (light work, never queued) is drawn meanwhile, and its hostile
upload (a 371-byte tar.gz whose PAX header tarfile parses in quadratic time) ends in one
error line within 10 s; the server's health check answers in under 1 s throughout.

Every wait polls (the page and the health check), nothing sleeps; the long run is stopped at the
end, so the shared server is idle again for the next test."""

from __future__ import annotations

import contextlib
import random
import time
import urllib.request

import pytest

from dashboard.page_run import HEAVY_SLOTS
from tests.browser.conftest import opened_page
from tests.browser.helpers import (
    CHART_SELECTOR,
    ERROR_SELECTOR,
    EXCEPTION_SELECTOR,
    assert_no_exception,
    fail_with_page_state,
    track_script_runs,
    wait_for_idle,
)
from tests.browser.test_browser_hostile_archives import _pax_digits
from tests.browser.test_browser_stop import STOP, _click_stop

HEALTH_LIMIT = 1.0  #: seconds the health check may take
ERROR_LIMIT = 10.0  #: seconds from a hostile upload to its error box


class Health:
    """The server's ``/_stcore/health`` timed, call by call; ``worst`` is the slowest answer."""

    def __init__(self, app_url: str):
        self.url, self.times = f"{app_url}/_stcore/health", []

    def __call__(self) -> float:
        t0 = time.perf_counter()
        with urllib.request.urlopen(self.url, timeout=10) as resp:
            assert resp.read().strip() == b"ok"
        self.times.append(time.perf_counter() - t0)
        return self.times[-1]

    @property
    def worst(self) -> float:
        return max(self.times)


def _poll(page, health: Health, ready, what: str, timeout: float) -> float:
    """Check ``ready()`` and the health check by turns until ``ready()`` is true; the seconds
    it took. Fails (with what ``page`` shows) after ``timeout`` seconds."""
    t0 = time.monotonic()
    while not ready():
        health()
        if time.monotonic() - t0 > timeout:
            fail_with_page_state(page, f"{what}: not within {timeout:g} s")
        page.wait_for_timeout(150)
    return time.monotonic() - t0


def _start_long_task_set(page, app_url: str, health: Health) -> None:
    """On the Leaderboard: a fresh seed (nothing cached) and 10,000 resamples per task (about
    a minute on 2 cores), until its bar runs (each commit reruns the page, interrupting the
    run before)."""
    track_script_runs(page)
    page.goto(f"{app_url}/leaderboard")
    seed_box = page.locator(".st-key-board_seed input")
    resamples = page.locator(".st-key-board_resamples input")
    _poll(page, health, lambda: seed_box.count() > 0, "no seed input on the Leaderboard", 120)
    seed_box.fill(str(random.randrange(1, 2**31)))
    seed_box.press("Enter")
    resamples.fill("10000")
    resamples.press("Enter")
    bar = page.locator('[data-testid="stProgress"]').filter(has_text="10,000 resamples")
    _poll(page, health, lambda: bar.count() > 0, "no bar of the long task set", 120)


@pytest.mark.opens_its_page
def test_a_waiting_session_sees_its_place_and_others_stay_responsive(
    page, _context_for, app_url, tmp_path
):
    health = Health(app_url)
    health()  # the server answers before anything runs
    context = _context_for({"width": 1600, "height": 1000})
    # each page is a session of its own (its own websocket), as another user's would be
    with contextlib.ExitStack() as stack:
        waiting, light, *others = (
            stack.enter_context(opened_page(context, app_url, blank=True))
            for _ in range(1 + HEAVY_SLOTS)
        )
        heavy = [page, *others]  # every slot taken (1 on 2 cores)
        for pg in heavy:
            _start_long_task_set(pg, app_url, health)

        # meanwhile: a second session's long computation (the Power page's simulation) and a
        # third session's page (light work only) are opened at once
        waiting.goto(f"{app_url}/power")
        light.goto(app_url)
        # the long computation waits, saying where it stands; Stop cancels the wait
        place = waiting.locator('[data-testid="stProgress"]').filter(
            has_text="place 1 in the queue"
        )
        _poll(waiting, health, lambda: place.count() > 0, "no place in the queue", 120)
        assert waiting.get_by_text("Stop cancels").count() >= 1
        _click_stop(waiting, "the wait for a slot")
        assert waiting.locator('[data-testid="stProgress"]').count() == 0

        # light work is never queued: the third session's page is drawn meanwhile ...
        charts = light.locator(CHART_SELECTOR)
        _poll(light, health, lambda: charts.count() >= 1, "the page of a light session", 120)
        wait_for_idle(light)
        assert light.locator(ERROR_SELECTOR).count() == 0
        # ... and a hostile upload there ends in one line within 10 s
        path, words = _pax_digits(tmp_path)
        field = light.locator('[data-testid="stFileUploader"] input[type="file"]').first
        t0 = time.monotonic()
        field.set_input_files(str(path))
        error = light.locator(ERROR_SELECTOR)
        _poll(light, health, lambda: error.count() > 0, "no error box", 30)
        took = time.monotonic() - t0
        text = error.first.locator('[data-testid="stMarkdownContainer"]').inner_text()
        assert "\n" not in text.strip() and path.name in text and words in text, text
        assert light.locator(EXCEPTION_SELECTOR).count() == 0
        assert took < ERROR_LIMIT, f"error box after {took:.1f} s"

        # the long run was computing all along; stop it (the server is idle again)
        for pg in heavy:
            assert pg.locator(STOP).count() >= 1, "the long run ended early"
            _click_stop(pg, "the long task set")
            assert_no_exception(pg)
    assert health.worst < HEALTH_LIMIT, f"health check took {health.worst:.2f} s"
