"""Soft pairwise accuracy against MTME's pce module; the permutation p-values against exact
enumeration; the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from stats import StatsInputError
from stats.cli import main
from stats.metaeval.soft_pairwise import pairwise_permutation_pvalues, soft_pairwise_accuracy

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "meta" / "wmt-sample"


def _data():
    """The data the golden values were computed on (same seeded numpy draws)."""
    rng = np.random.default_rng(424242)
    S, N_ITEMS = 6, 50
    quality = np.linspace(0.6, 0, S)[:, None]
    gold = np.round(quality + rng.normal(scale=1.0, size=(S, N_ITEMS)), 2)
    metrics = {
        "good": np.round(gold + rng.normal(scale=0.5, size=(S, N_ITEMS)), 3),
        "fair": np.round(quality + rng.normal(scale=1.0, size=(S, N_ITEMS)), 3),
        "noise": np.round(rng.normal(scale=1.0, size=(S, N_ITEMS)), 3),
    }
    return gold, metrics


# Golden values: mt_metrics_eval.pce (google-research/mt-metrics-eval, run outside the project
# with PYTHONPATH=/tmp/mtme): compute_one_minus_pce(compute_pairwise_p_values(gold, 2000),
# compute_pairwise_p_values(metric, 2000)) on _data().
MTME_SPA = {"good": 0.9487, "fair": 0.917, "noise": 0.4706666666666667}


def test_equals_mtme_pce_within_monte_carlo_error():
    gold, metrics = _data()
    res = soft_pairwise_accuracy(metrics, gold, n_resamples=2000, rng=5)
    for m, v in MTME_SPA.items():
        assert res.statistic[m] == pytest.approx(v, abs=0.02)
    assert list(res.statistic.index) == ["good", "fair", "noise"]
    assert res.n_items == 50 and np.isnan(res.pvalue)


def test_pvalues_equal_exact_enumeration():
    # 3 systems x 8 items: all 2^8 sign patterns give the exact permutation p-values
    rng = np.random.default_rng(9)
    x = rng.normal(size=(3, 8)) + np.array([[0.5], [0.0], [0.2]])
    signs = np.where((np.arange(256)[:, None] >> np.arange(8)) & 1, -1.0, 1.0)
    got = pairwise_permutation_pvalues(x, signs)
    for i in range(3):
        for j in range(i + 1, 3):
            d = x[i] - x[j]
            exact = np.mean(signs @ d >= d.sum() - 1e-12)
            assert got[i, j] == pytest.approx(exact)
    assert np.isnan(got[np.tril_indices(3)]).all()


def test_items_missing_for_a_system_are_dropped():
    gold, metrics = _data()
    gold = gold.copy()
    gold[2, :5] = np.nan
    res = soft_pairwise_accuracy(metrics, gold, n_resamples=200, rng=1)
    ref = soft_pairwise_accuracy(
        {m: v[:, 5:] for m, v in metrics.items()}, gold[:, 5:], n_resamples=200, rng=1
    )
    assert res.n_items == 45
    assert res.statistic.to_dict() == ref.statistic.to_dict()


def test_bad_input():
    with pytest.raises(StatsInputError, match="every system"):
        soft_pairwise_accuracy({"a": np.zeros((2, 2))}, np.array([[np.nan, 1], [1, np.nan]]))
    with pytest.raises(StatsInputError, match="shape"):
        soft_pairwise_accuracy({"a": np.zeros((2, 3))}, np.zeros((2, 2)))


def test_cli_json_and_average(capsys):
    code = main(["meta-eval", "--data", str(SAMPLE), "--gold", "mqm", "--level", "sys",
                 "--correlation", "soft-pairwise-accuracy", "--resamples", "300", "--seed", "3"])
    out = capsys.readouterr()
    assert code == 0, out.err
    doc = json.loads(out.out)
    assert doc["correlation"] == "soft-pairwise-accuracy" and doc["n_resamples"] == 300
    lps = doc["language_pairs"]
    assert [b["lp"] for b in lps] == ["en-de", "zh-en"]
    for b in lps:
        values = [b["correlation"][m] for m in b["metrics"]]
        assert values == sorted(values, reverse=True) and all(0 <= v <= 1 for v in values)
    across = doc["across_language_pairs"]["correlation"]
    for m, v in across.items():
        assert v == pytest.approx(np.mean([b["correlation"][m] for b in lps]))
    code = main(["meta-eval", "--data", str(SAMPLE), "--level", "seg", "--gold", "mqm",
                 "--correlation", "soft-pairwise-accuracy"])
    assert code == 2 and "--level sys" in capsys.readouterr().err
