"""Power of the human ranking's by-domain signed-rank test with Stouffer's combination
(stats.power.human): the same draws give exactly the power of a plain loop of scipy's wilcoxon
per domain combined with Stouffer's formula written out (WMT24 findings), an independent
Monte Carlo agrees within 3 points at 2,000 simulations, and the curves have their shape."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as sps

from stats import StatsInputError
from stats.power import domain_power
from tests.power._scipy_reference import (
    symmetric_independent,
    symmetric_pool_draws,
    wilcoxon_rows,
)


def _domains(seed=0, size=120):
    gen = np.random.default_rng(seed)
    out = {}
    for name, shift in (("news", 2.0), ("social", -1.0), ("speech", 3.0)):
        base = np.clip(np.rint(gen.normal(70, 15, size)), 0, 100)
        out[name] = (base, np.clip(base + np.rint(gen.normal(shift, 12, size)), 0, 100))
    return out


def _draws(domains, effect, n, sims, gen, draw=symmetric_pool_draws):
    """Each domain's data sets from the signed-rank null (symmetric about 0, equal items kept
    equal; tests/power/_scipy_reference.py), shifted so the mean difference is the effect."""
    return [draw(s - b, effect, n, sims, gen) for b, s in domains.values()]


def _stouffer(ps):
    """Stouffer's combination as the findings write it, one simulated ranking per row."""
    p = np.full(len(ps[0]), np.nan)
    for k in range(len(p)):
        z = sps.norm.ppf(1 - np.array([q[k] for q in ps]))
        z = z[~np.isnan(z)]
        p[k] = 1 - sps.norm.cdf(z.sum() / np.sqrt(z.size))
    return p


def _loop(domains, effect, n, sims, gen):
    """Combined p of each simulated ranking (one scipy call per domain and ranking) and
    whether the system's mean item score is the higher."""
    draws = _draws(domains, effect, n, sims, gen)
    p = _stouffer([[sps.wilcoxon(r).pvalue if np.any(r) else np.nan for r in d]
                   for d in draws])
    return p, np.mean([d.mean(axis=1) for d in draws], axis=0) > 0


def _vectorised(domains, effect, n, sims, gen, draw=symmetric_pool_draws):
    draws = _draws(domains, effect, n, sims, gen, draw)
    return (_stouffer([wilcoxon_rows(d) for d in draws]),
            np.mean([d.mean(axis=1) for d in draws], axis=0) > 0)


def test_same_draws_equal_a_scipy_loop():
    doms = _domains()
    # exact equality: a few data sets, each pinned at several levels (alpha) on the same draws;
    # at n <= 13 with ties scipy runs a permutation test per call (slow): fewer there
    for n, effect, sims in ((10, 3.0, 5), (25, 1.0, 60)):
        p, up = _loop(doms, effect, n, sims, np.random.default_rng(4))
        for alpha in (0.01, 0.05, 0.2, 0.35, 0.5, 0.8):
            res = domain_power(doms, effect=effect, n=n, alpha=alpha, n_simulations=sims, rng=4)
            # power: rejections in the effect's direction
            assert res.power[0, 0] == np.sum((p < alpha) & up) / sims, (n, alpha)
        if n > 13:  # the vectorised scipy reference of the next test: the loop's p-values
            np.testing.assert_allclose(_vectorised(doms, effect, n, sims,
                                                   np.random.default_rng(4))[0], p, rtol=1e-12)


def test_independent_monte_carlo_within_3_points():
    doms = _domains(1)
    res = domain_power(doms, effect=1.5, n=30, n_simulations=2000, rng=0)
    p, up = _vectorised(doms, 1.5, 30, 4000, np.random.default_rng(99), symmetric_independent)
    ref = np.sum((p < 0.05) & up) / 4000
    assert abs(res.power[0, 0] - ref) < 0.03, (res.power[0, 0], ref)


def test_shape_and_refusals():
    res = domain_power(_domains(2), effect=[1.0, 3.0], n=[20, 60, 180], n_simulations=300,
                       rng=1)
    assert np.all(np.diff(res.power, axis=1) >= -0.02) and np.all(res.power[1] >= res.power[0])
    assert np.all(np.diff(res.mde) < 0) and res.unit == "items per domain"
    with pytest.raises(StatsInputError, match="domains must map"):
        domain_power({}, effect=1, n=10)
    with pytest.raises(StatsInputError, match="must be a pair"):
        domain_power({"a": [1, 2, 3]}, effect=1, n=10)
