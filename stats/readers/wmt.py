"""The WMT metrics task's own files (WMT17-WMT21), read as the organisers publish them.

Metric scores, one file per metric and level, tab- or whitespace-separated, header optional:

* system level (``*.sys.score``): ``METRIC LP TESTSET REFSET SYSTEM SCORE``;
* document level (``*.doc.score``): ``METRIC LP TESTSET REFSET SYSTEM DOCID SCORE``;
* segment level (``*.seg.score``): ``METRIC LP TESTSET REFSET SYSTEM DOCID SEGID SCORE``,
  optionally followed by ``ENSEMBLE AVAILABLE``. The item is ``(DOCID, SEGID)``: SEGID
  restarts in every document.

REFSET names the reference the metric used: the test set's own reference has
``REFSET == TESTSET`` (``newstest2020``), alternative references other names
(``newstestB2020``, ``newstestP2020``); reference-free metrics are told by name (see
:func:`select_refsets`).

Human scores: the organisers' DA system-level files (``RAW.SCR Z.SCR N SYS N.ALL``, one per
language pair, the pair at the end of the file name, e.g. ``ad-sys-scores-cs-en.csv``).

gzip, archives and directories are handled before these readers (:mod:`._archives`).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

from ._arrow import (
    LARGE_BLOCK,
    PANDAS_NA,
    countable,
    in_threads,
    integer_ids,
    name_codes,
    not_numbers,
    numbers_as_pandas_reads_them,
    one_name,
    read_typed,
)
from ._common import (
    LINE,
    Source,
    check_parse_memory,
    decode,
    factorize_strings,
    load_bytes,
    may_repeat,
    mix_codes,
    spells_number,
    split_lines,
    strict_float,
    to_float,
    unrepeated,
)

__all__ = [
    "DA_SYSTEM_COLUMNS",
    "DOC_COLUMNS",
    "SEG_COLUMNS",
    "SYS_COLUMNS",
    "WMTScoreTable",
    "detect_wmt_format",
    "lp_from_name",
    "read_da_system_scores",
    "read_wmt_scores",
    "select_refsets",
]

SYS_COLUMNS = ("METRIC", "LP", "TESTSET", "REFSET", "SYSTEM", "SCORE")
DOC_COLUMNS = ("METRIC", "LP", "TESTSET", "REFSET", "SYSTEM", "DOCID", "SCORE")
SEG_COLUMNS = ("METRIC", "LP", "TESTSET", "REFSET", "SYSTEM", "DOCID", "SEGID", "SCORE")
SEG_EXTRA = ("ENSEMBLE", "AVAILABLE")
DA_SYSTEM_COLUMNS = ("RAW.SCR", "Z.SCR", "N", "SYS", "N.ALL")

#: level -> the column layouts it may have
LAYOUTS = {
    "sys": (SYS_COLUMNS,),
    "doc": (DOC_COLUMNS,),
    "seg": (SEG_COLUMNS, SEG_COLUMNS + SEG_EXTRA),
}
_BY_WIDTH = {len(c): (level, c) for level, cs in LAYOUTS.items() for c in cs}
#: what each level is called in messages
LEVEL_NAMES = {"sys": "system-level", "doc": "document-level", "seg": "segment-level"}
#: human-score columns of the DA files, by ``human_score``
HUMAN_SCORES = {"z": "Z.SCR", "raw": "RAW.SCR"}

_LP_AT_END = re.compile(r"(?:^|[^a-z])([a-z]{2,3}-[a-z]{2,3})$")
_SUFFIX = re.compile(r"\.(gz|csv|tsv|txt|score|sys|seg|doc)$", re.IGNORECASE)


def lp_from_name(name: str) -> str | None:
    """The language pair ``xx-yy`` at the end of a file name (extensions such as ``.csv.gz``
    removed), e.g. ``'cs-en'`` for ``ad-sys-scores-cs-en.csv``; None when there is none."""
    base = re.split(r"[/\\:]", str(name))[-1]
    while _SUFFIX.search(base):
        base = _SUFFIX.sub("", base)
    m = _LP_AT_END.search(base.lower())
    return m.group(1) if m else None


def _is_da_row(fields: list[str]) -> bool:
    return (
        len(fields) == 5
        and all(spells_number(fields[i]) for i in (0, 1, 2, 4))
        and not spells_number(fields[3])
    )


def detect_wmt_format(fields: list[str]) -> str | None:
    """What the first line (its ``fields``) of a file says it is: ``'wmt-sys'``, ``'wmt-doc'``,
    ``'wmt-seg'`` (metrics task files with a REFSET column, with or without a header),
    ``'da-sys'`` (DA system-level scores), or None for anything else."""
    up = tuple(f.upper() for f in fields)
    if up == DA_SYSTEM_COLUMNS or _is_da_row(fields):
        return "da-sys"
    if up and up[0] == "METRIC" and "REFSET" in up:
        hit = _BY_WIDTH.get(len(up))
        return f"wmt-{hit[0]}" if hit else "wmt-sys"  # a wrong header is named by the reader
    if len(fields) in _BY_WIDTH and fields and not spells_number(fields[0]):
        level, cols = _BY_WIDTH[len(fields)]
        if level == "sys" and fields[cols.index("SYSTEM")].isdigit():
            # an integer where SYSTEM goes is SEGMENT: the meta-evaluation long format
            # METRIC LP TESTSET SYSTEM SEGMENT SCORE (stats.readers.meta), not a REFSET file
            return None
        if spells_number(fields[cols.index("SCORE")]) and not spells_number(fields[1]):
            return f"wmt-{level}"
    return None


@dataclass(frozen=True, kw_only=True)
class WMTScoreTable:
    """One metrics task score file as read.

    Attributes
    ----------
    level : str
        ``'sys'``, ``'doc'`` or ``'seg'``.
    frame : DataFrame
        Lower-case columns of the level (``metric, lp, testset, refset, system``, then
        ``docid``/``segid`` and ``ensemble, available`` where the file has them), ``score``
        (float) and ``_line`` (1-based line in the file).
    name : str
        Display name of the file.
    """

    level: str
    frame: pd.DataFrame
    name: str


def _content_lines(text: str):
    """(0-based index, line) of the non-blank lines not starting with ``#``."""
    return (
        (i, ln)
        for i, ln in enumerate(text.splitlines())
        if ln.strip() and not ln.lstrip().startswith("#")
    )


