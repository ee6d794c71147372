"""The task set's draws are PERM-BOTH's: a task's draws equal ``perm_both(...,
return_draws=True)`` (the draws API) run with each piece's seed, pair by pair in the task's
order; a pooled pairwise-accuracy task's draws are the pair-weighted sum of its language pairs'."""

from __future__ import annotations

import numpy as np
import pytest

from stats.analyses._task_draws import RESAMPLE_CHUNK, assemble, piece_draws, pieces, prepare_task
from stats.metaeval.perm_both.core import perm_both
from stats.metaeval.task_sets import Task
from stats.readers.meta import read_meta_eval
from tests._task_set_data import write_wmt_like


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    base = write_wmt_like(
        tmp_path_factory.mktemp("d"), lps=("en-es",), n_systems=5, n_items=10, seed=2
    )
    return read_meta_eval(base).table("en-es", refs=["refA"])


@pytest.mark.parametrize(
    "task",
    [
        Task(lp="en-es", level="sys", correlation="pearson"),
        Task(lp="en-es", level="seg", correlation="kendall", grouping="item"),
        Task(lp="en-es", level="seg", correlation="acc23", grouping="item", tie_calibration=True),
    ],
)
def test_piece_draws_equal_the_draws_api(table, task):
    names = {"en-es": {m.rsplit("-", 1)[0]: m for m in table.metric_names}}
    prepared = prepare_task(7, task, [table], names)
    n = 40
    (piece,) = pieces(prepared, n)
    ours = assemble(prepared, n, {piece: piece_draws(prepared, piece, 11)})
    seed = np.random.default_rng(np.random.SeedSequence(11, spawn_key=(7, 0, 0)))
    res = perm_both(
        {d: table.metrics[m] for d, m in names["en-es"].items()},
        table.gold,
        correlation=task.correlation,
        level=task.level,
        grouping=task.grouping,
        tie_calibration=task.tie_calibration,
        n_resamples=n,
        return_draws=True,
        rng=seed,
    )
    order = prepared.order
    iu = np.triu_indices(len(order), 1)
    for k, (i, j) in enumerate(zip(*iu, strict=True)):
        np.testing.assert_allclose(
            ours[:, k], res.pair_draws(order[i], order[j]), rtol=1e-9, atol=1e-12
        )
    assert n < RESAMPLE_CHUNK


def test_pooled_accuracy_and_soft_pairwise_draws_are_the_draws_api(tmp_path):
    from stats.metaeval.meta_eval import mean_system_scores
    from stats.metaeval.perm_both.pooled import perm_both_pooled_accuracy
    from stats.metaeval.perm_both.spa import perm_both_soft_pairwise

    base = write_wmt_like(tmp_path, lps=("en-es", "ja-zh"), n_systems=5, n_items=8, seed=3)
    data = read_meta_eval(base)
    tables = [data.table(lp, refs=["refA"]) for lp in ("en-es", "ja-zh")]
    names = {t.lp: {m.rsplit("-", 1)[0]: m for m in t.metric_names} for t in tables}
    n = 30
    # pooled pairwise accuracy: one piece per chunk over both language pairs
    task = Task(lp="en-es,ja-zh", level="sys", correlation="pairwise-accuracy")
    prepared = prepare_task(0, task, tables, names, seed=5)
    ours = assemble(prepared, n, {p: piece_draws(prepared, p, 5) for p in pieces(prepared, n)})
    sys_m = {t.lp: {} for t in tables}
    sys_g = {}
    for t in tables:
        for d, m in names[t.lp].items():
            sys_g[t.lp], sys_m[t.lp][d] = mean_system_scores(t.metrics[m], t.gold)
    res = perm_both_pooled_accuracy(
        sys_m,
        sys_g,
        n_resamples=n,
        return_draws=True,
        rng=np.random.default_rng(np.random.SeedSequence(5, spawn_key=(0, 0, 0))),
    )
    a, b = prepared.order[0], prepared.order[-1]
    np.testing.assert_allclose(ours[:, len(prepared.order) - 2], res.pair_draws(a, b), atol=1e-12)
    # soft pairwise accuracy: one piece, the observed values from the same inner sign flips
    t = tables[0]
    spa_task = Task(lp="en-es", level="sys", correlation="soft-pairwise-accuracy")
    prepared = prepare_task(2, spa_task, [t], names, seed=5)
    (piece,) = pieces(prepared, n)
    ours = assemble(prepared, n, {piece: piece_draws(prepared, piece, 5)})
    res = perm_both_soft_pairwise(
        {d: t.metrics[m] for d, m in names[t.lp].items()},
        t.gold,
        n_resamples=n,
        return_draws=True,
        rng=np.random.default_rng(np.random.SeedSequence(5, spawn_key=(2, 0, 0))),
    )
    for d in prepared.order:
        assert prepared.correlations[d] == pytest.approx(res.correlations[d], abs=1e-12)
    a, b = prepared.order[0], prepared.order[1]
    np.testing.assert_allclose(ours[:, 0], res.pair_draws(a, b), atol=1e-12)


