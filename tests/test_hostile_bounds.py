"""Every reader bounded: outliers.json through the bounded reader (``/dev/zero``
refused, a FIFO nobody writes not waited for, ``-`` from standard input), limits counted from an
archive's listing before any file is parsed, the parse-memory check from measured factors, a
file failing at its last line named without reading every line again (benchmarks/last_line.py
times it at 2M rows), word-level gold tags held as arrays."""

from __future__ import annotations

import io
import os
import zipfile

import pytest

import stats.readers._meta_text as meta_text
import stats.readers.qe_wmt as qe_wmt
import stats.readers.wmt as wmt
from stats import StatsInputError, limited_budget
from stats._core.budget import MAX_SYSTEMS
from stats.metaeval.outliers import MAX_OUTLIERS_BYTES, read_outliers_json
from stats.readers import read_meta_eval, read_segment_scores
from stats.readers._common import PARSE_MEMORY_FACTORS
from stats.readers.qe_word import BYTES_PER_TAG, read_word_gold

# ---- outliers.json through the bounded reader ----


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_outliers_from_dev_zero_is_refused_at_the_limit():
    with pytest.raises(StatsInputError, match=f"more than {MAX_OUTLIERS_BYTES:,} bytes"):
        read_outliers_json("/dev/zero")


def test_outliers_fifo_without_writer_does_not_hang(tmp_path):
    fifo = tmp_path / "outliers.json"
    os.mkfifo(fifo)
    with pytest.raises(StatsInputError, match="the outliers file is empty"):
        read_outliers_json(fifo)


def test_outliers_too_large_or_twice_refused(tmp_path):
    with pytest.raises(StatsInputError, match="over the input limit"):
        read_outliers_json(b" " * (MAX_OUTLIERS_BYTES + 1), name="o.json")
    with pytest.raises(StatsInputError, match="o.json: 'cs-en' is given twice"):
        read_outliers_json(b'{"cs-en": ["A"], "cs-en": ["B"]}', name="o.json")
    upload = ("stdin", b'{"cs-en": ["A"]}')  # what the CLI makes of '-'
    assert read_outliers_json(upload) == {"cs-en": ("A",)}
    assert read_outliers_json(io.BytesIO(b'{"x-y": []}')) == {"x-y": ()}


# ---- limits counted from an archive's listing ----


def test_team_folders_over_the_system_limit_refused_from_the_listing(monkeypatch, tmp_path):
    import stats.readers._archives as archives

    parsed = []
    monkeypatch.setattr(qe_wmt, "_read_one_submission",
                        lambda *a: parsed.append(a) or (_ for _ in ()).throw(AssertionError))  # fmt: skip
    real_stream = archives._stream
    monkeypatch.setattr(archives, "_stream", lambda *a: parsed.append(a) or real_stream(*a))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for team in range(MAX_SYSTEMS + 1):
            zf.writestr(f"subs/team{team}/predictions.txt", "en-de\tM\t0\t0.5\n")
    with pytest.raises(StatsInputError, match=rf"more than {MAX_SYSTEMS:,} team folders .* over the "
                       rf"limit of {MAX_SYSTEMS:,} systems \(counted from the file names"):
        qe_wmt.read_qe_submissions([("subs.zip", buf.getvalue())])
    assert not parsed  # no member unpacked, none parsed
    for team in range(MAX_SYSTEMS + 1):  # a folder: from its listing too
        folder = tmp_path / f"team{team}"
        folder.mkdir()
        (folder / "predictions.txt").write_text("en-de\tM\t0\t0.5\n")
    with pytest.raises(StatsInputError, match="counted from the file names"):
        qe_wmt.read_qe_submissions([tmp_path])
    assert not parsed


# ---- the parse-memory check from measured factors ----


def test_qe_line_by_line_path_checks_its_measured_factor():
    text = "".join(f"en-de\tteam0x\t{k}\t0.{k}\n" for k in range(50)).encode()  # 0x: line by line
    factor = PARSE_MEMORY_FACTORS["qe-lines"]
    assert factor >= 5.6  # measured: 5.6x at 13 MB (the line-by-line path of a plain file)
    with limited_budget(max_memory=factor * len(text) - 1):
        with pytest.raises(StatsInputError, match="reading q.txt"):
            qe_wmt.read_qe_submissions([text], names=["q.txt"])


