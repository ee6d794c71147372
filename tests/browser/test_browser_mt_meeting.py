"""Real browser: the MT systems page on WMT-like en-ja uploads (16 systems under
WMT23 file names, paragraph segments), at 1400 x 900 and then 1920 x 1080 in the same session:

- the signature under the metric is sacreBLEU's own string (ja-mecab by default), the page
  notes that the WMT22/WMT23 organisers' released scores used char, and its button scores as they did (the
  signature then sacreBLEU's for char);
- the significance grids' tick labels do not overlap (label boxes measured in the browser,
  per panel) at both sizes;
- Stop keeps the results already shown.

One test, one upload: the three checks share the session's computations (the suite stays
fast)."""

from __future__ import annotations

import random

import pytest
from sacrebleu.metrics import BLEU

from tests.browser.helpers import (
    assert_no_exception,
    choose_option,
    fail_with_page_state,
    goto_page,
    rerun_after,
    upload_files,
    wait_for_charts,
    wait_for_idle,
    wait_until_still,
)
from tests.browser.test_browser_legibility import _overlaps
from tests.browser.test_browser_stop import _click_stop, _progress, _wait_for

#: WMT23 en-ja system names (some long), 16 of them
SYSTEMS = [
    "ONLINE-B", "ONLINE-W", "ONLINE-Y", "GPT4-5shot", "SKIM", "NAIST-NICT", "ZengHuiMT",
    "ONLINE-A", "Lan-BridgeMT", "ONLINE-M", "ANVITA", "KYB", "AIRC", "ONLINE-G",
    "NLLB_Greedy", "Samsung_Research_Philippines",
]  # fmt: skip
WORDS = ["今日", "は", "良い", "天気", "です", "東京", "に", "行き", "ました", "猫", "が", "好き",
         "明日", "雨", "でしょう", "会議", "の", "資料", "を", "準備", "し", "て", "ください",
         "、", "。", "新しい", "翻訳", "システム", "評価", "結果"]  # fmt: skip

#: the grids figure's x and y tick label boxes and tick font size
_TICKS_JS = """
key => {
  const gd = document.querySelector('.st-key-' + key + ' .js-plotly-plot');
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  // plotly names the ticks of axis k "x<k>tick": every axis layer's labels
  const first = gd.querySelector('.xaxislayer-above text');
  return {
    xt: [...gd.querySelectorAll('.xaxislayer-above text')].map(box),
    yt: [...gd.querySelectorAll('.yaxislayer-above text')].map(box),
    font: first ? parseFloat(getComputedStyle(first).fontSize) : 0,
  };
}
"""


def _panels(boxes) -> list[list]:
    """x tick label boxes grouped by panel: a panel's -45 degree labels hang from its axis
    line, so their tops lie within a few px of each other."""
    groups: list[list] = []
    for b in sorted(boxes, key=lambda b: b[1]):
        if groups and b[1] - groups[-1][0][1] < 20:
            groups[-1].append(b)
        else:
            groups.append([b])
    return groups


def _paragraph(rng) -> str:
    return "".join(rng.choices(WORDS, k=rng.randint(25, 45)))


def _wmt_en_ja(folder, n_segments: int = 1500):
    rng = random.Random(37)
    ref_lines = [_paragraph(rng) for _ in range(n_segments)]
    ref = folder / "generaltest2023.en-ja.ref.refA.ja"
    ref.write_text("\n".join(ref_lines) + "\n", encoding="utf-8")
    hyps, outputs = [], {}
    ref_words = [_split(line) for line in ref_lines]  # once, not once a system
    for k, name in enumerate(SYSTEMS):
        noise = 0.05 + 0.03 * k
        lines = [
            "".join(w if rng.random() > noise else rng.choice(WORDS) for w in words)
            for words in ref_words
        ]
        path = folder / f"generaltest2023.en-ja.hyp.{name}.ja"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        hyps.append(path)
        outputs[name] = lines
    return ref, hyps, ref_lines, outputs


def _split(line: str) -> list[str]:
    """The words a generated paragraph was made of (greedy, longest first)."""
    out, i = [], 0
    vocab = sorted(WORDS, key=len, reverse=True)
    while i < len(line):
        w = next(v for v in vocab if line.startswith(v, i))
        out.append(w)
        i += len(w)
    return out


