"""Real browser: a long computation shows a Stop button beside its progress bar
(dashboard.page_run.run_steps, used by every page); a click ends it, the page says so without
an exception, and the session stays usable -- the next change of a control computes afresh.
Two pages: the randomized tests of MT systems, and the Leaderboard's task set (PERM-BOTH per
task, interrupted between chunks of resamples through its progress callback)."""

from __future__ import annotations

import random

import pytest

from tests.browser.helpers import (
    EXCEPTION_SELECTOR,
    assert_no_exception,
    choose_option,
    fail_with_page_state,
    goto_page,
    rerun_after,
    upload_files,
    wait_for_charts,
    wait_for_idle,
)

STOP = '[class*="st-key-run_steps_stop_"]:not([class*="_again"]) button'


def _click_stop(page, what: str) -> None:
    """Click Stop until the page says the computation stopped; then it is idle, without an
    exception, its Stop button gone and *Run again* offered."""
    # while a script runs Streamlit re-renders its elements (a button may be detached or fading
    # as Playwright checks it): the DOM click of the button found at that moment
    stopped = page.get_by_text("Stopped:").first
    for _ in range(30):
        page.evaluate(f"() => document.querySelector({STOP!r})?.click()")
        try:
            stopped.wait_for(timeout=2_000)
            break
        except Exception:  # noqa: BLE001 - not yet: click again
            continue
    else:
        fail_with_page_state(page, f"a click on Stop did not stop {what}")
    wait_for_idle(page)
    assert page.locator(EXCEPTION_SELECTOR).count() == 0
    assert page.locator(STOP).count() == 0  # the computation is over, its button gone
    assert page.locator('[class*="st-key-run_steps_stop_"][class*="_again"] button').count() == 1


def _long_corpus(folder, n_systems: int = 16, n_segments: int = 3000):
    """Outputs whose randomized tests at 10,000 resamples run for seconds even on a quiet
    machine (the bundled sample's take about half a second: a click could come too late)."""
    rng = random.Random(7)
    words = [f"w{i}" for i in range(400)]
    ref_lines = [" ".join(rng.choices(words, k=12)) for _ in range(n_segments)]
    ref = folder / "reference.txt"
    ref.write_text("\n".join(ref_lines) + "\n")
    hyps = []
    for k in range(n_systems):
        lines = [
            " ".join(
                w if rng.random() > 0.1 + 0.02 * k else rng.choice(words) for w in line.split()
            )
            for line in ref_lines
        ]
        path = folder / f"S{k:02d}.txt"
        path.write_text("\n".join(lines) + "\n")
        hyps.append(path)
    return ref, hyps


def _progress(page):
    """The progress bar of a run at 10,000 resamples."""
    return page.locator('[data-testid="stProgress"]').filter(has_text="10,000 resamples").first


def _wait_for(page, locator, what: str) -> None:
    """Wait up to 120 s for ``locator`` to be visible, else fail with what the page shows."""
    try:
        locator.wait_for(state="visible", timeout=120_000)
    except Exception:  # noqa: BLE001 - reported with what the page shows
        fail_with_page_state(page, what)


@pytest.mark.opens_its_page
def test_stop_ends_a_long_test_and_leaves_the_session_usable(page, app_url, tmp_path):
    goto_page(page, app_url, "mt_systems")
    wait_for_charts(page, minimum=3)
    ref, hyps = _long_corpus(tmp_path)
    upload_files(page, [ref], index=0)
    upload_files(page, hyps, index=1)
    wait_for_charts(page, minimum=3)
    # 10,000 resamples of 16 systems x 3,000 segments: chosen without waiting for the run
    choose_option(page, "mt_resamples", "10,000", wait=False)
    # the tests' own bar (statistics extraction, cached, may come and go before)
    _wait_for(page, _progress(page), "no progress bar of the randomized tests")
    _click_stop(page, "the tests")

    # the session is usable: fewer resamples (a control above the computation) computes afresh
    choose_option(page, "mt_resamples", "200")
    wait_for_charts(page, minimum=2, timeout=180)
    assert_no_exception(page)
    assert page.get_by_text("Stopped:").count() == 0


@pytest.mark.opens_its_page
def test_stop_ends_a_leaderboard_task_set_and_leaves_the_session_usable(page, app_url):
    page.goto(f"{app_url}/leaderboard")
    seed_box = page.locator(".st-key-board_seed input")
    resamples = page.locator(".st-key-board_resamples input")
    _wait_for(page, seed_box, "no seed input on the Leaderboard")
    # a fresh seed (no cached result), then 10,000 resamples per task (about a minute on 2
    # cores): each commit reruns the page, the second interrupting the first
    seed_box.fill(str(random.randrange(1, 2**31)))
    seed_box.press("Enter")
    resamples.fill("10000")
    resamples.press("Enter")
    _wait_for(page, _progress(page), "no progress bar of the task set")
    _click_stop(page, "the task set")

    # the session is usable: fewer resamples computes afresh
    resamples.fill("100")
    rerun_after(page, lambda: resamples.press("Enter"))
    wait_for_charts(page, minimum=2, timeout=180)
    assert_no_exception(page)
    assert page.get_by_text("Stopped:").count() == 0
    assert page.get_by_text("100 resamples").count() >= 1
