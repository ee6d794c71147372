"""The WMT25 automatic-scores reader (stats.readers.wmt25) on generated files in the published
layout: what it says it read, what it counts, and one line for each kind of bad input."""

from __future__ import annotations

import gzip
import io
import json
import zipfile

import numpy as np
import pytest

from stats import StatsInputError
from stats.readers.wmt25 import is_wmt25_scores, read_wmt25_scores
from tests._wmt25_data import generate

FILES = generate(11)


def _line(**over):
    rec = {"language_pair": "en-de_DE", "domain": "news", "document_id": "d1",
           "metric_scores": {"XCOMET-XL": [0.5, 0.7], "GEMBA-ESA-CMDA": [80, 90]}}  # fmt: skip
    rec.update(over)
    return json.dumps(rec)


def _read(*lines, name="SYS.jsonl"):
    return read_wmt25_scores([(name, "\n".join(lines).encode())])


def test_read_as_and_counts():
    r = read_wmt25_scores(list(FILES.items()))
    assert r.read_as.startswith(
        "read as WMT25 automatic scores: 8 systems, 4 language pairs, 6 metrics ("
    )
    assert r.systems == tuple(sorted(n[:-6] for n in FILES))
    nulls = sum(
        v is None
        for data in FILES.values()
        for line in data.decode().splitlines()
        for vals in json.loads(line)["metric_scores"].values()
        for v in vals
    )
    assert int(r.coverage["nulls"].sum()) == nulls
    assert r.notes[0].startswith(f"{nulls:,} null values of")
    # nothing filled in: NaN where null
    assert int(r.paragraphs[list(r.metrics)].notna().sum().sum()) == int(r.coverage["values"].sum())


def test_folder_zip_gzip_and_several_files_read_alike(tmp_path):
    folder = tmp_path / "automatic_scores"
    folder.mkdir()
    for name, data in FILES.items():
        (folder / name).write_bytes(data)
    (folder / "README.md").write_text("not scores")
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as z:
        for name, data in FILES.items():
            z.writestr(f"automatic_scores/{name}", data)
    gz = [(n + ".gz", gzip.compress(d)) for n, d in FILES.items()]
    a = read_wmt25_scores([folder])
    b = read_wmt25_scores([("scores.zip", buf.getvalue())])
    c = read_wmt25_scores(gz)
    d = read_wmt25_scores([str(folder / n) for n in FILES])
    for other in (b, c, d):
        assert other.systems == a.systems and other.lps == a.lps
        assert other.read_as == a.read_as
    assert any("README.md" in n and "skipped" in n for n in a.notes)


def test_two_files_of_one_system_refused():
    data = _line().encode()
    with pytest.raises(StatsInputError, match="system 'A' is also given by"):
        read_wmt25_scores([("x/A.jsonl", data), ("y/A.jsonl", data)])


