"""Readers for the WMT20-24 quality-estimation (QE) sentence-level files, as the tasks publish
them.

Submissions
    Optionally three header lines (disk footprint, number of parameters -- free text is
    allowed there --, ensemble size; WMT21 has the first two only), then tab-separated rows::

        LP  METHOD  SEGMENT_NUMBER  SCORE

    Any number of language pairs and methods per file. The header is recognised by content:
    up to three leading lines that are not such rows (the WMT23 files lack it in places).
    A folder or a zip/tar archive stands for every file inside (team folders included).
Submissions folder (WMT23, as published)
    ``<team>/<lp>/predictions.txt`` per language pair, ``<team>/multilingual/predictions.txt``
    for one model of all pairs, ``<team>/predictions.txt``, ``<team>/metadata.txt``; given as
    a folder, one zip per team, one zip of the whole folder, or uploaded files with their
    relative paths. Systems are labelled ``team/method`` (``team/multilingual/method``): a
    method across a team's per-pair files is one submission, its multilingual file another;
    an item two files of one submission repeat with the same score is read once (noted).
    Empty files and files of header lines only (no tab) are skipped and named in the notes;
    ``metadata*``/``readme*`` files are left out.
Gold labels
    The task's ``lp gold sid score`` TSV (one header line, ``METHOD`` usually ``gold``); a score
    that reads ``hallucination`` (any case) marks an item left out of the correlations, as
    the WMT23 scoring program does. Also the training/dev TSVs with a ``z_mean`` (preferred)
    or ``mean`` column, or (WMT22-23) a ``score`` column; their ids are an
    ``index``/``segid``/``sid`` column or the row number from 0, their language pair an ``lp``
    column or the ``xx-yy`` in the file name.
Exclude index
    ``lp<TAB>sid`` per line (an optional header; further columns ignored, as the WMT23
    word-level index has four): items left out, as the tasks' hallucination index.

Segment ids are strings; integer ids are normalised (``"007"`` -> ``"7"``). Language pairs
are lower-cased. Every error is one :class:`~stats.StatsInputError` line naming the file and
line.
"""

from __future__ import annotations

import array
import itertools
import math
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats._core.budget import MAX_SYSTEMS
from stats._core.errors import StatsInputError
from stats._core.numbers import number_error

from ._archives import expand_sources
from ._arrow import (
    LARGE_BLOCK,
    TextStream,
    categorical,
    finite_within_bound,
    hexadecimal,
    map_categories,
    not_numbers,
    plain_breaks,
    plain_bytes,
    read_typed,
    strings,
)
from ._common import (
    PARSE_MEMORY_FACTORS,
    Decoded,
    Source,
    check_header_once,
    check_parse_memory,
    decode,
    decode_plain_fast,
    factorize_strings,
    is_finite_number,
    iter_splitlines,
    load_bytes,
    load_text,
    mix_codes,
    source_name,
    strict_float,
)
from ._limits import MAX_ABS_VALUE, check_value, overflows

__all__ = [
    "QESubmissions",
    "QEGold",
    "read_qe_submissions",
    "read_qe_wmt_gold",
    "read_qe_exclude",
    "is_qe_wmt_submission",
    "qe_wmt_file_kind",
    "is_submission_metadata",
    "skip_reason",
    "load_text_or_empty",
    "submission_origin",
    "system_label",
]

HALLUCINATION = "hallucination"
_LP = re.compile(r"(?<![a-z])([a-z]{2,3})[-_]([a-z]{2,3})(?![a-z])")
_HEADER_LINES = 3
#: what the LP field of a submission looks like (tells it from the WMT14 layout
#: METHOD SEGMENT SCORE RANK, which also has four fields)
_LP_FIELD = re.compile(r"\s*([A-Za-z]{2,3}[-_][A-Za-z]{2,3}|multilingual|all)\s*", re.I)


@dataclass(frozen=True, kw_only=True)
class QESubmissions:
    """Sentence-level QE predictions read from WMT submission files.

    Attributes
    ----------
    scores : DataFrame
        Long table ``lp, system, sid, score`` (one row per prediction).
    headers : dict
        ``{system: {"file", "disk_footprint", "parameters", "ensemble"}}`` (None where the file
        has no header).
    files : tuple of str
    system_files : dict
        ``{system: (file, ...)}``: the files each submission's predictions come from. More
        than one: a method pooled over separately submitted files (a team's per-pair files),
        which the task scored one by one.
    """

    scores: pd.DataFrame
    headers: dict = field(default_factory=dict)
    files: tuple = ()
    skipped: tuple = ()
    notes: tuple = ()
    system_files: dict = field(default_factory=dict)

    @property
    def language_pairs(self) -> list[str]:
        return sorted(self.scores["lp"].unique())

    @property
    def systems(self) -> list[str]:
        return sorted(self.scores["system"].unique())

    @property
    def read_as(self) -> str:
        """What the files were read as, in one line (CLI stderr, JSON ``read_as``, the page's
        caption): teams, submissions, language pairs, files, skipped files."""
        s = self.scores
        systems = s["system"].unique()
        teams = s["team"].dropna().unique() if "team" in s else []
        multi = sum(1 for x in systems if f"/{MULTILINGUAL}/" in f"/{x}")
        lps = s["lp"].nunique()
        text = f"read as WMT QE sentence-level submissions, {_n(len(self.files), 'file')}: "
        if len(teams):
            text += f"{_n(len(teams), 'team')}, "
        else:
            text += "no team folders in the names (systems named by method), "
        text += f"{_n(len(systems), 'submission')}"
        if multi:
            text += f" ({multi} multilingual)"
        text += f", {_n(lps, 'language pair')}"
        if self.skipped:
            empty = sum(1 for _, w in self.skipped if w == "empty")
            other = len(self.skipped) - empty
            parts = ([_n(empty, "empty file")] if empty else []) + (
                [_n(other, "file") + " of header lines only"] if other else []
            )
            text += f"; {' and '.join(parts)} skipped"
        return text


