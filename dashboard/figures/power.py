"""The Power page's figures: power against the number of segments, one line per effect (with
its Monte Carlo error), and the minimum detectable effect against the number of segments.
Pure: a :class:`stats.power.PowerResult` in, a figure out."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from dashboard.figures.style import PALETTE, base_layout_dict
from stats.power import PowerResult

#: colour of the target-power line
TARGET_LINE = "#777777"
#: colour of the size (rejection rate at effect 0) line
SIZE_LINE = "#444444"


def power_curves(result: PowerResult, *, title: str | None = None) -> go.Figure:
    """Power (y, 0-1) against n (x, log scale), one line per effect, and the rejection rate at
    effect 0 (the test's size, to compare with α) as a dotted line; error bars are 1.96 Monte
    Carlo standard errors; a dashed line marks the target power."""
    order = np.argsort(result.sizes)
    n = np.asarray(result.sizes)[order]
    traces = []
    for i, effect in enumerate(result.effects):
        traces.append(
            go.Scatter(
                x=n,
                y=result.power[i][order],
                mode="lines+markers",
                name=f"effect {effect:g}",
                line={"color": PALETTE[i % len(PALETTE)]},
                error_y={"type": "data", "array": 1.96 * result.mc_error[i][order],
                         "thickness": 1, "width": 3},
                hovertemplate=f"effect {effect:g}<br>n %{{x}}<br>power %{{y:.3f}}<extra></extra>",
            )
        )
    if result.size is not None:  # the rejection rate at effect 0, beside the curves
        size = np.asarray(result.size, dtype=float)[order]
        err = np.asarray(result.size_mc_error, dtype=float)[order]
        traces.append(
            go.Scatter(
                x=n,
                y=size,
                mode="lines+markers",
                name=f"effect 0 (size; α = {result.alpha:g})",
                line={"color": SIZE_LINE, "dash": "dot"},
                marker={"symbol": "x"},
                error_y={"type": "data", "array": 1.96 * err, "thickness": 1, "width": 3},
                hovertemplate="effect 0 (rejection rate: the test's size)<br>n %{x}"
                "<br>rate %{y:.3f}<extra></extra>",
            )
        )
    layout = base_layout_dict(title=title, height=420)
    layout.update(
        xaxis={"title": {"text": f"{result.unit} (n)"}, "type": "log"},
        yaxis={"title": {"text": "power"}, "range": [0, 1.02]},
        shapes=[{"type": "line", "xref": "paper", "x0": 0, "x1": 1, "y0": result.target_power,
                 "y1": result.target_power, "line": {"dash": "dash", "color": TARGET_LINE}}],
        legend={"title": {"text": f"{result.test}, α = {result.alpha:g}"}},
    )
    return go.Figure(traces, layout=layout)


def mde_curve(result: PowerResult, *, title: str | None = None) -> go.Figure:
    """The minimum detectable effect at the target power (y) against n (x, log scale); NaN
    sizes (nothing detectable in the search range) are left out."""
    order = np.argsort(result.sizes)
    n = np.asarray(result.sizes)[order]
    mde = np.asarray(result.mde, dtype=float)[order]
    keep = np.isfinite(mde)
    trace = go.Scatter(
        x=n[keep],
        y=mde[keep],
        mode="lines+markers",
        name=f"MDE at {result.target_power:.0%} power",
        line={"color": PALETTE[0]},
        hovertemplate="n %{x}<br>MDE %{y:.3g}<extra></extra>",
    )
    layout = base_layout_dict(title=title, height=420)
    layout.update(
        xaxis={"title": {"text": f"{result.unit} (n)"}, "type": "log"},
        yaxis={"title": {"text": f"minimum detectable effect ({result.metric})"},
               "rangemode": "tozero"},
        showlegend=False,
    )
    return go.Figure([trace], layout=layout)
