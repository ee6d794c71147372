"""Pure export conversions: LaTeX/CSV text, safe names, kaleido PNG/SVG bytes."""

from __future__ import annotations

import asyncio
import io
import os
import re
import subprocess
import sys
import time

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
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


def _svg_without_ids(svg: bytes) -> bytes:
    """An SVG with its element ids (plotly draws them at random for each render: the figure's
    defs and clip paths, each trace's gradients) numbered in order of appearance, so that two
    renders of one figure compare byte for byte."""
    ids = list(dict.fromkeys(re.findall(rb'id="([^"]+)"', svg)))
    assert ids, svg[:200]
    numbered = {name: b"id%d" % k for k, name in enumerate(ids)}
    longest_first = sorted(ids, key=len, reverse=True)
    pattern = re.compile(b"|".join(re.escape(name) for name in longest_first))
    return pattern.sub(lambda m: numbered[m.group(0)], svg)


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(export.DEBIAN_CHROMIUM), reason="no /usr/bin/chromium")
def test_kept_chromium_renders_what_a_one_shot_export_renders(monkeypatch, tmp_path):
    """Exports render in one kept Chromium, and give the bytes plotly's own export (a Chromium
    of its own) gives: the same PNG, the same SVG up to plotly's random ids."""
    monkeypatch.setenv("BROWSER_PATH", export.DEBIAN_CHROMIUM)
    # a trace uid of its own: plotly.js draws one at random otherwise, into class names
    heatmap = go.Heatmap(z=[[1, 2], [3, 4]], uid="heat")
    fig = go.Figure(heatmap, layout={"width": 300, "height": 200})
    png, svg = export.figure_to_bytes(fig, "png", scale=1), export.figure_to_bytes(fig, "svg")
    kept = export._kept
    assert kept is not None and kept.process() is not None
    [svg_of_report] = export.figures_to_svg([fig])
    assert export._kept is kept, "an export opened another Chromium"
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    # IHDR width/height (big-endian) follow the 8-byte signature and 8-byte chunk header
    assert int.from_bytes(png[16:20], "big") == 300
    assert int.from_bytes(png[20:24], "big") == 200
    assert svg.lstrip().startswith(b"<svg") and b"</svg>" in svg
    # plotly's own export, its three renders in one Chromium started for them
    paths = [tmp_path / name for name in ("one.png", "one.svg", "report.svg")]
    pio.write_images([fig] * 3, paths, width=300, height=200, scale=[1, 2, None])
    one_shot_png, one_shot_svg, one_shot_report_svg = (path.read_bytes() for path in paths)
    assert png == one_shot_png
    assert _svg_without_ids(svg) == _svg_without_ids(one_shot_svg)
    # the report's SVGs are plotly's write_images' at plotly's default scale
    assert _svg_without_ids(svg_of_report) == _svg_without_ids(one_shot_report_svg)


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(export.DEBIAN_CHROMIUM), reason="no /usr/bin/chromium")
def test_sessions_exporting_at_once_each_get_their_own_figure(monkeypatch):
    """Exports from several threads (sessions) at once share the kept Chromium: each must
    receive its own figures, never another session's."""
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
def test_a_kept_chromium_that_died_is_replaced(monkeypatch):
    """The kept Chromium killed (only that process: found through the kaleido object, never by
    name, since a test worker may also hold Playwright's Chromium): the next export is still
    right and bounded in time, and the one after it renders in a new kept Chromium."""
    import psutil

    monkeypatch.setenv("BROWSER_PATH", export.DEBIAN_CHROMIUM)
    fig = go.Figure(go.Bar(x=["alive"], y=[1]), layout={"title": "after-the-kill", "width": 300})
    export.figure_to_bytes(fig, "svg")
    wrapper = export._kept.process()
    assert wrapper is not None
    # choreographer's wrapper process starts Chromium as its one child
    [chromium] = psutil.Process(wrapper.pid).children()
    assert "chrom" in chromium.name().lower(), chromium.name()
    chromium.kill()
    psutil.wait_procs([chromium], timeout=10)
    started = time.monotonic()
    svg = export.figure_to_bytes(fig, "svg")
    assert time.monotonic() - started < export.KEPT_OPEN_TIMEOUT + export.KEPT_RENDER_TIMEOUT
    assert b"after-the-kill" in svg
    assert b"after-the-kill" in export.figure_to_bytes(fig, "svg")
    replacement = export._kept.process()
    assert replacement is not None and replacement.pid != wrapper.pid
    assert not psutil.pid_exists(chromium.pid) or chromium.status() == psutil.STATUS_ZOMBIE


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(export.DEBIAN_CHROMIUM), reason="no /usr/bin/chromium")
def test_a_report_whose_kept_chromium_dies_while_it_renders_gets_its_own_figures(monkeypatch):
    """The kept Chromium killed while a report's figures render in it (or just before, or just
    after: each way the report must be right): the export ends in bounded time with every
    figure its own."""
    import threading

    import psutil

    monkeypatch.setenv("BROWSER_PATH", export.DEBIAN_CHROMIUM)
    titles = [f"report-figure-{k}" for k in range(8)]
    figs = [go.Figure(go.Bar(x=[t], y=[1]), layout={"title": t, "width": 300}) for t in titles]
    export.figure_to_bytes(figs[0], "svg")  # the kept Chromium is open
    [chromium] = psutil.Process(export._kept.process().pid).children()
    result: list[list[bytes]] = []
    report = threading.Thread(target=lambda: result.append(export.figures_to_svg(figs)))
    started = time.monotonic()
    report.start()
    time.sleep(0.5)
    chromium.kill()
    report.join(timeout=export.KEPT_OPEN_TIMEOUT + export.KEPT_RENDER_TIMEOUT * len(figs) + 120)
    assert not report.is_alive(), "the report export hangs"
    assert time.monotonic() - started < 240
    [svgs] = result
    assert [[t for t in titles if t.encode() in svg] for svg in svgs] == [[t] for t in titles]


