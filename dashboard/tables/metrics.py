"""Tables and display strings of the Metrics vs humans page (system level: correlations,
Williams grids, significance summaries, clusters, power).

Pure: pandas in, pandas or strings out; no Streamlit, no caching."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from stats.analyses import LanguagePairAnalysis, LanguagePairTests
from stats.metaeval.williams import williams_winners
from stats.pairwise.grids import GridSignificance
from stats.power.williams import POWER

#: The rule of each column that marks the best metrics, and the findings that follow it.
CLUSTER_COLUMN = "top cluster (WMT22-25 rule)"
WINNER_COLUMN = "winners (WMT17-21 rule)"
#: The two rules in one sentence each, for captions.
RULES = (
    "Top cluster: the rule of the WMT22-25 metrics findings (MTME's AssignRanks): walking the "
    "metrics from the best, a metric opens a new cluster when a metric of the current cluster "
    "significantly beats it. Winners: the rule of the WMT17-21 findings (bold in their "
    "tables): the metrics no other metric significantly outperforms, raw p-values, no "
    "correction. A metric whose correlation is undefined (constant scores) is in neither."
)

#: Radio labels of the correlation kinds -> the kind.
CORRELATION_KINDS = {"Pearson": "pearson", "Spearman": "spearman", "Kendall": "kendall"}
#: Symbol of each correlation kind.
CORRELATION_SYMBOLS = {"pearson": "r", "spearman": "ρ", "kendall": "τ"}

_BLEU_VARIANT = re.compile(r"bleu(?!rt)", re.IGNORECASE)
#: A name part that is BLEU itself: BLEU, sentBLEU, BLEU4 (not SIMPBLEU, mBLEU, BLEURT).
_BLEU_PART = re.compile(r"(sent)?bleu\d*", re.IGNORECASE)
#: A name part naming another metric, which a "sacreBLEU-" prefix (the tool) does not make BLEU.
_OTHER_METRIC_PART = re.compile(r"chrf\d*\+*|ter|wer|per|cder", re.IGNORECASE)


def _bleu_rank(name) -> tuple[int, int] | None:
    """``(class, number of other parts)`` of a BLEU name for :func:`default_baseline`, or
    ``None``: class 0 names BLEU in a part of its own (BLEU_4_closest_cased, BLEU-refA,
    sacreBLEU-BLEU), class 1 only by the tool (sacreBLEU, sacreBLEU-13a; not sacreBLEU-chrF)."""
    parts = [p for p in re.split(r"[^0-9A-Za-z]+", str(name)) if p]
    rest = [p for p in parts if not _BLEU_PART.fullmatch(p)]
    if len(rest) < len(parts):
        return 0, len(rest)
    tool = [p for p in parts if p.lower() == "sacrebleu"]
    if tool and not any(_OTHER_METRIC_PART.fullmatch(p) for p in parts):
        return 1, len(parts) - len(tool)
    return None


def default_baseline(metrics: Sequence[str]) -> str | None:
    """The BLEU metric to compare against, or ``None`` when there is none.

    The names WMT uses for BLEU are split into parts at every character that is not a letter
    or digit ("BLEU_4_closest_cased" -> BLEU, 4, closest, cased). In order of preference:

    1. a name that is 'BLEU' (any case);
    2. a name with a part that is BLEU itself -- BLEU, sentBLEU or BLEU4
       (BLEU_4_closest_cased, sacreBLEU-BLEU, BLEU-refA);
    3. a name with the part sacreBLEU and none naming another metric (sacreBLEU,
       sacreBLEU-13a; not sacreBLEU-chrF);
    4. any other BLEU variant: a name containing 'bleu' *not* followed by 'rt' (SIMPBLEU,
       mBLEU; BLEURT is a different, trained metric), the first in ``metrics``.

    Within 2 and 3 the name with the fewest other parts wins, then the first alphabetically
    (sacreBLEU-BLEU before sacreBLEU-BLEU-refB, BLEU-refA before BLEU-refB), whatever the order
    of ``metrics``. With none, ``None`` is returned and the page picks its own fallback (the
    metrics page takes the metric with the lowest |r|, the one the others are tested against
    most usefully).
    """
    for name in metrics:
        if str(name).lower() == "bleu":
            return name
    ranked = [(rank, str(m).lower(), m) for m in metrics if (rank := _bleu_rank(m)) is not None]
    if ranked:
        return min(ranked, key=lambda t: t[:2])[2]
    return next((name for name in metrics if _BLEU_VARIANT.search(str(name))), None)


def correlation_table(analysis: LanguagePairAnalysis, kind: str = "pearson") -> pd.DataFrame:
    """One row per metric: r, rho, tau (signed), n, and the leave-one-out influence; rows
    ordered by ``|kind|`` with humans, highest first."""
    corr = analysis.correlation
    loo = analysis.influence
    table = pd.DataFrame(
        {
            "pearson": corr.pearson,
            "spearman": corr.spearman,
            "kendall": corr.kendall,
            "n": corr.n,
            "pearson_pvalue": corr.pearson_pvalue,
            "most_influential": loo.most_influential.reindex(corr.pearson.index),
            "pearson_without": loo.max_change.reindex(corr.pearson.index) + corr.pearson,
        }
    )
    table.index.name = "metric"
    order = table[kind].abs().sort_values(ascending=False, kind="stable", na_position="last")
    return table.loc[order.index]


def metric_order(
    analyses: Mapping[str, LanguagePairTests | LanguagePairAnalysis], first: str | None = None
) -> list[str]:
    """One metric order for every panel of a page: the Williams order (|r| with humans, highest
    first) of language pair ``first``, then the metrics it lacks by their mean rank over the
    language pairs that have them (ties in first-seen order)."""
    orders = [list(a.williams.order) for a in analyses.values()]
    head = list(analyses[first].williams.order) if first in analyses else []
    seen = list(dict.fromkeys(m for o in orders for m in o))
    ranks = {m: np.mean([o.index(m) / max(len(o) - 1, 1) for o in orders if m in o]) for m in seen}
    rest = sorted((m for m in seen if m not in set(head)), key=lambda m: ranks[m])
    return head + rest


def williams_grid_note(lp: str, williams, alpha: float) -> str | None:
    """Why the Williams grid of ``lp`` holds one test or none, in words (``None`` when it holds
    more): one metric has nothing to be tested against, two metrics make a single test (its
    outcome spelled out), and undefined correlations (a constant metric) leave every cell
    untested. (Fewer than 4 systems are an input error of :mod:`stats.analyses`.)"""
    order = list(williams.order)
    p = williams.pvalue.to_numpy(dtype=float)
    tested = np.argwhere(np.isfinite(p))
    if len(order) < 2:
        return (
            f"{lp} has a single metric ({', '.join(order) or 'none'}): there is nothing to test "
            f"it against. Upload scores of a second metric for {lp} to compare metrics."
        )
    if len(tested) == 0:
        return (
            f"No Williams test could be computed for {lp}: the metrics' correlations with "
            "humans are undefined (constant scores). The grid stays empty."
        )
    if len(tested) > 1:
        return None
    i, j = tested[0]
    pvalue = p[i, j]
    verdict = "significantly" if pvalue < alpha else "not significantly"
    return (
        f"{lp} has only two metrics, so its grid is a single Williams test: {order[i]} "
        f"correlates {verdict} better with humans than {order[j]} (p = {pvalue:.3g}, "
        f"α = {alpha:g}, n = {williams.n} systems). More metrics give a fuller grid."
    )


def sparse_grid_lps(analyses: Mapping[str, LanguagePairTests | LanguagePairAnalysis]) -> list:
    """The language pairs whose Williams grid holds at most one test (see
    :func:`williams_grid_note`)."""
    return [
        key
        for key, a in analyses.items()
        if np.isfinite(a.williams.pvalue.to_numpy(dtype=float)).sum() <= 1
    ]


def significance_summary(
    analyses: Mapping[str, LanguagePairTests | LanguagePairAnalysis],
    *,
    alpha: float,
    baseline: str | None,
    significance: Mapping[str, GridSignificance] | None = None,
) -> pd.DataFrame:
    """Per language pair: systems, metrics, pairs tested, share of pairs significantly
    different at ``alpha``, best metric, and the metrics significantly beating ``baseline``.

    With ``significance`` (language pair -> :class:`stats.pairwise.grids.GridSignificance` of its
    Williams grid), "significant" reads the adjusted p-values and two last columns list the
    metrics of the top significance cluster (:data:`CLUSTER_COLUMN`, the WMT22-25 rule) and
    the winners (:data:`WINNER_COLUMN`, the WMT17-21 rule: not significantly outperformed by
    any other metric, raw p; :func:`stats.williams_winners`)."""
    rows = []
    for key, a in analyses.items():
        w = a.williams
        m = len(w.order)
        n_pairs = m * (m - 1) // 2
        if significance is None:
            significant = w.significant(alpha)
        else:
            adjusted = significance[key].pvalue_adjusted
            significant = adjusted.lt(alpha) & adjusted.notna()
        sig = significant.to_numpy()
        if baseline is not None and baseline in w.order:
            beats = list(significant.index[significant[baseline].to_numpy()])
            beats_text = ", ".join(beats) if beats else "none"
        else:
            beats, beats_text = [], "(baseline absent)"
        rows.append(
            {
                "language pair": key,
                "systems": w.n,
                "metrics": m,
                "pairs": n_pairs,
                "significant pairs": int(sig.sum()),
                "share significant": sig.sum() / n_pairs if n_pairs else float("nan"),
                "best |r|": w.order[0],
                "beat baseline": len(beats),
                "metrics significantly beating baseline": beats_text,
            }
        )
        if significance is not None:
            rank = significance[key].rank
            rows[-1][CLUSTER_COLUMN] = ", ".join(map(str, rank.index[rank.to_numpy() == 1]))
            rows[-1][WINNER_COLUMN] = ", ".join(map(str, williams_winners(w, alpha=alpha)))
    return pd.DataFrame(rows).set_index("language pair")


def cluster_table(
    values: pd.Series,
    rank: pd.Series,
    *,
    value_name: str = "correlation",
    winners: Sequence[str] | None = None,
) -> pd.DataFrame:
    """The items of a significance grid best first (``rank``'s order, e.g.
    :attr:`stats.pairwise.grids.GridSignificance.rank`) with their significance cluster (1 = top) and
    their value (``values``, e.g. each metric's correlation with humans) as ``value_name``.

    An item whose value is undefined (NaN) has no cluster (empty, never a number). With
    ``winners`` (e.g. :func:`stats.williams_winners`), a column "WMT17-21 winner": "yes",
    "no", or "-" where the value is undefined."""
    order = list(rank.index)
    value = values.reindex(order).to_numpy(dtype=float)
    cluster = pd.array(rank.to_numpy(dtype=float), dtype="Float64").astype("Int64")
    cluster[np.isnan(value)] = pd.NA
    out = pd.DataFrame(
        {"cluster": cluster, value_name: value}, index=pd.Index(order, name="metric")
    )
    if winners is not None:
        chosen = set(winners)
        out["WMT17-21 winner"] = [
            "-" if np.isnan(v) else ("yes" if m in chosen else "no")
            for m, v in zip(order, value, strict=True)
        ]
    return out


def power_line(n: int, detectable: float, alpha: float, power: float = POWER) -> str:
    """The Williams power sentence of one language pair: the median smallest difference in r
    detected with ``power`` at ``alpha`` (:func:`stats.power.williams.median_detectable_difference`),
    phrased as the CLI's ``williams --power``."""
    if detectable != detectable:
        return f"**Power:** with {n} systems, no pair of metrics has a detectable difference."
    return (
        f"**Power:** with {n} systems, differences in r below **{detectable:.3f}** (median over "
        f"the metric pairs) are not detected with {power:.0%} power at α = {alpha:g} "
        "(Williams test, noncentral-t approximation)."
    )