def _split(line: str, tab: bool) -> list[str]:
    return [f.strip() for f in line.split("\t")] if tab else line.split()


def _layout(first: list[str], label: str, line: int, level: str | None):
    """(level, columns, has_header) from the first content line."""
    has_header = bool(first) and first[0].upper() == "METRIC"
    if has_header:
        up = tuple(f.upper() for f in first)
        hit = _BY_WIDTH.get(len(up))
        if hit is None or up != hit[1]:
            layouts = "; ".join(" ".join(c) for cs in LAYOUTS.values() for c in cs)
            raise StatsInputError(
                f"{label}, line {line}: unrecognised header {' '.join(first)!r}; expected one of "
                f"{layouts}"
            )
    else:
        hit = _BY_WIDTH.get(len(first))
        if hit is None:
            raise StatsInputError(
                f"{label}, line {line}: {len(first)} fields; a WMT metrics task score file has "
                f"6 ({' '.join(SYS_COLUMNS)}), 7 (with DOCID) or 8 (with DOCID SEGID, optionally "
                f"{' '.join(SEG_EXTRA)})"
            )
    if level is not None and hit[0] != level:
        raise StatsInputError(
            f"{label}, line {line}: this is a {LEVEL_NAMES[hit[0]]} file ({' '.join(hit[1])}); "
            f"expected {LEVEL_NAMES[level]} scores"
        )
    return hit[0], hit[1], has_header


def _diagnose(text: str, label: str, columns, start: int, tab: bool) -> StatsInputError | None:
    """The first bad data line after line index ``start``, as an error (the slow, exact pass
    run when the fast one failed)."""
    width = len(columns)
    score_at = columns.index("SCORE")
    for i, ln in _content_lines(text):
        if i < start:
            continue
        fields = _split(ln, tab)
        where = f"{label}, line {i + 1}"
        if len(fields) != width:
            return StatsInputError(
                f"{where}: expected {width} fields ({' '.join(columns)}), found {len(fields)}"
            )
        for col, value in zip(columns, fields, strict=True):
            if col != "SCORE" and not value:
                return StatsInputError(f"{where}, column {col}: empty value")
        try:
            ok = np.isfinite(strict_float(fields[score_at]))
        except ValueError:
            ok = False
        if not ok:  # to_float words the message
            try:
                to_float(pd.DataFrame({"SCORE": [fields[score_at]], LINE: [i + 1]}), "SCORE", label)
            except StatsInputError as exc:
                return exc
    return None


