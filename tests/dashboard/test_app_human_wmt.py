"""AppTest: "Tests vs humans" with WMT22-25 human files -- an Appraise ESA export (with its
documents file) or an MQM file alone ranks the systems (WMT24's paired ranking, no MT outputs);
with outputs named as WMT publishes them, the accuracy of each metric x test against that gold.
"""

from __future__ import annotations

import pytest

from tests.dashboard.helpers import assert_no_exception, frame_with, wmt_sample_outputs
from tests.human.test_human_paired import make

PAGE = "views/human.py"
OTHER = {"ONLINE-W": 0.8, "GPT-4": 0.75, "Lan-BridgeMT": 0.6, "ONLINE-Y": 0.5, "NLLB": 0.3}


@pytest.fixture
def at(fresh_run):
    at = fresh_run(PAGE, timeout=180)
    assert_no_exception(at)
    return at


def _uploads(texts, *names):
    return [(n, texts[n].encode(), "text/plain") for n in names]


def test_esa_export_alone_is_ranked(at):
    texts = make.generate(3, systems=OTHER, n_segments=60, n_domains=2, n_users=3)
    at.file_uploader(key="human_judgements_upload").set_value(
        _uploads(texts, "en-de.esa.csv", "en-de.docs")
    ).run()
    assert_no_exception(at)
    assert not at.error
    assert any("from the human files alone" in i.value for i in at.info)
    (table,) = [t.value for t in at.table]
    assert sorted(table.index) == sorted(OTHER)
    assert list(table.columns) == ["rank", "score", "items", "cluster"]
    assert any("Stouffer" in m.value for m in at.markdown)
    assert len(at.get("plotly_chart")) == 1  # the gold grid
    # the gold p-value matrix and the first domain's signed-rank p-values
    grids = [d.value for d in at.dataframe if "ONLINE-W" in getattr(d.value, "columns", [])]
    assert len(grids) == 2 and all(g.shape == (len(OTHER), len(OTHER)) for g in grids)
    at.selectbox(key="human_rank_test").set_value("rank-sum").run()
    assert_no_exception(at)
    assert any("rank-sum" in m.value for m in at.markdown)


def test_mqm_file_alone_is_ranked(at):
    texts = make.generate(4, systems=OTHER, n_segments=40, n_domains=2, n_users=3)
    at.file_uploader(key="human_judgements_upload").set_value(
        _uploads(texts, "en-de.mqm.tsv")
    ).run()
    assert_no_exception(at)
    (table,) = [t.value for t in at.table]
    assert sorted(table.index) == sorted(OTHER)
    # titled by the data's protocol; the WMT24 findings are the method, not the data's source
    heads = [h.value for h in at.subheader]
    assert any(h.startswith("Human ranking: MQM") for h in heads), heads
    assert "Human ranking (WMT24 findings)" not in heads
    # no "sample" banner beside real human scores: the synthetic outputs are named as not theirs
    notes = [i.value for i in at.info]
    assert not any(n.startswith("Sample reference and systems") for n in notes), notes
    assert any("not the systems your human scores rate" in n for n in notes), notes


def test_accuracy_against_esa_gold_with_wmt_file_names(at):
    texts = make.generate(5, n_segments=100, n_domains=2, n_users=4)  # the sample's systems
    at.file_uploader(key="human_judgements_upload").set_value(
        _uploads(texts, "en-de.esa.csv", "en-de.docs")
    ).run()
    ref, hyps = wmt_sample_outputs("generaltest2023", "en-de", ("Aurora", "Cirrus", "Ember", "Harbor"))
    at.file_uploader(key="human_ref_upload").set_value(ref)
    at.file_uploader(key="human_hyp_upload").set_value(hyps).run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    table = frame_with(at, "Metric")
    assert list(table["alpha"]) == ["0.05", "0.01", "0.001"]
    compared = next(m for m in at.metric if m.label.startswith("Systems compared"))
    assert compared.value == "4"


def test_published_da_file_alone_is_a_gold_standard(at):
    # the report: a DA segment file of other systems than the sample's, no outputs
    from tests._data import da_segment_text

    text = da_segment_text(systems=list(OTHER), segments=40).encode()
    at.file_uploader(key="human_judgements_upload").set_value(
        [("ad-seg-scores-de-en.csv", text, "text/csv")]
    ).run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    assert any("from the human files alone" in i.value for i in at.info)
    (table,) = [t.value for t in at.table]
    assert sorted(table.index) == sorted(OTHER)
    assert len(at.get("plotly_chart")) == 1  # the gold grids
