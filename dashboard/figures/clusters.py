"""Significance clusters drawn on a grid: a dark line between the last item of one cluster and
the first of the next, across the rows and down the columns, as the WMT metrics findings mark
their clusters. The clusters themselves come from :func:`stats.pairwise.grids.grid_significance`
(``rank``); here they are only laid out.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from dashboard.tables.common import p_label

#: Colour and width of the lines between significance clusters.
CLUSTER_LINE = {"color": "#222222", "width": 2.5}


def cluster_boundaries(rank: Sequence[int]) -> list[int]:
    """Positions ``k`` (in the grid's best-first order) where a new cluster starts: the line is
    drawn between item ``k - 1`` and item ``k``."""
    r = np.asarray([np.nan if v is None else v for v in rank], dtype=float)
    same = (r[1:] == r[:-1]) | (np.isnan(r[1:]) & np.isnan(r[:-1]))  # items without a cluster
    return [int(k) for k in np.flatnonzero(~same) + 1]


def cluster_shapes(rank: Sequence[int], *, xref: str = "x", yref: str = "y") -> list[dict]:
    """Layout shapes marking the clusters of a square grid whose rows and columns are the
    items best first (category positions 0 .. n-1): for each boundary ``k`` a corner at
    ``(k - 0.5, k - 0.5)`` in the tested (upper) half -- a horizontal line at ``y = k - 0.5``
    under the earlier rows, out to the last column, and a vertical one at ``x = k - 0.5``
    beside the earlier columns, up to the first row -- so the lines box the clusters' blocks
    of pairs, as the WMT findings draw them.

    Returns
    -------
    list of dict
        Plotly ``line`` shapes, two per boundary (horizontal first), with ``name``
        ``"cluster k"`` (k = the rank that starts there), ``"no cluster (undefined)"`` above the
        items whose statistic or every test is undefined (rank NaN or None, listed last).
    """
    n = len(rank)
    lo, hi = -0.5, n - 0.5
    shapes = []
    for k in cluster_boundaries(rank):
        at = k - 0.5
        undefined = rank[k] is None or rank[k] != rank[k]
        name = "no cluster (undefined)" if undefined else f"cluster {int(rank[k])}"
        common = {
            "type": "line",
            "xref": xref,
            "yref": yref,
            "line": CLUSTER_LINE,
            "layer": "above",
            "name": name,
        }
        shapes.append({**common, "x0": at, "x1": hi, "y0": at, "y1": at})
        shapes.append({**common, "x0": at, "x1": at, "y0": lo, "y1": at})
    return shapes


def adjusted_grid_args(pvalue: pd.DataFrame, significance) -> dict:
    """Arguments of :func:`dashboard.figures.grids.significance_grid` for a grid coloured by
    the adjusted p-values of ``significance`` (:class:`stats.pairwise.grids.GridSignificance` of the
    raw grid ``pvalue``): ``pvalue`` (adjusted), ``clusters`` (the ranks in ``pvalue``'s row
    order), ``p_label`` and ``hover``: the raw p-values when adjusted (merge the grid's own
    hover matrices into it)."""
    adjusted = significance.correction != "none"
    return {
        "pvalue": significance.pvalue_adjusted.reindex(index=pvalue.index, columns=pvalue.columns),
        "clusters": [None if r != r else int(r) for r in significance.rank.reindex(pvalue.index)],
        "p_label": p_label(significance.correction),
        "hover": {"raw p": (pvalue, ".3g")} if adjusted else {},
    }
