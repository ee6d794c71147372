"""plotly's property handling as dashboard.figures.style sets it up: the property-path parser
memoized (plotly's own answers, remembered; the same errors for a bad path) and the validator
lookup without its per-call import (the same validators)."""

from __future__ import annotations

import plotly.basedatatypes
import plotly.graph_objects as go
import pytest
from plotly.validator_cache import ValidatorCache

from dashboard.figures import style

PATHS = [
    "",
    "xaxis",
    "xaxis.title.text",
    "xaxis2_title_text",
    "marker_line_width",
    "shapes[0].line.dash",
    "annotations[12]",
    "a__b_",
    "_x",
    "layout.xaxis10.range[1]",
]


def test_the_parser_gives_plotlys_answers_and_remembers_them():
    memoized = plotly.basedatatypes._str_to_dict_path_full
    assert memoized.memoized
    original = memoized.__wrapped__
    for path in PATHS:
        assert memoized(path) == original(path), path
    before = memoized.cache_info().hits
    first = memoized("xaxis.title.text")
    again = memoized("xaxis.title.text")
    assert again == first and memoized.cache_info().hits == before + 2
    again[1].append(99)  # each caller gets its own list of positions
    assert memoized("xaxis.title.text") == first
    style.memoize_property_paths()  # a second call does not wrap it twice
    assert plotly.basedatatypes._str_to_dict_path_full is memoized


def test_a_figure_is_built_as_before_and_a_bad_path_is_refused_alike():
    fig = go.Figure(go.Scatter(x=[1, 2], y=[3, 4]))
    style.base_layout(fig, title="t", height=300)
    fig.update_layout(xaxis_title_text="x", shapes=[{"type": "line", "x0": 0, "x1": 1}])
    fig.update_layout({"shapes[0].line.dash": "dot"})
    assert fig.layout.xaxis.title.text == "x"
    assert fig.layout.shapes[0].line.dash == "dot"
    assert fig.layout.height == 300 and fig.layout.title.text == "t"
    for _ in range(2):  # from the cache as on the first parse
        with pytest.raises(ValueError, match=r"Bad property path:\s+xaxis\.titel\.text\s+\^"):
            fig.update_layout({"xaxis.titel.text": "x"})


def test_validators_are_plotlys_own():
    base = plotly.basedatatypes.BasePlotlyType
    patched = base._get_validator
    fig = go.Figure(go.Bar(x=[1], y=[2]))
    for obj, prop in [(fig.layout, "xaxis"), (fig.data[0], "marker"), (fig.layout.xaxis, "range")]:
        assert obj._get_validator(prop) is ValidatorCache.get_validator(obj._path_str, prop)
    style.memoize_property_paths()
    assert base._get_validator is patched  # set once
    with pytest.raises(ValueError, match="Invalid value of type"):
        fig.update_layout(xaxis_range="not a range")
