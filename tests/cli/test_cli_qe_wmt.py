"""``python -m stats qe`` on WMT20-24 QE files: JSON/TSV/LaTeX, exclusions, exit status 2."""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy import stats as sps

from stats.cli import main
from tests._qe_wmt_data import generate


def run(capsys, *argv):
    code = main(["qe", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = generate()
    root = tmp_path_factory.mktemp("qe_wmt")
    (root / "subs.zip").write_bytes(d["zip"])
    (root / "gold.tsv").write_text(d["gold"])
    (root / "hall.tsv").write_text(d["exclude"])
    (root / "word_gold.tsv").write_text(d["word_gold"])
    for t, text in d["word_submissions"].items():
        (root / f"word_{t}.txt").write_text(text)
    (root / "extra.tsv").write_text("lp\tsegid\nen-de\t5\n")
    return root, d


def test_json_matches_scipy_after_exclusion(capsys, files):
    root, d = files
    code, out, err = run(
        capsys,
        "--data",
        root / "subs.zip",
        "--gold",
        root / "gold.tsv",
        "--exclude",
        root / "extra.tsv",
        "--resamples",
        30,
        "--seed",
        3,
    )
    assert code == 0, err
    res = json.loads(out)
    assert res["primary"] == "spearman" and res["seed"] == 3
    lp = {b["lp"]: b for b in res["language_pairs"]}
    assert lp["en-de"]["excluded"] == 4 and lp["zh-en"]["excluded"] == 3
    g, methods = d["truth"]["en-de"]
    drop = list(np.flatnonzero(np.isnan(g))) + [5]
    for row in lp["en-de"]["systems"]:
        method = row["system"].split("/")[-1]  # labelled team/method
        p = np.delete(methods[method], drop)
        want = sps.spearmanr(np.delete(g, drop), p).statistic
        assert abs(row["spearman"] - want) < 1e-12
        assert row["spearman_low"] <= row["spearman"] <= row["spearman_high"]
    assert lp["en-de"]["test"] == "perm-both"
    assert set(lp["en-de"]["pvalues"]) == {r["system"] for r in lp["en-de"]["systems"]}
    assert [a["system"] for a in res["average"]][:1] and "delta/DELTA-mono" not in {
        a["system"] for a in res["average"]
    }
    assert res["submissions"]["gamma/GAMMA"]["disk_footprint"] is None
    assert res["read_as"] == (
        "read as WMT QE sentence-level submissions, 4 files: 4 teams, 5 submissions, "
        "3 language pairs"
    )
    assert res["read_as"] in err


def test_pearson_tsv_and_latex(capsys, files):
    root, _ = files
    base = ["--data", root / "subs.zip", "--gold", root / "gold.tsv", "--resamples", 20]
    code, out, _ = run(
        capsys, *base, "--primary", "pearson", "--format", "tsv", "--correction", "holm"
    )
    assert code == 0 and "test williams" in out and "# average over language pairs" in out
    code, out, _ = run(capsys, *base, "--format", "latex")
    assert code == 0 and out.startswith("\\begin{table}") and "ALPHA-xl" in out
    assert "average" in out


def test_word_level_json(capsys, files):
    root, _ = files
    words = sorted(root.glob("word_*.txt"))
    words = [w for w in words if w.name != "word_gold.tsv"]
    code, out, err = run(
        capsys,
        "--data",
        *words,
        "--gold",
        root / "word_gold.tsv",
        "--resamples",
        30,
        "--exclude",
        root / "hall.tsv",
    )
    assert code == 0, err
    res = json.loads(out)
    assert res["level"] == "word" and res["primary"] == "mcc"
    block = res["language_pairs"][0]
    assert {"mcc", "f1_bad", "f1_ok", "mcc_low", "rank"} <= set(block["systems"][0])
    assert block["systems"][0]["sentences"] == 37  # 40 minus the 3 excluded


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--gold", "hall.tsv"], "not a WMT QE gold file"),
        ([], "--gold FILE is required"),
        (["--gold", "gold.tsv", "--resamples", "0"], "--resamples must be a positive"),
    ],
)
def test_bad_input_exit_2(capsys, files, extra, message):
    root, _ = files
    extra = [str(root / e) if e.endswith(".tsv") else e for e in extra]
    code, out, err = run(capsys, "--data", root / "subs.zip", *extra)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_latex_refused_for_2014_layout(capsys):
    code, _, err = run(capsys, "--data", "sample_data/qe/hter_long.txt", "--format", "latex")
    assert code == 2 and "latex is for WMT20-24" in err
