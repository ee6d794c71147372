"""Figure builders of dashboard/figures/ (style, grids, presentation, metrics), tested through
fig.data / fig.layout arrays.

Shared builders (heatmap, significance grid, side-by-side panels, presentation mode) first,
then the Metrics-vs-humans builders.
"""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
import pytest

from dashboard.figures import grids, overview, presentation, style
from dashboard.figures import metrics as metrics_figures

NAMES = ["TerrorCat", "Meteor", "BLEU", "TER"]


@pytest.fixture
def pvalues():
    # upper triangle filled: row (higher r) beats column; mirror and diagonal NaN
    p = np.full((4, 4), np.nan)
    p[0, 1], p[0, 2], p[0, 3] = 0.2866, 0.0255, 0.00002
    p[1, 2], p[1, 3], p[2, 3] = 0.04, 0.0009, 0.5
    return pd.DataFrame(p, index=NAMES, columns=NAMES)


@pytest.fixture
def corr():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(30, 4))
    x[:, 1] += x[:, 0]
    return pd.DataFrame(np.corrcoef(x.T), index=NAMES, columns=NAMES)


# ---- correlation_heatmap ----


def test_correlation_heatmap_values_order_and_text(corr):
    fig = grids.correlation_heatmap(corr, title="Metric-metric r")
    (trace,) = fig.data
    assert trace.type == "heatmap"
    np.testing.assert_array_equal(np.asarray(trace.z), corr.to_numpy())
    assert list(trace.x) == NAMES and list(trace.y) == NAMES
    # values printed in the cells, journal style (no leading zero, "1" on the diagonal)
    assert trace.texttemplate == "%{text}"
    expected = [[f"{v:.2f}" for v in row] for row in corr.to_numpy()]
    expected = [
        ["1" if s == "1.00" else s.replace("-0.", "−.").replace("0.", ".") for s in row]
        for row in expected
    ]
    assert np.asarray(trace.text).tolist() == expected
    assert "%{z:.2f}" in trace.hovertemplate  # hover keeps the full value
    assert trace.coloraxis == "coloraxis"
    ca = fig.layout.coloraxis
    assert (ca.cmin, ca.cmax, ca.cmid) == (-1.0, 1.0, 0.0)
    assert fig.layout.yaxis.autorange == "reversed"  # first row at the top
    assert list(fig.layout.xaxis.categoryarray) == NAMES
    assert fig.layout.title.text == "Metric-metric r"


def test_correlation_heatmap_without_values(corr):
    fig = grids.correlation_heatmap(corr, show_values=False, value_format=".3f")
    assert fig.data[0].texttemplate is None
    assert "%{z:.3f}" in fig.data[0].hovertemplate


# ---- significance_grid ----


def test_significance_grid_is_one_trace_grey_below_alpha_blank_untested(pvalues):
    fig = grids.significance_grid(pvalues, alpha=0.05)
    (trace,) = fig.data
    assert (trace.type, trace.name, trace.coloraxis) == ("heatmap", "significance", "coloraxis")
    p = pvalues.to_numpy()
    z = np.asarray(trace.z, dtype=float)
    sig, tested = p < 0.05, ~np.isnan(p)
    assert np.all(z[sig] >= 0)  # greens: 0 .. SIGNIFICANCE_DECADES
    assert np.all(z[tested & ~sig] == style.NOT_SIGNIFICANT_Z)  # p = 0.2866, 0.5: grey band
    assert z[0, 1] == style.NOT_SIGNIFICANT_Z and z[2, 3] == style.NOT_SIGNIFICANT_Z
    assert np.all(np.isnan(z[~tested]))  # mirror half and diagonal: blank
    # the colour axis is grey from NOT_SIGNIFICANT_Z up to 0, green above
    ca = fig.layout.coloraxis
    assert (ca.cmin, ca.cmax) == (style.NOT_SIGNIFICANT_Z, style.SIGNIFICANCE_DECADES)
    scale = [tuple(stop) for stop in ca.colorscale]
    stop = -style.NOT_SIGNIFICANT_Z / (style.SIGNIFICANCE_DECADES - style.NOT_SIGNIFICANT_Z)
    assert scale[0] == (0.0, style.NOT_SIGNIFICANT) and scale[1] == (
        stop,
        style.NOT_SIGNIFICANT,
    )
    assert scale[2] == (stop, style.SIGNIFICANCE_COLORSCALE[0][1])
    assert scale[-1] == (1.0, style.SIGNIFICANCE_COLORSCALE[-1][1])
    # hover names the verdict per cell
    assert trace.text[0][1] == "not significant" and trace.text[0][2] == "significant"
    assert trace.text[1][0] == ""
    assert "%{text} at α = 0.05" in trace.hovertemplate


