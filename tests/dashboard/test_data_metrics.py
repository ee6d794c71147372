"""dashboard.data.metrics and the metrics section of dashboard.tables: cached analysis over
the bundled sample, per-LP problems, baseline choice, correlation table and per-LP summary."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dashboard import tables
from dashboard.data import metrics, samples
from stats import StatsInputError
from stats.metaeval.correlation import correlate_with_human
from stats.metaeval.williams import williams_all_pairs
from stats.readers.system_level import read_system_scores

# Golden values for es-en of the bundled sample, from R 4.2.2 + psych 2.2.9 running
# METRICS_R_SCRIPT below from the repository root (printed with %.17g): the metrics' r with
# humans in the order of |r| (the Williams order), and for TerrorCat (first) against each
# other metric the Spearman and Pearson correlation of the sign-aligned scores and the
# one-sided Williams p of psych::r.test.
METRICS_R_SCRIPT = r"""
suppressMessages(library(psych))
h <- read.delim("sample_data/metrics/human.tsv", stringsAsFactors = FALSE)
m <- read.delim("sample_data/metrics/metrics.tsv", stringsAsFactors = FALSE)
h <- h[h$LP == "es-en", ]; m <- m[m$LP == "es-en", ]
x <- tapply(m$SCORE, list(m$SYSTEM, m$METRIC), identity)
human <- h$SCORE[match(rownames(x), h$SYSTEM)]
r <- cor(x, human)[, 1]
o <- names(sort(-abs(r)))
a <- sweep(x[, o], 2, sign(r[o]), `*`)
sp <- cor(a, method = "spearman"); pe <- cor(a)
for (i in seq_along(o)) for (j in seq_along(o)) if (i < j) {
  p <- r.test(n = length(human), r12 = abs(r[o[i]]), r13 = abs(r[o[j]]), r23 = pe[i, j],
              twotailed = FALSE)$p
  cat(sprintf("%s\t%s\t%.17g\t%.17g\t%.17g\n", o[i], o[j], sp[i, j], pe[i, j], p))
}
cat(sprintf("r\t%s\t%.17g\n", o, r[o]), sep = "")
"""
R_ES_EN_R = {
    "TerrorCat": 0.97099991717829981,
    "METEOR": 0.96400106619746695,
    "SAGAN": 0.96100033758435677,
    "SEMPOS": 0.95800072650732304,
    "PosF": 0.95500074428058312,
    "chrF": 0.93599984030112393,
    "BLEU": 0.91199958529448844,
    "NIST": 0.90499971668098056,
    "TER": -0.90200128759456366,
    "WER": -0.88700078001725291,
    "AMBER": 0.88100071350229003,
    "PER": -0.87399916740861328,
}
# (TerrorCat, other) -> Spearman, Pearson, Williams one-sided p (TerrorCat is first in order)
R_ES_EN_PAIRS = {
    ("TerrorCat", "METEOR"): (0.95804195804195824, 0.97102637968245642, 0.35207669477366421),
    ("TerrorCat", "SAGAN"): (0.91608391608391615, 0.94557274354031862, 0.33085894794049675),
    ("TerrorCat", "SEMPOS"): (0.91608391608391615, 0.94461258990885189, 0.29144872172239078),
    ("TerrorCat", "PosF"): (0.88111888111888126, 0.89135188816058009, 0.24539635413667793),
    ("TerrorCat", "chrF"): (0.79020979020979032, 0.85884890059536023, 0.10508700128995964),
    ("TerrorCat", "BLEU"): (0.8671328671328673, 0.90632670224774459, 0.054865703870774912),
    ("TerrorCat", "NIST"): (0.7972027972027973, 0.85453949653826933, 0.050319462374533275),
    ("TerrorCat", "TER"): (0.87412587412587417, 0.90658585336112796, 0.037007626142462599),
    ("TerrorCat", "WER"): (0.7622377622377623, 0.86950139441078089, 0.030278799597820791),
    ("TerrorCat", "AMBER"): (1.0, 0.95961523322882869, 9.8155963204101749e-05),
    ("TerrorCat", "PER"): (0.63636363636363646, 0.81556738656175576, 0.023665132420512745),
}


@pytest.fixture(scope="module")
def sample():
    return samples.sample_files("metrics", samples.METRICS_SAMPLE_FILES)


def test_sample_files_are_name_bytes_tuples(sample):
    assert [name for name, _ in sample] == ["human.tsv", "metrics.tsv"]
    assert all(isinstance(b, bytes) and b.startswith(b"METRIC") for _, b in sample)
    assert samples.sample_files("no-such-dir") == ()


def test_metrics_analysis_matches_stats_directly(sample):
    res = metrics.analysis(sample, "greater")
    assert list(res.analyses) == ["es-en", "de-en", "fr-en", "cs-en"]
    assert res.problems == {}
    es = metrics.lp_analysis(sample, "es-en", "greater")
    pd.testing.assert_frame_equal(res.analyses["es-en"].williams.pvalue, es.williams.pvalue)
    lp = read_system_scores(*sample).language_pair("es-en")
    direct = williams_all_pairs(lp.metrics, lp.human)
    pd.testing.assert_frame_equal(es.williams.pvalue, direct.pvalue)
    corr = correlate_with_human(lp.metrics, lp.human)
    pd.testing.assert_series_equal(es.correlation.pearson, corr.pearson)
    pd.testing.assert_frame_equal(es.metric_corr["pearson"], direct.metric_corr)
    # independent values from R: the Williams order, r with humans, and TerrorCat's row of
    # the Spearman / Pearson metric-metric matrices (sign-aligned scores) and of the p-values
    _check_es_en_against_r(es, R_ES_EN_R, R_ES_EN_PAIRS)


def _check_es_en_against_r(es, r_human, pairs):
    assert list(es.williams.order) == list(r_human)
    for metric, r in r_human.items():
        assert es.correlation.pearson[metric] == pytest.approx(r, rel=1e-12)
    for (a, b), (rho, r, p) in pairs.items():
        assert es.metric_corr["spearman"].at[a, b] == pytest.approx(rho, rel=1e-12)
        assert es.metric_corr["spearman"].at[b, a] == pytest.approx(rho, rel=1e-12)
        assert es.metric_corr["pearson"].at[a, b] == pytest.approx(r, rel=1e-12)
        assert es.williams.pvalue.at[a, b] == pytest.approx(p, rel=1e-9)
        assert np.isnan(es.williams.pvalue.at[b, a])


def test_metrics_lp_analysis_matches_live_r(sample):
    """The same es-en values computed live by R for every pair (skips without R/psych)."""
    from tests._data import ROOT, run_rscript

    out = run_rscript(METRICS_R_SCRIPT, cwd=ROOT)
    rows = [line.split("\t") for line in out.splitlines()]
    r_human = {row[1]: float(row[2]) for row in rows if row[0] == "r"}
    pairs = {(row[0], row[1]): tuple(map(float, row[2:])) for row in rows if row[0] != "r"}
    assert len(r_human) == 12 and len(pairs) == 12 * 11 // 2
    es = metrics.lp_analysis(sample, "es-en", "greater")
    _check_es_en_against_r(es, r_human, pairs)
    # and the recorded constants are still what R says
    assert r_human == pytest.approx(R_ES_EN_R, rel=1e-12)
    for pair, values in R_ES_EN_PAIRS.items():
        assert pairs[pair] == pytest.approx(values, rel=1e-12)


def test_metrics_analysis_two_sided_doubles_one_sided_p(sample):
    one = metrics.analysis(sample, "greater").analyses["de-en"].williams.pvalue
    two = metrics.analysis(sample, "two-sided").analyses["de-en"].williams.pvalue
    np.testing.assert_allclose(two.to_numpy(), np.minimum(2 * one.to_numpy(), 1.0))


def test_lp_with_too_few_systems_is_reported_not_fatal(sample):
    extra = "METRIC\tLP\tTESTSET\tSYSTEM\tSCORE\n" + "".join(
        f"{m}\txx-en\tt\ts{i}\t{v + i}\n"
        for m, v in (("HUMAN", 0.1), ("BLEU", 10))
        for i in range(3)
    )
    res = metrics.analysis(sample + (("tiny.tsv", extra.encode()),), "greater")
    assert "xx-en" in res.problems and "at least 4" in res.problems["xx-en"]
    assert "es-en" in res.analyses
    with pytest.raises(KeyError):
        metrics.lp_analysis(sample + (("tiny.tsv", extra.encode()),), "xx-en", "greater")


def test_constant_metric_warning_comes_with_the_lp_analysis():
    rows = ["system,human,BLEU,Flat"] + [
        f"s{i},{i * 0.1:.1f},{(i * 7) % 5 + i},3" for i in range(6)
    ]
    uploads = (("flat.csv", ("\n".join(rows) + "\n").encode()),)
    assert any("Flat" in m for m in metrics.analysis(uploads, "greater").warnings)
    lp = metrics.lp_analysis(uploads, "all", "greater")
    assert any("Flat" in m for m in lp.warnings)
    assert np.isnan(lp.correlation.pearson["Flat"])


def test_no_analysable_lp_raises_input_error():
    text = "system,human,BLEU\na,0.1,1\nb,0.2,2\nc,0.3,4\n"
    with pytest.raises(StatsInputError, match="at least 4"):
        metrics.analysis((("three.csv", text.encode()),), "greater")


def test_unreadable_upload_raises_input_error_naming_file():
    with pytest.raises(StatsInputError, match="bad.tsv"):
        metrics.analysis((("bad.tsv", b"hello world\n1 2\n"),), "greater")


def test_default_baseline():
    assert tables.default_baseline(["TerrorCat", "sacreBLEU", "BLEU"]) == "BLEU"
    assert tables.default_baseline(["TerrorCat", "sacreBLEU"]) == "sacreBLEU"
    assert tables.default_baseline(["chrF", "TER"]) is None


def test_default_baseline_is_bleu_not_bleurt():
    # BLEURT is a trained metric, not a BLEU variant (helper G's long names)
    names = ["BLEURT-20-D12-checkpoint", "sacreBLEU-13a-exp-v2.0"]
    assert tables.default_baseline(names) == "sacreBLEU-13a-exp-v2.0"
    assert tables.default_baseline(["bleurt-20", "COMET", "bleu"]) == "bleu"
    assert tables.default_baseline(["BLEURT-20"]) is None  # the page falls back to lowest |r|
    assert tables.default_baseline(["BLEURT-20", "BLEU-4"]) == "BLEU-4"


def test_correlation_table_order_and_influence(sample):
    es = metrics.lp_analysis(sample, "es-en", "greater")
    t = tables.correlation_table(es, "spearman")
    assert list(t.columns[:4]) == ["pearson", "spearman", "kendall", "n"]
    assert (np.diff(t["spearman"].abs().to_numpy()) <= 1e-12).all()
    assert (t["n"] == 12).all()
    # r without the most influential system = the leave-one-out value for that system
    m = "BLEU"
    sysname = t.at[m, "most_influential"]
    assert t.at[m, "pearson_without"] == pytest.approx(es.influence.r_without.at[sysname, m])


def test_significance_summary_counts(sample):
    res = metrics.analysis(sample, "greater")
    s = tables.significance_summary(res.analyses, alpha=0.05, baseline="BLEU")
    assert list(s.index) == ["es-en", "de-en", "fr-en", "cs-en"]
    for key, a in res.analyses.items():
        sig = a.williams.pvalue.to_numpy() < 0.05
        m = len(a.williams.order)
        assert s.at[key, "significant pairs"] == sig.sum()
        assert s.at[key, "share significant"] == pytest.approx(sig.sum() / (m * (m - 1) / 2))
        beats = [r for r in a.williams.order if a.williams.pvalue.at[r, "BLEU"] < 0.05]
        assert s.at[key, "beat baseline"] == len(beats)
        text = s.at[key, "metrics significantly beating baseline"]
        assert text == (", ".join(beats) if beats else "none")
    stricter = tables.significance_summary(res.analyses, alpha=0.001, baseline="BLEU")
    assert (stricter["significant pairs"] <= s["significant pairs"]).all()
    absent = tables.significance_summary(res.analyses, alpha=0.05, baseline="nope")
    assert (absent["metrics significantly beating baseline"] == "(baseline absent)").all()


def test_default_baseline_wmt_bleu_names():
    # WMT-12 system-level names: SIMPBLEU (a different metric) sorts before BLEU by |r|
    wmt12 = ["SIMPBLEU", "TerrorCat", "BLEU_4_closest_uncased", "BLEU_4_closest_cased", "NIST"]
    assert tables.default_baseline(wmt12) == "BLEU_4_closest_cased"
    # WMT-2x names: the plain sacreBLEU BLEU, not a per-reference or chrF variant
    wmt21 = ["sacreBLEU-chrF", "sacreBLEU-BLEU-refB", "BLEURT-20", "sacreBLEU-BLEU", "mBLEU"]
    assert tables.default_baseline(wmt21) == "sacreBLEU-BLEU"
    assert tables.default_baseline(["COMET-refB", "BLEU-refB", "BLEU-refA"]) == "BLEU-refA"
    assert tables.default_baseline(["sentBLEU", "YiSi-1"]) == "sentBLEU"
    # only a variant of another family left: it still counts, in the order given
    assert tables.default_baseline(["chrF", "SIMPBLEU", "mBLEU"]) == "SIMPBLEU"
    # sacreBLEU is the tool: its chrF is not BLEU, its plain name is
    assert tables.default_baseline(["sacreBLEU-chrF", "SIMPBLEU", "sacreBLEU-13a"]) == (
        "sacreBLEU-13a"
    )
    assert tables.default_baseline(["sacreBLEU-chrF", "BLEU_4_closest_cased"]) == (
        "BLEU_4_closest_cased"
    )
