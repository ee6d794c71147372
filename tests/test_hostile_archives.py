"""Hostile inputs (archives, sizes before reading, names, small items): each ends in one
line, without reading what it refuses. Sizes are scaled down with the limits (monkeypatched)
where the real ones would take seconds to build; the CLI runs in process."""

from __future__ import annotations

import gzip
import io
import os
import shutil
import struct
import subprocess
import tarfile
import time
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest
import tomllib

import stats.readers._archives as archives
import stats.readers._limits as limits
from stats import StatsInputError
from stats.cli import main
from stats.readers import read_meta_eval, read_segment_scores, read_system_scores
from stats.readers._archives import expand_sources

ROOT = Path(__file__).resolve().parents[1]
WMT = "".join(f"BLEU\tde-en\tt\ts{k}\t0.{k}\nHUMAN\tde-en\tt\ts{k}\t0.{k}\n" for k in range(5))


def cli(argv, capsys):
    code = main([str(a) for a in argv])
    _, err = capsys.readouterr()
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("error: ") and "Traceback" not in err, err
    return err


def _zip(members: dict, method=zipfile.ZIP_DEFLATED) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


@pytest.fixture
def small_limits(monkeypatch):
    """Input limit 1 MiB, archive budget 2 MiB: bombs of a few MiB stand for gigabytes."""
    monkeypatch.setattr(limits, "MAX_BYTES", 2**20)
    monkeypatch.setattr(archives, "MAX_UNPACKED", 2 * 2**20)


# ---- 1. zip bombs: declared sizes, then the bytes actually produced ----


def test_zip_bomb_is_refused_from_its_declared_size_before_unpacking(
    small_limits, tmp_path, capsys
):
    path = tmp_path / "bomb.zip"
    path.write_bytes(_zip({"BLEU.sys.score": b"\0" * (8 * 2**20)}))
    err = cli(["williams", "--metrics", path, "--human", path], capsys)
    assert "bomb.zip" in err and "declare 8,388,608 bytes" in err
    assert _peak(read_system_scores, path) < 2**20  # nothing unpacked


def _peak(func, *args) -> int:
    """Peak bytes Python allocates while ``func(*args)`` raises StatsInputError."""
    tracemalloc.start()
    try:
        with pytest.raises(StatsInputError):
            func(*args)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _lying_zip(real: bytes, declared: int) -> bytes:
    """A zip whose one member says it unpacks to ``declared`` bytes but gives ``real``."""
    data = bytearray(_zip({"m.sys.score": real}))
    local = data.index(b"PK\x03\x04")
    struct.pack_into("<I", data, local + 22, declared)
    central = data.index(b"PK\x01\x02")
    struct.pack_into("<I", data, central + 24, declared)
    return bytes(data)


def test_zip_member_with_a_lying_header_is_refused_by_the_bytes_it_produces(small_limits):
    data = _lying_zip(b"\0" * (16 * 2**20), 100)
    # zipfile stops at the declared size and finds the CRC wrong; a reader of its own would
    # hit _stream's check of the declared size instead
    with pytest.raises(
        StatsInputError,
        match=r"^liar\.zip(:m\.sys\.score: unpacks to more "
        r"than the 100 bytes its archive header declares|: a zip archive that "
        r"cannot be read \(Bad CRC-32)",
    ):
        expand_sources([("liar.zip", data)])
    assert _peak(expand_sources, [("liar.zip", data)]) < 4 * 2**20  # stopped after one chunk


def test_members_within_the_input_limit_are_refused_past_the_total_budget(small_limits):
    data = _zip({f"m{i}.sys.score": b"x" * (900 * 2**10) for i in range(3)})
    with pytest.raises(
        StatsInputError,
        match=r"a\.zip: its files declare .* over the limit of "
        r"2,097,152 bytes",
    ):
        expand_sources([("a.zip", data)])


