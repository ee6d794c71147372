"""Word-level QE: readers, MCC / F1 against a hand-computed confusion matrix, the paired
bootstrap over sentences."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError
from stats.qe.word import align_word_tags, compare_word_level, word_scores_from_confusion
from stats.readers.qe_word import read_word_gold, read_word_submissions, word_file_kind
from tests._qe_wmt_data import generate


def test_mcc_and_f1_hand_computed():
    # gold  BAD BAD BAD OK OK OK OK OK OK OK ; pred BAD BAD OK BAD OK OK OK OK OK OK
    # BAD positive: TP 2, FN 1, FP 1, TN 6 (counted by hand)
    # MCC = (2*6 - 1*1) / sqrt(3*3*7*7) = 11/21; F1-BAD = 4/6; F1-OK = 12/14
    gold = "BAD BAD BAD OK OK OK OK OK OK OK\n"
    pred = ["BAD", "BAD", "OK", "BAD"] + ["OK"] * 6
    sub = "".join(f"en-de\tS\tmt\t0\t{i}\tw\t{t}\n" for i, t in enumerate(pred))
    g = read_word_gold(gold.encode(), name="test.en-de.tags")
    s = read_word_submissions([("s.txt", sub.encode())])
    res = compare_word_level(s, g, n_resamples=10, rng=0)
    row = res.tables["en-de"].loc["S"]
    assert row["mcc"] == pytest.approx(11 / 21, abs=1e-15)
    assert row["f1_bad"] == pytest.approx(4 / 6, abs=1e-15)
    assert row["f1_ok"] == pytest.approx(12 / 14, abs=1e-15)
    assert word_scores_from_confusion(2, 1, 1, 6)["mcc"] == pytest.approx(11 / 21)
    with pytest.warns(Warning, match="MCC undefined"):
        word_scores_from_confusion(0, 0, 0, 5)  # no warning here: NaN only
        s2 = s.assign(bad=False)
        compare_word_level(s2, g, n_resamples=5, rng=0)


def test_generated_files_and_plain_mcc():
    d = generate()
    assert word_file_kind(d["word_gold"]) == "gold-tsv"
    assert word_file_kind(d["word_submissions"]["alpha"]) == "submission"
    g = read_word_gold(d["word_gold"].encode(), name="gold.tsv")
    s = read_word_submissions([(f"{t}.txt", x.encode()) for t, x in d["word_submissions"].items()])
    res = compare_word_level(s, g, n_resamples=200, rng=1, correction="holm")
    # plain formulation: flatten all words of the lp and count (no library)
    for lp, t in res.tables.items():
        gg = g[g.lp == lp].sort_values(["sid", "pos"])
        for system in t.index:
            pp = s[(s.lp == lp) & (s.system == system)].sort_values(["sid", "pos"])
            y, p = gg.bad.to_numpy(), pp.bad.to_numpy()
            tp, fp = np.sum(p & y), np.sum(p & ~y)
            fn, tn = np.sum(~p & y), np.sum(~p & ~y)
            mcc = (tp * tn - fp * fn) / np.sqrt(
                float((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
            )
            assert abs(t.at[system, "mcc"] - mcc) < 1e-12
        assert t["mcc"].is_monotonic_decreasing
        grid = res.pvalue[lp]
        assert np.isnan(grid.to_numpy()[np.tril_indices(len(grid))]).all()
        assert ((t["mcc_low"] <= t["mcc"]) & (t["mcc"] <= t["mcc_high"])).all()
    assert "DELTA-mono" not in res.average.index


def test_paired_bootstrap_counts_match_a_loop_over_resamples():
    d = generate()
    g = read_word_gold(d["word_gold"].encode(), name="gold.tsv")
    s = read_word_submissions(
        [
            ("a.txt", d["word_submissions"]["alpha"].encode()),
            ("g.txt", d["word_submissions"]["gamma"].encode()),
        ]
    )
    s = s[s.lp == "en-de"]
    res = compare_word_level(s, g[g.lp == "en-de"], n_resamples=50, rng=3)
    systems, sids, C = align_word_tags(s, g[g.lp == "en-de"])["en-de"]
    gen = np.random.default_rng(3)
    S = len(sids)
    idx = gen.integers(0, S, size=(50, S))
    wins = 0
    order = list(res.tables["en-de"].index)
    a, b = systems.index(order[0]), systems.index(order[1])
    for r in range(50):  # the plain loop the array code replaces
        ca, cb = C[a][idx[r]].sum(axis=0), C[b][idx[r]].sum(axis=0)
        ma = word_scores_from_confusion(*ca)["mcc"]
        mb = word_scores_from_confusion(*cb)["mcc"]
        wins += not (ma - mb > 0)
    assert res.pvalue["en-de"].iloc[0, 1] == pytest.approx((wins + 1) / 51)


def test_gaps_and_wmt20_rows():
    gold = "OK BAD OK OK OK\nOK OK OK\n"  # 2 words + 3 gaps; 1 word + 2 gaps
    sub = "S\tmt\t0\t0\ta\tBAD\nS\tgap\t0\t0\t_\tOK\nS\tmt\t0\t1\tb\tOK\nS\tmt\t1\t0\tc\tOK\n"
    g = read_word_gold(gold.encode(), name="dev.en-de.tags")
    s = read_word_submissions([("en-de.pred", sub.encode())])
    systems, sids, C = align_word_tags(s, g)["en-de"]
    assert C.sum(axis=1).tolist() == [[1, 0, 0, 2]]


@pytest.mark.parametrize(
    "text, message",
    [
        ("en-de\tS\tmt\t0\t0\tw\tMAYBE\n", "line 1: tag 'MAYBE' is not OK or BAD"),
        ("en-de\tS\tmt\t0\t0\tw\tOK\nen-de\tS\tmt\t0\t0\tw\tOK\n", "word 0 of segment 0"),
        ("x\ny\nz\nw\n", "not a word-level QE submission"),
    ],
)
def test_submission_errors(text, message):
    with pytest.raises(StatsInputError, match=message):
        read_word_submissions([("s.txt", text.encode())])


def test_words_differ_from_gold():
    g = read_word_gold(b"OK OK\n", name="en-de.tags")
    s = read_word_submissions([("s.txt", b"en-de\tS\tmt\t0\t0\tw\tOK\n")])
    with pytest.raises(StatsInputError, match="tags other words than the gold"):
        compare_word_level(s, g, n_resamples=5)
    with pytest.raises(StatsInputError, match="not a word-level gold file"):
        read_word_gold(b"a,b\n1,2\n", name="x.csv")
    assert isinstance(g, pd.DataFrame)
