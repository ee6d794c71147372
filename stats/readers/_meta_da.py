"""The WMT organisers' segment-level DA files as meta-evaluation gold scores for
:func:`stats.readers.meta.read_meta_eval` (WMT17-21 segment-level results).

Two layouts, whitespace-separated with a header, one file per language pair (the pair is the
``xx-yy`` ending the file name):

* ``metrics-ad-seg-scores-xx-yy.csv`` (the metrics task's, WMT20)::

      SYS SEGID RAW.SCR Z.SCR N SID
      OPPO.1360 pnp.de.342686::1 100.0 1.78 1 571

  SEGID is ``DOCID::SEGID``; the item of a row is ``DOCID:SEGID``, as the WMT metric files'
  rows (:func:`stats.readers._meta_text._read_wmt_seg`), so both sides meet.
* ``ad-seg-scores-xx-yy.csv`` (the news task's): ``SYS SID RAW.SCR Z.SCR N``; the item is the
  SID, a number, which meets segment-level files numbered alike (long format), not the
  ``DOCID:SEGID`` items of WMT metric files (refused, naming the other file).

Each file gives two gold types, ``da-raw`` (RAW.SCR, the scale of WMT17-20's relative-ranking
pairs: two systems' raw scores of one segment differing by 25 or more) and ``da-z`` (Z.SCR).
The items of the metric files carry a test set (``(TESTSET, DOCID:SEGID)``); a DA file has
none, so it is read after every other source and takes the test set of its language pair's
items (refused when they come from several). System names are kept as published (with the
submission id, ``OPPO.1360``), as the metric files name them.
"""

from __future__ import annotations

import numpy as np

from stats._core.errors import StatsInputError

from ._common import LINE, name_list, read_table, to_float
from ._meta_rows import _Pair, add_rows

#: the gold types a DA file gives: RAW.SCR and Z.SCR
DA_GOLDS = {"da-raw": "RAW.SCR", "da-z": "Z.SCR"}
METRICS_AD = ("SYS", "SEGID", "RAW.SCR", "Z.SCR", "N", "SID")
NEWS_AD = ("SYS", "SID", "RAW.SCR", "Z.SCR")


def da_layout(first: list[str]) -> str | None:
    """``'metrics-ad'`` or ``'ad'`` when a first line's fields are one of the two DA
    segment headers, else None."""
    up = {f.strip().upper() for f in first}
    if {"SYS", "SEGID", "RAW.SCR", "Z.SCR"} <= up:
        return "metrics-ad"
    if set(NEWS_AD) <= up:
        return "ad"
    return None


def read_da_gold(data: bytes, text: str, label: str, pairs: dict, layout: str) -> str:
    """Add a DA file's ``da-raw`` and ``da-z`` scores to ``pairs``; return what it was read
    as (the kind named in the source's read-as line)."""
    from .da_segments import language_pair_from_name

    lp = language_pair_from_name(label)
    if not lp:
        raise StatsInputError(
            f"{label}: a WMT DA segment file names its language pair only in the file name, "
            "and this one does not end in xx-yy (e.g. metrics-ad-seg-scores-de-en.csv): "
            "rename it"
        )
    key = "SEGID" if layout == "metrics-ad" else "SID"
    table = read_table(
        data, required=("SYS", key, "RAW.SCR", "Z.SCR"), optional=("N", "SID", "SEGID"),
        name=label, text=text,
    )  # fmt: skip
    frame = table.frame
    n = len(frame)
    system = frame["SYS"].astype(str).str.strip().to_numpy(dtype=object)
    raw_key = frame[key].astype(str).str.strip()
    if layout == "metrics-ad":
        parts = raw_key.str.split("::", n=1, expand=True, regex=False)
        if parts.shape[1] < 2 or parts[1].isna().any():
            bad = int(np.flatnonzero(parts[1].isna().to_numpy())[0]) if parts.shape[1] > 1 else 0
            raise StatsInputError(
                f"{label}, line {int(frame[LINE].iloc[bad])}, column SEGID: "
                f"{raw_key.iloc[bad]!r} is not DOCID::SEGID"
            )
        segment = (parts[0] + ":" + parts[1]).to_numpy(dtype=object)
    else:
        segment = raw_key.to_numpy(dtype=object)
    empty = (system == "") | (segment == "")
    if empty.any():
        i = int(np.flatnonzero(empty)[0])
        raise StatsInputError(f"{label}, line {int(frame[LINE].iloc[i])}: empty SYS or {key}")
    pair = pairs.setdefault(lp, _Pair())
    testsets = sorted({t for t, _ in (pair.items or {})})
    if len(testsets) > 1:
        raise StatsInputError(
            f"{label}: a DA file has no TESTSET column, and the scores of {lp} come from "
            f"several test sets ({name_list(testsets)}); give one test set's files"
        )
    testset = testsets[0] if testsets else ""
    known = {s for t, s in (pair.items or {})}
    if known and not known & set(segment.tolist()):
        theirs = next(iter(pair.items))[1]
        hint = (
            "; an ad-seg-scores file numbers segments by SID, WMT metric files by DOCID:SEGID: "
            "give the metrics-ad-seg-scores file (SEGID DOCID::SEGID)" if layout == "ad" else ""
        )
        raise StatsInputError(
            f"{label}: none of its segments (e.g. {segment[0]!r}) is a segment of the other "
            f"files of {lp} (e.g. {theirs!r}){hint}"
        )
    line = frame[LINE].to_numpy(dtype=np.int64)
    for gold, column in DA_GOLDS.items():
        if gold in pair.gold["seg"]:
            raise StatsInputError(
                f"{label}: {gold} scores of {lp} are also in {pair.gold['seg'][gold].file}"
            )
        add_rows(pairs, label, {
            "lp": np.full(n, lp, dtype=object), "name": np.full(n, gold, dtype=object),
            "gold": np.ones(n, dtype=bool), "system": system,
            "testset": np.full(n, testset, dtype=object), "segment": segment,
            "score": to_float(frame, column, label), "line": line,
        })  # fmt: skip
    head = " ".join(METRICS_AD if layout == "metrics-ad" else (*NEWS_AD, "N"))
    return (
        f"WMT DA segment scores ({head}), {lp} from the file name, gold da-raw (RAW.SCR) and "
        f"da-z (Z.SCR), {len(set(system.tolist()))} systems, items "
        + ("DOCID:SEGID" if layout == "metrics-ad" else "SID")
        + (f" of {testset}" if testset else "")
    )
