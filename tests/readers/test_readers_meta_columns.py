"""Tests of the column-wise reading of stats.readers.meta's long and WMT segment formats
(stats/readers/_meta_rows.py): the fast reading gives exactly what the line-by-line reading
gives, duplicates are named by both lines either way, and errors keep their file, line and
column."""

from __future__ import annotations

import numpy as np
import pytest

from stats import StatsInputError
from stats.readers import _meta_text
from stats.readers._common import floats_by_rule, strict_float
from stats.readers.meta import read_meta_eval

LPS = ("cs-en", "en-de")
SYSTEMS = ("Sys1.10", "Sys2.20", "Human-A.0", "refB")


def _long(seed: int = 0, *, header: bool = True) -> str:
    """Long text as the docs write it: gold with missing marks (None, NA), two test sets,
    rows of language pairs, metrics and gold interleaved, hyphenated metric names."""
    rng = np.random.default_rng(seed)
    lines = ["METRIC\tLP\tTESTSET\tSYSTEM\tSEGMENT\tSCORE"] if header else []
    items = [("newstest2020", str(j)) for j in range(1, 7)] + [("tico", "1"), ("tico", "2")]
    for (ts, seg) in items:
        for lp in LPS:
            for s in SYSTEMS:
                gold = "None" if rng.random() < 0.15 else ("NA" if rng.random() < 0.05 else
                                                           f"{rng.normal(60, 20):.1f}")
                lines.append(f"HUMAN:da\t{lp}\t{ts}\t{s}\t{seg}\t{gold}")
                for m in ("BLEU-refA", "YiSi-2", "COMET-QE-src"):
                    lines.append(f"{m}\t{lp}\t{ts}\t{s}\t{seg}\t{rng.normal():.17g}")
                lines.append(f"HUMAN\t{lp}\t{ts}\t{s}\t{seg}\t{int(rng.integers(0, 100))}")
    return "\n".join(lines) + "\n"


def _everything(data) -> list:
    out = []
    for lp, pair in data.pairs.items():
        out.append((lp, list(pair.items), sorted(pair.references)))
        for kind in ("gold", "metrics"):
            for name, sc in getattr(pair, kind)["seg"].items():
                out.append((lp, kind, name, sc.file, dict(sc.lines)))
                for system, values in sc.values.items():
                    out.append((system, np.asarray(values, dtype=float).tobytes()))
    return out


@pytest.mark.parametrize("header", [True, False])
def test_fast_reading_equals_line_by_line(monkeypatch, header):
    text = _long(header=header)
    careful = _meta_text._long_rows_careful
    calls = []
    monkeypatch.setattr(_meta_text, "_long_rows_careful",
                        lambda *a, **k: calls.append(1) or careful(*a, **k))
    fast = read_meta_eval(("a.tsv", text.encode()))
    assert not calls  # a plain file is read by columns
    monkeypatch.setattr(_meta_text, "_long_rows_fast", lambda *a, **k: None)
    slow = read_meta_eval(("a.tsv", text.encode()))
    assert calls
    assert _everything(fast) == _everything(slow)
    assert fast.read_as == slow.read_as
    t_fast, t_slow = fast.table("en-de", gold="da"), slow.table("en-de", gold="da")
    assert t_fast.systems == t_slow.systems == ("Sys1.10", "Sys2.20")
    np.testing.assert_array_equal(t_fast.gold, t_slow.gold)
    assert list(t_fast.metrics) == ["BLEU-refA", "YiSi-2", "COMET-QE-src"]


