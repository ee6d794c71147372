"""Typed, column-wise reading of plain delimited files with pyarrow's CSV parser: the fast path
of the readers whose files can be large (WMT segment scores, QE submissions, word-level tags).

A file is parsed a block at a time straight into typed columns: numbers as float64 or int64,
repeated names (systems, language pairs, metrics, documents) as dictionary-encoded strings (one
small integer per row, each distinct name once), so a parsed file holds a fraction of its size
and no Python object per row. Decoded text is handed to the parser a block at a time
(:class:`TextStream`), never as a second whole copy in bytes.

Anything the parser does not take as it is (a ragged row, a value that is not of its column's
type, a missing value) makes :func:`read_typed` return None: the reader's careful path then
reads the file line by line and names the line at fault.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

#: what pyarrow holds per column: ``"dict"`` (dictionary-encoded strings), ``"str"``,
#: ``"large"`` (strings with 64-bit offsets, as pandas' ``str`` holds them), ``"float64"``,
#: ``"int64"``
ColumnType = str

#: pandas' default missing-value spellings: refused in a name column, as pandas' C parser makes
#: them missing (the careful path then names the line)
PANDAS_NA = [
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
]  # fmt: skip

#: bytes of text handed to the parser at a time (smaller blocks hold less at once; measured
#: with benchmarks/parse_memory.py)
BLOCK = 1 << 18
#: bytes a time for the column-wise readers of plain files: fewer blocks, fewer dictionaries to
#: unify (1 MB: the fastest measured on a 1M-row file, benchmarks/wmt_read.py; the parse then
#: holds about 1x the file, benchmarks/parse_memory.py)
LARGE_BLOCK = 1 << 20


def countable(size: int, rows: int) -> bool:
    """Whether values below ``size`` (of ``rows`` rows) are counted in a table over their
    range, no bigger than a few times the rows, instead of hashed or sorted."""
    return size <= 4 * rows + 1024


def finite_within_bound(values: np.ndarray) -> bool:
    """Whether every value is finite and within the number rule's bound
    (:data:`~._limits.MAX_ABS_VALUE`)."""
    from ._limits import MAX_ABS_VALUE

    if not values.size:
        return True
    # the smallest and largest value (a NaN is both: NaN compares false), no array the size
    # of ``values`` made
    return bool(-MAX_ABS_VALUE <= values.min() and values.max() <= MAX_ABS_VALUE)


def hexadecimal(data: bytes | str) -> bool:
    """Whether ``data`` holds ``0x`` or ``0X`` (pyarrow's parser reads ``0x10`` as 16; the
    one number rule does not). A search for the letter first: a scan for one character is
    much faster than for two."""
    if isinstance(data, str):
        return ("x" in data and "0x" in data) or ("X" in data and "0X" in data)
    return (b"x" in data and b"0x" in data) or (b"X" in data and b"0X" in data)


def may_be_padded(data: bytes, comma: bool) -> bool:
    """Whether a plain file's cells (:func:`plain_bytes`) may carry spaces or tabs around
    them: a space anywhere, or a tab in a comma-separated file."""
    return data.find(b" ") >= 0 or (comma and data.find(b"\t") >= 0)


class TextStream(io.RawIOBase):
    """A binary stream of ``text`` encoded as UTF-8 a block at a time (a reader of a decoded
    file without its whole copy in bytes)."""

    def __init__(self, text: str, start: int = 0):
        self._text, self._at, self._pending = text, start, b""

    def readable(self) -> bool:
        return True

    def readinto(self, buf) -> int:
        while len(self._pending) < len(buf) and self._at < len(self._text):
            step = max(len(buf) - len(self._pending), BLOCK // 4)
            part = self._text[self._at : self._at + step]
            self._at += len(part)
            self._pending += part.encode("utf-8")
        n = min(len(buf), len(self._pending))
        buf[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n


def _pa_type(kind: ColumnType):
    import pyarrow as pa

    return {
        "dict": pa.dictionary(pa.int32(), pa.string()),
        "str": pa.string(),
        "large": pa.large_string(),
        "float64": pa.float64(),
        "int64": pa.int64(),
    }[kind]


def read_typed(
    source,
    columns: Sequence[str],
    types: Mapping[str, ColumnType],
    *,
    delimiter: str = "\t",
    skip_rows: int = 0,
    include: Sequence[str] | None = None,
    null_values: Sequence[str] = (),
    blank_lines: bool = True,
    block: int | None = None,
    threads: bool = False,
    valid_utf8: bool = False,
):
    """The rows of ``source`` (bytes, or a binary stream such as :class:`TextStream`) as a
    :class:`pyarrow.Table` of the ``include`` columns (default: all), each of its type in
    ``types``; ``skip_rows`` lines (a header) skipped; no quoting, blank lines skipped. None
    when pyarrow is missing or the parser refuses anything: the caller's careful path reads it
    and names the line. ``null_values``: spellings read as missing (the caller refuses or
    handles those rows). ``blank_lines=False``: a blank line is refused (None), so that row
    ``i`` is line ``skip_rows + i + 1``. ``block``: bytes parsed at a time (default
    :data:`BLOCK`; larger blocks parse a little faster and hold a little more). ``threads``:
    blocks parsed by pyarrow's threads (less wall time on a machine with idle cores; a few
    more blocks held at once). ``valid_utf8``: the caller has checked that the bytes are
    UTF-8 (:func:`plain_bytes`, or ASCII): the parser does not check each cell again."""
    try:
        import pyarrow as pa
        from pyarrow import csv as pacsv
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        return None
    if isinstance(source, (bytes, bytearray, memoryview)):
        source = pa.BufferReader(pa.py_buffer(source))  # the bytes read in place, no copy
    keep = list(include) if include is not None else list(columns)
    try:
        table = pacsv.read_csv(
            source,
            read_options=pacsv.ReadOptions(
                column_names=list(columns),
                skip_rows=skip_rows,
                block_size=block or BLOCK,
                use_threads=threads,  # (threads hold more blocks at once: 1x more memory)
            ),
            parse_options=pacsv.ParseOptions(
                delimiter=delimiter, quote_char=False, ignore_empty_lines=blank_lines
            ),
            convert_options=pacsv.ConvertOptions(
                check_utf8=not valid_utf8,
                column_types={c: _pa_type(types[c]) for c in keep},
                include_columns=keep,
                null_values=list(null_values),
                strings_can_be_null=bool(null_values),
                quoted_strings_can_be_null=False,
            ),
            # the C allocator numpy uses too: memory the parser frees is reused by the arrays
            # made from its columns, not held in arrow's own pool
            memory_pool=pa.system_memory_pool(),
        )
    except pa.ArrowException:
        return None
    except ValueError:  # ArrowInvalid is one (bytes that are not UTF-8); a bad stream too
        return None
    return table


def categorical(column) -> pd.Categorical:
    """A pyarrow column (dictionary-encoded or plain strings) as a pandas Categorical, its
    chunks' dictionaries unified."""
    import pyarrow as pa

    if isinstance(column, pa.ChunkedArray) and not pa.types.is_dictionary(column.type):
        column = column.dictionary_encode()
    if isinstance(column, pa.ChunkedArray) and _one_name(column):
        # every block's dictionary the same one name (a file's language pair or method):
        # no unification of the blocks' dictionaries
        name = column.chunks[0].dictionary[0].as_py()
        return pd.Categorical.from_codes(np.zeros(len(column), dtype=np.int8), categories=[name])
    if isinstance(column, pa.ChunkedArray):
        column = column.unify_dictionaries() if column.num_chunks > 1 else column
        if column.num_chunks == 0:
            return pd.Categorical([])
        column = column.combine_chunks() if column.num_chunks > 1 else column.chunk(0)
    codes = column.indices.to_numpy(zero_copy_only=False)
    names = column.dictionary.to_pandas()
    return pd.Categorical.from_codes(np.asarray(codes, dtype=np.int32), categories=names)