def read_wmt_scores(
    source: Source, *, name: str | None = None, level: str | None = None
) -> WMTScoreTable:
    """Read one WMT metrics task score file (system, document or segment level).

    The level is told by the number of fields (6, 7, or 8/10), or by the header when the file
    has one. Rows are read by :func:`pandas.read_csv`'s C parser; when it finds anything
    wrong, the file is read again line by line to name the first bad line.

    Parameters
    ----------
    source : path, bytes or binary file object
        gzip is decompressed (told by its magic bytes).
    name : str, optional
        Name used for the file in error messages.
    level : {'sys', 'doc', 'seg'}, optional
        The level the file must have.

    Returns
    -------
    WMTScoreTable

    Raises
    ------
    StatsInputError
        Missing or empty file, undecodable bytes, an unknown header or field count, a row
        with another number of fields, an empty name, a score that is not a finite number, or
        a row given twice (the same key) -- each naming the file and line.
    """
    if level is not None and level not in LAYOUTS:
        raise StatsInputError(f"level must be one of {', '.join(LAYOUTS)}; got {level!r}")
    data, label = load_bytes(source, name)
    check_parse_memory(len(data), label)
    head = data[:65536]
    if len(data) > len(head) and b"\n" in head:
        head = head[: head.rindex(b"\n")]  # whole lines only
    head_text = decode(head, label)  # a bad byte here is named by line and byte
    first = next(_content_lines(head_text), None)
    if first is None:  # a very long first line, or comments: look at the whole file
        first = next(_content_lines(decode(data, label)), None)
    if first is None:
        raise StatsInputError(f"{label}: file is empty (only comments)")
    first_i, first_line = first
    tab = "\t" in first_line
    lvl, columns, has_header = _layout(_split(first_line, tab), label, first_i + 1, level)
    start = first_i + 1 if has_header else first_i
    names = [c.lower() for c in columns]
    # (one byte is found by memchr; a search for two bytes costs 20x more)
    comment = data.find(b"#") >= 0 and (data.startswith(b"#") or b"\n#" in data)
    # segment and document files can be large: names as categories (one small code per row),
    # read by pyarrow's typed parser when the file is plain and tab-separated
    names_as = {c: "category" for c in names if c != "score"} if lvl != "sys" else None
    typed_as = _typed_segments(data, names, start) if names_as and tab and not comment else None
    frame, as_numbers = typed_as if typed_as is not None else (None, set())
    typed = frame is not None  # every line from ``start`` on a row: no blank line, no NA
    bad = False
    if names_as and tab and not comment and not typed:
        found = _first_bad_score(data, names, start, label)  # by columns, when plain
        if found is not None:
            raise found
    try:
        if not typed:
            frame = pd.read_csv(
                io.BytesIO(data),
                sep="\t" if tab else r"\s+",
                header=None,
                names=names,
                index_col=False,
                skiprows=start,
                quoting=csv.QUOTE_NONE,
                comment="#" if comment else None,
                engine="c",
                dtype=names_as,
            )
        kind = frame["score"].dtype.kind  # integer scores are numbers too
        bad = kind not in "iuf" or not np.isfinite(frame["score"].to_numpy(dtype=float)).all()
        bad = bad or (not typed and any(frame[c].isna().any() for c in names))
    except UnicodeDecodeError:
        # not UTF-8 past the first lines: decode names the line and byte of a bad one, or
        # decodes another encoding it recognises (UTF-16/32), which is then read as UTF-8
        text = decode(data, label)
        return read_wmt_scores(text.encode("utf-8"), name=label, level=level)
    except (ValueError, pd.errors.ParserError):
        bad = True
    if bad:
        err = _diagnose(decode(data, label), label, columns, start, tab)
        raise err or StatsInputError(f"{label}: cannot be read as {' '.join(columns)}")
    if frame["score"].dtype != np.float64:
        frame["score"] = frame["score"].astype(np.float64)
    for c in names_as or ():  # names that are all numbers read as pandas reads numbers
        if c not in as_numbers:
            frame[c] = numbers_as_pandas_reads_them(frame[c].array)
    if typed:
        frame[LINE] = np.arange(start + 1, start + len(frame) + 1, dtype=np.int64)
    else:
        frame[LINE] = _line_numbers(data, start, len(frame), comment)
    key = [c for c in names if c not in ("score", "ensemble", "available")]
    _no_duplicate_rows(frame, key, label)
    return WMTScoreTable(level=lvl, frame=frame, name=label)



