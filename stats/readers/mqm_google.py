"""Google's MQM side files (google/wmt-mqm-human-evaluation), read as what they hold.

* **Per-segment averages** ``mqm_*.avg_seg_scores.tsv`` (newstest2020/2021, TED): a header
  ``system mqm_avg_score seg_id`` and one row per system and segment, the segment's MQM score
  averaged over its raters (minus the weighted error count, the README's weights; higher is
  better), ``None`` where the segment was not rated. Fields are split on whitespace: the
  newstest2020 files separate them with spaces, the newstest2021 and TED files with a tab
  after the system and a space before the segment. Read as MQM scores per segment (one
  rating per segment, protocol ``"MQM (segment averages)"``), ranked like any human score; the
  ``None`` rows are counted in the notes and left out.
* **Source errors** ``mqm_*.source-errors.tsv`` (newstest2020): only ``Source error`` rows,
  annotations of errors in the source text made on the translations; not a ratings file, so
  never ranked (protocol :data:`~stats.readers.mqm.MQM_SOURCE_ERRORS`): what it holds (rows,
  systems, severities) is said instead. The newstest2020 zh-en file's rows have 8 fields under
  its 9-column header (no rater, no seg_id); its rows are counted as they are.

The language pair comes from the file name (``mqm_newstest2020_ende.source-errors.tsv`` ->
``en-de``, :func:`stats.readers.mqm.language_pair_of`) or ``lp=``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

from ._arrow import plain_bytes, repeated
from ._common import (
    LINE,
    Decoded,
    Source,
    column_numbers,
    decode,
    fast_frame,
    first_repeat,
    load_bytes,
    load_text,
)
from .documents import NO_DOMAIN, HumanRatings
from .mqm import (
    NO_LP,
    SOURCE_ERROR_CATEGORIES,
    language_pair_of,
    source_error_ratings,
)

__all__ = [
    "AVERAGE_COLUMNS",
    "MQM_AVERAGES",
    "is_mqm_averages",
    "is_source_error_file",
    "read_mqm_averages",
    "read_source_errors",
]

#: the header of Google's per-segment averages
AVERAGE_COLUMNS = ("system", "mqm_avg_score", "seg_id")
#: the protocol of the per-segment averages (kept apart from MQM error spans: one file
#: averages the other's ratings)
MQM_AVERAGES = "MQM (segment averages)"
#: pandas' string dtype held by pyarrow (no Python object per row)
_STR = pd.StringDtype("pyarrow", na_value=np.nan)
_SOURCE_ERRORS_SUFFIX = ".source-errors"


def _first_line(text: str) -> str:
    return next((ln for ln in text.split("\n", 5) if ln.strip()), "")


def is_mqm_averages(text: str) -> bool:
    """True when the first line is Google's ``system mqm_avg_score seg_id`` header."""
    return tuple(f.lower() for f in _first_line(text).split()) == AVERAGE_COLUMNS


def is_source_error_file(name: str) -> bool:
    """True for a file named as Google names its source-error side files
    (``*.source-errors.tsv``)."""
    base = str(name).replace("\\", "/").rsplit("/", 1)[-1].lower()
    return _SOURCE_ERRORS_SUFFIX in base


