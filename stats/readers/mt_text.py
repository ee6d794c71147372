"""MT system outputs and references as plain text, read exactly as sacreBLEU reads them.

sacreBLEU's command line opens a file as UTF-8 with ``newline="\\n"`` and ``rstrip()``s each
line (``sacrebleu/sacrebleu.py``, ``utils.smart_open``). Two consequences matter for its
numbers and are reproduced here:

* a UTF-8 byte-order mark is **kept** as the first character of the first line (it is not
  whitespace, so chrF counts it as a character and BLEU as part of the first word); dropping
  it changed chrF in the 5th decimal for a WMT23 system whose files carry one;
* trailing whitespace (any Unicode whitespace, ``\\r`` included) is removed from every line,
  which chrF with ``whitespace=True`` would otherwise count.

UTF-16/32 files (with a BOM) are decoded too (sacreBLEU cannot read them); their BOM is
dropped.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from stats._core.errors import StatsInputError

from ._common import Source, decode, load_bytes
from .mt_names import short_system_names

__all__ = ["read_mt_lines", "read_parallel"]

_UTF8_BOM = b"\xef\xbb\xbf"


def _named(item) -> tuple[Source, str | None]:
    """Accept a source or a ``(name, source)`` pair (as the dashboard passes uploads)."""
    if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
        return item[1], item[0]
    return item, None


def read_mt_lines(source: Source, name: str | None = None) -> tuple[list[str], str]:
    """Segments of a text file, one per line, as sacreBLEU's command line reads them.

    Returns the lines (``rstrip()``-ed; a final line break ends the last line, it does not
    start another) and the file's display name. A UTF-8 BOM stays in the first line.
    """
    data, label = load_bytes(source, name)
    text = decode(data, label)
    if data.startswith(_UTF8_BOM) and not text.startswith("\ufeff"):
        text = "\ufeff" + text
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return [ln.rstrip() for ln in lines], label


def read_parallel(
    references: Sequence, hypotheses: Sequence
) -> tuple[list[list[str]], dict[str, list[str]]]:
    """Read reference file(s) and one hypothesis file per system.

    Parameters
    ----------
    references : sequence of sources
        One or more reference files (paths, bytes, file objects, or ``(name, source)`` pairs),
        each a full reference stream (sacreBLEU's ``-r refA refB``).
    hypotheses : sequence of sources
        One file per system, any extension; system names are derived from the file names by
        :func:`stats.readers.mt_names.short_system_names` (``generaltest2023.en-de.hyp.X.de``
        and ``system-outputs/en-de/X.txt`` both give ``X``).

    Returns
    -------
    (references, hypotheses)
        ``references`` as a list of reference streams (sacreBLEU's layout) and
        ``hypotheses`` as a dict system name -> list of segments, in input order.

    Raises
    ------
    StatsInputError
        No reference or no hypothesis file; files with different numbers of lines (naming
        both files and counts); an empty line (file and line) in a
        reference.
    """
    if isinstance(references, (str, os.PathLike)):
        references = [references]  # one path
    if isinstance(hypotheses, (str, os.PathLike)):
        hypotheses = [hypotheses]
    if isinstance(references, bytes) or not references:
        raise StatsInputError("references: give at least one reference file")
    if isinstance(hypotheses, bytes) or not hypotheses:
        raise StatsInputError("hypotheses: give at least one hypothesis file (one per system)")
    refs: list[tuple[str, list[str]]] = []
    for item in references:
        src, nm = _named(item)
        lines, label = read_mt_lines(src, nm)
        refs.append((label, lines))
    first_label, first = refs[0]
    n = len(first)

    def check_aligned(label: str, lines: list[str]) -> None:
        if len(lines) != n:
            raise StatsInputError(
                f"{label} has {len(lines)} lines but {first_label} has {n}; "
                "all files must have one segment per line, aligned"
            )

    for label, lines in refs[1:]:
        check_aligned(label, lines)
    read = []
    for item in hypotheses:
        src, nm = _named(item)
        lines, label = read_mt_lines(src, nm)
        check_aligned(label, lines)
        read.append((label, label, lines))  # a path keeps its directory (WMT24 layout)
    keys = [k for k, _, _ in read]
    if len(set(keys)) < len(keys):
        dup = next(k for k in keys if keys.count(k) > 1)
        raise StatsInputError(f"{dup}: the same hypothesis file is given twice")
    names = short_system_names(keys)
    hyps = {names[k]: lines for k, _, lines in read}
    for label, lines in refs:
        empty = [i for i, ln in enumerate(lines, start=1) if not ln.strip()]
        if empty:
            more = f" (and {len(empty) - 1} more)" if len(empty) > 1 else ""
            raise StatsInputError(
                f"{label}, line {empty[0]}: empty reference segment{more}; the metric cannot "
                "score a segment without a reference"
            )
    return [lines for _, lines in refs], hyps


def language_pair_of(*groups: Sequence) -> str | None:
    """The language pair the names of the given file groups (references, hypotheses) agree
    on (:func:`stats.readers.mt_names.language_pair_from_names`), or None."""
    from ._common import source_name
    from .mt_names import language_pair_from_names

    names = []
    for group in groups:
        if isinstance(group, (str, os.PathLike)):
            group = [group]
        for item in group or ():
            src, nm = _named(item)
            names.append(source_name(src, nm))
    return language_pair_from_names(names)
