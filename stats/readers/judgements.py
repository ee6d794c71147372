"""Reader for raw human judgements (direct assessments of adequacy and fluency).

Long format, one judgement per row, with a header naming the columns (any case, any order)::

    SYSTEM  SEGMENT  ANNOTATOR  CRITERION  SCORE
    sysA    17       w03        adequacy   74
    sysA    17       w03        fluency    81

Fields are separated by tabs, runs of whitespace, or commas (CSV, quoted fields allowed); the
delimiter is taken from the header line. ``CRITERION`` is ``adequacy`` or ``fluency`` (any
case). Scores are any finite numbers (e.g. 0-100 direct assessments). Blank lines and lines
starting with ``#`` are skipped.

Repeated judgements of the same item (``SYSTEM``, ``SEGMENT``) by the same annotator in the same
criterion are kept, each as a judgement: direct assessment shows some items twice to the same
annotator on purpose (quality-control repeats), and a careful annotator may give the same score
twice. What is not kept is the same judgements given twice by accident, which would double ``n``
and shrink every p-value of the gold standard:

* a file that repeats, row for row, a block of :data:`DUPLICATE_BLOCK` or more consecutive
  judgements of the same file (the file pasted or concatenated twice), and
* a judgement (same key and same score) of one file that is also in another file read in the
  same set (:func:`read_judgement_files`; e.g. the same rows uploaded as TSV and as CSV)

raise :class:`~stats.StatsInputError` naming the judgement and both places (file and line).

An annotator's scores are standardised within each criterion by their own mean and standard
deviation (:mod:`stats.human.gold`), which needs at least two judgements with different scores.
Annotators with a single judgement in a criterion, or with all their scores in a criterion
identical, cannot be standardised: their judgements in that criterion are excluded, with a
:class:`~stats.DegenerateInputWarning` and a message in :attr:`Judgements.warnings` that a user
interface can show. A criterion left without judgements drops out of :attr:`Judgements.criteria`
(with that warning); if nothing is left at all the reader raises :class:`~stats.StatsInputError`.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats._core.errors import DegenerateInputWarning, StatsInputError

from ._arrow import plain_bytes
from ._common import (
    LINE,
    Source,
    codes_and_names,
    column_numbers,
    header_names_each_once,
    load_bytes,
    mix_codes,
    name_list,
    read_table,
    to_float,
    unrepeated,
)

__all__ = [
    "CRITERIA",
    "DUPLICATE_BLOCK",
    "JUDGEMENT_COLUMNS",
    "Judgements",
    "prepare_judgements",
    "read_judgement_files",
    "read_judgements",
]

#: criteria a judgement may carry, in the order the gold standard uses them
from stats._core.choices import CRITERIA  # noqa: E402  (re-exported)

#: header columns of the long format
JUDGEMENT_COLUMNS = ("SYSTEM", "SEGMENT", "ANNOTATOR", "CRITERION", "SCORE")

_FRAME_COLUMNS = ["system", "segment", "annotator", "criterion", "score"]

#: consecutive judgements that, all repeating consecutive earlier judgements of the same file
#: exactly, make a copied block (an error); scattered single repeats are DA repeats and kept
DUPLICATE_BLOCK = 5
#: pandas' string dtype held by pyarrow (no Python object per row)
_STR = pd.StringDtype("pyarrow", na_value=np.nan)


@dataclass(frozen=True, kw_only=True)
class Judgements:
    """Human judgements ready for standardisation.

    Attributes
    ----------
    frame : pandas.DataFrame
        Columns ``system``, ``segment``, ``annotator``, ``criterion`` (str), ``score`` (float)
        and ``_line`` (line number in the file; ``-1`` for in-memory data), one row per usable
        judgement.
    name : str
        Display name of the source.
    criteria : tuple of str
        Criteria present after exclusions, in the order of :data:`CRITERIA`.
    excluded : pandas.DataFrame
        One row per excluded (annotator, criterion): columns ``annotator``, ``criterion``,
        ``n`` (judgements), ``reason``.
    warnings : tuple of str
        Human-readable messages about the exclusions (empty when nothing was excluded).
    """

    frame: pd.DataFrame
    name: str
    criteria: tuple[str, ...]
    excluded: pd.DataFrame = field(
        default_factory=lambda: pd.DataFrame(columns=["annotator", "criterion", "n", "reason"])
    )
    warnings: tuple[str, ...] = ()

    @property
    def systems(self) -> tuple[str, ...]:
        """System names in order of first appearance."""
        return tuple(pd.unique(self.frame["system"]))

    @property
    def annotators(self) -> tuple[str, ...]:
        """Annotator ids in order of first appearance."""
        return tuple(pd.unique(self.frame["annotator"]))


def read_judgements(source: Source, *, name: str | None = None) -> Judgements:
    """Read human judgements in long format (TSV, whitespace-separated, or CSV).

    Parameters
    ----------
    source : str, os.PathLike, bytes or binary file object
        The file (a path, its bytes, or an upload object with ``getvalue()``/``read()``).
    name : str, optional
        Name used in messages (defaults to the path or the object's ``name``).

    Returns
    -------
    Judgements
        Usable judgements plus the list of excluded annotators and warnings.

    Raises
    ------
    StatsInputError
        Missing/empty/undecodable file, a missing header column, a row with the wrong number of
        fields, an empty field, a score that is not a finite number, an unknown criterion (all
        naming the file, line and column), or no judgement left after exclusions.

    Warns
    -----
    DegenerateInputWarning
        For each annotator excluded from a criterion (single judgement or constant scores).
    """
    frame, label, codes = _parse_coded(source, name)
    _check_repeats(frame, np.zeros(len(frame), dtype=np.int64), [label], codes=codes)
    return _finish(frame, label, codes=codes)


def read_judgement_files(*sources, names=None) -> Judgements:
    """Read several judgement files (e.g. batches of a crowd-sourced evaluation) as one set.

    Each file is parsed as in :func:`read_judgements` (errors name the file and line). A
    judgement of one file repeated exactly (same system, segment, annotator, criterion and
    score) in another is an error naming both files and lines: the same judgements were given
    twice. The exclusions (annotators that cannot be standardised) are decided on the union, so an
    annotator who appears in several files is standardised over all their judgements.

    Parameters
    ----------
    *sources : path, bytes, file object, or (name, source) pair
    names : sequence of str, optional
        Display names, one per source (alternative to ``(name, source)`` pairs).
    """
    if not sources:
        raise StatsInputError("no judgements file given")
    frames, labels = [], []
    for k, item in enumerate(sources):
        name = names[k] if names is not None else None
        if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
            name, item = item
        frame, label = _parse(item, name)
        frames.append(frame)
        labels.append(label)
    frame = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
    origin = np.repeat(np.arange(len(frames)), [len(f) for f in frames])
    _check_repeats(frame, origin, labels)
    return _finish(frame, labels[0] if len(labels) == 1 else " + ".join(labels))


def _describe(frame: pd.DataFrame, i: int) -> str:
    r = frame.iloc[i]
    return (
        f"(SYSTEM {r['system']!r}, SEGMENT {r['segment']!r}, ANNOTATOR {r['annotator']!r}, "
        f"CRITERION {r['criterion']}, SCORE {r['score']:g})"
    )


def _group_codes(frame: pd.DataFrame, columns: list[str], known: dict | None = None) -> np.ndarray:
    """Each row's group of equal ``columns``, numbered in order of first appearance (as
    ``groupby(columns, sort=False).ngroup()``), from each column's codes (pyarrow's encoding
    of a string column: no Python string per row; ``known``: codes already made)."""
    codes, size = None, 1
    for col in columns:
        k, names = (known or {}).get(col) or codes_and_names(frame[col])
        codes, size = (k, len(names)) if codes is None else mix_codes(codes, size, k, len(names))
    return pd.factorize(codes)[0]


def _check_repeats(
    frame: pd.DataFrame, origin: np.ndarray, labels: list[str], *, unit: str = "line",
    codes: dict | None = None,
) -> None:
    """Raise on judgements given twice by accident (see the module docstring).

    ``origin[i]`` is the index in ``labels`` of the file row ``i`` comes from. With
    ``unit='row'`` (in-memory data) places are row positions instead of file lines.
    """
    n = len(frame)
    if n < 2:
        return
    if codes and unrepeated([(k, len(names)) for k, names in codes.values()], n):
        return  # no two rows agree on the name columns: no judgement is given twice
    group = _group_codes(frame, _FRAME_COLUMNS, codes)
    # (groups are numbered in order of first appearance: a row opens one when its number
    # passes every number before it)
    opens = np.empty(n, dtype=bool)
    opens[0] = True
    np.greater(group[1:], np.maximum.accumulate(group)[:-1], out=opens[1:])
    first_of_group = np.flatnonzero(opens)
    first = first_of_group[group]  # row position of the first identical judgement
    lines = frame[LINE].to_numpy() if unit == "line" else np.arange(n)

    def fail(i: int, j: int, why: str) -> None:
        raise StatsInputError(
            f"{labels[origin[i]]}, {unit} {lines[i]}: judgement {_describe(frame, i)} repeats "
            f"{labels[origin[j]]}, {unit} {lines[j]}; {why}"
        )

    other_file = np.flatnonzero(origin[first] != origin)
    if other_file.size:
        i = int(other_file[0])
        fail(i, int(first[i]), "the same judgements were given twice (give each file once)")
    # runs of consecutive rows, each an exact copy of the row after the previous one's original
    idx = np.arange(n)
    copy = first < idx
    chained = copy[1:] & copy[:-1] & (first[1:] == first[:-1] + 1)
    if DUPLICATE_BLOCK > 1 and chained.size >= DUPLICATE_BLOCK - 1:
        window = np.lib.stride_tricks.sliding_window_view(chained, DUPLICATE_BLOCK - 1)
        hit = np.flatnonzero(window.all(axis=1))
        if hit.size:
            i = int(hit[0])
            fail(
                i,
                int(first[i]),
                f"{DUPLICATE_BLOCK} or more consecutive judgements copy earlier ones row for "
                "row (the file pasted twice?); give each judgement once",
            )


def _criteria(values: pd.Series, where: Callable[[int], str]) -> pd.Series:
    """``values`` stripped and lower-cased; the first one not in :data:`CRITERIA` is an error
    located by ``where(row position)``."""
    criterion = _text(values.astype(str)).str.lower()
    unknown = ~criterion.isin(CRITERIA).to_numpy()
    if unknown.any():
        i = int(np.flatnonzero(unknown)[0])
        raise StatsInputError(
            f"{where(i)}: unknown criterion {values.iloc[i]!r}; expected one of "
            f"{', '.join(CRITERIA)}"
        )
    return criterion


def _plain_frame(data: bytes, label: str) -> pd.DataFrame | None:
    """The judgement frame of a plain file (:func:`~._arrow.plain_bytes`, tab- or
    comma-separated) read from its bytes by pyarrow, each name stripped and checked once per
    distinct spelling; None for any other file, or a value the reader refuses (the careful
    path names its line)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from stats._core.numbers import MAX_NUMBER_CHARS

    from ._arrow import (
        LARGE_BLOCK,
        in_threads,
        integer_codes,
        long_line,
        may_be_padded,
        merge_spellings,
        name_codes,
        read_typed,
    )

    first = data[: data.find(b"\n")].decode("utf-8")
    delimiter = "\t" if "\t" in first else "," if "," in first else None
    if delimiter is None:
        return None
    canon = {c.lower(): c for c in JUDGEMENT_COLUMNS}
    columns = [canon.get(f.strip().lower(), f.strip()) for f in first.split(delimiter)]
    if any(c not in columns for c in JUDGEMENT_COLUMNS) or LINE in columns:
        return None
    if not header_names_each_once(columns):
        return None
    names = [f"c{i}" for i in range(len(columns))]
    used = [names[columns.index(c)] for c in JUDGEMENT_COLUMNS]
    padded = may_be_padded(data, comma=delimiter == ",")
    # the scores parsed as numbers by the parser (pyarrow's cast's reading); as strings when
    # a cell may be padded (the parser strips a number) or a line is longer than a number
    # may be
    typed = not padded and not long_line(data, MAX_NUMBER_CHARS)
    # names as pandas' str holds them (large strings: a column of the frame as parsed)
    types = {**dict.fromkeys(names, "large"), used[-1]: "float64" if typed else "str"}
    table = read_typed(data, names, types, delimiter=delimiter,
                       skip_rows=1, blank_lines=False, include=used, block=LARGE_BLOCK,
                       threads=True)  # fmt: skip
    # (a score the parser refuses, the cast of its string refuses too: the careful path)
    if table is None or not table.num_rows:
        return None
    table = table.rename_columns(list(JUDGEMENT_COLUMNS))
    # the scores first: a file refused for a score is let go before any name is encoded
    score = column_numbers(table.column("SCORE"), typed=typed)
    if score is None:
        return None

    def column(col: str):
        """(cells as pandas' str, (codes, names)) of a name column; None when refused."""
        cells = table.column(col)
        found = integer_codes(cells) if col == "SEGMENT" else None
        k, spelled = found if found is not None else name_codes(cells)
        respelled = False
        if padded or col == "CRITERION":  # each distinct spelling stripped (lower-cased)
            merged = merge_spellings(k, spelled, lower=col == "CRITERION")
            respelled = merged[0] is not k  # (the same codes: no name changed, nor a cell)
            k, spelled = merged
        names = pa.array(spelled, type=pa.string())
        if respelled:
            cells = names.cast(pa.large_string()).take(pa.array(k))
        if col == "CRITERION":
            if not pc.all(pc.is_in(names, pa.array(list(CRITERIA)))).as_py():
                return None
        elif pc.any(pc.equal(names, "")).as_py():
            return None
        return pd.array(cells, dtype=_STR), (k, names.to_pylist())

    # the columns encoded at once, on the cores the parser used
    found = in_threads(column, JUDGEMENT_COLUMNS[:4])
    if any(f is None for f in found):
        return None
    out = {key: f[0] for key, f in zip(_FRAME_COLUMNS[:4], found, strict=True)}
    codes = {key: f[1] for key, f in zip(_FRAME_COLUMNS[:4], found, strict=True)}
    out["score"] = score
    out[LINE] = np.arange(2, len(score) + 2, dtype=np.int64)
    return pd.DataFrame(out, copy=False), codes  # (the columns as made: no copy)