def read_mqm_averages(
    source: Source, *, name: str | None = None, lp: str | None = None
) -> HumanRatings:
    """Read Google's ``mqm_*.avg_seg_scores.tsv`` as MQM scores per segment.

    Returns
    -------
    HumanRatings
        One row per rated (system, segment), rater ``"(segment average)"``, document ``""``;
        protocol :data:`MQM_AVERAGES`. ``None`` rows (segments not rated) are left out and
        counted in ``notes``.

    Raises
    ------
    StatsInputError
        Not the ``system mqm_avg_score seg_id`` header, a row of other than 3 fields, a score
        that is neither a number nor ``None`` (naming file, line and column), a (system,
        segment) given twice, or no rated segment.

    Examples
    --------
    >>> r = read_mqm_averages(b"system mqm_avg_score seg_id\\nA\\t-1.5 1\\nA\\tNone 2\\n",
    ...                       name="mqm_ted_zhen.avg_seg_scores.tsv")
    >>> r.frame["score"].tolist(), r.language_pairs
    ([-1.5], ('zh-en',))
    """

    data, label = load_bytes(source, name)
    if plain_bytes(data):  # one space or one tab between fields: read by columns from the bytes
        first = data[: data.find(b"\n")].decode("utf-8")
        fast = _plain_averages(data, label, lp) if is_mqm_averages(first) else None
        if fast is not None:
            return fast
    text = source.text if isinstance(source, Decoded) else decode(data, label)
    if not is_mqm_averages(text):
        raise StatsInputError(
            f"{label}: not Google's MQM segment averages: the first line is not "
            f"{' '.join(AVERAGE_COLUMNS)}"
        )
    raw = None
    if not text[:1].isspace():  # the header on line 1: the rows read by columns if plain
        raw = fast_frame(text.encode("utf-8"), list(AVERAGE_COLUMNS), "whitespace",
                         dict.fromkeys(AVERAGE_COLUMNS, "str"))
    if raw is not None and len(raw):
        raw[LINE] = np.arange(2, len(raw) + 2, dtype=np.int64)
        return _averages(raw, label, lp)
    lines = text.split("\n")
    head = next(i for i, ln in enumerate(lines) if ln.strip())
    rows, numbers = [], []
    for k, ln in enumerate(lines[head + 1 :], start=head + 2):
        if not ln.strip():
            continue
        fields = ln.split()
        if len(fields) != 3:
            raise StatsInputError(
                f"{label}, line {k}: {len(fields)} field(s); Google's segment averages have 3 "
                f"({' '.join(AVERAGE_COLUMNS)})"
            )
        rows.append(fields)
        numbers.append(k)
    if not rows:
        raise StatsInputError(f"{label}: no rows after the header")
    raw = pd.DataFrame(rows, columns=list(AVERAGE_COLUMNS))
    raw[LINE] = np.asarray(numbers, dtype=np.int64)
    return _averages(raw, label, lp)


def _plain_averages(data: bytes, label: str, lp: str | None) -> HumanRatings | None:
    """:func:`read_mqm_averages` of a plain file (:func:`~._arrow.plain_bytes`) whose rows
    separate their fields by one space or by one tab, from its bytes by columns (pyarrow);
    None for any other file, or one the reader refuses (the careful path names the line)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from stats._core.numbers import MAX_NUMBER_CHARS

    from ._arrow import LARGE_BLOCK, coded, in_threads, long_line, read_typed

    body = data.find(b"\n") + 1
    tab, space = data.find(b"\t", body) >= 0, data.find(b" ", body) >= 0
    if tab == space or not body:
        return None
    sep = b"\t" if tab else b" "
    # the scores parsed as numbers by the parser (pyarrow's cast's reading; one separator
    # and never the other: no padded cell), "None" (unrated) as missing, when no line is
    # longer than a number may be; else as strings
    typed = not long_line(data, MAX_NUMBER_CHARS)
    # names as pandas' str holds them (large strings: the frame's columns as parsed)
    types = {**dict.fromkeys(AVERAGE_COLUMNS, "large"),
             "mqm_avg_score": "float64" if typed else "str"}
    table = read_typed(data, list(AVERAGE_COLUMNS), types, delimiter=sep.decode(), skip_rows=1,
                       blank_lines=False, block=LARGE_BLOCK, threads=True,
                       null_values=["None"] if typed else ())  # fmt: skip
    # (a score the parser refuses, the cast of its string refuses too: the careful path)
    if table is None or not table.num_rows:
        return None
    # every row has three fields: a run of separators, or one that starts or ends a line,
    # shows as an empty field (a name "None", missing here: the careful path reads it)
    if any(table.column(c).null_count or pc.min(pc.binary_length(table.column(c))).as_py() == 0
           for c in ("system", "seg_id")) or (
        not typed and pc.min(pc.binary_length(table.column("mqm_avg_score"))).as_py() == 0
    ):  # fmt: skip
        return None  # runs of whitespace, or a field padded with it
    n_rows = table.num_rows
    scores = table.column("mqm_avg_score")
    if typed:
        none = scores.is_null() if scores.null_count else None
    else:
        none = pc.equal(scores, "None")
        none = none if pc.any(none).as_py() else None
    if none is not None:
        unrated = np.asarray(none.to_numpy(zero_copy_only=False), dtype=bool)
        rated_rows = np.flatnonzero(~unrated)
        if not len(rated_rows):
            return None
        del scores
        table = table.filter(pa.array(~unrated))
        n_unrated = int(unrated.sum())
    else:
        rated_rows, n_unrated = np.arange(n_rows), 0
    score = column_numbers(table.column("mqm_avg_score"), typed=typed)
    if score is None:
        return None
    (sys_codes, systems), (seg_codes, segs) = in_threads(
        lambda c: coded(table.column(c)), ("system", "seg_id")
    )  # at once, on the cores the parser used
    key = sys_codes * max(len(segs), 1) + seg_codes
    cells = len(systems) * max(len(segs), 1)
    if first_repeat(key, cells) is not None:
        return None
    system = pd.array(table.column("system"), dtype=_STR)
    segment = pd.array(table.column("seg_id"), dtype=_STR)
    return _averages_result(system, segment, score, (rated_rows + 2).astype(np.int64),
                            len(systems), n_unrated, n_rows, label, lp)


def _averages(raw: pd.DataFrame, label: str, lp: str | None) -> HumanRatings:
    """The ratings of Google's segment averages from their rows (``raw``: strings and each
    row's line), checked on integer codes of the names (no Python string per row)."""
    from ._common import codes_and_names, to_float

    unrated = (raw["mqm_avg_score"] == "None").to_numpy()
    rated = raw[~unrated].reset_index(drop=True)
    if not len(rated):
        raise StatsInputError(f"{label}: every score is None: no segment was rated")
    score = to_float(rated, "mqm_avg_score", label)
    system = rated["system"].astype(_STR)
    segment = rated["seg_id"].astype(_STR)
    (sys_codes, systems), (seg_codes, segs) = codes_and_names(system), codes_and_names(segment)
    twice = pd.Series(sys_codes * max(len(segs), 1) + seg_codes).duplicated().to_numpy()
    if twice.any():
        i = int(np.flatnonzero(twice)[0])
        raise StatsInputError(
            f"{label}, line {int(rated[LINE].iloc[i])}: system {rated['system'].iloc[i]!r} has "
            f"segment {rated['seg_id'].iloc[i]!r} twice"
        )
    return _averages_result(system.array, segment.array, score,
                            rated[LINE].to_numpy(dtype=np.int64), len(systems),
                            int(unrated.sum()), len(raw), label, lp)