def _one_name(column) -> bool:
    """Whether a dictionary-encoded column has no missing cell and every block's dictionary
    is the same single name."""
    chunks = column.chunks
    return bool(
        chunks
        and not column.null_count
        and all(len(c.dictionary) == 1 for c in chunks)
        and all(c.dictionary.equals(chunks[0].dictionary) for c in chunks[1:])
    )


def numbers_as_pandas_reads_them(values: pd.Categorical) -> pd.Categorical:
    """``values`` with each category spelled as pandas' C parser reads a column of it: when
    every category is a number, as that number (``007`` -> ``7``; ``1`` and ``1.5`` ->
    ``1.0`` and ``1.5``), equal numbers merged; else unchanged. The text of a column read as
    strings then equals the text of the same column read by type inference."""
    cats = values.categories
    if not len(cats) or cats.dtype.kind in "iuf":
        return values
    try:
        numbers = pd.to_numeric(pd.Series(cats.to_numpy(dtype=object)), errors="raise")
    except (ValueError, TypeError):
        return values
    if numbers.dtype.kind not in "iuf":
        return values
    spelled = numbers.astype(str).to_numpy(dtype=object)
    if (spelled == cats.to_numpy(dtype=object)).all():
        return values
    new_codes, new_cats = pd.factorize(spelled)
    codes = np.asarray(values.codes)
    mapped = np.where(codes >= 0, new_codes[np.maximum(codes, 0)], -1)
    return pd.Categorical.from_codes(mapped.astype(np.int32), categories=pd.Index(new_cats))


