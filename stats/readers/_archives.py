"""Compressed files, archives and directories as sources of many score files.

gzip is recognised by its magic bytes (``1f 8b``), never by the file name, so a
``BLEU.sys.score.gz`` renamed to ``.txt`` or uploaded without its extension still reads.
A zip archive (``PK\\x03\\x04``), a tar archive (plain, or inside gzip) and a directory each
stand for every score file they hold, read as one set with :func:`expand_sources`.
"""

from __future__ import annotations

import io
import os
import tarfile
import zipfile
import zlib
from pathlib import Path
from typing import Any

from .._errors import StatsInputError

__all__ = ["expand_sources", "gunzip", "is_score_file_name"]

GZIP_MAGIC = b"\x1f\x8b"
ZIP_MAGIC = b"PK\x03\x04"

#: name endings (after any ``.gz``) of the files a directory or an archive contributes
SCORE_SUFFIXES = (".score", ".tsv", ".csv", ".txt")


def gunzip(data: bytes, label: str, *, limit: int | None = None) -> bytes:
    """``data`` decompressed when it starts with the gzip magic bytes, else ``data`` itself.

    Decompression stops past ``limit`` bytes (default :data:`stats.readers._limits.MAX_BYTES`),
    so a small file that would unpack to gigabytes is refused without unpacking it.

    Raises
    ------
    StatsInputError
        The gzip stream is truncated or corrupt, or unpacks to more than ``limit`` bytes
        (naming the file).
    """
    if not data.startswith(GZIP_MAGIC):
        return data
    from ._limits import MAX_BYTES

    limit = MAX_BYTES if limit is None else limit
    parts, size, rest = [], 0, data
    try:
        while rest.startswith(GZIP_MAGIC):  # a gzip file may hold several members
            inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
            part = inflate.decompress(rest, limit + 1 - size)
            size += len(part)
            if size > limit:
                raise StatsInputError(
                    f"{label}: the gzip file unpacks to more than {limit:,} bytes, the input "
                    "limit; split it or give a smaller file"
                )
            if not inflate.eof:
                raise EOFError("compressed file ended before the end-of-stream marker")
            parts.append(part)
            rest = inflate.unused_data
    except (OSError, EOFError, zlib.error) as exc:
        raise StatsInputError(f"{label}: a gzip file that cannot be decompressed ({exc})") from None
    return b"".join(parts)


def _is_tar(data: bytes) -> bool:
    return len(data) > 262 and data[257:262] == b"ustar"


def is_score_file_name(name: str, skip: tuple = ()) -> bool:
    """True for a name a directory or archive contributes: ``*.score``, ``*.tsv``, ``*.csv`` or
    ``*.txt``, optionally gzipped, not ending in one of ``skip`` (e.g. ``'.seg.score'``);
    hidden files (``.x``, ``__MACOSX``) are left out."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    if not base or base.startswith(".") or "__MACOSX" in name:
        return False
    low = base.lower().removesuffix(".gz")
    return low.endswith(SCORE_SUFFIXES) and not (skip and low.endswith(tuple(skip)))


def _members_zip(data: bytes, label: str, skip: tuple) -> list[tuple[str, bytes]]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = sorted(i.filename for i in zf.infolist() if not i.is_dir())
            return [(f"{label}:{n}", zf.read(n)) for n in names if is_score_file_name(n, skip)]
    except (zipfile.BadZipFile, OSError, EOFError, zlib.error) as exc:
        raise StatsInputError(f"{label}: a zip archive that cannot be read ({exc})") from None


def _members_tar(data: bytes, label: str, skip: tuple) -> list[tuple[str, bytes]]:
    try:
        with tarfile.open(fileobj=io.BytesIO(data)) as tf:
            out = []
            for m in sorted((m for m in tf.getmembers() if m.isfile()), key=lambda m: m.name):
                if is_score_file_name(m.name, skip):
                    out.append((f"{label}:{m.name}", tf.extractfile(m).read()))
            return out
    except (tarfile.TarError, OSError, EOFError, zlib.error) as exc:
        raise StatsInputError(f"{label}: a tar archive that cannot be read ({exc})") from None


def _expand_bytes(data: bytes, label: str, skip: tuple = ()) -> list[tuple[str, bytes]]:
    """One file's bytes -> [(name, bytes)]: the members of an archive, else the file itself."""
    if data.startswith(ZIP_MAGIC):
        members = _members_zip(data, label, skip)
    else:
        plain = gunzip(data, label)
        if not _is_tar(plain):
            return [(label, data)]
        members = _members_tar(plain, label, skip)
    if not members:
        raise StatsInputError(
            f"{label}: the archive holds no score file (names ending in "
            f"{', '.join(SCORE_SUFFIXES)}, optionally .gz)"
        )
    return members


def _read_path(path: Path, label: str) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise StatsInputError(f"{label}: cannot be read ({exc.strerror})") from None


def expand_sources(items, names=None, *, skip: tuple = ()) -> list[tuple[str, Any]]:
    """Each source as ``(display name, source)``, with directories and archives expanded.

    Parameters
    ----------
    items : sequence
        Paths (a directory stands for every score file in it, recursively, in name order),
        bytes, binary file objects (uploads), or ``(name, bytes)`` tuples.
    names : sequence of str, optional
        Display names, one per item.
    skip : tuple of str
        Name endings (before ``.gz``, lower case) that directories and archives do not
        contribute, e.g. ``('.seg.score', '.doc.score')`` for system-level readers; a file
        named on its own is always passed through.

    Returns
    -------
    list of (str, source)
        A zip or tar(.gz) archive becomes one entry per score file inside, named
        ``archive:member``; every other item is passed through (its bytes when it was read
        here).

    Raises
    ------
    StatsInputError
        A directory or archive holding no score file; an unreadable archive.
    """
    out: list[tuple[str, object]] = []
    for i, item in enumerate(items):
        name = names[i] if names is not None else None
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            name, item = name or item[0], item[1]
        if isinstance(item, (str, os.PathLike)):
            path = Path(item)
            label = name or os.fspath(item)
            if path.is_dir():
                files = sorted(
                    p for p in path.rglob("*") if p.is_file() and is_score_file_name(str(p), skip)
                )
                if not files:
                    raise StatsInputError(
                        f"{label}: the directory holds no score file (names ending in "
                        f"{', '.join(SCORE_SUFFIXES)}, optionally .gz)"
                    )
                out.extend(
                    m for p in files for m in _expand_bytes(_read_path(p, str(p)), str(p), skip)
                )
                continue
            if not path.is_file():
                out.append((label, item))  # the reader names what is wrong
                continue
            out.extend(_expand_bytes(_read_path(path, label), label, skip))
            continue
        if hasattr(item, "getvalue") or hasattr(item, "read"):
            label = name or str(getattr(item, "name", None) or "<input>")
            data = item.getvalue() if hasattr(item, "getvalue") else item.read()
            if isinstance(data, str):
                data = data.encode("utf-8")
            out.extend(_expand_bytes(bytes(data), label, skip))
            continue
        if isinstance(item, (bytes, bytearray, memoryview)):
            out.extend(_expand_bytes(bytes(item), name or "<input>", skip))
            continue
        out.append((name or "<input>", item))
    return out
