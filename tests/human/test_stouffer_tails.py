"""Stouffer's combination keeps small p-values: computed on the survival scale."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats as sps

from stats.human.paired import stouffer

# golden values from mpmath at 50 digits (an independent formulation: z_d solved from
# log(erfc(z / sqrt 2) / 2) = log(p_d) with mpmath.findroot, p = erfc(sum z_d / sqrt(D) / sqrt 2) / 2)
MPMATH = [
    ([1e-300, 0.5], 1.4659538635440488428e-151),
    ([1e-20, 1e-30, 0.9], 1.5116150156046354032e-29),
    ([1e-8, 1e-9], 1.1117218882895856806e-16),
]


@pytest.mark.parametrize(("pvalues", "expected"), MPMATH)
def test_small_pvalues_survive_golden_mpmath(pvalues, expected):
    got = float(stouffer(np.array(pvalues)))
    assert got > 0
    assert got == pytest.approx(expected, rel=1e-9)


def test_matches_scipy_combine_pvalues_where_it_is_accurate():
    rng = np.random.default_rng(32)
    for _ in range(50):
        p = 10.0 ** rng.uniform(-6, 0, size=int(rng.integers(1, 6)))
        ours = float(stouffer(p))
        ref = sps.combine_pvalues(p, method="stouffer").pvalue
        assert ours == pytest.approx(ref, rel=1e-9, abs=1e-15)


def test_rows_with_nan_and_tiny_values():
    p = np.array([[1e-300, np.nan, 0.5], [np.nan, np.nan, np.nan], [1e-17, 1e-17, np.nan]])
    got = stouffer(p, axis=1)
    assert got[0] == pytest.approx(MPMATH[0][1], rel=1e-9)
    assert np.isnan(got[1])
    assert 0 < got[2] < 1e-17  # the old 1 - cdf(...) gave 0 here
