"""The one rule for standardising and spreads: :func:`stats.zscores` and
:func:`stats.standard_deviation` agree with scipy/numpy on ordinary input, and constant input
has no z-scores (NaN with a warning naming it), never 0. Every figure that standardises uses
them: a constant metric's standardised panel and a constant QE system's standardised scatter
are empty, not a line at 0."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import scipy.stats as sps

from dashboard.figures import metrics as metrics_figures
from dashboard.figures import qe as qe_figures
from stats import DegenerateInputWarning, standard_deviation, zscores


def test_zscores_equal_scipy_on_skewed_tied_and_integer_data():
    rng = np.random.default_rng(4)
    for x in (rng.exponential(size=40), rng.integers(0, 4, size=25).astype(float),
              np.r_[np.zeros(10), 1.0, 50.0]):
        # golden: scipy.stats.zscore with ddof=1 (sample standard deviation)
        np.testing.assert_allclose(zscores(x), sps.zscore(x, ddof=1), rtol=1e-12, atol=1e-13)
        np.testing.assert_allclose(zscores(x, ddof=0), sps.zscore(x), rtol=1e-12, atol=1e-13)
        # golden: numpy.std
        assert standard_deviation(x) == pytest.approx(np.std(x, ddof=1), rel=1e-13)
        assert standard_deviation(x, ddof=0) == pytest.approx(np.std(x), rel=1e-13)


def test_frames_and_series_keep_their_labels_and_skip_nan():
    frame = pd.DataFrame({"a": [1.0, 2.0, np.nan, 4.0], "b": [3.0, 1.0, 2.0, 0.0]}, index=list("wxyz"))
    z = zscores(frame)
    assert list(z.columns) == ["a", "b"] and list(z.index) == list("wxyz")
    assert np.isnan(z.at["y", "a"])
    np.testing.assert_allclose(z["a"].dropna(), sps.zscore([1.0, 2.0, 4.0], ddof=1))
    sd = standard_deviation(frame)
    assert sd["a"] == pytest.approx(np.std([1.0, 2.0, 4.0], ddof=1))
    s = zscores(frame["b"])
    assert isinstance(s, pd.Series) and s.name == "b" and list(s.index) == list("wxyz")


@pytest.mark.parametrize("value", [0.5, 0.1, 1e6])
def test_constant_input_has_no_zscores_and_a_warning_naming_it(value):
    with pytest.warns(DegenerateInputWarning, match=r"CONST: constant .* undefined \(NaN\)"):
        z = zscores(pd.Series(np.full(7, value), name="CONST"))
    assert z.isna().all()
    assert standard_deviation(np.full(7, value)) == 0.0  # the spread of constant values is 0
    with pytest.warns(DegenerateInputWarning, match="fewer than 2 values"):
        assert np.isnan(standard_deviation([3.0], name="one"))
    with pytest.warns(DegenerateInputWarning, match="fewer than 2 values"):
        assert np.isnan(zscores([3.0])).all()


def test_constant_column_is_named_among_others():
    frame = pd.DataFrame({"ok": [1.0, 2.0, 3.0], "flat": [2.0, 2.0, 2.0]})
    with pytest.warns(DegenerateInputWarning, match="flat") as caught:
        z = zscores(frame)
    assert "ok" not in str(caught[0].message)
    assert z["flat"].isna().all() and z["ok"].notna().all()


def test_metric_scatter_of_a_constant_metric_is_undefined_not_zero():
    human = pd.Series([1.0, 2.0, 3.0, 4.0], index=list("ABCD"))
    metrics = pd.DataFrame({"BLEU": [1.0, 3.0, 2.0, 4.0], "CONST": [0.5] * 4}, index=list("ABCD"))
    with pytest.warns(DegenerateInputWarning, match="CONST"):
        fig = metrics_figures.metric_scatter(
            human, metrics, ["BLEU", "CONST"], pearson={}, spearman={}, zscore=True
        )
    bleu, const = fig.data
    np.testing.assert_allclose(np.asarray(bleu.y, float), sps.zscore(metrics["BLEU"], ddof=1))
    assert np.isnan(np.asarray(const.y, dtype=float)).all()  # was 0: a flat line of z = 0


def test_qe_standardised_scatter_of_a_constant_system_is_undefined():
    rng = np.random.default_rng(0)
    gold = pd.Series(rng.normal(size=20))
    preds = pd.DataFrame({"A": gold + rng.normal(size=20), "CONST": 0.5})
    with pytest.warns(DegenerateInputWarning, match="CONST"):
        fig = qe_figures.qe_standardised_scatter(
            gold, preds, ["A", "CONST"], pearson={}, mae={}, standardise=True
        )
    points = [t for t in fig.data if t.name in ("A", "CONST")]
    np.testing.assert_allclose(np.asarray(points[0].x, float), sps.zscore(gold, ddof=1))
    assert np.isnan(np.asarray(points[1].y, dtype=float)).all()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a constant system's SD is 0, defined: no warning
        dist = qe_figures.qe_distributions(gold, preds, ["CONST"])
    assert "SD = 0" in dist.layout.annotations[1].text


def test_the_dashboard_computes_no_statistic_of_its_own():
    """z-scores, correlations and spreads come from :mod:`stats` (one rule for constant
    input), never from pandas/numpy calls in the dashboard's modules."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "dashboard"
    pattern = re.compile(r"\.corr\(|\.corrwith\(|np\.std\(|\.std\(|np\.corrcoef|def _z(score)?\(")
    found = [
        f"{path.relative_to(root)}:{k}: {line.strip()}"
        for path in sorted(root.rglob("*.py"))
        for k, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert not found, found


@pytest.mark.parametrize("method", ["pearson", "spearman", "kendall"])
def test_metric_correlation_matrices_equal_scipy_pair_by_pair(method):
    """The heatmaps' Spearman and Kendall matrices are stats functions too (one matrix
    product over the pairs), equal to scipy's pair-by-pair values on tied integer data;
    a constant metric's row and column are NaN, with a warning naming it."""
    from stats import metric_correlations

    rng = np.random.default_rng(9)
    frame = pd.DataFrame(rng.integers(0, 5, size=(30, 4)).astype(float), columns=list("abcd"))
    frame["d"] = frame["a"] * 2 + rng.exponential(size=30)  # skewed, correlated
    frame["FLAT"] = 3.0
    with pytest.warns(DegenerateInputWarning, match="FLAT"):
        got = metric_correlations(frame, method=method)
    golden = {"pearson": sps.pearsonr, "spearman": sps.spearmanr, "kendall": sps.kendalltau}
    for a in "abcd":
        for b in "abcd":
            want = 1.0 if a == b else golden[method](frame[a], frame[b]).statistic
            assert got.at[a, b] == pytest.approx(want, abs=1e-12), (a, b)
    assert got["FLAT"].isna().all() and got.loc["FLAT"].isna().all()


def test_kendall_matrix_in_blocks_equals_one_block():
    from stats._core.columnwise import kendall_matrix

    x = np.random.default_rng(3).normal(size=(40, 5))
    np.testing.assert_allclose(kendall_matrix(x, max_cells=7), kendall_matrix(x), atol=1e-14)
