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
import re
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
    fast_frame,
    floats_by_rule,
    iter_splitlines,
    leading_lines,
    load_bytes,
    name_list,
    source_name,
    split_lines,
    strict_float,
)
from ._limits import MAX_ABS_VALUE, check_value, overflows
from ._meta_rows import (
    _LEVELS,
    _as_arrays,
    _cells_so_far,
    _joined,
    _Pair,
    _Scores,
    add_rows,
    coded,
    finish_items,
)
from .system_level import _as_source

__all__ = [
    "MetaEvalData",
    "is_human_system",
    "parse_metric_name",
    "MetaEvalTable",
    "is_meta_eval_source",
    "read_meta_eval",
]

MISSING = frozenset({"none", "na", "nan", "n/a", ""})
LONG_COLUMNS = ("METRIC", "LP", "TESTSET", "SYSTEM", "SEGMENT", "SCORE")
GOLD_DEFAULT = "human"


#: reference names MTME's data uses (``refA``, ``refB``, ..., ``refP``; also ``ref1``)
_REF_NAME = re.compile(r"ref[A-Z0-9]{0,3}")
#: systems that are human translations by their name (WMT's ``Human-A.0``, ``Human-B.0``)
_HUMAN_NAME = re.compile(r"(?i)human(?:[-_. ].*)?")


def _is_ref(part: str, all_refs) -> bool:
    return part in all_refs or bool(_REF_NAME.fullmatch(part))


def parse_metric_name(name: str, all_refs=()) -> tuple[str, frozenset | None]:
    """Base name and references of a metric named as MTME names them (``EvalSet.
    ParseMetricName``): ``NAME-refA``, ``NAME-refA.refB`` (both), ``NAME-src`` (none: source-
    based), ``NAME-all`` (every reference in ``all_refs``).

    The part after the last ``-`` names references only when it is ``src``, ``all`` or made
    of references of the data (names in ``all_refs``, or MTME's ``refA``, ``refB``, ...);
    otherwise it belongs to the name (``YiSi-2``, ``COMET-QE``, ``BERT-base-L2``), whose
    references are unknown (None), as is a name without ``-``.

    Examples
    --------
    >>> parse_metric_name("BLEU-refA")
    ('BLEU', frozenset({'refA'}))
    >>> parse_metric_name("YiSi-2")
    ('YiSi-2', None)
    >>> parse_metric_name("COMET-QE-src")
    ('COMET-QE', frozenset())
    """
    if "-" not in name:
        return name, None
    base, tail = name.rsplit("-", 1)
    if tail == "src":
        return base, frozenset()
    if tail == "all":
        return base, frozenset(all_refs)
    parts = tail.split(".")
    if base and all(_is_ref(r, all_refs) for r in parts):
        return base, frozenset(parts)
    return name, None


