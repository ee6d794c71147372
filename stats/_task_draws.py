"""PERM-BOTH draws of one task, in fixed pieces: (language pair x resample chunk).

A task's resamples are split into chunks of :data:`RESAMPLE_CHUNK`; each piece is one call of
:func:`stats.perm_both.perm_both` with ``return_draws=True`` (the draws API) on one language
pair of the task, its generator seeded from ``(seed, task index, language pair index, chunk
index)``. Every piece is a pure function of its inputs, so running the pieces in one process or
on Dask workers (:mod:`stats._dask`) gives the same bytes.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass

import numpy as np

from ._errors import StatsInputError
from .meta_eval import mean_system_scores, meta_correlation, pairwise_accuracy
from .perm_both import perm_both

#: whether perm_both takes MTME's ``perm_test`` (item-pair permutation) in this version
PERM_TEST_SUPPORTED = "perm_test" in inspect.signature(perm_both).parameters
#: resamples per piece and seed
RESAMPLE_CHUNK = 500


@dataclass(frozen=True)
class Block:
    """What the pieces of one language pair of a task need (picklable)."""

    gold: np.ndarray  # S x I segment gold scores (NaN where missing)
    metrics: dict  # metric -> S x I segment scores
    options: dict  # perm_both's correlation settings
    weight: float  # share of this block in a pooled statistic


@dataclass(frozen=True)
class PreparedTask:
    index: int
    order: tuple  # metrics, best first
    correlations: dict
    blocks: tuple
    n_pairs: int


def _observed(task, metric, gold, *, sys_files=None) -> float:
    return meta_correlation(
        metric,
        gold,
        correlation=task.correlation,
        level=task.level,
        grouping=task.grouping,
        epsilon=task.epsilon,
        tie_calibration=task.tie_calibration,
        threshold=task.threshold,
    ).statistic


def prepare_task(index: int, task, tables: list, names: dict) -> PreparedTask:
    """Observed correlations and the standardised blocks of a task.

    ``tables`` holds one :class:`~stats.readers.meta.MetaEvalTable` per language pair of the
    task; ``names[lp]`` maps a display name to the table's metric name.
    """
    if task.correlation == "soft-pairwise-accuracy":
        raise StatsInputError(
            f"task {task.label}: PERM-BOTH draws of soft pairwise accuracy are not available "
            "in this version; use a pearson/kendall/acc23 system-level task instead"
        )
    for t in tables:
        if t.gold is None or t.metrics is None:
            raise StatsInputError(
                f"task {task.label}: {t.lp} has only system-level (.sys.score) files; PERM-BOTH "
                "permutes segment scores"
            )
    displays = [d for d in names[tables[0].lp] if all(d in names[t.lp] for t in tables)]
    if task.correlation == "pairwise-accuracy":
        correlations = {}
        for d in displays:
            m, g = {}, {}
            for t in tables:
                gs, ms = mean_system_scores(t.metrics[names[t.lp][d]], t.gold)
                m[t.lp], g[t.lp] = ms, gs
            correlations[d] = pairwise_accuracy(m, g).statistic
    else:
        t = tables[0]
        correlations = {d: _observed(task, t.metrics[names[t.lp][d]], t.gold) for d in displays}
    order = tuple(
        sorted(
            displays,
            key=lambda d: (math.isnan(correlations[d]), -np.nan_to_num(correlations[d]), d),
        )
    )
    blocks = []
    pair_counts = []
    for t in tables:
        if task.level == "sys":
            n = int(
                (~np.isnan(mean_system_scores(t.metrics[names[t.lp][order[0]]], t.gold)[0])).sum()
            )
        else:
            n = 0
        pair_counts.append(n * (n - 1) // 2)
        options = {
            "correlation": task.correlation,
            "level": task.level,
            "grouping": task.grouping,
            "epsilon": task.epsilon,
            "tie_calibration": task.tie_calibration,
            "threshold": task.threshold,
        }
        if task.perm_test != "scores" and PERM_TEST_SUPPORTED:
            options["perm_test"] = task.perm_test
        arrays = {d: t.metrics[names[t.lp][d]] for d in order}
        blocks.append(Block(t.gold, arrays, options, 1.0))
    if task.correlation == "pairwise-accuracy":  # pooled accuracy = pair-weighted mean
        total = sum(pair_counts) or 1
        blocks = [
            Block(b.gold, b.metrics, b.options, c / total)
            for b, c in zip(blocks, pair_counts, strict=True)
        ]
    k = len(order)
    return PreparedTask(index, order, correlations, tuple(blocks), k * (k - 1) // 2)


def pieces(prepared: PreparedTask, n_resamples: int) -> list:
    """``(block, chunk_index, chunk_size)`` of every piece of a task."""
    return [
        (b, c0 // RESAMPLE_CHUNK, min(RESAMPLE_CHUNK, n_resamples - c0))
        for c0 in range(0, n_resamples, RESAMPLE_CHUNK)
        for b in range(len(prepared.blocks))
    ]


def piece_draws(prepared: PreparedTask, piece: tuple, seed: int) -> np.ndarray:
    """Permuted differences (chunk_size x the task's pairs, in ``prepared.order``'s
    ``triu_indices`` order) of one language pair of the task, weighted by its share:
    :func:`~stats.perm_both.perm_both` with ``return_draws=True`` and the piece's seed."""
    b, chunk, size = piece
    block = prepared.blocks[b]
    rng = np.random.SeedSequence(seed, spawn_key=(prepared.index, b, chunk))
    res = perm_both(
        block.metrics, block.gold, **block.options, n_resamples=size, return_draws=True, rng=rng
    )
    order = prepared.order
    pos = {m: i for i, m in enumerate(res.metrics)}
    k = len(order)
    iu = np.triu_indices(k, 1)
    i = np.array([pos[order[x]] for x in iu[0]], dtype=int)
    j = np.array([pos[order[x]] for x in iu[1]], dtype=int)
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    row = lo * k - lo * (lo + 1) // 2 + (hi - lo - 1)  # row of (lo, hi) in res.draws
    sign = np.where(i < j, 1.0, -1.0)
    return block.weight * (res.draws[row] * sign[:, None]).T


def assemble(prepared: PreparedTask, n_resamples: int, results: dict) -> np.ndarray:
    """The task's draws (n_resamples x n_pairs) from ``{piece: array}`` (the language pairs of
    a pooled task summed)."""
    out = np.zeros((n_resamples, prepared.n_pairs))
    for (_, chunk, size), arr in results.items():
        r0 = chunk * RESAMPLE_CHUNK
        out[r0 : r0 + size] += arr
    return out
