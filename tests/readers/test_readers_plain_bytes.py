"""Readers that parse a plain file from its bytes (``stats.readers._arrow.plain_bytes``) give
what their decoded path gives: the same result, and the same error for every value the one
number rule refuses. The same content with a UTF-8 byte-order mark is not plain (the decoded
path reads it, the mark stripped), so each file is read both ways and compared."""

from __future__ import annotations

import codecs

import pandas as pd
import pytest

from stats import StatsInputError
from stats.readers import (
    read_judgements,
    read_mqm,
    read_mqm_averages,
    read_post_edit,
    read_qe,
)
from stats.readers._arrow import plain_bytes
from tests.readers._same import assert_same

BOM = codecs.BOM_UTF8
#: spellings the one number rule refuses
BAD_NUMBERS = ["5_0", "0x10", "\u0661", "\uff11", "1,5", "nan", "inf", "-Infinity", "", "1e400",
               "1" * 401]


def _both(read, data: bytes, name: str):
    """``read`` of the plain bytes and of the same bytes after a BOM: results or messages."""
    assert plain_bytes(data) and not plain_bytes(BOM + data)
    out = []
    for raw in (data, BOM + data):
        try:
            out.append(read(raw, name=name))
        except StatsInputError as exc:
            out.append(str(exc))
    return out


def _mqm(rows: list[str]) -> bytes:
    head = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
    return (head + "".join(r + "\n" for r in rows)).encode()


MQM_ROWS = [
    "A\td1\t1\t1\tr1\tEin \"Satz\"\tA sentence\tAccuracy/Mistranslation\tMajor",
    "A\td1\t1\t1\tr1\tEin Satz\tA sentence\tFluency/Punctuation\tMinor",
    "B\td1\t1\t1\tr2\tEin Satz\tA sentence\tno-error\tno-error",
    "B\td1\t2\t2\tr2\tZwei\tTwo\tAccuracy/Omission\tCritical",
    "A\td1\t2\t2\tr1 \tZwei\tTwo\tOther\tweird",
]


@pytest.mark.parametrize("weights", [None, "wmt24"])
def test_mqm_plain_as_decoded(weights):
    def read(raw, name):
        return read_mqm(raw, name=name, weights=weights)

    fast, careful = _both(read, _mqm(MQM_ROWS), "mqm_newstest2020_ende.tsv")
    if isinstance(fast, str):
        assert fast == careful and "tools.py" in fast
    else:
        assert_same(fast, careful)
        assert "raters" in fast.read_as


@pytest.mark.parametrize("bad", ["A\td1\t1\t\tr1\ts\tt\tAccuracy\tMajor",
                                 "A\td1\t1\t1\tr1\ts\tt\tAccuracy",
                                 "A\td1\t1\t1\t \ts\tt\tAccuracy\tMajor"])
def test_mqm_plain_refusals_as_decoded(bad):
    fast, careful = _both(read_mqm, _mqm([*MQM_ROWS, bad]), "x_ende.tsv")
    assert isinstance(fast, str) and fast == careful and "line 7" in fast


def test_mqm_source_errors_plain_as_decoded():
    rows = [f"A\td1\t1\t{k}\tr1\ts\tt\tSource error\tMinor" for k in range(1, 4)]
    fast, careful = _both(read_mqm, _mqm(rows), "x_ende.tsv")
    assert_same(fast, careful)


def _averages(rows: list[str], sep: str = " ") -> bytes:
    return ("system mqm_avg_score seg_id\n" + "".join(
        sep.join(r.split(" ")) + "\n" for r in rows)).encode()


AVG_ROWS = ["A -1.5 1", "A None 2", "A 0 3", "B -2.25 1", "B -0.5 2", "B None 3"]


@pytest.mark.parametrize("sep", [" ", "\t"])
def test_mqm_averages_plain_as_decoded(sep):
    fast, careful = _both(read_mqm_averages, _averages(AVG_ROWS, sep), "mqm_ted_zhen.avg.tsv")
    assert_same(fast, careful)
    assert fast.notes


@pytest.mark.parametrize("bad", [*BAD_NUMBERS[:-4], "1e400", "1e151"])
def test_mqm_averages_plain_refusals_as_decoded(bad):
    rows = [*AVG_ROWS, f"C {bad} 1"] if bad else [*AVG_ROWS, "C  1"]
    fast, careful = _both(read_mqm_averages, _averages(rows), "x_zhen.avg.tsv")
    assert isinstance(fast, str) and fast == careful


