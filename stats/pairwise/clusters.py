r"""Significance clusters read from a pairwise significance grid, by the two rules the WMT
findings use.

:func:`significance_clusters` (the metrics findings since WMT22, MTME's ``AssignRanks``):
walk the items from best to worst; rank 1 holds the top items until one is significantly
beaten by an item already in the current cluster, which opens the next rank (and a new
current cluster). An item of rank :math:`r` is therefore not significantly beaten by any item
of its own cluster, and is beaten by at least one item of the cluster before it (the one it
was first beaten by). It serves metrics (Williams, PERM-BOTH grids; items ordered by
correlation) and systems (randomized tests, the human gold standard; items ordered by score).

:func:`separated_clusters` (the human rankings of the general MT findings, WMT22-25): a line
goes between two neighbours of the ranking only where every item above it significantly beats
every item below it.

The WMT17-21 metrics findings marked *winners* instead (the metrics no other metric
significantly outperforms): :func:`stats.williams_winners`. MTME's ``AssignRanks`` was added in
July 2022 with its "task-wise metric rankings" for WMT22; its first release (December 2021,
with the WMT21 data) had the pairwise tests (``WilliamsSigDiff``, ``PermutationSigDiff``) but
no ranks.

References
----------
M. Freitag, R. Rei, N. Mathur, C. Lo, C. Stewart, E. Avramidis, T. Kocmi, G. Foster, A. Lavie
and A. F. T. Martins. 2022. Results of WMT22 Metrics Shared Task: Stop Using BLEU -- Neural
Metrics Are Better and More Robust. WMT. https://aclanthology.org/2022.wmt-1.2/
google-research/mt-metrics-eval, ``data.py``: ``AssignRanks`` (commit 3c2b645, 2022-07-25).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError
from stats._core.validation import check_alpha

__all__ = ["separated_clusters", "significance_clusters"]


def significance_clusters(
    pvalue: pd.DataFrame,
    *,
    alpha: float = 0.05,
    order: Sequence[str] | None = None,
    undefined: Sequence[str] = (),
) -> pd.Series:
    r"""Cluster ranks of the items of a "p in the row of the winner" grid.

    With the items in ``order`` (best first) and :math:`s` the first item of the current
    cluster, item :math:`i` opens a new cluster when

    .. math::

        \exists\, j:\; s \le j < i,\quad p_{j i} < \alpha,

    i.e. an earlier item of the current cluster is significantly better than it (cell
    ``(j, i)``: the test that ``j`` beats ``i``); otherwise it joins the current cluster.
    "Significant" is :math:`p < \alpha`, as everywhere in :mod:`stats` (MTME's
    ``AssignRanks`` counts :math:`p \le \alpha`; the two agree unless a p-value equals
    :math:`\alpha`). A NaN cell (no test in that direction, e.g. the later item won that
    pair in the human gold standard's combined matrix) never separates.

    Parameters
    ----------
    pvalue : pandas.DataFrame
        Square matrix whose index and columns contain every item of ``order``; cell
        ``(row, col)`` is the p-value of "row is better than col" (NaN where no such test).
    alpha : float
        Significance level in (0, 1).
    order : sequence of str, optional
        The items, best first (default: ``pvalue.index``, which the grids of :mod:`stats`
        already order best first).
    undefined : sequence of str
        Items whose statistic is undefined (e.g. a NaN correlation): they join no cluster
        (rank NaN) and open none. So does an item with no p-value against any other item
        (every cell of its row and column NaN: each of its tests undefined, e.g. a constant
        metric, one segment, or no tests run), unless it is the only item left.

    Returns
    -------
    pandas.Series of int
        Rank (1 = top cluster) per item, indexed by ``order`` (float, with NaN for the
        undefined and untested items, when there are any).

    Raises
    ------
    StatsInputError
        ``alpha`` outside (0, 1); ``pvalue`` not square; an item without a row or column.

    Examples
    --------
    A beats B and C significantly; B and C are not told apart.

    >>> import numpy as np
    >>> import pandas as pd
    >>> from stats import significance_clusters
    >>> names = ['A', 'B', 'C']
    >>> p = pd.DataFrame([[np.nan, 0.01, 0.001], [np.nan, np.nan, 0.4], [np.nan, np.nan, np.nan]], index=names, columns=names)
    >>> significance_clusters(p).to_dict()
    {'A': 1, 'B': 2, 'C': 2}
    """
    alpha = check_alpha(alpha)
    if not isinstance(pvalue, pd.DataFrame) or pvalue.shape[0] != pvalue.shape[1]:
        raise StatsInputError(
            f"pvalue must be a square DataFrame; got {type(pvalue).__name__} of shape "
            f"{getattr(pvalue, 'shape', None)}"
        )
    items = list(pvalue.index) if order is None else list(order)
    missing = [s for s in items if s not in pvalue.index or s not in pvalue.columns]
    if missing:
        raise StatsInputError(
            f"pvalue has no row/column for {', '.join(map(str, missing))} (order)"
        )
    skip = set(undefined)
    defined = [s for s in items if s not in skip]
    if len(defined) > 1:  # an item with no defined test against any other item is untested
        sub = np.isfinite(pvalue.loc[defined, defined].to_numpy(dtype=float))
        tested = sub.any(axis=0) | sub.any(axis=1)
        skip |= {s for s, ok in zip(defined, tested, strict=True) if not ok}
    if skip:
        defined = [s for s in items if s not in skip]
        ranks_defined = significance_clusters(pvalue, alpha=alpha, order=defined)
        out = pd.Series(np.nan, index=pd.Index(items, dtype=object), name="rank", dtype=float)
        out[defined] = ranks_defined.to_numpy(dtype=float)
        return out
    p = pvalue.loc[items, items].to_numpy(dtype=float)
    with np.errstate(invalid="ignore"):
        beats = p < alpha  # beats[j, i]: j significantly better than i
    ranks = np.ones(len(items), dtype=int)
    if not items:
        return pd.Series(ranks, index=pd.Index(items, dtype=object), name="rank")
    start, rank = 0, 1
    for i in range(1, len(items)):  # sequential by definition: each cluster starts where the last broke
        if beats[start:i, i].any():
            rank, start = rank + 1, i
        ranks[i] = rank
    return pd.Series(ranks, index=pd.Index(items, dtype=object), name="rank")


def separated_clusters(
    pvalue: pd.DataFrame, *, alpha: float = 0.05, inclusive: bool = False
) -> tuple[tuple[str, ...], ...]:
    r"""Split a ranking (``pvalue``'s index, best first) where the findings draw a line.

    A line goes below position :math:`k` when every item above it significantly beats every
    item below it:

    .. math::

        p_{ij} < \alpha \quad \forall\, i \le k < j,

    with :math:`p_{ij}` the p-value that item :math:`i` beats item :math:`j`
    (:math:`p_{ij} \le \alpha` with ``inclusive``, as WMT24's ``get_clusters``). A NaN cell
    never separates.

    Parameters
    ----------
    pvalue : pandas.DataFrame
        Square matrix indexed by the items, best first (its columns hold the same items).
    alpha : float
        Significance level in (0, 1).
    inclusive : bool
        Count :math:`p = \alpha` as significant.

    Returns
    -------
    tuple of tuples of str
        The clusters, top first.

    Examples
    --------
    A beats B and C; B does not beat C, so no line goes between them.

    >>> import numpy as np
    >>> import pandas as pd
    >>> from stats import separated_clusters
    >>> names = ['A', 'B', 'C']
    >>> p = pd.DataFrame([[np.nan, 0.01, 0.001], [np.nan, np.nan, 0.4], [np.nan, np.nan, np.nan]], index=names, columns=names)
    >>> separated_clusters(p)
    (('A',), ('B', 'C'))
    """
    alpha = check_alpha(alpha)
    names = list(pvalue.index)
    k = len(names)
    if k == 0:
        return ()
    # not[i, j]: i does not significantly beat j; a block [0..m] x [m+1..k-1] holding none of
    # these marks a line below m (two-dimensional prefix sums count them for every m at once)
    p = pvalue.loc[names, names].to_numpy(dtype=float)
    with np.errstate(invalid="ignore"):
        beaten = p <= alpha if inclusive else p < alpha
    missing = (~beaten).astype(np.int64)
    prefix = np.zeros((k + 1, k + 1), dtype=np.int64)
    prefix[1:, 1:] = missing.cumsum(0).cumsum(1)
    m = np.arange(k - 1)
    # rows 0..m, columns m+1..k-1
    block = prefix[m + 1, k] - prefix[m + 1, m + 1]
    lines = np.flatnonzero(block == 0)
    bounds = [0, *(lines + 1).tolist(), k]
    return tuple(tuple(names[a:b]) for a, b in zip(bounds[:-1], bounds[1:], strict=True))