def test_gzipped_members_count_unpacked_against_the_budget(small_limits):
    import gzip

    member = gzip.compress(b"1" * (900 * 2**10))
    data = _zip({f"m{i}.sys.score.gz": member for i in range(3)})
    with pytest.raises(StatsInputError, match=r"a\.zip.*more than 2,097,152 bytes"):
        expand_sources([("a.zip", data)])


# ---- 2. tar: sparse members, declared sizes, the tar stream's own budget ----


@pytest.mark.skipif(shutil.which("tar") is None, reason="GNU tar makes the sparse archive")
def test_sparse_tar_bomb_is_refused_from_its_declared_size(tmp_path, capsys):
    big = tmp_path / "big.sys.score"
    with open(big, "wb") as fh:
        fh.truncate(3 * 2**30)  # sparse: no disk, no memory
    out = tmp_path / "s.tar.gz"
    subprocess.run(["tar", "--sparse", "-czf", out, "-C", tmp_path, big.name], check=True)
    big.unlink()
    err = cli(["williams", "--metrics", out, "--human", out], capsys)
    # refused from its header, before tarfile reads the sparse map
    assert "s.tar.gz: a tar archive refused before it is parsed: a GNU sparse member" in err
    assert _peak(read_system_scores, out) < 2**20


def test_tar_stream_over_the_budget_is_refused_while_it_streams(small_limits):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for i in range(3):  # skipped members (not score files) still unpack through gzip
            info = tarfile.TarInfo(f"blob{i}.bin")
            info.size = 900 * 2**10
            tf.addfile(info, io.BytesIO(b"\0" * info.size))
        info = tarfile.TarInfo("m.sys.score")
        info.size = len(WMT)
        tf.addfile(info, io.BytesIO(WMT.encode()))
    with pytest.raises(StatsInputError, match=r"t\.tar\.gz: unpacks to more than 2,097,152"):
        expand_sources([("t.tar.gz", buf.getvalue())])


@pytest.mark.parametrize(
    ("kind", "match"),
    [
        (tarfile.SYMTYPE, "l.sys.score is a symbolic link to /etc/passwd, not a file"),
        (tarfile.LNKTYPE, "l.sys.score is a hard link to /etc/passwd, not a file"),
        (tarfile.FIFOTYPE, "l.sys.score is not a regular file"),
        (tarfile.CHRTYPE, "l.sys.score is not a regular file"),
    ],
)
def test_tar_links_devices_and_fifos_are_never_read_and_named(kind, match):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        info = tarfile.TarInfo("l.sys.score")
        info.type, info.linkname = kind, "/etc/passwd"
        tf.addfile(info)
        info = tarfile.TarInfo("ok.sys.score")
        info.size = len(WMT)
        tf.addfile(info, io.BytesIO(WMT.encode()))
        info = tarfile.TarInfo("README")  # not a score file: a link there is no input
        info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tf.addfile(info)
    with pytest.raises(StatsInputError, match=match):
        expand_sources([("t.tar", buf.getvalue())])


# ---- 3. member count ----


@pytest.mark.parametrize("kind", ["zip", "tar.gz"])
def test_member_count_over_the_cap_is_refused_naming_count_and_cap(monkeypatch, kind):
    monkeypatch.setattr(archives, "MAX_MEMBERS", 20)
    if kind == "zip":
        data = _zip({f"m{i}.sys.score": WMT for i in range(25)}, zipfile.ZIP_STORED)
    else:
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w:gz") as tf:
            for i in range(25):
                info = tarfile.TarInfo(f"m{i}.sys.score")
                info.size = len(WMT)
                tf.addfile(info, io.BytesIO(WMT.encode()))
        data = buf.getvalue()
    with pytest.raises(
        StatsInputError, match=r"holds 2[1-5] entries, over the limit of 20 entries per archive"
    ):
        read_system_scores((f"many.{kind}", data))


def test_the_member_cap_is_stated_in_the_readme():
    readme = (ROOT / "README.md").read_text()
    assert f"{archives.MAX_MEMBERS:,} entries" in readme


