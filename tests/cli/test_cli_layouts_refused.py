"""Bad input: a file that fits none of the layouts a command reads is refused in
one line naming what it looked like and the layouts tried (exit status 2)."""

from __future__ import annotations

import pytest

from stats.cli import main

AVERAGES = "system mqm_avg_score seg_id\neTranslation.737 -2.333333 1\n"
WMT_SYS = "BLEU\tde-en\tnewstest2020\tnewstest2020\tOPPO.1360\t0.41\n"


@pytest.mark.parametrize("name, text, looks", [
    ("mqm_newstest2020_ende.avg_seg_scores.tsv", AVERAGES, "Google's MQM segment averages"),
    ("scores.txt", "a b c d\n1 2 3 4\n", "4 field(s), 0 of them numbers: 'a b c d'"),
    # WMT17's DA-seglevel.csv (a header of other names, 5 fields): not a headerless long line
    ("DA-seglevel.csv", "LP DATA SYSTEM SID HUMAN\ncs-en newstest2017 online-A.0 1 0.53\n",
     "5 field(s), 0 of them numbers: 'LP DATA SYSTEM SID HUMAN'"),
])  # fmt: skip
def test_meta_eval_names_what_a_file_looks_like_and_the_layouts_tried(
    tmp_path, capsys, monkeypatch, name, text, looks
):
    monkeypatch.chdir(tmp_path)  # a path as users type it, not pytest's long one
    (tmp_path / name).write_text(text)
    code = main(["meta-eval", "--data", name, "--level", "seg", "--correlation", "pearson"])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "fits none of the layouts tried" in err and looks in err
    assert "WMT DA SYS SEGID RAW.SCR Z.SCR N SID" in err


@pytest.mark.parametrize("name, text, looks", [
    ("BLEU.sys.score", WMT_SYS * 2, "WMT system-level scores"),
    ("notes.tsv", "lp\tcomment\tby\nde-en\tfine\tme\n", "3 field(s), 0 of them numbers"),
])  # fmt: skip
def test_human_names_what_a_file_looks_like_and_the_layouts_tried(
    tmp_path, capsys, monkeypatch, name, text, looks
):
    monkeypatch.chdir(tmp_path)
    (tmp_path / name).write_text(text)
    code = main(["human", "--human", name])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "fits none of the layouts tried" in err and looks in err
    assert "MQM averages" in err and "judgements SYSTEM SEGMENT ANNOTATOR CRITERION" in err
