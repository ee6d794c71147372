"""Reader for raw human judgements."""

from __future__ import annotations

import io
import warnings

import numpy as np
import pandas as pd
import pytest

from stats import DegenerateInputWarning, StatsInputError
from stats.readers import read_judgements
from stats.readers.judgements import prepare_judgements

GOOD = """SYSTEM\tSEGMENT\tANNOTATOR\tCRITERION\tSCORE
sysA\t1\tw1\tadequacy\t70
sysA\t2\tw1\tadequacy\t60
sysB\t1\tw1\tadequacy\t40
sysA\t1\tw1\tfluency\t80
sysB\t1\tw1\tfluency\t50
sysB\t2\tw2\tAdequacy\t55.5
sysA\t2\tw2\tadequacy\t65
"""


def _src(text: str, name: str = "judgements.tsv") -> io.BytesIO:
    buf = io.BytesIO(text.encode("utf-8"))
    buf.name = name
    return buf


def test_reads_tsv_and_lowercases_criterion():
    j = read_judgements(_src(GOOD))
    f = j.frame
    assert list(f.columns) == ["system", "segment", "annotator", "criterion", "score", "_line"]
    assert len(f) == 7
    assert f["criterion"].tolist() == ["adequacy"] * 3 + ["fluency"] * 2 + ["adequacy"] * 2
    assert f["score"].tolist() == [70, 60, 40, 80, 50, 55.5, 65]
    assert f["_line"].tolist() == [2, 3, 4, 5, 6, 7, 8]
    assert j.criteria == ("adequacy", "fluency")
    assert j.systems == ("sysA", "sysB")
    assert j.annotators == ("w1", "w2")
    assert j.warnings == ()
    assert j.excluded.empty


def test_csv_whitespace_and_header_case_give_the_same_frame(tmp_path):
    tsv = read_judgements(_src(GOOD)).frame
    csv_text = GOOD.replace("\t", ",").replace("SYSTEM,", "system,")
    # columns in another order are matched by name
    p = tmp_path / "j.csv"
    p.write_text(csv_text)
    csv = read_judgements(p).frame
    ws = read_judgements(_src(GOOD.replace("\t", "   "))).frame
    reordered = "SCORE,CRITERION,ANNOTATOR,SEGMENT,SYSTEM\n" + "\n".join(
        ",".join(reversed(line.split("\t"))) for line in GOOD.splitlines()[1:]
    )
    ro = read_judgements(_src(reordered, "r.csv")).frame
    for other in (csv, ws, ro):
        pd.testing.assert_frame_equal(
            other.drop(columns="_line"), tsv.drop(columns="_line"), check_dtype=False
        )


def test_quoted_csv_fields_with_commas():
    text = 'SYSTEM,SEGMENT,ANNOTATOR,CRITERION,SCORE\n"sys, A",1,w1,adequacy,3\n"sys, A",2,w1,adequacy,5\n'
    f = read_judgements(_src(text, "q.csv")).frame
    assert f["system"].tolist() == ["sys, A", "sys, A"]


def test_unknown_criterion_names_file_line_and_value():
    text = GOOD.replace("sysB\t1\tw1\tfluency", "sysB\t1\tw1\tfluenzy")
    with pytest.raises(
        StatsInputError,
        match=r"judgements\.tsv, line 6, column CRITERION: unknown criterion 'fluenzy'",
    ):
        read_judgements(_src(text))


def test_non_numeric_score_names_line_and_column():
    text = GOOD.replace("55.5", "abc")
    with pytest.raises(StatsInputError, match=r"line 7, column SCORE: 'abc' is not a number"):
        read_judgements(_src(text))


@pytest.mark.parametrize("bad, reason", [("nan", "missing or NaN"), ("inf", "infinite")])
def test_nan_and_infinite_scores_rejected(bad, reason):
    with pytest.raises(StatsInputError, match=f"line 2, column SCORE: score is {reason}"):
        read_judgements(_src(GOOD.replace("\t70\n", f"\t{bad}\n")))


