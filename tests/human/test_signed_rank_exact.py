"""The signed-rank p of rows with zeros or tied magnitudes (n <= 13) as one enumeration of the
2**n sign patterns equals scipy's ``wilcoxon`` (its permutation test, golden values computed here
by scipy itself, one call per row) exactly, on integer, skewed and tied data."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats as st

from stats.human.paired import signed_rank_rows


def _rows(rng, kind: str, m: int, n: int) -> np.ndarray:
    if kind == "integer":
        return rng.integers(-3, 4, (m, n)).astype(float)
    if kind == "skewed":
        return np.round(rng.gamma(1.2, 2.0, (m, n)) - 1.5) / 3
    return rng.choice([0.0, 0.5, -0.5, 1.0, 25.0, -25.0], (m, n))  # ESA-like steps


@pytest.mark.parametrize("kind", ["integer", "skewed", "esa-steps"])
def test_equals_scipy_wilcoxon_row_by_row(kind):
    rng = np.random.default_rng({"integer": 1, "skewed": 2, "esa-steps": 3}[kind])
    for n in (2, 3, 5, 8, 11):
        d = _rows(rng, kind, 4, n)
        d[0, : n // 2] = 0.0  # zeros in every size
        got = signed_rank_rows(d)
        for row, p in zip(d, got, strict=True):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                want = st.wilcoxon(row).pvalue  # scipy 1.17: permutation over 2**n signs
            assert p == want or (np.isnan(p) and np.isnan(want)), (row, p, want)


def test_thirteen_items_with_ties_at_scipy_s_switch():
    # n = 13 is the largest size scipy enumerates; 14 goes to its normal approximation
    rng = np.random.default_rng(7)
    d = rng.integers(-2, 3, (2, 13)).astype(float)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = [st.wilcoxon(row).pvalue for row in d]
    assert list(signed_rank_rows(d)) == want


def test_a_single_shared_item_that_is_equal_gives_p_one():
    # scipy refuses one observation ("two or more"); one identical item is no evidence
    assert signed_rank_rows(np.array([[0.0], [np.nan]]))[0] == 1.0


@pytest.mark.parametrize("values", [(-2.0, -1.0, 0.0, 1.0, 2.0), (-25.0, -0.5, 0.0, 0.5, 25.0)],
                         ids=["integer", "esa-steps"])
def test_rejects_at_most_alpha_at_its_null(values):
    # differences symmetric about 0 with zeros and ties (the test's null): the exact test's
    # rejection rate is at most alpha within Monte Carlo error (exact tests with ties are
    # conservative), and not far below it
    rng = np.random.default_rng(11)
    rows, alpha = 4000, 0.05
    d = rng.choice(values, (rows, 12))
    rate = float((signed_rank_rows(d) <= alpha).mean())
    se = np.sqrt(alpha * (1 - alpha) / rows)
    assert 0.02 < rate <= alpha + 3 * se, rate
