"""Readers for MT system outputs and segment-level scores (randomized significance tests).

Three inputs:

* **Raw text** (:func:`read_parallel`): one or more reference files and one hypothesis file
  per system, plain UTF-8, one segment per line; the system name is the file name without
  its extension. All files must have the same number of lines; reference lines must not be
  empty (no metric can score a segment without a reference). An empty hypothesis line is a
  (bad) translation and is scored as such.
* **Long segment scores** (:func:`read_segment_scores`): a table with header
  ``SYSTEM SEGMENT SCORE`` and an optional ``METRIC`` column (tab, comma or whitespace
  separated), for metrics whose system score is the mean of segment scores (COMET, sentence
  chrF, human DA scores, ...). Every system must score the same segments.
* **Wide segment scores** (:func:`read_segment_scores`): CSV/TSV with one column per system,
  one row per segment, optionally a first column ``SEGMENT`` (or ``ID``) with segment ids.

:func:`stats.analyses.mt_systems.statistics_from_score_file` turns every metric of a
segment-score file into :class:`~stats.mt.sufficient.SegmentStatistics` for the randomized
tests.

Errors are :class:`~stats.StatsInputError` with a one-line message naming the file, line,
column, system or segment at fault.
"""

from __future__ import annotations

from pathlib import PurePath

import numpy as np
import pandas as pd

from stats._core import budget as _budget
from stats._core.errors import StatsInputError
from stats._core.numbers import MAX_NUMBER_CHARS

from ._arrow import (
    LARGE_BLOCK,
    distinct_integers,
    finite_within_bound,
    in_threads,
    integer_ids,
    integer_names,
    long_line,
    may_be_padded,
    name_codes,
    plain_bytes,
    read_typed,
)
from ._common import (
    LINE,
    TEXT_FILE_HINT,
    Source,
    codes_and_names,
    decode,
    decode_plain_fast,
    file_kind,
    leading_lines,
    load_bytes,
    load_text,
    looks_like_text,
    name_list,
    plain_leading_lines,
    read_table,
    spells_number,
    to_float,
)
from ._limits import check_header_width
from .mt_text import read_parallel as read_parallel  # the MT output reader

__all__ = [
    "read_lines",
    "read_parallel",
    "read_segment_scores",
    "score_file_metrics",
    "system_name",
]

_ID_COLUMNS = {"segment", "seg", "id", "segment_id", "seg_id", "sid", "segid"}


def _named(item) -> tuple[Source, str | None]:
    """Accept a source or a ``(name, source)`` pair (as the dashboard passes uploads)."""
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
        return item[1], item[0]
    return item, None


def system_name(label: str) -> str:
    """System name of a hypothesis file: the file name without directory and extension."""
    base = PurePath(str(label).replace("\\", "/")).name
    stem = base.rsplit(".", 1)[0] if "." in base.lstrip(".") else base
    return stem or base


def read_lines(source: Source, name: str | None = None) -> tuple[list[str], str]:
    """Read a plain-text file of segments, one per line.

    Returns the list of lines (without line terminators; one final newline is not a line)
    and the file's display name.
    """
    text, label = load_text(source, name)
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines = lines[:-1]
    return [ln[:-1] if ln.endswith("\r") else ln for ln in lines], label


