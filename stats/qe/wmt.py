r"""Comparing sentence-level QE systems as the WMT20-24 QE shared tasks do.

Per language pair, each system's predictions are correlated with the gold scores after the
excluded items (gold marked ``hallucination``, and an exclude index of ``(lp, sid)``) are
deleted -- the WMT23 scoring program deletes them before calling scipy's ``spearmanr``,
``pearsonr`` and ``kendalltau`` (tau-b). Spearman's :math:`\rho` is primary (WMT22-24),
Pearson's :math:`r` (WMT20-21) and Kendall's :math:`\tau_b` secondary; the primary measure
is selectable. The task's multilingual figure is the mean over language pairs, reported for
systems that cover every language pair of the gold file.

Beside the task's point estimates this module gives

* percentile bootstrap confidence intervals of all three correlations (resampling
  sentences; :func:`bootstrap_correlations`, array work: a resample is a vector of counts
  :math:`w`, Pearson and Spearman are weighted moments of the values and of the resample's
  average ranks, and Kendall's :math:`\tau_b` comes from a Fenwick tree over the y ranks
  holding every resample at once, :func:`_weighted_kendall`);
* tests of every pair of systems of a language pair: the Williams test for Pearson
  (:func:`stats.metaeval.williams.williams_all_pairs`, signed r) and PERM-BOTH for Spearman and Kendall
  (:func:`stats.metaeval.perm_both.core.perm_both`, Deutsch et al. 2021), then Holm/BH and significance
  clusters (:func:`stats.pairwise.grids.grid_significance`);
* MAE/RMSE and the shift-and-rescale diagnosis of Graham (2015) per language pair
  (:mod:`stats.qe.graham`).

References
----------
F. Blain et al. 2023. Findings of the WMT 2023 Shared Task on Quality Estimation. WMT.
https://aclanthology.org/2023.wmt-1.52/

Y. Graham. 2015. Improving Evaluation of Machine Translation Quality Estimation. ACL.
https://aclanthology.org/P15-1174/
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as sps

from stats._core.budget import check_budget
from stats._core.errors import DegenerateInputWarning, StatsInputError
from stats._core.progress import check_progress, part
from stats._core.random import check_rng, resample_counts
from stats._core.results import StatisticPvalue
from stats._core.validation import check_confidence_level, check_positive_int
from stats.pairwise.grids import grid_significance
from stats.readers.qe_wmt import QEGold, QESubmissions

__all__ = [
    "MEASURES",
    "POOLED_NOTE",
    "QELanguagePairResult",
    "QEComparisonResult",
    "bootstrap_correlations",
    "qe_pair_tests",
    "compare_qe_systems",
    "language_pair_data",
    "qe_clusters",
]

MEASURES = ("spearman", "pearson", "kendall")
#: what a ``pooled`` row of :attr:`QEComparisonResult.average` is (captions, CLI notes)
POOLED_NOTE = (
    "one method's separately submitted files (a team's per-pair files) averaged here, not a "
    "figure the task published (it scored each file on its own)"
)
_CELLS = 2_000_000  # resample x item cells held at once


def _check_measure(primary: str) -> str:
    if primary not in MEASURES:
        raise StatsInputError(f"primary must be one of {', '.join(MEASURES)}; got {primary!r}")
    return primary


# ---------------------------------------------------------------- bootstrap correlations


def _counts(gen, R: int, n: int) -> np.ndarray:
    """R bootstrap resamples of n items as counts (R x n), drawn as the MT tests draw them."""
    return resample_counts(gen.integers(0, n, size=(R, n)), float)


def _weighted_pearson(W: np.ndarray, X: np.ndarray, Y: np.ndarray) -> np.ndarray:
    """Pearson r of each row's weighted sample; X, Y are (R x n) or (n,)."""
    tot = W.sum(axis=1, keepdims=True)
    mx = (W * X).sum(axis=1, keepdims=True) / tot
    my = (W * Y).sum(axis=1, keepdims=True) / tot
    dx, dy = X - mx, Y - my
    sxy = (W * dx * dy).sum(axis=1)
    sxx = (W * dx * dx).sum(axis=1)
    syy = (W * dy * dy).sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return sxy / np.sqrt(sxx * syy)


