"""Readers for segment-level meta-evaluation data: metric and human (gold) scores per system and
segment, for :func:`stats.metaeval.meta_eval.meta_correlation`.

Three formats, recognised per source:

* **MTME's on-disk layout** (google-research/mt-metrics-eval), as a directory, or as a ``.zip``
  or ``.tar.gz`` of one: human scores in ``human-scores/LP.NAME.LEVEL.score``, metric scores in
  ``metric-scores/LP/METRIC-REF.LEVEL.score`` (LEVEL ``seg`` or ``sys``; other levels are
  skipped), lines ``SYSTEM<TAB>SCORE``; a segment file holds one line per segment, in segment
  order, system by system; ``None`` marks a missing score. ``system-outputs/LP/`` (when present)
  names the known systems, ``references/LP.REF.txt`` the human translations (not evaluated).
* **Long text** ``METRIC LP TESTSET SYSTEM SEGMENT SCORE``, tab or whitespace separated, the
  header optional. Rows whose METRIC is ``HUMAN`` hold gold scores named ``human``;
  ``HUMAN:NAME`` holds gold scores named NAME. A file of five columns ``LP TESTSET SYSTEM
  SEGMENT SCORE`` (no METRIC) holds gold scores named ``human``. The items of a language pair
  are its (TESTSET, SEGMENT) pairs in order of first appearance.
* **Wide CSV** ``lp, system, segment, human, <metric>...``: one row per system and segment;
  ``human`` or ``human:NAME`` columns hold gold scores.

``None``, ``NA`` or an empty field is a missing score: allowed for gold scores, an error for
metric scores. Every error is one line naming the file and line.
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

import numpy as np

from stats._core.errors import StatsInputError

from ._archives import archive_members, directory_files, read_regular_file
from ._common import (
    Source,
    _is_number,
    decode,
    load_bytes,
    name_list,
    source_name,
    split_lines,
    strict_float,
)
from ._limits import check_value, overflows
from .system_level import _as_source

__all__ = [
    "MetaEvalData",
    "parse_metric_name",
    "MetaEvalTable",
    "is_meta_eval_source",
    "read_meta_eval",
]

MISSING = frozenset({"none", "na", "nan", "n/a", ""})
LONG_COLUMNS = ("METRIC", "LP", "TESTSET", "SYSTEM", "SEGMENT", "SCORE")
GOLD_DEFAULT = "human"
_LEVELS = ("seg", "sys")


def parse_metric_name(name: str, all_refs=()) -> tuple[str, frozenset | None]:
    """Base name and references of a metric named as MTME names them (``EvalSet.
    ParseMetricName``): ``NAME-refA``, ``NAME-refA.refB`` (both), ``NAME-src`` (none: source-
    based), ``NAME-all`` (every reference in ``all_refs``). A name without ``-`` has unknown
    references (None)."""
    if "-" not in name:
        return name, None
    base, tail = name.rsplit("-", 1)
    if tail == "src":
        return base, frozenset()
    if tail == "all":
        return base, frozenset(all_refs)
    return base, frozenset(tail.split("."))


@dataclass
class _Scores:
    """Scores of one scorer (gold or metric) at one level in one language pair, as read."""

    file: str
    values: dict = field(default_factory=dict)  #: system -> list of floats (NaN = missing)
    lines: dict = field(default_factory=dict)  #: system -> first line number


@dataclass
class _Pair:
    """Everything read for one language pair."""

    gold: dict = field(default_factory=lambda: {lv: {} for lv in _LEVELS})
    metrics: dict = field(default_factory=lambda: {lv: {} for lv in _LEVELS})
    items: dict | None = None  #: item keys (long/wide formats) in order of first appearance
    known_systems: set | None = None  #: system-outputs (MTME layout)
    references: set = field(default_factory=set)  #: reference names (MTME ``references/``)


@dataclass(frozen=True, kw_only=True)
class MetaEvalTable:
    """Aligned scores of one language pair for one gold type.

    Attributes
    ----------
    lp, gold_name : str
    systems : tuple of str
        The systems with gold scores, in file order.
    gold : ndarray, shape (n_systems, n_items), or None
        Segment-level gold scores, NaN where missing (None when only system-level files were
        given).
    metrics : dict or None
        Metric name -> (n_systems, n_items) array.
    gold_sys, metrics_sys : ndarray, dict or None
        System-level scores read from ``.sys.score`` files, when the gold and every metric have
        them (else None: system scores are the means of segment scores).
    files : tuple of str
    """

    lp: str
    gold_name: str
    systems: tuple
    gold: np.ndarray | None
    metrics: dict | None
    gold_sys: np.ndarray | None
    metrics_sys: dict | None
    files: tuple

    @property
    def n_items(self) -> int:
        return 0 if self.gold is None else self.gold.shape[1]

    @property
    def metric_names(self) -> tuple:
        return tuple(self.metrics_sys if self.metrics_sys is not None else self.metrics)


@dataclass(frozen=True, kw_only=True)
class MetaEvalData:
    """Scores read by :func:`read_meta_eval`, by language pair."""

    pairs: dict
    files: tuple

    @property
    def language_pairs(self) -> tuple:
        return tuple(self.pairs)

    def gold_names(self, lp: str | None = None) -> tuple:
        """Gold score types (e.g. ``mqm``, ``da``) present, overall or for ``lp``."""
        lps = [lp] if lp is not None else list(self.pairs)
        names: dict = {}
        for key in lps:
            for level in _LEVELS:
                names.update(dict.fromkeys(self.pairs[key].gold[level]))
        return tuple(names)

    def choose_gold(self, gold: str | None = None) -> str:
        """``gold`` if present (case-insensitive), else the only gold type there is.

        Raises
        ------
        StatsInputError
            No gold scores, an unknown name, or several types and none chosen (listing them).
        """
        names = self.gold_names()
        if not names:
            raise StatsInputError(
                f"no human (gold) scores in {name_list(self.files)}: give human-scores/ files, "
                "HUMAN rows or a human column"
            )
        if gold is None:
            if len(names) > 1:
                raise StatsInputError(
                    f"several human score types ({', '.join(names)}); choose one with --gold"
                )
            return names[0]
        match = [n for n in names if n.lower() == str(gold).lower()]
        if not match:
            raise StatsInputError(f"human score type {gold!r} not found; present: {', '.join(names)}")
        return match[0]

    def table(
        self,
        lp: str,
        *,
        gold: str | None = None,
        level: str = "seg",
        refs: Sequence[str] | None = None,
        close_refs: Sequence[str] = (),
        include_human: bool = False,
        primary: Sequence[str] | None = None,
    ) -> MetaEvalTable:
        """The aligned scores of ``lp`` for gold type ``gold`` (see :meth:`choose_gold`).

        Systems are those with at least one gold score (as MTME); a system that a metric uses as
        its reference (MTME's ``NAME-REF``) and does not score is left out, and so are human
        translations (systems named like a file in MTME's ``references/``), as MTME's default.

        With ``refs`` (MTME's ``GetCorrelations``): only metrics whose references
        (:func:`parse_metric_name`) are among ``refs`` are kept, and the human translations
        named in ``refs`` or ``close_refs`` are never systems; ``include_human`` keeps the other
        human translations as systems. ``primary``: only metrics with these base names (when
        non-empty).

        Raises
        ------
        StatsInputError
            Unknown language pair; a metric without scores for a system with gold scores (naming
            the file); a system scored by a metric but unknown to the gold scores and system
            outputs (naming the file and line).
        """
        if lp not in self.pairs:
            raise StatsInputError(
                f"language pair {lp!r} not found; present: {name_list(self.pairs)}"
            )
        name = self.choose_gold(gold)
        pair = self.pairs[lp]
        seg_gold, sys_gold = pair.gold["seg"].get(name), pair.gold["sys"].get(name)
        seg_metrics, sys_metrics = pair.metrics["seg"], pair.metrics["sys"]
        use_sys = (
            level == "sys" and sys_gold is not None and bool(sys_metrics)
            and set(seg_metrics) <= set(sys_metrics)
        )
        main_gold, main_metrics = (sys_gold, sys_metrics) if use_sys else (seg_gold, seg_metrics)
        if main_gold is None:
            raise StatsInputError(
                f"language pair {lp!r}: no segment-level human scores of type {name!r}"
            )
        if not main_metrics:
            raise StatsInputError(f"language pair {lp!r}: no segment-level metric scores")
        if all(np.isnan(np.asarray(v, dtype=float)).all() for v in main_gold.values.values()):
            raise StatsInputError(
                f"{main_gold.file}: every human score of type {name!r} for {lp} is None; "
                "there is nothing to correlate with (choose another --gold or language pair)"
            )
        systems = [s for s, v in main_gold.values.items() if not np.all(np.isnan(v))]
        known = set(pair.known_systems or ()) | {
            s for lv in _LEVELS for sc in pair.gold[lv].values() for s in sc.values
        }
        excluded: set = set()
        for sc in main_metrics.values():
            for s in sc.values:
                if s not in known:
                    raise StatsInputError(
                        f"{sc.file}, line {sc.lines[s]}: unknown system {s!r} (not among the "
                        f"systems of the human scores or system outputs of {lp})"
                    )
        if refs is not None:
            wanted = set(refs)
            main_metrics = {
                m: sc for m, sc in main_metrics.items()
                if (r := parse_metric_name(m, pair.references)[1]) is None or r <= wanted
            }
            if not main_metrics:
                raise StatsInputError(
                    f"language pair {lp!r}: no metric uses only the reference(s) "
                    f"{', '.join(sorted(wanted))}"
                )
            excluded |= wanted | set(close_refs)
        if primary:
            names = set(primary)
            main_metrics = {
                m: sc for m, sc in main_metrics.items()
                if parse_metric_name(m, pair.references)[0] in names
            }
        for mname, sc in main_metrics.items():
            own = set(mname.rsplit("-", 1)[1].split(".")) if "-" in mname else set()
            excluded |= {s for s in systems if s not in sc.values and s in own}
        # human translations (MTME: a system named like a reference) are not evaluated, as
        # MTME's default (include_human=False)
        humans = set() if include_human else pair.references
        systems = [s for s in systems if s not in excluded and s not in humans]
        for sc in main_metrics.values():
            lacking = [s for s in systems if s not in sc.values]
            if lacking:
                raise StatsInputError(
                    f"{sc.file}: no scores for system(s) {name_list(lacking)}, which have "
                    f"human scores in {main_gold.file}"
                )

        if not main_metrics:
            raise StatsInputError(f"language pair {lp!r}: no primary metric among the files")

        def matrix(sc):
            return np.array([sc.values[s] for s in systems], dtype=float)

        seg_ok = seg_gold is not None and all(s in seg_gold.values for s in systems) and all(
            m in seg_metrics and all(s in seg_metrics[m].values for s in systems)
            for m in main_metrics
        )
        used = [main_gold, *main_metrics.values()]
        return MetaEvalTable(
            lp=lp,
            gold_name=name,
            systems=tuple(systems),
            gold=matrix(seg_gold) if seg_ok else None,
            metrics={m: matrix(seg_metrics[m]) for m in main_metrics} if seg_ok else None,
            gold_sys=matrix(sys_gold)[:, 0] if use_sys else None,
            metrics_sys=(
                {m: matrix(sys_metrics[m])[:, 0] for m in main_metrics} if use_sys else None
            ),
            files=tuple(dict.fromkeys(sc.file for sc in used)),
        )


# ---------------------------------------------------------------------------------------------
# score values


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


# ---------------------------------------------------------------------------------------------
# MTME layout


def _archive_members(data: bytes, label: str) -> dict:
    """``{posix path: bytes}`` of the files of a zip or tar.gz archive (score files' bytes, the
    other files' names only), read under the shared archive limits (:mod:`._archives`)."""
    found = archive_members(data, label, want=lambda n: n.endswith(".score"))
    if found is None:
        raise StatsInputError(f"{label}: not a readable .zip or .tar.gz archive")
    names, members = found
    return {**dict.fromkeys(names, b""), **dict(members)}


def _directory_members(path: Path) -> dict:
    """``{posix path: loader}`` of the score files (and system-output names) under ``path``:
    regular files only, links never followed (:func:`._archives.directory_files`)."""
    out = {}
    for p in directory_files(path, os.fspath(path), sized=lambda n: n.endswith(".score")):
        parts = p.relative_to(path).parts
        if ("human-scores" in parts or "metric-scores" in parts
                or "system-outputs" in parts or "references" in parts):
            out[PurePosixPath(*parts).as_posix()] = p
    return out


def _is_archive(label: str, data: bytes | None) -> bool:
    low = label.lower()
    if low.endswith((".zip", ".tar.gz", ".tgz", ".tar")):
        return True
    return data is not None and (data[:4] == b"PK\x03\x04" or data[:2] == b"\x1f\x8b")


def _read_mtme(members: dict, label: str, pairs: dict) -> list:
    """Parse MTME score files from ``members`` (path -> bytes or Path) into ``pairs``."""
    files = []
    for path in sorted(members):
        parts = PurePosixPath(path).parts
        if "system-outputs" in parts:
            i = parts.index("system-outputs")
            if len(parts) == i + 3:
                pair = pairs.setdefault(parts[i + 1], _Pair())
                pair.known_systems = (pair.known_systems or set()) | {
                    parts[i + 2].rsplit(".", 1)[0]
                }
            continue
        if "references" in parts and len(parts) >= 2 and parts[-2] == "references":
            toks = parts[-1].split(".")  # LP.REF.txt
            if len(toks) >= 3:
                pairs.setdefault(toks[0], _Pair()).references.add(toks[1])
            continue
        base = parts[-1]
        if not base.endswith(".score"):
            continue
        where = f"{label}:{path}" if label else path
        if "human-scores" in parts:
            toks = base.split(".")
            if len(toks) < 4:
                raise StatsInputError(
                    f"{where}: human score file name must be LP.NAME.LEVEL.score"
                )
            lp, name, level, gold = toks[0], ".".join(toks[1:-2]), toks[-2], True
        elif "metric-scores" in parts:
            if parts[-2] == "metric-scores":
                raise StatsInputError(
                    f"{where}: metric score files go in metric-scores/LP/, one folder per "
                    "language pair"
                )
            toks = base.rsplit(".", 2)
            if len(toks) != 3:
                raise StatsInputError(
                    f"{where}: metric score file name must be METRIC-REF.LEVEL.score"
                )
            lp, name, level, gold = parts[-2], toks[0], toks[1], False
        else:
            continue
        if level not in _LEVELS:
            continue  # doc and domain levels are not used
        raw = members[path]
        data = read_regular_file(raw, where) if isinstance(raw, Path) else raw
        text = decode(data, where)
        pair = pairs.setdefault(lp, _Pair())
        store = (pair.gold if gold else pair.metrics)[level]
        if name in store:
            raise StatsInputError(f"{where}: {name} ({level}) for {lp} is given twice")
        store[name] = _Scores(file=where)
        for line_no, ln in enumerate(text.splitlines(), start=1):
            if not ln.strip():
                continue
            fields = ln.split("\t") if "\t" in ln else ln.split()
            if len(fields) != 2:
                raise StatsInputError(
                    f"{where}, line {line_no}: expected SYSTEM<TAB>SCORE, found {len(fields)} "
                    "fields"
                )
            system = fields[0].strip()
            value = _score(fields[1], where, line_no, gold=gold)
            _add(store, name, where, system, value, line_no)
        if not store[name].values:
            raise StatsInputError(f"{where}: file is empty")
        if level == "sys":
            for s, v in store[name].values.items():
                if len(v) != 1:
                    raise StatsInputError(
                        f"{where}, line {store[name].lines[s]}: system {s!r} has {len(v)} "
                        "system-level scores; expected one line per system"
                    )
        files.append(where)
    if not files:
        raise StatsInputError(
            f"{label}: no MTME score files (human-scores/LP.NAME.LEVEL.score, "
            "metric-scores/LP/METRIC-REF.LEVEL.score)"
        )
    return files


# ---------------------------------------------------------------------------------------------
# long and wide text


def _gold_name(metric: str) -> str | None:
    """Gold type of a METRIC value / column name (``HUMAN`` or ``HUMAN:NAME``), else None."""
    low = metric.strip().lower()
    if low == "human":
        return GOLD_DEFAULT
    if low.startswith("human:") and metric.strip()[6:]:
        return metric.strip()[6:]
    return None


def _item(pair: _Pair, key) -> None:
    if pair.items is None:
        pair.items = {}
    pair.items.setdefault(key, len(pair.items))


def _read_long(text: str, label: str, pairs: dict, cells: dict) -> None:
    head, rows, delimiter = split_lines(text, label, header=False)
    del head
    first = [f.strip().lower() for f in rows[0][1]]
    has_header = "score" in first and "system" in first
    if has_header:
        columns = [f.upper() for f in rows[0][1]]
        rows = rows[1:]
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
        if width not in (5, 6):
            raise StatsInputError(
                f"{label}, line {rows[0][0]}: expected 6 fields ({' '.join(LONG_COLUMNS)}) or 5 "
                f"for a human-score file, found {width}"
            )
        pos = list(range(width))
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
        _cell(pairs, cells, label, line_no, lp, (testset, segment), system,
              gold if gold is not None else metric, gold is not None, score)


def _cell(pairs, cells, label, line_no, lp, item, system, name, gold, raw, column="SCORE") -> None:
    pair = pairs.setdefault(lp, _Pair())
    _item(pair, item)
    key = (lp, name, gold, system, item)
    if key in cells:
        raise StatsInputError(
            f"{label}, line {line_no}: a second score for {name}, system {system!r}, segment "
            f"{item[1]!r} ({cells[key]} has the first)"
        )
    cells[key] = f"{label}, line {line_no}"
    value = _score(raw, label, line_no, gold=gold, column=column)
    store = (pair.gold if gold else pair.metrics)["seg"]
    sc = store.get(name)
    if sc is None:
        sc = store[name] = _Scores(file=label)
    sc.values.setdefault(system, {})[item] = value
    sc.lines.setdefault(system, line_no)


def _read_wide(text: str, label: str, pairs: dict, cells: dict) -> None:
    head, rows, _ = split_lines(text, label, delimiter="csv")
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
            _cell(pairs, cells, label, line_no, lp, ("", segment), system,
                  gold if gold is not None else h, gold is not None, fields[i], column=h)


def _finish_items(pairs: dict) -> None:
    """Turn long/wide ``{item: value}`` dicts into lists in item order (NaN for a missing gold
    cell; a missing metric cell is an error)."""
    for lp, pair in pairs.items():
        if pair.items is None:
            continue
        order = list(pair.items)
        for gold, store in ((True, pair.gold["seg"]), (False, pair.metrics["seg"])):
            for name, sc in store.items():
                for system, cells in list(sc.values.items()):
                    if not isinstance(cells, dict):
                        continue
                    if not gold and len(cells) != len(order):
                        lacking = [k[1] for k in order if k not in cells]
                        raise StatsInputError(
                            f"{sc.file}, line {sc.lines[system]}: metric {name}, system "
                            f"{system!r} of {lp} has no score for segment(s) {name_list(lacking)}"
                        )
                    sc.values[system] = [cells.get(k, math.nan) for k in order]


def _check_counts(pairs: dict) -> None:
    """Every segment-level score list of a language pair has the same length."""
    for lp, pair in pairs.items():
        ref = None
        for store in (pair.gold["seg"], pair.metrics["seg"]):
            for sc in store.values():
                for system, v in sc.values.items():
                    if ref is None:
                        ref = (len(v), sc.file, system)
                    elif len(v) != ref[0]:
                        raise StatsInputError(
                            f"{sc.file}, line {sc.lines[system]}: system {system!r} has {len(v)} "
                            f"segment scores for {lp}, but {ref[1]} has {ref[0]} for system "
                            f"{ref[2]!r}"
                        )


# ---------------------------------------------------------------------------------------------
# entry point


def read_meta_eval(*sources: Source, names: Sequence[str] | None = None) -> MetaEvalData:
    """Read segment-level metric and human scores from any mix of the supported formats.

    Parameters
    ----------
    *sources : path, bytes, binary file object or ``(name, bytes)`` pair
        A directory in MTME's layout (or a .zip / .tar.gz of one), long text files, wide CSV
        files. Human and metric scores may come in separate sources.
    names : sequence of str, optional
        Display names for the sources in error messages.

    Returns
    -------
    MetaEvalData
        Use :meth:`MetaEvalData.table` for the aligned scores of one language pair.

    Raises
    ------
    StatsInputError
        Naming the file and line: unreadable or empty input, a wrong number of fields, a
        non-numeric score, a missing metric score, a duplicate score, segment counts that
        differ between systems or files.
    """
    if not sources:
        raise StatsInputError("no score file given")
    if names is not None and len(names) != len(sources):
        raise StatsInputError(f"names must give one name per source ({len(sources)}); got {len(names)}")
    pairs: dict = {}
    cells: dict = {}
    files: list = []
    for i, item in enumerate(sources):
        src, name = _as_source(item, names[i] if names is not None else None)
        if isinstance(src, (str, os.PathLike)) and Path(src).is_dir():
            label = name or os.fspath(src)
            files += _read_mtme(_directory_members(Path(src)), label, pairs)
            continue
        data, label = load_bytes(src, name)
        if _is_archive(label, data):
            files += _read_mtme(_archive_members(data, label), label, pairs)
            continue
        text = decode(data, label)
        first = next((ln for ln in text.splitlines() if ln.strip()), "")
        low = [f.strip().lower() for f in first.split(",")]
        if "," in first and {"lp", "system", "segment"} <= set(low):
            _read_wide(text, label, pairs, cells)
        else:
            _read_long(text, label, pairs, cells)
        files.append(label)
    _finish_items(pairs)
    _check_counts(pairs)
    return MetaEvalData(pairs=pairs, files=tuple(files))


#: MTME score-file endings (``NAME.seg.score``, ``NAME.sys.score``).
_MTME_SUFFIXES = tuple(f".{level}.score" for level in _LEVELS)
#: Bytes of a file :func:`is_meta_eval_source` reads to find its first line.
_HEAD_BYTES = 65_536


def is_meta_eval_source(source: Source, *, name: str | None = None) -> bool:
    """Whether ``source`` is segment-level meta-evaluation data for :func:`read_meta_eval`
    rather than system-level scores (:func:`stats.readers.system_level.read_system_scores`).

    True for a directory, a ``.zip`` / ``.tar.gz`` (MTME layout), an MTME score file name
    (``*.seg.score``, ``*.sys.score``), a header with a ``segment`` column (long text or wide
    CSV), or a first line of six fields ending in a score or a missing mark (``METRIC LP
    TESTSET SYSTEM SEGMENT SCORE``; the system-level WMT format has five). Anything else, unreadable input included, is False: the
    system-level readers then report what is wrong with it.
    """
    src, label = _as_source(source, name)
    if isinstance(src, (str, os.PathLike)) and Path(src).is_dir():
        return True
    label = source_name(src, label)
    if _is_archive(label, None) or label.lower().endswith(_MTME_SUFFIXES):
        return True
    try:
        data, label = load_bytes(src, label)
        if _is_archive(label, data):
            return True
        # the first line decides: read the head only (a segment file can be large)
        head = data[:_HEAD_BYTES].decode("utf-8-sig", errors="replace")
        _, rows, _ = split_lines(head, label, header=False)
    except StatsInputError:
        return False
    first = [f.strip().lower() for f in rows[0][1]]
    if "segment" in first:
        return True
    return len(first) == len(LONG_COLUMNS) and (first[-1] in MISSING or _is_number(first[-1]))