#: line breaks ``str.splitlines`` knows and pyarrow's parser does not (a text holding one is
#: read line by line, so that both count the same lines)
_RARE_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


def plain_breaks(text: str) -> bool:
    """Whether ``text`` breaks lines only at ``\\n``, ``\\r`` or ``\\r\\n`` (what pyarrow's
    parser and ``str.splitlines`` both know), and holds no NUL."""
    if text.isascii():  # (a search per character: C-level scans, not a regex per position)
        return not any(ch in text for ch in "\x00\x0b\x0c\x1c\x1d\x1e")
    return _RARE_BREAKS.search(text) is None and "\x00" not in text


def strings(values: pd.Categorical) -> pd.Series:
    """A Categorical as a column of pandas' ``str`` (pyarrow strings), built by pyarrow from
    the codes and categories (no Python string per row)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    codes = np.asarray(values.codes)
    if len(values.categories) == 1 and len(codes) and not codes.any():
        # one name in every row (a file's language pair or method): two buffers, no take
        return pd.Series(repeated(str(values.categories[0]), len(codes)), copy=False)
    names = pa.array(np.asarray(values.categories, dtype=object), type=pa.large_string())
    taken = pc.take(names, pa.array(codes, mask=codes < 0), memory_pool=pa.system_memory_pool())
    dtype = pd.StringDtype("pyarrow", na_value=np.nan)
    return pd.Series(pd.array(taken, dtype=dtype), copy=False)


def map_categories(values: pd.Categorical, fn) -> pd.Categorical:
    """``fn`` applied to each category (strings), equal results merged."""
    spelled = np.array([fn(c) for c in values.categories], dtype=object)
    new_codes, new_cats = pd.factorize(spelled)
    if len(new_cats) == len(spelled) and (new_codes == np.arange(len(spelled))).all():
        return pd.Categorical.from_codes(values.codes, categories=pd.Index(new_cats))
    codes = np.asarray(values.codes)
    lookup = np.append(new_codes.astype(codes.dtype), -1)  # code -1 (missing) stays -1
    return pd.Categorical.from_codes(lookup[codes], categories=pd.Index(new_cats))


#: the one rule for numbers (:data:`stats._core.numbers.NUMBER`) as an RE2 pattern, with the
#: surrounding spaces every reader strips (RE2's ``\d`` is ASCII only, as the rule's)
NUMBER_RE2 = r"^\s*[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?\s*$"


def not_numbers(column, bound: float) -> np.ndarray:
    """Which cells of a pyarrow string ``column`` are not a number by the one rule (spelled
    by :data:`stats._core.numbers.NUMBER`, at most
    :data:`~stats._core.numbers.MAX_NUMBER_CHARS` characters, finite, within ``bound``), as a
    boolean array: computed by pyarrow, without a Python object per cell (the search for a bad
    value among millions of rows)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from stats._core.numbers import MAX_NUMBER_CHARS

    spelled = pc.and_(
        pc.match_substring_regex(column, NUMBER_RE2),
        pc.less_equal(pc.utf8_length(column), MAX_NUMBER_CHARS),
    ).fill_null(False)
    values = pc.cast(pc.if_else(spelled, pc.utf8_trim_whitespace(column), "nan"), pa.float64())
    ok = pc.and_(spelled, pc.less_equal(pc.abs(values), bound)).fill_null(False)
    return ~np.asarray(ok.to_numpy(zero_copy_only=False), dtype=bool)