def _weighted_ranks(W: np.ndarray, x: np.ndarray) -> np.ndarray:
    """Average (mid) ranks of every item within each row's resample (R x n)."""
    order = np.argsort(x, kind="stable")
    xs = x[order]
    new = np.r_[True, xs[1:] != xs[:-1]]
    starts = np.flatnonzero(new)
    C = np.add.reduceat(W[:, order], starts, axis=1)
    before = np.cumsum(C, axis=1) - C
    group_rank = before + (C + 1.0) / 2.0
    g = np.empty(len(x), dtype=int)
    g[order] = np.cumsum(new) - 1
    return group_rank[:, g]


def _group_squares(W: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Per row of W: the sum over groups of equal ``codes`` of (the group's weight)^2."""
    order = np.argsort(codes, kind="stable")
    cs = codes[order]
    starts = np.flatnonzero(np.r_[True, cs[1:] != cs[:-1]])
    C = np.add.reduceat(W[:, order], starts, axis=1)
    return (C * C).sum(axis=1)


def _fenwick_paths(m: int) -> tuple[list, list]:
    """Index lists of a Fenwick tree over positions 1..m: ``query[i]`` sums the prefix up to
    ``i``, ``update[i]`` holds the nodes that position ``i`` adds to."""
    query, update = [], []
    for i in range(m + 1):
        q, j = [], i
        while j > 0:
            q.append(j)
            j -= j & -j
        u, j = [], i
        while 0 < j <= m:
            u.append(j)
            j += j & -j
        query.append(np.array(q, dtype=np.intp))
        update.append(np.array(u, dtype=np.intp))
    return query, update


def _weighted_kendall(W: np.ndarray, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    r"""Kendall tau-b of each row's resample (row = counts of the items), every resample at
    once: O(R n log n).

    The items are taken in increasing x, a group of equal x at a time; a Fenwick tree over the
    y ranks holds, for every resample (its rows are vectors over the resamples), the weight
    already taken below each y. Item :math:`b` adds
    :math:`w_b\,(W_{y < y_b} - W_{y > y_b})` of the items with smaller x, which sums to
    :math:`T = \sum_{x_a < x_b} w_a w_b \operatorname{sign}(y_b - y_a)`, and

    .. math::

                au_b = rac{2T}{\sqrt{(N^2 - \sum_x C_x^2)(N^2 - \sum_y C_y^2)}}

    with :math:`C` the weights of the groups of equal values and :math:`N` the row sum (the
    loop runs over items, each step a vector operation over the resamples).
    """
    R, n = W.shape
    ranks = np.unique(y, return_inverse=True)[1].ravel() + 1
    query, update = _fenwick_paths(int(ranks.max()))
    order = np.lexsort((y, x))
    xs = x[order]
    bounds = np.flatnonzero(np.r_[True, xs[1:] != xs[:-1], True]).tolist()
    tree = np.zeros((int(ranks.max()) + 1, R))
    WT = np.ascontiguousarray(W.T)
    taken = np.zeros(R)
    t = np.zeros(R)
    for g0, g1 in zip(bounds[:-1], bounds[1:], strict=True):
        group = order[g0:g1]
        for b in group:  # items of equal x see only the smaller x (no tree update yet)
            r = ranks[b]
            below = tree[query[r - 1]].sum(axis=0)
            upto = tree[query[r]].sum(axis=0)
            t += WT[b] * (below - (taken - upto))
        for b in group:
            tree[update[ranks[b]]] += WT[b]
            taken += WT[b]
    sx, sy = _group_squares(W, x), _group_squares(W, y)
    N = W.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return 2 * t / np.sqrt((N * N - sx) * (N * N - sy))


@dataclass(frozen=True, kw_only=True)
class BootstrapCorrelationsResult:
    """Result of :func:`bootstrap_correlations`: ``statistic`` (systems x measures, the
    correlations on all sentences), ``low``/``high`` (percentile interval bounds, same
    layout), ``confidence_level``, ``n_resamples``."""

    statistic: pd.DataFrame
    low: pd.DataFrame
    high: pd.DataFrame
    confidence_level: float
    n_resamples: int


def _point(pred: np.ndarray, gold: np.ndarray) -> dict:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "spearman": float(sps.spearmanr(gold, pred).statistic),
            "pearson": float(sps.pearsonr(gold, pred).statistic)
            if np.ptp(pred) > 0 and np.ptp(gold) > 0
            else np.nan,
            "kendall": float(sps.kendalltau(gold, pred).statistic),
        }


def bootstrap_correlations(
    predictions: pd.DataFrame,
    gold,
    *,
    measures=MEASURES,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    rng=None,
    progress=None,
) -> BootstrapCorrelationsResult:
    r"""Spearman, Pearson and Kendall (tau-b) correlations of each system with the gold scores,
    with percentile bootstrap intervals over sentences (module notes for the formulas).

    Parameters
    ----------
    predictions : DataFrame
        Sentences x systems.
    gold : array_like
        One gold score per sentence.
    measures : sequence of str
        Which of ``'spearman'``, ``'pearson'``, ``'kendall'`` get intervals (the point values
        of all three are given).
    n_resamples : int
        Bootstrap resamples (default 1000); every system uses the same resamples.
    confidence_level : float
    rng : int, Generator or None
    progress : callable, optional
        Called as ``progress(fraction)`` with the share of the resamples done (changes nothing
        drawn).

    Returns
    -------
    BootstrapCorrelationsResult
    """
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    check_progress(progress)
    confidence_level = check_confidence_level(confidence_level)
    g = np.asarray(gold, dtype=float)
    P = predictions.to_numpy(dtype=float)
    n, k = P.shape
    if g.shape != (n,):
        raise StatsInputError(f"gold has {g.shape[0]} scores but predictions have {n} rows")
    for m in measures:
        _check_measure(m)
    kendall_cost = 4 * n * max(1, int(np.log2(max(n, 2)))) if "kendall" in measures else 0
    check_budget(
        what="QE bootstrap",
        n_resamples=n_resamples,
        n_segments=n,
        n_systems=k,
        n_pairs=k,
        pair_cost=n + kendall_cost,
    )
    stat = pd.DataFrame([_point(P[:, j], g) for j in range(k)], index=predictions.columns)
    gen = check_rng(rng)
    boot = {m: np.empty((n_resamples, k)) for m in measures}
    chunk = max(1, _CELLS // max(n, 1))
    for r0 in range(0, n_resamples, chunk):
        R = min(chunk, n_resamples - r0)
        W = _counts(gen, R, n)
        if "spearman" in measures:
            rg = _weighted_ranks(W, g)
        for j in range(k):
            x = P[:, j]
            if "pearson" in measures:
                boot["pearson"][r0 : r0 + R, j] = _weighted_pearson(W, x, g)
            if "spearman" in measures:
                boot["spearman"][r0 : r0 + R, j] = _weighted_pearson(W, _weighted_ranks(W, x), rg)
            if "kendall" in measures:
                boot["kendall"][r0 : r0 + R, j] = _weighted_kendall(W, x, g)
        if progress is not None:
            progress((r0 + R) / n_resamples)
    a = (1 - confidence_level) / 2
    low = pd.DataFrame(index=predictions.columns, columns=list(MEASURES), dtype=float)
    high = low.copy()
    for m, b in boot.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            low[m] = np.nanquantile(b, a, axis=0)
            high[m] = np.nanquantile(b, 1 - a, axis=0)
    return BootstrapCorrelationsResult(
        statistic=stat[list(MEASURES)],
        low=low,
        high=high,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
    )


# ---------------------------------------------------------------- pairwise tests


@dataclass(frozen=True, kw_only=True)
class QEPairTestsResult(StatisticPvalue):
    """Result of :func:`qe_pair_tests`: ``statistic`` (row minus column correlation),
    ``pvalue`` ("row correlates better", filled where row is ahead), ``order`` best first,
    ``test`` (``'williams'`` or ``'perm-both'``), ``measure``, ``n_resamples`` (PERM-BOTH),
    ``mde``: with ``mde_alpha``, each tested pair's minimum detectable difference at 80% power
    from the test just run (NaN for untested cells; ``None`` without ``mde_alpha``)."""

    statistic: pd.DataFrame
    pvalue: pd.DataFrame
    order: tuple
    test: str
    measure: str
    n_resamples: int | None
    mde: pd.DataFrame | None = None


def qe_pair_tests(
    predictions: pd.DataFrame,
    gold,
    *,
    measure: str = "spearman",
    n_resamples: int = 1000,
    rng=None,
    mde_alpha: float | None = None,
    progress=None,
) -> QEPairTestsResult:
    """Test every pair of QE systems of one language pair: Williams (one-sided) for
    ``measure='pearson'``, PERM-BOTH (one-sided, :func:`stats.metaeval.perm_both.core.perm_both`) for
    ``'spearman'`` and ``'kendall'``. Signed correlations: a system with negative correlation
    is worse, not flipped.

    With ``mde_alpha``, the result's ``mde`` holds each tested pair's minimum detectable
    difference at 80% power and that alpha, from the tests just run: Williams by
    :func:`stats.power.williams_grid_power`, PERM-BOTH by
    :func:`stats.power.perm_both_grid_mde` from the spread of its own permuted differences.
    ``progress(fraction)`` (optional) follows PERM-BOTH's resamples (Williams is one step).

    Raises
    ------
    StatsInputError
        Fewer than two systems; anything the tests reject.
    """
    _check_measure(measure)
    if predictions.shape[1] < 2:
        raise StatsInputError("predictions: pairwise tests need at least two systems")
    g = np.asarray(gold, dtype=float)
    if measure == "pearson":
        from stats.metaeval.williams import williams_all_pairs

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateInputWarning)
            res = williams_all_pairs(predictions.astype(float), g, sign_align=False)
        mde = None
        if mde_alpha is not None:
            from stats.power.williams import williams_grid_power

            mde = williams_grid_power(res, alpha=mde_alpha, power=0.8)
        order = tuple(res.pvalue.index)
        r = predictions.astype(float).corrwith(pd.Series(g, index=predictions.index))
        stat = pd.DataFrame(
            r[list(order)].to_numpy()[:, None] - r[list(order)].to_numpy()[None, :],
            index=order,
            columns=order,
        )
        stat = stat.where(res.pvalue.notna())
        return QEPairTestsResult(
            statistic=stat,
            pvalue=res.pvalue,
            order=order,
            test="williams",
            measure=measure,
            n_resamples=None,
            mde=mde,
        )
    from stats.metaeval.perm_both.core import perm_both

    pb = perm_both(
        {s: predictions[s].to_numpy(dtype=float)[None, :] for s in predictions.columns},
        g[None, :],
        correlation=measure,
        n_resamples=n_resamples,
        rng=rng,
        return_draws=mde_alpha is not None,
        progress=progress,
    )
    mde = None
    if mde_alpha is not None:
        from stats.power.perm_both import perm_both_grid_mde

        mde = perm_both_grid_mde(pb, alpha=mde_alpha, power=0.8)
    return QEPairTestsResult(
        statistic=pb.statistic,
        pvalue=pb.pvalue,
        order=tuple(pb.metrics),
        test="perm-both",
        measure=measure,
        n_resamples=n_resamples,
        mde=mde,
    )


def qe_clusters(
    pvalue: pd.DataFrame,
    correlations: pd.Series,
    *,
    alpha: float = 0.05,
    correction: str = "none",
    context: str = "",
) -> tuple[pd.DataFrame, pd.Series]:
    """Adjusted p-values and significance clusters of one language pair's grid
    (:func:`stats.pairwise.grids.grid_significance`), systems best first by ``correlations``.

    A system whose correlation is undefined (NaN: constant predictions) is not tested and gets
    no cluster (NaN) -- a NaN cell would otherwise merge it into the cluster above it; a
    :class:`~stats.DegenerateInputWarning` names it.
    """
    order = list(pvalue.index)
    defined = [s for s in order if not np.isnan(correlations.get(s, np.nan))]
    pv = pvalue.copy()
    if len(defined) < len(order):
        undefined = [s for s in order if s not in defined]
        warnings.warn(
            f"{context + ': ' if context else ''}correlation undefined (constant predictions?) "
            f"for {', '.join(map(str, undefined))}: not tested, no rank",
            DegenerateInputWarning,
            stacklevel=2,
        )
        pv.loc[undefined, :] = np.nan
        pv.loc[:, undefined] = np.nan
    if not defined:
        return pv, pd.Series(np.nan, index=order)
    sig = grid_significance(
        pv.loc[defined, defined], alpha=alpha, correction=correction, order=defined
    )
    adjusted = sig.pvalue_adjusted.reindex(index=order, columns=order)
    return adjusted, sig.rank.reindex(order).astype(float)


# ---------------------------------------------------------------- per language pair


def language_pair_data(
    submissions: QESubmissions, gold: QEGold, *, exclude: pd.DataFrame | None = None
) -> dict:
    """Per language pair of the gold file: ``(predictions, gold, excluded)`` with the excluded
    items (hallucination marks, the ``exclude`` index) deleted from both, as the task does.

    ``predictions`` is a sentences x systems DataFrame of the systems that submitted that
    language pair, ``gold`` a Series on the same index, ``excluded`` how many gold items were
    left out. Language pairs no system submitted are left out.

    Raises
    ------
    StatsInputError
        A submitted language pair missing from the gold file; a system missing predictions
        for gold items (how many and an example) or predicting items the gold file lacks.
    """
    labels = gold.labels
    drop = labels["hallucination"].to_numpy(dtype=bool).copy()
    if exclude is not None and len(exclude):
        keys = pd.MultiIndex.from_frame(labels[["lp", "sid"]])
        wanted = pd.MultiIndex.from_frame(exclude[["lp", "sid"]])
        drop |= keys.isin(wanted)
        unmatched = wanted[~wanted.isin(keys)]
        if len(unmatched):
            shown = ", ".join(f"{lp} {sid}" for lp, sid in unmatched[:8])
            more = f", ... ({len(unmatched)} in all)" if len(unmatched) > 8 else ""
            warnings.warn(
                f"exclude index: {len(unmatched)} item(s) match no gold item and leave nothing "
                f"out: {shown}{more}",
                DegenerateInputWarning,
                stacklevel=2,
            )
    scores = submissions.scores
    unknown = sorted(set(scores["lp"]) - set(labels["lp"]))
    if unknown:
        raise StatsInputError(
            f"{gold.file or 'gold'}: no gold labels for language pair(s) {', '.join(unknown)} "
            f"(gold has {', '.join(sorted(set(labels['lp'])))})"
        )
    out = {}
    for lp, lab in labels.groupby("lp", sort=True):
        sub = scores[scores["lp"] == lp]
        if sub.empty:
            continue
        keep = lab[~drop[lab.index]]
        ids = pd.Index(keep["sid"])
        wide = sub.pivot(index="sid", columns="system", values="score")
        extra = wide.index.difference(pd.Index(lab["sid"]))
        if len(extra):
            raise StatsInputError(
                f"{lp}: predictions for {len(extra)} segment(s) not in the gold file "
                f"(e.g. {extra[0]})"
            )
        wide = wide.reindex(ids)
        missing = wide.isna().sum()
        if missing.any():
            s = missing[missing > 0].index[0]
            first = wide.index[wide[s].isna()][0]
            raise StatsInputError(
                f"{lp}: system {s!r} has no prediction for {int(missing[s])} of {len(ids)} "
                f"gold segments (e.g. segment {first})"
            )
        out[lp] = (
            wide[sorted(wide.columns)],
            pd.Series(keep["score"].to_numpy(dtype=float), index=ids, name="gold"),
            int(drop[lab.index].sum()),
        )
    if not out:
        raise StatsInputError("no language pair of the submissions is in the gold file")
    return out


@dataclass(frozen=True, kw_only=True)
class QELanguagePairResult(StatisticPvalue):
    """One language pair of :func:`compare_qe_systems`.

    ``statistic`` is the primary correlation per system (best first) and ``pvalue`` the
    primary measure's pairwise grid (raw, "row better"); ``table`` holds per system the three
    correlations with ``*_low``/``*_high`` bootstrap bounds, MAE, RMSE, MAE/RMSE after the
    shift-and-rescale diagnosis, and ``rank`` (significance cluster);
    ``pvalue_adjusted`` the grid after ``correction``; ``test`` the grid's test.
    """

    statistic: pd.Series
    pvalue: pd.DataFrame
    lp: str
    n: int
    excluded: int
    table: pd.DataFrame
    pvalue_adjusted: pd.DataFrame
    rank: pd.Series
    test: str
    predictions: pd.DataFrame
    gold: pd.Series


@dataclass(frozen=True, kw_only=True)
class QEComparisonResult(StatisticPvalue):
    """Result of :func:`compare_qe_systems`.

    ``statistic``: systems x language pairs of the primary measure (NaN where a system did not
    submit); ``pvalue``: ``{lp: grid}``; ``language_pairs``: ``{lp: QELanguagePairResult}``;
    ``average``: per system covering every language pair, the mean of each measure over the
    language pairs (the task's multilingual figure), best first by the primary measure, with
    ``files`` (how many submitted files the system's predictions come from) and ``pooled``
    (True for more than one: a method's separately submitted per-pair files averaged here,
    not a figure the task published; one multilingual file is the task's own).
    """

    statistic: pd.DataFrame
    pvalue: dict
    language_pairs: dict
    average: pd.DataFrame
    primary: str
    alpha: float
    correction: str
    n_resamples: int
    confidence_level: float
    seed: object


def _mae_rmse(P: pd.DataFrame, g: pd.Series, sd_ratio: float) -> pd.DataFrame:
    G = g.to_numpy(dtype=float)
    X = P.to_numpy(dtype=float)
    err = X - G[:, None]
    sd_g = G.std(ddof=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = (X - X.mean(axis=0)) / X.std(axis=0, ddof=1)
    resc = G.mean() + sd_ratio * sd_g * z - G[:, None]
    return pd.DataFrame(
        {
            "mae": np.abs(err).mean(axis=0),
            "rmse": np.sqrt((err**2).mean(axis=0)),
            "mae_rescaled": np.abs(resc).mean(axis=0),
            "rmse_rescaled": np.sqrt((resc**2).mean(axis=0)),
        },
        index=P.columns,
    )


def compare_qe_systems(
    submissions: QESubmissions,
    gold: QEGold,
    *,
    exclude: pd.DataFrame | None = None,
    primary: str = "spearman",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    alpha: float = 0.05,
    correction: str = "none",
    sd_ratio: float = 0.5,
    tests: bool = True,
    rng=None,
    progress=None,
) -> QEComparisonResult:
    """Compare QE systems per language pair and on average, as the WMT20-24 QE tasks do
    (module notes).

    Parameters
    ----------
    submissions, gold
        As read by :func:`stats.readers.qe_wmt.read_qe_submissions` and
        :func:`~stats.readers.qe_wmt.read_qe_wmt_gold`.
    exclude : DataFrame ``lp, sid``, optional
        Items to leave out besides the gold file's hallucination marks.
    primary : {'spearman', 'pearson', 'kendall'}
        The ranking measure and the tested one (default Spearman, WMT22-24).
    n_resamples : int
        Bootstrap resamples of the intervals and PERM-BOTH permutations.
    confidence_level, alpha, correction
        Interval level; level of the clusters; ``'none'``, ``'holm'`` or ``'bh'`` over each
        language pair's grid.
    sd_ratio : float
        Rescaling target of the MAE/RMSE diagnosis (Graham 2015).
    tests : bool
        False skips the pairwise tests (grids empty, no ranks: NaN, since nothing was tested;
        a language pair with one system ranks it 1).
    rng : int, Generator or None
        One generator serves every language pair in order (reproducible with an int).
    progress : callable, optional
        Called as ``progress(fraction)`` with the share done (each language pair's intervals
        and tests in turn); changes nothing drawn.

    Returns
    -------
    QEComparisonResult
    """
    primary = _check_measure(primary)
    gen = check_rng(rng)
    check_progress(progress)
    per = {}
    data = language_pair_data(submissions, gold, exclude=exclude)
    steps = 2 * len(data)  # per language pair: the intervals, then the tests
    for k, (lp, (P, g, excluded)) in enumerate(data.items()):
        n = len(g)
        if n < 4:
            raise StatsInputError(f"{lp}: {n} gold segments after exclusion; need at least 4")
        if np.ptp(g.to_numpy()) == 0:
            raise StatsInputError(f"{lp}: the gold scores are all equal")
        boot = bootstrap_correlations(
            P, g, n_resamples=n_resamples, confidence_level=confidence_level, rng=gen,
            progress=part(progress, 2 * k, steps),
        )
        table = pd.DataFrame(index=P.columns)
        for m in MEASURES:
            table[m] = boot.statistic[m]
            table[f"{m}_low"] = boot.low[m]
            table[f"{m}_high"] = boot.high[m]
        table = table.join(_mae_rmse(P, g, sd_ratio))
        order = sorted(
            P.columns,
            key=lambda s: (np.isnan(table.at[s, primary]), -np.nan_to_num(table.at[s, primary]), s),
        )
        table = table.loc[order]
        if tests and len(order) > 1:
            res = qe_pair_tests(P, g, measure=primary, n_resamples=n_resamples, rng=gen,
                                progress=part(progress, 2 * k + 1, steps))
            pv = res.pvalue.reindex(index=order, columns=order)
            test = res.test
        else:
            pv = pd.DataFrame(np.nan, index=order, columns=order)
            test = "none"
        adjusted, rank = qe_clusters(
            pv, table[primary], alpha=alpha, correction=correction, context=lp
        )
        table["rank"] = rank.reindex(order).to_numpy(dtype=float)
        if progress is not None:
            progress((2 * k + 2) / steps)
        per[lp] = QELanguagePairResult(
            statistic=table[primary],
            pvalue=pv,
            lp=lp,
            n=n,
            excluded=excluded,
            table=table,
            pvalue_adjusted=adjusted,
            rank=table["rank"],
            test=test,
            predictions=P,
            gold=g,
        )
    stat = pd.DataFrame({lp: r.table[primary] for lp, r in per.items()})
    stat = stat.reindex(sorted(stat.index))
    gold_lps = sorted(set(gold.labels["lp"]))
    full = [s for s in stat.index if all(lp in per and s in per[lp].table.index for lp in gold_lps)]
    cols = ["spearman", "pearson", "kendall", "mae", "rmse"]
    avg = pd.DataFrame(
        {c: [np.mean([per[lp].table.at[s, c] for lp in gold_lps]) for s in full] for c in cols},
        index=pd.Index(full, name="system"),
    )
    files = getattr(submissions, "system_files", {}) or {}
    avg["files"] = [len(files.get(s, ())) or 1 for s in avg.index]
    avg["pooled"] = avg["files"] > 1
    if len(avg):
        avg = avg.sort_values(primary, ascending=False, kind="stable")
    return QEComparisonResult(
        statistic=stat,
        pvalue={lp: r.pvalue for lp, r in per.items()},
        language_pairs=per,
        average=avg,
        primary=primary,
        alpha=alpha,
        correction=correction,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        seed=rng if isinstance(rng, (int, np.integer)) or rng is None else "generator",
    )
