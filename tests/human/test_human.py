"""Human gold standard: standardisation, Wilcoxon rank-sum tests, combination.

Golden values:
* R 4.x (``Rscript``): ``ave(SCORE, ANNOTATOR, CRITERION, FUN = (v - mean(v)) / sd(v))`` and
  ``wilcox.test(x, y, alternative = "greater", exact = FALSE, correct = TRUE)``; the script is
  below (``R_SCRIPT``) and is run live when Rscript is on PATH; the constants it printed are
  recorded in ``R_RECORDED`` so the test is meaningful without R.
* Hand computation (standardisation of 10/20/30; exact and normal-approximation rank-sum
  p-values worked out below).
"""

from __future__ import annotations

import math
import shutil
import subprocess
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st_h

from stats import DegenerateInputWarning, StatsInputError
from stats.human.gold import (
    annotator_summary,
    combine_criteria,
    human_gold_standard,
    pair_conclusions,
    rank_sum_all_pairs,
    standardize_judgements,
    system_scores,
)
from stats.readers import read_judgements
from tests._data import pvalue_matrix

# system annotator criterion: scores of segments 1, 2, ... (13 judgements per system and
# criterion, so scipy's default method is the normal approximation, as R's exact = FALSE)
SMALL = """\
sysA w1 adequacy 70 68 67 70
sysA w1 fluency 72 63 63 79
sysB w1 adequacy 63 70 68 67
sysB w1 fluency 62 69 60 72
sysC w1 adequacy 55 51 52 56
sysC w1 fluency 66 60 67 71
sysA w2 adequacy 57 12 53 28
sysA w2 fluency 51 45 56 46
sysB w2 adequacy 31 65 47 37
sysB w2 fluency 34 34 62 45
sysC w2 adequacy 45 22 66 57
sysC w2 fluency 48 48 21 49
sysA w3 adequacy 55 72 64 61 62
sysA w3 fluency 87 49 70 71 71
sysB w3 adequacy 75 60 60 51 69
sysB w3 fluency 50 52 44 56 72
sysC w3 adequacy 39 63 49 70 51
sysC w3 fluency 49 35 58 67 55
"""


def small_tsv() -> str:
    rows = ["SYSTEM\tSEGMENT\tANNOTATOR\tCRITERION\tSCORE"]
    for line in SMALL.splitlines():
        system, annotator, criterion, *scores = line.split()
        rows += [f"{system}\t{i}\t{annotator}\t{criterion}\t{s}" for i, s in enumerate(scores, 1)]
    return "\n".join(rows) + "\n"


R_SCRIPT = r"""
args <- commandArgs(trailingOnly = TRUE)
d <- read.delim(args[1], stringsAsFactors = FALSE)
d$z <- ave(d$SCORE, d$ANNOTATOR, d$CRITERION, FUN = function(v) (v - mean(v)) / sd(v))
for (crit in c("adequacy", "fluency")) {
  s <- d[d$CRITERION == crit, ]
  m <- tapply(s$z, s$SYSTEM, mean)
  for (a in names(m)) for (b in names(m)) if (m[a] > m[b]) {
    t <- wilcox.test(s$z[s$SYSTEM == a], s$z[s$SYSTEM == b], alternative = "greater",
                     exact = FALSE, correct = TRUE)
    cat(sprintf("p\t%s\t%s\t%s\t%.17g\t%.17g\n", crit, a, b, t$statistic, t$p.value))
  }
  for (a in names(m)) cat(sprintf("m\t%s\t%s\t%.17g\n", crit, a, m[a]))
}
for (i in seq_len(nrow(d))) cat(sprintf("z\t%s\t%s\t%s\t%s\t%.17g\n", d$SYSTEM[i], d$SEGMENT[i],
                                        d$ANNOTATOR[i], d$CRITERION[i], d$z[i]))
"""

