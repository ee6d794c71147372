"""The one spelling of a number, for files and options alike: ASCII digits, an optional sign,
point and exponent (what pandas' and pyarrow's parsers accept), finite and within
:data:`MAX_ABS_VALUE`. No ``_`` (``5_0``), hex (``0x10``), other digits (``٥``, ``５``),
``nan`` or ``inf``.

The readers apply it to every number of a file (:mod:`stats.readers._common`); the command line
applies it to every numeric option (:func:`option_float`, :func:`option_int`) and the task-set,
MQM-weight and exclusion parsers to their numbers. Imports nothing heavy (the command line uses
it while it parses its arguments).
"""

from __future__ import annotations

import argparse
import math
import re

__all__ = [
    "MAX_ABS_VALUE",
    "MAX_NUMBER_CHARS",
    "NUMBER",
    "INTEGER",
    "number_error",
    "option_float",
    "option_int",
    "strict_float",
    "strict_int",
]

#: the one spelling of a number in every input (what pandas' and pyarrow's parsers accept)
NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?", re.ASCII)
#: an integer: ASCII digits with an optional sign
INTEGER = re.compile(r"[+-]?\d+", re.ASCII)
#: longest number text read (more digits than any float holds; a 5,000-digit field is refused)
MAX_NUMBER_CHARS = 400
#: largest magnitude of a number: squares and sums of squares of larger values overflow float64
MAX_ABS_VALUE = 1e150

_NON_FINITE = frozenset({"nan", "inf", "infinity"})


def strict_float(text) -> float:
    """``float(text)`` by the one rule for numbers (:data:`NUMBER`, at most
    :data:`MAX_NUMBER_CHARS` characters): a drop-in for ``float`` in readers that convert
    value by value, so ``5_0``, ``0x1p3`` or ``١`` raise ``ValueError`` as ``abc`` does
    (``float`` reads them as 50, 8.0 and 1). ``nan``, ``inf`` and numbers past float64
    (``1e400``) read as ``float`` reads them: the caller's finiteness and range checks name
    them.

    Examples
    --------
    >>> strict_float(" 2.5e1 ")
    25.0
    >>> strict_float("5_0")
    Traceback (most recent call last):
    ...
    ValueError: not a number: '5_0'
    """
    text = str(text).strip()
    if len(text) > MAX_NUMBER_CHARS or not (
        NUMBER.fullmatch(text) or text.lower().lstrip("+-") in _NON_FINITE
    ):
        raise ValueError(f"not a number: {text[:40]!r}")
    return float(text)


def strict_int(text) -> int:
    """``int(text)`` by the one rule (:data:`INTEGER`: ASCII digits and a sign, at most
    :data:`MAX_NUMBER_CHARS` characters), so ``5_0``, ``0x10``, ``١٢`` and ``１００`` raise
    ``ValueError`` (``int`` reads the last three as 50, 12 and 100).

    Examples
    --------
    >>> strict_int("16"), strict_int("-3")
    (16, -3)
    >>> strict_int("0x10")
    Traceback (most recent call last):
    ...
    ValueError: not an integer: '0x10'
    """
    text = str(text).strip()
    if len(text) > MAX_NUMBER_CHARS or not INTEGER.fullmatch(text):
        raise ValueError(f"not an integer: {text[:40]!r}")
    return int(text)


def _shown(text: str) -> str:
    text = str(text)
    return repr(text) if len(text) <= 40 else f"a text of {len(text):,} characters"


def number_error(text, *, integer: bool = False) -> str | None:
    """Why ``text`` is not a number (an integer with ``integer``) by the one rule, or None when
    it is one: the clause of a message (``'5_0' is not a number``, ``1e308 is beyond +-1e+150``).
    """
    kind = "an integer" if integer else "a number"
    try:
        value = strict_int(text) if integer else strict_float(text)
    except ValueError:
        return f"{_shown(text)} is not {kind} (ASCII digits, sign, point and exponent only)"
    if isinstance(value, float) and not math.isfinite(value):
        return f"{_shown(text)} is not a finite number"
    if abs(value) > MAX_ABS_VALUE:
        return f"{_shown(text)} is beyond +-{MAX_ABS_VALUE:.0e}, the largest magnitude accepted"
    return None


def option_float(text: str) -> float:
    """An ``argparse`` ``type`` for a float option by the one rule (finite, within
    :data:`MAX_ABS_VALUE`); a refusal is argparse's one-line usage error naming the option."""
    problem = number_error(text)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return float(str(text).strip())


def option_int(text: str) -> int:
    """An ``argparse`` ``type`` for an integer option by the one rule (:func:`strict_int`,
    within :data:`MAX_ABS_VALUE`)."""
    problem = number_error(text, integer=True)
    if problem is not None:
        raise argparse.ArgumentTypeError(problem)
    return int(str(text).strip())
