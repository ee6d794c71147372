"""Plumbing shared by every reader: loading bytes, decoding, splitting into a table of strings
with the original line numbers kept, and numeric conversion with precise error messages.

Every reader in :mod:`stats.readers` accepts a *source*: a path (``str`` or ``os.PathLike``),
raw ``bytes``, or a binary file-like object (anything with ``read()`` or ``getvalue()``, e.g. a
Streamlit ``UploadedFile``). ``name`` is what error messages call the file; it defaults to the
path, or the object's ``name`` attribute.
"""

from __future__ import annotations

import codecs
import csv
import functools
import importlib.util
import io
import math
import os
import re
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Union

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError
from stats._core.numbers import MAX_NUMBER_CHARS, NUMBER, strict_float

from ._archives import gunzip, read_regular_file, read_stream
from ._arrow import (
    coded,
    count_byte,
    countable,
    finite_within_bound,
    long_line,
    plain_bytes,
)
from ._limits import (
    check_bytes,
    check_header_width,
    check_text_size,
    check_value,
    check_value_range,
    csv_error,
    decode_text,
    overflows,
)


@dataclass(frozen=True)
class Decoded:
    """A file already read, decoded and checked (:func:`decoded`): every reader takes it as a
    source and uses its text as it is, so a workflow that looks at a file's content to choose
    its reader does not decode the file a second time."""

    text: str
    name: str

    def __repr__(self) -> str:  # not the whole text in messages and tracebacks
        return f"Decoded(name={self.name!r}, {len(self.text)} characters)"


Source = Union[str, "os.PathLike[str]", bytes, IO[bytes], Decoded]

LINE = "_line"  #: column holding the 1-based line number each row came from


def source_name(source: Source, name: str | None = None) -> str:
    """The display name used for ``source`` in error messages."""
    if name:
        return str(name)
    if isinstance(source, Decoded):
        return source.name
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source)
    return str(getattr(source, "name", None) or "<input>")


def load_bytes(source: Source, name: str | None = None) -> tuple[bytes, str]:
    """Return the raw bytes of ``source`` and its display name.

    Raises
    ------
    StatsInputError
        The file does not exist, is a directory, cannot be read, is empty, or is larger than
        :data:`~._limits.MAX_BYTES` (checked before a file is read).
    """
    label = source_name(source, name)
    if isinstance(source, Decoded):  # checked when it was decoded; the bytes of its text
        return source.text.encode("utf-8"), label
    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if not path.exists():
            raise StatsInputError(f"{label}: file not found")
        if path.is_dir():
            raise StatsInputError(f"{label}: is a directory, not a file")
        data = read_regular_file(path, label)  # its size (stat) checked before it is read
    elif isinstance(source, (bytes, bytearray, memoryview)):
        check_bytes(len(source), label)
        data = bytes(source)
    elif hasattr(source, "getvalue") or hasattr(source, "read"):
        size = getattr(source, "size", None)  # an upload's length, known before any copy
        if isinstance(size, int):
            check_bytes(size, label)
        got = source.getvalue() if hasattr(source, "getvalue") else read_stream(source, label)
        check_bytes(len(got), label)
        data = bytes(got.encode("utf-8") if isinstance(got, str) else got)
    else:
        raise StatsInputError(
            f"source must be a path, bytes or a binary file object; got {type(source).__name__}"
        )
    check_bytes(len(data), label)
    data = gunzip(data, label)  # gzip is told by its magic bytes, not by the name
    check_bytes(len(data), label)
    if not data or data.isspace():  # (not data.strip(): a copy of the whole file)
        raise StatsInputError(f"{label}: file is empty")
    return data, label


def decode(data: bytes, label: str) -> str:
    """Decode ``data`` as text and check its size, before anything splits it.

    UTF-8 with or without a BOM, and UTF-16/UTF-32 with a BOM (or UTF-16 without one, told by
    its NUL bytes), are decoded; bad bytes are named by line and byte. The decoded text is
    checked against the line, column and field-length limits of :mod:`._limits`.
    """
    text = decode_text(data, label)
    check_text_size(text, label)
    return text


def load_text(source: Source, name: str | None = None) -> tuple[str, str]:
    """Return the decoded text of ``source`` and its display name."""
    if isinstance(source, Decoded):
        return source.text, source_name(source, name)
    data, label = load_bytes(source, name)
    return decode(data, label), label


def decoded(source: Source, name: str | None = None) -> Decoded:
    """``source`` read, decoded and checked once (:func:`load_text`), for several readers."""
    if isinstance(source, Decoded) and not name:
        return source
    return Decoded(*load_text(source, name))


