"""Metrics ranked by a task set, from files (:func:`rank_task_set`): the CLI (``python -m stats
rank``) and the dashboard's leaderboard both call it.

For each task and language pair the gold, references and human systems are chosen as MTME's
``Task`` chooses them: the task's own values, else the standard ones of a known test set
(:mod:`stats.metaeval.task_set_presets`), else what the files hold (one note says which was taken).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from stats._core.budget import check_run_budget
from stats._core.choices import CORRELATIONS
from stats._core.errors import StatsInputError
from stats._core.progress import check_progress, part
from stats._core.random import common_seed, seeded_rng
from stats.metaeval.meta_eval import meta_correlation
from stats.metaeval.task_set_presets import TEST_SETS, known_test_set, preset
from stats.metaeval.task_sets import (
    TaskOutcome,
    TaskSet,
    TaskSetResult,
    combine_tasks,
    read_task_set,
    task_pvalues,
    undefined_items,
)
from stats.pairwise.clusters import significance_clusters

from ..readers import name_list
from ..readers.meta import MetaEvalData, parse_metric_name
from ._task_draws import (
    PERM_TEST_SUPPORTED,
    assemble,
    piece_draws,
    pieces,
    prepare_task,
    run_work,
)

__all__ = ["MetricInfo", "load_task_set", "rank_task_set"]


@dataclass(frozen=True)
class MetricInfo:
    """How a metric is displayed: base name, primary, source-based (``[noref]``)."""

    name: str
    primary: bool
    noref: bool

    @property
    def label(self) -> str:
        """MTME's spreadsheet form: ``*`` before a non-primary metric, ``[noref]`` after a
        source-based one."""
        return f"{'' if self.primary else '*'}{self.name}{'[noref]' if self.noref else ''}"


def load_task_set(spec: str) -> TaskSet:
    """A preset name (``wmt23``, ``wmt24``, ``wmt25``) or a .json/.toml file."""
    low = str(spec).lower()
    if low.endswith((".json", ".toml")):
        return read_task_set(spec)
    return preset(spec)


def _gold_for(data: MetaEvalData, lp: str, task, info, notes: list) -> str:
    """The gold of ``lp`` in ``task``, from that language pair alone: the task's ``gold``,
    else the test set's standard gold, else the pair's only (or first, with a note) type."""
    present = data.gold_names(lp)
    if not present:
        raise StatsInputError(f"{lp}: no human (gold) scores for this language pair")
    if task.gold is not None:
        match = [g for g in present if g.lower() == str(task.gold).lower()]
        if not match:
            raise StatsInputError(
                f"{lp}: no human scores of type {task.gold!r} for this language pair; "
                f"present for {lp}: {', '.join(present)}"
            )
        return match[0]
    if info is not None:
        std = info.std_gold.get(task.level)
        match = [g for g in present if g.lower() == str(std).lower()]
        if match:
            return match[0]
        notes.append(f"{lp}: the standard gold {std!r} is not in the data")
    notes.append(
        f"{lp}: gold {present[0]!r} taken (the first of {', '.join(present)})"
        if len(present) > 1
        else f"{lp}: gold {present[0]!r} taken (the only one)"
    )
    return present[0]


def _refs_for(data: MetaEvalData, lp: str, info, notes: list) -> tuple:
    if info is not None:
        return (info.std_ref,)
    pair = data.pairs[lp]
    names = list(pair.metrics["seg"]) + list(pair.metrics["sys"])
    counts = Counter(
        r
        for m in names
        if (refs := parse_metric_name(m, pair.references)[1]) and len(refs) == 1
        for r in refs
    )
    if not counts:
        return ()
    ref = sorted(counts, key=lambda r: (-counts[r], r))[0]
    notes.append(f"{lp}: reference {ref!r} taken (used by the most metrics)")
    return (ref,)


def _least_cells(data, lps) -> int:
    """Fewest gold cells (systems x items) a task over ``lps`` permutes: its first language
    pair's smallest segment-level gold (0 when unknown)."""
    pair = data.pairs.get(lps[0]) if lps else None
    sizes = [
        len(sc.values) * min((len(v) for v in sc.values.values()), default=0)
        for sc in (pair.gold["seg"].values() if pair is not None else ())
    ]
    return min(sizes, default=0)


