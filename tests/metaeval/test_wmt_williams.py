"""``python -m stats williams`` on WMT metrics task files (tests/_wmt_data.py): blocks by
language pair and reference, reference-free metrics, excluded systems and outliers, dropped
metrics, winners.

Golden values: Pearson r from scipy.stats.pearsonr on the generator's own table (the files
are never read for them); the MAD outlier rule from R's ``mad`` (constant 1.4826) and from
scipy.stats.median_abs_deviation; the Williams p-values from R's psych::r.test, run live
(skips without Rscript), and the winners from those R p-values.
"""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats as ss

from stats import DegenerateInputWarning, StatsInputError
from stats.analyses.metrics import metrics_analysis
from stats.cli import main
from stats.metaeval.outliers import mad_outliers
from tests import _wmt_data as W
from tests._data import run_rscript

ALL_OPTIONS = [
    "--refset",
    "all",
    "--reference-free",
    "COMET-QE",
    "--exclude-systems",
    "Human-*",
    "--exclude-outliers",
]


@pytest.fixture(scope="module")
def fx(tmp_path_factory):
    return W.write_fixture(tmp_path_factory.mktemp("wmt"))


def run_cli(capsys, *argv):
    code = main(["williams", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def expected_block(lp: str, refset: str, *, exclude_human=True, outliers=True):
    """The block computed from the generator's table: (kept systems, {metric: scores}, z)."""
    human, metrics = W.truth()
    h = human[human["lp"] == lp].set_index("system")["z"]
    if exclude_human:
        h = h.drop(W.HUMAN_TRANSLATION, errors="ignore")
    if outliers:  # the MAD rule, by scipy: |x - median| / (1.4826 MAD) > 2.5
        dev = np.abs(h - h.median()) / ss.median_abs_deviation(h.to_numpy(), scale=1 / 1.4826)
        h = h[~(dev > 2.5)]
    m = metrics[(metrics["lp"] == lp) & metrics["refset"].isin([refset, "src"])]
    table = {}
    for metric, rows in m.groupby("metric", sort=False):
        s = rows.set_index("system")["score"]
        if set(h.index) <= set(s.index):
            table[metric] = s.loc[h.index].to_numpy()
    return list(h.index), table, h.to_numpy()


def test_mad_outliers_against_r_and_scipy():
    rng = np.random.default_rng(3)
    x = np.append(rng.normal(0, 0.3, 15), [-2.0, 1.9])
    ours = mad_outliers(x)
    dev = np.abs(x - np.median(x)) / ss.median_abs_deviation(x, scale=1 / 1.4826)
    np.testing.assert_array_equal(ours, dev > 2.5)  # scipy
    assert ours[-2:].all()  # the two planted outliers
    vec = ",".join(repr(float(v)) for v in x)
    out = run_rscript(f"x<-c({vec});cat(as.integer(abs(x-median(x))/mad(x)>2.5))")  # R's mad
    np.testing.assert_array_equal(ours, np.array(out.split(), dtype=int).astype(bool))
    assert not mad_outliers([1.0, 1.0, 1.0, 5.0]).any()  # MAD 0: none
    with pytest.raises(StatsInputError, match="threshold must be a positive number"):
        mad_outliers([1.0, 2.0], threshold=0)


def test_all_references_pearson_against_scipy(fx, capsys):
    code, out, err = run_cli(capsys, "--metrics", fx["dir"], "--format", "json", *ALL_OPTIONS)
    assert code == 0, err
    blocks = json.loads(out)["language_pairs"]
    # each field one name: no "en-de / newstestB2020" for a script to split
    assert [(b["lp"], b["testset"], b["refset"]) for b in blocks] == [
        ("cs-en", "newstest2020", "newstest2020"),
        ("en-de", "newstest2020", "newstest2020"),
        ("en-de", "newstest2020", "newstestB2020"),
    ]
    lps = ["cs-en", "en-de", "en-de"]
    for block, lp in zip(blocks, lps, strict=True):
        systems, table, z = expected_block(lp, block["refset"])
        assert block["systems"] == systems
        assert set(block["metrics"]) == set(table)
        for metric, scores in table.items():
            assert block["pearson"][metric] == pytest.approx(ss.pearsonr(scores, z)[0], abs=1e-12)
        assert "COMET-QE" in block["metrics"]  # reference-free: in every block
        assert block["outliers"] == [W.OUTLIER]
    assert blocks[0]["dropped_metrics"] == ["METEOR"]
    assert "METEOR has no score for Sys3.103" in err
    assert blocks[1]["excluded_systems"] == [W.HUMAN_TRANSLATION, W.OUTLIER]


def _r_williams(tmp_path, z, table):
    """psych::r.test one-tailed p for every ordered pair (sign-aligned scores), by R."""
    frame = pd.DataFrame({"h": z, **table})
    path = tmp_path / "block.tsv"
    frame.to_csv(path, sep="\t", index=False)
    script = (
        "suppressMessages(library(psych));"
        "d<-read.delim(commandArgs(trailingOnly=TRUE)[1],check.names=FALSE);"
        "h<-d$h;m<-d[,-1,drop=FALSE];for(j in names(m)) m[[j]]<-m[[j]]*sign(cor(m[[j]],h));"
        "for(a in names(m)) for(b in names(m)) if(a!=b && cor(m[[a]],h)>cor(m[[b]],h)){"
        "t<-r.test(n=length(h),r12=cor(m[[a]],h),r13=cor(m[[b]],h),r23=cor(m[[a]],m[[b]]),"
        "twotailed=FALSE);cat(a,b,sprintf('%.17g',t$p),'\\n',sep='\\t')}"
    )
    rows = [ln.split("\t")[:3] for ln in run_rscript(script, path).strip().splitlines()]
    return {(a, b): float(p) for a, b, p in rows}


def test_williams_p_and_winners_against_psych(fx, capsys, tmp_path):
    code, out, err = run_cli(
        capsys, "--metrics", fx["dir"], "--format", "json", "--alpha", "0.2", *ALL_OPTIONS
    )
    assert code == 0, err
    for block, lp in zip(
        json.loads(out)["language_pairs"], ["cs-en", "en-de", "en-de"], strict=True
    ):
        _, table, z = expected_block(lp, block["refset"])
        r_p = _r_williams(tmp_path, z, table)
        for (a, b), p in r_p.items():
            assert block["williams_p"][a][b] == pytest.approx(p, rel=1e-9)
        beaten = {b for (a, b), p in r_p.items() if p < 0.2}
        assert block["winners"] == [m for m in block["metrics"] if m not in beaten]


def test_default_reference_is_the_test_sets_own(fx, capsys):
    code, out, err = run_cli(capsys, "--metrics", fx["zip"], "--format", "json")
    assert code == 0, err
    blocks = json.loads(out)["language_pairs"]
    assert [(b["lp"], b["refset"]) for b in blocks] == [
        ("cs-en", "newstest2020"),
        ("en-de", "newstest2020"),
    ]
    de = blocks[1]
    systems, table, z = expected_block("en-de", "newstest2020", exclude_human=False, outliers=False)
    assert de["systems"] == systems and de["excluded_systems"] == []
    assert "COMET-QE" not in de["metrics"]  # REFSET src, not named reference-free
    assert de["pearson"]["BLEU"] == pytest.approx(ss.pearsonr(table["BLEU"], z)[0], abs=1e-12)


def test_refset_by_name_and_tsv_captions(fx, capsys):
    code, out, err = run_cli(
        capsys,
        "--metrics",
        *fx["metrics"],
        "--human",
        *fx["human"],
        "--lp",
        "en-de",
        "--refset",
        "newstestB2020",
        "--exclude-systems",
        "Human-*",
        "--format",
        "tsv",
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("# en-de newstest2020 refset=newstestB2020\tn=9")
    assert lines[2].startswith(
        "# winners (alpha=0.05, not outperformed by any metric; the WMT17-21 rule, raw p)\t"
    )
    assert lines[3] == f"# excluded systems\t{W.HUMAN_TRANSLATION}"


def test_raw_human_scores(fx, capsys):
    code, out, _ = run_cli(
        capsys, "--metrics", fx["tar"], "--human-score", "raw", "--lp", "cs-en", "--format", "json"
    )
    assert code == 0
    block = json.loads(out)["language_pairs"][0]
    human, metrics = W.truth()
    h = human[human["lp"] == "cs-en"].set_index("system")["raw"]
    bleu = metrics[(metrics["metric"] == "BLEU") & (metrics["lp"] == "cs-en")]
    bleu = bleu.set_index("system")["score"].loc[h.index]
    assert block["pearson"]["BLEU"] == pytest.approx(ss.pearsonr(bleu, h)[0], abs=1e-12)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--refset", "nope"], "reference 'nope' not found; present: newstest2020"),
        (["--reference-free", "QE-X"], "reference-free metric(s) QE-X not in the files"),
    ],
)
def test_bad_options_exit_2(fx, capsys, argv, message):
    code, out, err = run_cli(capsys, "--metrics", fx["dir"], *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1


def test_bad_file_exit_2_names_file_and_line(fx, capsys, tmp_path):
    bad = tmp_path / "BAD.sys.score"
    bad.write_text("BAD\tcs-en\tnewstest2020\tnewstest2020\tSys0.100\t0.5\nBAD\tcs-en\tx\n")
    code, _, err = run_cli(capsys, "--metrics", fx["dir"], bad)
    assert code == 2
    assert (
        err.strip()
        == f"error: {bad}, line 2: expected 6 fields (METRIC LP TESTSET REFSET SYSTEM SCORE), found 3"
    )


def test_dashboard_workflow_reports_selection(fx):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateInputWarning)
        res = metrics_analysis(
            [fx["zip"]], refset="all", reference_free=["COMET-QE"], exclude_systems=["Human-*"]
        )
    assert list(res.analyses) == ["cs-en", "en-de / newstest2020", "en-de / newstestB2020"]
    de_b = res.analyses["en-de / newstestB2020"]
    assert de_b.refset == "newstestB2020"
    assert de_b.selection.excluded_systems == (W.HUMAN_TRANSLATION,)
    assert any("METEOR has no score for Sys3.103" in w for w in res.warnings)


def test_unanalysed_reference_warned(fx, capsys):
    code, _, err = run_cli(capsys, "--metrics", fx["dir"], "--lp", "cs-en")
    assert code == 0
    assert "metric COMET-QE has scores only for reference(s) src, not analysed" in err


def test_winners_two_sided_use_half_p():
    """A two-sided result's winners are those of the one-sided test (p halved)."""
    from stats.metaeval.williams import williams_all_pairs, williams_winners

    _, table, z = expected_block("en-de", "newstest2020")
    frame = pd.DataFrame(table)
    one = williams_all_pairs(frame, z, alternative="greater")
    two = williams_all_pairs(frame, z, alternative="two-sided")
    for alpha in (0.05, 0.2, 0.45):
        assert williams_winners(one, alpha=alpha) == williams_winners(two, alpha=alpha)
    beaten = {c for r in one.order for c in one.order if one.pvalue.at[r, c] < 0.45}
    assert williams_winners(one, alpha=0.45) == tuple(m for m in one.order if m not in beaten)


def test_unevaluated_systems_and_language_pairs_left_out(fx, capsys, tmp_path):
    """Published metric files score systems and language pairs that humans did not evaluate:
    those are left out with a warning, as the organisers' scripts do."""
    extra = tmp_path / "extra.sys.score"
    extra.write_text(
        "".join(
            f"{m}\tcs-en\tnewstest2020\tnewstest2020\tNoDA.1\t0.5\n"
            for m in ("BLEU", "chrF", "TER")
        )
        + "BLEU\tde-fr\tnewstest2020\tnewstest2020\tSys0.100\t20.0\n"
    )
    code, out, err = run_cli(capsys, "--metrics", *fx["metrics"], extra, "--human", *fx["human"])
    assert code == 0, err
    assert "language pair(s) without human scores left out: de-fr" in err
    assert "system(s) with metric scores but no human score left out: NoDA.1" in err
    blocks = json.loads(out)["language_pairs"]
    assert [b["lp"] for b in blocks] == ["cs-en", "en-de"]
    assert blocks[0]["without_human"] == ["NoDA.1"] and "NoDA.1" not in blocks[0]["systems"]


#: psych::r.test one-tailed p of the cs-en block (all options: Human-* and the outlier left
#: out, METEOR dropped, COMET-QE reference-free), recorded with _r_williams (psych 2.2.9, R 4.2.2)
#: so that the comparison runs where Rscript is absent too.
PSYCH_CS_EN = {
    ("chrF", "BLEU"): 0.10264040918114262,
    ("chrF", "TER"): 0.4104278145018878,
    ("chrF", "COMET-QE"): 0.35908583576943665,
    ("TER", "BLEU"): 0.09494188521632053,
    ("TER", "COMET-QE"): 0.44280772741968244,
    ("COMET-QE", "BLEU"): 0.16974882530897695,
}


def test_williams_p_against_recorded_psych(fx, capsys):
    code, out, err = run_cli(capsys, "--metrics", fx["zip"], "--format", "json", *ALL_OPTIONS)
    assert code == 0, err
    block = json.loads(out)["language_pairs"][0]
    assert block["lp"] == "cs-en" and block["metrics"] == ["chrF", "TER", "COMET-QE", "BLEU"]
    for (a, b), p in PSYCH_CS_EN.items():
        assert block["williams_p"][a][b] == pytest.approx(p, rel=1e-9)
    assert block["winners"] == block["metrics"]  # no p below 0.05


def test_outliers_json_as_wmt_publishes_it(fx, capsys, tmp_path):
    """``--outliers FILE`` (WMT's outliers.json) leaves the listed systems out of their
    language pair's blocks, as ``rank --outliers``; r against scipy on the kept systems."""
    f = tmp_path / "outliers.json"
    f.write_text(json.dumps({"cs-en": [W.OUTLIER], "en-de": [W.OUTLIER, "Nobody.1"]}))
    code, out, err = run_cli(capsys, "--metrics", fx["dir"], "--format", "json", "--refset",
                             "all", "--reference-free", "COMET-QE", "--exclude-systems",
                             "Human-*", "--outliers", f)
    assert code == 0, err
    blocks = json.loads(out)["language_pairs"]
    assert len(blocks) == 3
    for block in blocks:
        systems, table, z = expected_block(block["lp"], block["refset"])
        assert W.OUTLIER not in systems and block["systems"] == systems
        assert block["outliers"] == [W.OUTLIER]
        for metric, scores in table.items():
            assert block["pearson"][metric] == pytest.approx(ss.pearsonr(scores, z)[0], abs=1e-12)
    assert "outliers as published left out" in err
    bad = tmp_path / "bad.json"
    bad.write_text('["cs-en"]')
    code, out, err = run_cli(capsys, "--metrics", fx["dir"], "--outliers", bad)
    assert code == 2 and err.count("\n") == 1 and "bad.json" in err