def test_meta_eval_archives_take_the_same_path(small_limits):
    data = _zip({"wmt/human-scores/en-de.mqm.seg.score": b"\0" * (8 * 2**20)})
    with pytest.raises(StatsInputError, match=r"m\.zip: its files declare 8,388,608 bytes"):
        read_meta_eval(("m.zip", data))


# ---- 4. sizes before reading; wide headers before the body ----


@pytest.mark.parametrize("option", ["--metrics", "--human"])
def test_a_sparse_gigabyte_file_is_refused_by_its_size_before_it_is_read(tmp_path, capsys, option):
    big = tmp_path / "huge.tsv"
    with open(big, "wb") as fh:
        fh.truncate(2**30)
    other = (
        ROOT / "sample_data" / "metrics" / ("human.tsv" if option == "--metrics" else "metrics.tsv")
    )
    argv = ["williams", option, big, "--human" if option == "--metrics" else "--metrics", other]
    err = cli(argv, capsys)
    assert "huge.tsv: 1,073,741,824 bytes is over the input limit" in err
    assert _peak(read_system_scores, big) < 2**20


def test_an_upload_is_refused_by_its_length_before_a_copy():
    class Upload(io.BytesIO):
        size = 2**30  # what Streamlit's UploadedFile says, before getvalue() copies it
        name = "up.tsv"

        def getvalue(self):  # pragma: no cover - must not be called
            raise AssertionError("read before its size was checked")

    with pytest.raises(StatsInputError, match=r"up\.tsv: 1,073,741,824 bytes is over"):
        read_system_scores(Upload())
    with pytest.raises(StatsInputError, match=r"up\.tsv: 1,073,741,824 bytes is over"):
        read_segment_scores(Upload())


def _wide(first: str, rows: int = 3) -> str:
    """A header as wide as the column limit allows, numbers, then a short row: a reader that
    parsed the body would name that row instead of the header."""
    n = limits.MAX_COLUMNS - first.count(",") - 1
    head = first + "," + ",".join(f"s{i}" for i in range(n))
    body = [f"{j},0.5," + ",".join("0.1" for _ in range(n)) for j in range(rows)]
    return head + "\n" + "\n".join(body) + "\n9,0.5\n"


@pytest.mark.parametrize(
    "argv, first, what, limit",
    [
        (["randomized", "--resamples", "10", "--scores"], "SEGMENT,sref", "systems", "1,000"),
        (["williams", "--scores"], "system,human", "metrics", "500"),
        (["qe", "--data"], "sid,gold", "systems", "1,000"),
    ],
)
def test_a_wide_header_is_checked_against_the_limits_before_the_body(
    tmp_path, capsys, argv, first, what, limit
):
    path = tmp_path / "wide.csv"
    path.write_text(_wide(first))
    err = cli([*argv, path], capsys)
    assert "wide.csv, line 1: " in err and f"over the limit of {limit}" in err, err
    assert what in err


# ---- 5. the 1e150 limit in the segment-score reader (CLI) ----


def test_a_segment_score_of_1e308_is_refused_by_randomized(tmp_path, capsys):
    path = tmp_path / "s.tsv"
    path.write_text("SYSTEM\tSEGMENT\tSCORE\nA\t1\t1e308\nB\t1\t0.5\nA\t2\t0.1\nB\t2\t0.2\n")
    err = cli(["randomized", "--scores", path, "--resamples", "10"], capsys)
    assert "s.tsv, line 2, column SCORE: 1e+308 is too large" in err


# ---- 7. directories: links not followed ----


def test_a_directory_does_not_follow_links_to_files_or_folders(tmp_path, capsys):
    secret = tmp_path / "secret.tsv"
    secret.write_text("TOP-SECRET first line\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.tsv").write_text("ALSO-SECRET\n")
    d = tmp_path / "d"
    d.mkdir()
    os.symlink(secret, d / "passwd.tsv")
    os.symlink(outside, d / "sub")
    err = cli(["williams", "--metrics", d, "--human", d], capsys)
    assert "SECRET" not in err and "holds no score file" in err and "links are not followed" in err
    (d / "m.tsv").write_text("METRIC\tLP\tTESTSET\tSYSTEM\tSCORE\n" + WMT)
    assert [n for n, _ in expand_sources([d])] == [str(d / "m.tsv")]


