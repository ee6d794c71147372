"""PERM-BOTH draws of one task, in fixed pieces: (pair chunk x resample chunk).

A task's resamples are split into chunks of :data:`RESAMPLE_CHUNK`, each with its own
generator seeded from ``(seed, task index, chunk index)``, and its metric pairs into chunks of
:data:`PAIR_CHUNK`. Every piece is a pure function of its inputs, so running the pieces in one
process or on Dask workers (:mod:`stats._dask`) gives the same bytes. The permuted differences
are those of :func:`stats.perm_both.perm_both` (the same standardisation and swaps).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ._errors import StatsInputError
from .meta_eval import mean_system_scores, meta_correlation, pairwise_accuracy
from .perm_both import _differences, _zscore

#: resamples per piece and seed
RESAMPLE_CHUNK = 250
#: metric pairs per piece
PAIR_CHUNK = 64


@dataclass(frozen=True)
class Block:
    """What the pieces of one language pair of a task need (picklable)."""

    gold: np.ndarray  # S x I (or S x 1 at system level)
    z: dict  # metric -> standardised scores, same shape
    options: tuple  # correlation, grouping, eps, tie_calibration, threshold
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
        G = t.gold
        arrays = {d: t.metrics[names[t.lp][d]] for d in order}
        grouping = task.grouping
        if task.level == "sys":
            G = mean_system_scores(arrays[order[0]], t.gold)[0][:, None]
            arrays = {d: mean_system_scores(a, t.gold)[1][:, None] for d, a in arrays.items()}
            grouping = "none"
        valid = ~np.isnan(G)
        on = np.ones_like(valid) if task.tie_calibration else valid
        z = {d: _zscore(a, on) for d, a in arrays.items()}
        eps = 0.0 if task.epsilon is None else float(task.epsilon)
        corr = "acc23" if task.correlation == "pairwise-accuracy" else task.correlation
        n = int(valid.sum())
        pair_counts.append(n * (n - 1) // 2)
        blocks.append(Block(G, z, (corr, grouping, eps, task.tie_calibration, task.threshold), 0.0))
    total = sum(pair_counts) or 1
    if task.correlation == "pairwise-accuracy":  # pooled accuracy = pair-weighted mean
        blocks = [
            Block(b.gold, b.z, b.options, c / total)
            for b, c in zip(blocks, pair_counts, strict=True)
        ]
    else:
        blocks = [Block(b.gold, b.z, b.options, 1.0) for b in blocks]
    k = len(order)
    return PreparedTask(index, order, correlations, tuple(blocks), k * (k - 1) // 2)


def pieces(prepared: PreparedTask, n_resamples: int) -> list:
    """``(pair_start, pair_stop, chunk_index, chunk_size)`` of every piece of a task."""
    out = []
    for c0 in range(0, n_resamples, RESAMPLE_CHUNK):
        size = min(RESAMPLE_CHUNK, n_resamples - c0)
        for p0 in range(0, prepared.n_pairs, PAIR_CHUNK):
            out.append((p0, min(prepared.n_pairs, p0 + PAIR_CHUNK), c0 // RESAMPLE_CHUNK, size))
    return out


def piece_draws(prepared: PreparedTask, piece: tuple, seed: int) -> np.ndarray:
    """Permuted differences (chunk_size x pairs of the piece): each language pair of the task
    draws its swaps from its own generator ``(seed, task, lp, chunk)``."""
    p0, p1, chunk, size = piece
    k = len(prepared.order)
    iu = np.triu_indices(k, 1)
    pairs = [
        (prepared.order[i], prepared.order[j])
        for i, j in zip(iu[0][p0:p1], iu[1][p0:p1], strict=True)
    ]
    out = np.zeros((size, len(pairs)))
    for b_i, block in enumerate(prepared.blocks):
        gen = np.random.default_rng(
            np.random.SeedSequence(seed, spawn_key=(prepared.index, b_i, chunk))
        )
        W = gen.random((size, *block.gold.shape)) < 0.5
        out += block.weight * _differences(block.gold, block.z, pairs, W, *block.options)
    return out


def assemble(prepared: PreparedTask, n_resamples: int, results: dict) -> np.ndarray:
    """The task's draws (n_resamples x n_pairs) from ``{piece: array}``."""
    out = np.empty((n_resamples, prepared.n_pairs))
    for (p0, p1, chunk, size), arr in results.items():
        r0 = chunk * RESAMPLE_CHUNK
        out[r0 : r0 + size, p0:p1] = arr
    return out