#: the non-ASCII characters Python's ``str.split``/``str.strip``/``str.splitlines`` take as
#: whitespace or line breaks, as UTF-8 (``\xe2\x80`` starts U+2000-U+200A, U+2028, U+2029: a
#: false alarm only costs speed)
_UNICODE_SPACES = tuple(ch.encode("utf-8") for ch in "\x85\xa0\u1680\u202f\u205f\u3000") + (
    b"\xe2\x80",
)
#: bytes never in a plain file: NUL, the carriage return and the ASCII breaks and separators
#: ``str.splitlines``/``str.split`` know and pyarrow's parser does not
_NOT_PLAIN = b"\x00\r\x0b\x0c\x1c\x1d\x1e\x1f"


def long_line(data: bytes, limit: int) -> bool:
    """Whether ``data`` holds more than ``limit`` bytes in a row without a ``\\n`` (a field
    that long can only be in such a line): for a small ``limit``, first whether every window
    of ``limit // 2 + 1`` bytes (at multiples of its width) holds a line break, by numpy (no
    Python step per line): then no run between two breaks spans more than two windows less
    their breaks, ``limit`` bytes at most; else the gaps between the line breaks of each
    :data:`LINE_SCAN` bytes."""
    if len(data) <= limit:
        return False
    if limit >= 2048:  # a step of a C-level search per ``limit`` bytes: few steps
        start = 0
        while len(data) - start > limit:
            last = data.rfind(b"\n", start, start + limit + 1)
            if last < 0:
                return True
            start = last + 1
        return False
    raw = np.frombuffer(data, dtype=np.uint8)
    width = limit // 2 + 1
    step = max(LINE_SCAN // width, 1) * width  # whole windows per block
    for at in range(0, len(raw), step):
        breaks = raw[at : at + step] == 10
        whole = len(breaks) // width * width
        if not breaks[:whole].reshape(-1, width).any(axis=1).all() or (
            whole < len(breaks) and not breaks[whole:].any()
        ):
            return _long_gap(raw, limit)
    return False


def _long_gap(raw: np.ndarray, limit: int) -> bool:
    """:func:`long_line` of the bytes ``raw``, from the gaps between their line breaks."""
    previous = -1  # the last line break before the block
    for at in range(0, len(raw), LINE_SCAN):
        breaks = np.flatnonzero(raw[at : at + LINE_SCAN] == 10)
        if not len(breaks):
            if min(at + LINE_SCAN, len(raw)) - previous - 1 > limit:
                return True
            continue
        breaks += at
        if breaks[0] - previous - 1 > limit:
            return True
        if len(breaks) > 1 and int(np.diff(breaks).max()) - 1 > limit:
            return True
        previous = int(breaks[-1])
    return len(raw) - previous - 1 > limit


#: bytes :func:`long_line` scans at a time (its arrays: a flag per byte, a position per break)
LINE_SCAN = 1 << 20


def plain_bytes(data: bytes, *, careful: bytes = b"") -> bool:
    """Whether ``data`` (a file's bytes, as :func:`~._common.load_bytes` returns them) can be
    parsed from its bytes as it is, with the same lines, fields and checks its decoded text
    would give: UTF-8 without a byte-order mark; no NUL, carriage return or other line break
    than ``\\n`` (so ``str.splitlines`` and pyarrow count the same lines); no whitespace but
    space, tab and ``\\n`` (so Python's and pyarrow's stripping agree); no byte of ``careful``
    (a reader's own: quotes, ``#``); and within the limits :func:`~._common.decode` checks
    (lines, header width, longest line). False sends the file to the reader's careful path,
    which decodes it and names what is wrong. Costs a few C-level scans, no copy of the file."""
    from . import _limits

    if not data or data.startswith(tuple(bom for bom, _ in _limits._BOMS)):
        return False
    for byte in _NOT_PLAIN + careful:
        if data.find(bytes([byte])) >= 0:
            return False
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return False
        if any(data.find(seq) >= 0 for seq in _UNICODE_SPACES):
            return False
    if (
        len(data) > _limits.MAX_LINES
        and count_byte(data, b"\n") + (not data.endswith(b"\n")) > _limits.MAX_LINES
    ):
        return False
    # the header on line 1 (not blank, not a comment), as the decoded path finds it
    first = data[: data.find(b"\n")] if b"\n" in data[: _limits.MAX_FIELD_CHARS + 1] else None
    if first is None or not first.strip() or first.lstrip().startswith(b"#"):
        return False
    if max(first.count(b"\t"), first.count(b","), first.count(b" ")) >= _limits.MAX_COLUMNS:
        return False
    return not long_line(data, _limits.MAX_FIELD_CHARS)  # no field longer than the limit


def count_byte(data: bytes, byte: bytes) -> int:
    """``data.count(byte)`` of one byte, counted by numpy a block at a time (a third of the
    time of ``bytes.count``)."""
    raw = np.frombuffer(data, dtype=np.uint8)
    value = byte[0]
    return sum(
        int(np.count_nonzero(raw[at : at + LINE_SCAN] == value))
        for at in range(0, len(raw), LINE_SCAN)
    )


def coded(column) -> tuple[np.ndarray, np.ndarray]:
    """``(codes, names)`` of a pyarrow string column (an array or a chunked array, as the
    parser returns it): each row's index (int64) into the distinct values in order of first
    appearance (as :func:`pandas.factorize`), and those values (an object array of ``str``);
    encoded by pyarrow, no Python string per row. A missing cell is code -1."""
    import pyarrow as pa
    import pyarrow.compute as pc

    encoded = pc.dictionary_encode(column, memory_pool=pa.system_memory_pool())
    chunks = encoded.chunks if isinstance(encoded, pa.ChunkedArray) else [encoded]
    if not chunks:
        return np.zeros(0, dtype=np.int64), np.array([], dtype=object)
    if any(not c.dictionary.equals(chunks[-1].dictionary) for c in chunks[:-1]):
        pool = pa.system_memory_pool()
        chunks = pa.chunked_array(chunks).unify_dictionaries(memory_pool=pool).chunks
    # the chunks of one encoding share one dictionary (pyarrow's memo table)
    names = np.array(chunks[-1].dictionary.to_pylist(), dtype=object)
    codes = np.empty(sum(len(c) for c in chunks), dtype=np.int64)
    at = 0
    for chunk in chunks:
        part = chunk.indices.to_numpy(zero_copy_only=False)
        if chunk.indices.null_count:
            part = np.where(np.asarray(chunk.indices.is_valid()), part, -1)
        codes[at : at + len(part)] = part
        at += len(part)
    return codes, names


def repeated(value: str, n: int) -> pd.api.extensions.ExtensionArray:
    """``n`` copies of ``value`` as a column of pandas' pyarrow strings (what a DataFrame
    makes of a scalar ``str``), built from two buffers instead of a take per row."""
    import pyarrow as pa

    raw = value.encode("utf-8")
    if raw:  # 0, k, 2k, ... in one pass
        offsets = np.arange(0, (n + 1) * len(raw), len(raw), dtype=np.int64)
    else:  # every cell empty: every offset 0
        offsets = np.zeros(n + 1, dtype=np.int64)
    cells = pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(raw * n))
    return pd.array(cells, dtype=pd.StringDtype("pyarrow", na_value=np.nan))


