"""Significance clusters and adjusted p-values on the grids (dashboard/figures/clusters.py,
the ``clusters`` / ``p_label`` options of significance_grid, williams_grid with a
GridSignificance, perm_both_grid), tested through fig.data / fig.layout."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest

from dashboard.figures import grids, meta_eval, metrics, overview
from dashboard.figures.clusters import adjusted_grid_args, cluster_boundaries, cluster_shapes
from stats.metaeval.perm_both.core import perm_both
from stats.metaeval.williams import williams_all_pairs
from stats.pairwise.grids import grid_significance

NAMES = ["A", "B", "C", "D"]


def _pvalues() -> pd.DataFrame:
    p = np.full((4, 4), np.nan)
    p[0, 1:] = [0.2, 0.001, 0.0005]
    p[1, 2:] = [0.01, 0.002]
    p[2, 3] = 0.3
    return pd.DataFrame(p, index=NAMES, columns=NAMES)


def _horizontal(fig, yref: str = "y") -> list[float]:
    return sorted(s.y0 for s in fig.layout.shapes if s.y0 == s.y1 and s.yref == yref)


def test_boundaries_and_shapes_follow_the_ranks():
    assert cluster_boundaries([1, 1, 2, 2, 3]) == [2, 4]
    assert cluster_boundaries([1, 1, 1]) == []
    shapes = cluster_shapes([1, 2, 2])
    assert len(shapes) == 2
    across, down = shapes
    # a corner at (0.5, 0.5) in the upper half: rows above it out to the last column, and the
    # column beside it up to the first row
    assert (across["y0"], across["y1"], across["x0"], across["x1"]) == (0.5, 0.5, 0.5, 2.5)
    assert (down["x0"], down["x1"], down["y0"], down["y1"]) == (0.5, 0.5, -0.5, 0.5)
    assert across["name"] == "cluster 2" and across["xref"] == "x"


def test_significance_grid_draws_clusters_and_names_the_p():
    p = _pvalues()
    # A beats C, D; B beats C, D at 0.05 -> clusters [1, 1, 2, 2] (A does not beat B)
    fig = grids.significance_grid(p, alpha=0.05, clusters=[1, 1, 2, 2], p_label="p (Holm)")
    assert _horizontal(fig) == [1.5]
    assert fig.layout.meta["clusters"] == [1, 1, 2, 2]
    assert "p (Holm) = %{customdata[0]" in fig.data[0].hovertemplate
    go.Figure(fig.to_dict())  # valid plotly
    assert not grids.significance_grid(p, alpha=0.05).layout.shapes


def test_adjusted_grid_args_colour_by_adjusted_p_and_keep_raw_in_hover():
    p = _pvalues()
    sig = grid_significance(p, alpha=0.05, correction="holm")
    args = adjusted_grid_args(p, sig)
    pd.testing.assert_frame_equal(args["pvalue"], sig.pvalue_adjusted)
    assert args["clusters"] == sig.rank.tolist()
    assert args["p_label"] == "p (Holm)"
    assert args["hover"]["raw p"][0] is p
    none = adjusted_grid_args(p, grid_significance(p, alpha=0.05))
    assert none["p_label"] == "p" and none["hover"] == {}


def _scores(seed=0, n=12):
    rng = np.random.default_rng(seed)
    human = rng.normal(size=n)
    metrics_ = {f"m{k}": human + rng.normal(scale=0.3 + 0.4 * k, size=n) for k in range(4)}
    return pd.DataFrame(metrics_), human


def test_williams_grid_with_significance_uses_adjusted_p_and_clusters():
    scores, human = _scores()
    w = williams_all_pairs(scores, human)
    sig = grid_significance(w.pvalue, alpha=0.05, correction="bh")
    fig = metrics.williams_grid(w, alpha=0.05, significance=sig)
    custom = np.asarray(fig.data[0].customdata, dtype=float)
    expected = sig.pvalue_adjusted.to_numpy(dtype=float)
    assert np.allclose(custom[..., 0], expected, equal_nan=True, rtol=5e-3, atol=0)
    raw = w.pvalue.to_numpy(dtype=float)
    assert np.allclose(custom[..., 1], raw, equal_nan=True, rtol=5e-3, atol=0)
    assert "raw p" in fig.data[0].hovertemplate and "Δr" in fig.data[0].hovertemplate
    assert fig.layout.meta["clusters"] == sig.rank.tolist()
    # without significance: unchanged
    plain = metrics.williams_grid(w, alpha=0.05)
    assert not plain.layout.shapes and "raw p" not in plain.data[0].hovertemplate


def test_perm_both_grid_and_panels_keep_each_grids_clusters():
    rng = np.random.default_rng(3)
    gold = rng.normal(size=(5, 40))
    ms = {f"m{k}": gold + rng.normal(scale=0.2 + 0.8 * k, size=gold.shape) for k in range(4)}
    res = perm_both(ms, gold, n_resamples=200, rng=1)
    sig = grid_significance(res.pvalue, alpha=0.05)
    fig = meta_eval.perm_both_grid(res, sig, label="Pearson r", title="en-de")
    assert list(fig.data[0].y) == list(res.metrics)
    assert fig.layout.meta["clusters"] == sig.rank.tolist()
    assert fig.layout.meta["alpha"] == 0.05
    custom = np.asarray(fig.data[0].customdata, dtype=float)
    assert np.allclose(custom[..., 1], res.statistic.to_numpy(), equal_nan=True, atol=5e-5)
    assert "Δ Pearson r" in fig.data[0].hovertemplate
    boundaries = [k - 0.5 for k in np.flatnonzero(np.diff(sig.rank.to_numpy())) + 1]
    assert boundaries and _horizontal(fig) == boundaries
    # side by side: the second panel's lines on its own axes
    one = grid_significance(res.pvalue, alpha=0.5)
    other = meta_eval.perm_both_grid(res, one, label="Pearson r")
    both = overview.grids_side_by_side({"en-de": fig, "zh-en": other})
    assert _horizontal(both, "y") == boundaries
    assert {s.xref for s in both.layout.shapes if s.yref == "y2"} == {"x2"}
    assert len(both.layout.shapes) == len(fig.layout.shapes) + len(other.layout.shapes)


def test_p_colour_scale_ends_at_the_smallest_p_the_resamples_allow():
    import math

    from dashboard.figures.grids import SIGNIFICANCE_DECADES, significance_coloraxis

    full = significance_coloraxis(0.05)
    assert full["cmax"] == SIGNIFICANCE_DECADES
    assert full["colorbar"]["ticktext"][-1] == f"{0.05 * 10.0**-SIGNIFICANCE_DECADES:g}"
    # 1,000 resamples: p >= 1/1001, so the scale stops there (not at 5e-05)
    axis = significance_coloraxis(0.05, min_p=1 / 1001)
    assert axis["cmax"] == pytest.approx(math.log10(0.05 * 1001), abs=1e-3)
    assert axis["colorbar"]["ticktext"][1:] == ["0.05 (α)", "0.005", "0.000999"]
    assert axis["colorbar"]["tickvals"][-1] == axis["cmax"]
    # a smallest p on a decade: that tick says so; one below the scale's end: unchanged
    assert significance_coloraxis(0.05, min_p=0.005)["colorbar"]["ticktext"][-1] == (
        "0.005"
    )
    assert significance_coloraxis(0.05, min_p=1e-9)["cmax"] == SIGNIFICANCE_DECADES