def _n(k: int, word: str) -> str:
    return f"{k:,} {word}{'' if k == 1 else 's'}"


@dataclass(frozen=True, kw_only=True)
class QEGold:
    """Gold labels: ``labels`` is a long table ``lp, sid, score, hallucination`` (score NaN
    where the item is marked ``hallucination``); ``file`` its display name."""

    labels: pd.DataFrame
    file: str = ""
    layout: str = ""

    @property
    def read_as(self) -> str:
        """What the gold file was read as, in one line."""
        lab = self.labels
        marked = int(lab["hallucination"].sum())
        return (
            f"read {self.file} as WMT QE gold labels ({self.layout or 'lp gold segid score'}): "
            f"{_n(len(lab), 'item')}, {_n(lab['lp'].nunique(), 'language pair')}"
            + (f", {marked:,} marked hallucination" if marked else "")
        )


def is_submission_metadata(label: str) -> bool:
    """True for the ``metadata.txt`` (team name, method description) or README that WMT QE
    submission folders and zips hold beside the predictions: left out of the scores."""
    base = re.split(r"[/\\:]", label.lower())[-1]
    return base.startswith(("metadata", "readme"))


def _norm_sid(value: str) -> str:
    v = value.strip()
    number = re.fullmatch(r"([+-]?)(\d+)", v)
    if number:  # str(int(v)) without int(): a 5,000-digit id is past int()'s digit limit
        sign, digits = number.group(1), number.group(2).lstrip("0") or "0"
        return "-" + digits if sign == "-" and digits != "0" else digits
    return v


def _is_float(text: str) -> bool:
    return is_finite_number(text)


def _rows(text: str) -> list[str]:
    return text.splitlines()


def _row_like(line: str) -> bool:
    parts = line.rstrip("\r\n").split("\t")
    return len(parts) == 4 and bool(re.fullmatch(r"\s*[+-]?\d+\s*", parts[2]))


def _header_count(lines: list[str]) -> int:
    """Leading lines that are not rows (at most three: the submission header); a row with a
    bad score is a row, so that its error names it."""
    k = 0
    while k < len(lines) and k <= _HEADER_LINES and not _row_like(lines[k]):
        k += 1
    return k


def qe_wmt_file_kind(text: str) -> str | None:
    """``'submission'``, ``'gold'``, ``'gold-table'`` (train/dev TSV), ``'exclude'`` or None,
    told from the first lines of a decoded file."""
    lines = [ln for ln in itertools.islice(iter_splitlines(text), 50) if ln.strip()]
    if not lines:
        return None
    head = [h.strip().lower() for h in lines[0].split("\t")]
    if {"metric", "sid", "score", "human"} <= set(head):  # Graham 2015's layout (stats.readers.qe)
        return None
    if len(head) > 2 and ("z_mean" in head or "mean" in head):
        return "gold-table"
    k = _header_count(lines)
    body = lines[k:]
    # rows with a bad score still make a submission: its reader names the line
    if (
        k <= _HEADER_LINES
        and body
        and all(_row_like(ln) and _LP_FIELD.fullmatch(ln.split("\t")[0]) for ln in body[:20])
    ):
        methods = {ln.split("\t")[1].strip().lower() for ln in body[:20]}
        hallu = any(
            (ln.split("\t") + [""] * 4)[3].strip().lower() == HALLUCINATION for ln in body[:50]
        )
        if hallu or methods == {"gold"} or (k == 1 and "gold" in head):
            return "gold"
        return "submission"
    two = [ln.split("\t") for ln in lines[1:20]] if len(lines) > 1 else []
    if two and all(len(p) in (2, 4) and re.fullmatch(r"\s*\d+\s*", p[1]) for p in two):
        return "exclude"
    if len(head) > 2 and "score" in head:  # WMT22-23 training/dev TSVs (lp, src, mt, score...)
        return "gold-table"
    return None


