"""Tests of ``python -m stats williams`` and of the bundled synthetic sample (sample_data/metrics)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as ss

from stats.cli import main
from stats.metaeval.williams import williams_test
from stats.readers.system_level import read_system_scores

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "metrics"
HUMAN = SAMPLE / "human.tsv"
METRICS = SAMPLE / "metrics.tsv"
WIDE = SAMPLE / "es-en_wide.csv"


def run_cli(capsys, *argv):
    code = main(["williams", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_shape_on_sample(capsys):
    code, out, err = run_cli(capsys, "--human", HUMAN, "--metrics", METRICS)
    assert code == 0, err
    doc = json.loads(out)
    lps = [b["lp"] for b in doc["language_pairs"]]
    assert lps == ["es-en", "de-en", "fr-en", "cs-en"]
    es = doc["language_pairs"][0]
    assert es["n"] == 12 and es["df"] == 9
    order = es["metrics"]
    assert len(order) == 12 and order[0] == "TerrorCat"
    absr = [abs(es["pearson"][m]) for m in order]
    assert absr == sorted(absr, reverse=True)  # highest |r| first
    assert es["pearson"]["TER"] < 0 and es["sign"]["TER"] == -1
    for key in ("spearman", "kendall", "pearson"):
        assert set(es[key]) == set(order)
    p = es["williams_p"]
    assert list(p) == order and all(list(p[r]) == order for r in order)
    for i, r in enumerate(order):
        for j, c in enumerate(order):
            if i >= j:
                assert p[r][c] is None  # diagonal and mirror cells are null
            else:
                assert 0.0 <= p[r][c] <= 1.0
    # the extras: CI contains the difference
    for r, c in [("TerrorCat", "AMBER"), ("METEOR", "PER")]:
        assert es["ci_low"][r][c] < es["difference"][r][c] < es["ci_high"][r][c]


def test_json_values_match_independent_computation(capsys):
    code, out, _ = run_cli(capsys, "--human", HUMAN, "--metrics", METRICS, "--lp", "de-en")
    assert code == 0
    (block,) = json.loads(out)["language_pairs"]
    de = read_system_scores(HUMAN, METRICS).language_pair("de-en")
    h = de.human.to_numpy()
    for m in de.metrics:
        x = de.metrics[m].to_numpy()
        assert block["pearson"][m] == pytest.approx(ss.pearsonr(x, h).statistic, rel=1e-12)
        assert block["spearman"][m] == pytest.approx(ss.spearmanr(x, h).statistic, rel=1e-12)
        assert block["kendall"][m] == pytest.approx(ss.kendalltau(x, h).statistic, rel=1e-12)
    a, b = block["metrics"][0], block["metrics"][3]
    xa = de.metrics[a].to_numpy() * block["sign"][a]
    xb = de.metrics[b].to_numpy() * block["sign"][b]
    single = williams_test(
        r_a_b=np.corrcoef(xa, xb)[0, 1],
        r_human_a=np.corrcoef(xa, h)[0, 1],
        r_human_b=np.corrcoef(xb, h)[0, 1],
        n=len(h),
    )
    assert block["williams_p"][a][b] == pytest.approx(single.pvalue, rel=1e-10)


def test_sample_reproduces_paper_facts_for_es_en(capsys):
    """Graham & Baldwin (2014), WMT-12 es-en: AMBER r = 0.881, TerrorCat r = 0.971, both
    Spearman 0.965; TerrorCat not significantly better than METEOR, SAGAN, SEMPOS, PosF.
    (The sample is synthetic, generated to have these correlations.)"""
    code, out, _ = run_cli(capsys, "--scores", WIDE, "--lp", "es-en")
    assert code == 0
    (es,) = json.loads(out)["language_pairs"]
    assert round(es["pearson"]["AMBER"], 3) == 0.881
    assert round(es["pearson"]["TerrorCat"], 3) == 0.971
    assert round(es["spearman"]["AMBER"], 3) == round(es["spearman"]["TerrorCat"], 3) == 0.965
    assert es["metrics"][:5] == ["TerrorCat", "METEOR", "SAGAN", "SEMPOS", "PosF"]
    for other in ["METEOR", "SAGAN", "SEMPOS", "PosF"]:
        assert es["williams_p"]["TerrorCat"][other] >= 0.05
    # the very weak system ('upc', lowest human score) is what lifts BLEU's r
    infl = es["most_influential_system"]["BLEU"]
    assert infl["system"] == "upc" and infl["r_without"] < es["pearson"]["BLEU"] - 0.1


def test_two_file_and_wide_inputs_agree(capsys):
    _, out1, _ = run_cli(capsys, "--human", HUMAN, "--metrics", METRICS, "--lp", "es-en")
    _, out2, _ = run_cli(capsys, "--scores", WIDE)
    a, b = json.loads(out1)["language_pairs"][0], json.loads(out2)["language_pairs"][0]
    assert a["metrics"] == b["metrics"]
    for r in a["metrics"]:
        for c in a["metrics"]:
            x, y = a["williams_p"][r][c], b["williams_p"][r][c]
            assert (x is None and y is None) or x == pytest.approx(y, rel=1e-6)


def test_tsv_format(capsys):
    code, out, _ = run_cli(capsys, "--scores", WIDE, "--format", "tsv")
    assert code == 0
    lines = out.rstrip("\n").split("\n")
    assert lines[0].startswith("# es-en")
    header = lines[2].split("\t")
    assert header[0] == "" and header[1] == "TerrorCat" and len(header) == 13
    first = lines[3].split("\t")
    assert first[0] == "TerrorCat" and first[1] == "-" and first[2] != "-"
    last = lines[-1].split("\t")
    assert all(cell == "-" for cell in last[1:])


def test_two_sided(capsys):
    _, one, _ = run_cli(capsys, "--scores", WIDE)
    _, two, _ = run_cli(capsys, "--scores", WIDE, "--alternative", "two-sided")
    p1 = json.loads(one)["language_pairs"][0]["williams_p"]["TerrorCat"]["AMBER"]
    p2 = json.loads(two)["language_pairs"][0]["williams_p"]["TerrorCat"]["AMBER"]
    assert p2 == pytest.approx(2 * p1)


def test_output_is_deterministic(capsys):
    _, a, _ = run_cli(capsys, "--scores", WIDE)
    _, b, _ = run_cli(capsys, "--scores", WIDE)
    assert a == b


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--human", "missing.tsv", "--metrics", METRICS], "missing.tsv: file not found"),
        (["--human", HUMAN, "--metrics", METRICS, "--lp", "xx-yy"], "'xx-yy' not found"),
        (["--human", HUMAN], "--human needs --metrics"),
        ([], "give the score files"),
        (["--scores", METRICS], "no human scores"),
        (["--scores", WIDE, "--confidence-level", "95"], "confidence_level"),
    ],
)
def test_bad_input_exit_2_one_line(capsys, argv, needle):
    code, out, err = run_cli(capsys, *argv)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and needle in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_bad_file_contents_exit_2(capsys, tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("METRIC\tLP\tTESTSET\tSYSTEM\tSCORE\nBLEU\tes-en\tnt\tA\tabc\n")
    code, _, err = run_cli(capsys, "--human", HUMAN, "--metrics", bad)
    assert code == 2
    assert "bad.tsv, line 2, column SCORE: 'abc' is not a number" in err


def test_subprocess_no_traceback_on_argparse_error():
    proc = subprocess.run(
        [sys.executable, "-m", "stats", "williams", "--format", "xml", "--scores", str(WIDE)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_generator_is_deterministic(tmp_path):
    """Rerunning the committed seeded generator reproduces the committed files byte for byte."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "make_metrics_sample", ROOT / "sample_data" / "make_metrics_sample.py"
    )
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mod.write(mod.build(), tmp_path)
    for name in ("human.tsv", "metrics.tsv", "es-en_wide.csv"):
        assert (tmp_path / name).read_bytes() == (SAMPLE / name).read_bytes(), name