def test_significance_grid_darker_for_smaller_p(pvalues):
    fig = grids.significance_grid(pvalues, alpha=0.05)
    z = np.asarray(fig.data[0].z, dtype=float)
    # decades below alpha, log10(alpha / p) to 3 decimals, clipped at 3: 0.0255 < 0.04 kept
    assert z[0, 2] == pytest.approx(math.log10(0.05 / 0.0255), abs=5e-4)
    assert z[1, 2] == pytest.approx(math.log10(0.05 / 0.04), abs=5e-4)
    assert z[0, 2] > z[1, 2]
    assert z[0, 3] == pytest.approx(style.SIGNIFICANCE_DECADES)  # 2e-5 clipped to 5e-5
    ticks = list(fig.layout.coloraxis.colorbar.ticktext)
    assert ticks[:2] == ["≥ 0.05 (n.s.)", "0.05 (α)"] and ticks[-1] == "5e-05"
    vals = list(fig.layout.coloraxis.colorbar.tickvals)
    assert vals == [style.NOT_SIGNIFICANT_Z / 2, 0, 1, 2, 3]


def test_significance_grid_alpha_changes_colouring(pvalues):
    fig = grids.significance_grid(pvalues, alpha=0.01)
    z = np.asarray(fig.data[0].z, dtype=float)
    assert (z >= 0).sum() == 2  # only 2e-5 and 0.0009
    assert z[0, 3] >= 0 and z[1, 3] >= 0
    assert (z == style.NOT_SIGNIFICANT_Z).sum() == 4
    assert fig.layout.meta["alpha"] == 0.01
    assert list(fig.layout.coloraxis.colorbar.ticktext)[1] == "0.01 (α)"


def test_significance_grid_hover_carries_p_and_extra_matrices(pvalues):
    diff = pvalues * 0 + 0.1
    lo = pvalues * 0 - 0.05
    fig = grids.significance_grid(
        pvalues,
        alpha=0.05,
        hover={"Δr": diff, "95% CI low": (lo, ".4f")},
        verb="correlates higher than",
    )
    (trace,) = fig.data
    cd = np.asarray(trace.customdata)
    assert cd.shape == (4, 4, 3)
    # each layer rounded to what its format prints: p .3g, Δr .3f, CI .4f
    np.testing.assert_array_equal(cd[..., 0], grids.round_as_shown(pvalues, ".3g"))
    assert cd[0, 1, 1] == 0.1 and cd[0, 1, 2] == -0.05
    assert "Δr = %{customdata[1]:.3f}" in trace.hovertemplate
    assert "95% CI low = %{customdata[2]:.4f}" in trace.hovertemplate
    assert "correlates higher than" in trace.hovertemplate
    assert "p = %{customdata[0]" in trace.hovertemplate


def test_significance_grid_keeps_tiny_p_values():
    # p far below float32's range (as plotly's base64 arrays once were) is not shown as 0
    p = pd.DataFrame([[np.nan, 1e-60], [np.nan, np.nan]], index=["a", "b"], columns=["a", "b"])
    cd = np.asarray(grids.significance_grid(p).data[0].customdata)
    assert cd.dtype == np.float64 and cd[0, 1, 0] == 1e-60