@pytest.mark.parametrize(
    ("line", "match"),
    [
        ("{not json", r"SYS.jsonl, line 2: not JSON"),
        ("[1, 2]", r"line 2: expected a JSON object .* got a list"),
        (_line(metric_scores=[1]), r"line 2, field metric_scores: expected a mapping"),
        (_line(metric_scores={"M": 0.5}), r"field metric_scores.M: expected a list"),
        (_line(metric_scores={"A": [1, 2], "B": [1]}), r"metric_scores.B: 1 values where metric_scores.A has 2"),
        (_line(metric_scores={"A": [1, "0.5"]}), r"metric_scores.A\[1\]: expected a number or null; got a string"),
        (_line(metric_scores={"A": [True]}), r"metric_scores.A\[0\]: expected a number or null; got a boolean"),
        (_line(metric_scores={"A": [[1]]}), r"metric_scores.A\[0\]: expected a number or null; got a list"),
        (_line(metric_scores={"A": [1e200]}), r"metric_scores.A\[0\]: 1e\+200 is too large"),
        (_line(metric_scores={"A": [10**400]}), r"metric_scores.A\[0\]"),
        ('{"language_pair": "en-de_DE", "domain": "n", "document_id": "d", "metric_scores": {"A": [NaN]}}', "not JSON: NaN is not a number JSON allows"),
        ('{"language_pair": "en-de_DE", "domain": "n", "document_id": "d", "metric_scores": {"A": [1e400]}}', r"metric_scores.A\[0\]: a number that overflows"),
        ('{"language_pair": "x", "language_pair": "y", "domain": "n", "document_id": "d", "metric_scores": {}}', "key 'language_pair' given twice"),
        (_line(domain=3), r"field domain: expected a non-empty string; got a number"),
        (json.dumps({"language_pair": "en-de_DE", "domain": "n", "metric_scores": {}}), "field document_id is missing"),
        (json.dumps({"doc_id": "en-de_DE_#_news_#_d1", "hypothesis": "text"}), "a WMT25 system output"),
    ],
)
def test_bad_input_is_one_line_naming_file_line_and_field(line, match):
    with pytest.raises(StatsInputError, match=match) as info:
        _read(_line(document_id="d0"), line)
    text = str(info.value)
    assert "\n" not in text and "SYS.jsonl" in text
    if "line" in match or "field" in match:
        assert "line 2" in text


def test_document_twice_and_empty_file():
    with pytest.raises(StatsInputError, match=r"document 'd1' \(en-de_DE, news\) is given twice \(lines 1 and 2\)"):
        _read(_line(), _line())
    with pytest.raises(StatsInputError, match="empty"):
        read_wmt25_scores([("A.jsonl", b"\n\n")])


def test_absent_metric_and_extra_field_noted():
    r = _read(
        _line(),
        _line(document_id="d2", metric_scores={"XCOMET-XL": [None, 0.3]}, extra=1),
    )
    assert any("GEMBA-ESA-CMDA absent on 1 of 2 documents" in n for n in r.notes)
    assert any("field 'extra' not read (1 lines)" in n for n in r.notes)
    assert any(n.startswith("1 null value of 6") for n in r.notes)
    frame = r.language_pair("en-de_DE")
    assert np.isnan(frame["GEMBA-ESA-CMDA"].iloc[2]) and np.isnan(frame["XCOMET-XL"].iloc[2])


def test_size_checked_before_reading(monkeypatch):
    from stats.readers import _limits

    monkeypatch.setattr(_limits, "MAX_BYTES", 100)
    with pytest.raises(StatsInputError, match="limit"):
        read_wmt25_scores([("A.jsonl", _line().encode() * 5)])


def test_detection():
    assert is_wmt25_scores(_line())
    assert not is_wmt25_scores('{"doc_id": "x", "hypothesis": "y"}')
    assert not is_wmt25_scores("SYSTEM\tSCORE")


def _both_paths(monkeypatch, files):
    from stats.readers import wmt25

    fast = read_wmt25_scores(files)
    monkeypatch.setattr(wmt25, "FAST_PATH", False)
    slow = read_wmt25_scores(files)
    monkeypatch.setattr(wmt25, "FAST_PATH", True)
    return fast, slow


