"""Accuracy of randomized tests against the human gold standard.

Golden values:
* the paper's Tables 1-2 (Graham, Mathur & Baldwin 2014): correct conclusions -> accuracy and
  exact 95% CI, rounded to 0.1%;
* R 4.x ``binom.test(x, n)$conf.int`` and ``chisq.test(cbind(correct, n - correct))``
  (recorded constants below; run live when Rscript is present);
* the Clopper-Pearson limits' defining property (the binomial tail beyond the observed count
  is alpha/2 at each limit, ``scipy.stats.binom``), and hand-made gold/test matrices whose
  conclusions, intervals and chi-square are worked out by hand or in R.
"""

from __future__ import annotations

import shutil
import subprocess
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats as st

from stats import DegenerateInputWarning, StatsInputError
from stats.human.accuracy import (
    OUTCOMES,
    AccuracyResult,
    accuracy_from_pvalues,
    accuracy_interval,
    compare_accuracies,
    significance_accuracy,
)
from stats.human.gold import HumanGoldResult, combine_criteria, human_gold_standard
from tests._data import pvalue_matrix

# (correct, total, accuracy %, CI low %, CI high %) as printed in the paper's Tables 1-2
PAPER = [
    (53, 66, 80.3, 68.7, 89.1),
    (54, 66, 81.8, 70.4, 90.2),
    (52, 66, 78.8, 67.0, 87.9),
    (51, 66, 77.3, 65.3, 86.7),
    (48, 66, 72.7, 60.4, 83.0),
    (50, 66, 75.8, 63.6, 85.5),
    (34, 55, 61.8, 47.7, 74.6),
    (32, 55, 58.2, 44.1, 71.3),
    (31, 55, 56.4, 42.3, 69.7),
    (33, 55, 60.0, 45.9, 73.0),
    (30, 55, 54.5, 40.6, 68.0),
]

# R: binom.test(x, n)$conf.int, printed with %.17g
R_BINOM = {
    (53, 66): (0.68676115415190597, 0.89073973438228249),
    (34, 55): (0.47726225496050212, 0.74590835167745473),
    (54, 66): (0.70393454417006973, 0.90236479798415159),
    (48, 66): (0.60364279575629443, 0.82967338382048073),
    (50, 66): (0.63638880766228367, 0.85463167350185409),
    (30, 55): (0.40554489115733899, 0.68029932000483351),
}
# R: chisq.test(cbind(correct, n - correct)) -> statistic, p-value, df
R_CHISQ = {
    # Table 1, alpha 0.05, BLEU NIST METEOR TER (paper: "not significant")
    ((53, 54, 52, 52), 66): (0.2596798712331217, 0.9674242110438761, 3),
    # Table 2, alpha 0.05
    ((34, 32, 31, 32), 55): (0.35607803049663517, 0.94915852398868261, 3),
    # two metrics: Yates' continuity correction
    ((53, 40), 66): (5.2406947890818856, 0.022064460316441808, 1),
}


@pytest.mark.parametrize("correct, total, acc, low, high", PAPER)
def test_paper_accuracy_and_exact_ci(correct, total, acc, low, high):
    a, lo, hi = accuracy_interval(correct, total)
    assert round(100 * a, 1) == acc
    assert round(100 * lo, 1) == low
    assert round(100 * hi, 1) == high


@pytest.mark.parametrize("correct, total", list(R_BINOM))
def test_clopper_pearson_matches_r_and_beta_quantiles(correct, total):
    _, lo, hi = accuracy_interval(correct, total)
    assert (lo, hi) == pytest.approx(R_BINOM[(correct, total)], rel=1e-9)
    # Clopper & Pearson (1934) define the limits by the binomial tails: at the lower limit
    # P(X >= correct) = 0.025, at the upper limit P(X <= correct) = 0.025
    assert st.binom.sf(correct - 1, total, lo) == pytest.approx(0.025, rel=1e-9)
    assert st.binom.cdf(correct, total, hi) == pytest.approx(0.025, rel=1e-9)


def test_accuracy_interval_edges_and_validation():
    a, lo, hi = accuracy_interval(10, 10)
    assert a == 1 and hi == 1 and lo == pytest.approx(0.025 ** (1 / 10))
    a, lo, hi = accuracy_interval(0, 10, confidence_level=0.9)
    assert a == 0 and lo == 0 and hi == pytest.approx(1 - 0.05 ** (1 / 10))
    with pytest.raises(StatsInputError, match="correct"):
        accuracy_interval(11, 10)
    with pytest.raises(StatsInputError, match="total"):
        accuracy_interval(0, 0)
    with pytest.raises(StatsInputError, match="confidence_level"):
        accuracy_interval(1, 2, confidence_level=95)