def check_header_once(head: Sequence[str], label: str, line: int = 1) -> None:
    """Refuse a header that names a column twice (case and surrounding spaces ignored): which
    of the two a reader took would be a silent choice. Every reader's header passes here."""
    seen: set[str] = set()
    for c in head:
        key = str(c).strip().lower()
        if key in seen:
            raise StatsInputError(
                f"{label}, line {line}: column {str(c).strip()!r} appears twice in the header; "
                "rename or remove one of them"
            )
        seen.add(key)


def header_names_each_once(head: Sequence[str]) -> bool:
    """Whether :func:`check_header_once` accepts ``head``: the readers' paths from a plain
    file's bytes leave a header it refuses to their careful path, which names the line."""
    keys = [str(c).strip().lower() for c in head]
    return len(set(keys)) == len(keys)


@dataclass(frozen=True, kw_only=True)
class RawTable:
    """A table of strings as read from a file, before any type conversion."""

    frame: pd.DataFrame  #: string cells, one column per header field, plus ``_line``
    name: str  #: display name of the file
    delimiter: str  #: "csv", "tab" or "whitespace"


def sniff_delimiter(header: str, label: str) -> str:
    """Guess the delimiter from the header line: tab, comma, or runs of whitespace."""
    if "\t" in header:
        return "tab"
    if "," in header:
        return "csv"
    return "whitespace"


def _split(line: str, delimiter: str) -> list[str]:
    if delimiter == "tab":
        return [f.strip() for f in line.rstrip("\r\n").split("\t")]
    if delimiter == "csv":
        return [f.strip() for f in next(csv.reader([line]))]
    return line.split()


def split_lines(
    text: str, label: str, *, delimiter: str = "auto", header: bool = True
) -> tuple[list[str] | None, list[tuple[int, list[str]]], str]:
    """Split ``text`` into (header fields, [(line number, fields)], delimiter).

    Blank lines and lines starting with ``#`` are skipped.
    """
    lines = [
        (i, ln)
        for i, ln in enumerate(text.splitlines(), start=1)
        if ln.strip() and not ln.lstrip().startswith("#")
    ]
    if not lines:
        raise StatsInputError(f"{label}: file is empty")
    if delimiter == "auto":
        delimiter = sniff_delimiter(lines[0][1], label)
    head = None
    i = lines[0][0]
    try:
        if header:
            head = _split(lines[0][1], delimiter)
            lines = lines[1:]
            if not lines:
                raise StatsInputError(f"{label}: has a header but no data rows")
        rows = []
        for i, ln in lines:
            rows.append((i, _split(ln, delimiter)))
    except csv.Error as exc:
        raise csv_error(exc, label, i) from None
    return head, rows, delimiter


#: bytes that send a file to the careful parser instead of :func:`pandas.read_csv`: quotes,
#: comments, and the line breaks or whitespace that ``str.splitlines``/``str.split`` know and
#: pandas does not (so both parsers see the same lines and fields); blank lines are found by
#: counting lines
_CAREFUL_BYTES = b'"#\x0b\x0c\x1c\x1d\x1e\x1f'
_OTHER_BYTES = bytes(sorted(set(range(256)) - set(_CAREFUL_BYTES)))
_CAREFUL_UTF8 = tuple(
    ch.encode("utf-8") for ch in "\x85\xa0\u1680\u2028\u2029\u202f\u205f\u3000"
) + (b"\xe2\x80",)  # U+2000-U+200A start so (a false alarm only costs speed)
_SEPARATORS = {"tab": (b"\t", "\t"), "csv": (b",", ","), "whitespace": (None, r"\s+")}


def may_repeat(key: np.ndarray, n_keys: int) -> bool:
    """Whether a value of ``key`` (integers below ``n_keys``) may occur twice: False when a
    count shows every value at most once (where the values are few beside the rows: no hash
    of every row), True otherwise, where the caller finds the repeats (pandas'
    ``duplicated``)."""
    if not countable(n_keys, len(key)):
        return True
    if len(key) and key.min() < 0:  # (not a code below n_keys: the caller's search tells)
        return True
    seen = np.zeros(n_keys, dtype=bool)  # each value seen: fewer than the rows, a repeat
    seen[key] = True
    return int(np.count_nonzero(seen)) < len(key)


def first_repeat(key: np.ndarray, n_keys: int) -> int | None:
    """The first row whose ``key`` (integers below ``n_keys``) an earlier row has, or None;
    counted (no hash of every row) when the keys are few (:func:`may_repeat`)."""
    if not may_repeat(key, n_keys):
        return None
    dup = pd.Series(key).duplicated().to_numpy()
    return int(np.flatnonzero(dup)[0]) if dup.any() else None


