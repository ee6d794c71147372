"""Readers for system outputs (raw text) and segment-level scores (long and wide)."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest

from stats import StatsInputError, statistics_from_score_file
from stats.readers import (
    read_lines,
    read_parallel,
    read_segment_scores,
    system_name,
)

MT = Path(__file__).resolve().parents[2] / "sample_data" / "mt"


def test_sample_text_files():
    refs, hyps = read_parallel([MT / "reference.txt"], sorted(MT.glob("hyp/*.txt")))
    assert len(refs) == 1 and len(refs[0]) == 500
    assert list(hyps) == ["Aurora", "Borealis", "Cirrus", "Delta", "Ember", "Fjord", "Glacier",
                          "Harbor"]
    assert all(len(v) == 500 for v in hyps.values())


def test_sources_and_names():
    # (name, bytes) pairs, as the dashboard passes uploads; CRLF; final newline optional
    refs, hyps = read_parallel(
        [("ref.de", b"a b\r\nc d\r\n")],
        [("out/sysA.de.txt", b"a b\nc d"), ("sysB.txt", io.BytesIO(b"a\n\n"))],
    )
    assert refs == [["a b", "c d"]]
    assert hyps == {"sysA.de": ["a b", "c d"], "sysB": ["a", ""]}  # empty output kept
    assert system_name("dir/x/model-7.hyp") == "model-7"
    assert system_name("plain") == "plain"
    assert read_lines(b"x\n\ny\n")[0] == ["x", "", "y"]
    # a single path is one file
    one_ref, one_hyp = read_parallel(MT / "reference.txt", MT / "hyp" / "Aurora.txt")
    assert len(one_ref) == 1 and list(one_hyp) == ["Aurora"]


@pytest.mark.parametrize(
    ("refs", "hyps", "match"),
    [
        ([("ref.txt", b"a\nb\nc\n")], [("A.txt", b"a\nb\n")],
         r"A.txt has 2 lines but ref.txt has 3"),
        ([("ref.txt", b"a\nb\n"), ("ref2.txt", b"a\n")], [("A.txt", b"a\nb\n")],
         r"ref2.txt has 1 lines but ref.txt has 2"),
        ([("ref.txt", b"a\nb\nc\n\n")], [("A.txt", b"a\nb\nc\n")],
         r"A.txt has 3 lines but ref.txt has 4"),
        ([("ref.txt", b"a\n\nc\n")], [("A.txt", b"a\nb\nc\n")],
         r"ref.txt, line 2: empty reference segment"),
        ([("ref.txt", b"a\n")], [("x/A.txt", b"a\n"), ("x/A.txt", b"b\n")],
         r"x/A.txt: the same hypothesis file is given twice"),
        ([("ref.txt", b"a\n")], [("A.txt", b"")], r"A.txt: file is empty"),
        ([("ref.txt", b"\xff\n")], [("A.txt", b"a\n")], r"ref.txt, line 1.*UTF-8"),
        ([], [("A.txt", b"a\n")], "at least one reference"),
        ([("ref.txt", b"a\n")], [], "at least one hypothesis"),
        (["/nonexistent/ref.txt"], [("A.txt", b"a\n")], "file not found"),
    ],
)
def test_parallel_errors(refs, hyps, match):
    with pytest.raises(StatsInputError, match=match):
        read_parallel(refs, hyps)


def test_long_scores_sample():
    chrf = read_segment_scores(MT / "segment_scores.tsv", metric="chrf")
    assert chrf.shape == (500, 8) and chrf.columns.name == "chrF"
    assert list(chrf.index[:3]) == ["1", "2", "3"]
    sim = read_segment_scores(MT / "segment_scores.tsv", metric="SimCOMET")
    wide = read_segment_scores(MT / "segment_scores_wide.csv")
    assert wide.columns.name is None
    np.testing.assert_allclose(sim[wide.columns].to_numpy(), wide.to_numpy())
    assert list(wide.index) == list(sim.index)


def test_long_scores_whitespace_and_order():
    text = b"SYSTEM SEGMENT SCORE\nB s2 0.5\nA s1 0.1\nB s1 0.3\nA s2 0.2\n"
    frame = read_segment_scores(text, name="x.txt")
    assert list(frame.columns) == ["B", "A"] and list(frame.index) == ["s2", "s1"]
    assert frame.at["s1", "A"] == 0.1 and frame.at["s2", "B"] == 0.5


@pytest.mark.parametrize(
    ("ids", "twice"),
    [(["3", "1", "2"], None), (["1", "01", "001"], None), (["0", "-0", "10"], None),
     (["7", "+7"], None), (["-1", "1", "10", "100"], None), (["2", "10", "2"], ("4", "2")),
     (["9", "5", "10", "5"], ("5", "5")), (["a", "b", "a"], ("4", "a"))],
)
def test_wide_segment_ids_distinct_as_strings(ids, twice):
    # integer ids are checked as numbers when each is spelled as str(int) spells it; "1" and
    # "01", "0" and "-0" are distinct ids (as strings), never merged
    body = "".join(f"{i},0.5,0.25\n" for i in ids)
    data = ("SEGMENT,A,B\n" + body).encode()
    if twice is None:
        frame = read_segment_scores(data, name="w.csv")
        assert list(frame.index) == ids
    else:
        with pytest.raises(StatsInputError,
                           match=rf"w.csv, line {twice[0]}, column SEGMENT: segment '{twice[1]}'"):
            read_segment_scores(data, name="w.csv")


def test_wide_without_ids():
    frame = read_segment_scores(b"A,B\n1,2\n3,4\n", name="w.csv")
    assert list(frame.index) == ["1", "2"] and frame.at["2", "B"] == 4.0


@pytest.mark.parametrize(
    ("data", "kwargs", "match"),
    [
        (b"SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nA\t2\tabc\n", {},
         r"s.tsv, line 3, column SCORE: 'abc' is not a number"),
        (b"SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nA\t2\tnan\n", {}, r"line 3.*missing or NaN"),
        (b"SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nA\t2\n", {}, r"line 3: expected 3 fields"),
        (b"SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nA\t1\t0.6\n", {},
         r"lines 2 and 3: system 'A', segment '1' appears twice"),
        # as many rows as (system, segment) cells, one of them twice
        (b"SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nB\t2\t0.6\nB\t1\t0.7\nB\t2\t0.1\n", {},
         r"lines 3 and 5: system 'B', segment '2' appears twice"),
        (b"SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nA\t2\t0.6\nB\t1\t0.7\nB\t3\t0.1\n", {},
         r"system 'A' has no score for segment\(s\) 3"),
        (b"SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nA\t2\t0.6\nB\t1\t0.7\n", {},
         r"system 'B' has no score for segment\(s\) 2 \(system 'A' has them\)"),
        (b"SYSTEM\tSEGMENT\tSCORE\tMETRIC\nA\t1\t0.5\tCOMET\nA\t1\t0.6\tchrF\n", {},
         r"several metrics \(COMET, chrF\); choose one"),
        (b"SYSTEM\tSEGMENT\tSCORE\tMETRIC\nA\t1\t0.5\tCOMET\n", {"metric": "BLEURT"},
         r"metric 'BLEURT' not found in column METRIC; found COMET"),
        (b"SYSTEM\tSCORE\nA\t0.5\n", {}, r"needs the columns SYSTEM SEGMENT SCORE"),
        (b"SEGMENT,A,B\n1,0.1,0.2\n2,,0.3\n", {}, r"line 3, column A: score is missing"),
        (b"SEGMENT,A,B\n1,0.1,0.2\n1,0.2,0.3\n", {}, r"line 3, column SEGMENT: segment '1'"),
        (b"SEGMENT\n1\n", {}, r"no system columns"),
        (b"A,B\n1,inf\n", {}, r"line 2, column B: score is infinite"),
        (b"", {}, r"file is empty"),
    ],
)
def test_score_errors(data, kwargs, match):
    with pytest.raises(StatsInputError, match=match):
        read_segment_scores(data, name="s.tsv", **kwargs)


def test_systems_scoring_disjoint_segments_are_refused_without_a_dense_table():
    # 400 systems, each with its own 400 segments: 160,000 rows but 400 x 160,000 cells
    # (a float64 table of 488 MiB); the message is built from the rows alone
    import tracemalloc

    lines = ["SYSTEM\tSEGMENT\tSCORE"]
    lines += [f"s{k}\t{k}-{i}\t0.5" for k in range(400) for i in range(400)]
    data = ("\n".join(lines) + "\n").encode()
    tracemalloc.start()
    try:
        with pytest.raises(StatsInputError, match=r"system 's0' has no score for segment\(s\) 1-0"):
            read_segment_scores(data, name="s.tsv")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 100 * 2**20, peak


# ---- wrong kind of file given as segment scores: the message says what was expected ----

TEXT_HINT = r"is this a plain-text file \(one segment per line\)\? .*--hyp/--ref"
ROOT = MT.parents[1]


@pytest.mark.parametrize(
    ("source", "match"),
    [
        # a hypothesis file (lines of different word counts): was "expected 6 fields ... found 9"
        (MT / "hyp" / "Aurora.txt",
         r"expected segment scores \(a header SYSTEM SEGMENT SCORE \[METRIC\], or SEGMENT and "
         r"one column per system, then numbers\), but line 1 reads 'Beetdound .*'; " + TEXT_HINT),
        # every line with the same number of words: was "'...' is not a number"
        (b"the cat sat\non the mat\nand then left\n", TEXT_HINT),
        (ROOT / "sample_data" / "human" / "judgements.tsv",
         r"line 1: this looks like human judgements \(SYSTEM SEGMENT ANNOTATOR CRITERION SCORE; "
         r"for `accuracy --human`.*\), not segment-level scores"),
        (ROOT / "sample_data" / "qe" / "hter_long.txt",
         r"line 1: this looks like QE predictions \(METRIC SID SCORE RANK HUMAN"),
        # was read silently as a wide table with "systems" TIME, WORDS, HTER
        (ROOT / "sample_data" / "qe" / "post_edit.tsv", r"this looks like a post-editing table"),
        (b"SYSTEM SEGMENT SCORE\nOnline B 1 0.5\n",
         r"line 2: expected 3 fields \(SYSTEM SEGMENT SCORE\) as in the header, found 4; fields "
         r"are split on whitespace here, so a name containing spaces needs a tab-separated file"),
    ],
)
def test_wrong_kind_of_file_says_what_was_expected(source, match):
    kwargs = {"name": "s.tsv"} if isinstance(source, bytes) else {}
    with pytest.raises(StatsInputError, match=match) as info:
        read_segment_scores(source, **kwargs)
    assert "\n" not in str(info.value)


def test_real_score_tables_get_no_text_hint():
    """A numeric table with one bad cell or a short row keeps the precise message, with no
    plain-text or wrong-kind guess appended."""
    for data, match in [
        (b"SEGMENT,A,B\n1,0.1,0.2\n2,x,0.3\n", r"line 3, column A: 'x' is not a number$"),
        (b"SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nA\t2\n",
         r"line 3: expected 3 fields \(SYSTEM SEGMENT SCORE\) as in the header, found 2$"),
    ]:
        with pytest.raises(StatsInputError, match=match):
            read_segment_scores(data, name="s.tsv")


def test_statistics_from_score_file_reads_every_metric():
    long = (
        "SYSTEM\tSEGMENT\tSCORE\tMETRIC\n"
        + "".join(f"{s}\t{i}\t{v + i}\tCOMET\n" for s, v in (("a", 1), ("b", 2)) for i in (1, 2))
        + "".join(f"{s}\t{i}\t{v * i}\tchrF\n" for s, v in (("a", 3), ("b", 5)) for i in (1, 2))
    ).encode()
    out = statistics_from_score_file(long, name="long.tsv")
    assert list(out) == ["COMET", "chrF"]
    assert out["COMET"].systems == ("a", "b")
    assert out["COMET"].corpus_scores.tolist() == [2.5, 3.5]
    assert out["chrF"].corpus_scores.tolist() == [4.5, 7.5]
    assert list(statistics_from_score_file(long, metrics=["chrf"])) == ["chrF"]
    with pytest.raises(StatsInputError, match="BLEURT not in column METRIC of long.tsv"):
        statistics_from_score_file(long, name="long.tsv", metrics=["BLEURT"])
    wide = b"SEGMENT,a,b\n1,0.5,0.25\n2,0.7,0.75\n"
    one = statistics_from_score_file(wide, name="wide.csv")
    assert list(one) == ["mean"] and one["mean"].corpus_scores.tolist() == pytest.approx([0.6, 0.5])
    with pytest.raises(StatsInputError, match="no METRIC column"):
        statistics_from_score_file(wide, name="wide.csv", metrics=["COMET"])


def test_a_number_longer_than_the_rule_allows_is_refused_on_the_fast_path_too(tmp_path):
    """A plain file (the fast path's) with a 451-character number: refused as the line-by-line
    path refuses it, never read as 1.0."""
    from stats.readers import read_segment_scores
    from stats.readers.da_segments import read_da_segment_scores

    long = "0" * 450 + "1"
    path = tmp_path / "long.tsv"
    path.write_text("SYSTEM\tSEGMENT\tSCORE\n" + "".join(
        f"s{k}\t{i}\t{long if (k, i) == (1, 2) else '0.5'}\n" for k in range(3) for i in range(4)))
    with pytest.raises(StatsInputError, match="451 characters"):
        read_segment_scores(path)
    da = tmp_path / "ad-seg-scores-de-en.csv"
    da.write_text("SYS SID RAW.SCR Z.SCR\n" + "".join(
        f"s{k} {i} {long if (k, i) == (1, 2) else '50'} 0.1\n" for k in range(3) for i in range(4)))
    with pytest.raises(StatsInputError, match="451 characters"):
        read_da_segment_scores(da)


@pytest.mark.parametrize("plain", [True, False], ids=["column-wise", "careful"])
def test_da_repeated_pair_names_the_lines_of_that_pair(monkeypatch, plain):
    """Rows A 1, B 1, A 1, B 1: the first pair given twice is A's segment 1, on lines 2 and 4
    (B's rows, lines 3 and 5, come after), on the column-wise path and the careful one."""
    from stats.readers import da_segments

    if not plain:
        monkeypatch.setattr(da_segments, "_plain_columns", lambda *a, **k: None)
    data = b"SYS SID RAW.SCR Z.SCR\nA 1 50 0.1\nB 1 60 0.2\nA 1 70 0.3\nB 1 80 0.4\n"
    with pytest.raises(
        StatsInputError,
        match=r"^ad-seg-scores-de-en.csv, lines 2 and 4: system 'A' has segment '1' twice$",
    ):
        da_segments.read_da_segment_scores(data, name="ad-seg-scores-de-en.csv")
