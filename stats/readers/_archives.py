"""Compressed files, archives and directories as sources of many score files.

gzip is recognised by its magic bytes (``1f 8b``), never by the file name, so a
``BLEU.sys.score.gz`` renamed to ``.txt`` or uploaded without its extension still reads.
A zip archive (``PK\\x03\\x04``), a tar archive (plain, or inside gzip) and a directory each
stand for every score file they hold, read as one set with :func:`expand_sources`.

This is the one code path every reader takes into an archive or a directory
(:func:`archive_members`, :func:`directory_files`), so each limit holds for all of them:

* at most :data:`MAX_MEMBERS` entries, counted from the archive's index (zip) or headers (tar)
  before any member is unpacked;
* each member's declared size is checked against the input limit before it is read, and its
  bytes are counted while they stream out, so a member whose header lies (a zip bomb) or a
  sparse tar member is refused by the bytes it actually produces;
* all members together unpack to at most :data:`MAX_UNPACKED` bytes (gzipped members counted
  unpacked);
* a gzip stream holds at most :data:`MAX_MEMBERS` gzip members, unpacked a chunk at a time
  (linear in the input however many members it holds);
* every tar header is looked at as its bytes stream past, before :mod:`tarfile` parses it:
  extended headers (PAX ``x``/``g``, GNU long names ``L``/``K``) over
  :data:`MAX_EXTENDED_HEADER` bytes, names over :data:`MAX_NAME_CHARS` characters, PAX records
  that are malformed, hold a run of more than :data:`_MAX_DIGIT_RUN` digits (CPython before
  3.12.6 parses those in quadratic time, CVE-2024-6232), or set ``size`` or GNU sparse maps,
  and GNU sparse members are refused, so a 300-byte archive cannot keep the parser busy;
* a name given twice (two members of one archive that would be read as the same file) is
  refused, not resolved by taking one of them;
* in a directory, only regular files are read: symbolic links (to files or directories),
  devices and FIFOs are skipped, and each file's size is taken from ``lstat`` before it is read;
* in an archive, a hard link to a member read before (how GNU tar stores a file identical to an
  earlier one) is read as that member's bytes; any other link, device or FIFO named as a score
  file is refused, naming it (never followed, never skipped unsaid).
"""

from __future__ import annotations

import io
import os
import re
import stat
import struct
import tarfile
import warnings
import zipfile
import zlib
from pathlib import Path
from typing import Any

from stats._core import inputs as _inputs
from stats._core.errors import DegenerateInputWarning, StatsInputError

__all__ = [
    "MAX_MEMBERS",
    "MAX_UNPACKED",
    "archive_members",
    "directory_files",
    "expand_sources",
    "gunzip",
    "is_score_file_name",
    "read_regular_file",
    "read_stream",
]

GZIP_MAGIC = b"\x1f\x8b"
ZIP_MAGIC = b"PK\x03\x04"

#: name endings (after any ``.gz``) of the files a directory or an archive contributes
SCORE_SUFFIXES = (".score", ".tsv", ".csv", ".txt")
#: most entries (files, folders, links) an archive or a directory may hold
MAX_MEMBERS = 10_000
#: most bytes all the members of one archive (or files of one directory) may unpack to
MAX_UNPACKED = 256 * 2**20
#: bytes read at a time from an archive member
_CHUNK = 2**20
#: longest member name (or link target) of an archive, in characters
MAX_NAME_CHARS = 4096
#: largest extended tar header (PAX ``x``/``g``, GNU ``L``/``K``), in bytes
MAX_EXTENDED_HEADER = 16 * 2**10
#: longest run of digits in a PAX header (record lengths, times and sizes need 20)
_MAX_DIGIT_RUN = 64
#: most extended headers in a row before a member's own header
_MAX_EXTENDED_CHAIN = 4
#: packed bytes given to zlib at a time: what is left after a gzip member is never copied whole
_GZIP_CHUNK = 2**16