def unrepeated(columns, n: int, *, tries: int = 3) -> bool:
    """True when no combination of some of ``columns`` (``(codes, number of values)`` each,
    codes of ``n`` rows) occurs twice, so that no combination of all of them does either:
    the largest sets of columns whose combined codes stay within a count (:func:`may_repeat`:
    no sort or hash of every row), ``tries`` of them at most. False when those cannot tell."""
    import itertools

    many = [c for c in columns if c[1] > 1][:10]
    sets: list[tuple[int, tuple[int, ...]]] = []
    for size in range(len(many), 0, -1):
        for chosen in itertools.combinations(range(len(many)), size):
            product = math.prod(many[i][1] for i in chosen)
            if countable(product, n) and not any(set(chosen) < set(s) for _, s in sets):
                sets.append((product, chosen))
    for product, chosen in sorted(sets, key=lambda s: -s[0])[:tries]:
        codes = np.zeros(n, dtype=np.int64)
        for i in chosen:
            codes *= many[i][1]
            codes += many[i][0]
        if not may_repeat(codes, product):
            return True
    return False


#: lines :func:`leading_lines` reads: the header and a sample of rows
LEADING_LINES = 200


def lines_end(buf: str | bytes, lines: int = LEADING_LINES) -> int:
    """Where line ``lines`` of ``buf`` (a text or its bytes) ends: the index of its line
    break, or -1 when ``buf`` has fewer line breaks."""
    newline = "\n" if isinstance(buf, str) else b"\n"
    cut = -1
    for _ in range(lines):
        cut = buf.find(newline, cut + 1)  # type: ignore[arg-type]
        if cut < 0:
            return -1
    return cut


def leading_lines(
    text: str, label: str, *, delimiter: str = "auto", lines: int = LEADING_LINES,
    header: bool = True,
):  # fmt: skip
    """:func:`split_lines` of the first ``lines`` lines only (the header and a sample of rows,
    enough for the header checks and :func:`wrong_file_hint`); the whole text when the start
    holds no data row."""
    cut = lines_end(text, lines)
    if cut < 0:
        return split_lines(text, label, delimiter=delimiter, header=header)
    try:
        return split_lines(text[:cut], label, delimiter=delimiter, header=header)
    except StatsInputError:
        return split_lines(text, label, delimiter=delimiter, header=header)


def plain_leading_lines(data: bytes, label: str, **options):
    """:func:`leading_lines` of a plain file's bytes (:func:`~._arrow.plain_bytes`), of which
    only the lines it looks at are decoded; the whole file when those hold no data row."""
    cut = lines_end(data, options.get("lines", LEADING_LINES))
    if cut >= 0:
        try:
            return leading_lines(data[:cut].decode("utf-8"), label, **options)
        except StatsInputError:
            pass
    return leading_lines(data.decode("utf-8"), label, **options)


def decode_plain_fast(data: bytes, label: str) -> str:
    """:func:`decode` of a file's bytes; a plain file (:func:`~._arrow.plain_bytes`: UTF-8
    without a byte-order mark, no NUL or line break but ``\\n``, within the limits the decoder
    checks) decoded as UTF-8 without the decoder's own scans, which could refuse nothing in
    it."""
    return data.decode("utf-8") if plain_bytes(data) else decode(data, label)


@functools.cache
def _has_pyarrow() -> bool:
    return importlib.util.find_spec("pyarrow") is not None


def _pyarrow_frame(data: bytes, columns, sep: str, dtype, header: int = 1) -> pd.DataFrame:
    """pyarrow's CSV parser, every column typed as asked (strings stay strings: ``007``)."""
    import pyarrow as pa
    from pyarrow import csv as pacsv

    # strings as pandas holds them (large_string: no cast when they become a pandas column)
    types = {c: pa.float64() if dtype.get(c) == "float64" else pa.large_string() for c in columns}
    table = pacsv.read_csv(
        pa.BufferReader(pa.py_buffer(data)),  # the bytes read in place, no copy
        read_options=pacsv.ReadOptions(
            column_names=list(columns), skip_rows=header,
            use_threads=True,  # blocks parsed on every core, as pandas' parser splits a file
        ),
        parse_options=pacsv.ParseOptions(delimiter=sep, quote_char=False),
        convert_options=pacsv.ConvertOptions(
            column_types=types,
            strings_can_be_null=False,
            null_values=[""],
            quoted_strings_can_be_null=False,
        ),
    )
    return table.to_pandas(
        types_mapper={pa.large_string(): pd.StringDtype("pyarrow", np.nan)}.get
    )


