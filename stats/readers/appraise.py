"""Appraise CSV exports of WMT22-25's human evaluation (ESA; DA+SQM), as the organisers
publish them.

No header (a header line, when an export has one, is skipped); one row per judgement, fields
(CSV, quoted where needed). Three layouts, told from the first row:

* WMT22 DA+SQM segment ratings (``WMT22.Appraise.SegLvl*.csv``, 9 fields, organisers' header
  ``username,system,itemId,itemType,srcLang,trgLang,score,timeStart,timeEnd``): no document;
* WMT22-23 DA+SQM document-level exports (``*.DocLvl.*.csv``, 11 fields: ``...,score,docId,
  isDocScore,timeStart,timeEnd``): rows with ``isDocScore`` True (or ``1``) rate a whole document and are
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

import array
import csv
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

from ._arrow import (
    BLOCK,
    TextStream,
    _pa_type,
    categorical,
    map_categories,
    plain_breaks,
    strings,
)
from ._common import (
    LINE,
    PARSE_MEMORY_FACTORS,
    Source,
    check_parse_memory,
    factorize_strings,
    is_finite_number,
    load_text,
)
from ._limits import check_value_range
from .documents import NO_DOMAIN, HumanRatings

__all__ = ["is_appraise_export", "read_appraise"]

_TYPE = re.compile(r"^[A-Z]{3}$")
_MARKED = ("#incomplete", "#dup")
_SPANS = re.compile(r"^\s*\[\s*\{")
_OUTPUT_NAME = re.compile(r"^[^.]+\.[a-z]{2,3}-[a-z]{2,3}\.hyp\.(.+?)\.[a-z]{2,3}(?:\.txt)?$")
#: the spellings of isDocScore (Appraise writes True/False; a spreadsheet's export 1/0)
_BOOL = ("true", "false", "1", "0")
_TRUE = ("true", "1")
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
    return is_finite_number(field)


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
    cols = _typed_columns(text) or _parse_columns(text, label)
    line = cols.line
    fixed: dict[str, pd.Series] = {}  # one array per column (no 2-D copy of them all)
    for col in _FIXED:
        first = cols.fields[0]
        fixed[col] = (
            pd.Series(first, copy=False) if isinstance(first, pd.Categorical)
            else pd.Series(np.array(first, dtype=object), dtype=object, copy=False)
        )  # fmt: skip
        del cols.fields[0], first
    layout, width = cols.layout, cols.width
    required = ("user", "system", "segment") + (("document",) if layout != "wmt22-seg" else ())
    for col in required:
        empty = (fixed[col] == "").to_numpy()
        if empty.any():
            i = int(np.flatnonzero(empty)[0])
            raise StatsInputError(f"{label}, line {line[i]}: empty {col} field")
    if isinstance(fixed["score"].dtype, pd.CategoricalDtype):  # each distinct value once
        values = fixed["score"].array
        by_value = pd.to_numeric(pd.Series(np.asarray(values.categories, dtype=object)),
                                 errors="coerce").to_numpy(dtype=float)
        score = by_value[np.asarray(values.codes)]
    else:
        score = pd.to_numeric(fixed["score"], errors="coerce").to_numpy(dtype=float)
    bad_score = ~np.isfinite(score)
    if bad_score.any():
        i = int(np.flatnonzero(bad_score)[0])
        raise StatsInputError(
            f"{label}, line {line[i]}, field 7 (score): {fixed['score'].iloc[i]!r} is not a "
            "finite number"
        )
    check_value_range(score, "score (field 7)", label, line)
    end = cols.end
    doc_rows = np.zeros(len(line), dtype=bool)
    if layout == "wmt22-doc":
        flag = (pd.Series(cols.flag, copy=False) if isinstance(cols.flag, pd.Categorical)
                else pd.Series(cols.flag, dtype=object))
        codes, uniques = pd.factorize(flag)
        lowered = np.array([u.strip().lower() for u in uniques], dtype=object)
        odd = ~np.isin(lowered, _BOOL)[codes]
        if odd.any():
            i = int(np.flatnonzero(odd)[0])
            raise StatsInputError(
                f"{label}, line {line[i]}, field 9 (isDocScore): {flag.iloc[i]!r} is not True "
                "or False (or 1 or 0)"
            )
        doc_rows = np.isin(lowered, _TRUE)[codes]
    spans = cols.spans
    # string work on each distinct value, not on each row (no new string per row)
    src_codes, src_u = pd.factorize(fixed["src"])
    tgt_codes, tgt_u = pd.factorize(fixed["tgt"])
    pair_codes, pair_u = pd.factorize(src_codes.astype(np.int64) * len(tgt_u) + tgt_codes)
    sys_codes, sys_u = pd.factorize(fixed["system"])
    sys_names = pd.Series(sys_u, dtype=object)
    short = sys_names.str.extract(_OUTPUT_NAME, expand=False)
    notes = []
    if short.notna().any():
        # one name per (language pair, system): shortened unless two would become one
        combo = pd.unique(pair_codes.astype(np.int64) * len(sys_u) + sys_codes)
        p, k = combo // len(sys_u), combo % len(sys_u)
        raw_lp = np.array([f"{src_u[q // len(tgt_u)]}-{tgt_u[q % len(tgt_u)]}" for q in pair_u],
                          dtype=object)  # fmt: skip
        names = pd.DataFrame({"lp": raw_lp[p], "full": sys_names.to_numpy()[k],
                              "short": short.fillna(sys_names).to_numpy()[k]})  # fmt: skip
        if not names.duplicated(["lp", "short"]).any():
            sys_names = short.fillna(sys_names)
            changed = names[names["full"] != names["short"]]
            notes.append(
                f"{len(changed)} system names shortened to the name the findings print "
                f"({changed['full'].iloc[0]} -> {changed['short'].iloc[0]})"
            )
    two_src = _two_letter(pd.Series(src_u, dtype=object)).to_numpy()
    two_tgt = _two_letter(pd.Series(tgt_u, dtype=object)).to_numpy()
    shared: dict[str, str] = {}
    lp_u = np.array(
        [shared.setdefault(x, x) for x in
         (f"{two_src[q // len(tgt_u)]}-{two_tgt[q % len(tgt_u)]}" for q in pair_u)],
        dtype=object,
    )  # fmt: skip
    del src_codes, tgt_codes
    dropped: dict[str, int] = {}
    qc = _per_value(fixed["type"], lambda t: t.upper() != "TGT")
    dropped["quality-control items (type not TGT)"] = int(qc.sum())
    doc_codes, doc_u = pd.factorize(fixed["document"])
    doc_low = [d.lower() for d in doc_u]
    tutorial = np.array(["tutorial" in d for d in doc_low], dtype=bool)[doc_codes] & ~qc
    dropped["tutorial rows"] = int(tutorial.sum())
    marked = np.zeros(len(line), dtype=bool)
    for mark in _MARKED:
        marked |= np.array([mark in d for d in doc_low], dtype=bool)[doc_codes]
    del doc_codes
    marked &= ~(qc | tutorial)
    dropped["#incomplete/#dup rows"] = int(marked.sum())
    keep = ~(qc | tutorial | marked)
    # (two raw names may become one: codes of the distinct final names)
    sys_to, sys_final = pd.factorize(sys_names.to_numpy(dtype=object))
    lp_to, lp_final = pd.factorize(lp_u)

    def rows(mask: np.ndarray) -> pd.DataFrame:
        """The ratings of the rows in ``mask`` (each column made for those rows only)."""
        every = bool(mask.all())

        def pick(values):
            return values if every else values[mask]

        return pd.DataFrame(
            {
                "lp": _strings(pd.Series(pd.Categorical.from_codes(
                    lp_to[pick(pair_codes)], lp_final))),
                "domain": NO_DOMAIN,
                "system": _strings(pd.Series(pd.Categorical.from_codes(
                    sys_to[pick(sys_codes)], sys_final))),
                "document": _strings(pick(fixed["document"])),
                "segment": _strings(pick(fixed["segment"])),
                "rater": _strings(pick(fixed["user"])),
                "score": pick(score),
                LINE: pick(line),
                # (the end times order repeated judgements: the general layout only)
                **({"_end": pick(end)} if layout == "general" else {}),
            }
        )

    documents = None
    if layout == "wmt22-doc":
        documents = rows(keep & doc_rows).reset_index(drop=True)
        keep &= ~doc_rows
    frame = rows(keep)
    fixed.clear()
    # repeated judgements: the last by end time (file order breaks ties; NaN times sort first)
    # (WMT22's make_rankings.py keeps every judgement: the segment mean takes them all)
    kept = np.ones(len(frame), dtype=bool)
    if layout == "general":  # positions, not sorted copies of the table
        n = len(frame)
        order = np.lexsort((np.arange(n), frame["_end"].fillna(-np.inf).to_numpy()))
        codes = _key_codes(frame, ["lp", "system", "document", "segment", "rater"])
        _, last_rev = np.unique(codes[order][::-1], return_index=True)
        kept[:] = False
        kept[order[n - 1 - last_rev]] = True  # the last of each key in that order
        del order, codes
    dropped["repeated judgements (kept the last)"] = len(kept) - int(kept.sum())
    frame = (frame if kept.all() else frame[kept]).drop(columns=["_end"], errors="ignore")
    frame = frame.reset_index(drop=True)
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


def _strings(column: pd.Series):
    """A column of strings for the ratings: pyarrow strings built from the categories of a
    column read by :func:`_typed_columns` (no Python string per row), else the objects."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        return strings(column.array).array
    return column.to_numpy(dtype=object)


