"""stats.readers.is_meta_eval_source: which uploads the segment-level reader takes (the
dashboard's Metrics vs humans page routes files by it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from stats.readers import is_meta_eval_source, read_meta_eval, read_system_scores

SAMPLES = Path(__file__).resolve().parents[2] / "sample_data"


@pytest.mark.parametrize(
    "path",
    ["meta/wmt-sample.zip", "meta/en-de_wide.csv", "meta/wmt-sample",
     "meta/wmt-sample/human-scores/en-de.mqm.seg.score"],
)  # fmt: skip
def test_segment_level_sources(path):
    p = SAMPLES / path
    assert is_meta_eval_source(p)
    if p.is_file():
        assert is_meta_eval_source((p.name, p.read_bytes()))


@pytest.mark.parametrize("path", ["metrics/human.tsv", "metrics/metrics.tsv", "metrics/es-en_wide.csv"])
def test_system_level_sources(path):
    p = SAMPLES / path
    assert not is_meta_eval_source((p.name, p.read_bytes()))
    read_system_scores(p)  # and the system-level reader takes them


@pytest.mark.parametrize(
    ("name", "text", "expected"),
    [
        ("long.tsv", "BLEU\ten-de\twmt23\tsysA\t1\t0.5\n", True),
        ("long.txt", "BLEU en-de wmt23 sysA 1 None\n", True),
        ("head.tsv", "METRIC\tLP\tTESTSET\tSYSTEM\tSEGMENT\tSCORE\nBLEU\ten-de\tt\ts\t1\t2\n", True),
        ("sys.tsv", "BLEU\ten-de\twmt23\tsysA\t0.5\n", False),
        ("sentence.txt", "the cat sat on the mat\n", False),
        ("tar.tar.gz", "", True),  # by its name: the archive reader reports what is wrong
        ("empty.txt", "", False),
    ],
)
def test_text_sources(name, text, expected):
    assert is_meta_eval_source((name, text.encode())) is expected


def test_archive_by_content_and_six_field_file_read():
    zipped = (SAMPLES / "meta" / "wmt-sample.zip").read_bytes()
    assert is_meta_eval_source(("upload", zipped))
    data = read_meta_eval(("long.tsv", b"BLEU\ten-de\tt\tA\t1\t0.5\nHUMAN\ten-de\tt\tA\t1\t3\n"))
    assert data.language_pairs == ("en-de",)