def name_codes(column, *, strip: bool = False) -> tuple[np.ndarray, list[str]]:
    """:func:`coded` of a pyarrow column of names without a missing cell, as the parser
    returns it (dictionary-encoded or plain strings, one chunk per block), the names as a
    list. ``strip``: each distinct name stripped of spaces and tabs (the only whitespace of a
    plain file, :func:`plain_bytes`), names equal after it merged (:func:`merge_spellings`)."""
    codes, names = coded(column)
    if strip:
        return merge_spellings(codes, names.tolist())
    return codes, names.tolist()


def merge_spellings(
    codes: np.ndarray, names: list[str], *, lower: bool = False
) -> tuple[np.ndarray, list[str]]:
    """``(codes, names)`` with each distinct name stripped of whitespace (and lower-cased),
    names equal after it merged into the first (in order of first appearance)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    spelled = pa.array(names, type=pa.string())
    changed = pc.utf8_trim_whitespace(spelled)
    changed = pc.utf8_lower(changed) if lower else changed
    if changed.equals(spelled):
        return codes, names
    merged, distinct = pd.factorize(np.array(changed.to_pylist(), dtype=object))
    return merged.astype(np.int64)[codes], [str(v) for v in distinct]


def one_name(column) -> str | None:
    """The name of a pyarrow string column whose every cell is the same name (a language pair,
    a test set), found by one comparison per row instead of a hash (none when the first and
    last cells differ); None otherwise."""
    import pyarrow.compute as pc

    if not len(column) or column[0].as_py() != column[-1].as_py():
        return None
    if pc.all(pc.equal(column, column[0])).as_py():
        return column[0].as_py()
    return None


#: 10**1 .. 10**18: ``searchsorted(..., side="right")`` of a magnitude is its digits minus 1
_POWERS_OF_TEN = 10 ** np.arange(1, 19, dtype=np.int64)


def canonical_integers(column) -> np.ndarray | None:
    """A pyarrow string column as int64 when every cell is an integer spelled as ``str(int)``
    spells it (``7``, not ``007``, ``+7``, ``-0`` or `` 7``: equal numbers are then equal
    cells, and ``str`` of a number gives its cell back); None when any cell is not (or the
    column is empty or has a missing cell). A cast and a pass, no Python object per cell."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not len(column) or column.null_count or pa.types.is_dictionary(column.type):
        return None
    try:
        numbers = pc.cast(column, pa.int64(), memory_pool=pa.system_memory_pool())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    values = np.asarray(numbers.to_numpy(), dtype=np.int64)
    del numbers
    low, high = int(values.min()), int(values.max())
    if low == np.iinfo(np.int64).min:
        return None
    # the cast takes no sign "+" and no space; what it takes beyond str(int)'s spelling is
    # leading zeros ("007", "-0"), which only lengthen a cell: equal total lengths, none.
    # Digits of str(v): 1, and 1 more for each power 10**k <= |v| (a count per power, up to
    # the largest magnitude's); a minus sign for each v < 0.
    spelled = len(values)
    for power in _POWERS_OF_TEN[_POWERS_OF_TEN <= max(high, -low)].tolist():
        spelled += int(np.count_nonzero(values >= power))
        if low <= -power:
            spelled += int(np.count_nonzero(values <= -power))
    if low < 0:
        spelled += int(np.count_nonzero(values < 0))
    if spelled != pc.sum(pc.binary_length(column)).as_py():
        return None
    return values