def read_segment_scores(
    source: Source, *, metric: str | None = None, name: str | None = None
) -> pd.DataFrame:
    """Read segment-level scores in long (``SYSTEM SEGMENT SCORE [METRIC]``) or wide format.

    Parameters
    ----------
    source : path, bytes or file object
    metric : str, optional
        For a long file with a ``METRIC`` column holding several metrics: which one to use
        (case-insensitive). Required when there is more than one.
    name : str, optional
        Display name of the file in error messages.

    Returns
    -------
    DataFrame
        Rows = segments (index: segment ids as strings, in order of first appearance),
        columns = systems (in order of first appearance); ``frame.columns.name`` is the
        metric's name when the file says it (``METRIC`` column), else None.

    Raises
    ------
    StatsInputError
        Missing columns, non-numeric / missing / NaN / infinite scores (file, line, column),
        duplicate (system, segment) rows, systems that do not score the same segments
        (naming the system and segment ids), an unknown or ambiguous metric.
    """
    data, label = load_bytes(source, name)
    plain = plain_bytes(data)
    text = None if plain else decode(data, label)
    if text is None:
        head, rows, _ = plain_leading_lines(data, label)
    else:
        head, rows, _ = leading_lines(text, label)
    low = {h.lower() for h in head}
    expected = "segment-level scores"
    if looks_like_text(head, rows):
        first = " ".join(head)
        first = first if len(first) <= 50 else first[:47] + "..."
        raise StatsInputError(
            f"{label}: expected segment scores (a header SYSTEM SEGMENT SCORE [METRIC], or "
            f"SEGMENT and one column per system, then numbers), but line 1 reads {first!r}; "
            f"{TEXT_FILE_HINT}"
        )
    kind = file_kind(head)
    if kind is not None and not kind.startswith(expected):
        raise StatsInputError(
            f"{label}, line 1: this looks like {kind}, not {expected} (one score per system "
            "and segment)"
        )
    names = None
    if not {"system", "segment", "score"} <= low and _headerless_long(head, low):
        names = _LONG_NAMES[: len(head)]  # SYSTEM SEGMENT SCORE [METRIC] rows, as WMT writes
    columnwise = plain and data.find(b'"') < 0 and data.find(b"#") < 0  # (a quote, a comment)
    if names is not None or {"system", "segment", "score"} <= low:
        if columnwise:
            found = _plain_long(data, label, metric, names)
            if found is not None:
                return found
        text = text if text is not None else data.decode("utf-8")
        return _read_long(data, text, label, metric, names=names)
    if "system" in low or "score" in low:
        raise StatsInputError(
            f"{label}, line 1: a long-format file needs the columns SYSTEM SEGMENT SCORE "
            f"(optional METRIC); found {', '.join(head)}"
        )
    if columnwise:
        return _read_wide(data, None, label, head)
    return _read_wide(data, text if text is not None else data.decode("utf-8"), label, head)


def _codes(column: pd.Series) -> tuple[np.ndarray, list[str]]:
    """(codes, names): each row's index into the distinct names, in order of first appearance
    (strings as the careful parser gives them, or pandas' string column)."""
    return codes_and_names(column)


def _subset(codes: np.ndarray, names, keep: np.ndarray):
    """:func:`_codes` of the rows ``keep`` only (names in their order of first appearance;
    a list, or an array of the numbers that integer names spell)."""
    codes, present = pd.factorize(codes[keep])
    if isinstance(names, np.ndarray):
        return codes.astype(np.int64), names[present]
    return codes.astype(np.int64), [names[i] for i in present]


#: pandas' string dtype held by pyarrow (no Python object per row)
_STR = pd.StringDtype("pyarrow", na_value=np.nan)

#: the column types of a long segment-score file when pandas reads it (no object per row)
_LONG_TYPES = {"SYSTEM": "str", "SEGMENT": "str", "METRIC": "str", "SCORE": "float64"}


#: the columns of a long segment-score file without a header, in WMT's order
_LONG_NAMES = ("SYSTEM", "SEGMENT", "SCORE", "METRIC")
_KNOWN = {"system", "segment", "score", "metric", *_ID_COLUMNS}


def _headerless_long(head: list[str], low: set[str]) -> bool:
    """Whether the first line is a row ``SYSTEM SEGMENT SCORE [METRIC]`` rather than a header:
    three or four fields, the third a number, the fourth (if any) not, no known column name."""
    return (
        len(head) in (3, 4)
        and not (low & _KNOWN)
        and spells_number(head[2])
        and not spells_number(head[0])
        and (len(head) == 3 or not spells_number(head[3]))
    )


def _read_long(
    data: bytes, text: str, label: str, metric: str | None, *, names=None
) -> pd.DataFrame:
    table = read_table(
        data,
        required=["SYSTEM", "SEGMENT", "SCORE"],
        optional=["METRIC"],
        name=label,
        hint="segment-level scores",
        dtype=_LONG_TYPES,
        text=text,
        names=names,
    )
    frame = table.frame
    lines = frame[LINE].to_numpy()
    codes = {}
    for col in ("SYSTEM", "SEGMENT"):
        codes[col] = _codes(frame[col])
        blank = [k for k, v in enumerate(codes[col][1]) if not v.strip()]
        if blank:
            line = int(lines[np.isin(codes[col][0], blank)][0])
            raise StatsInputError(f"{label}, line {line}, column {col}: empty value")
    metrics = _codes(frame["METRIC"]) if "METRIC" in frame.columns else None
    return _long_scores(codes["SYSTEM"], codes["SEGMENT"], metrics, lambda: _floats(frame, "SCORE", label),
                        lambda rows: lines[rows], label=label, metric=metric)


