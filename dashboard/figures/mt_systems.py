"""Figures of the "MT systems" page: system scores, randomized tests' significance grids and
pseudo-statistic distributions (Koehn, 2004; Riezler & Maxwell, 2005)."""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.grids import significance_grid
from dashboard.figures.overview import grids_side_by_side
from dashboard.figures.style import (
    HIGHLIGHT,
    PALETTE,
    _category_rows,
    add_axis_lines,
    base_layout,
    escape_html,
    format_number,
    format_pvalue,
    subplots,
)

#: Colour of the pseudo-statistics a randomized test counts (at least as extreme as observed).
MT_COUNTED = HIGHLIGHT
#: Colour of the other pseudo-statistics.
MT_NOT_COUNTED = "#9DB9D3"


def mt_system_scores(
    scores: pd.Series,
    ci_low: pd.Series,
    ci_high: pd.Series,
    *,
    label: str,
    higher_is_better: bool = True,
    confidence_level: float = 0.95,
    title: str | None = None,
) -> go.Figure:
    """Corpus score of each system with its bootstrap confidence interval (dot + error bar).

    Systems run top to bottom in ``scores.index`` order (pass them best first).

    Returns
    -------
    go.Figure
        One ``Scatter``: ``x`` = scores, ``y`` = system names, ``error_x.array`` = high - score,
        ``error_x.arrayminus`` = score - low.
    """
    names = [str(s) for s in scores.index]
    x = scores.to_numpy(dtype=float)
    lo = ci_low.reindex(scores.index).to_numpy(dtype=float)
    hi = ci_high.reindex(scores.index).to_numpy(dtype=float)
    level = f"{round(confidence_level * 100)}%"
    fig = go.Figure(
        go.Scatter(
            x=x,
            y=names,
            mode="markers",
            marker={"size": 10, "color": PALETTE[0]},
            error_x={
                "type": "data",
                "symmetric": False,
                "array": hi - x,
                "arrayminus": x - lo,
                "thickness": 2,
                "width": 6,
                "color": PALETTE[0],
            },
            customdata=np.stack([lo, hi], axis=-1),
            hovertemplate=f"<b>%{{y}}</b><br>{escape_html(label)} = %{{x:.4g}}<br>{level} CI "
            "[%{customdata[0]:.4g}, %{customdata[1]:.4g}]<extra></extra>",
            name=label,
        )
    )
    base_layout(fig, title=title, height=int(min(900, max(260, 34 * len(names) + 120))))
    better = "higher is better" if higher_is_better else "lower is better"
    fig.update_xaxes(title={"text": f"{escape_html(label)} ({better}; bars: {level} bootstrap CI)"})
    fig.update_yaxes(**_category_rows(names))
    return fig


def mt_significance_grids(
    results: Mapping[str, object],
    *,
    alpha: float = 0.05,
    title: str | None = None,
    cols: int | None = None,
) -> go.Figure:
    """The pairwise significance grids of several randomized tests side by side (paper
    Figure 8): cell (row, col) coloured when row's score is significantly better.

    Parameters
    ----------
    results : mapping of panel title -> PairwiseSignificanceResult
        (anything with ``pvalue``, ``statistic``, ``diff_ci_low``, ``diff_ci_high`` square
        DataFrames and ``label``, ``confidence_level``), all on the same systems.
    alpha : float
    cols : int, optional
        Panels per row (default: all in one row).

    Returns
    -------
    go.Figure
        One heatmap trace per panel (trace ``k`` for panel ``k``) as :func:`significance_grid`
        builds it, hover with the difference and its bootstrap CI.
    """
    panels = {}
    for name, res in results.items():
        level = round(res.confidence_level * 100)
        panels[name] = significance_grid(
            res.pvalue,
            alpha=alpha,
            hover={
                f"Δ {res.label}": (res.statistic, ".3f"),
                f"{level}% CI low": (res.diff_ci_low, ".3f"),
                f"{level}% CI high": (res.diff_ci_high, ".3f"),
            },
            verb="is better than",
            min_p=getattr(res, "min_pvalue", None),  # the scale ends where the resamples do
        )
    n = max((len(r.pvalue) for r in results.values()), default=0)
    return grids_side_by_side(
        panels,
        cols=cols or max(len(panels), 1),
        title=title,
        panel_height=int(min(700, max(360, 26 * n + 140))),
        legible_columns=True,  # 16-30 systems: stack the tests rather than overlap labels
    )


