"""The notebook API of the correlation tests: keyword-only self-explaining arguments (the
notation trap of r12/r13/r23 refused), the mapping to the paper's, psych's and
mt-metrics-eval's notation, results that unpack like scipy's, confidence intervals at any
level, and one import for each file-to-result workflow.

Reference values:
* psych::r.test(n = 20, r12 = 0.95, r13 = 0.85, r23 = 0.9, twotailed = FALSE)$p
  = 0.00471308986345176 (psych 2.x, R 4.x; Debian r-cran-psych), re-run live when Rscript is
  present. psych's r12 and r13 are the human-metric correlations, r23 the metric-metric one.
* mt-metrics-eval stats.py ``WilliamsTest(r12, r13, r23, n, one_sided=True)`` (r12, r13:
  human with metric 1 and 2; r23: metric 1 with metric 2), read from its source and evaluated
  by hand: WilliamsTest(0.95, 0.85, 0.9, 20) = 0.004713089863451753 and
  WilliamsTest(0.971, 0.9, 0.881, 12) = 0.04259267591598463.
* The paper's notation (Graham & Baldwin 2014, variables 1, 2 = metrics, 3 = humans): the
  old positional call ``williams_test(0.95, 0.85, 0.9, 20)`` read 0.95 as r12 (metric-metric)
  and gave p = 0.923 -- the trap of the issue.
"""

from __future__ import annotations

import shutil

import numpy as np
import pytest

import stats
from stats.metaeval.williams import zou_confidence_interval

PSYCH_P = 0.00471308986345176
MTME_P = {(0.95, 0.85, 0.9, 20): 0.004713089863451753, (0.971, 0.9, 0.881, 12): 0.04259267591598463}


@pytest.mark.parametrize(("mtme_args", "expected"), MTME_P.items())
def test_mtme_williams_test_notation_maps_to_keywords(mtme_args, expected):
    r12, r13, r23, n = mtme_args  # MTME: r12, r13 = human with metric 1, 2; r23 = metrics
    res = stats.williams_test(r_human_a=r12, r_human_b=r13, r_a_b=r23, n=n)
    assert res.pvalue == pytest.approx(expected, rel=1e-12)


def test_psych_r_test_notation_maps_to_keywords():
    # psych::r.test(n, r12, r13, r23): variable 1 is the humans
    res = stats.williams_test(r_human_a=0.95, r_human_b=0.85, r_a_b=0.9, n=20)
    assert res.pvalue == pytest.approx(PSYCH_P, rel=1e-12)
    two = stats.williams_test(
        r_human_a=0.95, r_human_b=0.85, r_a_b=0.9, n=20, alternative="two-sided"
    )
    assert two.pvalue == pytest.approx(2 * PSYCH_P, rel=1e-12)


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="Rscript not installed")
def test_psych_mapping_live():
    from tests._data import run_rscript

    out = run_rscript(
        "suppressMessages(library(psych));"
        "cat(sprintf('%.17g', r.test(n=20, r12=0.95, r13=0.85, r23=0.9, twotailed=FALSE)$p))"
    )
    assert float(out) == pytest.approx(PSYCH_P, rel=1e-12)


def test_paper_notation_is_the_result_fields():
    # the paper: r13, r23 = metrics 1, 2 with humans; r12 = the metrics with each other
    res = stats.williams_test(r_human_a=0.95, r_human_b=0.85, r_a_b=0.9, n=20)
    assert (res.r13, res.r23, res.r12) == (0.95, 0.85, 0.9)
    assert (res.r_human_a, res.r_human_b, res.r_a_b) == (0.95, 0.85, 0.9)
    assert res.difference == pytest.approx(0.95 - 0.85)


@pytest.mark.parametrize("func", [stats.williams_test, zou_confidence_interval])
def test_positional_calls_are_refused_with_one_line_naming_the_keywords(func):
    with pytest.raises(TypeError) as info:
        func(0.95, 0.85, 0.9, 20)
    message = str(info.value)
    assert "\n" not in message
    assert "r_human_a=" in message and "r_human_b=" in message and "r_a_b=" in message


def test_the_ambiguous_old_keywords_are_refused_with_their_new_names():
    with pytest.raises(TypeError, match=r"r12= -> r_a_b=.*r13= -> r_human_a="):
        stats.williams_test(r12=0.9, r13=0.95, r23=0.85, n=20)


