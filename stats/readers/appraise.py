"""Appraise CSV exports of WMT22-25's human evaluation (ESA; DA+SQM), as the organisers
publish them.

No header (a header line, when an export has one, is skipped); one row per judgement, fields
(CSV, quoted where needed)::

    user, system, segment, type, source language, target language, score, document,
    [..., error spans (JSON), start time, end time]

The first eight fields are fixed; when a row has ten or more, the last two are the start and
end times of the judgement. What WMT's ranking scripts drop is dropped here, and counted in
:attr:`~.documents.HumanRatings.dropped`:

* quality-control items: ``type`` other than ``TGT`` (``BAD``, ``REF``, ``CHK``...);
* tutorial documents (``tutorial`` in the document id) and documents marked ``#incomplete``
  or ``#dup``;
* repeated judgements of one item (system, document, segment) by one user: the last by end
  time is kept (the last in the file when times are missing or equal).

Appraise names languages by ISO 639-3 codes (``eng``, ``deu``); the common ones become the
two-letter codes of WMT's file names (``en-de``), so a documents file ``en-de.docs`` and
outputs ``*.en-de.*`` match; other codes are kept.

The protocol is ESA when any row carries a non-empty error-span list, DA+SQM otherwise.
"""

from __future__ import annotations

import csv
import io
import re

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

from ._common import LINE, Source, is_number, load_text
from ._limits import check_value_range
from .documents import NO_DOMAIN, HumanRatings

__all__ = ["is_appraise_export", "read_appraise"]

_TYPE = re.compile(r"^[A-Z]{3}$")
_MARKED = ("#incomplete", "#dup")
_SPANS = re.compile(r"^\s*\[\s*\{")
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
    fixed = pd.DataFrame([[f.strip() for f in r[:8]] for r in rows],
                         columns=["user", "system", "segment", "type", "src", "tgt", "score",
                                  "document"])  # fmt: skip
    if lines and lines[0] == 0:
        lines = lines[1:]
    line = np.asarray(lines, dtype=np.int64)
    for col in ("user", "system", "segment", "document"):
        empty = (fixed[col] == "").to_numpy()
        if empty.any():
            i = int(np.flatnonzero(empty)[0])
            raise StatsInputError(f"{label}, line {line[i]}: empty {col} field")
    score = pd.to_numeric(fixed["score"], errors="coerce").to_numpy(dtype=float)
    bad = ~np.isfinite(score)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise StatsInputError(
            f"{label}, line {line[i]}, field 7 (score): {fixed['score'].iloc[i]!r} is not a "
            "finite number"
        )
    check_value_range(score, "score (field 7)", label, line)
    end = np.array(
        [float(r[-1]) if len(r) >= 10 and _number(r[-1].strip()) else np.nan for r in rows]
    )
    spans = any(_SPANS.match(f) for r in rows for f in r[8:])
    frame = pd.DataFrame(
        {
            "lp": (_two_letter(fixed["src"]) + "-" + _two_letter(fixed["tgt"])).to_numpy(
                dtype=object
            ),
            "domain": NO_DOMAIN,
            "system": fixed["system"].to_numpy(dtype=object),
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
    frame = frame[~(qc | tutorial | marked)]
    # repeated judgements: the last by end time (file order breaks ties; NaN times sort first)
    key = ["lp", "system", "document", "segment", "rater"]
    ordered = frame.assign(_t=frame["_end"].fillna(-np.inf), _pos=np.arange(len(frame)))
    ordered = ordered.sort_values(["_t", "_pos"], kind="stable")
    last = ordered.drop_duplicates(key, keep="last")
    dropped["repeated judgements (kept the last)"] = len(frame) - len(last)
    frame = last.sort_values("_pos").drop(columns=["_t", "_pos", "_end"]).reset_index(drop=True)
    if frame.empty:
        raise StatsInputError(
            f"{label}: no judgements left after dropping quality-control items, tutorial and "
            "#incomplete/#dup documents"
        )
    return HumanRatings(
        frame=frame, name=label, protocol="ESA" if spans else "DA+SQM", dropped=dropped
    )
