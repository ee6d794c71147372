"""Real browser (Playwright + Debian chromium) at 1920 x 1080, every page with WMT-format files
(system-level metrics task files with sacreBLEU-BLEU beside SIMPBLEU, WMT QE submission files,
system outputs and judgements under WMT system names such as FBK-UPV-UEDIN-nowp.1234):

- the baseline (or the metric analysed first) defaults to the BLEU metric;
- "Download report" gives a zip with a self-contained report.html, booktabs LaTeX without raw
  column names, SVG figures and a JSON record with seeds, versions and the uploaded files'
  SHA-256;
- in presentation mode every chart fits the 1920 x 1080 slide (and, resized in the same
  visit, a 1400 x 900 window), the panels of a grid figure
  stand side by side (same top), no tick label is shortened with "…" or drawn outside its
  figure, tables are enlarged, and the presentation toggle stays visible and turns the mode
  off again.

Also the flow of the pages: deep links, a reference uploaded alone on MT systems, and Tests vs
humans analysing the files uploaded on MT systems.
"""

from __future__ import annotations

import gzip
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import Error as PlaywrightError

from dashboard.figures import presentation
from tests import _wmt_data as wmt
from tests.browser.helpers import (
    CHART_SELECTOR,
    ERROR_SELECTOR,
    WINDOW_1400,
    assert_charts_within_windows,
    assert_no_exception,
    download,
    fail_with_page_state,
    goto_page,
    rerun_after,
    screenshot,
    upload_files,
    wait_for_charts,
    wait_for_idle,
    wait_until_still,
)
from tests.browser.test_browser_report import assert_report_bundle, file_hashes

REPO_ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DATA = REPO_ROOT / "sample_data"
SLIDE = {"width": presentation.SLIDE_WIDTH, "height": presentation.SLIDE_HEIGHT}
#: WMT-14 style names for the sample's eight MT systems (used by judgements and outputs).
WMT_SYSTEMS = dict(
    zip(
        ["Aurora", "Borealis", "Cirrus", "Delta", "Ember", "Fjord", "Glacier", "Harbor"],
        [
            "FBK-UPV-UEDIN-nowp.1234",
            "online-B.0",
            "uedin-syntax.3035",
            "KIT.3052",
            "CU-Moses.3086",
            "LIMSI-SOUL.3046",
            "UEDIN-UNCNSTRNT.3016",
            "RWTH-primary.3162",
        ],
        strict=True,
    )
)
#: WMT QE submission names for the sample's QE methods.
WMT_QE = {
    "ALPHA-svr": "FBK-UPV-UEDIN-nowp.1234",
    "CONSERV-mean": "DCU-Lingo24-SVR.4321",
    "baseline": "baseline",
}
REFERENCE = "newstest2014-ref.de-en.txt"


@pytest.fixture(scope="module")
def wmt_files(tmp_path_factory) -> Path:
    """The WMT-format files of every page under one directory (see the module docstring)."""
    root = tmp_path_factory.mktemp("wmt")
    for name, data in wmt.system_level_files().items():
        if name.startswith("BLEU."):  # BLEU under its WMT name, and a BLEU variant beside it
            text = gzip.decompress(data).decode().replace("BLEU\t", "sacreBLEU-BLEU\t")
            (root / "sacreBLEU-BLEU.sys.score").write_text(text)
            (root / "SIMPBLEU.sys.score").write_text(text.replace("sacreBLEU-BLEU\t", "SIMPBLEU\t"))
        else:
            (root / name).write_bytes(data)
    (root / "mt").mkdir()
    shutil.copy(SAMPLE_DATA / "mt" / "reference.txt", root / "mt" / REFERENCE)
    judgements = (SAMPLE_DATA / "human" / "judgements.tsv").read_text()
    for old, new in WMT_SYSTEMS.items():
        shutil.copy(SAMPLE_DATA / "mt" / "hyp" / f"{old}.txt", root / "mt" / f"{new}.txt")
        judgements = judgements.replace(f"{old}\t", f"{new}\t")
    (root / "judgements.tsv").write_text(judgements)
    (root / "qe").mkdir()
    for old, new in WMT_QE.items():
        text = (SAMPLE_DATA / "qe" / "wmt" / f"{old}.txt").read_text()
        (root / "qe" / f"{new}.txt").write_text(text.replace(f"{old}\t", f"{new}\t"))
    shutil.copy(SAMPLE_DATA / "qe" / "wmt_gold.txt", root / "qe" / "gold.txt")
    return root


