"""The WMT25 general MT task's system outputs as published: ``systems/SYSTEM.jsonl``, one file
per system (the file name is the system's name), one JSON object per line, one line per
document::

    {"doc_id": "en-is_IS_#_literary_#_rink_rats_chapter1", "hypothesis": "Rinkrats\\n1. kafli ..."}

``doc_id`` joins the language pair, the domain and the document id with ``_#_``; the
hypothesis is the whole document (its paragraphs separated by a blank line), or ``null`` where
the system gave none (counted, never filled). A line may also name them as the automatic scores do
(``language_pair``, ``domain``, ``document_id``, ``hypothesis``). References in the same layout
(a file per reference) give BLEU/chrF/chrF++ with documents as segments
(:func:`stats.analyses.autorank.wmt25_text_statistics`).

Strict as :mod:`stats.readers.wmt25`: a line that is not a JSON object, a field missing or not a
string, a ``doc_id`` that does not split into three parts, a document given twice: one line
naming the file, line and field. Documents a system lacks are counted, never filled.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from typing import cast

import pandas as pd

from stats._core.errors import StatsInputError

from ._common import check_parse_memory, decode, name_list
from .wmt25 import _json_objects, _jsonl_files, _kind, _system_of

__all__ = ["WMT25Outputs", "read_wmt25_outputs"]

#: what separates language pair, domain and document id in a published ``doc_id``
SEPARATOR = "_#_"


@dataclass(frozen=True, kw_only=True)
class WMT25Outputs:
    """System outputs as read (:func:`read_wmt25_outputs`).

    Attributes
    ----------
    documents : pandas.DataFrame
        One row per (system, document): ``lp``, ``system``, ``domain``, ``document``,
        ``text`` (None where the hypothesis is ``null``), ``line`` (its line in the file).
    systems, lps : tuple of str
        Sorted.
    read_as : str
    files : dict
        System -> the file it was read from (for messages).
    notes : tuple of str
        Documents and language pairs a system lacks, null hypotheses, counted; fields not read.
    """

    documents: pd.DataFrame
    systems: tuple[str, ...]
    lps: tuple[str, ...]
    read_as: str
    notes: tuple[str, ...] = ()
    files: dict = dataclass_field(default_factory=dict)


def _line_fields(obj, label: str, number: int) -> tuple[str, str, str, str | None]:
    if "hypothesis" not in obj:
        raise StatsInputError(f"{label}, line {number}: field hypothesis is missing")
    text = obj["hypothesis"]
    if text is not None and not isinstance(text, str):
        raise StatsInputError(
            f"{label}, line {number}, field hypothesis: expected a string or null; got "
            f"{_kind(text)}"
        )
    if "doc_id" in obj:
        doc_id = obj["doc_id"]
        if not isinstance(doc_id, str):
            raise StatsInputError(
                f"{label}, line {number}, field doc_id: expected a string; got {_kind(doc_id)}"
            )
        parts = doc_id.split(SEPARATOR)
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise StatsInputError(
                f"{label}, line {number}, field doc_id: {doc_id[:80]!r} is not "
                f"LP{SEPARATOR}DOMAIN{SEPARATOR}DOCUMENT"
            )
        return parts[0], parts[1], parts[2], text
    fields = []
    for field in ("language_pair", "domain", "document_id"):
        if field not in obj:
            raise StatsInputError(
                f"{label}, line {number}: field doc_id (or {field}) is missing"
            )
        value = obj[field]
        if not isinstance(value, str) or not value.strip():
            raise StatsInputError(
                f"{label}, line {number}, field {field}: expected a non-empty string; got "
                f"{_kind(value)}"
            )
        fields.append(value)
    return fields[0], fields[1], fields[2], text


def read_wmt25_outputs(files: Sequence) -> WMT25Outputs:
    """Read WMT25 system outputs (or references) as published, one ``SYSTEM.jsonl`` per system.

    Parameters
    ----------
    files : sequence
        Paths (folders and zip/tar archives stand for their ``*.jsonl`` files) or
        ``(name, bytes)`` pairs; the system is the file's name without ``.jsonl``.

    Returns
    -------
    WMT25Outputs

    Examples
    --------
    >>> line = '{"doc_id": "en-de_DE_#_news_#_d1", "hypothesis": "Ein Satz.\\\\nNoch einer."}'
    >>> out = read_wmt25_outputs([("A.jsonl", line.encode())])
    >>> out.read_as
    'read as WMT25 system outputs: 1 system, 1 language pair, 1 document'
    >>> out.documents["text"].iloc[0]
    'Ein Satz.\\nNoch einer.'
    """
    if isinstance(files, (str, os.PathLike)):
        files = [files]
    raw, skipped = _jsonl_files(files)
    rows: list[tuple] = []
    extra: dict[str, int] = {}
    nulls: dict[tuple[str, str], int] = {}
    seen_systems: dict[str, str] = {}
    for label, data in raw:
        system = _system_of(label)
        if not system:
            raise StatsInputError(f"{label}: the file name gives no system name")
        if system in seen_systems:
            raise StatsInputError(
                f"{label}: system {system!r} is also given by {seen_systems[system]}"
            )
        seen_systems[system] = label
        blob = cast(bytes, data() if callable(data) else data)  # a folder's file, read now
        check_parse_memory(len(blob), label, 3)
        text = decode(blob, label)
        seen: dict[tuple, int] = {}
        count = 0
        for number, obj in _json_objects(text, label, "doc_id and hypothesis"):
            lp, domain, document, hyp = _line_fields(obj, label, number)
            key = (lp, domain, document)
            if key in seen:
                raise StatsInputError(
                    f"{label}, line {number}: document {document!r} ({lp}, {domain}) is given "
                    f"twice (lines {seen[key]} and {number})"
                )
            seen[key] = number
            for field in obj.keys() - {"doc_id", "hypothesis", "language_pair", "domain",
                                       "document_id"}:  # fmt: skip
                extra[field] = extra.get(field, 0) + 1
            if hyp is None:
                nulls[(system, lp)] = nulls.get((system, lp), 0) + 1
            rows.append((lp, system, domain, document, hyp, number))
            count += 1
        if not count:
            raise StatsInputError(f"{label}: file is empty")
    frame = pd.DataFrame(rows, columns=["lp", "system", "domain", "document", "text", "line"])
    systems = tuple(sorted(seen_systems))
    lps = tuple(sorted(set(frame["lp"])))
    n_docs = len(frame.drop_duplicates(["lp", "domain", "document"]))

    def plural(k, word):
        return f"{k:,} {word}{'' if k == 1 else 's'}"

    notes = []
    for lp, block in frame.groupby("lp", sort=True):
        docs = block.drop_duplicates(["domain", "document"]).shape[0]
        have = block.groupby("system").size()
        absent = sorted(set(systems) - set(have.index))
        if absent:
            notes.append(f"{lp}: {len(absent)} system(s) have no lines ({name_list(absent)})")
        for s, k in have.items():
            if k < docs:
                notes.append(f"{lp}, {s}: {docs - k:,} of {docs:,} documents absent")
    notes += [
        f"{lp}, {s}: {k:,} null hypothes{'i' if k == 1 else 'e'}s (documents without output: "
        "not scored, never filled)"
        for (s, lp), k in sorted(nulls.items(), key=lambda item: (item[0][1], item[0][0]))
    ]
    notes += [f"field {f!r} not read ({k:,} lines)" for f, k in extra.items()]
    if skipped:
        notes.append(f"{len(skipped)} file(s) not ending in .jsonl skipped: {name_list(skipped)}")
    return WMT25Outputs(
        documents=frame,
        systems=systems,
        lps=lps,
        read_as=(
            f"read as WMT25 system outputs: {plural(len(systems), 'system')}, "
            f"{plural(len(lps), 'language pair')}, {plural(n_docs, 'document')}"
        ),
        notes=tuple(notes),
        files=dict(seen_systems),
    )
