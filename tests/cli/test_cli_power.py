"""``python -m stats power``: its contract (JSON with ``power`` per n in order, ``mde``
per n at 80%, the settings), the read-as line, TSV/LaTeX, and bad input as one line, exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from stats.analyses import score_statistics
from stats.cli import main
from stats.power import paired_power

ROOT = Path(__file__).resolve().parents[2]
SCORES = ROOT / "sample_data" / "mt" / "segment_scores.tsv"
REF = ROOT / "sample_data" / "mt" / "reference.txt"
HYP = ROOT / "sample_data" / "mt" / "hyp"


def run(capsys, *argv):
    code = main([*map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_scores_json_contract_and_same_numbers_as_the_library(capsys):
    code, out, err = run(
        capsys, "power", "--scores", SCORES, "--score-metric", "chrF", "--baseline", "Aurora",
        "--system", "Borealis", "--effect", "2", "4", "--n", "40", "160", "80",
        "--test", "t", "--simulations", "400", "--seed", "3",
    )
    assert code == 0, err
    doc = json.loads(out)
    assert doc["n"] == [40, 160, 80] and len(doc["power"]) == 3 and len(doc["mde"]) == 3
    assert doc["power"][1] > doc["power"][2] > doc["power"][0]  # in the order given
    assert doc["mde"][1] < doc["mde"][2] < doc["mde"][0]
    assert doc["mde_power"] == 0.8 and doc["simulations"] == 400 and doc["seed"] == 3
    assert doc["test"] == "t" and doc["effect"] == [2.0, 4.0] and len(doc["curves"]) == 2
    assert "share of simulated" in doc["definition"]
    assert "read as segment scores: chrF, 8 systems x 500 segments" in err
    # the library on the same scores, same seed: the same numbers
    data = score_statistics(SCORES, metric="chrF")
    seg = data.stats[..., 0]
    res = paired_power(seg[data.index_of("Aurora")], seg[data.index_of("Borealis")],
                       effect=[2, 4], n=[40, 160, 80], test="t", n_simulations=400, rng=3)
    np.testing.assert_allclose(doc["power"], res.power[0])
    np.testing.assert_allclose(doc["mde"], res.mde)
    # the rate at effect 0 per n (the size), and the sample size for --power at the
    # first --effect with its Monte Carlo error, as the library gives them
    np.testing.assert_allclose(doc["size"], res.size)
    assert len(doc["size_mc_error"]) == 3 and all(0 <= s < 0.1 for s in doc["size"])
    assert doc["sample_size_effect"] == 2.0 and "mean per-item difference" in doc[
        "effect_meaning"]
    assert doc["sample_size"] > 2 and 0 < doc["sample_size_mc_error"] < 0.2 * doc["sample_size"]
    assert isinstance(doc["notes"], list)


def test_text_input_tsv_and_latex(capsys):
    hyps = [HYP / "Aurora.txt", HYP / "Borealis.txt"]
    common = ["power", "--ref", REF, "--hyp", *hyps, "--baseline", "Aurora", "--system",
              "Borealis", "--effect", "1", "--n", "50", "200", "--simulations", "100",
              "--resamples", "100", "--test", "approximate-randomization"]
    code, out, err = run(capsys, *common, "--format", "tsv")
    assert code == 0, err
    lines = [ln for ln in out.splitlines() if not ln.startswith("#")]
    assert lines[0].split("\t") == ["n", "power@1", "mc_error@1", "mde", "size",
                                    "size_mc_error"]
    assert "# sample size for 80% power at effect 1: " in out
    assert [ln.split("\t")[0] for ln in lines[1:]] == ["50", "200"]
    assert "BLEU" in out and "read as reference and output text" in err
    code, out, err = run(capsys, *common, "--format", "latex")
    assert code == 0, err
    assert "\\begin{tabular}" in out


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--baseline", "Nope"], "unknown system 'Nope'"),
        (["--n", "1"], "--n must be at least 2"),
        (["--simulations", "1"], "--simulations must be at least 2"),
        (["--power", "1.5"], "--power must be between 0 and 1"),
        (["--metric", "bleu"], "--metric is for --ref/--hyp"),
        (["--baseline", "Borealis"], "same system"),
        (["--test", "paired-bootstrap", "--resamples", "10"],
         "--resamples 10: the smallest p-value the test can give is 2/11"),
        (["--effect", "150"], "outside the scores' range"),
        # no operation count refuses a run: the time asked for does
        (["--test", "paired-bootstrap", "--simulations", "100000", "--resamples", "100000",
          "--max-seconds", "1"],
         "--simulations 100,000 x --resamples 100,000 simulated tests"),
    ],
)
def test_bad_input_one_line_exit_2(capsys, extra, message):
    args = {"--baseline": "Aurora", "--n": "20", "--simulations": "50"}
    flat = ["power", "--scores", str(SCORES), "--score-metric", "chrF", "--system", "Borealis",
            "--effect", "1"]
    for k, v in args.items():
        if k not in extra:
            flat += [k, v]
    code, out, err = run(capsys, *flat, *extra)
    assert code == 2 and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_corpus_metric_refuses_per_item_tests(capsys):
    code, _, err = run(capsys, "power", "--ref", REF, "--hyp", HYP / "Aurora.txt",
                       HYP / "Borealis.txt", "--baseline", "Aurora", "--system", "Borealis",
                       "--effect", "1", "--n", "50", "--test", "signed-rank")
    assert code == 2 and "needs per-segment scores" in err


def test_human_ratings_by_domain(capsys):
    wmt = ROOT / "sample_data" / "wmt_human"
    code, out, err = run(
        capsys, "power", "--human", wmt / "en-de.esa.csv", "--documents", wmt / "en-de.docs",
        "--baseline", "Borealis", "--system", "Aurora", "--effect", "3", "--n", "20", "40",
        "--simulations", "200", "--seed", "1",
    )
    assert code == 0, err
    doc = json.loads(out)
    assert doc["test"] == "signed-rank by domain, Stouffer" and doc["n"] == [20, 40]
    assert doc["power"][1] > doc["power"][0] and doc["mde"][1] < doc["mde"][0]
    assert "4 domain(s)" in err and "every domain" in doc["definition"]
    code, _, err = run(capsys, "power", "--human", wmt / "en-de.esa.csv", "--baseline",
                       "Borealis", "--system", "Aurora", "--effect", "3", "--test", "t")
    assert code == 2 and "--human runs the ranking's test" in err
