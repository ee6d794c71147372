"""Undefined is undefined everywhere: a p-value, interval, rank or cluster that
involves an undefined correlation (constant scores) or an undefined test (one segment, no item
shared) is NaN in the result and null / "-" in every output, and the output names the metric or
system and why. One test per test family (Williams, PERM-BOTH, QE grids, randomized, human), on
files generated in the published layouts, and one walk over every CLI output checking that no
number stands next to an undefined item."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from stats import DegenerateInputWarning, grid_significance, significance_clusters
from stats.cli import main

#: keys whose values stay defined for a constant metric or system: its own scores and errors
DEFINED = {"mae", "rmse", "rank_mae", "rank_rmse", "scores", "score", "n_items", "files"}


def _numbers_about(doc, name: str, path: str = "") -> list[str]:
    """Every number in ``doc`` (parsed JSON) keyed by ``name`` at any depth, or in a matrix
    row or column of ``name``: where a number stands next to the undefined item."""
    found = []
    if isinstance(doc, dict):
        for key, value in doc.items():
            here = f"{path}/{key}"
            if key in DEFINED:
                continue
            if key == name:
                found += [p for p in _leaves(value, here) if p]
            else:
                found += _numbers_about(value, name, here)
    elif isinstance(doc, list):
        for k, value in enumerate(doc):
            if isinstance(value, dict) and value.get("system") == name:
                found += [
                    p for key, v in value.items() if key not in DEFINED and key != "system"
                    for p in _leaves(v, f"{path}[{k}]/{key}") if p
                ]
            else:
                found += _numbers_about(value, name, f"{path}[{k}]")
    return found


def _leaves(value, path: str) -> list[str]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, f"{path}/{k}")]
    if isinstance(value, list):
        return [p for k, v in enumerate(value) for p in _leaves(v, f"{path}[{k}]")]
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return []
    return [f"{path}={value}"]


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out, out.err


# ---------------------------------------------------------------- the files


@pytest.fixture(scope="module")
def system_files(tmp_path_factory):
    """WMT metrics-task system scores (METRIC LP TESTSET SYSTEM SCORE): two metrics and a
    constant one, CONST."""
    rng = np.random.default_rng(1)
    root = tmp_path_factory.mktemp("sys")
    head = "METRIC\tLP\tTESTSET\tSYSTEM\tSCORE"
    human, metrics = [head], [head]
    for i in range(8):
        h = rng.normal()
        human.append(f"HUMAN\ten-de\tnt\tsys{i}\t{h:.4f}")
        metrics.append(f"GOOD\ten-de\tnt\tsys{i}\t{h + rng.normal(0, 0.3):.4f}")
        metrics.append(f"BLEU\ten-de\tnt\tsys{i}\t{h + rng.normal(0, 1):.4f}")
        metrics.append(f"CONST\ten-de\tnt\tsys{i}\t0.5")
    (root / "human.tsv").write_text("\n".join(human) + "\n")
    (root / "metrics.tsv").write_text("\n".join(metrics) + "\n")
    return root


@pytest.fixture(scope="module")
def segment_file(tmp_path_factory):
    """Meta-evaluation wide CSV (lp, system, segment, human, <metric>...) with CONST."""
    rng = np.random.default_rng(2)
    rows = ["lp,system,segment,human,GOOD,BLEU,CONST"]
    for s in range(6):
        q = rng.normal()
        for seg in range(10):
            h = q + rng.normal()
            rows.append(
                f"en-de,sys{s},{seg},{h:.4f},{h + rng.normal(0, 0.5):.4f},"
                f"{h + rng.normal(0, 1.5):.4f},0.5"
            )
    path = tmp_path_factory.mktemp("seg") / "wide.csv"
    path.write_text("\n".join(rows) + "\n")
    return path


def _qe_wmt_files(root):
    """A WMT QE submission (LP METHOD SEGMENT_NUMBER SCORE) with a constant system C, and the
    task's gold file (lp gold sid score)."""
    rng = np.random.default_rng(0)
    g = rng.normal(size=30)
    gold = "lp\tmethod\tsid\tscore\n" + "".join(f"en-de\tgold\t{i}\t{g[i]:.3f}\n" for i in range(30))
    rows = [f"en-de\tA\t{i}\t{g[i] + rng.normal():.3f}" for i in range(30)]
    rows += [f"en-de\tB\t{i}\t{rng.normal():.3f}" for i in range(30)]
    rows += [f"en-de\tC\t{i}\t0.5" for i in range(30)]
    (root / "team").mkdir()
    (root / "team" / "predictions.txt").write_text("\n".join(rows) + "\n")
    (root / "gold.tsv").write_text(gold)
    return root / "team" / "predictions.txt", root / "gold.tsv"