# Recorded from R 4 running R_SCRIPT on small_tsv(): (criterion, winner, loser) -> (W, p)
R_RECORDED = {
    ("adequacy", "sysA", "sysC"): (119.5, 0.038377237025994985),
    ("adequacy", "sysB", "sysA"): (82.0, 0.56120718579275097),
    ("adequacy", "sysB", "sysC"): (123.5, 0.024132126976318283),
    ("fluency", "sysA", "sysB"): (123.0, 0.025565084986469564),
    ("fluency", "sysA", "sysC"): (129.5, 0.01119713486213607),
    ("fluency", "sysB", "sysC"): (84.5, 0.51023341655807974),
}
R_MEAN_Z = {
    ("adequacy", "sysB"): 0.3075115960832831,
    ("adequacy", "sysA"): 0.2394878012236083,
    ("fluency", "sysA"): 0.5474120103679182,
    ("fluency", "sysB"): -0.22016672373427523,
}
# R's z for annotator w1, system sysA, segments 1-3 (adequacy, fluency)
R_Z = {
    ("sysA", "1", "w1", "adequacy"): 0.93116931671850312,
    ("sysA", "1", "w1", "fluency"): 0.86211556258035582,
    ("sysA", "2", "w1", "adequacy"): 0.66191553839026118,
    ("sysA", "2", "w1", "fluency"): -0.68969245006428459,
    ("sysA", "3", "w1", "adequacy"): 0.52728864922614016,
    ("sysA", "3", "w1", "fluency"): -0.68969245006428459,
}


@pytest.fixture(scope="module")
def small():
    return read_judgements(small_tsv().encode(), name="small.tsv")


@pytest.fixture(scope="module")
def gold(small):
    return human_gold_standard(small, alpha=0.05)


def _check_against(gold, zframe, pvals, means, zs):
    for (crit, a, b), (w, p) in pvals.items():
        assert gold.pvalue[crit].at[a, b] == pytest.approx(p, rel=1e-12, abs=1e-15)
        assert gold.statistic[crit].at[a, b] == w  # R's W is scipy's U of the first sample
        assert np.isnan(gold.pvalue[crit].at[b, a])
    for (crit, s), m in means.items():
        assert gold.scores.at[s, f"{crit}_z"] == pytest.approx(m, rel=1e-12)
    key = zframe.set_index(["system", "segment", "annotator", "criterion"])["z"]
    for k, z in zs.items():
        assert key.loc[k] == pytest.approx(z, rel=1e-12)


