"""Pure export conversions: LaTeX/CSV text, safe names, kaleido PNG/SVG bytes."""

from __future__ import annotations

import io
import os
import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from dashboard import export


@pytest.fixture
def pmatrix():
    names = ["Meteor_v1", "BLEU&co", "TER"]
    p = np.full((3, 3), np.nan)
    p[0, 1], p[0, 2], p[1, 2] = 0.0123, 0.000012, 0.5
    return pd.DataFrame(p, index=names, columns=names)


def test_latex_escapes_names_and_marks_empty_cells(pmatrix):
    tex = export.dataframe_to_latex(pmatrix)
    assert r"\begin{tabular}{lrrr}" in tex
    assert r"Meteor\_v1" in tex and r"BLEU\&co" in tex
    assert r"\toprule" in tex and r"\bottomrule" in tex
    row = next(line for line in tex.splitlines() if line.startswith(r"Meteor\_v1"))
    # one precision for the whole p-value matrix: a value below 0.001 puts it all in e-notation
    assert row.split("&")[1:] == [" -- ", " 1.23e-02 ", r" 1.20e-05 \\"]


def test_latex_caption_wraps_table_environment(pmatrix):
    tex = export.dataframe_to_latex(pmatrix, caption="Williams p", label="tab:w")
    assert tex.startswith(r"\begin{table}")
    assert r"\caption{Williams p}" in tex and r"\label{tab:w}" in tex


def test_latex_without_index_and_text_columns():
    df = pd.DataFrame({"metric": ["a_b", "c"], "r": [0.5, -0.25], "n": [12, 12]})
    tex = export.dataframe_to_latex(df, index=False)
    assert r"\begin{tabular}{lrr}" in tex
    # one precision per column: the fewest decimals that show every value of "r"
    assert r"a\_b & 0.50 & 12 \\" in tex and r"c & -0.25 & 12 \\" in tex


def test_csv_round_trips_full_precision(pmatrix):
    back = pd.read_csv(io.BytesIO(export.dataframe_to_csv(pmatrix)), index_col=0)
    pd.testing.assert_frame_equal(back, pmatrix, check_names=False)


def test_slugify():
    assert export.slugify("Williams grid: de-en / α=0.05") == "Williams_grid_de-en_0.05"
    assert export.slugify("///") == "export"


def test_export_size_defaults_and_layout():
    assert export.export_size(go.Figure()) == (
        export.DEFAULT_EXPORT_WIDTH,
        export.DEFAULT_EXPORT_HEIGHT,
    )
    assert export.export_size(go.Figure(layout={"width": 800, "height": 600})) == (800, 600)


def test_figure_to_bytes_rejects_unknown_format():
    with pytest.raises(ValueError, match="fmt must be one of"):
        export.figure_to_bytes(go.Figure(), "jpg")


def test_missing_browser_raises_export_unavailable(monkeypatch):
    monkeypatch.setenv("BROWSER_PATH", "/nonexistent/chromium")
    assert export.find_browser() is None
    with pytest.raises(export.ExportUnavailableError, match="Chromium"):
        export.figure_to_bytes(go.Figure(), "png")


@pytest.mark.browser  # kaleido drives Chromium
@pytest.mark.skipif(not os.path.exists(export.DEBIAN_CHROMIUM), reason="no /usr/bin/chromium")
def test_kaleido_renders_real_png_and_svg(monkeypatch):
    monkeypatch.setenv("BROWSER_PATH", export.DEBIAN_CHROMIUM)
    fig = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]]), layout={"width": 300, "height": 200})
    png, svg = export.figure_to_bytes(fig, "png", scale=1), export.figure_to_bytes(fig, "svg")
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # IHDR width/height (big-endian) follow the 8-byte signature and 8-byte chunk header
    assert int.from_bytes(png[16:20], "big") == 300
    assert int.from_bytes(png[20:24], "big") == 200
    assert svg.lstrip().startswith(b"<svg") and b"</svg>" in svg


