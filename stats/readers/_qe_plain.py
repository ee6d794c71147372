"""The bytes path of the QE tables (:mod:`.qe`): a plain file (:func:`~._arrow.plain_bytes`)
parsed by pyarrow from its bytes, by columns, with integer sentence ids read as integers and
numbers by pyarrow's cast; each function returns None for anything it does not read exactly
as the decoded path does, which then reads the file and names what is wrong."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ._common import LINE, header_names_each_once, sniff_delimiter

#: pandas' string dtype held by pyarrow (no Python object per row)
_STR = pd.StringDtype("pyarrow", na_value=np.nan)


def plain_head(data: bytes) -> tuple[list[str], str] | None:
    """The header fields and delimiter of a plain file (:func:`~._arrow.plain_bytes`: its
    line 1 is the header), as :func:`~._common.split_lines` splits them; None for a file
    whose fields are runs of whitespace (pandas' parser reads those)."""
    first = data[: data.find(b"\n")].decode("utf-8")
    delimiter = sniff_delimiter(first, "")
    if delimiter == "whitespace":
        return None
    sep = "\t" if delimiter == "tab" else ","
    return [f.strip() for f in first.split(sep)], delimiter


def plain_strings(data: bytes, columns: list[str], delimiter: str, used=None):
    """The rows of a plain file (header skipped) as a pyarrow table of strings (the ``used``
    columns: default all), or None when a row is ragged or a line blank (the careful path
    then reads it)."""
    from ._arrow import LARGE_BLOCK, read_typed

    if len(set(columns)) != len(columns):
        return None
    names = [f"c{i}" for i in range(len(columns))]
    keep = [names[columns.index(c)] for c in used] if used is not None else names
    table = read_typed(data, names, dict.fromkeys(names, "str"), skip_rows=1,
                       delimiter="\t" if delimiter == "tab" else ",", blank_lines=False,
                       include=keep, block=LARGE_BLOCK, threads=True)
    if table is None or not table.num_rows:
        return None
    return table.rename_columns([columns[names.index(c)] for c in keep])


def plain_numbers(table, column: str, label: str) -> np.ndarray | None:
    """A column of plain numbers (pyarrow's cast reads every cell by the one rule:
    :func:`~._common.plain_floats`) within the bound, else None (the careful path names the
    cell)."""
    from ._common import plain_floats
    from ._limits import MAX_ABS_VALUE

    cells = table.column(column)
    cells = cells.combine_chunks() if cells.num_chunks != 1 else cells.chunk(0)
    out = plain_floats(cells)
    if out is None or (np.abs(out) > MAX_ABS_VALUE).any():
        return None
    return out


def plain_ids(table, column: str, min_rows: int) -> tuple[np.ndarray | None, pd.Index] | None:
    """Sentence ids that are all plain non-negative integers (ASCII digits, at most 18): the
    rows in numeric order of their ids (None: in order already) and the ids so ordered as the index ``"sid"`` (each
    spelled as :func:`~.qe._norm_ids` spells it: no leading zeros). None when an id is anything
    else, two ids are equal (the careful path names them) or there are fewer than
    ``min_rows``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    cells = table.column(column)
    if len(cells) < min_rows or cells.null_count:
        return None
    if not pc.all(pc.ascii_is_decimal(cells)).as_py():
        return None
    if pc.max(pc.binary_length(cells)).as_py() > 18:
        return None
    numbers = np.asarray(pc.cast(cells, pa.int64()).to_numpy(), dtype=np.int64)
    if (numbers[1:] > numbers[:-1]).all():  # in order already (the usual file)
        rows, ordered = None, numbers
    else:
        rows = np.argsort(numbers, kind="stable")
        ordered = numbers[rows]
        if (ordered[1:] == ordered[:-1]).any():
            return None
    spelled = pc.cast(pa.array(ordered), pa.string())
    return rows, pd.Index(pd.array(spelled, dtype=_STR), name="sid")


def normal_ints(ids: Sequence[str]) -> bool:
    """Whether every id is ASCII digits without a leading zero (or ``0``): what
    :func:`~.qe._norm_ids` leaves as it is."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not len(ids):
        return False
    cells = pa.array(list(ids), type=pa.string())
    if not pc.all(pc.ascii_is_decimal(cells)).as_py():
        return False
    return not pc.any(pc.and_(pc.starts_with(cells, "0"),
                              pc.greater(pc.utf8_length(cells), 1))).as_py()


def plain_long(data: bytes, label: str):
    """The columns of a plain long-layout file (:func:`~._arrow.plain_bytes`) read from its
    bytes by pyarrow: ``(delimiter, has RANK, METRIC codes and names, SID codes and names,
    SCORE, HUMAN)``; None when a name is empty or padded, a number not plain (the careful
    path reads those and names what is wrong) or the file is anything else."""
    from ._arrow import coded, in_threads, may_be_padded

    found = plain_head(data)
    if found is None:
        return None
    head, delimiter = found
    canon = {c.lower(): c for c in ("METRIC", "SID", "SCORE", "HUMAN", "RANK")}
    columns = [canon.get(h.lower(), h) for h in head]
    if any(c not in columns for c in ("METRIC", "SID", "SCORE", "HUMAN")) or LINE in columns:
        return None
    if not header_names_each_once(columns):
        return None
    table = plain_strings(data, columns, delimiter, ("METRIC", "SID", "SCORE", "HUMAN"))
    if table is None or any(table.column(c).null_count for c in table.column_names):
        return None
    # the two number columns read at once, on the cores the parser used
    numbers = in_threads(lambda c: plain_numbers(table, c, label), ("SCORE", "HUMAN"))
    if any(v is None for v in numbers):  # (before any name is encoded)
        return None
    names = {}
    padded = may_be_padded(data, comma=delimiter == "csv")
    for col, (codes, spelled) in zip(
        ("METRIC", "SID"), in_threads(coded, [table.column("METRIC"), table.column("SID")]),
        strict=True,
    ):
        if (spelled == "").any() or (padded and any(v != v.strip() for v in spelled.tolist())):
            return None
        names[col] = (codes, [str(v) for v in spelled.tolist()])
    return delimiter, "RANK" in columns, names["METRIC"], names["SID"], *numbers


def plain_post_edit(data: bytes, label: str, min_rows: int) -> pd.DataFrame | None:
    """:func:`~.qe.read_post_edit` of a plain file whose ids are plain integers and numbers plain
    (:func:`plain_ids`, :func:`plain_numbers`; at least ``min_rows``), from its bytes by columns; None for anything
    else, or a value the reader refuses (its careful path names it)."""
    found = plain_head(data)
    if found is None:
        return None
    head, delimiter = found
    canon = {"sid": "SID", "time": "TIME", "words": "WORDS"}
    columns = [canon.get(h.lower(), h) for h in head]
    if any(c not in columns for c in ("SID", "TIME", "WORDS")) or LINE in columns:
        return None
    if not header_names_each_once(columns):
        return None
    table = plain_strings(data, columns, delimiter)
    ordered = plain_ids(table, "SID", min_rows) if table is not None else None
    if ordered is None:
        return None
    rows, index = ordered
    from ._arrow import in_threads

    pairs = [("TIME", "time"), ("WORDS", "words"),
             *((c, c.lower()) for c in columns if c not in ("SID", "TIME", "WORDS"))]
    # the columns read at once, on the cores the parser used
    numbers = in_threads(lambda c: plain_numbers(table, c, label), [c for c, _ in pairs])
    if any(v is None for v in numbers):
        return None
    out = {key: v for (_, key), v in zip(pairs, numbers, strict=True)}
    if (out["words"] <= 0).any() or (out["time"] < 0).any():
        return None
    return pd.DataFrame({k: v if rows is None else v[rows] for k, v in out.items()}, index=index)


def plain_wide(data: bytes, label: str, head: list[str], delimiter: str, gold_col: int,
               min_rows: int) -> tuple[pd.Series, pd.DataFrame] | None:
    """The gold labels and predictions of a plain wide-layout file (header ``head``, gold in
    column ``gold_col``), rows in the order of their integer ids (:func:`plain_ids`), numbers
    plain (:func:`plain_numbers`); None for anything else."""
    sys_cols = [h for i, h in enumerate(head) if i not in (0, gold_col)]
    if LINE in head:
        return None
    if not header_names_each_once(head):
        return None
    table = plain_strings(data, head, delimiter) if sys_cols else None
    ordered = plain_ids(table, head[0], min_rows) if table is not None else None
    if ordered is None:
        return None
    rows, index = ordered
    from ._arrow import in_threads

    values = np.empty((table.num_rows, len(sys_cols)))

    def number(j: int, parsed=table):
        """Column ``j`` of ``values`` read (-1: the gold labels, returned); None when a
        number is not plain."""
        column = plain_numbers(parsed, sys_cols[j] if j >= 0 else head[gold_col], label)
        if j < 0 or column is None:
            return column
        values[:, j] = column
        return True

    # the columns read at once, on the cores the parser used
    found = in_threads(number, range(-1, len(sys_cols)))
    if any(f is None for f in found):
        return None
    gold_values = found[0]
    del table
    if rows is not None:
        gold_values, values = gold_values[rows], values[rows]
    gold = pd.Series(gold_values, index=index, name="gold")
    return gold, pd.DataFrame(values, index=index, columns=pd.Index(sys_cols), copy=False)