def _parse(source: Source, name: str | None) -> tuple[pd.DataFrame, str]:
    """Parse and validate one file into the judgement frame (no exclusions yet)."""
    frame, label, _ = _parse_coded(source, name)
    return frame, label


def _parse_coded(source: Source, name: str | None) -> tuple[pd.DataFrame, str, dict]:
    """:func:`_parse`, with the codes of the name columns (column -> (codes, names)) when the
    file was read by columns from its bytes (else an empty dict)."""
    data, label = load_bytes(source, name)
    if plain_bytes(data, careful=b'"#'):
        found = _plain_frame(data, label)
        if found is not None:
            return found[0], label, found[1]
    del data  # (the careful path loads the file itself: not two copies at once)
    return (*_parse_decoded(source, name), {})


def _parse_decoded(source: Source, name: str | None) -> tuple[pd.DataFrame, str]:
    table = read_table(source, required=JUDGEMENT_COLUMNS, name=name, hint="human judgements",
                       dtype={"SCORE": "float64"})
    raw = table.frame
    label = table.name
    names = {}
    for col in ("SYSTEM", "SEGMENT", "ANNOTATOR", "CRITERION"):
        values = _text(raw[col])
        empty = (values == "").to_numpy()
        if empty.any():
            line = int(raw[LINE].iloc[int(np.flatnonzero(empty)[0])])
            raise StatsInputError(f"{label}, line {line}, column {col}: empty value")
        names[col] = values
    criterion = _criteria(
        raw["CRITERION"], lambda i: f"{label}, line {int(raw[LINE].iloc[i])}, column CRITERION"
    )
    if raw["SCORE"].dtype.kind == "f":  # read by columns: finite and within the bound
        score = raw["SCORE"].to_numpy(dtype=float)
    else:
        score = to_float(raw, "SCORE", label)
    frame = pd.DataFrame(
        {
            "system": names["SYSTEM"].array,
            "segment": names["SEGMENT"].array,
            "annotator": names["ANNOTATOR"].array,
            "criterion": criterion.array,
            "score": score,
            LINE: raw[LINE].to_numpy(dtype=np.int64),
        }
    )
    return frame, label