def _long_scores(system, segment, metrics, scores, lines, *, label: str, metric: str | None):
    """The segments x systems frame of a long file's columns: ``system``, ``segment`` and
    ``metrics`` (or None) as ``(codes, names)``, ``scores()`` the score column (read after the
    metric is checked), ``lines(rows)`` the file lines of row positions ``rows``."""
    metric_label = None
    keep = None
    if metrics is not None:
        metric_codes, names = metrics
        if metric is not None:
            match = [m for m in names if m.lower() == str(metric).lower()]
            if not match:
                raise StatsInputError(
                    f"{label}: metric {metric!r} not found in column METRIC; "
                    f"found {name_list(names)}"
                )
            keep = metric_codes == names.index(match[0])
            system = _subset(system[0], system[1], keep)
            segment = _subset(segment[0], segment[1], keep)
            metric_label = match[0]
        elif len(names) > 1:
            raise StatsInputError(
                f"{label}: column METRIC holds several metrics ({name_list(names)}); "
                "choose one"
            )
        else:
            metric_label = names[0]
    values = scores()
    kept = None
    if keep is not None:
        values = values[keep]
        kept = np.flatnonzero(keep)

    def where(i: int, j: int) -> str:
        rows = np.array([i, j]) if kept is None else kept[[i, j]]
        first, second = lines(rows)
        return f"{label}, lines {first} and {second}"

    (sys_codes, sys_order), (seg_codes, seg_order) = system, segment
    return pivot_scores(sys_codes, sys_order, seg_codes, seg_order, values, label=label,
                        rows=where, metric=metric_label)


def _plain_long(data: bytes, label: str, metric: str | None, names) -> pd.DataFrame | None:
    """:func:`_read_long` of a plain file (:func:`~._arrow.plain_bytes`, no quote or ``#``,
    tab- or comma-separated) read from its bytes by pyarrow's parser with its threads: names
    encoded once each (dictionary-encoded by the parser; segment ids that are integers as
    numbers), scores as float64. None for any other file, or anything the careful path
    refuses or reads otherwise (a blank name, a score that is not a finite number within the
    bound, a ragged row): :func:`_read_long` then reads it and names the line."""
    from ._common import header_names_each_once, sniff_delimiter

    first = data[: data.find(b"\n")].decode("utf-8")
    delimiter = sniff_delimiter(first, label)
    if delimiter == "whitespace":
        return None
    sep = "\t" if delimiter == "tab" else ","
    if names is None:
        canon = {c.lower(): c for c in ("SYSTEM", "SEGMENT", "SCORE", "METRIC")}
        columns = [canon.get(f.strip().lower(), f.strip()) for f in first.split(sep)]
        if not header_names_each_once(columns):
            return None
    else:
        columns = list(names)
    if LINE in columns or any(c not in columns for c in ("SYSTEM", "SEGMENT", "SCORE")):
        return None
    if long_line(data, MAX_NUMBER_CHARS):  # a score may be longer than the rule allows
        return None
    used = [c for c in ("SYSTEM", "SEGMENT", "SCORE", "METRIC") if c in columns]
    keys = [f"c{i}" for i in range(len(columns))]
    types = {k: "str" for k in keys}
    types.update({keys[columns.index(c)]: "dict" for c in ("SYSTEM", "METRIC") if c in columns})
    types[keys[columns.index("SCORE")]] = "float64"
    table = read_typed(data, keys, types, delimiter=sep, skip_rows=int(names is None),
                       include=[keys[columns.index(c)] for c in used], blank_lines=False,
                       block=LARGE_BLOCK, threads=True, valid_utf8=True)  # fmt: skip
    if table is None or not table.num_rows:
        return None
    table = table.rename_columns(used)
    scores = table.column("SCORE").to_numpy()
    if not finite_within_bound(scores):
        return None
    padded = may_be_padded(data, comma=sep == ",")

    def encoded(col: str, column):
        numbers = integer_ids(column) if col == "SEGMENT" else None  # (numbers: no blank)
        if numbers is not None:
            return numbers
        codes, spelled = name_codes(column, strip=padded)
        return None if "" in spelled else (codes, spelled)  # (an empty name: careful path)

    # the columns encoded at once, on the cores the parser used
    named = [(c, table.column(c)) for c in used[:2] + used[3:]]
    coded = dict(zip([c for c, _ in named], in_threads(lambda a: encoded(*a), named), strict=True))
    if any(v is None for v in coded.values()):
        return None
    del table
    start = 1 + (names is None)
    return _long_scores(coded["SYSTEM"], coded["SEGMENT"], coded.get("METRIC"),
                        lambda: scores, lambda rows: rows + start, label=label, metric=metric)


