r"""Multiple comparisons: Holm (1979) and Benjamini-Hochberg (1995) adjusted p-values.

A significance grid of :math:`k` items holds one test per unordered pair, :math:`m = k(k-1)/2`
tests in all; at level :math:`\alpha` each alone, some of them reject by chance. The family
corrected here is one grid (all pairs of one language pair): every finite off-diagonal cell
of a "p in the row of the winner" matrix (the mirror cell and the diagonal are NaN, so each
pair counts once).

- ``'holm'``: Holm's step-down procedure controls the family-wise error rate (the
  probability of any false rejection) at :math:`\alpha`.
- ``'bh'``: Benjamini-Hochberg controls the false discovery rate (the expected share of
  false rejections among the rejections) at :math:`\alpha` for independent or positively
  dependent tests (:func:`scipy.stats.false_discovery_control`).
- ``'none'``: the p-values unchanged.

The adjusted p-values are compared with :math:`\alpha` as the raw ones are (significant:
:math:`p < \alpha`).

References
----------
S. Holm. 1979. A Simple Sequentially Rejective Multiple Test Procedure. Scandinavian Journal
of Statistics 6(2). https://www.jstor.org/stable/4615733

Y. Benjamini and Y. Hochberg. 1995. Controlling the False Discovery Rate: A Practical and
Powerful Approach to Multiple Testing. JRSS B 57(1).
https://doi.org/10.1111/j.2517-6161.1995.tb02031.x
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

__all__ = ["CORRECTIONS", "adjust_pvalues", "adjust_matrix"]

#: Accepted values of ``method`` (and of the CLI's ``--correction``).
from stats._core.choices import CORRECTIONS  # noqa: E402  (re-exported)


def _check_method(method: str) -> str:
    if method not in CORRECTIONS:
        raise StatsInputError(
            f"method (correction) must be one of {', '.join(map(repr, CORRECTIONS))}; "
            f"got {method!r}"
        )
    return method


def _holm(p: np.ndarray) -> np.ndarray:
    m = p.size
    order = np.argsort(p, kind="stable")
    stepped = np.minimum(1.0, (m - np.arange(m)) * p[order])
    out = np.empty(m)
    out[order] = np.maximum.accumulate(stepped)
    return out


def adjust_pvalues(pvalues, *, method: str = "holm") -> np.ndarray:
    r"""Adjust a family of p-values for multiple comparisons.

    Holm (step-down): with the :math:`m` p-values sorted,
    :math:`p_{(1)} \le \dots \le p_{(m)}`,

    .. math::

        \tilde p_{(i)} = \max_{j \le i} \min\bigl(1, (m - j + 1)\, p_{(j)}\bigr).

    Benjamini-Hochberg (step-up):

    .. math::

        \tilde p_{(i)} = \min_{j \ge i} \min\bigl(1, \tfrac{m}{j}\, p_{(j)}\bigr).

    Parameters
    ----------
    pvalues : array_like
        p-values in [0, 1], any shape. NaN entries (no test) are not members of the family
        and stay NaN.
    method : {'holm', 'bh', 'none'}

    Returns
    -------
    numpy.ndarray
        The adjusted p-values, same shape; equal to R's ``p.adjust(p, "holm")`` /
        ``p.adjust(p, "BH")`` on the finite entries.

    Raises
    ------
    StatsInputError
        An unknown ``method``; a value that is not a number in [0, 1].

    References
    ----------
    Holm (1979), https://www.jstor.org/stable/4615733; Benjamini & Hochberg (1995),
    https://doi.org/10.1111/j.2517-6161.1995.tb02031.x

    Examples
    --------
    >>> from stats import adjust_pvalues
    >>> adjust_pvalues([0.01, 0.02, 0.03, 0.5], method='holm').round(3).tolist()
    [0.04, 0.06, 0.06, 0.5]
    >>> adjust_pvalues([0.01, 0.02, 0.03, 0.5], method='bh').round(3).tolist()
    [0.04, 0.04, 0.04, 0.5]
    """
    _check_method(method)
    try:
        p = np.array(pvalues, dtype=float)
    except (TypeError, ValueError):
        raise StatsInputError(
            f"pvalues must be numbers in [0, 1]; got {type(pvalues).__name__}"
        ) from None
    finite = ~np.isnan(p)
    bad = finite & ~((p >= 0) & (p <= 1))
    if bad.any():
        raise StatsInputError(f"pvalues must be in [0, 1] (or NaN); got {p[bad][0]!r}")
    if method == "none" or not finite.any():
        return p
    family = p[finite]
    if method == "holm":
        p[finite] = _holm(family)
    else:
        from scipy import stats as sps  # imported only here: scipy.stats takes a second to load

        p[finite] = sps.false_discovery_control(family)
    return p


def adjust_matrix(pvalue: pd.DataFrame, *, method: str = "holm") -> pd.DataFrame:
    """Adjust a significance grid: its finite off-diagonal cells are one family.

    Parameters
    ----------
    pvalue : pandas.DataFrame
        Square "p in the row of the winner" matrix (mirror cells and diagonal NaN), e.g.
        :attr:`stats.WilliamsMatrixResult.pvalue`.
    method : {'holm', 'bh', 'none'}

    Returns
    -------
    pandas.DataFrame
        Same index, columns and NaN cells, adjusted p-values elsewhere.
    """
    if not isinstance(pvalue, pd.DataFrame) or pvalue.shape[0] != pvalue.shape[1]:
        raise StatsInputError(
            f"pvalue must be a square DataFrame; got {type(pvalue).__name__} of shape "
            f"{getattr(pvalue, 'shape', None)}"
        )
    p = pvalue.to_numpy(dtype=float, copy=True)
    np.fill_diagonal(p, np.nan)
    return pd.DataFrame(
        adjust_pvalues(p, method=method), index=pvalue.index, columns=pvalue.columns
    )