def test_a_fifo_without_a_writer_is_refused_without_blocking(tmp_path, capsys):
    # read bounded (process substitution works); no writer: empty, no wait
    fifo = tmp_path / "f.tsv"
    os.mkfifo(fifo)
    err = cli(["williams", "--metrics", fifo, "--human", fifo], capsys)
    assert "f.tsv: file is empty" in err


# ---- 7. approximate randomization names the number given ----


def test_ar_refusal_names_the_resamples_given(capsys):
    mt = ROOT / "sample_data" / "mt"
    err = cli(
        [
            "randomized",
            "--ref",
            mt / "reference.txt",
            "--hyp",
            *sorted((mt / "hyp").glob("*.txt")),
            "--metric",
            "bleu",
            "--test",
            "approximate-randomization",
            "--resamples",
            "99999999",
        ],
        capsys,
    )
    assert "--resamples 99,999,999 (+ 1,000 for the interval)" in err
    assert "100,000,999" not in err


# ---- 7. upload size: .streamlit/config.toml matches the README ----


def test_the_upload_limit_matches_the_input_limit_and_the_readme():
    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    assert config["server"]["maxUploadSize"] * 2**20 == limits.MAX_BYTES
    assert "256 MiB" in (ROOT / "README.md").read_text()


# ---- 7. a long segment-score file without a header, as WMT writes them ----


def test_a_headerless_long_segment_file_is_read_as_long(tmp_path):
    path = tmp_path / "s.tsv"
    rows = [f"sys{k}\t{j}\t{0.1 * k + 0.01 * j:.2f}" for k in range(3) for j in range(4)]
    path.write_text("\n".join(rows) + "\n")
    frame = read_segment_scores(path)
    assert list(frame.columns) == ["sys0", "sys1", "sys2"]
    assert list(frame.index) == ["0", "1", "2", "3"]
    np.testing.assert_allclose(frame.loc["2", "sys1"], 0.12)
    bad = rows[:]
    bad[5] = "sys1\t1\tx"
    path.write_text("\n".join(bad) + "\n")
    with pytest.raises(StatsInputError, match=r"s\.tsv, line 6, column SCORE: 'x' is not a number"):
        read_segment_scores(path)


# ---- archives bounded in time (CVE-2024-6232), gzip members, names given twice ----


def _tar_with(*headers: tuple[bytes, bytes], gz: bool = True) -> bytes:
    """A tar of raw ``(type, body)`` extended headers, then one score file; gzipped."""
    out = b""
    for kind, body in headers:
        info = tarfile.TarInfo("././@PaxHeader")
        info.type, info.size = kind, len(body)
        out += info.tobuf(format=tarfile.USTAR_FORMAT) + body + b"\0" * (-len(body) % 512)
    member = tarfile.TarInfo("BLEU.sys.score")
    member.size = len(WMT)
    out += member.tobuf(format=tarfile.USTAR_FORMAT) + WMT.encode() + b"\0" * (-len(WMT) % 512)
    out += b"\0" * 1024
    return gzip.compress(out) if gz else out


def assert_quick_refusal(data: bytes, match: str, seconds: float = 2.0) -> str:
    """Assert that `data` is refused matching `match` within `seconds`, in one line of under
    300 characters; the message."""
    start = time.perf_counter()
    with pytest.raises(StatsInputError, match=match) as err:
        expand_sources([("a.tar.gz", data)])
    assert time.perf_counter() - start < seconds
    assert "\n" not in str(err.value) and len(str(err.value)) < 300
    return str(err.value)


def test_a_pax_header_of_200000_digits_is_refused_before_tarfile_parses_it():
    data = _tar_with((tarfile.XHDTYPE, b"1" * 200_000))
    assert len(data) < 1_000  # the 371-byte upload
    assert_quick_refusal(data, r"extended \(PAX\) header of 200,000 bytes")


