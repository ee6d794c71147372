"""System-level score files: metric scores and human scores, one value per MT system.

Two formats are read, and recognised by their header:

* **WMT system-level** (the format of the WMT metrics task and of Graham & Baldwin's reference
  tool): columns ``METRIC LP TESTSET SYSTEM SCORE``, tab- or whitespace-separated, one row per
  (metric, language pair, test set, system). Human scores are the rows whose METRIC is
  ``HUMAN``. The header may be omitted (as in the official WMT ``*.sys.score`` files) when every
  row has those five fields.
* **Wide CSV/TSV**: one row per system, a ``system`` column, a ``human`` column, then one column
  per metric; optional ``lp`` and ``testset`` columns.

Human and metric scores may come in one file or in several; :func:`read_system_scores` merges
any number of files of either format into a :class:`SystemScores`, whose
:meth:`SystemScores.language_pair` returns the aligned (systems x metrics) table and the human
scores for one language pair, ready for :func:`stats.metaeval.correlation.correlate_with_human` and
:func:`stats.metaeval.williams.williams_all_pairs`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core import budget as _budget
from stats._core.columnwise import constant_columns
from stats._core.errors import StatsInputError

from ._archives import expand_sources
from ._common import (
    LINE,
    Source,
    decode,
    file_kind,
    leading_lines,
    load_bytes,
    name_list,
    read_table,
    spells_number,
    split_lines,
    to_float,
    wrong_file_hint,
)
from .wmt import (
    LEVEL_NAMES,
    detect_wmt_format,
    read_da_system_scores,
    read_wmt_scores,
    rows_frame,
    select_refsets,
)

__all__ = [
    "DEFAULT_LP",
    "HUMAN",
    "LanguagePairScores",
    "SystemScores",
    "detect_system_format",
    "is_published_system_level",
    "read_system_scores",
    "read_wide_system_scores",
    "read_wmt_system_level",
]

HUMAN = "HUMAN"  #: METRIC value (and metric name in the tidy frame) of human scores
WMT_COLUMNS = ("METRIC", "LP", "TESTSET", "SYSTEM", "SCORE")
DEFAULT_LP = "all"  #: language pair given to rows of a wide file without an ``lp`` column
MIN_SYSTEMS = 4  #: the Williams test has n - 3 degrees of freedom

#: columns of the tidy frame; ``file`` and ``line`` say where each score came from; a
#: ``refset`` column follows ``testset`` when a WMT metrics task file names references (``''``
#: in the rows of other files)
COLUMNS = ["lp", "testset", "system", "metric", "score", "file", "line"]


def _frame(lp, testset, system, metric, score, file, line, refset=None) -> pd.DataFrame:
    refsets = {} if refset is None else {"refset": pd.Series(refset, dtype=object)}
    return pd.DataFrame(
        {
            "lp": pd.Series(lp, dtype=object),
            "testset": pd.Series(testset, dtype=object),
            **refsets,
            "system": pd.Series(system, dtype=object),
            "metric": pd.Series(metric, dtype=object),
            "score": np.asarray(score, dtype=float),
            "file": pd.Series(file, dtype=object),
            "line": np.asarray(line, dtype=np.int64),
        }
    )


#: what these files are, in wrong-file messages (:func:`stats.readers._common.wrong_file_hint`)
EXPECTED = "system-level scores"


#: QE files (by :func:`stats.readers.qe.qe_file_kind`) as wrong-file messages name them
_QE_KINDS = {
    "wide": "QE predictions (sid, gold, one column per system; for `qe --data`)",
    "wmt": "a WMT QE submission file (METHOD SEGMENT SCORE [RANK]; for `qe --data`)",
    "gold": "QE gold labels (one label, or SID LABEL, per line; for `qe --gold`)",
}


def detect_system_format(text: str, label: str = "<input>") -> str:
    """``'wmt'``, ``'wmt-noheader'`` or ``'wide'`` from the first data line of ``text``, or one
    of :func:`stats.readers.wmt.detect_wmt_format` (``'wmt-sys'``, ``'da-sys'``, ...).

    Raises
    ------
    StatsInputError
        The first line is neither a WMT header, a wide header (with a ``system`` column) nor a
        five-field WMT row.
    """
    _, rows, _ = leading_lines(text, label, header=False)  # never the whole body
    wmt = detect_wmt_format(rows[0][1])  # REFSET files and DA scores of the metrics task
    if wmt is not None:
        return wmt
    first = [f.lower() for f in rows[0][1]]
    if "metric" in first or {"lp", "testset", "score"} <= set(first):
        return "wmt"
    if "system" in first:
        return "wide"
    if len(first) == 5 and spells_number(first[4]):
        return "wmt-noheader"
    hint = wrong_file_hint(rows[0][1], rows[1:], expected=EXPECTED)
    if not hint:
        from .qe import _kind as qe_kind  # noqa: PLC0415 (qe imports nothing from here)

        what = _QE_KINDS.get(qe_kind(text))
        if what is None and ("segment" in first or "sid" in first):
            what = "segment-level scores (one row per segment, one column per system)"
        hint = f"; this looks like {what}, not {EXPECTED}" if what else ""
    raise StatsInputError(
        f"{label}, line {rows[0][0]}: unrecognised header {' '.join(rows[0][1])!r}; expected the "
        f"WMT columns {' '.join(WMT_COLUMNS)} or a wide table with a 'system' column, a 'human' "
        f"column and one column per metric{hint}"
    )


def _wmt_from_rows(rows: list[tuple[int, list[str]]], label: str) -> pd.DataFrame:
    return rows_frame(rows, WMT_COLUMNS, label)


def _wmt_tidy(raw: pd.DataFrame, label: str) -> pd.DataFrame:
    for col in ("METRIC", "LP", "SYSTEM"):
        empty = raw[col].astype(str).str.strip() == ""
        if empty.any():
            line = int(raw[LINE][empty].iloc[0])
            raise StatsInputError(f"{label}, line {line}, column {col}: empty value")
    score = to_float(raw, "SCORE", label)
    metric = raw["METRIC"].astype(str).str.strip()
    metric = metric.where(metric.str.upper() != HUMAN, HUMAN)
    return _frame(
        raw["LP"].astype(str).str.strip().to_numpy(),
        raw["TESTSET"].astype(str).str.strip().to_numpy(),
        raw["SYSTEM"].astype(str).str.strip().to_numpy(),
        metric.to_numpy(),
        score,
        [label] * len(raw),
        raw[LINE].to_numpy(),
        raw["REFSET"].astype(str).str.strip().to_numpy() if "REFSET" in raw else None,
    )


def read_wmt_system_level(source: Source, *, name: str | None = None) -> pd.DataFrame:
    """Read a WMT system-level file (``METRIC LP TESTSET SYSTEM SCORE``, or the metrics task's
    ``METRIC LP TESTSET REFSET SYSTEM SCORE``).

    Parameters
    ----------
    source : path, bytes or binary file object
    name : str, optional
        Name used for the file in error messages.

    Returns
    -------
    DataFrame
        Columns ``lp, testset, system, metric, score, file, line``; human rows have
        ``metric == 'HUMAN'`` (matched case-insensitively in the file).

    Raises
    ------
    StatsInputError
        Missing or empty file, undecodable bytes, a missing header column, a wrong number of
        fields, an empty name, a non-numeric/NaN/infinite score, or a duplicate
        (METRIC, LP, TESTSET, SYSTEM) row -- each naming the file and line.
    """
    data, label = load_bytes(source, name)
    text = decode(data, label)
    tidy = _wmt_system_level(data, text, detect_system_format(text, label), label)
    _check_duplicates(tidy)
    return tidy


def _wmt_system_level(data: bytes, text: str, fmt: str, label: str) -> pd.DataFrame:
    """The tidy frame of a WMT system-level file already decoded (``text``) and detected
    (``fmt``), duplicates not yet checked."""
    if fmt == "wide":
        raise StatsInputError(
            f"{label}, line 1: missing header column(s) METRIC, SCORE (expected "
            f"{' '.join(WMT_COLUMNS)}); this looks like a wide table (one column per metric)"
        )
    if fmt == "wmt-noheader":
        _, rows, _ = split_lines(text, label, header=False)
        raw = _wmt_from_rows(rows, label)
    elif fmt == "wmt-sys":  # the metrics task's files: METRIC LP TESTSET REFSET SYSTEM SCORE
        raw = read_wmt_scores(data, name=label, level="sys").frame
        raw = raw.rename(columns={c: c.upper() for c in raw if c != LINE})
    else:
        raw = read_table(data, required=WMT_COLUMNS, name=label, hint=EXPECTED, text=text).frame
    return _wmt_tidy(raw, label)


def read_wide_system_scores(source: Source, *, name: str | None = None) -> pd.DataFrame:
    """Read a wide CSV/TSV: ``system``, ``human``, one column per metric, optional ``lp``/``testset``.

    Columns ``system``, ``human``, ``lp`` and ``testset`` are matched case-insensitively; every
    other column is a metric. ``human`` may be absent when the human scores come from another
    file. Without an ``lp`` column every row belongs to the language pair ``'all'``.

    Returns
    -------
    DataFrame
        Tidy long frame as :func:`read_wmt_system_level` returns (human rows have
        ``metric == 'HUMAN'``).

    Raises
    ------
    StatsInputError
        Missing or empty file, undecodable bytes, no ``system`` column, no score column, a
        wrong number of fields, an empty system name, a non-numeric/NaN/infinite score (naming
        file, line and column), or a system listed twice for the same language pair.
    """
    tidy = _wide_system_scores(source, name=name)
    _check_duplicates(tidy, wide=True)
    return tidy


def _wide_system_scores(source, *, name: str | None, text: str | None = None) -> pd.DataFrame:
    """The tidy frame of a wide file (``text``: its decoded text, when the caller has it),
    duplicates not yet checked."""
    table = read_table(
        source,
        required=("system",),
        optional=("human", "lp", "testset"),
        name=name,
        extra_columns=True,
        hint=EXPECTED,
        text=text,
        max_extra=(_budget.MAX_METRICS, "metrics"),
    )
    raw, label = table.frame, table.name
    kind = file_kind([c for c in raw.columns if c != LINE])
    if kind is not None:  # e.g. human judgements: SYSTEM SEGMENT ANNOTATOR CRITERION SCORE
        raise StatsInputError(
            f"{label}, line 1: this looks like {kind}, not {EXPECTED} (a 'system' column, a "
            f"'human' column and one column per metric, or WMT {' '.join(WMT_COLUMNS)})"
        )
    score_cols = [c for c in raw.columns if c not in ("system", "lp", "testset", LINE)]
    if not score_cols:
        raise StatsInputError(
            f"{label}, line 1: no score columns; expected 'system', 'human' and one column per metric"
        )
    blank = [c for c in score_cols if not str(c).strip()]
    if blank:
        raise StatsInputError(f"{label}, line 1: a score column has an empty name")
    systems = raw["system"].astype(str).str.strip()
    if (systems == "").any():
        line = int(raw[LINE][systems == ""].iloc[0])
        raise StatsInputError(f"{label}, line {line}, column system: empty system name")
    lp = raw["lp"].astype(str).str.strip() if "lp" in raw else pd.Series([DEFAULT_LP] * len(raw))
    testset = (
        raw["testset"].astype(str).str.strip() if "testset" in raw else pd.Series([""] * len(raw))
    )
    parts = []
    for col in score_cols:
        values = to_float(raw, col, label)
        metric = HUMAN if col == "human" else str(col).strip()
        parts.append(
            _frame(
                lp.to_numpy(),
                testset.to_numpy(),
                systems.to_numpy(),
                [metric] * len(raw),
                values,
                [label] * len(raw),
                raw[LINE].to_numpy(),
            )
        )
    return pd.concat(parts, ignore_index=True)


def _check_duplicates(tidy: pd.DataFrame, *, wide=()) -> None:
    """Raise on a (metric, lp, testset, refset, system) score given twice, naming both
    places; within one wide file (``wide``: True, or the names of the wide files) as a system
    listed twice."""
    key = ["metric", "lp", "testset", *(["refset"] if "refset" in tidy else []), "system"]
    dup = tidy.duplicated(key, keep=False)
    if not dup.any():
        return
    rows = tidy[dup]
    first = rows.iloc[0]
    same = rows[(rows[key] == first[key]).all(axis=1)]
    files = set(same["file"])
    if len(files) == 1 and (wide is True or first["file"] in wide):
        lines = sorted(set(int(v) for v in same["line"]))
        lp = "" if first["lp"] == DEFAULT_LP else " for language pair " + repr(first["lp"])
        raise StatsInputError(
            f"{first['file']}, lines {' and '.join(map(str, lines[:2]))}: system "
            f"{first['system']!r} appears twice{lp}"
        )
    where = " and ".join(
        f"{f}, line {ln}" for f, ln in zip(same["file"], same["line"], strict=True)
    )
    refset = f" REFSET={first['refset']}" if first.get("refset") else ""
    raise StatsInputError(
        f"duplicate row for METRIC={first['metric']} LP={first['lp']} "
        f"TESTSET={first['testset'] or '-'}{refset} SYSTEM={first['system']}: {where}"
    )


@dataclass(frozen=True, kw_only=True)
class LanguagePairScores:
    """Scores of one language pair, aligned by system.

    Attributes
    ----------
    lp : str
    testset : str
        ``''`` when the files name none.
    metrics : DataFrame
        Index = system, columns = metrics (file order); no missing values.
    human : Series
        Human score per system, same index as ``metrics``.
    files : tuple of str
        The files the scores came from.
    """

    lp: str
    testset: str
    metrics: pd.DataFrame
    human: pd.Series
    files: tuple

    @property
    def n(self) -> int:
        """Number of systems."""
        return len(self.human)

    @property
    def systems(self) -> tuple:
        return tuple(self.human.index)


@dataclass(frozen=True, kw_only=True)
class SystemScores:
    """System-level scores from one or more files, in a tidy long frame.

    Attributes
    ----------
    frame : DataFrame
        Columns ``lp, testset, system, metric, score, file, line``; human scores are the rows
        with ``metric == 'HUMAN'``.
    files : tuple of str
        Display names of the files read, in order.
    read_as : str
        What each file was read as, one line per file (``NAME: read as WMT system-level
        scores (REFSET), 6 fields, 2 LPs, 14 metrics``).
    formats : tuple of str
        What each file of ``files`` was read as, without its counts (``WMT system-level
        scores (METRIC LP TESTSET REFSET SYSTEM SCORE, 6 fields)``); empty when not known.
    """

    frame: pd.DataFrame
    files: tuple
    read_as: str = ""
    formats: tuple = ()

    @property
    def scores(self) -> pd.DataFrame:
        """The tidy frame without provenance: ``lp, testset, system, metric, score``."""
        return self.frame[["lp", "testset", "system", "metric", "score"]]

    @property
    def language_pairs(self) -> tuple:
        """Language pairs in order of first appearance."""
        return tuple(pd.unique(self.frame["lp"]))

    def testsets(self, lp: str) -> tuple:
        """Named test sets of ``lp`` (``''`` = unnamed is left out unless it is the only one)."""
        sets = tuple(pd.unique(self.frame.loc[self.frame["lp"] == lp, "testset"]))
        named = tuple(t for t in sets if t)
        return named or sets

    def metric_names(self, lp: str | None = None) -> tuple:
        """Metric names (without HUMAN) in file order, for ``lp`` or overall."""
        f = self.frame if lp is None else self.frame[self.frame["lp"] == lp]
        return tuple(m for m in pd.unique(f["metric"]) if m != HUMAN)

    def language_pair(
        self, lp: str | None = None, *, testset: str | None = None, refset: str | None = None
    ) -> LanguagePairScores:
        """The (systems x metrics) table and human scores of one language pair.

        Parameters
        ----------
        lp : str, optional
            Language pair; may be omitted when the files hold only one.
        testset : str, optional
            Test set; needed only when the language pair has several. Rows without a test set
            name (e.g. from a wide file) join whichever test set is chosen.
        refset : str, optional
            Reference (REFSET of WMT metrics task files); default the test set's own
            (:func:`stats.readers.wmt.select_refsets`). Rows without one join it.

        Raises
        ------
        StatsInputError
            The language pair or test set is absent (those present are listed); several exist
            and none was chosen; no human scores or no metric scores for it; a system with a
            metric score but no human score, or with a human score but missing a metric score
            (named, with the files); fewer than 4 systems; human scores all equal (the
            files named).
        """
        present = self.language_pairs
        if lp is None:
            if len(present) != 1:
                raise StatsInputError(
                    f"the files hold {len(present)} language pairs ({name_list(present)}); choose one"
                )
            lp = present[0]
        if lp not in present:
            raise StatsInputError(
                f"language pair {lp!r} not found in {name_list(self.files)}; present: {name_list(present)}"
            )
        rows = self.frame[self.frame["lp"] == lp]
        named = [t for t in pd.unique(rows["testset"]) if t]
        if testset is None:
            if len(named) > 1:
                raise StatsInputError(
                    f"language pair {lp!r} has several test sets ({name_list(named)}); choose one"
                )
            testset = named[0] if named else ""
        elif testset not in named and testset != "":
            raise StatsInputError(
                f"test set {testset!r} not found for language pair {lp!r}; present: "
                f"{name_list(named) or '(unnamed)'}"
            )
        rows = rows[(rows["testset"] == testset) | (rows["testset"] == "")]
        where = f"language pair {lp!r}" + (f", test set {testset!r}" if testset else "")
        refs = select_refsets(rows.get("refset", ()), testset, refset, where)
        if len(refs) > 1:
            raise StatsInputError(f"{where}: several references ({name_list(refs)}); choose one")
        if refs[0]:
            rows = rows[(rows["refset"] == refs[0]) | (rows["refset"] == "")]
            where += f", reference {refs[0]!r}"
        files = tuple(pd.unique(rows["file"]))
        # the files were checked when read: only rows without a test set or reference, which
        # join the chosen one here, can make a new duplicate
        joined = (rows["testset"] == "").any() or (
            "refset" in rows and (rows["refset"] == "").any()
        )
        if joined:
            _check_duplicates(
                rows.assign(testset=testset, **({"refset": refs[0]} if "refset" in rows else {}))
            )
        human_rows = rows[rows["metric"] == HUMAN]
        metric_rows = rows[rows["metric"] != HUMAN]
        if human_rows.empty:
            raise StatsInputError(
                f"{where}: no human scores in {name_list(files)} (rows with METRIC = HUMAN, or a "
                "'human' column); pass the human-score file too"
            )
        if metric_rows.empty:
            raise StatsInputError(
                f"{where}: no metric scores in {name_list(files)}, only HUMAN rows"
            )
        human = pd.Series(
            human_rows["score"].to_numpy(),
            index=pd.Index(human_rows["system"].to_numpy(), name="system"),
            name=HUMAN,
        )
        metric_order = list(pd.unique(metric_rows["metric"]))
        wide = metric_rows.pivot(index="system", columns="metric", values="score")
        wide = wide.reindex(columns=metric_order)
        wide.columns.name = None
        hsys = list(human.index)
        hset = set(hsys)
        extra = [s for s in pd.unique(metric_rows["system"]) if s not in hset]
        if extra:
            mfiles = name_list(
                pd.unique(metric_rows.loc[metric_rows["system"].isin(extra), "file"])
            )
            raise StatsInputError(
                f"{where}: system(s) with a metric score but no human score: {name_list(extra)} "
                f"(in {mfiles}; human scores from {name_list(pd.unique(human_rows['file']))})"
            )
        wide = wide.reindex(index=hsys)
        missing = wide.isna()
        if missing.any().any():
            bad_metrics = [m for m in metric_order if missing[m].any()]
            first = bad_metrics[0]
            systems = [s for s in hsys if missing.at[s, first]]
            more = (
                f" (also incomplete: {name_list(bad_metrics[1:])})" if len(bad_metrics) > 1 else ""
            )
            raise StatsInputError(
                f"{where}: system(s) with a human score but no {first} score: {name_list(systems)}"
                f"{more}"
            )
        if len(hsys) < MIN_SYSTEMS:
            raise StatsInputError(
                f"{where}: only {len(hsys)} systems with human and metric scores; the Williams "
                f"test needs at least {MIN_SYSTEMS} (it has n - 3 degrees of freedom)"
            )
        h = human.to_numpy(dtype=float)
        if constant_columns(h):
            raise StatsInputError(
                f"{where}: every human score is {h[0]:g} (in "
                f"{name_list(pd.unique(human_rows['file']))}); no correlation with constant "
                "human scores is defined"
            )
        wide.index.name = "system"
        return LanguagePairScores(lp=lp, testset=testset, metrics=wide, human=human, files=files)


def is_published_system_level(sources) -> bool:
    """Whether ``sources`` (paths, bytes or ``(name, bytes)`` uploads; gzip and zip/tar
    archives are opened) hold WMT metrics task system-level files as published: a REFSET
    ``*.sys.score`` file or a DA system-level file. Such archives are for
    :func:`read_system_scores`, not the MTME layout of :mod:`stats.readers.meta`; anything
    unreadable is False (the readers then say what is wrong)."""
    try:
        for name, src in expand_sources(sources, skip=(".seg.score", ".doc.score")):
            data, label = load_bytes(src, name)
            head = data[:65536].decode("utf-8-sig", errors="replace")
            _, rows, _ = split_lines(head, label, header=False)
            if detect_wmt_format(rows[0][1]) in ("wmt-sys", "da-sys"):
                return True
    except StatsInputError:
        return False
    return False


def _as_source(item, name):
    """Accept ``(name, bytes)`` tuples (dashboard uploads) as well as plain sources."""
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
        return item[1], name or item[0]
    return item, name


def read_system_scores(
    *sources: Source | tuple[str, bytes],
    names: Sequence[str] | None = None,
    lp: str | None = None,
    human_score: str = "z",
) -> SystemScores:
    """Read and merge system-level score files of any format (detected from the first line).

    Formats: WMT ``METRIC LP TESTSET SYSTEM SCORE``, wide CSV/TSV, and the WMT metrics task's
    own files (:mod:`stats.readers.wmt`: ``METRIC LP TESTSET REFSET SYSTEM SCORE`` and the DA
    files ``RAW.SCR Z.SCR N SYS N.ALL``). gzip is told by its magic bytes; a directory, zip or
    tar(.gz) archive stands for every system-level score file inside (``*.seg.score`` and
    ``*.doc.score`` left out; :mod:`stats.readers._archives`).

    Parameters
    ----------
    *sources : path, bytes, binary file object, or ``(name, bytes)`` tuple
        For example a human-score file and a metric-score file, or one combined file.
    names : sequence of str, optional
        Display names for the sources in error messages (one per source).
    lp : str, optional
        Language pair of DA files whose name does not end in one.
    human_score : {'z', 'raw'}
        The DA files' score: ``Z.SCR`` (default, as in the findings) or ``RAW.SCR``.

    Returns
    -------
    SystemScores

    Raises
    ------
    StatsInputError
        No source; any error of :func:`read_wmt_system_level`,
        :func:`read_wide_system_scores`, :func:`stats.readers.wmt.read_wmt_scores` or
        :func:`stats.readers.wmt.read_da_system_scores`; a document- or segment-level file; a
        (metric, lp, testset, refset, system) score given twice, within or across files (both
        places named).

    Examples
    --------
    >>> data = read_system_scores("human.tsv", "metrics.tsv")       # doctest: +SKIP
    >>> es = data.language_pair("es-en")                             # doctest: +SKIP
    >>> williams_all_pairs(es.metrics, es.human)                     # doctest: +SKIP
    """
    if not sources:
        raise StatsInputError("no score file given")
    if names is not None and len(names) != len(sources):
        raise StatsInputError(
            f"names must give one name per source ({len(sources)}); got {len(names)}"
        )
    parts = []
    labels = []
    read_as: list[str] = []
    formats: list[str] = []
    wide: list[str] = []
    # each file decoded and its format told once; duplicates checked once, over all files
    # directories and archives contribute their system-level files only
    for name, src in expand_sources(sources, names, skip=(".seg.score", ".doc.score")):
        data, label = load_bytes(src, name)
        text = decode(data, label)
        fmt = detect_system_format(text, label)
        if fmt == "wide":
            part = _wide_system_scores(data, name=label, text=text)
            wide.append(label)
        elif fmt == "da-sys":
            da = read_da_system_scores(data, name=label, lp=lp, human_score=human_score)
            n = len(da)
            part = _frame(
                da["lp"], [""] * n, da["system"], [HUMAN] * n, da["score"], [label] * n, da[LINE]
            )
        elif fmt in ("wmt-seg", "wmt-doc"):
            raise StatsInputError(
                f"{label}: {LEVEL_NAMES[fmt[4:]]} scores; system-level scores are needed here "
                "(*.sys.score: METRIC LP TESTSET REFSET SYSTEM SCORE)"
            )
        else:
            part = _wmt_system_level(data, text, fmt, label)
        parts.append(part)
        labels.append(label)
        formats.append(_FORMAT_NAMES.get(fmt, fmt))
        read_as.append(_read_as_line(label, formats[-1], part))
    frame = pd.concat(parts, ignore_index=True)
    if "refset" in frame:
        frame["refset"] = frame["refset"].fillna("")
    _check_duplicates(frame, wide=wide)
    return SystemScores(
        frame=frame, files=tuple(labels), read_as="\n".join(read_as), formats=tuple(formats)
    )


#: what each detected format is called in ``read_as``
_FORMAT_NAMES = {
    "wide": "a wide table (system, human, one column per metric)",
    "da-sys": "WMT DA system-level scores (RAW.SCR Z.SCR N SYS N.ALL)",
    "wmt-sys": "WMT system-level scores (METRIC LP TESTSET REFSET SYSTEM SCORE, 6 fields)",
    "wmt": "WMT system-level scores (METRIC LP TESTSET SYSTEM SCORE)",
    "wmt-noheader": "WMT system-level scores (METRIC LP TESTSET SYSTEM SCORE, no header)",
}


def _read_as_line(label: str, kind: str, part: pd.DataFrame) -> str:
    """``NAME: read as KIND, N LPs, M metrics`` for one file."""
    n_lp = part["lp"].nunique()
    metrics = part.loc[part["metric"] != HUMAN, "metric"].nunique()
    out = f"{label}: read as {kind}, {n_lp} LP{'s' if n_lp != 1 else ''}"
    if metrics:
        out += f", {metrics} metric{'s' if metrics != 1 else ''}"
    if (part["metric"] == HUMAN).any():
        out += ", human scores"
    return out
