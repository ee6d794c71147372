"""The WMT25 general MT task's automatic scores as published: ``automatic_scores/SYSTEM.jsonl``,
one file per system (the file name is the system's name), one JSON object per line, one line
per document and language pair::

    {"language_pair": "en-ar_EG", "domain": "dialogue", "document_id": "MUL0088",
     "metric_scores": {"CometKiwi-XL": [0.56, 0.39], "GEMBA-ESA-CMDA": [90, 95], ...}}

Each metric holds one value per paragraph of the document (``null`` where it has none); a
metric may be present for some language pairs only (``chrF++`` where references exist).
MetricX is stored negated, so higher is better for every metric. The files come as a folder,
a zip or tar of it, or several ``*.jsonl`` files (each optionally gzipped).

Nothing is filled in: a null stays missing (the system's mean for a metric is over its
values present), and every null, every metric absent from a document, language pair or
system, every (system, language pair) without lines and every document a system lacks is
counted in :attr:`WMT25Scores.notes`.

Strict: a line that is not a JSON object, a field missing or of the wrong type, a
``metric_scores`` that is not a mapping of lists, lists of different lengths within one
document, a value that is not a number or null (``true``, ``"0.5"``, ``NaN``, ``1e400``, a
magnitude past :data:`~._limits.MAX_ABS_VALUE`), a key given twice, or a document given twice
in one file is one :class:`~stats.StatsInputError` naming the file, line and field.
"""

from __future__ import annotations

import functools
import json
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from dataclasses import field as dataclass_field
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

from . import _limits
from ._archives import archive_members, directory_files, gunzip, read_regular_file, read_stream
from ._common import check_parse_memory, decode, name_list
from ._limits import MAX_ABS_VALUE, check_bytes

__all__ = [
    "WMT25_SCORE_FIELDS",
    "WMT25Arrays",
    "WMT25Scores",
    "is_wmt25_scores",
    "read_wmt25_scores",
]

#: the fields of every line of an automatic-scores file
WMT25_SCORE_FIELDS = ("language_pair", "domain", "document_id", "metric_scores")
#: the fields of a line of a system-output file (``systems/SYSTEM.jsonl``)
OUTPUT_FIELDS = ("doc_id", "hypothesis")
#: what the reader calls the format
KIND = "WMT25 automatic scores"
#: peak memory of parsing, in multiples of a file's characters (JSON lists of floats as
#: Python objects, then their arrays); checked before each file is parsed
PARSE_FACTOR = 6

_NUMBER_TYPES = frozenset({int, float, type(None)})
_SUFFIX = re.compile(r"\.jsonl(\.gz)?$", re.IGNORECASE)


class WMT25Arrays(NamedTuple):
    """One language pair's paragraphs as arrays (:meth:`WMT25Scores.language_pair_arrays`):
    the fields of :class:`stats.mt.automatic_ranking.ParagraphArrays`."""

    values: np.ndarray
    metrics: tuple[str, ...]
    system: np.ndarray
    systems: tuple[str, ...]
    document: np.ndarray


