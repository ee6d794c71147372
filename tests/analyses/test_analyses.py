"""The file-to-result workflows of :mod:`stats.analyses`, on the bundled samples and on small
hand-made inputs whose answers come from independent implementations (R's psych::r.test,
scipy.stats, sacrebleu)."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import sacrebleu
import scipy.stats

from stats import DegenerateInputWarning, StatsInputError
from stats import analyses as A
from stats.human.accuracy import significance_accuracy
from stats.mt.randomized import RANDOMIZED_TESTS, pairwise_significance

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data"
METRICS = SAMPLE / "metrics"
QE = SAMPLE / "qe"
MT = SAMPLE / "mt"
HYPS = sorted((MT / "hyp").glob("*.txt"))


def upload(path: Path) -> tuple[str, bytes]:
    """A file as the dashboard passes it: (name, bytes)."""
    return (path.name, path.read_bytes())


# ---- metrics per language pair ----------------------------------------------------------------

# 7 systems, two metrics; golden values from R 4 psych::r.test(n=7, r12=cor(A,h), r13=cor(B,h),
# r23=cor(A,B)) (Williams' T2): t = 3.0822828241402358, two-sided p = 0.036849679724967541.
HAND_WIDE = (
    "lp,system,human,A,B\n"
    "xx-en,s1,0.1,10,5\nxx-en,s2,0.4,12,9\nxx-en,s3,0.35,13,4\nxx-en,s4,0.8,17,8\n"
    "xx-en,s5,0.6,14,10\nxx-en,s6,0.9,19,6\nxx-en,s7,0.2,11,7\n"
    "yy-en,s1,0.1,1,2\nyy-en,s2,0.2,2,1\nyy-en,s3,0.3,3,3\n"
)
R_WILLIAMS_T = 3.0822828241402358
R_WILLIAMS_P_TWO_SIDED = 0.036849679724967541


def test_metrics_analysis_hand_made_matches_r_and_reports_a_short_language_pair():
    res = A.metrics_analysis([("hand.csv", HAND_WIDE.encode())])
    assert list(res.analyses) == ["xx-en"]
    # yy-en has 3 systems: reported, not analysed
    assert list(res.problems) == ["yy-en"] and "only 3 systems" in res.problems["yy-en"]
    w = res.analyses["xx-en"].williams
    assert w.order == ("A", "B")
    assert w.statistic.at["A", "B"] == pytest.approx(R_WILLIAMS_T, rel=1e-12)
    assert w.pvalue.at["A", "B"] == pytest.approx(R_WILLIAMS_P_TWO_SIDED / 2, rel=1e-12)
    two = A.metrics_analysis([("hand.csv", HAND_WIDE.encode())], alternative="two-sided")
    p2 = two.analyses["xx-en"].williams.pvalue.at["A", "B"]
    assert p2 == pytest.approx(R_WILLIAMS_P_TWO_SIDED, rel=1e-12)


def test_language_pair_analysis_correlations_match_scipy():
    res = A.metrics_analysis([("hand.csv", HAND_WIDE.encode())])
    la = A.language_pair_analysis(res.analyses["xx-en"])
    h = np.array([0.1, 0.4, 0.35, 0.8, 0.6, 0.9, 0.2])
    a = np.array([10, 12, 13, 17, 14, 19, 11.0])
    b = np.array([5, 9, 4, 8, 10, 6, 7.0])
    assert la.correlation.pearson["A"] == pytest.approx(scipy.stats.pearsonr(a, h)[0], rel=1e-12)
    assert la.correlation.kendall["B"] == pytest.approx(scipy.stats.kendalltau(b, h)[0], rel=1e-12)
    assert la.metric_corr["spearman"].at["A", "B"] == pytest.approx(
        scipy.stats.spearmanr(a, b)[0], rel=1e-12
    )
    assert la.metric_corr["pearson"].at["A", "B"] == pytest.approx(
        scipy.stats.pearsonr(a, b)[0], rel=1e-12
    )
    # leaving out the system that moves r the most: recomputed by scipy without it
    system = la.influence.most_influential["A"]
    keep = np.array([s != system for s in la.scores.systems])
    assert la.influence.r_without.at[system, "A"] == pytest.approx(
        scipy.stats.pearsonr(a[keep], h[keep])[0], rel=1e-12
    )


def test_metrics_sample_williams_matches_a_direct_williams_test():
    from stats import williams_test

    files = [METRICS / "human.tsv", METRICS / "metrics.tsv"]
    res = A.metrics_analysis(files)
    assert list(res.analyses) == ["es-en", "de-en", "fr-en", "cs-en"] and not res.problems
    tests = res.analyses["de-en"]
    first, second = tests.williams.order[:2]
    m, h = tests.scores.metrics, tests.scores.human
    r = {k: scipy.stats.pearsonr(m[k], h)[0] for k in (first, second)}
    r12 = scipy.stats.pearsonr(m[first], m[second])[0]
    s1, s2 = np.sign(r[first]), np.sign(r[second])  # sign alignment: |r| compared
    direct = williams_test(
        r_human_a=s1 * r[first], r_human_b=s2 * r[second], r_a_b=s1 * s2 * r12, n=len(h)
    )
    assert tests.williams.pvalue.at[first, second] == pytest.approx(direct.pvalue, rel=1e-10)


def test_metrics_report_paths_and_uploads_agree_and_choose_language_pairs():
    paths = [METRICS / "human.tsv", METRICS / "metrics.tsv"]
    by_path = A.metrics_report(paths, language_pairs=["fr-en", "es-en"])
    by_upload = A.metrics_report([upload(p) for p in paths], language_pairs=["fr-en", "es-en"])
    assert [a.key for a in by_path] == ["fr-en", "es-en"]
    for x, y in zip(by_path, by_upload, strict=True):
        pd.testing.assert_frame_equal(x.williams.pvalue, y.williams.pvalue)
    assert len(A.metrics_report(paths)) == 4
    with pytest.raises(StatsInputError, match="language pair 'xx-yy' not found"):
        A.metrics_report(paths, language_pairs=["xx-yy"])


def test_metrics_analysis_splits_test_sets():
    rows = ["METRIC\tLP\tTESTSET\tSYSTEM\tSCORE"]
    rng = np.random.default_rng(0)
    for ts in ("news", "web"):
        for i in range(5):
            rows.append(f"HUMAN\tde-en\t{ts}\tsys{i}\t{i + rng.random():.3f}")
            rows.append(f"M1\tde-en\t{ts}\tsys{i}\t{2 * i + rng.random():.3f}")
            rows.append(f"M2\tde-en\t{ts}\tsys{i}\t{rng.random():.3f}")
    res = A.metrics_analysis([("wmt.tsv", "\n".join(rows).encode())])
    assert list(res.analyses) == ["de-en / news", "de-en / web"]
    assert res.analyses["de-en / web"].testset == "web"
    (only,) = A.metrics_report([("wmt.tsv", "\n".join(rows).encode())], testset="web")
    pd.testing.assert_frame_equal(only.williams.pvalue, res.analyses["de-en / web"].williams.pvalue)


def test_metrics_warnings_are_recorded_and_still_emitted():
    # a constant metric C: its r with humans is undefined (NaN, with a warning)
    lines = HAND_WIDE.split("yy-en")[0].strip().split("\n")
    text = "\n".join([lines[0] + ",C"] + [line + ",3" for line in lines[1:]])
    with pytest.warns(DegenerateInputWarning):
        res = A.metrics_analysis([("const.csv", text.encode())])
    assert any("C" in message for message in res.warnings)
    with pytest.warns(DegenerateInputWarning):
        la = A.language_pair_analysis(res.analyses["xx-en"])
    assert np.isnan(la.correlation.pearson["C"]) and la.warnings


def test_one_missing_data_policy_for_the_cli_and_the_dashboard():
    """metrics_report (CLI) is metrics_analysis (dashboard) block for block: a language pair
    without human scores is left out with one warning in both, and a block that cannot be
    analysed (3 systems) is a problem the report names in a warning; the rest is analysed."""
    rows = ["METRIC\tLP\tTESTSET\tSYSTEM\tSCORE"]
    for lp, n, human in (("de-en", 6, True), ("fr-en", 3, True), ("zz-en", 6, False)):
        for i in range(n):
            rows += [f"M1\t{lp}\tt\ts{i}\t{i * i}", f"M2\t{lp}\tt\ts{i}\t{(7 * i) % 5}"]
            rows += [f"HUMAN\t{lp}\tt\ts{i}\t{i}"] if human else []
    files = [("wmt.tsv", "\n".join(rows).encode())]
    with pytest.warns(DegenerateInputWarning, match="without human scores left out: zz-en"):
        res = A.metrics_analysis(files)
    assert list(res.analyses) == ["de-en"] and list(res.problems) == ["fr-en"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        (block,) = A.metrics_report(files)
    messages = [str(w.message) for w in caught]
    assert any("zz-en" in m for m in messages)
    assert any(m.startswith("fr-en left out: ") and "4" in m for m in messages)
    pd.testing.assert_frame_equal(block.williams.pvalue, res.analyses["de-en"].williams.pvalue)
    assert (block.lp, block.testset, block.refset) == ("de-en", "t", "")


# ---- QE from files ----------------------------------------------------------------------------

# 8 sentences; golden values from R 4: cor() and psych::r.test(n=8, r12=cor(hter,per),
# r13=cor(hter,time), r23=cor(per,time)) -> t = 0.38625500576831262, two-sided p =
# 0.71519763984675144; cor(A,time) = 0.975108986354602747, cor(B,time) = 0.877006602414433956,
# cor(A/words,per) = 0.911735828505559120, cor(B/words,per) = -0.091663820702705415.
TIME = [30, 45, 12, 60, 25, 80, 40, 18]
WORDS = [10, 12, 5, 15, 10, 20, 8, 9]
HTER = [0.2, 0.35, 0.1, 0.4, 0.15, 0.5, 0.45, 0.12]
PRED_A = [28, 50, 15, 55, 20, 70, 45, 20]
PRED_B = [35, 30, 20, 50, 40, 60, 30, 25]


def _qe_files(extra="HTER", values=HTER):
    wide = "sid,gold,A,B\n" + "".join(
        f"{i + 1},{t},{a},{b}\n" for i, (t, a, b) in enumerate(zip(TIME, PRED_A, PRED_B, strict=True))
    )
    head = "SID\tTIME\tWORDS" + (f"\t{extra}" if extra else "")
    pe = head + "\n" + "".join(
        f"{i + 1}\t{t}\t{w}" + (f"\t{v}" if extra else "") + "\n"
        for i, (t, w, v) in enumerate(zip(TIME, WORDS, values, strict=True))
    )
    return [("pred.csv", wide.encode()), ("pe.tsv", pe.encode())]


def test_qe_hand_made_matches_r_and_scipy():
    inp = A.load_qe(_qe_files())
    assert inp.data_files == ("pred.csv",) and inp.post_edit_file == "pe.tsv"
    res = A.qe_analysis(inp)
    assert res.post_edit_reference == "hter" and not res.rate
    assert res.result.statistic["A"] == pytest.approx(0.975108986354602747, rel=1e-12)
    assert res.result.statistic["B"] == pytest.approx(
        scipy.stats.pearsonr(PRED_B, TIME)[0], rel=1e-12
    )
    assert res.post_edit_test.statistic == pytest.approx(0.38625500576831262, rel=1e-12)
    assert res.post_edit_test.pvalue == pytest.approx(0.71519763984675144 / 2, rel=1e-12)
    rated = A.qe_analysis(inp, rate=True)
    assert rated.rate
    assert rated.result.statistic["A"] == pytest.approx(0.911735828505559120, rel=1e-12)
    assert rated.result.statistic["B"] == pytest.approx(-0.091663820702705415, rel=1e-12)
    np.testing.assert_allclose(
        A.qe_evaluated_data(inp, rate=True).gold, np.array(TIME) / np.array(WORDS)
    )


def test_post_edit_reference_rule():
    table = A.load_qe(_qe_files()).post_edit
    assert A.post_edit_reference(table) == "hter"
    assert A.post_edit_reference(table, "HTER") == "hter"
    with pytest.raises(StatsInputError, match=r"pe\.tsv: no reference column 'bleu'; found hter"):
        A.post_edit_reference(table, "bleu", name="pe.tsv")
    effort = A.load_qe(_qe_files("EFFORT", [1, 2, 1, 3, 2, 3, 2, 1]))
    assert A.qe_analysis(effort).post_edit_reference == "effort"
    bare = A.load_qe(_qe_files(None))
    res = A.qe_analysis(bare)
    assert res.post_edit_reference is None and res.post_edit_test is None
    assert A.qe_analysis(bare, rate=True).rate  # the word counts are enough for the rate


def test_load_qe_roles_and_errors():
    wmt = sorted((QE / "wmt").glob("*.txt"))
    found = A.load_qe([*wmt, QE / "wmt_gold.txt"])
    given = A.load_qe(wmt, gold=QE / "wmt_gold.txt")
    assert found.gold_file == given.gold_file == str(QE / "wmt_gold.txt")
    pd.testing.assert_frame_equal(found.data.predictions, given.data.predictions)
    uploads = A.load_qe([upload(p) for p in [*wmt, QE / "wmt_gold.txt"]])
    assert uploads.gold_file == "wmt_gold.txt"
    pd.testing.assert_frame_equal(uploads.data.predictions, given.data.predictions)
    # one upload of a gold file: sorted by content (the dashboard's case)
    with pytest.raises(StatsInputError, match="no QE predictions among the files"):
        A.load_qe([upload(QE / "wmt_gold.txt")], find_roles=True)
    with pytest.raises(StatsInputError, match=r"pe\.tsv: a second post-editing table"):
        A.load_qe(_qe_files(), post_edit=QE / "post_edit.tsv")
    with pytest.raises(StatsInputError, match="rate needs a post-editing table"):
        A.qe_analysis(A.load_qe([QE / "hter_long.txt"]), rate=True)
    with pytest.raises(StatsInputError, match="no QE file"):
        A.load_qe([])


def test_qe_sample_and_rescaling():
    inp = A.load_qe([QE / "pet_long.txt", QE / "post_edit.tsv"])
    res = A.qe_analysis(inp, rate=True, sd_ratio=0.3)
    assert res.result.n == 600 and res.post_edit_reference == "hter"
    rescale = A.qe_rescaling(inp, sd_ratio=0.3, rate=True)
    pd.testing.assert_series_equal(rescale.mae_rescaled, res.result.rescale.mae_rescaled)
    curve = A.qe_rescaling_curve(inp, rate=True)
    assert set(curve["system"]) == set(res.result.order)


# ---- MT randomized tests from files -----------------------------------------------------------


def test_text_statistics_bleu_matches_sacrebleu():
    data = A.text_statistics([MT / "reference.txt"], HYPS[:3], metric="bleu")
    assert data.systems == tuple(p.stem for p in HYPS[:3])
    refs = (MT / "reference.txt").read_text(encoding="utf-8").splitlines()
    for path, score in zip(HYPS[:3], data.corpus_scores, strict=True):
        hyp = path.read_text(encoding="utf-8").splitlines()
        assert score == pytest.approx(sacrebleu.corpus_bleu(hyp, [refs]).score, rel=1e-12)
    uploaded = A.text_statistics([upload(MT / "reference.txt")], [upload(p) for p in HYPS[:3]])
    np.testing.assert_array_equal(uploaded.corpus_scores, data.corpus_scores)
    with pytest.raises(StatsInputError, match=r"at least two systems to compare; got 1 \(Aurora\)"):
        A.text_statistics([MT / "reference.txt"], HYPS[:1])


def test_score_statistics_hand_made():
    wide = "segment,X,Y,Z\n1,0.5,0.1,0.9\n2,0.7,0.3,0.2\n3,0.2,0.4,0.6\n"
    seen = []
    data = A.score_statistics(
        ("w.csv", wide.encode()), lower_is_better=lambda name: seen.append(name) or True
    )
    assert seen == ["mean"] and data.higher_is_better is False and data.label == "mean score"
    np.testing.assert_allclose(data.corpus_scores, [np.mean([0.5, 0.7, 0.2]), 0.8 / 3, 1.7 / 3])
    with pytest.raises(StatsInputError, match=r"one\.csv: need at least two systems"):
        A.score_statistics(("one.csv", b"segment,X\n1,0.5\n2,0.7\n"))
    sim = A.score_statistics(MT / "segment_scores.tsv", metric="simcomet")
    assert sim.label == "SimCOMET" and sim.higher_is_better


def test_pair_tests_equal_the_all_pairs_grid():
    data = A.score_statistics(MT / "segment_scores.tsv", metric="SimCOMET")
    grid = {
        t: pairwise_significance(data, test=t, n_resamples=300, rng=7).pvalue for t in RANDOMIZED_TESTS
    }
    x, y = grid["bootstrap"].index[0], grid["bootstrap"].index[1]
    single = A.pair_tests(data, x, y, tests=RANDOMIZED_TESTS, n_resamples=300, rng=7)
    assert list(single) == list(RANDOMIZED_TESTS)
    for t in RANDOMIZED_TESTS:
        assert single[t].pvalue == grid[t].at[x, y]
    with pytest.raises(StatsInputError, match="unknown test"):
        A.pair_tests(data, x, y, tests=["sign-test"], n_resamples=10)


# ---- tests against humans ---------------------------------------------------------------------


def test_human_gold_paths_and_uploads_agree():
    by_path = A.human_gold([SAMPLE / "human" / "judgements.tsv"])
    by_upload = A.human_gold([upload(SAMPLE / "human" / "judgements.tsv")])
    pd.testing.assert_frame_equal(by_path.pvalue["combined"], by_upload.pvalue["combined"])
    with pytest.raises(StatsInputError, match="no judgements file"):
        A.human_gold([])


def test_accuracy_statistics_and_accuracy_from_results():
    metrics = A.accuracy_statistics(
        references=[MT / "reference.txt"],
        hypotheses=HYPS,
        metrics=["chrf"],
        scores=MT / "segment_scores.tsv",
        score_metrics=["SimCOMET"],
    )
    assert list(metrics) == ["chrf", "SimCOMET"]
    gold = A.human_gold([SAMPLE / "human" / "judgements.tsv"])
    tests = ("bootstrap", "approximate-randomization")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateInputWarning)
        whole = significance_accuracy(
            gold, metrics, tests=tests, alphas=(0.05, 0.01), n_resamples=200, rng=3
        )
        results = {
            (m, t): pairwise_significance(
                data.subset(list(whole.systems)), test=t, n_resamples=200, rng=3
            )
            for m, data in metrics.items()
            for t in tests
        }
        pieces = A.accuracy_from_results(
            gold, results, alphas=(0.05, 0.01), n_resamples=200, seed=3
        )
    pd.testing.assert_frame_equal(pieces.table, whole.table)
    clash = "SYSTEM\tSEGMENT\tSCORE\tMETRIC\n" + "".join(
        f"{s}\t{i}\t{v}\tchrf\n" for s in ("Aurora", "Borealis") for i, v in enumerate((1, 2))
    )
    with pytest.raises(StatsInputError, match="'chrf' of c.tsv clashes"):
        A.accuracy_statistics(
            references=[MT / "reference.txt"],
            hypotheses=HYPS,
            metrics=["chrf"],
            scores=("c.tsv", clash.encode()),
        )


def test_each_file_decoded_once_and_duplicates_checked_once_on_the_way_to_a_grid(monkeypatch):
    """Format detection hands on the decoded text (no second decode or detection per file),
    and the duplicate check runs once over all files, not per file and again per block."""
    from stats.readers import system_level

    calls = {"decode": 0, "duplicates": 0}

    def counted(name, real):
        def wrapper(*args, **kwargs):
            calls[name] += 1
            return real(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(system_level, "decode", counted("decode", system_level.decode))
    monkeypatch.setattr(
        system_level, "_check_duplicates", counted("duplicates", system_level._check_duplicates)
    )
    res = A.metrics_analysis([METRICS / "human.tsv", METRICS / "metrics.tsv"])
    assert len(res.analyses) == 4  # four language pairs, one grid each
    assert calls == {"decode": 2, "duplicates": 1}