def distinct_integers(column) -> bool:
    """Whether every cell of a pyarrow string column is an integer spelled as ``str(int)``
    spells it (:func:`canonical_integers`) and no two are equal (then no two cells are
    equal): a cast and an order check (a sort when out of order), no hash of every cell."""
    values = canonical_integers(column)
    if values is None:
        return False
    if len(values) < 2 or (values[1:] > values[:-1]).all():  # in order: no sort
        return True
    ordered = np.sort(values)
    return not (ordered[1:] == ordered[:-1]).any()


def integer_codes(column) -> tuple[np.ndarray, list[str]] | None:
    """:func:`name_codes` of a pyarrow string column whose every cell is an integer spelled
    as ``str(int)`` spells it (:func:`canonical_integers`), computed on the numbers (no hash
    of every cell where their range is narrow); None when any cell is not such an integer."""
    found = integer_ids(column)
    if found is None:
        return None
    codes, numbers = found
    return codes, [str(v) for v in numbers.tolist()]


def integer_ids(column) -> tuple[np.ndarray, np.ndarray] | None:
    """:func:`integer_codes` with the names as the numbers they spell (int64, each name
    ``str`` of its number; :func:`integer_names` spells them as a column of strings), or
    None."""
    values = canonical_integers(column)
    if values is None:
        return None
    low, high = int(values.min()), int(values.max())
    if not countable(high - low, len(values)):  # a wide range: a hash of the numbers
        codes, uniques = pd.factorize(values)
        return codes.astype(np.int64, copy=False), np.asarray(uniques, dtype=np.int64)
    codes, present = first_appearance_codes(values - low, high - low + 1)
    return codes, present + low