@pytest.mark.parametrize("counts, total", list(R_CHISQ))
def test_chi_square_matches_r(counts, total):
    stat, p, dof = compare_accuracies({f"m{i}": c for i, c in enumerate(counts)}, total)
    r_stat, r_p, r_dof = R_CHISQ[(counts, total)]
    assert stat == pytest.approx(r_stat, rel=1e-10)
    assert p == pytest.approx(r_p, rel=1e-10)
    assert dof == r_dof


def test_chi_square_by_hand_without_correction():
    # 3 metrics (dof 2, no Yates): observed correct 8, 5, 2 of 10 -> expected 5 / 5 each
    # chi2 = (9 + 0 + 9)/5 + (9 + 0 + 9)/5 = 7.2; p = exp(-7.2 / 2) for 2 df
    stat, p, dof = compare_accuracies({"a": 8, "b": 5, "c": 2}, 10)
    assert stat == pytest.approx(7.2) and dof == 2
    assert p == pytest.approx(np.exp(-3.6))


def test_chi_square_degenerate_and_invalid():
    with pytest.warns(DegenerateInputWarning, match="undefined"):
        stat, p, _ = compare_accuracies({"a": 10, "b": 10}, 10)
    assert np.isnan(stat) and np.isnan(p)
    with pytest.raises(StatsInputError, match="at least two"):
        compare_accuracies({"a": 3}, 10)
    with pytest.raises(StatsInputError, match="must lie"):
        compare_accuracies({"a": 3, "b": 11}, 10)


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="Rscript not installed")
def test_recorded_r_constants_are_what_r_prints():
    code = (
        "for (x in list(c(53,66),c(34,55),c(30,55),c(3,6))) { ci <- binom.test(x[1], x[2])$conf.int; "
        'cat(sprintf("%.17g %.17g\\n", ci[1], ci[2])) }; '
        "t <- suppressWarnings(chisq.test(cbind(c(53,54,52,52), 66 - c(53,54,52,52)))); "
        'cat(sprintf("%.17g %.17g\\n", t$statistic, t$p.value)); '
        "t <- suppressWarnings(chisq.test(cbind(c(3, 6), c(3, 0)))); "
        'cat(sprintf("%.17g %.17g\\n", t$statistic, t$p.value))'
    )
    out = subprocess.run(
        ["Rscript", "-e", code], capture_output=True, text=True, check=True, timeout=120
    )
    values = [tuple(map(float, line.split())) for line in out.stdout.splitlines()]
    assert values[0] == pytest.approx(R_BINOM[(53, 66)], rel=1e-12)
    assert values[1] == pytest.approx(R_BINOM[(34, 55)], rel=1e-12)
    assert values[2] == pytest.approx(R_BINOM[(30, 55)], rel=1e-12)
    assert values[3] == pytest.approx((0.11811724875702526, 0.88188275124297477), rel=1e-12)
    assert values[4] == pytest.approx(R_CHISQ[((53, 54, 52, 52), 66)][:2], rel=1e-12)
    assert values[5] == pytest.approx((16 / 9, 0.18242243945173581), rel=1e-12)


# ------------------------------------------------------------------------------------------
# Hand-made gold standard and test results
# ------------------------------------------------------------------------------------------

SYS = ["A", "B", "C", "D"]


def _mat(cells, names=SYS):
    return pvalue_matrix(names, cells)


def _gold(adequacy, fluency, alpha=0.05) -> HumanGoldResult:
    idx = pd.Index(SYS, dtype=object)
    empty = pd.DataFrame(np.nan, index=idx, columns=idx)
    return HumanGoldResult(
        statistic={"adequacy": empty, "fluency": empty},
        pvalue={
            "adequacy": adequacy,
            "fluency": fluency,
            "combined": combine_criteria(adequacy, fluency, alpha),
        },
        systems=tuple(SYS),
        alpha=alpha,
        criteria=("adequacy", "fluency"),
        scores=pd.DataFrame(index=idx),
        annotators=pd.DataFrame(),
        n_judgements=0,
        excluded=pd.DataFrame(),
    )