@pytest.mark.parametrize(
    "lines",
    [
        None,  # the generated files
        [_line(), _line(document_id="d2", metric_scores={"XCOMET-XL": [None, 1], "chrF++": [3, 4.5]}, extra=[1])],
        [_line(metric_scores={}), _line(document_id="d2", metric_scores={"A": []})],
        [_line(metric_scores={"A": [None, None]}), _line(document_id="x", metric_scores={"A": [2**62, -0.0]})],
        ['{"language_pair": "en-de_DE", "domain": "n\\u00e9", "document_id": "d\\n1", "metric_scores": {"A": [1e-320, 5E+3]}}'],
        # lists opening with null then integers: pyarrow's inference loses those nulls
        [_line(metric_scores={"A": [None, 5, 6], "B": [None, None, 1]}),
         _line(document_id="d2", metric_scores={"A": [7, 8], "B": [1.5, None]})],
        [_line(metric_scores={"A": [None]}), _line(document_id="d2", metric_scores={"A": [7, 8]})],
        # "null" in a name, an extra field given as null
        [_line(document_id="null-1"), _line(document_id="d2", extra=None)],
    ],
)
def test_fast_path_reads_as_the_line_by_line_path(monkeypatch, lines):
    from stats.readers import wmt25

    files = list(FILES.items()) if lines is None else [("S.jsonl", "\n".join(lines).encode())]
    parsed = []
    monkeypatch.setattr(wmt25, "_parse_file", lambda *a, _f=wmt25._parse_file: parsed.append(1) or _f(*a))
    fast, slow = _both_paths(monkeypatch, files)
    if lines is None:  # the fast path took every generated file: only the slow run read lines
        assert len(parsed) == len(files)
    import pandas as pd

    pd.testing.assert_frame_equal(fast.paragraphs, slow.paragraphs)
    pd.testing.assert_frame_equal(fast.coverage, slow.coverage)
    assert (fast.metrics, fast.notes, fast.read_as) == (slow.metrics, slow.notes, slow.read_as)


def test_bad_bytes_and_utf16_take_the_checked_path():
    with pytest.raises(StatsInputError, match="A.jsonl"):
        read_wmt25_scores([("A.jsonl", _line().encode()[:-5] + b"\xff\xfe}}\n")])
    utf16 = read_wmt25_scores([("A.jsonl", _line().encode("utf-16"))])
    assert utf16.read_as == _read(_line(), name="A.jsonl").read_as


def test_fast_path_takes_lists_opening_with_null():
    """pyarrow's type inference loses the nulls that open a list of integers (its offsets
    then point past its values): the file is read again with the metrics typed, not line by
    line, and reads as the line-by-line path reads it."""
    from stats.readers import wmt25

    data = "\n".join([
        _line(metric_scores={"A": [None, 5, 6], "B": [0.5, 0.25, None]}),
        _line(document_id="d2", metric_scores={"A": [None, None], "B": [1, 2]}),
        _line(document_id="d3", metric_scores={"A": [7, 8], "B": [None, 2.5]}),
    ]).encode()
    fast = wmt25._arrow_columns(data, "S")
    assert fast is not None
    parsed, arrays = fast
    np.testing.assert_array_equal(arrays["A"], [np.nan, 5, 6, np.nan, np.nan, 7, 8])
    np.testing.assert_array_equal(arrays["B"], [0.5, 0.25, np.nan, 1, 2, np.nan, 2.5])
    assert list(parsed.n) == [3, 2, 2]


def test_metric_given_as_null_refused_on_both_paths(monkeypatch):
    lines = [_line(), _line(document_id="d2", metric_scores={"XCOMET-XL": None, "GEMBA-ESA-CMDA": [1, 2]})]
    for fast in (True, False):
        from stats.readers import wmt25

        monkeypatch.setattr(wmt25, "FAST_PATH", fast)
        with pytest.raises(StatsInputError, match=r"line 2, field metric_scores.XCOMET-XL: expected a list"):
            _read(*lines)


def test_document_numbers_in_order_of_first_appearance_small_and_huge_codes():
    # one combined key when it fits in 64 bits; step by step otherwise (same numbering)
    from stats.readers.wmt25 import _first_codes

    def plain(*codes):
        seen: dict = {}
        return [seen.setdefault(key, len(seen)) for key in zip(*codes, strict=True)]

    g = np.random.default_rng(3)
    small = [g.integers(0, k, 500) for k in (4, 3, 50)]
    huge = [c * (2**21) for c in small]  # the product of the sizes passes 2**62
    for codes in (small, huge):
        assert _first_codes(*codes).tolist() == plain(*codes)
