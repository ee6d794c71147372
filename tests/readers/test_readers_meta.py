"""Tests of stats.readers.meta: MTME layout (directory, zip, tar.gz, uploads), long text, wide
CSV, several gold types, and one-line errors naming file and line."""

from __future__ import annotations

import io
import shutil
import tarfile
import warnings
import zipfile
from pathlib import Path

import numpy as np
import pytest

from stats import StatsInputError
from stats.readers.meta import read_meta_eval
from tests._meta_golden import DATA, SYSTEMS, write_mtme

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data" / "meta"


def check_same(t1, t2):
    assert t1.systems == t2.systems
    np.testing.assert_array_equal(t1.gold, t2.gold)
    assert set(t1.metrics) == set(t2.metrics)
    for m in t1.metrics:
        np.testing.assert_array_equal(t1.metrics[m], t2.metrics[m])


def test_sample_directory_zip_and_upload_agree():
    d = read_meta_eval(SAMPLE / "wmt-sample")
    z = read_meta_eval(SAMPLE / "wmt-sample.zip")
    u = read_meta_eval(("wmt-sample.zip", (SAMPLE / "wmt-sample.zip").read_bytes()))
    assert d.language_pairs == ("en-de", "zh-en")
    assert set(d.gold_names()) == {"mqm", "da"}
    t = d.table("en-de", gold="mqm")
    assert t.systems == ("Aurora", "Borealis", "Cirrus", "Delta", "Ember", "Fjord")
    assert t.gold.shape == (6, 200) and np.isnan(t.gold).any()
    assert len(t.metrics) == 5
    for other in (z, u):
        check_same(t, other.table("en-de", gold="MQM"))  # gold name case-insensitive


def test_tar_gz_upload(tmp_path):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        tf.add(SAMPLE / "wmt-sample", arcname="wmt-sample")
    t = read_meta_eval(("data.tar.gz", buf.getvalue())).table("zh-en", gold="da")
    check_same(t, read_meta_eval(SAMPLE / "wmt-sample").table("zh-en", gold="da"))


def test_wide_sample_equals_mtme_layout():
    w = read_meta_eval(SAMPLE / "en-de_wide.csv").table("en-de", gold="mqm")
    check_same(w, read_meta_eval(SAMPLE / "wmt-sample").table("en-de", gold="mqm"))


def test_several_gold_types_need_a_choice():
    data = read_meta_eval(SAMPLE / "wmt-sample")
    with pytest.raises(StatsInputError, match=r"several human score types \((da, mqm|mqm, da)\)"):
        data.table("en-de")
    with pytest.raises(StatsInputError, match="'xyz' not found; present"):
        data.table("en-de", gold="xyz")


def _long_text(metric, gold, *, header=True, sep="\t", human_name="HUMAN", lp="aa-bb"):
    lines = ["METRIC LP TESTSET SYSTEM SEGMENT SCORE".replace(" ", sep)] if header else []
    for name, values in ((human_name, gold), ("Metric-refA", metric)):
        for s, row in zip(SYSTEMS, values, strict=True):
            for j, v in enumerate(row):
                cell = "None" if np.isnan(v) else repr(float(v))
                lines.append(sep.join([name, lp, "ts", s, str(j + 1), cell]))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(("header", "sep"), [(True, "\t"), (False, "\t"), (True, " "), (False, "  ")])
def test_long_text_formats(header, sep):
    metric, gold = DATA["A"]
    t = read_meta_eval(("a.tsv", _long_text(metric, gold, header=header, sep=sep).encode())).table("aa-bb")
    assert t.gold_name == "human"
    np.testing.assert_array_equal(t.gold, gold)
    np.testing.assert_array_equal(t.metrics["Metric-refA"], metric)


def test_long_text_missing_spellings_and_separate_human_file():
    metric, gold = DATA["A"]
    text = _long_text(metric, gold, header=False)
    text = text.replace("\tNone\n", "\tNA\n", 3).replace("\tNone\n", "\t\n", 2)
    human = "".join(ln + "\n" for ln in text.splitlines() if ln.startswith("HUMAN"))
    metrics = "".join(ln + "\n" for ln in text.splitlines() if not ln.startswith("HUMAN"))
    t = read_meta_eval(("h.tsv", human.encode()), ("m.tsv", metrics.encode())).table("aa-bb")
    np.testing.assert_array_equal(t.gold, gold)
    # a human file of five columns (no METRIC)
    five = "".join("\t".join(ln.split("\t")[1:]) + "\n" for ln in human.splitlines())
    t5 = read_meta_eval(("h5.tsv", five.encode()), ("m.tsv", metrics.encode())).table("aa-bb")
    np.testing.assert_array_equal(t5.gold, gold)


