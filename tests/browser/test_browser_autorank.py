"""Real browser (Playwright + Debian chromium): the AutoRank page on the bundled WMT25-layout
sample, in a 1400 x 900 window and on a 1920 x 1080 slide in presentation mode.

At 1400 px: the server sends the point table before the table with intervals (the page's
websocket messages), and the browser draws it first when the two come a quarter of a second or
more apart (the browser's own record of when each appeared), the interval chart holds stats.analyses.autorank_analysis's
AutoRank and intervals (the page's seed and resamples; plotly.js gets float32: 1e-6), the
JSON and findings-LaTeX downloads hold the same numbers, and another language pair redraws the
table, the chart and the metrics' heatmap. On the slide in presentation mode: charts and the
table end inside the window, no exception; resized to 1400 x 900 in the same visit, every chart
lies within that window and the table ends inside it."""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np
import pytest

from stats.analyses import autorank_analysis
from tests.browser.conftest import opened_page
from tests.browser.helpers import (
    SLIDE_1920,
    WINDOW_1400,
    assert_no_exception,
    charts_beyond,
    choose_option,
    download,
    goto_page,
    rerun_after,
    screenshot,
    wait_for_charts,
    wait_for_idle,
    wait_until_still,
)

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "wmt25" / "automatic_scores"

#: when each of the two table containers first appeared (performance.now()), recorded in the page
_APPEARED_JS = """
() => {
  window._appeared = [];
  const keys = ['autorank_table_point', 'autorank_table_box'];
  const note = node => {
    if (!(node instanceof Element)) return;
    for (const key of keys) {
      const sel = '.st-key-' + key;
      if (node.matches(sel) || node.querySelector(sel)) {
        if (window._appeared[window._appeared.length - 1] !== key) window._appeared.push(key);
      }
    }
  };
  // a container is either added, or (the same position redrawn) given the other key's class
  new MutationObserver(records => {
    for (const r of records) {
      if (r.type === 'attributes') note(r.target);
      else for (const node of r.addedNodes) note(node);
    }
  }).observe(document, {subtree: true, childList: true, attributes: true,
                        attributeFilter: ['class']});
}
"""

_DOTS_JS = """
gd => ({
  x: Array.from(gd._fullData[0].x),
  ticks: Array.from(gd._fullLayout.yaxis.ticktext),
  plus: Array.from(gd._fullData[0].error_x.array || []),
  minus: Array.from(gd._fullData[0].error_x.arrayminus || []),
})
"""

_HEATMAP_JS = "gd => ({x: Array.from(gd._fullData[0].x), z: gd._fullData[0].z})"

_FITS_JS = """
() => {
  const right = e => e.getBoundingClientRect().right;
  return {width: window.innerWidth,
          charts: [...document.querySelectorAll('.js-plotly-plot')].map(right),
          tables: [...document.querySelectorAll('[data-testid="stTable"] table')].map(right),
          scroll: document.documentElement.scrollWidth - document.documentElement.clientWidth};
}
"""


def _expected(lp: str, n_resamples: int = 1000):
    files = [(p.name, p.read_bytes()) for p in sorted(SAMPLE.glob("*.jsonl"))]
    return autorank_analysis(files, lps=[lp], n_resamples=n_resamples,
                             rng=12345).language_pairs[0]  # fmt: skip


def _chart(page, key: str, js: str) -> dict:
    chart = page.locator(f".st-key-{key} .js-plotly-plot")
    chart.wait_for()
    return chart.first.evaluate(js)


def _check_dots(page, pair) -> None:
    dots = _chart(page, "autorank_chart", _DOTS_JS)
    boot = pair.bootstrap
    assert dots["ticks"] == list(pair.point.systems)
    np.testing.assert_allclose(dots["x"], pair.point.autorank.to_numpy(), rtol=1e-6)
    np.testing.assert_allclose(
        dots["plus"], (boot.interval_high - pair.point.autorank).to_numpy(), rtol=1e-6, atol=1e-6
    )
    np.testing.assert_allclose(
        dots["minus"], (pair.point.autorank - boot.interval_low).to_numpy(), rtol=1e-6, atol=1e-6
    )


def _containers_sent(page) -> list[tuple[float, str]]:
    """``(time.monotonic(), key)`` of each message the server sends the page over its
    websocket that names one of the two table containers, in the order received."""
    sent: list[tuple[float, str]] = []

    def frame(payload) -> None:
        data = payload if isinstance(payload, bytes) else payload.encode()
        for key in ("autorank_table_point", "autorank_table_box"):
            if key.encode() in data:
                sent.append((time.monotonic(), key))

    page.on("websocket", lambda ws: ws.on("framereceived", frame))
    return sent


