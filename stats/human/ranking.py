r"""Human rankings of MT systems as in the WMT news-task findings.

Systems are ordered by their mean (standardised) DA score; every ordered pair of systems is
compared with a one-sided Wilcoxon rank-sum test on their segment scores; and the ranking is
split into clusters: a line is drawn below a system when every system above it significantly
beats every system below it.

References
----------
L. Barrault et al. 2020. Findings of the 2020 Conference on Machine Translation (WMT20),
Section 3. https://aclanthology.org/2020.wmt-1.1/

Y. Graham, T. Baldwin, A. Moffat and J. Zobel. 2017. Can machine translation systems be
evaluated by the crowd alone? Natural Language Engineering 23(1).
https://doi.org/10.1017/S1351324915000339
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as _st

from stats._core.choices import HUMAN_SCORES
from stats._core.errors import StatsInputError
from stats._core.results import StatisticPvalue
from stats._core.validation import check_alpha
from stats.pairwise.clusters import separated_clusters

__all__ = ["HumanRankingResult", "human_ranking", "rank_sum_grid"]


def rank_sum_grid(
    groups: Mapping[str, Sequence[float]], *, order: Sequence[str] | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    r"""One-sided Wilcoxon rank-sum test that the row group's scores are higher than the
    column group's, for every ordered pair.

    Cell :math:`(a, b)` is R's ``wilcox.test(x_a, x_b, alternative = "greater", exact = FALSE,
    correct = TRUE)``: the normal approximation with tie and continuity correction,

    .. math::

        U_a = R_a - \frac{n_a (n_a + 1)}{2}, \qquad
        z = \frac{U_a - n_a n_b / 2 - 1/2}{\sigma_U}, \qquad p_{ab} = 1 - \Phi(z),

    with :math:`R_a` the rank sum of :math:`a` in the pooled sample and :math:`\sigma_U` the
    tie-corrected standard deviation of :math:`U` (``scipy.stats.mannwhitneyu`` with
    ``method="asymptotic"``, one call over all pairs).

    Returns
    -------
    (statistic, pvalue) : two square DataFrames indexed by ``order`` (default: the groups'
        order); :math:`U_a` and :math:`p_{ab}`, NaN on the diagonal.
    """
    names = list(groups) if order is None else list(order)
    if len(names) < 2:
        raise StatsInputError(f"groups: a ranking needs at least two systems; got {len(names)}")
    arrays = [np.asarray(groups[s], dtype=float).ravel() for s in names]
    for s, a in zip(names, arrays, strict=True):
        if a.size == 0 or not np.isfinite(a).all():
            raise StatsInputError(f"groups[{s!r}]: needs finite scores; got {a.size} value(s)")
    k = len(names)
    padded = np.full((k, max(a.size for a in arrays)), np.nan)
    for i, a in enumerate(arrays):
        padded[i, : a.size] = a
    rows, cols = np.nonzero(~np.eye(k, dtype=bool))
    res = _st.mannwhitneyu(
        padded[rows], padded[cols], alternative="greater", method="asymptotic",
        use_continuity=True, axis=1, nan_policy="omit",
    )  # fmt: skip
    stat = np.full((k, k), np.nan)
    pval = np.full((k, k), np.nan)
    stat[rows, cols] = res.statistic
    pval[rows, cols] = res.pvalue
    idx = pd.Index(names, dtype=object)
    return pd.DataFrame(stat, index=idx, columns=idx), pd.DataFrame(pval, index=idx, columns=idx)


@dataclass(frozen=True, kw_only=True)
class HumanRankingResult(StatisticPvalue):
    """A findings-style human ranking of the systems of one language pair.

    Attributes
    ----------
    statistic : pandas.DataFrame
        Mann-Whitney :math:`U` of the row system against the column system.
    pvalue : pandas.DataFrame
        One-sided Wilcoxon rank-sum p that the row system's segment scores are higher than the
        column system's, for every ordered pair (NaN on the diagonal); ordered as ``systems``.
    systems : tuple of str
        Best first (by the mean of ``score``).
    z, raw, n : pandas.Series
        Per system: mean z score, mean raw score, number of scored segments.
    score : {'z', 'raw'}
        The score the ranking and the tests use.
    clusters : tuple of tuples of str
        :func:`stats.pairwise.clusters.separated_clusters` at ``alpha``.
    alpha : float
    lp : str
    read_as, notes : tuple of str
        What the files were read as and what was changed on the way (set by
        :func:`stats.analyses.human_rankings`).
    """

    statistic: pd.DataFrame
    pvalue: pd.DataFrame
    systems: tuple[str, ...]
    z: pd.Series
    raw: pd.Series
    n: pd.Series
    score: str
    clusters: tuple[tuple[str, ...], ...]
    alpha: float
    lp: str
    read_as: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    def to_frame(self) -> pd.DataFrame:
        """One row per system, best first: cluster (1 = top), z, raw, n."""
        cluster = {s: i + 1 for i, c in enumerate(self.clusters) for s in c}
        idx = pd.Index(self.systems, name="system", dtype=object)
        return pd.DataFrame(
            {
                "cluster": [cluster[s] for s in self.systems],
                "z": self.z.to_numpy(),
                "raw": self.raw.to_numpy(),
                "n": self.n.to_numpy(),
            },
            index=idx,
        )


def human_ranking(
    scores: pd.DataFrame, *, score: str = "z", alpha: float = 0.05, lp: str = ""
) -> HumanRankingResult:
    """Rank the systems of one language pair from their segment scores.

    Parameters
    ----------
    scores : pandas.DataFrame
        Columns ``system``, ``z``, ``raw``: one row per scored segment of a system (as from
        :func:`stats.readers.da_segments.read_da_segment_scores`).
    score : {'z', 'raw'}
        What to rank by and test (default ``'z'``, as in the findings).
    alpha : float
        Significance level of the cluster lines.
    lp : str
        Language pair, for the result.

    Returns
    -------
    HumanRankingResult
    """
    if score not in HUMAN_SCORES:
        raise StatsInputError(f"score must be one of {', '.join(HUMAN_SCORES)}; got {score!r}")
    alpha = check_alpha(alpha)
    missing = [c for c in ("system", "z", "raw") if c not in scores]
    if missing:
        raise StatsInputError(f"scores: missing column(s) {', '.join(missing)}")
    grouped = scores.groupby("system", sort=False)
    means = grouped[["z", "raw"]].mean()
    order = list(means[score].sort_values(ascending=False, kind="stable").index)
    groups = {s: g[score].to_numpy() for s, g in grouped}
    statistic, pvalue = rank_sum_grid(groups, order=order)
    return HumanRankingResult(
        statistic=statistic,
        pvalue=pvalue,
        systems=tuple(order),
        z=means["z"].reindex(order),
        raw=means["raw"].reindex(order),
        n=grouped.size().reindex(order).astype(np.int64),
        score=score,
        clusters=separated_clusters(pvalue, alpha=alpha),
        alpha=alpha,
        lp=lp,
    )
