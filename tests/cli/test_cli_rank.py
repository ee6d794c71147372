"""``python -m stats rank`` on generated WMT24-like data in MTME's layout: JSON keys, the
MetricsTable forms, references and human systems, bad input, and Dask (a LocalCluster of 2
workers gives the same bytes as one process)."""

from __future__ import annotations

import json
import sys
import types

import numpy as np
import pytest

from stats.cli import main
from stats.readers.meta import parse_metric_name, read_meta_eval
from tests._task_set_data import write_wmt_like

TASKS = {
    "tasks": [
        {"lp": lp, "level": lv, "correlation": c}
        for lp in ("en-de", "en-es")
        for lv, c in (("sys", "pearson"), ("seg", "kendall"))
    ]
}


@pytest.fixture(scope="module")
def wmt_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("wmt")
    base = write_wmt_like(root, lps=("en-de", "en-es"), n_systems=5, n_items=12, seed=4)
    ts = root / "ts.json"
    ts.write_text(json.dumps(TASKS))
    return base, ts


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_output(capsys, wmt_dir):
    base, ts = wmt_dir
    code, out, err = _run(
        capsys,
        "rank",
        "--data",
        str(base),
        "--task-set",
        str(ts),
        "--resamples",
        "60",
        "--seed",
        "3",
    )
    assert code == 0, err
    doc = json.loads(out)
    assert set(doc) >= {"tasks", "average", "average_rank", "pvalues", "rank", "metrics"}
    assert doc["test_set"] == "wmt24"  # from the directory's name
    assert len(doc["tasks"]) == 4 and all(t["correlations"] for t in doc["tasks"])
    # wmt24 en-de's standard reference is refB (mt-metrics-eval meta_info.DATA), en-es refA
    assert doc["tasks"][0]["refs"] == ["refB"] and doc["tasks"][2]["refs"] == ["refA"]
    assert doc["tasks"][0]["gold"] == "mqm"
    metrics = list(doc["average"])
    assert set(metrics) == {"XCOMET", "MetricX-24-Hybrid", "COMET-22", "BLEU", "chrF", "CometKiwi"}
    assert doc["metrics"]["CometKiwi"]["label"] == "CometKiwi[noref]"
    first, second = metrics[:2]
    assert 0 <= doc["pvalues"][first][second] <= 1 and doc["pvalues"][second][first] is None
    assert doc["rank"][first] == 1
    # the average is the mean of the tasks' correlations moved to [0, 1]
    expect = np.mean([(t["correlations"][first] + 1) / 2 for t in doc["tasks"]])
    assert doc["average"][first] == pytest.approx(expect, abs=1e-12)
    assert "ci" not in doc
    # the human translation refA is no system of en-de by default; 5 MT systems
    assert doc["tasks"][0]["n_systems"] == 5


def test_include_human_and_refs(capsys, wmt_dir):
    base, ts = wmt_dir
    code, out, err = _run(
        capsys,
        "rank",
        "--data",
        str(base),
        "--task-set",
        str(ts),
        "--resamples",
        "20",
        "--include-human",
        "--lp",
        "en-de",
    )
    assert code == 0, err
    doc = json.loads(out)
    assert doc["tasks"][0]["n_systems"] == 6  # refA kept as a system (refB is the reference)
    code, out, err = _run(
        capsys,
        "rank",
        "--data",
        str(base),
        "--task-set",
        str(ts),
        "--resamples",
        "20",
        "--lp",
        "en-de",
        "--refs",
        "refA",
        "--confidence-resamples",
        "30",
    )
    doc = json.loads(out)
    assert doc["tasks"][0]["refs"] == ["refA"] and doc["tasks"][0]["n_systems"] == 5
    lo, hi = doc["ci"][next(iter(doc["average"]))]
    assert lo <= hi and doc["confidence_level"] == 0.95


@pytest.mark.parametrize(
    "fmt, needle",
    [("tsv", "avg-corr\t"), ("latex", "\\begin{tabular}"), ("text", "CometKiwi[noref]")],
)
def test_table_forms(capsys, wmt_dir, fmt, needle):
    base, ts = wmt_dir
    code, out, err = _run(
        capsys,
        "rank",
        "--data",
        str(base),
        "--task-set",
        str(ts),
        "--resamples",
        "20",
        "--format",
        fmt,
    )
    assert code == 0, err
    assert needle in out and "refs=refB" in out