def _key_codes(frame: pd.DataFrame, key: list[str]) -> np.ndarray:
    """One int64 code per row, equal where every column of ``key`` is equal."""
    codes = np.zeros(len(frame), dtype=np.int64)
    size = 1
    for col in key:
        k, n_unique = factorize_strings(frame[col])
        if size * n_unique >= 2**62:  # renumber before the product could overflow
            codes, seen = pd.factorize(codes)
            size = len(seen)
        codes = codes * n_unique + k
        size *= n_unique
    return codes


def _per_value(column: pd.Series, test) -> np.ndarray:
    """``test`` of each row's value, computed once per distinct value."""
    codes, uniques = pd.factorize(column)
    return np.array([bool(test(u)) for u in uniques], dtype=bool)[codes]


#: a row's end as :class:`io.StringIO` with ``newline=""`` ends it (``\r``, ``\n`` or
#: ``\r\n``), the line kept with its end
_ROW_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def _lines(text: str):
    """The lines of ``text`` as iterating over ``io.StringIO(text, newline="")`` gives them,
    without that copy of the whole text (4 bytes a character)."""
    for match in _ROW_LINE.finditer(text):
        yield match.group()


@dataclass
class _Columns:
    """An export read column by column: the first eight fields (stripped; repeated values
    shared), each row's line, end time and (DocLvl) isDocScore field; the layout."""

    fields: list
    line: np.ndarray
    end: np.ndarray
    flag: list
    spans: bool
    layout: str
    width: int


