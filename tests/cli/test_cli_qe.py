"""``python -m stats qe``: JSON/TSV output against the stats functions, and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from stats.cli import main
from stats.qe.graham import evaluate_qe
from stats.readers import read_qe

ROOT = Path(__file__).resolve().parents[2]
QE = ROOT / "sample_data" / "qe"
LONG = str(QE / "hter_long.txt")


def run(capsys, *argv):
    code = main(["qe", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


def test_json_shape_and_values(capsys):
    code, out, err = run(capsys, "--data", LONG)
    # stderr: only what the file was read as
    assert code == 0 and err.splitlines() == [f"note: {LONG}: {read_qe(LONG).read_as}"]
    doc = json.loads(out)
    assert doc["read_as"].startswith("read as Graham 2015 long layout")
    assert doc["n"] == 600 and doc["rescale_sd"] == 0.5
    ev = evaluate_qe(read_qe(LONG))
    systems = doc["systems"]
    assert [s["system"] for s in systems] == list(ev.order)
    keys = {"system", "pearson", "spearman", "mae", "rmse", "mae_rescaled", "rmse_rescaled",
            "rank_pearson", "rank_mae"}
    assert all(keys <= set(s) for s in systems)
    for s in systems:
        name = s["system"]
        assert s["pearson"] == pytest.approx(ev.scores.statistic[name], abs=1e-15)
        assert s["mae_rescaled"] == pytest.approx(ev.rescale.mae_rescaled[name], abs=1e-15)
        assert s["rank_mae"] == int(ev.scores.ranks.at[name, "mae"])
        assert isinstance(s["rank_pearson"], int)
    assert [s["rank_pearson"] for s in systems] == list(range(1, 11))
    # Williams p: {row: {col: p or null}}; filled only where row's r exceeds col's
    wp = doc["williams_p"]
    assert list(wp) == list(ev.order)
    first, last = ev.order[0], ev.order[-1]
    assert wp[first][last] == pytest.approx(ev.pvalue.at[first, last])
    assert wp[last][first] is None and wp[first][first] is None


def test_json_is_deterministic(capsys):
    a = run(capsys, "--data", LONG)[1]
    b = run(capsys, "--data", LONG)[1]
    assert a == b


def test_rescale_sd_changes_only_rescaled_columns(capsys):
    a = json.loads(run(capsys, "--data", LONG)[1])["systems"]
    b = json.loads(run(capsys, "--data", LONG, "--rescale-sd", "0.3")[1])["systems"]
    for x, y in zip(a, b, strict=True):
        assert x["pearson"] == y["pearson"] and x["mae"] == y["mae"]
        assert x["mae_rescaled"] != y["mae_rescaled"]


def test_wmt_submissions_with_gold(capsys):
    files = [QE / "wmt" / f"{n}.txt" for n in ("ALPHA-svr", "baseline", "CONSERV-mean")]
    code, out, _ = run(capsys, "--data", *files, "--gold", QE / "wmt_gold.txt")
    assert code == 0
    doc = json.loads(out)
    assert [s["system"] for s in doc["systems"]] == ["ALPHA-svr", "CONSERV-mean", "baseline"]
    full = {s["system"]: s for s in json.loads(run(capsys, "--data", LONG)[1])["systems"]}
    for s in doc["systems"]:
        assert s["pearson"] == pytest.approx(full[s["system"]]["pearson"], abs=1e-14)
        assert s["mae"] == pytest.approx(full[s["system"]]["mae"], abs=1e-14)


def test_tsv(capsys):
    code, out, _ = run(capsys, "--data", QE / "hter_wide.csv", "--format", "tsv")
    assert code == 0
    lines = out.splitlines()
    assert lines[1].split("\t")[:3] == ["system", "pearson", "spearman"]
    assert lines[2].startswith("ALPHA-svr\t0.65798")
    i = lines.index("")
    head = lines[i + 2].split("\t")
    assert head[1] == "ALPHA-svr"
    assert lines[i + 3].split("\t")[1] == "-"  # diagonal


def test_post_edit_block_and_rate(capsys):
    code, out, _ = run(
        capsys, "--data", QE / "pet_long.txt", "--post-edit", QE / "post_edit.tsv", "--rate"
    )
    assert code == 0
    doc = json.loads(out)
    pe = doc["post_edit"]
    assert pe["reference"] == "hter" and pe["n"] == 600
    assert pe["r_rate"] > pe["r_time"] and pe["pvalue"] < 1e-10
    # --rate converts to seconds per word: MAE now in s/word, far below MAE in seconds
    raw = json.loads(run(capsys, "--data", QE / "pet_long.txt")[1])
    assert doc["systems"][0]["mae"] < raw["systems"][0]["mae"] / 5


def test_post_edit_reference_without_hter_is_the_first_further_column(capsys, tmp_path):
    # the same rule as the dashboard (stats.analyses.post_edit_reference): no HTER column,
    # so the test is against the first column after SID TIME WORDS; the numbers are those of
    # the same column named HTER
    table = (QE / "post_edit.tsv").read_text(encoding="utf-8")
    effort = tmp_path / "effort.tsv"
    effort.write_text(table.replace("HTER", "EFFORT", 1), encoding="utf-8")
    code, out, _ = run(capsys, "--data", QE / "pet_long.txt", "--post-edit", effort)
    assert code == 0
    got = json.loads(out)["post_edit"]
    hter = json.loads(
        run(capsys, "--data", QE / "pet_long.txt", "--post-edit", QE / "post_edit.tsv")[1]
    )["post_edit"]
    assert got["reference"] == "effort"
    assert {k: v for k, v in got.items() if k != "reference"} == {
        k: v for k, v in hter.items() if k != "reference"
    }


def test_allow_constant(tmp_path, capsys):
    rng = np.random.default_rng(1)
    g = rng.random(20)
    rows = "\n".join(f"{i},{g[i]:.4f},{g[i] + rng.normal(0, .2):.4f},0.5" for i in range(20))
    path = tmp_path / "c.csv"
    path.write_text("sid,gold,A,FLAT\n" + rows + "\n")
    code, _, err = run(capsys, "--data", path)
    assert code == 2 and "system 'FLAT' predicts 0.5 for every sentence" in err
    code, out, err = run(capsys, "--data", path, "--allow-constant")
    assert code == 0 and "warning:" in err
    flat = next(s for s in json.loads(out)["systems"] if s["system"] == "FLAT")
    assert flat["pearson"] is None and flat["rank_pearson"] is None
    assert flat["mae"] is not None


@pytest.mark.parametrize(
    ("argv", "match"),
    [
        (["--data", "nope.txt"], "nope.txt: file not found"),
        (["--data", str(QE / "wmt" / "baseline.txt")], "hold no gold labels"),
        (["--data", LONG, "--gold", str(QE / "wmt_gold.txt")], "already contains gold labels"),
        (["--data", str(QE / "post_edit.tsv")], "this is a post-editing table"),
        (["--data", str(QE / "wmt_gold.txt")], "this looks like a gold-label file"),
        (["--data", str(QE / "wmt_gold.txt"), "--gold", str(QE / "wmt_gold.txt")], "given both as --gold and in --data"),
        (["--data", LONG, "--rate"], "--rate needs --post-edit"),
        (["--data", str(QE / "pet_long.txt"), "--post-edit", str(QE / "post_edit.tsv"), "--reference", "bleu"], "no reference column 'bleu'"),
    ],
)
def test_bad_input_exit_2_one_line(capsys, argv, match):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert match in err and err.count("\n") == 1 and err.startswith("error: ")


@pytest.mark.parametrize("value", ["0", "-1", "abc", "nan"])
def test_bad_rescale_sd_is_argparse_error(value):
    proc = subprocess.run(
        [sys.executable, "-m", "stats", "qe", "--data", LONG, "--rescale-sd", value],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert "--rescale-sd" in proc.stderr and proc.stderr.count("\n") == 1


def test_malformed_file_subprocess(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("METRIC SID SCORE RANK HUMAN\nA 1 x 0 0.5\n")
    proc = subprocess.run(
        [sys.executable, "-m", "stats", "qe", "--data", str(bad)],
        cwd=ROOT, capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == f"error: {bad}, line 2, column SCORE: 'x' is not a number"
    assert "Traceback" not in proc.stderr


def test_gold_and_post_edit_found_among_data_files(capsys):
    files = [QE / "wmt" / f"{n}.txt" for n in ("ALPHA-svr", "baseline")]
    with_flag = json.loads(run(capsys, "--data", *files, "--gold", QE / "wmt_gold.txt")[1])
    code, out, _ = run(capsys, "--data", QE / "wmt_gold.txt", *files)
    assert code == 0 and json.loads(out) == with_flag
    code, out, _ = run(capsys, "--data", QE / "pet_long.txt", QE / "post_edit.tsv", "--rate")
    assert code == 0
    explicit = run(capsys, "--data", QE / "pet_long.txt", "--post-edit", QE / "post_edit.tsv", "--rate")[1]
    assert json.loads(out)["systems"] == json.loads(explicit)["systems"]
    code, _, err = run(capsys, "--data", *files, "--rate")
    assert code == 2 and "hold no gold labels" in err


def test_rate_with_missing_word_counts_names_the_file(tmp_path, capsys):
    lines = (QE / "post_edit.tsv").read_text().splitlines()
    short = tmp_path / "pe_short.tsv"
    short.write_text("\n".join(lines[:-2]) + "\n")  # sentences 599 and 600 lack word counts
    code, _, err = run(capsys, "--data", QE / "pet_long.txt", "--post-edit", short, "--rate")
    assert code == 2
    assert err.startswith(f"error: {short}: words: no word count for sentence id(s) 599, 600")
