"""Short system names and the language pair from MT output file names as WMT publishes them.

WMT23 (general task): one file per system, ``generaltest2023.en-de.hyp.ONLINE-W.de``, and the
references ``generaltest2023.en-de.ref.refA.de``. WMT24: ``system-outputs/en-de/ONLINE-W.txt``
and ``references/en-de.refA.txt``. A system's name is what its file name does not share with
the other uploaded outputs: the parts (cut at ``.``) that every name starts or ends with are
removed, so the examples give ``ONLINE-W``; a system name with dots (``Claude-3.5``) keeps them.

Both functions are pure (names in, names out) so that every page and the CLI derive the same
names.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import PurePosixPath

from stats._core.language_pairs import LANGUAGE_PAIR

__all__ = ["language_pair_from_names", "short_system_names"]


def _base(path) -> str:
    return PurePosixPath(str(path).replace("\\", "/")).name


def _stem(base: str) -> str:
    stem = base.rsplit(".", 1)[0] if "." in base.lstrip(".") else base
    return stem or base


def _common_prefix(parts: Sequence[Sequence[str]]) -> int:
    n = min(len(p) for p in parts)
    k = 0
    while k < n and all(p[k] == parts[0][k] for p in parts):
        k += 1
    return k


def short_system_names(paths: Iterable) -> dict[str, str]:
    """Short, unique system names for MT output files.

    Parameters
    ----------
    paths : iterable of str or path
        File names or paths of the system outputs (one per system), as uploaded or given on
        the command line.

    Returns
    -------
    dict
        ``str(path)`` -> system name, in input order. The parts of the file names (cut at
        ``.``) that all of them share at the start or at the end are removed, each name
        keeping at least one part; one file alone loses only its extension. Names that
        would still clash get their directory (``en-de/X``), then a ``#2``, ``#3`` suffix.

    Examples
    --------
    >>> short_system_names(["generaltest2023.en-de.hyp.ONLINE-W.de",
    ...                     "generaltest2023.en-de.hyp.Claude-3.5.de"])
    {'generaltest2023.en-de.hyp.ONLINE-W.de': 'ONLINE-W', \
'generaltest2023.en-de.hyp.Claude-3.5.de': 'Claude-3.5'}
    >>> short_system_names(["system-outputs/en-de/ONLINE-W.txt"])
    {'system-outputs/en-de/ONLINE-W.txt': 'ONLINE-W'}
    """
    keys = [str(p) for p in paths]
    bases = [_base(k) for k in keys]
    if len(keys) <= 1:
        names = [_stem(b) for b in bases]
    else:
        parts = [b.split(".") for b in bases]
        shortest = min(len(p) for p in parts)
        head = _common_prefix(parts)
        tail = _common_prefix([p[::-1] for p in parts])
        tail = min(tail, shortest - 1)  # every name keeps a part; the extension goes first
        head = min(head, shortest - 1 - tail)
        names = [
            ".".join(p[head : len(p) - tail]) or _stem(b) for p, b in zip(parts, bases, strict=True)
        ]
    # unique: add the directory, then a counter
    seen: dict[str, int] = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
    out: list[str] = []
    for key, name in zip(keys, names, strict=True):
        if seen[name] > 1:
            parent = PurePosixPath(key.replace("\\", "/")).parent.name
            name = f"{parent}/{name}" if parent else name
        out.append(name)
    taken: dict[str, int] = {}
    final = []
    for name in out:
        taken[name] = taken.get(name, 0) + 1
        final.append(name if taken[name] == 1 else f"{name}#{taken[name]}")
    return dict(zip(keys, final, strict=True))


def language_pair_from_names(names: Iterable) -> str | None:
    """The language pair that the file names (or paths) agree on, e.g. ``'en-de'``.

    A pair is two lowercase ISO codes joined by ``-`` (``en-de``, ``cs-uk``, ``en-de_DE`` is
    read as ``en-de``), anywhere in a path, standing alone between separators. Returns None
    when no name holds one, or when the names disagree (every pair found must be the same).
    """
    found = set()
    for name in names:
        for m in LANGUAGE_PAIR.finditer(str(name).replace("\\", "/")):
            found.add(f"{m.group(1)}-{m.group(2)}")
    return found.pop() if len(found) == 1 else None
