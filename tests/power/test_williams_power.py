"""Power of the Williams test: the noncentral-t approximation against simulation."""

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError
from stats.power.williams import (
    williams_detectable_difference,
    williams_power,
    williams_power_simulation,
)

CASES = [(8, 0.8, 0.9), (12, 0.9, 0.95), (30, 0.7, 0.85), (50, 0.95, 0.95)]


@pytest.mark.parametrize("alternative", ["greater", "two-sided"])
@pytest.mark.parametrize("n, r12, r13", CASES)
def test_detectable_difference_has_the_power_by_simulation(n, r12, r13, alternative):
    # independent check: at the difference found, trivariate normal samples with these
    # correlations are rejected (in the true direction) about 80% of the time
    res = williams_detectable_difference(n=n, r_a_b=r12, r_human_a=r13, alternative=alternative)
    d = float(res.difference)
    assert 0 < d < 1
    assert williams_power(
        n=n, r_a_b=r12, r_human_a=r13, r_human_b=r13 - d, alternative=alternative
    ) == pytest.approx(0.8)
    sim = williams_power_simulation(
        n=n,
        r_a_b=r12,
        r_human_a=r13,
        r_human_b=r13 - d,
        alternative=alternative,
        n_resamples=8000,
        rng=7,
    )
    # simulation SE ~0.0045; the approximation is within ~0.02 of it
    assert abs(sim - 0.8) < 0.035


def test_simulated_type_one_error_is_alpha():
    # no difference: the one-sided test rejects at about alpha
    sim = williams_power_simulation(
        n=20, r_a_b=0.8, r_human_a=0.9, r_human_b=0.9, n_resamples=20000, rng=3
    )
    assert 0.04 < sim < 0.06


def test_more_systems_detect_smaller_differences():
    res = williams_detectable_difference(
        n=np.array([6, 12, 25, 50, 100]), r_a_b=0.85, r_human_a=0.9
    )
    assert np.all(np.diff(res.difference) < 0)
    assert res.difference.shape == (5,)


def test_lower_alpha_or_higher_power_need_larger_differences():
    base = williams_detectable_difference(n=15, r_a_b=0.8, r_human_a=0.9).difference
    assert (
        williams_detectable_difference(n=15, r_a_b=0.8, r_human_a=0.9, alpha=0.01).difference > base
    )
    assert (
        williams_detectable_difference(n=15, r_a_b=0.8, r_human_a=0.9, power=0.9).difference > base
    )
    assert (
        williams_detectable_difference(
            n=15, r_a_b=0.8, r_human_a=0.9, alternative="two-sided"
        ).difference
        > base
    )


def test_undetectable_is_nan():
    # 4 systems, weakly correlated metrics: no valid difference reaches 80% power
    assert np.isnan(williams_detectable_difference(n=4, r_a_b=0.1, r_human_a=0.2).difference)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(n=3, r_a_b=0.5, r_human_a=0.5), "n must be at least 4"),
        (dict(n=10, r_a_b=1.5, r_human_a=0.5), "r_a_b"),
        (dict(n=10, r_a_b=0.5, r_human_a=0.5, power=1.0), "power"),
        (dict(n=10, r_a_b=0.5, r_human_a=0.5, alternative="less"), "alternative"),
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises(StatsInputError, match=match):
        williams_detectable_difference(**kwargs)


def test_simulation_rejects_impossible_correlations():
    with pytest.raises(StatsInputError, match="not the correlations"):
        williams_power_simulation(
            n=10, r_a_b=0.9, r_human_a=0.9, r_human_b=-0.9, n_resamples=10, rng=0
        )


def test_median_detectable_difference_is_the_median_of_the_tested_cells():
    # numpy's nanmedian over the finite cells is the independent reference
    from stats.power.williams import median_detectable_difference

    grid = pd.DataFrame([[np.nan, 0.2, 0.5], [np.nan, np.nan, 0.1], [np.nan] * 3])
    assert median_detectable_difference(grid) == np.nanmedian(grid.to_numpy()) == 0.2
    assert np.isnan(median_detectable_difference(pd.DataFrame([[np.nan]])))
