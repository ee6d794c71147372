"""The meta-evaluation readers (stats.readers.meta) parse a plain file from its bytes
(``stats.readers._arrow.plain_bytes``) without decoding it: long text, wide CSV, MTME score
files and WMT segment files give what the decoded path gives (the same content after a UTF-8
byte-order mark is not plain) and what the line-by-line reader gives: the same scores, items,
lines and read-as lines, and the same message for every refusal. Blocks are made tiny so that
small files span many (names first seen in a later block keep their order)."""

from __future__ import annotations

import codecs
from pathlib import Path

import numpy as np
import pytest

from stats import StatsInputError
from stats.readers import _meta_text
from stats.readers._arrow import plain_bytes
from stats.readers.meta import read_meta_eval

BOM = codecs.BOM_UTF8


@pytest.fixture(autouse=True)
def tiny_blocks(monkeypatch):
    monkeypatch.setattr(_meta_text, "LARGE_BLOCK", 256)


def _everything(data) -> list:
    out = [data.read_as, data.files]
    for lp, pair in data.pairs.items():
        out.append((lp, list(pair.items or ()), sorted(pair.references)))
        for kind in ("gold", "metrics"):
            for level in ("seg", "sys"):
                for name, sc in getattr(pair, kind)[level].items():
                    out.append((lp, kind, level, name, sc.file, dict(sc.lines)))
                    for system, values in sc.values.items():
                        out.append((system, np.asarray(values, dtype=float).tobytes()))
    return out


def _read(sources, monkeypatch=None, careful=False):
    if careful:
        monkeypatch.setattr(_meta_text, "_long_rows_fast", lambda *a, **k: None)
        monkeypatch.setattr(_meta_text, "_wide_rows_fast", lambda *a, **k: None)
    try:
        return _everything(read_meta_eval(*sources))
    except StatsInputError as exc:
        return str(exc)


def _three_ways(monkeypatch, files: list[tuple[str, bytes]], plain=True):
    """Plain bytes, the same after a byte-order mark, and line by line: all equal."""
    if plain:
        assert all(plain_bytes(b, careful=b'"#') for _, b in files)
    fast = _read(files)
    with_bom = _read([(n, BOM + b) for n, b in files])
    careful = _read(files, monkeypatch, careful=True)
    assert fast == with_bom == careful
    return fast


def _long(rows: int = 60, seed: int = 0, header: bool = True, lps=("cs-en", "en-de")) -> str:
    rng = np.random.default_rng(seed)
    lines = ["METRIC\tLP\tTESTSET\tSYSTEM\tSEGMENT\tSCORE"] if header else []
    for i in range(rows):
        for lp in lps:
            for s in ("S1", "S2", "Human-A.0"):
                gold = "None" if rng.random() < 0.1 else f"{rng.normal(60, 20):.1f}"
                lines.append(f"HUMAN:da\t{lp}\tts{i % 2}\t{s}\t{i}\t{gold}")
                lines.append(f"BLEU-refA\t{lp}\tts{i % 2}\t{s}\t{i}\t{rng.normal():.17g}")
                lines.append(f"human\t{lp}\tts{i % 2}\t{s}\t{i}\t{int(rng.integers(0, 100))}")
    return "\n".join(lines) + "\n"


