"""Correlation of metric scores with human judgement: Pearson, Spearman, Kendall, signs, and the
influence of single items (the outlier effect of Graham & Baldwin 2014, Figure 1).

All functions take ``scores`` (a DataFrame, rows = items such as MT systems, columns = metrics)
and ``human`` (one human score per row).

References
----------
Y. Graham and T. Baldwin (2014). Testing for Significance of Increased Correlation with Human
Judgment. EMNLP 2014. https://aclanthology.org/D14-1020/
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.columnwise import (
    constant_columns,
    correlation_pvalue,
    kendall_matrix,
    pearson_columns,
    pearson_matrix,
    sd_columns,
    spearman_columns,
    zscore_columns,
)
from stats._core.errors import StatsInputError
from stats._core.validation import warn_degenerate

from .williams import validate_scores_human

__all__ = [
    "CorrelationResult",
    "LeaveOneOutResult",
    "correlate_with_human",
    "leave_one_out",
    "metric_correlations",
    "standard_deviation",
    "zscores",
]


@dataclass(frozen=True, kw_only=True)
class CorrelationResult:
    """Correlations of each metric with human scores (signed), metrics in ``order``.

    Attributes
    ----------
    pearson, spearman, kendall : Series
        Signed Pearson r, Spearman rho and Kendall tau-b of each metric with humans.
    pearson_pvalue, spearman_pvalue, kendall_pvalue : Series
        Two-sided p-values of each correlation against zero (Pearson and Spearman: the t test
        on n - 2 degrees of freedom; Kendall: :func:`scipy.stats.kendalltau`).
    sign : Series
        +1 where Pearson r >= 0, -1 where it is negative (an error metric such as TER),
        0 where it is undefined (constant metric).
    order : tuple of str
        Metrics from highest to lowest ``|pearson|`` (undefined last); every Series follows it.
    n : int
        Number of items.
    """

    pearson: pd.Series
    spearman: pd.Series
    kendall: pd.Series
    pearson_pvalue: pd.Series
    spearman_pvalue: pd.Series
    kendall_pvalue: pd.Series
    sign: pd.Series
    order: tuple
    n: int

    def to_frame(self) -> pd.DataFrame:
        """One row per metric (in ``order``): pearson, spearman, kendall, sign, |r| and p-values."""
        return pd.DataFrame(
            {
                "pearson": self.pearson,
                "spearman": self.spearman,
                "kendall": self.kendall,
                "sign": self.sign,
                "abs_pearson": self.pearson.abs(),
                "pearson_pvalue": self.pearson_pvalue,
                "spearman_pvalue": self.spearman_pvalue,
                "kendall_pvalue": self.kendall_pvalue,
            },
            index=pd.Index(list(self.order), name="metric"),
        )


def correlate_with_human(scores, human) -> CorrelationResult:
    r"""Pearson, Spearman and Kendall correlation of each metric with human scores.

    Parameters
    ----------
    scores : DataFrame
        Rows are items (systems or segments), columns are metrics.
    human : array_like
        Human scores, one per row (a Series with the same index is aligned).

    Returns
    -------
    CorrelationResult
        Signed correlations and their signs, metrics ordered by :math:`|r|` (Pearson) as
        Graham & Baldwin (2014) order them, so error metrics (TER, WER) rank by their
        strength, not their sign.

    Raises
    ------
    StatsInputError
        Non-numeric or non-finite scores, a human vector of the wrong length, or fewer than
        3 items.

    Warns
    -----
    DegenerateInputWarning
        A constant metric (or constant human scores): its correlations are NaN.

    Notes
    -----
    Pearson's :math:`r = \frac{\sum (x_i-\bar x)(y_i-\bar y)}
    {\sqrt{\sum (x_i-\bar x)^2 \sum (y_i-\bar y)^2}}`; Spearman's :math:`\rho` is Pearson's r
    of the ranks (average ranks for ties); their p-values are those of
    :math:`t = r\sqrt{(n-2)/(1-r^2)}` on :math:`n-2` degrees of freedom. Kendall's
    :math:`\tau_b` and its p-value are computed by :func:`scipy.stats.kendalltau`.

    Examples
    --------
    >>> import pandas as pd
    >>> from stats import correlate_with_human
    >>> human = pd.Series([1.0, 2.0, 3.0, 4.0], index=list('ABCD'))
    >>> scores = pd.DataFrame({'m1': [1.0, 2.5, 2.9, 4.2], 'm2': [4.0, 3.0, 2.0, 1.0]}, index=list('ABCD'))
    >>> res = correlate_with_human(scores, human)
    >>> res.pearson.round(3).to_dict()
    {'m2': -1.0, 'm1': 0.98}
    """
    frame, x, y = validate_scores_human(scores, human, min_items=3)
    names = list(frame.columns)
    const = constant_columns(x)
    if constant_columns(y):
        raise StatsInputError("human scores are all equal; no correlation with them is defined")
    if const.any():
        warn_degenerate(
            f"constant metric(s) {', '.join(np.asarray(names)[const])}: correlations undefined (NaN)",
            stacklevel=3,
        )
    n = x.shape[0]
    pearson = pearson_columns(x, y)
    spearman = spearman_columns(x, y)
    from scipy import stats as _st  # when first needed: a slow import (the dashboard's first page)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", _st.ConstantInputWarning)
        warnings.simplefilter("ignore", RuntimeWarning)
        kt = _st.kendalltau(x, np.broadcast_to(y[:, None], x.shape), axis=0)
    kendall = np.where(const, np.nan, kt.statistic)
    sign = np.where(np.isnan(pearson), 0, np.where(pearson < 0, -1, 1)).astype(int)
    key = np.where(np.isnan(pearson), np.inf, -np.abs(pearson))
    idx = np.argsort(key, kind="stable")
    order = [names[i] for i in idx]

    def series(a, name):
        return pd.Series(np.asarray(a, dtype=float)[idx], index=order, name=name)

    return CorrelationResult(
        pearson=series(pearson, "pearson"),
        spearman=series(spearman, "spearman"),
        kendall=series(kendall, "kendall"),
        pearson_pvalue=series(correlation_pvalue(pearson, n), "pearson_pvalue"),
        spearman_pvalue=series(correlation_pvalue(spearman, n), "spearman_pvalue"),
        kendall_pvalue=series(np.where(const, np.nan, kt.pvalue), "kendall_pvalue"),
        sign=pd.Series(sign[idx], index=order, name="sign"),
        order=tuple(order),
        n=int(n),
    )


#: ``method`` of :func:`metric_correlations` -> the matrix of a table's columns
_MATRICES = {
    "pearson": pearson_matrix,
    "spearman": lambda x: pearson_matrix(_ranks(x)),
    "kendall": kendall_matrix,
}


def _ranks(x: np.ndarray) -> np.ndarray:
    from scipy import stats as _st  # when first needed: a slow import

    return _st.rankdata(x, axis=0)


def metric_correlations(
    scores, human=None, *, sign_align: bool = True, method: str = "pearson"
) -> pd.DataFrame:
    """Correlations between metrics (the heatmap of Graham & Baldwin 2014, Fig. 2a).

    Parameters
    ----------
    scores : DataFrame
        Rows are items, columns are metrics.
    human : array_like, optional
        Human scores. When given (and ``sign_align``), each metric is first multiplied by the
        sign of its Pearson r with humans, so error metrics correlate positively with the
        others; rows/columns are ordered by ``|r|`` with humans, highest first.
    sign_align : bool, optional
        Apply the sign alignment (default ``True``; needs ``human``).
    method : {'pearson', 'spearman', 'kendall'}
        Pearson's r (default), Spearman's rho (r of the mid-ranks) or Kendall's tau-b (as
        :func:`scipy.stats.kendalltau`), each vectorised over the pairs of metrics.

    Returns
    -------
    DataFrame
        Square, symmetric, ones on the diagonal; NaN rows/columns for constant metrics (with a
        :class:`~stats.DegenerateInputWarning` naming them).

    Examples
    --------
    Pearson correlations between metrics.

    >>> import pandas as pd
    >>> from stats import metric_correlations
    >>> scores = pd.DataFrame({'m1': [1.0, 2.0, 3.0, 4.0], 'm2': [1.0, 3.0, 2.0, 4.0]})
    >>> metric_correlations(scores).round(2)
         m1   m2
    m1  1.0  0.8
    m2  0.8  1.0
    """
    if method not in _MATRICES:
        raise StatsInputError(
            f"method must be one of {', '.join(_MATRICES)}; got {method!r}"
        )
    matrix = _MATRICES[method]
    if human is None:
        frame = scores if isinstance(scores, pd.DataFrame) else pd.DataFrame(scores)
        frame, x, _ = validate_scores_human(frame, np.zeros(len(frame)), min_items=3)
        names = list(frame.columns)
        const = constant_columns(x)
        if const.any():
            warn_degenerate(
                f"constant column(s) {', '.join(map(str, np.asarray(names, dtype=object)[const]))}: "
                "correlations with them undefined (NaN)",
                stacklevel=2,
            )
        return pd.DataFrame(matrix(x), index=names, columns=names)
    res = correlate_with_human(scores, human)
    frame, x, _ = validate_scores_human(scores, human, min_items=3)
    pos = [list(frame.columns).index(m) for m in res.order]
    sign = res.sign.to_numpy().astype(float) if sign_align else np.ones(len(pos))
    sign = np.where(sign == 0, 1.0, sign)
    c = matrix(x[:, pos] * sign)
    return pd.DataFrame(c, index=list(res.order), columns=list(res.order))


@dataclass(frozen=True, kw_only=True)
class LeaveOneOutResult:
    """How much each single item moves each metric's Pearson r with humans.

    Attributes
    ----------
    r : Series
        Pearson r with all items (signed), per metric.
    r_without : DataFrame
        Index = items (systems), columns = metrics: r computed without that item.
    change : DataFrame
        ``r_without - r`` (negative: the item was inflating r).
    most_influential : Series
        Per metric, the item whose removal changes ``|r|`` the most.
    max_change : Series
        Per metric, ``r_without - r`` for that item (signed).
    """

    r: pd.Series
    r_without: pd.DataFrame
    change: pd.DataFrame
    most_influential: pd.Series
    max_change: pd.Series


def leave_one_out(scores, human) -> LeaveOneOutResult:
    r"""Pearson r of every metric with humans leaving out each item in turn (vectorised).

    Graham & Baldwin (2014, Figure 1) show a single very weak system inflating Pearson's r;
    this finds such systems for every metric at once.

    Parameters
    ----------
    scores : DataFrame
        Rows are items (systems), columns are metrics; the index names the items.
    human : array_like
        Human scores, one per row.

    Returns
    -------
    LeaveOneOutResult

    Raises
    ------
    StatsInputError
        As :func:`correlate_with_human`, and fewer than 4 items (3 must remain).

    Notes
    -----
    With scores centred on their means and :math:`n' = n - 1`, leaving out item :math:`i`
    uses the downdated sums :math:`S_x - x_i`, :math:`S_{xy} - x_i y_i`, ..., so

    .. math::

        r_{(-i)} = \frac{n' S'_{xy} - S'_x S'_y}
            {\sqrt{(n' S'_{xx} - S'^2_x)(n' S'_{yy} - S'^2_y)}}

    for all items and metrics in one array expression.
    """
    frame, x, y = validate_scores_human(scores, human, min_items=4)
    names = list(frame.columns)
    items = list(frame.index)
    xc = x - x.mean(axis=0)
    yc = y - y.mean()
    n1 = x.shape[0] - 1.0
    sx = xc.sum(axis=0) - xc  # (n, m)
    sy = (yc.sum() - yc)[:, None]
    sxx = (xc**2).sum(axis=0) - xc**2
    syy = ((yc**2).sum() - yc**2)[:, None]
    sxy = (xc * yc[:, None]).sum(axis=0) - xc * yc[:, None]
    vx = n1 * sxx - sx**2
    vy = n1 * syy - sy**2
    scale_x = np.maximum((xc**2).sum(axis=0), np.finfo(float).tiny)
    scale_y = max(float((yc**2).sum()), np.finfo(float).tiny)
    with np.errstate(divide="ignore", invalid="ignore"):
        r_wo = (n1 * sxy - sx * sy) / np.sqrt(vx * vy)
    degenerate = (vx <= 1e-12 * n1 * scale_x) | (vy <= 1e-12 * n1 * scale_y)
    r_wo = np.where(degenerate, np.nan, np.clip(r_wo, -1, 1))
    if degenerate.any():
        warn_degenerate(
            "some leave-one-out correlations are undefined (a metric or the human scores are "
            "constant without one item); returned NaN",
            stacklevel=3,
        )
    r_full = pearson_columns(x, y)
    change = r_wo - r_full
    abs_change = np.abs(np.abs(r_wo) - np.abs(r_full))
    filled = np.where(np.isnan(abs_change), -np.inf, abs_change)
    best = np.argmax(filled, axis=0)
    valid = np.isfinite(filled.max(axis=0))
    most = [items[b] if ok else None for b, ok in zip(best, valid, strict=True)]
    maxc = np.where(valid, change[best, np.arange(len(names))], np.nan)
    idx = pd.Index(items, name=frame.index.name)
    return LeaveOneOutResult(
        r=pd.Series(r_full, index=names, name="pearson"),
        r_without=pd.DataFrame(r_wo, index=idx, columns=names),
        change=pd.DataFrame(change, index=idx, columns=names),
        most_influential=pd.Series(most, index=names, name="most_influential", dtype=object),
        max_change=pd.Series(maxc, index=names, name="max_change"),
    )


def _columns(values, name: str | None):
    """``values`` as a float table (n, m), its column labels, and how to rebuild the input's
    type: ('series', index), ('frame', index) or ('array', ndim)."""
    if isinstance(values, pd.Series):
        label = name if name is not None else (values.name if values.name is not None else "values")
        return values.to_numpy(dtype=float)[:, None], [label], ("series", values.index)
    if isinstance(values, pd.DataFrame):
        return values.to_numpy(dtype=float), list(values.columns), ("frame", values.index)
    try:
        x = np.asarray(values, dtype=float)
    except (TypeError, ValueError) as exc:
        raise StatsInputError(f"{name or 'values'}: not numbers ({exc})") from None
    if x.ndim not in (1, 2):
        raise StatsInputError(f"{name or 'values'}: expected 1 or 2 dimensions; got {x.ndim}")
    if x.ndim == 1:
        return x[:, None], [name or "values"], ("array", 1)
    return x, [f"{name or 'values'}[:, {j}]" for j in range(x.shape[1])], ("array", 2)


def zscores(values, *, ddof: int = 1, name: str | None = None):
    r"""Values in standard deviations from their mean: :math:`z_i = (x_i - \bar x) / s`, with
    :math:`s` the standard deviation over the finite values (divisor :math:`k - \text{ddof}`;
    :func:`standard_deviation`). The standardised axes of the metrics-vs-humans scatter
    (Graham & Baldwin 2014) and of the QE gold-vs-prediction scatter (Graham 2015, Figure 3).

    Parameters
    ----------
    values : array_like, Series or DataFrame
        One set of values (1-D, a Series) or several (a DataFrame or a 2-D array: each column
        standardised on its own). NaN stays NaN and is left out of the mean and scale.
    ddof : int
        Delta degrees of freedom of the scale (default 1, the sample standard deviation).
    name : str, optional
        What the values are, for the warning (default: the Series' name, the columns).

    Returns
    -------
    Same type and shape as ``values``
        The z-scores. A constant set (its standard deviation is 0) or one with ``ddof`` or
        fewer finite values has no scale: its z-scores are NaN, never 0.

    Warns
    -----
    DegenerateInputWarning
        Naming each set whose z-scores are undefined, and why.

    Examples
    --------
    >>> from stats import zscores
    >>> zscores([1.0, 2.0, 3.0]).tolist()
    [-1.0, 0.0, 1.0]
    """
    x, labels, (kind, extra) = _columns(values, name)
    z, undefined = zscore_columns(x, ddof=ddof)
    few = np.isfinite(x).sum(axis=0) <= ddof
    names = np.asarray(labels, dtype=object)
    for mask, why in ((undefined & ~few, "constant (standard deviation 0)"),
                      (few, f"fewer than {ddof + 1} values")):
        if mask.any():
            warn_degenerate(
                f"{', '.join(map(str, names[mask]))}: {why}, no scale to standardise by; "
                "z-scores undefined (NaN)",
                stacklevel=3,
            )
    if kind == "series":
        return pd.Series(z[:, 0], index=extra, name=values.name)
    if kind == "frame":
        return pd.DataFrame(z, index=extra, columns=values.columns)
    return z[:, 0] if extra == 1 else z


def standard_deviation(values, *, ddof: int = 1, name: str | None = None):
    r"""Standard deviation over the finite values,
    :math:`s = \sqrt{\sum_i (x_i - \bar x)^2 / (k - \text{ddof})}` for :math:`k` finite
    values: the spread of a set of scores or of a test's resampled differences.

    Parameters
    ----------
    values : array_like, Series or DataFrame
        One set of values (1-D, a Series) or several (a DataFrame or 2-D array: per column).
    ddof : int
        Delta degrees of freedom (default 1; 0 for the spread of resampled statistics, as
        ``numpy.std``).
    name : str, optional
        What the values are, for the warning.

    Returns
    -------
    float, or a Series (DataFrame input) or array (2-D input) with one value per column
        Exactly 0 for constant values; NaN with ``ddof`` or fewer finite values.

    Warns
    -----
    DegenerateInputWarning
        Naming each set with too few values.

    Examples
    --------
    >>> from stats import standard_deviation
    >>> float(standard_deviation([1.0, 2.0, 3.0, 4.0]))
    1.2909944487358056
    """
    x, labels, (kind, extra) = _columns(values, name)
    sd = sd_columns(x, ddof=ddof)
    few = np.isnan(sd)
    if few.any():
        warn_degenerate(
            f"{', '.join(map(str, np.asarray(labels, dtype=object)[few]))}: fewer than "
            f"{ddof + 1} values, standard deviation undefined (NaN)",
            stacklevel=3,
        )
    if kind == "frame":
        return pd.Series(sd, index=values.columns, name="standard_deviation")
    if kind == "array" and extra == 2:
        return sd
    return float(sd[0])