def fast_frame(
    data: bytes,
    columns: Sequence[str],
    delimiter: str,
    dtype: Mapping[str, str],
    *,
    header: bool = True,
) -> pd.DataFrame | None:
    """The rows of ``data`` (header line skipped) read by :func:`pandas.read_csv` (pyarrow's
    parser, or pandas' C parser for whitespace-separated files),
    or None when the careful parser must read them (see :data:`_CAREFUL_BYTES`) or pandas
    rejects something (a ragged row, a value that is not a number, a missing or non-finite
    number): the careful parser then finds it and names its line and column.

    ``dtype`` maps columns to ``"float64"``; every other column is pandas' string dtype, held by
    pyarrow (no Python object per row: a column of a million names holds their bytes once,
    not a million Python strings). Strings are stripped as the careful parser strips them.
    """
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8) :]
    if data.translate(None, _OTHER_BYTES) or (
        not data.isascii() and any(seq in data for seq in _CAREFUL_UTF8)
    ):
        return None
    if dtype and long_line(data, MAX_NUMBER_CHARS):  # a number field may be too long
        return None  # for the rule; pandas would read it
    byte, sep = _SEPARATORS[delimiter]
    try:
        if byte is not None and _has_pyarrow():
            frame = _pyarrow_frame(data, columns, byte.decode(), dtype, int(header))
        else:  # runs of whitespace: pandas' C parser
            with warnings.catch_warnings():  # a long first row is only a warning to pandas
                warnings.simplefilter("error", pd.errors.ParserWarning)
                frame = pd.read_csv(
                    io.BytesIO(data),
                    sep=sep,
                    header=0 if header else None,
                    names=list(columns),
                    index_col=False,
                    dtype={c: dtype.get(c, str) for c in columns},
                    keep_default_na=False,
                    na_values=[""],
                    quoting=csv.QUOTE_NONE,
                    engine="c",
                )
    except (ValueError, pd.errors.ParserWarning):  # ParserError and bad numbers: ValueErrors
        return None
    except Exception as exc:  # pyarrow's own errors (ArrowInvalid is a ValueError)
        if type(exc).__module__.startswith("pyarrow"):
            return None
        raise
    if count_byte(data, b"\n") + (not data.endswith(b"\n")) != len(frame) + header:
        return None  # a blank line (pandas skips it; the careful parser counts it)
    if byte is not None and count_byte(data, byte) != (len(frame) + header) * (len(columns) - 1):
        return None  # a short row (pandas pads it; the careful parser names it)
    # a space, a CR or a tab inside a field: names may need stripping (memchr scans)
    padded = data.find(b" ") >= 0 or data.find(b"\r") >= 0 or (
        byte != b"\t" and data.find(b"\t") >= 0
    )
    for c in columns:
        col = frame[c]
        if col.isna().any():
            return None
        if col.dtype.kind == "f":  # non-finite or too large: the careful parser names it
            values = col.to_numpy()
            if not finite_within_bound(values):
                return None
        if col.dtype.kind != "f" and byte is not None and padded:
            frame[c] = col.str.strip()
    return frame