def is_qe_wmt_submission(text: str) -> bool:
    """True when ``text`` is a WMT20-24 sentence-level submission (or gold in that layout)."""
    return qe_wmt_file_kind(text) in ("submission", "gold")


#: rows parsed into Python lists before they become compact columns (bounds the memory of
#: the per-row Python strings to one chunk)
_CHUNK_ROWS = 1 << 16


def _parse_rows(lines, start: int, label: str, *, gold: bool):
    """Columns LP, METHOD, SEGMENT_NUMBER (as :class:`pandas.Series` of strings, built a
    chunk of rows at a time; repeated LP and METHOD values shared), SCORE, the
    hallucination marks of ``lines`` (an iterable, line ``start`` first, numbered from 0),
    and the segment numbers as int64 when every one is an integer (else None)."""
    lp: list[str] = []
    method: list[str] = []
    sid: list[str] = []
    chunks: tuple[list, list, list] = ([], [], [])
    score = array.array("d")
    hallu = bytearray()
    ids = array.array("q")  # the segment numbers as integers, while every one is
    numeric = True
    shared: dict[str, str] = {}
    for i, line in enumerate(lines, start):
        if not line.strip():
            continue
        parts = line.rstrip("\r\n").split("\t")
        if len(parts) != 4:
            raise StatsInputError(
                f"{label}, line {i + 1}: expected 4 tab-separated fields LP METHOD "
                f"SEGMENT_NUMBER SCORE; got {len(parts)}"
            )
        if not re.fullmatch(r"\s*[+-]?\d+\s*", parts[2]) and not parts[2].strip():
            raise StatsInputError(f"{label}, line {i + 1}: empty segment number")
        s = parts[3].strip()
        if s.lower() == HALLUCINATION:
            if not gold:
                raise StatsInputError(
                    f"{label}, line {i + 1}: score {s!r} in a submission (only gold files "
                    "mark hallucinations)"
                )
            value, h = np.nan, True
        else:
            try:
                value = strict_float(s)
            except ValueError:
                raise StatsInputError(
                    f"{label}, line {i + 1}: score is not a number: {s!r}"
                ) from None
            _check_score(value, s, "SCORE", label, i + 1)
            h = False
        for column, value_ in ((lp, parts[0].strip().lower()), (method, parts[1].strip())):
            column.append(shared.setdefault(value_, value_))
        sid.append(_norm_sid(parts[2]))  # one per row: not worth a shared entry
        if numeric:
            numeric = _INT_ID.fullmatch(sid[-1]) is not None
            ids.append(int(sid[-1]) if numeric else 0)
        score.append(value)
        hallu.append(h)
        if len(sid) == _CHUNK_ROWS:
            for chunk, column in zip(chunks, (lp, method, sid), strict=True):
                chunk.append(_strings(column))
    for chunk, column in zip(chunks, (lp, method, sid), strict=True):
        if column or not chunk:
            chunk.append(_strings(column))
    lp_, method_, sid_ = (c[0] if len(c) == 1 else pd.concat(c, ignore_index=True) for c in chunks)
    return (
        lp_,
        method_,
        sid_,
        np.frombuffer(score, dtype=float).copy(),
        np.frombuffer(hallu, dtype=np.uint8).astype(bool),
        np.frombuffer(ids, dtype=np.int64).copy() if numeric else None,
    )


_INTEGER = re.compile(r"[+-]?\d+", re.ASCII)
#: a normalised integer segment number that fits in int64 (equal numbers, equal texts)
_INT_ID = re.compile(r"-?\d{1,18}")


def _strings(values: list) -> pd.Series:
    """``values`` as a column of strings (the dtype pandas gives a list of strings: compact
    ``str`` on pandas 3), the list emptied."""
    out = np.empty(len(values), dtype=object)
    out[:] = values
    values.clear()
    return pd.Series(out)


def _check_score(value: float, raw: str, column: str, label: str, line: int) -> None:
    """Refuse a score that is NaN, infinite, overflows a float or lies beyond
    :data:`~._limits.MAX_ABS_VALUE` (the shared limits), naming file, line and column."""
    if not math.isfinite(value):
        why = "overflows a 64-bit float" if overflows(raw) else "is not finite"
        raise StatsInputError(f"{label}, line {line}, column {column}: score {why}: {raw!r}")
    check_value(value, column, label, line)


