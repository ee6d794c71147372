"""AppTest: "Tests vs humans" with WMT human files of several language pairs or protocols --
WMT24's ESA wave file (en-cs, en-hi, en-ja, en-zh in one Appraise export) gets a language-pair
picker and a ranking of every pair; ESA and MQM uploaded together are ranked per protocol as
``python -m stats human`` ranks them (:func:`stats.analyses.paired_rankings`); with system
outputs, the page names BLEU's tokenizer and sacreBLEU's signature, and sacreBLEU's options
apply as on the MT systems page."""

from __future__ import annotations

import pytest

from stats.analyses import paired_rankings
from tests.dashboard.helpers import assert_no_exception, wmt_sample_outputs
from tests.human.test_human_paired import make

PAGE = "views/human.py"
OTHER = {"ONLINE-W": 0.8, "GPT-4": 0.75, "Lan-BridgeMT": 0.6, "ONLINE-Y": 0.5, "NLLB": 0.3}
#: WMT24's ESA wave: one Appraise export holding four English-to-X pairs
TARGETS = {"ces": "en-cs", "hin": "en-hi", "jpn": "en-ja", "zho": "en-zh"}


def esa_wave(systems=None, n_segments=40) -> str:
    """One Appraise ESA export (no header) with the rows of four language pairs, as WMT24's
    wave files hold them: the generated en-de rows with the target language (and the users,
    engdeuNN -> engcesNN) replaced per pair."""
    parts = []
    for k, code in enumerate(TARGETS):
        text = make.generate(
            10 + k, systems=systems or OTHER, n_segments=n_segments, n_domains=2, n_users=3
        )["en-de.esa.csv"]
        parts.append(text.replace(",deu,", f",{code},").replace("engdeu", f"eng{code}"))
    return "".join(parts)


@pytest.fixture
def at(fresh_run):
    at = fresh_run(PAGE, timeout=240)
    assert_no_exception(at)
    return at


def _rankings(at):
    """The ranking tables shown, by the bold label above each (protocol and lp)."""
    labels = [m.value.split("**")[1] for m in at.markdown if m.value.startswith("**ESA") or
              m.value.startswith("**MQM")]  # fmt: skip
    return dict(zip(labels, [t.value for t in at.table], strict=True))


def test_esa_wave_file_with_four_pairs_gets_a_picker_and_every_ranking(at):
    at.file_uploader(key="human_judgements_upload").set_value(
        [("wave1.esa.csv", esa_wave().encode(), "text/csv")]
    ).run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    picker = at.selectbox(key="human_lp")
    assert picker.options == [f"{lp} (ESA)" for lp in TARGETS.values()]
    shown = _rankings(at)
    assert list(shown) == [f"ESA {lp}" for lp in TARGETS.values()]
    # every pair ranked as the CLI ranks it
    want = {f"{r.protocol} {r.lp}": r for r in paired_rankings([("w.csv", esa_wave().encode())])}
    for label, table in shown.items():
        assert sorted(table.index) == sorted(OTHER)
        ref = want[label].to_frame()
        assert list(table["score"]) == list(ref.loc[table.index, "score"].round(3))
    # the gold standard of the pair chosen
    picker.set_value("en-ja (ESA)").run()
    assert_no_exception(at)
    assert not at.error
    assert len(at.get("plotly_chart")) == 1
    # the report holds every pair's ranking
    from dashboard import state

    report = at.session_state[state.REPORT_KEY]
    assert {f"human_paired_ESA_{lp}" for lp in TARGETS.values()} <= set(report.tables)


def test_esa_and_mqm_together_are_ranked_per_protocol(at):
    texts = make.generate(4, systems=OTHER, n_segments=40, n_domains=2, n_users=3)
    files = [(n, texts[n].encode(), "text/plain") for n in ("en-de.esa.csv", "en-de.mqm.tsv")]
    at.file_uploader(key="human_judgements_upload").set_value(files).run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    assert at.selectbox(key="human_lp").options == ["en-de (ESA)", "en-de (MQM)"]
    shown = _rankings(at)
    want = {f"{r.protocol} {r.lp}": r for r in paired_rankings([(n, d) for n, d, _ in files])}
    assert set(shown) == set(want) == {"ESA en-de", "MQM en-de"}
    for label, table in shown.items():
        ref = want[label].to_frame()
        assert list(table["score"]) == list(ref.loc[table.index, "score"].round(3))
    at.selectbox(key="human_lp").set_value("en-de (MQM)").run()
    assert_no_exception(at)
    assert not at.error


def test_bleu_tokenizer_signature_and_sacrebleu_options(at):
    # the sample's systems, so their outputs can be tested against the humans
    at.file_uploader(key="human_judgements_upload").set_value(
        [("wave1.esa.csv", esa_wave(systems=make.SYSTEMS, n_segments=60).encode(), "text/csv")]
    ).run()
    at.selectbox(key="human_lp").set_value("en-cs (ESA)").run()
    ref, hyps = wmt_sample_outputs("generaltest2024", "en-cs", ("Aurora", "Cirrus", "Ember", "Harbor"))
    at.file_uploader(key="human_ref_upload").set_value(ref)
    at.file_uploader(key="human_hyp_upload").set_value(hyps).run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    captions = [c.value for c in at.caption]
    (line,) = [c for c in captions if c.startswith("BLEU tokenizer: ")]
    assert line.startswith("BLEU tokenizer: 13a · sacrebleu signature (BLEU): `nrefs:1|")
    assert "tok:13a" in line
    # sacreBLEU's options, the MT systems page's widgets
    at.selectbox(key="mt_opt_tokenize").set_value("intl").run()
    assert_no_exception(at)
    (line,) = [c.value for c in at.caption if c.value.startswith("BLEU tokenizer: ")]
    assert line.startswith("BLEU tokenizer: intl") and "tok:intl" in line