@pytest.mark.parametrize("sep", [" ", "\t"])
@pytest.mark.parametrize("row", [" C -1 1", "C -1 1 ", "C  -1", "C -1  1", "C\t-1 1"])
def test_mqm_averages_padded_plain_as_decoded(sep, row):
    """A row with a separator too many (runs, or one that starts or ends the line) is read
    as the decoded path reads it (split on runs of whitespace), or refused as it refuses it."""
    data = _averages(AVG_ROWS, sep) + row.replace(" ", sep).encode() + b"\n"
    fast, careful = _both(read_mqm_averages, data, "x_zhen.avg.tsv")
    assert_same(fast, careful)


def test_mqm_averages_duplicate_plain_as_decoded():
    fast, careful = _both(read_mqm_averages, _averages([*AVG_ROWS, "A -1 1"]), "x.tsv")
    assert isinstance(fast, str) and fast == careful and "twice" in fast


def _wide(ids: list[str], sep: str = ",", gold=None, cell: str | None = None) -> bytes:
    gold = gold or [f"{0.1 * k:.1f}" for k in range(len(ids))]
    lines = [sep.join(["sid", "gold", "S1", "S2"])]
    for k, i in enumerate(ids):
        lines.append(sep.join([i, gold[k], f"{(k * 7 % 5) / 4}", cell if cell is not None and k
                               == 2 else f"{k % 3}.5"]))
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize("ids", [["1", "2", "3", "4", "5"], ["5", "3", "004", "1", "2"],
                                 ["1", "2", "2", "3", "4"], ["1", "02", "2", "3", "4"],
                                 ["a", "b", "c", "d", "e"], ["1", "2", "3"]])
@pytest.mark.parametrize("sep", [",", "\t"])
def test_qe_wide_plain_as_decoded(ids, sep):
    fast, careful = _both(read_qe, _wide(ids, sep), "qe.csv")
    assert_same(fast, careful)


@pytest.mark.parametrize("bad", [*BAD_NUMBERS, "1e151"])
def test_qe_wide_plain_refusals_as_decoded(bad):
    if bad == "1,5":
        data = _wide(["1", "2", "3", "4", "5"], "\t", cell=bad)
    else:
        data = _wide(["1", "2", "3", "4", "5"], cell=bad)
    fast, careful = _both(read_qe, data, "qe.csv")
    assert isinstance(fast, str) and fast == careful


def _long(rows: list[tuple]) -> bytes:
    return ("METRIC\tSID\tSCORE\tRANK\tHUMAN\n" + "".join(
        "\t".join(map(str, r)) + "\n" for r in rows)).encode()


LONG = [(s, i, f"{(i * (3 + k)) % 7 / 7:.4f}", 1, f"{i / 10:.1f}")
        for k, s in enumerate(["sysA", "sysB"]) for i in (3, 1, 2, 5, 4)]


@pytest.mark.parametrize("change", [None, (0, 1, "003"), (3, 4, "nan"), (4, 2, "5_0"),
                                    (6, 1, "1"), (2, 4, "0.9"), (5, 0, "")])
def test_qe_long_plain_as_decoded(change):
    rows = [list(r) for r in LONG]
    if change is not None:
        rows[change[0]][change[1]] = change[2]
    fast, careful = _both(read_qe, _long(rows), "qe.tsv")
    assert_same(fast, careful)


def _post_edit(rows: list[tuple], extra: bool = False) -> bytes:
    head = "SID\tTIME\tWORDS" + ("\tHTER" if extra else "")
    return (head + "\n" + "".join("\t".join(map(str, r)) + "\n" for r in rows)).encode()


PE = [(i, f"{i * 1.5:.1f}", i + 3, f"0.{i}") for i in (2, 1, 3, 4, 5)]


@pytest.mark.parametrize("change", [None, (0, 0, "1"), (1, 2, "0"), (2, 1, "-1"),
                                    (3, 1, "0x10"), (4, 3, "\uff11"), (0, 0, "+2")])
@pytest.mark.parametrize("extra", [False, True])
def test_post_edit_plain_as_decoded(change, extra):
    rows = [list(r) if extra else list(r[:3]) for r in PE]
    if change is not None and change[1] < len(rows[0]):
        rows[change[0]][change[1]] = change[2]
    fast, careful = _both(read_post_edit, _post_edit(rows, extra), "pe.tsv")
    assert_same(fast, careful)