def _first_bad_score(data: bytes, names: list, start: int, label: str):
    """The error :func:`_diagnose` gives a plain tab-separated file (every line from ``start``
    a row of full fields, breaks only at ``\\n``) whose only fault is a score that is not a
    finite number, found by columns (:func:`~._arrow.not_numbers`): a file failing at its last
    line is not read again line by line. None when the file is not plain or holds no such
    score (the caller's careful path then reads it)."""
    if b"\r" in data or b"\x00" in data or _RARE.search(data):
        return None
    types = {c: "str" if c == "score" else "dict" for c in names}
    table = read_typed(data, names, types, skip_rows=start, null_values=PANDAS_NA,
                       blank_lines=False, block=LARGE_BLOCK)  # fmt: skip
    if table is None or any(table.column(c).null_count for c in names if c != "score"):
        return None
    bad = not_numbers(table.column("score"), np.inf)
    del table
    if not bad.any():
        return None
    row = int(np.flatnonzero(bad)[0])
    at = 0
    for _ in range(start + row):  # the offset of the row's line (every line a row)
        at = data.index(b"\n", at) + 1
    end = data.find(b"\n", at)
    line = data[at : None if end < 0 else end].decode("utf-8", errors="replace")
    fields = _split(line, True)
    raw = fields[names.index("score")] if len(fields) == len(names) else ""
    try:
        to_float(pd.DataFrame({"SCORE": [raw], LINE: [start + row + 1]}), "SCORE", label)
    except StatsInputError as exc:
        return exc
    return None


#: line breaks of ``str.splitlines`` other than ``\n`` and ``\r`` (as bytes of UTF-8 text)
_RARE = re.compile(rb"[\x0b\x0c\x1c-\x1e]|\xc2\x85|\xe2\x80[\xa8\xa9]")


def _typed_segments(data: bytes, names: list, start: int) -> tuple[pd.DataFrame, set] | None:
    """A plain tab-separated segment file read by pyarrow's parser (:mod:`._arrow`) with its
    threads: names as categories (a column of one name compared with it, others encoded
    once; integer segment ids as numbers), scores as float64, every line a row; None when
    anything is not plain (a blank line, a missing value, a ragged row, a score that is not
    a finite number): pandas' reader and the diagnosis then read it line by line. With the
    frame, the columns whose names are all integers spelled as ``str(int)`` spells them
    (:func:`~._arrow.integer_ids`): pandas reads each as the number it spells, in the same
    spelling (:func:`~._arrow.numbers_as_pandas_reads_them` would keep them)."""
    # systems and documents, a few names repeated: encoded by the parser's threads as they
    # parse (a column of ids, or of one name, is compared or cast as strings)
    types = {c: "float64" if c == "score" else "dict" if c in _MANY else "str" for c in names}
    # (ASCII bytes are UTF-8: the parser need not check each cell)
    table = read_typed(data, names, types, skip_rows=start, blank_lines=False, block=LARGE_BLOCK,
                       threads=True, valid_utf8=data.isascii())  # fmt: skip
    if table is None or not table.num_rows:
        return None
    score = table.column("score").to_numpy()
    if not np.isfinite(score).all():
        return None
    columns = {}
    as_numbers = set()
    named = [c for c in names if c != "score"]
    # the columns encoded at once, on the cores the parser used
    parsed = in_threads(_name_column, [table.column(c) for c in named])
    for c, found in zip(named, parsed, strict=True):
        if found is None:  # a missing value (pandas' spelling of one)
            return None
        columns[c], numbers = found
        if numbers:
            as_numbers.add(c)
    columns = {c: score if c == "score" else columns[c] for c in names}
    del table
    return pd.DataFrame(columns), as_numbers


