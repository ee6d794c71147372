"""``meta-eval --include-human`` and ``--exclude-systems``: the systems a
meta-evaluation keeps, as ``rank --include-human`` and ``williams --exclude-systems`` choose
them, applied alike to the correlations and to their PERM-BOTH tests; every message names an
option the command has."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.stats

from stats.cli import main

SYSTEMS = ("sysA", "sysB", "Online-X.1", "Online-Y.2", "Human-A.0")


@pytest.fixture
def long_file(tmp_path):
    rng = np.random.default_rng(9)
    gold = rng.normal(0, 1, (len(SYSTEMS), 10))
    metric = gold + rng.normal(0, 0.7, gold.shape)
    rows = []
    for i, s in enumerate(SYSTEMS):
        for j in range(10):
            rows.append(f"HUMAN\tde-en\tt\t{s}\t{j}\t{float(gold[i, j])!r}")
            rows.append(f"BLEU\tde-en\tt\t{s}\t{j}\t{float(metric[i, j])!r}")
            rows.append(f"chrF\tde-en\tt\t{s}\t{j}\t{float(metric[i, j]) ** 3!r}")
    path = tmp_path / "scores.tsv"
    path.write_text("\n".join(rows) + "\n")
    return path, gold, metric


def run(capsys, *argv):
    code = main(["meta-eval", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def _want(gold, metric, keep):
    rows = [SYSTEMS.index(s) for s in keep]
    return scipy.stats.pearsonr(metric[rows].ravel(), gold[rows].ravel())[0]


def test_include_human_and_exclude_systems(capsys, long_file):
    path, gold, metric = long_file
    base = ["--data", path, "--level", "seg", "--correlation", "pearson"]
    code, out, err = run(capsys, *base)
    block = json.loads(out)["language_pairs"][0]
    assert code == 0 and block["n_systems"] == 4
    assert block["correlation"]["BLEU"] == pytest.approx(_want(gold, metric, SYSTEMS[:4]))
    # the note names the flag this command has
    assert "Human-A.0" in err and "--include-human keeps them" in err
    assert "include human translations" not in err
    code, out, err = run(capsys, *base, "--include-human")
    block = json.loads(out)["language_pairs"][0]
    assert code == 0 and block["n_systems"] == 5 and "Human-A.0" not in err
    assert block["correlation"]["BLEU"] == pytest.approx(_want(gold, metric, SYSTEMS))
    code, out, err = run(capsys, *base, "--exclude-systems", "Online-*")
    block = json.loads(out)["language_pairs"][0]
    assert code == 0 and block["n_systems"] == 2 and "left out by choice" in err
    assert block["correlation"]["BLEU"] == pytest.approx(_want(gold, metric, SYSTEMS[:2]))
    # the PERM-BOTH test of the same command uses the same systems
    code, out, err = run(capsys, *base, "--exclude-systems", "sysB", "--include-human",
                         "--test", "perm-both", "--resamples", "50")
    assert code == 0, err
    block = json.loads(out)["language_pairs"][0]
    assert block["n_systems"] == 4 and set(block["pvalues"]) == {"BLEU", "chrF"}


def test_exclude_systems_pattern_matching_nothing_is_refused(capsys, long_file):
    path, _, _ = long_file
    code, _, err = run(capsys, "--data", path, "--level", "seg", "--correlation", "pearson",
                       "--exclude-systems", "Nosuch-*")
    assert code == 2 and err.count("\n") == 1
    assert "--exclude-systems: 'Nosuch-*' matches no system" in err
