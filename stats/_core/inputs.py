"""The one bounded reader for bytes from outside: a file of any kind (regular, FIFO, device)
or a stream (standard input), refused as soon as it passes its limit, never after it is read.

:mod:`stats.readers` reads every score file through it (with the input limit of
:mod:`stats.readers._limits`), the CLI reads standard input through it, and
:mod:`stats.metaeval.task_sets` reads task-set files through it.
"""

from __future__ import annotations

import os
import stat

from .errors import StatsInputError

__all__ = ["read_path", "read_stream", "too_large"]

#: bytes read at a time from a stream
CHUNK = 2**20


def too_large(label: str, limit: int, size: int | None = None) -> StatsInputError:
    """The one-line refusal of an input over ``limit`` bytes (``size``: its size when known;
    None when reading stopped at the limit)."""
    found = (
        f"more than {limit:,} bytes, the input limit"
        if size is None
        else f"{size:,} bytes is over the input limit of {limit:,} bytes"
    )
    return StatsInputError(
        f"{label}: {found}; split the file (e.g. one language pair or metric per file)"
    )


def read_stream(fh, label: str, limit: int) -> bytes:
    """The bytes of binary file object ``fh`` (standard input, a FIFO, a device), read a chunk
    at a time and refused as soon as they pass ``limit``: ``/dev/zero`` or an endless pipe
    costs at most the limit.

    Examples
    --------
    >>> import io
    >>> read_stream(io.BytesIO(b"abc"), "x", 3)
    b'abc'
    >>> read_stream(io.BytesIO(b"abcd"), "x", 3)
    Traceback (most recent call last):
    ...
    stats._core.errors.StatsInputError: x: more than 3 bytes, the input limit; split the file (e.g. one language pair or metric per file)
    """
    parts: list[bytes] = []
    size = 0
    while True:
        try:
            chunk = fh.read(min(CHUNK, limit + 1 - size))
        except TypeError:  # an object whose read() takes no size: its bytes are in memory
            chunk = fh.read() if not parts else b""
        if not chunk:
            break
        if isinstance(chunk, str):  # a text-mode file object
            chunk = chunk.encode("utf-8")
        size += len(chunk)
        if size > limit:
            raise too_large(label, limit)
        parts.append(chunk)
    return b"".join(parts)


def read_path(path, label: str, limit: int) -> bytes:
    """The bytes of ``path``, bounded: a regular file's size is checked (``stat``) before it
    is read, so a sparse or huge file costs no memory; anything else that opens (a FIFO,
    ``/dev/stdin``, a device) is read through :func:`read_stream`. A FIFO that no program
    writes to reads as empty instead of waiting for a writer.

    Raises
    ------
    StatsInputError
        A directory, a file that cannot be read, or more than ``limit`` bytes.
    """
    try:
        info = os.stat(path)
        if stat.S_ISDIR(info.st_mode):
            raise StatsInputError(f"{label}: is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            flags = os.O_RDONLY | (os.O_NONBLOCK if stat.S_ISFIFO(info.st_mode) else 0)
            fd = os.open(path, flags)
            os.set_blocking(fd, True)
            with open(fd, "rb", buffering=0) as fh:
                return read_stream(fh, label, limit)
        if info.st_size > limit:
            raise too_large(label, limit, info.st_size)
        with open(path, "rb") as fh:  # (a buffer of the size read, not of the limit)
            data = fh.read(min(info.st_size, limit) + 1)
    except OSError as exc:
        raise StatsInputError(f"{label}: cannot be read ({exc.strerror})") from None
    if len(data) > limit:  # a file that grew since its stat
        raise too_large(label, limit)
    return data
