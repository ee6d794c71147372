"""Meta-evaluation from files to results: every metric of every language pair correlated with the
chosen gold scores, metrics ranked best first, and (for pairwise accuracy) the accuracy pooled
over language pairs. The CLI (``python -m stats meta-eval``) and the dashboard both call
:func:`meta_evaluate`.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from stats._core.errors import StatsInputError
from stats._core.random import check_rng
from stats.metaeval.meta_eval import (
    KENDALL_LIKE_THRESHOLD,
    MetaCorrelationResult,
    kendall_like_counts,
    mean_system_scores,
    meta_correlation,
    pairwise_accuracy,
)

from ..readers import name_list
from ..readers.meta import MetaEvalData, MetaEvalTable


def noted_table(data: MetaEvalData, lp: str, **options) -> MetaEvalTable:
    """``data.table(lp, **options)``, each of its notes (systems left out: no human score,
    human translations) and left-out metrics given as a :class:`DegenerateInputWarning`, so
    that nothing is dropped in silence (the CLI prints them; the pages show them)."""
    import warnings

    from stats._core.errors import DegenerateInputWarning

    table = data.table(lp, **options)
    for note in table.notes:
        warnings.warn(note, DegenerateInputWarning, stacklevel=2)
    for metric, why in table.left_out.items():
        warnings.warn(f"{lp}: metric {metric} left out: {why}", DegenerateInputWarning,
                      stacklevel=2)
    return table

__all__ = ["LanguagePairMetaEvaluation", "MetaEvaluation", "meta_evaluate", "rr_kendall_like"]


#: words of :func:`~stats.metaeval.meta_eval.meta_correlation`'s note on groups too small for a
#: correlation (the same for every metric of a language pair: the groups are the gold scores')
SMALL_GROUPS = "items, so the correlation is undefined"


@contextlib.contextmanager
def named_warnings(prefix: str | None, *, once: tuple[str, set] | None = None):
    """The warnings of the block again, each starting with ``prefix`` (what they are about;
    None: as they were). With ``once=(where, seen)``, the note on groups too small for a
    correlation is given once per ``where`` (a language pair), not once per metric."""
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    for w in caught:
        text = str(w.message)
        if once is not None and SMALL_GROUPS in text:
            where, seen = once
            if text not in seen:
                seen.add(text)
                warnings.warn(f"{where}: {text} (every metric: the groups are the human "
                              "scores')", w.category, stacklevel=3)
            continue
        warnings.warn(text if prefix is None else f"{prefix}: {text}", w.category, stacklevel=3)


@dataclass(frozen=True, kw_only=True)
class LanguagePairMetaEvaluation:
    """The correlations of the metrics of one language pair.

    Attributes
    ----------
    lp, gold : str
        Language pair and gold score type.
    n_systems, n_items : int
        Systems with gold scores; items (segments) per system (0 for system-level files).
    metrics : tuple of str
        Best first (NaN last; ties by name, as MTME).
    results : dict
        Metric -> :class:`~stats.metaeval.meta_eval.MetaCorrelationResult`.
    pair_counts : dict
        ``kendall-like`` at segment level: metric -> (concordant, discordant) pairs
        (:func:`~stats.metaeval.meta_eval.kendall_like_counts`; their sum is the pair count
        the WMT17-20 findings print); empty otherwise.
    """

    lp: str
    gold: str
    n_systems: int
    n_items: int
    metrics: tuple
    results: dict
    pair_counts: dict = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class MetaEvaluation:
    """Meta-evaluation of every language pair, and pairwise accuracy pooled across them.

    Attributes
    ----------
    level, correlation, grouping : str
    language_pairs : tuple of LanguagePairMetaEvaluation
    across_language_pairs : dict or None
        For ``pairwise-accuracy``: metric -> accuracy pooled over the language pairs (metrics
        present in all of them), best first.
    """

    level: str
    correlation: str
    grouping: str
    language_pairs: tuple
    across_language_pairs: dict | None


def _ranked(values: dict) -> tuple:
    def key(m):
        v = values[m]
        return (math.isnan(v), -v if not math.isnan(v) else 0.0, m)

    return tuple(sorted(values, key=key))


def _system_vectors(table: MetaEvalTable) -> tuple[np.ndarray, dict]:
    if table.gold_sys is not None:
        return table.gold_sys, table.metrics_sys
    means = {m: mean_system_scores(v, table.gold) for m, v in table.metrics.items()}
    gold = next(iter(means.values()))[0]
    return gold, {m: v[1] for m, v in means.items()}


def meta_evaluate(
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
    n_resamples: int = 0,
    confidence_level: float = 0.95,
    rng=None,
) -> MetaEvaluation:
    """Correlate every metric of the chosen language pairs with the gold scores.

    Parameters
    ----------
    data : MetaEvalData
        From :func:`stats.readers.meta.read_meta_eval`.
    correlation, level, grouping, epsilon, tie_calibration, threshold, n_resamples, \
