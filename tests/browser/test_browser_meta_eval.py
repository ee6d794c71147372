"""Real browser (Playwright + Debian chromium): the MTME zip uploaded on the Metrics vs humans
page opens the segment-level meta-evaluation; the correlation table (its CSV download) and the
dot chart (the data plotly.js drew) hold the values of stats.analyses.meta_eval.meta_evaluate on the
same file with the page's default settings; a control change redraws them."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from stats.analyses.meta_eval import meta_evaluate
from stats.readers import read_meta_eval
from tests.browser.helpers import (
    ERROR_SELECTOR,
    assert_no_exception,
    choose_option,
    download,
    screenshot,
    upload_files,
    wait_for_charts,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
ZIP = REPO_ROOT / "sample_data" / "meta" / "wmt-sample.zip"
#: The page's defaults: MQM gold (of two), segment level, grouped by item, 1,000 resamples, seed.
DEFAULTS = {"gold": "mqm", "grouping": "item", "n_resamples": 1000, "rng": 12345}

# The dot chart's traces as plotly.js holds them after drawing (typed arrays made plain).
_DOTS_JS = """
gd => gd._fullData.map(t => ({
  name: t.name,
  x: Array.from(t.x),
  y: Array.from(t.y),
  up: t.error_x && t.error_x.visible ? Array.from(t.error_x.array) : null,
  down: t.error_x && t.error_x.visible ? Array.from(t.error_x.arrayminus) : null,
}))
"""


def _dots(page) -> dict:
    chart = page.locator(".st-key-meta_dots .js-plotly-plot")
    chart.wait_for()
    return {t["name"]: t for t in chart.evaluate(_DOTS_JS)}


def _table_csv(page, tmp_path) -> pd.DataFrame:
    path = download(page, "meta_table_csv", tmp_path)
    return pd.read_csv(io.BytesIO(path.read_bytes()), index_col="metric")


def _check(page, tmp_path, expected, lp_index: int = 0) -> None:
    dots = _dots(page)
    assert list(dots) == [lp.lp for lp in expected.language_pairs]
    for lp in expected.language_pairs:
        trace = dots[lp.lp]
        assert trace["y"] == list(lp.metrics)  # best first
        stat = np.array([lp.results[m].statistic for m in lp.metrics])
        ci = np.array([lp.results[m].confidence_interval for m in lp.metrics])
        # the browser transport sends 7 significant digits (dashboard.transport)
        np.testing.assert_allclose(trace["x"], stat, rtol=1e-6, atol=0)
        np.testing.assert_allclose(trace["up"], ci[:, 1] - stat, rtol=1e-6, atol=1e-9)
        np.testing.assert_allclose(trace["down"], stat - ci[:, 0], rtol=1e-6, atol=1e-9)
    lp = expected.language_pairs[lp_index]
    table = _table_csv(page, tmp_path)
    assert list(table.index) == list(lp.metrics)
    # the CSV has the table's shown headers: rank, the correlation's name, CI low, CI high, ...
    correlation = table.columns[1]
    for m in lp.metrics:
        r = lp.results[m]
        assert table.loc[m, correlation] == pytest.approx(r.statistic, abs=1e-12)
        assert table.loc[m, "CI low"] == pytest.approx(r.confidence_interval[0], abs=1e-12)
        assert table.loc[m, "CI high"] == pytest.approx(r.confidence_interval[1], abs=1e-12)


def test_mtme_zip_upload_shows_table_and_dot_chart(page, artifacts_dir, tmp_path):
    upload_files(page, [ZIP])
    wait_for_charts(page, minimum=3)  # dots, per-item boxes, pairwise accuracy
    assert page.get_by_text("synthetic sample data").count() == 0
    assert page.get_by_text("Segment-level meta-evaluation").count() >= 1
    # correlations, pairwise accuracy, soft pairwise accuracy (the browser may still be
    # mounting the data grids when the run has ended)
    page.wait_for_function(
        "sel => document.querySelectorAll(sel).length >= 3",
        arg='[data-testid="stDataFrame"]',
        timeout=60_000,
    )
    assert page.locator('[data-testid="stDataFrame"]').count() == 3
    assert page.get_by_text("random seed 12345").count() >= 1
    assert_no_exception(page)
    data = read_meta_eval(ZIP)
    _check(page, tmp_path / "pearson", meta_evaluate(data, correlation="pearson", **DEFAULTS))
    screenshot(page, artifacts_dir, "meta_eval_uploaded")

    # another correlation: the table and the chart follow
    choose_option(page, "meta_correlation", "Kendall τb")
    wait_for_charts(page, minimum=3)
    page.get_by_text("Kendall τb with humans: en-de").wait_for()
    _check(page, tmp_path / "kendall", meta_evaluate(data, correlation="kendall", **DEFAULTS))
    assert page.locator(ERROR_SELECTOR).count() == 0
    assert_no_exception(page)
