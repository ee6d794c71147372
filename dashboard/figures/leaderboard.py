"""The leaderboard's figures: metrics ranked by a task set's weighted average (or by one task's
correlation), a dot per metric with its confidence interval as whiskers and a line between
significance clusters, as the WMT metrics findings draw their rankings. Pure: values in,
figure out."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.clusters import CLUSTER_LINE, cluster_boundaries
from dashboard.figures.style import PALETTE, base_layout_dict, escape_html

#: vertical pixels per metric row, and around them
ROW_PX, FRAME_PX = 26, 120


#: longest metric name a row label keeps whole; longer ones keep their start and their end
#: (where WMT's "*" and "[noref]" marks sit), with a legend on the page
LABEL_CHARS = 32


def _row_labels(labels: Sequence[str]) -> tuple[list[str], dict[str, str]]:
    """Row labels (HTML-escaped), names over :data:`LABEL_CHARS` characters as their first
    20 + "…" + last 11 characters (whole where that would make two rows alike), and the
    abbreviation -> name map of those shortened."""
    short = [x if len(x) <= LABEL_CHARS else x[:20] + "…" + x[-11:] for x in labels]
    if len(set(short)) < len(set(labels)):
        short = list(labels)
    out = {escape_html(a): x for a, x in zip(short, labels, strict=True) if a != x}
    return [escape_html(a) for a in short], out


#: colour of a metric in no cluster
NO_CLUSTER = "#9e9e9e"


def ranking_dots(
    labels: Sequence[str],
    values: Sequence[float],
    rank: Sequence[int],
    *,
    low: Sequence[float] | None = None,
    high: Sequence[float] | None = None,
    title: str | None = None,
    x_title: str = "weighted average correlation, moved to [0, 1]",
) -> go.Figure:
    """Metrics best first from the top: a dot at each value, whiskers from ``low`` to ``high``
    (when given), a horizontal line between consecutive significance clusters (``rank``), the
    cluster in the hover.

    Parameters
    ----------
    labels, values, rank : sequences of the same length, best first
        ``rank`` NaN: in no cluster (an undefined correlation, or the provisional point
        ranking before PERM-BOTH): a grey dot, no cluster line, cluster "-" in the hover.
    low, high : sequences, optional
        The confidence interval of each value (NaN: no whisker).
    """
    labels = [str(x) for x in labels]
    values = np.asarray(values, dtype=float)
    rank = pd.Series(list(rank), dtype="Float64").to_numpy(dtype=float, na_value=np.nan)
    defined = ~np.isnan(rank)
    y = list(range(len(labels)))
    error = None
    custom = np.column_stack(
        [
            np.array([str(int(r)) if ok else "-" for r, ok in zip(rank, defined, strict=True)],
                     dtype=object),
            np.full(len(labels), np.nan),
            np.full(len(labels), np.nan),
        ]
    )
    if low is not None and high is not None:
        lo, hi = np.asarray(low, dtype=float), np.asarray(high, dtype=float)
        error = {
            "type": "data",
            "symmetric": False,
            "array": np.nan_to_num(hi - values),
            "arrayminus": np.nan_to_num(values - lo),
            "color": "#555555",
            "thickness": 1.5,
            "width": 4,
        }
        custom[:, 1], custom[:, 2] = lo, hi
    colours = [
        PALETTE[(int(r) - 1) % len(PALETTE)] if ok else NO_CLUSTER
        for r, ok in zip(rank, defined, strict=True)
    ]
    hover = "%{text}<br>value %{x:.4f}<br>cluster %{customdata[0]}"
    if error is not None:
        hover += "<br>CI [%{customdata[1]:.4f}, %{customdata[2]:.4f}]"
    trace = go.Scatter(
        x=values,
        y=y,
        mode="markers",
        text=[escape_html(x) for x in labels],
        marker={"size": 11, "color": colours, "line": {"width": 1, "color": "#222222"}},
        error_x=error,
        customdata=custom,
        hovertemplate=hover + "<extra></extra>",
        name="metrics",
    )
    shapes = [
        {
            "type": "line",
            "xref": "paper",
            "yref": "y",
            "x0": 0,
            "x1": 1,
            "y0": k - 0.5,
            "y1": k - 0.5,
            "line": {**CLUSTER_LINE, "dash": "dot"},
            "name": f"cluster {int(rank[k])}",
        }
        for k in cluster_boundaries(rank)
        if defined[k] and defined[k - 1]
    ]
    ticktext, abbreviated = _row_labels(labels)
    layout = {
        **base_layout_dict(title=title, height=FRAME_PX + ROW_PX * max(1, len(labels))),
        "yaxis": {
            "tickmode": "array",
            "tickvals": y,
            "ticktext": ticktext,
            "autorange": "reversed",
            "title": None,
            "showgrid": False,
        },
        "xaxis": {"title": {"text": x_title}, "zeroline": False},
        "shapes": shapes,
        "showlegend": False,
        "meta": {"abbreviated": abbreviated},  # the page's legend of the shortened names
    }
    return go.Figure([trace], layout=layout)
