"""Real browser at 1400 x 900: the all-language-pairs overview of WMT20's size (30 metrics,
each language pair its own subset) wraps its panels into rows, so that every cell the browser
draws is at least MIN_OVERVIEW_CELL_PX on each side."""

from __future__ import annotations

import numpy as np

from dashboard.figures.overview import MIN_OVERVIEW_CELL_PX
from tests.browser.helpers import assert_no_exception, upload_files, wait_for_charts
from tests.browser.test_browser_legibility import page_1400  # noqa: F401 - the fixture

_CELLS_JS = """
key => {
  const gd = document.querySelector('.st-key-' + key + ' .js-plotly-plot');
  const L = gd._fullLayout;
  const out = [];
  for (const name of Object.keys(L).filter(k => /^xaxis\\d*$/.test(k))) {
    const x = L[name], y = L['y' + name.slice(1)];
    out.push([x._length / x.categoryarray.length, y._length / y.categoryarray.length]);
  }
  return {width: L.width, cells: out};
}
"""


def _wmt20_like(tmp_path):
    """Human and metric scores of 10 language pairs, 12 systems, 26-30 of 30 metrics each."""
    rng = np.random.default_rng(20)
    metrics = [f"WMT20-metric-{k:02d}" for k in range(30)]
    human, scores = (
        ["METRIC\tLP\tTESTSET\tSYSTEM\tSCORE\n"],
        ["METRIC\tLP\tTESTSET\tSYSTEM\tSCORE\n"],
    )
    for k in range(10):
        lp = f"x{k}-en"
        h = rng.normal(size=12)
        human += [f"HUMAN\t{lp}\tnewstest2020\tsys{s}\t{h[s]:.4f}\n" for s in range(12)]
        for m in metrics:
            if rng.random() < 0.9:
                v = h + rng.normal(scale=0.8, size=12)
                scores += [f"{m}\t{lp}\tnewstest2020\tsys{s}\t{v[s]:.4f}\n" for s in range(12)]
    (tmp_path / "human.tsv").write_text("".join(human))
    (tmp_path / "metrics.tsv").write_text("".join(scores))
    return [tmp_path / "human.tsv", tmp_path / "metrics.tsv"]


def test_overview_of_thirty_metrics_keeps_cells_legible_at_1400(page_1400, tmp_path):  # noqa: F811
    page = page_1400
    upload_files(page, _wmt20_like(tmp_path))
    wait_for_charts(page, minimum=5)
    assert_no_exception(page)
    page.locator(".st-key-metrics_all_grids .js-plotly-plot").scroll_into_view_if_needed()
    drawn = page.evaluate(_CELLS_JS, "metrics_all_grids")
    assert len(drawn["cells"]) == 10
    smallest = min(min(c) for c in drawn["cells"])
    assert smallest >= MIN_OVERVIEW_CELL_PX, drawn