def test_unknown_test_set_says_what_was_taken(capsys, tmp_path):
    base = write_wmt_like(tmp_path, lps=("xx-yy",), n_systems=4, n_items=8, testset="mine")
    ts = tmp_path / "ts.json"
    ts.write_text(json.dumps({"tasks": [{"lp": "xx-yy", "level": "sys"}]}))
    code, out, err = _run(
        capsys, "rank", "--data", str(base), "--task-set", str(ts), "--resamples", "10"
    )
    assert code == 0, err
    notes = json.loads(out)["notes"]
    assert any("reference 'refA' taken" in n for n in notes)
    assert any("gold 'mqm' taken" in n for n in notes)


@pytest.mark.parametrize(
    "argv, match",
    [
        (["--task-set", "wmt99"], "unknown task set 'wmt99'"),
        (["--task-set", "wmt24", "--resamples", "0"], "--resamples must be a positive"),
        (["--task-set", "wmt25"], "needs language pair"),
        (["--task-set", "{ts}", "--scheduler", "local:x"], "local:N needs a positive"),
    ],
)
def test_bad_input_is_one_line_and_status_2(capsys, wmt_dir, argv, match):
    base, ts = wmt_dir
    argv = [a.replace("{ts}", str(ts)) for a in argv]
    code, out, err = _run(capsys, "rank", "--data", str(base), *argv)
    assert code == 2 and match in err and len(err.strip().splitlines()) == 1


def test_metric_names_parsed_as_mtme():
    # mt-metrics-eval data.py EvalSet.ParseMetricName: rsplit on the last '-'
    assert parse_metric_name("BLEU-refA") == ("BLEU", frozenset({"refA"}))
    assert parse_metric_name("COMET-22-refA.refB") == ("COMET-22", frozenset({"refA", "refB"}))
    assert parse_metric_name("CometKiwi-src") == ("CometKiwi", frozenset())
    assert parse_metric_name("X-all", ("refA", "refB")) == ("X", frozenset({"refA", "refB"}))
    assert parse_metric_name("plain") == ("plain", None)


def test_table_keeps_the_chosen_references(wmt_dir):
    base, _ = wmt_dir
    data = read_meta_eval(base)
    t = data.table("en-de", refs=["refB"])
    assert all(parse_metric_name(m)[1] <= {"refB"} for m in t.metric_names)
    assert "refA" not in t.systems
    t = data.table("en-de", refs=["refB"], include_human=True)
    assert "refA" in t.systems and "refB" not in t.systems
    t = data.table("en-de", refs=["refB"], primary=["BLEU"])
    assert t.metric_names == ("BLEU-refB",)


@pytest.mark.early
def test_dask_local_cluster_gives_the_same_bytes_and_its_workers_run_no_page_script(
    capsys, wmt_dir, tmp_path, monkeypatch
):
    # one LocalCluster (its workers' start is most of this test's time) for both checks: the
    # same bytes as one process, and, under Streamlit or AppTest, where __main__ is a page
    # script, spawned workers that do not re-run it
    pytest.importorskip("distributed")
    base, ts = wmt_dir
    argv = [
        "rank",
        "--data",
        str(base),
        "--task-set",
        str(ts),
        "--resamples",
        "300",
        "--seed",
        "5",
        "--lp",
        "en-es",
    ]
    code, here, err = _run(capsys, *argv)
    assert code == 0, err
    script = tmp_path / "page.py"
    script.write_text("raise SystemExit('a page script ran in a Dask worker')\n")
    page = types.ModuleType("__main__")
    page.__file__ = str(script)
    monkeypatch.setitem(sys.modules, "__main__", page)
    code, there, err = _run(capsys, *argv, "--scheduler", "local:2")
    assert code == 0, err
    assert here == there


def test_wmt24_preset_end_to_end(capsys, wmt_dir):
    base, _ = wmt_dir
    code, out, err = _run(
        capsys,
        "rank",
        "--data",
        str(base),
        "--task-set",
        "wmt24",
        "--resamples",
        "20",
        "--all-metrics",
        "--lp",
        "en-de",
    )
    assert code == 0, err
    doc = json.loads(out)
    # mt-metrics-eval tasks.py WMT24: per lp soft pairwise accuracy (sys) and tie-calibrated
    # acc23 by item (seg)
    assert [(t["lp"], t["correlation"]) for t in doc["tasks"]] == [
        ("en-de", "soft-pairwise-accuracy"),
        ("en-de", "acc23"),
    ]
    assert doc["tasks"][1]["tie_calibration"] and doc["tasks"][1]["grouping"] == "item"
    assert doc["tasks"][0]["include_human"] and doc["tasks"][0]["n_systems"] == 6  # + refA
    # accuracies stay in [0, 1]: the average is their plain weighted mean
    m = next(iter(doc["average"]))
    assert doc["average"][m] == pytest.approx(
        np.mean([t["correlations"][m] for t in doc["tasks"]]), abs=1e-12
    )