def _hypotheses(root: Path) -> list[Path]:
    return sorted(p for p in (root / "mt").iterdir() if p.name != REFERENCE)


def _uploads(url_path: str, root: Path) -> list[tuple[int, list[Path]]]:
    """(file uploader index, files) of each upload a page takes."""
    if url_path == "metrics":
        return [(0, sorted(p for p in root.iterdir() if p.is_file() and "score" in p.name))]
    if url_path == "qe":
        return [(0, sorted((root / "qe").iterdir()))]
    outputs = [(0, [root / "mt" / REFERENCE]), (1, _hypotheses(root))]
    if url_path == "mt_systems":
        return outputs
    return [(0, [root / "judgements.tsv"])] + [(i + 1, files) for i, files in outputs]


#: url_path, charts drawn with the files, whether the page resamples, the widget key holding
#: the baseline / first metric and the BLEU name it must default to (None: no such choice)
PAGES = [
    ("metrics", 5, False, "metrics_baseline", "sacreBLEU-BLEU"),
    ("qe", 7, False, None, None),
    ("mt_systems", 3, True, "mt_metric", "BLEU"),
    ("human", 5, True, "human_metrics", "BLEU"),
]

_ROOT_FONT = "parseFloat(getComputedStyle(document.documentElement).fontSize)"

#: Per drawn chart: its box, the tops of its panels (y domains), shortened tick labels and the
#: tick labels / axis titles / annotations drawn outside the chart's box.
_CHARTS_JS = """
sel => [...document.querySelectorAll(sel)].map(gd => {
  const box = gd.getBoundingClientRect();
  const L = gd._fullLayout;
  const holder = gd.closest('[class*="st-key-"]');
  const key = holder ? [...holder.classList].find(c => c.startsWith('st-key-')) : '?';
  const grid = !!(L.meta && L.meta.grid_layout);
  const tops = Object.keys(L).filter(k => /^yaxis\\d*$/.test(k)).map(k => L[k].domain[1]);
  const texts = [...gd.querySelectorAll(
      '.xtick text, .ytick text, .g-xtitle text, .g-ytitle text, .annotation-text')];
  const shortened = texts.filter(t => t.textContent.includes('…')).map(t => t.textContent);
  const outside = texts.filter(t => {
    const b = t.getBoundingClientRect();
    return b.width > 0 && (b.left < box.left - 1 || b.right > box.right + 1
                           || b.top < box.top - 1 || b.bottom > box.bottom + 1);
  }).map(t => t.textContent);
  return {key, width: box.width, height: box.height, grid, tops, shortened, outside};
})
"""


def _toggle(page):
    return page.locator('[data-testid="stSidebar"]').get_by_text("Presentation mode")


def _chosen(page, key: str) -> str:
    """What a selectbox / multiselect with widget key ``key`` shows: its text (a multiselect's
    chips) and the value of its input (a selectbox's choice)."""
    widget = page.locator(f".st-key-{key}")
    inputs = widget.locator("input")
    values = [inputs.nth(i).input_value() for i in range(inputs.count())]
    return " ".join([widget.text_content() or "", *values])


def _wait_for_static_tables(page, timeout: float = 60.0) -> None:
    """Wait until presentation mode's static tables (``st.table``) have cells. The browser
    may still be mounting them when the run has ended on a loaded machine; if they never
    come, fail with what the page shows instead (data frames, stale elements, alerts)."""
    try:
        page.wait_for_function(
            "sel => document.querySelectorAll(sel).length > 0",
            arg='[data-testid="stTable"] td',
            timeout=timeout * 1000,
        )
    except PlaywrightError:
        fail_with_page_state(page, f"no static table cells within {timeout} s")