def _check_unique(
    frame: pd.DataFrame, keys: list[str], label: str, ids: np.ndarray | None = None
) -> None:
    """Refuse an item (``keys``) twice. ``ids``: the last key's values as integers, when
    every one is (equal integers, equal normalised ids)."""
    # the keys as one integer code per row, sorted: a repeat is two equal neighbours (no hash
    # table of every row's strings); the exact check below runs only when one is found
    codes = np.zeros(len(frame), dtype=np.int64)
    size = 1
    if ids is not None and len(ids):
        low = int(ids.min())
        span = int(ids.max()) - low + 1
    for j, key in enumerate(keys):
        if j == len(keys) - 1 and ids is not None and len(ids) and size * span < 2**62:
            codes *= span
            codes += ids
            codes -= low
            break
        k, n_unique = _key_codes(frame[key])
        if n_unique == 1:  # (one value: the codes as they are)
            continue
        codes, size = mix_codes(codes, size, k, n_unique)
        del k
    if (codes[1:] > codes[:-1]).all():  # in order, as a file's rows usually are: no sort
        return
    codes.sort()
    if not (codes[1:] == codes[:-1]).any():
        return
    del codes
    dup = frame.duplicated(keys)
    if dup.any():
        row = frame[dup].iloc[0]
        what = ", ".join(f"{k} {row[k]!r}" for k in keys)
        raise StatsInputError(f"{label}: the same item twice ({what})")


def _key_codes(column: pd.Series) -> tuple[np.ndarray, int]:
    """:func:`~._common.factorize_strings` of a key column; a Categorical without a missing
    cell (a column read by columns) coded by its own codes, each category a value."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = np.asarray(column.array.codes)
        if not len(codes) or codes.min() >= 0:
            if len(column.cat.categories) == 1:
                return np.zeros(0, dtype=np.int64), 1  # (unused: one value)
            return codes.astype(np.int64), len(column.cat.categories)
    return factorize_strings(column)


def _read_one_submission(
    text: str, label: str, data: bytes | None = None
) -> tuple[pd.DataFrame, dict]:
    """One submission file's rows and header. ``data``: the file's bytes when it is plain
    ASCII (:func:`_load_submission`), ``text`` then its first lines only."""
    check_parse_memory(len(text) if data is None else len(data), label)
    rest = iter_splitlines(text)
    lines = list(itertools.islice(rest, _HEADER_LINES + 1))  # the header, if any
    k = _header_count(lines)
    if k > _HEADER_LINES:
        raise StatsInputError(
            f"{label}: not a WMT QE submission (after at most 3 header lines, rows LP<TAB>"
            f"METHOD<TAB>SEGMENT_NUMBER<TAB>SCORE); line {k} reads {lines[k - 1][:60]!r}"
        )
    header = [ln.strip() for ln in lines[:k]]
    typed = _typed_rows(text, k, lines, data)
    if typed is not None:  # a plain file, read by columns
        lp, method, sid, score, ids = typed
    else:  # read line by line: the first bad line is named
        if data is not None:  # (the whole text, its first lines read again)
            text, data = data.decode("ascii"), None
            rest = iter_splitlines(text)
            lines = list(itertools.islice(rest, _HEADER_LINES + 1))
        _raise_first_bad_row(text, k, label)  # found by columns when the file is plain
        check_parse_memory(len(text), label, PARSE_MEMORY_FACTORS["qe-lines"])
        rows = itertools.chain(lines[k:], rest)
        lp, method, sid, score, _, ids = _parse_rows(rows, k, label, gold=False)
    if not len(lp):
        raise StatsInputError(f"{label}: no prediction rows")
    frame = pd.DataFrame({"lp": lp, "system": method, "sid": sid, "score": score}, copy=False)
    del lp, method, sid
    _check_unique(frame, ["lp", "system", "sid"], label, ids)
    del ids
    meta = {
        "file": label,
        "disk_footprint": header[0] if k >= 2 else None,  # WMT21: two lines, no ensemble
        "parameters": header[1] if k >= 2 else None,
        "ensemble": header[2] if k == 3 else None,
    }
    return frame, meta


def _raise_first_bad_row(text: str, k: int, label: str) -> None:
    """A plain submission that :func:`_typed_rows` refused for a value (a score that is not a
    number, or beyond the input bound; an empty segment number): its rows read by columns as
    strings, the first such row found by the number rule, and that one line read by
    :func:`_parse_rows`, which raises its error. Returns (the caller then reads every line)
    when the file is not plain or no row is found, or that line reads after all."""
    if not plain_breaks(text):
        return
    table = read_typed(TextStream(text), ["lp", "method", "sid", "score"],
                       dict.fromkeys(["lp", "method", "sid", "score"], "str"), skip_rows=k,
                       include=["sid", "score"], blank_lines=False)  # fmt: skip
    if table is None or not table.num_rows:
        return
    import pyarrow.compute as pc

    bad = not_numbers(table.column("score"), MAX_ABS_VALUE)
    empty = pc.equal(pc.utf8_trim_whitespace(table.column("sid")), "")
    bad |= np.asarray(empty.to_numpy(zero_copy_only=False), dtype=bool)
    del table
    if not bad.any():
        return
    r = int(np.flatnonzero(bad)[0])
    start = 0
    for _ in range(k + r):  # the offset of line k + r (every line a row from line k on)
        start = text.index("\n", start) + 1
    end = text.find("\n", start)
    _parse_rows([text[start : None if end < 0 else end]], k + r, label, gold=False)


def _typed_rows(text: str, k: int, lines: list, data: bytes | None = None):
    """The rows of a plain submission (after its ``k`` header lines) read by pyarrow's typed
    parser (:mod:`._arrow`): LP and METHOD as strings built from each distinct value (stripped,
    LP lower-cased, as :func:`_parse_rows`), segment numbers as integers, scores finite within
    the input bound; None for anything else (a blank or ragged line, a segment number that is
    not an integer, a score that is not a plain number), which :func:`_parse_rows` then reads
    line by line and names. ``data``: the file's plain ASCII bytes (:func:`_load_submission`),
    parsed in place by pyarrow's threads (``text`` its first lines only)."""
    if any(not ln.strip() for ln in lines[:k]):
        return None
    if data is None and not plain_breaks(text):
        return None
    # pyarrow reads 0x10 as 16: the careful path keeps it
    if hexadecimal(text if data is None else data):
        return None

    names = ["lp", "method", "sid", "score"]
    types = {"lp": "dict", "method": "dict", "sid": "large", "score": "float64"}
    if data is None:
        table = read_typed(TextStream(text), names, types, skip_rows=k)
    else:
        table = read_typed(data, names, types, skip_rows=k, block=LARGE_BLOCK, threads=True)
    if table is None or not table.num_rows or any(table.column(c).null_count for c in names):
        return None
    score = table.column("score").to_numpy()
    with np.errstate(invalid="ignore"):
        if not finite_within_bound(score):
            return None
    found = _integer_sids(table.column("sid").combine_chunks())
    table = table.select(["lp", "method"])  # each column let go once converted
    if found is None:
        return None
    ids, spelled = found
    sid = pd.Series(pd.array(spelled, dtype=pd.StringDtype("pyarrow", na_value=np.nan)),
                    copy=False)
    del spelled
    lp = map_categories(categorical(table.column("lp")), lambda v: v.strip().lower())
    table = table.select(["method"])
    method = map_categories(categorical(table.column("method")), str.strip)
    del table
    # (LP and METHOD stay categories until the system labels are made: strings once)
    return lp, method, sid, score, ids


