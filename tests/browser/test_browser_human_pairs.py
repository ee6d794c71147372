"""Real browser (Playwright + Debian chromium): "Tests vs humans" with WMT24's ESA wave file
(four language pairs in one Appraise export) -- a language-pair picker, every pair ranked --
and, with system outputs, BLEU's tokenizer and sacreBLEU's signature named, the tokenizer
chosen in the sacreBLEU options as on the MT systems page."""

from __future__ import annotations

import pytest

from tests._data import MT
from tests.browser.helpers import (
    ERROR_SELECTOR,
    assert_no_exception,
    choose_option,
    goto_page,
    screenshot,
    upload_files,
    wait_for_charts,
    wait_for_idle,
)
from tests.dashboard.test_app_human_pairs import TARGETS, esa_wave
from tests.human.test_human_paired import make


@pytest.mark.opens_its_page
def test_esa_wave_file_picker_rankings_and_tokenizer(page, app_url, artifacts_dir, tmp_path):
    wave = tmp_path / "wave1.esa.csv"
    wave.write_text(esa_wave(systems=make.SYSTEMS, n_segments=60), encoding="utf-8")
    goto_page(page, app_url, "human")
    upload_files(page, [wave], index=0)
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
