"""``python -m stats accuracy`` on the committed sample data."""

from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from stats.cli import main
from stats.human.gold import human_gold_standard
from stats.readers import read_judgements

ROOT = Path(__file__).resolve().parents[2]
HUMAN = ROOT / "sample_data" / "human" / "judgements.tsv"
HUMAN_CSV = ROOT / "sample_data" / "human" / "judgements.csv"
MT = ROOT / "sample_data" / "mt"
REF = MT / "reference.txt"
HYPS = sorted((MT / "hyp").glob("*.txt"))
SCORES = MT / "segment_scores.tsv"
#: BLEU of the sample texts, all three tests, few resamples.
TEXT_ARGS = ["--human", HUMAN, "--ref", REF, "--hyp", *HYPS, "--metric", "bleu",
             "--resamples", "199", "--seed", "3", "--format", "json"]  # fmt: skip


def run(capsys, *args):
    code = main(["accuracy", *map(str, args)])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def text_json():
    """JSON of ``accuracy TEXT_ARGS`` (module-wide, ~seconds; in process: the CLI's exit as a
    process is tested in test_input_boundary)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["accuracy", *map(str, TEXT_ARGS)])
    assert code == 0, err.getvalue()
    return out.getvalue()


def test_json_layout_on_sample_text(text_json):
    d = json.loads(text_json)
    systems = d["systems"]
    k = len(systems)
    assert k == 8 and d["pairs"] == k * (k - 1) // 2 == 28
    assert d["seed"] == 3 and d["n_resamples"] == 199 and d["alternative"] == "greater"
    assert d["tests"] == ["paired-bootstrap", "bootstrap", "approximate-randomization"]
    assert d["alphas"] == [0.05, 0.01, 0.001] and d["metrics"] == ["bleu"]
    assert set(d["gold"]) == {"adequacy", "fluency", "combined"}
    assert len(d["rows"]) == 3 * 3
    for row in d["rows"]:
        assert list(row) == ["metric", "test", "alpha", "correct", "accuracy", "ci_low", "ci_high"]
        assert row["accuracy"] == pytest.approx(row["correct"] / 28)
        assert row["ci_low"] <= row["accuracy"] <= row["ci_high"]
    # 199 resamples: the smallest p-value is 1/(199+1) = 0.005 (by hand), not below 0.001, so
    # nothing can be significant at 0.001 -- said in the JSON (and on stderr), not hidden
    assert len(d["warnings"]) == 1
    assert d["warnings"][0].startswith(
        "alpha 0.001: with 199 resamples the smallest attainable p-value is 1/(199+1) = 0.005"
    )


def test_gold_pvalues_sit_in_the_row_of_the_higher_mean_z(text_json):
    d = json.loads(text_json)
    for crit in ("adequacy", "fluency"):
        z = {s: d["human_scores"][s][f"{crit}_z"] for s in d["systems"]}
        for a in d["systems"]:
            for b in d["systems"]:
                p, mirror = d["gold"][crit][a][b], d["gold"][crit][b][a]
                if a == b:
                    assert p is None
                elif z[a] > z[b]:
                    assert p is not None and 0 < p <= 1 and mirror is None
    # and they equal the library's gold standard
    gold = human_gold_standard(read_judgements(HUMAN))
    for crit in ("adequacy", "fluency", "combined"):
        m = gold.pvalue[crit]
        for a in d["systems"]:
            for b in d["systems"]:
                v = d["gold"][crit][a][b]
                assert (v is None and np.isnan(m.at[a, b])) or v == pytest.approx(
                    m.at[a, b], rel=1e-12
                )


def test_same_seed_gives_byte_identical_output(capsys, text_json):
    code, out, _ = run(capsys, *TEXT_ARGS)
    assert code == 0
    assert out == text_json


def test_segment_scores_with_several_metrics_and_csv_judgements(capsys):
    code, out, _ = run(
        capsys,
        "--human",
        HUMAN_CSV,
        "--scores",
        SCORES,
        "--tests",
        "bootstrap",
        "--alpha",
        "0.05",
        "--resamples",
        "99",
        "--seed",
        "1",
    )
    assert code == 0
    d = json.loads(out)
    assert d["metrics"] == ["chrF", "SimCOMET"]  # every METRIC of the file
    assert [(r["metric"], r["test"], r["alpha"]) for r in d["rows"]] == [
        ("chrF", "bootstrap", 0.05),
        ("SimCOMET", "bootstrap", 0.05),
    ]
    assert len(d["chi2"]) == 1 and d["chi2"][0]["n_metrics"] == 2
    code, out, _ = run(
        capsys,
        "--human",
        HUMAN,
        "--scores",
        SCORES,
        "--score-metric",
        "simcomet",
        "--tests",
        "bootstrap",
        "--alpha",
        "0.05",
        "--resamples",
        "99",
    )
    assert code == 0 and json.loads(out)["metrics"] == ["SimCOMET"]


def test_several_judgement_files_are_one_set(capsys, tmp_path):
    lines = HUMAN.read_text().splitlines()
    half = len(lines) // 2
    a, b = tmp_path / "batch1.tsv", tmp_path / "batch2.tsv"
    a.write_text("\n".join(lines[:half]) + "\n")
    b.write_text("\n".join([lines[0], *lines[half:]]) + "\n")
    args = [
        "--scores",
        SCORES,
        "--score-metric",
        "chrF",
        "--tests",
        "bootstrap",
        "--resamples",
        "99",
    ]
    code, split, _ = run(capsys, "--human", a, b, *args)
    code2, whole, _ = run(capsys, "--human", HUMAN, *args)
    assert code == code2 == 0
    d1, d2 = json.loads(split), json.loads(whole)
    assert d1["gold"] == d2["gold"] and d1["rows"] == d2["rows"]


def test_lower_is_better_turns_a_score_metric_around(capsys):
    args = ["--human", HUMAN, "--scores", SCORES, "--tests", "bootstrap", "--alpha", "0.05"]
    args += ["--resamples", "99"]
    _, out, _ = run(capsys, *args)
    code, flipped, _ = run(capsys, *args, "--lower-is-better", "simcomet")
    assert code == 0
    before = {r["metric"]: r["correct"] for r in json.loads(out)["rows"]}
    after = {r["metric"]: r["correct"] for r in json.loads(flipped)["rows"]}
    assert after["chrF"] == before["chrF"]
    assert after["SimCOMET"] < 28 / 2 < before["SimCOMET"]
    code, _, err = run(capsys, *args, "--lower-is-better", "BLEURT")
    assert code == 2 and "lower_is_better names bleurt" in err


def test_adequacy_only_judgements_give_null_fluency(capsys, tmp_path):
    lines = HUMAN.read_text().splitlines()
    path = tmp_path / "adequacy.tsv"
    path.write_text("\n".join([lines[0], *[ln for ln in lines[1:] if "\tadequacy\t" in ln]]))
    code, out, _ = run(capsys, "--human", path, "--scores", SCORES, "--score-metric", "chrF",
                       "--tests", "bootstrap", "--resamples", "99")  # fmt: skip
    assert code == 0
    d = json.loads(out)
    assert d["gold"]["fluency"] is None
    assert d["gold"]["combined"] == d["gold"]["adequacy"]


def test_tsv_format(capsys):
    code, out, _ = run(
        capsys,
        "--human",
        HUMAN,
        "--scores",
        SCORES,
        "--score-metric",
        "chrF",
        "--tests",
        "approximate-randomization",
        "--resamples",
        "99",
        "--format",
        "tsv",
    )
    assert code == 0
    lines = out.splitlines()
    assert lines[0].startswith("# pairs=28 systems=8") and "seed=12345" in lines[0]
    assert lines[2] == "metric\ttest\talpha\tcorrect\taccuracy\tci_low\tci_high"
    assert lines[3].startswith("chrF\tapproximate-randomization\t0.05\t")
    assert any(line.startswith("# human gold standard, combined at alpha=0.05") for line in lines)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--human", "missing.tsv", "--scores", SCORES], "missing.tsv: file not found"),
        (["--human", HUMAN], "no system outputs"),
        (["--human", HUMAN, "--hyp", *HYPS[:2]], "--hyp given without --ref"),
        (["--human", HUMAN, "--scores", SCORES, "--metric", "bleu"], "needs --ref/--hyp"),
        (
            ["--human", HUMAN, "--ref", REF, "--hyp", *HYPS[:2], "--metric", "mean"],
            "needs --scores",
        ),
        (["--human", HUMAN, "--scores", SCORES, "--resamples", "0"], "--resamples must be"),
        (["--human", HUMAN, "--scores", SCORES, "--alpha", "1.5"], "--alpha must be in (0, 1)"),
        (
            ["--human", HUMAN, "--scores", SCORES, "--score-metric", "BLEURT"],
            "BLEURT not in column METRIC",
        ),
        (["--human", HUMAN, "--scores", HYPS[0]], HYPS[0].name),
    ],
)
def test_bad_input_is_one_line_and_exit_2(capsys, args, message):
    code, out, err = run(capsys, *args)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert message in lines[0]


def test_malformed_judgements_name_file_and_line(capsys, tmp_path):
    bad = tmp_path / "bad.tsv"
    bad.write_text("SYSTEM\tSEGMENT\tANNOTATOR\tCRITERION\tSCORE\nAurora\t1\tw1\tgrammar\t50\n")
    code, _, err = run(capsys, "--human", bad, "--scores", SCORES)
    assert code == 2
    assert err.strip() == (
        f"error: {bad}, line 2, column CRITERION: unknown criterion 'grammar'; "
        "expected one of adequacy, fluency"
    )


def test_argparse_errors_exit_2_without_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "stats", "accuracy", "--human", str(HUMAN), "--tests", "t-test"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1


def test_systems_without_judgements_are_reported(capsys, tmp_path):
    # drop Harbor from the judgements: it is left out of the comparison with a warning
    lines = HUMAN.read_text().splitlines()
    keep = [lines[0]] + [ln for ln in lines[1:] if not ln.startswith("Harbor\t")]
    path = tmp_path / "no_harbor.tsv"
    path.write_text("\n".join(keep) + "\n")
    code, out, err = run(
        capsys,
        "--human",
        path,
        "--scores",
        SCORES,
        "--score-metric",
        "chrF",
        "--tests",
        "bootstrap",
        "--alpha",
        "0.05",
        "--resamples",
        "99",
    )
    assert code == 0
    d = json.loads(out)
    assert d["pairs"] == 21 and "Harbor" not in d["systems"]
    assert d["warnings"] == ["no human judgements, left out: Harbor"]
    assert "warning: no human judgements, left out: Harbor" in err


def test_same_judgements_as_tsv_and_csv_are_refused(capsys):
    # the sample TSV and CSV hold the same rows: giving both would double n (G report item 2)
    code, out, err = run(capsys, "--human", HUMAN, HUMAN_CSV, "--scores", SCORES)
    assert code == 2 and out == ""
    assert err.strip() == (
        f"error: {HUMAN_CSV}, line 2: judgement (SYSTEM 'Glacier', SEGMENT '489', ANNOTATOR "
        f"'ann01', CRITERION adequacy, SCORE 25) repeats {HUMAN}, line 2; the same judgements "
        "were given twice (give each file once)"
    )


def test_one_segment_warns_once_on_stderr(capsys, tmp_path):
    # one segment: NaN p-values (nothing significant) and the warning printed once, though
    # both metrics of the file (chrF, SimCOMET) are tested
    lines = SCORES.read_text().splitlines()
    one = tmp_path / "one.tsv"
    one.write_text("\n".join([lines[0], *[ln for ln in lines[1:] if ln.split("\t")[1] == "1"]]))
    code, out, err = run(capsys, "--human", HUMAN, "--scores", one, "--tests", "bootstrap",
                         "--resamples", "99", "--alpha", "0.05")
    assert code == 0
    assert err.count("warning: only 1 segment") == 1
    rows = json.loads(out)["rows"]
    assert {r["metric"] for r in rows} == {"chrF", "SimCOMET"}
    # with no significant pair a test is right exactly where humans see no difference either:
    # 28 pairs minus the 26 the human gold standard separates (sample data, alpha 0.05)
    assert {r["correct"] for r in rows} == {2}