def test_word_gold_tags_as_arrays_within_the_checked_factor():
    lines = ["OK BAD OK", "BAD", "", "OK OK GOOD BAD"]
    text = ("\n".join(lines) + "\n").encode()
    frame = read_word_gold(text, name="en-de.tags")
    assert frame.columns.tolist() == ["lp", "system", "sid", "pos", "bad"]
    assert frame["sid"].tolist() == ["0"] * 3 + ["1"] + ["3"] * 4
    assert frame["pos"].tolist() == [0, 1, 2, 0, 0, 1, 2, 3]
    assert frame["bad"].tolist() == [False, True, False, True, False, False, False, True]
    assert set(frame["lp"]) == {"en-de"} and set(frame["system"]) == {"gold"}
    with pytest.raises(StatsInputError, match="line 61: tag 'MEH' is not OK or BAD"):
        read_word_gold(b"OK BAD\n" * 60 + b"OK MEH\n", name="en-de.tags")
    n_tags = 8  # the tags of ``lines``
    with limited_budget(max_memory=BYTES_PER_TAG * n_tags - 1):
        with pytest.raises(StatsInputError, match="reading en-de.tags: parsing it needs about "
                           "672 bytes of memory, over the budget of 671 bytes; split the file"):
            read_word_gold(text, name="en-de.tags")
    with limited_budget(max_memory=BYTES_PER_TAG * n_tags):
        read_word_gold(text, name="en-de.tags")


# ---- a file failing at its last line: named by columns, not read again line by line ----

ROWS = 30_000


def _never(*_a, **_k):
    raise AssertionError("read line by line")


def test_last_line_segment_scores():
    body = "".join(f"s{k % 20}\t{k // 20}\t0.{k}\n" for k in range(ROWS))
    data = f"SYSTEM\tSEGMENT\tSCORE\n{body}s0\tX\tabc\n".encode()
    with pytest.raises(StatsInputError, match=rf"line {ROWS + 2:,}|line {ROWS + 2}, column SCORE"):
        read_segment_scores(data, name="s.tsv")


def test_last_line_qe_submission(monkeypatch):
    seen = []
    real = qe_wmt._parse_rows
    monkeypatch.setattr(qe_wmt, "_parse_rows",
                        lambda rows, *a, **k: real(seen.extend(rows) or seen, *a, **k))  # fmt: skip
    body = "".join(f"en-de\tM\t{k}\t0.{k}\n" for k in range(ROWS))
    data = f"512\n1000\n1\n{body}en-de\tM\t{ROWS}\t1e400\n".encode()
    with pytest.raises(StatsInputError, match=rf"q.txt, line {ROWS + 4}, column SCORE: .*'1e400'"):
        qe_wmt.read_qe_submissions([data], names=["q.txt"])
    assert len(seen) == 1  # the one bad line, read line by line


def test_last_line_wmt_segment_scores(monkeypatch):
    monkeypatch.setattr(wmt, "_diagnose", _never)
    rows = "".join(f"m\ten-de\tt\tt\ts{k // 100}\td{k % 100 // 10}\t{k % 10}\t0.{k}\n"
                   for k in range(ROWS))  # fmt: skip
    data = f"{rows}m\ten-de\tt\tt\tsX\tdX\t1\tnan\n".encode()
    with pytest.raises(StatsInputError, match=rf"line {ROWS + 1}, column SCORE: .*NaN"):
        wmt.read_wmt_scores(data, name="m.seg.score")


def test_last_line_meta_eval_long(monkeypatch):
    monkeypatch.setattr(meta_text, "_long_rows_careful", _never)
    rows = "".join(f"{'BLEU' if k % 2 else 'HUMAN'}\ten-de\tt\ts{k // 2 % 10}\t{k // 20}\t"
                   f"0.{k}\n" for k in range(ROWS))  # fmt: skip
    data = f"METRIC\tLP\tTESTSET\tSYSTEM\tSEGMENT\tSCORE\n{rows}BLEU\ten-de\tt\ts0\tX\t5_0\n"
    with pytest.raises(StatsInputError, match=rf"long.tsv, line {ROWS + 2}: '5_0' is not a num"):
        read_meta_eval(("long.tsv", data.encode()))
    missing = data.replace("\t5_0\n", "\tNone\n")
    with pytest.raises(StatsInputError, match=rf"line {ROWS + 2}: metric score is missing"):
        read_meta_eval(("long.tsv", missing.encode()))
