"""Real browser, the meeting room at the field's real size, at 1400 x 900 and
1920 x 1080:

- the Leaderboard on a WMT24-size generated task set (3 language pairs x 15 systems x 1,500
  segments x 20 metrics) at the default 1,000 resamples: the point ranking first, then the
  clusters within the page's bound (progress and Stop meanwhile); 10,000 resamples, estimated
  over the bound, keep the point ranking and offer the ``mt-stats rank`` command;
- a link round trip: the MT systems page's settings after "As WMT's released scores" (en-ja,
  char), opened in a second browser context that uploads the same files, gives the same
  signature and the same numbers;
- the Metrics page's report with ``outliers.json`` lists that file with its SHA-256 and the
  systems left out; in presentation mode every chart lies within the window at both sizes;
- two QE systems whose abbreviations collided are drawn with distinct labels, both named in
  the legend of abbreviations.

Checks share page visits (one upload each) to keep the suite short."""

from __future__ import annotations

import hashlib
import json
import time
import urllib.parse
import zipfile

import numpy as np
import pytest
from playwright.sync_api import Error as PlaywrightError

from tests._task_set_data import write_wmt_like
from tests.browser.helpers import (
    SLIDE_1920,
    WINDOW_1400,
    assert_charts_within_windows,
    assert_no_exception,
    download,
    fail_with_page_state,
    goto_page,
    rerun_after,
    screenshot,
    toggle_presentation,
    upload_files,
    wait_for_charts,
    wait_for_idle,
)
from tests.browser.test_browser_mt_meeting import SYSTEMS, _signature_on_page, _wmt_en_ja
from tests.browser.test_browser_report import SAMPLE_DATA

SMALL, LARGE = WINDOW_1400, SLIDE_1920

#: a chart's traces as plotly.js drew them (numbers and text labels)
_TRACES_JS = """
sel => [...document.querySelectorAll(sel)].map(gd => gd._fullData.map(t => ({
  name: t.name,
  x: t.x ? Array.from(t.x) : null,
  y: t.y ? Array.from(t.y) : null,
  text: Array.isArray(t.text) || (t.text && t.text.length !== undefined && typeof t.text !== 'string')
    ? Array.from(t.text) : t.text,
})))
"""


# ---- the Leaderboard at WMT24 size ----


def _wmt24_size_zip(tmp_path):
    noise = np.linspace(0.5, 2.0, 19)
    metrics = {f"metric{k:02d}": float(s) for k, s in enumerate(noise)}  # + 1 QE metric: 20
    base = write_wmt_like(
        tmp_path / "data",
        lps=("en-de", "en-es", "ja-zh"),
        n_systems=15,
        n_items=1500,
        seed=46,
        metrics=metrics,
        testset="wmt24-size",
    )
    out = tmp_path / "wmt24-size.zip"
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf:
        for path in sorted(base.rglob("*")):
            if path.is_file():
                zf.write(path, str(path.relative_to(base.parent)))
    return out


@pytest.mark.opens_its_page
def test_leaderboard_wmt24_size_point_ranking_then_clusters(page, app_url, tmp_path):
    data = _wmt24_size_zip(tmp_path)
    page.set_viewport_size(SMALL)
    # the task set (system Pearson and segment Kendall by item per pair), all metrics,
    # chosen through the page's link (the URL carries the Leaderboard's settings)
    query = urllib.parse.urlencode(
        {
            "task_set": "Per language pair: system Pearson + segment Kendall by item",
            "primary": "all metrics",
        }
    )
    goto_page(page, app_url, f"leaderboard?{query}", timeout=300)
    wait_for_charts(page, minimum=2, timeout=300)
    started = time.monotonic()
    field = page.locator('[data-testid="stFileUploader"]').first.locator('input[type="file"]')
    field.set_input_files([str(data)])
    point = page.locator(".st-key-board_chart_point .js-plotly-plot")
    point.wait_for(timeout=300_000)
    t_point = time.monotonic() - started
    # the point ranking: 20 metrics, no clusters yet
    ticks = point.evaluate("gd => Array.from(gd._fullLayout.yaxis.ticktext)")
    assert len(ticks) == 20, ticks
    bar = page.locator('[data-testid="stProgress"]').filter(has_text="Clusters: PERM-BOTH")
    final = page.locator(".st-key-board_chart .js-plotly-plot")
    # the run's progress follows the point ranking in a message of its own (on a loaded
    # machine a moment later): then the progress or, already, the clusters
    try:
        bar.or_(final).first.wait_for(timeout=60_000)
    except PlaywrightError:
        fail_with_page_state(page, "neither progress nor the clusters after the point ranking")
    assert bar.count() + final.count() >= 1, "neither progress nor the clusters"
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0
    final.wait_for(timeout=600_000)  # the clusters, within the page's bound
    t_final = time.monotonic() - started
    wait_for_idle(page, timeout=120)
    assert_no_exception(page)
    assert page.locator('[data-testid="stAlertContentError"]').count() == 0
    lines = final.evaluate("gd => gd._fullLayout.shapes.length")
    assert lines >= 1  # clusters drawn
    print(f"WMT24-size Leaderboard: point ranking {t_point:.0f} s, clusters {t_final:.0f} s")
    # the same results at 1400 x 900 and 1920 x 1080: every chart within the window
    assert_charts_within_windows(page, minimum=2)

    # 10,000 resamples: estimated over the page's bound -> the command, the point ranking kept
    box = page.locator(".st-key-board_resamples input")
    box.fill("10000")
    rerun_after(page, lambda: box.press("Enter"), timeout=300)
    wait_for_idle(page, timeout=300)
    warning = page.locator('[data-testid="stAlertContentWarning"]').filter(
        has_text="Clusters not computed"
    )
    if warning.count() != 1:
        fail_with_page_state(page, "no offer of the command for 10,000 resamples")
    assert "PERM-BOTH resamples per task" in warning.inner_text()
    code = page.locator('[data-testid="stCode"]').filter(has_text="mt-stats rank").inner_text()
    assert "--data wmt24-size.zip --task-set per-lp" in code and "--all-metrics" in code
    assert "--resamples 10000" in code
    assert page.locator(".st-key-board_chart_point .js-plotly-plot").count() == 1
    assert_no_exception(page)


