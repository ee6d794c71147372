"""The long text, wide CSV and WMT segment-score formats of
:func:`stats.readers.meta.read_meta_eval`: read by columns where a file is plain, line by line
otherwise (every error named by file and line).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError
from stats._core.numbers import MAX_NUMBER_CHARS

from ._arrow import (
    LARGE_BLOCK,
    first_appearance_codes,
    in_threads,
    integer_codes,
    long_line,
    may_be_padded,
    name_codes,
    one_name,
    read_typed,
)
from ._common import (
    arrow_cells,
    check_header_once,
    codes_and_names,
    decode,
    fast_frame,
    leading_lines,
    plain_floats,
    plain_leading_lines,
    spells_number,
    split_lines,
)
from ._limits import MAX_ABS_VALUE
from ._meta_rows import (
    GOLD_DEFAULT,
    LONG_COLUMNS,
    MISSING,
    _as_arrays,
    _cells_so_far,
    _joined,
    _Pair,
    _score,
    add_rows,
    add_wide_rows,
)


def _gold_name(metric: str) -> str | None:
    """Gold type of a METRIC value / column name (``HUMAN`` or ``HUMAN:NAME``), else None."""
    low = metric.strip().lower()
    if low == "human":
        return GOLD_DEFAULT
    if low.startswith("human:") and metric.strip()[6:]:
        return metric.strip()[6:]
    return None


def _text(data: bytes, text: str | None, label: str) -> str:
    """The decoded text of a file: ``text``, or when None (a plain file,
    :func:`~._arrow.plain_bytes`, not decoded yet) its bytes decoded."""
    return decode(data, label) if text is None else text


def _leading(data: bytes, text: str | None, label: str, **options):
    """:func:`~._common.leading_lines` of the file's text (``text``, or when None the bytes
    of a plain file, of which only the lines it looks at are decoded)."""
    if text is not None:
        return leading_lines(text, label, **options)
    return plain_leading_lines(data, label, **options)


def _read_long(data: bytes, text: str | None, label: str, pairs: dict) -> None:
    """Long text ``METRIC LP TESTSET SYSTEM SEGMENT SCORE``: read by columns
    (:func:`_long_rows_fast`), or line by line when that cannot (then every error is named
    by file, line and column). ``text`` None: a plain file (:func:`~._arrow.plain_bytes`),
    decoded only when read line by line."""
    _, rows, delimiter = _leading(data, text, label, header=False)
    first = [f.strip().lower() for f in rows[0][1]]
    has_header = "score" in first and "system" in first
    if has_header:
        check_header_once(rows[0][1], label, rows[0][0])
        columns = [f.strip().upper() for f in rows[0][1]]
        want = list(LONG_COLUMNS) if "METRIC" in columns else list(LONG_COLUMNS[1:])
        missing = [c for c in want if c not in columns]
        if missing:
            raise StatsInputError(
                f"{label}, line 1: missing header column(s) {', '.join(missing)}; expected "
                f"{' '.join(LONG_COLUMNS)} (METRIC optional in a human-score file)"
            )
        pos = [columns.index(c) for c in want]
        width = len(columns)
    else:
        width = len(rows[0][1])
        # a header of other names (no field a number, e.g. WMT17's DA-seglevel.csv, LP DATA
        # SYSTEM SID HUMAN) is no headerless long line: refused as fitting no layout
        named = not any(spells_number(f) for f in rows[0][1])
        if width not in (5, 6) or (named and rows[0][1][-1].strip().lower() not in MISSING):
            from ._layouts import META_EVAL_LAYOUTS, none_fits

            line_one = next(ln for ln in _text(data, text, label).splitlines() if ln.strip())
            raise StatsInputError(none_fits(label, rows[0][0], line_one, META_EVAL_LAYOUTS))
        pos = list(range(width))
    found = _long_rows_fast(data, delimiter, width, pos, has_header, label, text is None)
    if found is None:
        found = _long_rows_careful(_text(data, text, label), label, pairs, has_header, width, pos)
    add_rows(pairs, label, found)


def _scorers(metric) -> tuple[tuple[np.ndarray, list], np.ndarray]:
    """((codes, scorer names), is gold) of a METRIC column (``HUMAN:NAME`` -> NAME, gold),
    computed on its distinct values: two spellings of one name (``HUMAN``, ``human``) share a
    code. ``metric``: a column, or its ``(codes, names)``."""
    codes, uniques = metric if isinstance(metric, tuple) else codes_and_names(metric)
    golds = [_gold_name(u) for u in uniques]
    first: dict = {}
    remap = np.array([first.setdefault(u if g is None else g, len(first))
                      for u, g in zip(uniques, golds, strict=True)], dtype=np.int64)
    flags = np.array([g is not None for g in golds], dtype=bool)
    return (remap[codes], list(first)), flags[codes]


def _scores(raw) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(value, spelled as a number, missing mark) of each cell of a score column of pyarrow
    strings, computed by pyarrow (no Python object per cell): NaN where not a number; a number
    by the one rule (:data:`~stats._core.numbers.NUMBER`, at most
    :data:`~stats._core.numbers.MAX_NUMBER_CHARS` characters)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from stats._core.numbers import MAX_NUMBER_CHARS

    from ._arrow import NUMBER_RE2

    cells = raw if isinstance(raw, (pa.Array, pa.ChunkedArray)) else arrow_cells(raw)
    direct = plain_floats(cells)
    if direct is not None:  # every cell a plain number: none missing
        none = np.zeros(len(direct), dtype=bool)
        return direct.copy(), ~none, none
    spelled = pc.and_(
        pc.match_substring_regex(cells, NUMBER_RE2),
        pc.less_equal(pc.utf8_length(cells), MAX_NUMBER_CHARS),
    ).fill_null(False)
    values = pc.cast(pc.if_else(spelled, pc.utf8_trim_whitespace(cells), "nan"), pa.float64())
    missing = pc.is_in(pc.utf8_lower(pc.utf8_trim_whitespace(cells)),
                       value_set=pa.array(sorted(MISSING))).fill_null(True)

    def arr(x, dtype):
        return np.array(x.to_numpy(zero_copy_only=False), dtype=dtype)

    return arr(values, float), arr(spelled, bool), arr(missing, bool)


#: whether pyarrow parses a plain file's blocks with its threads (the same CPU time, less wall
#: time where a core is idle)
THREADS = True
#: pyarrow's delimiter for a delimiter name (runs of whitespace are pandas' C parser's)
_ARROW_SEP = {"tab": "\t", "csv": ","}


def _plain_table(data: bytes, columns: list, types: dict, delimiter: str, header: bool):
    """The ``types`` columns of a plain file (:func:`~._arrow.plain_bytes`) parsed by
    pyarrow from its bytes (names dictionary-encoded, no quoting, every line a row of
    ``columns``); ``"other"`` when a field may need stripping (a space, or a tab in a CSV:
    :func:`~._common.fast_frame` strips those), None when the parser refuses the file (a
    ragged or blank line) or it has no row: the line-by-line reader then names it."""
    sep = _ARROW_SEP.get(delimiter)
    if sep is None or may_be_padded(data, comma=sep != "\t"):
        return "other"
    table = read_typed(data, columns, types, delimiter=sep, skip_rows=int(header),
                       include=list(types), blank_lines=False, block=LARGE_BLOCK,
                       threads=THREADS, valid_utf8=True)  # fmt: skip
    return table if table is not None and table.num_rows else None


def _name_codes(column) -> tuple[np.ndarray, list]:
    """``(codes, names)`` of a pyarrow string column as the parser gives it (one chunk per
    block), encoded by pyarrow (:func:`~._arrow.name_codes`) as
    :func:`~._common.codes_and_names` encodes a column; a column of one name (a language
    pair, a test set) found by one comparison per row instead of a hash."""
    name = one_name(column)
    if name is not None:
        return np.zeros(len(column), dtype=np.int64), [name]
    found = integer_codes(column)  # (segment ids: numbered by counting, no hash of each)
    return found if found is not None else name_codes(column)


def _long_rows_plain(data: bytes, width: int, pos: list, delimiter: str, has_header: bool,
                     label: str):
    """:func:`_long_rows_fast` of a plain file (:func:`~._arrow.plain_bytes`) parsed from
    its bytes (:func:`_plain_table`), without a pandas frame: the same rows, or None (the
    line-by-line reader reads it), or ``"other"`` (:func:`_long_rows_fast`'s frame reads
    it); the first bad score named as there."""
    columns = [f"c{i}" for i in range(width)]
    used = [columns[i] for i in pos]
    table = _plain_table(data, columns, dict.fromkeys(used, "str"), delimiter, has_header)
    if table is None or isinstance(table, str):
        return table
    n = table.num_rows
    raw = table.column(used[-1])
    cols = in_threads(_name_codes, [table.column(c) for c in used[:-1]])  # at once
    del table
    if len(cols) == 4:
        name, gold = (np.zeros(n, dtype=np.int64), [GOLD_DEFAULT]), np.ones(n, dtype=bool)
        lp, testset, system, segment = cols
        named: tuple = (lp, system, segment)
    else:
        metric, lp, testset, system, segment = cols
        named = (metric, lp, system, segment)
    if any("" in names for _, names in named):
        return None
    if len(cols) == 5:
        name, gold = _scorers(metric)
    score = plain_floats(raw)  # (read-only: pyarrow's memory)
    if score is not None:  # every cell a plain finite number: each spelled, none missing
        with np.errstate(invalid="ignore"):
            bad = ~(np.abs(score) <= MAX_ABS_VALUE)
    else:
        score, spelled, missing = _scores(raw)
        bad = (~spelled & ~missing) | (missing & ~gold)
        with np.errstate(invalid="ignore"):
            bad |= spelled & ~(np.abs(score) <= MAX_ABS_VALUE)
        score[missing] = np.nan
    start = 2 if has_header else 1
    if bad.any():  # the first bad score named as the line-by-line reader names it
        i = int(np.flatnonzero(bad)[0])
        _score(str(raw[i].as_py()), label, start + i, gold=bool(gold[i]), column="SCORE")
        return None
    return {"lp": lp, "name": name, "gold": gold, "system": system, "testset": testset,
            "segment": segment, "score": score,
            "line": np.arange(start, start + n, dtype=np.int64)}


def _long_rows_fast(data: bytes, delimiter: str, width: int, pos: list, has_header: bool,
                    label: str, plain: bool = False):
    """The rows of a long file read by columns (:func:`~._common.fast_frame`; a plain file,
    ``plain``, by :func:`_long_rows_plain`), names as
    ``(codes, names)`` and scores by the one number rule, computed by pyarrow without a
    Python object per row; None when anything is not plain (a blank, comment or ragged line,
    an empty name): the line-by-line reader then names it. A score that is not a finite
    number within the input bound, or a missing metric score, is named here, as the
    line-by-line reader names it (a file failing at its last line is not read again line by
    line)."""
    if plain:
        found = _long_rows_plain(data, width, pos, delimiter, has_header, label)
        if not isinstance(found, str):
            return found
    columns = [f"c{i}" for i in range(width)]
    as_text = dict.fromkeys(columns, "str")
    frame = None
    if not long_line(data, MAX_NUMBER_CHARS):  # no field longer than a number may be
        # scores parsed as numbers (finite, within the bound, none missing; else None and
        # read as text, checked by the number rule below)
        frame = fast_frame(data, columns, delimiter, {**as_text, columns[pos[-1]]: "float64"},
                           header=has_header)
    if frame is None:
        frame = fast_frame(data, columns, delimiter, as_text, header=has_header)
    if frame is None or not len(frame):
        return None
    cols = [frame[columns[i]] for i in pos]
    n = len(frame)
    if len(cols) == 5:
        name, gold = (np.zeros(n, dtype=np.int64), [GOLD_DEFAULT]), np.ones(n, dtype=bool)
        lp, testset, system, segment, raw = cols
        named: tuple = (lp, system, segment)
    else:
        metric, lp, testset, system, segment, raw = cols
        named = (metric, lp, system, segment)
    for values in named:
        if (values == "").any():
            return None
    if len(cols) == 6:
        name, gold = _scorers(metric)
    if raw.dtype.kind == "f":  # parsed as numbers: each one spelled, none missing
        score = raw.to_numpy(dtype=float, copy=True)
        spelled, missing = np.ones(n, dtype=bool), np.zeros(n, dtype=bool)
    else:
        score, spelled, missing = _scores(raw)
    bad = (~spelled & ~missing) | (missing & ~gold)
    with np.errstate(invalid="ignore"):
        bad |= spelled & ~(np.abs(score) <= MAX_ABS_VALUE)
    start = 2 if has_header else 1
    if bad.any():  # the first bad score named as the line-by-line reader names it
        i = int(np.flatnonzero(bad)[0])
        _score(str(raw.iloc[i]), label, start + i, gold=bool(gold[i]), column="SCORE")
        return None  # (it reads after all: the line-by-line reader decides)
    score[missing] = np.nan
    return {"lp": codes_and_names(lp), "name": name, "gold": gold,
            "system": codes_and_names(system), "testset": codes_and_names(testset),
            "segment": codes_and_names(segment), "score": score,
            "line": np.arange(start, start + n, dtype=np.int64)}


def _long_rows_careful(text: str, label: str, pairs: dict, has_header: bool, width: int,
                       pos: list) -> dict:
    """The rows of a long file line by line, every error named by file and line."""
    _, rows, _ = split_lines(text, label, header=False)
    if has_header:
        rows = rows[1:]
    cells = _cells_so_far(pairs)
    out: dict = {k: [] for k in ("lp", "name", "gold", "system", "testset", "segment",
                                 "score", "line")}
    for line_no, fields in rows:
        if len(fields) != width:
            raise StatsInputError(
                f"{label}, line {line_no}: expected {width} fields, found {len(fields)}"
            )
        vals = [fields[i] for i in pos]
        if len(vals) == 5:
            vals = ["HUMAN", *vals]
        metric, lp, testset, system, segment, score = (v.strip() for v in vals)
        for col, v in (("METRIC", metric), ("LP", lp), ("SYSTEM", system), ("SEGMENT", segment)):
            if not v:
                raise StatsInputError(f"{label}, line {line_no}, column {col}: empty value")
        gold = _gold_name(metric)
        _cell(out, cells, label, line_no, lp, (testset, segment), system,
              gold if gold is not None else metric, gold is not None, score)
    return _as_arrays(out)


def _cell(out, cells, label, line_no, lp, item, system, name, gold, raw, column="SCORE") -> None:
    """One cell read line by line: refused when given before, else added to ``out``."""
    key = (lp, name, gold, system, item)
    if key in cells:
        raise StatsInputError(
            f"{label}, line {line_no}: a second score for {name}, system {system!r}, segment "
            f"{item[1]!r} ({cells[key]} has the first)"
        )
    cells[key] = f"{label}, line {line_no}"
    value = _score(raw, label, line_no, gold=gold, column=column)
    for k, v in (("lp", lp), ("name", name), ("gold", gold), ("system", system),
                 ("testset", item[0]), ("segment", item[1]), ("score", value),
                 ("line", line_no)):
        out[k].append(v)


def _read_wide(text: str | None, label: str, pairs: dict, data: bytes | None = None) -> None:
    """Wide CSV ``lp, system, segment, human, <metric>...``: read by columns
    (:func:`_wide_rows_fast`) when ``data`` (the file's bytes) is given and the file is plain,
    else line by line (every error named by file, line and column). ``text`` None: a plain
    file (:func:`~._arrow.plain_bytes`), decoded only when read line by line."""
    if data is not None:
        head, _, _ = _leading(data, text, label, delimiter="csv")
        check_header_once(head, label)
        low = [h.strip().lower() for h in head]
        if {"lp", "system", "segment"} <= set(low) and len(head) > 3:
            found = _wide_rows_fast(data, head, low, label, text is None)
            if found is not None:
                add_wide_rows(pairs, label, found)
                return
    text = _text(data, text, label) if data is not None else text
    head, rows, _ = split_lines(text, label, delimiter="csv")
    check_header_once(head, label)
    low = [h.strip().lower() for h in head]
    for col in ("lp", "system", "segment"):
        if col not in low:
            raise StatsInputError(
                f"{label}, line 1: missing header column {col!r}; expected lp, system, segment, "
                "human, <metric>..."
            )
    ix = {c: low.index(c) for c in ("lp", "system", "segment")}
    score_cols = [(i, h.strip()) for i, h in enumerate(head) if i not in ix.values()]
    if not score_cols:
        raise StatsInputError(f"{label}, line 1: no score columns")
    cells = _cells_so_far(pairs)
    out: dict = {k: [] for k in ("lp", "name", "gold", "system", "testset", "segment",
                                 "score", "line")}
    for line_no, fields in rows:
        if len(fields) != len(head):
            raise StatsInputError(
                f"{label}, line {line_no}: expected {len(head)} fields as in the header, found "
                f"{len(fields)}"
            )
        lp, system, segment = (fields[ix[c]].strip() for c in ("lp", "system", "segment"))
        for col, v in (("lp", lp), ("system", system), ("segment", segment)):
            if not v:
                raise StatsInputError(f"{label}, line {line_no}, column {col}: empty value")
        for i, h in score_cols:
            gold = _gold_name(h)
            _cell(out, cells, label, line_no, lp, ("", segment), system,
                  gold if gold is not None else h, gold is not None, fields[i], column=h)
    add_rows(pairs, label, _as_arrays(out))


def _wide_rows_fast(data: bytes, head: list, low: list, label: str, plain: bool = False):
    """The cells of a wide CSV read by columns (:func:`~._common.fast_frame`; a plain file,
    ``plain``, from its bytes by :func:`_plain_table`), as :func:`~._meta_rows.add_wide_rows`
    takes them (row by row, column by column), names as ``(codes,
    names)`` and scores computed by pyarrow; None when anything is not plain (quotes, a blank
    or ragged line, an empty name, a row given twice before any bad score): the line-by-line
    reader then reads or names it. The first score that is not a finite number within the
    input bound, or a missing metric score, is named here as that reader names it."""
    columns = [f"c{i}" for i in range(len(head))]
    ix = {c: low.index(c) for c in ("lp", "system", "segment")}
    key_cols = [columns[ix[c]] for c in ("lp", "system", "segment")]
    score_cols = [i for i in range(len(head)) if i not in ix.values()]
    if plain:
        types = dict.fromkeys([*key_cols, *(columns[i] for i in score_cols)], "str")
        table = _plain_table(data, columns, types, "csv", True)
        if table is None:
            return None
        if not isinstance(table, str):
            keys = in_threads(_name_codes, [table.column(c) for c in key_cols])
            if any("" in names for _, names in keys):
                return None
            raws = [table.column(columns[i]) for i in score_cols]
            n = table.num_rows
            del table
            return _wide_cells(keys, raws, n, head, score_cols, label)
    as_text = dict.fromkeys(columns, "str")
    frame = None
    if not long_line(data, MAX_NUMBER_CHARS):  # no field longer than a number may be
        # metric scores parsed as numbers (finite, within the bound, none missing, or None:
        # then read as text and checked by the number rule below); gold kept as text (None)
        typed = {columns[i]: "float64" for i in range(len(head))
                 if i not in ix.values() and _gold_name(head[i].strip()) is None}
        if typed:
            frame = fast_frame(data, columns, "csv", {**as_text, **typed}, header=True)
    if frame is None:
        frame = fast_frame(data, columns, "csv", as_text, header=True)
    if frame is None or not len(frame):
        return None
    for c in key_cols:
        if (frame[c] == "").any():
            return None
    keys = [codes_and_names(frame[c]) for c in key_cols]
    raws = [frame[columns[i]] for i in score_cols]
    n = len(frame)
    del frame
    return _wide_cells(keys, raws, n, head, score_cols, label)


def _wide_cells(keys: list, raws: list, n: int, head: list, score_cols: list, label: str):
    """The cells of a wide CSV from its key columns' ``(codes, names)`` (lp, system,
    segment) and its score columns as parsed (``raws``: pandas columns of floats or pyarrow
    strings, or pyarrow arrays of strings; each dropped once read), for
    :func:`~._meta_rows.add_wide_rows`; None, or the first bad score named, as
    :func:`_wide_rows_fast` says."""
    lp, system, segment = keys
    first: dict = {}
    name_of = []
    gold_of = []
    scores = []
    first_bad = None  # (row, column position, the cell)
    for j, i in enumerate(score_cols):
        h = head[i].strip()
        gold = _gold_name(h)
        name_of.append(first.setdefault(gold if gold is not None else h, len(first)))
        gold_of.append(gold is not None)
        raw, raws[j] = raws[j], None
        arrow = not hasattr(raw, "iloc")  # (a pyarrow array of strings)
        # a pyarrow column that pyarrow's cast reads whole: the cast as it is (read-only)
        direct = plain_floats(raw) if arrow else None
        if direct is not None:  # each a plain finite number: spelled, none missing
            values, missing = direct, None
            with np.errstate(invalid="ignore"):
                bad = ~(np.abs(values) <= MAX_ABS_VALUE)
        else:
            if not arrow and raw.dtype.kind == "f":
                values = raw.to_numpy(dtype=float, copy=True)  # parsed as numbers: spelled
                spelled, missing = np.ones(n, dtype=bool), np.zeros(n, dtype=bool)
            else:
                values, spelled, missing = _scores(raw)
            bad = (~spelled & ~missing) | (missing & (gold is None))
            with np.errstate(invalid="ignore"):
                bad |= spelled & ~(np.abs(values) <= MAX_ABS_VALUE)
            del spelled
        if bad.any():
            r = int(np.flatnonzero(bad)[0])
            if first_bad is None or r < first_bad[0]:
                cell = raw[r].as_py() if arrow else raw.iloc[r]
                first_bad = (r, j, str(cell))
        del raw, bad
        if missing is not None:
            values[missing] = np.nan
        scores.append(values)
    if first_bad is not None:
        r, j, cell = first_bad
        row_key = (lp[0] * len(system[1]) + system[0]) * len(segment[1]) + segment[0]
        twice = np.flatnonzero(pd.Series(row_key[: r + 1]).duplicated().to_numpy())
        if twice.size:
            return None  # a row given twice comes first: the line-by-line reader names it
        i = score_cols[j]
        _score(cell, label, r + 2, gold=gold_of[j], column=head[i].strip())
        return None
    return {
        "lp": lp, "system": system, "segment": segment,
        "line": np.arange(2, n + 2, dtype=np.int64),
        "name": (np.array(name_of, dtype=np.int64), list(first)),
        "gold": np.array(gold_of, dtype=bool), "score": scores,
    }


def _read_wmt_seg(data: bytes, label: str, pairs: dict) -> None:
    """A WMT metrics task segment-level file (``METRIC LP TESTSET REFSET SYSTEM DOCID SEGID
    SCORE``, 8 or 10 fields; :func:`stats.readers.wmt.read_wmt_scores`): each metric named
    ``METRIC-REFSET`` (``src`` for a reference-free metric), REFSET listed as a reference of
    the language pair; the item of a row is ``(TESTSET, "DOCID:SEGID")``. Rows are taken
    by language pair and metric (the file's own duplicates are refused by the WMT reader; a
    metric given again by another file is refused here)."""

    from .wmt import read_wmt_scores

    frame = read_wmt_scores(data, name=label, level="seg").frame
    # only the language pairs' codes number them in order of first appearance (the order of
    # ``pairs``); the other names' codes are only compared (scorers and items are numbered
    # by their own first appearance): a categorical column's own codes serve
    col = {c: _column_codes(frame[c], c != "lp")
           for c in ("metric", "lp", "testset", "refset", "system")}  # fmt: skip
    (m, metrics), (r, refsets) = col["metric"], col["refset"]
    name = _joined(m, metrics, r, refsets, "-")
    segment = _joined(*_column_codes(frame["docid"], True), *_column_codes(frame["segid"], True),
                      ":")
    lines = frame["_line"].to_numpy()
    score = frame["score"].to_numpy(dtype=float)
    del frame
    (lp_codes, lps), (scorer_codes, names) = col["lp"], name
    group, _ = first_appearance_codes(lp_codes * len(names) + scorer_codes, len(lps) * len(names))
    n_groups = int(group.max(initial=-1)) + 1
    order = None  # one language pair and metric: the rows as they are
    starts = np.zeros(min(n_groups, 1), dtype=np.int64)
    if n_groups > 1:  # by language pair and metric, as first seen
        order = np.argsort(group.astype(np.uint16) if n_groups < 2**16 else group, kind="stable")
        starts = order[np.flatnonzero(np.r_[True, np.diff(group[order]) != 0])]
    del group
    for i in starts:
        lp, metric = lps[lp_codes[i]], names[scorer_codes[i]]
        pair = pairs.get(lp)
        if pair is not None and metric in pair.metrics["seg"]:
            first = pair.metrics["seg"][metric].file
            raise StatsInputError(
                f"{label}, line {int(lines[i])}: metric {metric} of {lp} is also "
                f"in {first}; give each metric's scores once"
            )
    for k, lp in enumerate(lps):
        used = np.flatnonzero(np.bincount(r if len(lps) == 1 else r[lp_codes == k],
                                          minlength=len(refsets)))
        pairs.setdefault(lp, _Pair()).references.update(
            refsets[j] for j in used.tolist() if refsets[j] != "src"
        )

    def ordered(values):
        return values if order is None else values[order]

    add_rows(pairs, label, {
        "lp": (ordered(lp_codes), lps), "name": (ordered(scorer_codes), names),
        "gold": np.zeros(len(lines), dtype=bool),
        "system": (ordered(col["system"][0]), col["system"][1]),
        "testset": (ordered(col["testset"][0]), col["testset"][1]),
        "segment": (ordered(segment[0]), segment[1]),
        "score": ordered(score), "line": ordered(lines),
    })


def _column_codes(column, any_order: bool = False) -> tuple[np.ndarray, list]:
    """:func:`~._common.codes_and_names` of a column; a categorical column of one category
    and no missing value (a metric, language pair or test set of its own file) without a
    hash of every row. ``any_order``: the codes need not number the names in order of first
    appearance (a categorical column without a missing value gives its own codes and
    categories)."""
    if isinstance(column.dtype, pd.CategoricalDtype):
        codes = column.cat.codes.to_numpy()
        cats = column.cat.categories
        if not (codes < 0).any() and (any_order or len(cats) == 1):
            if len(cats) == 1:
                return np.zeros(len(column), dtype=np.int64), [str(cats[0])]
            return codes.astype(np.int64), [str(v) for v in cats.tolist()]
    return codes_and_names(column)