def _text(values: pd.Series) -> pd.Series:
    """A column of names as pandas' string dtype, stripped (held by pyarrow where pandas has
    it: no Python object per row), index reset."""
    if not (isinstance(values.dtype, pd.StringDtype) and values.dtype.storage == "pyarrow"):
        values = values.astype(pd.StringDtype("pyarrow", na_value=np.nan))
    return values.str.strip().reset_index(drop=True)


def prepare_judgements(data, *, name: str = "judgements") -> Judgements:
    """Validate in-memory judgements and apply the same exclusions as :func:`read_judgements`.

    Parameters
    ----------
    data : Judgements or pandas.DataFrame
        A :class:`Judgements` (returned unchanged) or a frame with columns ``system``,
        ``segment``, ``annotator``, ``criterion``, ``score`` (names matched case-insensitively).
    name : str
        Name used in messages.

    Raises
    ------
    StatsInputError
        Wrong type, a missing column, an unknown criterion, a non-finite score, a copied block
        of judgements (as in :func:`read_judgements`), or nothing left after exclusions.
    """
    if isinstance(data, Judgements):
        return data
    if not isinstance(data, pd.DataFrame):
        raise StatsInputError(
            f"{name} must be a Judgements object or a pandas DataFrame; got {type(data).__name__}"
        )
    lower = {str(c).lower(): c for c in data.columns}
    missing = [c for c in _FRAME_COLUMNS if c not in lower]
    if missing:
        raise StatsInputError(
            f"{name}: missing column(s) {', '.join(missing)}; found "
            f"{', '.join(map(str, data.columns)) or 'nothing'}"
        )
    if len(data) == 0:
        raise StatsInputError(f"{name}: no judgements")
    criterion = _criteria(data[lower["criterion"]], lambda i: f"{name}, row {i}")
    try:
        score = pd.to_numeric(data[lower["score"]], errors="coerce").to_numpy(dtype=float)
    except (TypeError, ValueError):
        score = np.full(len(data), np.nan)
    bad = ~np.isfinite(score)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise StatsInputError(
            f"{name}, row {i}, column score: {data[lower['score']].iloc[i]!r} is not a finite number"
        )
    frame = pd.DataFrame(
        {
            "system": data[lower["system"]].astype(str).to_numpy(dtype=object),
            "segment": data[lower["segment"]].astype(str).to_numpy(dtype=object),
            "annotator": data[lower["annotator"]].astype(str).to_numpy(dtype=object),
            "criterion": criterion.to_numpy(dtype=object),
            "score": score,
            LINE: np.full(len(data), -1, dtype=np.int64),
        }
    )
    _check_repeats(frame, np.zeros(len(frame), dtype=np.int64), [name], unit="row")
    return _finish(frame, name)


