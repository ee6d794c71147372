"""The work on a parsed file's columns runs on threads (:func:`stats.readers._arrow.in_threads`):
each reader that spreads it gives the same result, or refuses with the same message, as with
the columns worked one after the other. The files are generated, larger than one parse block
(several chunks per column), rows in random order; the refused ones carry their fault in the
last row, or in two columns at once."""

from __future__ import annotations

import threading
import time
import warnings
import zlib

import numpy as np
import pytest

from stats import StatsInputError
from stats.readers import (
    _arrow,
    _meta_text,
    _qe_plain,
    judgements,
    mqm,
    mqm_google,
    read_judgements,
    read_meta_eval,
    read_mqm,
    read_mqm_averages,
    read_post_edit,
    read_qe,
    read_segment_scores,
    read_wmt_scores,
    segments,
    wmt,
)
from tests.readers._same import assert_same_outcome
from tests.readers.test_readers_meta_plain import _everything

#: rows per generated file, in many parse blocks (:func:`tiny_blocks`)
ROWS = 3_000


@pytest.fixture(autouse=True)
def tiny_blocks(monkeypatch):
    """Parse blocks of 4 KiB: each column in many chunks, names first seen in later ones."""
    for module in (_arrow, _meta_text, segments, wmt):
        monkeypatch.setattr(module, "LARGE_BLOCK", 4096)


def test_in_threads_keeps_the_order_of_items():
    assert _arrow.in_threads(lambda x: x * x, range(50)) == [x * x for x in range(50)]
    assert _arrow.in_threads(str, []) == []
    assert _arrow.in_threads(str, [7]) == ["7"]


def test_in_threads_raises_the_first_items_exception_as_the_loop_would():
    """The second item fails at once, the first later: the first one's error is raised."""

    def fn(x):
        if x == 0:
            time.sleep(0.2)
            raise StatsInputError("first")
        if x == 1:
            raise StatsInputError("second")
        return x

    with pytest.raises(StatsInputError, match="^first$"):
        _arrow.in_threads(fn, [0, 1, 2])


def test_in_threads_runs_calls_at_once():
    """Two calls that each wait for the other finish: they run on two threads."""
    barrier = threading.Barrier(2, timeout=10)
    assert _arrow.in_threads(lambda x: (barrier.wait(), x)[1], [1, 2]) == [1, 2]


def test_in_threads_runs_each_call_in_the_callers_context():
    """A context variable set by the caller, and numpy's error state, hold in every call."""
    import contextvars

    var = contextvars.ContextVar("var", default="unset")
    var.set("set")
    with np.errstate(divide="raise"):
        got = _arrow.in_threads(lambda x: (var.get(), np.geterr()["divide"], x), [1, 2, 3])
    assert got == [("set", "raise", 1), ("set", "raise", 2), ("set", "raise", 3)]


def _serial(fn, items):
    return [fn(x) for x in items]


def _outcome(read, path):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            got = read(path)
        return _everything(got) if read is read_meta_eval else got
    except StatsInputError as exc:
        return str(exc)


def _write(path, head, rows, sep="\t"):
    lines = ([sep.join(head)] if head else []) + [sep.join(map(str, r)) for r in rows]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _ids(rng, rows=ROWS, systems=12):
    per = rows // systems
    order = rng.permutation(per * systems)
    system = np.repeat([f"Sys-{s:02d}" for s in range(systems)], per)[order]
    segment = np.tile(np.arange(1, per + 1), systems)[order]
    return system, segment


def _judgements(path, rng, fault):
    system, segment = _ids(rng)
    annotator = np.array([f"w{a:02d}" for a in range(40)])[rng.integers(0, 40, len(system))]
    criterion = np.array(["adequacy", "fluency"])[rng.integers(0, 2, len(system))]
    score = rng.integers(0, 101, len(system))
    rows = [list(r) for r in zip(system, segment, annotator, criterion, score, strict=True)]
    if fault == "last":
        rows[-1][3] = "beauty"
    elif fault == "two":
        rows[-1][3], rows[-2][2] = "beauty", " "
    return _write(path / "j.tsv", ["SYSTEM", "SEGMENT", "ANNOTATOR", "CRITERION", "SCORE"], rows)


