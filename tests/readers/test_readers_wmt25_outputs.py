"""WMT25 system outputs (systems/SYSTEM.jsonl) and BLEU/chrF++ against references in the same
layout, documents as segments: equal to sacreBLEU's corpus scores on the same documents."""

from __future__ import annotations

import json

import pytest
import sacrebleu

from stats import StatsInputError
from stats.analyses import wmt25_text_statistics
from stats.readers.wmt25_outputs import read_wmt25_outputs

DOCS = {
    ("news", "d1"): "The cat sat on the mat.\nIt was warm.",
    ("news", "d2"): "A dog ran far away from home, quickly.",
    ("social", "s1"): "Hello world! See you tomorrow?",
}


def _file(name, texts, lp="en-de_DE", published=True):
    lines = []
    for (domain, doc), text in texts.items():
        if published:
            lines.append(json.dumps({"doc_id": f"{lp}_#_{domain}_#_{doc}", "hypothesis": text}))
        else:
            lines.append(json.dumps({"language_pair": lp, "domain": domain, "document_id": doc,
                                     "hypothesis": text}))  # fmt: skip
    return (name, "\n".join(lines).encode())


def _noisy(k):
    return {key: " ".join(w for i, w in enumerate(t.split(" ")) if (i + k) % 4) for key, t in DOCS.items()}


def test_read_and_text_statistics_equal_sacrebleu():
    outputs = [_file("A.jsonl", _noisy(1)), _file("B.jsonl", _noisy(2), published=False),
               _file("C.jsonl", dict(list(_noisy(3).items())[:2]))]  # fmt: skip
    refs = [_file("refA.jsonl", DOCS)]
    read = read_wmt25_outputs(outputs)
    assert read.read_as == "read as WMT25 system outputs: 3 systems, 1 language pair, 3 documents"
    assert any("C: 1 of 3 documents absent" in n for n in read.notes)
    res = wmt25_text_statistics(outputs, refs, lp="en-de_DE", metric="chrf", word_order=2)
    assert res.left_out == ("C",)
    keys = sorted(DOCS)
    for system, k in (("A", 1), ("B", 2)):
        hyp = [_noisy(k)[key] for key in keys]
        expected = sacrebleu.CHRF(word_order=2).corpus_score(hyp, [[DOCS[key] for key in keys]])
        got = dict(zip(res.statistics.systems, res.statistics.corpus_scores, strict=True))[system]
        assert got == pytest.approx(expected.score, abs=1e-9)
    bleu = wmt25_text_statistics(outputs, refs, lp="en-de_DE", metric="bleu")
    hyp = [_noisy(1)[key] for key in keys]
    expected = sacrebleu.BLEU().corpus_score(hyp, [[DOCS[key] for key in keys]]).score
    got = dict(zip(bleu.statistics.systems, bleu.statistics.corpus_scores, strict=True))["A"]
    assert got == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(
    ("line", "match"),
    [
        ('{"doc_id": "en-de_DE_news_d1", "hypothesis": "x"}', r"line 1, field doc_id: .* is not LP_#_DOMAIN_#_DOCUMENT"),
        ('{"doc_id": "a_#_b_#_c", "hypothesis": 3}', r"line 1, field hypothesis: expected a string or null; got a number"),
        ('{"doc_id": "a_#_b_#_c"}', r"line 1: field hypothesis is missing"),
        ("[1]", r"line 1: expected a JSON object"),
        ('{"doc_id": "a_#_b_#_c", "hypothesis": "x"}\n{"doc_id": "a_#_b_#_c", "hypothesis": "y"}', "given twice"),
    ],
)
def test_bad_output_lines(line, match):
    with pytest.raises(StatsInputError, match=match):
        read_wmt25_outputs([("A.jsonl", line.encode())])


def test_a_folder_reads_as_its_files(tmp_path):
    files = [_file("A.jsonl", _noisy(1)), _file("B.jsonl", _noisy(2))]
    for name, data in files:
        (tmp_path / name).write_bytes(data)
    folder, given = read_wmt25_outputs([tmp_path]), read_wmt25_outputs(files)
    assert folder.read_as == given.read_as
    assert folder.documents.to_dict("list") == given.documents.to_dict("list")
