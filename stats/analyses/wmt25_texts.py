"""BLEU and chrF++ for AutoRank from the WMT25 system outputs and the published references.

Files -> :func:`autorank_texts`: the outputs (``systems/SYSTEM.jsonl``,
:func:`stats.readers.wmt25_outputs.read_wmt25_outputs`) and the test set with its references
(``wmt25-genmt.jsonl``, :func:`stats.readers.wmt25_references.read_wmt25_references`) ->
per language pair with a reference, each system's sacreBLEU sufficient statistics per
paragraph (the documents split at a blank line, as the organisers split them), summed per
document -> :meth:`AutoRankTexts.corpus`: the :class:`~stats.mt.corpus_metrics.CorpusMetric`
of :func:`stats.mt.automatic_ranking.autorank`, documents numbered as the automatic scores
number them.

The metrics (:data:`AUTORANK_TEXT_METRICS`): ``BLEU`` (sacreBLEU's ``BLEU()``, its defaults) and
``corpus-chrF++`` (``CHRF(word_order=2)``), corpus-level per system and language pair over
the paragraphs where a reference exists; the automatic scores' own ``chrF++`` (a mean of
paragraph scores) keeps its name.

Nothing is filled in: a null hypothesis, a document a system lacks, or a hypothesis whose
paragraph count differs from the reference's leaves that document out of the system's
corpus, with a note (the last naming the file, line and field).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError
from stats.mt.corpus_metrics import CorpusMetric

from ..readers.wmt25_outputs import WMT25Outputs, read_wmt25_outputs
from ..readers.wmt25_references import (
    PARAGRAPH_SEPARATOR,
    WMT25References,
    read_wmt25_references,
)

__all__ = ["AUTORANK_TEXT_METRICS", "AutoRankTexts", "autorank_texts"]

#: the corpus metrics computed from the outputs: name -> (sacreBLEU metric, its options)
AUTORANK_TEXT_METRICS = {"BLEU": ("bleu", ()), "corpus-chrF++": ("chrf", (("word_order", 2),))}
#: the prefix of a speech document's id in the outputs and references, absent from the
#: automatic scores' ``document_id`` (``en-is_IS_#_speech_#_vid_23Wfq9aOI4c`` there,
#: ``"document_id": "23Wfq9aOI4c"`` here)
VIDEO_PREFIX = "vid_"
#: the domain whose document ids carry :data:`VIDEO_PREFIX`
SPEECH = "speech"


def _key(domain: str, doc: str) -> tuple[str, str]:
    """A document's key: (domain, id), a speech document's id without ``vid_``."""
    if domain == SPEECH and doc.startswith(VIDEO_PREFIX):
        return domain, doc[len(VIDEO_PREFIX) :]
    return domain, doc


def name_list(items, limit: int = 8) -> str:
    """Names joined for a note, elided after ``limit``."""
    items = [str(i) for i in items]
    more = f", ... ({len(items)} in all)" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more


@dataclass(frozen=True)
class _PairTexts:
    systems: tuple[str, ...]
    documents: tuple[tuple[str, str], ...]  # (domain, document) as in the references
    n_segments: np.ndarray  # (K, D) paragraphs scored (0: left out)
    statistics: dict  # metric -> ((K, D, S) summed statistics, SegmentStatistics)


@dataclass(frozen=True, kw_only=True)
class AutoRankTexts:
    """Result of :func:`autorank_texts`.

    Attributes
    ----------
    pairs : dict
        Language pair -> its systems, documents and summed statistics (internal layout; use
        :meth:`corpus`).
    signatures : dict
        Metric -> sacreBLEU's signature.
    read_as : tuple of str
        What the outputs and the references were read as.
    notes : tuple of str
        Every document left out and why, one line each (per system and language pair where
        they are counted).
    """

    pairs: dict = field(repr=False)
    signatures: dict
    read_as: tuple[str, ...]
    notes: tuple[str, ...]

    def metrics_of(self, lp: str) -> tuple[str, ...]:
        """The text metrics with values in ``lp`` (none where it has no reference)."""
        return tuple(AUTORANK_TEXT_METRICS) if lp in self.pairs else ()

    def corpus(
        self, lp: str, documents: pd.DataFrame, metrics: Sequence[str] = tuple(AUTORANK_TEXT_METRICS)
    ) -> tuple[dict[str, CorpusMetric], list[str]]:
        """The :class:`CorpusMetric` of ``metrics`` in ``lp`` and the notes of the join.

        ``documents``: the automatic scores' paragraphs of the pair (columns ``domain``,
        ``document``, ``doc``, ``system``); a reference document is matched by its domain and
        id (a speech document's id without its ``vid_`` prefix, or with it where the scores
        keep it); documents not among the scores and systems without scores are named and left
        out."""
        pair = self.pairs[lp]
        keys = documents[["domain", "document", "doc"]].drop_duplicates(["domain", "document"])
        number = {(d, doc): int(n) for d, doc, n in keys.itertuples(index=False)}
        notes: list[str] = []
        where, docs, unknown = [], [], []
        for i, (domain, doc) in enumerate(pair.documents):
            key = (domain, doc)
            if key not in number and domain == SPEECH:
                key = (domain, VIDEO_PREFIX + doc)
            if key in number:
                where.append(i)
                docs.append(number[key])
            else:
                unknown.append(f"{domain}/{doc}")
        if unknown:
            notes.append(
                f"{lp}: {len(unknown):,} reference document(s) not among the automatic scores' "
                f"documents, left out of BLEU and chrF++: {name_list(unknown, 5)}"
            )
        if not docs:
            raise StatsInputError(
                f"{lp}: none of the references' documents is among the automatic scores' "
                "documents (are they the same test set?)"
            )
        scored = set(documents["system"].unique().tolist())
        no_scores = [s for s in pair.systems if s not in scored]
        if no_scores:
            notes.append(f"{lp}: outputs of {name_list(no_scores)} have no automatic scores: not ranked")
        no_outputs = sorted(scored - set(pair.systems))
        if no_outputs:
            notes.append(
                f"{lp}: {name_list(no_outputs)} have no outputs: no BLEU or chrF++ (ranked on "
                "the other metrics of the set)"
            )
        out = {}
        for m in metrics:
            if m not in AUTORANK_TEXT_METRICS:
                continue
            stats, seg = pair.statistics[m]
            out[m] = CorpusMetric(
                systems=pair.systems, documents=tuple(docs), statistics=stats[:, where],
                n_segments=pair.n_segments[:, where], score=seg.score, label=seg.signature,
            )  # fmt: skip
        return out, notes


def _references(references) -> WMT25References:
    """``references`` read (a WMT25References passes through; a list holds one file)."""
    if isinstance(references, WMT25References):
        return references
    if isinstance(references, Sequence) and not isinstance(references, (str, tuple)):
        if len(references) != 1:
            raise StatsInputError(
                f"references: expected one wmt25-genmt.jsonl; got {len(references)} files"
            )
        references = references[0]
    return read_wmt25_references(references)


def _read(outputs, references) -> tuple[WMT25Outputs, WMT25References]:
    ref = _references(references)  # the one file first: refused before the many
    out = outputs if isinstance(outputs, WMT25Outputs) else read_wmt25_outputs(outputs)
    return out, ref


def autorank_texts(outputs, references, *, lps: Sequence[str] | None = None) -> AutoRankTexts:
    """BLEU and chrF++ statistics of WMT25 system outputs against the published references.

    Parameters
    ----------
    outputs : Files or WMT25Outputs
        ``systems/SYSTEM.jsonl`` files, a folder or an archive of them.
    references : path, (name, bytes) or WMT25References
        ``wmt25-genmt.jsonl`` (refA is read).
    lps : sequence of str, optional
        The language pairs to score (default: every pair with a reference and outputs).

    Returns
    -------
    AutoRankTexts
    """
    from stats.mt.sufficient import extract_statistics

    out, ref = _read(outputs, references)
    wanted = sorted(set(out.lps)) if lps is None else list(dict.fromkeys(lps))
    notes = list(out.notes) + list(ref.notes)
    pairs, signatures = {}, {}
    by_lp = {lp: block for lp, block in out.documents.groupby("lp", sort=True)}
    for lp in wanted:
        if lp not in by_lp:
            if lp in ref.lps:
                notes.append(f"{lp}: no system outputs: no BLEU or chrF++")
            continue
        block = by_lp[lp]
        if lp not in ref.lps:
            notes.append(
                f"{lp}: no {ref.reference} in {ref.file}: BLEU and chrF++ not computed "
                f"({block.shape[0]:,} output documents)"
            )
            continue
        refs: dict = {}
        for (p, d, doc), v in ref.references.items():
            if p != lp:
                continue
            key = _key(d, doc)
            if key in refs:
                raise StatsInputError(
                    f"{ref.file}, lines {refs[key][0]} and {v[0]}: document {key[1]} of {lp} is "
                    f"given twice (with and without the {VIDEO_PREFIX!r} prefix)"
                )
            refs[key] = v
        stripped = sum(_key(d, doc) != (d, doc) for p, d, doc in ref.references if p == lp)
        if stripped:
            notes.append(
                f"{lp}: {stripped:,} speech document id(s) matched without their "
                f"{VIDEO_PREFIX!r} prefix (the automatic scores' document_id has none)"
            )
        keys = sorted(refs)
        sizes = np.array([len(refs[k][1]) for k in keys])
        stream = [p for k in keys for p in refs[k][1]]
        systems = tuple(sorted(block["system"].unique().tolist()))
        n_seg = np.zeros((len(systems), len(keys)), dtype=np.int64)
        hyps = {}
        for i, (system, rows) in enumerate(block.groupby("system", sort=True)):
            texts = {
                _key(d, doc): (t, line)
                for d, doc, t, line in zip(rows["domain"], rows["document"], rows["text"],
                                           rows["line"], strict=True)  # fmt: skip
            }
            file = out.files.get(system, f"{system}.jsonl")
            unknown = sorted(set(texts) - set(refs))
            if unknown:
                named = (f"{d}/{doc} (line {texts[(d, doc)][1]})" for d, doc in unknown)
                notes.append(
                    f"{file}: {len(unknown):,} document(s) of {lp} not in the references, not "
                    f"scored: {name_list(named, 5)}"
                )
            absent = 0
            paragraphs: list[str] = []
            for j, k in enumerate(keys):
                text, line = texts.get(k, (None, None))
                if not isinstance(text, str):  # absent, or null (counted by the reader)
                    absent += line is None
                    paragraphs += [""] * sizes[j]
                    continue
                parts = text.split(PARAGRAPH_SEPARATOR)
                if len(parts) != sizes[j]:
                    notes.append(
                        f"{file}, line {line}, field hypothesis: {len(parts)} paragraphs where "
                        f"{ref.file}, line {refs[k][0]}, field refs.{ref.reference}.ref has "
                        f"{sizes[j]}: document {k[1]} of {lp} not scored for {system}"
                    )
                    paragraphs += [""] * sizes[j]
                    continue
                n_seg[i, j] = sizes[j]
                paragraphs += parts
            if absent:
                notes.append(
                    f"{lp}, {system}: {absent:,} of the {len(keys):,} reference documents "
                    "without output, not scored (never filled)"
                )
            hyps[system] = paragraphs
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        scored = np.repeat(n_seg > 0, sizes, axis=1)  # (K, P) paragraphs of documents scored
        statistics = {}
        for name, (metric, options) in AUTORANK_TEXT_METRICS.items():
            opts: dict[str, Any] = dict(options)
            seg = extract_statistics([stream], hyps, metric=metric, **opts)
            order = [seg.systems.index(s) for s in systems]
            per_paragraph = np.where(scored[:, :, None], seg.stats[order], 0.0)
            statistics[name] = (np.add.reduceat(per_paragraph, starts, axis=1), seg)
            signatures[name] = seg.signature
        pairs[lp] = _PairTexts(systems, tuple(keys), n_seg, statistics)
    for name, signature in signatures.items():
        notes.append(f"{name}: sacreBLEU {signature}")
    return AutoRankTexts(
        pairs=pairs,
        signatures=signatures,
        read_as=(out.read_as, ref.read_as),
        notes=tuple(dict.fromkeys(notes)),
    )
