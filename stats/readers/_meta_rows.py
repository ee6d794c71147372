"""Scores of :mod:`.meta`'s long, wide and WMT segment formats, stored by columns.

A source's rows (language pair, scorer, gold or metric, system, item, score, line) are added
at once with array operations: item keys become integer codes per language pair (in order of
first appearance), each scorer's scores per system are kept as chunks of (item codes, values,
lines, file), and :func:`finish_items` turns the chunks into arrays in item order. Nothing
here loops over rows in Python. Also the formats' shared names (missing marks, long columns)
and the one-value score rule of files read line by line (:func:`_score`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

from ._arrow import first_appearance_codes, pair_codes
from ._common import codes_and_names, first_repeat, name_list, strict_float
from ._limits import check_value, overflows

_LEVELS = ("seg", "sys")
MISSING = frozenset({"none", "na", "nan", "n/a", ""})
LONG_COLUMNS = ("METRIC", "LP", "TESTSET", "SYSTEM", "SEGMENT", "SCORE")
GOLD_DEFAULT = "human"


@dataclass
class _Scores:
    """Scores of one scorer (gold or metric) at one level in one language pair, as read."""

    file: str
    values: dict = field(default_factory=dict)  #: system -> floats (NaN = missing)
    lines: dict = field(default_factory=dict)  #: system -> first line number
    #: system -> the DOMAIN of each score (MTME-layout files with a DOMAIN column), in order
    domains: dict = field(default_factory=dict)


@dataclass
class _Pair:
    """Everything read for one language pair."""

    gold: dict = field(default_factory=lambda: {lv: {} for lv in _LEVELS})
    metrics: dict = field(default_factory=lambda: {lv: {} for lv in _LEVELS})
    items: dict | None = None  #: item keys (long/wide formats) -> index, first appearance
    known_systems: set | None = None  #: system-outputs (MTME layout)
    references: set = field(default_factory=set)  #: reference names (MTME ``references/``)
    #: the domain of each segment (MTME-layout segment files with a DOMAIN column), or None
    item_domains: tuple | None = None
    #: ``*.domain.score`` files: ``{"gold"|"metrics": {name: _Scores}}``, each _Scores'
    #: values ``{system: {domain: score}}``
    domain_level: dict = field(default_factory=lambda: {"gold": {}, "metrics": {}})
    #: the organisers' relative-ranking pairs (``DArr-seglevel.csv``), one frame per file:
    #: ``testset, segment, better, worse, diff`` (NaN without a DIFF column), ``line``
    rr: list = field(default_factory=list)


class _Chunks(list):
    """The rows of one scorer and system from long, wide or WMT files, one
    ``(item codes, values, lines, file)`` per source, until :func:`finish_items`."""


def _codes(values) -> tuple[np.ndarray, list]:
    """(codes, distinct values as str) in order of first appearance; a ``(codes, names)``
    pair is taken as it is."""
    if isinstance(values, tuple):
        return np.asarray(values[0], dtype=np.int64), list(values[1])
    codes, uniques = pd.factorize(np.asarray(values, dtype=object))
    return codes.astype(np.int64), [str(u) for u in uniques.tolist()]


def coded(values) -> tuple[np.ndarray, list]:
    """``(codes, names)`` of a column (pandas' string or number column, or an array): what
    :func:`add_rows` takes instead of one string per row."""
    return codes_and_names(values)


def _item_codes(pair: _Pair, testset: tuple, segment: tuple) -> np.ndarray:
    """Each row's item index in ``pair.items`` (new items appended in order of first
    appearance); ``testset`` and ``segment`` as ``(codes, names)``."""
    (a, ta), (b, sb) = testset, segment
    nb = max(len(sb), 1)
    codes, combined = pair_codes(a, max(len(ta), 1), b, nb)
    if pair.items is None:
        pair.items = {}
    items = pair.items
    if not items:  # the pair's first source: its items numbered in order of first appearance
        keys = zip(np.asarray(ta, dtype=object)[combined // nb].tolist(),
                   np.asarray(sb, dtype=object)[combined % nb].tolist(), strict=True)
        items.update(zip(keys, range(len(combined)), strict=True))
        if len(items) == len(combined):
            return codes.astype(np.int64, copy=False)
        items.clear()  # (two codes spelled alike: numbered one by one below)
    index = np.fromiter(
        (items.setdefault((ta[u // nb], sb[u % nb]), len(items)) for u in combined.tolist()),
        dtype=np.int64, count=len(combined),
    )
    return index[codes]


def add_rows(pairs: dict, label: str, rows: dict) -> None:
    """Add one source's rows to ``pairs``.

    ``rows`` maps ``lp, name, system, testset, segment`` (arrays of str, or ``(codes,
    names)`` pairs: :func:`coded`), ``gold`` (bool), ``score`` (float, NaN = missing) and
    ``line`` (int) to equal-length columns, in the file's order. A (scorer, system, segment)
    given twice, in this source or an earlier one, is refused naming both lines, as the
    row-by-row reader words it.
    """
    n = len(rows["score"])
    if n == 0:
        return
    lp_codes, lps = _codes(rows["lp"])
    testset, segment = _codes(rows["testset"]), _codes(rows["segment"])
    item = _pair_items(pairs, lp_codes, lps, testset, segment)
    del testset
    name_codes, names = _codes(rows["name"])
    sys_codes, systems = _codes(rows["system"])
    gold = np.asarray(rows["gold"], dtype=bool)
    key = ((lp_codes * len(names) + name_codes) * 2 + gold) * len(systems) + sys_codes
    group, group_keys = first_appearance_codes(key, len(lps) * len(names) * 2 * len(systems))
    del key
    n_items = int(item.max()) + 1
    cell = group * n_items + item
    lines = np.asarray(rows["line"], dtype=np.int64)
    scores = np.asarray(rows["score"], dtype=float)
    first_dup = None  # (row, first file, first line)
    i = first_repeat(cell, (int(group.max()) + 1) * n_items)
    if i is not None:
        j = int(np.flatnonzero(cell == cell[i])[0])
        first_dup = (i, label, int(lines[j]))
    del cell
    targets = []
    for at in _row_groups(group):
        r = int(at[0])
        pair = pairs[lps[lp_codes[r]]]
        name, system, is_gold = names[name_codes[r]], systems[sys_codes[r]], bool(gold[r])
        store = (pair.gold if is_gold else pair.metrics)["seg"]
        found = _kept_before(
            store, name, system, item[at], at, label, int(lines[r]), lps[lp_codes[r]]
        )
        if found is not None and (first_dup is None or found[0] < first_dup[0]):
            first_dup = found
        targets.append((store, name, system, r, at))
    if first_dup is not None:
        i, old_file, old_line = first_dup
        name, system = names[name_codes[i]], systems[sys_codes[i]]
        raise StatsInputError(
            f"{label}, line {int(lines[i])}: a second score for {name}, system {system!r}, "
            f"segment {segment[1][segment[0][i]]!r} ({old_file}, line {old_line} has the first)"
        )
    for store, name, system, r, at in targets:
        sc = store.get(name)
        if sc is None:
            sc = store[name] = _Scores(file=label)
        sc.values.setdefault(system, _Chunks()).append((item[at], scores[at], lines[at], label))
        sc.lines.setdefault(system, int(lines[r]))


def _pair_items(pairs: dict, lp_codes: np.ndarray, lps: list, testset: tuple,
                segment: tuple) -> np.ndarray:  # fmt: skip
    """Each row's item code among its language pair's items (``testset`` and ``segment``: codes
    and names); rows of one language pair are all the rows, and their codes are not copied."""
    if len(lps) == 1:
        return _item_codes(pairs.setdefault(lps[0], _Pair()), testset, segment)
    item = np.empty(len(lp_codes), dtype=np.int64)
    for k, lp in enumerate(lps):
        pair = pairs.setdefault(lp, _Pair())
        at = np.flatnonzero(lp_codes == k)
        item[at] = _item_codes(pair, (testset[0][at], testset[1]), (segment[0][at], segment[1]))
    return item


def _row_groups(group: np.ndarray) -> list[np.ndarray]:
    """The rows of each group code, groups in code order, rows in file order (a stable sort
    of small integers is a radix sort in numpy: the codes narrowed; a difference of two
    narrowed codes is 0 exactly when they are equal)."""
    small = group.astype(np.uint16) if group.max(initial=0) < 2**16 else group
    order = np.argsort(small, kind="stable")
    return np.split(order, np.flatnonzero(np.diff(small[order])) + 1)


def _kept_before(store: dict, name: str, system: str, items: np.ndarray, at: np.ndarray,
                 label: str, line: int, lp: str) -> tuple[int, str, int] | None:  # fmt: skip
    """The first of the rows ``at`` (their item codes ``items``) whose item an earlier file
    already scored for ``name`` and ``system`` in ``store``: ``(row, that file, its line)``,
    or None. Scores of the MTME layout kept for them are refused (``line``: the group's first
    line here, ``lp`` its language pair)."""
    sc = store.get(name)
    if sc is None or system not in sc.values:
        return None
    earlier = sc.values[system]
    if not isinstance(earlier, _Chunks):
        raise StatsInputError(
            f"{label}, line {line}: {name} of {lp} is also in {sc.file} (MTME layout); give "
            "each scorer's scores in one format"
        )
    first = None
    for codes, _, old_lines, old_file in earlier:
        hit = np.isin(items, codes)
        if hit.any():
            at_hit = int(np.flatnonzero(hit)[0])
            row = int(at[at_hit])
            if first is None or row < first[0]:
                old = int(np.flatnonzero(codes == items[at_hit])[0])
                first = (row, old_file, int(old_lines[old]))
    return first


def _long_form(rows: dict) -> dict:
    """The rows :func:`add_rows` takes of the cells :func:`add_wide_rows` takes (row by
    row, column by column)."""
    (name_of, names), n, k = rows["name"], len(rows["line"]), len(rows["score"])

    def each_row(coded: tuple) -> tuple:
        return np.repeat(coded[0], k), coded[1]

    return {
        "lp": each_row(rows["lp"]), "system": each_row(rows["system"]),
        "segment": each_row(rows["segment"]), "testset": (np.zeros(n * k, dtype=np.int64), [""]),
        "name": (np.tile(name_of, n), names), "gold": np.tile(rows["gold"], n),
        "score": np.column_stack(rows["score"]).ravel(), "line": np.repeat(rows["line"], k),
    }


def add_wide_rows(pairs: dict, label: str, rows: dict) -> None:
    """:func:`add_rows` of the cells of a wide table (no test set), taken row by row and
    column by column, without their long form (a copy of every key per score column).

    ``rows`` maps ``lp``, ``system``, ``segment`` (``(codes, names)``) and ``line`` to one
    value per row, ``name`` (``(codes, names)``) and ``gold`` to one value per score column,
    and ``score`` to one float array per score column. The same stores, chunks, order and
    messages as :func:`add_rows` of the long form; the chunks of one row group (language
    pair and system) share one array of item codes and one of lines. Two columns of one
    scorer (``human`` and ``HUMAN:human``) are added as the long form."""
    (name_of, names), gold_of = rows["name"], np.asarray(rows["gold"], dtype=bool)
    k, n = len(name_of), len(rows["line"])
    if len(set(zip(name_of.tolist(), gold_of.tolist(), strict=True))) < k:
        add_rows(pairs, label, _long_form(rows))
        return
    if n == 0 or k == 0:
        return
    lp_codes, lps = _codes(rows["lp"])
    segment = _codes(rows["segment"])
    testset = (np.zeros(n, dtype=np.int64), [""])
    # an item's code does not change when each row is repeated once per column
    item = _pair_items(pairs, lp_codes, lps, testset, segment)
    del testset
    sys_codes, systems = _codes(rows["system"])
    # the long form's scorer groups, numbered by first appearance: row group (language pair
    # and system) g, column j is group g * k + j (the columns are distinct scorers)
    group, _ = first_appearance_codes(lp_codes * len(systems) + sys_codes, len(lps) * len(systems))
    n_items = int(item.max()) + 1
    cell = group * n_items + item  # a cell given twice: a row group and item given twice
    lines = np.asarray(rows["line"], dtype=np.int64)
    first_dup = None  # (cell in the long form's order, first file, first line)
    r = first_repeat(cell, (int(group.max()) + 1) * n_items)
    if r is not None:
        first_dup = (r * k, label, int(lines[int(np.flatnonzero(cell == cell[r])[0])]))
    del cell
    targets = []
    for at in _row_groups(group):
        r = int(at[0])
        pair = pairs[lps[lp_codes[r]]]
        system = systems[sys_codes[r]]
        items = item[at]
        for j in range(k):
            name, is_gold = names[name_of[j]], bool(gold_of[j])
            store = (pair.gold if is_gold else pair.metrics)["seg"]
            found = _kept_before(
                store, name, system, items, at, label, int(lines[r]), lps[lp_codes[r]]
            )
            if found is not None and (first_dup is None or found[0] * k + j < first_dup[0]):
                first_dup = (found[0] * k + j, found[1], found[2])
        targets.append((pair, system, r, at, items))
    if first_dup is not None:
        i, old_file, old_line = first_dup
        row, j = divmod(i, k)
        raise StatsInputError(
            f"{label}, line {int(lines[row])}: a second score for {names[name_of[j]]}, system "
            f"{systems[sys_codes[row]]!r}, segment {segment[1][segment[0][row]]!r} "
            f"({old_file}, line {old_line} has the first)"
        )
    for pair, system, r, at, items in targets:
        at_lines = lines[at]
        for j in range(k):
            name, is_gold = names[name_of[j]], bool(gold_of[j])
            store = (pair.gold if is_gold else pair.metrics)["seg"]
            sc = store.get(name)
            if sc is None:
                sc = store[name] = _Scores(file=label)
            sc.values.setdefault(system, _Chunks()).append(
                (items, rows["score"][j][at], at_lines, label)
            )
            sc.lines.setdefault(system, int(lines[r]))


def finish_items(pairs: dict) -> None:
    """Turn the chunks of long/wide/WMT scores into arrays in item order (NaN for a missing
    gold cell; a missing metric cell is an error naming the segments)."""
    for lp, pair in pairs.items():
        if pair.items is None:
            continue
        order = list(pair.items)
        n = len(order)
        for gold, store in ((True, pair.gold["seg"]), (False, pair.metrics["seg"])):
            for name, sc in store.items():
                for system, chunks in list(sc.values.items()):
                    if not isinstance(chunks, _Chunks):
                        continue
                    codes = np.concatenate([c[0] for c in chunks])
                    values = np.full(n, np.nan)
                    values[codes] = np.concatenate([c[1] for c in chunks])
                    if not gold and len(codes) != n:
                        covered = np.zeros(n, dtype=bool)
                        covered[codes] = True
                        lacking = [order[i][1] for i in np.flatnonzero(~covered)]
                        raise StatsInputError(
                            f"{sc.file}, line {sc.lines[system]}: metric {name}, system "
                            f"{system!r} of {lp} has no score for segment(s) {name_list(lacking)}"
                        )
                    sc.values[system] = values


def _cells_so_far(pairs: dict) -> dict:
    """``{(lp, name, gold, system, item): "FILE, line N"}`` of the rows read so far from long,
    wide and WMT files (for the line-by-line reader's duplicate check)."""
    cells: dict = {}
    for lp, pair in pairs.items():
        if pair.items is None:
            continue
        order = list(pair.items)
        for gold, store in ((True, pair.gold["seg"]), (False, pair.metrics["seg"])):
            for name, sc in store.items():
                for system, chunks in sc.values.items():
                    if not isinstance(chunks, _Chunks):
                        continue
                    for codes, _, lines, file in chunks:
                        for c, ln in zip(codes.tolist(), lines.tolist(), strict=True):
                            cells[(lp, name, gold, system, order[c])] = f"{file}, line {ln}"
    return cells


def _as_arrays(out: dict) -> dict:
    return {k: np.array(v, dtype=float if k == "score" else bool if k == "gold"
                        else np.int64 if k == "line" else object) for k, v in out.items()}


def _joined(a, a_names, b, b_names, sep: str) -> tuple:
    """``(codes, names)`` of the strings ``A + sep + B`` of two coded columns (built for the
    distinct pairs only)."""
    nb = max(len(b_names), 1)
    codes, pairs = pair_codes(a, max(len(a_names), 1), b, nb)
    names = [f"{a_names[u // nb]}{sep}{b_names[u % nb]}" for u in pairs.tolist()]
    if len(set(names)) == len(names):
        return codes, names
    first: dict = {}  # two pairs may spell the same string ("A-b" "c", "A" "b-c"): one name
    remap = np.array([first.setdefault(s, len(first)) for s in names], dtype=np.int64)
    return remap[codes], list(first)


# ---------------------------------------------------------------------------------------------
# score values, one at a time (MTME score files, files read line by line)


def _score(raw: str, label: str, line: int, *, gold: bool, column: str = "SCORE") -> float:
    """One score of ``column`` at ``line``: a float within the input boundary's
    :data:`~._limits.MAX_ABS_VALUE`, NaN for a missing human score."""
    text = raw.strip()
    if text.lower() in MISSING:
        if gold:
            return math.nan
        raise StatsInputError(
            f"{label}, line {line}: metric score is missing ({raw!r}); metric scores must be "
            "complete (only human scores may be None)"
        )
    try:
        value = strict_float(text)
    except ValueError:
        raise StatsInputError(f"{label}, line {line}: {raw!r} is not a number") from None
    if not math.isfinite(value):
        what = "is not finite"
        if overflows(text):
            what = "overflows a 64-bit float (largest about 1.8e308)"
        raise StatsInputError(f"{label}, line {line}: score {raw!r} {what}")
    check_value(value, column, label, line)
    return value


def _add(store: dict, name: str, label: str, system: str, value, line: int) -> _Scores:
    sc = store.get(name)
    if sc is None:
        sc = store[name] = _Scores(file=label)
    sc.values.setdefault(system, []).append(value)
    sc.lines.setdefault(system, line)
    return sc