def pivot_scores(
    system: np.ndarray,
    sys_order: list[str],
    segment: np.ndarray,
    seg_order: list[str],
    scores: np.ndarray,
    *,
    label: str,
    rows,
    metric: str | None,
) -> pd.DataFrame:
    """Long rows (codes of system and segment, scores) as a segments x systems frame.

    ``rows(i, j)`` names rows ``i`` and ``j`` (file and lines) for the message about a
    (system, segment) given twice; ``label`` names the file(s) in the message about a
    missing score. Raises :class:`StatsInputError` for either. ``seg_order``: the segment
    names, or an int64 array of the numbers they spell (:func:`~._arrow.integer_ids`).
    """
    n_seg, n_sys = len(seg_order), len(sys_order)
    keys = system * n_seg + segment
    cells = n_seg * n_sys
    scored = ~np.isnan(scores)
    if cells == len(keys) and cells and scored.all():
        # rows system by system, each system's segments in their first order (or segment by
        # segment): the keys 0, 1, 2, ..., every cell once, written as one reshaped copy
        if bool((keys[1:] > keys[:-1]).all()):  # increasing, below ``cells``: 0 .. cells-1
            values = np.ascontiguousarray(np.reshape(scores, (n_sys, n_seg)).T, dtype=float)
            return _wide_frame(values, sys_order, seg_order, metric)
        by_segment = segment * n_sys + system
        if bool((by_segment[1:] > by_segment[:-1]).all()):
            values = np.array(np.reshape(scores, (n_seg, n_sys)), dtype=float)
            return _wide_frame(values, sys_order, seg_order, metric)
        del by_segment
    if cells == len(keys):  # as many rows as cells: counting needs no more memory
        twice = np.bincount(keys, minlength=len(keys)).max(initial=0) > 1
    else:  # (cells may be far more than rows: no array of that size)
        ordered = np.sort(keys)
        twice = bool((ordered[1:] == ordered[:-1]).any())
    if twice:
        first = keys[pd.Series(keys).duplicated(keep=False).to_numpy()][0]
        where = np.flatnonzero(keys == first)
        raise StatsInputError(
            f"{rows(where[0], where[1])}: system "
            f"{sys_order[first // n_seg]!r}, segment "
            f"{str(seg_order[first % n_seg])!r} appears twice"
        )
    if n_seg * n_sys != len(keys) or not scored.all():  # some (system, segment) has no score
        counts = np.bincount(system[scored], minlength=n_sys)
        j = int(np.flatnonzero(counts < n_seg)[0])
        lacking = np.ones(n_seg, dtype=bool)
        lacking[segment[scored & (system == j)]] = False
        segs = [str(seg_order[i]) for i in np.flatnonzero(lacking)]
        has = [sys_order[k] for k in np.flatnonzero(counts == n_seg)]
        ref = f" (system {has[0]!r} has them)" if has else ""
        raise StatsInputError(
            f"{label}: system {sys_order[j]!r} has no score for segment(s) "
            f"{name_list(segs)}{ref}; every system must score the same segments"
        )
    values = np.empty((n_seg, n_sys))
    values[segment, system] = scores  # every cell once: no duplicate and as many rows as cells
    return _wide_frame(values, sys_order, seg_order, metric)


