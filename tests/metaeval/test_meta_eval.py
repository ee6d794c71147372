"""Tests of stats.metaeval.meta_eval: golden values from google-research/mt-metrics-eval (MTME), scipy,
and brute force.

The MTME constants (tests/_meta_golden.py) come from running MTME's own
``mt_metrics_eval/stats.py`` (commit 68a481a) outside the project on the literal data there;
the pinned cases below are MTME's own ``stats_test.py`` (same commit). The project never
imports MTME.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.stats

from stats import DegenerateInputWarning, StatsInputError
from stats.metaeval.meta_eval import mean_system_scores, meta_correlation, pairwise_accuracy
from tests._meta_golden import DATA, GOLD_S, METRIC_S, MTME, matrix


def _ours(data, level, grouping, name, options):
    kw = dict(options)
    if name == "acc23-tc":
        name, kw = "acc23", {"tie_calibration": True}
    if data == "S":
        metric, gold = np.array(METRIC_S), matrix([GOLD_S])[0]
    else:
        metric, gold = DATA[data]
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateInputWarning)
        return meta_correlation(  # MTME's values: min_group_size=2 is MTME's rule
            metric, gold, correlation=name, level=level, grouping=grouping, min_group_size=2,
            **kw
        )


#: MTME returns 0 when no pair passes the Kendall-like threshold; we return NaN (documented)
NO_PAIRS = {("B", "sys", "none", "kendall-like", (("threshold", 2.0),))}


@pytest.mark.parametrize(
    "key", [k for k in MTME if k[0] != "AB"], ids=lambda k: "-".join(map(str, k[:4])) + str(k[4])
)
def test_equals_mtme(key):
    if key in NO_PAIRS:
        assert MTME[key] == 0.0
        with pytest.warns(DegenerateInputWarning):
            assert math.isnan(meta_correlation(
                DATA["B"][0], DATA["B"][1], correlation="kendall-like", level="sys", threshold=2.0
            ).statistic)
        return
    res = _ours(*key)
    expected = MTME[key]
    if key[3] == "acc23-tc":
        value, epsilon = expected
        assert res.statistic == pytest.approx(value, abs=1e-12)
        assert res.epsilon == pytest.approx(epsilon, abs=1e-12)
    else:
        assert res.statistic == pytest.approx(expected, abs=1e-12)
    assert math.isnan(res.pvalue)


def test_pairwise_accuracy_pooled_equals_mtme():
    metric, gold = {}, {}
    for lp in ("A", "B"):
        gold[lp], metric[lp] = mean_system_scores(DATA[lp][0], DATA[lp][1])
    res = pairwise_accuracy(metric, gold)
    # mt-metrics-eval commit 68a481a: CompareMetricsWithGlobalAccuracy's _Accuracy (Agreement
    # summed over the two language pairs)
    assert res.statistic == pytest.approx(MTME[("AB", "sys", "none", "pairwise-accuracy-pooled", ())])
    assert res.per_language_pair["A"] == pytest.approx(MTME[("A", "sys", "none", "pairwise-accuracy", ())])
    assert res.per_language_pair["B"] == pytest.approx(MTME[("B", "sys", "none", "pairwise-accuracy", ())])
    assert res.n_pairs == {"A": 10, "B": 10}


# ---- MTME's own pinned test cases (mt_metrics_eval/stats_test.py, commit 68a481a) ----


def packed(n_sys, vector):
    return np.array([np.nan if v is None else v for v in vector], dtype=float).reshape(n_sys, -1)


@pytest.mark.parametrize(
    ("correlation", "grouping", "expected"),
    [
        ("pearson", "none", 0.776),
        ("pearson", "system", 0.760),
        ("pearson", "item", 1.0),
        ("kendall", "none", 0.552),
        ("kendall", "system", 0.575),
        ("kendall", "item", 1.0),
        ("kendall-c", "none", 0.556),
        ("kendall-c", "system", 0.611),
        ("kendall-c", "item", 1.0),
    ],
)
def test_mtme_pinned_correlation_cases(correlation, grouping, expected):
    # stats_test.CorrelationTest.testPearson / testKendall / testKendallC
    gold = packed(2, [1, 2, 3, 4, 5, 6])
    metric = packed(2, [2, 1, 4, 3, 3, 7])
    # by item, each group is 2 systems: MTME's correlation of 2 items (min_group_size=2)
    res = meta_correlation(metric, gold, correlation=correlation, grouping=grouping,
                           min_group_size=2)
    assert res.statistic == pytest.approx(expected, abs=5e-4)
    if grouping == "item":  # ours: a correlation of 2 items is undefined
        with pytest.warns(DegenerateInputWarning) as caught:
            assert math.isnan(meta_correlation(metric, gold, correlation=correlation,
                                               grouping=grouping).statistic)
        assert any("3 of 3 groups by item" in str(w.message) for w in caught)


def test_mtme_pinned_kendall_like_cases():
    # stats_test.CorrelationTest.testKendallLike and CorrelationFunctionsTest.testKendallLike
    r = meta_correlation(packed(1, [2, 1, 4, 3]),
                         packed(1, [10, None, 100, 150]), correlation="kendall-like", threshold=1)
    assert r.statistic == 1 / 3
    for gold in ([10, 11, 100, 150], [10, None, 100, 150]):
        r = meta_correlation(packed(2, [2, 1, 4, 3]), packed(2, gold),
                             correlation="kendall-like", grouping="item", threshold=1)
        assert r.statistic == 1
    gold, metric = packed(1, [10, 11, 100, 150]), packed(1, [2, 1, 4, 3])
    assert meta_correlation(metric, gold, correlation="kendall-like").statistic == 3 / 5
    r = meta_correlation(metric, gold, correlation="kendall-like", threshold=1)
    assert r.statistic == 2 / 6


def test_mtme_pinned_kendall_variants_and_ties_opt():
    # stats_test.CorrelationTest.testKendallVariants and testKendallWithTiesOpt
    gold, metric = packed(1, [1, 2, 2, 3, 4]), packed(1, [2, 1, 1.5, 5, 3])
    assert meta_correlation(metric, gold, correlation="kendall").statistic == pytest.approx(
        0.316227766
    )
    assert meta_correlation(metric, gold, correlation="kendall-c").statistic == 0.32
    assert meta_correlation(metric, gold, correlation="acc23").statistic == 0.6
    assert meta_correlation(metric, gold, correlation="acc23", epsilon=2).statistic == 0.4
    r = meta_correlation(metric, gold, correlation="acc23", tie_calibration=True)
    assert r.statistic == 0.7


def test_mtme_pinned_kendall_variants_23():
    # stats_test.CorrelationFunctionsTest.testKendallVariants_23 / ...WithPositiveEpsilon:
    # 21 pairs; 2 discordant, ties 3 in x only... acc23 = (concordant + tied in both) / 21
    x = packed(1, [1, 1, 1, 2, 2, 3, 4])
    y = packed(1, [1, 1, 2, 2, 4, 3, 3])
    assert meta_correlation(y, x, correlation="acc23").statistic == (13 + 1) / 21
    assert meta_correlation(y, x, correlation="acc23", epsilon=0.1).statistic == (13 + 1) / 21
    assert meta_correlation(y, x, correlation="acc23", epsilon=1.0).statistic == (7 + 3) / 21


def test_mtme_pinned_missing_and_nan_groups():
    # stats_test.AverageCorrelationTest.testMissingEntries / ...ItemWithMissingEntries /
    # testNaNHandling: None gold cells are dropped, a constant group is dropped
    g, m = packed(1, [1, None, 3, 4, 5, 6]), packed(1, [2, 1, 4, 3, 5, 6])
    assert meta_correlation(m, g).statistic == pytest.approx(
        scipy.stats.pearsonr([1, 3, 4, 5, 6], [2, 4, 3, 5, 6]).statistic, abs=1e-15
    )
    g, m = packed(2, [1, None, 3, 4, 5, 6]), packed(2, [2, 1, 8, 3, 5, 6])
    p1 = scipy.stats.pearsonr([1, 4], [2, 3]).statistic
    p3 = scipy.stats.pearsonr([3, 6], [8, 6]).statistic
    assert meta_correlation(m, g, grouping="item", min_group_size=2).statistic == pytest.approx(
        (p1 + p3) / 2
    )
    g, m = packed(2, [1, 2, 3, 4, 5, 6]), packed(2, [2, 2, 2, 4, 5, 6])
    res = meta_correlation(m, g, grouping="system")
    assert res.statistic == pytest.approx(1.0) and res.n_groups == 1
    assert math.isnan(res.group_statistics[0])


def test_mtme_pinned_agreement():
    # stats_test.CorrelationFunctionsTest.testAgreement: 5 of 10 pairs agree
    res = pairwise_accuracy({"x": [1, 1, 2, 1, 2]}, {"x": [1, 2, 3, 3, 4]})
    assert res.n_agree == {"x": 5} and res.statistic == 0.5


# ---- scipy cross-checks ----


@pytest.mark.parametrize("data", ["A", "B"])
def test_scipy_cross_checks(data):
    metric, gold = DATA[data]
    ok = ~np.isnan(gold)
    res = meta_correlation(metric, gold, correlation="pearson")
    assert res.statistic == pytest.approx(scipy.stats.pearsonr(gold[ok], metric[ok])[0], abs=1e-13)
    res = meta_correlation(metric, gold, correlation="spearman")
    assert res.statistic == pytest.approx(scipy.stats.spearmanr(gold[ok], metric[ok])[0], abs=1e-13)
    per_sys_b, per_sys_c = [], []
    for g, m, o in zip(gold, metric, ok, strict=True):
        per_sys_b.append(scipy.stats.kendalltau(g[o], m[o], variant="b")[0])
        per_sys_c.append(scipy.stats.kendalltau(g[o], m[o], variant="c")[0])
    res = meta_correlation(metric, gold, correlation="kendall", grouping="system")
    assert res.statistic == pytest.approx(np.nanmean(per_sys_b), abs=1e-13)
    res = meta_correlation(metric, gold, correlation="kendall-c", grouping="system")
    assert res.statistic == pytest.approx(np.nanmean(per_sys_c), abs=1e-13)
    assert res.group_statistics == pytest.approx(per_sys_c, abs=1e-13, nan_ok=True)


def test_long_groups_counted_by_sorting_match_scipy():
    rng = np.random.default_rng(5)
    gold = np.round(rng.normal(size=(3, 700)) * 2)
    metric = np.round(gold + rng.normal(size=gold.shape), 1)
    gold[rng.random(gold.shape) < 0.1] = np.nan
    ok = ~np.isnan(gold)
    res = meta_correlation(metric, gold, correlation="kendall", grouping="system")
    expected = [scipy.stats.kendalltau(g[o], m[o])[0] for g, m, o in zip(gold, metric, ok, strict=True)]
    assert res.group_statistics == pytest.approx(expected, abs=1e-12)
    res = meta_correlation(metric, gold, correlation="kendall-c", grouping="none")
    assert res.statistic == pytest.approx(
        scipy.stats.kendalltau(gold[ok], metric[ok], variant="c")[0], abs=1e-12
    )


# ---- tie calibration against a brute-force threshold search ----


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("grouping", ["none", "item", "system"])
def test_tie_calibration_equals_brute_force(seed, grouping):
    rng = np.random.default_rng(seed)
    gold = rng.integers(0, 4, size=(4, 7)).astype(float)
    metric = np.round(rng.normal(size=gold.shape), 1)
    gold[rng.random(gold.shape) < 0.2] = np.nan
    res = meta_correlation(metric, gold, correlation="acc23", grouping=grouping,
                           tie_calibration=True)
    flat = metric.ravel()
    candidates = np.unique(np.r_[0.0, np.abs(flat[:, None] - flat[None, :]).ravel()])
    values = np.array([
        meta_correlation(metric, gold, correlation="acc23", grouping=grouping, epsilon=e).statistic
        for e in candidates
    ])
    best = values.max()
    assert res.statistic == pytest.approx(best, abs=1e-12)
    # the smallest epsilon that attains the maximum
    assert res.epsilon == candidates[np.flatnonzero(values >= best - 1e-12)[0]]


# ---- bootstrap confidence intervals ----


@pytest.mark.parametrize(
    ("correlation", "options"),
    [("pearson", {}), ("kendall", {}), ("kendall-like", {"threshold": 1.0}),
     ("acc23", {"epsilon": 0.2}), ("acc23", {"tie_calibration": True})],
)
@pytest.mark.parametrize("grouping", ["item", "none", "system"])
def test_bootstrap_equals_recomputation_on_resampled_items(correlation, options, grouping):
    metric, gold = DATA["A"]
    res = meta_correlation(metric, gold, correlation=correlation, grouping=grouping,
                           n_resamples=40, rng=7, **options)
    idx = np.random.default_rng(7).integers(0, gold.shape[1], size=(40, gold.shape[1]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateInputWarning)
        expected = [
            meta_correlation(metric[:, i], gold[:, i], correlation=correlation,
                             grouping=grouping, **options).statistic
            for i in idx
        ]
    assert res.bootstrap_distribution == pytest.approx(expected, abs=1e-12, nan_ok=True)
    lo, hi = res.confidence_interval
    assert lo <= hi
    assert (lo, hi) == pytest.approx(
        tuple(np.quantile(np.array(expected)[~np.isnan(expected)], [0.025, 0.975])), abs=1e-12
    )


def test_system_level_bootstrap_recomputes_system_means():
    metric, gold = DATA["B"]
    res = meta_correlation(metric, gold, correlation="pearson", level="sys", n_resamples=30, rng=3)
    idx = np.random.default_rng(3).integers(0, gold.shape[1], size=(30, gold.shape[1]))
    expected = []
    for i in idx:
        g, m = mean_system_scores(metric[:, i], gold[:, i])
        ok = ~np.isnan(g)
        expected.append(scipy.stats.pearsonr(g[ok], m[ok])[0] if ok.sum() > 2 else np.nan)
    assert res.bootstrap_distribution == pytest.approx(expected, abs=1e-12, nan_ok=True)


def test_bootstrap_is_reproducible_and_brackets_the_estimate():
    rng = np.random.default_rng(0)
    gold = np.round(rng.normal(size=(8, 300)) * 3)
    metric = gold + rng.normal(size=gold.shape) * 3
    a = meta_correlation(metric, gold, correlation="kendall", grouping="item", n_resamples=300, rng=1)
    b = meta_correlation(metric, gold, correlation="kendall", grouping="item", n_resamples=300, rng=1)
    assert a.confidence_interval == b.confidence_interval
    assert a.confidence_interval[0] < a.statistic < a.confidence_interval[1]


# ---- degenerate and bad input ----


def test_no_defined_group_is_nan_with_warning():
    gold = np.array([[1.0, 2.0, 3.0], [2.0, 3.0, 4.0]])
    with pytest.warns(DegenerateInputWarning, match="no group"):
        res = meta_correlation(np.ones_like(gold), gold, correlation="pearson")
    assert math.isnan(res.statistic) and res.n_groups == 0


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"correlation": "tau"}, "correlation must be one of"),
        ({"grouping": "doc"}, "grouping must be one of"),
        ({"correlation": "pearson", "epsilon": 0.1}, "'acc23' only"),
        ({"correlation": "acc23", "epsilon": -1}, "non-negative"),
        ({"correlation": "acc23", "epsilon": 0.1, "tie_calibration": True}, "not both"),
        ({"correlation": "pairwise-accuracy"}, "level='sys'"),
        ({"level": "sys", "grouping": "item"}, "grouping 'item' applies to level 'seg'"),
        ({"n_resamples": -1}, "n_resamples"),
        ({"confidence_level": 1.5}, "confidence_level"),
    ],
)
def test_bad_options(kwargs, match):
    metric, gold = DATA["A"]
    with pytest.raises(StatsInputError, match=match):
        meta_correlation(metric, gold, **kwargs)


def test_bad_arrays():
    metric, gold = DATA["A"]
    with pytest.raises(StatsInputError, match="shape"):
        meta_correlation(metric[:, :5], gold)
    bad = metric.copy()
    bad[0, 0] = np.nan
    with pytest.raises(StatsInputError, match="metric"):
        meta_correlation(bad, gold)
    with pytest.raises(StatsInputError, match="level='sys'"):
        meta_correlation(metric[:, 0], gold[:, 2])
    with pytest.raises(StatsInputError, match="resamples segments"):
        meta_correlation(metric[:, 0], gold[:, 2], level="sys", n_resamples=10)
    with pytest.raises(StatsInputError, match="same language pairs"):
        pairwise_accuracy({"a": [1, 2]}, {"b": [1, 2]})
