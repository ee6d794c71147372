"""Appraise CSV exports of WMT22-25's human evaluation (ESA; DA+SQM), as the organisers
publish them.

No header (a header line, when an export has one, is skipped); one row per judgement, fields
(CSV, quoted where needed). Three layouts, told from the first row:

* WMT22 DA+SQM segment ratings (``WMT22.Appraise.SegLvl*.csv``, 9 fields, organisers' header
  ``username,system,itemId,itemType,srcLang,trgLang,score,timeStart,timeEnd``): no document;
* WMT22-23 DA+SQM document-level exports (``*.DocLvl.*.csv``, 11 fields: ``...,score,docId,
  isDocScore,timeStart,timeEnd``): rows with ``isDocScore`` True rate a whole document and are
  kept apart (:attr:`~.documents.HumanRatings.documents`), never mixed with segment ratings;
* the general layout (WMT23-25 ESA, 8 or more fields): ``user, system, segment, type, source
  language, target language, score, document, [..., error spans (JSON), start time, end
  time]``, the last two the times when a row has ten or more.

What WMT's ranking scripts drop is dropped here, and counted in
:attr:`~.documents.HumanRatings.dropped`:

* quality-control items: ``type`` other than ``TGT`` (``BAD``, ``REF``, ``CHK``...);
* tutorial documents (``tutorial`` in the document id) and documents marked ``#incomplete``
  or ``#dup``;
* repeated judgements of one item (system, document, segment) by one user: the last by end
  time is kept (the last in the file when times are missing or equal).

Appraise names languages by ISO 639-3 codes (``eng``, ``deu``); the common ones become the
two-letter codes of WMT's file names (``en-de``), so a documents file ``en-de.docs`` and
outputs ``*.en-de.*`` match; other codes are kept. System names given as output file names
(``generaltest2022.en-liv.hyp.NiuTrans.liv.txt``) become the name the findings' tables print
(``NiuTrans``), with a note.

The protocol is ESA when any row carries a non-empty error-span list, DA+SQM otherwise.
"""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

from ._common import LINE, Source, check_parse_memory, is_number, load_text
from ._limits import check_value_range
from .documents import NO_DOMAIN, HumanRatings

__all__ = ["is_appraise_export", "read_appraise"]

_TYPE = re.compile(r"^[A-Z]{3}$")
_MARKED = ("#incomplete", "#dup")
_SPANS = re.compile(r"^\s*\[\s*\{")
_OUTPUT_NAME = re.compile(r"^[^.]+\.[a-z]{2,3}-[a-z]{2,3}\.hyp\.(.+?)\.[a-z]{2,3}(?:\.txt)?$")
_BOOL = ("true", "false")
#: ISO 639-3 -> the two-letter code WMT's file names use
_ISO1 = {
    "ara": "ar", "ben": "bn", "ces": "cs", "dan": "da", "deu": "de", "ell": "el", "eng": "en",
    "est": "et", "fin": "fi", "fra": "fr", "guj": "gu", "hau": "ha", "heb": "he", "hin": "hi",
    "hrv": "hr", "hun": "hu", "isl": "is", "ita": "it", "jpn": "ja", "kaz": "kk", "khm": "km",
    "kor": "ko", "lit": "lt", "lav": "lv", "mar": "mr", "nld": "nl", "nor": "no", "pol": "pl",
    "por": "pt", "pus": "ps", "ron": "ro", "rus": "ru", "slk": "sk", "slv": "sl", "spa": "es",
    "srp": "sr", "swe": "sv", "tam": "ta", "tur": "tr", "ukr": "uk", "vie": "vi", "xho": "xh",
    "zho": "zh", "zul": "zu",
}  # fmt: skip


def _two_letter(codes: pd.Series) -> pd.Series:
    """``eng`` -> ``en``, ``zho_Hans`` -> ``zh`` (script/region dropped only when mapped)."""
    table = {c: _ISO1.get(re.split(r"[_-]", c.lower(), maxsplit=1)[0], c) for c in set(codes)}
    return codes.map(table)


def _number(field: str) -> bool:
    return is_number(field)


def is_appraise_export(text: str) -> bool:
    """True when the first non-blank line looks like an Appraise export row: eight or more
    fields and an upper-case three-letter item type (TGT, BAD, REF, CHK) in the fourth."""
    head = [line for line in re.split(r"\r\n|\r|\n", text, maxsplit=50)[:50] if line.strip()][:2]
    try:
        rows = list(csv.reader(head))
    except csv.Error:
        return False
    if rows and _is_header(rows[0]):
        rows = rows[1:]
    return bool(rows) and len(rows[0]) >= 8 and bool(_TYPE.match(rows[0][3].strip()))