@dataclass(frozen=True, kw_only=True)
class WMT25Scores:
    """WMT25 automatic scores as read (:func:`read_wmt25_scores`).

    Attributes
    ----------
    paragraphs : pandas.DataFrame
        One row per paragraph of a (system, language pair, document): columns ``lp``,
        ``system``, ``domain``, ``document`` (the ``document_id``), ``paragraph`` (0-based),
        one float column per metric (NaN where the value is null or the metric absent from that
        document) and ``doc``, a number per (language pair, domain, document).
    metrics, systems, lps : tuple of str
        In order of first appearance (metrics), sorted (systems, language pairs).
    coverage : pandas.DataFrame
        One row per (lp, system, metric) with lines: ``documents`` (lines of that system and
        language pair), ``with_metric`` (of them, those holding the metric), ``values``
        (paragraph values present), ``nulls``.
    files : tuple of str
        The files read, in order.
    read_as : str
        ``"read as WMT25 automatic scores: 59 systems, 31 language pairs, 6 metrics ..."``.
    notes : tuple of str
        Everything missing, counted: nulls, absent metrics, absent (system, language pair),
        documents a system lacks, fields not read, files skipped.
    """

    paragraphs: pd.DataFrame
    metrics: tuple[str, ...]
    systems: tuple[str, ...]
    lps: tuple[str, ...]
    coverage: pd.DataFrame
    files: tuple[str, ...]
    read_as: str
    notes: tuple[str, ...] = ()
    _index: dict = dataclass_field(default_factory=dict, repr=False, compare=False)
    _columns: dict = dataclass_field(default_factory=dict, repr=False, compare=False)

    def _rows(self, lp: str) -> np.ndarray:
        """The paragraph rows of ``lp`` (all pairs' rows found in one pass, once)."""
        if lp not in self.lps:
            raise StatsInputError(
                f"lp: {lp!r} is not among the language pairs read ({name_list(self.lps)})"
            )
        if not self._index:
            codes = self.paragraphs["lp"].cat.codes.to_numpy()
            order = np.argsort(codes, kind="stable")
            names = [str(c) for c in self.paragraphs["lp"].cat.categories]
            bounds = np.searchsorted(codes[order], np.arange(len(names) + 1))
            have = self.coverage[self.coverage["values"].to_numpy() > 0]
            by_lp: dict[str, set] = {}
            for lp_name, metric in zip(have["lp"].tolist(), have["metric"].tolist(), strict=True):
                by_lp.setdefault(lp_name, set()).add(metric)
            for k, name in enumerate(names):
                present = by_lp.get(name, set())
                self._index[name] = (
                    order[bounds[k] : bounds[k + 1]],
                    tuple(m for m in self.metrics if m in present),
                )
        return self._index[lp][0]

    def language_pair(self, lp: str) -> pd.DataFrame:
        """The paragraphs of one language pair (columns ``system``, ``domain``, ``document``,
        ``paragraph``, the metrics present there, and ``doc``: the document's number)."""
        rows = self._rows(lp)
        present = list(self.metrics_of(lp))
        out = self.paragraphs.iloc[rows][
            ["system", "domain", "document", "paragraph", *present, "doc"]
        ]
        out = out.reset_index(drop=True)
        out["system"] = out["system"].astype(str)
        return out

    def language_pair_arrays(self, lp: str) -> WMT25Arrays:
        """The rows of :meth:`language_pair`, in its order, as arrays (no string per row):
        ``values`` (paragraphs x the metrics present in ``lp``, NaN where missing), ``metrics``,
        ``system`` (index into ``systems``, every system read) and ``document`` (``doc``)."""
        rows = self._rows(lp)
        present = self.metrics_of(lp)
        if not self._columns:
            frame = self.paragraphs
            self._columns.update(
                {m: frame[m].to_numpy(dtype=float) for m in self.metrics},
                system=np.asarray(frame["system"].cat.codes.to_numpy(), dtype=np.int64),
                systems=tuple(str(c) for c in frame["system"].cat.categories),
                doc=frame["doc"].to_numpy(),
            )
        cols = self._columns
        values = np.empty((len(rows), len(present)))
        for j, m in enumerate(present):
            values[:, j] = cols[m][rows]
        return WMT25Arrays(
            values=values, metrics=present, system=cols["system"][rows],
            systems=cols["systems"], document=cols["doc"][rows],
        )  # fmt: skip

    def metrics_of(self, lp: str) -> tuple[str, ...]:
        """The metrics with at least one value in language pair ``lp``."""
        self._rows(lp)
        return self._index[lp][1]


# ---------------------------------------------------------------------------------------------
# Files in: folders, archives, uploads
# ---------------------------------------------------------------------------------------------


def _is_jsonl(name: str) -> bool:
    return bool(_SUFFIX.search(name))


def _system_of(name: str) -> str:
    base = re.split(r"[\\/]", name.rsplit(":", 1)[-1])[-1]
    return _SUFFIX.sub("", base)


def _members(data: bytes, label: str, skipped: list[str]) -> list[tuple[str, bytes]]:
    found = archive_members(data, label, want=_is_jsonl)
    if found is None:
        return [(label, gunzip(data, label))]
    names, members = found
    skipped.extend(f"{label}:{n}" for n in names if not _is_jsonl(n))
    if not members:
        raise StatsInputError(f"{label}: the archive holds no .jsonl file")
    total = 0
    out = []
    for name, raw in members:
        where = f"{label}:{name}"
        raw = gunzip(raw, where)
        total += len(raw)
        check_bytes(total, label)
        out.append((where, raw))
    return out


def _file_bytes(path: Path) -> bytes:
    """A folder's file, read when it is parsed (a folder's files are not all held at once)."""
    return gunzip(read_regular_file(path, str(path)), str(path))


def _jsonl_files(files) -> tuple[list[tuple[str, object]], list[str]]:
    """``[(display name, bytes)]`` of every .jsonl file of ``files`` (folders walked, archives
    opened, sizes checked before reading; a folder's files as a function giving their bytes,
    called when the file is parsed) and the names of the other files skipped."""
    out: list[tuple[str, object]] = []  # bytes, or a function giving them
    skipped: list[str] = []
    for item in files:
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            label, data = item
            if hasattr(data, "read") or hasattr(data, "getvalue"):
                data = data.getvalue() if hasattr(data, "getvalue") else read_stream(data, label)
            if not isinstance(data, (bytes, bytearray, memoryview)):
                raise StatsInputError(f"{label}: expected the file's bytes; got {type(data).__name__}")
            check_bytes(len(data), label)
            out.extend(_members(bytes(data), label, skipped))
            continue
        if not isinstance(item, (str, os.PathLike)):
            raise StatsInputError(
                f"scores: each file must be a path or a (name, bytes) pair; got {type(item).__name__}"
            )
        path = Path(item)
        label = os.fspath(item)
        if path.is_dir():
            paths = directory_files(path, label, sized=_is_jsonl)
            chosen = [p for p in paths if _is_jsonl(p.name)]
            skipped.extend(str(p) for p in paths if not _is_jsonl(p.name))
            if not chosen:
                raise StatsInputError(f"{label}: the folder holds no .jsonl file")
            out.extend((str(p), functools.partial(_file_bytes, p)) for p in chosen)
            continue
        if not path.is_file():
            raise StatsInputError(f"{label}: no such file or folder")
        out.extend(_members(read_regular_file(path, label), label, skipped))
    return out, skipped


