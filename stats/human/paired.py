r"""Human rankings as the WMT24-25 general MT task computes them: paired tests by domain,
Stouffer's combination, rank ranges and clusters.

Definitions (WMT24 findings, Section on the human ranking; the organisers' ranking scripts):

* an *item* is a segment of a document of a language pair; a system's score on an item is the
  mean of its ratings there (over raters);
* two systems are compared on the items both were rated on. In each domain :math:`d` the
  two-sided Wilcoxon signed-rank test of the paired differences gives :math:`p_d`
  (``scipy.stats.wilcoxon`` with its default method), and the domains are combined with
  Stouffer's method *as the findings write it*:

  .. math::

      z_d = \Phi^{-1}(1 - p_d), \qquad z = \frac{\sum_{d=1}^{D} z_d}{\sqrt D}, \qquad
      p = 1 - \Phi(z).

  :math:`p_d` is two-sided, so :math:`z_d` measures how far the domain's difference is from
  zero *in either direction*; a system better in one domain and worse in another adds evidence
  of a difference, not cancelling it. :math:`p` is therefore a test that the two systems differ
  *somewhere*, not that one is better overall; the direction comes from the scores. With one
  domain, :math:`p = p_1`. Domains where the pair shares no item are left out of :math:`D`;
* a system's score is the mean over domains of its per-domain mean item score (``macro``) or
  the mean over all its items (``micro``); systems are ordered by it, best first;
* system A *beats* B when :math:`p_{AB} < \alpha` and A's score is higher; the rank range of
  A is :math:`(1 + \#\{B : B \text{ beats } A\},\; n - \#\{B : A \text{ beats } B\})`;
* clusters (the findings' ``get_clusters``): a boundary falls below position :math:`i` of the
  ordered list exactly when every system at or above :math:`i` differs from every system
  below :math:`i` with :math:`p \le \alpha`.

The unpaired one-sided Wilcoxon rank-sum test of WMT 2014-2020
(:func:`stats.human.ranking.rank_sum_grid`, on the item scores pooled over domains) is the
other choice of ``test``; Holm or Benjamini-Hochberg adjust the grid's pairs as one family.

References
----------
T. Kocmi et al. 2024. Findings of the WMT24 General Machine Translation Shared Task.
https://aclanthology.org/2024.wmt-1.1/
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats as _st

from stats._core.budget import PAIR_OVERHEAD, check_budget
from stats._core.choices import CORRECTIONS
from stats._core.errors import StatsInputError
from stats._core.results import StatisticPvalue
from stats._core.validation import check_alpha, warn_degenerate
from stats.escape import latex as latex_escape
from stats.pairwise.clusters import separated_clusters
from stats.pairwise.multiple import adjust_pvalues

from .gold import HumanGoldResult, combine_criteria
from .ranking import rank_sum_grid

__all__ = [
    "AVERAGES",
    "PAIRED_TESTS",
    "PairedRankingResult",
    "gold_from_ranking",
    "item_scores",
    "paired_ranking",
    "ranking_latex",
    "rank_ranges",
    "standardize_per_rater",
    "stouffer",
]

#: tests of :func:`paired_ranking`
PAIRED_TESTS = ("signed-rank", "rank-sum")
#: how domain means make a system's score
AVERAGES = ("macro", "micro")
#: bound on the pairs x items difference matrix of one domain
MAX_CELLS = 200_000_000

_ITEM = ["domain", "document", "segment"]


def item_scores(ratings: pd.DataFrame) -> pd.DataFrame:
    """Mean rating of each system on each item: a table indexed by (domain, document, segment)
    with one column per system (NaN where the system was not rated there)."""
    missing = [c for c in ("system", *_ITEM, "score") if c not in ratings]
    if missing:
        raise StatsInputError(f"ratings: missing column(s) {', '.join(missing)}")
    means = ratings.groupby([*_ITEM, "system"], sort=True)["score"].mean()
    return means.unstack("system")


def standardize_per_rater(ratings: pd.DataFrame) -> tuple[pd.DataFrame, tuple[str, ...]]:
    r"""Each rater's scores as z scores, per rater and language pair, as WMT22's DA+SQM ranking
    (``make_rankings.py``) standardises: :math:`z = (x - \bar x_r) / s_r` with the sample SD
    (``ddof=1``, pandas' ``std``); raters whose SD is 0 or undefined (one rating) are left out,
    as there by default. Returns the ratings with ``score`` replaced and the raters left out.

    Examples
    --------
    >>> r = pd.DataFrame({"lp": "en-de", "rater": ["a", "a", "a", "b"],
    ...                   "score": [1.0, 2.0, 3.0, 5.0]})
    >>> z, out = standardize_per_rater(r)
    >>> z["score"].tolist(), out
    ([-1.0, 0.0, 1.0], ('b (en-de)',))
    """
    by = ratings.groupby(["lp", "rater"], sort=False)["score"]
    mean, sd = by.transform("mean"), by.transform("std")
    keep = (sd > 0).to_numpy()
    left = ratings.loc[~keep, ["rater", "lp"]].drop_duplicates()
    out = ratings[keep].assign(score=((ratings["score"] - mean) / sd)[keep])
    names = tuple(f"{r} ({lp})" for r, lp in zip(left["rater"], left["lp"], strict=True))
    return out.reset_index(drop=True), names


def stouffer(pvalues: np.ndarray, axis: int = -1) -> np.ndarray:
    r"""Stouffer's combination as the WMT24 findings write it, over ``axis``, ignoring NaN:
    :math:`p = 1 - \Phi(\sum_d \Phi^{-1}(1 - p_d) / \sqrt{D})`; NaN where no :math:`p_d`.

    Computed on the survival scale, :math:`\Phi^{-1}(1 - p) = \bar\Phi^{-1}(p)` (``norm.isf``)
    and :math:`1 - \Phi(z) = \bar\Phi(z)` (``norm.sf``), so that p-values down to the smallest
    doubles survive (``1 - p`` rounds every p below about 1e-16 to 1, and ``1 - cdf`` every
    combined p below about 1e-16 to 0).

    Examples
    --------
    Three domains' one-sided p-values combined into one, and a p-value far below 1e-16 kept.

    >>> from stats.human import stouffer
    >>> round(float(stouffer([0.04, 0.10, 0.20])), 4)
    0.0127
    >>> float(stouffer(np.array([1e-300, 0.5])))  # doctest: +ELLIPSIS
    1.46...e-151
    """
    p = np.asarray(pvalues, dtype=float)
    z = _st.norm.isf(p)
    count = np.sum(~np.isnan(p), axis=axis)
    with np.errstate(invalid="ignore", divide="ignore"):
        total = np.nansum(z, axis=axis) / np.sqrt(count)
        return np.where(count > 0, _st.norm.sf(total), np.nan)


def rank_ranges(pvalue: np.ndarray, score: np.ndarray, *, alpha: float) -> np.ndarray:
    """``(top, bottom)`` per system: ``1 + #systems beating it``, ``n - #systems it beats``;
    A beats B when ``pvalue[A, B] < alpha`` and A's score is higher."""
    s = np.asarray(score, dtype=float)
    beats = (np.nan_to_num(pvalue, nan=1.0) < alpha) & (s[:, None] > s[None, :])
    n = len(s)
    return np.column_stack([1 + beats.sum(axis=0), n - beats.sum(axis=1)])


@dataclass(frozen=True, kw_only=True)
class PairedRankingResult(StatisticPvalue):
    """A WMT24-style human ranking of the systems of one language pair.

    Attributes
    ----------
    statistic : pandas.DataFrame
        Stouffer's combined :math:`z` (signed-rank) or Mann-Whitney :math:`U` (rank-sum), row
        against column; ordered as ``systems``.
    pvalue : pandas.DataFrame
        ``pvalue.loc[a, b]``: signed-rank: the combined two-sided p (symmetric); rank-sum: the
        one-sided p that a is better than b. Adjusted when ``correction`` is not ``'none'``
        (ranks and clusters use these).
    systems : tuple of str
        Best first by ``score``.
    score : pandas.Series
        The systems' scores (macro or micro average of item scores).
    rank_range : pandas.DataFrame
        Columns ``top``, ``bottom`` per system (Int64); NA for a system none of whose tests is
        defined (no item shared with another system), which is ranked nowhere.
    clusters : tuple of tuples of str
        Top first; a system none of whose tests is defined is in none.
    n_items : pandas.Series
        Items rated per system.
    domain_pvalue : dict of str -> pandas.DataFrame
        Signed-rank: the per-domain two-sided p-values (before correction).
    domains : tuple of str
    test, average, correction : str
    alpha : float
    lp : str
    protocol : str
        ``'ESA'``, ``'MQM'``, ``'DA+SQM'``... (set by :func:`stats.analyses.paired_rankings`).
    score_kind : str
        ``'raw'`` (the ratings as given) or ``'z'`` (standardised per rater,
        :func:`standardize_per_rater`).
    notes, read_as : tuple of str
        What the files were read as and what was changed or left out on the way.
    segment_scores, document_scores : pandas.DataFrame or None
        Per (system, domain, document, segment): the mean over raters (``score``) and the
        raters (``n``); per (system, document): the mean of its segment scores and the number
        of segments.
    """

    statistic: pd.DataFrame
    pvalue: pd.DataFrame
    systems: tuple[str, ...]
    score: pd.Series
    rank_range: pd.DataFrame
    clusters: tuple[tuple[str, ...], ...]
    n_items: pd.Series
    domains: tuple[str, ...]
    test: str
    average: str
    correction: str
    alpha: float
    lp: str
    domain_pvalue: dict = field(default_factory=dict)
    protocol: str = ""
    pvalue_unadjusted: pd.DataFrame | None = None
    score_kind: str = "raw"
    notes: tuple[str, ...] = ()
    read_as: tuple[str, ...] = ()
    segment_scores: pd.DataFrame | None = None
    document_scores: pd.DataFrame | None = None

    def describe(self) -> str:
        """The choices in one line, for captions."""
        how = (
            "two-sided Wilcoxon signed-rank on shared items"
            + (f" per domain ({len(self.domains)}), Stouffer-combined" if len(self.domains) > 1
               else "")
            if self.test == "signed-rank"
            else "one-sided Wilcoxon rank-sum (unpaired)"
        )  # fmt: skip
        adj = "" if self.correction == "none" else f", {self.correction} adjusted"
        return f"{how}{adj}; {self.average} average over domains; α = {self.alpha:g}"

    def to_frame(self) -> pd.DataFrame:
        """One row per system, best first: rank range, cluster (1 = top), score, items."""
        cluster = {s: i + 1 for i, c in enumerate(self.clusters) for s in c}
        idx = pd.Index(self.systems, name="system", dtype=object)
        return pd.DataFrame(
            {
                "rank_top": self.rank_range["top"].array,
                "rank_bottom": self.rank_range["bottom"].array,
                "cluster": pd.array([cluster.get(s) for s in self.systems], dtype="Int64"),
                "score": self.score.to_numpy(),
                "n_items": self.n_items.to_numpy(),
            },
            index=idx,
        )


def ranking_latex(result: PairedRankingResult, *, digits: int = 1) -> str:
    """A findings-style table (booktabs): rank range, system, score, items; a rule between
    clusters; the caption states the test, the average and alpha."""
    frame = result.to_frame()
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        r"\begin{tabular}{clrr}",
        r"\toprule",
        r"Rank & System & Score & Items \\",
        r"\midrule",
    ]
    previous = None
    for system, row in frame.iterrows():
        if previous is not None and str(row["cluster"]) != previous:
            lines.append(r"\midrule")
        previous = str(row["cluster"])
        if pd.isna(row["rank_top"]):  # no defined test: ranked nowhere
            rank = "--"
        else:
            top, bottom = int(row["rank_top"]), int(row["rank_bottom"])
            rank = str(top) if top == bottom else f"{top}--{bottom}"
        lines.append(
            f"{rank} & {latex_escape(str(system))} & {row['score']:.{digits}f} & {int(row['n_items'])} \\\\"
        )
    caption = f"{result.protocol + ' ' if result.protocol else ''}{result.lp}: {result.describe()}"
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{latex_escape(caption)}}}",
              r"\end{table}"]  # fmt: skip
    return "\n".join(lines) + "\n"