def test_missing_column_is_reported():
    text = GOOD.replace("ANNOTATOR\t", "")
    with pytest.raises(StatsInputError, match=r"line 1: missing header column\(s\) ANNOTATOR"):
        read_judgements(_src(text))


def test_wrong_field_count_is_reported():
    text = GOOD.replace("sysB\t1\tw1\tadequacy\t40", "sysB\t1\tadequacy\t40")
    with pytest.raises(StatsInputError, match=r"line 4: expected 5 fields"):
        read_judgements(_src(text))


def test_empty_field_in_csv_is_reported():
    text = "SYSTEM,SEGMENT,ANNOTATOR,CRITERION,SCORE\nsysA,1,,adequacy,4\n"
    with pytest.raises(StatsInputError, match=r"x\.csv, line 2, column ANNOTATOR: empty value"):
        read_judgements(_src(text, "x.csv"))


def test_empty_and_missing_files(tmp_path):
    with pytest.raises(StatsInputError, match="file is empty"):
        read_judgements(_src(""))
    with pytest.raises(StatsInputError, match="file not found"):
        read_judgements(tmp_path / "nope.tsv")
    with pytest.raises(StatsInputError, match="header but no data rows"):
        read_judgements(_src("SYSTEM SEGMENT ANNOTATOR CRITERION SCORE\n"))


def test_single_judgement_annotator_excluded_with_visible_warning():
    # w3 gives one fluency judgement; w2 gives two identical fluency scores
    text = GOOD + "sysA\t1\tw3\tfluency\t90\nsysA\t3\tw3\tadequacy\t10\nsysB\t3\tw3\tadequacy\t30\n"
    text += "sysA\t1\tw2\tfluency\t70\nsysB\t1\tw2\tfluency\t70\n"
    with pytest.warns(DegenerateInputWarning) as rec:
        j = read_judgements(_src(text))
    messages = [str(w.message) for w in rec]
    assert any("w3 (a single judgement)" in m and "fluency" in m for m in messages)
    assert any("w2 (all scores identical)" in m for m in messages)
    assert list(j.warnings) == messages
    excl = j.excluded.set_index(["annotator", "criterion"])
    assert excl.loc[("w3", "fluency"), "n"] == 1
    assert excl.loc[("w3", "fluency"), "reason"] == "a single judgement"
    assert excl.loc[("w2", "fluency"), "n"] == 2
    # w3's adequacy judgements (two different scores) are kept; its fluency one is dropped
    f = j.frame
    assert ((f["annotator"] == "w3") & (f["criterion"] == "adequacy")).sum() == 2
    assert not ((f["annotator"] == "w3") & (f["criterion"] == "fluency")).any()
    assert not ((f["annotator"] == "w2") & (f["criterion"] == "fluency")).any()
    assert len(f) == len(text.splitlines()) - 1 - 3


def test_criterion_left_empty_drops_out_with_warning():
    text = GOOD.replace("sysB\t1\tw1\tfluency\t50\n", "")  # w1 now has a single fluency score
    with pytest.warns(DegenerateInputWarning) as rec:
        j = read_judgements(_src(text))
    messages = [str(w.message) for w in rec]
    assert "excluded from fluency" in messages[0]
    assert "no usable fluency judgements left" in messages[1]
    assert j.criteria == ("adequacy",)


def test_nothing_left_is_an_error():
    text = "SYSTEM SEGMENT ANNOTATOR CRITERION SCORE\na 1 w1 adequacy 3\nb 1 w2 adequacy 4\nb 2 w3 fluency 5\n"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateInputWarning)
        with pytest.raises(StatsInputError, match="no usable judgements"):
            read_judgements(_src(text))


