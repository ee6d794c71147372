"""Tests of stats.metaeval.correlation. Golden values: R's cor.test (Pearson, Spearman, Kendall with
their p-values; recorded, and run live when Rscript is present), scipy.stats.spearmanr called
column by column, and leave-one-out r recomputed by deleting each row and calling
numpy.corrcoef."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats as ss

from stats import DegenerateInputWarning, StatsInputError
from stats.metaeval.correlation import (
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


# R 4.2.2 running R_COR_SCRIPT on _data() (written out with repr floats), %.17g:
# metric -> (Pearson r, p, Spearman rho, p, Kendall tau, p), two-sided. The Spearman p is R's
# t approximation (exact = FALSE); Kendall's is exact for the columns without ties and the
# tie-corrected normal approximation for "ties", as R chooses by default.
R_COR = {
    "BLEU": (
        0.98524816913862645,
        8.7795490759910176e-10,
        0.93956043956043955,
        1.8782484299388823e-06,
        0.82051282051282048,
        1.3465829437953047e-05,
    ),
    "TER": (
        -0.98018410839595294,
        4.4073670943960877e-09,
        -0.97252747252747251,
        2.6191330438273298e-08,
        -0.89743589743589747,
        5.508252036029814e-07,
    ),
    "AMBER": (
        0.83476222433382496,
        0.00038502866186815077,
        0.92307692307692313,
        6.851685949643339e-06,
        0.76923076923076927,
        7.0304888013295042e-05,
    ),
    "ties": (
        0.95280847722965545,
        4.9422437003249225e-07,
        0.91724923213167853,
        1.0121865079574989e-05,
        0.84023650982212761,
        0.00020481116363033509,
    ),
}
R_COR_SCRIPT = r"""
d <- read.delim(commandArgs(trailingOnly = TRUE)[1])
for (m in c("BLEU", "TER", "AMBER", "ties")) {
  p <- cor.test(d[[m]], d$human)
  s <- suppressWarnings(cor.test(d[[m]], d$human, method = "spearman", exact = FALSE))
  k <- suppressWarnings(cor.test(d[[m]], d$human, method = "kendall"))
  cat(sprintf("%s\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\t%.17g\n", m, p$estimate, p$p.value,
              s$estimate, s$p.value, k$estimate, k$p.value))
}
"""


def _check_against_r(res, values):
    for col, (r, p_r, rho, p_rho, tau, p_tau) in values.items():
        assert res.pearson[col] == pytest.approx(r, rel=1e-12)
        assert res.pearson_pvalue[col] == pytest.approx(p_r, rel=1e-8)
        assert res.spearman[col] == pytest.approx(rho, rel=1e-12)
        assert res.spearman_pvalue[col] == pytest.approx(p_rho, rel=1e-8)
        assert res.kendall[col] == pytest.approx(tau, rel=1e-12)
        assert res.kendall_pvalue[col] == pytest.approx(p_tau, rel=1e-8)


def test_matches_r_and_scipy_column_by_column():
    scores, human = _data()
    res = correlate_with_human(scores, human)
    assert isinstance(res, CorrelationResult)
    assert set(R_COR) == set(scores.columns)
    _check_against_r(res, R_COR)
    for col in scores:  # Spearman once more through scipy's own spearmanr, per column
        s = ss.spearmanr(scores[col], human)
        assert res.spearman[col] == pytest.approx(s.statistic, rel=1e-12)
        assert res.spearman_pvalue[col] == pytest.approx(s.pvalue, rel=1e-8)
    assert res.n == len(human)


def test_matches_live_r(tmp_path):
    """The same values computed live by R's cor.test (skips without Rscript)."""
    from tests._data import run_rscript

    scores, human = _data()
    table = scores.assign(human=human)
    path = tmp_path / "data.tsv"
    path.write_text(
        "\t".join(table.columns)
        + "\n"
        + "".join("\t".join(repr(float(v)) for v in row) + "\n" for row in table.to_numpy())
    )
    out = run_rscript(R_COR_SCRIPT, path)
    live = {f[0]: tuple(map(float, f[1:])) for f in map(str.split, out.splitlines())}
    _check_against_r(correlate_with_human(scores, human), live)
    for col, values in R_COR.items():  # the recorded constants are still what R prints
        assert live[col] == pytest.approx(values, rel=1e-12)


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
    misnamed) is refused, not taken by position, which would pair system 'a''s metric score
    with system 'e''s human score: r -1.0 where the aligned data give +1.0 (numpy.corrcoef)."""
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