def test_a_small_pax_header_with_a_long_digit_run_or_a_bad_record_is_refused():
    assert_quick_refusal(_tar_with((tarfile.XHDTYPE, b"9" * 8000)), "number of 8,000 digits")
    assert_quick_refusal(_tar_with((tarfile.XGLTYPE, b"30 path" + b"a" * 40 + b"\n")), "malformed")
    assert_quick_refusal(_tar_with((tarfile.XHDTYPE, b"12 size=100\n")), "sets 'size'")


def test_a_chain_of_pax_headers_is_refused():
    assert_quick_refusal(_tar_with(*[(tarfile.XHDTYPE, b"13 mtime=10\n")] * 9), "in a row")


def test_a_gnu_long_name_of_50_million_characters_is_refused_from_its_header(tmp_path, capsys):
    info = tarfile.TarInfo("././@LongLink")
    info.type, info.size = tarfile.GNUTYPE_LONGNAME, 50_000_000
    head = info.tobuf(format=tarfile.USTAR_FORMAT)
    data = gzip.compress(head + b"a" * 50_000_000, 1)  # (the issue's: 48 KB of tar.gz)
    assert_quick_refusal(data, "GNU long name of 50,000,000 bytes")
    path = tmp_path / "long.tar.gz"
    path.write_bytes(data)
    err = cli(["williams", "--metrics", path, "--human", path], capsys)
    assert len(err) <= 310


def test_well_formed_pax_and_long_names_still_read():
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz", format=tarfile.PAX_FORMAT) as tf:
        for name in ("d/" + "n" * 300 + "/BLEU.sys.score", "d/ü/HUMAN.sys.score"):
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(WMT), 1.5  # a fractional mtime: a PAX record
            tf.addfile(info, io.BytesIO(WMT.encode()))
    members = expand_sources([("a.tar.gz", buf.getvalue())])
    assert [len(data) for _, data in members] == [len(WMT)] * 2
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.GNU_FORMAT) as tf:
        info = tarfile.TarInfo("x" * 500 + ".score")
        info.size = len(WMT)
        tf.addfile(info, io.BytesIO(WMT.encode()))
    assert len(expand_sources([("a.tar", buf.getvalue())])) == 1


def test_200000_empty_gzip_members_are_counted_and_refused_quickly():
    data = gzip.compress(b"") * 200_000
    start = time.perf_counter()
    with pytest.raises(StatsInputError, match="more than 10,000 gzip members"):
        archives.gunzip(data, "many.gz")
    assert time.perf_counter() - start < 2
    ok = gzip.compress(b"a\t") * 5_000 + gzip.compress(b"1\n")
    assert archives.gunzip(ok, "ok.gz") == b"a\t" * 5_000 + b"1\n"


def test_an_archive_member_given_twice_is_refused(tmp_path, capsys):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf, pytest.warns(UserWarning, match="Duplicate"):
        zf.writestr("BLEU.sys.score", WMT)
        zf.writestr("BLEU.sys.score", WMT.replace("0.", "0.9"))
    with pytest.raises(StatsInputError, match="BLEU.sys.score is given twice"):
        expand_sources([("two.zip", buf.getvalue())])
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        for name in ("BLEU.sys.score", "./BLEU.sys.score"):
            info = tarfile.TarInfo(name)
            info.size = len(WMT)
            tf.addfile(info, io.BytesIO(WMT.encode()))
    path = tmp_path / "two.tar"
    path.write_bytes(buf.getvalue())
    assert "given twice" in cli(["williams", "--metrics", path, "--human", path], capsys)


def test_a_tar_header_with_a_negative_base256_size_is_refused():
    info = tarfile.TarInfo("a.tsv")
    head = bytearray(info.tobuf(format=tarfile.GNU_FORMAT))
    head[124:136] = b"\xff" * 12  # GNU base-256: -1
    head[148:156] = b" " * 8
    head[148:156] = b"%06o\0 " % sum(head)
    assert_quick_refusal(bytes(head) + b"x" * 512 + b"\0" * 1024, "size field cannot be read")
