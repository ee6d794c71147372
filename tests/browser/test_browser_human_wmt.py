"""Real browser (Playwright + Debian chromium): "Tests vs humans" ranks systems from WMT22-25
human files alone -- an Appraise ESA export with its documents file, or an MQM file -- without
any MT output: the findings-style ranking table (rank ranges, cluster lines), its LaTeX, and
the gold grid."""

from __future__ import annotations

import pytest

from tests.browser.helpers import (
    assert_no_exception,
    download,
    goto_page,
    remove_upload,
    screenshot,
    upload_files,
    wait_for_charts,
)
from tests.human.test_human_paired import make

OTHER = {"ONLINE-W": 0.8, "GPT-4": 0.75, "Lan-BridgeMT": 0.6, "ONLINE-Y": 0.5, "NLLB": 0.3}


def _ranking_rows(page) -> list[str]:
    table = page.locator('[data-testid="stTable"]').filter(has_text="rank").first
    table.wait_for(timeout=60_000)
    return table.locator("tbody tr th").all_inner_texts()


def _files(tmp_path):
    texts = make.generate(3, systems=OTHER, n_segments=60, n_domains=2, n_users=3)
    for name, text in texts.items():
        (tmp_path / name).write_text(text, encoding="utf-8")


@pytest.mark.opens_its_page
def test_esa_export_alone_then_mqm_file_alone_rank_the_systems(
    page, app_url, artifacts_dir, tmp_path
):
    """One visit: the ESA export with its documents file; then the MQM file uploaded beside
    them and the two removed (see ``remove_upload``), so it is read alone."""
    _files(tmp_path)
    goto_page(page, app_url, "human")
    upload_files(page, [tmp_path / "en-de.esa.csv", tmp_path / "en-de.docs"], index=0)
    page.get_by_text("from the human files alone").first.wait_for(timeout=120_000)
    page.get_by_text("Stouffer").first.wait_for(timeout=60_000)
    wait_for_charts(page, minimum=1, timeout=60)
    assert_no_exception(page)
    assert sorted(_ranking_rows(page)) == sorted(OTHER)
    tex = download(page, "human_paired_ESA_en-de_findings_tex", tmp_path)
    body = tex.read_text()
    assert body.startswith("\\begin{table}") and "\\caption{ESA en-de" in body
    screenshot(page, artifacts_dir, "human_wmt_esa_alone")

    upload_files(page, [tmp_path / "en-de.mqm.tsv"], index=0)
    remove_upload(page, "en-de.esa.csv", index=0)
    remove_upload(page, "en-de.docs", index=0)
    page.get_by_text("MQM en-de").first.wait_for(timeout=120_000)
    assert_no_exception(page)
    assert sorted(_ranking_rows(page)) == sorted(OTHER)
