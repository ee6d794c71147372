"""Real browser: hostile archives uploaded on the Metrics page -- a zip bomb, a sparse tar
bomb, an archive of too many members, a wide file past the metric limit -- each end in one
error line naming the file and the limit, without a traceback, within 10 s of the upload (3-7 s
measured here with 5 other sessions computing; the test allows 15 s, for a loaded CI machine
and a first upload in a fresh server). All in one page visit (see
``tests.browser.helpers.remove_upload``). The reproducers of the hostile-input report follow in
the same uploader: a CSV field over the csv module's limit and a UTF-16 file end in one error
line (no traceback), and a metric named as a spreadsheet formula leaves the CSV export as
text. Then, in the same session, the MT systems page's segment scores: 1e308 refused in one
line, a headerless file read."""

from __future__ import annotations

import csv
import io
import random
import shutil
import struct
import subprocess
import time
import zipfile
from pathlib import Path

import pytest

from tests.browser.helpers import (
    ERROR_SELECTOR,
    EXCEPTION_SELECTOR,
    assert_no_exception,
    download,
    remove_upload,
    rerun_after,
    switch_page,
    upload_files,
    wait_for_charts,
)

WIDE = Path(__file__).resolve().parents[2] / "sample_data" / "metrics" / "es-en_wide.csv"


