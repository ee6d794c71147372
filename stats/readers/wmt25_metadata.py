"""The WMT25 general MT task's systems metadata as published: ``data/systems_metadata.json`` and
``data/systems_metadata_updated3.json`` of ``wmt-conference/wmt25-general-mt``, one JSON object
mapping each system's name to its record::

    {"AMI": {"constrained": true, "description": "...",
             "supported_lps": {"en-is_IS": "supported"}, ...}, ...}

The organisers' AutoRank script (``autorank/compute_autorank.py`` of
``prosho-97/wmt-automatic-eval``) ranks, per language pair, only the systems of this file
whose record lists the pair: the keys of ``supported_lps`` in ``systems_metadata_updated3.json``
(its final version; the values say whether the system's model supports the language:
``supported``, ``unsupported`` or ``unknown``, and do not filter), the ``lps`` list in the
earlier ``systems_metadata.json``. :func:`read_wmt25_systems_metadata` reads either; a record
holding both with different language pairs is refused (which one the organisers' script reads
depends on its version).

Strict: a file that is not one JSON object of objects, a key given twice, a record without
``supported_lps`` or ``lps``, language pairs that are not strings: one line naming the file,
system and field.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from stats._core.errors import StatsInputError

from ._common import load_text, name_list
from .wmt25 import _Duplicate, _kind, _no_duplicates

__all__ = ["WMT25SystemsMetadata", "read_wmt25_systems_metadata"]

#: the fields naming a system's language pairs, in the order the organisers' script used them
LP_FIELDS = ("supported_lps", "lps")


@dataclass(frozen=True, kw_only=True)
class WMT25SystemsMetadata:
    """The systems metadata as read (:func:`read_wmt25_systems_metadata`).

    Attributes
    ----------
    lps : dict
        System -> the language pairs its record lists (the organisers' team filter).
    constrained : dict
        System -> its ``constrained`` flag (None where the record has none).
    field : str
        ``'supported_lps'`` or ``'lps'`` (``'supported_lps and lps'`` when records use both).
    file, read_as : str
    """

    lps: dict
    constrained: dict
    field: str
    file: str
    read_as: str

    def registered(self, system: str, lp: str) -> bool:
        """Whether ``system`` is listed with language pair ``lp``."""
        return lp in self.lps.get(system, ())


def read_wmt25_systems_metadata(source, name: str | None = None) -> WMT25SystemsMetadata:
    """Read WMT25's ``systems_metadata*.json``.

    Parameters
    ----------
    source : path, bytes or file
        The JSON file (``name``: its display name, for uploads).

    Returns
    -------
    WMT25SystemsMetadata

    Examples
    --------
    >>> data = b'{"A": {"constrained": true, "supported_lps": {"en-de_DE": "supported"}}}'
    >>> meta = read_wmt25_systems_metadata(data, name="systems_metadata_updated3.json")
    >>> meta.read_as
    'read as WMT25 systems metadata: 1 system, 1 language pair (supported_lps)'
    >>> meta.registered("A", "en-de_DE"), meta.registered("A", "en-cs_CZ")
    (True, False)
    """
    text, label = load_text(source, name)
    try:
        obj = json.loads(text, object_pairs_hook=_no_duplicates)
    except _Duplicate as exc:
        raise StatsInputError(f"{label}: {exc}") from None
    except ValueError as exc:
        line = getattr(exc, "lineno", None)
        where = f", line {line}" if line else ""
        raise StatsInputError(f"{label}{where}: not JSON: {getattr(exc, 'msg', exc)}") from None
    except RecursionError:
        raise StatsInputError(f"{label}: JSON nested too deeply") from None
    if not isinstance(obj, dict) or not obj:
        raise StatsInputError(
            f"{label}: expected a JSON object mapping each system to its record (WMT25's "
            f"systems_metadata.json); got {'an empty object' if obj == {} else _kind(obj)}"
        )
    lps: dict = {}
    constrained: dict = {}
    used: set = set()
    for system, record in obj.items():
        where = f"{label}, system {system!r}"
        if not isinstance(record, dict):
            raise StatsInputError(f"{where}: expected an object (its record); got {_kind(record)}")
        found = {}
        for field in LP_FIELDS:
            if field not in record:
                continue
            value = record[field]
            if field == "supported_lps" and not isinstance(value, dict):
                raise StatsInputError(
                    f"{where}, field supported_lps: expected a mapping of language pairs to "
                    f"their support; got {_kind(value)}"
                )
            if field == "lps" and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                raise StatsInputError(
                    f"{where}, field lps: expected a list of language pairs (strings); got "
                    f"{_kind(value)}"
                )
            found[field] = tuple(value)
        if not found:
            raise StatsInputError(
                f"{where}: no field supported_lps or lps (the language pairs the organisers "
                "rank the system in)"
            )
        if len(found) == 2 and set(found["supported_lps"]) != set(found["lps"]):
            raise StatsInputError(
                f"{where}: supported_lps and lps list different language pairs; which one "
                "the organisers' script reads depends on its version: keep one of them"
            )
        used.update(found)
        lps[str(system)] = next(iter(found.values()))
        flag = record.get("constrained")
        constrained[str(system)] = flag if isinstance(flag, bool) else None
    field = " and ".join(f for f in LP_FIELDS if f in used)
    pairs = {lp for v in lps.values() for lp in v}

    def plural(k, word):
        return f"{k:,} {word}{'' if k == 1 else 's'}"

    read_as = (
        f"read as WMT25 systems metadata: {plural(len(lps), 'system')}, "
        f"{plural(len(pairs), 'language pair')} ({field})"
    )
    return WMT25SystemsMetadata(
        lps=lps, constrained=constrained, field=field, file=label, read_as=read_as
    )


def filter_note(lp: str, not_listed: list[str], without_lp: list[str]) -> list[str]:
    """The notes naming the systems a language pair's table leaves out, and why."""
    notes = []
    if not_listed:
        notes.append(
            f"{lp}: {len(not_listed)} system(s) not in the systems metadata, not ranked (the "
            f"organisers' team filter): {name_list(not_listed, len(not_listed))}"
        )
    if without_lp:
        notes.append(
            f"{lp}: {len(without_lp)} system(s) whose metadata does not list {lp}, not ranked "
            f"there (the organisers' team filter): {name_list(without_lp, len(without_lp))}"
        )
    return notes