# ---------------------------------------------------------------------------------------------
# One file
# ---------------------------------------------------------------------------------------------


def _refuse_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


class _Overflow(float):
    """A JSON number that overflows a 64-bit float, with its ``text`` (for the message)."""

    text = ""


def _json_float(text: str) -> float:
    """A JSON number as a float; one that overflows keeps its text for the message."""
    value = float(text)
    if value in (float("inf"), float("-inf")):
        value = _Overflow(value)
        value.text = text[:40]
    return value


class _Duplicate(ValueError):
    pass


def _no_duplicates(pairs):
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set = set()
        for k, _ in pairs:
            if k in seen:
                raise _Duplicate(f"key {k!r} given twice")
            seen.add(k)
    return out


def _loads(line: str, label: str, number: int):
    try:
        return json.loads(
            line,
            parse_constant=_refuse_constant,
            parse_float=_json_float,
            object_pairs_hook=_no_duplicates,
        )
    except _Duplicate as exc:
        raise StatsInputError(f"{label}, line {number}: {exc}") from None
    except ValueError as exc:
        msg = getattr(exc, "msg", None) or str(exc)
        col = getattr(exc, "colno", None)
        where = f" (column {col}: {line[col - 1 : col + 19]!r})" if col else ""
        raise StatsInputError(f"{label}, line {number}: not JSON: {msg}{where}") from None
    except RecursionError:
        raise StatsInputError(f"{label}, line {number}: JSON nested too deeply") from None


def _json_objects(text: str, label: str, fields: str):
    """``(line number, object)`` of each non-blank line of the JSONL ``text``; a line that is
    not a JSON object is refused, naming ``fields`` (what a line must hold)."""
    for number, line in enumerate(text.split("\n"), start=1):
        if line.strip():
            obj = _loads(line, label, number)
            if not isinstance(obj, dict):
                raise StatsInputError(
                    f"{label}, line {number}: expected a JSON object with {fields}; got "
                    f"{_kind(obj)}"
                )
            yield number, obj


def _kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


@dataclass
class _Parsed:
    system: str
    lines: list  # line number per document
    lp: list
    domain: list
    document: list
    n: Any  # paragraphs per document (a list line by line, an array from pyarrow)
    values: dict  # metric -> flat list of values
    spans: dict  # metric -> list of (document index, start in values)
    extra: dict  # field -> number of lines holding it


def _parse_file(text: str, label: str, system: str) -> _Parsed:
    out = _Parsed(system, [], [], [], [], [], {}, {}, {})
    seen: dict[tuple, int] = {}
    for number, obj in _json_objects(text, label, ", ".join(WMT25_SCORE_FIELDS)):
        if "metric_scores" not in obj and all(f in obj for f in OUTPUT_FIELDS):
            raise StatsInputError(
                f"{label}, line {number}: a WMT25 system output (doc_id, hypothesis), not "
                "automatic scores (language_pair, domain, document_id, metric_scores); give the "
                "automatic_scores folder or its files"
            )
        for field in WMT25_SCORE_FIELDS:
            if field not in obj:
                raise StatsInputError(
                    f"{label}, line {number}: field {field} is missing (each line of a WMT25 "
                    f"automatic-scores file holds {', '.join(WMT25_SCORE_FIELDS)})"
                )
        for field in WMT25_SCORE_FIELDS[:3]:
            value = obj[field]
            if not isinstance(value, str) or not value.strip():
                raise StatsInputError(
                    f"{label}, line {number}, field {field}: expected a non-empty string; "
                    f"got {_kind(value)}"
                )
        for field in obj.keys() - set(WMT25_SCORE_FIELDS):
            out.extra[field] = out.extra.get(field, 0) + 1
        scores = obj["metric_scores"]
        if not isinstance(scores, dict):
            raise StatsInputError(
                f"{label}, line {number}, field metric_scores: expected a mapping of metric "
                f"names to lists; got {_kind(scores)}"
            )
        key = (obj["language_pair"], obj["domain"], obj["document_id"])
        if key in seen:
            raise StatsInputError(
                f"{label}, line {number}: document {key[2]!r} ({key[0]}, {key[1]}) is given "
                f"twice (lines {seen[key]} and {number})"
            )
        seen[key] = number
        n = None
        for metric, values in scores.items():
            if not isinstance(values, list):
                raise StatsInputError(
                    f"{label}, line {number}, field metric_scores.{metric}: expected a list "
                    f"of paragraph values; got {_kind(values)}"
                )
            if n is None:
                n, first = len(values), metric
            elif len(values) != n:
                raise StatsInputError(
                    f"{label}, line {number}, field metric_scores.{metric}: {len(values)} "
                    f"values where metric_scores.{first} has {n} (one value per paragraph)"
                )
        doc = len(out.lines)
        out.lines.append(number)
        out.lp.append(key[0])
        out.domain.append(key[1])
        out.document.append(key[2])
        out.n.append(n or 0)
        for metric, values in scores.items():
            flat = out.values.setdefault(metric, [])
            out.spans.setdefault(metric, []).append((doc, len(flat)))
            flat.extend(values)
    if not out.lines:
        raise StatsInputError(f"{label}: file is empty")
    return out


