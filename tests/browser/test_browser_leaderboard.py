"""Real browser (Playwright + Debian chromium): the Leaderboard page on the bundled MTME sample,
as plotly.js drew it (the transport sends float32: 1e-6). The dot chart holds
stats.analyses.task_set.rank_task_set's averages (the page's seed and resamples) best first, its whiskers the bootstrap interval and its dotted
lines the cluster boundaries; the drill-down into another task redraws that task's ranking; in
presentation mode every chart lies within a 1400 x 900 window and a 1920 x 1080 slide."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from stats.analyses.task_set import rank_task_set
from stats.metaeval.task_set_presets import per_language_pair
from stats.readers import read_meta_eval
from tests.browser.helpers import (
    assert_charts_within_windows,
    assert_no_exception,
    choose_option,
    goto_page,
    screenshot,
    toggle_presentation,
    wait_for_charts,
)

ZIP = Path(__file__).resolve().parents[2] / "sample_data" / "meta" / "wmt-sample.zip"

_DOTS_JS = """
gd => ({
  x: Array.from(gd._fullData[0].x),
  ticks: Array.from(gd._fullLayout.yaxis.ticktext),
  plus: Array.from(gd._fullData[0].error_x.array || []),
  lines: gd._fullLayout.shapes.map(s => s.y0),
})
"""


def _dots(page, key: str) -> dict:
    chart = page.locator(f".st-key-{key} .js-plotly-plot")
    chart.wait_for()
    return chart.evaluate(_DOTS_JS)


def _lines(rank) -> list[float]:
    r = np.asarray(rank)
    return [float(k) - 0.5 for k in np.flatnonzero(np.diff(r)) + 1]


@pytest.mark.opens_its_page
def test_leaderboard_ranking_and_drill_down(page, app_url, artifacts_dir):
    goto_page(page, app_url, "leaderboard", timeout=180)
    wait_for_charts(page, minimum=2, timeout=180)
    assert_no_exception(page)
    data = read_meta_eval(ZIP)
    expected = rank_task_set(
        data,
        per_language_pair(data.language_pairs),
        n_resamples=1000,
        rng=12345,
        gold="mqm",
        confidence_resamples=200,
    )
    dots = _dots(page, "board_dots")
    assert [t.replace("[noref]", "") for t in dots["ticks"]] == list(expected.statistic.index)
    np.testing.assert_allclose(dots["x"], expected.statistic.to_numpy(), rtol=1e-6)
    ci = expected.confidence_interval
    np.testing.assert_allclose(
        dots["plus"], (ci["high"] - expected.statistic).to_numpy(), rtol=1e-6, atol=1e-7
    )
    assert dots["lines"] == _lines(expected.rank)
    assert page.get_by_text("1,000 resamples").count() >= 1
    screenshot(page, artifacts_dir, "leaderboard")

    # drill down into the second task (en-de, segment-level Kendall by item)
    choose_option(page, "board_task", "2: en-de seg kendall item", typed="2: en-de seg kendall")
    wait_for_charts(page, minimum=2)
    assert_no_exception(page)
    task = expected.tasks[1]
    shown = _dots(page, "board_task_dots")
    assert [t.replace("[noref]", "") for t in shown["ticks"]] == list(task.metrics)
    np.testing.assert_allclose(shown["x"], task.correlations.to_numpy(), rtol=1e-6)
    assert shown["lines"] == _lines(task.rank.to_numpy())

    # presentation mode (the same visit, the ranking cached): every chart within both windows
    toggle_presentation(page)
    assert_no_exception(page)
    assert_charts_within_windows(page, minimum=2)
