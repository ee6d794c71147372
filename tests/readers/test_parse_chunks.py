"""Readers that parse by columns in blocks (stats.readers._arrow): what they read
equals what the line-by-line readers read, and nothing is lost at a block boundary: a
duplicate entry or a bad line just past one is still found and named by its line; CRLF line
ends and a byte-order mark read as the same file. Blocks are made tiny here so that small
files span many."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError, limited_budget
from stats.readers import _arrow, appraise, qe_wmt, qe_word, wmt
from stats.readers._common import PARSE_MEMORY_FACTORS
from stats.readers.appraise import read_appraise
from stats.readers.qe_wmt import read_qe_submissions
from stats.readers.qe_word import read_word_submissions
from stats.readers.wmt import read_wmt_scores

ROWS = 400


@pytest.fixture(autouse=True)
def tiny_blocks(monkeypatch):
    monkeypatch.setattr(_arrow, "BLOCK", 512)
    monkeypatch.setattr(appraise, "BLOCK", 512)
    monkeypatch.setattr(wmt, "LARGE_BLOCK", 512)
    monkeypatch.setattr(qe_wmt, "LARGE_BLOCK", 512)


def _seg_lines(n=ROWS):
    return [f"BLEU\ten-de\tnt20\tnt20\tsys{k % 3}\tdoc{k // 30}\t{k // 3 % 10 + 1}\t0.{k:03d}\n"
            for k in range(n)]


def _no_typed(monkeypatch, module, name):
    monkeypatch.setattr(module, name, lambda *a, **k: None)


def _frames_equal(a: pd.DataFrame, b: pd.DataFrame):
    assert list(a.columns) == list(b.columns)
    for c in a.columns:
        assert a[c].astype(str).tolist() == b[c].astype(str).tolist(), c


def test_wmt_segments_by_blocks_equal_line_by_line(monkeypatch):
    data = "".join(_seg_lines()).encode()
    assert wmt._typed_segments(data, [c.lower() for c in wmt.SEG_COLUMNS], 0) is not None
    fast = read_wmt_scores(data, name="s")
    assert isinstance(fast.frame["system"].dtype, pd.CategoricalDtype)
    _no_typed(monkeypatch, wmt, "_typed_segments")
    _frames_equal(fast.frame, read_wmt_scores(data, name="s").frame)
    crlf = read_wmt_scores(data.replace(b"\n", b"\r\n"), name="s")
    bom = read_wmt_scores(b"\xef\xbb\xbf" + data, name="s")
    _frames_equal(fast.frame, crlf.frame)
    _frames_equal(fast.frame, bom.frame)


def test_wmt_duplicate_and_bad_line_past_a_block_are_named():
    lines = _seg_lines()
    dup = lines[:350] + [lines[3]] + lines[350:]  # line 351 repeats line 4, blocks apart
    with pytest.raises(StatsInputError, match=r"s, lines 4 and 351: the same row twice"):
        read_wmt_scores("".join(dup).encode(), name="s")
    bad = lines[:300] + [lines[300].replace("0.300", "x")] + lines[301:]
    with pytest.raises(StatsInputError, match=r"s, line 301, column SCORE: 'x' is not a number"):
        read_wmt_scores("".join(bad).encode(), name="s")
    ragged = lines[:300] + [lines[300].replace("\tsys0", "")] + lines[301:]
    with pytest.raises(StatsInputError, match=r"s, line 301: expected 8 fields"):
        read_wmt_scores("".join(ragged).encode(), name="s")


def _qe_text(n=ROWS, header=True):
    head = "512\n1000000\n1\n" if header else ""
    return head + "".join(f"en-de\tteam_m\t{k}\t{k / n:.6f}\n" for k in range(n))


def test_qe_submissions_by_blocks_equal_line_by_line(monkeypatch):
    data = _qe_text().encode()
    text = data.decode()
    assert qe_wmt._typed_rows(text, 3, text.splitlines()[:4]) is not None  # many blocks
    fast = read_qe_submissions([data], names=["t/en-de/p.txt"]).scores
    crlf = read_qe_submissions([data.replace(b"\n", b"\r\n")], names=["t/en-de/p.txt"]).scores
    _no_typed(monkeypatch, qe_wmt, "_typed_rows")
    slow = read_qe_submissions([data], names=["t/en-de/p.txt"]).scores
    _frames_equal(fast, slow)
    _frames_equal(fast, crlf)
    assert fast["sid"].tolist()[:3] == ["0", "1", "2"] and fast["system"].iloc[0] == "t/team_m"


def test_qe_submissions_of_several_names_by_blocks_equal_line_by_line(monkeypatch):
    # two language pairs (one upper-cased) and two methods (one padded) changing past block
    # boundaries, ids with leading zeros: read from the bytes as line by line
    rows = [f"{'EN-DE' if k % 7 else 'en-de'}\t{' m2 ' if k >= 200 else 'm1'}\t{k % 200:03d}"
            f"\t{k / 400:.6f}\n" for k in range(ROWS)]
    data = ("512\n1000000\n1\n" + "".join(rows)).encode()
    fast = read_qe_submissions([data], names=["t/p.txt"])
    _no_typed(monkeypatch, qe_wmt, "_typed_rows")
    slow = read_qe_submissions([data], names=["t/p.txt"])
    _frames_equal(fast.scores, slow.scores)
    assert fast.headers == slow.headers and fast.system_files == slow.system_files
    assert sorted(set(fast.scores["system"])) == ["t/m1", "t/m2"]


@pytest.mark.parametrize("sid", ["-3", "-0", " 4", "4 ", "+4", "0x4", "4.0", "", "007", "0"])
def test_qe_submission_segment_numbers_by_blocks_equal_line_by_line(monkeypatch, sid):
    rows = [f"en-de\tm1\t{k + 10}\t{k / 400:.6f}\n" for k in range(ROWS)]
    rows[300] = f"en-de\tm1\t{sid}\t0.5\n"
    data = ("512\n1000000\n1\n" + "".join(rows)).encode()

    def outcome():
        try:
            return read_qe_submissions([data], names=["t/p.txt"]).scores
        except StatsInputError as exc:
            return str(exc)

    fast = outcome()
    _no_typed(monkeypatch, qe_wmt, "_typed_rows")
    slow = outcome()
    if isinstance(fast, str) or isinstance(slow, str):
        assert fast == slow
    else:
        _frames_equal(fast, slow)


def test_qe_duplicate_and_bad_line_past_a_block_are_named():
    lines = _qe_text(header=False).splitlines(keepends=True)
    dup = lines[:350] + [lines[3].replace("0.007500", "0.5")] + lines[350:]
    with pytest.raises(StatsInputError, match=r"same item twice .*sid '3'"):
        read_qe_submissions([("".join(dup)).encode()], names=["p.txt"])
    bad = lines[:300] + ["en-de\tteam_m\t300\tnan\n"] + lines[301:]
    with pytest.raises(StatsInputError, match=r"p.txt, line 301, column SCORE: score is not finite"):
        read_qe_submissions([("".join(bad)).encode()], names=["p.txt"])
    # a file read line by line is bounded by its own (larger) factor before it is read
    text = "".join(lines[:300]) + "  \n" + "".join(lines[300:])  # a line of spaces
    with limited_budget(max_memory=PARSE_MEMORY_FACTORS["qe-lines"] * len(text) - 1):
        with pytest.raises(StatsInputError, match="reading p.txt"):
            read_qe_submissions([text.encode()], names=["p.txt"])


def _word_lines(n=ROWS):
    return [f"en-de\tm\t{'gap' if k % 7 == 0 else 'mt'}\t{k // 20}\t{k % 20}\tw{k}\t"
            f"{'BAD' if k % 5 == 0 else 'OK'}\n" for k in range(n)]


def test_word_tags_by_blocks_equal_line_by_line(monkeypatch):
    data = "".join(_word_lines()).encode()
    assert qe_word._typed_words(data.decode(), 0, _word_lines()[:4], "w", None) is not None
    fast = read_word_submissions([data], names=["en-de.tsv"])
    crlf = read_word_submissions([data.replace(b"\n", b"\r\n")], names=["en-de.tsv"])
    _no_typed(monkeypatch, qe_word, "_typed_words")
    slow = read_word_submissions([data], names=["en-de.tsv"])
    _frames_equal(fast, slow)
    _frames_equal(fast, crlf)
    assert len(fast) == sum(k % 7 != 0 for k in range(ROWS))


def test_word_duplicate_and_bad_tag_past_a_block_are_named():
    lines = _word_lines()
    dup = lines[:350] + [lines[1]] + lines[350:]
    with pytest.raises(StatsInputError, match=r"word 1 of segment 0 \(en-de, m\) twice"):
        read_word_submissions([("".join(dup)).encode()], names=["w.tsv"])
    bad = lines[:300] + [lines[300].replace("\tBAD", "\tMAYBE")] + lines[301:]
    with pytest.raises(StatsInputError, match=r"w.tsv, line 301: tag 'MAYBE' is not OK or BAD"):
        read_word_submissions([("".join(bad)).encode()], names=["w.tsv"])


def _doclvl_lines(n=ROWS):
    return [f"user{k % 4},sys{k % 3},{k},TGT,eng,deu,{k % 101},doc{k // 40},"
            f"{'True' if k % 20 == 0 else 'False'},{1700000000 + k},{1700000060 + k}\n"
            for k in range(n)]


def test_appraise_doclvl_by_blocks_equals_line_by_line(monkeypatch):
    data = "".join(_doclvl_lines()).encode()
    assert appraise._typed_columns(data.decode()) is not None
    fast = read_appraise(data, name="WMT23.DocLvl.csv")
    crlf = read_appraise(data.replace(b"\n", b"\r\n"), name="WMT23.DocLvl.csv")
    _no_typed(monkeypatch, appraise, "_typed_columns")
    slow = read_appraise(data, name="WMT23.DocLvl.csv")
    for got in (fast, crlf):
        _frames_equal(got.frame, slow.frame)
        _frames_equal(got.documents, slow.documents)
        assert got.read_as == slow.read_as and got.dropped == slow.dropped
    np.testing.assert_array_equal(fast.frame["_line"], slow.frame["_line"])


def test_appraise_doclvl_bad_line_past_a_block_is_named():
    lines = _doclvl_lines()
    bad = lines[:301] + [lines[301].replace(",False,", ",Maybe,")] + lines[302:]
    with pytest.raises(StatsInputError, match=r"d.csv, line 302, field 9 \(isDocScore\)"):
        read_appraise("".join(bad).encode(), name="d.csv")
    short = lines[:300] + [lines[300].replace(",deu,", ",")] + lines[301:]
    with pytest.raises(StatsInputError, match=r"d.csv, line 301: 10 fields; this file's first"):
        read_appraise("".join(short).encode(), name="d.csv")
