"""Real-browser test of the WMT20-24 part of the "Quality estimation" page: a zipped folder of
team submissions uploaded with the gold file and the hallucination index."""

from __future__ import annotations

import pytest

from tests._qe_wmt_data import generate
from tests.browser.helpers import (
    ERROR_SELECTOR,
    assert_no_exception,
    goto_page,
    rerun_after,
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


@pytest.mark.opens_its_page
def test_qe_wmt23_submissions_folder_and_a_team_zip(page, app_url, tmp_path, artifacts_dir):
    """The WMT23 submissions folder chosen as a folder (the browser sends each file's path
    relative to it; three files are empty) with the gold file; then a team zip that starts
    with an empty file, which the page once refused as 'not valid UTF-8'."""
    from tests._qe_wmt_data import generate_wmt23_folder
    from tests.qe.test_qe_wmt23_folder import READ_AS

    d = generate_wmt23_folder()
    root = tmp_path / "T1_sentence"
    for path, text in d["files"].items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    (tmp_path / "gold_labels_task1_sentence.tsv").write_text(d["gold"])
    goto_page(page, app_url, "qe")
    wait_for_charts(page, minimum=1)
    upload_files(page, [tmp_path / "gold_labels_task1_sentence.tsv"])
    uploader = page.locator('[data-testid="stFileUploader"]').nth(1)
    rerun_after(page, lambda: uploader.locator('input[type="file"]').set_input_files(root))
    page.get_by_text(READ_AS).wait_for(timeout=120_000)
    wait_for_charts(page, minimum=6)
    assert_no_exception(page)
    assert page.locator(ERROR_SELECTOR).count() == 0
    main = page.locator('[data-testid="stMain"]')
    # more than three warnings are folded into one expander ("N warnings"): open it
    folded = main.locator('[data-testid="stExpander"] summary').filter(has_text="warnings")
    if folded.count():
        folded.first.click()
    text = main.inner_text()
    assert "asmith-LabA/zh-en/predictions.txt: empty, skipped" in text
    values = main.locator('[data-testid="stMetricValue"]').all_inner_texts()
    assert values[:2] == ["4", "12"]
    screenshot(page, artifacts_dir, "qe_wmt23_submissions_folder")

    # a team zip alone, beside the gold file: read as a submission, not as another layout
    (tmp_path / "asmith-LabA.zip").write_bytes(d["team_zips"]["asmith-LabA"])
    goto_page(page, app_url, "qe")
    upload_files(page, [tmp_path / "gold_labels_task1_sentence.tsv", tmp_path / "asmith-LabA.zip"])
    wait_for_charts(page, minimum=2)
    assert page.locator(ERROR_SELECTOR).count() == 0
    assert "not valid UTF-8" not in main.inner_text()
    assert "asmith-LabA/ensembleTQ" in main.inner_text()