def _is_header(row: list[str]) -> bool:
    """A header line some exports start with: no item type in field 4, no number in field 7."""
    return len(row) >= 8 and not _TYPE.match(row[3].strip()) and not _number(row[6].strip())


def read_appraise(source: Source, *, name: str | None = None) -> HumanRatings:
    """Read an Appraise CSV export (ESA or DA+SQM) into ratings, dropping what WMT drops.

    Parameters
    ----------
    source : path, bytes or binary file object
    name : str, optional
        Display name for messages.

    Returns
    -------
    HumanRatings
        ``lp`` is ``source-target`` from the language fields; ``domain`` is
        :data:`~.documents.NO_DOMAIN` until :func:`~.documents.attach_domains`.

    Raises
    ------
    StatsInputError
        A row with fewer than eight fields, an empty user/system/segment/document, a score that
        is not a finite number (naming file and line), or nothing left after the filtering.
    """
    text, label = load_text(source, name)
    check_parse_memory(len(text), label)
    rows: list[list[str]] = []
    lines: list[int] = []
    reader = csv.reader(io.StringIO(text, newline=""))  # \r, \n or \r\n ends a row
    try:
        for row in reader:
            if not row or not any(f.strip() for f in row):
                continue
            if not rows and not lines and _is_header(row):
                lines.append(0)  # a header line: skipped
                continue
            if len(row) < 8:
                raise StatsInputError(
                    f"{label}, line {reader.line_num}: {len(row)} field(s); an Appraise export "
                    "row has at least 8 (user, system, segment, type, source language, target "
                    "language, score, document, ...)"
                )
            rows.append(row)
            lines.append(reader.line_num)
    except csv.Error as exc:
        raise StatsInputError(f"{label}, line {reader.line_num}: not CSV ({exc})") from None
    if not rows:
        raise StatsInputError(f"{label}: no judgements (an empty Appraise export)")
    layout = _layout(rows[0])
    width = len(rows[0])
    if layout != "general":
        bad = next((i for i, r in enumerate(rows) if len(r) != width), None)
        if bad is not None:
            raise StatsInputError(
                f"{label}, line {lines[bad + (1 if lines and lines[0] == 0 else 0)]}: "
                f"{len(rows[bad])} fields; this file's first row has {width} ({_LAYOUTS[layout]})"
            )
    if layout == "wmt22-seg":  # no document field: an empty document, the times last
        fixed = pd.DataFrame([[f.strip() for f in r[:7]] + [""] for r in rows], columns=_FIXED)
    else:
        fixed = pd.DataFrame([[f.strip() for f in r[:8]] for r in rows], columns=_FIXED)
    if lines and lines[0] == 0:
        lines = lines[1:]
    line = np.asarray(lines, dtype=np.int64)
    required = ("user", "system", "segment") + (("document",) if layout != "wmt22-seg" else ())
    for col in required:
        empty = (fixed[col] == "").to_numpy()
        if empty.any():
            i = int(np.flatnonzero(empty)[0])
            raise StatsInputError(f"{label}, line {line[i]}: empty {col} field")
    score = pd.to_numeric(fixed["score"], errors="coerce").to_numpy(dtype=float)
    bad_score = ~np.isfinite(score)
    if bad_score.any():
        i = int(np.flatnonzero(bad_score)[0])
        raise StatsInputError(
            f"{label}, line {line[i]}, field 7 (score): {fixed['score'].iloc[i]!r} is not a "
            "finite number"
        )
    check_value_range(score, "score (field 7)", label, line)
    end = np.array(
        [float(r[-1]) if len(r) >= 9 and _number(r[-1].strip()) else np.nan for r in rows]
    ) if layout != "general" else np.array(
        [float(r[-1]) if len(r) >= 10 and _number(r[-1].strip()) else np.nan for r in rows]
    )  # fmt: skip
    doc_rows = np.zeros(len(rows), dtype=bool)
    if layout == "wmt22-doc":
        flag = pd.Series([r[8].strip().lower() for r in rows])
        odd = ~flag.isin(_BOOL).to_numpy()
        if odd.any():
            i = int(np.flatnonzero(odd)[0])
            raise StatsInputError(
                f"{label}, line {line[i]}, field 9 (isDocScore): {rows[i][8]!r} is not True "
                "or False"
            )
        doc_rows = (flag == "true").to_numpy()
    spans = layout == "general" and any(_SPANS.match(f) for r in rows for f in r[8:])
    system = fixed["system"]
    short = system.str.extract(_OUTPUT_NAME, expand=False)
    notes = []
    if short.notna().any():
        # one name per (language pair, system): shortened unless two would become one
        names = pd.DataFrame({"lp": fixed["src"] + "-" + fixed["tgt"], "full": system,
                              "short": short.fillna(system)}).drop_duplicates()  # fmt: skip
        if not names.duplicated(["lp", "short"]).any():
            system = short.fillna(system)
            changed = names[names["full"] != names["short"]]
            notes.append(
                f"{len(changed)} system names shortened to the name the findings print "
                f"({changed['full'].iloc[0]} -> {changed['short'].iloc[0]})"
            )
    frame = pd.DataFrame(
        {
            "lp": (_two_letter(fixed["src"]) + "-" + _two_letter(fixed["tgt"])).to_numpy(
                dtype=object
            ),
            "domain": NO_DOMAIN,
            "system": system.to_numpy(dtype=object),
            "document": fixed["document"].to_numpy(dtype=object),
            "segment": fixed["segment"].to_numpy(dtype=object),
            "rater": fixed["user"].to_numpy(dtype=object),
            "score": score,
            LINE: line,
            "_end": end,
        }
    )
    dropped: dict[str, int] = {}
    qc = (fixed["type"].str.upper() != "TGT").to_numpy()
    dropped["quality-control items (type not TGT)"] = int(qc.sum())
    doc = frame["document"].str.lower()
    tutorial = doc.str.contains("tutorial", regex=False).to_numpy() & ~qc
    dropped["tutorial rows"] = int(tutorial.sum())
    marked = np.zeros(len(frame), dtype=bool)
    for mark in _MARKED:
        marked |= doc.str.contains(mark, regex=False).to_numpy()
    marked &= ~(qc | tutorial)
    dropped["#incomplete/#dup rows"] = int(marked.sum())
    keep = ~(qc | tutorial | marked)
    documents = None
    if layout == "wmt22-doc":
        documents = frame[keep & doc_rows].drop(columns="_end").reset_index(drop=True)
        keep &= ~doc_rows
    frame = frame[keep]
    # repeated judgements: the last by end time (file order breaks ties; NaN times sort first)
    key = ["lp", "system", "document", "segment", "rater"]
    ordered = frame.assign(_t=frame["_end"].fillna(-np.inf), _pos=np.arange(len(frame)))
    ordered = ordered.sort_values(["_t", "_pos"], kind="stable")
    # (WMT22's make_rankings.py keeps every judgement: the segment mean takes them all)
    last = ordered if layout != "general" else ordered.drop_duplicates(key, keep="last")
    dropped["repeated judgements (kept the last)"] = len(frame) - len(last)
    frame = last.sort_values("_pos").drop(columns=["_t", "_pos", "_end"]).reset_index(drop=True)
    if frame.empty:
        raise StatsInputError(
            f"{label}: no judgements left after dropping quality-control items, tutorial and "
            "#incomplete/#dup documents"
        )
    protocol = "ESA" if spans else "DA+SQM"
    n_doc = 0 if documents is None else len(documents)
    read_as = (
        f"read as {_LAYOUTS[layout].replace('DA+SQM', protocol)}, {width} fields, "
        f"{len(frame):,} segment ratings"
        + (f" and {n_doc:,} document-level ratings kept apart" if layout == "wmt22-doc" else "")
        + f", {len(set(frame['lp']))} LP(s)"
    )
    return HumanRatings(
        frame=frame, name=label, protocol=protocol, dropped=dropped, read_as=read_as,
        notes=tuple(notes), documents=documents,
    )  # fmt: skip


_FIXED = ["user", "system", "segment", "type", "src", "tgt", "score", "document"]
_LAYOUTS = {
    "wmt22-seg": "WMT22 DA+SQM segment ratings (username, system, itemId, itemType, srcLang, "
    "trgLang, score, timeStart, timeEnd)",
    "wmt22-doc": "WMT22-23 DA+SQM document-level export (..., score, docId, isDocScore, "
    "timeStart, timeEnd)",
    "general": "Appraise DA+SQM export (user, system, segment, type, source, target, score, "
    "document, ...)",
}


def _layout(row: list[str]) -> str:
    """``'wmt22-seg'`` (9 fields, the last two times), ``'wmt22-doc'`` (11 fields, field 9
    isDocScore) or ``'general'``."""
    f = [x.strip() for x in row]
    if len(f) == 9 and _number(f[7]) and _number(f[8]):
        return "wmt22-seg"
    if len(f) == 11 and f[8].lower() in _BOOL and _number(f[9]) and _number(f[10]):
        return "wmt22-doc"
    return "general"
