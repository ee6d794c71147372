"""QE figure builders (dashboard/figures/qe.py), through fig.data."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from dashboard.figures import grids, qe, style
from stats.qe.graham import evaluate_qe, rescaling_curve, rescaling_experiment
from stats.readers import read_qe

QE = Path(__file__).resolve().parents[2] / "sample_data" / "qe"


@pytest.fixture(scope="module")
def sample():
    data = read_qe(QE / "hter_long.txt")
    return data, evaluate_qe(data)


def test_rank_change_lines(sample):
    _, ev = sample
    table = ev.to_frame()
    fig = qe.qe_rank_change(table, measures=("pearson", "mae"))
    assert [t.name for t in fig.data] == list(ev.order)
    by_name = {t.name: t for t in fig.data}
    assert list(by_name["CONSERV-mean"].y) == [8, 1]
    assert list(by_name["ALPHA-svr"].y) == [1, 8]
    assert by_name["CONSERV-mean"].meta["changed"] is True
    assert list(by_name["CONSERV-mean"].x) == ["Pearson r", "MAE"]
    assert list(by_name["CONSERV-mean"].text) == ["8. CONSERV-mean", "CONSERV-mean (1)"]
    # a system ranked the same by both measures is grey and thin
    same = table.index[table["rank_pearson"] == table["rank_mae"]]
    for name in same:
        assert by_name[name].meta["changed"] is False
        assert by_name[name].line.color == "#9A9A9A"
    assert fig.layout.yaxis.autorange == "reversed"


def test_rescale_bars_values(sample):
    data, _ = sample
    res = rescaling_experiment(data, sd_ratio=0.5)
    table = res.to_frame()
    fig = qe.qe_rescale_bars(table, sd_ratio=0.5)
    assert len(fig.data) == 4
    np.testing.assert_allclose(fig.data[0].y, table["mae"])
    np.testing.assert_allclose(fig.data[1].y, table["mae_rescaled"])
    np.testing.assert_allclose(fig.data[2].y, table["rmse"])
    np.testing.assert_allclose(fig.data[3].y, table["rmse_rescaled"])
    assert list(fig.data[0].x) == list(table.index)
    assert fig.data[1].name.startswith("shifted to gold mean, 0.5")
    assert fig.data[2].xaxis == "x2"
    # EFFORT-3class predicts on a 1-3 scale: its original bars are off-scale and labelled
    assert fig.layout.meta["off_scale"] == {"mae": ["EFFORT-3class"], "rmse": ["EFFORT-3class"]}
    top = fig.layout.yaxis.range[1]
    assert top < table["mae"]["EFFORT-3class"]
    assert top > table.drop("EFFORT-3class")[["mae", "mae_rescaled"]].to_numpy().max()
    labels = [a.text for a in fig.layout.annotations if "↑" in a.text]
    expected = [f"{table[m]['EFFORT-3class']:.3g} ↑" for m in ("mae", "rmse")]
    assert labels == expected
    # without such a system the axes are not cut
    plain = qe.qe_rescale_bars(table.drop("EFFORT-3class"), sd_ratio=0.5)
    assert plain.layout.meta["off_scale"] == {} and plain.layout.yaxis.range is None


def test_rescale_curve(sample):
    data, ev = sample
    curve = rescaling_curve(data, sd_ratios=[0.25, 0.5, 1.0])
    fig = qe.qe_rescale_curve(curve, sd_ratio=0.5, original=ev.scores.mae.to_dict())
    lines = [t for t in fig.data if t.mode == "lines"]
    assert [t.name for t in lines] == list(data.systems)
    # the current lambda is marked on every line, in the lines' colours
    (marks,) = [t for t in fig.data if t.mode == "markers"]
    np.testing.assert_allclose(marks.x, [0.5] * len(lines))
    at_half = curve[curve["sd_ratio"] == 0.5].set_index("system")["mae"]
    np.testing.assert_allclose(marks.y, at_half[list(data.systems)])
    assert list(marks.marker.color) == [t.line.color for t in lines]
    # between grid points the mark is read off the line
    between = qe.qe_rescale_curve(curve, sd_ratio=0.75)
    (marks,) = [t for t in between.data if t.mode == "markers"]
    part = curve[curve["system"] == data.systems[0]].set_index("sd_ratio")["mae"]
    assert marks.y[0] == pytest.approx((part[0.5] + part[1.0]) / 2)
    part = curve[curve["system"] == "baseline"]
    trace = next(t for t in fig.data if t.name == "baseline")
    np.testing.assert_allclose(trace.x, [0.25, 0.5, 1.0])
    np.testing.assert_allclose(trace.y, part["mae"])
    xs = [s.x0 for s in fig.layout.shapes if s.x0 == s.x1]
    assert 0.5 in xs  # vertical line at lambda
    ys = [s.y0 for s in fig.layout.shapes if s.y0 == s.y1]
    assert any(np.isclose(y, ev.scores.mae["baseline"]) for y in ys)
    # one dotted line across the plot per system at its original value, in its line's colour
    across = [s for s in fig.layout.shapes if s.xref == "x domain"]
    finite = [t for t in lines if np.isfinite(ev.scores.mae[t.name])]
    assert [(s.x0, s.x1, s.yref, s.y0, s.y1) for s in across] == [
        (0, 1, "y", ev.scores.mae[t.name], ev.scores.mae[t.name]) for t in finite
    ]
    assert [(s.line.color, s.line.dash, s.line.width) for s in across] == [
        (t.line.color, "dot", 1) for t in finite
    ]
    # the y axis follows the curves, not EFFORT-3class's original MAE on its 1-3 scale
    top = fig.layout.yaxis.range[1]
    assert curve["mae"].max() < top < ev.scores.mae["EFFORT-3class"]


def test_distributions_discrete_as_bars_continuous_as_histogram():
    gold = pd.Series([1.0, 2, 2, 3, 1, 2, 3, 3, 2, 2] * 2)
    preds = pd.DataFrame(
        {
            "disc": [1.0, 1, 2, 3, 2, 2, 3, 2, 2, 1] * 2,
            "cont": np.linspace(1.2, 2.8, 20),
        }
    )
    fig = qe.qe_distributions(gold, preds, ["disc", "cont"], mae={"disc": 0.5}, bins=4)
    assert [t.name for t in fig.data] == ["gold", "disc", "cont"]
    g, d, c = fig.data
    assert g.meta["discrete"] and list(g.x) == [1, 2, 3] and list(g.y) == [4, 10, 6]
    assert d.meta["discrete"] and list(d.y) == [6, 10, 4]
    assert not c.meta["discrete"]
    counts, edges = np.histogram(preds["cont"], bins=4)
    np.testing.assert_array_equal(c.y, counts)
    np.testing.assert_allclose(c.x, (edges[:-1] + edges[1:]) / 2)
    titles = [a.text for a in fig.layout.annotations]
    assert "MAE = 0.5000" in titles[1]


def test_standardised_scatter(sample):
    data, ev = sample
    fig = qe.qe_standardised_scatter(
        data.gold,
        data.predictions,
        ["ALPHA-svr", "CONSERV-mean"],
        pearson=ev.scores.statistic.to_dict(),
        mae=ev.scores.mae.to_dict(),
    )
    pts = [t for t in fig.data if t.mode == "markers"]
    assert [t.name for t in pts] == ["ALPHA-svr", "CONSERV-mean"]
    g = data.gold.to_numpy()
    p = data.predictions["CONSERV-mean"].to_numpy()
    np.testing.assert_allclose(pts[1].x, (g - g.mean()) / g.std(ddof=1))
    np.testing.assert_allclose(pts[1].y, (p - p.mean()) / p.std(ddof=1))
    # standardised, the conservative system's spread equals the gold spread
    assert np.std(pts[1].y, ddof=1) == pytest.approx(1.0)
    assert "r = 0.496" in fig.layout.annotations[1].text
    raw = qe.qe_standardised_scatter(
        data.gold, data.predictions, ["CONSERV-mean"], pearson={}, mae={}, standardise=False
    )
    np.testing.assert_allclose(raw.data[0].y, p)
    with pytest.raises(ValueError, match="no system selected"):
        qe.qe_standardised_scatter(data.gold, data.predictions, ["nope"], pearson={}, mae={})


def test_williams_grid_uses_shared_builder(sample):
    _, ev = sample
    fig = qe.qe_williams_grid(ev.williams, alpha=0.05)
    (trace,) = fig.data
    assert trace.name == "significance"
    p = ev.pvalue.to_numpy()
    np.testing.assert_array_equal(trace.customdata[..., 0], grids.round_as_shown(p, ".3g"))
    expected = grids.significance_colour_value(p, 0.05)
    np.testing.assert_allclose(trace.z, expected, rtol=1e-6)
    assert list(trace.x) == list(ev.order)
    assert "gold labels" in trace.hovertemplate
    # hover layers: p, delta r, CI low, CI high, r(predictions)
    assert trace.customdata.shape == (10, 10, 5)
    np.testing.assert_allclose(  # shown to 3 decimals
        trace.customdata[..., 4], ev.williams.metric_corr.to_numpy(), atol=5e-4
    )


def test_prediction_heatmap_uses_shared_builder(sample):
    _, ev = sample
    fig = grids.correlation_heatmap(ev.prediction_corr)
    np.testing.assert_allclose(fig.data[0].z, ev.prediction_corr.to_numpy())
    assert list(fig.data[0].y) == list(ev.order)


def test_rank_change_margins_hold_the_labels(sample):
    _, ev = sample
    fig = qe.qe_rank_change(ev.to_frame(), measures=("pearson", "mae"), title="Ranks")
    longest = max(len(s) for t in fig.data for s in t.text)
    label_px = style._GLYPH_WIDTH * style.BASE_FONT_SIZE * longest
    assert fig.layout.margin.l >= label_px and fig.layout.margin.r >= label_px
    # the measure names sit on top: the top margin holds the title and them
    assert fig.layout.xaxis.side == "top" and fig.layout.margin.t >= 80
    # short horizontal headers (long ones turn vertical in a narrow column and hit the title)
    assert list(fig.layout.xaxis.ticktext) == ["r", "MAE"] and fig.layout.xaxis.tickangle == 0


def test_rescale_bars_legend_between_title_and_panels(sample):
    data, _ = sample
    table = rescaling_experiment(data, sd_ratio=0.5).to_frame()
    fig = qe.qe_rescale_bars(table, sd_ratio=0.5, title="MAE and RMSE")
    lay = fig.layout
    # title band at the very top, legend below it, panel titles below the legend
    assert lay.title.yref == "container" and lay.title.y == 1
    assert lay.legend.yref == "container" and lay.legend.orientation == "h"
    legend_top_px = (1 - lay.legend.y) * lay.height
    assert legend_top_px >= 40  # below a one-line title
    assert legend_top_px + 30 <= lay.margin.t - 20  # above the panel titles


def test_distributions_share_the_x_axis_and_bins(sample):
    """G report item 12: gold and predictions on one scale, so a conservative system (small
    spread) looks narrow next to the gold labels."""
    data, _ = sample
    fig = qe.qe_distributions(data.gold, data.predictions, ["ALPHA-svr", "CONSERV-mean"])
    gold, alpha, conserv = fig.data
    assert fig.layout.xaxis2.matches == "x" and fig.layout.xaxis3.matches == "x"
    # the same bin width for every continuous panel, edges on one grid
    widths = {round(float(t.width), 12) for t in fig.data}
    assert len(widths) == 1
    w = widths.pop()
    steps = (np.asarray(conserv.x) - np.asarray(gold.x)[0]) / w
    np.testing.assert_allclose(steps, np.round(steps), atol=1e-6)
    # the conservative system occupies far fewer bins than the gold labels
    assert np.count_nonzero(conserv.y) < 0.6 * np.count_nonzero(gold.y)
    titles = [a.text for a in fig.layout.annotations]
    sd = data.predictions["CONSERV-mean"].std(ddof=1)
    assert f"SD = {sd:.3f}" in titles[2]


#: WMT QE submissions whose shortened labels collided ("yzyalbert-I…semble" twice)
COLLIDING = [
    "yzyalbert-IOL/score_ensemble",
    "yzyalbert-IOL/multilingual/score_ensemble",
    "HW-TSC/multilingual_model_a",
    "HW-TSC/multilingual_model_b",
]


def test_colliding_names_get_distinct_labels_and_all_are_listed():
    labels = style.short_labels(COLLIDING)
    assert len(set(labels)) == len(COLLIDING), labels
    assert all(len(x) < len(n) for x, n in zip(labels, COLLIDING, strict=True))
    # rank lines: every line's end labels distinct, and the legend of abbreviations names all
    ranks = pd.DataFrame(
        {"rank_pearson": [1, 2, 3, 4], "rank_mae": [4, 3, 2, 1]}, index=COLLIDING
    )
    fig = qe.qe_rank_change(ranks, measures=("pearson", "mae"))
    ends = [t.text[-1].rsplit(" (", 1)[0] for t in fig.data]
    assert len(set(ends)) == 4, ends
    assert sorted(style.shortened_names(fig).values()) == sorted(COLLIDING)
    # histograms: one panel title per system, none alike
    gold = pd.Series(np.linspace(0, 1, 12))
    preds = pd.DataFrame({n: np.linspace(0, 1, 12) + k for k, n in enumerate(COLLIDING)})
    long = [n + "/" + "x" * 20 for n in COLLIDING]
    preds.columns = long
    dist = qe.qe_distributions(gold, preds, long)
    titles = [a.text.split("</b>")[0] for a in dist.layout.annotations[1:]]
    assert len(set(titles)) == 4, titles