def test_prepare_judgements_from_dataframe():
    df = pd.DataFrame(
        {
            "System": ["a", "a", "b", "b"],
            "segment": [1, 2, 1, 2],
            "annotator": ["w", "w", "w", "w"],
            "criterion": ["Adequacy"] * 4,
            "score": [1.0, 2.0, 3.0, 5.0],
        }
    )
    j = prepare_judgements(df)
    assert j.frame["criterion"].unique().tolist() == ["adequacy"]
    assert j.frame["segment"].tolist() == ["1", "2", "1", "2"]
    assert (j.frame["_line"] == -1).all()
    assert prepare_judgements(j) is j
    with pytest.raises(StatsInputError, match="missing column"):
        prepare_judgements(df.drop(columns="score"))
    with pytest.raises(StatsInputError, match="not a finite number"):
        prepare_judgements(df.assign(score=[1.0, np.nan, 3.0, 4.0]))
    with pytest.raises(StatsInputError, match="unknown criterion 'grammar'"):
        prepare_judgements(df.assign(criterion=["grammar"] * 4))
    with pytest.raises(StatsInputError, match="DataFrame"):
        prepare_judgements([1, 2, 3])


def test_undecodable_bytes():
    with pytest.raises(StatsInputError, match="not valid UTF-8"):
        read_judgements(
            b"SYSTEM SEGMENT ANNOTATOR CRITERION SCORE\na 1 w \xff adequacy 3\n", name="u.tsv"
        )


def test_several_files_are_read_as_one_set():
    from stats.readers.judgements import read_judgement_files

    # w9 has one adequacy judgement in each file: excluded per file, kept over the union
    one = GOOD + "sysA\t9\tw9\tadequacy\t40\n"
    two = "SYSTEM,SEGMENT,ANNOTATOR,CRITERION,SCORE\nsysB,9,w9,adequacy,60\nsysB,8,w1,fluency,70\n"
    j = read_judgement_files(("a.tsv", one.encode()), ("b.csv", two.encode()))
    assert j.name == "a.tsv + b.csv"
    assert len(j.frame) == 7 + 1 + 2
    assert j.warnings == () and j.excluded.empty
    assert (j.frame["annotator"] == "w9").sum() == 2
    with pytest.warns(DegenerateInputWarning, match="w9 \\(a single judgement\\)"):
        read_judgements(_src(one))
    bad = "SYSTEM,SEGMENT,ANNOTATOR,CRITERION,SCORE\nsysB,9,w9,adequacy,x\n"
    with pytest.raises(StatsInputError, match=r"^bad\.csv, line 2, column SCORE"):
        read_judgement_files(_src(GOOD, "a.tsv"), _src(bad, "bad.csv"))
    with pytest.raises(StatsInputError, match="no judgements file"):
        read_judgement_files()


# ---- wrong kind of file given as judgements: the message says what it looks like ----


@pytest.mark.parametrize(
    ("name", "match"),
    [
        ("mt/hyp/Aurora.txt",
         r"missing header column\(s\) SYSTEM, SEGMENT, ANNOTATOR, CRITERION, SCORE; found "
         r"Beetdound.*; is this a plain-text file \(one segment per line\)\? .*--hyp/--ref"),
        ("mt/segment_scores.tsv",
         r"missing header column\(s\) ANNOTATOR, CRITERION; .*; this looks like segment-level "
         r"scores \(SYSTEM SEGMENT SCORE \[METRIC\]; for `randomized --scores`\), not human "
         r"judgements$"),
        ("qe/hter_long.txt", r"this looks like QE predictions .*, not human judgements$"),
    ],
)
def test_wrong_kind_of_file_says_what_it_looks_like(name, match):
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "sample_data" / name
    with pytest.raises(StatsInputError, match=match) as info:
        read_judgements(path)
    assert "\n" not in str(info.value)


def test_real_judgements_with_a_short_row_get_no_wrong_file_hint():
    text = GOOD.replace("sysB\t1\tw1\tadequacy\t40", "sysB\t1\tadequacy\t40")
    with pytest.raises(StatsInputError, match=r"line 4: expected 5 fields \(SYSTEM SEGMENT "
                       r"ANNOTATOR CRITERION SCORE\) as in the header, found 4$"):
        read_judgements(_src(text))


