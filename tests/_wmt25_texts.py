"""Generated WMT25 system outputs and test set with references, in the published layouts, for
the documents of generated automatic scores (tests/_wmt25_data.py).

The layouts, as verified in the stored public peers (no data copied):

* ``data/systems/SYSTEM.jsonl`` of wmt-conference/wmt25-general-mt: one line per document,
  ``{"doc_id": "en-is_IS_#_literary_#_rink_rats_chapter1", "hypothesis": "...",
  "paragraphs_match": true}``; a speech document's id carries a ``vid_`` prefix
  (``en-is_IS_#_speech_#_vid_23Wfq9aOI4c``) that the automatic scores' ``document_id`` of
  the same document lacks (``"domain": "speech", "document_id": "23Wfq9aOI4c"`` in
  ``data/automatic_scores/AMI.jsonl``);
* ``data/wmt25-genmt.jsonl``: one line per document with ``doc_id``, ``collection_id``,
  ``domain``, ``src_lang``, ``tgt_lang``, ``src_text`` and ``refs``
  (``{"refA": {"ref": "..."}}``, empty without a reference), read by the organisers'
  ``humeval/01-prepare_waves.py`` (``x["refs"]["refA"]["ref"].split("\\n\\n")``) and by
  wmt-conference/wmt25-mteval ``scripts/testset/testset_jsonl_to_tsv_task1.py`` (only
  ``collection_id == "general"`` kept, test suites skipped; a reference whose paragraph count
  differs from the source's refused; ``doc_text.split("\\n\\n")``).
"""

from __future__ import annotations

import json

import numpy as np

WORDS = (
    "the cat sat on a mat while dogs ran far away from home quickly and birds sang in green "
    "trees near old houses where children played every warm summer day"
).split()


def documents(scores: dict[str, bytes]) -> dict[str, list[tuple[str, str]]]:
    """``{lp: [(domain, document_id), ...]}`` of generated automatic scores (first file)."""
    out: dict[str, list] = {}
    for data in scores.values():
        for line in data.decode().splitlines():
            rec = json.loads(line)
            key = (rec["domain"], rec["document_id"])
            if key not in out.setdefault(rec["language_pair"], []):
                out[rec["language_pair"]].append(key)
    return out


def _doc_id(lp: str, domain: str, doc: str, prefix: bool = True) -> str:
    return f"{lp}_#_{domain}_#_{'vid_' + doc if domain == 'speech' and prefix else doc}"


def references(docs, *, with_refs=("en-cs_CZ",), seed: int = 7, prefix: bool = True) -> tuple[bytes, dict]:
    """``wmt25-genmt.jsonl`` bytes and ``{(lp, domain, doc): [ref paragraphs]}``: refA for the
    pairs ``with_refs``, ``refs`` empty elsewhere, and one test-suite document (``prefix``
    False: speech ids without ``vid_``)."""
    rng = np.random.default_rng(seed)
    lines, refs = [], {}
    for lp, keys in docs.items():
        for domain, doc in keys:
            n = int(rng.integers(1, 5))
            paras = [" ".join(rng.choice(WORDS, int(rng.integers(4, 14)))) + "." for _ in range(n)]
            record = {
                "doc_id": _doc_id(lp, domain, doc, prefix), "collection_id": "general", "domain": domain,
                "src_lang": lp.split("-")[0], "tgt_lang": lp.split("-", 1)[1],
                "src_text": "\n\n".join(f"source {i}" for i in range(n)), "refs": {},
            }  # fmt: skip
            if lp in with_refs:
                record["refs"] = {"refA": {"ref": "\n\n".join(paras)}}
                refs[(lp, domain, doc)] = paras
            lines.append(json.dumps(record, ensure_ascii=False))
    lines.append(json.dumps({"doc_id": "en-cs_CZ_#_testsuite_#_ts1", "collection_id": "testsuites",
                             "domain": "testsuite", "src_text": "x", "refs": {}}))  # fmt: skip
    return ("\n".join(lines) + "\n").encode(), refs


def _noisy(text: str, rng, rate: float) -> str:
    words = text.rstrip(".").split()
    kept = [w if rng.random() > rate else str(rng.choice(WORDS)) for w in words]
    return " ".join(kept) + "."


def outputs(docs, refs, systems: dict[str, float], *, seed: int = 11, cases: bool = True):
    """``({"SYSTEM.jsonl": bytes}, {system: {(lp, domain, doc): [paragraphs] or None}})``:
    each system's hypotheses, its reference's words replaced at its error ``rate`` (documents
    without a reference: invented text). ``cases``: the second system's first document of the
    first pair is ``null``, the third system's second document has one paragraph too many and
    the fourth system lacks its third document."""
    rng = np.random.default_rng(seed)
    files, texts = {}, {}
    names = list(systems)
    for si, (system, rate) in enumerate(systems.items()):
        lines, mine = [], {}
        for lp, keys in docs.items():
            for di, (domain, doc) in enumerate(keys):
                key = (lp, domain, doc)
                first = lp == next(iter(docs))
                if cases and first and si == 3 and di == 2:
                    continue
                paras = refs.get(key) or ["some text here."]
                hyp = [_noisy(p, rng, rate) for p in paras]
                if cases and first and si == 2 and di == 1:
                    hyp = [*hyp, "an extra paragraph."]
                value = None if cases and first and si == 1 and di == 0 else "\n\n".join(hyp)
                mine[key] = None if value is None else hyp
                lines.append(json.dumps({"doc_id": _doc_id(lp, domain, doc), "hypothesis": value,
                                         "paragraphs_match": True}, ensure_ascii=False))  # fmt: skip
        files[f"{system}.jsonl"] = ("\n".join(lines) + "\n").encode()
        texts[system] = mine
    assert len(names) >= 4 or not cases
    return files, texts