def _integer_sids(cells):
    """``(numbers, spelled)`` of a pyarrow column of segment numbers (large strings) when
    each is an integer (its spaces stripped), as int64 and as :func:`_norm_sid` spells them
    (the cells themselves when each is spelled so: no sign but a minus, no leading zero);
    None otherwise."""
    import pyarrow as pa
    import pyarrow.compute as pc

    pool = pa.system_memory_pool()
    try:
        numbers = pc.cast(cells, pa.int64(), memory_pool=pool)
        spelled_so = (
            pc.sum(pc.starts_with(cells, "0")).as_py() == pc.sum(pc.equal(cells, "0")).as_py()
            and not pc.any(pc.starts_with(cells, "-0")).as_py()
        )  # ("0" itself the only cell that starts with a zero, none "-0...")
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        try:
            numbers = pc.cast(pc.utf8_trim_whitespace(cells), pa.int64(), memory_pool=pool)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return None
        spelled_so = False
    spelled = cells if spelled_so else numbers.cast(pa.large_string(), memory_pool=pool)
    return numbers.to_numpy(), spelled


#: lines of a plain file decoded to tell its kind (:func:`qe_wmt_file_kind` reads 50)
_HEAD_LINES = 64


def _load_submission(src, label: str) -> tuple[str, str, bytes | None]:
    """:func:`load_text_or_empty`, with the bytes of a plain ASCII file
    (:func:`~._arrow.plain_bytes`) holding a tab kept for its rows to be parsed in place:
    ``(text, label, bytes)``, the text then its first :data:`_HEAD_LINES` lines only (all
    that tells the file's kind, skip reason and header); ``bytes`` None otherwise (the text
    whole)."""
    if isinstance(src, Decoded):
        text, label = load_text(src, label)
        return text, label, None
    try:
        data, name = load_bytes(src, label)
    except StatsInputError as exc:
        if str(exc) != f"{source_name(src, label)}: file is empty":
            raise
        return "", source_name(src, label), None
    if not plain_bytes(data):
        return decode(data, name), name, None
    end = -1
    for _ in range(_HEAD_LINES):
        end = data.find(b"\n", end + 1)
        if end < 0:
            break
    head = data[: end + 1]
    if end < 0 or head.find(b"\t") < 0 or not data.isascii():
        return data.decode("utf-8"), name, None
    return head.decode("ascii"), name, data


#: most lines of a file without a single tab that is skipped as holding no prediction rows
#: (WMT23's ``test.txt`` beside a team's predictions repeats the header lines)
_ROWLESS_LINES = 20
_ARCHIVE_EXT = re.compile(r"\.(zip|tar|tgz|tar\.gz)$", re.I)
MULTILINGUAL = "multilingual"


