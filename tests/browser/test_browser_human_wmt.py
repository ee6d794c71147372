"""Real browser (Playwright + Debian chromium): "Tests vs humans" ranks systems from WMT22-25
human files alone -- an Appraise ESA export with its documents file, or an MQM file -- without
any MT output: the findings-style ranking table (rank ranges, cluster lines), its LaTeX, and
the gold grid. Then WMT24's ESA wave file (four language pairs in one Appraise export) -- a
language-pair picker, every pair ranked -- and, with system outputs, BLEU's tokenizer and
sacreBLEU's signature named, the tokenizer chosen in the sacreBLEU options as on the MT
systems page."""

from __future__ import annotations

import pytest

from tests._data import MT
from tests.browser.helpers import (
    ERROR_SELECTOR,
    assert_no_exception,
    choose_option,
    download,
    goto_page,
    remove_upload,
    screenshot,
    upload_files,
    wait_for_charts,
    wait_for_idle,
)
from tests.dashboard.test_app_human_pairs import TARGETS, esa_wave
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
def test_esa_export_alone_then_mqm_file_alone_then_an_esa_wave_with_outputs(
    page, app_url, artifacts_dir, tmp_path
):
    """One visit: the ESA export with its documents file; then the MQM file uploaded beside
    them and the two removed (see ``remove_upload``), so it is read alone; then WMT24's ESA
    wave file read alone the same way, with system outputs."""
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

    # WMT24's ESA wave file (four language pairs in one Appraise export), uploaded beside the
    # MQM file, which is then removed: a language-pair picker, every pair ranked; with system
    # outputs, BLEU's tokenizer and sacreBLEU's signature named, the tokenizer chosen in the
    # sacreBLEU options as on the MT systems page
    wave = tmp_path / "wave1.esa.csv"
    wave.write_text(esa_wave(systems=make.SYSTEMS, n_segments=60), encoding="utf-8")
    upload_files(page, [wave], index=0)
    remove_upload(page, "en-de.mqm.tsv", index=0)
    main = page.locator('[data-testid="stMain"]')
    page.get_by_text("ESA en-zh").first.wait_for(timeout=180_000)
    assert_no_exception(page)
    assert page.locator(ERROR_SELECTOR).count() == 0
    text = main.inner_text()
    for lp in TARGETS.values():  # every pair ranked, not only the one picked
        assert f"ESA {lp}" in text
    choose_option(page, "human_lp", "en-hi (ESA)")  # the gold standard of another pair
    assert page.locator(ERROR_SELECTOR).count() == 0
    wait_for_charts(page, minimum=1, timeout=120)
    choose_option(page, "human_lp", "en-cs (ESA)")  # the pair of the outputs below
    # the outputs of four of the systems, named as WMT publishes them
    ref = tmp_path / "generaltest2024.en-cs.ref.refA.cs"
    ref.write_bytes((MT / "reference.txt").read_bytes())
    hyps = []
    for s in ("Aurora", "Cirrus", "Ember", "Harbor"):
        hyps.append(tmp_path / f"generaltest2024.en-cs.hyp.{s}.cs")
        hyps[-1].write_bytes((MT / "hyp" / f"{s}.txt").read_bytes())
    upload_files(page, [ref], index=1)
    upload_files(page, hyps, index=2)
    caption = page.get_by_text("BLEU tokenizer: 13a").first
    caption.wait_for(timeout=180_000)
    assert "tok:13a" in caption.inner_text()
    wait_for_charts(page, minimum=2, timeout=120)
    assert page.locator(ERROR_SELECTOR).count() == 0
    screenshot(page, artifacts_dir, "human_esa_wave_tokenizer")
    # sacreBLEU's options, the MT systems page's expander, opened on a page at rest (a click
    # on it mid-run can land on an element being redrawn, leaving it closed)
    wait_for_idle(page)
    page.get_by_text("sacreBLEU options").first.click()
    choose_option(page, "mt_opt_tokenize", "intl")
    caption = page.get_by_text("BLEU tokenizer: intl").first
    caption.wait_for(timeout=180_000)
    assert "tok:intl" in caption.inner_text()
    assert_no_exception(page)
