"""``python -m stats power --metrics``: PERM-BOTH power of two metrics against humans from
long score files (the layout ``meta-eval --data`` reads: METRIC LP TESTSET SYSTEM SEGMENT
SCORE, human scores as METRIC HUMAN), the same numbers as stats.power.perm_both_power on the
arrays, and bad input as one line, exit 2."""

from __future__ import annotations

import json

import numpy as np
import pytest

from stats.cli import main
from stats.power import perm_both_power

HEAD = "METRIC\tLP\tTESTSET\tSYSTEM\tSEGMENT\tSCORE"


@pytest.fixture
def files(tmp_path):
    gen = np.random.default_rng(0)
    gold = gen.normal(size=(4, 40))
    scores = {"COMET-22": gold + gen.normal(0, 1, gold.shape),
              "BLEU": gold + gen.normal(0, 2, gold.shape)}
    rows = [HEAD] + [f"{m}\ten-de\twmt23\tsys{s}\t{i + 1}\t{x[s, i]:.6f}"
                     for m, x in scores.items() for s in range(4) for i in range(40)]
    (tmp_path / "metrics.tsv").write_text("\n".join(rows) + "\n")
    rows = [HEAD] + [f"HUMAN\ten-de\twmt23\tsys{s}\t{i + 1}\t{gold[s, i]:.6f}"
                     for s in range(4) for i in range(40)]
    (tmp_path / "human.tsv").write_text("\n".join(rows) + "\n")
    # the arrays as written (6 decimals)
    read = {m: np.round(x, 6) for m, x in scores.items()}
    return tmp_path / "metrics.tsv", tmp_path / "human.tsv", read, np.round(gold, 6)


def run(capsys, *argv):
    code = main([*map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_metrics_json_same_numbers_as_the_library(capsys, files):
    metrics, human, scores, gold = files
    code, out, err = run(capsys, "power", "--metrics", metrics, human, "--system", "COMET-22",
                         "--baseline", "BLEU", "--effect", "0.1", "0.3", "--n", "20", "40",
                         "--simulations", "60", "--resamples", "50", "--seed", "4")
    assert code == 0, err
    doc = json.loads(out)
    expected = perm_both_power(scores["COMET-22"], scores["BLEU"], gold, effect=[0.1, 0.3],
                               n=[20, 40], n_simulations=60, n_resamples=50, rng=4)
    assert doc["test"] == "perm-both" and doc["alternative"] == "greater"
    np.testing.assert_allclose(doc["power"], expected.power[0])
    np.testing.assert_allclose(doc["mde"], expected.mde)
    assert doc["system"] == "COMET-22" and doc["baseline"] == "BLEU"
    assert "4 systems x 40 items" in err and "PERM-BOTH" in doc["definition"]


def test_metrics_other_correlation_and_grouping(capsys, files):
    metrics, human, scores, gold = files
    code, out, err = run(capsys, "power", "--metrics", metrics, human, "--system", "COMET-22",
                         "--baseline", "BLEU", "--effect", "0.1", "--n", "20",
                         "--simulations", "12", "--resamples", "30", "--seed", "4",
                         "--correlation", "kendall", "--grouping", "item")
    assert code == 0, err
    doc = json.loads(out)
    expected = perm_both_power(scores["COMET-22"], scores["BLEU"], gold, effect=0.1, n=20,
                               n_simulations=12, n_resamples=30, rng=4, correlation="kendall",
                               grouping="item")
    np.testing.assert_allclose(doc["power"], expected.power[0])
    assert doc["metric"] == "Kendall τ by item with human"


@pytest.mark.parametrize("extra, message", [
    (("--system", "COMET-22", "--baseline", "BLEU", "--correlation", "kendall",
      "--tie-calibration"), "apply to --correlation acc23 only"),
    (("--system", "chrF", "--baseline", "BLEU"), "system: unknown metric 'chrF' in en-de"),
    (("--system", "BLEU", "--baseline", "BLEU"), "same metric"),
    (("--system", "COMET-22", "--baseline", "BLEU", "--test", "t"), "--metrics runs PERM-BOTH"),
])
def test_bad_input_is_one_line_exit_2(capsys, files, extra, message):
    metrics, human, _, _ = files
    code, out, err = run(capsys, "power", "--metrics", metrics, human, "--effect", "0.1",
                         "--n", "20", "--simulations", "10", "--resamples", "10", *extra)
    assert code == 2 and message in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1
