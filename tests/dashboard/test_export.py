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
# plotly passes kaleido only its HTTP headers (kopts), which a server does not take: the page
# it renders on is the same
@pytest.mark.filterwarnings("ignore:The kopts argument is ignored:UserWarning")
def test_kaleido_renders_real_png_and_svg(monkeypatch):
    import kaleido

    monkeypatch.setenv("BROWSER_PATH", export.DEBIAN_CHROMIUM)
    fig = go.Figure(go.Heatmap(z=[[1, 2], [3, 4]]), layout={"width": 300, "height": 200})
    # one Chromium for both renders (kaleido's sync server; one browser a call, the app's way,
    # is test_figures_full_names.py's SVG and test_report.py's figures)
    kaleido.start_sync_server(silence_warnings=True)
    try:
        png, svg = export.figure_to_bytes(fig, "png", scale=1), export.figure_to_bytes(fig, "svg")
    finally:
        kaleido.stop_sync_server(silence_warnings=True)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # IHDR width/height (big-endian) follow the 8-byte signature and 8-byte chunk header
    assert int.from_bytes(png[16:20], "big") == 300
    assert int.from_bytes(png[20:24], "big") == 200
    assert svg.lstrip().startswith(b"<svg") and b"</svg>" in svg


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
