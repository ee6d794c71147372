"""Real browser (Playwright + Debian chromium): "MT systems" in presentation mode with 12 systems
under WMT file names (``generaltest2023.en-de.hyp.<system>.de``, three of them long:
``Lan-BridgeMT-constrained-contrastive``, ``NLLB_MBR_BLEU_greedy_baseline_3.3B``,
``baseline_transformer_big``), measured in a 1400 x 900 window (the sidebar open) and on a
1920 x 1080 slide: every panel of the significance grids keeps cells of at least 22 px, no two
panel titles overlap, the row names do not overlap, every chart lies within the window, every
table ends inside the page (none cut at the right edge, none scrolled sideways, the page not
either) and no column header breaks inside a word (each word's letters measured on one line
with a DOM Range; before the fix, at 1400 px the p-value table of every pair broke
"statistic", "resampling)" and "randomization)", the sacreBLEU table "BLEU" and "chrF2", the
segment table "contribution")."""

from __future__ import annotations

import json
from pathlib import Path

from dashboard.figures import grids, presentation
from tests._data import MT
from tests.browser.conftest import opened_page
from tests.browser.helpers import (
    assert_no_exception,
    goto_page,
    rerun_after,
    screenshot,
    upload_files,
    wait_for_charts,
    wait_for_idle,
    wait_until_still,
)
from tests.browser.test_browser_legibility import _overlaps
from tests.dashboard.test_figures_mt_presentation import WMT_NAMES

#: 12 systems: ten of WMT23's names and two more WMT-style ones (a hyphenated team, a
#: snake_case baseline)
SYSTEMS = [*WMT_NAMES[:10], "Facebook-AI", "baseline_transformer_big"]

#: Segments of each output (the sample's first lines; enough for 12 systems' tests).
SEGMENTS = 120

#: Per grid chart (key st-key-mt_grids*): each panel's cell side (px), the panel titles' and
#: row names' boxes, the chart's box. Per static table: its right edge, its box's, how far it
#: scrolls sideways, its headers (text, width) and the header words broken inside (a word:
#: between spaces, hyphens, slashes, underscores, dots and zero-width spaces). How far the
#: main area scrolls sideways; every chart's box and the window's size.
_MEASURE_JS = """
() => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const charts = [...document.querySelectorAll('[class*="st-key-mt_grids"] .js-plotly-plot')].map(gd => {
    const L = gd._fullLayout;
    const cells = Object.keys(L).filter(k => /^xaxis\\d*$/.test(k)).map(k => {
      const n = L[k].categoryarray.length;
      return Math.min(L[k]._length, L['y' + k.slice(1)]._length) / n;
    });
    return {cells, box: box(gd), titles: [...gd.querySelectorAll('.annotation-text')].map(box),
            rows: [...gd.querySelectorAll('.ytick text')].filter(t => t.getBoundingClientRect().width > 0).map(box)};
  });
  // a header word (between spaces, hyphens, slashes, underscores, dots) whose letters lie on
  // more than one line is broken inside it
  const broken = th => {
    const split = [];
    const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const m of node.textContent.matchAll(/[^\\s\\-\u2013\\/_.\u200b\u00ad]+/g)) {
        const range = document.createRange();
        range.setStart(node, m.index);
        range.setEnd(node, m.index + m[0].length);
        if (new Set([...range.getClientRects()].map(r => Math.round(r.top))).size > 1) split.push(m[0]);
      }
    }
    return split;
  };
  const tables = [...document.querySelectorAll('[data-testid="stTable"]')]
    .filter(t => t.innerText.length > 0)
    .map(t => ({head: t.innerText.slice(0, 60),
                right: t.querySelector('table').getBoundingClientRect().right,
                holder: t.getBoundingClientRect().right, scroll: t.scrollWidth - t.clientWidth,
                headers: [...t.querySelectorAll('thead th')].map(
                  th => [th.innerText, Math.round(th.getBoundingClientRect().width)]),
                split: [...t.querySelectorAll('thead th')].flatMap(broken)}));
  const main = document.querySelector('[data-testid="stMain"]');
  const every = [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')].map(box);
  return {charts, tables, every, width: window.innerWidth, height: window.innerHeight,
          sideways: main.scrollWidth - main.clientWidth};
}
"""