def test_average_pvalues_agree_with_mtme_on_independent_draws(tmp_path):
    """p-values of the average (rank_task_set) against MTME's AverageCorrMatrix written plainly
    (tasks.py: per pair, each task's draws weighted and scaled to [0, 1], summed, share >= the
    observed difference) on draws of perm_both with another seed: Monte Carlo error only."""
    from stats.analyses.task_set import rank_task_set
    from stats.metaeval.task_sets import TaskSet

    base = write_wmt_like(tmp_path, lps=("en-es",), n_systems=6, n_items=20, seed=8)
    data = read_meta_eval(base)
    tasks = [
        Task(lp="en-es", level="sys", correlation="pearson"),
        Task(lp="en-es", level="seg", correlation="kendall", grouping="item"),
    ]
    ts = TaskSet.from_tasks(tasks, weight_by=["level"])
    R = 2000
    res = rank_task_set(data, ts, n_resamples=R, rng=1, refs=["refA"])
    table = data.table("en-es", refs=["refA"])
    metrics = {m.rsplit("-", 1)[0]: table.metrics[m] for m in table.metric_names}
    runs = [
        perm_both(
            metrics,
            table.gold,
            correlation=t.correlation,
            level=t.level,
            grouping=t.grouping,
            n_resamples=R,
            return_draws=True,
            rng=99 + k,
        )
        for k, t in enumerate(tasks)
    ]
    avg = res.statistic
    names = list(avg.index)
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            a, b = names[i], names[j]
            null = sum(w * r.pair_draws(a, b) / 2.0 for r, w in zip(runs, ts.weights, strict=True))
            p_mtme = np.mean(null >= avg[a] - avg[b])
            p = res.pvalue.loc[a, b]
            se = np.sqrt(max(p_mtme * (1 - p_mtme), 1 / R) * 2 / R)
            assert abs(p - p_mtme) <= 5 * se + 1e-9, (a, b, p, p_mtme)


def test_item_pair_permutation_draws_are_perm_both_pairs(table):
    from stats.metaeval.perm_both.pairs import perm_both_pairs

    names = {"en-es": {m.rsplit("-", 1)[0]: m for m in table.metric_names}}
    task = Task(
        lp="en-es",
        level="seg",
        correlation="acc23",
        grouping="item",
        tie_calibration=True,
        perm_test="pairs",
    )
    prepared = prepare_task(3, task, [table], names)
    n = 40
    (piece,) = pieces(prepared, n)
    ours = assemble(prepared, n, {piece: piece_draws(prepared, piece, 11)})
    res = perm_both_pairs(
        {d: table.metrics[m] for d, m in names["en-es"].items()},
        table.gold,
        grouping="item",
        n_resamples=n,
        return_draws=True,
        rng=np.random.default_rng(np.random.SeedSequence(11, spawn_key=(3, 0, 0))),
    )
    a, b = prepared.order[0], prepared.order[1]
    np.testing.assert_allclose(ours[:, 0], res.pair_draws(a, b), atol=1e-12)


def test_spa_piece_takes_a_dask_workers_threads(table, monkeypatch):
    """On a Dask worker the soft pairwise accuracy piece runs on the worker's threads (not all
    cores), with the same draws; elsewhere it takes all cores."""
    import sys
    import types

    from stats.analyses import _task_draws

    assert _task_draws._worker_threads() is None
    task = Task(lp="en-es", level="sys", correlation="soft-pairwise-accuracy")
    names = {"en-es": {m.rsplit("-", 1)[0]: m for m in table.metric_names}}
    prepared = prepare_task(0, task, [table], names, seed=3)
    here = piece_draws(prepared, pieces(prepared, 20)[0], 3)
    seen = []
    real = _task_draws.perm_both_soft_pairwise

    def spy(*args, **kw):
        seen.append(kw["jobs"])
        return real(*args, **kw)

    worker = types.SimpleNamespace(state=types.SimpleNamespace(nthreads=1))
    fake = types.SimpleNamespace(get_worker=lambda: worker)
    monkeypatch.setitem(sys.modules, "distributed", fake)
    monkeypatch.setattr(_task_draws, "perm_both_soft_pairwise", spy)
    there = piece_draws(prepared, pieces(prepared, 20)[0], 3)
    assert seen == [1]
    np.testing.assert_array_equal(there, here)