def _pseudo_bins(values: np.ndarray, counted: np.ndarray, res, bins: int):
    """Bin edges shared by the "counted" and "not counted" bars, with every cut-off the test
    applies (0 for the paired bootstrap, the statistic and its mirror otherwise) on a bin edge,
    and each value's bin index -- a value sitting on a cut-off goes to the side where it
    belongs, so the highlighted bars end exactly at the cut-off line."""
    stat = float(res.statistic)
    # (cut-off, the test counts the values right of it)
    if res.test == "paired-bootstrap":
        sides = [(0.0, bool(np.any(counted & (values > 0))))]
    elif res.alternative == "two-sided" and stat != 0:
        sides = [(abs(stat), True), (-abs(stat), False)]
    else:
        sides = [(stat, res.alternative != "less")]
    cuts = [cut for cut, _ in sides]
    finite = values[np.isfinite(values)]
    lo = min([*cuts, float(finite.min())] if finite.size else cuts)
    hi = max([*cuts, float(finite.max())] if finite.size else cuts)
    width = (hi - lo) / max(bins, 1) or 1.0
    if len(cuts) == 2:  # both mirrored cut-offs on edges: a whole number of bins between them
        width = (cuts[0] - cuts[1]) / max(1, round((cuts[0] - cuts[1]) / width))
    start = cuts[0] - math.ceil((cuts[0] - lo) / width - 1e-9) * width
    n_bins = max(1, math.ceil((hi - start) / width - 1e-9))
    if start + n_bins * width <= hi:  # the maximum itself must fall inside the last bin
        n_bins += 1
    edges = start + width * np.arange(n_bins + 1)
    idx = np.clip(np.floor((values - start) / width), 0, n_bins - 1).astype(int)
    for cut, right in sides:
        # values in the two bins that meet at this cut-off go to the side the test put them on
        # (``counted`` from stats): a value on the cut-off, or within the test's rounding of it
        k = int(round((cut - start) / width))  # the edge on the cut-off
        inside, outside = (k, k - 1) if right else (k - 1, k)
        near = (idx == k) | (idx == k - 1)
        if len(sides) == 2:  # mirrored cut-offs: each takes the values on its own side of 0
            near &= (values >= 0) if cut > 0 else (values < 0)
        idx[near & counted] = min(max(inside, 0), n_bins - 1)
        idx[near & ~counted] = min(max(outside, 0), n_bins - 1)
    return edges, idx


def mt_pseudo_distributions(
    results: Mapping[str, object],
    *,
    bins: int = 40,
    title: str | None = None,
    cols: int | None = None,
) -> go.Figure:
    """Pseudo-statistic distributions of the randomized tests for one pair of systems, with
    the actual statistic marked (paper Figures 5 and 6).

    Each panel is a histogram of the distribution the test compares with (bootstrap: after the
    shift to zero by :math:`\\tau_B`), over the difference that says "X is better by"
    (:math:`S_X - S_Y`, or :math:`S_Y - S_X` for a lower-is-better metric). The bars the test
    counts are highlighted (``result.counted``, the mask the p-value counts), the actual
    statistic is a solid vertical line (two-sided: also its mirror), the paired bootstrap's
    cut-off at 0 is dashed.

    Parameters
    ----------
    results : mapping of panel title -> RandomizedTestResult

    Returns
    -------
    go.Figure
        Per panel two ``Bar`` traces (``name`` "counted" / "not counted"; their ``y`` sum to the
        number of resamples) and vertical-line shapes with ``name`` "actual statistic",
        "mirrored statistic" or "cut-off".
    """
    names = list(results)
    if not names:
        raise ValueError("results is empty: nothing to draw")
    ncols = cols or len(names)
    nrows = math.ceil(len(names) / ncols)
    titles = [f"{name}<br><sup>p = {format_pvalue(results[name].pvalue)}</sup>" for name in names]
    fig = subplots(
        rows=nrows, cols=ncols, subplot_titles=titles, horizontal_spacing=0.06,
        vertical_spacing=0.18 if nrows > 1 else 0.0,
    )  # fmt: skip
    vlines: list[dict] = []
    for k, name in enumerate(names):
        res = results[name]
        row, col = divmod(k, ncols)
        row, col = row + 1, col + 1
        values = np.asarray(res.null_distribution, dtype=float)
        stat = float(res.statistic)
        counted = np.asarray(res.counted, dtype=bool)
        edges, idx = _pseudo_bins(values, counted, res, bins)
        centers = (edges[:-1] + edges[1:]) / 2
        widths = np.diff(edges)
        for mask, label, colour in (
            (counted, "counted", MT_COUNTED),
            (~counted, "not counted", MT_NOT_COUNTED),
        ):
            counts = np.bincount(idx[mask], minlength=edges.size - 1)
            fig.add_trace(
                go.Bar(
                    x=centers,
                    y=counts,
                    width=widths,
                    marker={"color": colour, "line": {"width": 0}},
                    name=label,
                    legendgroup=label,
                    showlegend=k == 0,
                    customdata=np.stack([edges[:-1], edges[1:]], axis=-1),
                    hovertemplate=f"{label}: %{{y}} resamples<br>[%{{customdata[0]:.3g}}, "
                    "%{customdata[1]:.3g})<extra></extra>",
                ),
                row=row,
                col=col,
            )
        lines = [(stat, "actual statistic", "solid", PALETTE[7])]
        if res.alternative == "two-sided" and res.test != "paired-bootstrap":
            lines.append((-stat, "mirrored statistic", "dot", PALETTE[7]))
        if res.test == "paired-bootstrap":
            lines.append((0.0, "cut-off", "dash", "#555555"))
        vlines += [
            {"x": x, "line": {"color": colour, "dash": dash, "width": 2}, "name": label,
             "row": row, "col": col}
            for x, label, dash, colour in lines
        ]  # fmt: skip
        shift = f" − τ_B ({format_number(res.shift)})" if res.test == "bootstrap" else ""
        # the statistic is "X better by": Y − X when lower scores are better (TER, errors)
        diff = "S_X − S_Y" if res.higher_is_better else "S_Y − S_X"
        fig.update_xaxes(title={"text": f"{diff}{shift}"}, row=row, col=col)
    add_axis_lines(fig, vlines)
    fig.update_yaxes(title={"text": "resamples"}, row=1, col=1)
    base_layout(fig, title=title, height=360 * nrows + (120 if title else 70))
    fig.update_layout(
        barmode="stack",
        bargap=0,
        legend={"orientation": "h", "y": -0.2},
        # title, then each panel's two-line title (test name, p) above its plot
        margin={"t": 110 if title else 60},
    )
    return fig