def _averages_result(system, segment, score: np.ndarray, line: np.ndarray, n_systems: int,
                     n_unrated: int, n_rows: int, label: str, lp: str | None) -> HumanRatings:
    """The ratings of the rated rows of Google's segment averages (their systems, segments,
    scores and lines), with the notes and ``read_as`` saying what was read."""
    found = lp or language_pair_of(label)
    pair = found or NO_LP
    n = len(score)
    frame = pd.DataFrame({
        "lp": repeated(pair, n), "domain": repeated(NO_DOMAIN, n),
        "system": system, "document": repeated("", n),
        "segment": segment, "rater": repeated("(segment average)", n),
        "score": score, LINE: line,
    })  # fmt: skip
    notes = []
    if n_unrated:
        notes.append(
            f"{n_unrated:,} rows with score None (segments not rated) left out of {label}"
        )
    where = "" if lp else (f", {pair} from the file name" if found else f", {pair}")
    read_as = (
        f"read as Google's MQM segment averages ({' '.join(AVERAGE_COLUMNS)}; each segment's "
        f"MQM score averaged over its raters), {n_rows:,} rows -> {len(frame):,} rated "
        f"segments of {n_systems} systems{where}"
    )
    return HumanRatings(frame=frame, name=label, protocol=MQM_AVERAGES, read_as=read_as,
                        notes=tuple(notes))  # fmt: skip


def read_source_errors(
    source: Source, *, name: str | None = None, lp: str | None = None
) -> HumanRatings:
    """Read a Google ``*.source-errors.tsv`` file as what it holds
    (:func:`source_error_ratings`): each row's system is its first field, its category the
    first field that names a source error and its severity the field after it, whatever the
    row's width (the newstest2020 zh-en file has 8 fields a row under a 9-column header).

    Raises
    ------
    StatsInputError
        No rows, or a row without a source-error category (naming the line): then it is not
        what its name says.
    """
    text, label = load_text(source, name)
    lines = text.split("\n")
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is None:
        raise StatsInputError(f"{label}: empty file")
    systems, cats, sevs = [], [], []
    width = set()
    for k, ln in enumerate(lines[first + 1 :], start=first + 2):
        fields = ln.rstrip("\r").split("\t")
        if not any(f.strip() for f in fields):
            continue
        at = next((j for j, f in enumerate(fields)
                   if j and f.strip().lower().startswith(SOURCE_ERROR_CATEGORIES)), None)
        if at is None:
            raise StatsInputError(
                f"{label}, line {k}: no 'Source error' category: a source-errors file holds "
                "only source-error rows"
            )
        systems.append(fields[0])
        cats.append(fields[at])
        sevs.append(fields[at + 1] if at + 1 < len(fields) else "")
        width.add(len(fields))
    if not systems:
        raise StatsInputError(f"{label}: no rows after the header")
    pair = lp or language_pair_of(label) or NO_LP
    n_fields = width.pop() if len(width) == 1 else None
    return source_error_ratings(systems, cats, sevs, label=label, lp=pair, n_fields=n_fields)
