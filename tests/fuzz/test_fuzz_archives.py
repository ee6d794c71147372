"""Fuzz targets for archives: zip, tar, tar.gz, gzipped members, nested archives and bombs
within the limits, through the one archive path every reader shares
(:mod:`stats.readers._archives`) and the readers and CLI that take archives.

Each case ends in a result or in one :class:`~stats.StatsInputError` line, within
:data:`CASE_SECONDS`. Bounded as :mod:`tests.fuzz.test_fuzz` is (``FUZZ_CASES`` per target,
``FUZZ_SECONDS`` per target, ``FUZZ_SEED``); a long local run:
``FUZZ_CASES=2000 FUZZ_SECONDS=900 pytest -n 0 tests/fuzz/test_fuzz_archives.py``.
"""

from __future__ import annotations

import gzip
import io
import struct
import tarfile
import time
import warnings
import zipfile

import pytest

import stats.readers._archives as archives
import stats.readers._limits as limits
from stats import StatsInputError
from stats import readers as R
from stats.readers._archives import expand_sources
from tests._wmt_data import system_level_files
from tests.fuzz._mutate import mutate
from tests.fuzz.test_fuzz import CASE_SECONDS, COUNTS, cases

_WMT = system_level_files()
SCORE_FILES = [(name, data) for name, data in _WMT.items()]


def _zip(members, rng) -> bytes:
    buf = io.BytesIO()
    method = zipfile.ZIP_DEFLATED if rng.random() < 0.7 else zipfile.ZIP_STORED
    with zipfile.ZipFile(buf, "w", method) as zf:
        for name, data in members:
            zf.writestr(name, data)
    return buf.getvalue()


def _tar(members, rng, gz: bool) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz" if gz else "w") as tf:
        for name, data in members:
            info = tarfile.TarInfo(name)
            kind = rng.random()
            if kind < 0.05:  # links, FIFOs, devices: never read
                info.type = rng.choice([tarfile.SYMTYPE, tarfile.LNKTYPE, tarfile.FIFOTYPE])
                info.linkname = "/etc/passwd"
                tf.addfile(info)
                continue
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def _members(rng) -> list[tuple[str, bytes]]:
    """Some of the WMT sample files, mutated or gzipped; odd names and extra files."""
    picked = rng.choice(
        len(SCORE_FILES), size=int(rng.integers(1, len(SCORE_FILES) + 1)), replace=False
    )
    out = []
    for i in sorted(picked):
        name, data = SCORE_FILES[i]
        if rng.random() < 0.5:
            data = mutate(data, rng)
        if rng.random() < 0.2:
            name, data = name + ".gz", gzip.compress(data)
        if rng.random() < 0.1:
            name = rng.choice(
                ["../" + name, "/abs/" + name, "dir/" + name, ".hidden.tsv", "__MACOSX/" + name]
            )
        out.append((name, data))
    if rng.random() < 0.2:
        out.append(("readme.md", b"not a score file"))
    return out


def _archive(rng) -> tuple[str, bytes]:
    members = _members(rng)
    kind = rng.choice(["zip", "tar", "tar.gz", "nested"])
    if kind == "zip":
        data = _zip(members, rng)
    elif kind == "tar":
        data = _tar(members, rng, gz=False)
    elif kind == "tar.gz":
        data = _tar(members, rng, gz=True)
    else:  # an archive inside an archive: read as a (binary) member, never unpacked
        inner = _zip(members, rng)
        data = _zip([("inner.zip.tsv", inner), *members[:1]], rng)
    if rng.random() < 0.3:  # damage the archive itself
        data = mutate(data, rng)
    return f"a.{kind}", data


