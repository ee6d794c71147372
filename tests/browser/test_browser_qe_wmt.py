"""Real-browser test of the WMT20-24 part of the "Quality estimation" page: a zipped folder of
team submissions uploaded with the gold file and the hallucination index."""

from __future__ import annotations

import pytest

from tests._qe_wmt_data import generate
from tests.browser.helpers import (
    ERROR_SELECTOR,
    assert_no_exception,
    goto_page,
    screenshot,
    upload_files,
    wait_for_charts,
)


@pytest.mark.opens_its_page
def test_qe_upload_zipped_wmt_submissions(page, app_url, tmp_path, artifacts_dir):
    d = generate()
    (tmp_path / "submissions.zip").write_bytes(d["zip"])
    (tmp_path / "gold_labels_task1_sentence.tsv").write_text(d["gold"])
    (tmp_path / "gold_hallucinations_task1_sentence.tsv").write_text(d["exclude"])
    goto_page(page, app_url, "qe")
    wait_for_charts(page, minimum=1)
    upload_files(
        page,
        [
            tmp_path / "submissions.zip",
            tmp_path / "gold_labels_task1_sentence.tsv",
            tmp_path / "gold_hallucinations_task1_sentence.tsv",
        ],
    )
    # heatmap, leaderboard, the primary's PERM-BOTH grid, the grid of a second measure, the
    # scatter and the prediction correlations
    wait_for_charts(page, minimum=6)
    assert_no_exception(page)
    assert page.locator(ERROR_SELECTOR).count() == 0
    main = page.locator('[data-testid="stMain"]')
    text = main.inner_text()
    assert "Leaderboard, en-de (n = 37, 3 excluded)" in text
    assert "PERM-BOTH on Spearman" in text or "PERM-BOTH" in text
    values = main.locator('[data-testid="stMetricValue"]').all_inner_texts()
    assert values[:4] == ["3", "5", "111", "9"]
    assert "synthetic sample" not in text
    screenshot(page, artifacts_dir, "qe_wmt_zipped_submissions")