def _parse_columns(text: str, label: str) -> _Columns:
    """Rows of an export, checked and split into columns (no list of fields per row)."""
    columns: list[list[str]] = [[] for _ in _FIXED]
    shared: dict[str, str] = {}
    lines = array.array("q")
    ends = array.array("d")
    flag: list[str] = []
    spans = header = False
    layout, width, seg = "", 0, False
    bad: tuple[int, int] | None = None  # (line, fields) of the first row of another width
    reader = csv.reader(_lines(text))
    try:
        for row in reader:
            if not row or not any(f.strip() for f in row):
                continue
            if not lines and not header and _is_header(row):
                header = True  # a header line: skipped
                continue
            if len(row) < 8:
                raise StatsInputError(
                    f"{label}, line {reader.line_num}: {len(row)} field(s); an Appraise export "
                    "row has at least 8 (user, system, segment, type, source language, target "
                    "language, score, document, ...)"
                )
            if not lines:
                layout, width = _layout(row), len(row)
                seg = layout == "wmt22-seg"
                if layout != "general":
                    check_parse_memory(len(text), label, PARSE_MEMORY_FACTORS["appraise-wmt22-lines"])
            n = len(row)
            if layout != "general" and n != width and bad is None:
                bad = (reader.line_num, n)
            for j in range(8):
                f = "" if seg and j == 7 else row[j].strip()
                columns[j].append(shared.setdefault(f, f))
            last = row[-1].strip()
            ends.append(float(last) if n >= (9 if layout != "general" else 10)
                        and _number(last) else np.nan)  # fmt: skip
            if layout == "wmt22-doc":
                f = row[8] if n > 8 else ""
                flag.append(shared.setdefault(f, f))
            elif layout == "general" and not spans and n > 8:
                spans = any(_SPANS.match(f) for f in row[8:])
            lines.append(reader.line_num)
    except csv.Error as exc:
        raise StatsInputError(f"{label}, line {reader.line_num}: not CSV ({exc})") from None
    if not lines:
        raise StatsInputError(f"{label}: no judgements (an empty Appraise export)")
    if bad is not None:
        raise StatsInputError(
            f"{label}, line {bad[0]}: {bad[1]} fields; this file's first row has {width} "
            f"({_LAYOUTS[layout]})"
        )
    return _Columns(
        fields=columns, line=np.frombuffer(lines, dtype=np.int64).copy(),
        end=np.frombuffer(ends, dtype=float).copy(), flag=flag, spans=spans, layout=layout,
        width=width,
    )  # fmt: skip