def _finish(frame: pd.DataFrame, label: str, *, codes: dict | None = None) -> Judgements:
    """Exclude annotators that cannot be standardised within a criterion; build the result
    (``codes``: the codes of the name columns, when already made)."""
    a_codes, a_names = (codes or {}).get("annotator") or codes_and_names(frame["annotator"])
    c_codes, c_names = (codes or {}).get("criterion") or codes_and_names(frame["criterion"])
    key = a_codes * len(c_names) + c_codes
    # pandas std: ddof=1, NaN for a single value
    stats = pd.Series(frame["score"].to_numpy()).groupby(key, sort=False).agg(n="size", sd="std")
    stats_keys = stats.index.to_numpy()
    stats.index = pd.MultiIndex.from_arrays(
        [[a_names[k // len(c_names)] for k in stats_keys.tolist()],
         [c_names[k % len(c_names)] for k in stats_keys.tolist()]],
        names=["annotator", "criterion"],
    )
    single = stats["n"] < 2
    constant = (~single) & (stats["sd"] == 0)
    drop = stats[single | constant].copy()
    drop["reason"] = np.where(single[drop.index], "a single judgement", "all scores identical")
    messages: list[str] = []
    if len(drop):
        for crit in CRITERIA:
            sub = drop[drop.index.get_level_values("criterion") == crit]
            if not len(sub):
                continue
            parts = [
                f"{a} ({reason})"
                for a, reason in zip(
                    sub.index.get_level_values("annotator"), sub["reason"], strict=True
                )
            ]
            msg = (
                f"{label}: {len(sub)} annotator(s) excluded from {crit} because their scores "
                f"cannot be standardised: {name_list(parts)}"
            )
            messages.append(msg)
            warnings.warn(msg, DegenerateInputWarning, stacklevel=3)
        dropped = stats_keys[(single | constant).to_numpy()]
        frame = frame[~np.isin(key, dropped)].reset_index(drop=True)
    present = tuple(c for c in CRITERIA if (frame["criterion"] == c).any())
    for crit in CRITERIA:
        if (
            present
            and crit not in present
            and crit in set(drop.index.get_level_values("criterion"))
        ):
            msg = f"{label}: no usable {crit} judgements left; {crit} is left out"
            messages.append(msg)
            warnings.warn(msg, DegenerateInputWarning, stacklevel=3)
    if not present:
        raise StatsInputError(
            f"{label}: no usable judgements: every annotator has a single judgement or identical "
            "scores in each criterion, so no score can be standardised"
        )
    excluded = pd.DataFrame(
        {
            "annotator": drop.index.get_level_values("annotator").to_numpy(dtype=object),
            "criterion": drop.index.get_level_values("criterion").to_numpy(dtype=object),
            "n": drop["n"].to_numpy(dtype=np.int64),
            "reason": drop["reason"].to_numpy(dtype=object),
        }
    )
    return Judgements(
        frame=frame, name=label, criteria=present, excluded=excluded, warnings=tuple(messages)
    )
