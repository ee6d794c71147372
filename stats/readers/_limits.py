"""The boundary every untrusted input crosses before it is parsed: size limits, text encoding
detection, and the range of numbers the statistics can handle.

:func:`stats.readers._common.load_bytes` checks :data:`MAX_BYTES`; :func:`stats.readers._common.decode`
detects the encoding (:func:`detect_encoding`) and checks the decoded text against
:data:`MAX_LINES`, :data:`MAX_COLUMNS` and :data:`MAX_FIELD_CHARS` (:func:`check_text_size`)
before any reader splits it. Each refusal is one :class:`~stats.StatsInputError` line that names
the file, what was found, and the limit. The limits are module constants so that a caller with
more memory can raise them (``stats.readers._limits.MAX_BYTES = ...``).
"""

from __future__ import annotations

import codecs
import csv
import math
import re

import numpy as np

from stats._core import numbers as _numbers
from stats._core.errors import StatsInputError
from stats._core.inputs import too_large

#: largest input accepted, in bytes (a file, an upload, or an archive)
MAX_BYTES = 256 * 2**20
#: most lines a text file may have (a 5,000,000-row segment-score file of 20 systems fits
#: twice over; the byte limit bounds it as well)
MAX_LINES = 10_000_000
#: most fields in the header (first non-comment) line of a table
MAX_COLUMNS = 10_000
#: longest field (a cell between tabs or commas, or a line of a plain-text file)
MAX_FIELD_CHARS = 100_000
#: largest magnitude of a score: squares and sums of squares of larger values overflow float64
#: (the one bound of files and options: :data:`stats._core.numbers.MAX_ABS_VALUE`)
MAX_ABS_VALUE = _numbers.MAX_ABS_VALUE

# The csv module refuses fields over its own limit (131,072 by default) with ``_csv.Error``;
# ours is checked first and names the file and line, so the csv limit is only a backstop.
csv.field_size_limit(max(csv.field_size_limit(), 4 * MAX_FIELD_CHARS))

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)


def _n(value: int) -> str:
    return f"{value:,}"


def check_bytes(size: int, label: str) -> None:
    """Refuse an input larger than :data:`MAX_BYTES`."""
    if size > MAX_BYTES:
        raise too_large(label, MAX_BYTES, size)


def check_header_width(count: int, label: str, *, what: str, limit: int) -> None:
    """Refuse a wide table whose header names more than ``limit`` ``what`` (systems, metrics)
    before its body is parsed: the header is all it takes to know."""
    if count > limit:
        raise StatsInputError(
            f"{label}, line 1: {_n(count)} {what} is over the limit of {_n(limit)} (counted in "
            f"the header, before the rows are read); compare fewer {what}"
        )