# ---------------------------------------------------------------- the rule


def test_an_item_without_any_defined_test_gets_no_cluster():
    names = ["A", "B", "C"]
    p = pd.DataFrame(np.nan, index=names, columns=names)
    p.loc["A", "B"] = 0.01
    rank = significance_clusters(p)  # C: every test of it undefined
    assert rank["A"] == 1 and rank["B"] == 2 and np.isnan(rank["C"])
    assert grid_significance(p).rank.isna().tolist() == [False, False, True]
    # nothing tested at all: nothing ranked; one defined item alone keeps rank 1
    assert significance_clusters(pd.DataFrame(np.nan, index=names, columns=names)).isna().all()
    alone = significance_clusters(p, undefined=["B", "C"])
    assert alone["A"] == 1 and alone[["B", "C"]].isna().all()


# ---------------------------------------------------------------- Williams


def test_williams_constant_metric(system_files, capsys):
    argv = ["williams", "--human", system_files / "human.tsv", "--metrics",
            system_files / "metrics.tsv"]  # fmt: skip
    out, err = _run(capsys, *argv)
    assert "constant metric(s) CONST: correlation undefined" in err
    (block,) = json.loads(out)["language_pairs"]
    assert block["rank"]["CONST"] is None and block["rank"]["GOOD"] == 1
    assert "CONST" not in block["winners"]
    assert block["williams_p"]["GOOD"]["CONST"] is None
    assert not _numbers_about(block, "CONST")
    tsv, _ = _run(capsys, *argv, "--format", "tsv", "--correction", "holm")
    assert "CONST=-" in tsv and "CONST=1" not in tsv and "CONST=2" not in tsv
    row = next(line for line in tsv.splitlines() if line.startswith("CONST\t"))
    assert set(row.split("\t")[1:]) == {"-"}


# ---------------------------------------------------------------- PERM-BOTH


def test_perm_both_constant_metric(segment_file, capsys):
    out, err = _run(capsys, "meta-eval", "--data", segment_file, "--level", "seg",
                    "--correlation", "pearson", "--test", "perm-both", "--resamples", "60")  # fmt: skip
    assert "PERM-BOTH (pearson): correlation undefined for CONST" in err
    assert "en-de, metric CONST: pearson: no group has a defined correlation" in err
    (block,) = json.loads(out)["language_pairs"]
    assert block["pvalues"]["GOOD"]["CONST"] is None  # was 0.0
    assert block["pvalues"]["BLEU"]["CONST"] is None
    assert block["rank"]["CONST"] is None  # was a cluster rank
    assert block["pvalues"]["GOOD"]["BLEU"] is not None
    assert not _numbers_about(block, "CONST")
    tsv, _ = _run(capsys, "meta-eval", "--data", segment_file, "--level", "seg", "--correlation",
                  "pearson", "--test", "perm-both", "--resamples", "60", "--format", "tsv")  # fmt: skip
    assert "CONST=-" in tsv
    lines = [line for line in tsv.splitlines() if line.startswith(("GOOD\t", "BLEU\t"))]
    assert lines and all(line.split("\t")[-1] == "-" for line in lines)