def test_round_as_shown_rounds_to_what_the_format_prints():
    v = np.array([0.0123456, 1.23456e-60, 0.5, np.nan, -0.98765])
    sig = grids.round_as_shown(v, ".3g")
    assert sig[:3].tolist() == [0.0123, 1.23e-60, 0.5] and np.isnan(sig[3]) and sig[4] == -0.988
    fixed = grids.round_as_shown(v, ".3f")
    assert fixed[[0, 2, 4]].tolist() == [0.012, 0.5, -0.988]
    # the label printed from the rounded value is the label printed from the raw one
    for raw, shown in zip(v[[0, 1, 2, 4]], sig[[0, 1, 2, 4]], strict=True):
        assert f"{raw:.3g}" == f"{shown:.3g}"
    np.testing.assert_array_equal(grids.round_as_shown(v[:3], ",.0%"), v[:3])  # unknown: as is


def test_significance_grid_no_verdict_text_in_light_mode(pvalues):
    (trace,) = grids.significance_grid(pvalues, alpha=0.05, verdict=False).data
    assert trace.text is None
    assert "(α = 0.05)" in trace.hovertemplate and "%{text}" not in trace.hovertemplate


def test_significance_figures_are_valid_plotly(pvalues, corr):
    # significance_grid and grids_side_by_side skip plotly's validation for speed: validate
    # what they build here (go.Figure(dict) raises on any unknown or ill-typed property)
    grid = grids.significance_grid(pvalues, alpha=0.05, hover={"Δr": pvalues * 0})
    sbs = overview.grids_side_by_side({"a": grid, "b": grid}, title="t")
    mosaic = overview.significance_mosaic({"a": pvalues, "b": pvalues.iloc[:3, :3]}, title="t")
    for fig in (grid, sbs, mosaic):
        checked = go.Figure(fig.to_dict())  # validates every property (raises if invalid)
        assert json.loads(pio.to_json(checked, validate=False)) == json.loads(pio.to_json(fig))


def _assert_margin_holds_the_colour_bar(fig):
    """The right margin holds the colour bar, its padding and its longest tick label (as
    plotly.js draws them at the base font), with no more than a label's slack to spare."""
    bar = fig.layout.coloraxis.colorbar
    labels = list(bar.ticktext) if bar.ticktext is not None else ["−0.5"]  # r from −1 to 1
    needed = (bar.thickness or 30) + 2 * (bar.xpad or 10) + style._label_px(labels, 13)
    assert needed <= fig.layout.margin.r <= needed + 60


def test_colour_bars_fit_their_margin_so_plotly_does_not_lay_out_twice(pvalues, corr):
    # plotly.js pushes a margin too narrow for the colour bar out and redraws the whole chart
    # (checked in a browser: _fullLayout._size.r == margin.r for these, see the browser tests)
    grid = grids.significance_grid(pvalues, alpha=0.001)
    heat = grids.correlation_heatmap(corr, title="t")
    sbs = overview.grids_side_by_side({"a": grid, "b": grid})
    mosaic = overview.significance_mosaic({"a": pvalues})
    for fig in (grid, heat, sbs, mosaic):
        _assert_margin_holds_the_colour_bar(fig)
    for fig in (grid, heat):  # the margins are set: no automargin pass for the labels either
        assert fig.layout.xaxis.automargin is False and fig.layout.yaxis.automargin is False


def test_significance_grid_rejects_bad_alpha(pvalues):
    with pytest.raises(ValueError, match="alpha"):
        grids.significance_grid(pvalues, alpha=1.5)


# ---- grids_side_by_side ----


def test_grids_side_by_side_panels_and_shared_colour_axis(pvalues):
    small = pvalues.iloc[:3, :3]
    panels = {
        "de-en": grids.significance_grid(pvalues, alpha=0.05),
        "fr-en": grids.significance_grid(small, alpha=0.05),
        "cs-en": grids.significance_grid(pvalues, alpha=0.05),
    }
    fig = overview.grids_side_by_side(panels, cols=2, title="All LPs")
    assert len(fig.data) == 3
    assert [a.text for a in fig.layout.annotations] == ["de-en", "fr-en", "cs-en"]
    assert [t.xaxis for t in fig.data] == ["x", "x2", "x3"]
    assert list(fig.layout.xaxis2.categoryarray) == NAMES[:3]
    assert fig.layout.yaxis3.autorange == "reversed"
    assert fig.layout.coloraxis.cmin == style.NOT_SIGNIFICANT_Z
    assert list(fig.layout.coloraxis.colorbar.ticktext)[1] == "0.05 (α)"
    # each panel's cell area keeps panel_height px; gaps and margins come on top
    m = fig.layout.margin
    plot_h = fig.layout.height - m.t - m.b
    y = fig.layout.yaxis.domain
    assert (y[1] - y[0]) * plot_h == pytest.approx(380, abs=1)
    assert fig.layout.height > 2 * 380 + 80