def _floats(parsed: _Parsed, metric: str, label: str) -> np.ndarray:
    """The values of ``metric`` as floats (null -> NaN) by the one number rule, or the error
    naming line and field of the first that breaks it."""
    values = parsed.values[metric]
    bad_at = None
    if set(map(type, values)) <= _NUMBER_TYPES:
        try:
            arr = np.array(values, dtype=float)
        except OverflowError:
            arr = None
        if arr is not None:
            wrong = np.isinf(arr) | (np.abs(arr) > MAX_ABS_VALUE)
            if not wrong.any():
                return arr
            bad_at = int(np.flatnonzero(wrong)[0])
    if bad_at is None:
        for i, v in enumerate(values):
            if type(v) not in _NUMBER_TYPES:
                bad_at = i
                break
            if isinstance(v, int):
                try:
                    if abs(float(v)) > MAX_ABS_VALUE:
                        bad_at = i
                        break
                except OverflowError:
                    bad_at = i
                    break
    if bad_at is None:  # the callers come here only for a value that breaks the rule
        raise StatsInputError(f"{label}: metric_scores.{metric}: a value is not a number")
    starts = [s for _, s in parsed.spans[metric]]
    k = int(np.searchsorted(starts, bad_at, side="right")) - 1
    doc, start = parsed.spans[metric][k]
    v = values[bad_at]
    if isinstance(v, _Overflow):
        why = f"a number that overflows a 64-bit float ({v.text})"
    elif type(v) in _NUMBER_TYPES:
        why = f"{v!r:.40} is too large (values must lie within +-{MAX_ABS_VALUE:.0e})"
        if isinstance(v, float) and np.isinf(v):
            why = "a number that overflows a 64-bit float"
    else:
        why = f"expected a number or null; got {_kind(v)} {json.dumps(v)[:40]}"
    raise StatsInputError(
        f"{label}, line {parsed.lines[doc]}, field metric_scores.{metric}[{bad_at - start}]: "
        f"{why}"
    )


# ---------------------------------------------------------------------------------------------
# One file, the fast path: pyarrow's JSON reader, every check on whole columns
# ---------------------------------------------------------------------------------------------

#: whether the fast path is tried (tests compare it with the line-by-line path)
FAST_PATH = True


def _plain_utf8(data: bytes) -> bool:
    """UTF-8 without a byte-order mark (then the bytes are the decoded text's own)."""
    from ._limits import detect_encoding

    encoding, skip = detect_encoding(data)
    return encoding in ("utf-8", "ascii") and skip == 0


def _parse_arrow(data: bytes, system: str):
    """:func:`_arrow_columns`, None on any error of pyarrow's (a case its reader or
    compute functions do not handle is read line by line instead)."""
    if not FAST_PATH:
        return None
    try:
        import pyarrow as pa
    except ImportError:  # pragma: no cover - pyarrow is a dependency
        return None
    try:
        return _arrow_columns(data, system)
    except (pa.ArrowException, ValueError, TypeError, OverflowError):
        return None


def _arrow_table(data: bytes, schema=None):
    """pyarrow's JSON reader on ``data`` (one block, one thread: files are read two at a time)."""
    import io

    import pyarrow.json as pj

    parse = None
    if schema is not None:
        parse = pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="infer")
    return pj.read_json(
        io.BytesIO(data),
        read_options=pj.ReadOptions(use_threads=False, block_size=max(len(data), 1 << 20) + 1),
        parse_options=parse,
    )


def _single(column):
    """A table's column as one array."""
    return column.chunk(0) if column.num_chunks == 1 else column.combine_chunks()


def _valid(table) -> bool:
    import pyarrow as pa

    try:
        table.validate(full=True)
    except pa.ArrowInvalid:
        return False
    return True


def _doubles_schema(table):
    """The schema of ``table`` with every metric a list of doubles (the three names strings)."""
    import pyarrow as pa

    scores = table.schema.field("metric_scores").type
    fields = [pa.field(f, pa.string()) for f in WMT25_SCORE_FIELDS[:3]]
    metrics = [pa.field(scores.field(j).name, pa.list_(pa.float64())) for j in range(scores.num_fields)]
    return pa.schema([*fields, pa.field("metric_scores", pa.struct(metrics))])


def _first_codes(*codes: np.ndarray) -> np.ndarray:
    """A code per distinct tuple ``(codes[0][i], codes[1][i], ...)`` of non-negative integer
    codes, numbered in order of first appearance."""
    sizes = [int(c.max(initial=0)) + 1 for c in codes]
    if float(np.prod(np.array(sizes, dtype=float))) < 2.0**62:  # one key, no overflow
        key = np.zeros(len(codes[0]), dtype=np.int64)
        for c, size in zip(codes, sizes, strict=True):
            key = key * size + c
        return pd.factorize(key)[0].astype(np.int64)  # numbered in order of first appearance
    key = np.zeros(len(codes[0]), dtype=np.int64)
    for c in codes:  # each step's key stays below the number of rows: no overflow
        key = np.unique(key * (int(c.max(initial=0)) + 1) + c, return_inverse=True)[1].ravel()
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    rank = np.empty(len(first), dtype=np.int64)
    rank[np.argsort(first, kind="stable")] = np.arange(len(first))
    return rank[inverse.ravel()]


