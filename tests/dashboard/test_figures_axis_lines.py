"""``style.add_axis_lines`` draws what plotly's ``add_vline`` / ``add_hline`` draw: the same
shapes (and, for the QE curve, the same label) in every builder that uses it, as JSON."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from dashboard.figures import human, meta_eval, mt_systems, qe, style
from stats.human.gold import annotator_summary
from stats.mt.randomized import RANDOMIZED_TESTS
from stats.mt.sufficient import extract_statistics
from stats.qe.graham import evaluate_qe, rescaling_curve
from stats.readers import read_qe
from tests._data import SINGLE, mt_sample_text
from tests.dashboard import test_figures_human

QE = Path(__file__).resolve().parents[2] / "sample_data" / "qe"


def plotly_lines(fig: go.Figure, lines) -> go.Figure:
    """What ``add_axis_lines`` stands for: plotly's own call per line."""
    for item in lines:
        spec = dict(item)
        if "x" in spec:
            fig.add_vline(x=spec.pop("x"), **spec)
        else:
            fig.add_hline(y=spec.pop("y"), **spec)
    return fig


def _panels() -> go.Figure:
    fig = make_subplots(rows=2, cols=3, subplot_titles=list("abcdef"), shared_yaxes=True)
    for row, col in ((1, 1), (1, 2), (2, 1), (2, 3)):  # (1, 3) and (2, 2) stay empty
        fig.add_trace(go.Bar(x=[1, 2], y=[3, 4]), row=row, col=col)
    fig.add_shape(type="rect", x0=0, x1=1, y0=0, y1=1, xref="x5", yref="y5")  # (2, 2) not empty
    return fig


LINES = [
    {
        "x": 1.5,
        "line": {"color": "red", "dash": "dot", "width": 2},
        "name": "a",
        "row": 1,
        "col": 2,
    },
    {"y": 0.5, "line": {"color": "#777777"}, "row": 2, "col": 1},
    {"x": -1.0, "row": 1, "col": 3},  # an empty subplot: no line
    {"x": 2.0, "row": 2, "col": 2},  # a subplot with only a shape on its axes
    {"y": 3, "line": {"width": 1}, "row": 2, "col": 3},
    {"x": 0, "row": 1, "col": 1},
]


def test_lines_across_subplots_are_plotlys():
    fast, slow = style.add_axis_lines(_panels(), LINES), plotly_lines(_panels(), LINES)
    assert fast.to_json() == slow.to_json()
    assert len(fast.layout.shapes) == 1 + 5


@pytest.mark.parametrize("line", [{"x": 50, "line": {"dash": "dash"}}, {"y": 0.25, "name": "h"}])
def test_a_line_across_one_plot_is_plotlys(line):
    def one():
        return go.Figure(go.Scatter(x=[1, 2], y=[1, 2]))

    assert style.add_axis_lines(one(), [line]).to_json() == plotly_lines(one(), [line]).to_json()


@pytest.fixture
def slow_lines(monkeypatch):
    """Each builder module's ``add_axis_lines`` replaced by plotly's calls, for one build."""

    def use_plotly():
        for module in (human, meta_eval, mt_systems, qe):
            monkeypatch.setattr(module, "add_axis_lines", plotly_lines)

    return use_plotly


def _pseudo_results():
    refs, hyps = mt_sample_text()
    data = extract_statistics([refs[0][:120]], {k: hyps[k][:120] for k in ("Cirrus", "Delta")})
    return {
        f"{t} {alternative}": SINGLE[t](
            "Cirrus", "Delta", data=data, n_resamples=200, rng=3, alternative=alternative
        )
        for t in RANDOMIZED_TESTS
        for alternative in ("greater", "two-sided")
    }


def _accuracy_table() -> pd.DataFrame:
    return pd.DataFrame(
        {"en-de": [0.9, 0.8], "zh-en": [1.0, 0.6], "all language pairs": [0.95, 0.7]},
        index=pd.Index(["COMET", "BLEU"], name="metric"),
    )


BUILDERS = {
    "mt_pseudo_distributions": lambda: mt_systems.mt_pseudo_distributions(
        _pseudo_results(), cols=3, title="t"
    ),
    "accuracy_intervals": lambda: human.accuracy_intervals(test_figures_human._table()),
    "annotator_spread": lambda: human.annotator_spread(
        annotator_summary(test_figures_human._judgements())
    ),
    "pairwise_accuracy_dots": lambda: meta_eval.pairwise_accuracy_dots(
        _accuracy_table(), title="accuracy"
    ),
}


@pytest.mark.parametrize("name", list(BUILDERS))
def test_builders_draw_plotlys_lines(name, slow_lines):
    fast = BUILDERS[name]()
    assert fast.layout.shapes  # the builder draws lines
    slow_lines()
    assert fast.to_json() == BUILDERS[name]().to_json()


def test_qe_curve_lambda_line_and_label_are_plotlys():
    data = read_qe(QE / "hter_long.txt")
    original = evaluate_qe(data).scores.mae.to_dict()
    curve = rescaling_curve(data, sd_ratios=np.linspace(0.1, 1.5, 8))
    fig = qe.qe_rescale_curve(curve, sd_ratio=0.65, original=original)
    expected = go.Figure(fig)
    expected.layout.shapes = expected.layout.shapes[:-1]
    expected.layout.annotations = expected.layout.annotations[:-1]
    expected.add_vline(
        x=0.65,
        line={"color": "#111111", "width": 1.5, "dash": "dash"},
        annotation_text="λ = 0.65",
        annotation_position="top",
    )
    assert fig.to_dict() == expected.to_dict()  # key order: test_app_figures_same.py
