"""Human gold standard for significance tests: standardised human judgements and pairwise
Wilcoxon rank-sum tests, combined over adequacy and fluency.

Graham, Mathur & Baldwin (2014) build the gold standard against which they measure randomized
significance tests: each annotator's scores are standardised by that annotator's own mean and
standard deviation (removing lenient/strict bias and differences in spread), every pair of
systems is compared with a one-sided Wilcoxon rank-sum test on the standardised scores,
separately for adequacy and fluency, and the two are combined: a significant adequacy difference
decides; only when adequacy is tied does the fluency test decide.

References
----------
Y. Graham, N. Mathur and T. Baldwin (2014). Randomized Significance Tests in Machine
Translation. Proceedings of the Ninth Workshop on Statistical Machine Translation, 266-274.
https://aclanthology.org/W14-3333

Y. Graham, T. Baldwin, A. Moffat and J. Zobel (2013). Continuous Measurement Scales in Human
Evaluation of Machine Translation. Proceedings of the 7th Linguistic Annotation Workshop.
https://aclanthology.org/W13-2305
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.errors import DegenerateInputWarning, StatsInputError
from stats._core.results import StatisticPvalue
from stats._core.validation import check_alpha, check_alternative
from stats.readers.judgements import CRITERIA, Judgements, prepare_judgements

__all__ = [
    "CRITERIA",
    "HumanGoldResult",
    "RankSumMatrixResult",
    "annotator_summary",
    "combine_criteria",
    "gold_from_segment_scores",
    "human_gold_standard",
    "pair_conclusions",
    "rank_sum_all_pairs",
    "standardize_judgements",
    "system_scores",
]


# ---------------------------------------------------------------------------------------------
# Standardisation and summaries
# ---------------------------------------------------------------------------------------------


def standardize_judgements(judgements) -> pd.DataFrame:
    r"""Standardise each annotator's scores within each criterion.

    .. math::

        z_{a,c,i} = \frac{x_{a,c,i} - \bar x_{a,c}}{s_{a,c}}, \qquad
        s_{a,c} = \sqrt{\frac{1}{n_{a,c} - 1} \sum_i (x_{a,c,i} - \bar x_{a,c})^2}

    for annotator :math:`a`, criterion :math:`c` and judgement :math:`i`; :math:`s` is the
    sample standard deviation (``ddof=1``, as R's ``sd()``).

    Parameters
    ----------
    judgements : Judgements or pandas.DataFrame
        From :func:`stats.readers.judgements.read_judgements`, or a frame with columns
        ``system``, ``segment``, ``annotator``, ``criterion``, ``score``. Annotators that cannot
        be standardised (single judgement or constant scores in a criterion) are excluded
        with a :class:`~stats.DegenerateInputWarning`.

    Returns
    -------
    pandas.DataFrame
        The judgements with an added float column ``z``.
    """
    frame = prepare_judgements(judgements).frame.copy()
    grouped = frame.groupby(["annotator", "criterion"], sort=False)["score"]
    frame["z"] = (frame["score"] - grouped.transform("mean")) / grouped.transform("std")
    return frame


def annotator_summary(judgements) -> pd.DataFrame:
    """Per annotator and criterion: number of judgements, mean, SD (ddof=1), min and max of
    the raw scores, sorted by criterion then mean (most lenient first).

    This is what standardisation removes: annotators differ in their mean (lenient vs strict)
    and their spread.
    """
    frame = prepare_judgements(judgements).frame
    out = (
        frame.groupby(["criterion", "annotator"], sort=False)["score"]
        .agg(n="size", mean="mean", sd="std", min="min", max="max")
        .reset_index()
    )
    out["n"] = out["n"].astype(np.int64)
    order = {c: i for i, c in enumerate(CRITERIA)}
    out["_c"] = out["criterion"].map(order)
    out = out.sort_values(["_c", "mean"], ascending=[True, False], kind="stable")
    return out.drop(columns="_c").reset_index(drop=True)


def system_scores(judgements, *, order: Sequence[str] | None = None) -> pd.DataFrame:
    """Per-system mean raw score, mean standardised score and count, for each criterion.

    Returns
    -------
    pandas.DataFrame
        Indexed by system; columns ``<criterion>_raw``, ``<criterion>_z``, ``<criterion>_n``
        for each criterion present. Rows follow ``order`` if given, else mean adequacy z
        (fluency z when there is no adequacy), highest first.
    """
    frame = standardize_judgements(judgements)
    return _system_scores(frame, order)


def _system_scores(frame: pd.DataFrame, order: Sequence[str] | None) -> pd.DataFrame:
    agg = frame.groupby(["system", "criterion"], sort=False).agg(
        raw=("score", "mean"), z=("z", "mean"), n=("score", "size")
    )
    wide = agg.unstack("criterion")
    cols = {}
    for crit in CRITERIA:
        if ("z", crit) in wide.columns:
            cols[f"{crit}_raw"] = wide[("raw", crit)]
            cols[f"{crit}_z"] = wide[("z", crit)]
            cols[f"{crit}_n"] = wide[("n", crit)].fillna(0).astype(np.int64)
    out = pd.DataFrame(cols)
    out.index = out.index.astype(object)
    out.index.name = "system"
    if order is None:
        key = "adequacy_z" if "adequacy_z" in out else "fluency_z"
        out = out.sort_values(key, ascending=False, kind="stable", na_position="last")
    else:
        out = out.reindex(list(order))
    return out


# ---------------------------------------------------------------------------------------------
# Pairwise rank-sum tests
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class RankSumMatrixResult(StatisticPvalue):
    """One-sided Wilcoxon rank-sum (Mann-Whitney U) tests for every pair of groups.

    Attributes
    ----------
    statistic : pandas.DataFrame
        Mann-Whitney :math:`U` of the row group against the column group, filled where
        ``pvalue`` is.
    pvalue : pandas.DataFrame
        Square, indexed and columned by ``systems``. The p-value of a pair sits in the row of
        the group with the higher mean (the test is "row greater than column"); the mirror
        cell and the diagonal are NaN.
    systems : tuple of str
        Row/column order.
    mean : pandas.Series
        Mean of each group (in ``systems`` order).
    n : pandas.Series
        Size of each group.
    alternative : str
    """

    statistic: pd.DataFrame
    pvalue: pd.DataFrame
    systems: tuple[str, ...]
    mean: pd.Series
    n: pd.Series
    alternative: str


#: values a side per scipy call of :func:`rank_sum_all_pairs` (2**20: about 8 MB a side)
_RANK_SUM_CELLS = 1 << 20


def rank_sum_all_pairs(
    groups: Mapping[str, Sequence[float]],
    *,
    order: Sequence[str] | None = None,
    alternative: str = "greater",
) -> RankSumMatrixResult:
    r"""One-sided Wilcoxon rank-sum test for every pair of groups, higher mean against lower.

    For each unordered pair the group with the higher mean is :math:`X` and the test is
    ``scipy.stats.mannwhitneyu(X, Y, alternative="greater")`` with scipy's defaults
    (exact distribution when one sample has at most 8 values and there are no ties; otherwise
    the normal approximation with tie and continuity correction, the same as R's
    ``wilcox.test(x, y, alternative="greater", exact=FALSE, correct=TRUE)``; human evaluations
    have hundreds of judgements per system, so in practice always the latter):

    .. math::

        U_X = R_X - \frac{n_X (n_X + 1)}{2}, \qquad
        z = \frac{U_X - n_X n_Y / 2 - 1/2}{\sigma_U}

    with :math:`R_X` the rank sum of :math:`X` in the pooled sample and :math:`\sigma_U` the
    tie-corrected standard deviation of :math:`U`; :math:`p = 1 - \Phi(z)`.

    Parameters
    ----------
    groups : mapping of name -> 1-D array of floats
        At least two groups, each with at least one finite value.
    order : sequence of str, optional
        Row/column order of the matrices (default: by mean, highest first). Must list
        exactly the group names.
    alternative : {'greater', 'two-sided'}
        ``'greater'`` (default) is the paper's one-sided test; ``'two-sided'`` puts the
        two-sided p-value in the row of the higher mean.

    Returns
    -------
    RankSumMatrixResult

    References
    ----------
    Graham, Mathur & Baldwin (2014), Section 4, https://aclanthology.org/W14-3333

    Examples
    --------
    Wilcoxon rank-sum tests of every pair of systems' human scores.

    >>> from stats import rank_sum_all_pairs
    >>> groups = {'A': [5.0, 6.0, 7.0, 8.0, 9.0], 'B': [1.0, 2.0, 3.0, 4.0, 5.5]}
    >>> res = rank_sum_all_pairs(groups)
    >>> round(float(res.pvalue.at['A', 'B']), 4)
    0.0079
    """
    check_alternative(alternative, ("greater", "two-sided"))
    if not isinstance(groups, Mapping) or len(groups) < 2:
        raise StatsInputError(
            f"groups must map at least two names to scores; got {len(groups) if isinstance(groups, Mapping) else type(groups).__name__}"
        )
    names = [str(k) for k in groups]
    arrays = []
    for key, name in zip(groups, names, strict=True):
        a = np.asarray(groups[key], dtype=float).ravel()
        if a.size == 0:
            raise StatsInputError(f"groups[{name!r}] is empty")
        if not np.isfinite(a).all():
            raise StatsInputError(f"groups[{name!r}] contains NaN or infinite values")
        arrays.append(a)
    means = pd.Series([a.mean() for a in arrays], index=pd.Index(names, dtype=object))
    sizes = pd.Series([a.size for a in arrays], index=pd.Index(names, dtype=object), dtype=np.int64)
    if order is None:
        order = list(means.sort_values(ascending=False, kind="stable").index)
    else:
        order = [str(o) for o in order]
        if sorted(order) != sorted(names):
            raise StatsInputError(f"order must list exactly the groups {names}; got {order}")
    k = len(order)
    pos = {name: i for i, name in enumerate(names)}
    m = means[order].to_numpy()
    # unordered pairs i < j in `order`; orient each so the higher mean is the first sample
    iu, ju = np.triu_indices(k, 1)
    swap = m[ju] > m[iu]
    hi = np.where(swap, ju, iu)
    lo = np.where(swap, iu, ju)
    width = int(sizes.max())
    padded = np.full((k, width), np.nan)
    for i, name in enumerate(order):
        a = arrays[pos[name]]
        padded[i, : a.size] = a
    # one vectorised scipy call over all pairs; NaN padding is omitted slice by slice
    from scipy import stats as _st  # when first needed: a slow import (the dashboard's first page)

    stat = np.full((k, k), np.nan)
    pval = np.full((k, k), np.nan)
    # pairs in blocks of at most _RANK_SUM_CELLS values a side: scipy's temporaries (the pairs'
    # rows stacked, ranked, their ties counted) stay bounded whatever the number of systems and
    # segments; a pair's test does not depend on the other rows of its block
    step = max(1, _RANK_SUM_CELLS // max(width, 1))
    for start in range(0, hi.size, step):
        h, lo_ = hi[start : start + step], lo[start : start + step]
        res = _st.mannwhitneyu(
            padded[h], padded[lo_], alternative=alternative, axis=1, nan_policy="omit"
        )
        stat[h, lo_] = res.statistic
        pval[h, lo_] = res.pvalue
    idx = pd.Index(order, dtype=object)
    return RankSumMatrixResult(
        statistic=pd.DataFrame(stat, index=idx, columns=idx),
        pvalue=pd.DataFrame(pval, index=idx, columns=idx),
        systems=tuple(order),
        mean=means[order],
        n=sizes[order],
        alternative=alternative,
    )


# ---------------------------------------------------------------------------------------------
# Conclusions and the combination rule
# ---------------------------------------------------------------------------------------------


def pair_conclusions(
    pvalue: pd.DataFrame, alpha: float, order: Sequence[str] | None = None
) -> np.ndarray:
    r"""Turn a "p in the row of the winner" matrix into one conclusion per unordered pair.

    Pairs are ``(order[i], order[j])`` for ``i < j`` in the order of
    ``numpy.triu_indices(len(order), 1)``. The conclusion is ``+1`` when ``order[i]`` is
    significantly better than ``order[j]`` (``p[i, j] < alpha``), ``-1`` when ``order[j]`` is
    significantly better (``p[j, i] < alpha``), and ``0`` for no significant difference
    (including NaN p-values). "Significant" is ``p < alpha`` throughout the package (the
    significance grids, :meth:`stats.mt.randomized.PairwiseSignificanceResult.significant`); with
    randomized p-values :math:`(c + 1)/(R + 1)` this is at least as strict as the paper's
    :math:`c/R \le \alpha`.

    Parameters
    ----------
    pvalue : pandas.DataFrame
        Square p-value matrix whose index and columns contain every name in ``order``.
    alpha : float
        Significance level in (0, 1).
    order : sequence of str, optional
        System order (default: ``pvalue.index``).

    Returns
    -------
    numpy.ndarray of int8
    """
    alpha = check_alpha(alpha)
    order = list(pvalue.index) if order is None else list(order)
    missing = [s for s in order if s not in pvalue.index or s not in pvalue.columns]
    if missing:
        raise StatsInputError(
            f"p-value matrix has no row/column for {', '.join(map(str, missing))}"
        )
    p = pvalue.loc[order, order].to_numpy(dtype=float)
    iu, ju = np.triu_indices(len(order), 1)
    with np.errstate(invalid="ignore"):
        forward = p[iu, ju] < alpha
        backward = p[ju, iu] < alpha
    out = np.zeros(iu.size, dtype=np.int8)
    out[forward] = 1
    out[backward & ~forward] = -1
    return out


def combine_criteria(
    adequacy: pd.DataFrame | None, fluency: pd.DataFrame | None, alpha: float
) -> pd.DataFrame:
    r"""Combine adequacy and fluency p-value matrices with the paper's rule.

    For each unordered pair: if the adequacy test is significant at ``alpha`` (in either
    direction) the combined cell is the adequacy p-value (in the row of the adequacy winner);
    otherwise adequacy is tied and the fluency p-value decides (in the row of the fluency
    winner):

    .. math::

        p^{\mathrm{comb}}_{XY} =
        \begin{cases}
          p^{\mathrm{adeq}}_{XY} & \text{if } \min(p^{\mathrm{adeq}}_{XY}, p^{\mathrm{adeq}}_{YX}) < \alpha \\
          p^{\mathrm{flu}}_{XY}  & \text{otherwise}
        \end{cases}

    Because the rule depends on ``alpha``, conclusions at ``alpha`` must be read from the matrix
    combined at ``alpha``. With only one criterion given, that criterion's matrix is returned.

    Parameters
    ----------
    adequacy, fluency : pandas.DataFrame or None
        Square p-value matrices with the same index and columns ("p in the row of the winner",
        mirror cell NaN).
    alpha : float

    Returns
    -------
    pandas.DataFrame

    References
    ----------
    Graham, Mathur & Baldwin (2014), Section 4, https://aclanthology.org/W14-3333
    """
    alpha = check_alpha(alpha)
    if adequacy is None and fluency is None:
        raise StatsInputError("combine_criteria needs an adequacy or a fluency matrix")
    if fluency is None:
        return adequacy.copy()
    if adequacy is None:
        return fluency.copy()
    if list(adequacy.index) != list(fluency.index) or list(adequacy.columns) != list(
        fluency.columns
    ):
        fluency = fluency.reindex(index=adequacy.index, columns=adequacy.columns)
    a = adequacy.to_numpy(dtype=float)
    f = fluency.to_numpy(dtype=float)
    with np.errstate(invalid="ignore"):
        sig = a < alpha
    decided = sig | sig.T  # adequacy significant in either direction for this pair
    return pd.DataFrame(np.where(decided, a, f), index=adequacy.index, columns=adequacy.columns)


# ---------------------------------------------------------------------------------------------
# The gold standard
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class HumanGoldResult(StatisticPvalue):
    """Human gold standard: pairwise rank-sum tests on standardised judgements.

    Attributes
    ----------
    statistic : dict of str -> pandas.DataFrame
        Mann-Whitney :math:`U` matrices per criterion (row against column, where ``pvalue``
        is filled).
    pvalue : dict of str -> pandas.DataFrame
        ``'adequacy'`` and/or ``'fluency'`` (criteria present) and ``'combined'`` (at
        ``alpha``), square in ``systems`` order; p sits in the row of the system with the higher
        mean z score in that criterion; mirror cell and diagonal NaN.
    systems : tuple of str
        Systems, highest mean adequacy z first (fluency when there is no adequacy).
    alpha : float
        Level used for ``pvalue['combined']``.
    criteria : tuple of str
        Criteria present.
    scores : pandas.DataFrame
        :func:`system_scores` in ``systems`` order.
    annotators : pandas.DataFrame
        :func:`annotator_summary`.
    n_judgements : int
        Judgements used (after exclusions).
    excluded : pandas.DataFrame
        Annotators excluded per criterion, with the reason.
    warnings : tuple of str
        Messages a user interface should show (exclusions, systems without fluency...).
    """

    statistic: dict
    pvalue: dict
    systems: tuple[str, ...]
    alpha: float
    criteria: tuple[str, ...]
    scores: pd.DataFrame
    annotators: pd.DataFrame
    n_judgements: int
    excluded: pd.DataFrame
    warnings: tuple[str, ...] = ()

    @property
    def n_pairs(self) -> int:
        """Number of unordered system pairs."""
        k = len(self.systems)
        return k * (k - 1) // 2

    def combined_pvalue(self, alpha: float | None = None) -> pd.DataFrame:
        """The combined matrix at ``alpha`` (default: the result's ``alpha``)."""
        alpha = self.alpha if alpha is None else check_alpha(alpha)
        return combine_criteria(self.pvalue.get("adequacy"), self.pvalue.get("fluency"), alpha)

    def conclusions(self, alpha: float | None = None) -> pd.DataFrame:
        """One row per unordered pair: ``system_a``, ``system_b`` (in ``systems`` order),
        the p-values and the conclusion at ``alpha`` (+1: a better, -1: b better, 0: tie) per
        criterion and combined."""
        alpha = self.alpha if alpha is None else check_alpha(alpha)
        iu, ju = np.triu_indices(len(self.systems), 1)
        sys = np.asarray(self.systems, dtype=object)
        out = pd.DataFrame({"system_a": sys[iu], "system_b": sys[ju]})
        mats = {c: self.pvalue[c] for c in self.criteria}
        mats["combined"] = self.combined_pvalue(alpha)
        for key, mat in mats.items():
            p = mat.to_numpy(dtype=float)
            out[f"{key}_p"] = np.fmin(p[iu, ju], p[ju, iu])
            out[key] = pair_conclusions(mat, alpha, self.systems)
        return out


def _gold_systems(scores: pd.DataFrame, name: str, what: str) -> tuple[str, ...]:
    """The systems of a gold standard's score table; at least two, else StatsInputError."""
    systems = tuple(str(s) for s in scores.index)
    if len(systems) < 2:
        raise StatsInputError(
            f"{name}: the gold standard needs {what} of at least two systems; got "
            f"{len(systems)} ({', '.join(systems) or 'none'})"
        )
    return systems


def human_gold_standard(judgements, *, alpha: float = 0.05) -> HumanGoldResult:
    """Build the human gold standard of Graham, Mathur & Baldwin (2014).

    1. Standardise each annotator's scores within each criterion
       (:func:`standardize_judgements`).
    2. For every pair of systems and each criterion, the one-sided Wilcoxon rank-sum test of
       the standardised scores of the system with the higher mean z against the other
       (:func:`rank_sum_all_pairs`).
    3. Combine at ``alpha`` (:func:`combine_criteria`): significant adequacy decides; a tie in
       adequacy is broken by the fluency p-value.

    Parameters
    ----------
    judgements : Judgements or pandas.DataFrame
        See :func:`standardize_judgements`.
    alpha : float
        Significance level of the combination rule (default 0.05).

    Returns
    -------
    HumanGoldResult

    Raises
    ------
    StatsInputError
        Fewer than two systems, or bad judgements.

    References
    ----------
    Graham, Mathur & Baldwin (2014), Section 4 and Figure 7, https://aclanthology.org/W14-3333
    """
    alpha = check_alpha(alpha)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", DegenerateInputWarning)
        data: Judgements = prepare_judgements(judgements)
    messages = list(data.warnings)
    for w in caught:  # re-emit anything prepare_judgements warned about and did not record
        if str(w.message) not in messages:
            messages.append(str(w.message))
        warnings.warn(str(w.message), w.category, stacklevel=2)
    frame = standardize_judgements(data)
    scores = _system_scores(frame, None)
    systems = _gold_systems(scores, data.name, "judgements")
    statistic: dict[str, pd.DataFrame] = {}
    pvalue: dict[str, pd.DataFrame] = {}
    idx = pd.Index(systems, dtype=object)
    for crit in data.criteria:
        sub = frame[frame["criterion"] == crit]
        groups = {str(s): g.to_numpy() for s, g in sub.groupby("system", sort=False)["z"]}
        present = [s for s in systems if s in groups]
        absent = [s for s in systems if s not in groups]
        if absent:
            msg = (
                f"{data.name}: no {crit} judgements for {', '.join(absent)}; their {crit} "
                "comparisons are left empty"
            )
            messages.append(msg)
            warnings.warn(msg, DegenerateInputWarning, stacklevel=2)
        if len(present) >= 2:
            res = rank_sum_all_pairs({s: groups[s] for s in present}, order=present)
            statistic[crit] = res.statistic.reindex(index=idx, columns=idx)
            pvalue[crit] = res.pvalue.reindex(index=idx, columns=idx)
        else:
            statistic[crit] = pd.DataFrame(np.nan, index=idx, columns=idx)
            pvalue[crit] = pd.DataFrame(np.nan, index=idx, columns=idx)
    pvalue["combined"] = combine_criteria(pvalue.get("adequacy"), pvalue.get("fluency"), alpha)
    return HumanGoldResult(
        statistic=statistic,
        pvalue=pvalue,
        systems=systems,
        alpha=alpha,
        criteria=data.criteria,
        scores=scores,
        annotators=annotator_summary(data),
        n_judgements=len(frame),
        excluded=data.excluded,
        warnings=tuple(messages),
    )


def gold_from_segment_scores(
    scores: pd.DataFrame, *, alpha: float = 0.05, name: str = "segment scores"
) -> HumanGoldResult:
    """The human gold standard from published segment-level DA scores (already standardised
    by the organisers): the one-sided Wilcoxon rank-sum test of :func:`rank_sum_all_pairs` on
    the segment z scores of every pair, as one criterion (adequacy; DA asks for adequacy).

    Parameters
    ----------
    scores : pandas.DataFrame
        Columns ``system``, ``segment``, ``raw``, ``z`` (as from
        :func:`stats.readers.da_segments.read_da_segment_scores`), one language pair.
    alpha : float
        Level of the combined matrix (here the adequacy matrix itself).
    name : str
        What messages call the input.

    Returns
    -------
    HumanGoldResult
        ``criteria == ("adequacy",)``; ``scores`` holds the published mean raw and z per
        system; ``annotators`` one row for the file (the organisers' standardisation has
        already removed annotator effects); ``n_judgements`` counts segment scores.
    """
    alpha = check_alpha(alpha)
    frame = pd.DataFrame(
        {
            "system": scores["system"].astype(str).to_numpy(dtype=object),
            "segment": scores["segment"].astype(str).to_numpy(dtype=object),
            "annotator": f"(published z: {name})",
            "criterion": "adequacy",
            "score": scores["raw"].to_numpy(dtype=float),
            "z": scores["z"].to_numpy(dtype=float),
        }
    )
    table = _system_scores(frame, None)
    systems = _gold_systems(table, name, "scores")
    groups = {str(s): g.to_numpy() for s, g in frame.groupby("system", sort=False)["z"]}
    res = rank_sum_all_pairs(groups, order=systems)
    pvalue = {"adequacy": res.pvalue}
    pvalue["combined"] = combine_criteria(res.pvalue, None, alpha)
    return HumanGoldResult(
        statistic={"adequacy": res.statistic},
        pvalue=pvalue,
        systems=systems,
        alpha=alpha,
        criteria=("adequacy",),
        scores=table,
        annotators=annotator_summary(frame.drop(columns="z")),
        n_judgements=len(frame),
        excluded=pd.DataFrame(columns=["annotator", "criterion", "n", "reason"]),
    )
