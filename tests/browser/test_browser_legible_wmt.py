"""Real browser: WMT23-sized uploads (tests/_legible_data.py) on the
Metrics page (30 metrics under WMT23 names, 16 systems, 3 language pairs, the published files
zipped) and the QE page (a WMT23 submissions folder zipped, 8 language pairs, with the gold
file), each at 1400 x 900 and then in presentation mode on a 1920 x 1080 slide, in ONE visit
per page (the sizes share the session's computations; the suite stays fast), and the
Metrics page's presentation mode in the 1400 x 900 window as well:

- in presentation mode every chart lies within the window at both sizes (the 30 x 30 matrices
  and each language pair's grid);
- in every chart, no two tick labels of a panel overlap (label boxes measured in the browser:
  upright labels by their boxes, -45 degree labels by the distance of their parallel lines);
- the all-language-pairs figures (Williams panels, QE systems x language pairs) have axis
  titles, inside the chart;
- the QE scatter titles (long method names) stay inside their chart and do not overlap;
- the QE report downloaded from the page holds every language pair.

Before the fixes of dashboard/figures they found: at 1400 px the dot chart's x title ran
25 px out of its narrow column, the all-LP Williams panels and the QE heatmap had no axis
titles; on the slide the 30-metric heatmap and Williams grid printed 20 px column labels
16.5 px apart (29 of 29 neighbours overprinted) and the three all-LP panels stood abreast
with labels 7.4 px apart. The files' JSON of measurements goes to the artifacts directory.
"""

from __future__ import annotations

import json
import math
import zipfile

import pytest

from dashboard.figures import presentation
from tests import _legible_data as data
from tests.browser.helpers import (
    assert_no_exception,
    download,
    goto_page,
    rerun_after,
    upload_files,
    wait_for_charts,
    wait_for_idle,
    wait_until_still,
)
from tests.browser.test_browser_legibility import _overlaps, page_1400  # noqa: F401

SMALL = {"width": 1400, "height": 900}
SLIDE = {"width": presentation.SLIDE_WIDTH, "height": presentation.SLIDE_HEIGHT}

#: Every drawn chart, by the widget key around it: its box, per subplot (panel) the boxes of
#: its x and y tick labels, whether the x labels are rotated, the tick font; the axis titles
#: (text and box) and the annotations (panel titles) with their boxes.
_CHARTS_JS = """
() => [...document.querySelectorAll('[data-testid="stPlotlyChart"] .js-plotly-plot')].map(gd => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  const shown = e => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const holder = gd.closest('[class*="st-key-"]');
  const key = holder ? [...holder.classList].find(c => c.startsWith('st-key-')).slice(7) : '?';
  const labels = (sp, sel) => [...sp.querySelectorAll(sel)].filter(shown);
  const panels = [...gd.querySelectorAll('g.subplot')].map(sp => {
    const xt = labels(sp, '.xaxislayer-above text'), yt = labels(sp, '.yaxislayer-above text');
    const first = xt[0] || yt[0];
    return {
      name: [...sp.classList].join(' '),
      xt: xt.map(box), yt: yt.map(box),
      angle: Math.max(0, ...xt.map(t => {
        const m = /rotate\\((-?[0-9.]+)/.exec(t.getAttribute('transform') || '');
        return m ? Math.abs(parseFloat(m[1])) : 0;
      })),
      font: first ? parseFloat(getComputedStyle(first).fontSize) : 0,
    };
  });
  const titles = [...gd.querySelectorAll('g[class^="g-x"][class$="title"] text, g[class^="g-y"][class$="title"] text')]
    .filter(t => shown(t) && t.textContent.trim())
    .map(t => ({axis: t.closest('g').getAttribute('class'), text: t.textContent, box: box(t)}));
  const notes = [...gd.querySelectorAll('.annotation-text')].filter(shown)
    .map(t => ({text: t.textContent, box: box(t)}));
  return {key, box: box(gd), panels, titles, notes};
})
"""


