"""Real browser: names made of Markdown, HTML, LaTeX and CSV-formula payloads stay text on
every page -- in tables (``st.table`` and ``st.dataframe``), headers, captions, warnings and
charts -- and in the page's report zip and its CSV/LaTeX exports: no link, no element, no
formula appears anywhere."""

from __future__ import annotations

import csv
import io
import re
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.browser.helpers import (
    assert_no_exception,
    download,
    goto_page,
    rerun_after,
    switch_page,
    upload_files,
    wait_for_charts,
    wait_for_idle,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
SAMPLE = REPO_ROOT / "sample_data"

#: names that would become a link, an element, a formula or a spreadsheet formula if rendered
PAYLOADS = [
    "[mlink](http://m.test/md)",
    '<a href="http://m.test/a">A</a>',
    "<b id=pwn>B</b>",
    "$\\frac{1}{2}$",
    '=HYPERLINK("http://m.test/f","d")',
    "www.m.test",
    "</script><i id=pwn2>I</i>",
]
#: the same as file names (no "/" in a file name): the MT systems page names systems by file
FILE_PAYLOADS = ["[mlink](http:m.test)", "<b id=pwn>B<b>", "$\\frac{1}{2}$", "=1+2", "www.m.test"]

_INERT_JS = """() => {
  const href = (a) => a.getAttribute('href') || a.getAttribute('xlink:href') || '';
  const where = (e) => {  // the enclosing Streamlit elements, innermost first, and the text
    const chain = [];
    for (let box = e; box && chain.length < 4; box = box.parentElement) {
      const id = box.getAttribute('data-testid');
      if (id && id.startsWith('st') && !chain.includes(id)) chain.push(id);
    }
    const md = e.closest('[data-testid="stMarkdownContainer"]') || e;
    return chain.join('<') + ' ' + JSON.stringify(md.textContent.slice(0, 80));
  };
  return {
    links: [...document.querySelectorAll('a')].filter((a) => href(a).includes('m.test'))
      .map((a) => where(a) + ' ' + href(a)),
    elements: document.querySelectorAll('#pwn, #pwn2').length,
    formulas: [...document.querySelectorAll('.katex annotation')]
      .filter((e) => e.textContent.includes('frac')).map(where),
    bold: [...document.querySelectorAll('.js-plotly-plot text, .js-plotly-plot tspan')]
      .filter((t) => /font-weight:\\s*bold/.test(t.getAttribute('style') || '')
        && t.textContent === 'B').length,
  };
}"""


def assert_inert_page(page) -> None:
    found = page.evaluate(_INERT_JS)
    assert found == {"links": [], "elements": 0, "formulas": [], "bold": 0}, found


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids = [], []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "a" and "m.test" in (attrs.get("href") or ""):
            self.links.append(attrs["href"])
        if attrs.get("id") in ("pwn", "pwn2"):
            self.ids.append(attrs["id"])


def assert_inert_csv(text: str, where: str) -> None:
    for row in csv.reader(io.StringIO(text)):
        for cell in row:
            if cell.startswith(("=", "+", "@")) or re.match(r"-[^\d.]", cell):
                pytest.fail(f"{where}: a formula cell {cell!r}")


def assert_inert_tex(text: str, where: str) -> None:
    assert "\\frac{" not in text and "\\href" not in text, where


def assert_inert_report(path: Path) -> None:
    with zipfile.ZipFile(path) as zf:
        files = {name: zf.read(name) for name in zf.namelist()}
    html = files["report.html"].decode()
    tags = _Tags()
    tags.feed(html)
    assert tags.links == [] and tags.ids == [], (tags.links, tags.ids)
    # a name must not close the inline figure scripts early
    assert html.count("</script>") == html.count("<script"), "a name closed a <script>"
    for name, data in files.items():
        if name.endswith(".csv"):
            assert_inert_csv(data.decode("utf-8-sig"), name)
        elif name.endswith(".tex"):
            assert_inert_tex(data.decode(), name)


def _metrics_file(tmp_path: Path) -> Path:
    rows = list(csv.reader((SAMPLE / "metrics" / "es-en_wide.csv").open()))
    header = rows[0]
    for k, payload in enumerate(PAYLOADS):
        header[2 + k] = payload  # metric columns
    for k, payload in enumerate(PAYLOADS[:4]):
        rows[1 + k][0] = payload  # system names
    out = tmp_path / "es-en_payload.csv"
    with out.open("w", newline="") as f:
        csv.writer(f).writerows(rows)
    return out


def _qe_file(tmp_path: Path) -> Path:
    rows = list(csv.reader((SAMPLE / "qe" / "hter_wide.csv").open()))
    for k, payload in enumerate(PAYLOADS):
        rows[0][2 + k] = payload
    out = tmp_path / "qe_payload.csv"
    with out.open("w", newline="") as f:
        csv.writer(f).writerows(rows)
    return out


def _mt_files(tmp_path: Path) -> list[Path]:
    hyps = sorted((SAMPLE / "mt" / "hyp").glob("*.txt"))
    out = []
    for payload, hyp in zip(FILE_PAYLOADS, hyps[: len(FILE_PAYLOADS)], strict=True):
        path = tmp_path / f"{payload}.txt"
        path.write_bytes(hyp.read_bytes())
        out.append(path)
    return out


def _check_page(page, tmp_path, table_key: str | None) -> Path:
    assert_no_exception(page)
    assert_inert_page(page)
    report = download(page, "download_report", tmp_path, timeout=300)
    assert_inert_report(report)
    if table_key:
        csv_path = download(page, f"{table_key}_csv", tmp_path)
        assert_inert_csv(csv_path.read_text(encoding="utf-8-sig"), csv_path.name)
        tex_path = download(page, f"{table_key}_tex", tmp_path)
        assert_inert_tex(tex_path.read_text(), tex_path.name)
    assert_inert_page(page)
    return report


def test_payload_names_are_text_on_the_metrics_page_and_in_presentation_mode(
    page, app_url, tmp_path
):
    upload_files(page, [_metrics_file(tmp_path)])
    wait_for_charts(page, minimum=3, timeout=180)
    _check_page(page, tmp_path, "metrics_corr_table")
    # presentation mode draws every table as a static st.table (Markdown cells)
    sidebar = page.locator('[data-testid="stSidebar"]')
    wait_for_idle(page)  # the toggle is clicked on a page at rest
    rerun_after(page, sidebar.get_by_text("Presentation mode").click, timeout=180)
    wait_for_charts(page, minimum=3, timeout=180)
    assert page.locator('[data-testid="stTable"]').count() > 0
    assert_no_exception(page)
    assert_inert_page(page)


def _tests_vs_humans_files(tmp_path: Path) -> tuple[Path, list[Path]]:
    """The sample's judgements with the first systems renamed to FILE_PAYLOADS, and the
    system outputs (those first ones renamed alike)."""
    hyps = _mt_files(tmp_path)  # the first systems renamed to FILE_PAYLOADS
    rename = {
        old.stem: new.stem
        for old, new in zip(sorted((SAMPLE / "mt" / "hyp").glob("*.txt")), hyps, strict=False)
    }
    rows = list(csv.reader((SAMPLE / "human" / "judgements.csv").open()))
    rows[1:] = [[rename.get(r[0], r[0]), *r[1:]] for r in rows[1:]]
    judgements = tmp_path / "judgements_payload.csv"
    with judgements.open("w", newline="") as f:
        csv.writer(f).writerows(rows)
    others = sorted((SAMPLE / "mt" / "hyp").glob("*.txt"))[len(hyps) :]
    return judgements, [*hyps, *others]


@pytest.mark.opens_its_page
def test_payload_names_are_text_on_the_qe_tests_vs_humans_and_mt_systems_pages(
    page, app_url, tmp_path
):
    """One browser page, switched through the sidebar: Tests vs humans comes before MT
    systems (the MT systems page's uploads would be offered there in place of its own)."""
    goto_page(page, app_url, "qe")
    upload_files(page, [_qe_file(tmp_path)])
    wait_for_charts(page, minimum=2, timeout=180)
    _check_page(page, tmp_path, "qe_rescale_table")

    judgements, outputs = _tests_vs_humans_files(tmp_path)
    switch_page(page, "Tests vs humans", timeout=300)
    upload_files(page, [judgements], index=0)
    upload_files(page, [SAMPLE / "mt" / "reference.txt"], index=1)
    upload_files(page, outputs, index=2)
    wait_for_charts(page, minimum=2, timeout=300)
    _check_page(page, tmp_path, None)

    switch_page(page, "MT systems", timeout=240)
    upload_files(page, [SAMPLE / "mt" / "reference.txt"], index=0)
    upload_files(page, _mt_files(tmp_path), index=1)
    wait_for_charts(page, minimum=2, timeout=240)
    _check_page(page, tmp_path, "mt_system_table")


def _segment_file(tmp_path: Path) -> Path:
    """The segment-level wide CSV (lp, system, segment, human:*, one column per metric) with
    payload metric and system names."""
    rows = list(csv.reader((SAMPLE / "meta" / "en-de_wide.csv").open()))
    header = rows[0]
    metric_cols = [k for k, h in enumerate(header) if k > 2 and not h.startswith("human")]
    for k, payload in zip(metric_cols, PAYLOADS, strict=False):
        header[k] = payload
    systems = sorted({r[1] for r in rows[1:]})
    rename = dict(zip(systems, PAYLOADS[len(metric_cols) :] + PAYLOADS[:2], strict=False))
    for r in rows[1:]:
        r[1] = rename.get(r[1], r[1])
    out = tmp_path / "seg_payload.csv"
    with out.open("w", newline="") as f:
        csv.writer(f).writerows(rows)
    return out


def _assert_names_shown(page) -> None:
    """The payload metric names reached the page (as literal text in the charts' labels), so
    the inertness checks are about them and not about a page that refused the file."""
    text = page.evaluate("() => document.body.textContent")
    for name in PAYLOADS[:4]:
        assert name in text, name


def _assert_names_in_report(path: Path) -> None:
    """The report holds the names, escaped (so its inertness is about them)."""
    with zipfile.ZipFile(path) as zf:
        html = zf.read("report.html").decode()
    assert "mlink" in html and "&lt;b id=pwn&gt;" in html


def _check_table_exports(page, tmp_path, key: str) -> None:
    csv_path = download(page, f"{key}_csv", tmp_path)
    text = csv_path.read_text(encoding="utf-8-sig")
    assert "[mlink](http://m.test/md)" in text, csv_path.name
    assert_inert_csv(text, csv_path.name)
    tex_path = download(page, f"{key}_tex", tmp_path)
    assert_inert_tex(tex_path.read_text(), tex_path.name)


def test_payload_names_are_text_on_the_segment_level_view_and_the_leaderboard(
    page, app_url, tmp_path
):
    """The Metrics page's segment-level view, then the Leaderboard (switched to through the
    sidebar) with the same file."""
    segments = _segment_file(tmp_path)
    upload_files(page, [segments])
    wait_for_charts(page, minimum=3, timeout=180)
    assert page.get_by_text("Segment-level meta-evaluation").count() >= 1
    _assert_names_shown(page)
    _assert_names_in_report(_check_page(page, tmp_path, "meta_table"))
    for key in ("meta_pairwise_table", "meta_soft_table"):
        _check_table_exports(page, tmp_path, key)

    switch_page(page, "Leaderboard", timeout=180)
    # nothing of the Metrics page is left: the names found below are the Leaderboard's
    assert PAYLOADS[0] not in page.evaluate("() => document.body.textContent")
    upload_files(page, [segments])
    wait_for_charts(page, minimum=2, timeout=180)
    assert page.get_by_text("synthetic sample data").count() == 0
    _assert_names_shown(page)
    _assert_names_in_report(_check_page(page, tmp_path, "board_table"))
