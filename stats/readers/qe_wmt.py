"""Readers for the WMT20-24 quality-estimation (QE) sentence-level files, as the tasks publish
them.

Submissions
    Optionally three header lines (disk footprint, number of parameters -- free text is
    allowed there --, ensemble size; WMT21 has the first two only), then tab-separated rows::

        LP  METHOD  SEGMENT_NUMBER  SCORE

    Any number of language pairs and methods per file. The header is recognised by content:
    up to three leading lines that are not such rows (the WMT23 files lack it in places).
    A folder or a zip/tar archive stands for every file inside (team folders included).
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

import math
import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

from ._archives import expand_sources
from ._common import Source, is_number, load_text, source_name, strict_float
from ._limits import check_value, overflows

__all__ = [
    "QESubmissions",
    "QEGold",
    "read_qe_submissions",
    "read_qe_wmt_gold",
    "read_qe_exclude",
    "is_qe_wmt_submission",
    "qe_wmt_file_kind",
    "is_submission_metadata",
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
    """

    scores: pd.DataFrame
    headers: dict = field(default_factory=dict)
    files: tuple = ()

    @property
    def language_pairs(self) -> list[str]:
        return sorted(self.scores["lp"].unique())

    @property
    def systems(self) -> list[str]:
        return sorted(self.scores["system"].unique())


@dataclass(frozen=True, kw_only=True)
class QEGold:
    """Gold labels: ``labels`` is a long table ``lp, sid, score, hallucination`` (score NaN
    where the item is marked ``hallucination``); ``file`` its display name."""

    labels: pd.DataFrame
    file: str = ""


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
    return is_number(text)


def _rows(text: str) -> list[str]:
    return text.splitlines()


def _is_data_row(line: str) -> bool:
    parts = line.rstrip("\r\n").split("\t")
    return (
        len(parts) == 4
        and bool(_LP_FIELD.fullmatch(parts[0]))
        and bool(re.fullmatch(r"\s*[+-]?\d+\s*", parts[2]))
        and (_is_float(parts[3]) or parts[3].strip().lower() == HALLUCINATION)
    )


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
    lines = [ln for ln in _rows(text)[:50] if ln.strip()]
    if not lines:
        return None
    head = [h.strip().lower() for h in lines[0].split("\t")]
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


def _parse_rows(lines: list[str], start: int, label: str, *, gold: bool):
    lp, method, sid, score, hallu = [], [], [], [], []
    for i in range(start, len(lines)):
        line = lines[i]
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
        lp.append(parts[0].strip().lower())
        method.append(parts[1].strip())
        sid.append(_norm_sid(parts[2]))
        score.append(value)
        hallu.append(h)
    return lp, method, sid, score, hallu


def _check_score(value: float, raw: str, column: str, label: str, line: int) -> None:
    """Refuse a score that is NaN, infinite, overflows a float or lies beyond
    :data:`~._limits.MAX_ABS_VALUE` (the shared limits), naming file, line and column."""
    if not math.isfinite(value):
        why = "overflows a 64-bit float" if overflows(raw) else "is not finite"
        raise StatsInputError(f"{label}, line {line}, column {column}: score {why}: {raw!r}")
    check_value(value, column, label, line)


def _check_unique(frame: pd.DataFrame, keys: list[str], label: str) -> None:
    dup = frame.duplicated(keys)
    if dup.any():
        row = frame[dup].iloc[0]
        what = ", ".join(f"{k} {row[k]!r}" for k in keys)
        raise StatsInputError(f"{label}: the same item twice ({what})")


def _read_one_submission(text: str, label: str) -> tuple[pd.DataFrame, dict]:
    lines = _rows(text)
    k = _header_count(lines)
    if k > _HEADER_LINES:
        raise StatsInputError(
            f"{label}: not a WMT QE submission (after at most 3 header lines, rows LP<TAB>"
            f"METHOD<TAB>SEGMENT_NUMBER<TAB>SCORE); line {k} reads {lines[k - 1][:60]!r}"
        )
    header = [ln.strip() for ln in lines[:k]]
    lp, method, sid, score, _ = _parse_rows(lines, k, label, gold=False)
    if not lp:
        raise StatsInputError(f"{label}: no prediction rows")
    frame = pd.DataFrame({"lp": lp, "system": method, "sid": sid, "score": score})
    _check_unique(frame, ["lp", "system", "sid"], label)
    meta = {
        "file": label,
        "disk_footprint": header[0] if k >= 2 else None,  # WMT21: two lines, no ensemble
        "parameters": header[1] if k >= 2 else None,
        "ensemble": header[2] if k == 3 else None,
    }
    return frame, meta


