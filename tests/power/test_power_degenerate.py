"""Degenerate and silent cases of the power functions: a system against itself,
constant differences, too few resamples to reach alpha, effects outside the scores' range are
refused in one line; sizes beyond the observed items and a PERM-BOTH design that cannot hold
the metrics' correlation are stated in notes; sample sizes for every test, with their Monte
Carlo error."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from stats import StatsInputError
from stats._core.errors import DegenerateInputWarning
from stats.power import (
    domain_sample_size,
    paired_power,
    perm_both_power,
    perm_both_sample_size,
    williams_power,
    williams_sample_size,
)


def _pair(size=200, seed=0):
    gen = np.random.default_rng(seed)
    base = np.clip(np.rint(gen.normal(70, 15, size)), 0, 100)
    return base, np.clip(base + np.rint(gen.normal(1, 8, size)), 0, 100)


@pytest.mark.parametrize("test", ["t", "signed-rank", "paired-bootstrap"])
def test_same_system_twice_and_constant_differences_are_refused(test):
    base, _ = _pair()
    with pytest.raises(StatsInputError, match="same score on every item"):
        paired_power(base, base, effect=1, n=50, test=test)
    with pytest.raises(StatsInputError, match="differ by the same 2 on every item"):
        paired_power(base, base + 2, effect=1, n=50, test=test)
    # the same 0.1 on every item, up to the subtraction's rounding (a spread of 1e-15): the
    # MDE of that spread was rounding noise, printed as a number
    scores = base + np.linspace(0, 1, base.size)
    assert np.ptp((scores + 0.1) - scores) > 0
    with pytest.raises(StatsInputError, match="differ by the same 0.1 on every item"):
        paired_power(scores, scores + 0.1, effect=1, n=50, test=test)


def test_too_few_resamples_effects_out_of_range_and_sizes_beyond_the_data():
    base, syst = _pair()
    with pytest.raises(StatsInputError, match=r"n_resamples=10: .* 2/11 = 0\.182, not below"):
        paired_power(base, syst, effect=1, n=50, test="paired-bootstrap", n_resamples=10)
    with pytest.raises(StatsInputError, match=r"n_resamples=18: .* 1/19"):
        paired_power(base, syst, effect=1, n=50, test="approximate-randomization",
                     n_resamples=18)
    with pytest.raises(StatsInputError, match="outside the scores' range"):
        paired_power(base, syst, effect=500, n=50)
    with pytest.warns(DegenerateInputWarning, match="n=400 exceeds the 200 observed items"):
        res = paired_power(base, syst, effect=1, n=[100, 400], n_simulations=200, rng=1)
    assert any("resample the observed items" in note for note in res.notes)


def test_two_sided_power_counts_the_effects_direction_only():
    base, syst = _pair(seed=2)
    res = paired_power(base, syst, effect=[-1.0, 0.0, 1.0], n=[10, 200], test="t",
                       n_simulations=2000, rng=3)
    # at effect 0, power is the size (either direction); a small effect's power at small n is
    # below the size, as rejections the wrong way no longer count
    np.testing.assert_array_equal(res.power[1], res.size)
    assert res.power[2, 0] < res.size[0] + 0.03 and res.power[2, 1] > res.size[1]
    assert res.power[0, 1] > res.size[1]  # a negative effect: rejections the other way


def test_sample_sizes_by_domain_perm_both_and_williams():
    base, syst = _pair(300)
    doms = {"news": (base[:150], syst[:150]), "social": (base[150:], syst[150:])}
    found = domain_sample_size(doms, effect=2.0, n_simulations=400, rng=1)
    assert np.isfinite(found.sample_size) and 0 < found.mc_error < found.sample_size / 4
    gen = np.random.default_rng(0)
    gold = gen.normal(size=(4, 80))
    a, b = gold + gen.normal(0, 1, gold.shape), gold + gen.normal(0, 1.5, gold.shape)
    pb = perm_both_sample_size(a, b, gold, effect=0.15, n_simulations=150, n_resamples=100,
                               rng=2)
    assert np.isfinite(pb.sample_size) and pb.mc_error > 0
    ws = williams_sample_size(r_human_a=0.9, r_human_b=0.8, r_a_b=0.85)
    n = int(ws.sample_size)
    assert ws.mc_error == 0.0
    assert williams_power(n=n, r_human_a=0.9, r_human_b=0.8, r_a_b=0.85) >= 0.8 > float(
        williams_power(n=n - 1, r_human_a=0.9, r_human_b=0.8, r_a_b=0.85))
    assert np.isnan(williams_sample_size(r_human_a=0.8, r_human_b=0.8, r_a_b=0.7).sample_size)


def test_perm_both_holds_the_metrics_correlation_or_says_what_it_assumes():
    """Mixing B towards A would raise r(A, B) from 0.54 to 0.78 at the MDE. Where the
    observed r(A, B) is too low for B to match A's correlation with the humans, the
    simulation raises it to the least that does and says so."""
    gen = np.random.default_rng(4)
    gold = gen.normal(size=(3, 60))
    a = gold + gen.normal(0, 0.3, gold.shape)  # r(A, humans) ~ 0.96
    b = 0.5 * gold + gen.normal(0, 1.5, gold.shape)  # far from A
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = perm_both_power(a, b, gold, effect=0.1, n=30, n_simulations=50, n_resamples=50,
                              rng=1)
    assert any("the least that lets effect 0" in note for note in res.notes)
    assert any("the least that lets effect 0" in str(w.message) for w in caught)
    assert "correlation with A stays r =" in res.effect_meaning