def _wide_frame(values: np.ndarray, sys_order, seg_order, metric: str | None) -> pd.DataFrame:
    """The segments x systems frame of ``values``, its index the segment names (or the
    numbers they spell, :func:`pivot_scores`), its columns the systems named ``metric``."""
    wide = pd.DataFrame(values, copy=False)
    if isinstance(seg_order, np.ndarray):
        index = integer_names(seg_order)
        index.name = "segment"
    else:
        index = pd.Index([str(s) for s in seg_order], name="segment")
    wide.index = index
    wide.columns = pd.Index([str(s) for s in sys_order], name=metric)
    return wide


def _read_wide(data: bytes, text: str | None, label: str, head: list[str]) -> pd.DataFrame:
    """A wide file (header ``head``, from :func:`_leading`); ``text`` None: a plain file
    without quotes or ``#`` (:func:`_plain_wide` reads it, or else its decoded text)."""
    has_id = head[0].strip().lower() in _ID_COLUMNS
    systems = head[1:] if has_id else head
    if not systems:
        raise StatsInputError(f"{label}, line 1: no system columns in the header")
    check_header_width(len(systems), label, what="systems", limit=_budget.MAX_SYSTEMS)
    for s in systems:
        if not s.strip():
            raise StatsInputError(f"{label}, line 1: a system column has an empty name")
    if text is None:
        found = _plain_wide(data, label, head, has_id)
        if found is not None:
            return found
        text = data.decode("utf-8")
    table = read_table(data, required=head, name=label, hint="segment-level scores",
                       dtype={s: "float64" for s in systems}, text=text)
    frame = table.frame
    del table
    # one block of segments x systems, filled column by column (no dict of columns copied
    # into a second block)
    values = np.empty((len(frame), len(systems)))
    for j, s in enumerate(systems):
        values[:, j] = _floats(frame, s, label)
    if has_id:
        ids = frame[head[0]].astype(_STR)
        codes, names = (None, ()) if _distinct_integers(ids) else codes_and_names(ids)
        if codes is not None and len(names) < len(codes):
            i = int(np.flatnonzero(pd.Series(codes).duplicated().to_numpy())[0])
            raise StatsInputError(
                f"{label}, line {int(frame[LINE].iloc[i])}, column {head[0]}: segment "
                f"{ids.iloc[i]!r} appears twice"
            )
        index = pd.Index(ids.array, name="segment")
    else:
        index = _row_numbers(len(frame))
    out = pd.DataFrame(values, index=index, columns=pd.Index([str(s) for s in systems]),
                       copy=False)
    return out


def _row_numbers(n: int) -> pd.Index:
    """The index ``"1"`` .. ``str(n)`` of a wide file without segment ids."""
    import pyarrow as pa

    numbers = pa.array(np.arange(1, n + 1)).cast(pa.large_string())
    return pd.Index(pd.array(numbers, dtype=_STR), name="segment")


def _plain_wide(data: bytes, label: str, head: list[str], has_id: bool) -> pd.DataFrame | None:
    """:func:`_read_wide` of a plain file (:func:`~._arrow.plain_bytes`, no quote or ``#``,
    tab- or comma-separated) read from its bytes by pyarrow's parser with its threads, each
    score column written once into the block of segments x systems; segment ids only when
    they are distinct integers spelled as ``str(int)`` spells them. None for anything else,
    or anything the careful path refuses (it then names it)."""
    from ._common import header_names_each_once, sniff_delimiter

    first = data[: data.find(b"\n")].decode("utf-8")
    delimiter = sniff_delimiter(first, label)
    if delimiter == "whitespace" or LINE in head:
        return None
    if not header_names_each_once(head):
        return None
    if long_line(data, MAX_NUMBER_CHARS):  # a score may be longer than the rule allows
        return None
    keys = [f"c{i}" for i in range(len(head))]
    types = dict.fromkeys(keys, "float64")
    if has_id:
        types[keys[0]] = "large"  # (as pandas' str holds the index: no cast of every id)
    table = read_typed(data, keys, types, delimiter="\t" if delimiter == "tab" else ",",
                       skip_rows=1, blank_lines=False, block=LARGE_BLOCK, threads=True,
                       valid_utf8=True)
    if table is None or not table.num_rows:
        return None
    n = table.num_rows
    systems = head[1:] if has_id else head
    values = np.empty((n, len(systems)))

    def fill(j: int, column) -> bool:
        """The parsed ``column`` copied to column ``j`` of ``values`` (-1: whether the ids
        are distinct integers)."""
        if j < 0:
            return distinct_integers(column)
        at = 0
        for chunk in column.chunks:
            values[at : at + len(chunk), j] = chunk.to_numpy()
            at += len(chunk)
        return True

    # the columns copied (and the ids checked) at once, on the cores the parser used
    parsed = [(j - has_id, table.column(k)) for j, k in enumerate(keys)]
    done = in_threads(lambda a: fill(*a), parsed)
    if not finite_within_bound(values):
        return None
    if not has_id:
        index = _row_numbers(n)
    else:
        if not done[0]:  # the careful path checks other ids
            return None
        index = pd.Index(pd.array(parsed[0][1], dtype=_STR), name="segment")
    del table, parsed
    return pd.DataFrame(values, index=index, columns=pd.Index([str(s) for s in systems]),
                        copy=False)