def test_perm_both_library_nan_and_draws():
    from stats import perm_both

    rng = np.random.default_rng(5)
    g = rng.normal(size=(1, 40))
    metrics = {"A": g + rng.normal(size=g.shape), "B": g + 2 * rng.normal(size=g.shape),
               "CONST": np.full(g.shape, 0.5)}  # fmt: skip
    with pytest.warns(DegenerateInputWarning, match="undefined for CONST"):
        res = perm_both(metrics, g, correlation="spearman", n_resamples=50, rng=1,
                        return_draws=True)  # fmt: skip
    assert res.pvalue["CONST"].isna().all() and res.pvalue.loc["CONST"].isna().all()
    assert res.statistic["CONST"].isna().all()
    assert np.isnan(res.pair_draws("A", "CONST")).all()
    assert np.isfinite(res.pvalue.at["A", "B"])


# ---------------------------------------------------------------- QE grids


@pytest.mark.parametrize("primary", ["spearman", "pearson", "kendall"])
def test_qe_grid_constant_system(tmp_path, capsys, primary):
    subs, gold = _qe_wmt_files(tmp_path)
    out, err = _run(capsys, "qe", "--data", subs, "--gold", gold, "--primary", primary,
                    "--resamples", "40")  # fmt: skip
    assert "correlation undefined (constant predictions?) for team/C" in err
    doc = json.loads(out)
    (block,) = doc["language_pairs"]
    assert block["rank"]["team/C"] is None
    assert block["pvalues"]["team/A"]["team/C"] is None  # the raw grid too, not only adjusted
    assert block["pvalues"]["team/B"]["team/C"] is None
    assert not _numbers_about(block, "team/C")


def test_qe_graham_constant_system(tmp_path, capsys):
    rng = np.random.default_rng(3)
    g = rng.random(20)
    rows = "\n".join(
        f"{i},{g[i]:.4f},{g[i] + rng.normal(0, .2):.4f},{g[i] + rng.normal(0, .5):.4f},0.5"
        for i in range(20)
    )
    path = tmp_path / "qe.csv"
    path.write_text("sid,gold,A,B,FLAT\n" + rows + "\n")
    out, err = _run(capsys, "qe", "--data", path, "--allow-constant")
    assert "constant prediction(s) of 'FLAT'" in err
    doc = json.loads(out)
    assert doc["rank"]["FLAT"] is None
    assert not _numbers_about(doc, "FLAT")


# ---------------------------------------------------------------- randomized


@pytest.mark.parametrize("test", ["paired-bootstrap", "approximate-randomization"])
def test_randomized_one_segment(tmp_path, capsys, test):
    path = tmp_path / "one.csv"
    path.write_text("SEGMENT,Cirrus,Aurora,Harbor\n1,0.4371,0.6055,0.1355\n")
    out, err = _run(capsys, "randomized", "--scores", path, "--test", test, "--resamples", "99")
    assert "only 1 segment" in err and "confidence intervals and ranks" in err
    doc = json.loads(out)
    for system in ("Aurora", "Cirrus", "Harbor"):
        assert doc["rank"][system] is None  # was rank 1 for all, from no test
        assert doc["score_ci"][system] == [None, None]  # was [score, score]
        assert not _numbers_about({k: v for k, v in doc.items() if k != "scores"}, system)
    tsv, _ = _run(capsys, "randomized", "--scores", path, "--test", test, "--resamples", "99",
                  "--format", "tsv", "--correction", "holm")  # fmt: skip
    assert "Aurora=-" in tsv and "Aurora=1" not in tsv


def test_randomized_library_intervals():
    from stats import pairwise_significance, statistics_from_scores

    data = statistics_from_scores(pd.DataFrame({"A": [0.4], "B": [0.6]}))
    with pytest.warns(DegenerateInputWarning, match="only 1 segment"):
        res = pairwise_significance(data, test="paired-bootstrap", n_resamples=50, rng=0)
    assert res.score_ci_low.isna().all() and res.score_ci_high.isna().all()
    assert res.diff_ci_low.isna().all().all()