def test_constant_metric_gives_dashes_in_tsv_and_nulls_in_json(tmp_path, capsys):
    # G report item 3: a constant metric has no Pearson r; TSV used to crash formatting None
    human = [0.956, 0.057, 0.835, 0.670, 0.606, 0.581]
    bleu = [31.5, 1.95, 27.3, 21.0, 20.0, 17.9]
    path = tmp_path / "const_wide.csv"
    path.write_text(
        "system,human,BLEU,CONST\n"
        + "".join(f"s{i},{h},{b},5\n" for i, (h, b) in enumerate(zip(human, bleu, strict=True)))
    )
    r_bleu = ss.pearsonr(bleu, human).statistic  # independent value (scipy)
    for fmt in ("tsv", "json"):  # in process (the process's exit: test_input_boundary)
        code, out, err = run_cli(capsys, "--scores", path, "--format", fmt)
        assert code == 0 and "Traceback" not in err, err
        assert "warning: constant metric(s) CONST" in err
        if fmt == "tsv":
            lines = out.splitlines()
            assert lines[1] == f"# pearson\tBLEU={r_bleu:.4f}\tCONST=-"
            assert lines[2:] == ["\tBLEU\tCONST", "BLEU\t-\t-", "CONST\t-\t-"]
        else:
            block = json.loads(out)["language_pairs"][0]
            assert block["pearson"]["CONST"] is None
            assert block["pearson"]["BLEU"] == pytest.approx(r_bleu, rel=1e-12)
            assert block["williams_p"]["BLEU"]["CONST"] is None