@pytest.fixture
def one_shot_stub(monkeypatch):
    """A machine with a browser, whose one-shot exports return a marker (no Chromium runs)."""
    export.close_kept_browser()
    monkeypatch.setattr(export, "find_browser", lambda: export.DEBIAN_CHROMIUM)
    monkeypatch.setattr(go.Figure, "to_image", lambda self, **kwargs: b"one-shot")
    yield
    export.close_kept_browser()


def test_a_kept_render_out_of_time_falls_back_to_a_one_shot_export(monkeypatch, one_shot_stub):
    """A kept Chromium that never answers: the export waits only its time limit, then renders
    in a Chromium of its own; the hung one is discarded with its thread."""
    hung = []

    async def never(self, renders):
        hung.append(self)
        await asyncio.sleep(3600)

    monkeypatch.setattr(export._KeptBrowser, "_render", never)
    monkeypatch.setattr(export, "KEPT_OPEN_TIMEOUT", 0.0)
    monkeypatch.setattr(export, "KEPT_RENDER_TIMEOUT", 0.2)
    started = time.monotonic()
    assert export.figure_to_bytes(go.Figure(), "svg") == b"one-shot"
    assert time.monotonic() - started < 10
    assert export._kept is None
    [kept] = hung
    assert kept.closed and not kept.thread.is_alive()


def test_a_failing_kept_render_falls_back_and_the_next_export_keeps_a_new_one(
    monkeypatch, one_shot_stub
):
    calls = []

    async def fail_once(self, renders):
        calls.append(self)
        if len(calls) == 1:
            raise RuntimeError("the browser went away")
        return [b"kept"] * len(renders)

    monkeypatch.setattr(export._KeptBrowser, "_render", fail_once)
    assert export.figure_to_bytes(go.Figure(), "svg") == b"one-shot"
    assert export.figures_to_svg([go.Figure(), go.Figure()]) == [b"kept", b"kept"]
    assert calls[0] is not calls[1] and calls[0].closed and export._kept is calls[1]


def test_an_export_whose_kept_loop_is_gone_or_stuck_falls_back(monkeypatch, one_shot_stub):
    """The kept Chromium's event loop gone (its thread ended) or stuck (its thread blocked):
    the export does not wait for ever, and the next one keeps a new Chromium."""

    async def kept(self, renders):
        return [b"kept"] * len(renders)

    monkeypatch.setattr(export._KeptBrowser, "_render", kept)
    monkeypatch.setattr(export, "KEPT_OPEN_TIMEOUT", 0.0)
    monkeypatch.setattr(export, "KEPT_RENDER_TIMEOUT", 0.2)
    monkeypatch.setattr(export, "KEPT_CLOSE_TIMEOUT", 0.2)
    for gone in (True, False):
        assert export.figure_to_bytes(go.Figure(), "svg") == b"kept"
        broken = export._kept
        if gone:
            broken.loop.call_soon_threadsafe(broken.loop.stop)
            broken.thread.join(timeout=5)
            assert broken.loop.is_closed()
        else:
            broken.loop.call_soon_threadsafe(time.sleep, 2.0)
        started = time.monotonic()
        assert export.figure_to_bytes(go.Figure(), "svg") == b"one-shot"
        assert time.monotonic() - started < 1.9
        assert export._kept is None and broken.closed
        broken.thread.join(timeout=5)  # the stuck loop, once free, stops and is closed
        assert not broken.thread.is_alive() and broken.loop.is_closed()


def test_an_export_waits_for_the_kept_chromium_only_its_turn_limit(monkeypatch, one_shot_stub):
    monkeypatch.setattr(export, "KEPT_TURN_TIMEOUT", 0.1)
    with export._kept_turn:  # another session's export holds the kept Chromium
        assert export.figure_to_bytes(go.Figure(), "png") == b"one-shot"


def test_a_forked_child_does_not_use_its_parents_kept_chromium(monkeypatch, one_shot_stub):
    async def kept(self, renders):
        return [b"kept"] * len(renders)

    monkeypatch.setattr(export._KeptBrowser, "_render", kept)
    assert export.figure_to_bytes(go.Figure(), "svg") == b"kept"
    parents = export._kept
    with export._kept_turn:  # held by the parent's thread while it forks
        pid = os.fork()
        if pid == 0:  # the child: a kept Chromium of its own, the parent's turn not waited for
            fresh = export._kept is None and not export._kept_turn.locked()
            os._exit(0 if fresh else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert export._kept is parents


@pytest.mark.browser
@pytest.mark.skipif(not os.path.exists(export.DEBIAN_CHROMIUM), reason="no /usr/bin/chromium")
def test_the_kept_chromium_is_closed_when_the_interpreter_exits():
    import psutil

    script = (
        "import plotly.graph_objects as go\n"
        "from dashboard import export\n"
        "export.figure_to_bytes(go.Figure(), 'svg')\n"
        "print(export._kept.process().pid)\n"
    )
    env = dict(os.environ, BROWSER_PATH=export.DEBIAN_CHROMIUM)
    done = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    wrapper = int(done.stdout.split()[-1])
    assert not psutil.pid_exists(wrapper) or psutil.Process(wrapper).status() == "zombie"


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
