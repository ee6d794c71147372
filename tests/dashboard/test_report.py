"""The report bundle, built without a browser: zip layout, self-contained HTML, LaTeX and CSV
per table, the JSON record (numbers, settings, inputs with SHA-256, versions)."""

from __future__ import annotations

import hashlib
import io
import json
import zipfile
from importlib import metadata

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from dashboard import export, report


@pytest.fixture
def page_report():
    r = report.PageReport("Metrics vs humans")
    r.add_inputs("metrics_upload", [("human.tsv", b"abc"), ("=evil.tsv", b"")], sample=False)
    r.add_setting("metrics_alpha", "Significance level α", 0.05)
    r.add_setting("mt_seed", "Random seed", np.int64(12345))
    r.add_setting("mt_resamples", "Resamples", 1000)
    r.add_setting("lp", "Language pair", "de-en")
    r.add_figure("grid", go.Figure(go.Heatmap(z=[[1, 2], [3, 4]])), "williams grid")
    r.add_figure("dots", go.Figure(go.Scatter(x=[1, 2], y=[3, 4])), "williams grid")
    table = pd.DataFrame(
        {"pearson": [0.97081, np.nan], "pearson_pvalue": [1.585e-07, 0.2]},
        index=pd.Index(["BLEU_4", "<b>x</b>"], name="metric"),
    )
    r.add_table(
        "corr",
        report.TableEntry(
            table,
            filename="correlations de-en",
            caption="Correlations, 95% CI",
            marks=export.Marks(
                bold=pd.Series([True, False], index=table.index), note="Bold: best."
            ),
        ),
    )
    return r


