"""WMT metrics task segment-level files as published, as the segment scores of MT systems:
the workflow (stats.analyses.mt_systems) and ``python -m stats randomized --scores``.

Golden values: the files are parsed here independently with the standard library (csv, gzip),
each system's mean computed with ``statistics.fmean``, and the p-values compared with
:func:`stats.mt.randomized.pairwise_significance` on that independently built frame.
"""

from __future__ import annotations

import csv
import gzip
import io
import json
import statistics

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError
from stats.analyses import score_file_options, score_statistics, wmt_segment_scores
from stats.cli import main
from stats.mt.randomized import pairwise_significance
from stats.mt.sufficient import statistics_from_scores
from tests import _wmt_data as wmt


@pytest.fixture(scope="module")
def files():
    return wmt.segment_level_files()


def _independent(files, metric, lp, refset) -> pd.DataFrame:
    """The block's items x systems, parsed with csv (no header, whitespace or tab)."""
    rows = []
    for data in files.values():
        text = (gzip.decompress(data) if data[:2] == b"\x1f\x8b" else data).decode()
        for fields in csv.reader(io.StringIO(text), delimiter="\t" if "\t" in text else " "):
            if fields[0] == "METRIC":
                continue
            if (fields[0], fields[1], fields[3]) == (metric, lp, refset):
                rows.append((fields[4], f"{fields[5]}:{fields[6]}", float(fields[7])))
    frame = pd.DataFrame(rows, columns=["system", "item", "score"])
    wide = frame.pivot(index="item", columns="system", values="score")
    items = list(dict.fromkeys(frame["item"]))
    return wide.loc[items, list(dict.fromkeys(frame["system"]))]


@pytest.mark.parametrize(
    ("metric", "lp", "refset"),
    [("COMET", "cs-en", None), ("sentBLEU", "en-de", None), ("COMET", "en-de", "newstestB2020")],
)
def test_block_scores_equal_an_independent_parse(files, metric, lp, refset):
    archive = [("seg.zip", wmt.zip_bytes(files))]
    got = wmt_segment_scores(archive, metric=metric.lower(), lp=lp, refset=refset)
    want = _independent(files, metric, lp, refset or wmt.TESTSET)
    assert got.columns.name == metric
    assert list(got.columns) == list(want.columns)
    assert list(got.index) == list(want.index)  # items (DOCID, SEGID) in file order
    np.testing.assert_array_equal(got.to_numpy(), want.to_numpy())
    # the human translation is no system of the newstestB2020 block: it is that reference
    assert (wmt.HUMAN_TRANSLATION in got.columns) == (lp == "en-de" and refset is None)
    data = score_statistics(archive, metric=metric, lp=lp, refset=refset)
    means = [statistics.fmean(want[s]) for s in want.columns]  # stdlib golden means
    np.testing.assert_allclose(data.corpus_scores, means, rtol=0, atol=1e-15)
    assert data.segment_ids[:2] == ("doc0:1", "doc0:2") and data.n_segments == 15
    # which block the scores are, the default reference included
    block = {"lp": lp, "testset": wmt.TESTSET, "refset": refset or wmt.TESTSET}
    assert got.attrs["block"] == block and dict(data.block) == block
    assert dict(data.subset(list(data.systems[:2])).block) == block


def test_pvalues_equal_those_of_the_independent_frame(files):
    sources = [(n, b) for n, b in files.items()]  # two files, one of them gzipped
    data = score_statistics(sources, metric="COMET", lp="en-de")
    want = statistics_from_scores(_independent(files, "COMET", "en-de", wmt.TESTSET), label="COMET")
    for test in ("paired-bootstrap", "approximate-randomization"):
        got = pairwise_significance(data, test=test, n_resamples=200, rng=4)
        ref = pairwise_significance(want, test=test, n_resamples=200, rng=4)
        pd.testing.assert_frame_equal(got.pvalue, ref.pvalue)


def test_options_list_the_blocks(files, tmp_path):
    (tmp_path / "seg.tar.gz").write_bytes(wmt.tar_gz_bytes(files))
    options = score_file_options(tmp_path / "seg.tar.gz")
    assert options.wmt and options.metrics == ("COMET", "sentBLEU")
    assert options.lps("COMET") == ["cs-en", "en-de"]
    assert options.testsets("COMET", "en-de") == [wmt.TESTSET]
    assert options.refsets("COMET", "en-de", wmt.TESTSET) == ["newstest2020", "newstestB2020"]
    plain = score_file_options(("s.tsv", b"SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nB\t1\t0.4\n"))
    assert not plain.wmt and plain.metrics == ()


def test_a_directory_and_a_headerless_gzip_on_its_own(files, tmp_path):
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    # a renamed gzip is told by its magic bytes
    (tmp_path / "renamed.txt").write_bytes(files["sentBLEU.seg.score.gz"])
    one = score_statistics(tmp_path / "renamed.txt", lp="cs-en")
    assert one.label == "sentBLEU" and one.n_systems == len(wmt.MT_SYSTEMS)
    (tmp_path / "renamed.txt").unlink()
    both = score_statistics([tmp_path], metric="sentBLEU", lp="cs-en")
    np.testing.assert_array_equal(both.corpus_scores, one.corpus_scores)


def _drop_line(data: bytes, index: int) -> bytes:
    lines = data.decode().splitlines()
    del lines[index]
    return ("\n".join(lines) + "\n").encode()