def _crowded(boxes, font: float, angle: float) -> int:
    """Neighbouring labels rotated by ``angle`` degrees whose parallel lines lie closer than
    the font size (right ends ``d`` px apart lie ``d sin(angle)`` apart; the boxes of -45
    degree labels always intersect)."""
    anchors = sorted(b[2] for b in boxes)
    factor = math.sin(math.radians(angle))
    return sum((b - a) * factor < font for a, b in zip(anchors, anchors[1:], strict=False))


#: Every static table (presentation mode): its right edge, its holder's, the window's, and the
#: header words (between spaces, hyphens, slashes, underscores, dots) drawn on more than one
#: line: a word broken inside it
_TABLES_JS = """
() => [...document.querySelectorAll('[data-testid="stTable"]')].filter(t => t.innerText.length)
  .map(t => {
    const split = [];
    for (const th of t.querySelectorAll('thead th')) {
      const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of node.textContent.matchAll(/[^\\s\\-\u2013\\/_.\u200b]+/g)) {  // a hyphen may end a line
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const tops = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
          if (tops.size > 1) split.push(m[0]);
        }
      }
    }
    return {head: t.innerText.slice(0, 60), right: t.querySelector('table').getBoundingClientRect().right,
            holder: t.getBoundingClientRect().right, width: window.innerWidth, split};
  })
"""


def _tables_fit(page, name: str) -> None:
    """Presentation tables end inside their holder and the window, and no header word is
    broken inside it."""
    tables = page.evaluate(_TABLES_JS)
    assert tables, name
    for t in tables:
        assert t["right"] <= min(t["holder"], t["width"]) + 1, (name, t)
        assert not t["split"], (name, t["head"], t["split"])


def _inside(inner, outer, slack: float = 1.0) -> bool:
    return (
        inner[0] >= outer[0] - slack
        and inner[1] >= outer[1] - slack
        and inner[2] <= outer[2] + slack
        and inner[3] <= outer[3] + slack
    )


def _measure(page, artifacts_dir, name: str) -> dict:
    """The charts of the page at rest, by key; fails on any two tick labels of a panel that
    overlap and on a panel title or axis title drawn outside its chart."""
    wait_for_idle(page, timeout=120)
    wait_until_still(page, timeout=60)
    charts = {c["key"]: c for c in page.evaluate(_CHARTS_JS)}
    (artifacts_dir / f"{name}.json").write_text(json.dumps(charts))  # what was measured
    problems = []
    for key, chart in charts.items():
        for p in chart["panels"]:
            rotated = p["angle"] > 1
            x = _crowded(p["xt"], p["font"], p["angle"]) if rotated else _overlaps(p["xt"])
            y = _overlaps(p["yt"])
            if x or y:
                problems.append((key, p["name"], f"{x} x and {y} y labels overlap", p["font"]))
        for t in chart["titles"] + chart["notes"]:
            if not _inside(t["box"], chart["box"]):
                problems.append((key, "outside the chart", t["text"][:60], t["box"], chart["box"]))
    assert not problems, (name, problems)
    return charts


def _axis_titles(chart) -> tuple[set, set]:
    x = {t["text"] for t in chart["titles"] if t["axis"].startswith("g-x")}
    y = {t["text"] for t in chart["titles"] if t["axis"].startswith("g-y")}
    return x, y


def _presentation(page) -> None:
    """Presentation mode on, in the 1920 x 1080 window."""
    page.set_viewport_size(SLIDE)
    toggle = page.locator('[data-testid="stSidebar"]').get_by_text("Presentation mode")
    rerun_after(page, toggle.click, timeout=180)


