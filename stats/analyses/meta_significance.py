"""Which metric is really better, from files: PERM-BOTH grids and their clusters per language
pair of a meta-evaluation data set (:func:`perm_both_analysis`), and soft pairwise accuracy per
language pair and across them (:func:`soft_pairwise_analysis`). The CLI (``python -m stats
meta-eval --test perm-both``, ``--correlation soft-pairwise-accuracy``) and the dashboard both
call them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from stats._core.choices import SOFT_PAIRWISE_ACCURACY as SOFT_PAIRWISE_ACCURACY  # re-exported
from stats._core.errors import StatsInputError
from stats._core.progress import check_progress, part
from stats._core.random import check_rng
from stats.metaeval.meta_eval import KENDALL_LIKE_THRESHOLD
from stats.metaeval.perm_both.core import PermBothResult, perm_both
from stats.metaeval.perm_both.pairs import perm_both_pairs
from stats.metaeval.perm_both.pooled import perm_both_pooled_accuracy
from stats.metaeval.perm_both.spa import perm_both_soft_pairwise
from stats.metaeval.soft_pairwise import soft_pairwise_accuracy
from stats.pairwise.grids import GridSignificance, grid_significance

from ..readers import name_list
from ..readers.meta import MetaEvalData
from .meta_eval import named_warnings, noted_table

__all__ = [
    "LanguagePairPermBoth",
    "SoftPairwiseAnalysis",
    "perm_both_analysis",
    "soft_pairwise_analysis",
    "pooled_accuracy_perm_both",
]


def _chosen(data: MetaEvalData, gold, lps) -> tuple[str, list]:
    """The gold type and the language pairs chosen (default all, file order)."""
    name = data.choose_gold(gold)
    chosen = list(dict.fromkeys(lps)) if lps else list(data.language_pairs)
    unknown = [lp for lp in chosen if lp not in data.pairs]
    if unknown:
        raise StatsInputError(
            f"language pair(s) {', '.join(unknown)} not found; present: "
            f"{name_list(data.language_pairs)}"
        )
    return name, chosen


@dataclass(frozen=True, kw_only=True)
class LanguagePairPermBoth:
    """PERM-BOTH tests of one language pair (``result``) with the grid's adjusted p-values,
    clusters and sidedness (``significance``)."""

    lp: str
    gold: str
    result: PermBothResult
    significance: GridSignificance


def _perm_both_table(table, lp: str, *, level: str, grouping: str, rng, **options):
    """PERM-BOTH of one language pair's table (soft pairwise accuracy from the segment
    scores, its inner permutation tests with as many sign flips as ``n_resamples``)."""
    if options.get("correlation") == SOFT_PAIRWISE_ACCURACY:
        if table.gold is None or table.metrics is None:
            raise StatsInputError(
                f"{lp}: soft pairwise accuracy needs segment scores; this language pair has "
                "system-level (.sys.score) files only"
            )
        return perm_both_soft_pairwise(
            table.metrics,
            table.gold,
            n_resamples=options["n_resamples"],
            n_permutations=options["n_resamples"],
            early_stopping=options["early_stopping"],
            rng=rng,
            progress=options.get("progress"),
        )
    return _perm_both_scores(table, lp, level=level, grouping=grouping, rng=rng, **options)


def _perm_both_scores(table, lp: str, *, level: str, grouping: str, rng, **options):
    """PERM-BOTH of one language pair's table: at system level on the ``.sys.score`` values
    when the files give them (each system's pair of scores swapped, as MTME's
    PermutationSigDiff on system-level Correlations), else on the segment scores."""
    if level == "sys" and table.gold_sys is not None:
        names = list(table.metrics_sys)
        correlation = options.pop("correlation")
        if correlation == "pairwise-accuracy":  # MTME's Agreement: acc23 at epsilon 0
            options.update(correlation="acc23", epsilon=None, tie_calibration=False)
        else:
            options["correlation"] = correlation
        res = perm_both(
            {m: np.asarray(table.metrics_sys[m], float)[:, None] for m in names},
            np.asarray(table.gold_sys, float)[:, None],
            level="seg",  # one cell per system: the system-level correlation
            grouping="none",
            rng=rng,
            **options,
        )
        return dataclasses.replace(res, level="sys", correlation=correlation)
    if table.gold is None or table.metrics is None:
        raise StatsInputError(
            f"{lp}: PERM-BOTH at segment level needs segment scores, and this language pair "
            "has system-level (.sys.score) files only; use level=sys or give its segment files"
        )
    return perm_both(table.metrics, table.gold, level=level, grouping=grouping, rng=rng, **options)


def perm_both_analysis(
    data: MetaEvalData,
    *,
    correlation: str,
    level: str = "seg",
    grouping: str = "none",
    gold: str | None = None,
    lps: Sequence[str] | None = None,
    epsilon: float | None = None,
    tie_calibration: bool = False,
    threshold: float = KENDALL_LIKE_THRESHOLD,
    n_resamples: int = 1000,
    early_stopping: bool = False,
    alpha: float = 0.05,
    correction: str = "none",
    perm_test: str = "scores",
    rng=None,
    progress=None,
) -> tuple[LanguagePairPermBoth, ...]:
    """PERM-BOTH (:func:`stats.metaeval.perm_both.core.perm_both`) for every pair of metrics of each chosen
    language pair, with clusters at ``alpha`` from the p-values adjusted with ``correction``
    (the family: one language pair's grid).

    ``perm_test='pairs'`` (acc23 at segment level) swaps each pair of cells' comparison
    instead of the scores (:func:`stats.metaeval.perm_both.pairs.perm_both_pairs`, MTME's
    ``perm_test='pairs'``), each metric at its own epsilon.

    An int ``rng`` seeds one generator per language pair alike, so a
    language pair's p-values do not depend on which others are chosen. ``progress(fraction)``
    (optional) is told the share done, each language pair an equal part.

    Raises
    ------
    StatsInputError
        An unknown language pair or gold type; segment level asked of a language pair with
        system-level files only; anything :func:`perm_both` rejects. At system level the
        ``.sys.score`` values are permuted when present (as MTME), else the means of the
        segment scores.
    """
    check_rng(rng)
    if perm_test not in ("scores", "pairs"):
        raise StatsInputError(f"perm_test must be 'scores' or 'pairs'; got {perm_test!r}")
    if perm_test == "pairs" and (correlation != "acc23" or level != "seg"):
        raise StatsInputError(
            "the item-pair permutation (perm_test=pairs) is for acc23 at segment level"
        )
    check_progress(progress)
    name, chosen = _chosen(data, gold, lps)
    out = []
    for k, lp in enumerate(chosen):
        table = noted_table(data, lp, gold=name, level=level)
        if perm_test == "pairs":
            if table.gold is None or table.metrics is None:
                raise StatsInputError(f"{lp}: the item-pair permutation needs segment scores")
            res = perm_both_pairs(
                table.metrics,
                table.gold,
                grouping=grouping,
                epsilon=None if tie_calibration else (epsilon or 0.0),
                n_resamples=n_resamples,
                early_stopping=early_stopping,
                rng=rng,
                progress=part(progress, k, len(chosen)),
            )
            sig = grid_significance(res.pvalue, alpha=alpha, correction=correction)
            out.append(LanguagePairPermBoth(lp=lp, gold=name, result=res, significance=sig))
            continue
        with named_warnings(None, once=(lp, set())):  # groups too small: named with the lp
            res = _perm_both_table(
                table,
                lp,
                correlation=correlation,
                level=level,
                grouping=grouping,
                epsilon=epsilon,
                tie_calibration=tie_calibration,
                threshold=threshold,
                n_resamples=n_resamples,
                early_stopping=early_stopping,
                rng=rng,
                progress=part(progress, k, len(chosen)),
            )
        sig = grid_significance(res.pvalue, alpha=alpha, correction=correction)
        out.append(LanguagePairPermBoth(lp=lp, gold=name, result=res, significance=sig))
    return tuple(out)


def pooled_accuracy_perm_both(
    data: MetaEvalData,
    *,
    gold: str | None = None,
    lps: Sequence[str] | None = None,
    n_resamples: int = 1000,
    early_stopping: bool = False,
    alpha: float = 0.05,
    correction: str = "none",
    rng=None,
    progress=None,
) -> LanguagePairPermBoth:
    """PERM-BOTH of pairwise accuracy pooled over the chosen language pairs
    (:func:`stats.metaeval.perm_both.pooled.perm_both_pooled_accuracy`), on the system scores the
    meta-evaluation pools (``.sys.score`` files when given, else means of segment scores);
    metrics present in every language pair. ``lp`` of the result is the chosen pairs joined
    by commas (MTME's task name for it). ``progress`` as :func:`perm_both_analysis`.

    Raises
    ------
    StatsInputError
        As :func:`perm_both_analysis`; fewer than two metrics common to the language pairs.
    """
    check_rng(rng)
    from .meta_eval import _system_vectors

    name, chosen = _chosen(data, gold, lps)
    tables = [noted_table(data, lp, gold=name, level="sys") for lp in chosen]
    vectors = [_system_vectors(t) for t in tables]
    common = [m for m in tables[0].metric_names if all(m in v[1] for v in vectors)]
    res = perm_both_pooled_accuracy(
        {t.lp: {m: v[1][m] for m in common} for t, v in zip(tables, vectors, strict=True)},
        {t.lp: v[0] for t, v in zip(tables, vectors, strict=True)},
        n_resamples=n_resamples,
        early_stopping=early_stopping,
        rng=rng,
        progress=check_progress(progress),
    )
    sig = grid_significance(res.pvalue, alpha=alpha, correction=correction)
    return LanguagePairPermBoth(lp=",".join(chosen), gold=name, result=res, significance=sig)


@dataclass(frozen=True, kw_only=True)
class SoftPairwiseAnalysis:
    """Soft pairwise accuracy of every metric per language pair (``language_pairs``: lp ->
    :class:`~stats.metaeval.soft_pairwise.SoftPairwiseAccuracyResult`) and its mean over the language
    pairs (``across_language_pairs``: metric -> mean, best first; metrics present in all)."""

    gold: str
    language_pairs: dict
    n_systems: dict
    across_language_pairs: dict


def soft_pairwise_analysis(
    data: MetaEvalData,
    *,
    gold: str | None = None,
    lps: Sequence[str] | None = None,
    n_resamples: int = 1000,
    rng=None,
) -> SoftPairwiseAnalysis:
    """Soft pairwise accuracy (:func:`stats.metaeval.soft_pairwise.soft_pairwise_accuracy`) of the
    chosen language pairs, from segment scores; an int ``rng`` seeds each language pair's
    generator alike.

    Raises
    ------
    StatsInputError
        An unknown language pair or gold type; a language pair without segment scores.
    """
    check_rng(rng)
    name, chosen = _chosen(data, gold, lps)
    per_lp, n_systems = {}, {}
    for lp in chosen:
        table = noted_table(data, lp, gold=name, level="seg")
        per_lp[lp] = soft_pairwise_accuracy(
            table.metrics, table.gold, n_resamples=n_resamples, rng=rng
        )
        n_systems[lp] = len(table.systems)
    common = [
        m
        for m in per_lp[chosen[0]].statistic.index
        if all(m in r.statistic.index for r in per_lp.values())
    ]
    mean = {m: float(np.mean([r.statistic[m] for r in per_lp.values()])) for m in common}
    across = {m: mean[m] for m in sorted(mean, key=lambda m: (-mean[m], m))}
    return SoftPairwiseAnalysis(
        gold=name, language_pairs=per_lp, n_systems=n_systems, across_language_pairs=across
    )
