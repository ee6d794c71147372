r"""Evaluation of sentence-level MT quality estimation (QE), after Graham (2015).

QE shared tasks long ranked systems by mean absolute error (MAE). Graham shows that MAE (and
RMSE) reward predicting aggregates of the test set -- its mean and a conservative spread --
rather than the quality of individual translations: shifting a system's predictions to the
gold mean and shrinking them to half the gold standard deviation lowers its MAE and RMSE
without predicting anything better, while Pearson's r, being invariant to separate changes of
location and scale, is unchanged. She proposes Pearson's r as the measure and the Williams
test for differences between systems' (dependent) correlations with the gold labels.

This module provides

* :func:`qe_scores` -- Pearson r (primary), Spearman rho, MAE, RMSE per system and each
  system's rank under each measure;
* :func:`shift_and_rescale` and :func:`rescaling_experiment` -- the shift-and-rescale
  diagnosis (paper Tables 2 and 3);
* :func:`qe_williams` -- Williams tests between all pairs of systems (signed r: a system with
  negative r is worse, it is not flipped);
* :func:`prediction_correlations` -- Pearson correlations between systems' predictions
  (paper Figure 4);
* :func:`post_edit_rate` and :func:`compare_gold_representations` -- post-edit rate (seconds
  per word) and a Williams test of whether one gold representation correlates more strongly
  with a third than another does (paper Table 1: PER vs PET against HTER);
* :func:`evaluate_qe` -- all of the above at once (used by the CLI and the dashboard).

References
----------
Y. Graham. 2015. Improving Evaluation of Machine Translation Quality Estimation. ACL 2015,
pages 1804--1813. https://aclanthology.org/P15-1174/

E. J. Williams. 1959. Regression Analysis. Wiley.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.columnwise import (
    constant_columns,
    correlation_pvalue,
    pearson_columns,
    pearson_matrix,
    spearman_columns,
)
from stats._core.errors import DegenerateInputWarning, StatsInputError
from stats._core.results import StatisticPvalue
from stats._core.validation import (
    align_by_label,
    as_float_array,
    check_alternative,
    check_confidence_level,
    is_default_index,
    warn_degenerate,
)
from stats.metaeval.williams import (
    WilliamsMatrixResult,
    WilliamsResult,
    williams_all_pairs,
    williams_test,
)
from stats.readers.qe import QEData

__all__ = [
    "QEScoresResult",
    "RescaleResult",
    "QEEvaluationResult",
    "qe_scores",
    "shift_and_rescale",
    "rescaling_experiment",
    "rescaling_curve",
    "qe_williams",
    "prediction_correlations",
    "post_edit_rate",
    "compare_gold_representations",
    "evaluate_qe",
]

REFERENCE = "https://aclanthology.org/P15-1174/"


# ---------------------------------------------------------------- input handling


def _inputs(predictions, gold) -> tuple[pd.DataFrame, np.ndarray]:
    """Normalise (predictions, gold) to a float DataFrame (n x k) and a float array (n)."""
    if isinstance(predictions, QEData):
        if gold is not None:
            raise StatsInputError("gold: must be omitted when predictions is a QEData")
        return predictions.predictions.astype(float), predictions.gold.to_numpy(dtype=float)
    if gold is None:
        raise StatsInputError("gold: gold labels are required")
    if isinstance(predictions, pd.Series):
        predictions = predictions.to_frame(name=predictions.name or "system")
    if isinstance(predictions, pd.DataFrame):
        frame = predictions
    else:
        arr = np.asarray(predictions, dtype=object)
        if arr.ndim == 1:
            arr = arr[:, None]
        frame = pd.DataFrame(arr, columns=[f"system{j + 1}" for j in range(arr.shape[1])])
    if frame.shape[1] == 0:
        raise StatsInputError("predictions: no systems (no columns)")
    values = as_float_array(frame.to_numpy(), "predictions", ndim=2)
    if isinstance(gold, pd.DataFrame) and gold.shape[1] == 1:
        gold = gold.iloc[:, 0]
    # Gold labels indexed by sentence id are matched to the predictions' rows by id, not by
    # position (same ids in another order -> aligned; other ids -> error naming them).
    gold = align_by_label(
        gold,
        frame.index,
        message="gold (a Series) is indexed by other sentence ids than the rows of predictions",
        missing="no gold label for",
        extra="gold labels for sentence ids not in predictions:",
    )
    g = as_float_array(np.asarray(gold).ravel() if np.ndim(gold) > 1 else gold, "gold")
    if g.shape[0] != values.shape[0]:
        raise StatsInputError(
            f"gold has {g.shape[0]} labels but predictions have {values.shape[0]} rows"
        )
    if g.shape[0] < 4:
        raise StatsInputError(
            f"predictions: need at least 4 sentences (the Williams test has n - 3 degrees of "
            f"freedom); got {g.shape[0]}"
        )
    if constant_columns(g):
        raise StatsInputError(f"gold: every gold label is {g[0]:g}; correlations are undefined")
    cols = [str(c) for c in frame.columns]
    if len(set(cols)) != len(cols):
        dup = next(c for c in cols if cols.count(c) > 1)
        raise StatsInputError(f"predictions: system name {dup!r} appears twice")
    return pd.DataFrame(values, index=frame.index, columns=cols), g


def _warn_constant(columns, const: np.ndarray, what: str) -> None:
    if const.any():
        names = ", ".join(repr(c) for c, k in zip(columns, const, strict=True) if k)
        warn_degenerate(f"{what} is NaN for constant prediction(s) of {names}", stacklevel=4)


def _rank_best(values: pd.Series, *, higher_is_better: bool) -> pd.Series:
    """1 = best; ties share the best rank ('min'); NaN stays NaN."""
    return values.rank(ascending=not higher_is_better, method="min", na_option="keep")


def _order_by(r: pd.Series) -> tuple[str, ...]:
    """Systems by decreasing r (NaN last), ties in input order."""
    keyed = sorted(
        range(len(r)),
        key=lambda i: (np.isnan(r.iat[i]), -r.iat[i] if not np.isnan(r.iat[i]) else 0.0, i),
    )
    return tuple(str(r.index[i]) for i in keyed)


# ---------------------------------------------------------------- per-system scores


@dataclass(frozen=True, kw_only=True)
class QEScoresResult(StatisticPvalue):
    r"""Per-system evaluation of QE predictions against gold labels.

    All Series are indexed by system name in :attr:`order` (decreasing Pearson r; systems
    with undefined r last).

    Attributes
    ----------
    statistic : pandas.Series
        Pearson r of each system's predictions with the gold labels (signed; the primary
        measure of Graham 2015). Also available as :attr:`pearson`.
    pvalue : pandas.Series
        Two-sided p-value of :math:`H_0\colon \rho = 0` for each r (t test, n - 2 df). It says
        nothing about differences between systems; use :func:`qe_williams` for that.
    spearman : pandas.Series
        Spearman rank correlation with the gold labels.
    mae, rmse : pandas.Series
        Mean absolute error and root mean squared error (lower is better).
    ranks : pandas.DataFrame
        Rank of each system under each measure (columns ``pearson``, ``spearman``, ``mae``,
        ``rmse``); 1 is best, ties share the best rank, NaN where the measure is undefined.
    order : tuple of str
        Systems by decreasing Pearson r.
    n : int
        Number of sentences.
    """

    statistic: pd.Series
    pvalue: pd.Series
    spearman: pd.Series
    mae: pd.Series
    rmse: pd.Series
    ranks: pd.DataFrame
    order: tuple[str, ...]
    n: int

    @property
    def pearson(self) -> pd.Series:
        """Pearson r per system (same as :attr:`statistic`)."""
        return self.statistic

    def to_frame(self) -> pd.DataFrame:
        """One row per system (in :attr:`order`): measures, then ranks under each."""
        out = pd.DataFrame(
            {
                "pearson": self.statistic,
                "pearson_p": self.pvalue,
                "spearman": self.spearman,
                "mae": self.mae,
                "rmse": self.rmse,
            }
        )
        for col in self.ranks.columns:
            out[f"rank_{col}"] = self.ranks[col]
        out.index.name = "system"
        return out


def qe_scores(predictions, gold=None) -> QEScoresResult:
    r"""Pearson r, Spearman rho, MAE and RMSE of each QE system, with ranks under each.

    For predictions :math:`p_i` and gold labels :math:`g_i`, :math:`i = 1..n`:

    .. math::

        r = \frac{\sum_i (p_i - \bar p)(g_i - \bar g)}
                 {\sqrt{\sum_i (p_i - \bar p)^2 \sum_i (g_i - \bar g)^2}}, \qquad
        \mathrm{MAE} = \frac1n \sum_i |p_i - g_i|, \qquad
        \mathrm{RMSE} = \sqrt{\frac1n \sum_i (p_i - g_i)^2},

    and Spearman's rho is r computed on mid-ranks. The p-value of r is that of
    :math:`t = r \sqrt{(n-2)/(1-r^2)}` on :math:`n-2` degrees of freedom (two-sided).

    Parameters
    ----------
    predictions : pandas.DataFrame, array-like (n x k) or QEData
        One column per system, one row per sentence. A :class:`~stats.readers.qe.QEData`
        carries its own gold labels (then ``gold`` must be omitted).
    gold : array-like (n) or pandas.Series, optional
        Gold labels, one per row of ``predictions``. A Series indexed by sentence id is
        matched to the rows of a DataFrame indexed by sentence id by label (any order; other
        ids are an error naming them); arrays, or pandas' default 0..n-1 index on either
        side, are matched by position. The other functions here take ``gold`` the same way.

    Returns
    -------
    QEScoresResult

    Warns
    -----
    DegenerateInputWarning
        A system predicts one value for every sentence: its r, rho and p-value are NaN (MAE
        and RMSE are still reported).

    References
    ----------
    Graham (2015), https://aclanthology.org/P15-1174/, Section 4.

    Examples
    --------
    MAE and RMSE reward predicting the mean; Pearson does not (Graham 2015).

    >>> import numpy as np
    >>> import pandas as pd
    >>> from stats import qe_scores
    >>> gold = np.array([0.1, 0.4, 0.35, 0.8, 0.6])
    >>> predictions = pd.DataFrame({'sys': [0.2, 0.5, 0.3, 0.7, 0.6], 'mean': np.full(5, gold.mean())})
    >>> res = qe_scores(predictions, gold)
    >>> res.mae.round(3).to_dict()
    {'sys': 0.07, 'mean': 0.2}
    """
    frame, g = _inputs(predictions, gold)
    values = frame.to_numpy()
    n = values.shape[0]
    const = constant_columns(values)
    _warn_constant(frame.columns, const, "Pearson/Spearman r")
    r = pearson_columns(values, g)
    rho = spearman_columns(values, g)
    p = correlation_pvalue(r, n)
    err = values - g[:, None]
    mae = np.abs(err).mean(axis=0)
    rmse = np.sqrt((err**2).mean(axis=0))
    cols = list(frame.columns)
    pear = pd.Series(r, index=cols, name="pearson")
    order = _order_by(pear)
    ser = {
        "pearson": pear,
        "pvalue": pd.Series(p, index=cols, name="pearson_p"),
        "spearman": pd.Series(rho, index=cols, name="spearman"),
        "mae": pd.Series(mae, index=cols, name="mae"),
        "rmse": pd.Series(rmse, index=cols, name="rmse"),
    }
    ser = {k: v.loc[list(order)] for k, v in ser.items()}
    ranks = pd.DataFrame(
        {
            "pearson": _rank_best(ser["pearson"], higher_is_better=True),
            "spearman": _rank_best(ser["spearman"], higher_is_better=True),
            "mae": _rank_best(ser["mae"], higher_is_better=False),
            "rmse": _rank_best(ser["rmse"], higher_is_better=False),
        }
    )
    ranks.index.name = "system"
    return QEScoresResult(
        statistic=ser["pearson"],
        pvalue=ser["pvalue"],
        spearman=ser["spearman"],
        mae=ser["mae"],
        rmse=ser["rmse"],
        ranks=ranks,
        order=order,
        n=int(n),
    )


# ---------------------------------------------------------------- shift and rescale


def _check_sd_ratio(sd_ratio) -> float:
    try:
        value = float(sd_ratio)
    except (TypeError, ValueError):
        raise StatsInputError(f"sd_ratio must be a number > 0; got {sd_ratio!r}") from None
    if not np.isfinite(value) or value <= 0:
        raise StatsInputError(f"sd_ratio must be a finite number > 0; got {sd_ratio!r}")
    return value


def shift_and_rescale(predictions, gold=None, *, sd_ratio: float = 0.5) -> pd.DataFrame:
    r"""Shift each system's predictions to the gold mean and rescale them to ``sd_ratio``
    times the gold standard deviation.

    .. math::

        p'_i = \bar g + \lambda\, s_g\, \frac{p_i - \bar p}{s_p}

    with :math:`\lambda` = ``sd_ratio``. The standard deviations use the same degrees of
    freedom, so the result does not depend on that choice (``ddof=1`` is used). Pearson r
    is unchanged by this map (for :math:`\lambda > 0`); MAE and RMSE are not.

    Parameters
    ----------
    predictions : pandas.DataFrame, array-like (n x k) or QEData
    gold : array-like (n), optional (omit for QEData)
    sd_ratio : float
        :math:`\lambda > 0`; Graham (2015) uses 0.5.

    Returns
    -------
    pandas.DataFrame
        Same shape, index and columns as the predictions; NaN columns (with a
        :class:`~stats.DegenerateInputWarning`) for constant predictions.

    References
    ----------
    Graham (2015), https://aclanthology.org/P15-1174/, Section 3.2, Tables 2 and 3.
    """
    lam = _check_sd_ratio(sd_ratio)
    frame, g = _inputs(predictions, gold)
    return _rescaled(frame, g, lam)


def _rescaled(frame: pd.DataFrame, g: np.ndarray, lam: float) -> pd.DataFrame:
    values = frame.to_numpy()
    const = constant_columns(values)
    _warn_constant(frame.columns, const, "the rescaled prediction")
    sd = values.std(axis=0, ddof=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (values - values.mean(axis=0)) / np.where(const, np.nan, sd)
    out = g.mean() + lam * g.std(ddof=1) * z
    return pd.DataFrame(out, index=frame.index, columns=frame.columns)


@dataclass(frozen=True, kw_only=True)
class RescaleResult:
    r"""MAE and RMSE of each system before and after :func:`shift_and_rescale`.

    Series are indexed by system (input order).

    Attributes
    ----------
    mae, rmse : pandas.Series
        Of the original predictions.
    mae_rescaled, rmse_rescaled : pandas.Series
        Of the shifted and rescaled predictions (NaN for constant predictions).
    pearson, pearson_rescaled : pandas.Series
        Pearson r before and after: equal up to rounding (the point of the experiment).
    rescaled : pandas.DataFrame
        The shifted and rescaled predictions (sentences x systems).
    sd_ratio : float
        :math:`\lambda`.
    gold_mean, gold_sd : float
        Mean and standard deviation (ddof=1) of the gold labels.
    """

    mae: pd.Series
    rmse: pd.Series
    mae_rescaled: pd.Series
    rmse_rescaled: pd.Series
    pearson: pd.Series
    pearson_rescaled: pd.Series
    rescaled: pd.DataFrame
    sd_ratio: float
    gold_mean: float
    gold_sd: float

    def to_frame(self) -> pd.DataFrame:
        """One row per system: MAE, RMSE and r before and after, and the changes."""
        out = pd.DataFrame(
            {
                "mae": self.mae,
                "mae_rescaled": self.mae_rescaled,
                "mae_change": self.mae_rescaled - self.mae,
                "rmse": self.rmse,
                "rmse_rescaled": self.rmse_rescaled,
                "rmse_change": self.rmse_rescaled - self.rmse,
                "pearson": self.pearson,
                "pearson_rescaled": self.pearson_rescaled,
            }
        )
        out.index.name = "system"
        return out


def rescaling_experiment(predictions, gold=None, *, sd_ratio: float = 0.5) -> RescaleResult:
    r"""Graham's (2015) diagnosis: MAE and RMSE before and after shifting predictions to the
    gold mean and rescaling them to ``sd_ratio`` x the gold SD.

    With :math:`p'` from :func:`shift_and_rescale`,

    .. math::

        \mathrm{RMSE}(p')^2 = \tfrac{n-1}{n}\, s_g^2\,(1 + \lambda^2 - 2\lambda r),

    so any system with :math:`0 < r` has a lower RMSE after rescaling to
    :math:`\lambda = r` than a perfectly calibrated copy of the gold spread would, although it
    predicts nothing better; its r is unchanged.

    Parameters
    ----------
    predictions : pandas.DataFrame, array-like (n x k) or QEData
    gold : array-like (n), optional (omit for QEData)
    sd_ratio : float
        :math:`\lambda > 0` (default 0.5, as in the paper).

    Returns
    -------
    RescaleResult

    References
    ----------
    Graham (2015), https://aclanthology.org/P15-1174/, Tables 2 (MAE) and 3 (RMSE).
    """
    lam = _check_sd_ratio(sd_ratio)
    frame, g = _inputs(predictions, gold)
    return _rescale_result(frame, g, lam)


def _rescale_result(frame: pd.DataFrame, g: np.ndarray, lam: float) -> RescaleResult:
    cols = list(frame.columns)
    values = frame.to_numpy()
    resc = _rescaled(frame, g, lam)
    rv = resc.to_numpy()

    def mae(x):
        return pd.Series(np.abs(x - g[:, None]).mean(axis=0), index=cols)

    def rmse(x):
        return pd.Series(np.sqrt(((x - g[:, None]) ** 2).mean(axis=0)), index=cols)

    const = constant_columns(values)
    r = pd.Series(pearson_columns(values, g), index=cols)
    r2 = pd.Series(
        np.where(const, np.nan, pearson_columns(np.where(const, 0.0, rv), g)), index=cols
    )
    return RescaleResult(
        mae=mae(values),
        rmse=rmse(values),
        mae_rescaled=mae(rv),
        rmse_rescaled=rmse(rv),
        pearson=r,
        pearson_rescaled=r2,
        rescaled=resc,
        sd_ratio=lam,
        gold_mean=float(g.mean()),
        gold_sd=float(g.std(ddof=1)),
    )


def rescaling_curve(predictions, gold=None, *, sd_ratios=None) -> pd.DataFrame:
    r"""MAE and RMSE of every system after :func:`shift_and_rescale` to each of ``sd_ratios``.

    Shows how far MAE/RMSE can be lowered by matching test-set aggregates alone: RMSE is
    smallest at :math:`\lambda = r` (see :func:`rescaling_experiment`), MAE near it.

    Parameters
    ----------
    predictions : pandas.DataFrame, array-like (n x k) or QEData
    gold : array-like (n), optional (omit for QEData)
    sd_ratios : array-like of float > 0, optional
        :math:`\lambda` values (default 0.05, 0.10, ..., 1.50).

    Returns
    -------
    pandas.DataFrame
        Long format with columns ``system``, ``sd_ratio``, ``mae``, ``rmse`` (one row per
        system and :math:`\lambda`; NaN for constant predictions). Computed as one array
        operation over systems x :math:`\lambda`.

    References
    ----------
    Graham (2015), https://aclanthology.org/P15-1174/, Section 3.2.
    """
    lams = np.round(np.arange(1, 31) * 0.05, 10) if sd_ratios is None else np.atleast_1d(
        np.asarray(sd_ratios, dtype=float)
    )
    if lams.ndim != 1 or not lams.size or not np.all(np.isfinite(lams)) or np.any(lams <= 0):
        raise StatsInputError(f"sd_ratios must be numbers > 0; got {sd_ratios!r}")
    frame, g = _inputs(predictions, gold)
    unit = _rescaled(frame, g, 1.0).to_numpy() - g.mean()  # s_g * z, n x k
    resid = g.mean() + unit[:, :, None] * lams[None, None, :] - g[:, None, None]  # n x k x L
    mae = np.abs(resid).mean(axis=0)
    rmse = np.sqrt((resid**2).mean(axis=0))
    k, m = mae.shape
    return pd.DataFrame(
        {
            "system": np.repeat(np.asarray(frame.columns, dtype=object), m),
            "sd_ratio": np.tile(lams, k),
            "mae": mae.ravel(),
            "rmse": rmse.ravel(),
        }
    )


# ---------------------------------------------------------------- Williams grid, correlations


def qe_williams(
    predictions, gold=None, *, alternative: str = "greater", confidence_level: float = 0.95
) -> WilliamsMatrixResult:
    r"""Williams tests for every pair of QE systems against the gold labels.

    For systems 1 and 2 with predictions :math:`P_1, P_2` and gold labels :math:`G`, the
    Williams (1959) test of :math:`H_0\colon \rho(P_1,G) = \rho(P_2,G)` uses

    .. math::

        t_{n-3} = (r_{13} - r_{23}) \sqrt{\frac{(n-1)(1 + r_{12})}
            {2K\frac{n-1}{n-3} + \frac{(r_{23}+r_{13})^2}{4}(1-r_{12})^3}}, \quad
        K = 1 - r_{12}^2 - r_{13}^2 - r_{23}^2 + 2 r_{12} r_{13} r_{23},

    with :math:`r_{13} = r(P_1, G)`, :math:`r_{23} = r(P_2, G)`, :math:`r_{12} = r(P_1, P_2)`.
    Correlations are **signed** (``sign_align=False``): a system whose predictions correlate
    negatively with the gold labels ranks below all positively correlated ones.

    Returns
    -------
    stats.metaeval.williams.WilliamsMatrixResult
        Same conventions as the metrics grid: a cell (row, col) holds the p-value that row's
        r exceeds col's, filled only when it does; ``order`` runs from the highest r.

    References
    ----------
    Graham (2015), https://aclanthology.org/P15-1174/, Section 5;
    Graham & Baldwin (2014), https://aclanthology.org/D14-1020/.
    """
    check_alternative(alternative)
    check_confidence_level(confidence_level)
    frame, g = _inputs(predictions, gold)
    return williams_all_pairs(
        frame,
        g,
        sign_align=False,
        alternative=alternative,
        confidence_level=confidence_level,
    )


def prediction_correlations(predictions, gold=None) -> pd.DataFrame:
    r"""Pearson correlation between the predictions of every pair of systems (paper Figure 4).

    Strongly correlated predictions make the Williams test more powerful for that pair, which
    is why the number of significant wins must not be used to rank systems.

    Parameters
    ----------
    predictions : pandas.DataFrame, array-like (n x k) or QEData
    gold : array-like (n), optional
        If given (or inside a QEData), rows and columns are ordered by decreasing Pearson r
        with the gold labels; otherwise they keep the input order.

    Returns
    -------
    pandas.DataFrame
        Symmetric k x k matrix with ones on the diagonal; NaN rows/columns (with a warning)
        for constant predictions.

    References
    ----------
    Graham (2015), https://aclanthology.org/P15-1174/, Figure 4.
    """
    if gold is None and not isinstance(predictions, QEData):
        frame = pd.DataFrame(predictions)
        values = as_float_array(frame.to_numpy(), "predictions", ndim=2)
        cols = [str(c) for c in frame.columns]
        order = cols
    else:
        frame, g = _inputs(predictions, gold)
        values = frame.to_numpy()
        cols = list(frame.columns)
        order = list(_order_by(pd.Series(pearson_columns(values, g), index=cols)))
    _warn_constant(cols, constant_columns(values), "the prediction correlation")
    out = pd.DataFrame(pearson_matrix(values), index=cols, columns=cols)
    return out.loc[order, order]


# ---------------------------------------------------------------- post-edit rate


def post_edit_rate(times, words):
    r"""Post-edit rate (PER): post-edit time divided by the number of words, in seconds per
    word.

    .. math:: \mathrm{PER}_i = \mathrm{PET}_i / w_i

    Graham (2015) shows PER correlates significantly more strongly with HTER than the raw
    post-edit time (PET), since longer translations simply take longer to edit, and converts
    both gold labels and predictions of PET to PER before evaluation.

    Parameters
    ----------
    times : array-like (n), pandas.Series/DataFrame (n x k), or QEData
        Post-edit times in seconds: gold labels, one system's predictions, or a table of
        systems' predictions (each column divided). A QEData has its gold labels and all
        predictions converted.
    words : array-like (n) or pandas.Series
        Number of words of each translation (> 0). A Series is aligned by index (sentence id)
        with pandas inputs; otherwise matched by position.

    Returns
    -------
    same kind as ``times``
        Seconds per word.

    References
    ----------
    Graham (2015), https://aclanthology.org/P15-1174/, Section 3.1 and Table 1.

    Examples
    --------
    Seconds per word of post-editing (Graham 2015).

    >>> from stats import post_edit_rate
    >>> post_edit_rate([30.0, 12.0], [10, 4]).tolist()
    [3.0, 3.0]
    """
    if isinstance(times, QEData):
        w = _aligned_words(words, times.gold.index, len(times.gold))
        return QEData(
            gold=times.gold / w,
            predictions=times.predictions.div(w, axis=0),
            format=times.format,
            source=times.source,
        )
    if isinstance(times, (pd.Series, pd.DataFrame)):
        w = _aligned_words(words, times.index, len(times))
        if isinstance(times, pd.DataFrame):
            as_float_array(times.to_numpy(), "times", ndim=2)
            return times.astype(float).div(w, axis=0)
        as_float_array(times.to_numpy(), "times")
        return times.astype(float) / w
    t = as_float_array(times, "times", ndim=np.ndim(times) if np.ndim(times) in (1, 2) else 1)
    w = _aligned_words(words, None, t.shape[0])
    return t / (w.to_numpy()[:, None] if t.ndim == 2 else w.to_numpy())


def _aligned_words(words, index, n: int) -> pd.Series:
    if isinstance(words, pd.Series) and index is not None:
        w = words.copy()
        w.index = w.index.map(str)
        idx = pd.Index(index).map(str)
        missing = [i for i in idx if i not in w.index]
        if missing:
            shown = ", ".join(missing[:5])
            raise StatsInputError(f"words: no word count for sentence id(s) {shown}")
        w = w.loc[idx]
        w.index = index
        values = as_float_array(w.to_numpy(dtype=float), "words")
    else:
        values = as_float_array(words, "words")
        if values.shape[0] != n:
            raise StatsInputError(f"words has {values.shape[0]} counts for {n} times")
        w = pd.Series(values, index=index)
    if (values <= 0).any():
        i = int(np.flatnonzero(values <= 0)[0])
        raise StatsInputError(f"words: word counts must be positive; got {values[i]:g} at {i}")
    return pd.Series(values, index=w.index)


def compare_gold_representations(
    candidate,
    baseline,
    reference,
    *,
    alternative: str = "greater",
    confidence_level: float = 0.95,
) -> WilliamsResult:
    r"""Williams test of whether gold representation ``candidate`` correlates more strongly
    with ``reference`` than ``baseline`` does (Graham 2015, Table 1: PER vs PET with HTER).

    With :math:`X_1` = candidate, :math:`X_2` = baseline, :math:`X_3` = reference, the test
    is :func:`stats.metaeval.williams.williams_test` on
    :math:`r_{13} = r(X_1, X_3)`, :math:`r_{23} = r(X_2, X_3)`, :math:`r_{12} = r(X_1, X_2)`
    (see :func:`qe_williams` for the statistic).

    Parameters
    ----------
    candidate, baseline, reference : array-like (n) or pandas.Series
        E.g. post-edit rates, post-edit times and HTER of the same n translations. Series
        indexed by sentence id are matched by id (in any order); arrays, and Series with
        pandas' default 0..n-1 index, by position.
    alternative : {'greater', 'less', 'two-sided'}
        'greater' tests :math:`\rho_{13} > \rho_{23}`.
    confidence_level : float
        For the Zou (2007) interval of :math:`r_{13} - r_{23}`.

    Returns
    -------
    stats.metaeval.williams.WilliamsResult

    References
    ----------
    Graham (2015), https://aclanthology.org/P15-1174/, Table 1.
    """
    check_alternative(alternative)
    check_confidence_level(confidence_level)
    names = ("candidate", "baseline", "reference")
    # Series labelled by sentence id are matched by id on the first labelled one, not by
    # position (same ids in another order -> aligned; other ids -> error naming them).
    series = [candidate, baseline, reference]
    target = next(
        (
            i
            for i, v in enumerate(series)
            if isinstance(v, pd.Series) and not is_default_index(v.index)
        ),
        None,
    )
    if target is not None:
        index = series[target].index
        for i, v in enumerate(series):
            if i != target:
                series[i] = align_by_label(
                    v,
                    index,
                    message=f"{names[i]} (a Series) is indexed by other sentence ids than "
                    f"{names[target]}",
                    missing=f"no {names[i]} value for",
                    extra=f"{names[i]} values for sentence ids not in {names[target]}:",
                )
    candidate, baseline, reference = series
    x1 = as_float_array(np.asarray(candidate, dtype=float), "candidate")
    x2 = as_float_array(np.asarray(baseline, dtype=float), "baseline")
    x3 = as_float_array(np.asarray(reference, dtype=float), "reference")
    if not (x1.shape == x2.shape == x3.shape):
        raise StatsInputError(
            f"candidate, baseline and reference must have equal lengths; got "
            f"{x1.shape[0]}, {x2.shape[0]}, {x3.shape[0]}"
        )
    if x1.shape[0] < 4:
        raise StatsInputError(f"candidate: need at least 4 values; got {x1.shape[0]}")
    stacked = np.column_stack([x1, x2, x3])
    const = constant_columns(stacked)
    if const.any():
        raise StatsInputError(
            f"{names[int(np.flatnonzero(const)[0])]}: all values are equal; its correlations "
            "are undefined"
        )
    c = pearson_matrix(stacked)
    return williams_test(
        r_human_a=c[0, 2],  # candidate with the reference
        r_human_b=c[1, 2],  # baseline with the reference
        r_a_b=c[0, 1],
        n=x1.shape[0],
        alternative=alternative,
        confidence_level=confidence_level,
    )


# ---------------------------------------------------------------- everything at once


@dataclass(frozen=True, kw_only=True)
class QEEvaluationResult(StatisticPvalue):
    """Everything :func:`evaluate_qe` computes.

    Attributes
    ----------
    statistic : pandas.Series
        Pearson r per system (signed), in :attr:`order`.
    pvalue : pandas.DataFrame
        Williams p-value grid (``williams.pvalue``), rows/columns in :attr:`order`.
    scores : QEScoresResult
    rescale : RescaleResult
    williams : stats.metaeval.williams.WilliamsMatrixResult
    prediction_corr : pandas.DataFrame
        Prediction-prediction Pearson correlations in :attr:`order`.
    order : tuple of str
        Systems by decreasing Pearson r.
    n : int
        Number of sentences.
    """

    statistic: pd.Series
    pvalue: pd.DataFrame
    scores: QEScoresResult
    rescale: RescaleResult
    williams: WilliamsMatrixResult
    prediction_corr: pd.DataFrame
    order: tuple[str, ...]
    n: int

    def to_frame(self) -> pd.DataFrame:
        """Per system (in :attr:`order`): measures, rescaled MAE/RMSE and ranks."""
        t = self.scores.to_frame()
        order = list(self.order)
        t.insert(5, "mae_rescaled", self.rescale.mae_rescaled.loc[order])
        t.insert(6, "rmse_rescaled", self.rescale.rmse_rescaled.loc[order])
        return t


def evaluate_qe(
    predictions,
    gold=None,
    *,
    sd_ratio: float = 0.5,
    alternative: str = "greater",
    confidence_level: float = 0.95,
) -> QEEvaluationResult:
    """Run the whole QE evaluation of Graham (2015) on one data set.

    Computes :func:`qe_scores`, :func:`rescaling_experiment` (with ``sd_ratio``),
    :func:`qe_williams` and :func:`prediction_correlations`. Parameters as there.

    References
    ----------
    Graham (2015), https://aclanthology.org/P15-1174/.
    """
    lam = _check_sd_ratio(sd_ratio)
    check_alternative(alternative)
    check_confidence_level(confidence_level)
    frame, g = _inputs(predictions, gold)
    const = constant_columns(frame.to_numpy())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = qe_scores(frame, g)
        rescale = _rescale_result(frame, g, lam)
        williams = williams_all_pairs(
            frame, g, sign_align=False, alternative=alternative, confidence_level=confidence_level
        )
        corr = prediction_correlations(frame, g)
    # one warning for constant predictions instead of one per statistic; others pass through
    names = [c for c, k in zip(frame.columns, const, strict=True) if k]
    if names:
        warn_degenerate(
            f"constant prediction(s) of {', '.join(repr(c) for c in names)}: Pearson r, "
            "Spearman rho, the rescaled MAE/RMSE, prediction correlations and Williams tests "
            "are NaN for them (MAE and RMSE are reported)",
            stacklevel=3,
        )
    seen = set()
    for w in caught:
        text = str(w.message)
        about_constant = issubclass(w.category, DegenerateInputWarning) and "constant" in text
        if (about_constant and names) or (w.category, text) in seen:
            continue
        seen.add((w.category, text))
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    order = scores.order
    return QEEvaluationResult(
        statistic=scores.statistic,
        pvalue=williams.pvalue.loc[list(order), list(order)],
        scores=scores,
        rescale=rescale,
        williams=williams,
        prediction_corr=corr.loc[list(order), list(order)],
        order=order,
        n=scores.n,
    )
