"""The pandas fast path of the table readers (stats.readers._common.fast_frame) gives the same
tables as the careful line-by-line parser, and leaves every bad file to it, so errors keep
naming the file, line and column. Each case is read twice: as is, and with the fast path
switched off (the careful parser is the reference)."""

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError, statistics_from_score_file
from stats.readers import _common, segments
from stats.readers.segments import read_segment_scores

LONG = "SYSTEM\tSEGMENT\tSCORE\tMETRIC\nA\ts1\t0.5\tcomet\nB\ts1\t0.25\tcomet\nA\ts2\t1e-3\tcomet\n" \
       "B\ts2\t-2\tcomet\nA\ts1\t3\tchrf\nB\ts1\t4\tchrf\nA\ts2\t5\tchrf\nB\ts2\t6\tchrf\n"

CLEAN = {
    "long tab": LONG,
    "long csv, padded": "system, segment, score\n A , 1 , 0.1\nB,1,0.2\n A ,2,0.3\nB,2,0.4\n",
    "long whitespace": "SYSTEM SEGMENT SCORE\n  A 1 0.1\nB 1 0.2\nA 2 0.3\nB 2   0.4\n",
    "long crlf + bom": "\ufeffSYSTEM,SEGMENT,SCORE\r\nA,x,1\r\nB,x,2\r\nA,y,3\r\nB,y,4\r\n",
    "wide csv with ids": "segment,sysA,sysB\n007,0.1,0.2\n008,0.3,0.4\n",
    "numeric-looking ids": "SYSTEM,SEGMENT,SCORE\n1,007,1\n2,007,2\n1,08,3\n2,08,4\n",
    "wide tab": "sysA\tsysB\n0.1\t0.2\n0.3\t0.4\n",
    "unicode names": "SYSTEM\tSEGMENT\tSCORE\nsystème\tα\t1\nB\tα\t2\nsystème\tβ\t3\nB\tβ\t4\n",
    "blank line (careful)": "SYSTEM SEGMENT SCORE\nA 1 0.1\n\nB 1 0.2\n",
    "comment (careful)": "# scores\nSYSTEM SEGMENT SCORE\nA 1 0.1\nB 1 0.2\n",
}

BAD = {
    "not a number": "SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.1\nB\t1\tabc\n",
    "nan": "SYSTEM,SEGMENT,SCORE\nA,1,nan\nB,1,0.2\n",
    "inf": "SYSTEM,SEGMENT,SCORE\nA,1,0.1\nB,1,-inf\n",
    "empty score": "SYSTEM,SEGMENT,SCORE\nA,1,\nB,1,0.2\n",
    "short row tab": "SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.1\nB\t1\n",
    "short row whitespace": "SYSTEM SEGMENT SCORE\nA 1 0.1\nB 1\n",
    "long row whitespace (first)": "SYSTEM SEGMENT SCORE\nOnline B 1 0.5\nA 1 0.2\n",
    "long row whitespace (later)": "SYSTEM SEGMENT SCORE\nA 1 0.5\nOnline B 1 0.2\n",
    "long row csv": "SYSTEM,SEGMENT,SCORE\nA,1,0.5\nB,1,0.2,9\n",
    "duplicate": "SYSTEM,SEGMENT,SCORE\nA,1,0.5\nB,1,0.2\nA,1,0.7\nB,2,1\n",
    "missing segment": "SYSTEM,SEGMENT,SCORE\nA,1,0.5\nB,1,0.2\nA,2,0.7\n",
    "empty system": "SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\n \t1\t0.2\n",
    "wide bad value": "segment,sysA,sysB\n1,0.1,0.2\n2,x,0.4\n",
    "wide duplicate id": "segment,sysA,sysB\n1,0.1,0.2\n1,0.3,0.4\n",
}


def _careful(monkeypatch):
    monkeypatch.setattr(_common, "fast_frame", lambda *a, **k: None)


def _read(text, metric=None):
    return read_segment_scores(text.encode("utf-8"), name="f.tsv", metric=metric)


@pytest.mark.parametrize("case", list(CLEAN))
def test_clean_files_read_the_same_both_ways(case, monkeypatch):
    metric = "chrf" if case == "long tab" else None
    fast = _read(CLEAN[case], metric)
    _careful(monkeypatch)
    careful = _read(CLEAN[case], metric)
    pd.testing.assert_frame_equal(fast, careful)
    assert list(fast.index) == list(careful.index) and fast.columns.name == careful.columns.name


@pytest.mark.parametrize("case", list(BAD))
def test_bad_files_give_the_careful_parsers_error(case, monkeypatch):
    with pytest.raises(StatsInputError) as fast:
        _read(BAD[case])
    _careful(monkeypatch)
    with pytest.raises(StatsInputError) as careful:
        _read(BAD[case])
    assert str(fast.value) == str(careful.value)
    assert "line" in str(fast.value) or "segment" in str(fast.value)


def test_every_metric_of_a_file_the_same_both_ways(monkeypatch):
    fast = statistics_from_score_file(LONG.encode(), name="f.tsv")
    _careful(monkeypatch)
    careful = statistics_from_score_file(LONG.encode(), name="f.tsv")
    assert list(fast) == list(careful) == ["comet", "chrf"]
    for key in fast:
        np.testing.assert_array_equal(fast[key].stats, careful[key].stats)
        np.testing.assert_array_equal(fast[key].corpus_scores, careful[key].corpus_scores)


def test_clean_long_file_is_read_by_pandas_without_objects_per_row():
    rows = "".join(f"S{s}\tseg{i}\t{i * 0.001 + s}\n" for i in range(500) for s in range(3))
    data = ("SYSTEM\tSEGMENT\tSCORE\n" + rows).encode()
    table = _common.read_table(
        data, required=["SYSTEM", "SEGMENT", "SCORE"], name="f", dtype=segments._LONG_TYPES
    )
    assert table.frame["SCORE"].dtype == np.float64
    assert table.frame["SYSTEM"].dtype != object and table.frame["SEGMENT"].dtype != object
    assert table.frame["_line"].tolist() == list(range(2, 1502))
    wide = read_segment_scores(data, name="f")
    assert wide.shape == (500, 3) and wide.loc["seg7", "S2"] == 7 * 0.001 + 2
