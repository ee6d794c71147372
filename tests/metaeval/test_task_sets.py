"""Task sets: weights, averages, combined p-values and clusters against plain second
formulations of mt-metrics-eval's definitions (``mt_metrics_eval/tasks.py``: TaskSetResults.
AssignWeights, AverageCorrs, AverageRanks, AverageCorrMatrix; TaskResults.range), presets and
task-set files."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError
from stats.metaeval.task_set_presets import known_test_set, preset
from stats.metaeval.task_sets import (
    Task,
    TaskOutcome,
    TaskSet,
    assign_weights,
    average_correlations,
    average_pvalues,
    average_ranks,
    combine_tasks,
    read_task_set,
    task_pvalues,
)

METRICS = ["m0", "m1", "m2", "m3", "m4"]


def _outcomes(seed=0, R=200, early=False):
    """Random task outcomes: correlations, draws (R x pairs) and early-stopped pairs."""
    rng = np.random.default_rng(seed)
    specs = [
        Task(lp="en-de", level="sys", correlation="pearson"),
        Task(lp="en-de", level="seg", correlation="acc23", grouping="item", tie_calibration=True),
        Task(lp="zh-en", level="seg", correlation="kendall"),
        Task(lp="en-de,zh-en", level="sys", correlation="pairwise-accuracy"),
    ]
    out = []
    for t in specs:
        c = {m: float(v) for m, v in zip(METRICS, rng.uniform(0.2, 0.9, 5), strict=True)}
        order = tuple(sorted(c, key=lambda m: -c[m]))
        k = len(order)
        n_pairs = k * (k - 1) // 2
        draws = rng.normal(0, 0.05, (R, n_pairs))
        used = np.full(n_pairs, R)
        if early:
            used = rng.integers(R // 4, R + 1, n_pairs)
        pv = task_pvalues(order, draws, used, c)
        from stats.pairwise.clusters import significance_clusters

        out.append(
            TaskOutcome(
                task=t,
                metrics=order,
                correlations=pd.Series(c)[list(order)],
                draws=draws,
                n_resamples_used=used,
                pvalue=pv,
                rank=significance_clusters(pv),
            )
        )
    return out


# -- plain second formulations of MTME's definitions (tasks.py) ------------------------------


def _mtme_range(task):
    return (0, 1) if task.correlation in ("acc23", "pairwise-accuracy") else (-1, 1)


def _mtme_average_corrs(outcomes, weights):
    corrs = {}
    for o, w in zip(outcomes, weights, strict=True):
        b, e = _mtme_range(o.task)
        for m in o.metrics:
            corrs.setdefault(m, []).append((o.correlations[m] - b) / (e - b) * w)
    corrs = {m: sum(v) for m, v in corrs.items() if len(v) == len(outcomes)}
    return dict(sorted(corrs.items(), key=lambda x: -x[1]))


def _mtme_draws(o, m1, m2):
    """TaskResults.Draws: the (R, 2) correlations of m1 and m2; here their difference."""
    i, j = o.metrics.index(m1), o.metrics.index(m2)
    a, b = min(i, j), max(i, j)
    k = len(o.metrics)
    col = [(x, y) for x in range(k) for y in range(x + 1, k)].index((a, b))
    d = o.draws[: o.n_resamples_used[col], col]
    return d if i < j else -d


def _mtme_average_corr_matrix(outcomes, weights):
    avg = _mtme_average_corrs(outcomes, weights)
    metrics = list(avg)
    n = len(metrics)
    sig = np.full((n, n), np.nan)
    for i in range(n):
        for j in range(i + 1, n):
            m1, m2 = metrics[i], metrics[j]
            diff = avg[m1] - avg[m2]
            max_draws = max(len(_mtme_draws(o, m1, m2)) for o in outcomes)
            per_task = np.zeros((len(outcomes), max_draws))
            for k, o in enumerate(outcomes):
                b, e = _mtme_range(o.task)
                d = weights[k] * _mtme_draws(o, m1, m2) / (e - b)
                copies = int(np.ceil(max_draws / len(d)))
                per_task[k] = np.tile(d, copies)[:max_draws]
            sig[i, j] = np.mean(np.sum(per_task, axis=0) >= diff)
    return metrics, sig


def _mtme_assign_weights(tasks, attrs, total=1.0):
    if not attrs:
        return [total / len(tasks)] * len(tasks)
    subsets = {}
    for i, t in enumerate(tasks):
        subsets.setdefault(str(getattr(t, attrs[0])), []).append(i)
    out = [0.0] * len(tasks)
    for idx in subsets.values():
        sub = _mtme_assign_weights([tasks[i] for i in idx], attrs[1:], total / len(subsets))
        for i, w in zip(idx, sub, strict=True):
            out[i] = w
    return out


# -- tests ------------------------------------------------------------------------------------


def test_average_correlations_equal_mtme_average_corrs():
    outcomes = _outcomes()
    weights = [0.4, 0.1, 0.2, 0.3]
    ours = average_correlations(outcomes, weights)
    theirs = _mtme_average_corrs(outcomes, weights)
    assert list(ours.index) == list(theirs)
    np.testing.assert_allclose(ours.to_numpy(), list(theirs.values()), rtol=0, atol=1e-12)


def test_metrics_missing_from_a_task_are_not_averaged():
    outcomes = _outcomes()
    o = outcomes[1]
    keep = [m for m in o.metrics if m != "m2"]
    outcomes[1] = TaskOutcome(
        task=o.task,
        metrics=tuple(keep),
        correlations=o.correlations[keep],
        draws=o.draws,
        n_resamples_used=o.n_resamples_used,
        pvalue=o.pvalue,
        rank=o.rank,
    )
    assert "m2" not in average_correlations(outcomes, [0.25] * 4).index


@pytest.mark.parametrize("early", [False, True])
def test_average_pvalues_equal_mtme_average_corr_matrix(early):
    outcomes = _outcomes(seed=3, early=early)
    weights = [0.25, 0.25, 0.25, 0.25]
    avg = average_correlations(outcomes, weights)
    ours = average_pvalues(outcomes, weights, avg)
    metrics, theirs = _mtme_average_corr_matrix(outcomes, weights)
    assert list(ours.index) == metrics
    iu = np.triu_indices(len(metrics), 1)
    np.testing.assert_allclose(ours.to_numpy()[iu], theirs[iu], atol=1e-12)


def test_one_task_set_reproduces_the_task_pvalues_and_ranks():
    o = _outcomes()[0]
    ts = TaskSet.from_tasks([o.task])
    res = combine_tasks([o], ts, n_resamples=200, seed=0)
    np.testing.assert_allclose(
        res.pvalue.loc[list(o.metrics), list(o.metrics)].to_numpy(),
        o.pvalue.to_numpy() if True else None,
        equal_nan=True,
    )
    avg, p = res  # unpacks like scipy's results
    assert list(avg.index) == list(o.metrics)


def test_average_ranks_equal_mtme():
    outcomes = _outcomes()
    weights = [0.1, 0.2, 0.3, 0.4]
    ours = average_ranks(outcomes, weights)
    for m in METRICS:
        assert ours[m] == pytest.approx(
            sum(o.rank[m] * w for o, w in zip(outcomes, weights, strict=True))
        )
    assert list(ours) == sorted(ours)


def test_assign_weights_equal_mtme():
    tasks = [
        Task(lp=lp, level=lv, correlation=c)
        for lp in ("en-de", "zh-en", "he-en")
        for lv, c in (("sys", "pearson"), ("seg", "pearson"), ("seg", "kendall"))
    ]
    tasks = tasks[:-1]  # uneven groups
    for attrs in ([], ["lp"], ["level"], ["lp", "level"], ["level", "correlation"]):
        ours = assign_weights(tasks, attrs)
        assert ours == pytest.approx(_mtme_assign_weights(tasks, attrs), abs=1e-15)
        assert sum(ours) == pytest.approx(1.0)
    ts = TaskSet.from_tasks(tasks, weight_by=["lp"])
    assert ts.weights[-1] == pytest.approx(1 / 3 / 2)


def test_presets_are_the_findings_task_lists():
    # mt-metrics-eval tasks.py WMT23: accuracy over en-de, he-en, zh-en (weight 3), then per
    # lp sys/seg Pearson and seg acc23 by item (weight 1 each): 10 tasks, weights 3/12, 1/12
    ts = preset("wmt23")
    assert len(ts.tasks) == 10
    assert ts.tasks[0].lp == "en-de,he-en,zh-en" and ts.tasks[0].correlation == "pairwise-accuracy"
    assert ts.weights[0] == pytest.approx(3 / 12) and ts.weights[1] == pytest.approx(1 / 12)
    assert ts.tasks[0].include_human  # he-en has several references
    ts24 = preset("WMT24")
    assert [(t.lp, t.correlation) for t in ts24.tasks] == [
        (lp, c) for lp in ("en-de", "en-es", "ja-zh") for c in ("soft-pairwise-accuracy", "acc23")
    ]
    assert all(w == pytest.approx(1 / 6) for w in ts24.weights)
    assert ts24.tasks[1].grouping == "item" and ts24.tasks[1].tie_calibration
    assert ts24.tasks[0].include_human and not ts24.tasks[2].include_human
    assert len(preset("wmt25").tasks) == 32
    # meta_info.DATA: wmt24 en-de's standard reference is refB, its gold mqm
    info = known_test_set("wmt24", "en-de")
    assert info.std_ref == "refB" and info.std_gold["seg"] == "mqm"
    assert known_test_set("wmt24", "en-hi").std_gold["sys"] == "esa"
    assert known_test_set("unknown", "en-de") is None
    with pytest.raises(StatsInputError, match="unknown task set"):
        preset("wmt99")


def test_task_set_files(tmp_path):
    doc = {
        "name": "mine",
        "weight_by": ["lp"],
        "defaults": {"gold": "mqm"},
        "tasks": [
            {"lp": "en-de", "level": "seg", "correlation": "kendall", "grouping": "item"},
            {"lp": "en-de", "level": "sys", "correlation": "pearson"},
            {
                "lp": "zh-en",
                "level": "seg",
                "correlation": "acc23",
                "tie-calibration": True,
                "grouping": "item",
            },
        ],
    }
    p = tmp_path / "ts.json"
    p.write_text(json.dumps(doc))
    ts = read_task_set(p)
    assert ts.weights == pytest.approx((0.25, 0.25, 0.5))
    assert ts.tasks[2].tie_calibration and ts.tasks[0].gold == "mqm"
    toml = tmp_path / "ts.toml"
    toml.write_text(
        '[[tasks]]\nlp = "en-de"\nlevel = "sys"\ncorrelation = "pearson"\n'
        '[[tasks]]\nlp = "zh-en"\ncorrelation = "spearman"\nweight = 3\n'
    )
    ts = read_task_set(toml)
    assert ts.weights == pytest.approx((0.25, 0.75))
    assert ts.tasks[1].level == "seg"  # meta-eval's default level


@pytest.mark.parametrize(
    "text, match",
    [
        ('{"tasks": [{"lp": "en-de", "corelation": "x"}]}', "task 1: unknown key 'corelation'"),
        ('{"tasks": [{"lp": "en-de", "correlation": "x"}]}', "correlation must be one of"),
        ('{"tasks": [{"level": "seg"}]}', "needs an 'lp'"),
        ('{"tasks": [{"lp": "a-b", "weight": -1}]}', "weight must be a number"),
        ('{"tasks": []}', "has no tasks"),
        ('{"tasks": [\n{"lp": }]}', "line 2: not valid JSON"),
        ('{"tasks": [{"lp": "a-b,c-d", "correlation": "pearson"}]}', "pool only pairwise-accuracy"),
    ],
)
def test_task_set_file_errors(tmp_path, text, match):
    p = tmp_path / "bad.json"
    p.write_text(text)
    with pytest.raises(StatsInputError, match=match):
        read_task_set(p)


def test_average_confidence_interval_is_the_bootstrap_of_the_average():
    from dataclasses import replace

    from stats.metaeval.task_sets import average_confidence_intervals

    rng = np.random.default_rng(5)
    outcomes = [
        replace(o, bootstrap={m: rng.uniform(0, 1, 100) for m in METRICS}) for o in _outcomes()[:3]
    ]
    weights = [0.5, 0.25, 0.25]
    avg = average_correlations(outcomes, weights)
    ci = average_confidence_intervals(outcomes, weights, avg, 0.9)
    for m in METRICS:  # plain: each resample's average, then its 5th and 95th percentiles
        per = [
            sum(
                w * (o.bootstrap[m][r] - o.task.range[0]) / (o.task.range[1] - o.task.range[0])
                for o, w in zip(outcomes, weights, strict=True)
            )
            for r in range(100)
        ]
        assert ci.loc[m, "low"] == pytest.approx(np.percentile(per, 5), abs=1e-12)
        assert ci.loc[m, "high"] == pytest.approx(np.percentile(per, 95), abs=1e-12)
    assert average_confidence_intervals(_outcomes(), [0.25] * 4, avg) is None