def rank_task_set(
    data: MetaEvalData,
    task_set: TaskSet,
    *,
    n_resamples: int = 1000,
    rng=None,
    alpha: float = 0.05,
    test_set: str | None = None,
    refs: Sequence[str] | None = None,
    close_refs: Sequence[str] | None = None,
    include_human: bool | None = None,
    primary_only: bool | None = None,
    scheduler: str | None = None,
    gold: str | None = None,
    confidence_resamples: int = 0,
    confidence_level: float = 0.95,
    significance: bool = True,
    outliers: Mapping[str, Sequence[str]] | None = None,
    progress=None,
) -> TaskSetResult:
    """Run every task of ``task_set`` on ``data`` and rank the metrics on the weighted average.

    Parameters
    ----------
    data : MetaEvalData
    task_set : TaskSet
        Its tasks of language pairs missing from ``data`` are left out (with a note).
    n_resamples : int
        PERM-BOTH resamples per task.
    rng : int, Generator or None
        Seed (a Generator or None gives one drawn from it or from fresh entropy): each task,
        language pair and chunk of 250 resamples has its own generator derived from it, so the
        result does not depend on the scheduler.
    test_set : str, optional
        Known test set (``wmt23``, ``wmt24``, ``wmt25``) whose standard gold, references and
        primary metrics apply (default: the task set's).
    refs, close_refs, include_human, primary_only, gold
        Override every task's values.
    scheduler : str, optional
        ``local:N`` or a Dask scheduler address (:mod:`stats.analyses._dask`).
    confidence_resamples, confidence_level
        Bootstrap resamples of the items per task for a percentile interval of each average
        (:func:`stats.metaeval.task_sets.average_confidence_intervals`; 0: none).
    outliers : mapping, optional
        Language pair -> systems left out of its tasks (WMT's ``outliers.json``,
        :func:`stats.metaeval.outliers.read_outliers_json`), each named in the notes.
    significance : bool
        False: the point ranking only (correlations, averages, average order), with no
        PERM-BOTH resampling: every p-value undefined and no metric in a cluster (a
        provisional ranking the Leaderboard draws at once; ``n_resamples`` is then unused).
    progress : callable or None
        Called as ``progress(fraction)`` with the share of the PERM-BOTH pieces done (every
        task's chunks of resamples in turn, each an equal part; increasing, 1.0 last); a
        caller may raise from it to interrupt the run. It changes no number. With a
        ``scheduler`` it is told 1.0 once the workers are done.

    Raises
    ------
    StatsInputError
        No task left, a bad option, anything the readers or PERM-BOTH reject.
    """
    from ._dask import run_pieces

    check_progress(progress)
    if (
        isinstance(n_resamples, bool)
        or not isinstance(n_resamples, (int, np.integer))
        or (n_resamples < 1)
    ):
        raise StatsInputError(f"n_resamples must be a positive integer; got {n_resamples!r}")
    seed = common_seed(rng)
    test_set = (test_set or task_set.test_set or "").lower() or None
    notes: list = []
    if test_set and test_set not in TEST_SETS:
        notes.append(
            f"test set {test_set!r} is not a known WMT set: gold and references "
            "are taken from the files"
        )
    present = [lp for t in task_set.tasks for lp in t.lps if lp in data.pairs]
    missing = sorted({lp for t in task_set.tasks for lp in t.lps} - set(data.pairs))
    if not present:
        raise StatsInputError(
            f"task set {task_set.name!r} needs language pair(s) {name_list(missing)}; the data "
            f"has {name_list(data.language_pairs)}"
        )
    if missing:
        notes.append(
            f"language pair(s) {', '.join(missing)} not in the data: their tasks are left out"
        )
        task_set = task_set.restricted(present)
    unmatched = [lp for lp in (outliers or {}) if lp not in data.pairs]
    if unmatched:
        notes.append(
            f"outliers: language pair(s) {name_list(unmatched)} are not in the data; their "
            "outliers matched nothing"
        )
    # whole run, before anything is prepared: at least two metrics over each task's cells
    check_run_budget(
        what=f"task set {task_set.name!r} ({len(task_set.tasks):,} tasks)",
        n_resamples=int(n_resamples) if significance else 0,
        per_resample=sum(3.0 * _least_cells(data, t.lps) for t in task_set.tasks),
        n_tasks=len(task_set.tasks),
    )
    prepared, infos, meta, meta_names = [], {}, [], {}
    left_out: dict = {}
    for index, task in enumerate(task_set.tasks):
        if gold is not None:  # the caller's choice, for every task (never a task's own)
            task = replace(task, gold=gold)
        if (
            refs is not None
            or close_refs is not None
            or include_human is not None
            or (primary_only is not None)
        ):
            task = replace(
                task,
                refs=tuple(refs) if refs is not None else task.refs,
                close_refs=tuple(close_refs) if close_refs is not None else task.close_refs,
                include_human=task.include_human if include_human is None else include_human,
                primary_only=task.primary_only if primary_only is None else primary_only,
            )
        tables: list = []
        names: dict = {}
        golds: list = []
        used_refs: list = []
        for lp in task.lps:
            info = known_test_set(test_set, lp)
            lp_gold = _gold_for(data, lp, task, info, notes)
            task_refs = task.refs if task.refs is not None else _refs_for(data, lp, info, notes)
            primary = sorted(info.primary_metrics) if (task.primary_only and info) else None
            pair = data.pairs[lp]
            bases = {
                parse_metric_name(m, pair.references)[0]
                for lv in ("seg", "sys")
                for m in pair.metrics[lv]
            }
            if primary and not bases & set(primary):
                notes.append(
                    f"{lp}: no metric of the files is a primary metric of "
                    f"{test_set}; all metrics kept"
                )
                primary = None
            table = data.table(
                lp,
                gold=lp_gold,
                level="seg" if task.level == "sys" else task.level,
                refs=task_refs if task_refs else None,
                close_refs=task.close_refs,
                include_human=task.include_human,
                primary=primary,
                exclude=tuple((outliers or {}).get(lp, ())),
            )
            notes.extend(table.notes)
            for m, why in table.left_out.items():
                left_out.setdefault(m, f"{lp}: {why}")
            parsed = {m: parse_metric_name(m, pair.references) for m in table.metric_names}
            counts = Counter(b for b, _ in parsed.values())
            names[lp] = {}
            for m, (base, r) in parsed.items():
                display = base if counts[base] == 1 else m
                names[lp][display] = m
                infos[display] = MetricInfo(
                    display,
                    primary=info is None or base in info.primary_metrics,
                    noref=r is not None and not r,
                )
            tables.append(table)
            golds.append(lp_gold)
            used_refs.extend(task_refs)
        task = replace(task, gold=",".join(dict.fromkeys(golds)))
        if task.perm_test != "scores" and not PERM_TEST_SUPPORTED:
            notes.append(
                f"{task.label}: MTME's item-pair permutation is not available in this version; "
                "PERM-BOTH swaps the segment scores"
            )
            task = replace(task, perm_test="scores")
        p = prepare_task(index, task, tables, names, seed)
        prepared.append(p)
        meta.append((task, tables, tuple(dict.fromkeys(used_refs))))
        meta_names[index] = names
    check_run_budget(  # whole run, now that each task's metrics and cells are known
        what=f"task set {task_set.name!r} ({len(prepared):,} tasks)",
        n_resamples=int(n_resamples) if significance else 0,
        per_resample=run_work(prepared),
        n_tasks=len(prepared),
    )
    jobs = (
        [(p, piece) for p in prepared for piece in pieces(p, n_resamples)] if significance else []
    )
    if scheduler is None and progress is not None:  # here, piece by piece, with progress
        results = [
            piece_draws(p, piece, seed, progress=part(progress, k, len(jobs)))
            for k, (p, piece) in enumerate(jobs)
        ]
    else:
        results = run_pieces(jobs, seed, scheduler)
        if progress is not None:
            progress(1.0)
    by_task: dict = {}
    for (p, piece), arr in zip(jobs, results, strict=True):
        by_task.setdefault(p.index, {})[piece] = arr
    outcomes = []
    for p, (task, tables, task_refs_used) in zip(prepared, meta, strict=True):
        used = n_resamples if significance else 0
        draws = assemble(p, used, by_task.get(p.index, {}))
        n_used = np.full(p.n_pairs, used)
        pval = task_pvalues(p.order, draws, n_used, p.correlations)
        corr = pd.Series({m: p.correlations[m] for m in p.order}, dtype=float)
        undefined = undefined_items(corr) if significance else list(p.order)
        rank = significance_clusters(pval, alpha=alpha, undefined=undefined)
        outcomes.append(
            TaskOutcome(
                task=task,
                metrics=p.order,
                correlations=corr,
                draws=draws,
                n_resamples_used=n_used,
                pvalue=pval,
                rank=rank,
                gold=task.gold or "",
                refs=task_refs_used,
                n_systems=sum(len(t.systems) for t in tables),
                n_items=sum(t.n_items for t in tables),
                display={m: infos[m] for m in p.order},
                bootstrap=_bootstrap(
                    p,
                    task,
                    tables,
                    meta_names[p.index],
                    confidence_resamples if significance else 0,
                    confidence_level,
                    seed,
                ),
            )
        )
    result = combine_tasks(
        outcomes,
        task_set,
        n_resamples=n_resamples,
        seed=seed,
        alpha=alpha,
        notes=tuple(dict.fromkeys(notes)),
        test_set=test_set,
        confidence_level=confidence_level,
        significance=significance,
    )
    ranked = set(result.statistic.index)
    for m in dict.fromkeys(m for o in outcomes for m in o.metrics):
        if m not in ranked:
            lacking = [
                f"task {i + 1} ({o.task.label})"
                for i, o in enumerate(outcomes)
                if m not in o.correlations.index
            ]
            left_out[m] = f"not in every task (missing from {', '.join(lacking)})"
    return replace(result, left_out={m: r for m, r in left_out.items() if m not in ranked})


def _bootstrap(prepared, task, tables, names, n_resamples, confidence_level, seed):
    """Metric -> bootstrap distribution of the task's correlation (items resampled; the same
    items for every metric), or None (no resamples, or a pooled / soft-pairwise task)."""
    if n_resamples <= 0 or len(tables) != 1 or task.correlation not in CORRELATIONS:
        return None
    t = tables[0]
    out = {}
    for d in prepared.order:
        res = meta_correlation(
            t.metrics[names[t.lp][d]],
            t.gold,
            correlation=task.correlation,
            level=task.level,
            grouping=task.grouping,
            epsilon=task.epsilon,
            tie_calibration=task.tie_calibration,
            threshold=task.threshold,
            n_resamples=n_resamples,
            confidence_level=confidence_level,
            rng=seeded_rng(seed, prepared.index, 1_000_000),
        )
        out[d] = res.bootstrap_distribution
    return out
