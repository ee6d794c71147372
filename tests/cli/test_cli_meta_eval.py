"""Tests of ``python -m stats meta-eval``: values equal mt-metrics-eval's (MTME) to 1e-9 for
every correlation and grouping on data with ties and missing gold, JSON/TSV shape, and one-line
errors with exit status 2.

Golden values: tests/_meta_golden.py, from running MTME's stats.py (commit 68a481a) outside
the project on the same literal data, written here in MTME's on-disk layout.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from stats.cli import main
from tests._meta_golden import DATA, MTME, write_mtme

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "meta"
LPS = {"A": "aa-bb", "B": "cc-dd"}


@pytest.fixture(scope="module")
def mtme_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("mtme")
    for key, lp in LPS.items():
        metric, gold = DATA[key]
        base = write_mtme(root, lp, gold={"mqm": gold}, metrics={"Metric-refA": metric})
    return base


def run_cli(capsys, *argv):
    code = main(["meta-eval", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def _options(name, options):
    if name == "acc23-tc":
        return ["--correlation", "acc23", "--tie-calibration"]
    args = ["--correlation", name]
    for k, v in options:
        args += [f"--{k}", repr(v)]
    return args


CASES = [k for k in MTME if k[0] in LPS and k[3] != "pairwise-accuracy"]


@pytest.mark.parametrize("key", CASES, ids=lambda k: "-".join(map(str, k[:4])) + str(k[4]))
def test_cli_equals_mtme(capsys, mtme_dir, key):
    data, level, grouping, name, options = key
    code, out, err = run_cli(
        capsys, "--data", mtme_dir, "--lp", LPS[data], "--level", level, "--grouping", grouping,
        *_options(name, options),
    )
    assert code == 0, err
    block = json.loads(out)["language_pairs"][0]
    assert block["lp"] == LPS[data] and block["gold"] == "mqm"
    value = block["correlation"]["Metric-refA"]
    expected = MTME[key]
    if name == "acc23-tc":
        assert value == pytest.approx(expected[0], abs=1e-9)
        assert block["epsilon"]["Metric-refA"] == pytest.approx(expected[1], abs=1e-9)
    elif expected == 0.0 and name == "kendall-like":  # MTME's 0 for "no pair"; we say NaN
        assert value is None and "no group" in err
    else:
        assert value == pytest.approx(expected, abs=1e-9)


def test_cli_pairwise_accuracy_per_lp_and_pooled(capsys, mtme_dir):
    code, out, err = run_cli(
        capsys, "--data", mtme_dir, "--level", "sys", "--correlation", "pairwise-accuracy"
    )
    assert code == 0, err
    doc = json.loads(out)
    per = {b["lp"]: b["correlation"]["Metric-refA"] for b in doc["language_pairs"]}
    for key, lp in LPS.items():
        assert per[lp] == pytest.approx(MTME[(key, "sys", "none", "pairwise-accuracy", ())], abs=1e-9)
    pooled = doc["across_language_pairs"]["correlation"]["Metric-refA"]
    assert pooled == pytest.approx(MTME[("AB", "sys", "none", "pairwise-accuracy-pooled", ())], abs=1e-9)


def test_json_shape_and_ranking_on_sample(capsys):
    code, out, err = run_cli(
        capsys, "--data", SAMPLE / "wmt-sample", "--gold", "mqm", "--level", "seg",
        "--correlation", "acc23", "--grouping", "item", "--tie-calibration",
        "--confidence-resamples", "50", "--seed", "3",
    )
    assert code == 0, err
    doc = json.loads(out)
    assert list(doc)[:3] == ["level", "correlation", "grouping"]
    assert "across_language_pairs" not in doc
    assert [b["lp"] for b in doc["language_pairs"]] == ["en-de", "zh-en"]
    for block in doc["language_pairs"]:
        assert set(block) == {"lp", "gold", "n_systems", "n_items", "metrics", "correlation",
                              "epsilon", "ci"}
        assert block["n_systems"] == 6 and block["n_items"] == 200
        values = [block["correlation"][m] for m in block["metrics"]]
        assert values == sorted(values, reverse=True)
        for m in block["metrics"]:
            low, high = block["ci"][m]
            assert low <= high
    code2, out2, _ = run_cli(
        capsys, "--data", SAMPLE / "wmt-sample", "--gold", "mqm", "--level", "seg",
        "--correlation", "acc23", "--grouping", "item", "--tie-calibration",
        "--confidence-resamples", "50", "--seed", "3",
    )
    assert out2 == out  # same seed, same bytes


def test_plain_correlation_has_no_epsilon_or_ci(capsys):
    code, out, err = run_cli(
        capsys, "--data", SAMPLE / "en-de_wide.csv", "--gold", "da", "--level", "seg",
        "--correlation", "kendall", "--grouping", "system",
    )
    assert code == 0, err
    block = json.loads(out)["language_pairs"][0]
    assert "epsilon" not in block and "ci" not in block
    assert all(-1 <= v <= 1 for v in block["correlation"].values())


def test_tsv_output(capsys):
    code, out, err = run_cli(
        capsys, "--data", SAMPLE / "wmt-sample.zip", "--gold", "mqm", "--level", "sys",
        "--correlation", "pairwise-accuracy", "--format", "tsv",
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("# level=sys correlation=pairwise-accuracy")
    assert lines[1].split("\t") == ["lp", "gold", "n_systems", "n_items", "metric", "correlation"]
    assert len([ln for ln in lines if ln.startswith(("en-de\t", "zh-en\t"))]) == 10
    assert "# pairwise accuracy pooled across language pairs" in lines


@pytest.mark.parametrize(
    ("argv", "match"),
    [
        (["--level", "seg", "--correlation", "pearson"], "several human score types"),
        (["--gold", "mqm", "--level", "seg", "--correlation", "pearson", "--epsilon", "0.1"],
         "--epsilon and --tie-calibration apply to --correlation acc23 only"),
        (["--gold", "mqm", "--level", "seg", "--correlation", "pairwise-accuracy"],
         "pairwise-accuracy is a system-level statistic"),
        (["--gold", "mqm", "--level", "seg", "--correlation", "pearson", "--lp", "xx-yy"],
         "language pair\\(s\\) xx-yy not found"),
        (["--gold", "mqm", "--level", "sys", "--correlation", "pearson", "--grouping", "item"],
         "grouping 'item' applies to level 'seg' only"),
        (["--gold", "mqm", "--level", "seg", "--correlation", "pearson",
          "--confidence-resamples", "-1"], "--confidence-resamples must be"),
    ],
)
def test_errors_exit_2_with_one_line(capsys, argv, match):
    code, out, err = run_cli(capsys, "--data", SAMPLE / "wmt-sample", *argv)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error: ")
    assert re.search(match, err), err


def test_bad_file_via_subprocess(tmp_path):
    bad = tmp_path / "scores.tsv"
    bad.write_text("HUMAN aa ts s1 1 1\nM aa ts s1 1 abc\n")
    proc = subprocess.run(
        [sys.executable, "-m", "stats", "meta-eval", "--data", str(bad), "--level", "seg",
         "--correlation", "pearson"],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        f"error: {bad}, line 2: 'abc' is not a number"
    ]
