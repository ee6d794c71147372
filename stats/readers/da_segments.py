"""Segment-level direct assessment (DA) scores as the WMT organisers publish them.

The news-task human evaluation releases one file per language pair, whitespace-separated with
a header::

    SYS SID RAW.SCR Z.SCR N
    Online-B.1605 1 71.5 0.412 2
    ...

one row per (system, segment): the segment's mean raw DA score (0-100), its mean z score
(each annotator's scores standardised) and the number of judgements averaged. The language
pair is not a column: it is given (``lp=``) or read from the ``xx-yy`` at the end of the file
name (``ad-seg-scores-de-en.csv``).

System names carry the submission id the organisers' scripts append (``Online-Y.3``); the
findings' tables print them without (``Online-Y``), and so are they read, with a note in
``attrs["notes"]`` (kept when two names would become one).
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

from ._arrow import plain_bytes
from ._arrow import repeated as same_cells
from ._common import (
    LINE,
    Source,
    codes_and_names,
    first_repeat,
    load_bytes,
    read_table,
    source_name,
    to_float,
)

#: pandas' string dtype held by pyarrow
_STR = pd.StringDtype("pyarrow", na_value=np.nan)

__all__ = ["DA_SEGMENT_COLUMNS", "is_da_segment_file", "language_pair_from_name",
           "read_da_segment_scores"]  # fmt: skip

#: Header of a published segment-level DA file (``N`` may be spelled ``N.RAW``).
DA_SEGMENT_COLUMNS = ("SYS", "SID", "RAW.SCR", "Z.SCR")
_SUBMISSION_ID = re.compile(r"^(.+)\.(\d+)$")
_LP_AT_END = re.compile(r"(?<![A-Za-z])([a-z]{2,3})-([a-z]{2,3})(?:\.[A-Za-z0-9]+)*$")


def _no_tabs(data: bytes) -> bool:
    """Whether ``data`` holds no tab and no carriage return: each space may then be read as
    a tab, and a row whose fields are split by runs of spaces (or start or end with one)
    shows up as an empty field (:func:`read_da_segment_scores` reads it again as it is)."""
    return b"\t" not in data and b"\r" not in data


def language_pair_from_name(name: str) -> str | None:
    """The ``xx-yy`` language pair at the end of a file name (before its extensions), or None:
    ``"ad-seg-scores-de-en.csv.gz"`` -> ``"de-en"``."""
    base = re.split(r"[\\/]", str(name))[-1]
    found = _LP_AT_END.search(base)
    return f"{found.group(1)}-{found.group(2)}" if found else None


def is_da_segment_file(head) -> bool:
    """True when header fields ``head`` are those of a published segment-level DA file."""
    low = {str(h).strip().upper() for h in head or ()}
    return set(DA_SEGMENT_COLUMNS) <= low


def read_da_segment_scores(
    source: Source, *, name: str | None = None, lp: str | None = None
) -> pd.DataFrame:
    """Read a published segment-level DA file (``SYS SID RAW.SCR Z.SCR N``).

    Parameters
    ----------
    source : path, bytes or binary file object
    name : str, optional
        Display name for messages (and where the language pair is read from).
    lp : str, optional
        The language pair; by default the ``xx-yy`` at the end of the file name.

    Returns
    -------
    pandas.DataFrame
        Columns ``lp``, ``system``, ``segment`` (str), ``raw``, ``z`` (float), ``n`` (float;
        NaN where the file has no ``N`` column), in file order.

    Raises
    ------
    StatsInputError
        Naming the file (and line and column): a missing header column, a value that is not
        a finite number, a (system, segment) given twice, no language pair.
    """
    label = source_name(source, name)
    data, _ = load_bytes(source, label)

    def read(body: bytes):
        # a plain body (plain_bytes) decodes as UTF-8 without the decoder's own scans, which
        # could refuse nothing in it
        return read_table(
            body,
            required=DA_SEGMENT_COLUMNS,
            optional=("N", "N.RAW"),
            name=label,
            hint="segment-level DA scores",
            dtype=dict.fromkeys(("RAW.SCR", "Z.SCR", "N", "N.RAW"), "float64"),
            text=body.decode("utf-8") if plain_bytes(body) else None,
        )

    pair = lp or language_pair_from_name(label)
    if _no_tabs(data) and pair and plain_bytes(data, careful=b'"#'):
        found = _plain_columns(data, label)  # as published, read from its bytes
        if found is not None:
            return _scores(label, pair, *found)
    table = None
    if _no_tabs(data):  # as published: each field after one space, read by columns
        try:
            table = read(data.replace(b" ", b"\t"))
        except StatsInputError:
            table = None
        if table is not None and (
            table.frame["RAW.SCR"].dtype.kind != "f"
            or any((table.frame[c] == "").any() for c in ("SYS", "SID"))
        ):
            table = None  # not plain: read as it is, line by line, for its own messages
    spaced = table is not None
    if table is None:
        table = read(data)
    del data
    frame = table.frame
    pair = lp or language_pair_from_name(label)
    if not pair:
        raise StatsInputError(
            f"{label}: no language pair: the file name does not end in xx-yy "
            "(e.g. ad-seg-scores-de-en.csv); give it with lp=XX-YY"
        )
    n_column = "N" if "N" in frame else "N.RAW" if "N.RAW" in frame else None
    system = frame["SYS"].astype(_STR)  # pyarrow strings: no Python object per row
    sys_codes, sys_names = codes_and_names(system)
    segment = frame["SID"].astype(_STR)
    columns = {
        "system": system.array,
        "segment": segment.array,
        "raw": to_float(frame, "RAW.SCR", label),
        "z": to_float(frame, "Z.SCR", label),
        "n": to_float(frame, n_column, label, what="count") if n_column else float("nan"),
    }
    delimiter = "whitespace" if spaced else table.delimiter
    return _scores(
        label,
        pair,
        columns,
        (sys_codes, sys_names),
        lambda: codes_and_names(segment),
        frame[LINE].to_numpy(),
        n_column,
        delimiter,
    )


def _scores(label: str, pair: str, columns: dict, systems, segments, lines, n_column, delimiter):
    """The frame of a DA file's columns (``system``, ``segment``, ``raw``, ``z``, ``n``):
    ``systems`` and ``segments()`` their ``(codes, names)``, ``lines`` each row's line;
    submission ids dropped from system names (a note), a (system, segment) given twice
    refused."""
    sys_codes, sys_names = systems
    system = columns["system"]  # (or a function making it, when the names may change)
    notes = []
    names = pd.Series(sys_names, dtype=object)
    base = names.str.extract(_SUBMISSION_ID, expand=False)[0]
    if base.notna().any():
        short = base.fillna(names)
        if not short.duplicated().any():
            import pyarrow as pa

            system = pd.array(
                pa.array(short.tolist(), type=pa.large_string()).take(pa.array(sys_codes)),
                dtype=_STR,
            )
            first = names[base.notna()].iloc[0]
            notes.append(
                f"{int(base.notna().sum())} system names without the submission id, as the "
                f"findings print them ({first} -> {short[base.notna()].iloc[0]})"
            )
    columns["system"] = system() if callable(system) else system
    out = pd.DataFrame({"lp": same_cells(pair, len(sys_codes)), **columns})
    seg_codes, seg_names = segments()
    key = sys_codes * max(len(seg_names), 1) + seg_codes
    cells = len(sys_names) * max(len(seg_names), 1)
    i = first_repeat(key, cells)
    if i is not None:
        first = int(np.flatnonzero(key == key[i])[0])
        raise StatsInputError(
            f"{label}, lines {lines[first]} and {lines[i]}: system {out['system'].iat[i]!r} has "
            f"segment {out['segment'].iat[i]!r} twice"
        )
    sep = {"tab": "tab", "csv": "comma", "whitespace": "space"}.get(delimiter, "")
    out.attrs["read_as"] = (
        f"read as published DA segment scores (SYS SID RAW.SCR Z.SCR{' N' if n_column else ''}),"
        f" {sep}-separated, {len(sys_names)} systems, {len(out):,} rows, {pair}"
    )
    out.attrs["notes"] = tuple(notes)
    return out


def _plain_columns(data: bytes, label: str):
    """The columns of a plain DA file (:func:`~._arrow.plain_bytes`, no quote or ``#``) as
    published, each field after one space, read from its bytes by pyarrow's parser with its
    threads (system names encoded once, integer segment ids as numbers), as
    :func:`_scores` takes them; None for anything else, or anything the careful path
    refuses or reads otherwise (it then names it)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from stats._core.numbers import MAX_NUMBER_CHARS

    from ._arrow import (
        LARGE_BLOCK,
        finite_within_bound,
        integer_codes,
        long_line,
        name_codes,
        read_typed,
    )
    from ._common import header_names_each_once

    head = data[: data.find(b"\n")].decode("utf-8").split(" ")
    canon = {c.lower(): c for c in (*DA_SEGMENT_COLUMNS, "N", "N.RAW")}
    columns = [canon.get(h.lower(), h) for h in head]
    if "" in head or LINE in columns or any(c not in columns for c in DA_SEGMENT_COLUMNS):
        return None
    if not header_names_each_once(columns):
        return None
    if long_line(data, MAX_NUMBER_CHARS):  # a number may be longer than the rule allows
        return None
    n_column = "N" if "N" in columns else "N.RAW" if "N.RAW" in columns else None
    used = [c for c in (*DA_SEGMENT_COLUMNS, n_column) if c is not None]
    keys = [f"c{i}" for i in range(len(columns))]
    types = {k: "str" for k in keys}
    types[keys[columns.index("SID")]] = "large"  # (as pandas' str holds it: no cast after)
    types.update({keys[columns.index(c)]: "float64" for c in used[2:]})
    table = read_typed(data, keys, types, delimiter=" ", skip_rows=1, blank_lines=False,
                       include=[keys[columns.index(c)] for c in used], block=LARGE_BLOCK,
                       threads=True, valid_utf8=True)  # fmt: skip
    if table is None or not table.num_rows:
        return None
    table = table.rename_columns(used)
    numbers = {}
    for c in used[2:]:
        values = table.column(c).to_numpy()
        if not finite_within_bound(values):
            return None
        numbers[c] = values
    sys_codes, sys_names = name_codes(table.column("SYS"))
    sid = table.column("SID")
    if "" in sys_names or pc.any(pc.equal(sid, "")).as_py():
        return None

    def system():
        names = pa.array(sys_names, type=pa.large_string())
        return pd.array(names.take(pa.array(sys_codes)), dtype=_STR)

    columns_out = {
        "system": system,
        "segment": pd.array(sid, dtype=_STR),
        "raw": numbers["RAW.SCR"],
        "z": numbers["Z.SCR"],
        "n": numbers[n_column] if n_column else float("nan"),
    }

    def segments():
        found = integer_codes(sid)
        return found if found is not None else name_codes(sid)

    lines = np.arange(2, table.num_rows + 2, dtype=np.int64)
    return columns_out, (sys_codes, sys_names), segments, lines, n_column, "whitespace"