# Gold at 0.05 (pairs AB AC AD BC BD CD): A>B (adequacy 0.001), A>C (adequacy), A>D
# (adequacy 0.03: tie at 0.01 where fluency D>A p=0.2 leaves a tie), B~C (tie in both),
# B>D via fluency (adequacy tied, fluency 0.004), C>D (adequacy 0.0001)
GOLD = _gold(
    _mat(
        {
            ("A", "B"): 0.001,
            ("A", "C"): 0.0005,
            ("A", "D"): 0.03,
            ("B", "C"): 0.4,
            ("B", "D"): 0.2,
            ("C", "D"): 0.0001,
        }
    ),
    _mat(
        {
            ("A", "B"): 0.3,
            ("A", "C"): 0.01,
            ("D", "A"): 0.2,
            ("C", "B"): 0.3,
            ("B", "D"): 0.004,
            ("C", "D"): 0.5,
        }
    ),
)
# gold conclusions: 0.05 -> [1, 1, 1, 0, 1, 1]; 0.01 -> [1, 1, 0, 0, 1, 1]

# Test 1: B>A 0.02 (opposite direction at 0.05, tie at 0.01), A>C 0.001, A>D 0.2 (tie),
# C>B 0.04 (significant where humans tie at 0.05), B>D 0.0001, C>D 0.0001
T1 = _mat(
    {
        ("B", "A"): 0.02,
        ("A", "C"): 0.001,
        ("A", "D"): 0.2,
        ("C", "B"): 0.04,
        ("B", "D"): 0.0001,
        ("C", "D"): 0.0001,
    }
)
# T1 conclusions: 0.05 -> [-1, 1, 0, -1, 1, 1]; 0.01 -> [0, 1, 0, 0, 1, 1]
# Test 2 agrees with the gold everywhere at 0.05
T2 = _mat(
    {
        ("A", "B"): 0.001,
        ("A", "C"): 0.001,
        ("A", "D"): 0.04,
        ("B", "C"): 0.3,
        ("B", "D"): 0.002,
        ("C", "D"): 0.0001,
    }
)


def test_hand_made_accuracy_counts_outcomes_and_layout():
    res = accuracy_from_pvalues(
        GOLD, {("BLEU", "bootstrap"): T1, ("TER", "bootstrap"): T2}, alphas=(0.05, 0.01)
    )
    assert isinstance(res, AccuracyResult)
    assert res.n_pairs == 6 and res.systems == tuple(SYS)
    t = res.table.set_index(["metric", "test", "alpha"])
    # BLEU at 0.05: AB reversed, AC ok, AD missed, BC spurious, BD ok, CD ok -> 3 of 6
    assert t.loc[("BLEU", "bootstrap", 0.05), "correct"] == 3
    # BLEU at 0.01: gold [1,1,0,0,1,1], test [0,1,0,0,1,1] -> 5 of 6
    assert t.loc[("BLEU", "bootstrap", 0.01), "correct"] == 5
    assert t.loc[("TER", "bootstrap", 0.05), "correct"] == 6
    # TER at 0.01: A>D 0.04 is a tie, as in the gold -> all 6; B>D 0.002 significant -> ok
    assert t.loc[("TER", "bootstrap", 0.01), "correct"] == 6
    row = t.loc[("BLEU", "bootstrap", 0.05)]
    assert row["accuracy"] == 0.5 and row["pairs"] == 6
    # R: binom.test(3, 6)$conf.int (symmetric about 1/2 for 3 of 6)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(
        (0.11811724875702526, 0.88188275124297477), rel=1e-9
    )
    assert res.statistic[("BLEU", "bootstrap", 0.05)] == 0.5
    ag = res.agreement[(res.agreement["metric"] == "BLEU") & (res.agreement["alpha"] == 0.05)]
    assert ag["gold"].tolist() == [1, 1, 1, 0, 1, 1]
    assert ag["conclusion"].tolist() == [-1, 1, 0, -1, 1, 1]
    assert ag["outcome"].tolist() == [3, 0, 2, 1, 0, 0]
    assert [OUTCOMES[o] for o in ag["outcome"][:4]] == [
        "opposite direction",
        "agrees with humans",
        "tied, humans significant",
        "significant, humans tied",
    ]
    m = res.agreement_matrix(0.05)
    assert list(m.index) == ["BLEU / bootstrap", "TER / bootstrap"]
    assert list(m.columns) == ["A vs B", "A vs C", "A vs D", "B vs C", "B vs D", "C vs D"]
    assert m.loc["BLEU / bootstrap"].tolist() == [3, 0, 2, 1, 0, 0]
    assert m.loc["TER / bootstrap"].tolist() == [0] * 6
    assert res.agreement_matrix().shape == (4, 6)
    with pytest.raises(StatsInputError, match="was not evaluated"):
        res.agreement_matrix(0.001)
    wide = res.paper_table()
    assert list(wide.index) == [(0.05, "BLEU"), (0.05, "TER"), (0.01, "BLEU"), (0.01, "TER")]
    assert wide[("bootstrap", "correct")].tolist() == [3, 6, 5, 6]
    # chi-square across the two metrics at each alpha, Yates-corrected (R-equivalent)
    # by hand: correct/incorrect 3/3 and 6/0, expected 4.5/1.5 in each row, |O - E| = 1.5,
    # Yates: (1.5 - 0.5)^2 * 2 * (1/4.5 + 1/1.5) = 16/9; p from R:
    # chisq.test(cbind(c(3, 6), c(3, 0)))$p.value (1 df)
    chi = res.chi2.set_index(["test", "alpha"])
    assert chi.loc[("bootstrap", 0.05), "statistic"] == pytest.approx(16 / 9, rel=1e-12)
    assert chi.loc[("bootstrap", 0.05), "pvalue"] == pytest.approx(0.18242243945173581, rel=1e-10)