def test_plain_files_never_decoded(monkeypatch):
    """The plain files above are read from their bytes: no decoded text, no line-by-line
    table."""
    from stats.readers import judgements, mqm, mqm_google, qe

    def refused(*args, **kwargs):
        raise AssertionError("the decoded path was taken")

    for module in (mqm, mqm_google, qe):
        monkeypatch.setattr(module, "decode", refused)
    monkeypatch.setattr(qe, "read_table", refused)
    monkeypatch.setattr(judgements, "read_table", refused)
    read = [
        read_mqm(_mqm(MQM_ROWS), name="x_ende.tsv"),
        read_mqm_averages(_averages(AVG_ROWS), name="x_zhen.avg.tsv"),
        read_mqm_averages(_averages(AVG_ROWS, "\t"), name="x_zhen.avg.tsv"),
        read_qe(_wide(["5", "3", "004", "1", "2"]), name="qe.csv"),
        read_qe(_long([list(r) for r in LONG]), name="qe.tsv"),
        read_post_edit(_post_edit([list(r) for r in PE], True), name="pe.tsv"),
        read_judgements(_judgements(JUDGEMENTS), name="j.tsv"),
        read_judgements(_judgements(JUDGEMENTS, ","), name="j.csv"),
    ]
    assert all(r is not None for r in read)  # each read, none through the decoded path


def _judgements(rows: list[tuple], sep: str = "\t") -> bytes:
    head = sep.join(["SYSTEM", "SEGMENT", "ANNOTATOR", "CRITERION", "SCORE"])
    return (head + "\n" + "".join(sep.join(map(str, r)) + "\n" for r in rows)).encode()


JUDGEMENTS = [(f"sys{k % 3}", k // 3, f"w{k % 4}", ("adequacy", "fluency")[k % 2], k * 7 % 101)
              for k in range(40)]


@pytest.mark.parametrize("change", [None, (3, 0, " sys1 "), (5, 3, "Fluency"),
                                    (6, 3, " ADEQUACY"), (7, 3, "style"), (8, 4, "nan"),
                                    (9, 4, "1,5"), (10, 2, " "), (11, 4, "\u0663"),
                                    (12, 4, "0x10"), (13, 1, "")])
@pytest.mark.parametrize("sep", ["\t", ","])
def test_judgements_plain_as_decoded(change, sep):
    rows = [list(r) for r in JUDGEMENTS]
    if change is not None:
        rows[change[0]][change[1]] = change[2]
    if sep == "," and change is not None and "," in str(change[2]):
        pytest.skip("a comma inside a field of a comma-separated file is another layout")
    fast, careful = _both(read_judgements, _judgements(rows, sep), "j.tsv")
    assert_same(fast, careful)


def test_judgements_copied_block_plain_as_decoded():
    rows = [list(r) for r in JUDGEMENTS]
    fast, careful = _both(read_judgements, _judgements(rows + rows[:6]), "j.tsv")
    assert isinstance(fast, str) and fast == careful and "consecutive" in fast


def test_mqm_groups_are_factorize():
    """The groups of an MQM file's rows (counted runs where each run's key is new, else a
    hash) are ``pandas.factorize``'s: adjacent and scattered repeats, sorted and not."""
    import numpy as np

    from stats.readers.mqm import _groups

    rng = np.random.default_rng(7)
    for trial in range(2000):
        n, size = int(rng.integers(1, 40)), int(rng.integers(1, 12))
        codes = rng.integers(0, size, n).astype(np.int64)
        if trial % 3 == 0:
            codes = np.sort(codes)
        expected = pd.factorize(codes)[0]
        got = _groups(codes, size)
        assert got.dtype == expected.dtype and (got == expected).all()


SEGMENT_FILES = [
    "SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nA\t2\t0.25\nB\t1\t1\nB\t2\t-3e-2\n",
    "SYSTEM,SEGMENT,SCORE,METRIC\nA,1,0.5,chrF\nA,2,0.25,chrF\nB,1,1,chrF\nB,2,2,chrF\n",
    "A\t1\t0.5\nA\t2\t0.25\nB\t1\t1\nB\t2\t2\n",
    "SEGMENT\tA\tB\n1\t0.5\t1\n2\t0.25\t2\n",
    'SEGMENT,A,"B"\n1,0.5,1\n2,0.25,2\n',
    "SYSTEM SEGMENT SCORE\nA 1 0.5\nA 2 x\n",
    "SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nA\t1\t0.25\n",
]


@pytest.mark.parametrize("text", SEGMENT_FILES)
def test_segment_scores_plain_as_decoded(text):
    """A plain segment-score file decoded without the decoder's scans reads (or is refused)
    as the same file with a byte-order mark, which the decoder reads."""
    from stats.readers import read_segment_scores

    fast, careful = _both(read_segment_scores, text.encode(), "scores.tsv")
    assert_same(fast, careful)


def test_segment_scores_plain_within_limits(monkeypatch):
    """A file over a limit the decoder checks is not plain: the decoder refuses it."""
    from stats.readers import _limits, read_segment_scores

    monkeypatch.setattr(_limits, "MAX_LINES", 3)
    data = SEGMENT_FILES[0].encode()
    assert not plain_bytes(data)
    with pytest.raises(StatsInputError, match="5 lines is over the limit of 3 lines"):
        read_segment_scores(data, name="scores.tsv")
