"""transport.browser_figure: the JSON a chart sends to the browser, stable under Streamlit's JSON
copy (plain numbers, no template or meta object, a data revision), the same picture."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import pytest
from plotly.subplots import make_subplots

from dashboard import transport
from dashboard.figures import grids, overview, style

NAMES = ["TerrorCat", "Meteor", "BLEU", "TER"]


@pytest.fixture
def pvalues():
    p = np.full((4, 4), np.nan)
    p[0, 1], p[0, 2], p[0, 3] = 0.2866, 0.0255, 1e-60
    p[1, 2], p[1, 3], p[2, 3] = 0.04, 0.0009, 0.5
    return pd.DataFrame(p, index=NAMES, columns=NAMES)


def _typed_arrays(node) -> list:
    """Every plotly typed-array spec ({"dtype", "bdata"}) anywhere in ``node``."""
    if isinstance(node, dict):
        found = [node] if "bdata" in node else []
        return found + [a for v in node.values() for a in _typed_arrays(v)]
    if isinstance(node, list):
        return [a for v in node for a in _typed_arrays(v)]
    return []


def test_numbers_go_as_plain_lists_that_survive_a_json_copy(pvalues):
    fig = grids.significance_grid(pvalues, alpha=0.05, hover={"Δr": pvalues * 2})
    assert _typed_arrays(json.loads(pio.to_json(fig)))  # plotly's own JSON: base64 arrays
    spec = json.loads(pio.to_json(transport.browser_figure(fig), validate=False))
    assert _typed_arrays(spec) == []
    trace = spec["data"][0]
    expected = grids.significance_colour_value(pvalues.to_numpy(), 0.05)
    z = np.array(trace["z"], dtype=float)  # None (JSON null) -> NaN: the untested cells
    np.testing.assert_array_equal(np.isnan(z), np.isnan(expected))
    np.testing.assert_allclose(z, expected, rtol=5e-7)
    custom = np.array(trace["customdata"], dtype=float)
    assert custom.shape == (4, 4, 2)
    np.testing.assert_array_equal(custom[..., 0], grids.round_as_shown(pvalues, ".3g"))
    assert custom[0, 3, 0] == 1e-60  # no float32 underflow to 0
    assert trace["text"][0][1] == "not significant" and trace["text"][0][2] == "significant"
    assert json.loads(json.dumps(spec)) == spec  # nothing a JSON copy changes


def test_rounded_list_keeps_significant_digits_and_nulls_non_finite():
    values = np.array([1.23456789e-60, 0.000123456789, 123456789.0, 0.0, -2.5, np.nan, np.inf])
    out = transport._rounded_list(values)
    # 7 significant digits (as float32 had), each the double nearest the decimal
    assert out == [1.234568e-60, 0.0001234568, 123456800.0, 0.0, -2.5, None, None]
    assert json.dumps(out[1]) == "0.0001234568"  # short JSON numbers
    assert transport._rounded_list(np.array([[1, 2], [3, 4]])) == [[1, 2], [3, 4]]
    assert transport._rounded_list(np.array([True, False])) == [True, False]
    assert transport._rounded_list(np.array([0.1, 0.2], dtype=np.float32)) == [0.1, 0.2]


def test_house_template_is_written_into_the_layout_for_every_axis():
    fig = make_subplots(rows=1, cols=2)
    fig.add_trace(go.Scatter(x=[1, 2], y=[3, 4]), row=1, col=1)
    fig.add_trace(go.Bar(x=["a", "b"], y=[1, 2]), row=1, col=2)
    fig.update_layout(paper_bgcolor="#fafafa", xaxis2={"gridcolor": "#000000"})
    house = style.HOUSE_TEMPLATE.layout
    spec = transport.browser_figure(fig).to_dict()
    layout = spec["layout"]
    assert "template" not in layout
    assert layout["paper_bgcolor"] == "#fafafa"  # set in the figure: kept
    assert layout["plot_bgcolor"] == house.plot_bgcolor
    assert layout["colorway"] == list(house.colorway)
    assert layout["hoverlabel"]["align"] == "left"
    for axis in ("xaxis", "yaxis", "xaxis2", "yaxis2"):
        assert layout[axis]["linecolor"] == house.xaxis.linecolor
        assert layout[axis]["title"]["standoff"] == 12
        assert layout[axis]["domain"] == list(getattr(fig.layout, axis).domain)
    assert layout["xaxis2"]["gridcolor"] == "#000000"  # set in the figure: kept
    assert layout["xaxis"]["gridcolor"] == house.xaxis.gridcolor
    go.Figure(spec)  # plotly validates every property


def test_axes_the_layout_does_not_list_get_the_axis_style_too():
    fig = go.Figure(go.Scatter(x=[1, 2], y=[1, 2]))
    assert "xaxis" not in fig.layout.to_plotly_json()
    layout = transport.browser_figure(fig).to_dict()["layout"]
    assert layout["xaxis"]["gridcolor"] == style.HOUSE_TEMPLATE.layout.xaxis.gridcolor
    assert layout["yaxis"]["gridcolor"] == style.HOUSE_TEMPLATE.layout.yaxis.gridcolor


def test_a_template_with_trace_defaults_is_kept_as_it_is():
    fig = go.Figure(go.Scatter(x=[1], y=[1]), layout={"template": "plotly_white"})
    layout = transport.browser_figure(fig).to_dict()["layout"]
    assert layout["template"]["data"]["scatter"]  # written into nothing, sent with the figure
    assert "xaxis" not in layout


def test_meta_and_width_are_dropped_and_the_data_revision_follows_the_data(pvalues):
    fig = grids.significance_grid(pvalues, alpha=0.05)
    assert fig.layout.meta["alpha"] == 0.05 and fig.layout.width
    layout = transport.browser_figure(fig).to_dict()["layout"]
    assert "meta" not in layout and "width" not in layout
    assert layout["height"] == fig.layout.height
    same = transport.browser_figure(grids.significance_grid(pvalues, alpha=0.05))
    other = transport.browser_figure(grids.significance_grid(pvalues, alpha=0.01))
    assert same.to_dict()["layout"]["datarevision"] == layout["datarevision"]
    assert other.to_dict()["layout"]["datarevision"] != layout["datarevision"]
    names = pvalues.rename(index={"TER": "WER"}, columns={"TER": "WER"})
    renamed = transport.browser_figure(grids.significance_grid(names, alpha=0.05))
    assert renamed.to_dict()["layout"]["datarevision"] != layout["datarevision"]


def test_the_original_figure_is_untouched(pvalues):
    fig = overview.significance_mosaic({"es-en": pvalues, "de-en": pvalues}, alpha=0.05)
    before = pio.to_json(fig)
    transport.browser_figure(fig)
    assert pio.to_json(fig) == before


def test_browser_figure_is_what_plotly_and_streamlit_serialise(pvalues):
    fig = transport.browser_figure(grids.significance_grid(pvalues, alpha=0.05))
    assert isinstance(fig, go.Figure)  # st.plotly_chart takes it as a figure
    sent = json.loads(pio.to_json(fig, validate=False))
    assert sent["layout"] == fig.spec["layout"] and sent["data"][0]["z"] == fig.spec["data"][0]["z"]
    assert fig.to_dict()["data"] is fig.spec["data"]  # not copied again
