"""Real browser (Playwright + Debian chromium): the sidebar's "Download report" on every page
gives one zip with a self-contained report.html (plotly.js inlined, no network script), booktabs
LaTeX tables without raw column names, SVG figures and a JSON record with the settings, the
input files' SHA-256 and the versions used."""

from __future__ import annotations

import hashlib
import json
import re
import zipfile
from pathlib import Path

import pytest

from dashboard import export, report
from tests.browser.helpers import assert_no_exception, download, goto_page, wait_for_charts

REPO_ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DATA = REPO_ROOT / "sample_data"

#: url_path ("" = the default page, Metrics vs humans), charts to wait for, whether the page
#: resamples (records seeds and resamples). The sample's report of the default page; the other
#: pages' reports, of uploaded WMT files, are checked with the same function by
#: test_browser_wmt_pages.test_wmt_files_baseline_report_and_presentation.
PAGES = [("", 5, False)]

_REMOTE_SCRIPT = re.compile(r"<script[^>]*\bsrc\s*=\s*[\"']?\s*(https?:)?//", re.IGNORECASE)
#: A raw field name in a header: lower-case words joined by an (escaped) underscore.
_RAW_HEADER = re.compile(r"^[a-z][a-z0-9]*(\\_[a-z0-9]+)+$")


def file_hashes(root: Path) -> dict[str, set[str]]:
    """File name -> SHA-256 digests of the files under ``root``."""
    out: dict[str, set[str]] = {}
    for path in root.rglob("*"):
        if path.is_file():
            out.setdefault(path.name, set()).add(hashlib.sha256(path.read_bytes()).hexdigest())
    return out


def _header_cells(tex: str) -> list[str]:
    lines = tex.splitlines()
    header = lines[lines.index(r"\toprule") + 1]
    assert header.endswith(r" \\") and lines[lines.index(r"\toprule") + 2] == r"\midrule"
    return [cell.strip() for cell in header[: -len(r" \\")].split(" & ")]


def assert_report_bundle(path: Path, *, resamples: bool, hashes: dict[str, set[str]]) -> dict:
    """Check a downloaded report zip: a self-contained report.html, booktabs LaTeX without raw
    column names, SVG figures and a JSON record with versions, seeds and resamples (when the
    page resamples) and every input file by a SHA-256 of ``hashes`` (file name -> digests).
    Returns the record."""
    assert path.name.startswith("report_") and path.suffix == ".zip"
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        files = {name: zf.read(name) for name in names}

    # ---- self-contained HTML: plotly.js inlined once, no script fetched over the network ----
    html = files["report.html"].decode()
    assert _REMOTE_SCRIPT.search(html) is None
    assert html.count("window.PlotlyConfig") == 1  # plotly.js itself, inlined once
    record = json.loads(files["record.json"])
    assert html.count('class="plotly-graph-div"') == len(record["figures"]) >= 1
    assert html.count("<table>") == len(record["tables"]) >= 1

    # ---- booktabs LaTeX, one per table a paper takes (segment tables: CSV only), human headers
    tex_names = sorted(n for n in names if n.endswith(".tex"))
    papers = [t for t in record["tables"].values() if len(t["data"]) <= report.LATEX_MAX_ROWS]
    assert len(tex_names) == len(papers)
    assert len([n for n in names if n.endswith(".csv")]) == len(record["tables"])
    for name in tex_names:
        tex = files[name].decode()
        for rule in (r"\toprule", r"\midrule", r"\bottomrule"):
            assert tex.count(rule) == 1, (name, rule)
        raw = [c for c in _header_cells(tex) if _RAW_HEADER.match(c)]
        assert not raw, (name, raw)
        for field in ("pvalue", "pearson_pvalue", "r_better", "mae_rescaled", "ci_low"):
            assert (
                f" {field.replace('_', chr(92) + '_')} " not in f" {' '.join(_header_cells(tex))} "
            )

    # ---- vector figures ----
    svgs = [n for n in names if n.startswith("figures/") and n.endswith(".svg")]
    assert record["figures_note"] is None
    assert len(svgs) == len(record["figures"])
    for name in svgs:
        assert files[name].lstrip().startswith(b"<svg") and b"</svg>" in files[name]

    # ---- the JSON record: numbers, settings, inputs with SHA-256, versions ----
    for package in ("mt-significance", "numpy", "scipy", "sacrebleu", "streamlit"):
        assert re.match(r"\d+\.\d+", record["versions"][package] or ""), package
    for key in ("seeds", "resamples", "alpha", "correction", "settings"):
        assert key in record
    if resamples:
        assert record["seeds"] and all(isinstance(v, int) for v in record["seeds"].values())
        assert record["resamples"] and all(v > 0 for v in record["resamples"].values())
    files_in = [f for entry in record["inputs"].values() for f in entry["files"]]
    assert files_in
    for f in files_in:
        assert f["sha256"] in hashes.get(Path(f["name"]).name, set()), f
    for table in record["tables"].values():
        assert table["columns"] and table["data"]
        assert all(len(row) == len(table["columns"]) for row in table["data"])
    return record


@pytest.mark.opens_its_page
@pytest.mark.parametrize(("url_path", "charts", "resamples"), PAGES)
def test_download_report_bundles_the_page(page, app_url, tmp_path, url_path, charts, resamples):
    goto_page(page, app_url, url_path)
    wait_for_charts(page, minimum=charts, timeout=180)
    assert_no_exception(page)
    path = download(page, "download_report", tmp_path, timeout=300)
    assert_report_bundle(path, resamples=resamples, hashes=file_hashes(SAMPLE_DATA))
    assert_no_exception(page)


def test_report_headers_come_from_the_export_module():
    """The header check above relies on this: the export module turns the raw names shown in
    the issue into words."""
    for raw in ("pearson_pvalue", "r_better", "mae_rescaled", "ci_low"):
        assert not _RAW_HEADER.match(export.latex_escape(export.human_header(raw)))