def read_table(
    source: Source,
    *,
    required: Sequence[str],
    optional: Sequence[str] = (),
    name: str | None = None,
    delimiter: str = "auto",
    extra_columns: bool = False,
    hint: str | None = None,
    dtype: Mapping[str, str] | None = None,
    text: str | None = None,
    names: Sequence[str] | None = None,
    max_extra: tuple[int, str] | None = None,
) -> RawTable:
    """Read a delimited text file with a header row into a :class:`RawTable` of strings.

    Header names are matched case-insensitively against ``required`` and ``optional`` and
    renamed to the spelling given there. ``extra_columns=True`` keeps unknown columns (as
    they are spelled in the file); otherwise they are dropped.

    ``hint`` names what the file should be, as the start of a :data:`FILE_KINDS` description
    (e.g. ``"human judgements"``): the header and field-count errors then also say when the
    file looks like plain text or like another kind of input (:func:`wrong_file_hint`).

    A file is read by :func:`pandas.read_csv` (:func:`fast_frame`) when it can be, else, or
    when that finds anything wrong, line by line, which names the line at fault. ``dtype``
    (column -> ``"float64"`` or ``"str"``, spelled as in ``required``/``optional``)
    applies to the first way only: big files then hold no Python object per row, and the
    float columns are finite; the other columns are pandas' string dtype the first way and
    object arrays of strings the second. Callers must accept both.

    ``text``: the decoded text of ``source``, when the caller has already decoded it
    (:func:`decode`); ``source`` must then be the file's bytes (:func:`load_bytes`).

    ``names``: the columns of a file without a header line (its line 1 is then data).

    ``max_extra``: ``(limit, what)`` for a wide table, whose columns beyond ``required`` and
    ``optional`` are ``what`` (systems, metrics): more than ``limit`` of them are refused from
    the header, before the body is parsed.

    Raises
    ------
    StatsInputError
        Missing file, empty file, undecodable bytes, a missing required column, a duplicate
        column name, or a row with the wrong number of fields (naming the line).
    """
    data, label = load_bytes(source, name)
    if text is None:
        text = source.text if isinstance(source, Decoded) else decode(data, label)
    if names is None:
        head, rows, delimiter = leading_lines(text, label, delimiter=delimiter)
    else:  # no header line: the caller names the columns, and line 1 is data
        _, rows, delimiter = leading_lines(text, label, delimiter=delimiter, header=False)
        head = list(names)
    extra = wrong_file_hint(head, rows, expected=hint) if hint else ""
    canon = {c.lower(): c for c in [*required, *optional]}
    columns = [canon.get(h.lower(), h) for h in head]
    check_header_once(columns, label)
    if max_extra is not None:
        check_header_width(
            sum(c not in canon.values() for c in columns),
            label,
            what=max_extra[1],
            limit=max_extra[0],
        )
    missing = [c for c in required if c not in columns]
    if missing:
        raise StatsInputError(
            f"{label}, line 1: missing header column(s) {', '.join(missing)}; "
            f"found {', '.join(head) or 'nothing'} (expected {' '.join(required)}){extra}"
        )
    keep = [c for c in columns if extra_columns or c in canon.values()]
    has_head = names is None
    frame = fast_frame(data, columns, delimiter, dtype or {}, header=has_head)
    if frame is None and dtype and "float64" in dtype.values():
        # a value that is not a number (a file failing at its last line): the rows read by
        # columns again, as strings, for the caller's number rule to name the line (a
        # line-by-line pass over millions of rows only to find one bad number costs 10x more)
        as_text = {c: "str" for c in dtype}
        frame = fast_frame(data, columns, delimiter, as_text, header=has_head)
    if frame is not None:
        frame[LINE] = np.arange(1 + has_head, len(frame) + 1 + has_head, dtype=np.int64)
        return RawTable(frame=frame[[*keep, LINE]], name=label, delimiter=delimiter)
    _, rows, _ = split_lines(text, label, delimiter=delimiter, header=has_head)
    width = len(columns)
    for line_no, fields in rows:
        if len(fields) != width:
            spaces = (
                "; fields are split on whitespace here, so a name containing spaces needs a "
                "tab-separated file"
                if delimiter == "whitespace" and len(fields) > width and not extra
                else ""
            )
            raise StatsInputError(
                f"{label}, line {line_no}: expected {width} fields ({' '.join(columns)}) as in "
                f"the header, found {len(fields)}{spaces}{extra}"
            )
    frame = pd.DataFrame([f for _, f in rows], columns=columns, dtype=object)
    frame[LINE] = np.array([i for i, _ in rows], dtype=np.int64)
    return RawTable(frame=frame[[*keep, LINE]], name=label, delimiter=delimiter)


#: peak memory of parsing a file, in multiples of its decoded text (the goal: parsed tables
#: within 3x the file's size; benchmarks/parse_memory.py measures each reader)
PARSE_MEMORY_FACTOR = 3
#: the measured peaks over the goal (benchmarks/parse_memory.py, 13-20 MB files), checked
#: before the path that has them: WMT22-23 DocLvl/SegLvl exports (4.7x), QE submissions (5.6x)
#: and word-level tags (6.0x) read line by line (files that are not plain: blank or CRLF
#: lines, quotes, ``0x``); read by columns, every other reader is within
#: :data:`PARSE_MEMORY_FACTOR` (word-level gold is checked per tag: ``qe_word.BYTES_PER_TAG``)
PARSE_MEMORY_FACTORS = {
    "appraise-wmt22-lines": 5,
    "qe-lines": 6,
    "word-lines": 6,
}


def check_parse_memory(n_chars: int, label: str, factor: float = PARSE_MEMORY_FACTOR) -> None:
    """Refuse, before parsing, a file whose parsing would exceed the memory budget
    (:data:`stats._core.budget.MAX_MEMORY_BYTES`, or a smaller :func:`limited_budget`):
    ``factor`` (:data:`PARSE_MEMORY_FACTOR`, or the reader's measured factor of
    :data:`PARSE_MEMORY_FACTORS` before a path that needs more) times its ``n_chars``
    characters (or ``n_chars`` units of what the reader counts, ``factor`` bytes each).
    The message names what the user controls: the file."""
    from stats._core.budget import memory_limit, size_text

    need, limit = float(factor * n_chars), memory_limit()
    if need > limit:
        raise StatsInputError(
            f"reading {label}: parsing it needs about {size_text(need)} of memory, over the "
            f"budget of {size_text(limit)}; split the file (e.g. one language pair per file)"
        )