def _arrow_columns(data: bytes, system: str):
    """``(parsed, arrays)`` as the line-by-line path gives them, from pyarrow's JSON reader,
    or None whenever anything is not plainly right (then the line-by-line path reads the file
    and names what is wrong): a parse error (not JSON, ``NaN``, a key given twice, a number
    past 64-bit integers, ...), a field missing, null or of another type, a value that is not
    a number or null, lists of different lengths in one document, a non-finite or too large
    value, a document given twice, a name past :data:`~._limits.MAX_FIELD_CHARS`, a ``null``
    anywhere but in a metric's list. Numbers are parsed to the nearest double, as Python's
    ``float`` parses them. The language pair, domain and document stay pyarrow arrays.

    pyarrow's type inference can lose the nulls that open a list (``[null, 5, 6]``: its
    offsets then point past its values, or its nulls are fewer than the file's): such a file
    is read again with every metric a list of doubles, the type its values end up as."""
    if not FAST_PATH:
        return None
    import pyarrow as pa

    table = _arrow_table(data)
    names = table.column_names
    if any(f not in names for f in WMT25_SCORE_FIELDS) or table.num_rows == 0:
        return None
    if not pa.types.is_struct(table.schema.field("metric_scores").type):
        return None
    for attempt in range(2):
        if attempt:
            table = _arrow_table(data, _doubles_schema(table))
            if sorted(table.column_names) != sorted(names):
                return None
        if not _valid(table):
            continue
        out = _table_columns(table, data, system)
        if out is not _AGAIN:
            return out
    return None


#: :func:`_table_columns`' answer when the table lost nulls (read it again, typed)
_AGAIN = object()


def _table_columns(table, data: bytes, system: str):
    """:func:`_arrow_columns` of one table read: the result, None, or :data:`_AGAIN`."""
    import pyarrow as pa
    import pyarrow.compute as pc

    rows = table.num_rows
    texts = []
    for field in WMT25_SCORE_FIELDS[:3]:
        col = _single(table.column(field))
        if not pa.types.is_string(col.type) or col.null_count:
            return None
        if pc.max(pc.utf8_length(col)).as_py() > _limits.MAX_FIELD_CHARS:
            return None  # the line-by-line path names the line
        if pc.any(pc.equal(pc.utf8_length(pc.utf8_trim_whitespace(col)), 0)).as_py():
            return None
        texts.append(col)
    scores = _single(table.column("metric_scores"))
    if scores.null_count:
        return None
    lengths = np.full((rows, scores.type.num_fields), -1, dtype=np.int64)
    arrays, spans = {}, {}
    nulls = 0
    for j in range(scores.type.num_fields):
        field = scores.type.field(j)
        child = scores.field(j)
        if not pa.types.is_list(field.type) or len(field.name) > _limits.MAX_FIELD_CHARS:
            return None
        inner = field.type.value_type
        if not (pa.types.is_integer(inner) or pa.types.is_floating(inner) or pa.types.is_null(inner)):
            return None
        present = child.is_valid().to_numpy(zero_copy_only=False)
        lengths[present, j] = pc.list_value_length(child).to_numpy(zero_copy_only=False)[present]
        values = pc.list_flatten(child)  # the values of the lists present, in row order
        as_float = values.cast(pa.float64()).to_numpy(zero_copy_only=False)
        if np.isinf(as_float).any() or (np.abs(as_float) > MAX_ABS_VALUE).any():
            return None
        if int(np.isnan(as_float).sum()) != values.null_count:  # a NaN literal, not a null
            return None
        nulls += values.null_count
        arrays[field.name] = np.asarray(as_float, dtype=float)
        spans[field.name] = np.flatnonzero(present).astype(np.int64)
    # every null of the file is a value in a list: a null lost by the reader, a metric or
    # field given as null (refused or counted by the line-by-line path), or "null" in a
    # name sends the file on
    if nulls != data.count(b"null"):
        return _AGAIN
    masked = np.where(lengths < 0, np.iinfo(np.int64).max, lengths)
    low = masked.min(axis=1) if lengths.shape[1] else np.zeros(rows, dtype=np.int64)
    high = lengths.max(axis=1) if lengths.shape[1] else np.zeros(rows, dtype=np.int64)
    if lengths.shape[1] and not np.all((high < 0) | (low == high)):
        return None
    n = np.maximum(high, 0)
    codes = [col.dictionary_encode().indices.to_numpy().astype(np.int64) for col in texts]
    if int(_first_codes(*codes).max()) + 1 < rows:  # a document given twice
        return None
    extra = {f: rows - table.column(f).null_count for f in table.column_names
             if f not in WMT25_SCORE_FIELDS}  # fmt: skip
    lps, domains, documents = texts
    parsed = _Parsed(system, list(range(1, rows + 1)), lps, domains, documents, n, {}, spans,
                     {f: k for f, k in extra.items() if k})  # fmt: skip
    return parsed, arrays


# ---------------------------------------------------------------------------------------------
# The reader
# ---------------------------------------------------------------------------------------------


