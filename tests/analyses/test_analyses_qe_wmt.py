"""stats.analyses.qe_wmt: files sorted by content, the level recognised, workflows."""

from __future__ import annotations

import pytest

from stats import StatsInputError
from stats.analyses.qe_wmt import (
    is_wmt_qe_input,
    load_qe_wmt,
    qe_wmt_analysis,
    sort_wmt_qe_files,
)
from tests._qe_wmt_data import generate


def test_sort_by_content_and_level():
    d = generate()
    ups = [
        ("gold.tsv", d["gold"].encode()),
        ("hall.tsv", d["exclude"].encode()),
        ("s.zip", d["zip"]),
        ("wg.tsv", d["word_gold"].encode()),
    ]
    ups += [(f"w{t}.txt", x.encode()) for t, x in d["word_submissions"].items()]
    f = sort_wmt_qe_files(ups)
    assert len(f.submissions) == 4 and f.gold[0] == "gold.tsv" and f.exclude[0] == "hall.tsv"
    assert f.word_gold[0] == "wg.tsv" and len(f.word_submissions) == 4
    assert f.sentence and f.word
    assert is_wmt_qe_input(ups) == "sentence"
    assert is_wmt_qe_input([ups[-1]]) == "word"
    assert is_wmt_qe_input(["sample_data/qe/hter_long.txt"]) is None
    with pytest.raises(StatsInputError, match="g2.tsv: a second gold file"):
        sort_wmt_qe_files(ups + [("g2.tsv", d["gold"].encode())])
    with pytest.raises(StatsInputError, match="x.txt: not a WMT QE submission"):
        sort_wmt_qe_files([("x.txt", b"hello world\n")])


def test_workflow_is_seeded():
    d = generate()
    inp = load_qe_wmt(
        [("s.zip", d["zip"])],
        gold=("gold.tsv", d["gold"].encode()),
        exclude=("hall.tsv", d["exclude"].encode()),
    )
    a = qe_wmt_analysis(inp, n_resamples=30, rng=4)
    b = qe_wmt_analysis(inp, n_resamples=30, rng=4)
    lp = a.result.language_pairs["zh-en"]
    assert lp.table.equals(b.result.language_pairs["zh-en"].table)
    assert lp.excluded == 3 and inp.exclude_file == "hall.tsv"