def test_grids_side_by_side_rejects_empty():
    with pytest.raises(ValueError, match="empty"):
        overview.grids_side_by_side({})


# ---- significance_mosaic ----


def test_significance_mosaic_blocks_on_one_axis_pair(pvalues):
    small = pvalues.iloc[:3, :3]
    p = {"de-en": pvalues, "fr-en": small, "cs-en": pvalues, "x<b>y</b>": small}
    fig = overview.significance_mosaic(p, alpha=0.01, cols=3, title="All LPs", verb="beats")
    assert [t.name for t in fig.data] == list(p)
    assert {t.xaxis for t in fig.data} <= {None, "x"}  # one axis pair, no subplots
    assert not [k for k in fig.layout.to_plotly_json() if k.startswith(("xaxis", "yaxis"))][2:]
    assert fig.layout.xaxis.visible is False and fig.layout.yaxis.visible is False
    # blocks laid out row-major, 3 per row, a gap of max(2, 12% of the side) between them
    side, gap = 4, 2
    blocks = fig.layout.meta["blocks"]
    assert blocks == {"de-en": [0, 0], "fr-en": [0, side + gap], "cs-en": [0, 2 * (side + gap)],
                      "x<b>y</b>": [side + gap, 0]}  # fmt: skip
    for trace, (name, frame) in zip(fig.data, p.items(), strict=True):
        r0, c0 = blocks[name]
        assert (trace.x0, trace.y0, trace.dx, trace.dy) == (c0, r0, 1, 1)
        values = frame.to_numpy()
        np.testing.assert_array_equal(
            np.asarray(trace.z, dtype=float),
            grids.significance_colour_value(values, 0.01),
        )
        np.testing.assert_array_equal(  # p as its label prints it (.3g)
            np.asarray(trace.customdata, dtype=float), grids.round_as_shown(values, ".3g")
        )
        # hover names: row in text, column in hovertext, only where tested
        text, hovertext = np.asarray(trace.text), np.asarray(trace.hovertext)
        assert text[0, 1] == style.escape_html(frame.index[0])
        assert hovertext[0, 1] == style.escape_html(frame.columns[1])
        assert text[1, 0] == "" and hovertext[1, 0] == ""
        assert trace.coloraxis == "coloraxis" and "(α = 0.01)" in trace.hovertemplate
        assert "beats" in trace.hovertemplate
    assert fig.data[3].hovertemplate.startswith("x&lt;b&gt;y&lt;/b&gt;: ")
    titles = [a.text for a in fig.layout.annotations]
    assert titles[:4] == ["de-en", "fr-en", "cs-en", "x&lt;b&gt;y&lt;/b&gt;"]
    assert titles[4].startswith("column:") and titles[5] == "row: beats the column?"  # axes
    assert fig.layout.coloraxis.to_plotly_json() == grids.significance_coloraxis(0.01)
    assert fig.layout.meta["alpha"] == 0.01
    with pytest.raises(ValueError, match="empty"):
        overview.significance_mosaic({})


# ---- presentation mode ----


def test_apply_presentation_scales_fonts_without_touching_input(corr):
    fig = grids.correlation_heatmap(corr, title="t")
    assert presentation.apply_presentation(fig, False) is fig
    big = presentation.apply_presentation(fig, True)
    assert big is not fig
    assert big.layout.font.size == style.PRESENTATION_FONT_SIZE
    assert fig.layout.font.size == style.BASE_FONT_SIZE
    assert big.layout.xaxis.tickfont.size > fig.layout.xaxis.tickfont.size
    assert big.data[0].textfont.size > fig.data[0].textfont.size
    assert big.layout.height > fig.layout.height
    # a square matrix keeps its colour bar beside it in a presentation export
    assert big.layout.width / big.layout.height == pytest.approx(
        fig.layout.width / fig.layout.height, rel=0.01
    )
    assert big.layout.margin.l > fig.layout.margin.l


