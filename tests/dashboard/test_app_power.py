"""The Power page: pure figure builders (power curves, MDE curve) via fig.data/fig.layout, and
the page under AppTest on the bundled sample scores: its table holds
stats.analyses.power_from_statistics's numbers for the page's settings."""

from __future__ import annotations

import numpy as np

from dashboard.figures.power import mde_curve, power_curves
from stats.analyses import power_from_statistics, score_statistics
from stats.power import paired_power
from tests.dashboard.helpers import assert_no_exception, frame_with

SCORES = "sample_data/mt/segment_scores.tsv"


def _result():
    gen = np.random.default_rng(0)
    base = gen.normal(70, 15, 300)
    return paired_power(base, base + gen.normal(1, 10, 300), effect=[1, 3], n=[200, 50, 100],
                        n_simulations=200, rng=1)


def test_power_curves_figure():
    res = _result()
    fig = power_curves(res, title="t")
    assert len(fig.data) == 3 and [t.name for t in fig.data][:2] == ["effect 1", "effect 3"]
    # the rate at effect 0 (the test's size), dotted, beside the curves
    assert fig.data[2].name == "effect 0 (size; α = 0.05)" and fig.data[2].line.dash == "dot"
    np.testing.assert_allclose(fig.data[2].y, res.size[np.argsort(res.sizes)])
    assert list(fig.data[0].x) == [50, 100, 200]  # sorted by n
    order = np.argsort(res.sizes)
    np.testing.assert_allclose(fig.data[1].y, res.power[1][order])
    np.testing.assert_allclose(fig.data[1].error_y.array, 1.96 * res.mc_error[1][order])
    assert fig.layout.xaxis.type == "log" and fig.layout.shapes[0].y0 == 0.8


def test_mde_curve_figure():
    res = _result()
    fig = mde_curve(res)
    np.testing.assert_allclose(fig.data[0].y, np.asarray(res.mde)[np.argsort(res.sizes)])
    assert np.all(np.diff(fig.data[0].y) < 0)


def test_power_page_on_sample_scores(app_test):
    at = app_test("views/power.py", timeout=180)
    at.session_state["power_simulations"] = 200
    at.run()
    assert_no_exception(at)
    table = frame_with(at, "MDE at 80%")
    data = score_statistics(SCORES, metric="chrF")
    expected = power_from_statistics(
        data, baseline=data.systems[0], system=data.systems[1], effect=[0.5, 1, 2], n=None,
        test="t", n_simulations=200, n_resamples=500, rng=12345,
    ).result
    np.testing.assert_allclose(table["MDE at 80%"].to_numpy(), expected.mde)
    np.testing.assert_allclose(table["power at 1"].to_numpy(), expected.power[1])


def test_power_page_in_presentation_mode_sends_plain_charts(app_test):
    """Presentation mode (the sidebar toggle) redraws the page; every chart goes through
    components.show_figure (transport.browser_figure: plain numbers, a data revision)."""
    import json

    from dashboard.state import PRESENTATION_KEY

    at = app_test("views/power.py", timeout=180)
    at.session_state["power_simulations"] = 100
    at.session_state[PRESENTATION_KEY] = True
    at.run()
    assert_no_exception(at)
    charts = at.get("plotly_chart")
    assert len(charts) == 2
    for chart in charts:
        spec = json.loads(chart.proto.spec)
        assert '"bdata"' not in chart.proto.spec and "datarevision" in spec["layout"]