def _limit() -> int:
    from ._limits import MAX_BYTES

    return MAX_BYTES


class _Budget:
    """The bytes an archive or directory may still unpack to; refuses the member that
    passes it, naming the archive, the member and the limit."""

    def __init__(self, label: str):
        self.label = label
        self.left = MAX_UNPACKED

    def take(self, size: int, member: str) -> None:
        self.left -= size
        if self.left < 0:
            raise StatsInputError(
                f"{self.label}: unpacks to more than {MAX_UNPACKED:,} bytes (the limit for all "
                f"files of an archive or directory together), reached at {member}; split it"
            )


def _check_count(count: int, label: str, what: str = "archive") -> None:
    if count > MAX_MEMBERS:
        raise StatsInputError(
            f"{label}: the {what} holds {count:,} entries, over the limit of {MAX_MEMBERS:,} "
            f"entries per {what}; split it"
        )


def _check_declared(size: int, name: str) -> None:
    limit = _limit()
    if size > limit:
        raise StatsInputError(
            f"{name}: {size:,} bytes unpacked is over the input limit of {limit:,} bytes; "
            "split the file (e.g. one language pair or metric per file)"
        )


def _stream(fh, name: str, budget: _Budget | None, declared: int | None = None) -> bytes:
    """Read ``fh`` in chunks, refusing it as soon as it produces more than the input limit,
    more than ``declared`` bytes (a header that lies) or more than the budget left."""
    limit = _limit()
    parts, size = [], 0
    while True:
        chunk = fh.read(_CHUNK)
        if not chunk:
            break
        size += len(chunk)
        if size > limit:
            raise StatsInputError(
                f"{name}: unpacks to more than {limit:,} bytes, the input limit; split the file"
            )
        if declared is not None and size > declared:
            raise StatsInputError(
                f"{name}: unpacks to more than the {declared:,} bytes its archive header "
                "declares; the archive is corrupt or forged"
            )
        if budget is not None:
            budget.take(len(chunk), name)
        parts.append(chunk)
    return b"".join(parts)


def _inflate(data: bytes, label: str, limit: int):
    """The unpacked chunks of gzip ``data`` (one or more gzip members), refusing more than
    ``limit`` bytes out or more than :data:`MAX_MEMBERS` members. Input goes to zlib a chunk at
    a time, so 200,000 empty members cost what their bytes cost, not the square of it."""
    view, pos, size, members = memoryview(data), 0, 0, 0
    while data.startswith(GZIP_MAGIC, pos):  # a gzip file may hold several members
        members += 1
        if members > MAX_MEMBERS:
            raise StatsInputError(
                f"{label}: the gzip file holds more than {MAX_MEMBERS:,} gzip members (the "
                "limit); recompress it as one stream (gzip -dc | gzip)"
            )
        inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        while not inflate.eof:
            if pos >= len(data):
                raise EOFError("compressed file ended before the end-of-stream marker")
            chunk = view[pos : pos + _GZIP_CHUNK]
            part = inflate.decompress(chunk, limit + 1 - size)
            size += len(part)
            if size > limit:
                raise _TooBig(size)
            pos += len(chunk) - len(inflate.unused_data)
            if part:
                yield part


class _TooBig(Exception):
    """A gzip stream past its limit (turned into the caller's message)."""


def gunzip(
    data: bytes, label: str, *, limit: int | None = None, budget: _Budget | None = None
) -> bytes:
    """``data`` decompressed when it starts with the gzip magic bytes, else ``data`` itself.

    Decompression stops past ``limit`` bytes (default :data:`stats.readers._limits.MAX_BYTES`),
    so a small file that would unpack to gigabytes is refused without unpacking it; at most
    :data:`MAX_MEMBERS` gzip members are read.

    Raises
    ------
    StatsInputError
        The gzip stream is truncated or corrupt, holds too many members, or unpacks to more
        than ``limit`` bytes (naming the file).
    """
    if not data.startswith(GZIP_MAGIC):
        return data
    limit = _limit() if limit is None else limit
    if budget is not None:
        limit = min(limit, max(budget.left, 0))
    try:
        out = b"".join(_inflate(data, label, limit))
    except _TooBig as big:
        if budget is not None:
            budget.take(big.args[0], label)
        raise StatsInputError(
            f"{label}: the gzip file unpacks to more than {limit:,} bytes, the input "
            "limit; split it or give a smaller file"
        ) from None
    except (OSError, EOFError, zlib.error) as exc:
        raise StatsInputError(f"{label}: a gzip file that cannot be decompressed ({exc})") from None
    if budget is not None:
        budget.take(len(out) - len(data), label)  # the packed bytes were counted already
    return out