def _kaleido_chromium() -> list:
    """The Chromium processes kaleido started for this process: descendants of its
    choreographer wrapper, never another browser of the test process (a worker that ran
    browser tests holds Playwright's Chromium, under Playwright's driver)."""
    import psutil

    wrappers = [
        p
        for p in psutil.Process().children(recursive=True)
        if any("choreographer" in part for part in _cmdline(p))
    ]
    return [
        p
        for w in wrappers
        for p in w.children(recursive=True)
        if "chrom" in p.name().lower() and p.status() != psutil.STATUS_ZOMBIE
    ]


def _cmdline(proc) -> list[str]:
    import psutil

    try:
        return proc.cmdline()
    except (psutil.NoSuchProcess, psutil.AccessDenied):
        return []


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(export.DEBIAN_CHROMIUM), reason="no /usr/bin/chromium")
def test_sessions_exporting_at_once_each_get_their_own_figure(monkeypatch):
    """kaleido's open Chromium answers one call at a time and hands results back in order:
    exports from several threads (sessions) at once must not receive each other's figures."""
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setenv("BROWSER_PATH", export.DEBIAN_CHROMIUM)
    titles = [f"figure-of-session-{k}" for k in range(6)]

    def render(title: str) -> tuple[str, bytes, list[bytes]]:
        fig = go.Figure(go.Bar(x=[title], y=[1]), layout={"title": title, "width": 320})
        return title, export.figure_to_bytes(fig, "svg"), export.figures_to_svg([fig, fig])

    with ThreadPoolExecutor(len(titles)) as pool:
        results = list(pool.map(render, titles))
    for title, svg, svgs in results:
        for out in [svg, *svgs]:
            found = [t for t in titles if t.encode() in out]
            assert found == [title], (title, found)


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(export.DEBIAN_CHROMIUM), reason="no /usr/bin/chromium")
def test_exports_share_one_chromium_and_a_dead_one_is_replaced(monkeypatch):
    monkeypatch.setenv("BROWSER_PATH", export.DEBIAN_CHROMIUM)
    fig = go.Figure(go.Scatter(x=[1, 2], y=[2, 1]), layout={"width": 300, "height": 200})
    export.figure_to_bytes(fig, "png", scale=1)
    browsers = {p.pid for p in _kaleido_chromium()}
    assert browsers, "no Chromium left open after an export"
    export.figure_to_bytes(fig, "svg")
    assert {p.pid for p in _kaleido_chromium()} == browsers, "a second export opened another"
    for proc in _kaleido_chromium():
        proc.kill()
    png = export.figure_to_bytes(fig, "png", scale=1)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    assert {p.pid for p in _kaleido_chromium()}.isdisjoint(browsers)


def test_latex_caption_and_label_are_escaped():
    """Captions carry user names and text like '95%': every LaTeX special character must be
    escaped, or '%' comments out the closing brace and the table does not compile."""
    df = pd.DataFrame({"x": [1.0]})
    caption = r"BLEU of sys_A & B, 95% CI, $5 #1 {x} a~b c^2 back\slash"
    tex = export.dataframe_to_latex(df, caption=caption, label="tab:my_lp#1 x")
    expected = (
        r"\caption{BLEU of sys\_A \& B, 95\% CI, \$5 \#1 \{x\} a\textasciitilde{}b "
        r"c\textasciicircum{}2 back\textbackslash{}slash}"
    )
    assert expected in tex
    assert r"\label{tab:my_lp-1-x}" in tex
    caption_line = next(line for line in tex.splitlines() if line.startswith(r"\caption"))
    # no unescaped special character is left in the caption (braces balance, no bare %)
    body = caption_line[len(r"\caption{") : -1]
    assert re.search(r"(?<!\\)[%&$#_]", body) is None
    assert body.count("{") - body.count(r"\{") == body.count("}") - body.count(r"\}")


def test_latex_escape_plain_text_unchanged():
    assert export.latex_escape("Williams test p-values, es-en") == "Williams test p-values, es-en"