def test_values_are_those_of_the_file():
    text = "HUMAN\taa\tts\ts1\t1\t0.1\nM\taa\tts\ts1\t1\t1e-3\nHUMAN\taa\tts\ts1\t2\tNone\n" \
           "M\taa\tts\ts1\t2\t-2.5\nHUMAN\taa\tts\ts2\t2\t7\nM\taa\tts\ts2\t2\t3\n" \
           "HUMAN\taa\tts\ts2\t1\t8\nM\taa\tts\ts2\t1\t+.5\n"
    pair = read_meta_eval(("t.tsv", text.encode())).pairs["aa"]
    assert list(pair.items) == [("ts", "1"), ("ts", "2")]
    np.testing.assert_array_equal(pair.gold["seg"]["human"].values["s1"], [0.1, np.nan])
    np.testing.assert_array_equal(pair.gold["seg"]["human"].values["s2"], [8, 7])
    np.testing.assert_array_equal(pair.metrics["seg"]["M"].values["s1"], [1e-3, -2.5])
    np.testing.assert_array_equal(pair.metrics["seg"]["M"].values["s2"], [0.5, 3])
    assert pair.metrics["seg"]["M"].lines == {"s1": 2, "s2": 6}


@pytest.mark.parametrize("plain", [True, False])
def test_a_score_given_again_in_another_file_names_both_lines(plain):
    first = "HUMAN\taa\tts\ts1\t1\t1\nHUMAN\taa\tts\ts1\t2\t2\n"
    second = "M\taa\tts\ts1\t1\t1\nHUMAN\taa\tts\ts1\t2\t5\n" + ("" if plain else "# end\n")
    with pytest.raises(StatsInputError, match=r"^b\.tsv, line 2: a second score for human, "
                       r"system 's1', segment '2' \(a\.tsv, line 2 has the first\)$"):
        read_meta_eval(("a.tsv", first.encode()), ("b.tsv", second.encode()))


@pytest.mark.parametrize("plain", [True, False])
def test_a_score_given_twice_in_one_file_names_both_lines(plain):
    text = ("M\taa\tts\ts1\t1\t1\nM\taa\tts\ts1\t2\t1\nM\taa\tts\ts2\t1\t1\n"
            "M\taa\tts\ts1\t2\t3\n" + ("" if plain else "x\n"))
    with pytest.raises(StatsInputError, match=r"^t\.tsv, line 4: a second score for M, system "
                       r"'s1', segment '2' \(t\.tsv, line 2 has the first\)$"):
        read_meta_eval(("t.tsv", text.encode()))


@pytest.mark.parametrize("bad, message", [
    ("5_0", r"t\.tsv, line 3: '5_0' is not a number"),
    ("0x10", r"t\.tsv, line 3: '0x10' is not a number"),
    ("1e400", r"t\.tsv, line 3: score '1e400' overflows a 64-bit float"),
    ("inf", r"t\.tsv, line 3: score 'inf' is not finite"),
    ("None", r"t\.tsv, line 3: metric score is missing \('None'\)"),
    ("1e300", r"t\.tsv, line 3, column SCORE: 1e\+300 is too large"),
    ("0." + "0" * 400 + "1", r"t\.tsv, line 3: '0\.0000.*' is not a number"),
])
def test_a_bad_metric_score_is_named_by_line_as_before(bad, message):
    text = f"HUMAN\taa\tts\ts1\t1\t1\nM\taa\tts\ts2\t1\t1\nM\taa\tts\ts1\t1\t{bad}\n"
    with pytest.raises(StatsInputError, match=message):
        read_meta_eval(("t.tsv", text.encode()))


def test_floats_by_rule_is_strict_float_on_every_value():
    values = ["0.5", " -1 ", "+.5", "1.", "1e5", "5_0", "0x10", "\u0661", "1,5", "--1", "abc",
              "1e400", "nan", "inf", "0." + "0" * 400 + "1", ""]
    got = floats_by_rule(values)
    for v, g in zip(values, got, strict=True):
        try:
            want = strict_float(v)
        except ValueError:
            want = np.nan
        assert (np.isnan(g) and np.isnan(want)) or g == want, v