def _wide(rows: int = 80, seed: int = 1, columns=("human", "BLEU", "human:mqm", "COMET")) -> str:
    rng = np.random.default_rng(seed)
    lines = [",".join(["lp", "system", "segment", *columns])]
    for i in range(rows):
        for lp in ("en-de", "zh-en"):
            for s in ("A", "B", "refB"):
                cells = [
                    ("NA" if rng.random() < 0.1 else f"{rng.random():.6f}")
                    if c.lower().startswith("human")
                    else repr(rng.normal())
                    for c in columns
                ]
                lines.append(",".join([lp, s, str(i // 2 + 1) + "abc"[i % 2], *cells]))
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("header", [True, False])
def test_long_plain_equals_decoded_and_line_by_line(monkeypatch, header):
    got = _three_ways(monkeypatch, [("a.tsv", _long(header=header).encode())])
    assert isinstance(got, list) and "long text" in got[0]


def test_wide_plain_equals_decoded_and_line_by_line(monkeypatch):
    got = _three_ways(monkeypatch, [("w.csv", _wide().encode())])
    assert isinstance(got, list) and "wide CSV" in got[0]


def test_wide_two_columns_of_one_scorer_are_refused_alike(monkeypatch):
    # "human" and "HUMAN:human" name one scorer: a second score for each cell
    got = _three_ways(monkeypatch, [("w.csv", _wide(columns=("human", "HUMAN:human")).encode())])
    assert isinstance(got, str) and "line 2: a second score for human" in got


def test_wide_metric_and_gold_of_one_name_are_two_scorers(monkeypatch):
    got = _three_ways(monkeypatch, [("w.csv", _wide(columns=("BLEU", "human:BLEU")).encode())])
    assert isinstance(got, list)


@pytest.mark.parametrize("kind", ["wide", "long"])
@pytest.mark.parametrize("where", [5, 150])
def test_a_row_given_twice_is_named_alike(monkeypatch, kind, where):
    text = _wide() if kind == "wide" else _long()
    lines = text.splitlines()
    lines.insert(where + 2, lines[where])
    got = _three_ways(
        monkeypatch, [("f.csv" if kind == "wide" else "f.tsv", ("\n".join(lines) + "\n").encode())]
    )
    assert isinstance(got, str) and f"line {where + 3}: a second score" in got
    assert f"line {where + 1} has the first" in got


@pytest.mark.parametrize("kind", ["wide", "long"])
def test_a_cell_given_again_in_another_file_is_named_alike(monkeypatch, kind):
    text = _wide() if kind == "wide" else _long()
    name = "f.csv" if kind == "wide" else "f.tsv"
    lines = text.splitlines()
    again = "\n".join([lines[0], lines[1] if kind == "long" else lines[200], *lines[300:303]])
    got = _three_ways(monkeypatch, [(name, text.encode()), ("g" + name, (again + "\n").encode())])
    assert isinstance(got, str) and "a second score" in got and f"({name}, line" in got


@pytest.mark.parametrize("kind", ["wide", "long"])
@pytest.mark.parametrize("bad", ["5_0", "0x10", "1e400", "inf", "None", "1e151", "", "0" * 450])
def test_a_bad_score_is_named_alike(monkeypatch, kind, bad):
    text = _wide() if kind == "wide" else _long()
    lines = text.splitlines()
    at = 332  # (a metric's line in both)
    cells = lines[at].split("," if kind == "wide" else "\t")
    cells[-1] = bad
    lines[at] = ("," if kind == "wide" else "\t").join(cells)
    name = "f.csv" if kind == "wide" else "f.tsv"
    got = _three_ways(monkeypatch, [(name, ("\n".join(lines) + "\n").encode())])
    assert isinstance(got, str) and f"line {at + 1}" in got


@pytest.mark.parametrize("kind", ["wide", "long"])
@pytest.mark.parametrize(
    "change", ["empty name", "blank line", "ragged", "space", "quote", "no newline at the end"]
)
def test_files_not_plain_for_the_parser_read_alike(monkeypatch, kind, change):
    sep = "," if kind == "wide" else "\t"
    lines = (_wide() if kind == "wide" else _long()).splitlines()
    at = 250
    cells = lines[at].split(sep)
    if change == "empty name":
        cells[1] = ""
    elif change == "ragged":
        cells.append("1")
    elif change == "space":
        cells[1] = f" {cells[1]} "
    elif change == "quote":
        cells[1] = f'"{cells[1]}"'
    lines[at] = sep.join(cells)
    if change == "blank line":
        lines.insert(at, "")
    text = "\n".join(lines) + ("" if change == "no newline at the end" else "\n")
    name = "f.csv" if kind == "wide" else "f.tsv"
    got = _three_ways(monkeypatch, [(name, text.encode())], plain=change not in ("quote",))
    if change == "empty name":
        column = "system" if kind == "wide" else "LP"
        assert got == f"{name}, line {at + 1}, column {column}: empty value"
    elif change == "ragged":
        fields = "7 fields as in the header" if kind == "wide" else "6 fields"
        assert got == f"{name}, line {at + 1}: expected {fields}, found {len(cells)}"
    else:
        layout = "wide CSV" if kind == "wide" else "long text"
        assert isinstance(got, list) and f"{name}: read as {layout}" in got[0], got
        # a quote is a character of a tab-separated name: "cs-en" in quotes is a third pair
        pairs = 3 if (kind, change) == ("long", "quote") else 2
        assert f"{pairs} LPs" in got[0], got[0]


def _mtme(tmp_path, lines_human: list[str], lines_metric: list[str]):
    (tmp_path / "human-scores").mkdir(parents=True)
    (tmp_path / "metric-scores" / "en-de").mkdir(parents=True)
    (tmp_path / "human-scores" / "en-de.mqm.seg.score").write_text("".join(lines_human))
    (tmp_path / "metric-scores" / "en-de" / "BLEU-refA.seg.score").write_text("".join(lines_metric))
    return tmp_path


@pytest.mark.parametrize("change", [None, "None metric", "bad", "three fields", "blank"])
def test_mtme_plain_files_read_as_decoded(tmp_path, monkeypatch, change):
    rng = np.random.default_rng(2)
    human = [f"S{k // 40}\t{'None' if k % 7 == 0 else rng.random()}\n" for k in range(120)]
    metric = [f"S{k // 40}\t{rng.random()!r}\n" for k in range(120)]
    if change == "None metric":
        metric[50] = "S1\tNone\n"
    elif change == "bad":
        metric[50] = "S1\t5_0\n"
    elif change == "three fields":
        human = [f"d{k % 3}\t{h}" for k, h in enumerate(human)]
    elif change == "blank":
        metric.insert(30, "\n")
    _mtme(tmp_path / "plain" / "m", human, metric)
    _mtme(
        tmp_path / "bom" / "m",
        ["\ufeff" + human[0], *human[1:]],
        ["\ufeff" + metric[0], *metric[1:]],
    )
    got = []
    for way in ("plain", "bom"):
        monkeypatch.chdir(tmp_path / way)
        got.append(_read([Path("m")]))
    assert got[0] == got[1]


def test_wmt_segment_file_plain_as_decoded(monkeypatch):
    rows = [
        f"BLEU\ten-de\tnt20\t{ref}\tsys{k % 3}\tdoc{k // 30}\t{k // 3 % 10 + 1}\t0.{k:03d}\n"
        for ref in ("nt20", "ntB20")
        for k in range(300)
    ]
    got = _three_ways(monkeypatch, [("BLEU.seg.score", "".join(rows).encode())])
    assert isinstance(got, list), got
    assert got[0].startswith("BLEU.seg.score: read as WMT segment scores (8 fields), 1 LP")
    data = read_meta_eval(("BLEU.seg.score", "".join(rows).encode()))
    assert list(data.pairs["en-de"].metrics["seg"]) == ["BLEU-nt20", "BLEU-ntB20"]
    assert data.systems("en-de") == ("sys0", "sys1", "sys2")
    assert len(data.pairs["en-de"].items) == 100  # 10 documents x 10 segments


def test_wmt_segment_file_read_by_either_parser_gives_the_same_order():
    # names first seen out of their sorted order: pandas' reader (a comment line sends the
    # file there) sorts a categorical's categories, pyarrow's keeps them as first seen
    rows = [
        f"{m}\t{lp}\tnt20\t{ref}\t{s}\tdoc{k // 4}\t{k % 4 + 1}\t{(k * 7 % 11) / 10}\n"
        for lp in ("zh-en", "en-de")
        for m in ("chrF", "BLEU")
        for ref in ("ntB20", "nt20")
        for s in ("sysZ", "sysA", "sysM")
        for k in range(12)
    ]
    typed = read_meta_eval(("BLEU.seg.score", "".join(rows).encode()))
    commented = read_meta_eval(("BLEU.seg.score", ("".join(rows) + "# end\n").encode()))
    assert _everything(typed) == _everything(commented)
    assert typed.language_pairs == ("zh-en", "en-de")
    assert list(typed.pairs["zh-en"].metrics["seg"]) == [
        "chrF-ntB20",
        "chrF-nt20",
        "BLEU-ntB20",
        "BLEU-nt20",
    ]
    assert typed.systems("zh-en") == ("sysZ", "sysA", "sysM")