def test_long_text_gold_types():
    metric, gold = DATA["A"]
    da_rows = [ln for ln in _long_text(metric, gold * 10, header=False, human_name="HUMAN:da").splitlines()
               if ln.startswith("HUMAN:da")]
    text = _long_text(metric, gold, human_name="HUMAN:mqm") + "\n".join(da_rows) + "\n"
    data = read_meta_eval(("g.tsv", text.encode()))
    assert data.gold_names() == ("mqm", "da")
    np.testing.assert_array_equal(data.table("aa-bb", gold="da").gold, gold * 10)
    with pytest.raises(StatsInputError, match="several human score types"):
        data.table("aa-bb")


def test_mtme_system_level_files_and_reference_system(tmp_path):
    metric, gold = DATA["A"]
    g_sys = np.array([1.0, 2.0, np.nan, 4.0, 3.0])
    m_sys = np.array([0.1, 0.3, 0.2, 0.5, 0.4])
    base = write_mtme(tmp_path, "aa-bb", gold={"mqm": g_sys}, metrics={"M-refA": m_sys}, level="sys")
    write_mtme(tmp_path, "aa-bb", gold={"mqm": gold}, metrics={"M-refA": metric})
    t = read_meta_eval(base).table("aa-bb", level="sys")
    assert t.systems == ("sysA", "sysB", "sysD", "sysE")  # sysC has no gold system score
    np.testing.assert_array_equal(t.gold_sys, g_sys[[0, 1, 3, 4]])
    # a system the metric uses as its reference and does not score is left out
    (base / "human-scores" / "aa-bb.mqm.seg.score").write_text(
        (base / "human-scores" / "aa-bb.mqm.seg.score").read_text()
        + "".join(f"refA\t{v}\n" for v in range(12))
    )
    t = read_meta_eval(base).table("aa-bb")
    assert "refA" not in t.systems and len(t.systems) == 5


# ---- bad input: one line naming file and line ----


def _mtme(tmp_path):
    metric, gold = DATA["A"]
    return write_mtme(tmp_path, "aa-bb", gold={"mqm": gold}, metrics={"M-refA": metric})


def test_mismatched_segment_count(tmp_path):
    base = _mtme(tmp_path)
    f = base / "metric-scores" / "aa-bb" / "M-refA.seg.score"
    lines = f.read_text().splitlines(keepends=True)
    f.write_text("".join(lines[:-1]))  # sysE loses its last segment
    with pytest.raises(StatsInputError, match=r"M-refA\.seg\.score, line 49: system 'sysE' has 11 segment scores"):
        read_meta_eval(base)


def test_system_without_human_score_left_out_with_a_note(tmp_path):
    # a system with metric scores but no human score (WMT's Human-A.0, a reference
    # scored as a system) is left out with a note naming it, not a refusal of the upload
    base = _mtme(tmp_path)
    f = base / "metric-scores" / "aa-bb" / "M-refA.seg.score"
    f.write_text(f.read_text() + "".join(f"ghost\t{v}\n" for v in range(12)))
    table = read_meta_eval(base).table("aa-bb")
    assert "ghost" not in table.systems
    assert any("'ghost'" in n or "ghost" in n and "no mqm human score" in n for n in table.notes)


def test_metric_missing_for_a_system(tmp_path):
    base = _mtme(tmp_path)
    f = base / "metric-scores" / "aa-bb" / "M-refA.seg.score"
    f.write_text("".join(f.read_text().splitlines(keepends=True)[:48]))
    with pytest.raises(StatsInputError, match=r"M-refA\.seg\.score: no scores for system\(s\) sysE"):
        read_meta_eval(base).table("aa-bb")