#: the name columns of many rows each (read dictionary-encoded by the parser)
_MANY = frozenset({"system", "docid"})

#: pandas' spellings of a missing value: a name spelled so is read as missing
_NA = frozenset(PANDAS_NA)


def _name_column(column) -> tuple[pd.Categorical, bool] | None:
    """A parsed column of names as a Categorical (categories in order of first appearance,
    as :func:`~._arrow.categorical` makes them) and whether they are all integers spelled as
    ``str(int)`` spells them; None when a name is one of pandas' spellings of a missing
    value."""
    import pyarrow as pa

    first = one_name(column)
    numbers = None
    if first is not None:  # one name (metric, pair, test set)
        codes, spelled = np.zeros(len(column), dtype=np.int32), [first]
    else:
        found = integer_ids(column)
        if found is not None:  # numbers: none is a spelling of a missing value
            codes, numbers = found
        else:
            codes, spelled = name_codes(column)
    if numbers is not None:
        cells = pa.array(numbers).cast(pa.string())  # str(int) of each, by pyarrow
    elif _NA.isdisjoint(spelled):
        cells = pa.array(spelled, type=pa.string())
    else:
        return None
    categories = cells.to_pandas()
    codes = np.asarray(codes, dtype=np.int32)
    return pd.Categorical.from_codes(codes, categories=categories), numbers is not None


def _line_numbers(data: bytes, start: int, n: int, comment: bool) -> np.ndarray:
    """1-based line numbers of the ``n`` data rows from line index ``start`` on: consecutive
    when the file has as many lines as rows (no blank or comment line among them), else
    counted line by line."""
    total = data.count(b"\n")  # (no array of the file's size)
    total += not data.endswith(b"\n")
    if not comment and total - start == n:
        return np.arange(start + 1, start + n + 1, dtype=np.int64)
    text = data.decode("utf-8-sig")
    return np.array([i + 1 for i, _ in _content_lines(text) if i >= start], dtype=np.int64)


def _no_duplicate_rows(frame: pd.DataFrame, key: list[str], label: str) -> None:
    """Raise naming the first two lines with the same ``key`` (columns combined as integer
    codes, so that the check stays linear and fast)."""
    cats = [frame[c] for c in key if isinstance(frame[c].dtype, pd.CategoricalDtype)]
    if unrepeated([(c.cat.codes.to_numpy(), len(c.cat.categories)) for c in cats], len(frame)):
        return  # (a count over the columns with the most names)
    codes = np.zeros(len(frame), dtype=np.int64)
    size = 1  # number of distinct codes so far
    for c in key:
        col = frame[c]
        if isinstance(col.dtype, pd.CategoricalDtype):  # the codes are there (no NaN here)
            k, n_unique = col.cat.codes.to_numpy(), len(col.cat.categories)
            if n_unique == 1:
                continue
        else:
            if len(col) and (col == col.iloc[0]).all():
                continue  # one value (metric, lp, test set): no new information
            k, n_unique = factorize_strings(col)
        codes, size = mix_codes(codes, size, k, n_unique)
        del k
    if countable(size, len(codes)):  # few possible codes: counted, no sort
        if not may_repeat(codes, size):
            return
    else:
        ordered = np.sort(codes)  # a repeat is two equal neighbours (no hash table of n codes)
        if not (ordered[1:] == ordered[:-1]).any():
            return
        del ordered
    dup = pd.Series(codes).duplicated(keep=False).to_numpy()
    if not dup.any():
        return
    first = codes[dup][0]
    where = np.flatnonzero(codes == first)[:2]
    lines = frame[LINE].to_numpy()[where]
    row = frame.iloc[int(where[0])]
    what = " ".join(f"{c.upper()}={row[c]}" for c in key)
    raise StatsInputError(f"{label}, lines {lines[0]} and {lines[1]}: the same row twice ({what})")


# ---- human scores as the organisers publish them ----


def rows_frame(rows: list[tuple[int, list[str]]], columns, label: str) -> pd.DataFrame:
    """A frame of string cells from ``[(line, fields)]`` (as :func:`split_lines` gives), with
    the line numbers in ``_line``; a row without ``len(columns)`` fields is named."""
    for line, fields in rows:
        if len(fields) != len(columns):
            raise StatsInputError(
                f"{label}, line {line}: expected {len(columns)} fields ({' '.join(columns)}), "
                f"found {len(fields)}"
            )
    raw = pd.DataFrame([f for _, f in rows], columns=list(columns), dtype=object)
    raw[LINE] = np.array([i for i, _ in rows], dtype=np.int64)
    return raw


