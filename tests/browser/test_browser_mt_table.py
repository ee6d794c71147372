"""Real-browser test of the systems table against a baseline on "MT systems": upload text
files, choose the baseline, download the table's CSV and read the table on screen (as the
static HTML table of presentation mode: the dataframe canvas holds no readable text).

The numbers must be those of :func:`stats.systems_table` on the same files and seed (whose
golden tests against sacreBLEU's PairedTest are in tests/mt/test_systems_table.py).
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

from stats import systems_table
from stats.mt.sufficient import extract_statistics
from stats.readers.segments import read_parallel
from tests._data import write_mt_sample_head
from tests.browser.helpers import (
    ERROR_SELECTOR,
    assert_no_exception,
    choose_option,
    download,
    goto_page,
    rerun_after,
    screenshot,
    upload_files,
    wait_for_charts,
    wait_for_idle,
)

SYSTEMS = ("Aurora", "Cirrus", "Delta", "Harbor")


@pytest.mark.opens_its_page
def test_mt_table_upload_baseline_csv_and_screen(page, app_url, artifacts_dir, tmp_path):
    goto_page(page, app_url, "mt_systems")
    wait_for_charts(page, minimum=3)
    ref, hyps = write_mt_sample_head(tmp_path, 120, SYSTEMS)
    upload_files(page, [ref], index=0)
    upload_files(page, hyps, index=1)
    wait_for_charts(page, minimum=3)
    assert_no_exception(page)
    assert page.locator(ERROR_SELECTOR).count() == 0

    choose_option(page, "mt_table_baseline", "Delta")
    wait_for_idle(page)
    assert_no_exception(page)

    refs, outputs = read_parallel([ref], hyps)
    data = [extract_statistics(refs, outputs, metric=m) for m in ("bleu", "chrf")]
    expected = systems_table(data, baseline="Delta", n_resamples=1000, rng=12345)
    sig = expected.significant(0.05)

    path = download(page, "mt_baseline_table_csv", tmp_path)
    assert path.name == "mt_systems_table_Delta.csv"
    csv = pd.read_csv(io.BytesIO(path.read_bytes()), index_col="system", keep_default_na=False)
    assert list(csv.index) == ["Delta", "Aurora", "Cirrus", "Harbor"]
    for m in expected.metrics:  # full precision
        np.testing.assert_array_equal(csv[m].to_numpy(), expected.score[m].to_numpy())
        np.testing.assert_array_equal(csv[f"{m} μ"].to_numpy(), expected.mean[m].to_numpy())
        np.testing.assert_array_equal(csv[f"{m} ± 95% CI"].to_numpy(), expected.ci[m].to_numpy())
        p = pd.to_numeric(csv[f"{m} p"].replace("", np.nan))
        np.testing.assert_array_equal(p.to_numpy(), expected.pvalue[m].to_numpy())
    marks = {
        s: (
            "baseline"
            if s == "Delta"
            else "† " + ", ".join(m for m in expected.metrics if sig.at[s, m])
            if sig.loc[s].any()
            else ""
        )
        for s in expected.systems
    }
    assert csv["vs baseline"].to_dict() == marks
    screenshot(page, artifacts_dir, "mt_table_uploaded")

    # on screen: the static table of presentation mode, cell by cell
    rerun_after(
        page, page.locator('[data-testid="stSidebar"]').get_by_text("Presentation mode").click
    )
    wait_for_idle(page)
    table = page.locator('[data-testid="stTable"]').filter(has_text="vs baseline").first
    table.wait_for(timeout=60_000)
    # at most 4 systems and 8 or more columns: the slide draws the table transposed (the
    # download's columns as rows), so that no header breaks inside a word at 1400 px
    headers = table.locator("thead th").all_inner_texts()
    assert [h.strip() for h in headers[1:]] == list(expected.systems)
    rows = table.locator("tbody tr")
    assert rows.count() == len(csv.columns)
    labels = [rows.nth(k).locator("th").first.inner_text().strip() for k in range(rows.count())]
    assert labels == list(csv.columns)
    # a slide shows 0-100 scores with 2 decimals (the downloads keep every digit)
    bleu = [c.strip() for c in rows.nth(0).locator("td").all_inner_texts()]
    assert bleu == [f"{expected.score.at[s, 'BLEU']:.2f}" for s in expected.systems]
    last = [c.strip() for c in rows.nth(rows.count() - 1).locator("td").all_inner_texts()]
    assert last == [marks[s] for s in expected.systems]
    assert_no_exception(page)
    screenshot(page, artifacts_dir, "mt_table_presentation")