@pytest.mark.parametrize(
    ("line", "match"),
    [
        ("sysA\tNone\n", r"line 1: metric score is missing \('None'\)"),
        ("sysA\tabc\n", r"line 1: 'abc' is not a number"),
        ("sysA\t1\t2\t3\n", r"line 1: expected SYSTEM<TAB>SCORE, or DOMAIN<TAB>SYSTEM<TAB>SCORE"
         r" on every line .*found 4 fields"),
        ("sysA\tinf\n", r"line 1: score 'inf' is not finite"),
        ("sysA\t1e400\n", r"line 1: score '1e400' overflows a 64-bit float"),
        # the input boundary's bound (stats.readers._limits.MAX_ABS_VALUE) holds here too
        ("sysA\t-2e150\n", r"line 1, column SCORE: -2e\+150 is too large \(scores must lie "
         r"within \+-1e\+150"),
    ],
)
def test_bad_metric_lines(tmp_path, line, match):
    base = _mtme(tmp_path)
    f = base / "metric-scores" / "aa-bb" / "M-refA.seg.score"
    f.write_text(line + "".join(f.read_text().splitlines(keepends=True)[1:]))
    with pytest.raises(StatsInputError, match=r"M-refA\.seg\.score, " + match):
        read_meta_eval(base)


def test_bad_archives_and_names(tmp_path):
    with pytest.raises(StatsInputError, match="x.zip: a zip archive that cannot be read"):
        read_meta_eval(("x.zip", b"PK\x03\x04garbage"))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("readme.txt", "nothing here")
    with pytest.raises(StatsInputError, match="no MTME score files"):
        read_meta_eval(("empty.zip", buf.getvalue()))
    base = _mtme(tmp_path)
    shutil.copy(base / "human-scores" / "aa-bb.mqm.seg.score", base / "human-scores" / "bad.score")
    with pytest.raises(StatsInputError, match=r"bad\.score: human score file name must be LP\.NAME\.LEVEL\.score"):
        read_meta_eval(base)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("HUMAN aa ts s1 1 1\nM aa ts s1 1\n", r"t\.txt, line 2: expected 6 fields, found 5"),
        ("HUMAN aa ts s1 1 1\nM aa ts s1 1 x\n", r"t\.txt, line 2: 'x' is not a number"),
        ("HUMAN aa ts s1 1 1\nM aa ts s1 1 None\n", r"t\.txt, line 2: metric score is missing"),
        ("HUMAN aa ts s1 1 1e151\nM aa ts s1 1 1\n", r"t\.txt, line 1, column SCORE: 1e\+151 is too large"),
        ("HUMAN aa ts s1 1 1\nHUMAN aa ts s1 1 2\n", r"t\.txt, line 2: a second score for human"),
        ("METRIC LP SYSTEM SEGMENT SCORE\nM aa s1 1 1\n", r"t\.txt, line 1: missing header column\(s\) TESTSET"),
        ("HUMAN aa ts s1 1 1\nHUMAN aa ts s1 2 1\nM aa ts s1 1 1\n",
         r"t\.txt, line 3: metric M, system 's1' of aa has no score for segment\(s\) 2"),
    ],
)
def test_bad_long_text(text, match):
    with pytest.raises(StatsInputError, match=match):
        read_meta_eval(("t.txt", text.encode()))


def test_bad_wide_csv():
    text = "lp,system,segment,human,M\naa,s1,1,1,0.5\naa,s1,2,2\n"
    with pytest.raises(StatsInputError, match=r"w\.csv, line 3: expected 5 fields"):
        read_meta_eval(("w.csv", text.encode()))
    text = "lp,system,segment,human,M\naa,s1,1,NA,\n"
    with pytest.raises(StatsInputError, match=r"w\.csv, line 2: metric score is missing"):
        read_meta_eval(("w.csv", text.encode()))
    text = "lp,system,segment,human,M\naa,s1,1,1,3e200\n"
    with pytest.raises(StatsInputError, match=r"w\.csv, line 2, column M: 3e\+200 is too large"):
        read_meta_eval(("w.csv", text.encode()))


def test_unknown_language_pair():
    with pytest.raises(StatsInputError, match="language pair 'xx-yy' not found; present: en-de, zh-en"):
        read_meta_eval(SAMPLE / "wmt-sample").table("xx-yy", gold="mqm")


