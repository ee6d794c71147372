"""Real browser (Playwright + Debian chromium): reproducers of the hostile-input report on the
landing page -- a CSV field over the csv module's limit and a UTF-16 file end in one error line
(no traceback), and a metric named as a spreadsheet formula leaves the CSV export as text."""

from __future__ import annotations

import csv
from pathlib import Path

from tests.browser.helpers import (
    ERROR_SELECTOR,
    EXCEPTION_SELECTOR,
    download,
    remove_upload,
    upload_files,
    wait_for_charts,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
WIDE = REPO_ROOT / "sample_data" / "metrics" / "es-en_wide.csv"


def _one_error_line(page) -> str:
    error = page.locator(ERROR_SELECTOR)
    error.first.wait_for()
    assert page.locator(EXCEPTION_SELECTOR).count() == 0
    text = error.first.locator('[data-testid="stMarkdownContainer"]').inner_text().strip()
    assert "\n" not in text and "Traceback" not in text, text
    return text


def test_hostile_csv_files_on_the_landing_page(page, tmp_path):
    """Three files checked in one page visit, each alone in the uploader: the next file is
    uploaded beside the previous one, which is then removed (see ``remove_upload``).

    - a field over the csv module's limit is one error line naming file and line;
    - a UTF-16 file (with a BOM, as Excel saves it) is read: charts, no error;
    - a metric named as a spreadsheet formula leaves the CSV export as text.
    """
    lines = WIDE.read_text().splitlines()
    lines[1] = lines[1].replace("online-A", "x" * 140_000, 1)
    bad = tmp_path / "long_field.csv"
    bad.write_text("\n".join(lines) + "\n")
    upload_files(page, [bad])
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
