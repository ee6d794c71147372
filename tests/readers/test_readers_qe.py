"""Readers for QE data (stats.readers.qe): the three layouts, auto-detection, and every error."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError
from stats.cli._common import flag_names
from stats.readers import QEData, read_post_edit, read_qe, read_qe_gold
from stats.readers.qe import qe_file_kind, split_qe_files

ROOT = Path(__file__).resolve().parents[2]
QE = ROOT / "sample_data" / "qe"

LONG = """METRIC SID SCORE RANK HUMAN
A 1 0.10 1 0.2
A 2 0.30 2 0.4
A 3 0.20 3 0.1
A 4 0.50 4 0.6
B 1 0.5 0 0.2
B 2 0.4 0 0.4
B 3 0.45 0 0.1
B 4 0.9 0 0.6
"""

WIDE = """sid,gold,A,B
1,0.2,0.10,0.5
2,0.4,0.30,0.4
3,0.1,0.20,0.45
4,0.6,0.50,0.9
"""

SUB_A = "A\t1\t0.10\t1\nA\t2\t0.30\t2\nA\t3\t0.20\t3\nA\t4\t0.50\t4\n"
SUB_B = "B\t1\t0.5\t1\nB\t2\t0.4\t2\nB\t3\t0.45\t3\nB\t4\t0.9\t4\n"
GOLD = "0.2\n0.4\n0.1\n0.6\n"


def src(text: str, name: str) -> io.BytesIO:
    buf = io.BytesIO(text.encode("utf-8"))
    buf.name = name
    return buf


def expected() -> tuple[pd.Series, pd.DataFrame]:
    ids = pd.Index(["1", "2", "3", "4"], name="sid")
    gold = pd.Series([0.2, 0.4, 0.1, 0.6], index=ids, name="gold")
    preds = pd.DataFrame({"A": [0.1, 0.3, 0.2, 0.5], "B": [0.5, 0.4, 0.45, 0.9]}, index=ids)
    return gold, preds


def check_qe_data(data: QEData, fmt: str) -> None:
    gold, preds = expected()
    assert data.format == fmt
    pd.testing.assert_series_equal(data.gold, gold)
    pd.testing.assert_frame_equal(data.predictions, preds)
    assert data.systems == ("A", "B")
    assert data.n == 4


# ---------------------------------------------------------------- the three layouts


def test_long_layout():
    check_qe_data(read_qe(src(LONG, "long.txt")), "long")


def test_long_layout_tab_separated_and_reordered_columns_without_rank():
    text = "HUMAN\tSCORE\tSID\tMETRIC\n" + "".join(
        f"{h}\t{s}\t{i}\t{m}\n"
        for m, scores in (("A", [0.1, 0.3, 0.2, 0.5]), ("B", [0.5, 0.4, 0.45, 0.9]))
        for i, (s, h) in enumerate(zip(scores, [0.2, 0.4, 0.1, 0.6], strict=True), start=1)
    )
    check_qe_data(read_qe(src(text, "long.tsv")), "long")


def test_wide_layout():
    check_qe_data(read_qe(src(WIDE, "wide.csv")), "wide")


def test_wmt_submission_layout_one_file_per_system():
    check_qe_data(read_qe([src(SUB_A, "A.txt"), src(SUB_B, "B.txt")], src(GOLD, "gold.txt")), "wmt")


def test_wmt_submission_one_file_holding_two_methods():
    check_qe_data(read_qe(src(SUB_A + SUB_B, "both.txt"), src(GOLD, "gold.txt")), "wmt")


def test_wmt_gold_with_ids_and_header_and_shuffled_rows():
    gold = "segment\tlabel\n3\t0.1\n1\t0.2\n4\t0.6\n2\t0.4\n"
    check_qe_data(read_qe([src(SUB_A, "A.txt"), src(SUB_B, "B.txt")], src(gold, "g.txt")), "wmt")


def test_wmt_zero_based_segment_numbers_match_one_label_per_line_gold():
    sub = "".join(f"A\t{i}\t{v}\t0\n" for i, v in enumerate([0.1, 0.3, 0.2, 0.5]))
    data = read_qe(src(sub, "A.txt"), src(GOLD, "gold.txt"))
    assert list(data.gold.index) == ["0", "1", "2", "3"]
    np.testing.assert_array_equal(data.gold.to_numpy(), [0.2, 0.4, 0.1, 0.6])


def test_integer_ids_are_normalised_and_sorted_numerically():
    text = "METRIC SID SCORE HUMAN\n" + "".join(
        f"A {sid} {s} {h}\n" for sid, s, h in (("010", 1, 5), ("2", 2, 3), ("1", 0, 1), ("3", 4, 2))
    )
    data = read_qe(src(text, "x.txt"))
    assert list(data.gold.index) == ["1", "2", "3", "10"]
    assert list(data.predictions["A"]) == [0.0, 2.0, 4.0, 1.0]


def test_non_integer_ids_keep_file_order():
    text = "sid,gold,A\ns-b,1,2\ns-a,2,1\ns-c,3,5\ns-0,4,4\n"
    assert list(read_qe(src(text, "x.csv")).gold.index) == ["s-b", "s-a", "s-c", "s-0"]


def test_paths_bytes_and_file_objects_with_only_read(tmp_path):
    path = tmp_path / "long.txt"
    path.write_text(LONG)
    check_qe_data(read_qe(path), "long")
    check_qe_data(read_qe(str(path)), "long")
    check_qe_data(read_qe(LONG.encode()), "long")

    class ReadOnce:  # no getvalue(); read() works once
        name = "once.txt"

        def __init__(self, text):
            self._buf = io.BytesIO(text.encode())

        def read(self):
            return self._buf.read()

    check_qe_data(read_qe(ReadOnce(LONG)), "long")


def test_sample_files_agree_across_layouts():
    long = read_qe(QE / "hter_long.txt")
    wide = read_qe(QE / "hter_wide.csv")
    assert long.n == 600 and len(long.systems) == 10
    pd.testing.assert_series_equal(long.gold, wide.gold)
    pd.testing.assert_frame_equal(long.predictions, wide.predictions)
    names = ["ALPHA-svr", "baseline", "CONSERV-mean"]
    wmt = read_qe([QE / "wmt" / f"{n}.txt" for n in names], QE / "wmt_gold.txt")
    pd.testing.assert_series_equal(wmt.gold, long.gold)
    pd.testing.assert_frame_equal(wmt.predictions, long.predictions[names])


def test_forced_format():
    check_qe_data(read_qe(src(LONG, "x"), format="long"), "long")
    with pytest.raises(StatsInputError, match="missing header column"):
        read_qe(src(WIDE, "w.csv"), format="long")


def test_read_qe_gold_forms():
    g = read_qe_gold(src("1 0.5\n2 0.25\n", "g"))
    assert list(g.index) == ["1", "2"] and list(g) == [0.5, 0.25]
    g = read_qe_gold(src("0.5\n0.25\n0.75\n", "g"))
    assert list(g.index) == ["1", "2", "3"]


# ---------------------------------------------------------------- errors


def raises(match, *args, **kw):
    with pytest.raises(StatsInputError, match=match) as info:
        read_qe(*args, **kw)
    assert "\n" not in str(info.value)
    return str(info.value)


def test_error_unrecognised_layout():
    raises(r"bad\.txt: unrecognised QE file layout", src("hello big world\n1 2 3 4 5\n", "bad.txt"))


def test_error_gold_file_given_as_data():
    raises(r"g\.txt: this looks like a gold-label file", src(GOLD, "g.txt"))


def test_error_post_edit_table_given_as_data():
    raises(r"pe\.tsv: this is a post-editing table", src("SID\tTIME\tWORDS\n1\t3\t4\n", "pe.tsv"))


def test_error_empty_file():
    raises("empty", src("  \n", "e.txt"))


def test_error_long_missing_column():
    raises(r"missing header column\(s\) HUMAN", src("METRIC SID SCORE\nA 1 2\n", "x"), format="long")


def test_error_long_wrong_field_count():
    text = LONG.replace("A 3 0.20 3 0.1", "A 3 0.20 3")
    raises(r"x\.txt, line 4: expected 5 fields", src(text, "x.txt"))


def test_error_non_numeric_score_names_line_and_column():
    msg = raises(r"long\.txt, line 3, column SCORE: 'abc' is not a number", src(LONG.replace("0.30", "abc"), "long.txt"))
    assert "abc" in msg


def test_error_non_numeric_gold_label():
    raises(r"line 2, column HUMAN: gold label is missing or NaN", src(LONG.replace("A 1 0.10 1 0.2", "A 1 0.10 1 NaN"), "l.txt"))


def test_error_infinite_value_in_wide():
    raises(r"w\.csv, line 3, column B: score is infinite", src(WIDE.replace("0.4\n", "inf\n", 1), "w.csv"))


def test_error_duplicate_id_long():
    text = LONG.replace("A 2 0.30 2 0.4", "A 1 0.30 2 0.2")
    raises(r"l\.txt, line 3: system 'A' has sentence id '1' twice \(first on line 2\)", src(text, "l.txt"))


def test_error_duplicate_id_wide():
    raises(r"line 3: the file has sentence id '1' twice", src(WIDE.replace("2,0.4", "1,0.4"), "w.csv"))


def test_error_duplicate_id_wmt_submission():
    sub = SUB_A.replace("A\t2\t", "A\t1\t")
    raises(r"A\.txt, line 2: system 'A' has sentence id '1' twice", [src(sub, "A.txt")], src(GOLD, "g"))


def test_error_duplicate_id_gold_file():
    raises(r"g\.txt, line 2: the gold file has sentence id '1' twice", src(SUB_A, "A.txt"), src("1 0.2\n1 0.3\n3 0.1\n4 0.5\n", "g.txt"))


def test_error_ids_do_not_match_names_them():
    text = LONG.replace("B 3 0.45 0 0.1", "B 7 0.45 0 0.1")
    msg = raises("sentence ids do not match", src(text, "l.txt"))
    assert "system 'B' lacks sentence id(s) 3 that system 'A' has" in msg
    assert "system 'B' has sentence id(s) 7 that system 'A' lacks" in msg


def test_error_different_numbers_of_sentences():
    text = "\n".join(ln for ln in LONG.splitlines() if not ln.startswith("B 4")) + "\n"
    msg = raises("system 'A' has 4 sentences but system 'B' has 3", src(text, "l.txt"))
    assert "lacks sentence id(s) 4" in msg


def test_error_wmt_system_and_gold_mismatch_names_file():
    sub = SUB_B.replace("B\t4\t0.9\t4\n", "")
    msg = raises("sentence ids do not match", [src(SUB_A, "A.txt"), src(sub, "B.txt")], src(GOLD, "gold.txt"))
    assert msg.startswith("B.txt:")
    assert "gold file gold.txt has 4 sentences but system 'B' (B.txt) has 3" in msg


def test_error_gold_file_with_fewer_labels():
    raises("gold file g.txt has 3 sentences but system 'A'", src(SUB_A, "A.txt"), src("0.2\n0.4\n0.1\n", "g.txt"))


def test_error_conflicting_gold_labels_in_long():
    text = LONG.replace("B 2 0.4 0 0.4", "B 2 0.4 0 0.9")
    raises(r"l\.txt, line 7: HUMAN for sentence '2' is 0.9 but was 0.4 on line 3", src(text, "l.txt"))


def test_error_constant_prediction_default_and_allowed():
    text = WIDE.replace(",0.5\n", ",0.7\n").replace(",0.4\n", ",0.7\n").replace(",0.45\n", ",0.7\n").replace(",0.9\n", ",0.7\n")
    raises(r"system 'B' predicts 0.7 for every sentence; its Pearson r is undefined", src(text, "w.csv"))
    data = read_qe(src(text, "w.csv"), allow_constant=True)
    assert (data.predictions["B"] == 0.7).all()


def test_error_constant_gold():
    raises("every gold label is 0.5", src("sid,gold,A\n1,0.5,1\n2,0.5,2\n3,0.5,3\n4,0.5,1\n", "w.csv"))


def test_error_too_few_sentences():
    raises("needs at least 4 sentences; got 3", src("sid,gold,A\n1,0.1,1\n2,0.5,2\n3,0.3,3\n", "w.csv"))


def test_error_wmt_without_gold():
    raises(r"A\.txt: WMT QE submission files hold no gold labels", src(SUB_A, "A.txt"))


def test_error_wmt_bad_field_count():
    raises(r"A\.txt, line 2: expected 4 tab-separated fields", src("A\t1\t0.1\t1\nA\t2\n", "A.txt"), src(GOLD, "g"))


def test_error_wmt_same_method_in_two_files():
    raises(r"A2\.txt: method 'A' is also in A1\.txt", [src(SUB_A, "A1.txt"), src(SUB_A, "A2.txt")], src(GOLD, "g"))


def test_error_gold_with_long_or_wide():
    raises("already contains gold labels", src(LONG, "l.txt"), src(GOLD, "g.txt"))


def test_error_several_files_in_long_layout():
    raises("holds all systems; got 2 files", [src(LONG, "a.txt"), src(LONG, "b.txt")])


def test_error_gold_mixed_field_counts():
    raises(r"g\.txt, line 2: expected 2 field\(s\)", src(SUB_A, "A.txt"), src("1 0.2\n0.4\n", "g.txt"))


def test_error_wide_no_systems():
    text = "sid,gold\n1,0.1\n2,0.2\n3,0.3\n4,0.4\n"
    raises("no system columns", src(text, "w.csv"), format="wide")
    raises("this looks like a gold-label file", src(text, "w.csv"))


def test_error_invalid_utf8():
    raises(r"x\.txt, line 2, byte 3: not valid UTF-8", src("METRIC SID SCORE HUMAN\n", "x.txt").getvalue() + b"A \xff 1 2\n", name="x.txt")


def test_error_missing_file(tmp_path):
    raises("file not found", tmp_path / "nope.txt")


def test_error_bad_format_argument():
    raises("format must be one of", src(LONG, "l"), format="csv")


# ---------------------------------------------------------------- post-edit table


def test_read_post_edit_sample():
    pe = read_post_edit(QE / "post_edit.tsv")
    assert list(pe.columns) == ["time", "words", "hter"]
    assert len(pe) == 600 and list(pe.index[:3]) == ["1", "2", "3"]
    assert (pe["words"] > 0).all()


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("SID TIME WORDS\n1 10 0\n", r"line 2, column WORDS: word count must be positive; got '0'"),
        ("SID TIME WORDS\n1 -3 4\n", r"line 2, column TIME: post-edit time must not be negative"),
        ("SID TIME WORDS\n1 x 4\n", r"line 2, column TIME: 'x' is not a number"),
        ("SID TIME\n1 3\n", r"missing header column\(s\) WORDS"),
        ("SID TIME WORDS\n1 3 4\n1 5 6\n", "sentence id '1' twice"),
    ],
)
def test_read_post_edit_errors(text, match):
    with pytest.raises(StatsInputError, match=match):
        read_post_edit(src(text, "pe.tsv"))


# ---------------------------------------------------------------- recognising and sorting files


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        (LONG, "long"),
        (WIDE, "wide"),
        (SUB_A, "wmt"),
        (GOLD, "gold"),
        ("sid label\n1 0.2\n2 0.3\n", "gold"),
        ("SID\tTIME\tWORDS\tHTER\n1\t30\t10\t0.2\n", "post_edit"),
    ],
)
def test_qe_file_kind(text, kind):
    assert qe_file_kind(src(text, "f")) == kind


def test_split_qe_files_sorts_an_upload():
    files = [src(GOLD, "gold.txt"), src(SUB_A, "A.txt"), src("SID TIME WORDS\n1 3 4\n", "pe.txt"), src(SUB_B, "B.txt")]
    data, gold, post = split_qe_files(files)
    assert [name for _, name in data] == ["A.txt", "B.txt"]
    assert gold[1] == "gold.txt" and post[1] == "pe.txt"
    check_qe_data(read_qe([b for b, _ in data], gold[0], name=[n for _, n in data], gold_name=gold[1]), "wmt")


@pytest.mark.parametrize(
    ("files", "match"),
    [
        ([("g1", GOLD), ("g2", GOLD), ("A", SUB_A)], "g2: a second gold-label file"),
        ([("g", GOLD)], r"no QE predictions among the files \(found a gold-label file\)"),
        ([("l", LONG), ("A", SUB_A)], r"different QE layouts cannot be combined: l \(long\), A \(wmt\)"),
        ([("x", "what is this\n1 2 3 4 5 6\n")], "x: unrecognised QE file layout"),
        ([("p1", "SID TIME WORDS\n1 3 4\n"), ("p2", "SID TIME WORDS\n1 3 4\n"), ("l", LONG)], "p2: a second post-editing table"),
    ],
)
def test_split_qe_files_errors(files, match):
    with pytest.raises(StatsInputError, match=match):
        split_qe_files([src(t, n) for n, t in files])


def test_integer_id_normalisation_edge_cases():
    from stats.readers.qe import _norm_ids

    got = _norm_ids(["007", "+5", "-0", "0", "-012", " 3 ", "a01", "1.0", "00"])
    assert list(got) == ["7", "5", "0", "0", "-12", "3", "a01", "1.0", "0"]


def test_error_blank_line_inside_positional_gold_file():
    raises(
        r"g\.txt, line 3: empty line in a file of one gold label per line",
        src(SUB_A, "A.txt"),
        src("0.2\n0.4\n\n0.1\n0.6\n", "g.txt"),
    )
    # trailing blank lines and SID LABEL files with blank lines are fine
    check_qe_data(read_qe([src(SUB_A, "A.txt"), src(SUB_B, "B.txt")], src(GOLD + "\n\n", "g.txt")), "wmt")
    ided = "1 0.2\n\n2 0.4\n3 0.1\n4 0.6\n"
    check_qe_data(read_qe([src(SUB_A, "A.txt"), src(SUB_B, "B.txt")], src(ided, "g.txt")), "wmt")


# ---- wrong kind of file: the message says what it looks like (plain text, other inputs) ----

MT = ROOT / "sample_data" / "mt"
TEXT_HINT = r"is this a plain-text file \(one segment per line\)\? .*--hyp/--ref"


@pytest.mark.parametrize(
    ("path", "match"),
    [
        (MT / "hyp" / "Aurora.txt", r"unrecognised QE file layout .*'; " + TEXT_HINT),
        (MT / "segment_scores.tsv",
         r"unrecognised QE file layout .*; this looks like segment-level scores \(SYSTEM SEGMENT "
         r"SCORE \[METRIC\]; for `randomized --scores`.*\), not QE predictions$"),
        (ROOT / "sample_data" / "human" / "judgements.tsv",
         r"this looks like human judgements .*, not QE predictions$"),
    ],
)
def test_wrong_kind_of_file_as_predictions(path, match):
    raises(match, path)


def test_wrong_kind_of_file_as_gold_or_post_edit():
    for path, match in [
        (MT / "hyp" / "Aurora.txt",
         r"line 2: expected one gold label, or 'SID LABEL', per line; found 9 fields; " + TEXT_HINT),
        (ROOT / "sample_data" / "human" / "judgements.tsv",
         r"found 5 fields; this looks like human judgements .*, not gold labels$"),
    ]:
        with pytest.raises(StatsInputError, match=match):
            read_qe_gold(path)
    with pytest.raises(StatsInputError, match=r"missing header column\(s\) SID, TIME, WORDS.*; "
                       + TEXT_HINT):
        read_post_edit(MT / "hyp" / "Aurora.txt")
    with pytest.raises(StatsInputError, match=r"this looks like segment-level scores .*, not a "
                       r"post-editing table$"):
        read_post_edit(MT / "segment_scores.tsv")
    # the long layout forced on a judgements file
    raises(r"missing header column\(s\) METRIC, SID, HUMAN.*this looks like human judgements",
           ROOT / "sample_data" / "human" / "judgements.tsv", format="long")


def test_messages_name_the_argument_the_cli_maps_to_its_flag():
    # G report item 16a: these messages are shown by the CLI and by the dashboard alike
    text = WIDE.replace(",0.5\n", ",0.7\n").replace(",0.4\n", ",0.7\n").replace(",0.45\n", ",0.7\n").replace(",0.9\n", ",0.7\n")
    msg = raises("system 'B'", src(text, "w.csv"))
    assert msg == (
        "w.csv: system 'B' predicts 0.7 for every sentence; its Pearson r is undefined: remove "
        "the system, or keep constant systems with undefined correlations (allow_constant=True)"
    )
    assert flag_names(msg).endswith("(--allow-constant)")
    msg = raises("hold no gold labels", src(SUB_A, "A.txt"))
    assert msg == (
        "A.txt: WMT QE submission files hold no gold labels; give the gold labels too (a gold "
        "file: one label, or SID LABEL, per line; gold=FILE)"
    )
    assert flag_names(msg).endswith("per line; --gold FILE)")
    msg = raises("gold-label file", src(GOLD, "g.txt"))
    assert msg.endswith("give it together with the systems' prediction files as the gold "
                        "labels (gold=FILE)")
    post = "SID TIME WORDS\n1 10 5\n2 12 6\n3 9 4\n4 20 8\n"
    msg = raises("post-editing table", src(post, "pe.txt"))
    assert msg.endswith("give it together with the prediction files as the post-editing table "
                        "(post_edit=FILE)")
    assert flag_names(msg).endswith("(--post-edit FILE)")


def test_wmt_method_name_changing_inside_a_file_names_the_line():
    # the method name changes at a line: that line is named, not "'A' lacks sentence id 3"
    sub = SUB_A.replace("A\t3\t", "OTHER\t3\t")
    msg = raises(r"^A\.txt, line 3: ", [src(sub, "A.txt"), src(SUB_B, "B.txt")], src(GOLD, "gold.txt"))
    assert msg == (
        "A.txt, line 3: method 'OTHER' differs from 'A' on line 1; one file per system (here "
        "'OTHER' scores 1 sentence(s) and 'A' 3, so they cannot both be complete)"
    )
    # a wrong name on the first line: the file's main method is still the reference
    sub = SUB_A.replace("A\t1\t", "X\t1\t")
    raises(r"^A\.txt, line 1: method 'X' differs from 'A' on line 2; one file per system",
           src(sub, "A.txt"), src(GOLD, "gold.txt"))
    # complete submissions one after another in one file stay readable (split by name)
    data = read_qe(src(SUB_A + SUB_B, "both.txt"), src(GOLD, "gold.txt"))
    assert list(data.predictions.columns) == ["A", "B"]


def test_first_rows_are_unique_index():
    """The first row of each sentence-id code is ``np.unique``'s first index, for codes
    numbered in order of first appearance (counted) and for codes that are not (sorted)."""
    import numpy as np

    from stats.readers.qe import _first_rows

    rng = np.random.default_rng(3)
    for trial in range(2000):
        raw = rng.integers(0, int(rng.integers(1, 8)), int(rng.integers(1, 30)))
        codes = pd.factorize(raw)[0] if trial % 2 else np.unique(raw, return_inverse=True)[1]
        codes = codes.astype(np.int64)
        n = int(codes.max()) + 1
        assert (_first_rows(codes, n) == np.unique(codes, return_index=True)[1]).all()
