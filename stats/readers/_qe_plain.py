"""The bytes path of the QE tables (:mod:`.qe`): a plain file (:func:`~._arrow.plain_bytes`)
parsed by pyarrow from its bytes, by columns, with integer sentence ids read as integers and
numbers by pyarrow's cast; each function returns None for anything it does not read exactly
as the decoded path does, which then reads the file and names what is wrong."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ._common import LINE, column_numbers, header_names_each_once, sniff_delimiter

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


def typed_table(data: bytes, columns: list[str], delimiter: str, types: dict, used=None):
    """The rows of a plain file (header skipped) as a pyarrow table of the ``used`` columns
    (default all) parsed straight into their ``types`` (``"float64"``: numbers, read by
    the parser as pyarrow's cast reads them, :func:`~._common.column_numbers`; ``"int64"``:
    integer ids; ``"dict"``: names), no column of strings cast afterwards. None when a row is ragged,
    a line blank or a cell not of its type, and for a file whose cells may be padded (the
    parser strips a number, the string path does not), may hold a hexadecimal integer
    (which the parser reads as a number) or a line longer than a number may be (no cell
    then passes :data:`~stats._core.numbers.MAX_NUMBER_CHARS`): :func:`plain_strings` then
    reads it."""
    from stats._core.numbers import MAX_NUMBER_CHARS

    from ._arrow import LARGE_BLOCK, hexadecimal, long_line, may_be_padded, read_typed

    if len(set(columns)) != len(columns) or may_be_padded(data, comma=delimiter == "csv"):
        return None
    if hexadecimal(data) or long_line(data, MAX_NUMBER_CHARS):
        return None
    names = [f"c{i}" for i in range(len(columns))]
    keep = [names[columns.index(c)] for c in used] if used is not None else names
    table = read_typed(data, names, {n: types[columns[names.index(n)]] for n in keep},
                       skip_rows=1, delimiter="\t" if delimiter == "tab" else ",",
                       blank_lines=False, include=keep, block=LARGE_BLOCK, threads=True)
    if table is None or not table.num_rows or any(c.null_count for c in table.columns):
        return None
    return table.rename_columns([columns[names.index(c)] for c in keep])


def typed_ids(table, column: str, min_rows: int) -> tuple[np.ndarray | None, pd.Index] | None:
    """:func:`plain_ids` of a column parsed as int64 (:func:`typed_table`): each id a
    non-negative integer below 10**18 (at most 18 digits), no two equal, at least
    ``min_rows``; else None."""

    cells = table.column(column)
    if len(cells) < min_rows:
        return None
    numbers = cells.chunk(0).to_numpy() if cells.num_chunks == 1 else cells.to_numpy()
    if numbers.min() < 0 or numbers.max() >= 10**18:
        return None
    return _ordered_ids(numbers, large=True)


def plain_ids(table, column: str, min_rows: int) -> tuple[np.ndarray | None, pd.Index] | None:
    """Sentence ids that are all plain non-negative integers (ASCII digits, at most 18): the
    rows in numeric order of their ids (None: in order already) and the ids so ordered as the
    index ``"sid"`` (each spelled as :func:`~.qe._norm_ids` spells it: no leading zeros). None
    when an id is anything else, two ids are equal (the careful path names them) or there are
    fewer than ``min_rows``."""
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
    return _ordered_ids(numbers, large=False)


def _ordered_ids(
    numbers: np.ndarray, *, large: bool
) -> tuple[np.ndarray | None, pd.Index] | None:
    """``(rows, index)`` of integer sentence ids: the rows in numeric order of the ids (None:
    in order already, the usual file) and the ids so ordered as the index ``"sid"`` (pyarrow
    strings, large ones when ``large``, as pandas holds the column's strings); None when two
    ids are equal (the careful path names them)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if (numbers[1:] > numbers[:-1]).all():
        rows, ordered = None, numbers
    else:
        rows = np.argsort(numbers, kind="stable")
        ordered = numbers[rows]
        if (ordered[1:] == ordered[:-1]).any():
            return None
    spelled = pc.cast(pa.array(ordered), pa.large_string() if large else pa.string())
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


def plain_long(data: bytes):
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
    used = ("METRIC", "SID", "SCORE", "HUMAN")
    types = {"METRIC": "dict", "SID": "int64", "SCORE": "float64", "HUMAN": "float64"}
    table = typed_table(data, columns, delimiter, types, used)
    if table is not None:  # every column parsed as its type, integer sentence ids
        return _typed_long(table, delimiter, "RANK" in columns)
    table = plain_strings(data, columns, delimiter, used)
    if table is None or any(table.column(c).null_count for c in table.column_names):
        return None
    # the two number columns read at once, on the cores the parser used
    numbers = in_threads(lambda c: column_numbers(table.column(c), typed=False),
                         ("SCORE", "HUMAN"))
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


def _typed_long(table, delimiter: str, has_rank: bool):
    """:func:`plain_long` of a table parsed by :func:`typed_table`: the sentence ids coded
    in order of first appearance of their numbers, each named as ``str`` spells it (what
    :func:`~.qe._norm_ids` makes of its spellings); None when a number is not finite and
    within the bound or a name is empty."""
    from ._arrow import coded, first_appearance_codes

    numbers = [column_numbers(table.column(c), typed=True) for c in ("SCORE", "HUMAN")]
    if any(v is None for v in numbers):
        return None
    sys_codes, systems = coded(table.column("METRIC"))
    if (systems == "").any():
        return None
    cells = table.column("SID")
    ids = cells.chunk(0).to_numpy() if cells.num_chunks == 1 else cells.to_numpy()
    low = int(ids.min())
    sid_codes, present = first_appearance_codes(ids - low, int(ids.max()) - low + 1)
    names = [str(v) for v in (np.asarray(present, dtype=np.int64) + low).tolist()]
    return (delimiter, has_rank, (sys_codes, [str(v) for v in systems.tolist()]),
            (np.asarray(sid_codes, dtype=np.int64), names), *numbers)


def plain_post_edit(data: bytes, min_rows: int) -> pd.DataFrame | None:
    """:func:`~.qe.read_post_edit` of a plain file whose ids are plain integers and numbers
    plain (:func:`plain_ids`, :func:`~._common.column_numbers`; at least ``min_rows``), from
    its bytes by columns; None for anything else, or a value the reader refuses (its careful
    path names it)."""
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
    pairs = [("TIME", "time"), ("WORDS", "words"),
             *((c, c.lower()) for c in columns if c not in ("SID", "TIME", "WORDS"))]
    table = typed_table(data, columns, delimiter,
                        {c: "int64" if c == "SID" else "float64" for c in columns})
    if table is not None:  # every column parsed as its type
        ordered = typed_ids(table, "SID", min_rows)
        numbers = [column_numbers(table.column(c), typed=True) for c, _ in pairs]
    else:
        table = plain_strings(data, columns, delimiter)
        ordered = plain_ids(table, "SID", min_rows) if table is not None else None
        if ordered is None:
            return None
        from ._arrow import in_threads

        # the columns read at once, on the cores the parser used
        numbers = in_threads(lambda c: column_numbers(table.column(c), typed=False),
                             [c for c, _ in pairs])
    if ordered is None or any(v is None for v in numbers):
        return None
    rows, index = ordered
    out = {key: v for (_, key), v in zip(pairs, numbers, strict=True)}
    if (out["words"] <= 0).any() or (out["time"] < 0).any():
        return None
    ordered_out = {k: v if rows is None else v[rows] for k, v in out.items()}
    return pd.DataFrame(ordered_out, index=index, copy=False)  # (the columns as made: no copy)


def plain_wide(data: bytes, head: list[str], delimiter: str, gold_col: int,
               min_rows: int) -> tuple[pd.Series, pd.DataFrame] | None:
    """The gold labels and predictions of a plain wide-layout file (header ``head``, gold in
    column ``gold_col``), rows in the order of their integer ids (:func:`plain_ids`), numbers
    plain (:func:`~._common.column_numbers`); None for anything else."""
    sys_cols = [h for i, h in enumerate(head) if i not in (0, gold_col)]
    if LINE in head:
        return None
    if not header_names_each_once(head):
        return None
    if not sys_cols:
        return None
    table = typed_table(data, head, delimiter,
                        {c: "int64" if i == 0 else "float64" for i, c in enumerate(head)})
    typed = table is not None  # every column parsed as its type
    if typed:
        ordered = typed_ids(table, head[0], min_rows)
    else:
        table = plain_strings(data, head, delimiter)
        ordered = plain_ids(table, head[0], min_rows) if table is not None else None
    if ordered is None:
        return None
    rows, index = ordered
    from ._arrow import in_threads

    values = np.empty((table.num_rows, len(sys_cols)))

    def number(j: int, parsed=table):
        """Column ``j`` of ``values`` read (-1: the gold labels, returned); None when a
        number is not plain."""
        name = sys_cols[j] if j >= 0 else head[gold_col]
        column = column_numbers(parsed.column(name), typed=typed)
        if j < 0 or column is None:
            return column
        values[:, j] = column
        return True

    # the columns read at once, on the cores the parser used (parsed as numbers: a copy each)
    found = ([number(j) for j in range(-1, len(sys_cols))] if typed
             else in_threads(number, range(-1, len(sys_cols))))
    if any(f is None for f in found):
        return None
    gold_values = found[0]
    del table
    if rows is not None:
        gold_values, values = gold_values[rows], values[rows]
    gold = pd.Series(gold_values, index=index, name="gold")
    return gold, pd.DataFrame(values, index=index, columns=pd.Index(sys_cols), copy=False)