def test_apply_presentation_scales_subplot_titles(pvalues):
    fig = overview.grids_side_by_side({"a": grids.significance_grid(pvalues)})
    big = presentation.apply_presentation(fig, True)
    assert big.layout.annotations[0].font.size > (fig.layout.annotations[0].font.size or 13)


def test_format_helpers():
    assert style.format_pvalue(float("nan")) == "–"
    assert style.format_pvalue(0.00001) == "< 0.0001"
    assert style.format_pvalue(0.01234) == "0.0123"
    assert style.format_number(0.12345) == "0.123"
    assert isinstance(style.base_layout(go.Figure(), title="x"), go.Figure)


# ---- Metrics vs humans builders ----


@pytest.fixture
def system_scores():
    """6 systems, one very weak (sys6) that inflates Pearson r of BLEU (paper's Figure 1)."""
    systems = [f"sys{i}" for i in range(1, 7)]
    human = pd.Series([0.70, 0.68, 0.66, 0.65, 0.63, 0.20], index=systems, name="HUMAN")
    metrics = pd.DataFrame(
        {
            "BLEU": [30.0, 31.0, 29.5, 30.5, 29.0, 15.0],
            "TER": [0.50, 0.51, 0.53, 0.52, 0.55, 0.80],
        },
        index=systems,
    )
    return human, metrics


def test_metric_scatter_panels_titles_hover_and_influential(system_scores):
    human, metrics = system_scores
    fig = metrics_figures.metric_scatter(
        human,
        metrics,
        ["BLEU", "TER"],
        pearson={"BLEU": 0.9876, "TER": -0.9512},
        spearman={"BLEU": 0.6, "TER": -0.8286},
        most_influential={"BLEU": "sys6", "TER": "sys6"},
        r_without={"BLEU": 0.1234, "TER": -0.5},
    )
    assert [t.name for t in fig.data] == ["systems", "most influential system"] * 2
    pts = fig.data[0]
    np.testing.assert_allclose(pts.x, human.to_numpy())  # x = human
    np.testing.assert_allclose(pts.y, metrics["BLEU"].to_numpy())  # y = metric
    assert list(pts.text) == list(human.index)  # system names on hover
    assert "%{text}" in pts.hovertemplate
    ring = fig.data[1]
    assert list(ring.text) == ["sys6"] and ring.x[0] == 0.20 and ring.y[0] == 15.0
    assert ring.marker.line.color == style.HIGHLIGHT
    titles = [a.text for a in fig.layout.annotations]
    assert "r = 0.988" in titles[0] and "ρ = 0.600" in titles[0]
    assert "without sys6: r = 0.123" in titles[0]
    assert "r = -0.951" in titles[1] and "ρ = -0.829" in titles[1]
    assert fig.data[2].xaxis == "x2"
    assert fig.layout.xaxis.title.text == "Human score" and fig.layout.yaxis.title.text == "BLEU"


def test_metric_scatter_zscore_axes(system_scores):
    human, metrics = system_scores
    fig = metrics_figures.metric_scatter(
        human, metrics, ["TER"], pearson={}, spearman={}, zscore=True
    )
    (pts,) = fig.data  # no influential system given
    x = np.asarray(pts.x)
    y = np.asarray(pts.y)
    assert x.mean() == pytest.approx(0, abs=1e-12) and x.std(ddof=1) == pytest.approx(1)
    assert y.mean() == pytest.approx(0, abs=1e-12) and y.std(ddof=1) == pytest.approx(1)
    # z-scores are an affine map: the ordering of systems is unchanged
    assert np.argsort(x).tolist() == np.argsort(human.to_numpy()).tolist()
    assert fig.layout.xaxis.title.text == "Human score (z)"
    assert fig.layout.yaxis.title.text == "TER (z)"


def test_metric_scatter_rejects_empty_selection(system_scores):
    human, metrics = system_scores
    with pytest.raises(ValueError, match="no metric"):
        metrics_figures.metric_scatter(human, metrics, ["nope"], pearson={}, spearman={})