# ---------------------------------------------------------------- human


def test_human_ranking_system_without_shared_items(tmp_path):
    from stats.human.paired import paired_ranking

    rng = np.random.default_rng(4)
    rows = []
    for seg in range(30):
        for system, shift in (("A", 1.0), ("B", 0.0), ("C", -0.5)):
            rows.append(("news", "d1", seg, system, 50 + 10 * shift + rng.normal(0, 5)))
    for seg in range(30, 40):  # ALONE: rated on items no other system was
        rows.append(("news", "d1", seg, "ALONE", 60 + rng.normal(0, 5)))
    ratings = pd.DataFrame(rows, columns=["domain", "document", "segment", "system", "score"])
    with pytest.warns(DegenerateInputWarning, match="ALONE"):
        res = paired_ranking(ratings)
    assert res.pvalue["ALONE"].isna().all()
    assert res.rank_range.loc["ALONE"].isna().all()
    assert all("ALONE" not in c for c in res.clusters)
    assert res.rank_range.loc["A"].notna().all()
    frame = res.to_frame()
    assert pd.isna(frame.at["ALONE", "cluster"]) and frame.at["A", "cluster"] == 1
    # every output of the ranking: the findings' LaTeX, the page's table
    from dashboard.sections.human_gold import paired_ranking_table
    from stats.human.paired import ranking_latex

    assert "-- & ALONE &" in ranking_latex(res)
    table = paired_ranking_table(res)
    assert table.at["ALONE", "rank"] == "–" and "." not in table.at["A", "rank"]


def test_nothing_is_warned_for_defined_input(system_files, capsys):
    """The checks above are not a warning on every input: defined metrics give none."""
    text = (system_files / "metrics.tsv").read_text()
    (system_files / "defined.tsv").write_text(
        "\n".join(line for line in text.splitlines() if not line.startswith("CONST")) + "\n"
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateInputWarning)
        code = main(["williams", "--human", str(system_files / "human.tsv"), "--metrics",
                     str(system_files / "defined.tsv")])  # fmt: skip
    out = capsys.readouterr()
    assert code == 0, out.err


# ---------------------------------------------------------------- figures


def test_grids_box_the_undefined_items_apart_and_never_print_their_rank():
    from dashboard.figures.clusters import adjusted_grid_args, cluster_boundaries, cluster_shapes
    from dashboard.figures.grids import significance_grid

    assert cluster_boundaries([1, 1, 2, None, None]) == [2, 3]
    assert cluster_boundaries([1.0, 2.0, np.nan, np.nan]) == [1, 2]
    names = [s["name"] for s in cluster_shapes([1, 2, None])]
    assert names == ["cluster 2", "cluster 2", "no cluster (undefined)", "no cluster (undefined)"]
    idx = ["A", "B", "CONST"]
    p = pd.DataFrame(np.nan, index=idx, columns=idx)
    p.loc["A", "B"] = 0.01
    sig = grid_significance(p)
    args = adjusted_grid_args(p, sig)
    assert args["clusters"] == [1, 2, None]
    fig = significance_grid(args["pvalue"], alpha=0.05, clusters=args["clusters"])
    assert fig.layout.meta["clusters"] == [1, 2, None]


def test_exports_never_mark_an_undefined_row():
    from stats.export_tables import ranking_marks

    idx = ["A", "B", "FLAT"]
    significant = pd.DataFrame(False, index=idx, columns=idx)
    significant.loc["A", "B"] = True
    marks = ranking_marks(significant, alpha=0.05, undefined=["FLAT"])
    assert marks.bold.tolist() == [True, False, False]  # FLAT was bold: "not beaten"
    unmarked = ranking_marks(significant, alpha=0.05)
    assert unmarked.bold.tolist() == [True, False, True]  # without being told: bold as the test said