def detect_encoding(data: bytes) -> tuple[str, int]:
    """The encoding of ``data`` and the length of its byte-order mark.

    A BOM decides (UTF-8, UTF-16 LE/BE, UTF-32 LE/BE). Without one, text whose NUL bytes sit
    at every other position is UTF-16 (LE when they are the odd bytes); anything else is
    UTF-8.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            return encoding, len(bom)
    sample = data[:4096]
    if b"\x00" in sample and len(sample) >= 2:
        even, odd = sample[0::2], sample[1::2]
        nul_even, nul_odd = even.count(0) / len(even), odd.count(0) / max(len(odd), 1)
        if nul_odd > 0.3 and nul_even < 0.05:
            return "utf-16-le", 0
        if nul_even > 0.3 and nul_odd < 0.05:
            return "utf-16-be", 0
    return "utf-8", 0


def decode_text(data: bytes, label: str) -> str:
    """Decode ``data`` in its detected encoding (:func:`detect_encoding`); one line naming the
    line and byte of the first bad byte, or the NUL byte of a binary file."""
    encoding, skip = detect_encoding(data)
    body = data[skip:]
    try:
        text = body.decode(encoding)
    except UnicodeDecodeError as exc:
        if encoding != "utf-8":
            raise StatsInputError(
                f"{label}: looks like {encoding.upper()} text but cannot be decoded as it "
                f"({exc.reason} at byte {skip + exc.start + 1}); save the file as UTF-8"
            ) from None
        line = body.count(b"\n", 0, exc.start) + 1
        col = exc.start - (body.rfind(b"\n", 0, exc.start) + 1) + 1
        bad = body[exc.start : exc.start + 1].hex()
        raise StatsInputError(
            f"{label}, line {line}, byte {col}: not valid UTF-8 (byte 0x{bad}); "
            "save the file as UTF-8"
        ) from None
    if encoding != "utf-8" and not any(c in text for c in "\n\t, 0123456789"):
        # e.g. binary bytes that happen to start with FF FE: every input has a line break,
        # a delimiter, a space or a digit
        raise StatsInputError(
            f"{label}: not valid UTF-8, and not {encoding.upper()} text either (it decodes "
            "to text without a line break, delimiter or digit); save the file as UTF-8"
        )
    nul = text.find("\x00")
    if nul >= 0:
        line = text.count("\n", 0, nul) + 1
        raise StatsInputError(
            f"{label}, line {line}: contains a NUL byte; this is a binary file, not text "
            "(save it as UTF-8 text)"
        )
    return text


_SEPARATORS = re.compile(r"[\t,]")


def _has_long_run(text: str, limit: int) -> bool:
    """Whether ``text`` holds more than ``limit`` characters in a row without a ``\\n``: a
    necessary condition for a line (as ``str.splitlines`` cuts them, at ``\\n`` and other
    breaks) longer than ``limit``. Hops from the last ``\\n`` of each window of ``limit + 1``
    characters, so it costs C-level searches over the text, not a string per line."""
    start = 0
    while len(text) - start > limit:
        last = text.rfind("\n", start, start + limit + 1)
        if last < 0:
            return True
        start = last + 1
    return False


#: the line breaks of ``str.splitlines`` besides ``\n`` and ``\r`` (counted on their own)
_OTHER_BREAKS = ("\x0b", "\x0c", "\x1c", "\x1d", "\x1e")
_UNICODE_BREAKS = ("\x85", "\u2028", "\u2029")
#: every byte but ``\r`` and :data:`_OTHER_BREAKS` (deleted to find those in ASCII text)
_NOT_RARE = bytes(sorted(set(range(256)) - set(("\r" + "".join(_OTHER_BREAKS)).encode())))


def count_lines(text: str) -> int:
    r"""How many lines ``str.splitlines`` cuts ``text`` into (every break it knows: ``\n``,
    ``\r``, ``\r\n`` as one, ``\v \f``, the file/group/record separators, NEL, U+2028 and
    U+2029), by C-level counts, without splitting.

    Examples
    --------
    >>> text = "a\rb\r\nc\u2028d\n"
    >>> count_lines(text) == len(text.splitlines())
    True
    """
    if text.isascii():  # one pass keeps the rare breaks; only those are counted one by one
        rare = text.encode("ascii").translate(None, _NOT_RARE).decode("ascii")
        breaks = text.count("\n") + rare.count("\r") - (text.count("\r\n") if rare else 0)
        breaks += sum(rare.count(b) for b in _OTHER_BREAKS)
    else:
        breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
        breaks += sum(text.count(b) for b in _OTHER_BREAKS)
        breaks += sum(text.count(b) for b in _UNICODE_BREAKS)
    return breaks + bool(text) - (bool(text) and text[-1] in _ALL_BREAKS)


_ALL_BREAKS = "\n\r" + "".join(_OTHER_BREAKS) + "".join(_UNICODE_BREAKS)
_BREAK = re.compile(f"[{re.escape(_ALL_BREAKS)}]")


def check_line_count(lines: int, label: str) -> None:
    """Refuse a file of more than :data:`MAX_LINES` lines."""
    if lines > MAX_LINES:
        raise StatsInputError(
            f"{label}: {_n(lines)} lines is over the limit of {_n(MAX_LINES)} lines; "
            "split the file (e.g. one language pair or metric per file)"
        )


def check_text_size(text: str, label: str) -> None:
    """Refuse text with more than :data:`MAX_LINES` lines (as ``str.splitlines`` counts them:
    :func:`count_lines`), a header with more than
    :data:`MAX_COLUMNS` fields, or a field longer than :data:`MAX_FIELD_CHARS` characters.

    Runs before any splitting: the line count and the longest line are found by C-level string
    operations, and only lines longer than the field limit are split to look at their fields.
    """
    check_line_count(count_lines(text), label)
    first, start = "", 0
    while start <= len(text):
        found = _BREAK.search(text, start)  # the first line as str.splitlines cuts it
        end = len(text) if found is None else found.start()
        candidate = text[start:end]
        if candidate.strip() and not candidate.lstrip().startswith("#"):
            first = candidate
            break
        start = end + 1
    if "\t" in first or "," in first:
        columns = max(first.count("\t"), first.count(",")) + 1
    else:
        columns = len(first.split())
    if columns > MAX_COLUMNS:
        line = text.count("\n", 0, start) + 1
        raise StatsInputError(
            f"{label}, line {line}: the header has {_n(columns)} fields, over the limit of "
            f"{_n(MAX_COLUMNS)} columns; give such data in long format (one row per value)"
        )
    if len(text) <= MAX_FIELD_CHARS or not _has_long_run(text, MAX_FIELD_CHARS):
        return
    split = text.splitlines()
    longest = max(map(len, split))
    if longest <= MAX_FIELD_CHARS:
        return
    for i, line_text in enumerate(split, start=1):
        if len(line_text) > MAX_FIELD_CHARS:
            size = max(map(len, _SEPARATORS.split(line_text)))
            if size > MAX_FIELD_CHARS:
                raise StatsInputError(
                    f"{label}, line {i}: a field of {_n(size)} characters is over the limit "
                    f"of {_n(MAX_FIELD_CHARS)} characters per field (a name or cell)"
                )


def csv_error(exc: csv.Error, label: str, line: int) -> StatsInputError:
    """The one-line :class:`~stats.StatsInputError` for an error of the :mod:`csv` module."""
    return StatsInputError(f"{label}, line {line}: cannot be split as CSV ({exc})")


def check_value_range(values, column: str, label: str, lines=None) -> None:
    """Refuse finite values whose magnitude exceeds :data:`MAX_ABS_VALUE`, naming the column
    and line: correlations, MAE/RMSE and standardisation square them, which overflows."""
    big = np.abs(np.asarray(values, dtype=float)) > MAX_ABS_VALUE
    if big.any():
        i = int(np.flatnonzero(big)[0])
        raise _too_large(float(values[i]), column, label, None if lines is None else lines[i])


def check_value(value: float, column: str, label: str, line: int | None = None) -> None:
    """:func:`check_value_range` for one value (readers that convert value by value)."""
    if abs(value) > MAX_ABS_VALUE:
        raise _too_large(value, column, label, line)


def _too_large(value: float, column: str, label: str, line) -> StatsInputError:
    where = f", line {int(line)}" if line is not None else ""
    return StatsInputError(
        f"{label}{where}, column {column}: {value:.6g} is too large (scores must lie within "
        f"+-{MAX_ABS_VALUE:.0e}: squares of larger values overflow 64-bit floats); rescale "
        "the column"
    )


def overflows(raw: str) -> bool:
    """True when ``raw`` spells a finite decimal number too large for a 64-bit float
    (e.g. ``"1e400"``): ``float`` turns it into infinity."""
    text = str(raw).strip().lower().lstrip("+-")
    if not text or text.startswith(("inf", "nan")):
        return False
    try:
        return math.isinf(float(text))
    except ValueError:
        return False