confidence_level
        As :func:`stats.metaeval.meta_eval.meta_correlation`.
    gold : str, optional
        Gold score type (default: the only one).
    lps : sequence of str, optional
        Language pairs (default: all, in file order).
    rng : int or None
        Seed of the bootstrap; every metric gets the same resampled items (an integer seed
        makes the output reproducible).

    Returns
    -------
    MetaEvaluation

    Raises
    ------
    StatsInputError
        An unknown language pair or gold type, or any error of the reader's alignment or of
        :func:`~stats.metaeval.meta_eval.meta_correlation`.
    """
    check_rng(rng)
    name = data.choose_gold(gold)
    chosen = list(dict.fromkeys(lps)) if lps else list(data.language_pairs)
    unknown = [lp for lp in chosen if lp not in data.pairs]
    if unknown:
        raise StatsInputError(
            f"language pair(s) {', '.join(unknown)} not found; present: "
            f"{name_list(data.language_pairs)}"
        )
    from ..readers import RR_GOLD

    if name == RR_GOLD:
        if correlation != "kendall-like" or level != "seg":
            raise StatsInputError(
                f"gold {RR_GOLD}: relative-ranking pairs give WMT's Kendall tau-like only "
                "(correlation kendall-like at level seg)"
            )
        if n_resamples:
            raise StatsInputError(
                f"gold {RR_GOLD}: no confidence intervals from relative-ranking pairs (the "
                "segments' scores are not in the file); use n_resamples=0"
            )
        return MetaEvaluation(
            level=level, correlation=correlation, grouping="item",
            language_pairs=tuple(rr_kendall_like(data, lp, threshold=threshold) for lp in chosen),
            across_language_pairs=None,
        )  # fmt: skip
    tables = [noted_table(data, lp, gold=name, level=level) for lp in chosen]
    per_lp = []
    for table in tables:
        from_files = level == "sys" and table.gold_sys is not None
        if from_files and n_resamples:
            raise StatsInputError(
                f"{table.lp}: system scores come from .sys.score files, so there are no "
                "segments to resample; drop the confidence intervals or the .sys.score files"
            )
        results: dict[str, MetaCorrelationResult] = {}
        seen: set = set()
        for metric in table.metric_names:
            if from_files:
                m, g = table.metrics_sys[metric], table.gold_sys
            else:
                m, g = table.metrics[metric], table.gold
            # which metric, and why; groups too small named once for the language pair
            with named_warnings(f"{table.lp}, metric {metric}", once=(table.lp, seen)):
                results[metric] = meta_correlation(
                    m,
                    g,
                    correlation=correlation,
                    level=level,
                    grouping=grouping,
                    epsilon=epsilon,
                    tie_calibration=tie_calibration,
                    threshold=threshold,
                    n_resamples=n_resamples,
                    confidence_level=confidence_level,
                    rng=rng,
                )
        counts = {}
        if correlation == "kendall-like" and level == "seg":
            counts = {
                m: kendall_like_counts(table.metrics[m], table.gold, grouping=grouping,
                                       threshold=threshold)
                for m in table.metric_names
            }  # fmt: skip
        per_lp.append(
            LanguagePairMetaEvaluation(
                lp=table.lp,
                gold=name,
                n_systems=len(table.systems),
                n_items=table.n_items,
                metrics=_ranked({m: r.statistic for m, r in results.items()}),
                results=results,
                pair_counts=counts,
            )
        )
    across = None
    if correlation == "pairwise-accuracy":
        vectors = [_system_vectors(t) for t in tables]
        common = [m for m in tables[0].metric_names if all(m in v[1] for v in vectors)]
        pooled = {
            m: pairwise_accuracy(
                {t.lp: v[1][m] for t, v in zip(tables, vectors, strict=True)},
                {t.lp: v[0] for t, v in zip(tables, vectors, strict=True)},
            ).statistic
            for m in common
        }
        across = {m: pooled[m] for m in _ranked(pooled)}
    return MetaEvaluation(
        level=level,
        correlation=correlation,
        grouping=grouping,
        language_pairs=tuple(per_lp),
        across_language_pairs=across,
    )


def rr_kendall_like(
    data: MetaEvalData, lp: str, *, threshold: float = KENDALL_LIKE_THRESHOLD
) -> LanguagePairMetaEvaluation:
    """WMT's Kendall tau-like of every metric of ``lp`` on the organisers' relative-ranking
    pairs (``DArr-seglevel.csv``, gold ``da-rr``): a pair is concordant when the metric scores
    its better translation strictly higher, discordant otherwise (a tie included), as
    ``combine-scores-seg-RR.py``; rows with a DIFF column count when DIFF >= ``threshold``.
    Pairs with a human translation are left out unless the data keeps them
    (:meth:`~stats.readers.MetaEvalData.with_systems`), and so are the data's excluded
    systems; a metric without a score for a pair's translation is left out (the organisers'
    script stops there), each with a warning."""
    import warnings
    from fnmatch import fnmatchcase

    import pandas as pd

    from stats._core.errors import DegenerateInputWarning

    from ..readers import RR_GOLD, is_human_system

    pair = data.pairs[lp]
    frame = pd.concat(pair.rr, ignore_index=True)
    counted = frame["diff"].isna() | (frame["diff"] >= threshold)
    frame = frame[counted.to_numpy()]
    systems = pd.unique(pd.concat([frame["better"], frame["worse"]]))
    drop = {s for s in systems if any(fnmatchcase(s, p) for p in data.exclude_systems)}
    humans = set() if data.include_human else {
        s for s in systems if is_human_system(s, pair.references)
    }  # fmt: skip
    if humans - drop:
        warnings.warn(f"{lp}: pairs with human translation(s) {name_list(sorted(humans - drop))}"
                      " left out (include_human=True keeps them)", DegenerateInputWarning,
                      stacklevel=2)  # fmt: skip
    if drop:
        warnings.warn(f"{lp}: pairs with system(s) {name_list(sorted(drop))} left out by choice",
                      DegenerateInputWarning, stacklevel=2)  # fmt: skip
    gone = drop | humans
    frame = frame[~(frame["better"].isin(gone) | frame["worse"].isin(gone)).to_numpy()]
    if not len(frame):
        raise StatsInputError(f"{lp}: no relative-ranking pair left to count")
    items = pair.items or {}
    where = np.array([items.get((t, g), -1) for t, g in zip(frame["testset"], frame["segment"],
                                                          strict=True)])  # fmt: skip
    results, counts = {}, {}
    for metric, sc in pair.metrics["seg"].items():
        lacking = sorted({s for s in systems if s not in gone} - set(sc.values))
        if (where < 0).any() or lacking:
            first = frame.iloc[int(np.flatnonzero(where < 0)[0])] if (where < 0).any() else None
            why = (f"no score for system(s) {name_list(lacking)}" if lacking else
                   f"no score for segment {first['segment']!r} of {first['testset']}")
            warnings.warn(f"{lp}: metric {metric} left out: {why}, which the pairs need",
                          DegenerateInputWarning, stacklevel=2)  # fmt: skip
            continue
        better = np.array([sc.values[s][i] for s, i in zip(frame["better"], where, strict=True)])
        worse = np.array([sc.values[s][i] for s, i in zip(frame["worse"], where, strict=True)])
        con = int((better > worse).sum())
        dis = len(frame) - con
        counts[metric] = (con, dis)
        results[metric] = MetaCorrelationResult(
            statistic=(con - dis) / (con + dis), pvalue=math.nan, correlation="kendall-like",
            grouping="item", level="seg", epsilon=math.nan, group_statistics=np.empty(0),
            n_groups=int(pd.unique(where).size), n_systems=len(set(systems) - gone),
            n_items=int(pd.unique(where).size), confidence_interval=None, confidence_level=0.95,
            n_resamples=0, bootstrap_distribution=None,
        )  # fmt: skip
    if not results:
        raise StatsInputError(f"{lp}: no metric scores every translation the pairs compare")
    return LanguagePairMetaEvaluation(
        lp=lp, gold=RR_GOLD, n_systems=len(set(systems) - gone),
        n_items=int(pd.unique(where).size),
        metrics=_ranked({m: r.statistic for m, r in results.items()}), results=results,
        pair_counts=counts,
    )  # fmt: skip
