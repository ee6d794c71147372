"""``python -m stats randomized``: JSON layout, determinism, errors (exit 2, one line)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from stats.cli import main
from tests._data import write_mt_sample_head

ROOT = Path(__file__).resolve().parents[2]
MT = ROOT / "sample_data" / "mt"
KEYS = ["metric", "test", "alternative", "n_resamples", "seed", "n_segments", "systems",
        "scores", "pvalues", "higher_is_better", "signature", "metric_options",
        "confidence_level", "score_ci",
        # clusters and the sidedness of the grid
        "alpha", "correction", "sidedness", "test_note", "rank"]


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """First 80 segments of the sample corpus, 4 systems (keeps TER quick)."""
    d = tmp_path_factory.mktemp("mt")
    write_mt_sample_head(d, 80, ("Aurora", "Cirrus", "Delta", "Harbor"), ref_name="ref.txt")
    return d


def _run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _text_args(d, *extra):
    hyps = [str(d / f"{s}.txt") for s in ("Aurora", "Cirrus", "Delta", "Harbor")]
    return ["randomized", "--ref", str(d / "ref.txt"), "--hyp", *hyps, *extra]


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_json_layout_and_scores(small, capsys, metric):
    code, out, err = _run(_text_args(small, "--metric", metric, "--resamples", "200",
                                     "--seed", "3"), capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert list(doc) == KEYS
    assert doc["metric"] == metric and doc["test"] == "paired-bootstrap"
    assert doc["alternative"] == "greater" and doc["n_resamples"] == 200 and doc["seed"] == 3
    assert doc["n_segments"] == 80
    refs = [(small / "ref.txt").read_text().splitlines()]
    cls = {"bleu": sacrebleu.BLEU, "chrf": sacrebleu.CHRF, "ter": sacrebleu.TER}[metric]
    for s in doc["systems"]:
        hyp = (small / f"{s}.txt").read_text().splitlines()
        assert doc["scores"][s] == cls().corpus_score(hyp, refs).score  # exact
    values = [doc["scores"][s] for s in doc["systems"]]
    assert values == sorted(values, reverse=(metric != "ter"))  # best first; TER lower
    assert doc["higher_is_better"] is (metric != "ter")
    assert "nrefs:1" in doc["signature"]  # sacrebleu signature of the metric
    assert doc["confidence_level"] == 0.95
    for s in doc["systems"]:  # each system's corpus score lies inside its bootstrap CI
        low, high = doc["score_ci"][s]
        assert low <= doc["scores"][s] <= high
    systems = doc["systems"]
    for i, r in enumerate(systems):
        assert list(doc["pvalues"][r]) == systems
        for j, c in enumerate(systems):
            p = doc["pvalues"][r][c]
            if j > i:
                assert 0 < p <= 1
            else:
                assert p is None  # diagonal and mirror cell


def test_same_seed_byte_identical(small, capsys):
    args = _text_args(small, "--test", "approximate-randomization", "--resamples", "500",
                      "--seed", "42", "--alternative", "two-sided")
    a = _run(args, capsys)[1]
    b = _run(args, capsys)[1]
    assert a == b
    c = _run(args[:-3] + ["43", "--alternative", "two-sided"], capsys)[1]
    assert json.loads(c)["seed"] == 43
    assert json.loads(a)["alternative"] == "two-sided"


def test_defaults(small, capsys):
    doc = json.loads(_run(_text_args(small, "--test", "approximate-randomization"), capsys)[1])
    assert doc["n_resamples"] == 10000 and doc["seed"] == 12345 and doc["metric"] == "bleu"


def test_tsv(small, capsys):
    code, out, _ = _run(_text_args(small, "--format", "tsv", "--resamples", "100",
                                   "--test", "bootstrap"), capsys)
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("# metric=bleu (BLEU; nrefs:1") and "seed=12345" in lines[0]
    assert lines[2] == "system\tscore\tci_low\tci_high"
    assert "\t-\t" in out


def test_scores_input(capsys):
    code, out, err = _run(["randomized", "--scores", str(MT / "segment_scores.tsv"),
                           "--score-metric", "SimCOMET", "--resamples", "100"], capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["metric"] == "mean" and doc["systems"][0] == "Aurora"
    assert doc["n_segments"] == 500
    code, out, _ = _run(["randomized", "--scores", str(MT / "segment_scores_wide.csv"),
                         "--metric", "mean", "--resamples", "100"], capsys)
    assert code == 0 and json.loads(out)["scores"] == doc["scores"]


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--scores", "x.tsv", "--ref", "r.txt"], "either --scores or --ref/--hyp"),
        ([], "no input"),
        (["--hyp", "a.txt"], "without --ref"),
        (["--scores", str(MT / "segment_scores.tsv")], "several metrics"),
        (["--scores", str(MT / "segment_scores_wide.csv"), "--metric", "bleu"], "--metric mean"),
        (["--ref", str(MT / "reference.txt"), "--hyp", str(MT / "hyp" / "Aurora.txt"),
          "--metric", "mean"], "--metric mean needs --scores"),
        (["--ref", str(MT / "reference.txt"), "--hyp", str(MT / "hyp" / "Aurora.txt")],
         "at least two systems"),
        (["--ref", "/nonexistent/ref.txt", "--hyp", "a.txt", "b.txt"], "file not found"),
        (["--scores", str(MT / "segment_scores_wide.csv"), "--resamples", "0"], "--resamples"),
    ],
)
def test_errors_one_line_exit_2(capsys, args, match):
    code, out, err = _run(["randomized", *args], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ") and match in err


def test_line_count_mismatch_subprocess(tmp_path):
    (tmp_path / "ref.txt").write_text("a b\nc d\ne f\n")
    (tmp_path / "A.txt").write_text("a b\nc d\ne f\n")
    (tmp_path / "B.txt").write_text("a b\nc d\n")
    proc = subprocess.run(
        [sys.executable, "-m", "stats", "randomized", "--ref", str(tmp_path / "ref.txt"),
         "--hyp", str(tmp_path / "A.txt"), str(tmp_path / "B.txt")],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        f"error: {tmp_path / 'B.txt'} has 2 lines but {tmp_path / 'ref.txt'} has 3; "
        "all files must have one segment per line, aligned"
    ]
    bad = subprocess.run(
        [sys.executable, "-m", "stats", "randomized", "--test", "t-test"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


@pytest.fixture(scope="module")
def error_scores(tmp_path_factory):
    """The sample SimCOMET segment scores and the same scores negated as an error metric
    'negCOMET' (lower is better). Negation is exact in floating point, so with the same seed
    every resampled difference is exactly the same: the independent check of the flag."""
    import pandas as pd

    long = pd.read_csv(MT / "segment_scores.tsv", sep="\t")
    comet = long[long["METRIC"] == "SimCOMET"]
    neg = comet.assign(SCORE=-comet["SCORE"], METRIC="negCOMET")
    path = tmp_path_factory.mktemp("err") / "scores.tsv"
    pd.concat([comet, neg]).to_csv(path, sep="\t", index=False, float_format="%.6f")
    return path, neg.groupby("SYSTEM")["SCORE"].mean()


def test_lower_is_better_flips_order_and_pvalue_rows(error_scores, capsys):
    path, means = error_scores
    common = ["randomized", "--scores", str(path), "--resamples", "300", "--seed", "5",
              "--test", "approximate-randomization"]
    code, out, err = _run([*common, "--score-metric", "SimCOMET"], capsys)
    assert code == 0, err
    higher = json.loads(out)
    code, out, err = _run([*common, "--score-metric", "negCOMET", "--lower-is-better"], capsys)
    assert code == 0, err
    lower = json.loads(out)
    assert list(lower) == KEYS
    # best first = lowest error first (pandas groupby means of the file, ascending)
    assert lower["systems"] == list(means.sort_values().index)
    assert lower["systems"] == higher["systems"]
    assert lower["scores"] == {s: pytest.approx(-v, abs=1e-9) for s, v in higher["scores"].items()}
    # p-values: the same cells (row = the better = lower-error system), the same values
    assert lower["pvalues"] == higher["pvalues"]
    # without the flag the error metric is read as higher-is-better: order and rows reverse
    code, out, _ = _run([*common, "--score-metric", "negCOMET"], capsys)
    wrong = json.loads(out)
    assert wrong["systems"] == lower["systems"][::-1]
    best, worst = lower["systems"][0], lower["systems"][-1]
    assert lower["pvalues"][best][worst] is not None and lower["pvalues"][worst][best] is None
    assert wrong["pvalues"][worst][best] is not None and wrong["pvalues"][best][worst] is None
    # the metric may be named (case-insensitive), as in the accuracy CLI
    code, out, _ = _run([*common, "--score-metric", "negCOMET", "--lower-is-better",
                         "negcomet"], capsys)
    assert code == 0 and json.loads(out) == lower
    code, out, _ = _run([*common, "--score-metric", "negCOMET", "--lower-is-better",
                         "--format", "tsv"], capsys)
    assert code == 0 and "; lower is better)" in out.splitlines()[0]
    assert out.splitlines()[3].startswith(best + "\t")


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--score-metric", "negCOMET", "--lower-is-better", "SimCOMET"],
         "--lower-is-better names simcomet, not the metric tested from"),
        (["--ref", str(MT / "reference.txt"), "--hyp", str(MT / "hyp" / "Aurora.txt"),
          str(MT / "hyp" / "Cirrus.txt"), "--lower-is-better"],
         "--lower-is-better only applies to --scores"),
    ],
)
def test_lower_is_better_errors(error_scores, capsys, args, match):
    if "--ref" not in args:
        args = ["--scores", str(error_scores[0]), *args]
    code, out, err = _run(["randomized", *args], capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and match in err, err


def test_text_file_given_as_scores_says_so(capsys):
    """Piping a hypothesis file through --scores used to print 'expected 6 fields (<the first
    sentence's words>), found 9'."""
    code, out, err = _run(["randomized", "--scores", str(MT / "hyp" / "Aurora.txt")], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert "expected segment scores (a header SYSTEM SEGMENT SCORE [METRIC]" in err
    assert "is this a plain-text file (one segment per line)?" in err and "--hyp/--ref" in err


@pytest.mark.parametrize("test", ["paired-bootstrap", "bootstrap", "approximate-randomization"])
def test_one_segment_gives_null_pvalues_and_a_warning(tmp_path, test):
    # one segment: no resample can differ, so p is undefined (not 1/(R+1)) for every pair
    path = tmp_path / "one.csv"
    path.write_text("SEGMENT,Cirrus,Aurora,Harbor\n1,0.4371,0.6055,0.1355\n")
    proc = subprocess.run(
        [sys.executable, "-m", "stats", "randomized", "--scores", str(path), "--test", test,
         "--resamples", "99"],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert proc.stderr.startswith("warning: only 1 segment: ")
    assert "p-values are NaN" in proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["n_segments"] == 1 and doc["systems"] == ["Aurora", "Cirrus", "Harbor"]
    cells = [v for row in doc["pvalues"].values() for v in row.values()]
    assert len(cells) == 9 and all(v is None for v in cells)


def test_few_segments_warn_on_stderr(tmp_path, capsys):
    path = tmp_path / "five.csv"
    path.write_text("SEGMENT,A,B\n" + "".join(f"{i},{0.1 * i},{0.05 * i + 0.1}\n"
                                              for i in range(1, 6)))
    code, out, err = _run(["randomized", "--scores", str(path), "--resamples", "99"], capsys)
    assert code == 0
    assert "warning: only 5 segments: too few for a randomized test" in err
    p = json.loads(out)["pvalues"]["A"]["B"]
    assert p is not None and 0 < p <= 1


# ---------------------------------------------------------------------------------------------
# Several metrics and --baseline: the sacreBLEU-style systems table. Golden source: sacreBLEU's
# PairedTest (sacrebleu 2.6.0, a project dependency) run live on the same files and seed
# (12345, sacreBLEU's default): the p-values must be equal (the draws are sacreBLEU's; see
# tests/mt/test_systems_table.py for why mean and CI agree to 1e-4).
# ---------------------------------------------------------------------------------------------

SYSTEMS = ("Aurora", "Cirrus", "Delta", "Harbor")
ROW_KEYS = ["system", "metric", "score", "mean", "ci", "statistic", "pvalue", "significant"]


def test_several_metrics_json_table_equals_sacrebleu(small, capsys, monkeypatch):
    code, out, err = _run(_text_args(small, "--metric", "bleu", "chrf", "ter", "--baseline",
                                     "Delta", "--resamples", "1000", "--jobs", "1"), capsys)
    assert code == 0, err
    doc = json.loads(out)
    assert list(doc) == ["results", "table"]
    assert [b["metric"] for b in doc["results"]] == ["bleu", "chrf", "ter"]
    table = doc["table"]
    assert table["baseline"] == "Delta" and table["systems"] == ["Delta", "Aurora", "Cirrus",
                                                                  "Harbor"]
    assert table["metrics"] == ["BLEU", "chrF2", "TER"]
    assert table["test"] == "paired-bootstrap" and table["alternative"] == "two-sided"
    assert table["seed"] == 12345 and table["n_resamples"] == 1000 and table["alpha"] == 0.05
    assert len(table["rows"]) == 4 * 3 and all(list(r) == ROW_KEYS for r in table["rows"])

    refs = [(small / "ref.txt").read_text().splitlines()]
    hyps = {s: (small / f"{s}.txt").read_text().splitlines() for s in SYSTEMS}
    monkeypatch.setenv("SACREBLEU_SEED", "12345")
    _, gold = PairedTest(
        [(s, hyps[s]) for s in table["systems"]],
        {"BLEU": sacrebleu.BLEU(), "chrF": sacrebleu.CHRF(), "TER": sacrebleu.TER()},
        refs, test_type="bs", n_samples=1000,
    )()
    rows = {(r["system"], r["metric"]): r for r in table["rows"]}
    for key, label in zip(["BLEU", "chrF2", "TER"], table["metrics"], strict=True):
        for i, s in enumerate(table["systems"]):
            row, g = rows[(s, label)], gold[key][i]
            assert row["score"] == pytest.approx(g.score, abs=1e-9)
            assert row["mean"] == pytest.approx(g.mean, abs=1e-4)
            assert row["ci"] == pytest.approx(g.ci, abs=1e-4)
            assert row["pvalue"] == g.p_value  # None for the baseline
            assert row["significant"] is (g.p_value is not None and g.p_value < 0.05)


def test_baseline_with_one_metric_keeps_the_block_and_adds_the_table(small, capsys):
    plain = _text_args(small, "--metric", "chrf", "--resamples", "300", "--seed", "9")
    code, out, _ = _run(plain, capsys)
    assert code == 0 and "table" not in json.loads(out)
    code, with_table, err = _run([*plain, "--baseline", "Harbor"], capsys)
    assert code == 0, err
    doc = json.loads(with_table)
    assert list(doc)[-1] == "table"
    assert {k: v for k, v in doc.items() if k != "table"} == json.loads(out)
    assert doc["table"]["systems"][0] == "Harbor" and doc["table"]["metrics"] == ["chrF2"]
    assert doc["table"]["seed"] == 9


def test_default_baseline_is_the_first_system_and_ar_follows_test(small, capsys):
    code, out, err = _run(_text_args(small, "--metric", "bleu", "ter", "--test",
                                     "approximate-randomization", "--resamples", "400"), capsys)
    assert code == 0, err
    table = json.loads(out)["table"]
    assert table["baseline"] == "Aurora" and table["test"] == "approximate-randomization"
    assert table["n_resamples"] == 400 and table["n_ci_resamples"] == 1000
    # the shift-to-zero bootstrap has no sacreBLEU counterpart: the table uses the paired one
    code, out, _ = _run(_text_args(small, "--metric", "bleu", "--baseline", "Cirrus",
                                   "--test", "bootstrap", "--resamples", "200"), capsys)
    assert json.loads(out)["table"]["test"] == "paired-bootstrap"


def test_tsv_prints_blocks_then_the_table(small, capsys):
    code, out, err = _run(_text_args(small, "--metric", "bleu", "chrf", "--format", "tsv",
                                     "--resamples", "300", "--baseline", "Cirrus"), capsys)
    assert code == 0, err
    blocks = out.split("\n\n# metric=")
    assert out.startswith("# metric=bleu") and blocks[1].startswith("chrf")
    table = out[out.index("# systems table"):].splitlines()
    assert table[0].startswith("# systems table against baseline=Cirrus: test=paired-bootstrap")
    assert "seed=12345" in table[0] and "† p < 0.05" in table[1]
    assert table[2] == "system\tBLEU\tBLEU p\tchrF2\tchrF2 p"
    assert table[3].startswith("Cirrus\t") and table[3].endswith("\t-")
    harbor = next(line for line in table if line.startswith("Harbor\t")).split("\t")
    assert " ± " in harbor[1] and harbor[2].endswith("†")  # far worse than Cirrus


def test_unknown_baseline_one_line_exit_2(small, capsys):
    code, out, err = _run(_text_args(small, "--metric", "bleu", "chrf", "--baseline", "Nope"),
                          capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("error: baseline: unknown system 'Nope'; known systems: Aurora")


def test_scores_file_table(capsys):
    code, out, err = _run(["randomized", "--scores", str(MT / "segment_scores.tsv"),
                           "--score-metric", "SimCOMET", "--baseline", "Delta",
                           "--resamples", "200"], capsys)
    assert code == 0, err
    table = json.loads(out)["table"]
    assert table["metrics"] == ["SimCOMET"] and table["systems"][0] == "Delta"
    assert len(table["rows"]) == 8