def _zip_bomb(tmp_path):
    """A zip whose member declares 2 GiB unpacked (as the 5.2 MB bomb of the issue does; the
    declared size is what refuses it, before any byte is unpacked)."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("BLEU.sys.score", b"\0" * 1000)
    data = bytearray(buf.getvalue())
    struct.pack_into("<I", data, data.index(b"PK\x03\x04") + 22, 2**31)
    struct.pack_into("<I", data, data.index(b"PK\x01\x02") + 24, 2**31)
    path = tmp_path / "bomb.zip"
    path.write_bytes(bytes(data))
    return path, "2,147,483,648 bytes"


def _sparse_tar(tmp_path):
    if shutil.which("tar") is None:
        return None  # GNU tar makes the sparse archive: skipped (said at the end)
    big = tmp_path / "big.sys.score"
    with open(big, "wb") as fh:
        fh.truncate(3 * 2**30)
    path = tmp_path / "s.tar.gz"
    subprocess.run(["tar", "--sparse", "-czf", path, "-C", tmp_path, big.name], check=True)
    big.unlink()
    return path, "a GNU sparse member"  # refused from its header


def _pax_digits(tmp_path):
    """A 371-byte upload: a PAX header of 200,000 digits, which CPython 3.11.7's tarfile
    parses in quadratic time (CVE-2024-6232: minutes of one core, unbounded)."""
    import gzip
    import tarfile

    body = b"1" * 200_000
    info = tarfile.TarInfo("././@PaxHeader")
    info.type, info.size = tarfile.XHDTYPE, len(body)
    raw = info.tobuf(format=tarfile.USTAR_FORMAT) + body + b"\0" * (-len(body) % 512)
    path = tmp_path / "pax.tar.gz"
    path.write_bytes(gzip.compress(raw + b"\0" * 1024))
    return path, "extended (PAX) header of 200,000 bytes"


def _many_members(tmp_path):
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_STORED) as zf:
        for i in range(10_001):
            zf.writestr(f"m{i}.sys.score", b"x")
    path = tmp_path / "many.zip"
    path.write_bytes(buf.getvalue())
    return path, "10,001 entries, over the limit of 10,000 entries"


def _wide(tmp_path):
    n = 9_998
    head = "system,human," + ",".join(f"m{i}" for i in range(n))
    rows = [f"s{j},0.{j}," + ",".join("0.5" for _ in range(n)) for j in range(5)]
    path = tmp_path / "wide.csv"
    path.write_text("\n".join([head, *rows]) + "\n")
    return path, "9,998 metrics is over the limit of 500"


#: the hostile uploads, in the order they are uploaded
HOSTILE = [_zip_bomb, _sparse_tar, _pax_digits, _many_members, _wide]


def _assert_one_line_error(page, path, words, t0) -> None:
    error = page.locator(ERROR_SELECTOR).first
    error.wait_for(timeout=15_000)
    assert time.monotonic() - t0 < 15.0, path.name
    assert page.locator(EXCEPTION_SELECTOR).count() == 0
    text = error.locator('[data-testid="stMarkdownContainer"]').inner_text().strip()
    assert "\n" not in text and "Traceback" not in text, text
    assert path.name in text and words in text, text


def test_hostile_archives_and_csv_files_then_segment_scores_on_mt_systems(page, tmp_path):
    """Each reproducer alone in the Metrics page's uploader ends in one error line naming it
    and the limit within 15 s. One page visit: the uploader appends, so each next file is
    uploaded beside the previous one, which is then removed; the run after the removal reads
    the new file alone and is the one timed (no sample is drawn in between)."""
    previous, missing = None, []
    for make in HOSTILE:
        made = make(tmp_path)
        if made is None:
            missing.append(make.__name__)
            continue
        path, words = made
        t0 = time.monotonic()
        upload_files(page, [path])
        if previous is not None:
            t0 = time.monotonic()
            remove_upload(page, previous.name)
        _assert_one_line_error(page, path, words, t0)
        previous = path
    # hostile CSV files in the same uploader
    _hostile_csv_files(page, tmp_path, previous)
    # the same session, switched to MT systems through the sidebar
    _segment_scores_on_mt_systems(page, tmp_path)
    if missing:
        pytest.skip(f"not made here (no GNU tar): {missing}; the others passed")


def _one_error_line(page) -> str:
    error = page.locator(ERROR_SELECTOR)
    error.first.wait_for()
    assert page.locator(EXCEPTION_SELECTOR).count() == 0
    text = error.first.locator('[data-testid="stMarkdownContainer"]').inner_text().strip()
    assert "\n" not in text and "Traceback" not in text, text
    return text


def _hostile_csv_files(page, tmp_path, previous: Path | None) -> None:
    """Three files, each alone in the Metrics page's uploader (the next one uploaded beside
    the previous one, which is then removed; ``previous`` is the file the uploader holds):

    - a field over the csv module's limit is one error line naming file and line;
    - a UTF-16 file (with a BOM, as Excel saves it) is read: charts, no error;
    - a metric named as a spreadsheet formula leaves the CSV export as text.
    """
    lines = WIDE.read_text().splitlines()
    lines[1] = lines[1].replace("online-A", "x" * 140_000, 1)
    bad = tmp_path / "long_field.csv"
    bad.write_text("\n".join(lines) + "\n")
    upload_files(page, [bad])
    if previous is not None:
        remove_upload(page, previous.name)
    text = _one_error_line(page)
    assert "long_field.csv, line 2" in text and "140,000 characters" in text, text

    utf16 = tmp_path / "es-en_utf16.csv"
    utf16.write_bytes(WIDE.read_text().encode("utf-16"))  # with a BOM, as Excel saves it
    upload_files(page, [utf16])
    remove_upload(page, bad.name)
    wait_for_charts(page, minimum=3)
    assert page.locator(EXCEPTION_SELECTOR).count() == 0
    assert page.locator(ERROR_SELECTOR).count() == 0

    header, *rows = WIDE.read_text().splitlines()
    formula = '=HYPERLINK("http://m.test","d")'
    cells = next(csv.reader([header]))
    cells[cells.index("PER")] = formula  # a metric column (the last one is lp)
    out = tmp_path / "es-en_formula.csv"
    with out.open("w", newline="") as f:
        csv.writer(f).writerows([cells, *csv.reader(rows)])
    upload_files(page, [out])
    remove_upload(page, utf16.name)
    wait_for_charts(page, minimum=3)
    path = download(page, "metrics_corr_table_csv", tmp_path)
    exported = list(csv.reader(path.read_text().splitlines()))
    names = [row[0] for row in exported[1:]]
    assert "'" + formula in names, names
    assert formula not in names


def _segment_scores_on_mt_systems(page, tmp_path) -> None:
    """A score of 1e308 is one error line naming file, line and column; a headerless long
    segment file (as WMT publishes them) is then read and drawn. One visit: the headerless
    file is uploaded beside the bad one, which is then removed."""
    big = tmp_path / "big.tsv"
    rows = [f"sys{k}\t{j}\t{0.1 * k + 0.01 * j:.2f}" for k in range(3) for j in range(10)]
    rows[4] = "sys0\t4\t1e308"
    big.write_text("SYSTEM\tSEGMENT\tSCORE\n" + "\n".join(rows) + "\n")
    switch_page(page, "MT systems")
    rerun_after(page, page.locator(".st-key-mt_source").get_by_text("Segment scores").click)
    upload_files(page, [big])
    error = page.locator(ERROR_SELECTOR).first
    error.wait_for(timeout=30_000)
    text = error.locator('[data-testid="stMarkdownContainer"]').inner_text().strip()
    assert "big.tsv, line 6, column SCORE: 1e+308 is too large" in text, text
    assert page.locator(EXCEPTION_SELECTOR).count() == 0

    path = tmp_path / "wmt.seg.tsv"
    rng = random.Random(3)
    rows = [f"sys{k}\t{j}\t{rng.random() + 0.1 * k:.3f}" for k in range(4) for j in range(40)]
    path.write_text("\n".join(rows) + "\n")
    upload_files(page, [path])
    remove_upload(page, big.name)
    wait_for_charts(page, minimum=2, timeout=180)
    assert page.locator(ERROR_SELECTOR).count() == 0
    assert_no_exception(page)