def read_da_system_scores(
    source: Source,
    *,
    name: str | None = None,
    lp: str | None = None,
    human_score: str = "z",
) -> pd.DataFrame:
    """Read a DA system-level file (``RAW.SCR Z.SCR N SYS N.ALL``, header optional).

    Parameters
    ----------
    source : path, bytes or binary file object
    name : str, optional
        Name used for the file in error messages; its ending ``xx-yy`` is the language pair.
    lp : str, optional
        The language pair when the file name ends in none.
    human_score : {'z', 'raw'}
        ``Z.SCR`` (the findings' ranking score, the default) or ``RAW.SCR``.

    Returns
    -------
    DataFrame
        Columns ``lp, system, score, _line`` (one row per system).

    Raises
    ------
    StatsInputError
        Missing or empty file, undecodable bytes, no language pair (neither in the name nor
        given), a row without 5 fields, a score or count that is not a number, or a system
        listed twice -- naming the file and line.
    """
    if human_score not in HUMAN_SCORES:
        raise StatsInputError(f"human_score must be 'z' or 'raw'; got {human_score!r}")
    data, label = load_bytes(source, name)
    text = decode(data, label)
    _, rows, _ = split_lines(text, label, delimiter="whitespace", header=False)
    if tuple(f.upper() for f in rows[0][1]) == DA_SYSTEM_COLUMNS:
        rows = rows[1:]
        if not rows:
            raise StatsInputError(f"{label}: has a header but no data rows")
    pair = lp_from_name(label) or lp
    if not pair:
        raise StatsInputError(
            f"{label}: no language pair; the DA file name should end in xx-yy (as in "
            "ad-sys-scores-cs-en.csv), or give the language pair (lp=XX-YY)"
        )
    raw = rows_frame(rows, DA_SYSTEM_COLUMNS, label)
    for col in ("RAW.SCR", "Z.SCR", "N", "N.ALL"):
        to_float(raw, col, label, what="value")
    score = to_float(raw, HUMAN_SCORES[human_score], label)
    dup = raw["SYS"].duplicated(keep=False)
    if dup.any():
        first = raw.loc[dup, "SYS"].iloc[0]
        lines = raw.loc[raw["SYS"] == first, LINE].tolist()[:2]
        raise StatsInputError(
            f"{label}, lines {lines[0]} and {lines[1]}: system {first!r} appears twice"
        )
    return pd.DataFrame(
        {"lp": pair, "system": raw["SYS"].to_numpy(), "score": score, LINE: raw[LINE].to_numpy()}
    )


# ---- references: which REFSET rows make a block ----


def select_refsets(refsets, testset: str, choice: str | None, where: str) -> list[str]:
    """The reference sets to analyse, from the (non-empty) REFSET names of a language pair.

    Parameters
    ----------
    refsets : iterable of str
        REFSET names present (``''``, rows of files without a REFSET column or of
        reference-free metrics, join every block and is not listed).
    testset : str
        The test set; its own reference has ``REFSET == TESTSET``.
    choice : str or None
        None: the test set's own reference (or the only one); ``'all'``: each reference; a
        name: that reference.
    where : str
        What the language pair is called in messages.

    Returns
    -------
    list of str
        ``['']`` when no REFSET is named (one block of every row).

    Raises
    ------
    StatsInputError
        A named reference that is absent, or several references none of which is the test
        set's own, with none chosen (both list those present).
    """
    named = list(dict.fromkeys(r for r in refsets if r))
    if not named:
        return [""]
    if choice == "all":
        return named
    if choice is None:
        if testset in named:
            return [testset]
        if len(named) == 1:
            return named
        raise StatsInputError(
            f"{where}: several references ({', '.join(named)}), none named after the test set "
            f"{testset!r}; choose one with refset=NAME, or refset=all"
        )
    if choice not in named:
        raise StatsInputError(
            f"{where}: reference {choice!r} not found; present: {', '.join(named)}"
        )
    return [choice]
