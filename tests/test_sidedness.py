"""Type I error of each reading of a significance grid, by seeded simulation under the null.

- two-sided p read at alpha: rejects at about alpha;
- the papers' post-hoc one-sided reading (one-sided p in the row of whichever item scored
  better): rejects at about 2 alpha, as stats.pairwise.grids documents;
- Holm over the grid: family-wise error at or below alpha.
"""

import numpy as np
import pandas as pd
import pytest

from stats.metaeval.williams import williams_all_pairs, williams_test
from stats.mt.randomized import pairwise_significance
from stats.mt.sufficient import statistics_from_scores
from stats.pairwise.grids import SIDEDNESS_NOTES
from stats.pairwise.multiple import adjust_matrix, adjust_pvalues

ALPHA = 0.05
K, N = 5, 20  # metrics per grid, systems


def _null_scores(rng, sims):
    """``sims`` draws of N systems: human scores and K metrics all correlating 0.8 with them."""
    h = rng.standard_normal((sims, N))
    m = 0.8 * h[:, :, None] + 0.6 * rng.standard_normal((sims, N, K))
    return h, m


def _corr(a, b):
    a = a - a.mean(axis=1, keepdims=True)
    b = b - b.mean(axis=1, keepdims=True)
    return (a * b).sum(1) / np.sqrt((a**2).sum(1) * (b**2).sum(1))


def _grid_pvalues(h, m, alternative):
    """The p-values of every grid, vectorised over the draws: (sims, K(K-1)/2), each pair's
    test in the direction of the higher r as williams_all_pairs places it."""
    r = np.stack([_corr(m[:, :, i], h) for i in range(K)], axis=1)
    iu, ju = np.triu_indices(K, 1)
    r12 = np.stack([_corr(m[:, :, i], m[:, :, j]) for i, j in zip(iu, ju, strict=True)], axis=1)
    hi, lo = np.maximum(r[:, iu], r[:, ju]), np.minimum(r[:, iu], r[:, ju])
    res = williams_test(r_human_a=hi, r_human_b=lo, r_a_b=r12, n=N, alternative=alternative)
    return res.pvalue


def test_vectorised_grid_is_williams_all_pairs():
    h, m = _null_scores(np.random.default_rng(5), 30)
    for alternative in ("greater", "two-sided"):
        p = _grid_pvalues(h, m, alternative)
        for s in range(30):
            res = williams_all_pairs(pd.DataFrame(m[s]), h[s], alternative=alternative)
            grid = res.pvalue.to_numpy()
            np.testing.assert_allclose(np.sort(grid[~np.isnan(grid)]), np.sort(p[s]), rtol=1e-9)


@pytest.mark.slow
def test_williams_type_one_error_of_each_reading():
    h, m = _null_scores(np.random.default_rng(20261124), 20000)
    two = _grid_pvalues(h, m, "two-sided")
    post_hoc = _grid_pvalues(h, m, "greater")
    rate_two = np.mean(two < ALPHA)
    rate_post_hoc = np.mean(post_hoc < ALPHA)
    assert 0.035 <= rate_two <= 0.065
    assert 1.7 * ALPHA <= rate_post_hoc <= 2.3 * ALPHA  # the documented 2 alpha
    # post-hoc one-sided p is exactly half the two-sided one
    np.testing.assert_allclose(post_hoc, two / 2, rtol=1e-9)
    holm = np.apply_along_axis(adjust_pvalues, 1, two, method="holm")
    fwe = np.mean((holm < ALPHA).any(axis=1))
    unadjusted = np.mean((two < ALPHA).any(axis=1))
    assert fwe <= ALPHA + 0.005  # MC standard error ~0.0015
    assert unadjusted > 2 * ALPHA  # what the correction is for


@pytest.mark.slow
def test_randomized_grid_type_one_error_of_each_reading():
    # approximate randomization on null segment scores (all systems equal), 6 systems
    rng = np.random.default_rng(11)
    rates = {"greater": [], "two-sided": []}
    fwe = []
    for s in range(300):
        scores = pd.DataFrame(rng.standard_normal((40, 6)), columns=list("uvwxyz"))
        data = statistics_from_scores(scores)
        for alternative in rates:
            res = pairwise_significance(
                data, test="approximate-randomization", n_resamples=399,
                alternative=alternative, rng=s,
            )
            p = res.pvalue.to_numpy()
            rates[alternative].append(np.mean(p[~np.isnan(p)] < ALPHA))
            if alternative == "two-sided":
                fwe.append(bool((adjust_matrix(res.pvalue, method="holm") < ALPHA).any().any()))
    assert 0.035 <= np.mean(rates["two-sided"]) <= 0.065
    assert 1.5 * ALPHA <= np.mean(rates["greater"]) <= 2.5 * ALPHA
    assert np.mean(fwe) <= ALPHA + 0.025  # 300 grids: standard error ~0.013


@pytest.mark.parametrize("alternative", ["greater", "two-sided"])
def test_notes_say_which_test(alternative):
    note = SIDEDNESS_NOTES[alternative]
    assert ("2 x alpha" in note) == (alternative == "greater")