def load_text_or_empty(src, label: str) -> tuple[str, str]:
    """:func:`~._common.load_text`, with an empty file as ``""`` (a submissions folder holds
    empty files: they are skipped and named, not refused)."""
    try:
        if isinstance(src, Decoded):
            return load_text(src, label)
        data, name = load_bytes(src, label)
    except StatsInputError as exc:
        if str(exc) != f"{source_name(src, label)}: file is empty":
            raise
        return "", source_name(src, label)
    return decode_plain_fast(data, name), name


def skip_reason(text: str) -> str | None:
    """Why a file of a submissions folder holds no submission: ``'empty'``, ``'header lines
    only, no prediction rows'`` (at most 20 lines, no tab, one of them a bare number as the
    header's sizes are), or None (read it). A file with a tab-separated line is always read,
    so that a bad row is named rather than skipped; other text is refused, not skipped."""
    if not text or text.isspace():  # (not text.strip(): a copy of the whole text)
        return "empty"
    if "\t" in text:
        return None
    # (no list of every line: the first 21 non-blank lines tell)
    lines = list(itertools.islice(filter(str.strip, iter_splitlines(text)), _ROWLESS_LINES + 1))
    if (
        len(lines) <= _ROWLESS_LINES
        and any(re.fullmatch(r"\s*\d[\d.,]*\s*", ln) for ln in lines)  # e.g. ensemble size
    ):
        return "header lines only, no prediction rows"
    return None


def submission_origin(label: str) -> tuple[str | None, bool]:
    """``(team, multilingual)`` of a submission file from its path, as the WMT23 QE
    submissions folder is laid out: ``<team>/<lp>/predictions.txt`` (one language pair),
    ``<team>/multilingual/predictions.txt`` (one model for all pairs), ``<team>/predictions.txt``;
    the team is the folder above the language-pair or ``multilingual`` folder, else the zip
    or tar the file came from (a team zip). None when the name has no folder."""
    parts = [p for p in re.split(r"[/\\:]", label) if p and p != "."]
    folders = parts[:-1]
    multilingual = False
    while folders and (
        folders[-1].lower() == MULTILINGUAL or _LP.fullmatch(folders[-1].lower()) is not None
    ):
        multilingual = multilingual or folders[-1].lower() == MULTILINGUAL
        folders.pop()
    if not folders:
        return None, multilingual
    return _ARCHIVE_EXT.sub("", folders[-1]) or None, multilingual


def system_label(team: str | None, multilingual: bool, method: str) -> str:
    """``team/method`` (``team/multilingual/method`` for a multilingual submission): the name
    a submission is shown and compared under, so that two teams' methods, and a team's
    multilingual and per-pair submissions, never mix."""
    parts = [team] if team else []
    if multilingual:
        parts.append(MULTILINGUAL)
    return "/".join([*parts, method])


def _merge(frames: list[tuple[str, pd.DataFrame]]) -> tuple[pd.DataFrame, list[str]]:
    """The rows of all files as one table: one method's predictions across several files of a
    team are one submission; an item two files give the same score is read once (noted), an
    item two files score differently is refused naming both files."""
    if not frames:
        return pd.DataFrame(columns=["lp", "system", "sid", "score"]), []
    if len(frames) == 1:  # one file: no item twice (checked when it was read)
        return frames[0][1], []
    files = [label for label, _ in frames]
    allrows = pd.concat([f.assign(_file=i) for i, (_, f) in enumerate(frames)], ignore_index=True)
    dup = allrows.duplicated(["lp", "system", "sid"], keep=False)
    if not dup.any():
        return allrows.drop(columns="_file"), []
    rows = allrows[dup]
    first = rows.groupby(["lp", "system", "sid"], sort=False)["score"].transform("first")
    differ = rows[rows["score"].ne(first)]
    if len(differ):
        bad = differ.iloc[0]
        same = rows[
            (rows["lp"] == bad["lp"])
            & (rows["system"] == bad["system"])
            & (rows["sid"] == bad["sid"])
        ]
        a, b = files[int(same["_file"].iloc[0])], files[int(bad["_file"])]
        raise StatsInputError(
            f"{b}: method {bad['system']!r} scores {bad['lp']} segment {bad['sid']} "
            f"{bad['score']:g}, {a} scores it {same['score'].iloc[0]:g}; one submission "
            "cannot hold two predictions of an item (remove one file, or rename the method "
            "in one)"
        )
    later = rows[rows.duplicated(["lp", "system", "sid"], keep="first")]
    firsts = rows.drop_duplicates(["lp", "system", "sid"], keep="first").set_index(
        ["lp", "system", "sid"]
    )["_file"]
    notes = []
    origin = firsts.reindex(pd.MultiIndex.from_frame(later[["lp", "system", "sid"]])).to_numpy()
    repeats = pd.DataFrame(
        {"system": later["system"].to_numpy(), "file": later["_file"].to_numpy(), "of": origin}
    )
    for (system, f), group in repeats.groupby(["system", "file"], sort=False):
        of = ", ".join(files[int(o)] for o in dict.fromkeys(group["of"]))
        notes.append(
            f"{files[int(f)]}: repeats {len(group):,} prediction(s) of {system!r} from {of} "
            "with the same scores; read once"
        )
    keep = ~allrows.duplicated(["lp", "system", "sid"], keep="first")
    return allrows[keep].drop(columns="_file").reset_index(drop=True), notes


