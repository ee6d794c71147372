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

import os
from collections.abc import Sequence
from pathlib import Path

from stats._core.errors import StatsInputError

from ._arrow import plain_bytes
from ._common import (
    Source,
    decode,
    iter_splitlines,
    load_bytes,
    source_name,
    spells_number,
    split_lines,
)
from ._meta_da import da_layout, read_da_gold
from ._meta_mtme import _archive_members, _directory_members, _is_archive, _read_mtme
from ._meta_rows import _LEVELS, LONG_COLUMNS, MISSING, _Pair, finish_items
from ._meta_rr import is_rr_header, read_rr_pairs
from ._meta_table import MetaEvalData, MetaEvalTable, is_human_system, parse_metric_name
from ._meta_text import _read_long, _read_wide, _read_wmt_seg
from .system_level import _as_source

__all__ = [
    "MetaEvalData",
    "is_human_system",
    "parse_metric_name",
    "MetaEvalTable",
    "is_meta_eval_source",
    "read_meta_eval",
]

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
    deferred: list = []  # DA files: read last, when their language pair's test set is known
    for i, item in enumerate(sources):
        src, name = _as_source(item, names[i] if names is not None else None)
        if isinstance(src, (str, os.PathLike)) and Path(src).is_dir():
            label = name or os.fspath(src)
            before = {lp: _counts(p) for lp, p in pairs.items()}
            said: list = []
            files += _read_mtme(_directory_members(Path(src)), label, pairs, said)
            read_as.append(_read_as_line(label, "an MTME directory", pairs, before)
                           + "".join(f"; {x}" for x in said))
            continue
        data, label = load_bytes(src, name)
        if _is_archive(label, data):
            before = {lp: _counts(p) for lp, p in pairs.items()}
            said = []
            files += _read_mtme(_archive_members(data, label), label, pairs, said)
            read_as.append(_read_as_line(label, "an MTME archive", pairs, before)
                           + "".join(f"; {x}" for x in said))
            continue
        # a plain file (its bytes decode as they are, within the limits) is decoded only
        # where a reader needs its text: the column-wise readers parse its bytes
        text = None if plain_bytes(data, careful=b'"#') else decode(data, label)
        if text is None:
            first = data[: data.find(b"\n")].decode("utf-8")  # (line 1 holds data)
        else:
            first = next((ln for ln in iter_splitlines(text) if ln.strip()), "")
        if is_rr_header(first.split()) and input_format is None:
            before = {lp: _counts(p) for lp, p in pairs.items()}
            text = decode(data, label) if text is None else text
            kind = read_rr_pairs(data, text, label, pairs)
            read_as.append(_read_as_line(label, kind, pairs, before))
            files.append(label)
            continue
        layout = da_layout(first.split())
        if layout is not None and input_format is None:
            text = decode(data, label) if text is None else text
            deferred.append((len(read_as), data, text, label, layout))
            read_as.append("")
            files.append(label)
            continue
        before = {lp: _counts(p) for lp, p in pairs.items()}
        fmt = input_format or _detect_text(first, label)
        if fmt == "wide":
            _read_wide(text, label, pairs, data)
            kind = "wide CSV (lp, system, segment, human, <metric>...)"
        elif fmt == "wmt-seg":
            _read_wmt_seg(data, label, pairs)
            kind = f"WMT segment scores ({len(first.split())} fields)"
        else:
            _read_long(data, text, label, pairs)
            kind = "long text (METRIC LP TESTSET SYSTEM SEGMENT SCORE)"
        read_as.append(_read_as_line(label, kind, pairs, before))
        files.append(label)
    for at, data, text, label, layout in deferred:
        before = {lp: _counts(p) for lp, p in pairs.items()}
        kind = read_da_gold(data, text, label, pairs, layout)
        read_as[at] = _read_as_line(label, kind, pairs, before)
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
    return len(first) == len(LONG_COLUMNS) and (first[-1] in MISSING or spells_number(first[-1]))