def _typed_columns(text: str) -> _Columns | None:
    """A WMT22-23 DA+SQM export (9 or 11 fields on every row) read by pyarrow's CSV parser
    (:mod:`._arrow`): each field a dictionary-encoded column, its distinct values stripped
    once, end times as numbers. None for anything else (the general layout, a blank or
    ragged line, a quoted field, a time that is not a number), which :func:`_parse_columns`
    reads line by line and names."""
    import pyarrow as pa

    if not plain_breaks(text) or "\r" in text or '"' in text:
        return None  # (quoted fields: csv's rules, line by line)
    head = [ln for ln in re.split(r"\n", text[:65536], maxsplit=3)[:3]]
    try:
        rows = list(csv.reader(head[:2]))
    except csv.Error:
        return None
    if len(rows) < 2 or not rows[0] or not rows[1]:
        return None
    header = _is_header(rows[0])
    row = rows[1] if header else rows[0]
    if len(row) < 8 or not _TYPE.match(row[3].strip()):
        return None
    layout = _layout(row)
    if layout == "general":
        return None
    width = len(row)
    names = [f"f{i}" for i in range(width)]
    types = {c: "dict" for c in names}
    types[names[-1]] = "float64"  # the end time
    include = [*names[:7], *names[7:9]] if layout == "wmt22-doc" else names[:7]
    include = [*include, names[-1]]
    from pyarrow import csv as pacsv

    try:
        table = pacsv.read_csv(
            TextStream(text),
            read_options=pacsv.ReadOptions(column_names=names, skip_rows=int(header),
                                           block_size=BLOCK, use_threads=False),
            parse_options=pacsv.ParseOptions(delimiter=",", quote_char=False,
                                             ignore_empty_lines=False),
            convert_options=pacsv.ConvertOptions(
                column_types={c: _pa_type(types[c]) for c in include}, include_columns=include,
                null_values=[], strings_can_be_null=False, quoted_strings_can_be_null=False,
            ),
            memory_pool=pa.system_memory_pool(),
        )
    except (pa.ArrowException, ValueError):
        return None
    lines = text.count("\n") + (not text.endswith("\n"))
    if not table.num_rows or table.num_rows + int(header) != lines:
        return None  # every line a row: the line numbers follow
    end = table.column(names[-1]).to_numpy()
    fields = []
    for c in names[: 8 if layout == "wmt22-doc" else 7]:  # each column let go once converted
        fields.append(map_categories(categorical(table.column(c)), str.strip))
        table = table.drop_columns([c])
    if layout == "wmt22-doc":
        flag = categorical(table.column(names[8]))
    else:  # no document: empty, as the line-by-line reader makes it
        fields.append(pd.Categorical.from_codes(np.zeros(table.num_rows, dtype=np.int8),
                                                categories=[""]))
        flag = []
    del table
    if not np.isfinite(end).all():
        return None
    start = 1 + int(header)
    return _Columns(
        fields=fields, line=np.arange(start, start + len(end), dtype=np.int64), end=end,
        flag=flag, spans=False, layout=layout, width=width,
    )  # fmt: skip


def _layout(row: list[str]) -> str:
    """``'wmt22-seg'`` (9 fields, the last two times), ``'wmt22-doc'`` (11 fields, field 9
    isDocScore) or ``'general'``."""
    f = [x.strip() for x in row]
    if len(f) == 9 and _number(f[7]) and _number(f[8]):
        return "wmt22-seg"
    if len(f) == 11 and f[8].lower() in _BOOL and _number(f[9]) and _number(f[10]):
        return "wmt22-doc"
    return "general"