def integer_names(numbers: np.ndarray) -> pd.Index:
    """``pd.Index([str(v) for v in numbers])`` of int64 ``numbers`` (pandas' ``str``, held
    by pyarrow as large strings), spelled by pyarrow's cast (the decimal digits and a minus
    sign, as ``str`` of an integer) without a Python string per number."""
    import pyarrow as pa

    cells = pa.array(np.asarray(numbers, dtype=np.int64)).cast(pa.large_string())
    return pd.Index(pd.array(cells, dtype=pd.StringDtype("pyarrow", na_value=np.nan)))


def first_appearance_codes(key: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``pd.factorize(key)`` of non-negative integer keys below ``size``: codes in order of
    first appearance and the keys they stand for. Found by counting (each key's first row,
    no hash of every row) when ``size`` is :func:`countable`."""
    n = len(key)
    if not countable(size, n) or not n or key.min() < 0:
        codes, uniques = pd.factorize(key)
        return codes.astype(np.int64), np.asarray(uniques)
    row = np.int32 if n < 2**31 else np.int64  # (a row number: half the bytes where it fits)
    first = np.full(size, n, dtype=row)
    np.minimum.at(first, key, np.arange(n, dtype=row))
    present = np.flatnonzero(first < n)
    uniques = present[np.argsort(first[present], kind="stable")]
    rank = np.empty(size, dtype=np.int64)
    rank[uniques] = np.arange(len(uniques), dtype=np.int64)
    return rank[key], uniques


def pair_codes(a: np.ndarray, na: int, b: np.ndarray, nb: int) -> tuple[np.ndarray, np.ndarray]:
    """``first_appearance_codes(a * nb + b, na * nb)`` of two columns of codes (``a`` below
    ``na``, ``b`` below ``nb``, none negative): when the pairs' range is too wide to count
    but one column's codes each go with one code of the other (a segment id within one
    document), the pairs are numbered as that column's codes, by counting (no hash of every
    row)."""
    n = len(a)
    size = na * nb
    if countable(size, n) or not n or min(int(a.min()), int(b.min())) < 0:
        return first_appearance_codes(a * nb + b, size)
    for x, nx, y in ((b, nb, a), (a, na, b)):
        if not countable(nx, n):
            continue
        partner = np.zeros(nx, dtype=np.int64)
        partner[x] = y  # (one of the codes each ``x`` goes with)
        if not np.array_equal(partner[x], y):
            continue
        codes, present = first_appearance_codes(x, nx)
        other = partner[present]
        return codes, (other * nb + present if x is b else present * nb + other)
    return first_appearance_codes(a * nb + b, size)


def in_threads(fn, items) -> list:
    """``[fn(x) for x in items]``, the calls run at once on up to one thread per core: the
    work on a parsed file's columns, which pyarrow's kernels and numpy's array operations do
    without holding the GIL, spread over the cores the parser used. The results in the
    order of ``items``; when calls raise, the exception of the first such item in that order
    (as the loop would raise it; the calls after it have run too, and have no effect). Each
    call runs in a copy of the caller's context (its context variables: a session's budget,
    numpy's error state), as it would in the caller's thread."""
    import contextvars
    import os
    from concurrent.futures import ThreadPoolExecutor

    items = list(items)
    workers = min(len(items), os.cpu_count() or 1)
    if workers < 2:
        return [fn(x) for x in items]
    calls = [(contextvars.copy_context(), x) for x in items]  # (one context per call)
    with ThreadPoolExecutor(max_workers=workers, thread_name_prefix="columns") as pool:
        return list(pool.map(lambda call: call[0].run(fn, call[1]), calls))
