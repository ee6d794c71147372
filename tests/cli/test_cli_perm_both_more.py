"""``meta-eval --test perm-both`` for soft pairwise accuracy and for pairwise accuracy pooled
over language pairs (both used to have no test)."""

from __future__ import annotations

import json
from pathlib import Path

from stats.cli import main

SAMPLE = Path(__file__).resolve().parents[2] / "sample_data" / "meta" / "wmt-sample"


def run_cli(capsys, *argv):
    code = main(["meta-eval", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def _pvalues_ok(block):
    metrics = block["metrics"] if "metrics" in block else list(block["correlation"])
    p = block["pvalues"]
    first, second = metrics[0], metrics[1]
    assert 0 <= p[first][second] <= 1


def test_soft_pairwise_accuracy_perm_both(capsys):
    args = [
        "--data",
        SAMPLE,
        "--gold",
        "mqm",
        "--level",
        "sys",
        "--correlation",
        "soft-pairwise-accuracy",
        "--test",
        "perm-both",
        "--resamples",
        "30",
        "--seed",
        "2",
    ]
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["test"] == "perm-both" and doc["test_resamples"] == 30
    for block in doc["language_pairs"]:
        _pvalues_ok(block)
    code, tsv, err = run_cli(capsys, *args, "--format", "tsv")
    assert code == 0, err
    assert "PERM-BOTH p-values" in tsv


def test_pooled_pairwise_accuracy_perm_both(capsys):
    args = [
        "--data",
        SAMPLE,
        "--gold",
        "mqm",
        "--level",
        "sys",
        "--correlation",
        "pairwise-accuracy",
        "--test",
        "perm-both",
        "--resamples",
        "200",
        "--seed",
        "2",
    ]
    code, out, err = run_cli(capsys, *args)
    assert code == 0, err
    doc = json.loads(out)
    _pvalues_ok(doc["across_language_pairs"])
    for block in doc["language_pairs"]:
        _pvalues_ok(block)
    code, tsv, err = run_cli(capsys, *args, "--format", "tsv")
    assert code == 0, err
    assert "# pooled (en-de,zh-en): PERM-BOTH p-values" in tsv


def test_item_pair_permutation(capsys):
    base = [
        "--data",
        SAMPLE,
        "--gold",
        "mqm",
        "--level",
        "seg",
        "--lp",
        "en-de",
        "--correlation",
        "acc23",
        "--grouping",
        "item",
        "--tie-calibration",
        "--test",
        "perm-both",
        "--resamples",
        "100",
    ]
    code, out, err = run_cli(capsys, *base, "--perm-test", "pairs")
    assert code == 0, err
    _pvalues_ok(json.loads(out)["language_pairs"][0])
    code, _, err = run_cli(capsys, *base[:-4], "--perm-test", "pairs")
    assert code == 2 and "--perm-test" in err
