"""Power of the per-item paired tests (stats.power.paired): golden values from an independent
Monte Carlo (scipy's ttest_rel / wilcoxon and the project's own single-pair paired_bootstrap /
approximate_randomization run in a plain loop, one simulated data set at a time, with their own
draws), the paired t against the noncentral-t closed form, and the shape of the curves."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from stats import StatsInputError
from stats.power import paired_power, paired_sample_size, paired_t_mde, paired_t_power
from stats.power.paired import _pool_counts, _signed_rank_pool, _signed_rank_small
from tests.power._scipy_reference import (
    signed_rank_up,
    symmetric_independent,
    symmetric_pool_draws,
    wilcoxon_rows,
)

SIMS = 2000
REF_SIMS = 2000  # the reference loop's own simulations, as many as ours (the bar)
# 3 points at 2,000 simulations each (the bar): the MC error of either estimate is
# <= 0.011, so 0.03 is about 2 standard errors of the difference (a fixed seed each; the
# same-draw tests below are the exact check)
TOL = 0.03


def _pool(size=80, seed=3):
    """Skewed, tied per-item scores (ESA-like 0-100 integers) of two systems."""
    gen = np.random.default_rng(seed)
    base = np.clip(np.rint(gen.normal(70, 18, size)), 0, 100)
    syst = np.clip(base + np.rint(gen.gamma(2.0, 4.0, size) - 7.0), 0, 100)
    return base, syst


def _samples(base, syst, effect, n, sims=REF_SIMS, seed=99):
    """Independent Monte Carlo: shift the differences, draw n items, one data set a row (drawn
    one at a time, as a loop over the data sets draws them)."""
    gen = np.random.default_rng(seed)
    d = syst - base
    pool = d - d.mean() + effect
    return np.array([pool[gen.integers(0, d.size, n)] for _ in range(sims)])


def _loop_power(base, syst, effect, n, test_fn, sims=REF_SIMS, seed=99):
    """Power of test_fn(sample) run on each data set of _samples."""
    hits = 0
    for s in _samples(base, syst, effect, n, sims, seed):  # a loop on purpose: one call each
        hits += test_fn(s) < 0.05
    return hits / sims


def _t_rows(s):
    """scipy's ttest_rel(x, 0) of each row in one vectorised call (the same formula a row)."""
    return sps.ttest_rel(s, np.zeros_like(s), axis=1).pvalue


@pytest.mark.parametrize("n,effect", [(12, 3.0), (30, 2.0)])
def test_t_matches_scipy_ttest_rel_loop(n, effect):
    base, syst = _pool()
    res = paired_power(base, syst, effect=effect, n=n, test="t", n_simulations=SIMS, rng=0)
    # reference: scipy.stats.ttest_rel(x, y) on each simulated data set (y = 0 baseline)
    s = _samples(base, syst, effect, n)
    # power counts rejections in the effect's direction
    ref = np.sum((_t_rows(s) < 0.05) & (np.sign(s.mean(axis=1)) == np.sign(effect))) / REF_SIMS
    assert abs(res.power[0, 0] - ref) < TOL, (res.power[0, 0], ref)


@pytest.mark.parametrize("n,effect", [(15, 4.0), (40, 2.0), (60, -2.0)])
def test_signed_rank_matches_scipy_wilcoxon_loop(n, effect):
    base, syst = _pool()
    res = paired_power(base, syst, effect=effect, n=n, test="signed-rank", n_simulations=SIMS,
                       rng=0)

    # scipy defaults (zero_method='wilcox', method='auto') on each simulated data set, in two
    # vectorised calls (tests/power/_scipy_reference.py; equal to a loop: the same-draws test),
    # on data sets from the signed-rank null (symmetric about 0, equal items kept equal) drawn
    # independently, counted in the effect's direction
    s = symmetric_independent(syst - base, effect, n, REF_SIMS, np.random.default_rng(99))
    up = signed_rank_up(s)
    ref = np.sum((wilcoxon_rows(s) < 0.05) & (up if effect > 0 else ~up)) / REF_SIMS
    assert abs(res.power[0, 0] - ref) < TOL, (res.power[0, 0], ref)