def is_wmt25_scores(text: str) -> bool:
    """Whether the first non-blank line of ``text`` is a JSON object with the four fields of
    an automatic-scores line."""
    for line in text.split("\n", 50)[:50]:
        if line.strip():
            try:
                obj = json.loads(line)
            except ValueError:
                return False
            return isinstance(obj, dict) and all(f in obj for f in WMT25_SCORE_FIELDS)
    return False


def _read_one(label: str, data) -> tuple[_Parsed, dict[str, np.ndarray]]:
    """One file (its bytes, or a function reading them): decoded and checked, then parsed by
    the fast path or line by line."""
    system = _system_of(label)
    if callable(data):
        data = data()
    check_parse_memory(len(data), label, PARSE_FACTOR)  # characters <= bytes
    # JSON lines end at a line feed (a CR or U+2028 inside a line is inside a string)
    _limits.check_line_count(data.count(b"\n") + (bool(data) and not data.endswith(b"\n")), label)
    if _plain_utf8(data):  # pyarrow checks the UTF-8 itself: a bad byte sends it below
        fast = _parse_arrow(data, system)
        if fast is not None:  # its names are within the limits (else it gives None)
            return fast
    # anything the fast path does not take is decoded, checked and read line by line (its
    # errors name the line and field)
    text = decode(data, label)
    p = _parse_file(text, label, system)
    arrays = {m: _floats(p, m, label) for m in p.values}
    p.values = {}  # the Python lists go once their arrays exist
    p.spans = {m: np.fromiter((d for d, _ in v), dtype=np.int64, count=len(v))
               for m, v in p.spans.items()}  # fmt: skip
    _check_field_lengths(p, label)
    return p, arrays


def _check_field_lengths(parsed: _Parsed, label: str) -> None:
    """Refuse a name (language pair, domain, document, metric) longer than
    :data:`~._limits.MAX_FIELD_CHARS` characters, naming its line."""
    limit = _limits.MAX_FIELD_CHARS
    for column in (parsed.lp, parsed.domain, parsed.document):
        if max(map(len, column), default=0) <= limit:
            continue
        for i, text in enumerate(column):
            if isinstance(text, str) and len(text) > limit:
                raise StatsInputError(
                    f"{label}, line {parsed.lines[i]}: a field of {len(text):,} characters is "
                    f"over the limit of {limit:,} characters per field (a name or cell)"
                )
    for metric in parsed.spans:
        if len(metric) > limit:
            raise StatsInputError(
                f"{label}: a metric name of {len(metric):,} characters is over the limit of "
                f"{limit:,} characters per field (a name or cell)"
            )


def read_wmt25_scores(files: Sequence) -> WMT25Scores:
    """Read WMT25 automatic scores as published (one ``SYSTEM.jsonl`` per system).

    Parameters
    ----------
    files : sequence
        Paths (a folder stands for every ``*.jsonl`` file in it, recursively; a zip or tar
        for every ``*.jsonl`` member), or ``(name, bytes)`` pairs (uploads). The system is the
        file's name without ``.jsonl`` (``automatic_scores/GPT-4.1.jsonl`` -> ``GPT-4.1``).

    Returns
    -------
    WMT25Scores

    Raises
    ------
    StatsInputError
        A file past a size limit (checked before it is read), a system given by two files,
        or any line that breaks the layout (see the module docstring), naming the file, line
        and field.

    Examples
    --------
    >>> line = ('{"language_pair": "en-de_DE", "domain": "news", "document_id": "d1", '
    ...         '"metric_scores": {"XCOMET-XL": [0.5, null]}}')
    >>> r = read_wmt25_scores([("A.jsonl", line.encode())])
    >>> r.read_as
    'read as WMT25 automatic scores: 1 system, 1 language pair, 1 metric (1 document, 2 paragraphs)'
    >>> r.notes[0]
    '1 null value of 2 (none filled in; a mean is over the values present): XCOMET-XL 1'
    """
    if isinstance(files, (str, os.PathLike)) or (
        isinstance(files, tuple) and len(files) == 2 and isinstance(files[0], str)
        and isinstance(files[1], (bytes, bytearray))
    ):
        files = [files]
    raw, skipped = _jsonl_files(files)
    if not raw:
        raise StatsInputError("scores: no file given")
    by_system: dict[str, str] = {}
    for label, _ in raw:
        system = _system_of(label)
        if not system:
            raise StatsInputError(f"{label}: the file name gives no system name")
        if system in by_system:
            raise StatsInputError(
                f"{label}: system {system!r} is also given by {by_system[system]} (one file "
                "per system)"
            )
        by_system[system] = label
    # files parsed two at a time (pyarrow's reader releases the GIL), each in a copy of this
    # thread's context (the session's budget holds there too); results and errors in file order
    if len(raw) > 1 and (os.cpu_count() or 1) > 1:
        import contextvars
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=2) as pool:
            futures = [
                pool.submit(contextvars.copy_context().run, _read_one, label, data)
                for label, data in raw
            ]
            parsed = [f.result() for f in futures]
    else:
        parsed = [_read_one(label, data) for label, data in raw]
    metrics: dict[str, None] = {}
    for _, arrays in parsed:
        metrics.update(dict.fromkeys(arrays))
    return _assemble(parsed, tuple(metrics), tuple(label for label, _ in raw), skipped)