def read_qe_submissions(sources, *, names=None) -> QESubmissions:
    """Read WMT20-24 sentence-level QE submissions (files, folders, zip/tar archives).

    The WMT23 submissions folder reads as published, in one go (module notes): each system
    is labelled ``team/method`` (:func:`system_label`, the team from the path,
    :func:`submission_origin`); one method across a team's per-pair files is one submission;
    a team's ``multilingual`` submission is another (``team/multilingual/method``); empty
    files and files of header lines only are skipped, each named in ``notes``.

    Parameters
    ----------
    sources : source or sequence of sources
        Paths (a folder: every ``.txt/.tsv/.csv/.score`` file below it), archives, bytes,
        uploads or ``(name, bytes)`` pairs.
    names : sequence of str, optional
        Display names, one per source.

    Returns
    -------
    QESubmissions

    Raises
    ------
    StatsInputError
        A file that is not a submission (a gold file among them is named as such), a row
        with other than four fields, a non-numeric score, the same (lp, method, segment)
        twice in a file, or scored differently by two files of one submission; no file with
        predictions.
    """
    if not isinstance(sources, (list, tuple)):
        sources = [sources]
        names = [names] if isinstance(names, str) else names
    frames: list[tuple[str, pd.DataFrame]] = []
    headers: dict[str, dict] = {}
    files: list[str] = []
    skipped: list[tuple[str, str]] = []
    system_files: dict[str, list[str]] = {}
    expanded = expand_sources(list(sources), names, listed=_TeamCount())
    _TeamCount().update(label for label, _ in expanded)
    for label, src in expanded:
        if is_submission_metadata(label):
            continue
        text, label, data = _load_submission(src, label)
        why = skip_reason(text)
        if why is not None:
            skipped.append((label, why))
            continue
        kind = qe_wmt_file_kind(text)
        if kind == "gold":
            raise StatsInputError(f"{label}: a gold-label file, not a submission (give it as gold)")
        frame, meta = _read_one_submission(text, label, data)
        del text, data
        team, multi = submission_origin(label)
        codes, methods = pd.factorize(frame["system"])  # one label per method, not per row
        labels = [system_label(team, multi, m) for m in methods]
        frame["system"] = strings(pd.Categorical.from_codes(codes, categories=labels))
        if isinstance(frame["lp"].dtype, pd.CategoricalDtype):  # (read by columns)
            frame["lp"] = strings(frame["lp"].array)
        # method and team as categories: a small code per row, not a string
        frame["method"] = pd.Categorical.from_codes(codes, categories=list(methods))
        frame["team"] = pd.Categorical.from_codes(
            np.full(len(frame), 0 if team else -1, dtype=np.int8), categories=[team] if team else []
        )
        del codes
        for system in labels:  # (each method's label, in order of first appearance)
            headers.setdefault(system, meta)
            system_files.setdefault(system, []).append(label)
        frames.append((label, frame))
        files.append(label)
    if not frames:
        what = "; ".join(f"{n} ({w})" for n, w in skipped)
        raise StatsInputError("no submission file given" + (f" (skipped: {what})" if what else ""))
    scores, notes = _merge(frames)
    notes = [f"{n}: {w}, skipped" for n, w in skipped] + notes
    return QESubmissions(
        scores=scores,
        headers=headers,
        files=tuple(files),
        skipped=tuple(skipped),
        notes=tuple(notes),
        system_files={k: tuple(v) for k, v in system_files.items()},
    )


class _TeamCount:
    """Refuses, from the names of the files alone (an archive's or a folder's listing, before
    any member is read), more submissions than :data:`~stats._core.budget.MAX_SYSTEMS`: each
    team folder (or team archive) holds at least one. Called with each name as the listing
    gives it (:func:`~._archives.expand_sources`'s ``listed``), or :meth:`update` with all."""

    def __init__(self):
        self.origins: set = set()

    def __call__(self, label: str) -> None:
        if is_submission_metadata(label):
            return
        team, multi = submission_origin(label)
        self.origins.add((team, multi) if team else None)
        if len(self.origins) > MAX_SYSTEMS:
            raise StatsInputError(
                f"QE submissions: more than {MAX_SYSTEMS:,} team folders (each at least one "
                f"submission; reached at {label}) is over the limit of {MAX_SYSTEMS:,} systems "
                "(counted from the file names, before the files are read); compare fewer "
                "submissions"
            )

    def update(self, labels) -> None:
        for label in labels:
            self(label)


def _lp_from_name(label: str) -> str | None:
    base = re.split(r"[/\\:]", label.lower())[-1]
    m = _LP.search(base)
    return f"{m.group(1)}-{m.group(2)}" if m else None


