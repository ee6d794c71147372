"""AppTest of the AutoRank page's optional uploads on the bundled sample: a generated systems
metadata file (the published ``systems_metadata_updated3.json`` layout) leaves out the systems
that do not list the pair, named on the page; generated system outputs and references (the
published layouts, tests/_wmt25_texts.py) add BLEU and corpus-chrF++ to the metrics, equal to
sacreBLEU's corpus scores."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sacrebleu

from tests import _wmt25_texts as texts
from tests.dashboard.helpers import assert_no_exception
from tests.dashboard.test_app_autorank import SAMPLE, _table

OCTET = "application/octet-stream"


@pytest.fixture(scope="module")
def sample():
    return {p.name: p.read_bytes() for p in sorted(Path(SAMPLE).glob("*.jsonl"))}


def _page(app_test):
    at = app_test("views/autorank.py", timeout=120)
    at.session_state["autorank_resamples"] = 200
    at.run()
    return at


def test_metadata_upload_leaves_out_the_systems_not_listing_the_pair(app_test, sample):
    systems = [name[: -len(".jsonl")] for name in sample]
    lps = ["en-bho_IN", "en-cs_CZ", "en-de_DE", "en-ja_JP"]
    meta = {
        s: {"constrained": True, "description": "",
            "supported_lps": {lp: "supported" for lp in lps if not (s == "Harbor" and lp == "en-bho_IN")}}
        for s in systems if s != "Glacier"
    }  # fmt: skip
    at = _page(app_test)
    assert {"Harbor", "Glacier"} <= set(_table(at).index)
    at.file_uploader(key="autorank_metadata_upload").set_value(
        [("systems_metadata_updated3.json", json.dumps(meta).encode(), "application/json")]
    ).run()
    assert_no_exception(at)
    assert not at.error
    table = _table(at)
    assert "Harbor" not in table.index and "Glacier" not in table.index and len(table) == 6
    captions = [c.value for c in at.caption]
    assert any(c.startswith("systems\\_metadata\\_updated3.json: read as WMT25 systems metadata: 7 systems")
               for c in captions), captions  # fmt: skip
    assert any("en-bho\\_IN: 1 system(s) not in the systems metadata" in c and "Glacier" in c for c in captions)
    assert any("does not list en-bho\\_IN" in c and "Harbor" in c for c in captions)


def test_outputs_and_references_add_bleu_and_chrf(app_test, sample):
    docs = texts.documents(sample)
    ref_bytes, refs = texts.references(docs, with_refs=("en-cs_CZ",))
    systems = {name[: -len(".jsonl")]: 0.1 + 0.05 * i for i, name in enumerate(sample)}
    outputs, hyps = texts.outputs(docs, refs, systems, cases=False)
    at = _page(app_test)
    at.selectbox(key="autorank_lp").set_value("en-cs_CZ").run()
    at.file_uploader(key="autorank_outputs_upload").set_value(
        [(n, b, OCTET) for n, b in outputs.items()]
    ).run()
    assert any("need both the system outputs and the references" in i.value for i in at.info)
    at.file_uploader(key="autorank_references_upload").set_value(
        [("wmt25-genmt.jsonl", ref_bytes, OCTET)]
    ).run()
    assert_no_exception(at)
    at.radio(key="autorank_metric_set").set_value("Choose metrics").run()
    assert "BLEU" in at.multiselect(key="autorank_metrics").options
    at.multiselect(key="autorank_metrics").set_value(["BLEU", "corpus-chrF++"]).run()
    assert_no_exception(at)
    assert not at.error
    table = _table(at)
    assert list(table.columns[4:]) == ["BLEU", "corpus-chrF++"]
    system = table.index[0]
    hyp = [p for key, paras in hyps[system].items() if key[0] == "en-cs_CZ" for p in paras]
    ref = [p for key, paras in refs.items() if key[0] == "en-cs_CZ" for p in paras]
    assert table.at[system, "BLEU"] == pytest.approx(sacrebleu.BLEU().corpus_score(hyp, [ref]).score)