@pytest.mark.parametrize("test", ["t", "signed-rank"])
def test_same_draws_give_exactly_the_scipy_loop_power(test):
    """The engine's index draws equal a loop's one data set at a time (same Generator stream),
    so on the same seed the simulated power equals the scipy loop's exactly."""
    base, syst = _pool()
    fn = {
        "t": lambda s: sps.ttest_rel(s, np.zeros_like(s)).pvalue,
        "signed-rank": lambda s: sps.wilcoxon(s).pvalue if np.any(s) else 1.0,
    }[test]
    vectorised = {"t": _t_rows, "signed-rank": wilcoxon_rows}[test]
    for n, effect in ((10, 3.0), (45, 1.0), (70, 2.0)):
        # exact equality, so a few hundred data sets suffice, each pinned at several levels
        # (alpha) on the same draws (scipy runs a permutation test per call at n <= 13: fewer
        # there)
        sims = 12 if n <= 13 else 150
        if test == "t":
            samples = _samples(base, syst, effect, n, sims=sims, seed=7)
            up = samples.mean(axis=1) > 0
        else:  # the signed-rank null: tests/power/_scipy_reference.py
            samples = symmetric_pool_draws(syst - base, effect, n, sims,
                                           np.random.default_rng(7))
            up = signed_rank_up(samples)
        p = np.array([fn(s) for s in samples])  # a loop on purpose: one scipy call each
        for alpha in (0.01, 0.05, 0.2, 0.35, 0.5, 0.8):
            res = paired_power(base, syst, effect=effect, n=n, test=test, alpha=alpha,
                               n_simulations=sims, rng=7)
            # power: rejections in the effect's direction (effect > 0 here)
            assert res.power[0, 0] == np.sum((p < alpha) & up) / sims, (n, alpha)
        if n > 13:  # the vectorised references of the tests above give the loop's p-values
            np.testing.assert_allclose(np.nan_to_num(vectorised(samples), nan=1.0), p,
                                       rtol=1e-12)


def test_signed_rank_one_data_set_equals_scipy():
    """Same data, same p-value: the pool-count Wilcoxon equals scipy's row by row."""
    gen = np.random.default_rng(5)
    for pool, n in ((np.rint(gen.normal(0.5, 3, 40)), 20), (gen.normal(0.3, 1, 300), 12), (np.rint(gen.normal(0.5, 2, 30)), 9),
                    (np.rint(gen.normal(0.5, 3, 200)), 49), (gen.normal(0, 1, 500), 51),
                    (np.r_[np.zeros(5), np.rint(gen.normal(1, 4, 200))], 200)):
        idx = gen.integers(0, pool.size, (12, n))  # row by row: a dozen rows per case
        if n <= 13:  # scipy's permutation test is slow: the first 6 (at n=12 one with ties of
            idx = idx[:6]  # the same item drawn twice, five without; at n=9 ties and zeros)
        counts = _pool_counts(idx, pool.size)
        y = pool[idx]
        for alt in ("two-sided", "greater"):
            if n <= 13:
                p, _ = _signed_rank_small(y, alt)
            else:
                p, _ = _signed_rank_pool(counts, pool, n, alt)
            ref = [sps.wilcoxon(r, alternative=alt).pvalue if np.any(r) else np.nan for r in y]
            np.testing.assert_allclose(p, ref, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("test", ["paired-bootstrap", "approximate-randomization"])
def test_resampling_tests_match_a_loop_of_the_single_pair_test(test):
    import pandas as pd

    from stats import approximate_randomization, paired_bootstrap, statistics_from_scores

    base, syst = _pool()
    n, effect, r = 20, 3.0, 199
    res = paired_power(base, syst, effect=effect, n=n, test=test, n_simulations=SIMS,
                       n_resamples=r, rng=3)
    fn = paired_bootstrap if test == "paired-bootstrap" else approximate_randomization
    seeds = iter(range(10**6))

    def one(sample):  # the project's single-pair test on this simulated data set
        data = statistics_from_scores(pd.DataFrame({"B": sample, "A": np.zeros_like(sample)}))
        return fn("B", "A", data=data, alternative="two-sided", n_resamples=r,
                  rng=next(seeds), n_ci_resamples=1).pvalue

    ref = _loop_power(base, syst, effect, n, one)
    assert abs(res.power[0, 0] - ref) < TOL, (res.power[0, 0], ref)


def test_t_matches_noncentral_t_closed_form():
    gen = np.random.default_rng(7)
    d = gen.normal(0, 10, 50_000)  # normal differences: the closed form is exact
    base = np.zeros_like(d)
    res = paired_power(base, d, effect=[0.0, 2.0, 4.0], n=[10, 40], test="t",
                       n_simulations=SIMS, rng=4)
    sd = d.std(ddof=0)
    exact = paired_t_power(effect=np.array([[0.0], [2.0], [4.0]]), sd=sd, n=np.array([10, 40]))
    np.testing.assert_allclose(res.power, exact, atol=TOL)
    np.testing.assert_allclose(res.mde, paired_t_mde(sd=sd, n=np.array([10, 40])), rtol=0.08)
    # statsmodels-free check of the closed form itself: alpha at effect 0, two-sided
    assert paired_t_power(effect=0.0, sd=1.0, n=30) == pytest.approx(0.05, abs=1e-12)


def test_power_rises_with_n_and_effect_and_mde_falls():
    base, syst = _pool(400)
    for test in ("t", "signed-rank", "paired-bootstrap", "approximate-randomization"):
        res = paired_power(base, syst, effect=[1.0, 2.0, 4.0], n=[20, 80, 320], test=test,
                           n_simulations=400, n_resamples=200, rng=5)
        assert np.all(np.diff(res.power, axis=1) >= -0.02), test
        assert np.all(np.diff(res.power, axis=0) >= -0.02), test
        assert np.all(np.diff(res.mde) < 0), (test, res.mde)
        assert res.mc_error.shape == res.power.shape
        # the MDE is where the power (same draws) crosses the target: at least 80% at it,
        # less just below it (integer scores make the signed-rank power a step function of
        # the effect: it may jump past 80% at the MDE)
        mde = float(res.mde[1])
        at = paired_power(base, syst, effect=[0.97 * mde, mde], n=[20, 80, 320], test=test,
                          n_simulations=400, n_resamples=200, rng=5)
        # (one data set may sit exactly on its critical effect: t = critical value, not rejected)
        assert at.power[1, 1] >= 0.8 - 1.5 / 400 and at.power[0, 1] < 0.8 + 0.01, (test, at.power)


def test_seeded_and_reproducible_and_sample_size():
    base, syst = _pool(200)
    a = paired_power(base, syst, effect=2.0, n=[50, 100], test="signed-rank", rng=11)
    b = paired_power(base, syst, effect=2.0, n=[50, 100], test="signed-rank", rng=11)
    np.testing.assert_array_equal(a.power, b.power)
    assert a.seed == 11 and a.n_simulations == 1000 and "share of simulated" in a.definition
    found = paired_sample_size(base, syst, effect=2.0, test="t", n_simulations=500, rng=3)
    n, err = int(found.sample_size), found.mc_error
    # the crossing of the simulated curve (every n with the same seed): the power there is the
    # target within its Monte Carlo error, and 3 SE of n lower it is below
    below = int(n - 3 * err)
    at, under = (paired_power(base, syst, effect=2.0, n=k, test="t", n_simulations=500,
                              rng=3).power[0, 0] for k in (n, below))
    assert abs(at - 0.8) < 3 * np.sqrt(0.16 / 500) and under < 0.8, (at, under)
    # the closed form's n for the same effect and spread lies within 4 Monte Carlo SE
    d = syst - base
    exact = next(k for k in range(2, 5000)
                 if paired_t_power(effect=2.0, sd=d.std(ddof=1), n=k) >= 0.8)
    assert abs(n - exact) < 4 * err + 3, (n, exact, err)


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"test": "z"}, "test must be one of"),
        ({"n": 1}, "n must be at least 2"),
        ({"n": [10, 2.5]}, "n must hold integers"),
        ({"effect": "big"}, "effect must be"),
        ({"alternative": "less"}, "alternative"),
        ({"n_simulations": 1}, "n_simulations"),
    ],
)
def test_bad_arguments_name_themselves(kwargs, match):
    base, syst = _pool(30)
    args = {"effect": 1.0, "n": 10, **kwargs}
    with pytest.raises(StatsInputError, match=match):
        paired_power(base, syst, **args)