def _read_gold_table(text: str, label: str, lp: str | None) -> pd.DataFrame:
    # (line number in the file, line): blank lines skipped, messages still name the file's line
    numbered = [(i, ln) for i, ln in enumerate(_rows(text), start=1) if ln.strip()]
    lines = [ln for _, ln in numbered]
    head = [h.strip().lower() for h in lines[0].split("\t")]
    check_header_once(head, label, numbered[0][0])
    col = next(c for c in ("z_mean", "mean", "score") if c in head)
    j = head.index(col)
    id_col = next((c for c in ("index", "segid", "sid", "segment_id", "id") if c in head), None)
    lp_j = head.index("lp") if "lp" in head else None
    if lp_j is None:
        lp = lp or _lp_from_name(label)
        if lp is None:
            raise StatsInputError(
                f"{label}: no 'lp' column and no language pair (xx-yy) in the file name"
            )
    rows = []
    for row, (i, line) in enumerate(numbered[1:]):
        parts = line.split("\t")
        if len(parts) != len(head):
            raise StatsInputError(
                f"{label}, line {i}: expected {len(head)} tab-separated fields; got {len(parts)}"
            )
        s = parts[j].strip()
        hallu = s.lower() == HALLUCINATION
        try:
            value = np.nan if hallu else strict_float(s)
        except ValueError:
            raise StatsInputError(f"{label}, line {i}: {col} is not a number: {s!r}") from None
        if not hallu:
            _check_score(value, s, col, label, i)
        sid = _norm_sid(parts[head.index(id_col)]) if id_col else str(row)
        rows.append((parts[lp_j].strip().lower() if lp_j is not None else lp, sid, value, hallu))
    return pd.DataFrame(rows, columns=["lp", "sid", "score", "hallucination"])


def read_qe_wmt_gold(source: Source, *, name: str | None = None, lp: str | None = None) -> QEGold:
    """Read gold labels in a WMT QE layout (module notes): the ``lp gold sid score`` TSV with
    ``hallucination`` marks, or a training/dev TSV with ``z_mean``/``mean``.

    ``lp`` names the language pair of a training/dev TSV without an ``lp`` column (default:
    the ``xx-yy`` in its file name).

    Raises
    ------
    StatsInputError
        Not a gold file of these layouts; a bad row (file and line named); an item twice.
    """
    text, label = load_text(source, name)
    kind = qe_wmt_file_kind(text)
    if kind == "gold-table":
        frame = _read_gold_table(text, label, lp)
        head = [h.strip().lower() for h in text.lstrip().split("\n", 1)[0].split("\t")]
        layout = "train/dev TSV, column " + next(
            c for c in ("z_mean", "mean", "score") if c in head
        )
    elif kind in ("gold", "submission"):
        check_parse_memory(len(text), label)
        rest = iter_splitlines(text)
        lines = list(itertools.islice(rest, _HEADER_LINES + 1))
        k = _header_count(lines)
        lps, _, sid, score, hallu, _ = _parse_rows(
            itertools.chain(lines[k:], rest), k, label, gold=True
        )
        frame = pd.DataFrame({"lp": lps, "sid": sid, "score": score, "hallucination": hallu})
        layout = "lp gold segid score"
    else:
        raise StatsInputError(
            f"{label}: not a WMT QE gold file (rows LP<TAB>gold<TAB>SEGMENT_NUMBER<TAB>SCORE, "
            "or a TSV with a z_mean or mean column)"
        )
    if frame.empty:
        raise StatsInputError(f"{label}: no gold labels")
    _check_unique(frame, ["lp", "sid"], label)
    return QEGold(labels=frame, file=label, layout=layout)


def read_qe_exclude(source: Source, *, name: str | None = None) -> pd.DataFrame:
    """Read an index of items to leave out: ``lp<TAB>sid`` per line (optional header, further
    columns ignored). Returns a DataFrame ``lp, sid`` without duplicates.

    Raises
    ------
    StatsInputError
        A row with fewer than two fields or a non-integer segment number (file, line).
    """
    text, label = load_text(source, name)
    rows: list[tuple[str, str]] = []
    for i, line in enumerate(_rows(text), start=1):
        if not line.strip():
            continue
        parts = line.rstrip("\r\n").split("\t")
        if len(parts) < 2:
            parts = line.split()
        if len(parts) < 2:
            raise StatsInputError(f"{label}, line {i}: expected LP<TAB>SEGMENT_NUMBER")
        problem = number_error(parts[1], integer=True)  # the one rule (5_0, 0x10, 1e400...)
        if problem is not None:
            if i == 1 or not rows and all(not _INTEGER.fullmatch(p.strip()) for p in parts):
                continue  # header
            raise StatsInputError(f"{label}, line {i}: segment number {problem}")
        rows.append((parts[0].strip().lower(), _norm_sid(parts[1])))
    if not rows:
        raise StatsInputError(f"{label}: no (lp, segment) rows")
    return pd.DataFrame(rows, columns=["lp", "sid"]).drop_duplicates(ignore_index=True)