def _long_scores(path, rng, fault):
    system, segment = _ids(rng)
    rows = [list(r) for r in zip(system, segment, rng.random(len(system)).round(6), strict=True)]
    if fault == "last":  # a (system, segment) given twice
        rows[-1][0], rows[-1][1] = rows[-2][0], rows[-2][1]
    elif fault == "two":
        rows[-1][0], rows[-2][1] = "", "x"
    return _write(path / "long.tsv", ["SYSTEM", "SEGMENT", "SCORE"], rows)


def _wide_scores(path, rng, fault):
    ids = rng.permutation(np.arange(1, ROWS // 4 + 1))
    rows = [[i, *rng.random(4).round(6)] for i in ids]
    if fault == "last":
        rows[-1][0] = rows[0][0]
    elif fault == "two":
        rows[-1][0], rows[-1][2] = rows[0][0], "inf"
    return _write(path / "wide.tsv", ["SEGMENT", "A", "B", "C", "D"], rows)


def _meta_long(path, rng, fault):
    system, segment = _ids(rng, ROWS // 2)
    n = len(system)
    rows = [[m, "en-de", "wmt23", s, g, v] for m, s, g, v in zip(
        np.repeat(["HUMAN", "BLEU"], n), np.tile(system, 2), np.tile(segment, 2),
        rng.random(2 * n).round(6), strict=True)]  # fmt: skip
    if fault == "last":
        rows[-1][5] = "x"
    elif fault == "two":
        rows[-1][3], rows[-1][4] = "", ""
    return _write(path / "long.tsv", ["METRIC", "LP", "TESTSET", "SYSTEM", "SEGMENT", "SCORE"],
                  rows)  # fmt: skip


def _meta_wide(path, rng, fault):
    system, segment = _ids(rng)
    rows = [["en-de", s, g, *rng.random(2).round(6)] for s, g in zip(system, segment, strict=True)]
    if fault == "last":
        rows[-1][1] = ""
    elif fault == "two":
        rows[-1][0], rows[-1][2] = "", ""
    return _write(path / "wide.csv", ["lp", "system", "segment", "human", "BLEU"], rows, sep=",")


def _wmt(path, rng, fault):
    system, segment = _ids(rng)
    rows = [
        [
            "sentBLEU",
            "en-de",
            "newstest2020",
            "newstest2020",
            s,
            f"doc{(g - 1) // 20}.en",
            g,
            v,
            "non-ensemble",
            "yes",
        ]
        for s, g, v in zip(system, segment, rng.random(len(system)).round(6), strict=True)
    ]
    if fault == "last":
        rows[-1][4] = "NA"
    elif fault == "two":
        rows[-1][4], rows[-1][5] = "NA", "null"
    return _write(path / "sentBLEU.seg.score", None, rows)


def _mqm(path, rng, fault):
    system, segment = _ids(rng)
    severity = np.array(["no-error", "Minor", "Major"])[rng.integers(0, 3, len(system))]
    rows = [
        [
            s,
            "doc1",
            g,
            g,
            f"rater{g % 6}",
            "Ein Satz .",
            "A sentence .",
            "no-error" if v == "no-error" else "Accuracy/Mistranslation",
            v,
        ]
        for s, g, v in zip(system, segment, severity, strict=True)
    ]
    if fault == "last":
        rows[-1][8] = "Huge"
    elif fault == "two":
        rows[-1][8], rows[-1][4] = "Huge", ""
    return _write(path / "mqm_newstest2020_ende.tsv",
                  ["system", "doc", "doc_id", "seg_id", "rater", "source", "target", "category",
                   "severity"], rows)  # fmt: skip


def _mqm_avg(path, rng, fault):
    system, segment = _ids(rng)
    rows = [
        [s, v, g]
        for s, v, g in zip(system, (-rng.random(len(system)) * 5).round(4), segment, strict=True)
    ]
    if fault == "last":
        rows[-1][1] = "x"
    elif fault == "two":
        rows[-1][0], rows[-1][2] = rows[-2][0], rows[-2][2]
    return _write(path / "mqm_newstest2020_ende.avg_seg_scores.tsv",
                  ["system", "mqm_avg_score", "seg_id"], rows, sep=" ")  # fmt: skip


def _qe_long(path, rng, fault):
    system, segment = _ids(rng)
    human = dict(zip(range(1, ROWS + 1), rng.random(ROWS).round(6), strict=True))
    rows = [
        [s, g, v, 1, human[g]]
        for s, g, v in zip(system, segment, rng.random(len(system)).round(6), strict=True)
    ]
    if fault == "last":
        rows[-1][2] = "x"
    elif fault == "two":
        rows[-1][2], rows[-1][4] = "x", "y"
    return _write(path / "qe.tsv", ["METRIC", "SID", "SCORE", "RANK", "HUMAN"], rows)


def _qe_wide(path, rng, fault):
    ids = rng.permutation(np.arange(1, ROWS + 1))
    rows = [[i, *rng.random(5).round(6)] for i in ids]
    if fault == "last":
        rows[-1][3] = "x"
    elif fault == "two":
        rows[-1][1], rows[-1][4] = "y", "x"
    return _write(path / "qe.csv", ["sid", "gold", "A", "B", "C", "D"], rows, sep=",")


def _post_edit(path, rng, fault):
    ids = rng.permutation(np.arange(1, ROWS + 1))
    rows = [[i, t, w] for i, t, w in zip(ids, (rng.random(ROWS) * 60).round(2),
                                         rng.integers(1, 40, ROWS), strict=True)]  # fmt: skip
    if fault == "last":
        rows[-1][2] = 0
    elif fault == "two":
        rows[-1][1], rows[-1][2] = "x", "y"
    return _write(path / "pe.tsv", ["SID", "TIME", "WORDS"], rows)


CASES = {
    "judgements": (_judgements, read_judgements),
    "segment scores long": (_long_scores, read_segment_scores),
    "segment scores wide": (_wide_scores, read_segment_scores),
    "meta-eval long": (_meta_long, read_meta_eval),
    "meta-eval wide": (_meta_wide, read_meta_eval),
    "wmt segment scores": (_wmt, read_wmt_scores),
    "MQM spans": (_mqm, read_mqm),
    "MQM averages": (_mqm_avg, read_mqm_averages),
    "QE long": (_qe_long, read_qe),
    "QE wide": (_qe_wide, read_qe),
    "post-edit": (_post_edit, read_post_edit),
}


@pytest.mark.parametrize("fault", ["none", "last", "two"])
@pytest.mark.parametrize("case", list(CASES))
def test_columns_on_threads_read_as_one_after_the_other(monkeypatch, tmp_path, case, fault):
    write, read = CASES[case]
    path = write(tmp_path, np.random.default_rng(zlib.crc32(f"{case} {fault}".encode())), fault)
    real = _arrow.in_threads
    modules = (_arrow, _meta_text, _qe_plain, judgements, mqm, mqm_google, segments, wmt)
    threaded = []

    def counting(fn, items):
        items = list(items)
        threaded.append(len(items))
        return real(fn, items)

    for module in modules:
        if hasattr(module, "in_threads"):
            monkeypatch.setattr(module, "in_threads", counting)
    typed_table, typed = _qe_plain.typed_table, []  # (columns parsed as their types)
    monkeypatch.setattr(_qe_plain, "typed_table",
                        lambda *a, **k: typed.append(typed_table(*a, **k)) or typed[-1])
    got = _outcome(read, path)
    for module in modules:
        if hasattr(module, "in_threads"):
            monkeypatch.setattr(module, "in_threads", _serial)
    expected = _outcome(read, path)
    assert_same_outcome(got, expected)
    if fault == "none":
        assert not isinstance(got, str), got
        # the column-wise path ran, on threads (or its columns came typed from the parser's)
        assert (threaded and max(threaded) >= 2) or any(t is not None for t in typed)