def read_qe_submissions(sources, *, names=None) -> QESubmissions:
    """Read WMT20-24 sentence-level QE submissions (files, folders, zip/tar archives).

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
        twice, or the same method in two files.
    """
    if not isinstance(sources, (list, tuple)):
        sources = [sources]
        names = [names] if isinstance(names, str) else names
    frames, headers, files = [], {}, []
    owner: dict[str, str] = {}
    for label, src in expand_sources(list(sources), names):
        if is_submission_metadata(label):
            continue
        text, label = load_text(src, label)
        kind = qe_wmt_file_kind(text)
        if kind == "gold":
            raise StatsInputError(f"{label}: a gold-label file, not a submission (give it as gold)")
        frame, meta = _read_one_submission(text, label)
        for system in frame["system"].unique():
            if system in owner:
                raise StatsInputError(
                    f"{label}: method {system!r} is also in {owner[system]} (rename one)"
                )
            owner[system] = label
            headers[system] = meta
        frames.append(frame)
        files.append(label)
    if not frames:
        raise StatsInputError("no submission file given")
    return QESubmissions(
        scores=pd.concat(frames, ignore_index=True), headers=headers, files=tuple(files)
    )


def _lp_from_name(label: str) -> str | None:
    base = re.split(r"[/\\:]", label.lower())[-1]
    m = _LP.search(base)
    return f"{m.group(1)}-{m.group(2)}" if m else None


def _read_gold_table(text: str, label: str, lp: str | None) -> pd.DataFrame:
    # (line number in the file, line): blank lines skipped, messages still name the file's line
    numbered = [(i, ln) for i, ln in enumerate(_rows(text), start=1) if ln.strip()]
    lines = [ln for _, ln in numbered]
    head = [h.strip().lower() for h in lines[0].split("\t")]
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
    elif kind in ("gold", "submission"):
        lines = _rows(text)
        k = _header_count(lines)
        lps, _, sid, score, hallu = _parse_rows(lines, k, label, gold=True)
        frame = pd.DataFrame({"lp": lps, "sid": sid, "score": score, "hallucination": hallu})
    else:
        raise StatsInputError(
            f"{label}: not a WMT QE gold file (rows LP<TAB>gold<TAB>SEGMENT_NUMBER<TAB>SCORE, "
            "or a TSV with a z_mean or mean column)"
        )
    if frame.empty:
        raise StatsInputError(f"{label}: no gold labels")
    _check_unique(frame, ["lp", "sid"], label)
    return QEGold(labels=frame, file=label)


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
        if not re.fullmatch(r"\s*[+-]?\d+\s*", parts[1]):
            if i == 1 or not rows and all(not p.strip().isdigit() for p in parts):
                continue  # header
            raise StatsInputError(
                f"{label}, line {i}: segment number is not an integer: {parts[1].strip()!r}"
            )
        rows.append((parts[0].strip().lower(), _norm_sid(parts[1])))
    if not rows:
        raise StatsInputError(f"{label}: no (lp, segment) rows")
    return pd.DataFrame(rows, columns=["lp", "sid"]).drop_duplicates(ignore_index=True)


def split_qe_wmt_files(sources, *, names=None):
    """Sort WMT QE files by content: ``(submissions, gold, exclude)`` where ``submissions`` is
    a list of ``(name, bytes)`` and ``gold``/``exclude`` one ``(name, bytes)`` or None.

    Raises
    ------
    StatsInputError
        Two gold files or two exclude indexes; a file of none of these kinds.
    """
    subs, gold, excl = [], None, None
    for label, src in expand_sources(list(sources), names):
        text, label = load_text(src, label)
        kind = qe_wmt_file_kind(text)
        data = text.encode("utf-8")
        if kind in ("gold", "gold-table"):
            if gold is not None:
                raise StatsInputError(f"{label}: a second gold file (the first: {gold[0]})")
            gold = (label, data)
        elif kind == "exclude":
            if excl is not None:
                raise StatsInputError(f"{label}: a second exclude index (the first: {excl[0]})")
            excl = (label, data)
        elif kind == "submission":
            subs.append((label, data))
        else:
            raise StatsInputError(f"{label}: not a WMT QE submission, gold file or exclude index")
    return subs, gold, excl


def display_name(source, name=None) -> str:
    return source_name(source, name)
