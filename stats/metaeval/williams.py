"""The Williams test for a difference between two dependent, overlapping correlations.

Two metrics scored on the same items (systems or segments) are each correlated with the same
human scores; their correlations are therefore dependent, and they overlap in the human
variable. Graham & Baldwin (2014) propose the Williams (1959) test for the question "does metric
1 correlate better with humans than metric 2?", and this module implements it with the Zou (2007)
confidence interval for the difference in correlation as the effect size.

Notation (the paper's): ``X1`` and ``X2`` are the two metrics, ``X3`` the human score;
``r13`` and ``r23`` are the metrics' Pearson correlations with humans and ``r12`` the
correlation of the two metrics with each other.

References
----------
.. [1] E. J. Williams (1959). *Regression Analysis*, volume 14. Wiley, New York.
.. [2] Y. Graham and T. Baldwin (2014). Testing for Significance of Increased Correlation with
   Human Judgment. EMNLP 2014, 172-176. https://aclanthology.org/D14-1020/
.. [3] G. Y. Zou (2007). Toward using confidence intervals to compare correlations.
   *Psychological Methods* 12(4), 399-413. https://doi.org/10.1037/1082-989X.12.4.399
.. [4] J. H. Steiger (1980). Tests for comparing elements of a correlation matrix.
   *Psychological Bulletin* 87(2), 245-251. https://doi.org/10.1037/0033-2909.87.2.245
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import pandas as pd
from scipy import special

from stats._core.budget import check_budget
from stats._core.columnwise import constant_columns, pearson_columns, pearson_matrix
from stats._core.errors import StatsInputError
from stats._core.keywords import keyword_only
from stats._core.results import StatisticPvalue
from stats._core.validation import (
    align_by_label,
    check_alternative,
    check_confidence_level,
    warn_degenerate,
)

__all__ = [
    "ConfidenceInterval",
    "WilliamsMatrixResult",
    "WilliamsResult",
    "williams_all_pairs",
    "williams_test",
    "williams_winners",
    "zou_confidence_interval",
]


class ConfidenceInterval(NamedTuple):
    """A confidence interval ``(low, high)`` (floats or arrays)."""

    low: float | np.ndarray
    high: float | np.ndarray


@dataclass(frozen=True, kw_only=True)
class WilliamsResult(StatisticPvalue):
    """Result of :func:`williams_test`; every numeric field broadcasts like the inputs.
    Unpacks as ``statistic, pvalue = result``.

    Attributes
    ----------
    statistic : float or ndarray
        The Williams t statistic (positive when ``r13 > r23``).
    pvalue : float or ndarray
        p-value for ``alternative``, from Student's t with ``df = n - 3``.
    df : float or ndarray
        Degrees of freedom, ``n - 3``.
    n : int or ndarray
        Number of items the correlations were computed on.
    r12, r13, r23 : float or ndarray
        The correlations as passed in, in the paper's notation: ``r13`` = ``r_human_a``
        (metric A with humans), ``r23`` = ``r_human_b``, ``r12`` = ``r_a_b`` (the metrics
        with each other); the properties of those names return the same values.
    difference : float or ndarray
        ``r13 - r23``.
    ci_low, ci_high : float or ndarray
        Zou (2007) two-sided confidence interval of ``difference`` at ``confidence_level``.
    alternative : str
        ``'greater'`` (``r13 > r23``), ``'less'`` or ``'two-sided'``.
    confidence_level : float
    """

    statistic: float | np.ndarray
    pvalue: float | np.ndarray
    df: float | np.ndarray
    n: int | np.ndarray
    r12: float | np.ndarray
    r13: float | np.ndarray
    r23: float | np.ndarray
    difference: float | np.ndarray
    ci_low: float | np.ndarray
    ci_high: float | np.ndarray
    alternative: str
    confidence_level: float

    def confidence_interval(self, confidence_level: float | None = None) -> ConfidenceInterval:
        """Zou (2007) two-sided confidence interval of ``r_human_a - r_human_b`` at
        ``confidence_level`` (default: the level the test was run with)."""
        if confidence_level is None or confidence_level == self.confidence_level:
            return ConfidenceInterval(self.ci_low, self.ci_high)
        level = check_confidence_level(confidence_level)
        r12, r13, r23, n = (
            np.asarray(v, dtype=float) for v in (self.r12, self.r13, self.r23, self.n)
        )
        low, high = _zou(r12, r13, r23, n, level)
        return ConfidenceInterval(scalarize(low), scalarize(high))

    @property
    def r_human_a(self) -> float | np.ndarray:
        """Metric A's correlation with humans (the paper's ``r13``)."""
        return self.r13

    @property
    def r_human_b(self) -> float | np.ndarray:
        """Metric B's correlation with humans (the paper's ``r23``)."""
        return self.r23

    @property
    def r_a_b(self) -> float | np.ndarray:
        """The two metrics' correlation with each other (the paper's ``r12``)."""
        return self.r12


def scalarize(a):
    """A 0-d array as its scalar; any other array as is."""
    a = np.asarray(a)
    return a[()] if a.ndim == 0 else a


def as_correlation(x, name: str) -> np.ndarray:
    """``x`` as an array of correlations in [-1, 1]; anything else refused naming ``name``."""
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise StatsInputError(
            f"{name} must be a correlation (a number in [-1, 1]); got {x!r}"
        ) from None
    bad = ~np.isfinite(arr) | (np.abs(arr) > 1.0 + 1e-12)
    if bad.any():
        value = arr[np.unravel_index(int(np.flatnonzero(bad)[0]), arr.shape)] if arr.ndim else arr
        raise StatsInputError(f"{name} must be a correlation in [-1, 1]; got {float(value)!r}")
    return np.clip(arr, -1.0, 1.0)


def as_sample_size(n) -> np.ndarray:
    """``n`` as an integer array of item counts; anything else refused naming ``n``."""
    try:
        arr = np.asarray(n)
    except (TypeError, ValueError):  # pragma: no cover - asarray rarely fails
        raise StatsInputError(f"n must be an integer number of items; got {n!r}") from None
    if arr.dtype == bool or not (
        np.issubdtype(arr.dtype, np.integer)
        or (
            np.issubdtype(arr.dtype, np.floating)
            and np.all(np.isfinite(arr))
            and np.all(arr == np.round(arr))
        )
    ):
        raise StatsInputError(f"n must be an integer number of items; got {n!r}")
    if np.any(arr < 1):
        raise StatsInputError(f"n must be a positive number of items; got {n!r}")
    return arr.astype(float)


def _fisher_ci(r: np.ndarray, n: np.ndarray, zcrit: float) -> tuple[np.ndarray, np.ndarray]:
    """Fisher z confidence interval of a single correlation, back-transformed."""
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.arctanh(r)
        half = zcrit / np.sqrt(n - 3.0)
        return np.tanh(z - half), np.tanh(z + half)


@keyword_only(
    "zou_confidence_interval(r_human_a=..., r_human_b=..., r_a_b=..., n=...)",
    refused={"r12": "r_a_b=", "r13": "r_human_a=", "r23": "r_human_b="},
)
def zou_confidence_interval(
    *, r_human_a, r_human_b, r_a_b, n, confidence_level: float = 0.95
) -> ConfidenceInterval:
    r"""Zou (2007) confidence interval of ``r_human_a - r_human_b`` for overlapping dependent
    correlations (keyword-only; the notation of :func:`williams_test`).

    Parameters
    ----------
    r_human_a, r_human_b : float or array_like
        Correlations of metric A and of metric B with the human scores (the paper's
        :math:`r_{13}`, :math:`r_{23}`).
    r_a_b : float or array_like
        Correlation between the two metrics (the paper's :math:`r_{12}`).
    n : int or array_like
        Number of items.
    confidence_level : float, optional
        Two-sided confidence level, default 0.95.

    Returns
    -------
    ConfidenceInterval
        ``(low, high)``; NaN where a correlation is :math:`\pm 1` or ``n < 4``.

    Notes
    -----
    With :math:`(l_j, u_j)` the Fisher-z interval of :math:`r_{j3}`,

    .. math::

        l_j, u_j = \tanh\!\left(\operatorname{artanh} r_{j3} \mp
            \frac{z_{1-\alpha/2}}{\sqrt{n-3}}\right),

    and :math:`c` the asymptotic correlation between :math:`r_{13}` and :math:`r_{23}`
    (Dunn & Clark 1969, as used by Zou 2007)

    .. math::

        c = \frac{(r_{12} - \tfrac12 r_{13} r_{23})(1 - r_{13}^2 - r_{23}^2 - r_{12}^2)
                  + r_{12}^3}{(1 - r_{13}^2)(1 - r_{23}^2)},

    the interval of :math:`d = r_{13} - r_{23}` is

    .. math::

        L = d - \sqrt{(r_{13} - l_1)^2 + (u_2 - r_{23})^2
                      - 2c\,(r_{13} - l_1)(u_2 - r_{23})},

        U = d + \sqrt{(u_1 - r_{13})^2 + (r_{23} - l_2)^2
                      - 2c\,(u_1 - r_{13})(r_{23} - l_2)}.

    References
    ----------
    G. Y. Zou (2007). Toward using confidence intervals to compare correlations.
    *Psychological Methods* 12(4), 399-413. https://doi.org/10.1037/1082-989X.12.4.399

    Examples
    --------
    The interval of the difference of the two correlations of the paper's example.

    >>> from stats.metaeval import zou_confidence_interval
    >>> ci = zou_confidence_interval(r_human_a=0.95, r_human_b=0.85, r_a_b=0.9, n=20)
    >>> round(float(ci.low), 3), round(float(ci.high), 3)
    (0.028, 0.279)
    """
    confidence_level = check_confidence_level(confidence_level)
    r12 = as_correlation(r_a_b, "r_a_b")
    r13 = as_correlation(r_human_a, "r_human_a")
    r23 = as_correlation(r_human_b, "r_human_b")
    n = as_sample_size(n)
    low, high = _zou(r12, r13, r23, n, confidence_level)
    return ConfidenceInterval(scalarize(low), scalarize(high))


def _zou(r12, r13, r23, n, confidence_level):
    zcrit = special.ndtri(0.5 + confidence_level / 2.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        l1, u1 = _fisher_ci(r13, n, zcrit)
        l2, u2 = _fisher_ci(r23, n, zcrit)
        c = ((r12 - 0.5 * r13 * r23) * (1 - r13**2 - r23**2 - r12**2) + r12**3) / (
            (1 - r13**2) * (1 - r23**2)
        )
        d = r13 - r23
        lo = d - np.sqrt(
            np.maximum((r13 - l1) ** 2 + (u2 - r23) ** 2 - 2 * c * (r13 - l1) * (u2 - r23), 0.0)
        )
        hi = d + np.sqrt(
            np.maximum((u1 - r13) ** 2 + (r23 - l2) ** 2 - 2 * c * (u1 - r13) * (r23 - l2), 0.0)
        )
    bad = (np.abs(r13) >= 1) | (np.abs(r23) >= 1) | (n < 4) | ~np.isfinite(c)
    lo = np.where(bad, np.nan, lo)
    hi = np.where(bad, np.nan, hi)
    return lo, hi


@keyword_only(
    "williams_test(r_human_a=..., r_human_b=..., r_a_b=..., n=...)",
    refused={"r12": "r_a_b=", "r13": "r_human_a=", "r23": "r_human_b="},
)
def williams_test(
    *,
    r_human_a,
    r_human_b,
    r_a_b,
    n,
    alternative: str = "greater",
    confidence_level: float = 0.95,
) -> WilliamsResult:
    r"""Williams test: does metric A correlate with humans more than metric B does?

    Tests :math:`H_0: \rho_{A,human} = \rho_{B,human}` for two dependent correlations sharing
    the human scores, taking the correlation of the two metrics with each other into account.
    All arguments broadcast against each other, so one call tests any number of pairs. The
    arguments are keyword-only: a positional call is refused (``TypeError``), because
    ``r12``, ``r13``, ``r23`` name different correlations in the paper, in psych and in
    mt-metrics-eval (see the table below).

    Parameters
    ----------
    r_human_a : float or array_like
        Pearson correlation of metric A with the human scores.
    r_human_b : float or array_like
        Pearson correlation of metric B with the human scores.
    r_a_b : float or array_like
        Pearson correlation between metric A and metric B (on the same items).
    n : int or array_like
        Number of items (systems or segments) the correlations were computed on.
    alternative : {'greater', 'less', 'two-sided'}, optional
        ``'greater'`` (default, as in Graham & Baldwin 2014): metric A correlates better,
        :math:`\rho_{A,human} > \rho_{B,human}`; ``'less'``: metric B does;
        ``'two-sided'``: they differ.
    confidence_level : float, optional
        Level of the two-sided Zou (2007) interval of ``r_human_a - r_human_b`` (default
        0.95). The interval is two-sided whatever ``alternative`` is.

    Returns
    -------
    WilliamsResult
        ``statistic`` (t), ``pvalue``, ``df`` (``n - 3``), ``n``, the three correlations,
        ``difference`` (``r13 - r23``) and its interval ``ci_low``/``ci_high``. Scalars for
        scalar input, arrays of the broadcast shape otherwise.

    Raises
    ------
    StatsInputError
        A correlation outside [-1, 1] or not a number, ``n`` not a positive integer, or a bad
        ``alternative``/``confidence_level``.

    Warns
    -----
    DegenerateInputWarning
        Where the test is undefined the statistic, p-value and interval are NaN: a correlation
        of :math:`\pm 1`, :math:`K \le 0` (the three correlations are not those of real data,
        or the metrics are collinear with humans) or ``n < 4``.

    Notes
    -----
    The same three correlations in each notation (tested in ``tests/metaeval/test_williams_api.py``):

    ==========================  ===============  ===============  ===============
    here                        ``r_human_a``    ``r_human_b``    ``r_a_b``
    ==========================  ===============  ===============  ===============
    Graham & Baldwin (2014)     :math:`r_{13}`   :math:`r_{23}`   :math:`r_{12}`
    ``psych::r.test``           ``r12``          ``r13``          ``r23``
    MTME ``WilliamsTest``       ``r12``          ``r13``          ``r23``
    ==========================  ===============  ===============  ===============

    In the paper, variables 1 and 2 are the metrics and 3 the humans; in
    ``psych::r.test(n, r12, r13, r23)`` and in mt-metrics-eval's ``WilliamsTest(r12, r13,
    r23, n)``, variable 1 is the humans. Both of those give a one-sided p-value in the
    direction observed (from :math:`|t|`): equal to ``pvalue`` here when
    ``r_human_a >= r_human_b``; ``twotailed=TRUE`` / ``one_sided=False`` equal
    ``alternative='two-sided'``. The result keeps the paper's names as fields
    (``r13``, ``r23``, ``r12``) and also answers to ``r_human_a``, ``r_human_b``, ``r_a_b``.

    With :math:`K = 1 - r_{12}^2 - r_{13}^2 - r_{23}^2 + 2 r_{12} r_{13} r_{23}` (the
    determinant of the 3x3 correlation matrix; paper notation),

    .. math::

        t(n-3) = \frac{(r_{13} - r_{23})\sqrt{(n-1)(1 + r_{12})}}
                      {\sqrt{2K\frac{n-1}{n-3} + \frac{(r_{23} + r_{13})^2}{4}(1 - r_{12})^3}}.

    For comparing an error metric (lower is better, e.g. TER) with others, multiply its
    scores by -1 first, so that its correlations enter with their signs aligned; this is what
    :func:`williams_all_pairs` does with ``sign_align=True``.

    References
    ----------
    E. J. Williams (1959). *Regression Analysis*. Wiley.

    Y. Graham and T. Baldwin (2014). Testing for Significance of Increased Correlation with
    Human Judgment. EMNLP 2014. https://aclanthology.org/D14-1020/

    G. Y. Zou (2007). Toward using confidence intervals to compare correlations.
    *Psychological Methods* 12(4), 399-413. https://doi.org/10.1037/1082-989X.12.4.399

    Examples
    --------
    >>> from stats import williams_test
    >>> t, p = williams_test(r_human_a=0.95, r_human_b=0.85, r_a_b=0.9, n=20)
    >>> round(float(t), 4), round(float(p), 4)
    (2.9261, 0.0047)
    """
    alternative = check_alternative(alternative)
    confidence_level = check_confidence_level(confidence_level)
    r12a = as_correlation(r_a_b, "r_a_b")
    r13a = as_correlation(r_human_a, "r_human_a")
    r23a = as_correlation(r_human_b, "r_human_b")
    na = as_sample_size(n)
    r12a, r13a, r23a, na = np.broadcast_arrays(r12a, r13a, r23a, na)
    stat, p, low, high = williams_arrays(r12a, r13a, r23a, na, alternative, confidence_level)
    n_out = scalarize(na.astype(np.int64))
    return WilliamsResult(
        statistic=scalarize(stat),
        pvalue=scalarize(p),
        df=scalarize(na - 3.0),
        n=int(n_out) if np.ndim(n_out) == 0 else n_out,
        r12=scalarize(r12a),
        r13=scalarize(r13a),
        r23=scalarize(r23a),
        difference=scalarize(r13a - r23a),
        ci_low=scalarize(low),
        ci_high=scalarize(high),
        alternative=alternative,
        confidence_level=confidence_level,
    )


def williams_arrays(r12, r13, r23, n, alternative, confidence_level, *, warn=True, context=""):
    """Vectorised core; returns (t, p, ci_low, ci_high) arrays and warns once if degenerate."""
    from scipy import stats as _st  # when first needed: a slow import (the dashboard's first page)
    k = 1.0 - r12**2 - r13**2 - r23**2 + 2.0 * r12 * r13 * r23
    with np.errstate(divide="ignore", invalid="ignore"):
        num = (r13 - r23) * np.sqrt((n - 1.0) * (1.0 + r12))
        den = np.sqrt(2.0 * k * (n - 1.0) / (n - 3.0) + ((r23 + r13) ** 2 / 4.0) * (1.0 - r12) ** 3)
        t = num / den
    unit = (np.abs(r12) >= 1) | (np.abs(r13) >= 1) | (np.abs(r23) >= 1)
    degenerate = unit | (k <= 0) | (n < 4) | ~np.isfinite(t)
    t = np.where(degenerate, np.nan, t)
    df = np.where(n < 4, np.nan, n - 3.0)
    if alternative == "greater":
        p = _st.t.sf(t, df)
    elif alternative == "less":
        p = _st.t.cdf(t, df)
    else:
        p = np.minimum(2.0 * _st.t.sf(np.abs(t), df), 1.0)
    p = np.where(degenerate, np.nan, p)
    low, high = _zou(r12, r13, r23, n, confidence_level)
    if warn and degenerate.any():
        reasons = []
        if unit.any():
            reasons.append("a correlation of +-1")
        if ((k <= 0) & ~unit).any():
            reasons.append("K <= 0 (the three correlations are inconsistent or collinear)")
        if (n < 4).any():
            reasons.append("n < 4 (the test has n - 3 degrees of freedom)")
        count = int(degenerate.sum())
        what = "test is" if degenerate.size == 1 else f"{count} of {degenerate.size} tests are"
        warn_degenerate(
            f"Williams {what} undefined{context} ({'; '.join(reasons) or 'non-finite statistic'}); "
            "returned NaN",
            stacklevel=4,
        )
    return t, p, low, high


# ---------------------------------------------------------------------------------------------
# All pairs of metrics
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class WilliamsMatrixResult(StatisticPvalue):
    """Result of :func:`williams_all_pairs`: every pair of metrics, in the reference tool's layout.

    The square DataFrames are indexed and columned by ``order`` (highest (aligned) correlation
    with humans first). Cell ``(row, col)`` holds the test that ``row`` correlates better with
    humans than ``col`` and is filled only where ``row``'s (aligned) r is higher; the mirror cell
    and the diagonal are NaN.

    Attributes
    ----------
    statistic, pvalue : DataFrame
        Williams t and its p-value (one-sided for ``'greater'``; two-sided p placed in the
        row of the better metric for ``'two-sided'``).
    difference, ci_low, ci_high : DataFrame
        Difference in (aligned) r, row minus column, and its Zou (2007) confidence interval.
    order : tuple of str
        Metrics from highest to lowest (aligned) r with humans; undefined r (constant
        metric) last.
    r_human : Series
        SIGNED Pearson r of each metric with humans, in ``order``.
    sign : Series
        +1 or -1 per metric: the sign applied before comparing (all +1 when
        ``sign_align=False``); 0 where the correlation is undefined (constant metric).
    metric_corr : DataFrame
        Pearson correlations between the (aligned) metrics, in ``order``.
    n : int
    df : int
    sign_align : bool
    alternative : str
    confidence_level : float
    """

    statistic: pd.DataFrame
    pvalue: pd.DataFrame
    difference: pd.DataFrame
    ci_low: pd.DataFrame
    ci_high: pd.DataFrame
    order: tuple
    r_human: pd.Series
    sign: pd.Series
    metric_corr: pd.DataFrame
    n: int
    df: int
    sign_align: bool
    alternative: str
    confidence_level: float

    @property
    def r_aligned(self) -> pd.Series:
        """The correlations that were compared: ``sign * r_human`` (``|r|`` when aligned)."""
        return self.r_human * self.sign

    def significant(self, alpha: float = 0.05) -> pd.DataFrame:
        """Boolean matrix: ``True`` where the row metric is significantly better at ``alpha``."""
        from stats._core.validation import check_alpha

        alpha = check_alpha(alpha)
        return self.pvalue.lt(alpha) & self.pvalue.notna()

    def to_frame(self) -> pd.DataFrame:
        """One row per tested pair (``better`` vs ``worse``), sorted as the matrix reads.

        Columns: better, worse, r_better, r_worse (signed), r_metrics (aligned metric-metric
        r), difference, ci_low, ci_high, statistic, pvalue.
        """
        filled = self.difference.notna().to_numpy()
        rows, cols = np.nonzero(filled)
        names = np.asarray(self.order, dtype=object)
        r = self.r_human.to_numpy()
        return pd.DataFrame(
            {
                "better": names[rows],
                "worse": names[cols],
                "r_better": r[rows],
                "r_worse": r[cols],
                "r_metrics": self.metric_corr.to_numpy()[rows, cols],
                "difference": self.difference.to_numpy()[rows, cols],
                "ci_low": self.ci_low.to_numpy()[rows, cols],
                "ci_high": self.ci_high.to_numpy()[rows, cols],
                "statistic": self.statistic.to_numpy()[rows, cols],
                "pvalue": self.pvalue.to_numpy()[rows, cols],
            }
        )


def _scores_frame(scores) -> pd.DataFrame:
    if isinstance(scores, pd.Series):
        scores = scores.to_frame()
    if not isinstance(scores, pd.DataFrame):
        try:
            arr = np.asarray(scores, dtype=float)
        except (TypeError, ValueError):
            raise StatsInputError(
                f"scores must be a DataFrame (rows = items, columns = metrics); got {type(scores).__name__}"
            ) from None
        if arr.ndim != 2:
            raise StatsInputError(
                f"scores must be 2-dimensional (items x metrics); got shape {arr.shape}"
            )
        scores = pd.DataFrame(arr, columns=[str(i) for i in range(arr.shape[1])])
    return scores


def validate_scores_human(
    scores, human, *, min_items: int = 4
) -> tuple[pd.DataFrame, np.ndarray, np.ndarray]:
    """Check a (items x metrics) score table and a human vector; return (frame, x, y).

    Raises :class:`StatsInputError` for: no metric columns, duplicate or non-string column
    names, non-numeric or non-finite scores (naming the column and row), a human vector of the
    wrong length or with non-finite values, and fewer than ``min_items`` items.
    """
    frame = _scores_frame(scores)
    if frame.shape[1] == 0:
        raise StatsInputError("scores has no metric columns")
    names = [str(c) for c in frame.columns]
    dup = sorted({c for c in names if names.count(c) > 1})
    if dup:
        raise StatsInputError(f"scores has duplicate column name(s): {', '.join(dup)}")
    frame = frame.set_axis(names, axis=1)
    try:
        x = frame.to_numpy(dtype=float)
    except (TypeError, ValueError):
        bad = [c for c in names if not pd.api.types.is_numeric_dtype(frame[c])]
        raise StatsInputError(f"scores column {bad[0] if bad else '?'!r} is not numeric") from None
    if not np.isfinite(x).all():
        i, j = np.argwhere(~np.isfinite(x))[0]
        raise StatsInputError(
            f"scores column {names[j]!r}, row {frame.index[i]!r}: value {x[i, j]} is NaN or infinite"
        )
    # A human Series labelled by item is aligned on the rows of scores; other labels are an
    # error (used by position they would pair one item's metric scores with another's human score).
    human = align_by_label(
        human,
        frame.index,
        message="human (a Series) is indexed by other items than the rows of scores",
        missing="no human score for",
        extra="human scores for items not in scores:",
    )
    try:
        y = np.asarray(human, dtype=float)
    except (TypeError, ValueError):
        raise StatsInputError("human must be numeric (one score per row of scores)") from None
    if y.ndim != 1 or y.shape[0] != x.shape[0]:
        raise StatsInputError(
            f"human must have one score per row of scores ({x.shape[0]}); got shape {y.shape}"
        )
    if not np.isfinite(y).all():
        i = int(np.flatnonzero(~np.isfinite(y))[0])
        raise StatsInputError(f"human, row {frame.index[i]!r}: value {y[i]} is NaN or infinite")
    if x.shape[0] < min_items:
        raise StatsInputError(
            f"need at least {min_items} items (systems or segments) for the Williams test, which "
            f"has n - 3 degrees of freedom; got {x.shape[0]}"
        )
    return frame, x, y


def williams_all_pairs(
    scores,
    human,
    *,
    sign_align: bool = True,
    alternative: str = "greater",
    confidence_level: float = 0.95,
) -> WilliamsMatrixResult:
    r"""Williams tests for every pair of metrics, vectorised (no loop over pairs).

    Parameters
    ----------
    scores : DataFrame
        Rows are items (systems, or segments), columns are metrics (or QE systems).
    human : array_like
        Human scores, one per row of ``scores`` (a Series with the same index is aligned).
    sign_align : bool, optional
        ``True`` (default; metrics task, as in Graham & Baldwin 2014): each metric is
        multiplied by the sign of its Pearson r with humans before anything else, so error
        metrics such as TER are compared by :math:`|r|`. ``False`` (QE task): signed r.
    alternative : {'greater', 'two-sided'}, optional
        ``'greater'`` (default): the one-sided p-value that the row metric correlates better;
        ``'two-sided'``: the two-sided p-value, placed in the row of the better metric.
    confidence_level : float, optional
        Level of the Zou (2007) interval of each difference (default 0.95, two-sided).

    Returns
    -------
    WilliamsMatrixResult

    Raises
    ------
    StatsInputError
        Scores not a numeric 2-D table, NaN/infinite values, duplicate metric names, a human
        vector of the wrong length, or fewer than 4 items.

    Warns
    -----
    DegenerateInputWarning
        A constant metric (its r is undefined; its row and column are NaN) or pairs where the
        test is undefined (e.g. two identical metrics).

    Notes
    -----
    With :math:`s_j = \operatorname{sign} r(X_j, H)` (or 1), the aligned correlations are
    :math:`\tilde r_{jH} = s_j r_{jH}` and :math:`\tilde r_{jk} = s_j s_k r_{jk}`; cell
    :math:`(j, k)` with :math:`\tilde r_{jH} > \tilde r_{kH}` holds
    ``williams_test(r_human_a=r~_jH, r_human_b=r~_kH, r_a_b=r~_jk, n=n)``.

    References
    ----------
    Y. Graham and T. Baldwin (2014). Testing for Significance of Increased Correlation with
    Human Judgment. EMNLP 2014. https://aclanthology.org/D14-1020/

    Examples
    --------
    Three metrics against human scores of five systems; cell (row, col) tests row better than
    col.

    >>> import pandas as pd
    >>> from stats import williams_all_pairs
    >>> human = pd.Series([1.0, 2.0, 3.0, 4.0, 5.0], index=list('ABCDE'))
    >>> scores = pd.DataFrame({'m1': [1.1, 2.0, 2.9, 4.2, 5.0], 'm2': [1.5, 1.9, 3.6, 3.8, 4.9], 'm3': [2.0, 1.0, 3.0, 5.0, 4.0]}, index=list('ABCDE'))
    >>> res = williams_all_pairs(scores, human)
    >>> res.pvalue.round(3)
        m1     m2     m3
    m1 NaN  0.074  0.013
    m2 NaN    NaN  0.115
    m3 NaN    NaN    NaN
    """
    alternative = check_alternative(alternative, ("greater", "two-sided"))
    confidence_level = check_confidence_level(confidence_level)
    frame, x, y = validate_scores_human(scores, human)
    check_budget(what="Williams test", n_metrics=frame.shape[1])
    names = list(frame.columns)
    n_items = x.shape[0]
    if constant_columns(y):
        raise StatsInputError("human scores are all equal; no correlation with them is defined")

    r = pearson_columns(x, y)
    constant = np.isnan(r)
    if constant.any():
        warn_degenerate(
            f"constant metric(s) {', '.join(np.asarray(names)[constant])}: correlation undefined, "
            "their Williams tests are NaN",
            stacklevel=3,
        )
    sign = np.where(sign_align & (r < 0), -1.0, 1.0)
    ra = r * sign
    key = np.where(np.isnan(ra), np.inf, -ra)
    idx = np.argsort(key, kind="stable")
    order = tuple(names[i] for i in idx)
    ra, r, sign = ra[idx], r[idx], sign[idx]
    corr = pearson_matrix(x[:, idx] * sign)

    r13 = ra[:, None]
    r23 = ra[None, :]
    better = r13 > r23  # NaN compares False
    m = len(names)
    shape = (m, m)
    r12b, r13b, r23b = np.broadcast_arrays(corr, r13, r23)
    nb = np.full(shape, float(n_items))
    # Only the filled cells are tested, so unrelated degenerate mirror cells do not warn.
    t = np.full(shape, np.nan)
    p = np.full(shape, np.nan)
    lo = np.full(shape, np.nan)
    hi = np.full(shape, np.nan)
    if better.any():
        tt, pp, ll, hh = williams_arrays(
            np.nan_to_num(r12b[better]),
            r13b[better],
            r23b[better],
            nb[better],
            alternative,
            confidence_level,
            context=" for some metric pairs",
        )
        t[better], p[better], lo[better], hi[better] = tt, pp, ll, hh
    diff = np.where(better, r13b - r23b, np.nan)

    def square(a):
        return pd.DataFrame(a, index=list(order), columns=list(order))

    return WilliamsMatrixResult(
        statistic=square(t),
        pvalue=square(p),
        difference=square(diff),
        ci_low=square(lo),
        ci_high=square(hi),
        order=order,
        r_human=pd.Series(r, index=list(order), name="pearson"),
        sign=pd.Series(np.where(np.isnan(r), 0, sign).astype(int), index=list(order), name="sign"),
        metric_corr=square(corr),
        n=int(n_items),
        df=int(n_items - 3),
        sign_align=bool(sign_align),
        alternative=alternative,
        confidence_level=confidence_level,
    )


def williams_winners(result: WilliamsMatrixResult, *, alpha: float = 0.05) -> tuple:
    r"""The metrics no other metric significantly outperforms: the bold cells ("winners") of
    the WMT metrics task's system-level tables (Mathur et al., 2020,
    https://aclanthology.org/2020.wmt-1.77/).

    .. math::

        W = \{\, m : p_{k \succ m} \ge \alpha \ \text{for every metric } k \ne m \,\}

    with :math:`p_{k \succ m}` the one-sided Williams p-value that :math:`k` correlates better
    with humans than :math:`m` (Graham & Baldwin, 2014, https://aclanthology.org/D14-1020/).
    For a ``'two-sided'`` result the one-sided p is half the two-sided one (it sits in the row
    of the metric with the higher correlation). No multiple-comparison correction, as in the
    findings.

    Parameters
    ----------
    result : WilliamsMatrixResult
        From :func:`williams_all_pairs`.
    alpha : float
        Significance level.

    Returns
    -------
    tuple of str
        The winners, in ``result.order`` (highest correlation first). A metric whose
        correlation is undefined (NaN: constant scores) was not tested and is never a winner.

    Examples
    --------
    The metrics no other metric beats significantly.

    >>> import pandas as pd
    >>> from stats import williams_all_pairs, williams_winners
    >>> human = pd.Series([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], index=list('ABCDEF'))
    >>> scores = pd.DataFrame({'good': [1.0, 2.1, 2.9, 4.0, 5.1, 6.0], 'poor': [3.0, 1.0, 2.0, 6.0, 4.0, 5.0]}, index=list('ABCDEF'))
    >>> williams_winners(williams_all_pairs(scores, human))
    ('good',)
    """
    from stats._core.validation import check_alpha

    alpha = check_alpha(alpha)
    p = result.pvalue.to_numpy(dtype=float)
    if result.alternative == "two-sided":
        p = p / 2
    beaten = (p < alpha).any(axis=0)  # column m is beaten by some row k
    defined = np.isfinite(result.r_human.reindex(list(result.order)).to_numpy(dtype=float))
    return tuple(
        m for m, b, ok in zip(result.order, beaten, defined, strict=True) if ok and not b
    )