def _canonical_integers(ids: pd.Series) -> np.ndarray | None:
    """A column of ids (pandas' pyarrow strings) as int64 when every cell is an integer
    spelled as ``str(int)`` spells it (``7``, not ``007``, ``+7``, ``-0`` or `` 7``): equal
    numbers are then equal strings, and ``str`` of a number gives its cell back. None when
    any cell is not (the caller works on the strings)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    dtype = ids.dtype
    if not (isinstance(dtype, pd.StringDtype) and dtype.storage == "pyarrow"):
        return None
    if not len(ids) or ids.hasnans:
        return None
    cells = pa.array(ids.array)  # (chunked: one per block the parser read)
    try:
        numbers = pc.cast(cells, pa.int64())
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    values = np.asarray(numbers.to_numpy(), dtype=np.int64)
    if (values == np.iinfo(np.int64).min).any():
        return None
    # the cast takes no sign "+" and no space; what it takes beyond str(int)'s spelling is
    # leading zeros ("007", "-0"), which only lengthen a cell: equal total lengths, none
    digits = np.searchsorted(_POWERS_OF_TEN, np.abs(values), side="right") + 1
    spelled = int(digits.sum()) + int((values < 0).sum())
    if spelled != pc.sum(pc.binary_length(cells)).as_py():
        return None
    return values


def _distinct_integers(ids: pd.Series) -> bool:
    """Whether a column of segment ids holds only distinct integers spelled as ``str(int)``
    spells them (:func:`_canonical_integers`): distinct numbers are then distinct strings,
    and the check costs a cast and a sort instead of a hash of every string. False when it
    cannot tell (the caller checks the strings)."""
    values = _canonical_integers(ids.astype(_STR))
    if values is None:
        return False
    if len(values) < 2 or (values[1:] > values[:-1]).all():  # ids in order: no sort
        return True
    ordered = np.sort(values)
    return not (ordered[1:] == ordered[:-1]).any()


#: 10**1 .. 10**18: ``searchsorted(..., side="right")`` of a magnitude is its digits minus 1
_POWERS_OF_TEN = 10 ** np.arange(1, 19, dtype=np.int64)


def _floats(frame: pd.DataFrame, column: str, label: str) -> np.ndarray:
    """A score column as float64: as pandas read it (then finite), else :func:`to_float`."""
    if frame[column].dtype.kind == "f":
        return frame[column].to_numpy(dtype=float)
    return to_float(frame, column, label)


def score_file_metrics(source: Source, *, name: str | None = None) -> tuple[str, ...]:
    """Names in the ``METRIC`` column of a long segment-score file, in order of first
    appearance; ``()`` for a file without one (long without METRIC, or wide)."""
    data, label = load_bytes(source, name)
    text = decode_plain_fast(data, label)
    head, _, _ = leading_lines(text, label)
    low = [h.lower() for h in head]
    names = None
    if len(head) == 4 and _headerless_long(head, set(low)):
        names = _LONG_NAMES
    elif not {"system", "segment", "score", "metric"} <= set(low):
        return ()
    table = read_table(
        data, required=["SYSTEM", "SEGMENT", "SCORE", "METRIC"], name=label, dtype=_LONG_TYPES,
        text=text, names=names,
    )
    return tuple(_codes(table.frame["METRIC"])[1])