def test_human_translations_named_in_references_are_not_evaluated(tmp_path):
    base = _mtme(tmp_path)
    (base / "references").mkdir()
    (base / "references" / "aa-bb.sysE.txt").write_text("a reference\n")
    (base / "system-outputs" / "aa-bb").mkdir(parents=True)
    for s in SYSTEMS:
        (base / "system-outputs" / "aa-bb" / f"{s}.txt").write_text("output\n")
    t = read_meta_eval(base).table("aa-bb")
    assert t.systems == SYSTEMS[:4]


def test_metric_file_outside_a_language_pair_folder(tmp_path):
    base = _mtme(tmp_path)
    (base / "metric-scores" / "X-refA.seg.score").write_text("sysA\t1\n")
    with pytest.raises(StatsInputError, match="metric score files go in metric-scores/LP/"):
        read_meta_eval(base)


def test_meta_rows_factorize_counts_as_pandas_factorizes():
    # the counting path of _arrow.first_appearance_codes (keys below a few times the rows)
    # gives pandas.factorize's codes and uniques: order of first appearance
    import pandas as pd

    from stats.readers._arrow import first_appearance_codes

    rng = np.random.default_rng(5)
    for size, n in ((7, 50), (1000, 300), (10**6, 40)):  # the last one through pandas
        key = rng.integers(0, size, n)
        codes, uniques = first_appearance_codes(key, size)
        want_codes, want_uniques = pd.factorize(key)
        np.testing.assert_array_equal(codes, want_codes)
        np.testing.assert_array_equal(uniques, want_uniques)



def test_pair_codes_number_pairs_as_pandas_factorizes_their_keys():
    # _arrow.pair_codes: pairs numbered by the column whose codes fix the other's (a segment
    # id within one document, either way round) or else by the keys, always as
    # pandas.factorize numbers a * nb + b
    import pandas as pd

    from stats.readers._arrow import count_byte, pair_codes

    rng = np.random.default_rng(7)
    for trial in range(60):
        n, na, nb = int(rng.integers(1, 400)), int(rng.integers(1, 3000)), int(rng.integers(1, 3000))
        b = rng.integers(0, nb, n)
        a = rng.integers(0, na, n)
        if trial % 3 == 0:  # each b with one a
            a = (b * 7919) % na
        elif trial % 3 == 1:  # each a with one b
            b = (a * 31) % nb
        codes, keys = pair_codes(a, na, b, nb)
        want_codes, want_keys = pd.factorize(a * nb + b)
        np.testing.assert_array_equal(codes, want_codes)
        np.testing.assert_array_equal(keys, want_keys)
    data = bytes(rng.integers(0, 12, 3 * 2**20 + 5).astype(np.uint8))
    assert count_byte(data, b"\n") == data.count(b"\n")
    assert count_byte(data, b"\t") == data.count(b"\t")

@pytest.mark.parametrize(
    ("value", "which", "want"),
    [("None", "human", None), ("NA", "human", None), ("nan", "human", None),
     ("-0", "metric", -0.0), ("1.e5", "metric", 1e5), ("+.5", "human", 0.5),
     ("None", "metric", r"metric score is missing \('None'\)"),
     ("inf", "metric", r"score 'inf' is not finite"), ("5_0", "human", r"'5_0' is not a number"),
     ("0x10", "metric", r"'0x10' is not a number"), ("\uff11", "human", "'\uff11' is not a number")],
)
def test_mtme_score_files_read_by_columns_keep_the_number_rule(tmp_path, value, which, want):
    root = tmp_path / "mtme"
    (root / "human-scores").mkdir(parents=True)
    (root / "metric-scores" / "en-de").mkdir(parents=True)
    files = {"human": root / "human-scores" / "en-de.mqm.seg.score",
             "metric": root / "metric-scores" / "en-de" / "BLEU-refA.seg.score"}
    for kind, path in files.items():
        path.write_text(f"A\t0.1\nA\t{value if kind == which else '0.2'}\n B\t0.3\n B\t0.4\n")
    if isinstance(want, str):
        with pytest.raises(StatsInputError, match=r"seg\.score, line 2: " + want):
            read_meta_eval(root)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        pair = read_meta_eval(root).pairs["en-de"]
    scores = (pair.gold["seg"]["mqm"] if which == "human" else pair.metrics["seg"]["BLEU-refA"])
    got = scores.values["A"][1]
    assert (np.isnan(got) if want is None else got == want and str(got) == str(want))
    assert list(scores.values) == ["A", "B"] and scores.values["B"] == [0.3, 0.4]