def _signed_rank(table: pd.DataFrame, names: list[str]) -> tuple[np.ndarray, dict]:
    """Per-domain two-sided signed-rank p of every pair (i < j); (pairs, domains) array."""
    iu, ju = np.triu_indices(len(names), 1)
    domains = list(pd.unique(table.index.get_level_values("domain")))
    out = np.full((len(iu), len(domains)), np.nan)
    for d, dom in enumerate(domains):
        x = table.xs(dom, level="domain")[names].to_numpy(dtype=float).T  # systems x items
        if len(iu) * x.shape[1] > MAX_CELLS:
            raise StatsInputError(
                f"ratings: {len(iu)} pairs x {x.shape[1]} items in domain {dom!r} is more than "
                f"{MAX_CELLS:,} differences"
            )
        diff = x[iu] - x[ju]  # NaN where either system is unrated: not a shared item
        out[:, d] = signed_rank_rows(diff)
    return out, {dom: out[:, d] for d, dom in enumerate(domains)}


def signed_rank_rows(diff: np.ndarray) -> np.ndarray:
    """Two-sided Wilcoxon signed-rank p of each row of ``diff`` over its non-NaN values, equal
    to ``scipy.stats.wilcoxon(row[~isnan(row)])`` with scipy's default method (NaN for an empty
    row).

    scipy chooses the method per call from the sample size and from whether there are zeros
    or tied magnitudes (exact, permutation, or normal approximation), so rows are grouped by
    (size, zeros or ties) and each group is one vectorised call: the same choice, and the same
    arithmetic, as one call per row.
    """
    diff = np.asarray(diff, dtype=float)
    out = np.full(diff.shape[0], np.nan)
    valid = ~np.isnan(diff)
    n = valid.sum(axis=1)
    # each row's values first, in their order
    compact = np.take_along_axis(diff, np.argsort(~valid, axis=1, kind="stable"), axis=1)
    magnitude = np.sort(np.abs(np.where(diff == 0, np.nan, diff)), axis=1)  # NaN last
    tied = (np.diff(magnitude, axis=1) == 0).any(axis=1)
    flag = (diff == 0).any(axis=1) | tied
    keys = n * 2 + flag
    for key in np.unique(keys[n > 0]):
        rows = np.flatnonzero(keys == key)
        block = compact[rows, : int(key // 2)]
        if key % 2 and key // 2 <= _EXACT_SIGNS:
            out[rows] = _exact_sign_flip_p(block)
            continue
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            out[rows] = _st.wilcoxon(block, axis=1).pvalue
    return out


#: scipy's ``wilcoxon(method="auto")`` takes every one of the 2**n sign patterns (an exact
#: permutation test) when the differences have zeros or tied magnitudes and n <= 13
_EXACT_SIGNS = 13
#: rows per block of the enumeration: 512 rows x 8,192 patterns x 8 bytes = 32 MiB at n = 13
_SIGN_ROWS = 512


def _exact_sign_flip_p(block: np.ndarray) -> np.ndarray:
    r"""Two-sided p of the signed-rank statistic over all :math:`2^n` sign patterns, for rows of
    ``block`` (rows x n, no NaN, n <= 13) that have zeros or tied magnitudes: scipy's
    ``wilcoxon`` in that case (a ``permutation_test`` whose statistic runs once per pattern in
    Python), as one matrix product.

    Zeros are dropped (Wilcoxon's rule); the others get average ranks of :math:`|d|`;
    :math:`R^+ = \sum_i r_i [d_i > 0]`. Flipping signs maps the positive set onto every subset
    of the non-zero items, so the null distribution is :math:`\{b \cdot r : b \in \{0,1\}^n\}`
    (zeros carry rank 0). As scipy: :math:`p = \min(1, 2 \min(P(T \le R^+ + \gamma),
    P(T \ge R^+ - \gamma)))` with :math:`\gamma = 100\,\epsilon\,|R^+|`. Ranks are
    multiples of 1/2, so every sum is exact and the comparisons equal scipy's.
    """
    rows, n = block.shape
    nonzero = block != 0
    magnitude = np.where(nonzero, np.abs(block), np.inf)  # zeros ranked last, then dropped
    ranks = np.where(nonzero, _st.rankdata(magnitude, axis=1), 0.0)
    observed = (ranks * (block > 0)).sum(axis=1)
    gamma = np.abs(np.finfo(float).eps * 100 * observed)
    patterns = ((np.arange(2**n)[:, None] >> np.arange(n)) & 1).astype(float)  # 2**n x n
    out = np.empty(rows)
    for start in range(0, rows, _SIGN_ROWS):
        part = slice(start, start + _SIGN_ROWS)
        null = ranks[part] @ patterns.T  # rows x 2**n
        less = (null <= (observed[part] + gamma[part])[:, None]).sum(axis=1)
        greater = (null >= (observed[part] - gamma[part])[:, None]).sum(axis=1)
        out[part] = np.minimum(less, greater) * 2 / 2**n
    return np.clip(out, 0.0, 1.0)


def _square(values: np.ndarray, k: int, *, symmetric: bool) -> np.ndarray:
    iu, ju = np.triu_indices(k, 1)
    m = np.full((k, k), np.nan)
    m[iu, ju] = values
    if symmetric:
        m[ju, iu] = values
    return m


def paired_ranking(
    ratings: pd.DataFrame,
    *,
    test: str = "signed-rank",
    by_domain: bool = True,
    average: str = "macro",
    alpha: float = 0.05,
    correction: str = "none",
    lp: str = "",
) -> PairedRankingResult:
    """Rank the systems of one language pair from their ratings (see the module docstring).

    Parameters
    ----------
    ratings : pandas.DataFrame
        Columns ``system``, ``domain``, ``document``, ``segment``, ``score`` (as
        :attr:`stats.readers.documents.HumanRatings.frame`, one language pair).
    test : {'signed-rank', 'rank-sum'}
    by_domain : bool
        Test per domain and combine (default), or one test on all shared items.
    average : {'macro', 'micro'}
    alpha : float
        Level of the rank ranges and the clusters.
    correction : {'none', 'holm', 'bh'}
        Adjust the grid's pairs (unordered for signed-rank, ordered for rank-sum) as a family.
    lp : str

    Returns
    -------
    PairedRankingResult
    """
    if test not in PAIRED_TESTS:
        raise StatsInputError(f"test must be one of {', '.join(PAIRED_TESTS)}; got {test!r}")
    if average not in AVERAGES:
        raise StatsInputError(f"average must be one of {', '.join(AVERAGES)}; got {average!r}")
    if correction not in CORRECTIONS:
        raise StatsInputError(
            f"correction must be one of {', '.join(CORRECTIONS)}; got {correction!r}"
        )
    alpha = check_alpha(alpha)
    if not by_domain:
        ratings = ratings.assign(domain="all")
    table = item_scores(ratings)
    dom_means = table.groupby(level="domain").mean()
    score = dom_means.mean() if average == "macro" else table.mean()
    names = list(score.sort_values(ascending=False, kind="stable").index)
    if len(names) < 2:
        raise StatsInputError(
            f"ratings{f' of {lp}' if lp else ''}: a ranking needs at least two systems; got "
            f"{len(names)} ({', '.join(map(str, names)) or 'none'})"
        )
    k = len(names)
    check_budget(  # every pair of systems is tested: bounded before the first test
        what=f"human ranking{f' of {lp}' if lp else ''} ({test})",
        n_systems=k,
        n_segments=len(table),
        n_pairs=k * (k - 1) // 2,
        pair_cost=len(table) + PAIR_OVERHEAD,
        resamples_of={},  # no resamples: the advice is fewer systems or items
    )
    idx = pd.Index(names, dtype=object)
    per_domain: dict = {}
    if test == "signed-rank":
        p_dom, by_dom = _signed_rank(table, names)
        p_pairs = stouffer(p_dom, axis=1)
        with np.errstate(all="ignore"):
            z_pairs = _st.norm.isf(p_pairs)
        raw = _square(p_pairs, k, symmetric=True)
        p_pairs = adjust_pvalues(p_pairs, method=correction)
        pmat = _square(p_pairs, k, symmetric=True)
        stat = _square(z_pairs, k, symmetric=True)
        per_domain = {
            d: pd.DataFrame(_square(v, k, symmetric=True), index=idx, columns=idx)
            for d, v in by_dom.items()
        }
    else:
        groups = {s: table[s].dropna().to_numpy() for s in names}
        stat_df, p_df = rank_sum_grid(groups, order=names)
        stat = stat_df.to_numpy()
        pmat = p_df.to_numpy(dtype=float, copy=True)
        raw = pmat.copy()
        off = ~np.eye(k, dtype=bool)
        pmat[off] = adjust_pvalues(pmat[off], method=correction)
    ordered_score = score.reindex(names).to_numpy(dtype=float)
    # a system none of whose tests is defined (no item shared with any other system) has no
    # rank range and joins no cluster; the others are ranked among themselves
    finite = np.isfinite(pmat) & ~np.eye(k, dtype=bool)
    tested = finite.any(axis=0) | finite.any(axis=1)
    if not tested.all():
        untested = [s for s, ok in zip(names, tested, strict=True) if not ok]
        warn_degenerate(
            f"human ranking{f' of {lp}' if lp else ''}: no test of {', '.join(map(str, untested))} "
            "is defined (no item rated for it and another system): no p-value, rank range or "
            "cluster",
            stacklevel=2,
        )
    keep = np.flatnonzero(tested)
    ranges = np.full((k, 2), np.nan)
    clusters: tuple = ()
    if len(keep):
        sub = pmat[np.ix_(keep, keep)]
        ranges[keep] = rank_ranges(sub, ordered_score[keep], alpha=alpha)
        kept = [names[i] for i in keep]
        clusters = separated_clusters(
            pd.DataFrame(sub, index=kept, columns=kept), alpha=alpha, inclusive=True
        )
    return PairedRankingResult(
        statistic=pd.DataFrame(stat, index=idx, columns=idx),
        pvalue=pd.DataFrame(pmat, index=idx, columns=idx),
        systems=tuple(names),
        score=pd.Series(ordered_score, index=idx, name="score"),
        rank_range=pd.DataFrame(ranges, index=idx, columns=["top", "bottom"]).astype("Int64"),
        clusters=clusters,
        n_items=table[names].notna().sum().astype(np.int64).reindex(names),
        domains=tuple(str(d) for d in dom_means.index),
        test=test,
        average=average,
        correction=correction,
        alpha=alpha,
        lp=lp,
        domain_pvalue=per_domain,
        pvalue_unadjusted=pd.DataFrame(raw, index=idx, columns=idx),
    )


def gold_from_ranking(result: PairedRankingResult) -> HumanGoldResult:
    """The ranking as a gold standard for :mod:`stats.human.accuracy`: one criterion (``adequacy``,
    holding the protocol's score), each pair's p in the row of the system with the higher
    score (mirror cell NaN), so a test agrees with the humans when it finds the same winner at
    the same level."""
    names = list(result.systems)
    k = len(names)
    p = result.pvalue.to_numpy(dtype=float)
    upper = np.triu(np.ones((k, k), dtype=bool), 1)  # row above column: the higher score
    grid = np.where(upper, p, np.nan)
    idx = pd.Index(names, dtype=object)
    pvalue = pd.DataFrame(grid, index=idx, columns=idx)
    n = result.n_items.to_numpy(dtype=np.int64)
    scores = pd.DataFrame(
        {"adequacy_raw": result.score.to_numpy(), "adequacy_z": result.score.to_numpy(),
         "adequacy_n": n},
        index=pd.Index(names, dtype=object, name="system"),
    )  # fmt: skip
    return HumanGoldResult(
        statistic={"adequacy": result.statistic},
        pvalue={"adequacy": pvalue, "combined": combine_criteria(pvalue, None, result.alpha)},
        systems=tuple(names),
        alpha=result.alpha,
        criteria=("adequacy",),
        scores=scores,
        annotators=pd.DataFrame(
            {
                "criterion": ["adequacy"],
                "annotator": [f"({result.protocol or 'ratings'} of {result.lp})"],
                "n": [int(n.sum())],
                "mean": [float(np.mean(result.score))],
            }
        ),
        n_judgements=int(n.sum()),
        excluded=pd.DataFrame(columns=["annotator", "criterion", "n", "reason"]),
        warnings=(f"gold standard: {result.describe()}",),
    )
