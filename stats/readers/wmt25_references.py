"""The WMT25 general MT test set with its human references as the organisers publish it:
``data/wmt25-genmt.jsonl``, one JSON object per document::

    {"doc_id": "en-cs_CZ_#_news_#_doc12", "collection_id": "general", "domain": "news",
     "src_lang": "en", "tgt_lang": "cs_CZ", "src_text": "First paragraph.\\n\\nSecond.",
     "refs": {"refA": {"ref": "První odstavec.\\n\\nDruhý."}}, ...}

``doc_id`` joins the language pair, the domain and the document id with ``_#_`` (the system
outputs' ``doc_id``); a document's paragraphs are its text split at ``"\\n\\n"``; ``refs`` is
empty where the document has no human reference. Documents of another collection than
``general`` (the test suites) are skipped and counted, as the organisers' scripts keep only
``collection_id == "general"``.

Strict: a line that is not a JSON object, a field missing or of the wrong type, a ``doc_id``
that does not split into three parts, a document given twice, or a reference whose paragraph
count differs from its source's: one line naming the file, line and field. Documents without
the reference asked for are counted, never filled.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import cast

from stats._core.errors import StatsInputError

from ._common import check_parse_memory, decode, name_list
from .wmt25 import _json_objects, _jsonl_files, _kind
from .wmt25_outputs import SEPARATOR

__all__ = ["PARAGRAPH_SEPARATOR", "WMT25References", "read_wmt25_references"]

#: what separates the paragraphs of a document's text (the organisers' ``split("\n\n")``)
PARAGRAPH_SEPARATOR = "\n\n"
#: the collection the general task ranks; other collections (``testsuites``) are skipped
GENERAL = "general"
#: the fields of a line this reader reads (the others are named as not read)
READ_FIELDS = ("doc_id", "collection_id", "src_text", "refs")


@dataclass(frozen=True, kw_only=True)
class WMT25References:
    """A WMT25 test set with references as read (:func:`read_wmt25_references`).

    Attributes
    ----------
    references : dict
        ``(lp, domain, document) -> (line, paragraphs)`` of every document of the general
        collection with the reference asked for: its line in the file and the reference's
        paragraphs (as many as the source's).
    documents : dict
        ``lp -> number of documents`` of the general collection (with a reference or not).
    reference : str
        The reference read (``'refA'``).
    file : str
    read_as : str
    notes : tuple of str
        Documents skipped (other collections) or without the reference, counted per language
        pair; other references present and not read; fields not read.
    """

    references: dict
    documents: dict
    reference: str
    file: str
    read_as: str
    notes: tuple[str, ...] = ()

    @property
    def lps(self) -> tuple[str, ...]:
        """The language pairs with at least one reference document, sorted."""
        return tuple(sorted({lp for lp, _, _ in self.references}))


def _text(value, label: str, number: int, field: str) -> str:
    if not isinstance(value, str):
        raise StatsInputError(f"{label}, line {number}, field {field}: expected a string; got {_kind(value)}")
    return value


def read_wmt25_references(source, *, reference: str = "refA") -> WMT25References:
    """Read WMT25's ``wmt25-genmt.jsonl`` (the test set with its human references).

    Parameters
    ----------
    source : path or (name, bytes)
        The file (plain, gzipped, or the only ``.jsonl`` of a zip/tar).
    reference : str
        Which of ``refs`` to read (default ``'refA'``, the one the organisers score against).

    Returns
    -------
    WMT25References

    Examples
    --------
    >>> import json
    >>> line = json.dumps({"doc_id": "en-cs_CZ_#_news_#_d1", "collection_id": "general",
    ...                    "src_text": "One.\\n\\nTwo.", "refs": {"refA": {"ref": "Jedna.\\n\\nDvě."}}})
    >>> refs = read_wmt25_references(("wmt25-genmt.jsonl", line.encode()))
    >>> refs.read_as
    'read as WMT25 test set with references (refA): 1 document of the general collection in 1 language pair, 1 with refA'
    >>> refs.references[("en-cs_CZ", "news", "d1")]
    (1, ('Jedna.', 'Dvě.'))
    """
    if not isinstance(reference, str) or not reference:
        raise StatsInputError(f"reference must be a reference's name such as 'refA'; got {reference!r}")
    items = [source] if isinstance(source, (str, os.PathLike, tuple)) else list(source)
    raw, skipped = _jsonl_files(items)
    if len(raw) != 1:
        raise StatsInputError(
            f"references: expected one wmt25-genmt.jsonl file; got {len(raw)} "
            f"({name_list(label for label, _ in raw)})"
        )
    label, data = raw[0]
    blob = cast(bytes, data() if callable(data) else data)
    check_parse_memory(len(blob), label, 3)
    text = decode(blob, label)
    references: dict = {}
    documents: dict[str, int] = {}
    seen: dict[str, int] = {}
    other_collections: dict[str, int] = {}
    without: dict[str, int] = {}
    other_refs: dict[str, int] = {}
    extra: dict[str, int] = {}
    for number, obj in _json_objects(text, label, "doc_id, collection_id, src_text and refs"):
        for field in READ_FIELDS:
            if field not in obj:
                raise StatsInputError(f"{label}, line {number}: field {field} is missing")
        doc_id = _text(obj["doc_id"], label, number, "doc_id")
        parts = doc_id.split(SEPARATOR)
        if len(parts) != 3 or not all(p.strip() for p in parts):
            raise StatsInputError(
                f"{label}, line {number}, field doc_id: {doc_id[:80]!r} is not "
                f"LP{SEPARATOR}DOMAIN{SEPARATOR}DOCUMENT"
            )
        if doc_id in seen:
            raise StatsInputError(
                f"{label}, line {number}: document {doc_id!r} is given twice (lines "
                f"{seen[doc_id]} and {number})"
            )
        seen[doc_id] = number
        collection = _text(obj["collection_id"], label, number, "collection_id")
        if collection != GENERAL:
            other_collections[collection] = other_collections.get(collection, 0) + 1
            continue
        for field in obj.keys() - set(READ_FIELDS):
            extra[field] = extra.get(field, 0) + 1
        lp, domain, document = parts
        documents[lp] = documents.get(lp, 0) + 1
        source_text = _text(obj["src_text"], label, number, "src_text")
        refs = obj["refs"]
        if not isinstance(refs, dict):
            raise StatsInputError(
                f"{label}, line {number}, field refs: expected an object such as "
                f'{{"{reference}": {{"ref": "..."}}}}; got {_kind(refs)}'
            )
        for name in refs.keys() - {reference}:
            other_refs[name] = other_refs.get(name, 0) + 1
        entry = refs.get(reference)
        if entry is None:
            without[lp] = without.get(lp, 0) + 1
            continue
        field = f"refs.{reference}"
        if not isinstance(entry, dict) or "ref" not in entry:
            raise StatsInputError(
                f"{label}, line {number}, field {field}: expected an object with ref; got "
                f"{_kind(entry) if not isinstance(entry, dict) else 'an object without ref'}"
            )
        ref_text = _text(entry["ref"], label, number, f"{field}.ref")
        paragraphs = ref_text.split(PARAGRAPH_SEPARATOR)
        n_source = len(source_text.split(PARAGRAPH_SEPARATOR))
        if len(paragraphs) != n_source:
            raise StatsInputError(
                f"{label}, line {number}, field {field}.ref: {len(paragraphs)} paragraphs where "
                f"src_text has {n_source} (paragraphs are separated by a blank line)"
            )
        references[(lp, domain, document)] = (number, tuple(paragraphs))
    if not documents:
        raise StatsInputError(
            f"{label}: no document of the {GENERAL!r} collection"
            + (f" (collections: {name_list(other_collections)})" if other_collections else "")
        )

    def plural(k, word):
        return f"{k:,} {word}{'' if k == 1 else 's'}"

    with_ref = {lp for lp, _, _ in references}
    notes = []
    for collection, k in sorted(other_collections.items()):
        notes.append(f"{label}: {plural(k, 'document')} of collection {collection!r} skipped "
                     f"(the general task ranks the {GENERAL!r} collection)")  # fmt: skip
    for lp in sorted(documents):
        k = without.get(lp, 0)
        if k == documents[lp]:
            notes.append(f"{label}: {lp} has no {reference} ({plural(k, 'document')}): no BLEU or chrF++ there")
        elif k:
            notes.append(f"{label}: {lp}: {k:,} of {documents[lp]:,} documents without {reference}")
    for name, k in sorted(other_refs.items()):
        notes.append(f"{label}: reference {name!r} ({plural(k, 'document')}) not read: {reference} is")
    for field, k in sorted(extra.items()):
        notes.append(f"{label}: field {field!r} not read ({k:,} lines)")
    if skipped:
        notes.append(f"{len(skipped)} file(s) not ending in .jsonl skipped: {name_list(skipped)}")
    n_docs = sum(documents.values())
    return WMT25References(
        references=references,
        documents=documents,
        reference=reference,
        file=label,
        read_as=(
            f"read as WMT25 test set with references ({reference}): "
            f"{plural(n_docs, 'document')} of the {GENERAL} collection in "
            f"{plural(len(documents), 'language pair')}, {len(with_ref):,} with {reference}"
        ),
        notes=tuple(notes),
    )