def _encoded(columns) -> tuple[np.ndarray, list[str]]:
    """Codes (int64) of the concatenated string columns (pyarrow arrays or lists) and the
    distinct values, numbered in order of first appearance (pyarrow's dictionary encoding)."""
    import pyarrow as pa

    arrays = [c if isinstance(c, pa.Array) else pa.array(c, type=pa.string()) for c in columns]
    encoded = pa.concat_arrays(arrays).dictionary_encode()
    return encoded.indices.to_numpy().astype(np.int64), encoded.dictionary.to_pylist()


def _assemble(parsed, metrics, files, skipped) -> WMT25Scores:
    """One table of every file's paragraphs (codes, not strings, until the end), the coverage
    counts and the notes; every step on whole columns."""
    n_m = len(metrics)
    systems_in = [p.system for p, _ in parsed]
    n = np.concatenate([np.asarray(p.n, dtype=np.int64) for p, _ in parsed])  # per line
    per_file = np.array([len(p.n) for p, _ in parsed], dtype=np.int64)
    line_sys = np.repeat(np.arange(len(parsed)), per_file)
    first_line = np.cumsum(per_file) - per_file
    lpc, lp_names = _encoded(p.lp for p, _ in parsed)
    domc, dom_names = _encoded(p.domain for p, _ in parsed)
    idc, id_names = _encoded(p.document for p, _ in parsed)
    docc = _first_codes(lpc, domc, idc)  # one number per (language pair, domain, document)
    n_docs = int(docc.max()) + 1 if len(docc) else 0
    doc_lp = np.empty(n_docs, dtype=np.int64)
    doc_lp[docc] = lpc
    L, S = len(lp_names), len(parsed)

    # paragraphs: one row per value position of every line
    total = int(n.sum())
    starts = np.cumsum(n) - n
    sys_lp = line_sys * L + lpc  # per line
    docs = np.bincount(sys_lp, minlength=S * L)
    with_m = np.zeros((S * L, n_m), dtype=np.int64)
    vals = np.zeros((S * L, n_m), dtype=np.int64)
    nul = np.zeros((S * L, n_m), dtype=np.int64)
    columns = []  # one array per metric, no copy
    for j, m in enumerate(metrics):
        held = [(p.spans[m] + first_line[si], arrays[m])
                for si, (p, arrays) in enumerate(parsed) if m in arrays]  # fmt: skip
        span_lines = np.concatenate([h[0] for h in held])
        flat = np.concatenate([h[1] for h in held])
        if len(span_lines) == len(n):  # on every line, in line order: the column itself
            columns.append(flat)
        else:
            on_line = np.zeros(len(n), dtype=bool)
            on_line[span_lines] = True
            column = np.full(total, np.nan)
            column[np.repeat(on_line, n)] = flat
            columns.append(column)
        cell = sys_lp[span_lines]
        # each null's line: the first line whose values end after it
        ends = np.cumsum(n[span_lines])
        null_lines = np.searchsorted(ends, np.flatnonzero(np.isnan(flat)), side="right")
        with_m[:, j] = np.bincount(cell, minlength=S * L)
        nul[:, j] = np.bincount(cell[null_lines], minlength=S * L)
        vals[:, j] = np.bincount(cell, weights=n[span_lines], minlength=S * L).astype(np.int64) - nul[:, j]

    # coverage: one row per (system, language pair with lines, metric), sorted by lp, system
    si, li = np.nonzero(docs.reshape(S, L) > 0)
    # sorted by language pair, then system (names' ranks; the metrics in their order)
    lp_rank = np.argsort(np.argsort(np.array(lp_names, dtype=object), kind="stable"))
    sys_rank = np.argsort(np.argsort(np.array(systems_in, dtype=object), kind="stable"))
    by_name = np.lexsort((sys_rank[si], lp_rank[li]))
    si, li = si[by_name], li[by_name]
    cell = si * L + li
    lp_obj = np.array(lp_names, dtype=object)
    sys_obj = np.array(systems_in, dtype=object)
    coverage = pd.DataFrame(
        {
            "lp": np.repeat(lp_obj[li], n_m),
            "system": np.repeat(sys_obj[si], n_m),
            "metric": np.tile(np.array(metrics, dtype=object), len(cell)),
            "documents": np.repeat(docs[cell], n_m),
            "with_metric": with_m[cell].ravel(),
            "values": vals[cell].ravel(),
            "nulls": nul[cell].ravel(),
        }
    )

    def cat(codes, names):
        # the codes in the small integer type pandas keeps them in, repeated per paragraph
        small = np.int8 if len(names) < 127 else np.int16 if len(names) < 32767 else np.int32
        per_row = np.repeat(codes.astype(small if len(names) < 2**31 - 1 else np.int64), n)
        return pd.Categorical.from_codes(
            per_row, categories=pd.Index(names, dtype=object), validate=False
        )

    paragraphs = pd.DataFrame(
        {
            "lp": cat(lpc, lp_names),
            "system": cat(line_sys, systems_in),
            "domain": cat(domc, dom_names),
            "document": cat(idc, id_names),
            "paragraph": np.arange(total, dtype=np.int64) - np.repeat(starts, n),
            **dict(zip(metrics, columns, strict=True)),
            "doc": np.repeat(docc, n),  # one number per (language pair, domain, document)
        },
        copy=False,
    )
    systems = tuple(sorted(systems_in))
    lps = tuple(sorted(lp_names))

    def plural(k, word):
        return f"{k:,} {word}{'' if k == 1 else 's'}"

    read_as = (
        f"read as {KIND}: {plural(len(systems), 'system')}, {plural(len(lps), 'language pair')}, "
        f"{plural(len(metrics), 'metric')} ({plural(n_docs, 'document')}, "
        f"{plural(total, 'paragraph')})"
    )
    # a system's lines of a language pair are distinct documents (checked per file)
    lp_doc_count = np.bincount(doc_lp, minlength=L)
    have = docs.reshape(S, L)
    gap_s, gap_l = np.nonzero((have > 0) & (have < lp_doc_count))
    missing_docs = sorted(
        (lp_names[b], systems_in[a], int(lp_doc_count[b] - have[a, b]), int(lp_doc_count[b]))
        for a, b in zip(gap_s.tolist(), gap_l.tolist(), strict=True)
    )
    counts = {"with_metric": with_m.reshape(S, L, n_m), "values": vals.reshape(S, L, n_m),
              "nulls": nul.reshape(S, L, n_m), "documents": have}  # fmt: skip
    notes = _notes(parsed, counts, metrics, systems_in, lp_names, missing_docs, skipped)
    return WMT25Scores(
        paragraphs=paragraphs,
        metrics=metrics,
        systems=systems,
        lps=lps,
        coverage=coverage,
        files=files,
        read_as=read_as,
        notes=tuple(notes),
    )


