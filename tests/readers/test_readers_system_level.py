"""Tests of stats.readers.system_level: WMT system-level and wide CSV/TSV score files."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError
from stats.readers.system_level import (
    HUMAN,
    LanguagePairScores,
    SystemScores,
    detect_system_format,
    read_system_scores,
    read_wide_system_scores,
    read_wmt_system_level,
)

SYSTEMS = ["alpha", "beta", "gamma", "delta", "eps"]
HUMAN_SCORES = [0.41, 0.12, 0.3, -0.25, 0.02]
BLEU = [31.2, 27.5, 29.9, 18.4, 26.0]
TER = [52.0, 55.5, 53.1, 63.0, 56.2]


def wmt_lines(metric, values, lp="es-en", testset="newstest2012", systems=SYSTEMS):
    return [f"{metric}\t{lp}\t{testset}\t{s}\t{v}" for s, v in zip(systems, values, strict=True)]


HEADER = "METRIC\tLP\tTESTSET\tSYSTEM\tSCORE"


def make(lines, name="f.tsv"):
    return ("\n".join(lines) + "\n").encode("utf-8"), name


@pytest.fixture
def two_files(tmp_path):
    h = tmp_path / "human.tsv"
    m = tmp_path / "metrics.tsv"
    h.write_text("\n".join([HEADER, *wmt_lines("HUMAN", HUMAN_SCORES)]) + "\n")
    m.write_text("\n".join([HEADER, *wmt_lines("BLEU", BLEU), *wmt_lines("TER", TER)]) + "\n")
    return h, m


def test_wmt_two_files_merge_and_align(two_files):
    h, m = two_files
    data = read_system_scores(h, m)
    assert isinstance(data, SystemScores)
    assert data.language_pairs == ("es-en",)
    assert data.files == (str(h), str(m))
    assert list(data.scores.columns) == ["lp", "testset", "system", "metric", "score"]
    assert len(data.scores) == 15
    es = data.language_pair("es-en")
    assert isinstance(es, LanguagePairScores)
    assert list(es.metrics.columns) == ["BLEU", "TER"]
    assert list(es.metrics.index) == SYSTEMS
    assert es.human.tolist() == HUMAN_SCORES
    assert es.metrics["TER"].tolist() == TER
    assert es.n == 5 and es.testset == "newstest2012"
    # the same with the lp omitted (only one present)
    assert data.language_pair().lp == "es-en"


def test_one_combined_file_whitespace_separated_and_shuffled():
    rows = [*wmt_lines("BLEU", BLEU), *wmt_lines("HUMAN", HUMAN_SCORES)]
    rows = [r.replace("\t", "   ") for r in rows[::-1]]
    data = read_system_scores(make(["METRIC LP TESTSET SYSTEM SCORE", *rows])[0])
    es = data.language_pair("es-en")
    assert es.human.loc["beta"] == 0.12 and es.metrics.at["beta", "BLEU"] == 27.5


def test_headerless_wmt_file_and_case_insensitive_human():
    rows = [*wmt_lines("human", HUMAN_SCORES), *wmt_lines("BLEU", BLEU)]
    text = "\n".join(rows).encode()
    assert detect_system_format(text.decode()) == "wmt-noheader"
    frame = read_wmt_system_level(text, name="wmt12.sys.score")
    assert set(frame["metric"]) == {HUMAN, "BLEU"}
    assert frame["line"].tolist()[0] == 1


def test_wide_csv_with_lp_and_tuple_sources():
    csv = "system,human,BLEU,TER,lp\n" + "\n".join(
        f"{s},{h},{b},{t},de-en"
        for s, h, b, t in zip(SYSTEMS, HUMAN_SCORES, BLEU, TER, strict=True)
    )
    data = read_system_scores(("upload.csv", csv.encode()))
    assert data.files == ("upload.csv",)
    de = data.language_pair("de-en")
    assert list(de.metrics.columns) == ["BLEU", "TER"]
    assert de.human.tolist() == HUMAN_SCORES


def test_wide_tsv_without_lp_and_human_from_wmt_file(two_files):
    h, _ = two_files
    tsv = "System\tchrF\n" + "\n".join(
        f"{s}\t{v}" for s, v in zip(SYSTEMS, [55, 51, 53, 40, 50], strict=True)
    )
    wide = read_wide_system_scores(tsv.encode(), name="chrf.tsv")
    assert set(wide["lp"]) == {"all"}
    # merge a wide metric file with lp column into the WMT human file
    tsv_lp = "system\tlp\tchrF\n" + "\n".join(
        f"{s}\tes-en\t{v}" for s, v in zip(SYSTEMS, [55, 51, 53, 40, 50], strict=True)
    )
    data = read_system_scores(h, io.BytesIO(tsv_lp.encode()), names=["human.tsv", "chrf.tsv"])
    es = data.language_pair("es-en")  # unnamed test set joins newstest2012
    assert es.metrics["chrF"].tolist() == [55, 51, 53, 40, 50]


def test_several_lps_and_testsets():
    rows = [HEADER]
    for lp in ("es-en", "fr-en"):
        for ts in ("nt12", "nt13"):
            rows += wmt_lines("HUMAN", HUMAN_SCORES, lp=lp, testset=ts)
            rows += wmt_lines("BLEU", BLEU, lp=lp, testset=ts)
    data = read_system_scores(make(rows)[0])
    assert data.language_pairs == ("es-en", "fr-en")
    assert data.testsets("fr-en") == ("nt12", "nt13")
    with pytest.raises(StatsInputError, match="several test sets .*nt12, nt13.*choose one"):
        data.language_pair("fr-en")
    assert data.language_pair("fr-en", testset="nt13").testset == "nt13"
    with pytest.raises(StatsInputError, match="test set 'nt99' not found.*nt12, nt13"):
        data.language_pair("fr-en", testset="nt99")
    with pytest.raises(StatsInputError, match="2 language pairs \\(es-en, fr-en\\); choose one"):
        data.language_pair()


# ------------------------------------------------------------------------------------------
# Every error of the issue, each with its own message
# ------------------------------------------------------------------------------------------


def test_missing_file(tmp_path):
    with pytest.raises(StatsInputError, match=r"nope\.tsv: file not found"):
        read_system_scores(tmp_path / "nope.tsv")


def test_empty_file():
    with pytest.raises(StatsInputError, match="empty.tsv: file is empty"):
        read_system_scores(b"  \n\n", names=["empty.tsv"])


def test_undecodable_bytes():
    data = (HEADER + "\nBLEU\tes-en\tnt\tsyst\xe8me\t1.0\n").encode("latin-1")
    with pytest.raises(StatsInputError, match="bad.tsv, line 2, byte .*not valid UTF-8"):
        read_system_scores(data, names=["bad.tsv"])


def test_missing_header_column():
    data = b"METRIC\tLP\tTESTSET\tSYSTEM\nBLEU\tes-en\tnt\ta\n"
    with pytest.raises(StatsInputError, match="h.tsv, line 1: missing header column\\(s\\) SCORE"):
        read_system_scores(data, names=["h.tsv"])


def test_unrecognised_header():
    with pytest.raises(StatsInputError, match="x.csv, line 1: unrecognised header"):
        read_system_scores(b"name,value\na,1\n", names=["x.csv"])


def test_wrong_field_count():
    rows = [HEADER, *wmt_lines("BLEU", BLEU), "BLEU\tes-en\tnt12\tzeta"]
    with pytest.raises(StatsInputError, match="m.tsv, line 7: expected 5 fields"):
        read_system_scores(make(rows)[0], names=["m.tsv"])


@pytest.mark.parametrize(
    ("value", "reason"),
    [
        ("abc", "'abc' is not a number"),
        ("nan", "score is missing or NaN"),
        ("-inf", "score is infinite"),
    ],
)
def test_bad_score(value, reason):
    rows = [HEADER, *wmt_lines("BLEU", BLEU)]
    rows[3] = rows[3].rsplit("\t", 1)[0] + "\t" + value
    with pytest.raises(StatsInputError, match=f"m.tsv, line 4, column SCORE: {reason}"):
        read_system_scores(make(rows)[0], names=["m.tsv"])


def test_bad_score_in_wide_file_names_column():
    csv = b"system,human,BLEU\na,1,2\nb,2,x\n"
    with pytest.raises(StatsInputError, match="w.csv, line 3, column BLEU: 'x' is not a number"):
        read_system_scores(csv, names=["w.csv"])


def test_duplicate_row_within_a_file():
    rows = [HEADER, *wmt_lines("BLEU", BLEU), wmt_lines("BLEU", BLEU)[2]]
    with pytest.raises(
        StatsInputError,
        match="duplicate row for METRIC=BLEU LP=es-en TESTSET=newstest2012 SYSTEM=gamma: "
        "m.tsv, line 4 and m.tsv, line 7",
    ):
        read_system_scores(make(rows)[0], names=["m.tsv"])


def test_duplicate_row_across_files():
    h = make([HEADER, *wmt_lines("HUMAN", HUMAN_SCORES)])[0]
    both = make([HEADER, *wmt_lines("BLEU", BLEU), *wmt_lines("HUMAN", HUMAN_SCORES)])[0]
    with pytest.raises(StatsInputError, match="METRIC=HUMAN .*h.tsv, line 2 and all.tsv, line 7"):
        read_system_scores(h, both, names=["h.tsv", "all.tsv"])


def test_duplicate_system_in_wide_file():
    csv = b"system,human,BLEU\na,1,2\nb,2,3\na,3,4\n"
    with pytest.raises(StatsInputError, match="w.csv, lines 2 and 4: system 'a' appears twice"):
        read_system_scores(csv, names=["w.csv"])


def test_metric_score_without_human_score():
    h = make([HEADER, *wmt_lines("HUMAN", HUMAN_SCORES[:4], systems=SYSTEMS[:4])])[0]
    m = make([HEADER, *wmt_lines("BLEU", BLEU)])[0]
    data = read_system_scores(h, m, names=["h.tsv", "m.tsv"])
    with pytest.raises(
        StatsInputError, match="system\\(s\\) with a metric score but no human score: eps .*m.tsv"
    ):
        data.language_pair("es-en")


def test_human_score_without_metric_score():
    h = make([HEADER, *wmt_lines("HUMAN", HUMAN_SCORES)])[0]
    m = make([HEADER, *wmt_lines("BLEU", BLEU), *wmt_lines("TER", TER[:3], systems=SYSTEMS[:3])])[0]
    data = read_system_scores(h, m, names=["h.tsv", "m.tsv"])
    with pytest.raises(StatsInputError, match="with a human score but no TER score: delta, eps"):
        data.language_pair("es-en")


def test_absent_language_pair_lists_present(two_files):
    data = read_system_scores(*two_files)
    with pytest.raises(StatsInputError, match="language pair 'de-en' not found .*present: es-en"):
        data.language_pair("de-en")


def test_fewer_than_four_systems():
    s3 = SYSTEMS[:3]
    rows = [HEADER, *wmt_lines("HUMAN", HUMAN_SCORES[:3], systems=s3)]
    rows += wmt_lines("BLEU", BLEU[:3], systems=s3)
    data = read_system_scores(make(rows)[0])
    with pytest.raises(StatsInputError, match="only 3 systems .*at least 4 .*n - 3 degrees"):
        data.language_pair("es-en")


def test_no_human_scores_at_all(two_files):
    _, m = two_files
    with pytest.raises(StatsInputError, match="no human scores in .*metrics.tsv"):
        read_system_scores(m).language_pair("es-en")


def test_only_human_scores(two_files):
    h, _ = two_files
    with pytest.raises(StatsInputError, match="no metric scores"):
        read_system_scores(h).language_pair("es-en")


def test_no_source_and_names_mismatch():
    with pytest.raises(StatsInputError, match="no score file"):
        read_system_scores()
    with pytest.raises(StatsInputError, match="one name per source"):
        read_system_scores(b"x", names=["a", "b"])


def test_empty_system_name_in_wide_file():
    with pytest.raises(StatsInputError, match="w.csv, line 3, column system: empty system name"):
        read_system_scores(b"system,human,BLEU\na,1,2\n,2,3\n", names=["w.csv"])


def test_header_only():
    with pytest.raises(StatsInputError, match="header but no data rows"):
        read_system_scores((HEADER + "\n").encode(), names=["h.tsv"])


def test_wide_file_passed_to_wmt_reader():
    with pytest.raises(StatsInputError, match="looks like a wide table"):
        read_wmt_system_level(b"system,human,BLEU\na,1,2\n", name="w.csv")


def test_frame_is_tidy_and_numeric(two_files):
    data = read_system_scores(*two_files)
    assert data.frame["score"].dtype == np.float64
    assert set(data.frame.columns) == {"lp", "testset", "system", "metric", "score", "file", "line"}
    assert data.metric_names() == ("BLEU", "TER")
    pd.testing.assert_series_equal(
        data.scores.query("metric == 'TER'")["score"].reset_index(drop=True),
        pd.Series(TER, name="score", dtype=float),
    )


def test_constant_human_scores_name_the_language_pair_and_file(tmp_path):
    # the file and the language pair are named, not only "human scores are all equal"
    h = tmp_path / "human.tsv"
    m = tmp_path / "metrics.tsv"
    h.write_text("\n".join([HEADER, *wmt_lines("HUMAN", [0.5] * 5)]) + "\n")
    m.write_text("\n".join([HEADER, *wmt_lines("BLEU", BLEU)]) + "\n")
    with pytest.raises(StatsInputError) as info:
        read_system_scores(h, m).language_pair("es-en")
    assert str(info.value) == (
        f"language pair 'es-en', test set 'newstest2012': every human score is 0.5 (in {h}); "
        "no correlation with constant human scores is defined"
    )


def test_constant_human_scores_in_the_williams_cli(tmp_path, capsys):
    from stats.cli import main

    path = tmp_path / "flat.csv"
    path.write_text("system,human,BLEU,X\ns0,5,1,2\ns1,5,2,1\ns2,5,3,5\ns3,5,4,3\n")
    assert main(["williams", "--scores", str(path), "--format", "tsv"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"error: language pair 'all': every human score is 5 (in {path}); no correlation with "
        "constant human scores is defined\n"
    )


# ---- other kinds of input given as system-level scores (G report item 16c) ----

_SAMPLE = __import__("pathlib").Path(__file__).resolve().parents[2] / "sample_data"


@pytest.mark.parametrize(
    ("name", "match"),
    [
        # named as what the file looks like, not "line 2, column ANNOTATOR: 'ann01' is not a number"
        ("human/judgements.csv",
         r"judgements\.csv, line 1: this looks like human judgements \(SYSTEM SEGMENT ANNOTATOR "
         r"CRITERION SCORE; for `accuracy --human`\), not "
         r"system-level scores \(a 'system' column, a 'human' column and one column per metric, "
         r"or WMT METRIC LP TESTSET SYSTEM SCORE\)$"),
        ("human/judgements.tsv", r"judgements\.tsv, line 1: this looks like human judgements"),
        ("mt/segment_scores.tsv",
         r"missing header column\(s\) LP, TESTSET; .*; this looks like segment-level scores "
         r"\(SYSTEM SEGMENT SCORE \[METRIC\]; .*\), not system-level scores$"),
        ("mt/segment_scores_wide.csv",
         r"unrecognised header .*; this looks like segment-level scores \(one row per segment, "
         r"one column per system\), not system-level scores$"),
        ("qe/hter_long.txt", r"this looks like QE predictions \(METRIC SID SCORE RANK HUMAN; .*\), "
         r"not system-level scores$"),
        ("qe/hter_wide.csv", r"this looks like QE predictions \(sid, gold, one column per system; "
         r".*\), not system-level scores$"),
        ("qe/wmt/ALPHA-svr.txt", r"this looks like a WMT QE submission file .*, not system-level "
         r"scores$"),
        ("qe/wmt_gold.txt", r"this looks like QE gold labels .*, not system-level scores$"),
        ("qe/post_edit.tsv", r"this looks like a post-editing table .*, not system-level scores$"),
        ("mt/hyp/Aurora.txt", r"is this a plain-text file \(one segment per line\)\?"),
    ],
)
def test_wrong_kind_of_file_says_what_it_looks_like(name, match):
    with pytest.raises(StatsInputError, match=match) as info:
        read_system_scores(_SAMPLE / name)
    assert "\n" not in str(info.value)


def test_real_wide_and_wmt_files_get_no_wrong_file_hint():
    bad = "system,human,BLEU\na,0.1,3\nb,0.2,x\n"
    with pytest.raises(StatsInputError) as info:
        read_system_scores(("w.csv", bad.encode()))
    assert str(info.value) == "w.csv, line 3, column BLEU: 'x' is not a number"
    data = read_system_scores(_SAMPLE / "metrics" / "human.tsv", _SAMPLE / "metrics" / "metrics.tsv")
    assert data.language_pairs == ("es-en", "de-en", "fr-en", "cs-en")
