"""The task-set ranking (``rank``, the Leaderboard) on files laid out as WMT and MTME
publish them: mixed gold types, hyphenated metric names, ``Human-*`` systems, an empty gold
column, task weights at the float limit, a constant metric, malformed task-set files."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from scipy import stats as sps

from stats._core.errors import StatsInputError
from stats.analyses.task_set import rank_task_set
from stats.cli import main
from stats.metaeval.task_sets import Task, TaskSet, normalise_weights, read_task_set
from stats.pairwise.clusters import significance_clusters
from stats.readers.meta import parse_metric_name, read_meta_eval
from tests._wmt_published import (
    HYPHENATED,
    WMT25_LPS,
    long_text,
    wide_csv_empty_gold,
    write_wmt25_mixed,
)


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


# ---- 1. one task, its own gold ----------------------------------------------------------------


@pytest.mark.parametrize("order", [WMT25_LPS, WMT25_LPS[::-1]])
def test_mixed_gold_each_task_its_own_gold_in_either_order(tmp_path, order):
    base, truth = write_wmt25_mixed(tmp_path)
    ts = TaskSet.from_tasks(
        [Task(lp=lp, level="seg", correlation="pearson", primary_only=False) for lp in order],
        test_set="wmt25",
    )
    res = rank_task_set(read_meta_eval(base), ts, n_resamples=20, rng=1)
    for o in res.tasks:
        lp = o.task.lp
        # WMT25's standard gold (mt-metrics-eval meta_info): mqm for en-ko_KR, esa elsewhere
        gold_name = "mqm" if lp == "en-ko_KR" else "esa-human1"
        assert o.gold == gold_name
        gold = truth["gold"][lp][gold_name]
        # independent value: scipy's Pearson over all cells of the pair's own gold
        expected = sps.pearsonr(truth["metrics"][lp]["m1-refA"].ravel(), gold.ravel())[0]
        assert o.correlations["m1"] == pytest.approx(expected, abs=1e-12)
    assert res.tasks[[o.task.lp for o in res.tasks].index("en-ko_KR")].correlations["m1"] > 0.8


def test_caller_gold_absent_for_a_pair_is_one_line_naming_it(tmp_path):
    base, _ = write_wmt25_mixed(tmp_path)
    ts = TaskSet.from_tasks([Task(lp=lp, primary_only=False) for lp in WMT25_LPS])
    with pytest.raises(StatsInputError, match=r"^cs-de_DE: no human scores of type 'mqm'"):
        rank_task_set(read_meta_eval(base), ts, n_resamples=5, rng=1, gold="mqm")


# ---- 2. metric names as WMT writes them ---------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "refs", "expected"),
    [
        ("YiSi-2", (), ("YiSi-2", None)),
        ("COMET-QE", (), ("COMET-QE", None)),
        ("BERT-base-L2", (), ("BERT-base-L2", None)),
        ("BLEU-refA", (), ("BLEU", frozenset({"refA"}))),
        ("BLEU-refA.refB", (), ("BLEU", frozenset({"refA", "refB"}))),
        ("COMET-QE-src", (), ("COMET-QE", frozenset())),
        ("chrF-newstestB2020", ("newstestB2020",), ("chrF", frozenset({"newstestB2020"}))),
        ("BLEU-all", ("refA", "refB"), ("BLEU", frozenset({"refA", "refB"}))),
    ],
)
def test_parse_metric_name_keeps_hyphenated_names(name, refs, expected):
    assert parse_metric_name(name, refs) == expected


def test_every_hyphenated_metric_is_ranked(tmp_path, capsys):
    f = tmp_path / "scores.tsv"
    f.write_text(long_text())
    ts = tmp_path / "ts.json"
    ts.write_text(json.dumps({"tasks": [{"lp": "de-en"}, {"lp": "en-de", "level": "sys"}]}))
    code, out, err = _run(capsys, "rank", "--data", f, "--task-set", ts, "--resamples", 20)
    assert code == 0, err
    doc = json.loads(out)
    assert sorted(doc["average"]) == sorted(HYPHENATED)  # 5 in, 5 ranked
    assert doc["left_out"] == {}


def test_metric_of_another_reference_is_listed_as_left_out(tmp_path, capsys):
    base, _ = write_wmt25_mixed(tmp_path)
    lp_dir = base / "metric-scores" / "en-ko_KR"
    (lp_dir / "m2-refB.seg.score").write_text((lp_dir / "m1-refA.seg.score").read_text())
    (base / "references" / "en-ko_KR.refB.txt").write_text("x\n")
    ts = tmp_path / "ts.json"
    ts.write_text(json.dumps({"tasks": [{"lp": "en-ko_KR", "primary_only": False}]}))
    code, out, err = _run(
        capsys, "rank", "--data", base, "--task-set", ts, "--resamples", 10, "--format", "text"
    )
    assert code == 0, err
    assert "# left out, because en-ko_KR: uses reference(s) refB, not refA: m2-refB" in out


# ---- 3. human translations and references as systems -------------------------------------------


def test_human_systems_left_out_with_a_note_and_included_on_request(tmp_path):
    f = tmp_path / "scores.tsv"
    f.write_text(long_text(lps=("de-en",)))
    data = read_meta_eval(f)
    ts = TaskSet.from_tasks([Task(lp="de-en", primary_only=False)])
    res = rank_task_set(data, ts, n_resamples=10, rng=1)
    assert res.tasks[0].n_systems == 5
    notes = " | ".join(res.notes)
    assert "Human-A.0" in notes and "no mqm human score" in notes  # metric scores only
    assert "Human-B.0" in notes and "human translation" in notes  # has gold: a human
    res = rank_task_set(data, ts, n_resamples=10, rng=1, include_human=True)
    assert res.tasks[0].n_systems == 6  # Human-B.0 has human scores; Human-A.0 has none


def test_empty_gold_column_is_one_line_exit_2(tmp_path, capsys):
    f = tmp_path / "wide.csv"
    f.write_text(wide_csv_empty_gold())
    code, out, err = _run(
        capsys, "meta-eval", "--data", f, "--level", "sys", "--gold", "mqm", "--lp", "en-de",
        "--correlation", "pearson",
    )
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "'en-de'" in err and "'mqm'" in err, err
    ts = tmp_path / "ts.json"
    ts.write_text(json.dumps({"tasks": [{"lp": "de-en"}, {"lp": "en-de"}]}))
    code, out, err = _run(capsys, "rank", "--data", f, "--task-set", ts, "--resamples", 5)
    assert code == 2 and "Traceback" not in err
    assert err.count("\n") == 1 and "'en-de'" in err and "'mqm'" in err, err


# ---- 4. numbers that cannot be wrong -----------------------------------------------------------


def test_weights_at_the_bound_of_numbers_are_normalised():
    assert normalise_weights([1e308, 1e308], "w") == (0.5, 0.5)
    ts = TaskSet.from_tasks([Task(lp="a-b", weight=1e150), Task(lp="c-d", weight=1e150)])
    assert ts.weights == (0.5, 0.5)
    assert ts.restricted(["a-b"]).weights == (1.0,)
    with pytest.raises(StatsInputError, match=r"weight must be a number >= 0 \(at most 1e150\)"):
        Task(lp="a-b", weight=1e308)  # the bound of every number, files' and options'


def test_constant_metric_has_undefined_pvalues_and_no_cluster(tmp_path, capsys):
    f = tmp_path / "scores.tsv"
    f.write_text(long_text(lps=("de-en",), constant="chrF", humans=False))
    ts = tmp_path / "ts.json"
    ts.write_text(json.dumps({"tasks": [{"lp": "de-en"}]}))
    with pytest.warns(RuntimeWarning):
        res = rank_task_set(
            read_meta_eval(f), read_task_set(ts), n_resamples=30, rng=1
        )
    assert math.isnan(res.statistic["chrF"])
    assert res.pvalue.loc["chrF"].isna().all() and res.pvalue["chrF"].isna().all()
    assert math.isnan(res.rank["chrF"]) and math.isnan(res.tasks[0].rank["chrF"])
    assert res.rank.drop("chrF").notna().all()
    code, out, err = _run(capsys, "rank", "--data", f, "--task-set", ts, "--resamples", 30)
    assert code == 0, err
    doc = json.loads(out)
    assert doc["rank"]["chrF"] is None and doc["tasks"][0]["rank"]["chrF"] is None
    assert all(v is None for v in doc["pvalues"]["chrF"].values())
    assert all(row["chrF"] is None for row in doc["pvalues"].values())
    code, out, err = _run(
        capsys, "rank", "--data", f, "--task-set", ts, "--resamples", 30, "--format", "text"
    )
    line = next(ln for ln in out.splitlines() if ln.startswith("chrF"))
    assert "-" in line.split()[1]


def test_clusters_skip_undefined_items():
    import pandas as pd

    p = pd.DataFrame(np.full((3, 3), np.nan), index=list("abc"), columns=list("abc"))
    p.loc["a", "c"] = 0.01
    r = significance_clusters(p, undefined=["b"])
    assert r["a"] == 1 and math.isnan(r["b"]) and r["c"] == 2


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('{"tasks": [{"lp": "a-b", "weight": 1' + "0" * 5000 + "}]}", "not a usable JSON number"),
        ('{"tasks": [{"lp": "a-b", "weight": 1' + "0" * 400 + "}]}", r"weight must be a number"),
        ('{"tasks": [{"lp": "a-b", "weight": 1e999}]}', r"weight must be a number >= 0 \(at most 1e150\); got inf"),
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"tasks": [{"lp": [1, 2]}]}', r"task 1: lp must be a language pair"),
        ('{"tasks": [{"lp": "a-b", "refs": 5}]}', r"task 1: .*refs must be a reference name"),
        ('{"weight_by": 5, "tasks": [{"lp": "a-b"}]}', r"weight_by must be a task attribute"),
        ('{"tasks": [{"lp": "a-b", "epsilon": "abc"}]}', r"epsilon must be a number >= 0"),
        ('{"tasks": [{"lp": "a-b", "include_human": "yes"}]}', r"include_human must be true"),
        ('{"tasks": [{"lp": "a-b", "gold": 3}]}', r"gold must be a name"),
        ('{"test_set": 5, "tasks": [{"lp": "a-b"}]}', r"test_set must be a name"),
    ],
)
def test_malformed_task_set_files_are_one_line(tmp_path, text, match):
    with pytest.raises(StatsInputError, match=match) as info:
        read_task_set(tmp_path / "ts.json", text=text)
    assert "\n" not in str(info.value) and len(str(info.value)) < 300


def test_deep_toml_is_one_line(tmp_path):
    with pytest.raises(StatsInputError, match="ts.toml") as info:
        read_task_set(tmp_path / "ts.toml", text="x = " + "[" * 100_000 + "]" * 100_000)
    assert "\n" not in str(info.value)


def test_meta_eval_names_the_systems_it_leaves_out(tmp_path, capsys):
    f = tmp_path / "scores.tsv"
    f.write_text(long_text(lps=("de-en",)))
    code, out, err = _run(
        capsys, "meta-eval", "--data", f, "--level", "seg", "--correlation", "pearson"
    )
    assert code == 0, err
    assert "warning: de-en: system(s) Human-A.0 left out: metric scores but no mqm" in err
    assert "warning: de-en: human translation(s) Human-B.0 left out as systems" in err
    assert sorted(json.loads(out)["language_pairs"][0]["metrics"]) == sorted(HYPHENATED)