def _zip(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def test_zip_layout_without_svg(page_report):
    files = _zip(report.build_report(page_report, svg=False))
    assert sorted(files) == [
        "record.json",
        "report.html",
        "tables/correlations_de-en.csv",
        "tables/correlations_de-en.tex",
    ]
    record = json.loads(files["record.json"])
    assert record["figures_note"] == "No SVG figures: not requested"
    # two figures with the same file name get distinct stems
    assert record["figures"] == ["williams_grid", "williams_grid"]
    assert report._unique_stems(["a b", "a_b", "c"]) == ["a_b", "a_b_2", "c"]


def test_record_holds_settings_inputs_numbers_and_versions(page_report):
    record = json.loads(_zip(report.build_report(page_report, svg=False))["record.json"])
    assert record["page"] == "Metrics vs humans"
    assert record["alpha"] == {"metrics_alpha": 0.05}
    assert record["seeds"] == {"mt_seed": 12345}
    assert record["resamples"] == {"mt_resamples": 1000}
    assert record["correction"] == {}
    assert record["settings"]["lp"] == {"label": "Language pair", "value": "de-en"}
    files = record["inputs"]["metrics_upload"]["files"]
    # SHA-256 from hashlib (independent of the report module's bookkeeping)
    assert files[0] == {
        "name": "human.tsv",
        "sha256": hashlib.sha256(b"abc").hexdigest(),
        "bytes": 3,
    }
    assert files[1]["sha256"] == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"
    assert record["versions"]["numpy"] == metadata.version("numpy")
    assert record["versions"]["mt-significance"] == metadata.version("mt-significance")
    for name in ("scipy", "sacrebleu", "streamlit"):
        assert record["versions"][name] == metadata.version(name)
    table = record["tables"]["correlations_de-en"]
    assert table["columns"] == ["Pearson r", "p (r ≠ 0)"]
    assert table["index"] == ["BLEU_4", "<b>x</b>"] and table["index_name"] == "metric"
    # full precision, NaN as null
    assert table["data"] == [[0.97081, 1.585e-07], [None, 0.2]]
    assert table["marks"] == "Bold: best."


def test_html_is_self_contained_and_escaped(page_report):
    html = _zip(report.build_report(page_report, svg=False))["report.html"].decode()
    assert "<script src=" not in html and 'src="http' not in html
    assert html.count("window.PlotlyConfig") == 1  # plotly.js inlined once, by plotly itself
    assert html.count('class="plotly-graph-div"') == 2
    assert "&lt;b&gt;x&lt;/b&gt;" in html and "<b>x</b>" not in html
    assert "<th><b>BLEU_4</b></th>" in html  # the bold mark
    assert "<caption>Correlations, 95% CI Bold: best.</caption>" in html


def test_latex_and_csv_in_the_zip_are_the_export_module_s(page_report):
    files = _zip(report.build_report(page_report, svg=False))
    entry = page_report.tables["corr"]
    assert files["tables/correlations_de-en.tex"].decode() == export.dataframe_to_latex(
        entry.df, caption=entry.caption, **entry.export_kwargs()
    )
    assert files["tables/correlations_de-en.csv"] == export.dataframe_to_csv(entry.df)


def test_missing_browser_is_noted_not_fatal(page_report, monkeypatch):
    monkeypatch.setenv("BROWSER_PATH", "/nonexistent/chromium")
    files = _zip(report.build_report(page_report, svg=True))
    record = json.loads(files["record.json"])
    assert record["figures_note"].startswith("No SVG figures: PNG/SVG export needs Chromium")
    assert not any(name.endswith(".svg") for name in files)


@pytest.mark.browser  # kaleido drives Chromium
@pytest.mark.skipif(export.find_browser() is None, reason="no Chromium for kaleido")
def test_svg_figures_rendered_by_kaleido(page_report):
    files = _zip(report.build_report(page_report, svg=True))
    svgs = sorted(n for n in files if n.endswith(".svg"))
    assert svgs == ["figures/williams_grid.svg", "figures/williams_grid_2.svg"]
    for name in svgs:
        assert files[name].lstrip().startswith(b"<svg") and b"</svg>" in files[name]
    assert json.loads(files["record.json"])["figures_note"] is None


def test_jsonable():
    assert report._jsonable(np.float64("nan")) is None
    assert report._jsonable((np.int32(3), float("inf"), "a")) == [3, None, "a"]
    assert report._jsonable({1: np.bool_(True)}) == {"1": True}


# ---- what people carry out: summary first, record last and folded, figures at their size ----


def _sections(html: str) -> list[str]:
    return [h.split("</h2>")[0] for h in html.split("<h2>")[1:]]


def test_html_opens_with_a_summary_and_ends_with_the_folded_record(page_report):
    html = _zip(report.build_report(page_report, svg=False))["report.html"].decode()
    assert _sections(html) == ["Summary", "Figures", "Record"]
    summary = html.split("<h2>Summary</h2>")[1].split("<h2>Figures</h2>")[0]
    # inputs (name, size, hash), settings (label: value) and the key table
    assert "human.tsv" in summary and hashlib.sha256(b"abc").hexdigest()[:16] in summary
    assert "Significance level α</th><td>0.05" in summary
    assert "<caption>Correlations, 95% CI Bold: best.</caption>" in summary
    assert html.count("<table>") == len(page_report.tables)  # the key table once
    record = html.split("<h2>Record</h2>")[1].lstrip()
    assert record.startswith("<details><summary>") and "&quot;sha256&quot;" in record
    assert html.index('class="plotly-graph-div"') > html.index("<h2>Figures</h2>")


def test_long_tables_fold_and_others_follow_the_figures(page_report):
    long = pd.DataFrame({"score": np.arange(report.FOLD_ROWS + 5, dtype=float)})
    page_report.add_table("long", report.TableEntry(long, filename="segments", caption="Seg"))
    html = _zip(report.build_report(page_report, svg=False))["report.html"].decode()
    assert _sections(html) == ["Summary", "Figures", "Tables", "Record"]
    tables = html.split("<h2>Tables</h2>")[1].lstrip()
    assert tables.startswith("<details><summary>Seg (35 rows; also in tables/segments.csv)")


def test_figures_keep_the_height_they_were_laid_out_for():
    from plotly.subplots import make_subplots

    tall = make_subplots(rows=5, cols=1, subplot_titles=list("abcde"))
    assert report.figure_size(tall) == ("100%", f"{5 * report.SUBPLOT_ROW_PX}px")
    sized = go.Figure(layout={"height": 2400, "width": 900})
    assert report.figure_size(sized) == ("900px", "2400px")
    r = report.PageReport("p")
    r.add_figure("t", tall, "tall")
    html = report.report_html(r, report.report_record(r))
    assert f"height:{5 * report.SUBPLOT_ROW_PX}px" in html.replace(" ", "")


# ---- signatures, errors and warnings, readable settings, titles, CSV-only segments ----


def test_report_states_notes_settings_in_words_and_titles(page_report):
    page_report.add_note("sig_bleu", "signature", "BLEU: nrefs:1|case:mixed|eff:no|tok:char")
    page_report.add_note("err", "error", "system 'X' has 3 segments but the reference has 4")
    page_report.add_note("warn", "warning", "2 systems left out")
    page_report.add_setting("qe_sample", "Sample data (used while nothing is uploaded)", "HTER")
    page_report.add_setting("mt_tests", "Tests", ["paired-bootstrap", "bootstrap"])
    page_report.add_setting("mt_lower", "Lower scores are better", False)
    fig = go.Figure(go.Heatmap(z=[[1]]), layout={"title": {"text": "BLEU: row <b>better</b>"}})
    page_report.add_figure("mt_grids", fig, "mt_significance_BLEU")
    files = _zip(report.build_report(page_report, svg=False))
    html = files["report.html"].decode()
    record = json.loads(files["record.json"])
    summary = html[: html.index("<h2>Figures</h2>")]
    for text in ("Errors shown", "has 3 segments", "Warnings shown", "2 systems left out",
                 "nrefs:1|case:mixed|eff:no|tok:char", "Data: your uploaded files"):
        assert text in summary, text
    assert "Sample data" not in html[: html.index("<h2>Record</h2>")]  # uploads: no sample
    assert "qe_sample" not in record["settings"]
    assert "<td>paired-bootstrap, bootstrap</td>" in summary and "<td>no</td>" in summary
    assert "<h3>BLEU: row better</h3>" in html  # the title shown, not the file name
    assert record["figure_titles"][-1] == "BLEU: row better"
    assert [n["kind"] for n in record["notes"]] == ["error", "warning", "signature"]


def test_long_tables_are_csv_only(page_report):
    seg = pd.DataFrame({"score": np.arange(report.LATEX_MAX_ROWS + 1, dtype=float)})
    page_report.add_table("seg", report.TableEntry(seg, filename="segments"))
    files = _zip(report.build_report(page_report, svg=False))
    assert "tables/segments.csv" in files and "tables/segments.tex" not in files
    assert "tables/correlations_de-en.tex" in files
