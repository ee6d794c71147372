"""The column-wise paths of the segment-level readers (a plain file parsed from its bytes by
pyarrow, names encoded once, integer ids as numbers) read what their careful paths read and
refuse what they refuse, with the same message: each generated file is read with the
column-wise path and with it switched off, and the results (or messages) compared. Files the
column-wise path does not take (a byte-order mark, CRLF, quotes, ``#``) are in the lists too:
they must come out the same either way."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError
from stats.readers import segments
from tests.readers._same import assert_same, assert_same_outcome


def _outcome(read, data: bytes):
    try:
        return read(data)
    except StatsInputError as exc:
        return str(exc)


def _two_ways(monkeypatch, read, data: bytes, module, fast: str):
    """``read(data)`` with ``module.fast`` and with it returning None (results or messages),
    and whether the column-wise path gave the first (or refused the file after its parse)."""
    real = getattr(module, fast)
    calls = []

    def spy(*args, **kwargs):
        try:
            out = real(*args, **kwargs)
        except StatsInputError:  # a refusal of the column-wise path (after its parse)
            calls.append(True)
            raise
        calls.append(out is not None)
        return out

    monkeypatch.setattr(module, fast, spy)
    got = _outcome(read, data)
    monkeypatch.setattr(module, fast, lambda *a, **k: None)
    expected = _outcome(read, data)
    monkeypatch.setattr(module, fast, real)
    return got, expected, any(calls)


def _table(head, rows, sep="\t", end="\n") -> bytes:
    lines = ([sep.join(head)] if head else []) + [sep.join(map(str, r)) for r in rows]
    return end.join(lines).encode("utf-8") + end.encode()


def _long_rows(systems=("A", "Sÿs-ü", "C"), segments_=range(1, 7), metric=None, seed=0):
    rng = np.random.default_rng(seed)
    rows = []
    for s in systems:
        for g in segments_:
            row = [s, g, f"{rng.random():.6f}"]
            rows.append(row + [metric] if metric else row)
    return rows


HEAD = ["SYSTEM", "SEGMENT", "SCORE"]


def _variants():
    """(id, bytes, whether the column-wise path takes it)."""
    out = []
    base = _long_rows()
    out.append(("base", _table(HEAD, base), True))
    out.append(("csv", _table(HEAD, base, ","), True))
    out.append(("lower case header", _table([h.lower() for h in HEAD], base), True))
    out.append(
        (
            "columns moved",
            _table(["SCORE", "SYSTEM", "SEGMENT"], [[r[2], r[0], r[1]] for r in base]),
            True,
        )
    )
    out.append(("headerless", _table(None, base), True))
    out.append(("headerless metric", _table(None, _long_rows(metric="chrF")), True))
    out.append(("metric", _table(HEAD + ["METRIC"], _long_rows(metric="BLEU")), True))
    two = _long_rows(metric="BLEU") + _long_rows(metric="chrF", seed=1)
    out.append(("two metrics", _table(HEAD + ["METRIC"], two), True))
    out.append(("extra column", _table(HEAD + ["NOTE"], [r + ["x y"] for r in base]), True))
    out.append(("ids not canonical", _table(HEAD, [[r[0], f"00{r[1]}", r[2]] for r in base]), True))
    out.append(("ids text", _table(HEAD, [[r[0], f"doc-{r[1]}", r[2]] for r in base]), True))
    out.append(
        (
            "ids negative, wide range",
            _table(HEAD, [[r[0], (r[1] - 3) * 10**12, r[2]] for r in base]),
            True,
        )
    )
    out.append(("ids out of order", _table(HEAD, [[r[0], 7 - r[1], r[2]] for r in base]), True))
    by_segment = sorted(base, key=lambda r: r[1])  # segment by segment, systems in order
    out.append(("segment by segment", _table(HEAD, by_segment), True))
    out.append(("segment by segment, one missing", _table(HEAD, by_segment[:-1]), None))
    shuffled = [base[i] for i in np.random.default_rng(2).permutation(len(base))]
    out.append(("rows shuffled", _table(HEAD, shuffled), True))
    turned = base[:6] + base[6:12][::-1] + base[12:]  # the second system's segments reversed
    out.append(("one system's segments reversed", _table(HEAD, turned), True))
    out.append(("padded names", _table(HEAD, [[f" {r[0]} ", r[1], r[2]] for r in base]), True))
    out.append(
        ("names with spaces", _table(HEAD, [[f"sys {r[0]}", r[1], r[2]] for r in base]), True)
    )
    out.append(
        (
            "padded names merge",
            _table(HEAD, [[r[0] + (" " if k % 2 else ""), r[1], r[2]] for k, r in enumerate(base)]),
            True,
        )
    )
    out.append(("bom", b"\xef\xbb\xbf" + _table(HEAD, base), False))
    out.append(("crlf", _table(HEAD, base, end="\r\n"), False))
    out.append(("quoted", _table(HEAD, [[f'"{r[0]}"', r[1], r[2]] for r in base], ","), False))
    out.append(("hash", _table(HEAD, [[f"{r[0]}#1", r[1], r[2]] for r in base]), False))
    for bad in ["x", "nan", "inf", "1e400", "1e151", "", "5_0", "1" * 401, " 0.5"]:
        rows = [list(r) for r in base]
        rows[-1][2] = bad
        out.append((f"last score {bad[:8]!r}", _table(HEAD, rows), None))
    for name, rows in [
        ("short last row", [list(r) for r in base[:-1]] + [base[-1][:2]]),
        ("long last row", [list(r) for r in base[:-1]] + [base[-1] + ["x"]]),
        ("blank system", [list(r) for r in base[:-1]] + [["", *base[-1][1:]]]),
        ("space system", [list(r) for r in base[:-1]] + [[" ", *base[-1][1:]]]),
        ("blank segment", [list(r) for r in base[:-1]] + [[base[-1][0], "", base[-1][2]]]),
        ("twice", [list(r) for r in base] + [list(base[3])]),
        ("missing segment", [list(r) for r in base[:-1]]),
    ]:
        out.append((name, _table(HEAD, rows), None))
    out.append(("blank line", _table(HEAD, base) + b"\n", False))
    out.append(
        ("blank line inside", _table(HEAD, base[:5]) + b"\n" + _table(None, base[5:]), False)
    )
    return out


@pytest.mark.parametrize(
    ("data", "taken"), [v[1:] for v in _variants()], ids=[v[0] for v in _variants()]
)
def test_long_segment_scores_columns_as_careful(monkeypatch, data, taken):
    def read(raw):
        return segments.read_segment_scores(raw, name="scores.tsv")

    got, expected, took = _two_ways(monkeypatch, read, data, segments, "_plain_long")
    assert_same_outcome(got, expected)
    assert taken is None or took == taken, (took, got)


@pytest.mark.parametrize(
    ("metric", "outcome"),
    [
        ("BLEU", (6, 3)),
        ("chrf", "lines 25 and 37: system 'A', segment '6' appears twice"),
        ("COMET", "metric 'COMET' not found in column METRIC; found BLEU, chrF"),
    ],
)
def test_long_segment_scores_metric_as_careful(monkeypatch, metric, outcome):
    rows = _long_rows(metric="BLEU") + _long_rows(metric="chrF", seed=1)
    rows[-1][0] = "A"  # a (system, segment) twice within chrF: named by its lines
    data = _table(HEAD + ["METRIC"], rows)

    def read(raw):
        return segments.read_segment_scores(raw, name="scores.tsv", metric=metric)

    got, expected, _ = _two_ways(monkeypatch, read, data, segments, "_plain_long")
    assert_same_outcome(got, expected)
    assert outcome in got if isinstance(outcome, str) else got.shape == outcome, got


def _wide_variants():
    rng = np.random.default_rng(3)
    values = rng.random((8, 3)).round(6)
    systems = ["A", "Sÿs-ü", "C"]

    def rows(ids):
        return [[i, *v] for i, v in zip(ids, values.tolist(), strict=True)]

    plain = [str(k) for k in range(1, 9)]
    out = [
        ("ids", _table(["SEGMENT", *systems], rows(plain)), True),
        ("ids csv", _table(["id", *systems], rows(plain), ","), True),
        ("no ids", _table(systems, values.tolist()), True),
        ("ids out of order", _table(["SEGMENT", *systems], rows(plain[::-1])), True),
        ("ids not canonical", _table(["SEGMENT", *systems], rows(["0" + i for i in plain])), None),
        ("ids text", _table(["SEGMENT", *systems], rows([f"s{i}" for i in plain])), None),
        ("ids twice", _table(["SEGMENT", *systems], rows(plain[:-1] + ["3"])), None),
        (
            "text id twice",
            _table(["SEGMENT", *systems], rows([f"s{i}" for i in plain[:-1]] + ["s3"])),
            None,
        ),
        ("bom", b"\xef\xbb\xbf" + _table(["SEGMENT", *systems], rows(plain)), False),
        ("crlf", _table(["SEGMENT", *systems], rows(plain), end="\r\n"), False),
        ("quoted", _table(["SEGMENT", '"A"', "B"], [r[:3] for r in rows(plain)], ","), False),
        ("system twice", _table(["SEGMENT", "A", "a"], [r[:3] for r in rows(plain)]), None),
        ("blank line", _table(["SEGMENT", *systems], rows(plain)) + b"\n", False),
    ]
    for bad in ["x", "nan", "-inf", "1e400", "1e151", "", "1" * 401, " 0.5"]:
        cells = rows(plain)
        cells[-1][2] = bad
        out.append((f"last score {bad[:8]!r}", _table(["SEGMENT", *systems], cells), None))
    cells = rows(plain)
    out.append(
        ("short last row", _table(["SEGMENT", *systems], cells[:-1] + [cells[-1][:3]]), None)
    )
    return out


@pytest.mark.parametrize(
    ("data", "taken"), [v[1:] for v in _wide_variants()], ids=[v[0] for v in _wide_variants()]
)
def test_wide_segment_scores_columns_as_careful(monkeypatch, data, taken):
    def read(raw):
        return segments.read_segment_scores(raw, name="wide.tsv")

    got, expected, took = _two_ways(monkeypatch, read, data, segments, "_plain_wide")
    assert_same_outcome(got, expected)
    assert taken is None or took == taken, (took, got)


def test_integer_codes_are_factorize():
    """The codes of integer ids (a table over a narrow range, a hash over a wide one) are
    ``pandas.factorize``'s of the cells; ids not spelled as ``str(int)`` are refused."""
    import pyarrow as pa

    from stats.readers._arrow import distinct_integers, integer_codes, integer_ids, integer_names

    rng = np.random.default_rng(11)
    for trial in range(500):
        n = int(rng.integers(1, 60))
        spread = [3, 50, 10**15][trial % 3]
        numbers = rng.integers(-spread, spread, n)
        cells = [str(v) for v in numbers.tolist()]
        chunked = pa.chunked_array(
            [pa.array(cells[: n // 2], pa.string()), pa.array(cells[n // 2 :], pa.string())]
        )
        codes, names = integer_codes(chunked)
        expected, uniques = pd.factorize(np.array(cells, dtype=object))
        assert (codes == expected).all() and names == list(uniques)
        ids, numbers = integer_ids(chunked)
        assert (ids == expected).all()
        index = integer_names(numbers)
        assert_same(pd.DataFrame(index=index), pd.DataFrame(index=pd.Index(list(uniques))))
        assert distinct_integers(chunked) == (len(set(cells)) == n)
    for odd in (["1", "01"], ["1", "+2"], ["-0"], ["1", " 2"], ["1", "2.0"], ["x"]):
        column = pa.chunked_array([pa.array(odd, pa.string())])
        assert integer_codes(column) is None and not distinct_integers(column)


def test_long_line_as_a_search():
    """The block-wise search for a long line finds what a search line by line finds."""
    from stats.readers import _arrow

    def by_search(data: bytes, limit: int) -> bool:
        return any(len(line) > limit for line in data.split(b"\n"))

    rng = np.random.default_rng(5)
    for trial in range(3000):
        data = bytes(
            rng.choice(
                list(b"ab\n" if trial % 2 else b"abcdefg\n"), int(rng.integers(0, 200))
            ).tolist()
        )
        limit = int(rng.integers(0, 20))
        old = _arrow.LINE_SCAN
        try:
            _arrow.LINE_SCAN = int(rng.integers(1, 40))
            assert _arrow.long_line(data, limit) == by_search(data, limit)
        finally:
            _arrow.LINE_SCAN = old


def _wmt_rows(extra: bool = True):
    rows = []
    for s in ("A", "Sÿs-ü", "C"):
        for d in range(2):
            for g in range(1, 4):
                row = [
                    "BLEU",
                    "en-de",
                    "newstest2020",
                    "newstest2020",
                    s,
                    f"doc{d}.en",
                    g,
                    f"{(hash((s, d, g)) % 1000) / 1000:.3f}",
                ]
                rows.append(row + ["non-ensemble", "yes"] if extra else row)
    return rows


def _wmt_variants():
    base = _wmt_rows()
    out = [
        ("base", _table(None, base), True),
        ("eight columns", _table(None, _wmt_rows(False)), True),
        (
            "header",
            _table(
                ["METRIC", "LP", "TESTSET", "REFSET", "SYSTEM", "DOCID", "SEGID", "SCORE"],
                _wmt_rows(False),
            ),
            True,
        ),
        (
            "integer documents",
            _table(None, [r[:5] + [str(k // 3)] + r[6:] for k, r in enumerate(base)]),
            True,
        ),
        ("segids not canonical", _table(None, [r[:6] + [f"0{r[6]}"] + r[7:] for r in base]), True),
        ("one system", _table(None, [r for r in base if r[4] == "A"]), True),
        (
            "another pair inside",
            _table(None, [r[:1] + ["de-en"] + r[2:] if k == 7 else r for k, r in enumerate(base)]),
            True,
        ),
        ("segids negative", _table(None, [r[:6] + [str(-r[6])] + r[7:] for r in base]), True),
        ("crlf", _table(None, base, end="\r\n"), None),
        ("blank line", _table(None, base) + b"\n", None),
        ("comment", b"# scores\n" + _table(None, base), None),
        ("twice", _table(None, base + [base[4]]), None),
        (
            "twice in another document",
            _table(None, base + [base[4][:5] + ["doc9.en"] + base[4][6:]]),
            True,
        ),
    ]
    for column, bad in [
        (7, "nan"),
        (7, "x"),
        (7, ""),
        (7, "1e400"),
        (7, "NA"),
        (4, "NA"),
        (4, ""),
        (5, "n/a"),
        (6, "null"),
        (8, "NaN"),
    ]:
        rows = [list(r) for r in base]
        rows[-1][column] = bad
        out.append((f"last row column {column} {bad!r}", _table(None, rows), None))
    rows = [list(r) for r in base]
    rows[-1] = rows[-1][:9]
    out.append(("short last row", _table(None, rows), None))
    return out


def _wmt_typed_reference(data: bytes, names: list, start: int):
    """The parse of a plain segment file by pyarrow's dictionary-encoding parser, names
    read as missing where pandas would read them so (the column-wise path before names
    were encoded after the parse), every name column then spelled as pandas reads numbers:
    what the column-wise path must give."""
    from stats.readers._arrow import PANDAS_NA, categorical, read_typed

    types = {c: "float64" if c == "score" else "dict" for c in names}
    table = read_typed(
        data, names, types, skip_rows=start, null_values=PANDAS_NA, blank_lines=False
    )
    if table is None or any(table.column(c).null_count for c in names):
        return None
    frame = pd.DataFrame(
        {
            c: table.column(c).to_numpy() if c == "score" else categorical(table.column(c))
            for c in names
        }
    )
    return frame, set()  # (no column known to be spelled as pandas reads it)


@pytest.mark.parametrize(
    ("data", "taken"), [v[1:] for v in _wmt_variants()], ids=[v[0] for v in _wmt_variants()]
)
def test_wmt_segment_scores_columns_as_careful(monkeypatch, data, taken):
    """The column-wise path gives what the dictionary-encoding parse gives (and the same
    messages); where neither takes the file, pandas' reader reads it either way."""
    from stats.readers import read_wmt_scores, wmt

    def read(raw):
        return read_wmt_scores(raw, name="sentBLEU.seg.score")

    real, frames = wmt._typed_segments, []

    def spy(*args):
        frames.append(real(*args))
        return frames[-1]

    monkeypatch.setattr(wmt, "_typed_segments", spy)
    got = _outcome(read, data)
    monkeypatch.setattr(wmt, "_typed_segments", _wmt_typed_reference)
    expected = _outcome(read, data)
    assert_same_outcome(got, expected)
    if taken is not None:
        assert any(f is not None for f in frames) == taken


JUDGEMENT_HEAD = ["SYSTEM", "SEGMENT", "ANNOTATOR", "CRITERION", "SCORE"]


def _judgement_rows(n: int = 48, seed: int = 2):
    rng = np.random.default_rng(seed)
    return [
        [
            ("A", "Sÿs-ü", "C")[k % 3],
            k // 3 + 1,
            f"w{k % 4}",
            ("adequacy", "fluency")[k % 2],
            int(rng.integers(0, 101)),
        ]
        for k in range(n)
    ]


def _judgement_variants():
    base = _judgement_rows()
    repeated = _judgement_rows()
    repeated[7] = list(repeated[4])  # a DA repeat: kept
    out = [
        ("base", _table(JUDGEMENT_HEAD, base), True),
        ("csv", _table(JUDGEMENT_HEAD, base, ","), True),
        ("columns moved", _table(JUDGEMENT_HEAD[::-1], [r[::-1] for r in base]), True),
        (
            "text segments",
            _table(JUDGEMENT_HEAD, [[r[0], f"d1-{r[1]}", *r[2:]] for r in base]),
            True,
        ),
        (
            "segments not canonical",
            _table(JUDGEMENT_HEAD, [[r[0], f"0{r[1]}", *r[2:]] for r in base]),
            True,
        ),
        (
            "padded",
            _table(JUDGEMENT_HEAD, [[f" {r[0]}", r[1], f"{r[2]} ", *r[3:]] for r in base]),
            True,
        ),
        (
            "criterion spelled",
            _table(JUDGEMENT_HEAD, [[*r[:3], r[3].upper(), r[4]] for r in base]),
            True,
        ),
        ("a repeat", _table(JUDGEMENT_HEAD, repeated), True),
        ("a copied block", _table(JUDGEMENT_HEAD, base + base[:6]), None),
        ("bom", b"\xef\xbb\xbf" + _table(JUDGEMENT_HEAD, base), False),
        ("crlf", _table(JUDGEMENT_HEAD, base, end="\r\n"), False),
        ("quoted", _table(JUDGEMENT_HEAD, [[f'"{r[0]}"', *r[1:]] for r in base], ","), False),
        ("blank line", _table(JUDGEMENT_HEAD, base) + b"\n", False),
    ]
    for column, bad in [
        (4, "x"),
        (4, "nan"),
        (4, ""),
        (4, "1e400"),
        (4, "1e151"),
        (0, ""),
        (1, " "),
        (3, "style"),
        (2, ""),
    ]:
        rows = [list(r) for r in base]
        rows[-1][column] = bad
        out.append((f"last row column {column} {bad!r}", _table(JUDGEMENT_HEAD, rows), None))
    out.append(
        (
            "short last row",
            _table(JUDGEMENT_HEAD, [list(r) for r in base[:-1]] + [base[-1][:4]]),
            None,
        )
    )
    return out


@pytest.mark.parametrize(
    ("data", "taken"),
    [v[1:] for v in _judgement_variants()],
    ids=[v[0] for v in _judgement_variants()],
)
def test_judgements_columns_as_careful(monkeypatch, data, taken):
    from stats.readers import judgements

    def read(raw):
        with warnings.catch_warnings():  # (exclusions: the same both ways, in the result)
            warnings.simplefilter("ignore")
            return judgements.read_judgements(raw, name="j.tsv")

    got, expected, took = _two_ways(monkeypatch, read, data, judgements, "_plain_frame")
    assert_same_outcome(got, expected)
    assert taken is None or took == taken, (took, got)


DA_HEAD = ["SYS", "SID", "RAW.SCR", "Z.SCR", "N"]


def _da_rows(n: int = 24):
    return [
        [
            ("Online-A.3", "Sÿs-ü.12", "C.7")[k % 3],
            k // 3 + 1,
            f"{(k * 37) % 100}.5",
            f"{((k * 13) % 7 - 3) / 3:.6f}",
            1 + k % 3,
        ]
        for k in range(n)
    ]


def _da_variants():
    base = _da_rows()
    return [
        ("base", _table(DA_HEAD, base, " "), True),
        ("no N", _table(DA_HEAD[:4], [r[:4] for r in base], " "), True),
        ("N.RAW", _table([*DA_HEAD[:4], "N.RAW"], base, " "), True),
        ("N and N.RAW", _table([*DA_HEAD, "N.RAW"], [[*r, "x"] for r in base], " "), True),
        ("lower case", _table([h.lower() for h in DA_HEAD], base, " "), True),
        ("extra column", _table([*DA_HEAD, "N.ALL"], [[*r, 9] for r in base], " "), True),
        (
            "names clash without ids",
            _table(DA_HEAD, [[("A.1", "A.2")[k % 2], k, *r[2:]] for k, r in enumerate(base)], " "),
            True,
        ),
        (
            "names without ids",
            _table(DA_HEAD, [[r[0].split(".")[0], *r[1:]] for r in base], " "),
            True,
        ),
        ("text segments", _table(DA_HEAD, [[r[0], f"s{r[1]}", *r[2:]] for r in base], " "), True),
        ("twice", _table(DA_HEAD, base + [base[5]], " "), True),
        ("tab", _table(DA_HEAD, base, "\t"), False),
        ("two spaces", _table(DA_HEAD, base, "  "), None),
        ("leading space", b" " + _table(DA_HEAD, base, " "), None),
        ("bom", b"\xef\xbb\xbf" + _table(DA_HEAD, base, " "), False),
        ("crlf", _table(DA_HEAD, base, " ", end="\r\n"), False),
        ("blank line", _table(DA_HEAD, base, " ") + b"\n", False),
        (
            "bad last score",
            _table(DA_HEAD, base[:-1] + [[*base[-1][:2], "x", *base[-1][3:]]], " "),
            None,
        ),
        (
            "nan last z",
            _table(DA_HEAD, base[:-1] + [[*base[-1][:3], "nan", base[-1][4]]], " "),
            None,
        ),
        ("big last count", _table(DA_HEAD, base[:-1] + [[*base[-1][:4], "1e400"]], " "), None),
        ("short last row", _table(DA_HEAD, base[:-1] + [base[-1][:4]], " "), None),
    ]


@pytest.mark.parametrize(
    ("data", "taken"), [v[1:] for v in _da_variants()], ids=[v[0] for v in _da_variants()]
)
@pytest.mark.parametrize("name", ["ad-seg-scores-de-en.csv", "scores.csv"])
def test_da_segments_columns_as_careful(monkeypatch, data, taken, name):
    from stats.readers import da_segments

    def read(raw):
        return da_segments.read_da_segment_scores(raw, name=name)

    got, expected, took = _two_ways(monkeypatch, read, data, da_segments, "_plain_columns")
    assert_same_outcome(got, expected)
    if not name.endswith("de-en.csv"):  # a name without the language pair: never this path
        taken = False
    assert taken is None or took == taken, (took, got)


def test_pivot_scores_in_every_row_order():
    """The segments x systems frame of long rows is each row's score in its cell, whatever
    the rows' order (system by system, segment by segment, shuffled), with segment names
    given as strings or as the numbers they spell."""
    rng = np.random.default_rng(17)
    for trial in range(200):
        n_sys, n_seg = int(rng.integers(1, 5)), int(rng.integers(1, 7))
        system = np.repeat(np.arange(n_sys), n_seg)
        segment = np.tile(np.arange(n_seg), n_sys)
        order = [
            np.arange(n_sys * n_seg),
            np.lexsort((system, segment)),
            rng.permutation(n_sys * n_seg),
        ][trial % 3]
        system, segment = system[order], segment[order]
        scores = rng.random(n_sys * n_seg)
        expected = np.full((n_seg, n_sys), np.nan)
        expected[segment, system] = scores
        numbers = rng.permutation(100)[:n_seg] - 50
        systems = [f"S{k}" for k in range(n_sys)]
        for names in (numbers, [str(v) for v in numbers.tolist()]):
            wide = segments.pivot_scores(system, systems, segment, names, scores,
                                         label="x", rows=None, metric="m")  # fmt: skip
            assert_same(
                wide,
                pd.DataFrame(
                    expected,
                    index=pd.Index([str(v) for v in numbers.tolist()], name="segment"),
                    columns=pd.Index(systems, name="m"),
                ),
            )
            assert wide.to_numpy().flags.c_contiguous


def test_may_repeat_and_first_repeat_as_pandas():
    """Whether keys (few beside the rows: counted) repeat is whether pandas finds a repeat;
    the first repeat is pandas' first ``duplicated`` row."""
    from stats.readers._common import first_repeat, may_repeat

    rng = np.random.default_rng(23)
    for trial in range(2000):
        n_keys = int(rng.integers(1, 40))
        key = rng.integers(0, n_keys, int(rng.integers(0, 30)))
        if trial % 3 == 0:
            key = rng.permutation(n_keys)[: len(key)]
        dup = pd.Series(key).duplicated().to_numpy()
        assert may_repeat(key, n_keys) == bool(dup.any())
        assert first_repeat(key, n_keys) == (int(np.flatnonzero(dup)[0]) if dup.any() else None)