def test_metrics_page_30_metrics_16_systems(page_1400, artifacts_dir, tmp_path):  # noqa: F811
    page = page_1400  # SMALL from the start: the sample is not drawn at 1600 px first
    archive = tmp_path / data.METRICS_ZIP
    archive.write_bytes(data.metrics_30())
    upload_files(page, [archive])
    wait_for_charts(page, minimum=5, timeout=180)
    assert_no_exception(page)
    assert page.locator('[data-testid="stMetricValue"]').nth(1).inner_text() == "30"

    sizes = ((None, "legible_metrics_1400"), (SLIDE, "legible_metrics_1920"),
             (SMALL, "legible_metrics_presentation_1400"))  # fmt: skip
    for size, name in sizes:
        if size is SLIDE:
            _presentation(page)
            wait_for_charts(page, minimum=5, timeout=180)
        elif size is SMALL:  # the same charts, presentation mode in the smaller window
            page.set_viewport_size(SMALL)
        charts = _measure(page, artifacts_dir, name)
        # the all-LP panels: one chart in the window, one per language pair on a slide (the
        # three stacked would not fit it)
        pairs = ["metrics_all_grids"] if size is None else [
            f"metrics_all_grids_{k}" for k in range(len(data.METRICS_LPS))]  # fmt: skip
        for key in ("metrics_heatmap", "metrics_grid", *pairs):
            assert key in charts, (name, sorted(charts))
            panel = charts[key]["panels"][0]  # every label measured
            assert len(panel["xt"]) == len(panel["yt"]) == len(data.METRICS), (name, key)
        if size is None:
            grid = charts["metrics_all_grids"]
            assert len(grid["panels"]) == len(data.METRICS_LPS), (name, len(grid["panels"]))
            x, y = _axis_titles(grid)
            assert x and y, (name, grid["titles"])
        else:  # every chart seen whole in the window: no scrolling inside it
            window = size
            big = {k: c["box"] for k, c in charts.items()
                   if c["box"][2] - c["box"][0] > window["width"]
                   or c["box"][3] - c["box"][1] > window["height"]}  # fmt: skip
            assert not big, (name, big)
            _tables_fit(page, name)
        assert_no_exception(page)


@pytest.mark.opens_its_page
def test_qe_page_8_language_pairs(page, app_url, artifacts_dir, tmp_path):
    d = data.qe_8_lps()
    (tmp_path / data.QE_ZIP).write_bytes(d["zip"])
    (tmp_path / data.QE_GOLD).write_text(d["gold"])
    page.set_viewport_size(SMALL)
    goto_page(page, app_url, "qe")
    upload_files(page, [tmp_path / data.QE_ZIP, tmp_path / data.QE_GOLD])
    wait_for_charts(page, minimum=6, timeout=180)
    assert_no_exception(page)
    main = page.locator('[data-testid="stMain"]')
    assert main.locator('[data-testid="stMetricValue"]').first.inner_text() == "8"

    # the report of the page holds every language pair
    path = download(page, "download_report", tmp_path, timeout=300)
    with zipfile.ZipFile(path) as zf:
        record = json.loads(zf.read("record.json"))
        html = zf.read("report.html").decode()
    table = record["tables"]["qe_wmt_all_language_pairs"]  # every system of every pair
    assert len(table["data"]) == len(data.QE_LPS) * len(data.QE_TEAMS), table["caption"]
    text = json.dumps(table)
    assert [lp for lp in data.QE_LPS if lp not in text or lp not in html] == []

    for size, name in ((None, "legible_qe_1400"), (SLIDE, "legible_qe_1920")):
        if size is not None:
            _presentation(page)
            wait_for_charts(page, minimum=6, timeout=180)
        charts = _measure(page, artifacts_dir, name)
        heatmap = charts["qe_wmt_heatmap"]
        assert len(heatmap["panels"][0]["xt"]) == len(data.QE_LPS) + 1  # and the average
        x, y = _axis_titles(heatmap)
        assert x and y, (name, heatmap["titles"])
        scatter = charts["qe_wmt_scatter"]
        titles = [n["box"] for n in scatter["notes"]]
        assert len(titles) >= 2 and _overlaps(titles) == 0, (name, scatter["notes"])
        assert_no_exception(page)