@pytest.fixture
def williams_result():
    from stats.metaeval.williams import williams_all_pairs

    rng = np.random.default_rng(7)
    human = rng.normal(size=15)
    scores = pd.DataFrame(
        {
            "good": human + rng.normal(scale=0.2, size=15),
            "mid": human + rng.normal(scale=0.6, size=15),
            "TER": -(human + rng.normal(scale=1.0, size=15)),
            "bad": rng.normal(size=15),
        }
    )
    return williams_all_pairs(scores, human)


def test_williams_grid_uses_result_order_and_hover(williams_result):
    w = williams_result
    fig = metrics_figures.williams_grid(w, alpha=0.05, title="grid")
    (trace,) = fig.data
    assert list(trace.y) == list(w.order) and list(trace.x) == list(w.order)
    cd = np.asarray(trace.customdata, dtype=float)
    # as the hover prints them: p to 3 significant digits, Δr and its CI to 3 decimals
    np.testing.assert_array_equal(cd[..., 0], grids.round_as_shown(w.pvalue, ".3g"))
    np.testing.assert_array_equal(cd[..., 1], grids.round_as_shown(w.difference, ".3f"))
    np.testing.assert_array_equal(cd[..., 2], grids.round_as_shown(w.ci_low, ".3f"))
    np.testing.assert_array_equal(cd[..., 3], grids.round_as_shown(w.ci_high, ".3f"))
    tmpl = trace.hovertemplate
    assert "Δr" in tmpl and "95% CI low" in tmpl and "95% CI high" in tmpl
    z = np.asarray(trace.z, dtype=float)
    np.testing.assert_array_equal(z >= 0, w.significant(0.05).to_numpy())
    light = metrics_figures.williams_grid(w, alpha=0.05, hover=False)
    assert np.asarray(light.data[0].customdata).shape == (4, 4, 1)
    assert light.data[0].text is None


def test_correlation_dots_abs_values_sign_symbols_and_baseline():
    table = pd.DataFrame(
        {"pearson": [0.97, -0.95, 0.9]}, index=pd.Index(["A", "TER", "BLEU"], name="metric")
    )
    fig = metrics_figures.correlation_dots(table, kind="pearson", baseline="BLEU")
    (tr,) = fig.data
    np.testing.assert_allclose(tr.x, [0.97, 0.95, 0.9])
    np.testing.assert_allclose(tr.customdata, [0.97, -0.95, 0.9])
    assert list(tr.y) == ["A", "TER", "BLEU"]
    assert list(tr.marker.symbol) == ["circle", "diamond-open", "circle"]
    assert list(tr.marker.color) == [style.PALETTE[0], style.PALETTE[0], style.HIGHLIGHT]
    assert fig.layout.yaxis.autorange == "reversed"


def test_grids_side_by_side_domains_and_spacing(pvalues):
    panels = {k: grids.significance_grid(pvalues) for k in ("a", "b", "c")}
    fig = overview.grids_side_by_side(panels, cols=3)
    x1, x2, x3 = fig.layout.xaxis.domain, fig.layout.xaxis2.domain, fig.layout.xaxis3.domain
    assert x1[0] == 0.0 and x3[1] == pytest.approx(1.0)
    # same rows in every panel: only the first column carries the row names, small gaps
    assert fig.layout.yaxis.showticklabels is True
    assert fig.layout.yaxis2.showticklabels is False and fig.layout.yaxis3.showticklabels is False
    assert 0 < x2[0] - x1[1] < 0.05
    assert fig.layout.yaxis2.anchor == "x2" and fig.layout.xaxis2.anchor == "y2"
    wide = overview.grids_side_by_side(panels, cols=3, horizontal_spacing=0.2)
    assert wide.layout.xaxis2.domain[0] - wide.layout.xaxis.domain[1] == pytest.approx(0.2)
    bare = overview.grids_side_by_side(panels, cols=3, show_tick_labels=False)
    assert bare.layout.xaxis2.domain[0] - bare.layout.xaxis.domain[1] == pytest.approx(0.02)
    assert bare.layout.xaxis.showticklabels is False


