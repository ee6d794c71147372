"""BLEU and chrF++ in AutoRank from generated WMT25 system outputs and references in the
published layouts (tests/_wmt25_texts.py names where each layout was verified): golden values
from sacreBLEU itself on the same paragraphs, the bootstrap against an independent resampling
loop that re-scores each resample with sacreBLEU, and every document left out said."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
import sacrebleu

from stats import DegenerateInputWarning, StatsInputError
from stats._core.random import bootstrap_weights
from stats.analyses import autorank_analysis
from stats.analyses.wmt25_texts import autorank_texts
from stats.mt.automatic_ranking import autorank_bootstrap
from stats.readers.wmt25 import read_wmt25_scores
from stats.readers.wmt25_references import read_wmt25_references
from tests import _wmt25_texts as texts
from tests._wmt25_data import generate

LP = "en-cs_CZ"
SYSTEMS = {"Aurora": 0.1, "Borealis": 0.2, "Cirrus": 0.3, "Delta": 0.45, "Ember": 0.6}


@pytest.fixture(scope="module")
def data():
    scores = generate(5, systems={s: 0.8 - q for s, q in SYSTEMS.items()},
                      lps=(LP, "en-de_DE"), documents=9, cases=False)  # fmt: skip
    docs = texts.documents(scores)
    ref_bytes, refs = texts.references(docs)
    out_files, hyps = texts.outputs(docs, refs, SYSTEMS)
    return {
        "scores": scores, "docs": docs, "refs": refs, "hyps": hyps,
        "references": ("wmt25-genmt.jsonl", ref_bytes),
        "outputs": list(out_files.items()),
    }  # fmt: skip


def _scored(data, system):
    """(hypothesis paragraphs, reference paragraphs) of the documents ``system`` has with as
    many paragraphs as the reference: what sacreBLEU scores."""
    hyp, ref = [], []
    for (lp, domain, doc), paras in data["refs"].items():
        mine = data["hyps"][system].get((lp, domain, doc))
        if lp == LP and mine is not None and len(mine) == len(paras):
            hyp += mine
            ref += paras
    return hyp, ref


def test_corpus_bleu_and_chrf_equal_sacrebleu(data):
    res = autorank_analysis(
        [(n, b) for n, b in data["scores"].items()], lps=[LP], intervals=False,
        metrics=["BLEU", "corpus-chrF++", "XCOMET-XL"], outputs=data["outputs"],
        references=data["references"],
    )  # fmt: skip
    point = res.pair(LP).point
    assert point.metrics == ("BLEU", "corpus-chrF++", "XCOMET-XL")
    for system in SYSTEMS:
        hyp, ref = _scored(data, system)
        # golden values: sacreBLEU's own corpus scores of the same paragraphs
        bleu = sacrebleu.BLEU().corpus_score(hyp, [ref]).score
        chrf = sacrebleu.CHRF(word_order=2).corpus_score(hyp, [ref]).score
        assert point.scores.at[system, "BLEU"] == pytest.approx(bleu, abs=1e-9)
        assert point.scores.at[system, "corpus-chrF++"] == pytest.approx(chrf, abs=1e-9)
        assert point.n_values.at[system, "BLEU"] == len(hyp)
    # the systems err more in order: BLEU ranks them so
    assert list(point.scores["BLEU"].sort_values(ascending=False).index) == list(SYSTEMS)


def test_every_document_left_out_is_said(data):
    res = autorank_analysis(
        [(n, b) for n, b in data["scores"].items()], lps=[LP], intervals=False,
        metrics=["BLEU"], outputs=data["outputs"], references=data["references"],
    )  # fmt: skip
    notes = "\n".join(res.notes)
    assert "read as WMT25 test set with references (refA): 18 documents of the general " \
        "collection in 2 language pairs, 1 with refA" in res.read_as  # fmt: skip
    assert "read as WMT25 system outputs: 5 systems, 2 language pairs" in res.read_as
    assert "1 document of collection 'testsuites' skipped" in notes
    assert "en-de_DE has no refA (9 documents)" in notes
    assert f"{LP}, Borealis: 1 null hypothesis (documents without output: not scored, never filled)" in notes
    doc = data["docs"][LP][1][1]
    mismatch = [n for n in res.notes if n.startswith("Cirrus.jsonl, line 2, field hypothesis:")]
    assert len(mismatch) == 1 and f"document {doc} of {LP} not scored for Cirrus" in mismatch[0]
    assert "field refs.refA.ref has" in mismatch[0]
    assert f"{LP}, Delta: 1 of the 9 reference documents without output" in notes
    speech = sum(d == "speech" for d, _ in data["docs"][LP])
    assert f"{LP}: {speech} speech document id(s) matched without their 'vid_' prefix" in notes
    assert "BLEU: sacreBLEU nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:" in notes


def test_bootstrap_rescored_by_sacrebleu_on_each_resample(data):
    """The paired bootstrap of BLEU + chrF++ against an independent loop: the same document
    draws, each resample's corpus built by repeating the drawn documents' paragraphs and scored
    by sacreBLEU, then WMT25's robust scaling and AutoRank written out."""
    scores = read_wmt25_scores([(n, b) for n, b in data["scores"].items()])
    frame = scores.language_pair(LP)
    tx = autorank_texts(data["outputs"], data["references"], lps=[LP])
    corpus, _ = tx.corpus(LP, frame, ["BLEU", "corpus-chrF++"])
    r = 12
    with pytest.warns(DegenerateInputWarning, match="only 9 documents"):
        res = autorank_bootstrap(frame, metrics=["BLEU", "corpus-chrF++"], document="doc",
                                 n_resamples=r, rng=np.random.default_rng(3), corpus=corpus)  # fmt: skip
    n_docs = frame["doc"].nunique()
    w = bootstrap_weights(np.random.default_rng(3).random((r, n_docs)), np.float64)
    doc_key = frame.drop_duplicates("doc").set_index("doc")[["domain", "document"]]
    order = pd.factorize(frame["doc"])[1]  # the ranking numbers documents in this order
    names = list(res.point.systems)
    expected = np.empty((r, len(names)))
    for b in range(r):
        means = np.empty((len(names), 2))
        for k, system in enumerate(names):
            hyp, ref = [], []
            for col, times in enumerate(w[b].astype(int)):
                domain, doc = doc_key.loc[order[col]]
                key = (LP, domain, doc)
                mine = data["hyps"][system].get(key)
                paras = data["refs"][key]
                if mine is None or len(mine) != len(paras):
                    continue
                hyp += mine * times
                ref += paras * times
            means[k] = (sacrebleu.BLEU().corpus_score(hyp, [ref]).score,
                        sacrebleu.CHRF(word_order=2).corpus_score(hyp, [ref]).score)  # fmt: skip
        med = np.median(means, axis=0)
        scale = means.max(axis=0) - np.percentile(means, 25, axis=0)
        zbar = ((means - med) / scale).mean(axis=1)
        expected[b] = 1 + (len(names) - 1) * (zbar.max() - zbar) / (zbar.max() - zbar.min())
    np.testing.assert_allclose(res.distribution, expected, atol=1e-9)