def _sacrebleu_signature(tokenize: str, refs, outputs) -> str:
    bleu = BLEU(tokenize=tokenize)
    bleu.corpus_score(outputs[SYSTEMS[0]], [refs])  # sets nrefs as sacrebleu's CLI does
    return bleu.get_signature().format()


def _signature_on_page(page) -> str:
    code = (
        page.locator('[data-testid="stCaptionContainer"]')
        .filter(has_text="sacrebleu signature")
        .first.locator("code")
    )
    return code.inner_text().strip()


def _grid_label_overlaps(page) -> list:
    """Per panel: overlapping y labels, and neighbouring -45 degree x labels closer than a
    line of text (their right ends ``d`` px apart lie ``d sin 45`` apart)."""
    page.locator(".st-key-mt_grids").scroll_into_view_if_needed()
    try:  # the chart redraws after a resize: until every panel has its labels again
        page.wait_for_function(
            f"() => ({_TICKS_JS})('mt_grids').xt.length === 3 * {len(SYSTEMS)}",
            timeout=30_000,
        )
    except Exception:  # noqa: BLE001 - reported below with the counts
        pass
    ticks = page.evaluate(_TICKS_JS, "mt_grids")
    out = []
    for panel in _panels(ticks["xt"]):
        anchors = sorted(b[2] for b in panel)
        steps = [b - a for a, b in zip(anchors, anchors[1:], strict=False)]
        out.append((len(panel), sum(s * 0.7071 < ticks["font"] for s in steps)))
    return out, _overlaps(ticks["yt"]), len(ticks["yt"])


@pytest.mark.opens_its_page
def test_wmt_en_ja_signatures_legible_grids_and_stop(page, app_url, tmp_path, artifacts_dir):
    ref, hyps, refs, outputs = _wmt_en_ja(tmp_path)
    page.set_viewport_size({"width": 1400, "height": 900})
    goto_page(page, app_url, "mt_systems")
    wait_for_charts(page, minimum=3)
    upload_files(page, [ref], index=0)
    upload_files(page, hyps, index=1)
    wait_for_charts(page, minimum=3, timeout=180)
    assert_no_exception(page)

    # sacreBLEU's default for Japanese, its own signature string; the WMT note and its button
    assert _signature_on_page(page) == _sacrebleu_signature("ja-mecab", refs, outputs)
    assert page.get_by_text("released automatic scores").count() >= 1
    rerun_after(page, page.get_by_role("button", name="As WMT's released scores").first.click)
    wait_for_charts(page, minimum=3, timeout=180)
    assert _signature_on_page(page) == _sacrebleu_signature("char", refs, outputs)
    assert page.get_by_text("released automatic scores").count() == 0

    # 16 systems: every panel's labels legible at 1400 px and at 1920 px
    for width, height in ((1400, 900), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        wait_until_still(page)
        panels, y_overlaps, n_y = _grid_label_overlaps(page)
        page.locator(".st-key-mt_grids").screenshot(
            path=str(artifacts_dir / f"mt_meeting_grids_{width}.png")
        )
        assert len(panels) == 3 and all(n == len(SYSTEMS) for n, _ in panels), panels
        assert all(crowded == 0 for _, crowded in panels), (width, panels)
        assert n_y >= len(SYSTEMS) and y_overlaps == 0, (width, n_y, y_overlaps)

    # the long name is abbreviated in the ticks, with a legend under the grids
    assert page.get_by_text("Samsung_Research_… = Samsung_Research_Philippines").count() >= 1

    # Stop keeps the results already shown (the grids of 1,000 resamples)
    choose_option(page, "mt_resamples", "10,000", wait=False)
    _wait_for(page, _progress(page), "no progress bar of the randomized tests")
    _click_stop(page, "the tests")
    wait_for_idle(page)
    assert page.get_by_text("the last ones computed").count() == 1
    if page.locator(".st-key-mt_grids .js-plotly-plot").count() != 1:
        fail_with_page_state(page, "the grids shown before the Stop are gone")
    assert_no_exception(page)