def factorize_strings(column: pd.Series) -> tuple[np.ndarray, int]:
    """``pd.factorize(column)``'s codes (int64) and number of distinct values; a column of
    pyarrow strings (pandas 3's ``str``) is encoded by pyarrow, without the Python string
    per row that pandas' factorize of it makes."""
    dtype = column.dtype
    if not (isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow") or column.hasnans:
        codes, uniques = pd.factorize(column)
        return codes.astype(np.int64, copy=False), len(uniques)
    import pyarrow as pa

    codes, names = coded(pa.array(column.array))  # block by block, as codes_and_names
    return codes, len(names)


def arrow_cells(column: pd.Series):
    """The pyarrow array of a column of pandas' pyarrow strings, its chunks (one per block the
    parser read) joined (a chunked array wrapped in another is converted value by value)."""
    import pyarrow as pa

    cells = pa.array(column.array)
    if isinstance(cells, pa.ChunkedArray):
        cells = cells.combine_chunks() if cells.num_chunks != 1 else cells.chunk(0)
    return cells


def codes_and_names(column) -> tuple[np.ndarray, list[str]]:
    """``(codes, names)``: each row's index (int64) into the distinct values, in order of first
    appearance, and those values as ``str``. A column of pyarrow strings (pandas' ``str``) is
    encoded by pyarrow, without a Python string per row (pandas' factorize of it makes one),
    block by block as the parser left it (one encoding: no join of the blocks first)."""
    dtype = getattr(column, "dtype", None)
    if (
        isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"
        and not column.hasnans and len(column)
    ):
        import pyarrow as pa

        codes, names = coded(pa.array(column.array))
        return codes, names.tolist()
    codes, uniques = pd.factorize(column)
    return codes.astype(np.int64), [str(v) for v in np.asarray(uniques, dtype=object).tolist()]


def mix_codes(codes: np.ndarray, size: int, k: np.ndarray, n_unique: int) -> tuple[np.ndarray, int]:
    """Combine a key column's codes ``k`` (``n_unique`` values) into ``codes`` (``size``
    possible values), in place where it can: ``codes * n_unique + k``, one number per
    combination of the columns so far. Renumbered first (``pd.factorize``) where the product
    could pass 2**62. Returns the codes and their new number of possible values."""
    if size * n_unique >= 2**62:  # renumber before the product could overflow
        codes, seen = pd.factorize(codes)
        size = len(seen)
    codes *= n_unique
    codes += k
    return codes, size * n_unique


def text_lines(text: str):
    """The lines of ``text`` with their ``\\n`` ends, one at a time (as iterating over
    ``io.StringIO(text)`` gives them, without its copy of the text at 4 bytes a character)."""
    start, n = 0, len(text)
    while start < n:
        end = text.find("\n", start)
        end = n if end < 0 else end + 1
        yield text[start:end]
        start = end


#: the line boundaries of :meth:`str.splitlines`
_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_LINE_RE = re.compile(f"([^{_BREAKS}]*)(?:\r\n|[{_BREAKS}]|\\Z)")


def iter_splitlines(text: str):
    """``text.splitlines()``, one line at a time (no list of every line of a big file)."""
    n = len(text)
    for match in _LINE_RE.finditer(text):
        if match.start() == n:
            return
        yield match.group(1)


# the one spelling of a number in every input (ASCII digits, sign, point, exponent), shared
# with the command line's options: stats._core.numbers


def _not_a_number(raw, what: str) -> str:
    """Why ``raw`` is not a score (the clause of the error line)."""
    low = str(raw).strip().lower()
    if low in {"nan", "na", "n/a", ""}:
        return f"{what} is missing or NaN ({raw!r})"
    if low.lstrip("+-") in {"inf", "infinity"}:
        return f"{what} is infinite ({raw!r})"
    if len(low) > MAX_NUMBER_CHARS:
        return f"a field of {len(low):,} characters is not a {what}"
    if overflows(low) and NUMBER.fullmatch(low):
        return f"{what} {raw!r} overflows a 64-bit float (largest about 1.8e308)"
    return f"{raw!r} is not a number"


def parse_float(
    raw, label: str, column: str, line: int | None = None, *, what: str = "score"
) -> float:
    """One value read by the rule of :func:`to_float` (:data:`NUMBER`, finite, within
    :data:`~._limits.MAX_ABS_VALUE`), for readers that convert value by value.

    Examples
    --------
    >>> parse_float(" -0.5 ", "a.tsv", "SCORE", 3)
    -0.5
    >>> parse_float("5_0", "a.tsv", "SCORE", 3)
    Traceback (most recent call last):
    ...
    stats._core.errors.StatsInputError: a.tsv, line 3, column SCORE: '5_0' is not a number
    """
    try:
        value = strict_float(raw)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        where = f", line {int(line)}" if line is not None else ""
        raise StatsInputError(f"{label}{where}, column {column}: {_not_a_number(raw, what)}")
    check_value(value, column, label, line)
    return value


def is_finite_number(text) -> bool:
    """Whether ``text`` spells a finite number by the rule of :func:`to_float` (for telling
    a header from data, or one layout from another)."""
    try:
        return math.isfinite(strict_float(text))
    except ValueError:
        return False


def floats_by_rule(values) -> np.ndarray:
    """Each of ``values`` (strings) as a float by the one rule for numbers (:data:`NUMBER`,
    as :func:`strict_float`), NaN where it spells none (or a longer text than
    :data:`MAX_NUMBER_CHARS`); infinite where it is too large. The array form behind
    :func:`to_float`, for readers that then name what is wrong their own way.

    Examples
    --------
    >>> floats_by_rule(["0.5", "5_0", "1e400", "nan"]).tolist()
    [0.5, nan, inf, nan]
    """
    series = pd.Series(np.asarray(values, dtype=object))
    out = np.array(pd.to_numeric(series, errors="coerce"), dtype=float)
    try:
        long = series.str.len().to_numpy(dtype=float) > MAX_NUMBER_CHARS
    except AttributeError:  # no strings among the values (numbers already)
        return out
    if long.any():
        out[long] = np.nan
    return out


def _arrow_floats(column: pd.Series) -> np.ndarray | None:
    """A column of pandas' pyarrow strings as floats by the one rule (:data:`NUMBER`,
    surrounding spaces stripped, at most :data:`MAX_NUMBER_CHARS` characters), computed by
    pyarrow (no Python object per cell): NaN where a cell spells no number, infinite where
    it overflows; None for any other column."""
    dtype = column.dtype
    if not (isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow") or not len(column):
        return None
    import pyarrow as pa
    import pyarrow.compute as pc

    from ._arrow import NUMBER_RE2

    cells = arrow_cells(column)
    direct = plain_floats(cells)
    if direct is not None:
        return direct
    spelled = pc.and_(
        pc.match_substring_regex(cells, NUMBER_RE2),
        pc.less_equal(pc.utf8_length(cells), MAX_NUMBER_CHARS),
    ).fill_null(False)
    try:
        values = pc.cast(pc.if_else(spelled, pc.utf8_trim_whitespace(cells), "nan"), pa.float64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    return np.array(values.to_numpy(zero_copy_only=False), dtype=float)


def plain_floats(cells) -> np.ndarray | None:
    """A pyarrow string array as floats when pyarrow's own cast reads every cell as a finite
    number of at most :data:`MAX_NUMBER_CHARS` bytes, else None. The cast takes decimal
    numbers only (no spaces, no ``_``, no hex; ``nan`` and ``inf`` come out non-finite and
    are refused here), so what it reads is what the one rule (:data:`NUMBER`) reads; one pass
    instead of a regular expression per cell, for the common file whose numbers are plain."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not len(cells) or cells.null_count:
        return None
    try:
        values = pc.cast(cells, pa.float64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    out = np.asarray(values.to_numpy(zero_copy_only=False), dtype=float)
    if not np.isfinite(out).all():
        return None
    if pc.max(pc.binary_length(cells)).as_py() > MAX_NUMBER_CHARS:
        return None
    return out


def column_numbers(cells, *, typed: bool) -> np.ndarray | None:
    """A parsed column of numbers (a pyarrow ChunkedArray) as floats when every one is finite
    and within :data:`~._limits.MAX_ABS_VALUE`, else None (the careful path names the cell).
    ``typed``: the parser read the cells as float64; else they are strings, read by
    :func:`plain_floats`."""
    from ._limits import MAX_ABS_VALUE

    if typed:
        values = cells.chunk(0).to_numpy() if cells.num_chunks == 1 else cells.to_numpy()
        with np.errstate(invalid="ignore"):
            return values if finite_within_bound(values) else None
    out = plain_floats(cells.combine_chunks() if cells.num_chunks != 1 else cells.chunk(0))
    if out is None or (np.abs(out) > MAX_ABS_VALUE).any():
        return None
    return out


def to_float(frame: pd.DataFrame, column: str, label: str, *, what: str = "score") -> np.ndarray:
    """Convert a string column of ``frame`` to floats: the one rule for numbers in every
    input (:data:`NUMBER`: ASCII digits, optional sign, point and exponent; no ``_``, no hex;
    finite; within :data:`~._limits.MAX_ABS_VALUE`). :func:`parse_float` is the same rule for
    one value.

    Raises
    ------
    StatsInputError
        Naming file, line and column, for a value that is not a number, is NaN or
        infinite, is too large for a 64-bit float (``1e400``), or lies beyond
        :data:`~._limits.MAX_ABS_VALUE`.
    """
    col = frame[column]
    lines = frame[LINE].to_numpy() if LINE in frame else None
    if col.dtype.kind == "f" and np.isfinite(col.to_numpy(dtype=float)).all():  # as parsed
        out = col.to_numpy(dtype=float)
        check_value_range(out, column, label, lines)
        return out
    out = _arrow_floats(col)
    if out is not None:  # pyarrow strings: the first bad cell found without an object per row
        bad = ~np.isfinite(out)
        if bad.any():
            i = int(np.flatnonzero(bad)[0])
            line = int(lines[i]) if lines is not None else i + 1
            raise StatsInputError(
                f"{label}, line {line}, column {column}: {_not_a_number(col.iloc[i], what)}"
            )
        check_value_range(out, column, label, lines)
        return out
    values = frame[column].to_numpy(dtype=object)
    out = floats_by_rule(values)
    bad = ~np.isfinite(out)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        line = int(frame[LINE].iloc[i]) if LINE in frame else i + 1
        raise StatsInputError(
            f"{label}, line {line}, column {column}: {_not_a_number(values[i], what)}"
        )
    check_value_range(out, column, label, frame[LINE].to_numpy() if LINE in frame else None)
    return out


def name_list(items, limit: int = 8) -> str:
    """Join names for a message, eliding after ``limit`` items."""
    items = [str(i) for i in items]
    if len(items) <= limit:
        return ", ".join(items)
    return ", ".join(items[:limit]) + f", ... ({len(items)} in all)"


# ---- telling the user what kind of file they gave (wrong-file hints) ----

#: Header columns (lower case) that identify each kind of input file, most specific first,
#: with how to name it in a message (what it is; where it goes).
FILE_KINDS: tuple[tuple[frozenset[str], str], ...] = (
    (
        frozenset({"system", "segment", "annotator", "criterion", "score"}),
        "human judgements (SYSTEM SEGMENT ANNOTATOR CRITERION SCORE; for `accuracy --human`)",
    ),
    (
        frozenset({"metric", "sid", "score", "human"}),
        "QE predictions (METRIC SID SCORE RANK HUMAN; for `qe --data`)",
    ),
    (
        frozenset({"sid", "time", "words"}),
        "a post-editing table (SID TIME WORDS; for `qe --post-edit`)",
    ),
    (
        frozenset({"system", "segment", "score"}),
        "segment-level scores (SYSTEM SEGMENT SCORE [METRIC]; for `randomized --scores`)",
    ),
)

TEXT_FILE_HINT = (
    "is this a plain-text file (one segment per line)? System outputs and references are "
    "read as text (--hyp/--ref; stats.readers.read_parallel)"
)


def file_kind(head: Sequence[str] | None) -> str | None:
    """What a file with header fields ``head`` looks like (an entry of :data:`FILE_KINDS`),
    or None."""
    low = {str(h).strip().lower() for h in head or ()}
    for columns, description in FILE_KINDS:
        if columns <= low:
            return description
    return None


def spells_number(field: str) -> bool:
    """Whether ``field`` is spelled as a number (:func:`strict_float`; ``1e400`` and ``nan``
    too: a header is told from data by spelling, the value is checked where it is read)."""
    try:
        strict_float(field)
    except ValueError:
        return False
    return True


def looks_like_text(head: Sequence[str] | None, rows, *, sample: int = 20) -> bool:
    """True when ``head`` and the first ``sample`` rows (``[(line, fields)]`` as from
    :func:`split_lines`) look like running text rather than a table of scores: no known header
    and under 10% of the fields are numbers. Every table this package reads has numbers."""
    if file_kind(head) is not None:
        return False
    fields = [f for _, fs in list(rows)[:sample] for f in fs]
    if not fields:
        return False
    numeric = sum(spells_number(f) for f in fields)
    return numeric < 0.1 * len(fields)


def wrong_file_hint(head: Sequence[str] | None, rows, *, expected: str) -> str:
    """A clause saying what a file looks like when it is not ``expected`` (e.g. ``"segment-level
    scores"``): plain text, or another kind of input (see :data:`FILE_KINDS`); ``""`` when
    nothing is recognised. Starts with ``"; "`` so it can be appended to a message."""
    if looks_like_text(head, rows):
        return f"; {TEXT_FILE_HINT}"
    kind = file_kind(head)
    if kind is not None and not kind.startswith(expected):
        return f"; this looks like {kind}, not {expected}"
    return ""
