"""Tests of stats.correlation. Golden values: scipy.stats.pearsonr / spearmanr / kendalltau
called column by column (independent of the vectorised code), and leave-one-out r recomputed
by deleting each row and calling numpy.corrcoef."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as ss

from stats import DegenerateInputWarning, StatsInputError
from stats.correlation import (
    CorrelationResult,
    correlate_with_human,
    leave_one_out,
    metric_correlations,
)


def _data(seed=0, n=13):
    rng = np.random.default_rng(seed)
    h = rng.normal(size=n)
    h[0] = -4.0  # a very weak system (Graham & Baldwin 2014, Figure 1)
    scores = pd.DataFrame(
        {
            "BLEU": 25 + 3 * h + rng.normal(size=n),
            "TER": 55 - 2 * h + rng.normal(size=n),
            "AMBER": np.tanh(h) + rng.normal(scale=0.2, size=n),
            "ties": np.round(h + rng.normal(scale=0.5, size=n)),
        },
        index=pd.Index([f"s{i}" for i in range(n)], name="system"),
    )
    return scores, pd.Series(h, index=scores.index)


def test_matches_scipy_column_by_column():
    scores, human = _data()
    res = correlate_with_human(scores, human)
    assert isinstance(res, CorrelationResult)
    for col in scores:
        p = ss.pearsonr(scores[col], human)  # scipy, per column
        s = ss.spearmanr(scores[col], human)
        k = ss.kendalltau(scores[col], human)
        assert res.pearson[col] == pytest.approx(p.statistic, rel=1e-12)
        assert res.pearson_pvalue[col] == pytest.approx(p.pvalue, rel=1e-8)
        assert res.spearman[col] == pytest.approx(s.statistic, rel=1e-12)
        assert res.spearman_pvalue[col] == pytest.approx(s.pvalue, rel=1e-8)
        assert res.kendall[col] == pytest.approx(k.statistic, rel=1e-12)
        assert res.kendall_pvalue[col] == pytest.approx(k.pvalue, rel=1e-8)
    assert res.n == len(human)


def test_order_by_absolute_pearson_and_signs():
    scores, human = _data(1)
    res = correlate_with_human(scores, human)
    absr = res.pearson.abs().to_numpy()
    assert list(res.order) == list(res.pearson.index)
    assert np.all(np.diff(absr) <= 0)
    assert res.sign["TER"] == -1 and res.pearson["TER"] < 0
    assert res.sign["BLEU"] == 1
    frame = res.to_frame()
    assert list(frame.index) == list(res.order)
    assert frame["abs_pearson"].is_monotonic_decreasing


def test_constant_metric_is_nan_with_warning():
    scores, human = _data(2)
    scores = scores.assign(FLAT=3.0)
    with pytest.warns(DegenerateInputWarning, match="FLAT"):
        res = correlate_with_human(scores, human)
    assert np.isnan(res.pearson["FLAT"]) and np.isnan(res.kendall["FLAT"])
    assert res.sign["FLAT"] == 0 and res.order[-1] == "FLAT"


def test_bad_input():
    scores, human = _data()
    with pytest.raises(StatsInputError, match="one score per row"):
        correlate_with_human(scores, human.iloc[:-1].to_numpy())
    with pytest.raises(StatsInputError, match="all equal"):
        correlate_with_human(scores, np.ones(len(scores)))


def test_human_series_is_aligned_by_index():
    scores, human = _data(3)
    shuffled = human.sample(frac=1.0, random_state=0)
    a = correlate_with_human(scores, human)
    b = correlate_with_human(scores, shuffled)
    pd.testing.assert_series_equal(a.pearson, b.pearson)


def test_leave_one_out_matches_deleting_rows():
    scores, human = _data(4)
    res = leave_one_out(scores, human)
    for i, system in enumerate(scores.index):
        keep = np.arange(len(scores)) != i
        for col in scores:
            r = np.corrcoef(scores[col].to_numpy()[keep], human.to_numpy()[keep])[0, 1]
            assert res.r_without.at[system, col] == pytest.approx(r, rel=1e-9, abs=1e-12)
    np.testing.assert_allclose(res.change, res.r_without - res.r, atol=1e-12)
    # the very weak system s0 is the most influential point for the linear metrics
    assert res.most_influential["BLEU"] == "s0"
    for col in scores:
        best = (res.r_without[col].abs() - abs(res.r[col])).abs().idxmax()
        assert res.most_influential[col] == best
        assert res.max_change[col] == pytest.approx(res.change.at[best, col])


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    scale=st.floats(1e-3, 1e3),
    shift=st.floats(-1e4, 1e4),
)
def test_leave_one_out_is_affine_invariant(seed, scale, shift):
    scores, human = _data(seed)
    a = leave_one_out(scores, human)
    b = leave_one_out(scores * scale + shift, human)
    np.testing.assert_allclose(a.r_without, b.r_without, rtol=1e-6, atol=1e-8)


def test_metric_correlations_sign_aligned():
    scores, human = _data(5)
    m = metric_correlations(scores, human)
    assert list(m.index) == list(correlate_with_human(scores, human).order)
    assert m.at["TER", "BLEU"] > 0  # aligned
    raw = metric_correlations(scores)
    assert raw.at["TER", "BLEU"] == pytest.approx(-m.at["TER", "BLEU"])
    assert raw.at["TER", "BLEU"] == pytest.approx(np.corrcoef(scores["TER"], scores["BLEU"])[0, 1])
    np.testing.assert_allclose(np.diag(m), 1.0)


def test_human_series_with_other_labels_is_an_error_not_positional():
    """Regression: a human Series whose labels differ from the score rows (one system
    misnamed) used to be taken by position, pairing system 'a''s metric score with system
    'e''s human score: r came out -1.0 where the aligned data give +1.0 (numpy.corrcoef)."""
    scores = pd.DataFrame({"BLEU": [1.0, 2, 3, 4, 5]}, index=list("abcde"))
    aligned = pd.Series([5.0, 4, 3, 2, 1], index=list("edcba"))
    expected = np.corrcoef(scores["BLEU"], aligned.reindex(scores.index))[0, 1]  # numpy: +1
    assert correlate_with_human(scores, aligned).pearson["BLEU"] == pytest.approx(expected)
    misnamed = pd.Series([5.0, 4, 3, 2, 1], index=list("edcbx"))
    with pytest.raises(StatsInputError, match="no human score for a.*not in scores: x"):
        correlate_with_human(scores, misnamed)
    # unlabelled data (default 0..n-1 index, or a plain array) is still used by position
    positional = pd.Series([1.0, 2, 3, 4, 5])
    assert correlate_with_human(scores, positional).pearson["BLEU"] == pytest.approx(1.0)
