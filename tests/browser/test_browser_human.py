"""Real browser (Playwright + Debian chromium): the "Tests vs humans" page -- sample data drawn,
judgements uploaded through the file input, a malformed file shown as an error, alpha
changed, and the accuracy table and gold grids exported."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.browser.helpers import (
    ERROR_SELECTOR,
    assert_no_exception,
    download,
    goto_page,
    remove_upload,
    rerun_after,
    screenshot,
    upload_files,
    wait_for_charts,
    wait_for_idle,
)

REPO_ROOT = Path(__file__).resolve().parents[2]
HUMAN = REPO_ROOT / "sample_data" / "human"
SYSTEMS = ["Aurora", "Borealis", "Cirrus", "Delta", "Ember", "Fjord", "Glacier", "Harbor"]
N_CHARTS = 5  # gold grids, accuracy, agreement, annotators, ranks


def _svg_texts(page) -> set[str]:
    """Tick labels and panel titles of every drawn Plotly chart (SVG text)."""
    return set(
        page.eval_on_selector_all(
            ".js-plotly-plot .xtick text, .js-plotly-plot .ytick text, "
            ".js-plotly-plot .annotation-text",
            "els => els.map(e => e.textContent)",
        )
    )


@pytest.mark.opens_its_page
def test_sample_alpha_and_exports_then_upload_then_malformed_file_then_da_file_as_gold(
    page, app_url, artifacts_dir, tmp_path
):
    """One visit: the sample drawn; alpha changed and the accuracy table and gold grids
    exported; alpha back to 0.05; then the judgements uploaded and a malformed file; then a
    published DA file as the gold standard, with ranking lines."""
    goto_page(page, app_url, "human")
    wait_for_charts(page, minimum=N_CHARTS, timeout=120)
    assert page.get_by_text("synthetic judgements").count() == 1
    texts = _svg_texts(page)
    for label in ["Adequacy", "Fluency", "Combined", *SYSTEMS]:
        assert label in texts, (label, sorted(texts))
    assert page.get_by_text("Accuracy of the significance tests").count() == 1
    assert_no_exception(page)
    screenshot(page, artifacts_dir, "human_sample")

    # alpha changed, then the exports (of the sample)
    alpha = page.locator(".st-key-human_alpha")
    wait_for_idle(page)  # the radio is clicked on a page at rest
    rerun_after(page, alpha.get_by_text("0.001", exact=True).click, timeout=120)
    wait_for_charts(page, minimum=N_CHARTS, timeout=120)
    assert page.get_by_text("Where the tests agree with the humans (α = 0.001)").count() == 1
    assert page.get_by_text("15 / 28").count() == 1
    assert_no_exception(page)

    csv = download(page, "human_accuracy_table_csv", tmp_path)
    assert csv.name == "accuracy_tables.csv"
    head = csv.read_text().splitlines()[0]
    assert head.startswith("alpha,Metric,Paired Bootst. Resamp.: Conc.")

    png = download(page, "human_gold_grids_png", tmp_path)
    assert png.name == "human_gold_standard_alpha_0.001.png"
    raw = png.read_bytes()
    assert raw[:8] == b"\x89PNG\r\n\x1a\n" and len(raw) > 10_000
    assert_no_exception(page)
    wait_for_idle(page)
    rerun_after(page, alpha.get_by_text("0.05", exact=True).click, timeout=120)
    assert page.get_by_text("Where the tests agree with the humans (α = 0.05)").count() == 1

    # the CSV variant of the judgements, uploaded through the first file input
    upload_files(page, [HUMAN / "judgements.csv"], index=0)
    wait_for_charts(page, minimum=N_CHARTS, timeout=120)
    assert page.get_by_text("synthetic judgements").count() == 0
    assert page.get_by_text("26 / 28").count() == 1  # pairs separated by the humans at 0.05
    assert_no_exception(page)

    bad = tmp_path / "broken_judgements.tsv"
    bad.write_text("SYSTEM\tSEGMENT\tANNOTATOR\tCRITERION\tSCORE\nAurora\t1\tw1\tadequacy\tn/a\n")
    upload_files(page, [bad], index=0)
    error = page.locator(ERROR_SELECTOR)
    error.first.wait_for()
    text = error.first.inner_text()
    assert "broken_judgements.tsv" in text and "line 2" in text and "SCORE" in text
    assert_no_exception(page)
    screenshot(page, artifacts_dir, "human_malformed")

    # a published DA file as the gold standard, read alone: uploaded beside the two files
    # above, which are then removed (see ``remove_upload``)
    from tests._data import da_segment_text

    da = tmp_path / "ad-seg-scores-de-en.csv"
    da.write_text(da_segment_text())
    upload_files(page, [da], index=0)
    remove_upload(page, "judgements.csv", index=0)
    remove_upload(page, "broken", index=0)  # its chip shows the long name shortened
    page.get_by_text("Human ranking, de-en").first.wait_for(timeout=120_000)
    wait_for_charts(page, minimum=N_CHARTS, timeout=120)
    assert_no_exception(page)
    assert page.get_by_text("480").count() >= 1  # judgements used: the file's segment scores
    # the ranking table: one row per system, a drawn line above each new cluster
    table = page.locator('[data-testid="stTable"]').filter(has_text="cluster").first
    table.wait_for(timeout=60_000)  # the browser may still be mounting the first static table
    rows = table.locator("tbody tr")
    assert rows.count() == 8
    clusters = [int(c) for c in rows.locator("td:nth-of-type(1)").all_inner_texts()]
    widths = rows.evaluate_all(
        "rs => rs.map(r => parseFloat(getComputedStyle(r.querySelector('td')).borderTopWidth))"
    )
    starts = [i > 0 and clusters[i] != clusters[i - 1] for i in range(len(clusters))]
    assert any(starts), clusters
    assert [w >= 3 for w in widths] == starts, (clusters, widths)