def test_degenerate_chi_square_is_nan_with_a_visible_warning():
    with pytest.warns(DegenerateInputWarning, match="undefined"):
        res = accuracy_from_pvalues(
            GOLD, {("X", "bootstrap"): T2, ("Y", "bootstrap"): T2}, alphas=(0.05,)
        )
    assert np.isnan(res.chi2["pvalue"].iloc[0])
    assert any("undefined" in w for w in res.warnings)


def test_single_metric_has_no_chi_square():
    res = accuracy_from_pvalues(GOLD, {("BLEU", "bootstrap"): T1}, alphas=(0.05,))
    assert res.chi2.empty and res.pvalue.empty


def test_systems_missing_on_one_side_are_left_out_with_warning():
    names = ["A", "B", "C", "E"]
    t = _mat(
        {
            ("A", "B"): 0.001,
            ("A", "C"): 0.001,
            ("B", "C"): 0.3,
            ("A", "E"): 0.01,
            ("B", "E"): 0.01,
            ("C", "E"): 0.01,
        },
        names,
    )
    with pytest.warns(UserWarning) as rec:
        res = accuracy_from_pvalues(GOLD, {("BLEU", "bootstrap"): t}, alphas=(0.05,))
    msgs = [str(w.message) for w in rec]
    assert any("not scored by every metric, left out: D" in m for m in msgs)
    assert any("no human judgements, left out: E" in m for m in msgs)
    assert res.systems == ("A", "B", "C") and res.n_pairs == 3
    assert res.table["correct"].tolist() == [3]  # AB, AC significant, BC tie, as the gold
    two = _mat({("A", "E"): 0.01}, ["A", "E"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(StatsInputError, match="fewer than two systems"):
            accuracy_from_pvalues(GOLD, {("BLEU", "bootstrap"): two})


def test_accuracy_from_pvalues_validation():
    with pytest.raises(StatsInputError, match="no test results"):
        accuracy_from_pvalues(GOLD, {})
    with pytest.raises(StatsInputError, match="alphas"):
        accuracy_from_pvalues(GOLD, {("BLEU", "bootstrap"): T1}, alphas=(0.5, 2))


# ------------------------------------------------------------------------------------------
# End to end with the randomized tests (stats.mt.randomized)
# ------------------------------------------------------------------------------------------


def _judgements_and_scores(seed=5, n_seg=60):
    """Four systems; humans and a segment metric see the same latent quality."""
    rng = np.random.default_rng(seed)
    quality = {"s1": 0.8, "s2": 0.5, "s3": 0.45, "s4": 0.0}
    seg = np.arange(1, n_seg + 1).astype(str)
    scores = pd.DataFrame({s: q + rng.normal(0, 1, n_seg) for s, q in quality.items()}, index=seg)
    rows = []
    for a in range(6):
        bias, spread = rng.normal(50, 10), rng.uniform(5, 15)
        for s, q in quality.items():
            for crit in ("adequacy", "fluency"):
                for g in rng.choice(seg, 15, replace=False):
                    rows.append((s, g, f"w{a}", crit, bias + spread * (q + rng.normal(0, 1))))
    judgements = pd.DataFrame(
        rows, columns=["system", "segment", "annotator", "criterion", "score"]
    )
    return judgements, scores


def test_significance_accuracy_end_to_end_matches_pairwise_tests():
    from stats.mt.randomized import pairwise_significance
    from stats.mt.sufficient import statistics_from_scores

    judgements, scores = _judgements_and_scores()
    data = statistics_from_scores(scores, label="sim")
    gold = human_gold_standard(judgements)
    progress = []
    res = significance_accuracy(
        gold, {"sim": data}, n_resamples=199, rng=7, progress=progress.append
    )
    assert res.seed == 7 and res.n_resamples == 199
    assert progress[-1] == pytest.approx(1.0) and progress == sorted(progress)
    assert len(res.table) == 3 * 3  # 3 tests x 3 alphas
    assert res.scores["sim"].to_dict() == pytest.approx(scores.mean().to_dict())
    # each row equals the conclusions of the test run directly with the same seed
    for test in ("paired-bootstrap", "bootstrap", "approximate-randomization"):
        direct = pairwise_significance(data, test=test, n_resamples=199, rng=7)
        pd.testing.assert_frame_equal(
            res.pvalues[("sim", test)], direct.pvalue.loc[list(res.systems), list(res.systems)]
        )
        ref = accuracy_from_pvalues(gold, {("sim", test): direct.pvalue})
        got = res.table[res.table["test"] == test]["correct"].tolist()
        assert got == ref.table["correct"].tolist()
    # the same seed reproduces; the gold can also be built from the judgements directly
    again = significance_accuracy(judgements, [data], n_resamples=199, rng=7)
    pd.testing.assert_frame_equal(again.table, res.table)


def test_significance_accuracy_validation():
    from stats.mt.sufficient import statistics_from_scores

    judgements, scores = _judgements_and_scores()
    data = statistics_from_scores(scores, label="sim")
    with pytest.raises(StatsInputError, match="tests must be among"):
        significance_accuracy(judgements, [data], tests=["t-test"])
    with pytest.raises(StatsInputError, match="duplicate metric"):
        significance_accuracy(judgements, [data, data])
    with pytest.raises(StatsInputError, match="n_resamples"):
        significance_accuracy(judgements, [data], n_resamples=0)
    with pytest.raises(StatsInputError, match="SegmentStatistics"):
        significance_accuracy(judgements, {"x": scores})
    other = statistics_from_scores(scores.rename(columns=lambda c: c.upper()), label="other")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(StatsInputError, match="fewer than two systems"):
            significance_accuracy(judgements, [other])


def test_unreachable_alpha_is_warned_and_reported_not_silently_all_ties():
    """With R resamples the randomized tests' smallest p-value is 1/(R+1) (their (c+1)/(R+1)
    with c = 0). For R = 19 that is 1/20 = 0.05 (by hand), which is not below alpha 0.05 or
    0.01, so every pair must be "no significant difference" there; for R = 20 (1/21 < 0.05)
    only alpha 0.01 is unreachable. The expected correct counts are the pairs the humans tie
    (gold conclusion 0), counted from the gold standard directly."""
    from stats.mt.sufficient import statistics_from_scores

    judgements, scores = _judgements_and_scores()
    data = statistics_from_scores(scores, label="sim")
    gold = human_gold_standard(judgements)
    with pytest.warns(DegenerateInputWarning) as caught:
        res = significance_accuracy(
            gold, [data], tests=["paired-bootstrap"], alphas=(0.05, 0.01), n_resamples=19, rng=3
        )
    texts = [str(w.message) for w in caught]
    for a in ("0.05", "0.01"):
        expected = (
            f"alpha {a}: with 19 resamples the smallest attainable p-value is 1/(19+1) = 0.05, "
            f"not below alpha {a}"
        )
        assert sum(t.startswith(expected) for t in texts) == 1, texts
        assert sum(w.startswith(expected) for w in res.warnings) == 1, res.warnings
    assert any("use at least 20 resamples" in w for w in res.warnings)
    assert any("use at least 100 resamples" in w for w in res.warnings)
    ag = res.agreement
    assert (ag["conclusion"] == 0).all()
    for a in (0.05, 0.01):
        combined = gold.combined_pvalue(a).to_numpy()
        tied = res.n_pairs - int((combined < a).sum())  # one p per pair, NaN elsewhere
        row = res.table[res.table["alpha"] == a].iloc[0]
        assert row["correct"] == tied
    # R = 20: alpha 0.05 is reachable (1/21 < 0.05) -> only the 0.01 message
    with pytest.warns(DegenerateInputWarning):
        res20 = significance_accuracy(
            gold, [data], tests=["paired-bootstrap"], alphas=(0.05, 0.01), n_resamples=20, rng=3
        )
    assert [w.split(":")[0] for w in res20.warnings if "attainable" in w] == ["alpha 0.01"]
    # the page's path (p-values computed elsewhere, R given) reports the same
    with pytest.warns(DegenerateInputWarning, match="alpha 0.001: with 999 resamples"):
        again = accuracy_from_pvalues(
            gold, res20.pvalues, alphas=(0.001,), n_resamples=999
        )
    assert any("use at least 1000 resamples" in w for w in again.warnings)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateInputWarning)
        accuracy_from_pvalues(gold, res20.pvalues, alphas=(0.001,), n_resamples=1000)
