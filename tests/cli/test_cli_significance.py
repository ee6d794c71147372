"""Multiple-comparison corrections, clusters, sidedness and Williams power in the CLI output."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from stats.cli import main
from stats.pairwise.clusters import significance_clusters
from stats.pairwise.multiple import adjust_pvalues
from stats.power.williams import williams_detectable_difference
from tests._data import write_mt_sample_head

ROOT = Path(__file__).resolve().parents[2]
HUMAN = ROOT / "sample_data" / "metrics" / "human.tsv"
METRICS = ROOT / "sample_data" / "metrics" / "metrics.tsv"
JUDGEMENTS = ROOT / "sample_data" / "human" / "judgements.tsv"


def cli(capsys, *argv):
    code = main([*map(str, argv)])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def grid(block_matrix: dict, order) -> pd.DataFrame:
    return pd.DataFrame(
        [[block_matrix[r][c] for c in order] for r in order], index=order, columns=order,
        dtype=float,
    )


def r_p_adjust(p: np.ndarray, method: str) -> np.ndarray:
    """R's p.adjust when Rscript is on PATH (live golden values); else stats.pairwise.multiple
    (itself checked against recorded R values in test_multiple.py)."""
    if shutil.which("Rscript") is None:
        return adjust_pvalues(p, method={"holm": "holm", "BH": "bh"}[method])
    expr = f"cat(sprintf('%.17g', p.adjust(c({','.join(map(repr, p.tolist()))}), '{method}')))"
    out = subprocess.run(["Rscript", "-e", expr], capture_output=True, text=True, check=True)
    return np.array([float(v) for v in out.stdout.split()])


@pytest.mark.parametrize("correction, r_name", [("holm", "holm"), ("bh", "BH")])
def test_williams_correction_equals_r_and_ranks_follow(capsys, correction, r_name):
    doc = json.loads(
        cli(capsys, "williams", "--human", HUMAN, "--metrics", METRICS, "--lp", "es-en",
            "--correction", correction)
    )
    block = doc["language_pairs"][0]
    order = block["metrics"]
    raw, adj = grid(block["williams_p"], order), grid(block["williams_p_adjusted"], order)
    iu = np.triu_indices(len(order), 1)
    np.testing.assert_allclose(
        adj.to_numpy()[iu], r_p_adjust(raw.to_numpy()[iu], r_name), rtol=1e-12
    )
    assert block["correction"] == correction and block["alpha"] == 0.05
    ranks = significance_clusters(adj, alpha=0.05)
    assert block["rank"] == {m: int(ranks[m]) for m in order}
    assert list(block["rank"]) == order and block["rank"][order[0]] == 1
    assert np.all(np.diff(list(block["rank"].values())) >= 0)


def test_williams_default_states_sidedness_and_keeps_raw(capsys):
    doc = json.loads(cli(capsys, "williams", "--human", HUMAN, "--metrics", METRICS))
    for block in doc["language_pairs"]:
        assert block["sidedness"] == "post-hoc one-sided"
        assert "2 x alpha" in block["test_note"]
        assert block["correction"] == "none" and "williams_p_adjusted" not in block
        order = block["metrics"]
        ranks = significance_clusters(grid(block["williams_p"], order), alpha=0.05)
        assert block["rank"] == {m: int(ranks[m]) for m in order}
    two = json.loads(
        cli(capsys, "williams", "--human", HUMAN, "--metrics", METRICS, "--lp", "es-en",
            "--alternative", "two-sided")
    )["language_pairs"][0]
    assert two["sidedness"] == "two-sided" and "2 x alpha" not in two["test_note"]


def test_williams_alpha_changes_clusters(capsys):
    base = ["williams", "--human", HUMAN, "--metrics", METRICS, "--lp", "es-en"]
    loose = json.loads(cli(capsys, *base, "--alpha", "0.2"))["language_pairs"][0]
    strict = json.loads(cli(capsys, *base, "--alpha", "0.001"))["language_pairs"][0]
    assert max(loose["rank"].values()) > max(strict["rank"].values())


def test_williams_power(capsys):
    doc = json.loads(
        cli(capsys, "williams", "--human", HUMAN, "--metrics", METRICS, "--lp", "es-en",
            "--power")
    )
    block = doc["language_pairs"][0]
    power = block["power"]
    assert power["n"] == 12 and power["power"] == 0.8 and power["alpha"] == 0.05
    order = block["metrics"]
    top, second = order[0], order[1]
    r13 = abs(block["pearson"][top])
    r12 = block["metric_corr"][top][second]
    expected = williams_detectable_difference(n=12, r_a_b=r12, r_human_a=r13).difference
    assert power["detectable_difference"][top][second] == pytest.approx(float(expected))
    cells = [v for row in power["detectable_difference"].values() for v in row.values()
             if v is not None]
    assert len(cells) == len(order) * (len(order) - 1) // 2
    assert power["median_detectable_difference"] == pytest.approx(float(np.median(cells)))
    tsv = cli(capsys, "williams", "--human", HUMAN, "--metrics", METRICS, "--lp", "es-en",
              "--power", "--format", "tsv")
    assert "# power: with 12 systems, differences in r below 0." in tsv


def test_williams_bad_alpha(capsys):
    code = main(["williams", "--human", str(HUMAN), "--metrics", str(METRICS), "--alpha", "1.5"])
    assert code == 2 and "--alpha" in capsys.readouterr().err


def test_randomized_correction_and_rank(capsys, tmp_path):
    write_mt_sample_head(tmp_path, 60, ("Aurora", "Cirrus", "Delta", "Harbor"), ref_name="ref.txt")
    hyps = [tmp_path / f"{s}.txt" for s in ("Aurora", "Cirrus", "Delta", "Harbor")]
    args = ["randomized", "--ref", tmp_path / "ref.txt", "--hyp", *hyps, "--resamples", "300",
            "--seed", "2"]
    doc = json.loads(cli(capsys, *args, "--correction", "holm"))
    order = doc["systems"]
    raw, adj = grid(doc["pvalues"], order), grid(doc["pvalues_adjusted"], order)
    iu = np.triu_indices(len(order), 1)
    np.testing.assert_allclose(adj.to_numpy()[iu], r_p_adjust(raw.to_numpy()[iu], "holm"))
    ranks = significance_clusters(adj, alpha=0.05)
    assert doc["rank"] == {s: int(ranks[s]) for s in order}
    assert doc["sidedness"] == "post-hoc one-sided"
    tsv = cli(capsys, *args, "--correction", "holm", "--format", "tsv")
    assert "# rank (clusters at alpha=0.05, holm-adjusted)" in tsv
    assert "# holm-adjusted p-values (family: this grid)" in tsv


def test_accuracy_gold_rank_and_adjusted(capsys, tmp_path):
    write_mt_sample_head(tmp_path, 60, ("Aurora", "Cirrus", "Delta", "Harbor"), ref_name="ref.txt")
    hyps = [tmp_path / f"{s}.txt" for s in ("Aurora", "Cirrus", "Delta", "Harbor")]
    doc = json.loads(
        cli(capsys, "accuracy", "--human", JUDGEMENTS, "--ref", tmp_path / "ref.txt", "--hyp",
            *hyps, "--tests", "paired-bootstrap", "--resamples", "100", "--alpha", "0.05",
            "--correction", "bh")
    )
    order = doc["systems"]
    raw = grid(doc["gold"]["combined"], order)
    adj = grid(doc["gold_adjusted"], order)
    mask = ~np.isnan(raw.to_numpy())
    np.testing.assert_allclose(
        adj.to_numpy()[mask], r_p_adjust(raw.to_numpy()[mask], "BH"), rtol=1e-12
    )
    ranks = significance_clusters(adj, alpha=0.05)
    assert doc["gold_rank"] == {s: int(ranks[s]) for s in order}
    assert doc["gold_correction"] == "bh" and doc["gold_sidedness"] == "post-hoc one-sided"


META = ROOT / "sample_data" / "meta" / "wmt-sample"


def test_meta_eval_perm_both(capsys):
    args = ["meta-eval", "--data", META, "--gold", "mqm", "--level", "seg", "--correlation",
            "pearson", "--grouping", "item", "--test", "perm-both", "--resamples", "300",
            "--seed", "4"]
    doc = json.loads(cli(capsys, *args, "--correction", "bh"))
    assert doc["test"] == "perm-both" and doc["test_resamples"] == 300 and doc["seed"] == 4
    for block in doc["language_pairs"]:
        order = block["metrics"]
        values = [block["correlation"][m] for m in order]
        assert values == sorted(values, reverse=True)
        raw = grid(block["pvalues"], order)
        iu = np.triu_indices(len(order), 1)
        assert not np.isnan(raw.to_numpy()[iu]).any()
        assert np.isnan(raw.to_numpy()[np.tril_indices(len(order))]).all()
        adj = grid(block["pvalues_adjusted"], order)
        np.testing.assert_allclose(adj.to_numpy()[iu], r_p_adjust(raw.to_numpy()[iu], "BH"))
        ranks = significance_clusters(adj, alpha=0.05)
        assert block["rank"] == {m: int(ranks[m]) for m in order}
        assert block["sidedness"] == "post-hoc one-sided"
    # the same seed gives the same bytes; without --test the document has no test keys
    assert cli(capsys, *args, "--correction", "bh") == cli(capsys, *args, "--correction", "bh")
    plain = json.loads(cli(capsys, *args[:9]))
    assert "test" not in plain and "pvalues" not in plain["language_pairs"][0]
    tsv = cli(capsys, *args, "--format", "tsv")
    assert "PERM-BOTH p-values (row correlates better than column; post-hoc one-sided" in tsv


def test_qe_grid_rank_and_correction(capsys):
    qe = ROOT / "sample_data" / "qe" / "hter_long.txt"
    doc = json.loads(cli(capsys, "qe", "--data", qe, "--correction", "holm"))
    order = [s["system"] for s in doc["systems"]]
    raw, adj = grid(doc["williams_p"], order), grid(doc["williams_p_adjusted"], order)
    mask = ~np.isnan(raw.to_numpy())
    np.testing.assert_allclose(
        adj.to_numpy()[mask], r_p_adjust(raw.to_numpy()[mask], "holm"), rtol=1e-12
    )
    ranks = significance_clusters(adj, alpha=0.05)
    assert doc["rank"] == {s: int(ranks[s]) for s in order}
    assert doc["sidedness"] == "post-hoc one-sided"


def test_meta_eval_test_options_need_the_test(capsys):
    code = main(["meta-eval", "--data", str(META), "--gold", "mqm", "--level", "seg",
                 "--correlation", "pearson", "--early-stopping"])
    assert code == 2 and "--test perm-both" in capsys.readouterr().err