# ---- long names (G report item 6) ----

LONG = ["sacreBLEU-13a-exp-v2.0", "BLEURT-20-D12-checkpoint", "Online-W.1234", "en-zh", "chrF"]


def _long_pvalues(order):
    n = len(order)
    p = np.full((n, n), np.nan)
    p[np.triu_indices(n, 1)] = 0.01
    return pd.DataFrame(p, index=order, columns=order)


def test_short_labels_abbreviate_and_escape():
    assert style.short_labels(LONG) == [
        "sacreBLEU-13a-exp…",
        "BLEURT-20-D12-che…",
        "Online-W.1234",
        "en-zh",
        "chrF",
    ]
    assert all(len(s) <= style.MAX_TICK_CHARS for s in style.short_labels(LONG))
    # shared prefixes: the suffix is kept so the labels stay distinct
    twins = style.short_labels(["BLEURT-20-D12-checkpoint-a", "BLEURT-20-D12-checkpoint-b"])
    assert len(set(twins)) == 2 and all("…" in s for s in twins)
    assert style.short_labels(["x<b>y</b>"]) == ["x&lt;b&gt;y&lt;/b&gt;"]
    assert style.escape_html("a & <i>") == "a &amp; &lt;i&gt;"


def test_grids_side_by_side_long_names_do_not_overlap():
    orders = [LONG, LONG[::-1], LONG[1:] + LONG[:1], LONG[2:] + LONG[:2]]
    panels = {f"lp{k}": grids.significance_grid(_long_pvalues(o)) for k, o in enumerate(orders)}
    fig = overview.grids_side_by_side(panels, cols=3, title="t")
    lay = fig.layout
    # full names stay the categories (hover shows them); ticks show the short labels
    assert list(lay.yaxis.tickvals) == LONG
    assert list(lay.yaxis.ticktext) == style.short_labels(LONG)
    assert "%{y}" in fig.data[1].hovertemplate
    # rows differ between panels: every panel shows its own row names, and the gap between
    # panels (at the layout width) holds the longest shortened label
    assert lay.yaxis2.showticklabels is True
    label_px = style._GLYPH_WIDTH * lay.yaxis.tickfont.size * style.MAX_TICK_CHARS
    plot_w = grids._GRID_LAYOUT_WIDTH - lay.margin.l - 100
    assert (lay.xaxis2.domain[0] - lay.xaxis.domain[1]) * plot_w >= label_px
    # rows: the gap below row 1 holds its -45 degree column labels and row 2's panel title
    plot_h = lay.height - lay.margin.t - lay.margin.b
    gap_px = (lay.yaxis.domain[0] - lay.yaxis4.domain[1]) * plot_h
    assert gap_px >= label_px * 0.7 + 20
    assert lay.margin.b >= label_px * 0.7 and lay.margin.l >= label_px
    # panel titles sit on top of their panel
    assert [a.y for a in lay.annotations] == [
        lay.yaxis.domain[1],
        lay.yaxis2.domain[1],
        lay.yaxis3.domain[1],
        lay.yaxis4.domain[1],
    ]


def test_grids_side_by_side_presentation_widens_the_gaps():
    orders = [LONG, LONG[::-1]]
    panels = {f"lp{k}": grids.significance_grid(_long_pvalues(o)) for k, o in enumerate(orders)}
    fig = overview.grids_side_by_side(panels, cols=2)
    big = presentation.apply_presentation(fig, True)
    gap = fig.layout.xaxis2.domain[0] - fig.layout.xaxis.domain[1]
    big_gap = big.layout.xaxis2.domain[0] - big.layout.xaxis.domain[1]
    assert big.layout.xaxis.tickfont.size > fig.layout.xaxis.tickfont.size
    assert big_gap > gap and big.layout.margin.l > fig.layout.margin.l


def test_grids_side_by_side_escapes_panel_titles():
    fig = overview.grids_side_by_side({"x<b>y</b>": grids.significance_grid(_long_pvalues(LONG))})
    assert fig.layout.annotations[0].text == "x&lt;b&gt;y&lt;/b&gt;"


