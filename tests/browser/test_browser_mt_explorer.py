"""Real browser (Playwright + Debian chromium): the segment explorer on "MT systems" after
uploading a reference, system outputs and a source text: the search box and the system
selectors change the segments shown, and a source of the wrong length is one error line."""

from __future__ import annotations

import re

import pytest

from dashboard.tables import explorer as explorer_tables
from stats import segment_contributions
from stats.analyses import segment_texts, text_statistics
from tests._data import write_mt_sample_head
from tests.browser.helpers import (
    ERROR_SELECTOR,
    assert_no_exception,
    choose_option,
    goto_page,
    rerun_after,
    screenshot,
    upload_files,
    wait_for_charts,
)

SYSTEMS = ("Aurora", "Cirrus", "Delta", "Harbor")


def _shown(page) -> tuple[int, int]:
    text = page.get_by_text(re.compile(r"showing [\d,]+ of [\d,]+ segments")).first.inner_text()
    n, total = re.search(r"showing ([\d,]+) of ([\d,]+) segments", text).groups()
    return int(n.replace(",", "")), int(total.replace(",", ""))


@pytest.mark.opens_its_page
def test_explorer_search_and_source(page, app_url, artifacts_dir, tmp_path):
    goto_page(page, app_url, "mt_systems")
    wait_for_charts(page, minimum=3)
    ref, hyps = write_mt_sample_head(tmp_path, 80, SYSTEMS)
    upload_files(page, [ref], index=0)
    upload_files(page, hyps, index=1)
    source = tmp_path / "source.txt"
    source.write_text("".join(f"source line {i}\n" for i in range(1, 81)))
    upload_files(page, [source], index=2)  # the explorer's source uploader
    wait_for_charts(page, minimum=3)
    assert_no_exception(page)
    choose_option(page, "mt_explore_a", "Aurora")
    choose_option(page, "mt_explore_b", "Harbor")
    page.keyboard.press("Escape")
    assert _shown(page) == (80, 80)

    word = ref.read_text().split()[3]
    box = page.locator(".st-key-mt_explore_search input")
    rerun_after(page, lambda: (box.fill(word), box.press("Enter")))
    refs, outs = [ref], hyps
    table = explorer_tables.explorer_table(
        segment_contributions(text_statistics(refs, outs), "Aurora", "Harbor"),
        segment_texts(refs, outs, "Aurora", "Harbor", source=source),
    )
    want = len(explorer_tables.filter_segments(table, query=word))
    assert 0 < want < 80
    assert _shown(page) == (want, 80)
    assert_no_exception(page)
    screenshot(page, artifacts_dir, "mt_systems_explorer")

    short = tmp_path / "short.txt"
    short.write_text("only one line\n")
    upload_files(page, [short], index=2)
    error = page.locator(ERROR_SELECTOR)
    error.first.wait_for()
    assert "short.txt has 1 lines but" in error.first.inner_text()
    assert_no_exception(page)
