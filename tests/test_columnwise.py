"""The column-wise Pearson/Spearman every stats module uses (stats._core.columnwise).

Golden values: scipy.stats.pearsonr / spearmanr (r, rho and their two-sided p-values) and
numpy.corrcoef, column by column; a hand-computed 4-item case."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats as st

from stats._core.columnwise import (
    constant_columns,
    correlation_pvalue,
    pearson_columns,
    pearson_matrix,
    spearman_columns,
)


@pytest.fixture(scope="module")
def table():
    rng = np.random.default_rng(8)
    y = rng.normal(0, 1, 30)
    x = np.column_stack([y + rng.normal(0, s, 30) for s in (0.3, 1.0, 3.0)])
    x = np.column_stack([x, np.round(x[:, 0], 1), -2 * x[:, 1]])  # ties; a negative r
    return x, y


def test_pearson_and_spearman_match_scipy_column_by_column(table):
    x, y = table
    r, rho = pearson_columns(x, y), spearman_columns(x, y)
    for j in range(x.shape[1]):
        pr, sr = st.pearsonr(x[:, j], y), st.spearmanr(x[:, j], y)
        assert r[j] == pytest.approx(pr.statistic, abs=1e-14)
        assert rho[j] == pytest.approx(sr.statistic, abs=1e-14)
        assert correlation_pvalue(r[j], len(y)) == pytest.approx(pr.pvalue, rel=1e-9)
        assert correlation_pvalue(rho[j], len(y)) == pytest.approx(sr.pvalue, rel=1e-9)


def test_matrix_matches_numpy_corrcoef(table):
    x, _ = table
    np.testing.assert_allclose(pearson_matrix(x), np.corrcoef(x, rowvar=False), atol=1e-14)


def test_hand_computed_case():
    # x = 1, 2, 3, 4 and y = 1, 3, 2, 4: centred (-1.5, -.5, .5, 1.5) and (-1.5, .5, -.5, 1.5),
    # sum of products 2.25 - .25 - .25 + 2.25 = 4, sums of squares 5 and 5: r = 4/5
    x = np.array([[1.0], [2.0], [3.0], [4.0]])
    y = np.array([1.0, 3.0, 2.0, 4.0])
    assert pearson_columns(x, y)[0] == pytest.approx(0.8, abs=1e-15)
    assert spearman_columns(x, y)[0] == pytest.approx(0.8, abs=1e-15)  # ranks = values
    # t = .8 sqrt(2 / .36) = 1.8856; two-sided p on 2 df = 1 - t / sqrt(2 + t^2) = 0.2
    assert correlation_pvalue(0.8, 4) == pytest.approx(0.2, abs=1e-12)
    assert correlation_pvalue(np.array([1.0, -1.0, np.nan]), 4).tolist()[:2] == [0.0, 0.0]


def test_constant_columns_have_no_correlation():
    x = np.column_stack([np.full(5, 0.1), np.arange(5.0), np.full(5, 3.0)])
    y = np.array([2.0, 1, 4, 3, 5])
    assert constant_columns(x).tolist() == [True, False, True]
    assert constant_columns(y).item() is False
    r = pearson_columns(x, y)
    assert np.isnan(r[0]) and np.isnan(r[2]) and not np.isnan(r[1])
    assert np.isnan(pearson_columns(x, np.ones(5))).all()
    m = pearson_matrix(x)
    assert np.isnan(m[0]).all() and np.isnan(m[:, 2]).all() and m[1, 1] == pytest.approx(1.0)


def test_affine_copies_get_the_same_r():
    """Columns equal up to an exact affine map are reduced in the same order, so they tie
    exactly (the Williams grid leaves tied metrics untested)."""
    rng = np.random.default_rng(3)
    a = rng.normal(size=40)
    x = np.column_stack([a, 2 * a + 1, rng.normal(size=40)])
    y = a + rng.normal(size=40)
    r = pearson_columns(x, y)
    assert r[0] == r[1]
