"""Human ratings of WMT22-25's general MT task, one tidy frame for every protocol, and the WMT
documents file that gives each segment its domain.

:class:`HumanRatings` is what the Appraise reader (:mod:`.appraise`: ESA, DA+SQM) and the MQM
reader (:mod:`.mqm`) return: one row per rating of an item by a rater, an item being a segment
of a document of a language pair. :func:`read_documents` reads the documents file the
organisers publish beside the test set::

    canary  canary-line-of-the-test-set        <- line 0
    news    news_doc_17                        <- line 1: DOMAIN<TAB>DOCUMENT of segment 1
    ...

(the language pair from the file name, e.g. ``en-ja.docs``), and :func:`attach_domains` looks
each rating's segment up in it: the segment id is the line number, and the rating's document
must be the file's document on that line (a mismatch is an error, since it means the ratings and
the documents file number segments differently).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

from ._common import LINE, Source, load_text
from .da_segments import language_pair_from_name

__all__ = [
    "NO_DOMAIN",
    "RATING_COLUMNS",
    "DocumentsFile",
    "HumanRatings",
    "attach_domains",
    "is_documents_file",
    "read_documents",
]

#: the domain of every rating when no documents file and no domain column is given
NO_DOMAIN = "all"

#: columns of :attr:`HumanRatings.frame`
RATING_COLUMNS = ("lp", "domain", "system", "document", "segment", "rater", "score", LINE)


@dataclass(frozen=True, kw_only=True)
class HumanRatings:
    """Ratings of one or more language pairs in one protocol.

    Attributes
    ----------
    frame : pandas.DataFrame
        Columns ``lp``, ``domain``, ``system``, ``document``, ``segment`` (str), ``rater`` (str),
        ``score`` (float; higher is better, MQM scores are minus the weighted error count) and
        ``_line`` (line of the file), one row per rating kept.
    name : str
        Display name of the file(s).
    protocol : str
        ``'ESA'``, ``'DA+SQM'`` or ``'MQM'``.
    dropped : dict of str -> int
        Rows left out and why (quality-control items, tutorial documents, repeats...).
    has_domains : bool
        Whether ``domain`` comes from the file or a documents file (else :data:`NO_DOMAIN`).
    read_as : str
        What the file was read as, in words ("read as WMT22 DA+SQM segment ratings, ...").
    notes : tuple of str
        What was kept but changed or weighed by a rule the user should know (e.g. severities
        without an MQM weight, system names shortened).
    documents : pandas.DataFrame or None
        Document-level ratings the file holds beside the segment ratings (WMT22-23 DA+SQM
        ``isDocScore`` rows), kept apart: same columns as ``frame``.
    line_offset : int
        What to add to a segment id to get its line of the documents file (0: the id is the
        line, as in WMT24's ESA files; -1 for Marot's ``globalSegId``, which counts the canary
        line as 1, as WMT24's ``humeval/tools.py`` aligns them).
    """

    frame: pd.DataFrame
    name: str
    protocol: str
    dropped: Mapping[str, int] = dataclasses.field(default_factory=dict)
    has_domains: bool = False
    read_as: str = ""
    notes: tuple[str, ...] = ()
    documents: pd.DataFrame | None = None
    line_offset: int = 0

    @property
    def systems(self) -> tuple[str, ...]:
        return tuple(pd.unique(self.frame["system"]))

    @property
    def language_pairs(self) -> tuple[str, ...]:
        return tuple(sorted(set(self.frame["lp"])))

    def describe(self) -> str:
        """One line: protocol, ratings, systems, language pairs, what was dropped and noted."""
        kept = f"{len(self.frame):,} {self.protocol} ratings of {len(self.systems)} systems"
        pairs = ", ".join(self.language_pairs)
        drop = "; ".join(f"{n:,} {why}" for why, n in self.dropped.items() if n)
        notes = "".join(f"; {n}" for n in self.notes)
        return f"{self.name}: {kept} in {pairs}" + (f"; dropped {drop}" if drop else "") + notes


@dataclass(frozen=True, kw_only=True)
class DocumentsFile:
    """A WMT documents file: ``frame`` has columns ``domain`` and ``document`` indexed by line
    (0 is the canary line); ``lp`` is the language pair of the file name (or None)."""

    frame: pd.DataFrame
    name: str
    lp: str | None


def read_documents(source: Source, *, name: str | None = None) -> DocumentsFile:
    """Read a WMT documents file (``DOMAIN<TAB>DOCUMENT`` per test-set line; line 0 the canary).

    Raises
    ------
    StatsInputError
        An empty file or a line that is not two tab-separated fields (naming file and line).
    """
    text, label = load_text(source, name)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if not lines:
        raise StatsInputError(f"{label}: empty documents file (expected DOMAIN<TAB>DOCUMENT lines)")
    fields = [line.rstrip("\r").split("\t") for line in lines]
    bad = [i for i, f in enumerate(fields) if len(f) != 2 or not f[0].strip()]
    if bad:
        i = bad[0]
        raise StatsInputError(
            f"{label}, line {i}: expected DOMAIN<TAB>DOCUMENT (a WMT documents file such as "
            f"en-ja.docs); got {lines[i][:80]!r}"
        )
    frame = pd.DataFrame(
        {"domain": [f[0].strip() for f in fields], "document": [f[1].strip() for f in fields]}
    )
    return DocumentsFile(frame=frame, name=label, lp=language_pair_from_name(label))


def is_documents_file(text: str) -> bool:
    """True when every one of the first lines is two tab-separated fields (a documents file)."""
    head = [line for line in text.split("\n")[:20] if line.strip()]
    return bool(head) and all(len(line.rstrip("\r").split("\t")) == 2 for line in head)


def attach_domains(ratings: HumanRatings, documents: list[DocumentsFile]) -> HumanRatings:
    """Give every rating the domain of its segment's line in the documents file of its language
    pair (a single documents file serves every pair when its name names none).

    Raises
    ------
    StatsInputError
        No documents file for a language pair, a segment id that is not a line of the file, or
        a rating whose document differs from the file's document on that line.
    """
    if not documents:
        return ratings
    frame = ratings.frame.copy()
    domains = np.empty(len(frame), dtype=object)
    named = frame["document"].to_numpy(dtype=object, copy=True)
    for lp, rows in frame.groupby("lp", sort=False).indices.items():
        docs = [d for d in documents if d.lp == lp] or [d for d in documents if d.lp is None]
        if not docs:
            named = ", ".join(f"{d.name} ({d.lp})" for d in documents)
            raise StatsInputError(
                f"{ratings.name}: no documents file for {lp}; given {named} (name it {lp}.docs)"
            )
        doc = docs[0]
        sub = frame.iloc[rows]
        seg = pd.to_numeric(sub["segment"], errors="coerce").to_numpy(dtype=float)
        seg = seg + ratings.line_offset
        n = len(doc.frame)
        outside = ~((seg >= 0) & (seg < n) & (seg == np.floor(seg)))
        if outside.any():
            i = int(np.flatnonzero(outside)[0])
            raise StatsInputError(
                f"{ratings.name}, line {sub[LINE].iloc[i]}: segment {sub['segment'].iloc[i]!r} "
                f"is not a line of {doc.name} (lines 0-{n - 1}; segment ids are test-set lines)"
            )
        at = seg.astype(np.int64)
        expected = doc.frame["document"].to_numpy(dtype=object)[at]
        given = sub["document"].to_numpy(dtype=object)
        # a file without documents (WMT22's 9-field segment ratings) takes the file's
        wrong = (expected != given) & (given != "")
        if wrong.any():
            i = int(np.flatnonzero(wrong)[0])
            raise StatsInputError(
                f"{ratings.name}, line {sub[LINE].iloc[i]}: segment {sub['segment'].iloc[i]} is "
                f"in document {sub['document'].iloc[i]!r} there but in {expected[i]!r} in {doc.name}: the "
                "documents file does not match these ratings"
            )
        domains[rows] = doc.frame["domain"].to_numpy(dtype=object)[at]
        named[rows] = expected
    frame["domain"] = domains
    frame["document"] = named
    return dataclasses.replace(ratings, frame=frame, has_domains=True)
