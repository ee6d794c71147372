"""AppTest: system and metric names built to inject Markdown or HTML are shown as text on every
page: escaped wherever Streamlit renders Markdown (metrics, captions, headings, messages, radio
options, tabs, expanders) and HTML-escaped in every Plotly figure (hover, ticks, legend)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.dashboard.helpers import assert_no_exception

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"
LINK, BOLD, TAG = "[mlink](http://m.test)", "**x**", "<b>x</b>"
HOSTILE = (LINK, BOLD, TAG)


def _renamed(path: Path, renames: dict[str, str]) -> list[tuple[str, bytes, str]]:
    text = path.read_text()
    for old, new in renames.items():
        text = text.replace(old, new)
    return [(path.name, text.encode(), "text/csv")]


def _markdown_texts(at) -> list[tuple[str, str]]:
    """(element, text) of everything Streamlit renders as Markdown."""
    out = []
    for kind in ("markdown", "caption", "subheader", "header", "title", "error", "warning",
                 "info", "success"):
        out += [(kind, str(e.value)) for e in getattr(at, kind)]
    for m in at.metric:
        out += [("metric", str(v)) for v in (m.label, m.value, m.delta) if v]
    for kind in ("tabs", "expander"):
        out += [(kind, str(e.label)) for e in at.get(kind)]
    out += [("radio", str(o)) for r in at.radio for o in r.options]
    return out


def assert_names_are_text(at):
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    raw = [(k, t[:120]) for k, t in _markdown_texts(at) for h in HOSTILE if h in t]
    assert not raw, raw
    charts = at.get("plotly_chart")
    assert charts
    for chart in charts:
        assert "<b>x" not in chart.proto.spec  # plotly would render the tag


@pytest.mark.parametrize(
    "page, key, path, renames",
    [
        (None, "metrics_upload", SAMPLE / "metrics" / "es-en_wide.csv",
         {"BLEU": BOLD, "NIST": LINK, "METEOR": TAG, "online-A": "[s](http://s.test)"}),
        ("views/qe.py", "qe_upload", SAMPLE / "qe" / "hter_wide.csv",
         {"BETA-nn": BOLD, "GAMMA-gp": LINK, "DELTA-rf": TAG}),
        ("views/mt_systems.py", "mt_scores", SAMPLE / "mt" / "segment_scores_wide.csv",
         {"Cirrus": BOLD, "Aurora": LINK, "Harbor": TAG}),
    ],
)
def test_hostile_names_are_plain_text(fresh_run, page, key, path, renames):
    at = fresh_run(page)
    if key == "mt_scores":
        at.radio(key="mt_source").set_value("Segment scores").run()
    at.file_uploader(key=key).set_value(_renamed(path, renames)).run()
    assert_names_are_text(at)
