"""Task sets on generated files in WMT's published layouts: what each file was read as
(stderr, JSON), WMT20 ``*.seg.score`` files (8 fields) ranked, the long format never taken for
a REFSET system-level file, WMT's ``outliers.json`` (``rank --outliers``, the Metrics page's
workflow), the MAD rule's report, and the point ranking drawn before PERM-BOTH."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from stats._core.errors import StatsInputError
from stats.analyses.metrics import metrics_analysis
from stats.analyses.task_set import rank_task_set
from stats.cli import main
from stats.metaeval.outliers import read_outliers_json
from stats.metaeval.task_sets import Task, TaskSet
from stats.readers import is_meta_eval_source, read_meta_eval
from stats.readers.system_level import is_published_system_level
from tests._wmt20_like import write_wmt20_like
from tests._wmt_published import long_text, outliers_json, wmt20_seg_score


def _run(capsys, *argv):
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def _gold_for_seg_files(lps=("cs-en", "de-en"), n_systems=4, n_docs=2, n_segs=3) -> str:
    """HUMAN rows whose SEGMENT is DOCID:SEGID, the item of a WMT segment file."""
    rng = np.random.default_rng(9)
    rows = ["METRIC\tLP\tTESTSET\tSYSTEM\tSEGMENT\tSCORE"]
    for lp in lps:
        for k in range(n_systems):
            for d in range(n_docs):
                for s in range(n_segs):
                    rows.append(
                        f"HUMAN:da\t{lp}\tnewstest2020\tSys{k}.{100 + k}\tdoc{d}:{s + 1}\t"
                        f"{rng.normal():.4f}"
                    )
    return "\n".join(rows) + "\n"


@pytest.fixture
def seg_files(tmp_path):
    paths = []
    for metric in ("YiSi-2", "COMET-QE", "BLEU", "BERT-base-L2"):
        p = tmp_path / f"{metric}.seg.score"
        p.write_text(wmt20_seg_score(metric, seed=len(paths)))
        paths.append(p)
    gold = tmp_path / "da.tsv"
    gold.write_text(_gold_for_seg_files())
    return paths, gold


# ---- 5. same file, same reading ---------------------------------------------------------------


def test_wmt20_seg_score_files_are_read_and_every_metric_ranked(seg_files, tmp_path, capsys):
    paths, gold = seg_files
    data = read_meta_eval(*paths, gold)
    lines = data.read_as.splitlines()
    assert lines[0].endswith("YiSi-2.seg.score: read as WMT segment scores (8 fields), 2 LPs, "
                             "1 metric")
    assert lines[-1].endswith("read as long text (METRIC LP TESTSET SYSTEM SEGMENT SCORE), "
                              "2 LPs, human scores da")
    ts = tmp_path / "ts.json"
    ts.write_text(json.dumps({"tasks": [{"lp": "cs-en"}, {"lp": "de-en"}]}))
    code, out, err = _run(
        capsys, "rank", "--data", *paths, gold, "--task-set", ts, "--resamples", 10
    )
    assert code == 0, err
    doc = json.loads(out)
    # every metric of the files, hyphenated names whole (the REFSET is the reference)
    assert sorted(doc["average"]) == ["BERT-base-L2", "BLEU", "COMET-QE", "YiSi-2"]
    assert doc["read_as"] == data.read_as
    notes = [ln for ln in err.splitlines() if ln.startswith("note: ")]
    assert len(notes) == 5 and "read as WMT segment scores (8 fields)" in notes[0]


def test_read_as_is_not_printed_when_the_run_fails(seg_files, capsys):
    paths, _ = seg_files
    code, out, err = _run(capsys, "rank", "--data", *paths, "--task-set", "wmt24")
    assert code == 2 and err.count("\n") == 1 and "note:" not in err


def test_headerless_long_format_is_segment_level_not_refset_files():
    body = long_text().split("\n", 1)[1].encode()  # no header: 6 fields, SEGMENT an integer
    assert is_meta_eval_source(("scores.tsv", body))
    assert not is_published_system_level([("scores.tsv", body)])
    data = read_meta_eval(("scores.tsv", body))
    assert len(data.pairs["de-en"].metrics["seg"]) == 5


# ---- 6. outliers as WMT publishes them ---------------------------------------------------------


def test_rank_outliers_json_leaves_systems_out_with_a_note(tmp_path, capsys):
    f = tmp_path / "scores.tsv"
    f.write_text(long_text(lps=("de-en",), humans=False))
    ts = tmp_path / "ts.json"
    ts.write_text(json.dumps({"tasks": [{"lp": "de-en"}]}))
    out_file = tmp_path / "outliers.json"
    out_file.write_text(outliers_json({"de-en": ["Sys0.100"], "cs-en": ["zlabs-nlp.1149"]}))
    code, out, err = _run(
        capsys, "rank", "--data", f, "--task-set", ts, "--resamples", 10,
        "--outliers", out_file,
    )
    assert code == 0, err
    doc = json.loads(out)
    assert doc["tasks"][0]["n_systems"] == 4
    assert "de-en: system(s) Sys0.100 left out as outliers" in doc["notes"]


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("[1, 2]", "expected an object"),
        ('{"cs-en": "Sys1"}', "'cs-en' must list system names"),
        ('{"cs-en": [1]}', "'cs-en' must list system names"),
        ("{", "line 1: not valid JSON"),
        ("[" * 100_000, "not usable JSON|not valid JSON"),
    ],
)
def test_bad_outliers_json_is_one_line(text, match):
    with pytest.raises(StatsInputError, match=match) as info:
        read_outliers_json(text.encode(), name="outliers.json")
    assert "\n" not in str(info.value)


def test_metrics_workflow_takes_published_outliers_and_mad_says_what_it_found(tmp_path):
    files = write_wmt20_like(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = metrics_analysis(
            files,
            exclude_systems=("Human-*",),
            exclude_outliers=True,
            outlier_systems={"cs-en": ["Sys1.101", "Sys2.102"]},
        )
    messages = " | ".join(str(w.message) for w in caught)
    cs = next(a for k, a in res.analyses.items() if k.startswith("cs-en"))
    assert set(cs.selection.outliers) >= {"Sys1.101", "Sys2.102"}
    assert "Sys1.101" not in cs.scores.metrics.index
    assert "outliers as published left out: Sys1.101, Sys2.102" in messages
    # the MAD rule reports its threshold, also when it finds nothing
    assert "MAD rule (robust z of the human scores > 2.5)" in messages
    assert "no outlier among" in messages


# ---- 7. the point ranking at once ----------------------------------------------------------------


def test_point_ranking_equals_the_full_ranking_without_clusters(tmp_path):
    f = tmp_path / "scores.tsv"
    f.write_text(long_text())
    data = read_meta_eval(f)
    ts = TaskSet.from_tasks([Task(lp="de-en"), Task(lp="en-de", level="sys")])
    point = rank_task_set(data, ts, rng=1, significance=False)
    full = rank_task_set(data, ts, rng=1, n_resamples=50)
    assert list(point.statistic.index) == list(full.statistic.index)
    np.testing.assert_allclose(point.statistic, full.statistic, rtol=0, atol=0)
    assert point.rank.isna().all() and point.pvalue.isna().all().all()
    assert full.rank.notna().all() and not point.significance


def _ambiguous_text() -> str:
    """Headerless long format whose SEGMENT ids are names: each line is also a REFSET line."""
    return "".join(
        ln.rsplit("\t", 2)[0] + f"\tseg{ln.rsplit(chr(9), 2)[1]}\t" + ln.rsplit("\t", 1)[1] + "\n"
        for ln in long_text(lps=("de-en",), humans=False).splitlines()[1:]
    )


def test_a_file_that_fits_two_formats_is_refused_naming_both_and_the_option(tmp_path, capsys):
    f = tmp_path / "scores.txt"
    f.write_text(_ambiguous_text())
    ts = tmp_path / "ts.json"
    ts.write_text(json.dumps({"tasks": [{"lp": "de-en"}]}))
    code, out, err = _run(capsys, "rank", "--data", f, "--task-set", ts, "--resamples", 5)
    assert code == 2 and err.count("\n") == 1
    assert "fits two formats" in err and "METRIC LP TESTSET SYSTEM SEGMENT SCORE" in err
    assert "METRIC LP TESTSET REFSET SYSTEM SCORE" in err and "--input-format long" in err
    code, out, err = _run(
        capsys, "rank", "--data", f, "--task-set", ts, "--resamples", 5, "--input-format", "long"
    )
    assert code == 0, err
    assert sorted(json.loads(out)["average"]) == sorted(
        ["BLEU", "YiSi-2", "COMET-QE", "BERT-base-L2", "chrF"]
    )


def test_system_level_reader_says_what_each_file_was_read_as(tmp_path):
    from stats.readers.system_level import read_system_scores

    files = write_wmt20_like(tmp_path)
    lines = read_system_scores(files[0], files[-1]).read_as.splitlines()
    assert lines == [
        f"{files[0]}: read as WMT system-level scores (METRIC LP TESTSET REFSET SYSTEM SCORE, "
        "6 fields), 6 LPs, 1 metric",
        f"{files[-1]}: read as WMT DA system-level scores (RAW.SCR Z.SCR N SYS N.ALL), 1 LP, "
        "human scores",
    ]


def test_a_wmt_seg_metric_given_twice_is_one_line():
    text = wmt20_seg_score("BLEU").encode()
    with pytest.raises(StatsInputError, match=r"b\.seg\.score, line 1: metric BLEU-newstest2020 "
                                              r"of cs-en is also in a\.seg\.score"):
        read_meta_eval(("a.seg.score", text), ("b.seg.score", text))