def _gunzip_head(data: bytes, size: int) -> bytes:
    """The first ``size`` unpacked bytes of gzip ``data`` (b"" when it cannot be read)."""
    try:
        return zlib.decompressobj(16 + zlib.MAX_WBITS).decompress(data, size)
    except zlib.error:
        return b""


def _is_tar(head: bytes) -> bool:
    return len(head) > 262 and head[257:262] == b"ustar"


def is_score_file_name(name: str, skip: tuple = ()) -> bool:
    """True for a name a directory or archive contributes: ``*.score``, ``*.tsv``, ``*.csv`` or
    ``*.txt``, optionally gzipped, not ending in one of ``skip`` (e.g. ``'.seg.score'``);
    hidden files (``.x``, ``__MACOSX``) are left out."""
    base = name.replace("\\", "/").rsplit("/", 1)[-1]
    if not base or base.startswith(".") or "__MACOSX" in name:
        return False
    low = base.lower().removesuffix(".gz")
    return low.endswith(SCORE_SUFFIXES) and not (skip and low.endswith(tuple(skip)))


def _members_zip(data: bytes, label: str, want, budget: _Budget):
    names, out = [], []
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        infos = zf.infolist()
        _check_count(len(infos), label)
        files = sorted((i for i in infos if not i.is_dir()), key=lambda i: i.filename)
        seen: set[str] = set()
        for info in files:
            _twice(info.filename, seen, label)
            if stat.S_ISLNK(info.external_attr >> 16) and want(info.filename):
                raise StatsInputError(
                    f"{label}: {info.filename} is a symbolic link, not a file; links in an "
                    "archive are not followed: re-create the archive with the files themselves "
                    "(zip without --symlinks)"
                )
        chosen = {id(i) for i in files if want(i.filename)}
        declared = sum(i.file_size for i in files if id(i) in chosen)
        if declared > MAX_UNPACKED:
            raise StatsInputError(
                f"{label}: its files declare {declared:,} bytes unpacked, over the limit of "
                f"{MAX_UNPACKED:,} bytes for all files of an archive together; split it"
            )
        for info in files:
            names.append(info.filename)
            if id(info) in chosen:
                where = f"{label}:{info.filename}"
                _check_declared(info.file_size, where)
                with zf.open(info) as fh:
                    out.append((info.filename, _stream(fh, where, budget, info.file_size)))
    return names, out


