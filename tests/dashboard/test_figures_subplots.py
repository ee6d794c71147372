"""``style.subplots`` is ``make_subplots``: the same JSON, grid and grid description, each call
a figure of its own."""

from __future__ import annotations

import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from dashboard.figures import style

GRIDS = [
    {"rows": 1, "cols": 2, "subplot_titles": ["MAE", "RMSE"], "horizontal_spacing": 0.08},
    {"rows": 1, "cols": 3, "shared_yaxes": True, "subplot_titles": ["a", "b", "c"]},
    {"rows": 3, "cols": 1, "subplot_titles": ("x", "y", "z"), "vertical_spacing": 0.18},
    {"rows": 2, "cols": 3, "subplot_titles": list("abcde"), "vertical_spacing": 0.18},
    {"rows": 1, "cols": 2, "specs": [[{"type": "xy"}, {"type": "xy"}]]},  # not hashable
]


def _used(fig: go.Figure, rows: int, cols: int) -> go.Figure:
    fig.add_trace(go.Bar(x=[1, 2], y=[3, 4]), row=rows, col=cols)
    fig.update_xaxes(title={"text": "x"}, row=1, col=1)
    fig.update_layout(height=300)
    return fig


@pytest.mark.parametrize("kwargs", GRIDS)
def test_subplots_are_make_subplots(kwargs):
    rows, cols = kwargs["rows"], kwargs["cols"]
    expected = _used(make_subplots(**kwargs), rows, cols)
    for _ in range(2):  # laid out, then copied
        fig = _used(style.subplots(**kwargs), rows, cols)
        assert fig.to_json() == expected.to_json()
        assert fig._grid_ref == expected._grid_ref and fig._grid_str == expected._grid_str


def test_each_call_is_a_figure_of_its_own():
    kwargs = {"rows": 1, "cols": 2, "subplot_titles": ["p", "q"]}
    first = style.subplots(**kwargs)
    first.update_layout(xaxis={"title": {"text": "changed"}}, annotations=[])
    first._grid_ref[0][0] = None
    second = style.subplots(**kwargs)
    assert second.to_json() == make_subplots(**kwargs).to_json()
    assert second._grid_ref == make_subplots(**kwargs)._grid_ref
