"""PERM-BOTH draws of one task, in fixed pieces of resamples.

A task's resamples are split into chunks of :data:`RESAMPLE_CHUNK`; each piece is one call of
the draws API (``return_draws=True``) -- :func:`stats.metaeval.perm_both.core.perm_both`,
:func:`stats.metaeval.perm_both.pooled.perm_both_pooled_accuracy` (pairwise accuracy pooled over
language pairs) or :func:`stats.metaeval.perm_both.spa.perm_both_soft_pairwise` (one piece: its inner
sign flips are the same for every resample, as MTME's) -- its generator seeded from ``(seed,
task index, block, chunk index)``. Every piece is a pure function of its inputs, so running the pieces in one process or
on Dask workers (:mod:`stats.analyses._dask`) gives the same bytes.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass

import numpy as np

from stats._core.budget import PRODUCT_SPEEDUP
from stats._core.choices import SOFT_PAIRWISE_ACCURACY
from stats._core.errors import StatsInputError
from stats._core.random import seeded_rng
from stats.metaeval.meta_eval import mean_system_scores, meta_correlation, pairwise_accuracy
from stats.metaeval.perm_both.core import perm_both
from stats.metaeval.perm_both.pairs import perm_both_pairs
from stats.metaeval.perm_both.pooled import perm_both_pooled_accuracy
from stats.metaeval.perm_both.spa import perm_both_soft_pairwise
from stats.metaeval.soft_pairwise import soft_pairwise_accuracy

#: MTME's item-pair permutation (``perm_test='pairs'``) is available
PERM_TEST_SUPPORTED = True
#: resamples per piece and seed
RESAMPLE_CHUNK = 500
#: sign flips of soft pairwise accuracy's inner permutation tests (MTME's default)
N_PERMUTATIONS = 1000


@dataclass(frozen=True)
class Block:
    """What the pieces of one language pair of a task need (picklable). ``kind``: ``scores``
    (:func:`~stats.metaeval.perm_both.core.perm_both` on segment scores), ``pairs``
    (:func:`~stats.metaeval.perm_both.pairs.perm_both_pairs`, MTME's item-pair permutation), ``spa``
    (:func:`~stats.metaeval.perm_both.spa.perm_both_soft_pairwise`) or ``pooled``
    (:func:`~stats.metaeval.perm_both.pooled.perm_both_pooled_accuracy`: every language pair's system
    scores at once, ``gold`` and ``metrics`` by language pair)."""

    gold: object
    metrics: dict
    options: dict
    kind: str = "scores"


@dataclass(frozen=True)
class PreparedTask:
    index: int
    order: tuple  # metrics, best first
    correlations: dict
    blocks: tuple
    n_pairs: int
    chunked: bool = True  # False: one piece holds every resample (soft pairwise accuracy)


def _observed(task, metric, gold) -> float:
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


def prepare_task(index: int, task, tables: list, names: dict, seed: int = 0) -> PreparedTask:
    """Observed correlations and the blocks of a task.

    ``tables`` holds one :class:`~stats.readers.meta.MetaEvalTable` per language pair of the
    task; ``names[lp]`` maps a display name to the table's metric name. ``seed``: soft pairwise
    accuracy's inner sign flips (the same as its PERM-BOTH piece's, as MTME flips the same
    signs in every call).
    """
    for t in tables:
        if t.gold is None or t.metrics is None:
            raise StatsInputError(
                f"task {task.label}: {t.lp} has only system-level (.sys.score) files; PERM-BOTH "
                "permutes segment scores"
            )
    displays = [d for d in names[tables[0].lp] if all(d in names[t.lp] for t in tables)]
    if len(displays) < 2:
        raise StatsInputError(
            f"task {task.label}: {len(displays)} metric(s) in every language pair; a ranking "
            "needs two"
        )

    def arrays(t):
        return {d: t.metrics[names[t.lp][d]] for d in displays}

    if task.correlation == "pairwise-accuracy":
        sys_m: dict = {}
        sys_g: dict = {}
        for t in tables:
            sys_m[t.lp] = {}
            for d, a in arrays(t).items():
                g, m = mean_system_scores(a, t.gold)
                sys_m[t.lp][d], sys_g[t.lp] = m, g
        correlations = {
            d: pairwise_accuracy({lp: sys_m[lp][d] for lp in sys_m}, sys_g).statistic
            for d in displays
        }
        blocks = [Block(sys_g, sys_m, {}, "pooled")]
        chunked = True
    elif task.correlation == SOFT_PAIRWISE_ACCURACY:
        t = tables[0]
        spa = soft_pairwise_accuracy(
            arrays(t),
            t.gold,
            n_resamples=N_PERMUTATIONS,
            rng=seeded_rng(seed, index, 0, 0),
        )
        correlations = {d: float(spa.statistic[d]) for d in displays}
        blocks = [Block(t.gold, arrays(t), {"n_permutations": N_PERMUTATIONS}, "spa")]
        chunked = False
    else:
        t = tables[0]
        correlations = {d: _observed(task, a, t.gold) for d, a in arrays(t).items()}
        options = {
            "correlation": task.correlation,
            "level": task.level,
            "grouping": task.grouping,
            "epsilon": task.epsilon,
            "tie_calibration": task.tie_calibration,
            "threshold": task.threshold,
        }
        kind = "scores"
        if task.perm_test == "pairs":
            if task.correlation != "acc23" or task.level != "seg":
                raise StatsInputError(
                    f"task {task.label}: perm_test 'pairs' (MTME's item-pair permutation) is "
                    "for segment-level acc23"
                )
            eps = None if task.tie_calibration else (task.epsilon or 0.0)
            options, kind = {"grouping": task.grouping, "epsilon": eps}, "pairs"
        blocks = [Block(t.gold, arrays(t), options, kind)]
        chunked = True
    order = tuple(
        sorted(
            displays,
            key=lambda d: (math.isnan(correlations[d]), -np.nan_to_num(correlations[d]), d),
        )
    )
    k = len(order)
    return PreparedTask(index, order, correlations, tuple(blocks), k * (k - 1) // 2, chunked)


def _worker_threads() -> int | None:
    """Threads of the Dask worker running this piece (its share of the cores), else None."""
    distributed = sys.modules.get("distributed")  # only ever loaded with --scheduler
    if distributed is None:
        return None
    try:
        return int(distributed.get_worker().state.nthreads)
    except (ValueError, AttributeError):  # not on a worker
        return None


def pieces(prepared: PreparedTask, n_resamples: int) -> list:
    """``(block, chunk_index, chunk_size)`` of every piece of a task."""
    if not prepared.chunked:
        return [(b, 0, n_resamples) for b in range(len(prepared.blocks))]
    return [
        (b, c0 // RESAMPLE_CHUNK, min(RESAMPLE_CHUNK, n_resamples - c0))
        for c0 in range(0, n_resamples, RESAMPLE_CHUNK)
        for b in range(len(prepared.blocks))
    ]


def piece_draws(prepared: PreparedTask, piece: tuple, seed: int, *, progress=None) -> np.ndarray:
    """Permuted differences (chunk_size x the task's pairs, in ``prepared.order``'s
    ``triu_indices`` order): the draws API (``return_draws=True``) with the piece's seed;
    ``progress(fraction)`` (optional) is passed on to it and changes nothing drawn."""
    b, chunk, size = piece
    block = prepared.blocks[b]
    rng = seeded_rng(seed, prepared.index, b, chunk)
    common = {"n_resamples": size, "return_draws": True, "rng": rng, "progress": progress}
    if block.kind == "pooled":
        res = perm_both_pooled_accuracy(block.metrics, block.gold, **common)
    elif block.kind == "pairs":
        res = perm_both_pairs(block.metrics, block.gold, **block.options, **common)
    elif block.kind == "spa":  # its threads: a Dask worker's own, else all cores (same bytes)
        res = perm_both_soft_pairwise(
            block.metrics, block.gold, **block.options, jobs=_worker_threads(), **common
        )
    else:
        res = perm_both(block.metrics, block.gold, **block.options, **common)
    order = prepared.order
    pos = {m: i for i, m in enumerate(res.metrics)}
    k = len(order)
    iu = np.triu_indices(k, 1)
    i = np.array([pos[order[x]] for x in iu[0]], dtype=int)
    j = np.array([pos[order[x]] for x in iu[1]], dtype=int)
    lo, hi = np.minimum(i, j), np.maximum(i, j)
    row = lo * k - lo * (lo + 1) // 2 + (hi - lo - 1)  # row of (lo, hi) in res.draws
    sign = np.where(i < j, 1.0, -1.0)
    return (res.draws[row] * sign[:, None]).T


def assemble(prepared: PreparedTask, n_resamples: int, results: dict) -> np.ndarray:
    """The task's draws (n_resamples x n_pairs) from ``{piece: array}``."""
    out = np.zeros((n_resamples, prepared.n_pairs))
    for (_, chunk, size), arr in results.items():
        r0 = chunk * RESAMPLE_CHUNK
        out[r0 : r0 + size] += arr
    return out