def test_bad_scores_refused():
    with pytest.raises(StatsInputError, match="same items"):
        paired_power([1, 2, 3], [1, 2], effect=1, n=5)
    with pytest.raises(StatsInputError, match="finite score"):
        paired_power([1, 2, np.nan], [1, 2, 3], effect=1, n=5)


def test_budget_refuses_before_allocating():
    from stats import limited_budget

    base, syst = _pool(30)
    with limited_budget(max_work=1e6), pytest.raises(StatsInputError, match="reduce"):
        paired_power(base, syst, effect=1, n=10_000, test="paired-bootstrap")


def test_compiled_signed_rank_sums_equal_the_array_formulation():
    """The numba pass (stats.power._signed_rank_kernel) gives the numpy formulation's numbers
    exactly: zeros, ties of |values| across signs, continuous and integer pools."""
    from stats.power._signed_rank_kernel import compiled

    if compiled() is None:
        pytest.skip("numba not installed")
    gen = np.random.default_rng(4)
    for pool in (np.array([-2.0, -1.0, 0.0, 0.0, 1.0, 1.0, 2.0, 3.0]), gen.normal(size=300)):
        values = np.unique(pool)
        for size in (20, 60, 400):
            idx = gen.integers(0, values.size, (50, size))
            counts = _pool_counts(idx, values.size)
            by_item = _pool_counts(idx, values.size, items_first=True)
            assert (by_item == counts.T).all()
            for e in (0.0, 1.0, 0.37):
                for alt in ("two-sided", "greater"):
                    ref = _signed_rank_pool(counts, values + e, size, alt, compiled=False)
                    got = _signed_rank_pool(by_item, values + e, size, alt, items_first=True)
                    np.testing.assert_array_equal(got[0], ref[0])
                    np.testing.assert_array_equal(got[1], ref[1])