@pytest.mark.opens_its_page
def test_autorank_page_at_1400(_context_for, app_url, artifacts_dir, tmp_path):
    with opened_page(_context_for({"width": 1400, "height": 900}), app_url, blank=True) as page:
        page.add_init_script(f"({_APPEARED_JS})()")
        sent = _containers_sent(page)
        # 5,000 resamples (from the URL, as a shared link gives them)
        goto_page(page, app_url, "autorank?resamples=5000", timeout=180)
        wait_for_charts(page, minimum=2, timeout=180)
        assert_no_exception(page)
        # another seed: the point table (cached) is sent at once, the intervals follow
        page.evaluate("() => { window._appeared.length = 0; }")
        sent.clear()
        seed = page.locator(".st-key-autorank_seed input")
        seed.fill("12346")
        rerun_after(page, lambda: seed.press("Enter"), timeout=180)
        wait_for_charts(page, minimum=2, timeout=180)
        appeared = page.evaluate("() => window._appeared")
        keys = [key for _, key in sent]
        assert keys and keys[0] == "autorank_table_point", keys
        assert keys[-1] == "autorank_table_box", keys
        # the browser draws the point table while the intervals are computed: when they came
        # a quarter of a second or more after it (messages closer than that may be drawn as
        # one, the point table never shown), it was drawn, and the table with intervals after
        gap = sent[-1][0] - sent[0][0]
        assert not appeared or appeared[-1] == "autorank_table_box", appeared
        print(f"AutoRank containers sent {keys}, {gap:.3f} s apart; drawn {appeared}")
        if gap >= 0.25:
            assert "autorank_table_point" in appeared, (appeared, gap)
        wait_until_still(page, timeout=60)
        # the final table replaced the point table: one table, no point table left
        assert page.locator(".st-key-autorank_table_point").count() == 0
        assert page.locator('.st-key-autorank_table_box [data-testid="stDataFrame"]').count() == 1
        seed.fill("12345")
        rerun_after(page, lambda: seed.press("Enter"), timeout=180)
        wait_for_charts(page, minimum=2, timeout=180)
        pair = _expected("en-bho_IN", 5000)
        _check_dots(page, pair)
        assert page.get_by_text("Neighbours the data cannot separate").count() == 1
        screenshot(page, artifacts_dir, "autorank_1400")

        data = json.loads(download(page, "autorank_json", tmp_path).read_text())
        assert [s["system"] for s in data["systems"]] == list(pair.point.systems)
        np.testing.assert_allclose([s["autorank"] for s in data["systems"]],
                                   pair.point.autorank.to_numpy())  # fmt: skip
        tex = download(page, "autorank_findings_tex", tmp_path).read_text()
        assert r"\toprule" in tex and r"\cellcolor{green!" in tex and "chrF++" in tex
        csv = download(page, "autorank_export_csv", tmp_path).read_text()
        assert csv.splitlines()[0].startswith("system,")

        choose_option(page, "autorank_lp", "en-cs_CZ")
        wait_for_charts(page, minimum=2, timeout=180)
        assert_no_exception(page)
        _check_dots(page, _expected("en-cs_CZ", 5000))
        heat = _chart(page, "autorank_heatmap", _HEATMAP_JS)
        assert heat["x"] == ["CometKiwi-XL", "GEMBA-ESA-CMDA", "GEMBA-ESA-GPT4.1",
                             "MetricX-24-Hybrid-XL", "XCOMET-XL"]  # fmt: skip
        fits = page.evaluate(_FITS_JS)
        assert all(r <= fits["width"] + 1 for r in fits["charts"]), fits


@pytest.mark.opens_its_page
def test_autorank_presentation_on_a_slide(slide_page, app_url, artifacts_dir):
    page = slide_page
    goto_page(page, app_url, "autorank", timeout=180)
    wait_for_charts(page, minimum=2, timeout=180)
    toggle = page.locator('[data-testid="stSidebar"]').get_by_text("Presentation mode")
    rerun_after(page, toggle.click, timeout=180)
    wait_for_charts(page, minimum=2, timeout=180)
    wait_for_idle(page, timeout=120)
    wait_until_still(page, timeout=60)
    assert_no_exception(page)
    fits = page.evaluate(_FITS_JS)
    assert fits["tables"], "presentation mode draws the table as a static table"
    assert all(r <= fits["width"] + 1 for r in fits["charts"] + fits["tables"]), fits
    assert fits["scroll"] <= 1, fits
    _check_dots(page, _expected("en-bho_IN"))
    screenshot(page, artifacts_dir, "autorank_1920_presentation")
    assert charts_beyond(page, SLIDE_1920) == []

    # the same presentation in a 1400 x 900 window (resized: no rerun)
    page.set_viewport_size(WINDOW_1400)
    wait_until_still(page, timeout=60)
    fits = page.evaluate(_FITS_JS)
    assert all(r <= fits["width"] + 1 for r in fits["charts"] + fits["tables"]), fits
    assert fits["scroll"] <= 1, fits
    assert len(fits["charts"]) >= 2 and charts_beyond(page, WINDOW_1400) == []
    screenshot(page, artifacts_dir, "autorank_1400_presentation")