def _wmt23_files(folder: Path) -> tuple[Path, list[Path]]:
    """A reference and 12 system outputs named as the WMT23 general task publishes them,
    from the sample's 8 systems (4 of them again with every third line one word shorter)."""
    sources = sorted(MT.glob("hyp/*.txt"))
    ref = folder / "generaltest2023.en-de.ref.refA.de"
    ref.write_text("\n".join(MT.joinpath("reference.txt").read_text().splitlines()[:SEGMENTS]))
    hyps = []
    for k, name in enumerate(SYSTEMS):
        lines = sources[k % len(sources)].read_text().splitlines()[:SEGMENTS]
        if k >= len(sources):
            lines = [" ".join(ln.split()[:-1]) if i % 3 == 0 else ln for i, ln in enumerate(lines)]
        path = folder / f"generaltest2023.en-de.hyp.{name}.de"
        path.write_text("\n".join(lines))
        hyps.append(path)
    return ref, hyps


def _measure(page, artifacts_dir, name: str) -> dict:
    wait_for_idle(page, timeout=120)
    wait_until_still(page, timeout=60)
    screenshot(page, artifacts_dir, name)
    shown = page.evaluate(_MEASURE_JS)
    (artifacts_dir / f"{name}.json").write_text(json.dumps(shown["tables"]))  # what was measured
    # the systems table, the sacreBLEU table, the p-values of every pair, the segment explorer
    assert len(shown["charts"]) >= 1 and len(shown["tables"]) == 4, shown
    panels = 0
    for chart in shown["charts"]:
        panels += len(chart["cells"])
        assert min(chart["cells"]) >= grids.MIN_CELL_PX, (name, chart["cells"])
        assert _overlaps(chart["titles"]) == 0, (name, chart["titles"])
        assert all(t[0] >= chart["box"][0] - 1 and t[2] <= chart["box"][2] + 1
                   for t in chart["titles"]), (name, chart)  # fmt: skip
        assert len(chart["rows"]) == len(SYSTEMS) and _overlaps(chart["rows"]) == 0, name
    assert panels == 3  # every test's grid is shown
    for table in shown["tables"]:
        assert table["right"] <= min(table["holder"], shown["width"]) + 1, (name, table)
        assert table["scroll"] <= 1, (name, table)
        assert table["split"] == [], (name, table["headers"], table["split"])
    assert shown["sideways"] <= 1, (name, shown["sideways"])
    # every chart seen whole in the window (no scrolling inside it)
    big = [b for b in shown["every"]
           if b[2] - b[0] > shown["width"] or b[3] - b[1] > shown["height"]]  # fmt: skip
    assert len(shown["every"]) >= 5 and not big, (name, big)
    return shown


def test_mt_systems_presentation_at_1400_and_on_a_slide(
    _context_for, app_url, artifacts_dir, tmp_path
):
    ref, hyps = _wmt23_files(tmp_path)
    with opened_page(_context_for({"width": 1400, "height": 900}), app_url, blank=True) as page:
        goto_page(page, app_url, "mt_systems", timeout=180)
        toggle = page.locator('[data-testid="stSidebar"]').get_by_text("Presentation mode")
        rerun_after(page, toggle.click, timeout=180)  # before the uploads: one run with them
        upload_files(page, [ref], index=0)
        upload_files(page, hyps, index=1)
        wait_for_charts(page, minimum=5, timeout=180)
        assert_no_exception(page)
        assert page.get_by_text("ONLINE-W").count() > 0  # short names from the WMT file names
        # the p-values of every pair, in their expander, must fit too
        page.get_by_text("p-values of every pair").click()  # opens in the browser, no run
        _measure(page, artifacts_dir, "mt_presentation_1400")
        page.set_viewport_size(
            {"width": presentation.SLIDE_WIDTH, "height": presentation.SLIDE_HEIGHT}
        )
        _measure(page, artifacts_dir, "mt_presentation_1920")
