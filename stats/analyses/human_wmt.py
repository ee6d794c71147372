"""Human rankings of WMT22-25 from the files as published: Appraise exports (ESA, DA+SQM), MQM
error spans, the documents file -- and the 2014-2020 formats (published DA segment scores,
judgement files) in the same paired procedure (:mod:`stats.human.paired`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError
from stats._core.progress import check_progress
from stats.human.gold import HumanGoldResult
from stats.human.paired import (
    PairedRankingResult,
    gold_from_ranking,
    paired_ranking,
    standardize_per_rater,
)

from ..readers import LINE, load_text
from ..readers.appraise import is_appraise_export, read_appraise
from ..readers.da_segments import is_da_segment_file
from ..readers.documents import (
    NO_DOMAIN,
    HumanRatings,
    attach_domains,
    is_documents_file,
    read_documents,
)
from ..readers.mqm import MQM_SOURCE_ERRORS, is_mqm_file, read_mqm
from ..readers.mqm_google import (
    is_mqm_averages,
    is_source_error_file,
    read_mqm_averages,
    read_source_errors,
)
from ._human_scores import segment_scores_frame, without_systems
from ._inputs import Files, _named, decode_files

__all__ = [
    "human_file_kind",
    "is_wmt_human_file",
    "paired_rankings",
    "read_human_ratings",
    "wmt_gold",
]

#: what :func:`human_file_kind` calls each format, as upload labels name them
KINDS = {
    "appraise": "Appraise export (ESA or DA+SQM)",
    "mqm": "MQM error spans",
    "mqm-averages": "Google's MQM segment averages (system mqm_avg_score seg_id)",
    "mqm-source-errors": "Google's MQM source-error file (not ranked)",
    "documents": "WMT documents file",
    "da": "published DA segment scores",
    "judgements": "judgements (SYSTEM SEGMENT ANNOTATOR CRITERION SCORE)",
}


def human_file_kind(text: str, name: str | None = None) -> str:
    """``'appraise'``, ``'mqm'``, ``'mqm-source-errors'`` (an MQM header and Google's
    ``*.source-errors`` name), ``'mqm-averages'`` (Google's ``system mqm_avg_score seg_id``),
    ``'da'``, ``'documents'`` or ``'judgements'`` (the rest)."""
    if is_appraise_export(text):
        return "appraise"
    if is_mqm_file(text):
        return "mqm-source-errors" if name and is_source_error_file(name) else "mqm"
    if is_mqm_averages(text):
        return "mqm-averages"
    head = text.lstrip().split("\n", 1)[0].split()
    if is_da_segment_file(head):
        return "da"
    if is_documents_file(text):
        return "documents"
    return "judgements"


def is_wmt_human_file(item, *, documents: bool = False) -> bool:
    """True for an Appraise export or an MQM file, Google's side files included (ranked or
    described by :func:`paired_rankings`), and with ``documents`` for a WMT documents file
    too."""
    source, name = _named(item)
    text, _ = load_text(source, name)  # a Decoded item is not decoded again
    kinds = ("appraise", "mqm", "mqm-source-errors", "mqm-averages")
    return human_file_kind(text, name) in (*kinds, *(("documents",) if documents else ()))


def read_human_ratings(
    files: Files, *, documents: Files = (), lp: str | None = None, mqm_weights=None
) -> list[HumanRatings]:
    """Read human evaluation files, each detected from its content, into ratings with domains.

    Appraise exports and MQM files are read as published (:mod:`stats.readers.appraise`,
    :mod:`stats.readers.mqm`); published DA segment files and judgement files give one rating
    per segment (its z score; judgements standardised per annotator, first criterion), so the
    2014-2020 formats run through the same paired procedure. ``documents`` (WMT documents
    files, ``en-ja.docs``) give the domains; a documents file among ``files`` counts as one.
    ``lp`` names the language pair of MQM and 2014-2020 files (Appraise exports carry theirs).
    ``mqm_weights`` weighs MQM errors (:func:`stats.readers.mqm.read_mqm`: None for
    mt-metrics-eval's score_mqm defaults, ``"wmt24"``, or score_mqm's ``--weights`` syntax).
    """
    if not files:
        raise StatsInputError("human: no file given")
    docs = [_read_docs(d) for d in documents]
    out: list[HumanRatings] = []
    other = []
    for item in decode_files(files):  # each decoded once: its kind, then its reader
        kind = human_file_kind(item.text, item.name)
        if kind == "appraise":
            out.append(read_appraise(item))
        elif kind == "mqm":
            out.append(read_mqm(item, lp=lp, weights=mqm_weights))
        elif kind == "mqm-source-errors":
            out.append(read_source_errors(item, lp=lp))
        elif kind == "mqm-averages":
            out.append(read_mqm_averages(item, lp=lp))
        elif kind == "documents":
            docs.append(read_documents(item))
        else:
            other.append(item)
    if other:
        frame = segment_scores_frame(other, lp=lp)
        rated = pd.DataFrame(
            {
                "lp": frame["lp"].astype(str).to_numpy(dtype=object),
                "domain": NO_DOMAIN,
                "system": frame["system"].astype(str).to_numpy(dtype=object),
                "document": "",
                "segment": frame["segment"].astype(str).to_numpy(dtype=object),
                "rater": "(segment z)",
                "score": frame["z"].to_numpy(dtype=float),
                LINE: np.arange(len(frame), dtype=np.int64),
            }
        )
        label = " + ".join(item.name for item in other)
        out.append(
            HumanRatings(
                frame=rated, name=label, protocol="DA (z)",
                # each entry is "name: read as ...": the label names them all already
                read_as="; ".join(t.split(": ", 1)[-1] for t in frame.attrs.get("read_as", ())),
                notes=tuple(frame.attrs.get("notes", ())),
            )
        )  # fmt: skip
    side = [r for r in out if r.protocol == MQM_SOURCE_ERRORS]
    out = [r for r in out if r.protocol != MQM_SOURCE_ERRORS]
    if side and not out:
        raise StatsInputError(
            "; ".join(f"{r.name}: {r.notes[0]}" for r in side)
            + "; give the MQM ratings (mqm_*.tsv) or segment averages (*.avg_seg_scores.tsv)"
        )
    if not out:
        raise StatsInputError("human: only documents files given; add the ratings")
    if side:
        said = tuple(f"{r.name}: {r.read_as}" for r in side)
        out = [dataclasses.replace(r, notes=(*r.notes, *said)) for r in out]
    if docs:
        out = [r if r.protocol == "DA (z)" else attach_domains(r, docs) for r in out]
    return out


def _read_docs(item):
    source, name = _named(item)
    return read_documents(source, name=name)


#: the score each protocol is ranked by when none is asked for: WMT22-23 ranked DA+SQM by
#: per-annotator z (make_rankings.py); WMT24 ranked ESA and MQM by the raw scores (tools.py)
DEFAULT_SCORE = {"DA+SQM": "z", "ESA": "raw", "MQM": "raw", "DA (z)": "z"}


def paired_rankings(
    files: Files,
    *,
    documents: Files = (),
    test: str = "signed-rank",
    by_domain: bool = True,
    average: str = "macro",
    alpha: float = 0.05,
    correction: str = "none",
    exclude: Sequence[str] = (),
    lp: str | None = None,
    score: str | None = None,
    mqm_weights=None,
    progress=None,
) -> list[PairedRankingResult]:
    """WMT24-style rankings (:func:`stats.human.paired.paired_ranking`), one per protocol and
    language pair, in that order. Several files of one protocol are one set; the systems of
    ``exclude`` are left out first.

    ``score``: ``'raw'`` ranks the ratings as given, ``'z'`` each rater's ratings standardised
    per language pair (:func:`stats.human.paired.standardize_per_rater`, as WMT22 ranked
    DA+SQM); None: per protocol, :data:`DEFAULT_SCORE`. Each result carries what each file was
    read as (``read_as``), the notes (``notes``: systems left out, raters without spread,
    names shortened, errors weighed 0), and the per-segment and per-document scores.
    ``progress(fraction)`` (optional) is called with the share of the rankings done once the
    files are read."""
    check_progress(progress)
    if score not in (None, "raw", "z"):
        raise StatsInputError(f"score must be 'raw' or 'z'; got {score!r}")
    ratings = read_human_ratings(files, documents=documents, lp=lp, mqm_weights=mqm_weights)
    if exclude:
        rated = pd.concat([r.frame for r in ratings], ignore_index=True)
        without_systems(rated, exclude)  # each must be among the systems rated
        ratings = [
            dataclasses.replace(r, frame=r.frame[~r.frame["system"].isin(list(exclude))])
            for r in ratings
        ]
    by_protocol: dict[str, list[HumanRatings]] = {}
    for r in ratings:
        by_protocol.setdefault(r.protocol, []).append(r)
    results = []
    total = sum(  # rankings to compute: one per protocol and language pair
        pd.concat([r.frame["lp"] for r in group], ignore_index=True).nunique()
        for group in by_protocol.values()
    )
    for protocol, group in by_protocol.items():
        frame = pd.concat([r.frame for r in group], ignore_index=True)
        domains = all(r.has_domains for r in group)
        read_as = tuple(f"{r.name}: {r.read_as}" for r in group if r.read_as)
        notes = [n for r in group for n in r.notes]
        notes += [f"{r.name}: {n:,} {why}" for r in group for why, n in r.dropped.items() if n]
        n_doc = sum(0 if r.documents is None else len(r.documents) for r in group)
        if n_doc:
            notes.append(
                f"{n_doc:,} document-level ratings (isDocScore) kept apart, not ranked "
                "(as WMT22's make_rankings.py by default)"
            )
        if exclude:
            notes.append(f"left out by choice: {', '.join(map(str, exclude))}")
        kind = score or DEFAULT_SCORE.get(protocol, "raw")
        if protocol == "DA (z)":
            if score == "raw":
                raise StatsInputError(
                    "score: the paired ranking takes the z scores of published DA segment "
                    "files and judgement files; rank them unpaired for raw scores"
                )
            kind = "z"
        elif kind == "z":
            frame, left = standardize_per_rater(frame)
            if left:
                notes.append(
                    f"{len(left)} rater(s) without spread left out of the z scores (as "
                    f"WMT22's make_rankings.py): {', '.join(left)}"
                )
        for pair, block in frame.groupby("lp", sort=True):
            res = paired_ranking(
                block, test=test, by_domain=by_domain and domains, average=average,
                alpha=alpha, correction=correction, lp=str(pair),
            )  # fmt: skip
            seg, doc = _segment_and_document_scores(block)
            results.append(
                dataclasses.replace(
                    res,
                    protocol=protocol,
                    score_kind=kind,
                    notes=tuple(notes),
                    read_as=read_as,
                    segment_scores=seg,
                    document_scores=doc,
                )  # fmt: skip
            )
            if progress is not None:
                progress(min(1.0, len(results) / max(total, 1)))
    return results


def _segment_and_document_scores(block: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Per (system, domain, document, segment): mean score over its raters and their number;
    per (system, domain, document): the mean of its segment scores and their number."""
    seg = (
        block.groupby(["system", "domain", "document", "segment"], sort=False)["score"]
        .agg(score="mean", n="size")
        .reset_index()
    )
    doc = (
        seg.groupby(["system", "domain", "document"], sort=False)["score"]
        .agg(score="mean", n="size")
        .reset_index()
    )
    return seg, doc


def wmt_gold(
    files: Files, *, documents: Files = (), alpha: float = 0.05, exclude: Sequence[str] = ()
) -> HumanGoldResult:
    """The gold standard of one language pair from WMT22-25 files: the paired ranking's grid
    (:func:`stats.human.paired.gold_from_ranking`)."""
    results = paired_rankings(files, documents=documents, alpha=alpha, exclude=exclude)
    if len(results) > 1:
        raise StatsInputError(
            "judgements: the gold standard is one language pair in one protocol; these files "
            "hold " + ", ".join(f"{r.lp} ({r.protocol})" for r in results)
        )
    return gold_from_ranking(results[0])