class _TarGuard:
    """Looks at each tar header as the bytes stream past, before :mod:`tarfile` parses it.

    Follows the archive as tarfile does (a header, then its data blocks when it is a regular
    or unknown type, or its extended header's blocks) and refuses, naming the archive: a header
    of a type that changes where the next header lies (GNU sparse, PAX ``size``), extended
    headers too long or too many in a row, names too long, and PAX records tarfile would take
    quadratic time over (CPython 3.11.7 here: CVE-2024-6232). Stops looking where tarfile
    stops reading (a zero block or a header whose checksum is wrong)."""

    _REGULAR = (b"0", b"\0", b"7")
    _KNOWN = (b"1", b"2", b"3", b"4", b"5", b"6", b"x", b"g", b"X", b"L", b"K", b"S")
    _EXTENDED = (b"x", b"g", b"X", b"L", b"K")

    def __init__(self, label: str):
        self.label = label
        self.skip = 0  # data bytes before the next header
        self.head = bytearray()  # the header (or extended header) being gathered
        self.extended: bytes | None = None  # type of the extended header being gathered
        self.need = 512
        self.chain = 0
        self.done = False

    def _refuse(self, what: str) -> StatsInputError:
        return StatsInputError(f"{self.label}: a tar archive refused before it is parsed: {what}")

    def feed(self, data) -> None:
        i, n = 0, len(data)
        while i < n and not self.done:
            if self.skip:
                k = min(self.skip, n - i)
                self.skip -= k
                i += k
                continue
            k = min(self.need - len(self.head), n - i)
            self.head += data[i : i + k]
            i += k
            if len(self.head) == self.need:
                block, self.head = bytes(self.head), bytearray()
                if self.extended is None:
                    self._header(block)
                else:
                    self._extended(block)

    def _header(self, block: bytes) -> None:
        if block.count(0) == 512 or not _checksum_ok(block):
            self.done = True  # tarfile stops here too
            return
        kind, size = block[156:157], _tar_size(block[124:136])
        if kind == b"S":
            raise self._refuse("a GNU sparse member (not a score file)")
        if size is None or size < 0:
            raise self._refuse("a header whose size field cannot be read")
        if size > MAX_UNPACKED:
            raise self._refuse(
                f"a member declares {size:,} bytes, over the limit of {MAX_UNPACKED:,} for all "
                "files of an archive together"
            )
        if kind in self._EXTENDED:
            self.chain += 1
            if self.chain > _MAX_EXTENDED_CHAIN:
                raise self._refuse(f"more than {_MAX_EXTENDED_CHAIN} extended headers in a row")
            limit = MAX_NAME_CHARS + 1 if kind in (b"L", b"K") else MAX_EXTENDED_HEADER
            if size > limit:
                what = "a GNU long name" if kind in (b"L", b"K") else "an extended (PAX) header"
                raise self._refuse(f"{what} of {size:,} bytes, over the limit of {limit:,} bytes")
            self.extended, self.need, self.size = kind, -(-size // 512) * 512, size
            if not self.need:
                self.extended, self.need = None, 512
            return
        self.chain = 0
        directory = kind == b"\0" and block[:100].split(b"\0", 1)[0].endswith(b"/")
        if (kind in self._REGULAR and not directory) or kind not in self._KNOWN:
            self.skip = -(-size // 512) * 512

    def _extended(self, buf: bytes) -> None:
        kind, self.extended, self.need = self.extended, None, 512
        if kind in (b"L", b"K"):
            return  # its size was the check
        runs = re.findall(rb"\d{%d,}" % (_MAX_DIGIT_RUN + 1), buf)
        if runs:
            raise self._refuse(
                f"a PAX header holds a number of {len(runs[0]):,} digits (at most "
                f"{_MAX_DIGIT_RUN} are read)"
            )
        pos = 0
        while pos < len(buf) and buf[pos] != 0:
            record = _PAX_RECORD.match(buf, pos)
            if record is None:
                break  # tarfile stops reading records here too
            length = int(record.group(1))
            end = pos + length
            if length < 5 or end > len(buf) or b"=" not in buf[record.end() : end]:
                raise self._refuse("a malformed PAX header record")
            key, _, value = buf[record.end() : end - 1].partition(b"=")
            if key == b"size" or key.startswith(b"GNU.sparse"):
                raise self._refuse(f"a PAX header sets {key.decode('latin-1')!r}")
            if key in (b"path", b"linkpath") and len(value) > MAX_NAME_CHARS:
                raise self._refuse(
                    f"a name of {len(value):,} bytes, over the limit of {MAX_NAME_CHARS:,}"
                )
            pos = end


_PAX_RECORD = re.compile(rb"(\d{1,%d}) " % _MAX_DIGIT_RUN)


def _tar_size(field: bytes) -> int | None:
    """A tar header's size field, read as tarfile reads it (octal, or GNU base-256)."""
    if field[:1] in (b"\x80", b"\xff"):
        value = int.from_bytes(field[1:], "big")
        return value - 256 ** (len(field) - 1) if field[:1] == b"\xff" else value
    try:
        return int(field.split(b"\0", 1)[0].strip() or b"0", 8)
    except ValueError:
        return None


def _checksum_ok(block: bytes) -> bool:
    """Whether a tar header's checksum is one tarfile accepts (unsigned or signed sum)."""
    try:
        stored = int(block[148:156].split(b"\0", 1)[0].strip() or b"0", 8)
    except ValueError:
        return False
    blank = block[:148] + b" " * 8 + block[156:]
    signed = sum(struct.unpack("512b", blank))
    return stored in (sum(blank), signed)


class _GuardedReader(io.RawIOBase):
    """The tar stream as tarfile reads it: unpacked a chunk at a time when gzipped (counted
    against the archive's budget), every byte shown to a :class:`_TarGuard` first."""

    def __init__(self, data: bytes, budget: _Budget):
        self.budget, self.guard = budget, _TarGuard(budget.label)
        if data.startswith(GZIP_MAGIC):
            self.chunks = _inflate(data, budget.label, MAX_UNPACKED)
        else:  # (in memory already, within the input limit)
            self.chunks = iter([data[k : k + _CHUNK] for k in range(0, len(data), _CHUNK)])
        self.rest = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        while not self.rest:
            try:
                self.rest = next(self.chunks)
            except StopIteration:
                return 0
            except _TooBig:
                self.budget.take(MAX_UNPACKED + 1, f"{self.budget.label} (the tar stream)")
                raise
            self.guard.feed(self.rest)
        n = min(len(buffer), len(self.rest))
        buffer[:n] = self.rest[:n]
        self.rest = self.rest[n:]
        return n


def _twice(name: str, seen: set, label: str) -> None:
    """Refuse a name given twice: reading one of them would silently drop the other."""
    key = name.replace("\\", "/").removeprefix("./")
    if key in seen:
        raise StatsInputError(
            f"{label}: {name} is given twice in the archive (two members with one name; "
            "the last would silently replace the first); keep one of them"
        )
    seen.add(key)


def _refuse_link(member: tarfile.TarInfo, label: str) -> None:
    """Refuse a tar member named as a score file that is not a file: a symbolic link, a hard
    link to a member not read, a device or a FIFO (never followed: it could point anywhere)."""
    if member.issym() or member.islnk():
        kind = "a symbolic link" if member.issym() else "a hard link"
        raise StatsInputError(
            f"{label}: {member.name} is {kind} to {member.linkname}, not a file; links in an "
            "archive are not followed: re-create the archive with the files themselves (GNU "
            "tar --dereference --hard-dereference)"
        )
    raise StatsInputError(
        f"{label}: {member.name} is not a regular file (a device or FIFO); remove it from the "
        "archive"
    )


def _members_tar(data: bytes, label: str, want, budget: _Budget):
    raw = _GuardedReader(data, budget)
    names, out = [], []
    seen: set[str] = set()
    read: dict[str, bytes] = {}  # the members read, by name (the targets of hard links)
    with tarfile.open(fileobj=raw, mode="r|") as tf:  # a stream: one pass, never a seek
        count = 0
        for member in tf:
            count += 1
            _check_count(count, label)
            if member.islnk() and want(member.name) and member.linkname in read:
                # GNU tar stores a file identical to an earlier one as a hard link to it: the
                # same bytes, read again from the earlier member
                names.append(member.name)
                _twice(member.name, seen, label)
                budget.take(len(read[member.linkname]), f"{label}:{member.name}")
                out.append((member.name, read[member.linkname]))
                warnings.warn(
                    f"{label}: {member.name} is a hard link to {member.linkname} (how GNU tar "
                    "stores a file identical to an earlier one): read as a copy of it",
                    DegenerateInputWarning,
                    stacklevel=2,
                )
                continue
            if not member.isfile():  # folders: never read; a link or device: named
                if not member.isdir() and want(member.name):
                    _refuse_link(member, label)
                continue
            names.append(member.name)
            _twice(member.name, seen, label)
            if not want(member.name):
                continue
            where = f"{label}:{member.name}"
            _check_declared(member.size, where)
            fh = tf.extractfile(member)
            out.append((member.name, _stream(fh, where, None, member.size) if fh else b""))
            read[member.name] = out[-1][1]
    order = sorted(range(len(out)), key=lambda k: out[k][0])
    return sorted(names), [out[k] for k in order]


def archive_members(data: bytes, label: str, *, want=lambda name: True):
    """``(names, members)`` of a zip or tar(.gz) archive, or None when ``data`` is neither.

    ``names`` lists every regular file inside (sorted); ``members`` holds ``(name, bytes)`` of
    those for which ``want(name)`` is true, read under the limits of this module (entry count,
    declared and actual size of each member, the archive's total unpacked bytes).

    Raises
    ------
    StatsInputError
        An unreadable archive, or one past a limit (naming the archive, the member and the
        limit).
    """
    budget = _Budget(label)
    try:
        if data.startswith(ZIP_MAGIC):
            return _members_zip(data, label, want, budget)
        head = _gunzip_head(data, 263) if data.startswith(GZIP_MAGIC) else data[:263]
        if not _is_tar(head):
            return None
        return _members_tar(data, label, want, budget)
    except StatsInputError:
        raise
    except (
        zipfile.BadZipFile,
        tarfile.TarError,
        OSError,
        EOFError,
        ValueError,
        zlib.error,
        NotImplementedError,
        RuntimeError,
        KeyError,
    ) as exc:
        kind = "zip" if data.startswith(ZIP_MAGIC) else "tar"
        raise StatsInputError(f"{label}: a {kind} archive that cannot be read ({exc})") from None


def _expand_bytes(
    data: bytes, label: str, skip: tuple = (), listed=None
) -> list[tuple[str, bytes]]:
    """One file's bytes -> [(name, bytes)]: the members of an archive (gzipped members
    unpacked within the archive's budget), else the file itself. ``listed(name)`` is called
    with each member's name (``archive:member``) as the listing gives it, before it is read."""

    def want(name: str) -> bool:
        if not is_score_file_name(name, skip):
            return False
        if listed is not None:
            listed(f"{label}:{name}")
        return True

    found = archive_members(data, label, want=want)
    if found is None:
        return [(label, data)]
    budget = _Budget(label)
    members = []
    for name, raw in found[1]:
        budget.take(len(raw), f"{label}:{name}")
        members.append((f"{label}:{name}", gunzip(raw, f"{label}:{name}", budget=budget)))
    if not members:
        raise StatsInputError(
            f"{label}: the archive holds no score file (names ending in "
            f"{', '.join(SCORE_SUFFIXES)}, optionally .gz)"
        )
    return members


def read_stream(fh, label: str, *, limit: int | None = None) -> bytes:
    """:func:`stats._core.inputs.read_stream` at the input limit (or ``limit``)."""
    return _inputs.read_stream(fh, label, _limit() if limit is None else limit)


def read_regular_file(path: Path, label: str, *, limit: int | None = None) -> bytes:
    """The bytes of ``path`` (:func:`stats._core.inputs.read_path`) at the input limit (or
    ``limit``): a regular file's size checked before it is read, a FIFO or device refused
    while it is read."""
    return _inputs.read_path(path, label, _limit() if limit is None else limit)


def directory_files(path: Path, label: str, *, want=lambda name: True, sized=None) -> list[Path]:
    """The regular files under ``path`` (recursively, sorted) whose name ``want`` accepts.

    Symbolic links are never followed, neither to files nor to folders (those named as wanted
    files, and links to folders, are named in a warning); devices, FIFOs and sockets are
    skipped. The entries are counted against :data:`MAX_MEMBERS` and the chosen
    files' sizes (``lstat``) against :data:`MAX_UNPACKED`, before any file is read
    (``sized(name)``: which files the caller will read, when not all; default all).
    """
    out, count, total = [], 0, 0
    skipped: list[str] = []  # links named as wanted files, and links to folders: noted
    for root, dirs, files in os.walk(path, followlinks=False):
        count += len(dirs) + len(files)
        _check_count(count, label, "directory")
        for f in files:
            p = Path(root, f)
            try:
                info = os.lstat(p)
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode) and want(str(p)):
                total += info.st_size if sized is None or sized(str(p)) else 0
                if total > MAX_UNPACKED:
                    raise StatsInputError(
                        f"{label}: its files hold more than {MAX_UNPACKED:,} bytes (the limit "
                        f"for all files of a directory together), reached at {p}; split it"
                    )
                out.append(p)
            elif stat.S_ISLNK(info.st_mode) and want(str(p)):
                skipped.append(str(p))
        skipped += [str(Path(root, d)) for d in dirs if os.path.islink(Path(root, d))]
    if skipped:
        warnings.warn(
            f"{label}: links not followed, not read: {', '.join(sorted(skipped)[:8])}"
            + (f", ... ({len(skipped)} in all)" if len(skipped) > 8 else ""),
            DegenerateInputWarning,
            stacklevel=2,
        )
    return sorted(out)


def expand_sources(
    items, names=None, *, skip: tuple = (), listed=None
) -> list[tuple[str, Any]]:
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
    listed : callable, optional
        Called with the display name of each file a directory or archive contributes, as its
        listing gives it and before the file is read (a zip's every name before any member):
        a reader refuses there what the names alone tell (too many submissions).

    Returns
    -------
    list of (str, source)
        A zip or tar(.gz) archive becomes one entry per score file inside, named
        ``archive:member``; every other item is passed through (its bytes when it was read
        here).

    Raises
    ------
    StatsInputError
        A directory or archive holding no score file; an unreadable archive; any limit of
        this module or of :mod:`._limits` (size checked before a file is read).
    """
    from ._limits import check_bytes

    out: list[tuple[str, object]] = []
    for i, item in enumerate(items):
        name = names[i] if names is not None else None
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            name, item = name or item[0], item[1]
        if isinstance(item, (str, os.PathLike)):
            path = Path(item)
            label = name or os.fspath(item)
            if path.is_dir():
                files = directory_files(path, label, want=lambda n: is_score_file_name(n, skip))
                for p in files if listed is not None else ():
                    listed(str(p))
                if not files:
                    raise StatsInputError(
                        f"{label}: the directory holds no score file (names ending in "
                        f"{', '.join(SCORE_SUFFIXES)}, optionally .gz; links are not followed)"
                    )
                out.extend(
                    m
                    for p in files
                    for m in _expand_bytes(read_regular_file(p, str(p)), str(p), skip, listed)
                )
                continue
            if not path.is_file():
                out.append((label, item))  # the reader names what is wrong
                continue
            out.extend(_expand_bytes(read_regular_file(path, label), label, skip, listed))
            continue
        if hasattr(item, "getvalue") or hasattr(item, "read"):
            label = name or str(getattr(item, "name", None) or "<input>")
            size = getattr(item, "size", None)  # an upload's length, known before a copy
            if isinstance(size, int):
                check_bytes(size, label)
            data = item.getvalue() if hasattr(item, "getvalue") else read_stream(item, label)
            if isinstance(data, str):
                data = data.encode("utf-8")
            check_bytes(len(data), label)
            out.extend(_expand_bytes(bytes(data), label, skip, listed))
            continue
        if isinstance(item, (bytes, bytearray, memoryview)):
            check_bytes(len(item), name or "<input>")
            out.extend(_expand_bytes(bytes(item), name or "<input>", skip, listed))
            continue
        out.append((name or "<input>", item))
    return out