def test_cli_adds_bleu_and_chrf(data, tmp_path, capsys):
    from stats.cli import main

    folder = tmp_path / "automatic_scores"
    folder.mkdir()
    for name, blob in data["scores"].items():
        (folder / name).write_bytes(blob)
    systems = tmp_path / "systems"
    systems.mkdir()
    for name, blob in data["outputs"]:
        (systems / name).write_bytes(blob)
    ref = tmp_path / "wmt25-genmt.jsonl"
    ref.write_bytes(data["references"][1])
    args = ["autorank", "--scores", str(folder), "--lp", LP, "--no-intervals", "--outputs",
            str(systems), "--references", str(ref), "--metrics", "BLEU", "corpus-chrF++"]  # fmt: skip
    assert main(args) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    block = doc["language_pairs"][0]
    assert block["metrics"] == ["BLEU", "corpus-chrF++"]
    hyp, ref_paras = _scored(data, "Aurora")
    top = {s["system"]: s for s in block["systems"]}["Aurora"]
    assert top["scores"]["BLEU"] == pytest.approx(sacrebleu.BLEU().corpus_score(hyp, [ref_paras]).score)
    assert "note: read as WMT25 test set with references (refA)" in captured.err
    # one of the pair alone: one line, exit 2
    assert main(["autorank", "--scores", str(folder), "--outputs", str(systems)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: --outputs and --references: give both")
    # BLEU without the texts: the message says what adds it
    assert main(["autorank", "--scores", str(folder), "--lp", LP, "--metrics", "BLEU"]) == 2
    assert "--outputs and --references" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("record", "match"),
    [
        ({"doc_id": "en-cs_CZ_#_news_#_d1", "collection_id": "general", "src_text": "a\n\nb",
          "refs": {"refA": {"ref": "x"}}},
         r"line 1, field refs.refA.ref: 1 paragraphs where src_text has 2"),
        ({"doc_id": "en-cs_CZ_news_d1", "collection_id": "general", "src_text": "a", "refs": {}},
         r"line 1, field doc_id: .* is not LP_#_DOMAIN_#_DOCUMENT"),
        ({"doc_id": "en-cs_CZ_#_news_#_d1", "src_text": "a", "refs": {}},
         r"line 1: field collection_id is missing"),
        ({"doc_id": "en-cs_CZ_#_news_#_d1", "collection_id": "general", "src_text": "a",
          "refs": ["x"]}, r"line 1, field refs: expected an object"),
        ({"doc_id": "en-cs_CZ_#_news_#_d1", "collection_id": "general", "src_text": "a",
          "refs": {"refA": {"ref": None}}}, r"line 1, field refs.refA.ref: expected a string; got null"),
    ],
)  # fmt: skip
def test_bad_reference_lines(record, match):
    with pytest.raises(StatsInputError, match=match):
        read_wmt25_references(("wmt25-genmt.jsonl", json.dumps(record).encode()))


def test_unknown_documents_are_named(data):
    extra = json.dumps({"doc_id": f"{LP}_#_news_#_nowhere", "hypothesis": "x."}).encode()
    name, blob = data["outputs"][0]
    outputs = [(name, blob + extra + b"\n"), *data["outputs"][1:]]
    tx = autorank_texts(outputs, data["references"], lps=[LP])
    assert any(n.startswith(f"{name}: 1 document(s) of {LP} not in the references, not scored: news/nowhere (line 19)")
               for n in tx.notes)  # fmt: skip


def test_outputs_outside_the_metric_set_are_read_not_scored(data):
    res = autorank_analysis(
        [(n, b) for n, b in data["scores"].items()], lps=[LP], intervals=False,
        outputs=data["outputs"], references=data["references"],
    )  # fmt: skip
    assert "BLEU" not in res.pair(LP).metrics
    assert "read as WMT25 system outputs" in res.read_as
    assert any(n.startswith("outputs and references read; BLEU and corpus-chrF++ are not in the metric set")
               for n in res.notes)  # fmt: skip


def test_speech_ids_match_with_or_without_the_prefix(data):
    """References naming speech documents without ``vid_`` (the automatic scores' form) and
    outputs with it score the same paragraphs."""
    plain, _ = texts.references(data["docs"], prefix=False)
    got = {}
    for ref in (data["references"], ("wmt25-genmt.jsonl", plain)):
        res = autorank_analysis([(n, b) for n, b in data["scores"].items()], lps=[LP], intervals=False,
                                metrics=["BLEU"], outputs=data["outputs"], references=ref)  # fmt: skip
        got[ref[1] is plain] = res.pair(LP).point.scores["BLEU"]
        assert not any("not among the automatic scores" in n or "not in the references" in n
                       for n in res.notes)  # fmt: skip
    pd.testing.assert_series_equal(got[False], got[True])


def test_corpus_metric_bootstrap_at_the_null_rejects_at_alpha():
    """A corpus metric (a ratio of summed integer counts, as BLEU's precisions are) for two
    systems of equal quality (skewed: 85 % matches; tied integer counts per document): the
    two-sided bootstrap p of the pair rejects at 0.05 about 5 % of the time (percentile
    bootstrap over 200 data sets: allow 2-10 %), as for averaged metrics."""
    from stats.mt.corpus_metrics import CorpusMetric

    systems, n_docs, n_sets = ("A", "B", "C", "D"), 40, 200
    quality = np.array([0.95, 0.85, 0.85, 0.6])
    frame = pd.DataFrame({"system": np.repeat(systems, n_docs),
                          "document": np.tile(np.arange(n_docs), len(systems))})
    rejected = 0
    for k in range(n_sets):
        gen = np.random.default_rng(5000 + k)
        words = gen.poisson(25, (len(systems), n_docs)) + 1
        matches = gen.binomial(words, quality[:, None])
        corpus = CorpusMetric(
            systems=systems, documents=tuple(range(n_docs)),
            statistics=np.stack([matches, words], axis=-1).astype(float),
            n_segments=np.ones((len(systems), n_docs)),
            score=lambda s: 100 * s[..., 0] / s[..., 1],
        )
        res = autorank_bootstrap(frame, metrics=["ratio"], corpus={"ratio": corpus},
                                 n_resamples=199, rng=k, alternative="two-sided")
        rejected += res.pvalue.loc[["B", "C"], ["B", "C"]].min().min() < 0.05
    assert 0.02 <= rejected / n_sets <= 0.10, rejected