@pytest.mark.opens_its_page
@pytest.mark.parametrize(("url_path", "charts", "resamples", "choice", "bleu"), PAGES)
def test_wmt_files_baseline_report_and_presentation(
    slide_page,
    app_url,
    artifacts_dir,
    tmp_path,
    wmt_files,
    url_path,
    charts,
    resamples,
    choice,
    bleu,
):
    page = slide_page
    goto_page(page, app_url, url_path, timeout=180)
    for index, files in _uploads(url_path, wmt_files):
        upload_files(page, files, index=index)
    wait_for_charts(page, minimum=charts, timeout=300)
    assert_no_exception(page)
    assert page.get_by_text("synthetic sample data").count() == 0

    # ---- (a) the BLEU metric by default (SIMPBLEU is another metric, listed first) ----
    if choice is not None:
        assert bleu in _chosen(page, choice)
        if url_path == "metrics":
            assert "SIMPBLEU" not in _chosen(page, choice)

    # ---- (c) the report bundle of the uploaded files ----
    path = download(page, "download_report", tmp_path, timeout=300)
    record = assert_report_bundle(path, resamples=resamples, hashes=file_hashes(wmt_files))
    names = {f["name"] for entry in record["inputs"].values() for f in entry["files"]}
    assert {p.name for _, files in _uploads(url_path, wmt_files) for p in files} <= names

    # ---- (b) presentation mode: every chart on a 1920 x 1080 slide ----
    normal_font = page.evaluate(_ROOT_FONT)
    rerun_after(page, _toggle(page).click, timeout=300)
    page.wait_for_function(f"{_ROOT_FONT} > {normal_font * 1.2}", timeout=60_000)
    wait_for_charts(page, minimum=charts, timeout=300)
    wait_for_idle(page, timeout=300)
    wait_until_still(page, timeout=120)
    assert_no_exception(page)
    screenshot(page, artifacts_dir, f"wmt_presentation_{url_path}")
    drawn = page.evaluate(_CHARTS_JS, CHART_SELECTOR)
    assert len(drawn) >= charts
    for chart in drawn:
        assert chart["width"] <= SLIDE["width"] and chart["height"] <= SLIDE["height"], chart
        assert not chart["shortened"], chart
        assert not chart["outside"], chart
        if chart["grid"] and len(chart["tops"]) <= 4:  # the compared grids side by side
            assert len(set(chart["tops"])) == 1, chart
    # the same charts in a 1400 x 900 window (resized: no rerun), then back on the slide
    assert_charts_within_windows(page, (WINDOW_1400,), minimum=charts)
    # tables are HTML tables in the large font
    _wait_for_static_tables(page)
    cell_font = page.evaluate(
        "sel => parseFloat(getComputedStyle(document.querySelector(sel)).fontSize)",
        '[data-testid="stTable"] td',
    )
    assert cell_font >= normal_font * 1.2, (cell_font, normal_font)
    # the toggle stays on screen and turns the mode off again (one sidebar component, the
    # same on every page: switched off on one of them, a full redraw the others need not pay)
    box = _toggle(page).bounding_box()
    assert box is not None and 0 <= box["x"] < SLIDE["width"] and 0 <= box["y"] < SLIDE["height"]
    if url_path == "metrics":
        rerun_after(page, _toggle(page).click, timeout=300)
        page.wait_for_function(f"{_ROOT_FONT} < {normal_font * 1.05}", timeout=60_000)
        assert_no_exception(page)


# ---- flow ----


@pytest.mark.opens_its_page
def test_reference_alone_gives_one_message_then_tests_vs_humans_analyses_the_mt_uploads(
    page, app_url, wmt_files
):
    """One visit: the reference alone on MT systems, then the outputs beside it, then Tests
    vs humans on those uploads."""
    goto_page(page, app_url, "mt_systems")
    upload_files(page, [wmt_files / "mt" / REFERENCE], index=0)
    wait_until_still(page)
    assert_no_exception(page)
    messages = page.locator(
        f'{ERROR_SELECTOR}, [data-testid="stAlertContentWarning"], '
        '[data-testid="stAlertContentInfo"]'
    ).all_inner_texts()
    assert len(messages) == 1, messages
    assert "output file per system" in messages[0].lower(), messages
    assert page.locator('[data-testid="stProgress"]').count() == 0
    assert page.locator(CHART_SELECTOR).count() == 0

    upload_files(page, _hypotheses(wmt_files), index=1)
    wait_for_charts(page, minimum=3, timeout=300)
    nav = page.locator('[data-testid="stSidebarNav"]').get_by_text("Tests vs humans", exact=True)
    rerun_after(page, nav.click, timeout=300)
    upload_files(page, [wmt_files / "judgements.tsv"], index=0)
    wait_for_charts(page, minimum=5, timeout=300)
    assert_no_exception(page)
    page.get_by_text("Using the files uploaded on the MT systems page").first.wait_for()
    assert page.get_by_text(REFERENCE).count() >= 1
    # the systems analysed are the uploaded ones, not the sample's
    systems = page.evaluate(
        "sel => document.querySelector(sel)._fullLayout.yaxis.categoryarray",
        f".st-key-human_gold_grids {CHART_SELECTOR}",
    )
    assert sorted(systems) == sorted(WMT_SYSTEMS.values())
