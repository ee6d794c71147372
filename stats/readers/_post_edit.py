"""The column-wise path of :func:`~.qe.read_post_edit`: a plain post-editing table whose
sentence ids are integers in order, read from its bytes by pyarrow's parser with its threads,
numbers parsed as float64 straight into one block. Anything else is left to the bytes path
of :mod:`._qe_plain` and the careful path (None)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError
from stats._core.numbers import MAX_NUMBER_CHARS

from ._common import LINE, check_header_once

#: pandas' string dtype held by pyarrow (no Python object per row)
_STR = pd.StringDtype("pyarrow", na_value=np.nan)


def ordered_post_edit(data: bytes, label: str, min_rows: int) -> pd.DataFrame | None:
    """:func:`~.qe.read_post_edit` of a plain file (:func:`~._arrow.plain_bytes`, no quote,
    ``#`` or space; tab- or comma-separated) whose sentence ids are integers without a sign
    or a leading zero, at most 18 digits, in increasing order (the index is then the cells
    as they are), at least ``min_rows`` of them, and whose numbers are finite, within the
    bound, with positive word counts and non-negative times; None for anything else."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from ._arrow import canonical_integers, long_line, read_typed
    from ._limits import MAX_ABS_VALUE

    if data.find(b" ") >= 0:  # (padded cells: the bytes path strips and checks them)
        return None
    first = data[: data.find(b"\n")].decode("utf-8")
    sep = "\t" if "\t" in first else "," if "," in first else None
    if sep is None:
        return None
    canon = {"sid": "SID", "time": "TIME", "words": "WORDS"}
    head = [f.strip() for f in first.split(sep)]
    columns = [canon.get(h.lower(), h) for h in head]
    if any(c not in columns for c in ("SID", "TIME", "WORDS")) or LINE in columns:
        return None
    try:
        check_header_once(columns, label)
    except StatsInputError:
        return None
    if long_line(data, MAX_NUMBER_CHARS):  # a number may be longer than the rule allows
        return None
    keys = [f"c{i}" for i in range(len(columns))]
    types = dict.fromkeys(keys, "float64")
    types[keys[columns.index("SID")]] = "str"
    table = read_typed(data, keys, types, delimiter=sep, skip_rows=1, blank_lines=False,
                       block=1 << 20, threads=True)  # fmt: skip
    if table is None or table.num_rows < max(min_rows, 1):
        return None
    ids = table.column(keys[columns.index("SID")])
    numbers = canonical_integers(ids)
    if (numbers is None or numbers[0] < 0 or numbers[-1] >= 10**18
            or not (numbers[1:] > numbers[:-1]).all()):  # fmt: skip
        return None
    del numbers
    names = [("TIME", "time"), ("WORDS", "words")]
    names += [(c, c.lower()) for c in columns if c not in ("SID", "TIME", "WORDS")]
    values = np.empty((table.num_rows, len(names)))
    for j, (col, _) in enumerate(names):
        at = 0
        for chunk in table.column(keys[columns.index(col)]).chunks:
            values[at : at + len(chunk), j] = chunk.to_numpy()
            at += len(chunk)
    if not np.isfinite(values).all() or (np.abs(values) > MAX_ABS_VALUE).any():
        return None
    if (values[:, 1] <= 0).any() or (values[:, 0] < 0).any():
        return None
    cells = pc.cast(ids, pa.large_string(), memory_pool=pa.system_memory_pool())
    index = pd.Index(pd.array(cells, dtype=_STR), name="sid")
    del table
    return pd.DataFrame(values, index=index, columns=[key for _, key in names], copy=False)
