r"""What a significance grid reports beyond its raw p-values: the p-values adjusted for the
family of the grid (:mod:`stats.pairwise.multiple`), the significance clusters read from them
(:mod:`stats.pairwise.clusters`), and which test the p-values come from (its sidedness).

Sidedness
---------
Every grid of :mod:`stats` puts the p-value of a pair in the row of the item that scored
better, and with ``alternative='greater'`` (the papers' reading, the default) that p-value is
one-sided in the observed direction. The direction is thus chosen after seeing the data: under
the null hypothesis either item is ahead half of the time, so reading the one-sided p at
:math:`\alpha` rejects with probability :math:`2\alpha`. It is the two-sided test at level
:math:`2\alpha`; :data:`SIDEDNESS_NOTES` says so in every output. ``'two-sided'`` p-values in
the same cell are read at :math:`\alpha` as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pandas as pd

from stats._core.validation import check_alpha, check_alternative

from .clusters import significance_clusters
from .multiple import adjust_matrix

__all__ = ["SIDEDNESS", "SIDEDNESS_NOTES", "GridSignificance", "grid_significance"]

#: ``alternative`` -> the name of the test the grid's p-values come from.
SIDEDNESS = {"greater": "post-hoc one-sided", "two-sided": "two-sided"}

#: ``alternative`` -> one sentence for captions, exports and JSON.
SIDEDNESS_NOTES = {
    "greater": (
        "one-sided p-value in the direction observed (the row is the item that scored "
        "better), as in the papers; the direction is chosen after seeing the data, so "
        "reading it at alpha is a two-sided test at 2 x alpha"
    ),
    "two-sided": (
        "two-sided p-value, placed in the row of the item that scored better; read at alpha"
    ),
}


@dataclass(frozen=True, kw_only=True)
class GridSignificance:
    """Result of :func:`grid_significance`.

    Attributes
    ----------
    pvalue_adjusted : pandas.DataFrame
        The grid's p-values adjusted with ``correction`` (the raw ones for ``'none'``); same
        layout as the grid.
    rank : pandas.Series of int
        Significance cluster of each item (1 = top), from ``pvalue_adjusted`` at ``alpha``,
        indexed best first.
    alpha : float
    correction : str
        ``'none'``, ``'holm'`` or ``'bh'``; the family is the grid.
    alternative : str
    sidedness : str
        :data:`SIDEDNESS` of ``alternative``.
    test_note : str
        :data:`SIDEDNESS_NOTES` of ``alternative``.
    """

    pvalue_adjusted: pd.DataFrame
    rank: pd.Series
    alpha: float
    correction: str
    alternative: str
    sidedness: str
    test_note: str


def grid_significance(
    pvalue: pd.DataFrame,
    *,
    alpha: float = 0.05,
    correction: str = "none",
    alternative: str = "greater",
    order: Sequence[str] | None = None,
) -> GridSignificance:
    """Adjusted p-values, clusters and the sidedness statement of one significance grid.

    Parameters
    ----------
    pvalue : pandas.DataFrame
        Square "p in the row of the winner" grid (e.g. ``WilliamsMatrixResult.pvalue``,
        ``PairwiseSignificanceResult.pvalue``, ``HumanGoldResult.pvalue['combined']``).
    alpha : float
        Level of the clusters (default 0.05).
    correction : {'none', 'holm', 'bh'}
        Multiple-comparison adjustment over the grid (:func:`stats.pairwise.multiple.adjust_matrix`).
    alternative : {'greater', 'two-sided'}
        The alternative the grid's p-values were computed with.
    order : sequence of str, optional
        Items best first (default: the grid's index).

    Returns
    -------
    GridSignificance
    """
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, tuple(SIDEDNESS))
    adjusted = adjust_matrix(pvalue, method=correction)
    return GridSignificance(
        pvalue_adjusted=adjusted,
        rank=significance_clusters(adjusted, alpha=alpha, order=order),
        alpha=alpha,
        correction=correction,
        alternative=alternative,
        sidedness=SIDEDNESS[alternative],
        test_note=SIDEDNESS_NOTES[alternative],
    )
