"""PERM-BOTH's ``progress`` callback: called with increasing fractions ending at 1.0 (after
every chunk of resamples, across language pairs and across a task set's tasks), a bad value
refused in one line, and the numbers identical with and without it (it draws nothing)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError
from stats.analyses.meta_significance import perm_both_analysis, pooled_accuracy_perm_both
from stats.analyses.task_set import rank_task_set
from stats.metaeval.perm_both.core import perm_both
from stats.metaeval.perm_both.pairs import perm_both_pairs
from stats.metaeval.perm_both.pooled import perm_both_pooled_accuracy
from stats.metaeval.perm_both.spa import perm_both_soft_pairwise
from stats.metaeval.task_set_presets import per_language_pair
from stats.readers.meta import read_meta_eval
from tests._task_set_data import write_wmt_like


def _segments(seed=3, S=5, n_items=12):
    rng = np.random.default_rng(seed)
    G = rng.normal(size=(S, n_items))
    metrics = {
        "good": G + rng.normal(scale=0.5, size=G.shape),
        "mid": G + rng.normal(scale=1.5, size=G.shape),
        "bad": rng.normal(size=G.shape),
    }
    return G, metrics


def _pooled():
    rng = np.random.default_rng(8)
    gold, metrics = {}, {}
    for lp, n in {"aa-bb": 6, "cc-dd": 5}.items():
        g = rng.normal(size=n)
        gold[lp] = g
        metrics[lp] = {"a": g + rng.normal(size=n), "b": rng.normal(size=n)}
    return metrics, gold


def _check(calls):
    assert calls, "progress was never called"
    assert all(0.0 < f <= 1.0 for f in calls)
    assert all(b >= a for a, b in zip(calls, calls[1:], strict=False))
    assert calls[-1] == 1.0


def _same(a, b):
    pd.testing.assert_frame_equal(a.statistic, b.statistic)
    pd.testing.assert_frame_equal(a.pvalue, b.pvalue)
    pd.testing.assert_frame_equal(a.n_resamples_used, b.n_resamples_used)
    if a.draws is not None:
        np.testing.assert_array_equal(a.draws, b.draws)


@pytest.mark.parametrize(
    "options",
    [
        {"correlation": "pearson"},
        {"correlation": "kendall", "grouping": "item"},
        {"correlation": "acc23", "grouping": "item", "tie_calibration": True},
    ],
)
def test_perm_both_progress_per_block_and_same_numbers(options):
    G, metrics = _segments()
    common = {"n_resamples": 250, "block_size": 100, "return_draws": True, "rng": 5, **options}
    calls: list = []
    res = perm_both(metrics, G, progress=calls.append, **common)
    assert calls == [0.4, 0.8, 1.0]  # one chunk per block here: after each block
    _same(res, perm_both(metrics, G, **common))


def test_early_stopping_still_ends_at_one():
    G, metrics = _segments()
    calls: list = []
    res = perm_both(
        metrics, G, n_resamples=5000, block_size=100, early_stopping=True, rng=1,
        progress=calls.append,
    )  # fmt: skip
    _check(calls)
    assert int(res.n_resamples_used.max().max()) < 5000  # it did stop early
    assert calls[-2] < 1.0


@pytest.mark.parametrize("which", ["pairs", "pooled", "spa"])
def test_siblings_report_progress_and_give_the_same_numbers(which):
    G, metrics = _segments()
    common = {"n_resamples": 60, "block_size": 25, "return_draws": True, "rng": 9}
    if which == "pairs":
        run = lambda **kw: perm_both_pairs(metrics, G, grouping="item", **common, **kw)  # noqa: E731
    elif which == "pooled":
        m, g = _pooled()
        run = lambda **kw: perm_both_pooled_accuracy(m, g, **common, **kw)  # noqa: E731
    else:
        run = lambda **kw: perm_both_soft_pairwise(  # noqa: E731
            metrics, G, n_permutations=50, **common, **kw
        )
    calls: list = []
    res = run(progress=calls.append)
    assert calls == [25 / 60, 50 / 60, 1.0]
    _same(res, run())


@pytest.mark.parametrize("bad", [0.5, "yes"])
def test_a_progress_that_is_not_callable_is_refused(bad):
    G, metrics = _segments()
    with pytest.raises(StatsInputError, match="progress must be a callable"):
        perm_both(metrics, G, n_resamples=10, progress=bad)


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    base = write_wmt_like(
        tmp_path_factory.mktemp("wmt"), lps=("en-de", "en-es"), n_systems=5, n_items=10, seed=4
    )
    return read_meta_eval(base)


def test_workflow_reports_across_language_pairs(data):
    common = {"correlation": "pearson", "n_resamples": 50, "rng": 2}
    calls: list = []
    with_it = perm_both_analysis(data, progress=calls.append, **common)
    assert len(with_it) == 2 and calls == [0.5, 1.0]  # each language pair half of the bar
    for a, b in zip(with_it, perm_both_analysis(data, **common), strict=True):
        _same(a.result, b.result)
    pooled_calls: list = []
    pooled = pooled_accuracy_perm_both(data, n_resamples=40, rng=3, progress=pooled_calls.append)
    _check(pooled_calls)
    _same(pooled.result, pooled_accuracy_perm_both(data, n_resamples=40, rng=3).result)


def test_task_set_reports_across_its_tasks(data):
    ts = per_language_pair(data.language_pairs)  # 2 tasks per language pair
    calls: list = []
    with_it = rank_task_set(data, ts, n_resamples=30, rng=7, progress=calls.append)
    _check(calls)
    assert len(calls) >= len(ts.tasks)  # at least one update per task
    without = rank_task_set(data, ts, n_resamples=30, rng=7)
    pd.testing.assert_series_equal(with_it.statistic, without.statistic)
    pd.testing.assert_frame_equal(with_it.pvalue, without.pvalue)
    for a, b in zip(with_it.tasks, without.tasks, strict=True):
        np.testing.assert_array_equal(a.draws, b.draws)