def is_human_system(system: str, all_refs=()) -> bool:
    """Whether ``system`` is a human translation: named like a reference of the data (MTME's
    ``references/``, ``refA``...) or as WMT names them (``Human-A.0``)."""
    return _is_ref(system, all_refs) or bool(_HUMAN_NAME.fullmatch(system))


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
    left_out : dict
        Metric -> why it is not in ``metrics`` (another reference, not primary, a system
        without its scores); nothing read is dropped without a reason here.
    notes : tuple of str
        Systems left out and why (no human score; human translations).
    """

    lp: str
    gold_name: str
    systems: tuple
    gold: np.ndarray | None
    metrics: dict | None
    gold_sys: np.ndarray | None
    metrics_sys: dict | None
    files: tuple
    left_out: dict = field(default_factory=dict)
    notes: tuple = ()

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
    #: what each source was read as, one line per source
    #: ("NAME: read as WMT segment scores (8 fields), 17 LPs, 12 metrics")
    read_as: str = ""

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
                    f"several human score types ({', '.join(names)}); choose one with gold=NAME"
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
        exclude: Sequence[str] = (),
    ) -> MetaEvalTable:
        """The aligned scores of ``lp`` for gold type ``gold`` (see :meth:`choose_gold`).

        Systems are those with at least one gold score (as MTME); a system that a metric uses as
        its reference (MTME's ``NAME-REF``) and does not score is left out, and so are human
        translations (systems named like a file in MTME's ``references/``, ``refA``, or as WMT
        names them, ``Human-A.0``), as MTME's default; systems with metric scores but no gold
        score are left out. Each is named in ``notes``. A metric left out is named in
        ``left_out`` with the reason. ``gold`` None: the language pair's only gold type.

        With ``refs`` (MTME's ``GetCorrelations``): only metrics whose references
        (:func:`parse_metric_name`) are among ``refs`` are kept, and the human translations
        named in ``refs`` or ``close_refs`` are never systems; ``include_human`` keeps the other
        human translations as systems. ``primary``: only metrics with these base names (when
        non-empty). ``exclude``: systems left out (e.g. WMT's published outliers), named in
        ``notes``.

        Raises
        ------
        StatsInputError
            Unknown language pair; no system with a gold score (naming the pair and gold); no
            metric left (with each one's reason).
        """
        if lp not in self.pairs:
            raise StatsInputError(
                f"language pair {lp!r} not found; present: {name_list(self.pairs)}"
            )
        own_golds = self.gold_names(lp)
        name = own_golds[0] if gold is None and len(own_golds) == 1 else self.choose_gold(gold)
        pair = self.pairs[lp]
        refs_of = pair.references
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
        left_out: dict = {}
        notes: list = []
        with_gold = [s for s, v in main_gold.values.items() if not np.all(np.isnan(v))]
        if not with_gold:
            raise StatsInputError(
                f"language pair {lp!r}, gold {name!r}: no system has a human score "
                f"({main_gold.file}: every {name} score of {lp} is empty)"
            )
        scored = {s for sc in main_metrics.values() for s in sc.values}
        no_gold = sorted(scored - set(with_gold))
        if no_gold:
            notes.append(
                f"{lp}: system(s) {name_list(no_gold)} left out: metric scores but no {name} "
                "human score"
            )
        if refs is not None:
            wanted = set(refs)
            for m in main_metrics:
                r = parse_metric_name(m, refs_of)[1]
                if r is not None and not r <= wanted:
                    left_out[m] = (
                        f"uses reference(s) {', '.join(sorted(r))}, not "
                        f"{', '.join(sorted(wanted))}"
                    )
            if len(left_out) == len(main_metrics):
                raise StatsInputError(
                    f"language pair {lp!r}: no metric uses only the reference(s) "
                    f"{', '.join(sorted(wanted))}"
                )
        if primary:
            names = set(primary)
            for m in main_metrics:
                if m not in left_out and parse_metric_name(m, refs_of)[0] not in names:
                    left_out[m] = "not a primary metric"
        kept = {m: sc for m, sc in main_metrics.items() if m not in left_out}
        excluded = set(refs or ()) | set(close_refs)
        if exclude:
            gone = [s for s in with_gold if s in set(exclude)]
            absent = [s for s in exclude if s not in set(with_gold)]
            notes.append(
                f"{lp}: system(s) {name_list(gone) if gone else 'none'} left out as outliers"
                + (f" ({name_list(absent)} not among its systems)" if absent else "")
            )
            excluded |= set(gone)
        for mname in kept:
            own: frozenset = parse_metric_name(mname, refs_of)[1] or frozenset()
            excluded |= {s for s in with_gold if s not in main_metrics[mname].values and s in own}
        # human translations are not evaluated, as MTME's default (include_human=False); the
        # references a metric may use (refs, close_refs) never are
        humans = [
            s for s in with_gold
            if s not in excluded and not include_human and is_human_system(s, refs_of)
        ]
        if humans:
            notes.append(
                f"{lp}: human translation(s) {name_list(humans)} left out as systems "
                "(include human translations to keep them)"
            )
        systems = [s for s in with_gold if s not in excluded and s not in humans]
        if not systems:
            raise StatsInputError(
                f"language pair {lp!r}, gold {name!r}: no system left to evaluate (systems "
                f"with human scores: {name_list(with_gold)})"
            )
        for m, sc in kept.items():
            lacking = [s for s in systems if s not in sc.values]
            if lacking:
                left_out[m] = (
                    f"{sc.file}: no scores for system(s) {name_list(lacking)}, which have "
                    f"human scores in {main_gold.file}"
                )
        main_metrics = {m: sc for m, sc in kept.items() if m not in left_out}
        if not main_metrics:
            reasons = "; ".join(f"{m}: {r}" for m, r in left_out.items())
            raise StatsInputError(f"language pair {lp!r}: no metric left ({reasons})")

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
            left_out=left_out,
            notes=tuple(notes),
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


def _score_lines(text: str, where: str, store: dict, name: str, gold: bool) -> None:
    """An MTME score file line by line (every error named by its line)."""
    for line_no, ln in enumerate(text.splitlines(), start=1):
        if not ln.strip():
            continue
        fields = ln.split("\t") if "\t" in ln else ln.split()
        if len(fields) != 2:
            raise StatsInputError(
                f"{where}, line {line_no}: expected SYSTEM<TAB>SCORE, found {len(fields)} fields"
            )
        value = _score(fields[1], where, line_no, gold=gold)
        _add(store, name, where, fields[0].strip(), value, line_no)


def _fast_score_file(text: str, sc: _Scores, gold: bool) -> bool:
    """Fill ``sc`` from an MTME segment or system score file read by pandas' C parser when the
    file is plain (``SYSTEM<TAB>SCORE`` on every line, no blank line, every score a finite
    number within the input bound, or a missing mark in a human-score file); False (nothing
    filled) for anything else, which the line-by-line reader then reads or names."""
    import csv
    import io

    import pandas as pd

    from ._limits import MAX_ABS_VALUE

    if not text or "\t" not in text or "\n\n" in text or "\r" in text or text[0] == "\n":
        return False
    n_lines = text.count("\n") + (not text.endswith("\n"))
    if text.count("\t") != n_lines:
        return False  # a line of other than two tab-separated fields
    missing = sorted({v for m in MISSING if m for v in (m, m.upper(), m.capitalize())})
    try:
        frame = pd.read_csv(
            io.StringIO(text), sep="\t", header=None, names=["system", "score"],
            dtype={"system": object, "score": np.float64}, keep_default_na=False,
            na_values={"score": missing} if gold else {}, quoting=csv.QUOTE_NONE,
            engine="c", skip_blank_lines=False, index_col=False,
        )
    except (ValueError, pd.errors.ParserError):
        return False
    if len(frame) != n_lines:
        return False
    values = frame["score"].to_numpy(dtype=float)
    with np.errstate(invalid="ignore"):
        if (np.abs(values) > MAX_ABS_VALUE).any() or np.isinf(values).any():
            return False
    if not gold and np.isnan(values).any():
        return False
    codes, uniques = pd.factorize(frame["system"], sort=False, use_na_sentinel=False)
    if any(not isinstance(u, str) or not u or u.strip() != u for u in uniques):
        return False  # an empty or padded system name: the line-by-line reader handles it
    first = np.full(len(uniques), len(codes))
    np.minimum.at(first, codes, np.arange(len(codes)))
    for k, system in enumerate(uniques):
        sc.values[system] = values[codes == k].tolist()
        sc.lines[system] = int(first[k]) + 1
    return True


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
        if not _fast_score_file(text, store[name], gold):
            _score_lines(text, where, store, name, gold)
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


def _read_long(data: bytes, text: str, label: str, pairs: dict) -> None:
    """Long text ``METRIC LP TESTSET SYSTEM SEGMENT SCORE``: read by columns
    (:func:`_long_rows_fast`), or line by line when that cannot (then every error is named
    by file, line and column)."""
    _, rows, delimiter = leading_lines(text, label, header=False)
    first = [f.strip().lower() for f in rows[0][1]]
    has_header = "score" in first and "system" in first
    if has_header:
        columns = [f.upper() for f in rows[0][1]]
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
    found = _long_rows_fast(data, delimiter, width, pos, has_header)
    if found is None:
        found = _long_rows_careful(text, label, pairs, has_header, width, pos)
    add_rows(pairs, label, found)


def _gold_flags(metric: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(scorer name, is gold) of each METRIC value (``HUMAN:NAME`` -> NAME, gold)."""
    codes, uniques = _factorize(metric)
    golds = [_gold_name(u) for u in uniques]
    names = np.array([u if g is None else g for u, g in zip(uniques, golds, strict=True)],
                     dtype=object)
    flags = np.array([g is not None for g in golds], dtype=bool)
    return names[codes], flags[codes]


def _factorize(values) -> tuple[np.ndarray, list]:
    import pandas as pd

    codes, uniques = pd.factorize(np.asarray(values, dtype=object))
    return codes, [str(u) for u in uniques.tolist()]


def _long_rows_fast(data: bytes, delimiter: str, width: int, pos: list, has_header: bool):
    """The rows of a long file read by columns (:func:`~._common.fast_frame`), scores by the
    one number rule (:func:`~._common.floats_by_rule`); None when anything is not plain (a
    blank, comment or ragged line, an empty name, a score that is not a finite number within
    the input bound, a missing metric score): the line-by-line reader then names it."""
    columns = [f"c{i}" for i in range(width)]
    frame = fast_frame(data, columns, delimiter, dict.fromkeys(columns, "str"),
                       header=has_header)
    if frame is None or not len(frame):
        return None
    cols = [frame[columns[i]].to_numpy(dtype=object) for i in pos]
    if len(cols) == 5:
        cols = [np.full(len(frame), "HUMAN", dtype=object), *cols]
    metric, lp, testset, system, segment, raw = cols
    for values in (metric, lp, system, segment):
        if (values == "").any():
            return None
    name, gold = _gold_flags(metric)
    low = np.char.lower(raw.astype(str))
    missing = np.isin(low, list(MISSING))
    if (missing & ~gold).any():
        return None
    score = floats_by_rule(raw)
    bad = np.isnan(score) & ~missing
    with np.errstate(invalid="ignore"):
        bad |= np.abs(score) > MAX_ABS_VALUE
    if bad.any():
        return None
    score[missing] = np.nan
    start = 2 if has_header else 1
    return {"lp": lp, "name": name, "gold": gold, "system": system, "testset": testset,
            "segment": segment, "score": score,
            "line": np.arange(start, start + len(frame), dtype=np.int64)}


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


def _read_wide(text: str, label: str, pairs: dict) -> None:
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


def _read_wmt_seg(data: bytes, label: str, pairs: dict) -> None:
    """A WMT metrics task segment-level file (``METRIC LP TESTSET REFSET SYSTEM DOCID SEGID
    SCORE``, 8 or 10 fields; :func:`stats.readers.wmt.read_wmt_scores`): each metric named
    ``METRIC-REFSET`` (``src`` for a reference-free metric), REFSET listed as a reference of
    the language pair; the item of a row is ``(TESTSET, "DOCID:SEGID")``. Rows are taken
    by language pair and metric (the file's own duplicates are refused by the WMT reader; a
    metric given again by another file is refused here)."""
    import pandas as pd

    from .wmt import read_wmt_scores

    frame = read_wmt_scores(data, name=label, level="seg").frame
    col = {c: coded(frame[c]) for c in ("metric", "lp", "testset", "refset", "system")}
    (m, metrics), (r, refsets) = col["metric"], col["refset"]
    name = _joined(m, metrics, r, refsets, "-")
    segment = _joined(*coded(frame["docid"]), *coded(frame["segid"]), ":")
    lines = frame["_line"].to_numpy()
    (lp_codes, lps), (name_codes, names) = col["lp"], name
    group, _ = pd.factorize(lp_codes * len(names) + name_codes)
    order = np.argsort(group, kind="stable")  # by language pair and metric, as first seen
    starts = order[np.flatnonzero(np.r_[True, np.diff(group[order]) != 0])]
    for i in starts:
        lp, metric = lps[lp_codes[i]], names[name_codes[i]]
        pair = pairs.get(lp)
        if pair is not None and metric in pair.metrics["seg"]:
            first = pair.metrics["seg"][metric].file
            raise StatsInputError(
                f"{label}, line {int(lines[i])}: metric {metric} of {lp} is also "
                f"in {first}; give each metric's scores once"
            )
    for k, lp in enumerate(lps):
        used = np.unique(r[lp_codes == k])
        pairs.setdefault(lp, _Pair()).references.update(
            refsets[j] for j in used.tolist() if refsets[j] != "src"
        )
    add_rows(pairs, label, {
        "lp": (lp_codes[order], lps), "name": (name_codes[order], names),
        "gold": np.zeros(len(order), dtype=bool),
        "system": (col["system"][0][order], col["system"][1]),
        "testset": (col["testset"][0][order], col["testset"][1]),
        "segment": (segment[0][order], segment[1]),
        "score": frame["score"].to_numpy(dtype=float)[order], "line": lines[order],
    })


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


#: ``input_format`` choices of :func:`read_meta_eval` (None: detected from each file)
INPUT_FORMATS = ("long", "wide", "wmt-seg")


def read_meta_eval(
    *sources: Source, names: Sequence[str] | None = None, input_format: str | None = None
) -> MetaEvalData:
    """Read segment-level metric and human scores from any mix of the supported formats.

    Parameters
    ----------
    *sources : path, bytes, binary file object or ``(name, bytes)`` pair
        A directory in MTME's layout (or a .zip / .tar.gz of one), long text files, wide CSV
        files. Human and metric scores may come in separate sources.
    names : sequence of str, optional
        Display names for the sources in error messages.
    input_format : {'long', 'wide', 'wmt-seg'}, optional
        How to read every text file (default: detected from its first line; a line that fits
        two formats is refused, naming both and this option).

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
    if input_format is not None and input_format not in INPUT_FORMATS:
        raise StatsInputError(
            f"input_format must be one of {', '.join(INPUT_FORMATS)}; got {input_format!r}"
        )
    if names is not None and len(names) != len(sources):
        raise StatsInputError(f"names must give one name per source ({len(sources)}); got {len(names)}")
    pairs: dict = {}
    files: list = []
    read_as: list = []
    for i, item in enumerate(sources):
        src, name = _as_source(item, names[i] if names is not None else None)
        if isinstance(src, (str, os.PathLike)) and Path(src).is_dir():
            label = name or os.fspath(src)
            before = {lp: _counts(p) for lp, p in pairs.items()}
            files += _read_mtme(_directory_members(Path(src)), label, pairs)
            read_as.append(_read_as_line(label, "an MTME directory", pairs, before))
            continue
        data, label = load_bytes(src, name)
        if _is_archive(label, data):
            before = {lp: _counts(p) for lp, p in pairs.items()}
            files += _read_mtme(_archive_members(data, label), label, pairs)
            read_as.append(_read_as_line(label, "an MTME archive", pairs, before))
            continue
        text = decode(data, label)
        first = next((ln for ln in iter_splitlines(text) if ln.strip()), "")
        before = {lp: _counts(p) for lp, p in pairs.items()}
        fmt = input_format or _detect_text(first, label)
        if fmt == "wide":
            _read_wide(text, label, pairs)
            kind = "wide CSV (lp, system, segment, human, <metric>...)"
        elif fmt == "wmt-seg":
            _read_wmt_seg(data, label, pairs)
            kind = f"WMT segment scores ({len(first.split())} fields)"
        else:
            _read_long(data, text, label, pairs)
            kind = "long text (METRIC LP TESTSET SYSTEM SEGMENT SCORE)"
        read_as.append(_read_as_line(label, kind, pairs, before))
        files.append(label)
    finish_items(pairs)
    _check_counts(pairs)
    return MetaEvalData(pairs=pairs, files=tuple(files), read_as="\n".join(read_as))


def _detect_text(first: str, label: str) -> str:
    """``wide``, ``wmt-seg`` or ``long`` from a text file's first line; a headerless line that
    is both a long-format line and a WMT REFSET system-level line is refused, naming both."""
    low = [f.strip().lower() for f in first.split(",")]
    if "," in first and {"lp", "system", "segment"} <= set(low):
        return "wide"
    if _is_wmt_seg(first):
        return "wmt-seg"
    from .wmt import detect_wmt_format

    fields = [f.strip() for f in (first.split("\t") if "\t" in first else first.split())]
    if detect_wmt_format(fields) == "wmt-sys":
        raise StatsInputError(
            f"{label}, line 1 fits two formats: long METRIC LP TESTSET SYSTEM SEGMENT SCORE "
            "or WMT system-level METRIC LP TESTSET REFSET SYSTEM SCORE; choose with "
            "input_format=long (or a header line), or read it as system-level scores"
        )
    return "long"


def _is_wmt_seg(first_line: str) -> bool:
    from .wmt import detect_wmt_format

    fields = first_line.split("\t") if "\t" in first_line else first_line.split()
    return detect_wmt_format([f.strip() for f in fields]) == "wmt-seg"


def _counts(pair: _Pair) -> tuple:
    """(gold names, metric names) of a language pair so far."""
    return (
        {n for lv in _LEVELS for n in pair.gold[lv]},
        {n for lv in _LEVELS for n in pair.metrics[lv]},
    )


def _read_as_line(label: str, kind: str, pairs: dict, before: dict) -> str:
    """``NAME: read as KIND, N LPs, M metrics, human scores G`` for what one source added."""
    lps, metrics, golds = [], set(), set()
    for lp, pair in pairs.items():
        g0, m0 = before.get(lp, (set(), set()))
        g1, m1 = _counts(pair)
        if g1 - g0 or m1 - m0:
            lps.append(lp)
        metrics |= m1 - m0
        golds |= g1 - g0
    parts = [f"{label}: read as {kind}", f"{len(lps)} LP{'s' if len(lps) != 1 else ''}"]
    if metrics:
        parts.append(f"{len(metrics)} metric{'s' if len(metrics) != 1 else ''}")
    if golds:
        parts.append(f"human scores {', '.join(sorted(golds))}")
    return ", ".join(parts)


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
    if "segment" in first or _is_wmt_seg("\t".join(rows[0][1])):
        return True
    return len(first) == len(LONG_COLUMNS) and (first[-1] in MISSING or _is_number(first[-1]))