def _notes(parsed, counts, metrics, systems_in, lp_names, missing_docs, skipped) -> list[str]:
    """The notes of what is missing, from the counts per (system, language pair, metric) of
    :func:`_assemble` (``with_metric``, ``values``, ``nulls``: shape (systems, language pairs,
    metrics) in reading order; ``documents``: (systems, language pairs))."""
    notes = []
    with_m, docs = counts["with_metric"], counts["documents"]
    nulls = counts["nulls"].sum(axis=(0, 1))
    total = int(nulls.sum() + counts["values"].sum())
    systems, lps = sorted(systems_in), sorted(lp_names)
    if nulls.sum():
        by = ", ".join(f"{m} {int(k):,}" for m, k in zip(metrics, nulls.tolist(), strict=True) if k)
        s = "" if nulls.sum() == 1 else "s"
        notes.append(
            f"{int(nulls.sum()):,} null value{s} of {total:,} (none filled in; a mean is over "
            f"the values present): {by}"
        )
    exists = (with_m > 0).any(axis=0)  # (language pair, metric): some system has it
    for j, m in enumerate(metrics):
        have = sorted(lp_names[b] for b in np.flatnonzero(exists[:, j]).tolist())
        if len(have) < len(lps):
            notes.append(
                f"metric {m} is present for {len(have)} of {len(lps)} language pairs "
                f"({name_list(have)}); absent for the others"
            )
    # where a metric exists in a language pair: the systems with lines without it, and the
    # systems with it on some of their documents (by language pair, system, metric)
    lines = docs > 0
    absent = lines[:, :, None] & exists[None, :, :] & (with_m == 0)
    groups = sorted(
        (lp_names[b], metrics[j], b, j) for b, j in zip(*np.nonzero(absent.any(axis=0)), strict=True)
    )
    for lp, m, b, j in groups:
        gone = sorted(systems_in[a] for a in np.flatnonzero(absent[:, b, j]).tolist())
        notes.append(
            f"{lp}: metric {m} absent for {len(gone)} system(s) that have lines "
            f"({name_list(gone)}); their AutoRank uses the other metrics"
        )
    part = sorted(
        (lp_names[b], systems_in[a], j, a, b)
        for a, b, j in zip(*np.nonzero((with_m > 0) & (with_m < docs[:, :, None])), strict=True)
    )
    for lp, system, j, a, b in part:
        k, have_m = int(docs[a, b]), int(with_m[a, b, j])
        notes.append(
            f"{lp}, {system}: metric {metrics[j]} absent on {k - have_m:,} of {k:,} documents"
        )
    for b in sorted(range(len(lp_names)), key=lambda i: lp_names[i]):
        missing = sorted(systems_in[a] for a in np.flatnonzero(~lines[:, b]).tolist())
        if missing:
            notes.append(
                f"{lp_names[b]}: {len(missing)} of {len(systems)} systems have no lines "
                f"({name_list(missing)}); not ranked there"
            )
    for lp, s, missing, total_docs in missing_docs:
        notes.append(
            f"{lp}, {s}: {missing:,} of the {total_docs:,} documents other systems have are "
            "absent (not filled in)"
        )
    extra: dict[str, int] = {}
    for p, _ in parsed:
        for field, k in p.extra.items():
            extra[field] = extra.get(field, 0) + k
    for field, k in extra.items():
        notes.append(f"field {field!r} not read ({k:,} lines)")
    if skipped:
        notes.append(f"{len(skipped)} file(s) not ending in .jsonl skipped: {name_list(skipped)}")
    return notes
