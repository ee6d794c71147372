"""Real browser (Playwright + Debian chromium): the Metrics vs humans page's meta-evaluation
and significance parts as plotly.js drew them, in one visit. Segment level (the MTME zip): the
correlation table (its CSV download) and the dot chart (the data plotly.js drew) hold the
values of stats.analyses.meta_eval.meta_evaluate on the same file with the page's default
settings, and another correlation redraws them; the PERM-BOTH grid holds the p-values of
stats.analyses.meta_significance.perm_both_analysis with the page's seed, its cluster lines
sit between the clusters, the Holm selector recolours it by the adjusted p-values, and the soft
pairwise accuracy table (its CSV) holds soft_pairwise_analysis's values. System level (the
sample): the Williams grid's cluster lines, the BH selector and the power line."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from stats.analyses import metrics_report
from stats.analyses.meta_eval import meta_evaluate
from stats.analyses.meta_significance import perm_both_analysis, soft_pairwise_analysis
from stats.pairwise.grids import grid_significance
from stats.power.williams import median_detectable_difference, williams_grid_power
from stats.readers import read_meta_eval
from tests.browser.helpers import (
    ERROR_SELECTOR,
    POLL_MS,
    assert_no_exception,
    choose_option,
    download,
    rerun_after,
    screenshot,
    upload_files,
    wait_for_charts,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
ZIP = REPO_ROOT / "sample_data" / "meta" / "wmt-sample.zip"
METRICS = REPO_ROOT / "sample_data" / "metrics"
#: The page's defaults: MQM gold, segment-level Pearson grouped by item, 1,000 permutations.
SETTINGS = {"gold": "mqm", "correlation": "pearson", "grouping": "item", "n_resamples": 1000}

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


# The first trace's p-values (hover layer 0) and the cluster lines as plotly.js holds them.
_GRID_JS = """
gd => ({
  y: Array.from(gd._fullData[0].y),
  p: gd._fullData[0].customdata.map(row => row.map(cell => cell === null ? null : cell[0])),
  lines: gd._fullLayout.shapes.filter(s => s.y0 === s.y1).map(s => s.y0).sort((a, b) => a - b),
  hover: gd._fullData[0].hovertemplate,
})
"""


def _grid(page, key: str) -> dict:
    chart = page.locator(f".st-key-{key} .js-plotly-plot")
    chart.wait_for()
    return chart.evaluate(_GRID_JS)


def _p(grid: dict) -> np.ndarray:
    return np.array([[np.nan if v is None else v for v in row] for row in grid["p"]], dtype=float)


def _lines(rank: pd.Series) -> list[float]:
    return [float(k) - 0.5 for k in np.flatnonzero(np.diff(rank.to_numpy())) + 1]


def _close(shown, expected) -> bool:
    """As the hover prints: 3 significant digits (NaN where untested)."""
    return np.allclose(shown, expected, equal_nan=True, rtol=5e-3, atol=0)


def test_williams_on_the_sample_then_the_mtme_zips_meta_evaluation_perm_both_and_soft_pairwise(
    page, artifacts_dir, tmp_path
):
    """One visit: the sample's Williams grid (system level), then the MTME zip uploaded
    (segment level): its meta-evaluation at the defaults and with another correlation, then
    at the defaults again PERM-BOTH and soft pairwise accuracy."""
    wait_for_charts(page, minimum=5)
    analyses = metrics_report([METRICS / "human.tsv", METRICS / "metrics.tsv"])
    w = next(a for a in analyses if a.key == "es-en").williams
    sig = grid_significance(w.pvalue, alpha=0.05)
    grid = _grid(page, "metrics_grid")
    assert grid["lines"] == _lines(sig.rank)
    power = median_detectable_difference(williams_grid_power(w, alpha=0.05, power=0.8))
    line = f"differences in r below {power:.3f} (median over the metric pairs)"
    assert page.get_by_text(line, exact=False).count() == 1

    rerun_after(page, page.locator(".st-key-metrics_correction").get_by_text("BH").click)
    bh = grid_significance(w.pvalue, alpha=0.05, correction="bh")
    grid = _grid(page, "metrics_grid")
    assert _close(_p(grid), bh.pvalue_adjusted.to_numpy(dtype=float))
    assert grid["lines"] == _lines(bh.rank)
    assert "p (BH)" in grid["hover"]
    screenshot(page, artifacts_dir, "metrics_williams_bh")
    assert_no_exception(page)

    # the segment level: the MTME zip, at the page's defaults
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
        polling=POLL_MS,
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
    # back to the default correlation, which the significance checks below are computed at
    choose_option(page, "meta_correlation", "Pearson r")

    toggle = page.locator(".st-key-meta_perm_run").get_by_text("Test every pair of metrics")
    rerun_after(page, toggle.click)
    wait_for_charts(page, minimum=5)  # + the PERM-BOTH grid and every language pair's
    assert_no_exception(page)
    expected = perm_both_analysis(data, rng=12345, **SETTINGS)[0]
    grid = _grid(page, "meta_perm_grid")
    assert grid["y"] == list(expected.result.metrics)
    assert _close(_p(grid), expected.result.pvalue.to_numpy(dtype=float))
    assert grid["lines"] == _lines(expected.significance.rank) != []
    assert page.get_by_text("1,000 permutations, random seed 12345").count() >= 1
    screenshot(page, artifacts_dir, "meta_perm_both")

    rerun_after(page, page.locator(".st-key-meta_correction").get_by_text("Holm").click)
    holm = perm_both_analysis(data, rng=12345, correction="holm", **SETTINGS)[0]
    grid = _grid(page, "meta_perm_grid")
    assert _close(_p(grid), holm.significance.pvalue_adjusted.to_numpy(dtype=float))
    assert "p (Holm)" in grid["hover"]
    assert grid["lines"] == _lines(holm.significance.rank)
    assert page.get_by_text("Holm's method", exact=False).count() >= 1

    soft = soft_pairwise_analysis(data, gold="mqm", n_resamples=1000, rng=12345)
    path = download(page, "meta_soft_table_csv", tmp_path)
    table = pd.read_csv(io.BytesIO(path.read_bytes()), index_col="metric")
    assert list(table.index) == list(soft.across_language_pairs)
    for m, v in soft.across_language_pairs.items():
        assert table.loc[m, "average over language pairs"] == pytest.approx(v, abs=1e-12)
    for lp, res in soft.language_pairs.items():
        np.testing.assert_allclose(table.loc[res.statistic.index, lp], res.statistic, atol=1e-12)
    assert_no_exception(page)
