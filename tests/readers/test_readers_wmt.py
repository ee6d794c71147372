"""Tests of the WMT metrics task readers (stats.readers.wmt, stats.readers._archives) on the
seeded fixtures of tests/_wmt_data.py: every format, gzip by magic bytes, archives and
directories as one set, and the bad input of each reader (file and line named)."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError
from stats.readers.system_level import HUMAN, read_system_scores
from stats.readers.wmt import (
    lp_from_name,
    read_da_system_scores,
    read_wmt_scores,
    select_refsets,
)
from tests import _wmt_data as W


@pytest.fixture(scope="module")
def fx(tmp_path_factory):
    return W.write_fixture(tmp_path_factory.mktemp("wmt"))


def _sorted(frame: pd.DataFrame) -> pd.DataFrame:
    cols = [c for c in ("lp", "testset", "refset", "system", "metric", "score") if c in frame]
    return frame[cols].sort_values(cols[:-1]).reset_index(drop=True)


def test_system_level_set_reads_every_score(fx):
    human, metrics = W.truth()
    data = read_system_scores(*fx["metrics"], *fx["human"])
    got = data.frame[data.frame["metric"] != HUMAN]
    want = metrics.assign(metric=metrics["metric"])
    pd.testing.assert_frame_equal(_sorted(got), _sorted(want), check_dtype=False)
    h = data.frame[data.frame["metric"] == HUMAN].set_index(["lp", "system"])["score"]
    np.testing.assert_array_equal(
        h.loc[list(zip(human.lp, human.system, strict=True))].to_numpy(), human.z
    )
    assert set(data.frame.loc[data.frame["metric"] == HUMAN, "refset"]) == {""}


def test_gzip_by_magic_bytes_not_name(fx, tmp_path):
    renamed = tmp_path / "BLEU.txt"  # gzipped content, no .gz in the name
    renamed.write_bytes(fx["metrics"][0].read_bytes())
    assert fx["metrics"][0].read_bytes()[:2] == b"\x1f\x8b"
    a = read_system_scores(renamed).frame
    b = read_system_scores(fx["metrics"][0]).frame
    pd.testing.assert_frame_equal(_sorted(a), _sorted(b))


@pytest.mark.parametrize("kind", ["zip", "tar", "dir"])
def test_archive_and_directory_read_as_one_set(fx, kind):
    whole = read_system_scores(*fx["metrics"], *fx["human"]).frame
    got = read_system_scores(fx[kind]).frame
    pd.testing.assert_frame_equal(_sorted(got), _sorted(whole))
    if kind == "zip":  # members named archive:path; README.md left out
        assert any(":wmt20/BLEU.sys.score.gz" in f for f in got["file"])


def test_upload_tuple_of_zip(fx):
    got = read_system_scores(("all.zip", fx["zip"].read_bytes())).frame
    assert set(got["metric"]) == {*W.METRICS, HUMAN}


def test_header_and_separator_optional(fx):
    human, metrics = W.truth()
    rows = metrics[metrics["metric"] == "TER"]
    plain = W._sys_text(rows, header=False, sep="\t").encode()
    spaced = W._sys_text(rows, header=True, sep="   ").encode()
    a = read_wmt_scores(plain, name="a").frame
    b = read_wmt_scores(spaced, name="b").frame
    pd.testing.assert_frame_equal(a.drop(columns="_line"), b.drop(columns="_line"))
    assert a["_line"].iloc[0] == 1 and b["_line"].iloc[0] == 2


def test_segment_level_item_is_doc_and_segment(fx):
    t = read_wmt_scores(fx["seg"])
    assert t.level == "seg"
    f = t.frame
    assert list(f.columns[:8]) == [
        "metric",
        "lp",
        "testset",
        "refset",
        "system",
        "docid",
        "segid",
        "score",
    ]
    assert set(f["ensemble"]) == {"non-ensemble"} and set(f["available"]) == {"yes"}
    # SEGID restarts per document: (docid, segid) is the item, 3 docs x 4 segments
    items = f[f["system"] == W.MT_SYSTEMS[0]][["docid", "segid"]]
    assert len(items.drop_duplicates()) == 12 and f["segid"].nunique() == 4
    assert f["_line"].tolist() == list(range(1, len(f) + 1))
    expected = [float(ln.split("\t")[7]) for ln in W.segment_level_text().splitlines()]
    np.testing.assert_array_equal(f["score"].to_numpy(), expected)


def test_line_numbers_with_blank_and_comment_lines():
    text = "# scores\nM\tcs-en\tt\tt\tA\td\t1\t0.5\n\nM\tcs-en\tt\tt\tA\td\t2\t0.25\n"
    f = read_wmt_scores(text.encode(), name="x").frame
    assert f["_line"].tolist() == [2, 4]


def test_document_level(fx):
    t = read_wmt_scores(fx["doc"])
    assert t.level == "doc" and len(t.frame) == 24 and t.frame["_line"].iloc[0] == 2


def test_da_system_scores_z_raw_and_lp(fx):
    human, _ = W.truth()
    path = fx["human"][1]  # ad-sys-scores-en-de.csv
    z = read_da_system_scores(path)
    raw = read_da_system_scores(path, human_score="raw")
    want = human[human["lp"] == "en-de"]
    np.testing.assert_array_equal(z["score"], want["z"])
    np.testing.assert_array_equal(raw["score"], want["raw"])
    assert set(z["lp"]) == {"en-de"}
    unnamed = read_da_system_scores(path.read_bytes(), name="da.csv", lp="de-en")
    assert set(unnamed["lp"]) == {"de-en"}
    data = read_system_scores(*fx["metrics"], *fx["human"], human_score="raw")
    h = data.frame[data.frame["metric"] == HUMAN]
    assert sorted(h["score"]) == sorted(human["raw"])


@pytest.mark.parametrize(
    ("name", "lp"),
    [
        ("ad-sys-scores-cs-en.csv", "cs-en"),
        ("x/DA-ps-en.csv.gz", "ps-en"),
        ("a.zip:dir/ad-seg-scores-en-zh.tsv", "en-zh"),
        ("scores.csv", None),
        ("newstest2020.cs-en.extra", None),
    ],
)
def test_lp_from_name(name, lp):
    assert lp_from_name(name) == lp


def test_select_refsets():
    refs = ["newstestB2020", "newstest2020", "", "newstest2020"]
    assert select_refsets(refs, "newstest2020", None, "x") == ["newstest2020"]
    assert select_refsets(refs, "newstest2020", "all", "x") == ["newstestB2020", "newstest2020"]
    assert select_refsets(refs, "newstest2020", "newstestB2020", "x") == ["newstestB2020"]
    assert select_refsets(["", ""], "t", None, "x") == [""]
    with pytest.raises(
        StatsInputError, match="x: reference 'nope' not found; present: newstestB2020"
    ):
        select_refsets(refs, "newstest2020", "nope", "x")
    with pytest.raises(StatsInputError, match="several references .*refset=NAME, or refset=all"):
        select_refsets(["a", "b"], "t", None, "x")


SEG_OK = "M\tcs-en\tt\tt\tA\td1\t1\t0.5\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (SEG_OK + "M\tcs-en\tt\tt\tA\td1\t2\t0.5\textra\n", r"x\.seg, line 2: expected 8 fields"),
        (SEG_OK + "M\tcs-en\tt\tt\tA\td1\t2\n", r"x\.seg, line 2: expected 8 fields .*found 7"),
        (
            SEG_OK + "M\tcs-en\tt\tt\tA\td1\t2\tabc\n",
            r"line 2, column SCORE: 'abc' is not a number",
        ),
        (
            SEG_OK + "M\tcs-en\tt\tt\tA\td1\t2\tnan\n",
            r"line 2, column SCORE: score is missing or NaN",
        ),
        (SEG_OK + "M\tcs-en\tt\tt\tA\td1\t2\tinf\n", r"line 2, column SCORE: score is infinite"),
        (SEG_OK + "M\tcs-en\tt\tt\t\td1\t2\t0.1\n", r"line 2, column SYSTEM: empty value"),
        (
            SEG_OK + "\n" + SEG_OK,
            r"x\.seg, lines 1 and 3: the same row twice \(METRIC=M .*SEGID=1\)",
        ),
        ("METRIC LP SYSTEM SCORE X Y\n" + SEG_OK, r"x\.seg, line 1: unrecognised header"),
        ("a b c d\n", r"x\.seg, line 1: 4 fields; a WMT metrics task score file has 6"),
        # a UTF-16 byte-order mark with nothing readable after it (the input boundary)
        (b"\xff\xfe", r"x\.seg: not valid UTF-8, and not UTF-16-LE text either"),
    ],
)
def test_bad_score_files(text, message):
    data = text if isinstance(text, bytes) else text.encode()
    with pytest.raises(StatsInputError, match=message):
        read_wmt_scores(data, name="x.seg")


def test_wrong_level_and_bad_gzip():
    with pytest.raises(
        StatsInputError, match=r"s, line 1: this is a segment-level file .*expected system-level"
    ):
        read_wmt_scores(SEG_OK.encode(), name="s", level="sys")
    with pytest.raises(StatsInputError, match=r"b\.gz: a gzip file that cannot be decompressed"):
        read_wmt_scores(gzip.compress(SEG_OK.encode())[:-8], name="b.gz")


def test_bad_utf8_inside_gzip_names_line():
    data = gzip.compress((SEG_OK + "M\tcs-en\tt\tt\tA\xff\td1\t2\t0.1\n").encode("latin-1"))
    with pytest.raises(StatsInputError, match=r"g, line 2, byte \d+: not valid UTF-8"):
        read_wmt_scores(data, name="g")


DA_OK = "RAW.SCR Z.SCR N SYS N.ALL\n70.1 0.1 600 A.1 800\n"


@pytest.mark.parametrize(
    ("text", "name", "message"),
    [
        (DA_OK + "71 0.2 600 B.2\n", "ad-cs-en.csv", r"ad-cs-en\.csv, line 3: expected 5 fields"),
        (
            DA_OK + "71 zz 600 B.2 900\n",
            "ad-cs-en.csv",
            r"line 3, column Z\.SCR: 'zz' is not a number",
        ),
        (
            DA_OK + "71 0.2 600 A.1 900\n",
            "ad-cs-en.csv",
            r"lines 2 and 3: system 'A\.1' appears twice",
        ),
        (DA_OK, "scores.csv", r"scores\.csv: no language pair; .*lp=XX-YY"),
        ("RAW.SCR Z.SCR N SYS N.ALL\n", "ad-cs-en.csv", r"header but no data rows"),
    ],
)
def test_bad_da_files(text, name, message):
    with pytest.raises(StatsInputError, match=message):
        read_da_system_scores(text.encode(), name=name)


def test_bad_sets(fx, tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.md").write_text("x")
    with pytest.raises(StatsInputError, match=r"empty: the directory holds no score file"):
        read_system_scores(empty)
    with pytest.raises(StatsInputError, match=r"z\.zip: the archive holds no score file"):
        read_system_scores(("z.zip", W.zip_bytes({})))
    with pytest.raises(StatsInputError, match=r"c\.zip: a zip archive that cannot be read"):
        read_system_scores(("c.zip", fx["zip"].read_bytes()[:200]))
    with pytest.raises(
        StatsInputError, match=r"sentBLEU\.seg\.score: segment-level scores; system-level"
    ):
        read_system_scores(fx["seg"])
    # the same score in two files of a set
    bleu = fx["metrics"][0]
    with pytest.raises(
        StatsInputError, match=r"duplicate row for METRIC=BLEU .*REFSET=newstest2020"
    ):
        read_system_scores(bleu, ("copy.gz", bleu.read_bytes()))


def test_directory_leaves_out_segment_and_document_files(fx, tmp_path):
    for path in [*fx["metrics"], *fx["human"], fx["seg"], fx["doc"]]:
        (tmp_path / path.name).write_bytes(path.read_bytes())
    got = read_system_scores(tmp_path).frame
    assert not any(f.endswith((".seg.score", ".doc.score")) for f in got["file"])
    assert set(got["metric"]) == {*W.METRICS, HUMAN}


def test_integer_scores_and_comment_only_file():
    f = read_wmt_scores(b"M cs-en t t A 1\nM cs-en t t B 0\n", name="i").frame
    assert f["score"].dtype == np.float64 and f["score"].tolist() == [1.0, 0.0]
    with pytest.raises(StatsInputError, match=r"c: file is empty \(only comments\)"):
        read_wmt_scores(b"# nothing here\n", name="c")


def test_published_system_level_files_are_told_from_mtme_data():
    from stats.readers import is_meta_eval_source
    from stats.readers.system_level import is_published_system_level

    files = W.system_level_files()
    archive = W.zip_bytes(files)
    # a zip is MTME data by its name; its content says it is published system-level files
    assert is_meta_eval_source(("W.zip", archive))
    assert is_published_system_level([("W.zip", archive)])
    assert is_published_system_level([("W.tar.gz", W.tar_gz_bytes(files))])
    assert is_published_system_level([("BLEU.sys.score.gz", files["BLEU.sys.score.gz"])])
    assert is_published_system_level(
        [("ad-sys-scores-cs-en.csv", files["ad-sys-scores-cs-en.csv"])]
    )
    assert not is_published_system_level([("x.seg.score", W.segment_level_text().encode())])
    assert not is_published_system_level(
        [Path(__file__).parents[1] / "sample_data" / "meta" / "wmt-sample.zip"]
    )
    assert not is_published_system_level([("bad.zip", b"PK\x03\x04 broken")])