def test_wmt_segment_files_read_as_the_same_rows_in_long_format():
    """The WMT 8-field file and the long file holding the same rows give the same table."""
    rng = np.random.default_rng(3)
    wmt, long = [], ["METRIC\tLP\tTESTSET\tSYSTEM\tSEGMENT\tSCORE"]
    for lp in LPS:
        for s in SYSTEMS[:2]:
            for d in ("d1", "d2"):
                for g in ("1", "2", "3"):
                    v, h = rng.normal(), rng.normal()
                    for ref in ("newstest2020", "newstestB2020"):
                        wmt.append(f"BLEU\t{lp}\tnewstest2020\t{ref}\t{s}\t{d}\t{g}\t{v!r}")
                        long.append(f"BLEU-{ref}\t{lp}\tnewstest2020\t{s}\t{d}:{g}\t{v!r}")
                    long.append(f"HUMAN\t{lp}\tnewstest2020\t{s}\t{d}:{g}\t{h!r}")
    gold = "\n".join([long[0]] + [ln for ln in long if ln.startswith("HUMAN")]) + "\n"
    a = read_meta_eval(("BLEU.seg.score", ("\n".join(wmt) + "\n").encode()),
                       ("gold.tsv", gold.encode()))
    b = read_meta_eval(("all.tsv", ("\n".join(long) + "\n").encode()))
    for lp in LPS:
        assert list(a.pairs[lp].items) == list(b.pairs[lp].items)
        ta, tb = a.table(lp), b.table(lp)
        assert ta.systems == tb.systems
        np.testing.assert_array_equal(ta.gold, tb.gold)
        assert list(ta.metrics) == list(tb.metrics) == ["BLEU-newstest2020", "BLEU-newstestB2020"]
        for m in ta.metrics:
            np.testing.assert_array_equal(ta.metrics[m], tb.metrics[m])


@pytest.mark.parametrize(
    ("value", "match"),
    [("5_0", r"'5_0' is not a number"), ("0x10", r"'0x10' is not a number"),
     ("\u0661", r"is not a number"), ("\uff11", r"is not a number"),
     ("nan", r"metric score is missing \('nan'\)"), ("inf", r"score 'inf' is not finite"),
     ("1e400", r"overflows a 64-bit float"), ("0" * 450 + "1", r"is not a number"),
     ("1e151", r"column BLEU: 1e\+151 is too large")],
)
def test_wide_metric_column_read_as_numbers_keeps_the_number_rule(value, match):
    # the metric columns of a wide CSV are parsed as numbers first; what the rule refuses is
    # refused by the same message, naming the line
    data = ("lp,system,segment,human,BLEU\nen-de,A,1,0.1,0.2\nen-de,A,2,0.5,"
            f"{value}\nen-de,B,1,0.3,0.4\nen-de,B,2,0.5,0.6\n").encode()
    with pytest.raises(StatsInputError, match=r"^w\.csv, line 3" + ".*" + match):
        read_meta_eval(data, names=["w.csv"])
    ok = read_meta_eval(data.replace(value.encode(), b"+.5"), names=["w.csv"])
    assert ok.pairs["en-de"].metrics["seg"]["BLEU"].values["A"].tolist() == [0.2, 0.5]


@pytest.mark.parametrize("sep", ["\t", " "])
@pytest.mark.parametrize(
    ("value", "match"),
    [("5_0", r"'5_0' is not a number"), ("0x10", r"'0x10' is not a number"),
     ("\uff11", r"is not a number"), ("nan", r"metric score is missing \('nan'\)"),
     ("inf", r"score 'inf' is not finite"), ("1e400", r"overflows a 64-bit float"),
     ("0" * 450 + "1", r"is not a number"), ("1e151", r"column SCORE: 1e\+151 is too large")],
)
def test_long_score_column_read_as_numbers_keeps_the_number_rule(sep, value, match):
    rows = [("HUMAN", "0.1"), ("HUMAN", "0.2"), ("BLEU", "0.3"), ("BLEU", value)]
    data = (sep.join(["METRIC", "LP", "TESTSET", "SYSTEM", "SEGMENT", "SCORE"]) + "\n" + "".join(
        sep.join([m, "en-de", "t", "A", str(1 + i % 2), v]) + "\n" for i, (m, v) in enumerate(rows)
    )).encode()
    with pytest.raises(StatsInputError, match=r"^l\.tsv, line 5" + ".*" + match):
        read_meta_eval(data, names=["l.tsv"])
    ok = read_meta_eval(data.replace(value.encode(), b"1.e5"), names=["l.tsv"])
    assert ok.pairs["en-de"].metrics["seg"]["BLEU"].values["A"].tolist() == [0.3, 1e5]