def test_results_unpack_as_statistic_and_pvalue_like_scipy():
    res = stats.williams_test(r_human_a=0.95, r_human_b=0.85, r_a_b=0.9, n=20)
    t, p = res
    assert (t, p) == (res.statistic, res.pvalue)
    rng = np.random.default_rng(0)
    x = rng.normal(size=30)
    y = x + rng.normal(scale=0.5, size=30)
    boot = stats.paired_bootstrap(x, y, n_resamples=200, rng=1)
    assert tuple(boot) == (boot.statistic, boot.pvalue)
    # every public *Result with statistic and pvalue first unpacks (HumanRankingResult and
    # SystemsTableResult are not exported at the top but unpack too)
    classes = [getattr(stats, name) for name in stats.__all__ if name.endswith("Result")]
    tests = [c for c in classes if list(c.__dataclass_fields__)[:2] == ["statistic", "pvalue"]]
    assert len(tests) >= 12
    assert [c for c in tests if not issubclass(c, stats._core.results.StatisticPvalue)] == []


def test_williams_confidence_interval_takes_a_level():
    res = stats.williams_test(r_human_a=0.95, r_human_b=0.85, r_a_b=0.9, n=20)
    assert res.confidence_interval() == (res.ci_low, res.ci_high)
    for level in (0.9, 0.99):
        low, high = res.confidence_interval(confidence_level=level)
        want = zou_confidence_interval(r_human_a=0.95, r_human_b=0.85, r_a_b=0.9, n=20,
                                       confidence_level=level)  # fmt: skip
        assert (low, high) == pytest.approx(tuple(want), rel=1e-12)
    narrow, wide = (res.confidence_interval(confidence_level=c) for c in (0.8, 0.99))
    assert wide[0] < narrow[0] < narrow[1] < wide[1]
    with pytest.raises(stats.StatsInputError, match="confidence_level"):
        res.confidence_interval(confidence_level=95)


def test_bootstrap_confidence_interval_takes_a_level_and_randomization_says_what_it_kept():
    rng = np.random.default_rng(3)
    x = rng.normal(size=40)
    y = x - 0.2 + rng.normal(scale=0.5, size=40)
    boot = stats.paired_bootstrap(x, y, n_resamples=500, rng=2)
    # the same level read again from the resamples: what the test computed
    assert boot.confidence_interval(confidence_level=0.95) == boot.difference_ci
    low90, high90 = boot.confidence_interval(confidence_level=0.9)
    assert (low90, high90) == pytest.approx(tuple(np.quantile(boot.distribution, [0.05, 0.95])))
    assert boot.difference_ci[0] <= low90 < high90 <= boot.difference_ci[1]
    ar = stats.approximate_randomization(x, y, n_resamples=200, rng=2)
    assert ar.confidence_interval() == ar.difference_ci
    with pytest.raises(stats.StatsInputError, match="confidence_level"):
        ar.confidence_interval(confidence_level=0.9)


def test_each_file_to_result_workflow_is_one_import_away():
    import stats.analyses

    for name in stats.analyses.__all__:
        assert getattr(stats, name) is getattr(stats.analyses, name), name
        assert name in stats.__all__


def test_power_functions_take_the_same_keywords_and_refuse_positional_calls():
    from stats.power.williams import williams_power, williams_power_simulation

    res = stats.williams_detectable_difference(n=12, r_human_a=0.95, r_a_b=0.9)
    assert (res.r_human_a, res.r_a_b) == (0.95, 0.9)
    power = williams_power(n=12, r_human_a=0.95, r_human_b=0.95 - float(res.difference), r_a_b=0.9)
    assert power == pytest.approx(0.8, abs=1e-6)
    for func, args in (
        (williams_power, (12, 0.9, 0.95, 0.85)),
        (stats.williams_detectable_difference, (12, 0.9, 0.95)),
        (williams_power_simulation, (12, 0.9, 0.95, 0.85)),
    ):
        with pytest.raises(TypeError, match="keyword arguments only"):
            func(*args)


def test_accuracy_confidence_interval_takes_a_level():
    from tests.human.test_accuracy import GOLD, T1, T2

    res = stats.accuracy_from_pvalues(
        GOLD, {("BLEU", "bootstrap"): T1, ("TER", "bootstrap"): T2}, alphas=(0.05, 0.01)
    )
    same = res.confidence_interval()
    table = res.table.set_index(["metric", "test", "alpha"])
    assert same.to_numpy() == pytest.approx(table[["ci_low", "ci_high"]].to_numpy())
    # R: binom.test(3, 6, conf.level = 0.9)$conf.int (BLEU at 0.05: 3 of 6 correct)
    low, high = res.confidence_interval(confidence_level=0.9).loc[("BLEU", "bootstrap", 0.05)]
    assert (low, high) == pytest.approx((0.15316111797522317, 0.84683888202477675), rel=1e-9)