# ---- a link round trip in a second browser ----


def _numbers(page) -> list:
    return page.evaluate(_TRACES_JS, ".st-key-mt_scores_fig .js-plotly-plot")


@pytest.mark.opens_its_page
def test_link_reproduces_the_numbers_in_a_second_browser(page, app_url, browser, tmp_path):
    ref, hyps, _, _ = _wmt_en_ja(tmp_path, n_segments=300)
    page.set_viewport_size(SMALL)
    goto_page(page, app_url, "mt_systems")
    wait_for_charts(page, minimum=3)
    upload_files(page, [ref], index=0)
    upload_files(page, hyps, index=1)
    wait_for_charts(page, minimum=3, timeout=300)
    rerun_after(page, page.get_by_role("button", name="As WMT's released scores").first.click)
    wait_for_charts(page, minimum=3, timeout=300)
    wait_for_idle(page)
    signature = _signature_on_page(page)
    assert "tok:char" in signature
    numbers = _numbers(page)
    assert numbers and len(numbers[0][0]["y"] or numbers[0][0]["x"]) >= len(SYSTEMS) - 1
    link = page.url
    assert "tokenize=char" in link, link

    other = browser.new_context(viewport=LARGE)  # another browser: no session, no cache shared
    try:
        second = other.new_page()
        second.set_default_timeout(60_000)
        goto_page(second, app_url, link.removeprefix(f"{app_url}/"), timeout=300)
        wait_for_charts(second, minimum=3, timeout=300)  # the sample first: files not yet there
        upload_files(second, [ref], index=0)
        upload_files(second, hyps, index=1)
        wait_for_charts(second, minimum=3, timeout=300)
        wait_for_idle(second)
        assert_no_exception(second)
        assert _signature_on_page(second) == signature
        assert _numbers(second) == numbers
    finally:
        other.close()


# ---- the report with outliers.json; presentation mode at both sizes ----


@pytest.mark.opens_its_page
def test_report_outliers_and_presentation_within_the_window(page, app_url, tmp_path):
    page.set_viewport_size(SMALL)
    goto_page(page, app_url, "metrics")
    wait_for_charts(page, minimum=3)
    metrics = SAMPLE_DATA / "metrics"
    upload_files(page, [metrics / "human.tsv", metrics / "metrics.tsv"], index=0)
    outliers = tmp_path / "outliers.json"
    outliers.write_text(json.dumps({"es-en": ["online-A"]}))
    upload_files(page, [outliers], index=1)
    wait_for_charts(page, minimum=3, timeout=300)
    assert_no_exception(page)
    path = download(page, "download_report", tmp_path, timeout=300)
    with zipfile.ZipFile(path) as zf:
        record = json.loads(zf.read("record.json"))
        html = zf.read("report.html").decode()
    listed = {f["name"]: f["sha256"] for v in record["inputs"].values() for f in v["files"]}
    assert listed.get("outliers.json") == hashlib.sha256(outliers.read_bytes()).hexdigest()
    left = [n["text"] for n in record["notes"] if n["kind"] == "left out"]
    assert any("es-en: online-A" in t for t in left), left
    assert "Left out, and why" in html

    toggle_presentation(page)
    assert_charts_within_windows(page, (SMALL, LARGE))
    toggle_presentation(page)  # off again for the next test of this session


@pytest.mark.opens_its_page
def test_qe_colliding_names_distinct_labels(page, app_url, tmp_path, artifacts_dir):
    rows = (SAMPLE_DATA / "qe" / "hter_long.txt").read_text().splitlines()
    rename = {
        "ALPHA-svr": "yzyalbert-IOL/score_ensemble",
        "CONSERV-mean": "yzyalbert-IOL/multilingual/score_ensemble",
    }
    out = [rows[0]] + [
        " ".join([rename.get(r.split(" ", 1)[0], r.split(" ", 1)[0]), r.split(" ", 1)[1]])
        for r in rows[1:]
    ]
    path = tmp_path / "qe_wmt.txt"
    path.write_text("\n".join(out) + "\n")
    page.set_viewport_size(SMALL)
    goto_page(page, app_url, "qe")
    wait_for_charts(page, minimum=3)
    upload_files(page, [path], index=0)
    wait_for_charts(page, minimum=3, timeout=300)
    assert_no_exception(page)
    traces = page.evaluate(_TRACES_JS, ".st-key-qe_ranks_fig .js-plotly-plot")[0]
    ends = {t["name"]: t["text"][-1].rsplit(" (", 1)[0] for t in traces}
    mine = [ends[n] for n in rename.values()]
    assert len(set(mine)) == 2 and all("…" in m for m in mine), mine
    assert len(set(ends.values())) == len(ends)
    legend = " ".join(
        page.locator('[data-testid="stCaptionContainer"]')
        .filter(has_text="Abbreviated:")
        .all_inner_texts()
    )
    for name in rename.values():
        assert name in legend, legend
    screenshot(page, artifacts_dir, "qe_colliding_names")
