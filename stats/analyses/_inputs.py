"""The input type every workflow takes, and the warning recorder their results use."""

from __future__ import annotations

import os
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Union, cast

from stats._core.errors import DegenerateInputWarning, StatsInputError

if TYPE_CHECKING:  # numpy and pandas stay unloaded at run time
    from ..readers import Source

#: One input file: a path, or a ``(name, bytes)`` pair (an upload).
FileInput = Union[str, "os.PathLike[str]", tuple[str, bytes]]
#: Several input files, in order.
Files = Sequence[FileInput]


def _named(item: FileInput) -> tuple[Source, str | None]:
    """``(source, display name)`` of a :data:`FileInput` (the name None for a path)."""
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
        return item[1], item[0]
    return cast("Source", item), None


def decode_files(files: Files) -> list:
    """Each file read, decoded and checked once (:class:`stats.readers._common.Decoded`, its
    text and display name), for work that looks at a file's content before reading it (its
    kind detected, then its reader chosen): every reader and workflow takes these as they are,
    without decoding again."""
    from ..readers import decoded

    out = [decoded(*_named(item)) for item in files]
    check_given_once(out)
    return out


def check_given_once(items) -> None:
    """Refuse two of ``items`` (:class:`~stats.readers._common.Decoded`) with the same text:
    the same file given twice would count its ratings or scores twice."""
    seen: dict = {}
    for item in items:
        key = (len(item.text), hash(item.text))
        first = seen.setdefault(key, item)
        if first is not item and first.text == item.text:
            same = (
                "is given twice"
                if first.name == item.name
                else f"has the same content as {first.name}"
            )
            raise StatsInputError(
                f"{item.name}: {same} (its rows would count twice); give each file once"
            )


@contextmanager
def _recorded() -> Iterator[list[str]]:
    """Collect the DegenerateInputWarning messages raised inside (each once, in order) into
    the yielded list, and emit every warning again so that callers still see them."""
    messages: list[str] = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield messages
    messages.extend(
        dict.fromkeys(
            str(w.message) for w in caught if issubclass(w.category, DegenerateInputWarning)
        )
    )
    for w in caught:
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