def _cells(gold) -> int:
    if isinstance(gold, dict):
        return sum(int(np.size(g)) for g in gold.values())
    return int(np.size(gold))


def _item_pairs(gold, grouping) -> int:
    """Pairs of cells MTME's item-pair permutation compares (within each group)."""
    valid = ~np.isnan(np.asarray(gold, dtype=float))
    if grouping == "item":
        n = valid.sum(axis=0)
    elif grouping == "system":
        n = valid.sum(axis=1)
    else:
        n = np.array([valid.sum()])
    return int((n * (n - 1) // 2).sum())


def run_work(prepared) -> float:
    """Element operations of one resample of every task in ``prepared``, each block counted
    as its kernel budgets one call (:func:`stats._core.budget.check_budget`): PERM-BOTH on
    scores ``cells x (1 + pairs)``; the item-pair permutation ``item pairs x (1 + pairs /
    PRODUCT_SPEEDUP)`` (a matrix product); soft pairwise accuracy ``cells`` (a compiled loop);
    pooled pairwise accuracy ``cells x (1 + pairs)``. For
    :func:`stats._core.budget.check_run_budget`."""
    total = 0.0
    for p in prepared:
        for block in p.blocks:
            metrics = block.metrics if block.kind != "pooled" else next(iter(block.metrics.values()))
            pairs = len(metrics) * (len(metrics) - 1) / 2
            if block.kind == "pairs":
                n = max(1, _item_pairs(block.gold, block.options.get("grouping")))
                total += n * (1.0 + pairs / PRODUCT_SPEEDUP)
            elif block.kind == "spa":
                total += _cells(block.gold)
            else:
                total += _cells(block.gold) * (1.0 + pairs)
    return total