def _bomb(rng) -> tuple[str, bytes]:
    """Archives past the (lowered) limits: big members, lying sizes, many members."""
    size = int(rng.integers(limits.MAX_BYTES // 2, 3 * limits.MAX_BYTES))
    kind = rng.choice(["zip", "zip-lying", "tar", "tar.gz", "many", "gz-member"])
    if kind == "zip":
        return "b.zip", _zip([("b.sys.score", b"\0" * size)], rng)
    if kind == "zip-lying":
        data = bytearray(_zip([("b.sys.score", b"1\t" * (size // 2))], rng))
        declared = int(rng.integers(0, 1000))
        struct.pack_into("<I", data, data.index(b"PK\x03\x04") + 22, declared)
        struct.pack_into("<I", data, data.index(b"PK\x01\x02") + 24, declared)
        return "b.zip", bytes(data)
    if kind in ("tar", "tar.gz"):
        return f"b.{kind}", _tar([("b.sys.score", b"0" * size)], rng, gz=kind == "tar.gz")
    if kind == "many":
        n = int(rng.integers(archives.MAX_MEMBERS - 2, archives.MAX_MEMBERS + 5))
        return "b.zip", _zip([(f"m{i}.sys.score", b"x") for i in range(n)], rng)
    return "b.zip", _zip(
        [(f"m{i}.sys.score.gz", gzip.compress(b"0" * size)) for i in range(3)], rng
    )


def _extended_header(rng) -> bytes:
    """A raw PAX or GNU extended header of a shape tarfile parses slowly or misreads: long digit
    runs (CPython 3.11.7's quadratic PAX parsing, CVE-2024-6232), long names, malformed
    records, a size or sparse override, a chain of headers; or an ordinary one."""
    kind = rng.choice(["digits", "long-name", "malformed", "size", "sparse", "ok"])
    if kind == "digits":
        body = b"1" * int(rng.integers(65, 300_000))
    elif kind == "long-name":
        value = b"n" * int(rng.integers(4_000, 70_000))
        body = b"%d path=%s\n" % (len(value) + 8 + len(str(len(value) + 8)), value)
    elif kind == "malformed":
        body = mutate(b"20 path=dir/a.tsv\n", rng)
    elif kind == "size":
        body = b"12 size=%d\n" % int(rng.integers(0, 9))
    elif kind == "sparse":
        body = b"22 GNU.sparse.major=1\n"
    else:
        body = b"13 mtime=10\n"
    typ = rng.choice([tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.GNUTYPE_LONGNAME])
    info = tarfile.TarInfo("././@PaxHeader")
    info.type, info.size = typ, len(body)
    return info.tobuf(format=tarfile.USTAR_FORMAT) + body + b"\0" * (-len(body) % 512)


def _hostile(rng) -> tuple[str, bytes]:
    """Hostile shapes: extended tar headers (several in a row), many gzip members,
    names given twice; gzipped or not, sometimes damaged."""
    kind = rng.choice(["tar-headers", "gzip-members", "twice-zip", "twice-tar"])
    name, data = SCORE_FILES[int(rng.integers(len(SCORE_FILES)))]
    if kind == "tar-headers":
        member = tarfile.TarInfo(name)
        member.size = len(data)
        raw = b"".join(_extended_header(rng) for _ in range(int(rng.integers(1, 7))))
        raw += member.tobuf(format=tarfile.USTAR_FORMAT) + data + b"\0" * (-len(data) % 512)
        raw += b"\0" * 1024
        out = gzip.compress(raw, 1) if rng.random() < 0.7 else raw
        return "h.tar.gz", mutate(out, rng) if rng.random() < 0.2 else out
    if kind == "gzip-members":
        n = int(rng.integers(1, 3 * archives.MAX_MEMBERS))
        return "h.tsv.gz", gzip.compress(b"") * n + gzip.compress(data)
    members = [(name, data), (rng.choice([name, "./" + name]), mutate(data, rng))]
    if kind == "twice-zip":
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # zipfile warns of the duplicate name
            return "h.zip", _zip(members, rng)
    return "h.tar", _tar(members, rng, gz=False)


def check_one_line_or_result(call, name: str, data: bytes, what: str) -> None:
    t0 = time.monotonic()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            call(name, data)
    except StatsInputError as exc:
        assert "\n" not in str(exc) and str(exc), f"{what}: {exc!r}"
    assert time.monotonic() - t0 < CASE_SECONDS, what


READERS = {
    "expand": lambda name, data: expand_sources([(name, data)]),
    "system level": lambda name, data: R.read_system_scores((name, data)),
    "meta-eval": lambda name, data: R.read_meta_eval((name, data)),
}


@pytest.fixture(scope="module", autouse=True)
def _report_case_count(request):
    """After this module's tests: how many archive cases ran in this process."""
    yield
    capture = request.config.pluginmanager.getplugin("capturemanager")
    ours = {k: v for k, v in COUNTS.items() if k.startswith(("archive ", "bomb "))}
    with capture.global_and_fixture_disabled():
        print(f"\narchive fuzz cases in this process: {sum(ours.values())} {ours}")


@pytest.fixture
def small_limits(monkeypatch):
    monkeypatch.setattr(limits, "MAX_BYTES", 64 * 2**10)
    monkeypatch.setattr(archives, "MAX_UNPACKED", 128 * 2**10)
    monkeypatch.setattr(archives, "MAX_MEMBERS", 50)


@pytest.mark.parametrize("reader", list(READERS))
def test_archives(reader):
    for i, rng in cases(f"archive {reader}"):
        name, data = _archive(rng)
        check_one_line_or_result(READERS[reader], name, data, f"{reader} case {i} ({name})")


@pytest.mark.parametrize("reader", list(READERS))
def test_bombs_within_the_limits(small_limits, reader):
    for i, rng in cases(f"bomb {reader}"):
        name, data = _bomb(rng)
        check_one_line_or_result(READERS[reader], name, data, f"{reader} bomb {i} ({name})")
        if reader == "expand":  # the bytes given out stay within the budget
            try:
                out = expand_sources([(name, data)])
            except StatsInputError:
                continue
            assert sum(len(d) for _, d in out) <= archives.MAX_UNPACKED, name


@pytest.mark.parametrize("reader", list(READERS))
def test_hostile_shapes_of_issue_35(small_limits, reader):
    for i, rng in cases(f"archive hostile {reader}"):
        name, data = _hostile(rng)
        check_one_line_or_result(READERS[reader], name, data, f"{reader} hostile {i} ({name})")