@pytest.mark.parametrize(
    ("make", "kwargs", "match"),
    [
        (
            lambda f: [("C.seg", f["COMET.seg.score"])],
            {},
            r"^C\.seg, metric COMET: several "
            r"language pairs \(cs-en, en-de\); choose one with lp=XX-YY$",
        ),
        (
            lambda f: list(f.items()),
            {"lp": "cs-en"},
            r"several metrics \(sentBLEU, COMET\); "
            "choose one with metric=NAME$",
        ),
        (
            lambda f: [("C.seg", f["COMET.seg.score"])],
            {"lp": "fr-de"},
            r"language pair 'fr-de' not found; present: cs-en, en-de$",
        ),
        (
            lambda f: [("C.seg", f["COMET.seg.score"])],
            {"lp": "en-de", "refset": "newstestX"},
            r"reference 'newstestX' not found; present: newstest2020, newstestB2020$",
        ),
        (
            lambda f: [("C.seg", f["COMET.seg.score"])],
            {"lp": "en-de", "refset": "all"},
            "refset 'all' does not apply to segment scores",
        ),
        (
            lambda f: [("C.seg", f["COMET.seg.score"].replace(b" doc0 2 ", b" doc0 2 x", 1))],
            {},
            r"^C\.seg, line 3, column SCORE: 'x0\.\d+' is not a number$",
        ),
        (
            lambda f: [("C.seg", _drop_line(f["COMET.seg.score"], 5))],
            {"lp": "cs-en"},
            r"^C\.seg \(COMET, cs-en, newstest2020, reference newstest2020\): system 'Sys0\.100' "
            r"has no score for segment\(s\) doc0:5",
        ),
        (
            lambda f: [("a", f["COMET.seg.score"]), ("b", f["COMET.seg.score"])],
            {"lp": "cs-en"},
            r"^a, line 2 and b, line 2: system 'Sys0\.100', segment 'doc0:1' appears twice$",
        ),
        (
            lambda f: [
                ("C.seg", f["COMET.seg.score"]),
                ("x.tsv", b"SYSTEM SEGMENT SCORE\nA 1 2\n"),
            ],
            {},
            r"^x\.tsv, line 1: not a WMT metrics task segment-level file",
        ),
        (
            lambda f: [("s.tsv", b"SYSTEM SEGMENT SCORE\nA 1 2\nB 1 3\n")],
            {"lp": "cs-en"},
            r"^s\.tsv: lp only for WMT metrics task segment-level files",
        ),
    ],
)
def test_errors_name_the_file_and_line(files, make, kwargs, match):
    with pytest.raises(StatsInputError, match=match) as info:
        score_statistics(make(files), **kwargs)
    assert "\n" not in str(info.value)


def test_one_long_file_reads_as_before():
    text = b"SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nB\t1\t0.25\nA\t2\t0.75\nB\t2\t0.5\n"
    data = score_statistics(("s.tsv", text))
    assert data.systems == ("A", "B") and data.segment_ids == ("1", "2")
    np.testing.assert_array_equal(data.corpus_scores, [0.625, 0.375])


# ---- python -m stats randomized --scores ----


def _run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_reads_a_zip_of_published_files(files, tmp_path, capsys):
    archive = tmp_path / "seg.zip"
    archive.write_bytes(wmt.zip_bytes(files))
    argv = [
        "randomized",
        "--scores",
        str(archive),
        "--score-metric",
        "COMET",
        "--lp",
        "en-de",
        "--refset",
        "newstestB2020",
        "--resamples",
        "300",
        "--seed",
        "7",
    ]
    code, out, err = _run(argv, capsys)
    assert code == 0, err
    doc = json.loads(out)
    want = pairwise_significance(
        statistics_from_scores(
            _independent(files, "COMET", "en-de", "newstestB2020"), label="COMET"
        ),
        test="paired-bootstrap",
        n_resamples=300,
        rng=7,
    )
    assert doc["systems"] == list(want.systems) and doc["n_segments"] == 15
    assert doc["wmt_block"] == {"lp": "en-de", "testset": wmt.TESTSET, "refset": "newstestB2020"}
    for row in want.systems:
        for col in want.systems:
            p = want.pvalue.loc[row, col]
            assert doc["pvalues"][row][col] == (None if np.isnan(p) else p)
    # several files given one by one: the same block, the same bytes
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    argv[2:3] = [str(tmp_path / n) for n in files]
    code, again, err = _run(argv, capsys)
    assert code == 0, err
    assert again == out
    code, tsv, err = _run([*argv, "--format", "tsv"], capsys)
    assert code == 0, err
    assert tsv.splitlines()[0].endswith(
        f"n_segments=15 lp=en-de testset={wmt.TESTSET} refset=newstestB2020"
    )


@pytest.mark.parametrize(
    ("extra", "match"),
    [
        ([], "several language pairs (cs-en, en-de); choose one with --lp"),
        (["--lp", "en-de", "--refset", "nope"], "reference 'nope' not found"),
    ],
)
def test_cli_errors_one_line_exit_2(files, tmp_path, capsys, extra, match):
    path = tmp_path / "COMET.seg.score"
    path.write_bytes(files["COMET.seg.score"])
    code, out, err = _run(["randomized", "--scores", str(path), *extra], capsys)
    assert code == 2 and out == ""
    assert match in err and err.count("\n") == 1


def test_cli_wmt_options_need_scores(capsys):
    # --lp also names the target language of text outputs (sacreBLEU's tokenizer default);
    # a test set and a reference set only select blocks of WMT score files
    code, _, err = _run(
        ["randomized", "--ref", "r.txt", "--hyp", "a.txt", "b.txt", "--testset", "newstest"],
        capsys,
    )
    assert code == 2 and "--testset: only with --scores" in err
