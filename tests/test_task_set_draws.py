"""The task set's draws are PERM-BOTH's: a task's draws equal ``perm_both(...,
return_draws=True)`` (the draws API) run with each piece's seed, pair by pair in the task's
order; a pooled pairwise-accuracy task's draws are the pair-weighted sum of its language pairs'."""

from __future__ import annotations

import numpy as np
import pytest

from stats._task_draws import RESAMPLE_CHUNK, assemble, piece_draws, pieces, prepare_task
from stats.perm_both import perm_both
from stats.readers.meta import read_meta_eval
from stats.task_sets import Task
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
    seed = np.random.SeedSequence(11, spawn_key=(7, 0, 0))
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


def test_pooled_pairwise_accuracy_draws_are_pair_weighted(tmp_path):
    base = write_wmt_like(tmp_path, lps=("en-es", "ja-zh"), n_systems=5, n_items=8, seed=3)
    data = read_meta_eval(base)
    tables = [data.table(lp, refs=["refA"]) for lp in ("en-es", "ja-zh")]
    names = {t.lp: {m.rsplit("-", 1)[0]: m for m in t.metric_names} for t in tables}
    task = Task(lp="en-es,ja-zh", level="sys", correlation="pairwise-accuracy")
    prepared = prepare_task(0, task, tables, names)
    n = 30
    results = {p: piece_draws(prepared, p, 5) for p in pieces(prepared, n)}
    ours = assemble(prepared, n, results)
    a, b = prepared.order[0], prepared.order[-1]
    expect = np.zeros(n)
    for k, t in enumerate(tables):  # 5 systems each: 10 pairs, weight 1/2
        res = perm_both(
            {d: t.metrics[m] for d, m in names[t.lp].items()},
            t.gold,
            correlation="pairwise-accuracy",
            level="sys",
            n_resamples=n,
            return_draws=True,
            rng=np.random.SeedSequence(5, spawn_key=(0, k, 0)),
        )
        expect += 0.5 * res.pair_draws(a, b)
    np.testing.assert_allclose(ours[:, len(prepared.order) - 2], expect, atol=1e-12)