# ---- heatmap cell text (G report item 10) ----


def test_cell_text_short_values():
    text = grids.cell_text(np.array([[1.0, 0.974, -0.41], [np.nan, -1.0, 0.005]]))
    assert text.tolist() == [["1", ".97", "−.41"], ["", "−1", ".01"]]


def _corr_matrix(n, seed=1):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(40, n)) + rng.normal(size=(40, 1))
    names = [f"metric{k}" for k in range(n)]
    return pd.DataFrame(np.corrcoef(x.T), index=names, columns=names)


@pytest.mark.parametrize("n", [4, 12, 20, 30])
def test_correlation_heatmap_cell_text_fits_the_cells(n):
    fig = grids.correlation_heatmap(_corr_matrix(n), title="t")
    (trace,) = fig.data
    lay = fig.layout
    side_px = lay.height - lay.margin.t - lay.margin.b  # the square plot area's side
    cell_px = side_px / n
    if trace.texttemplate:
        longest = max(len(s) for s in np.asarray(trace.text).ravel())
        text_px = style._GLYPH_WIDTH * trace.textfont.size * longest
        assert text_px <= cell_px
        assert trace.textfont.size >= 7
    else:  # too many cells for legible values: none printed, hover still has them
        assert n >= 20 and trace.text is None
    assert "%{z:" in trace.hovertemplate


def test_square_matrix_export_width_keeps_the_colour_bar_close():
    fig = grids.correlation_heatmap(_corr_matrix(12), title="t")
    lay = fig.layout
    side_px = lay.height - lay.margin.t - lay.margin.b
    # width = row labels + the square + the colour bar: no empty third in a PNG export
    assert lay.width == pytest.approx(lay.margin.l + side_px + lay.margin.r, abs=2)
    _assert_margin_holds_the_colour_bar(fig)
    assert lay.title.pad.l > 0  # the title is not glued to the left edge


# ---- user-supplied names are never read as HTML by Plotly (G report item 8) ----

EVIL = "x<b>y</b>"
EVIL_SHOWN = "x&lt;b&gt;y&lt;/b&gt;"


def test_names_in_titles_ticks_and_labels_are_escaped():
    names = [EVIL, "BLEU", "chrF"]
    p = _long_pvalues(names)
    grid = grids.significance_grid(p, title=f"Williams test, {EVIL}")
    assert grid.layout.title.text == f"Williams test, {EVIL_SHOWN}"
    assert list(grid.layout.yaxis.ticktext)[0] == EVIL_SHOWN
    assert list(grid.layout.xaxis.tickvals)[0] == EVIL  # the category (hover) keeps the name
    human = pd.Series([1.0, 2.0, 3.0, 4.0], index=["s1", "s2", EVIL, "s4"])
    metrics = pd.DataFrame({EVIL: [1.0, 2.5, 2.0, 4.0]}, index=human.index)
    fig = metrics_figures.metric_scatter(
        human,
        metrics,
        [EVIL],
        pearson={EVIL: 0.9},
        spearman={EVIL: 0.8},
        most_influential={EVIL: EVIL},
        r_without={EVIL: 0.5},
    )
    title = fig.layout.annotations[0].text
    assert EVIL not in title and title.count(EVIL_SHOWN) == 2
    assert fig.layout.yaxis.title.text == EVIL_SHOWN
    assert fig.data[1].text[0] == EVIL_SHOWN
    table = pd.DataFrame({"pearson": [0.9, -0.5]}, index=[EVIL, "TER"])
    dots = metrics_figures.correlation_dots(table)
    assert list(dots.layout.yaxis.ticktext) == [EVIL_SHOWN, "TER"]


def test_colour_value_rounding_keeps_the_alpha_boundary():
    alpha = 0.05
    p = np.array([alpha * (1 - 1e-12), alpha, 0.0123456789, np.nan])
    z = grids.significance_colour_value(p, alpha)
    assert z[0] == 0.0 and z[1] == style.NOT_SIGNIFICANT_Z  # just below alpha: green band
    assert z[2] == round(math.log10(alpha / 0.0123456789), 3)  # 3 decimals: short JSON
    assert np.isnan(z[3])
