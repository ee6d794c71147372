"""AppTest tests of the MT systems page's sacreBLEU options (dashboard/sections/mt_options.py),
WMT file names and the TER estimate."""

from __future__ import annotations

import pytest
from sacrebleu.metrics import BLEU, CHRF

from dashboard import state
from tests.dashboard.helpers import assert_no_exception, frame_with, metric_values

PAGE = "views/mt_systems.py"
REF = ["今日は良い天気です。", "東京に行きました。", "猫が好きです。", "明日は雨でしょう。"]
HYPS = {
    "ONLINE-B": ["今日は良い天気です。", "東京へ行った。", "猫が好き。", "明日は雨だろう。"],
    "AIRC": ["今日はいい天気。", "東京に行きました。", "犬が好きです。", "明日は雨です。"],
}


def _upload(at, lp="en-ja"):
    at.file_uploader(key="mt_refs").set_value(
        [(f"generaltest2023.{lp}.ref.refA.ja", "\n".join(REF).encode(), "text/plain")]
    )
    at.file_uploader(key="mt_hyps").set_value(
        [(f"generaltest2023.{lp}.hyp.{s}.ja", "\n".join(h).encode(), "application/octet-stream")
         for s, h in HYPS.items()]
    )
    at.multiselect(key="mt_tests").set_value(["paired-bootstrap"])
    return at.selectbox(key="mt_resamples").set_value(200).run()


def _signature(at) -> str:
    return next(c.value for c in at.caption if "signature" in c.value)


def test_wmt_names_and_tokenizer_by_language(fresh_run):
    at = _upload(fresh_run(PAGE))
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    table = frame_with(at, "95% CI low")
    assert set(table.index) == {"ONLINE-B", "AIRC"}  # short names from WMT23's file names
    assert "tok:ja-mecab" in _signature(at)
    want = BLEU(tokenize="ja-mecab").corpus_score(HYPS["ONLINE-B"], [REF]).score
    assert table.loc["ONLINE-B", "BLEU"] == pytest.approx(want, abs=1e-9)


def test_options_change_the_scores_and_signature(fresh_run):
    at = _upload(fresh_run(PAGE))
    at.selectbox(key="mt_opt_tokenize").set_value("char").run()
    assert "tok:char" in _signature(at)
    table = frame_with(at, "95% CI low")
    want = BLEU(tokenize="char").corpus_score(HYPS["AIRC"], [REF]).score
    assert table.loc["AIRC", "BLEU"] == pytest.approx(want, abs=1e-9)
    at.selectbox(key="mt_metric").set_value("chrF")
    at.number_input(key="mt_opt_cw").set_value(2).run()
    assert metric_values(at)["Metric"] == "chrF2++"
    table = frame_with(at, "95% CI low")
    want = CHRF(word_order=2).corpus_score(HYPS["AIRC"], [REF]).score
    assert table.loc["AIRC", "chrF2++"] == pytest.approx(want, abs=1e-9)


def test_ter_estimate_shown(fresh_run):
    at = _upload(fresh_run(PAGE))
    at.selectbox(key="mt_metric").set_value("TER").run()
    assert_no_exception(at)
    assert any("TER extraction, first run: about" in c.value for c in at.caption)


def test_wmt_tokenizer_note_and_one_click_choice(fresh_run):
    at = _upload(fresh_run(PAGE))
    assert any("released automatic scores" in i.value and "char" in i.value for i in at.info)
    assert any("Options: tokenizer: ja-mecab" in c.value for c in at.caption)
    # the report states the signature (sacreBLEU's string), the options in words and the note
    notes = at.session_state[state.REPORT_KEY].notes
    sig = BLEU(tokenize="ja-mecab")
    sig.corpus_score(HYPS["AIRC"], [REF])
    texts = [n["text"] for n in notes.values() if n["kind"] == "signature"]
    assert any(sig.get_signature().format() in t and "tokenizer: ja-mecab" in t for t in texts)
    assert any(n["kind"] == "note" and "char" in n["text"] for n in notes.values())
    chrf = CHRF()  # the systems table's chrF: its signature too
    chrf.corpus_score(HYPS["AIRC"], [REF])
    assert any(t.startswith(f"chrF2: {chrf.get_signature().format()} (") for t in texts)
    at.button(key="mt_opt_as_wmt").click().run()
    assert_no_exception(at)
    assert "tok:char" in _signature(at)
    assert not any("released automatic scores" in i.value for i in at.info)
    want = BLEU(tokenize="char").corpus_score(HYPS["AIRC"], [REF]).score
    assert frame_with(at, "95% CI low").loc["AIRC", "BLEU"] == pytest.approx(want, abs=1e-9)