def test_standardisation_and_wilcoxon_match_recorded_r(small, gold):
    _check_against(gold, standardize_judgements(small), R_RECORDED, R_MEAN_Z, R_Z)
    assert gold.systems == ("sysB", "sysA", "sysC")  # by mean adequacy z
    assert len(R_RECORDED) == 2 * 3  # every pair in both criteria is covered


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="Rscript not installed")
def test_standardisation_and_wilcoxon_match_live_r(small, gold, tmp_path):
    data = tmp_path / "small.tsv"
    data.write_text(small_tsv())
    script = tmp_path / "gold.R"
    script.write_text(R_SCRIPT)
    out = subprocess.run(
        ["Rscript", str(script), str(data)], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    pvals, means, zs = {}, {}, {}
    for line in out.splitlines():
        f = line.split("\t")
        if f[0] == "p":
            pvals[(f[1], f[2], f[3])] = (float(f[4]), float(f[5]))
        elif f[0] == "m":
            means[(f[1], f[2])] = float(f[3])
        elif f[0] == "z":
            zs[(f[1], f[2], f[3], f[4])] = float(f[5])
    assert len(pvals) == 6 and len(zs) == 78
    _check_against(gold, standardize_judgements(small), pvals, means, zs)
    for k, (w, p) in R_RECORDED.items():  # the recorded constants are still what R prints
        assert pvals[k][0] == w
        assert pvals[k][1] == pytest.approx(p, rel=1e-12)


def test_standardisation_by_hand():
    # annotator L: 10, 20, 30 -> mean 20, sd 10 -> z = -1, 0, 1
    # annotator S: 0, 40, 80 (different bias and spread) -> the same z
    df = pd.DataFrame(
        {
            "system": ["x", "y", "z"] * 2,
            "segment": ["1", "1", "1", "2", "2", "2"],
            "annotator": ["L"] * 3 + ["S"] * 3,
            "criterion": ["adequacy"] * 6,
            "score": [10.0, 20.0, 30.0, 0.0, 40.0, 80.0],
        }
    )
    z = standardize_judgements(df)["z"].to_numpy()
    np.testing.assert_allclose(z, [-1, 0, 1, -1, 0, 1], atol=1e-15)
    summary = annotator_summary(df).set_index("annotator")
    assert (
        summary.at["L", "mean"] == 20 and summary.at["L", "sd"] == 10 and summary.at["L", "n"] == 3
    )
    assert summary.at["S", "mean"] == 40 and summary.at["S", "sd"] == 40


def test_standardisation_removes_annotator_bias():
    # System X is judged only by a lenient annotator, Y only by a strict one; both annotators
    # see an identical pattern, so after standardisation X and Y are the same.
    pattern = np.array([20.0, 40.0, 60.0, 80.0])
    df = pd.DataFrame(
        {
            "system": ["X"] * 4 + ["Y"] * 4 + ["Z"] * 8,
            "segment": [str(i) for i in range(16)],
            "annotator": ["lenient"] * 4 + ["strict"] * 4 + ["lenient"] * 4 + ["strict"] * 4,
            "criterion": "adequacy",
            "score": np.concatenate([pattern + 15, pattern / 2, pattern + 15, pattern / 2]),
        }
    )
    scores = system_scores(df)
    assert scores.at["X", "adequacy_raw"] > scores.at["Y", "adequacy_raw"] + 30
    assert scores.at["X", "adequacy_z"] == pytest.approx(scores.at["Y", "adequacy_z"], abs=1e-12)


def test_rank_sum_exact_by_hand():
    # x = 3,4,5 vs y = 1,2: U_x = 6 is the maximum; of the C(5,2) = 10 equally likely rank
    # assignments only one gives U = 6, so the exact one-sided p is 1/10 (scipy uses the exact
    # distribution: both samples <= 8, no ties).
    res = rank_sum_all_pairs({"y": [1.0, 2.0], "x": [3.0, 4.0, 5.0]})
    assert res.systems == ("x", "y")
    assert res.statistic.at["x", "y"] == 6
    assert res.pvalue.at["x", "y"] == pytest.approx(0.1, rel=1e-12)
    assert np.isnan(res.pvalue.at["y", "x"]) and np.isnan(res.pvalue.at["x", "x"])


def test_rank_sum_normal_approximation_by_hand():
    # x = 10..18 vs y = 1..9, n = 9 each, no ties: U = 81, mean n1 n2 / 2 = 40.5,
    # sd sqrt(n1 n2 (n1 + n2 + 1) / 12) = sqrt(128.25); with continuity correction
    # z = (81 - 40.5 - 0.5) / sqrt(128.25) and p = 1 - Phi(z).
    z = (81 - 40.5 - 0.5) / math.sqrt(128.25)
    p = 0.5 * math.erfc(z / math.sqrt(2))
    res = rank_sum_all_pairs({"x": np.arange(10, 19.0), "y": np.arange(1, 10.0)})
    assert res.statistic.at["x", "y"] == 81
    assert res.pvalue.at["x", "y"] == pytest.approx(p, rel=1e-12)


def _unequal_groups() -> dict[str, np.ndarray]:
    """Five groups of 20 to 48 values rounded to 0.1 (so with ties), means 0 to 0.4 apart."""
    rng = np.random.default_rng(3)
    return {f"s{i}": rng.normal(i * 0.1, 1, size=20 + 7 * i).round(1) for i in range(5)}


# R's wilcox.test on _unequal_groups(), every pair with the higher mean first:
# (winner, loser) -> (W, one-sided p), printed with %.17g by R_PAIRS_SCRIPT below
R_PAIRS = {
    ("s1", "s0"): (347, 0.049635074061994536),
    ("s1", "s2"): (479.5, 0.38568724125676984),
    ("s2", "s0"): (395, 0.16426812339476338),
    ("s3", "s0"): (525.5, 0.038484705530035163),
    ("s3", "s1"): (586, 0.34402863710079445),
    ("s3", "s2"): (779, 0.19268563189283483),
    ("s4", "s0"): (679.5, 0.0036660847223717813),
    ("s4", "s1"): (750, 0.13107180222870482),
    ("s4", "s2"): (977.5, 0.064692757667818582),
    ("s4", "s3"): (1064.5, 0.2549289852391281),
}
R_PAIRS_SCRIPT = r"""
d <- read.delim(commandArgs(trailingOnly = TRUE)[1])
m <- tapply(d$x, d$g, mean)
for (a in names(m)) for (b in names(m)) if (m[a] > m[b]) {
  t <- wilcox.test(d$x[d$g == a], d$x[d$g == b], alternative = "greater", exact = FALSE,
                   correct = TRUE)
  cat(sprintf("%s\t%s\t%.17g\t%.17g\n", a, b, t$statistic, t$p.value))
}
"""


def _check_pairs(res, groups, pairs):
    for a in res.systems:
        for b in res.systems:
            if a != b and groups[a].mean() > groups[b].mean():
                w, p = pairs[(a, b)]
                assert res.pvalue.at[a, b] == pytest.approx(p, rel=1e-12)
                assert res.statistic.at[a, b] == w
                assert np.isnan(res.pvalue.at[b, a])
    assert len(pairs) == 10  # every pair of the five groups


def test_rank_sum_all_pairs_equals_r_pair_by_pair():
    """Unequal group sizes and ties: the normal approximation with tie and continuity
    corrections, against R's wilcox.test (recorded in R_PAIRS)."""
    groups = _unequal_groups()
    res = rank_sum_all_pairs(groups)
    _check_pairs(res, groups, R_PAIRS)
    assert list(res.mean.index) == list(res.systems)
    assert res.mean.is_monotonic_decreasing


def test_rank_sum_all_pairs_equals_live_r(tmp_path):
    """The same pairs computed live by R (skips without Rscript)."""
    groups = _unequal_groups()
    data = tmp_path / "groups.tsv"
    data.write_text(
        "g\tx\n" + "".join(f"{g}\t{float(x)!r}\n" for g, v in groups.items() for x in v)
    )
    from tests._data import run_rscript

    out = run_rscript(R_PAIRS_SCRIPT, data)
    live = {(f[0], f[1]): (float(f[2]), float(f[3])) for f in map(str.split, out.splitlines())}
    _check_pairs(rank_sum_all_pairs(groups), groups, live)
    for key, (w, p) in R_PAIRS.items():  # the recorded constants are still what R prints
        assert live[key] == pytest.approx((w, p), rel=1e-12)


def test_rank_sum_validation():
    with pytest.raises(StatsInputError, match="at least two"):
        rank_sum_all_pairs({"a": [1.0]})
    with pytest.raises(StatsInputError, match=r"groups\['b'\] is empty"):
        rank_sum_all_pairs({"a": [1.0], "b": []})
    with pytest.raises(StatsInputError, match="NaN"):
        rank_sum_all_pairs({"a": [1.0], "b": [np.nan]})
    with pytest.raises(StatsInputError, match="order must list exactly"):
        rank_sum_all_pairs({"a": [1.0], "b": [2.0]}, order=["a", "c"])
    with pytest.raises(StatsInputError, match="alternative"):
        rank_sum_all_pairs({"a": [1.0], "b": [2.0]}, alternative="less")


NAMES = ["A", "B", "C", "D"]


def test_combination_rule_hand_made_cases():
    adequacy = pvalue_matrix(
        NAMES,
        {
            ("A", "B"): 0.001,  # adequacy significant: decides, although fluency says B > A
            ("A", "C"): 0.30,  # adequacy tied: fluency decides, here C > A significantly
            ("B", "C"): 0.20,  # both tied: combined is fluency's (non-significant) p
            ("A", "D"): 0.03,  # significant at 0.05, tied at 0.01 -> alpha-dependent
            ("B", "D"): 0.04,
            ("D", "C"): 0.50,
        },
    )
    fluency = pvalue_matrix(
        NAMES,
        {
            ("B", "A"): 0.0001,
            ("C", "A"): 0.004,
            ("B", "C"): 0.40,
            ("D", "A"): 0.002,
            ("B", "D"): 0.60,
            ("C", "D"): 0.02,
        },
    )
    c05 = combine_criteria(adequacy, fluency, 0.05)
    assert c05.at["A", "B"] == 0.001 and np.isnan(c05.at["B", "A"])
    assert c05.at["C", "A"] == 0.004 and np.isnan(c05.at["A", "C"])
    assert c05.at["B", "C"] == 0.40 and np.isnan(c05.at["C", "B"])
    assert c05.at["A", "D"] == 0.03 and np.isnan(c05.at["D", "A"])
    assert c05.at["B", "D"] == 0.04
    assert c05.at["C", "D"] == 0.02 and np.isnan(c05.at["D", "C"])
    # at 0.01 the A-D adequacy difference is a tie, so fluency (D > A, p = 0.002) decides
    c01 = combine_criteria(adequacy, fluency, 0.01)
    assert c01.at["D", "A"] == 0.002 and np.isnan(c01.at["A", "D"])
    assert c01.at["B", "D"] == 0.60
    # conclusions: pairs in triu order (A,B) (A,C) (A,D) (B,C) (B,D) (C,D)
    assert pair_conclusions(c05, 0.05).tolist() == [1, -1, 1, 0, 1, 1]
    assert pair_conclusions(c01, 0.01).tolist() == [1, -1, -1, 0, 0, 0]
    # one criterion only: that criterion decides
    pd.testing.assert_frame_equal(combine_criteria(adequacy, None, 0.05), adequacy)
    pd.testing.assert_frame_equal(combine_criteria(None, fluency, 0.05), fluency)
    with pytest.raises(StatsInputError):
        combine_criteria(None, None, 0.05)


def test_paper_example_fluency_breaks_adequacy_ties():
    # Paper, Section 4: adequacy of B is not significantly greater than C, D, E, while fluency
    # of B is; the combined result is the fluency p-value of each of these pairs.
    names = ["B", "C", "D", "E"]
    adequacy = pvalue_matrix(names, {("B", "C"): 0.21, ("B", "D"): 0.08, ("B", "E"): 0.12})
    fluency = pvalue_matrix(names, {("B", "C"): 0.01, ("B", "D"): 0.003, ("B", "E"): 0.04})
    comb = combine_criteria(adequacy, fluency, 0.05)
    assert [comb.at["B", s] for s in "CDE"] == [0.01, 0.003, 0.04]


def test_pair_conclusions_order_and_nan():
    m = pvalue_matrix(["A", "B", "C"], {("B", "A"): 0.049, ("A", "C"): 0.05})
    assert pair_conclusions(m, 0.05).tolist() == [-1, 0, 0]  # p < alpha is significant
    assert pair_conclusions(m, 0.05, ["B", "A", "C"]).tolist() == [1, 0, 0]
    assert pair_conclusions(m, 0.0501).tolist() == [-1, 1, 0]
    with pytest.raises(StatsInputError, match="no row/column for X"):
        pair_conclusions(m, 0.05, ["A", "X"])


def test_gold_combined_on_small_data(gold):
    comb = gold.pvalue["combined"]
    # sysB vs sysA: adequacy tied (p = 0.56), fluency sysA > sysB (p = 0.0256) decides
    assert comb.at["sysA", "sysB"] == pytest.approx(R_RECORDED[("fluency", "sysA", "sysB")][1])
    assert np.isnan(comb.at["sysB", "sysA"])
    # adequacy significant pairs keep the adequacy p-value
    assert comb.at["sysB", "sysC"] == pytest.approx(R_RECORDED[("adequacy", "sysB", "sysC")][1])
    assert comb.at["sysA", "sysC"] == pytest.approx(R_RECORDED[("adequacy", "sysA", "sysC")][1])
    conc = gold.conclusions()
    assert conc[["system_a", "system_b"]].values.tolist() == [
        ["sysB", "sysA"],
        ["sysB", "sysC"],
        ["sysA", "sysC"],
    ]
    assert conc["adequacy"].tolist() == [0, 1, 1]
    assert conc["fluency"].tolist() == [-1, 0, 1]
    assert conc["combined"].tolist() == [-1, 1, 1]
    # at 0.02 nothing in adequacy is significant; fluency decides everything
    assert gold.conclusions(0.02)["combined"].tolist() == [0, 0, 1]
    assert gold.n_pairs == 3 and gold.n_judgements == 78
    assert gold.criteria == ("adequacy", "fluency")
    assert set(gold.annotators["annotator"]) == {"w1", "w2", "w3"}
    assert gold.annotators.groupby("criterion")["n"].sum().tolist() == [39, 39]


def test_gold_excludes_singletons_from_dataframe_with_warning():
    df = pd.DataFrame(
        {
            "system": ["a", "b", "a", "b", "a"],
            "segment": ["1", "1", "2", "2", "3"],
            "annotator": ["w1", "w1", "w1", "w1", "w2"],
            "criterion": "adequacy",
            "score": [80.0, 40.0, 70.0, 50.0, 10.0],
        }
    )
    with pytest.warns(DegenerateInputWarning, match="w2 \\(a single judgement\\)"):
        g = human_gold_standard(df)
    assert g.n_judgements == 4
    assert any("w2" in w for w in g.warnings)
    assert g.excluded["annotator"].tolist() == ["w2"]
    assert g.criteria == ("adequacy",)
    pd.testing.assert_frame_equal(g.pvalue["combined"], g.pvalue["adequacy"])


def test_gold_needs_two_systems_and_warns_on_missing_fluency():
    one = pd.DataFrame(
        {
            "system": "a",
            "segment": ["1", "2"],
            "annotator": "w",
            "criterion": "adequacy",
            "score": [1.0, 2.0],
        }
    )
    with pytest.raises(StatsInputError, match="at least two systems"):
        human_gold_standard(one)
    df = pd.DataFrame(
        {
            "system": ["a", "b", "c", "a", "b"],
            "segment": "1",
            "annotator": "w",
            "criterion": ["adequacy"] * 3 + ["fluency"] * 2,
            "score": [3.0, 2.0, 1.0, 5.0, 4.0],
        }
    )
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        g = human_gold_standard(df)
    assert any("no fluency judgements for c" in str(w.message) for w in rec)
    assert np.isnan(g.pvalue["fluency"].loc["c"]).all() and np.isnan(g.pvalue["fluency"]["c"]).all()
    assert not np.isnan(g.pvalue["fluency"].at["a", "b"])
    with pytest.raises(StatsInputError, match="alpha"):
        human_gold_standard(df, alpha=1.5)


@settings(max_examples=10, deadline=None, derandomize=True)  # 0.6 s an example
@given(
    seed=st_h.integers(0, 2**32 - 1),
    scale=st_h.lists(st_h.floats(0.1, 10.0), min_size=3, max_size=3),
    shift=st_h.lists(st_h.floats(-50.0, 50.0), min_size=3, max_size=3),
)
def test_gold_is_invariant_to_each_annotators_bias_and_spread(seed, scale, shift):
    # Property: standardisation removes any lenient/strict shift and any spread of an
    # annotator, so transforming annotator a's scores by x -> scale[a] * x + shift[a] changes
    # no z score and no gold p-value.
    rng = np.random.default_rng(seed)
    n = 60
    df = pd.DataFrame(
        {
            "system": rng.choice(["s1", "s2", "s3"], n),
            "segment": rng.integers(1, 20, n).astype(str),
            "annotator": np.repeat(["a0", "a1", "a2"], n // 3),
            "criterion": rng.choice(["adequacy", "fluency"], n),
            "score": rng.integers(0, 101, n).astype(float),
        }
    )
    df.loc[:5, "criterion"] = ["adequacy", "fluency"] * 3  # every criterion present
    a = df["annotator"].str[1].astype(int).to_numpy()
    moved = df.assign(score=np.asarray(scale)[a] * df["score"] + np.asarray(shift)[a])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateInputWarning)
        try:
            base = human_gold_standard(df)
        except StatsInputError:
            return  # too few usable judgements for this draw
        other = human_gold_standard(moved)
    np.testing.assert_allclose(
        standardize_judgements(moved)["z"], standardize_judgements(df)["z"], rtol=1e-9, atol=1e-9
    )
    assert other.systems == base.systems
    for key in base.pvalue:
        pd.testing.assert_frame_equal(other.pvalue[key], base.pvalue[key], rtol=1e-9, atol=1e-12)


def test_rank_sum_all_pairs_in_blocks_equals_one_call(monkeypatch):
    """Pairs tested in blocks (bounded memory) give exactly what one call over all pairs gives:
    unequal group sizes (NaN padding), ties, 8 groups = 28 pairs in blocks of 1 and 3 rows."""
    import stats.human.gold as gold

    gen = np.random.default_rng(3)
    groups = {f"s{i}": np.rint(gen.normal(i * 0.1, 1, 40 + 3 * i) * 4) / 4 for i in range(8)}
    whole = rank_sum_all_pairs(groups)
    width = max(len(g) for g in groups.values())
    for rows in (1, 3):
        monkeypatch.setattr(gold, "_RANK_SUM_CELLS", rows * width)
        blocks = rank_sum_all_pairs(groups)
        pd.testing.assert_frame_equal(blocks.pvalue, whole.pvalue, check_exact=True)
        pd.testing.assert_frame_equal(blocks.statistic, whole.statistic, check_exact=True)