# ---- the same judgements given twice (G report item 2) ----


def test_same_rows_in_two_files_name_the_judgement_and_both_places():
    from stats.readers.judgements import read_judgement_files

    # GOOD as TSV and the same rows as CSV: the first CSV row (line 2) repeats TSV line 2
    csv_text = GOOD.replace("\t", ",")
    with pytest.raises(StatsInputError) as info:
        read_judgement_files(_src(GOOD, "j.tsv"), _src(csv_text, "j.csv"))
    assert str(info.value) == (
        "j.csv, line 2: judgement (SYSTEM 'sysA', SEGMENT '1', ANNOTATOR 'w1', CRITERION "
        "adequacy, SCORE 70) repeats j.tsv, line 2; the same judgements were given twice "
        "(give each file once)"
    )
    # one repeated row is enough across files: b.csv line 3 is a.tsv line 6 (sysB 2 w2 55.5)
    two = "SYSTEM,SEGMENT,ANNOTATOR,CRITERION,SCORE\nsysB,8,w1,fluency,70\nsysB,2,w2,adequacy,55.5\n"
    with pytest.raises(StatsInputError, match=r"^b\.csv, line 3: .*SCORE 55\.5\) repeats a\.tsv, "
                       r"line 7;"):
        read_judgement_files(_src(GOOD, "a.tsv"), _src(two, "b.csv"))
    # the same item re-judged with another score in another batch is a judgement, not a copy
    three = "SYSTEM,SEGMENT,ANNOTATOR,CRITERION,SCORE\nsysB,2,w2,adequacy,58\n"
    j = read_judgement_files(_src(GOOD, "a.tsv"), _src(three, "b.csv"))
    assert len(j.frame) == 8


def test_single_file_pasted_twice_is_an_error_but_a_da_repeat_is_kept():
    rows = GOOD.splitlines()[1:]
    doubled = GOOD + "\n".join(rows) + "\n"
    with pytest.raises(StatsInputError) as info:
        read_judgements(_src(doubled, "twice.tsv"))
    # the copy starts on line 9 (header + 7 rows), repeating line 2
    assert str(info.value).startswith(
        "twice.tsv, line 9: judgement (SYSTEM 'sysA', SEGMENT '1', ANNOTATOR 'w1', CRITERION "
        "adequacy, SCORE 70) repeats twice.tsv, line 2; 5 or more consecutive judgements"
    )
    # four consecutive copied rows are below the block size: kept as judgements
    four = GOOD + "\n".join(rows[:4]) + "\n"
    assert len(read_judgements(_src(four)).frame) == 11
    # a single repeated judgement (a direct-assessment quality-control repeat) is kept
    once = GOOD + rows[1] + "\n"
    j = read_judgements(_src(once))
    assert len(j.frame) == 8 and j.frame["_line"].tolist()[-1] == 9


def test_sample_judgements_have_no_copied_rows():
    from pathlib import Path

    from stats.readers.judgements import read_judgement_files

    human = Path(__file__).resolve().parents[2] / "sample_data" / "human"
    tsv = read_judgements(human / "judgements.tsv")
    assert len(tsv.frame) == 6800
    with pytest.raises(StatsInputError, match=r"judgements\.csv, line 2: .* repeats .*"
                       r"judgements\.tsv, line 2; the same judgements were given twice"):
        read_judgement_files(human / "judgements.tsv", human / "judgements.csv")


def test_prepare_judgements_refuses_a_frame_with_a_copied_block():
    frame = read_judgements(_src(GOOD)).frame.drop(columns="_line")
    doubled = pd.concat([frame, frame], ignore_index=True)  # 7 rows, then the same 7 again
    with pytest.raises(StatsInputError, match=r"^frame, row 7: judgement \(SYSTEM 'sysA', "
                       r"SEGMENT '1', .*\) repeats frame, row 0; 5 or more consecutive"):
        prepare_judgements(doubled, name="frame")
    assert len(prepare_judgements(pd.concat([frame, frame.iloc[[2]]])).frame) == 8
