"""The WMT organisers' relative-ranking pairs (``DArr-seglevel.csv``; WMT17-19's
``RR-seglevel.csv``) as gold for
:func:`stats.readers.meta.read_meta_eval`: a header ``LP DATA SID BETTER WORSE`` and one row per
pair of systems' translations of one source segment, the better one (higher raw DA score)
first; WMT20's rows add the absolute raw-score difference as a sixth field (its
``manual-evaluation/DA2RR/seglevel-ken-rr.py`` prints every pair, and
``results/combine-scores-seg-RR.py`` keeps those differing by 25 or more), earlier years' files
hold the pairs already kept. WMT18's file names only four of its five columns in its header
(one name missing); its rows are read by position, as the organisers' scripts (which skip the
header and split each row into LP DATA SID BETTER WORSE) read them. The item of a row is
``(DATA, SID)``, SID ``DOCID::SEGID`` read as ``DOCID:SEGID`` (the item of the WMT metric
files' rows); a plain SID is kept as it is.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

from ._common import LINE, read_table, to_float
from ._meta_rows import _Pair

#: the gold name of relative-ranking pairs (only WMT's Kendall tau-like takes them)
RR_GOLD = "da-rr"
RR_COLUMNS = ("LP", "DATA", "SID", "BETTER", "WORSE")


def _short_header(first: list[str]) -> bool:
    """WMT18's ``RR-seglevel.csv`` header: four of the five names, the last two ``BETTER
    WORSE`` (one name missing; its rows have the five fields)."""
    names = tuple(f.strip().upper() for f in first)
    return (
        len(names) == 4 and names[2:] == ("BETTER", "WORSE")
        and len(set(names)) == 4 and set(names) <= set(RR_COLUMNS)
    )


def is_rr_header(first: list[str]) -> bool:
    """True for the ``LP DATA SID BETTER WORSE`` header (and for WMT18's, which names four of
    the five columns)."""
    return tuple(f.strip().upper() for f in first[:5]) == RR_COLUMNS or _short_header(first)


def read_rr_pairs(data: bytes, text: str, label: str, pairs: dict) -> str:
    """Add a relative-ranking pairs file to ``pairs`` (each language pair's ``rr`` list);
    return what it was read as."""
    lines = text.splitlines()
    header = next((ln for ln in lines if ln.strip()), "").split()
    short = _short_header(header)
    widths = {len(ln.split()) for ln in lines[1:] if ln.strip()}
    if short and widths != {5}:
        raise StatsInputError(
            f"{label}: the header names {len(header)} columns ({' '.join(header)}) and the rows "
            f"have {', '.join(map(str, sorted(widths)))} fields; WMT18's relative-ranking pairs "
            "have 5 (LP DATA SID BETTER WORSE)"
        )
    names = (*RR_COLUMNS, "DIFF") if widths == {6} else RR_COLUMNS
    if not widths <= {5, 6} or len(widths) > 1:
        raise StatsInputError(
            f"{label}: rows of {', '.join(map(str, sorted(widths)))} fields; the "
            "relative-ranking pairs have 5 (LP DATA SID BETTER WORSE) or 6 (with the raw DA "
            "difference, as WMT20's)"
        )
    body = text.split("\n", 1)[1] if "\n" in text else ""
    table = read_table(body.encode(), required=names, name=label, names=names, text=body)
    frame = table.frame
    frame[LINE] = frame[LINE].to_numpy() + 1  # the header line read apart
    sid = frame["SID"].astype(str).str.strip()
    segment = sid.str.replace("::", ":", n=1, regex=False)
    diff = to_float(frame, "DIFF", label, what="difference") if "DIFF" in frame else np.nan
    out = pd.DataFrame({
        "lp": frame["LP"].astype(str).str.strip().to_numpy(dtype=object),
        "testset": frame["DATA"].astype(str).str.strip().to_numpy(dtype=object),
        "segment": segment.to_numpy(dtype=object),
        "better": frame["BETTER"].astype(str).str.strip().to_numpy(dtype=object),
        "worse": frame["WORSE"].astype(str).str.strip().to_numpy(dtype=object),
        "diff": diff, LINE: frame[LINE].to_numpy(dtype=np.int64), "file": label,
    })  # fmt: skip
    for lp, block in out.groupby("lp", sort=False):
        pairs.setdefault(str(lp), _Pair()).rr.append(block.drop(columns="lp"))
    with_diff = "DIFF" in frame
    said = (
        f"; the header names 4 of the 5 columns ({' '.join(header)}, as WMT18's "
        "RR-seglevel.csv): each row read by position as LP DATA SID BETTER WORSE, as the "
        "organisers' scripts read it"
        if short else ""
    )
    return (
        f"WMT relative-ranking pairs ({' '.join(names)}), {len(out):,} pairs, gold {RR_GOLD}"
        + said
        + ("; pairs kept where DIFF >= the threshold" if with_diff
           else "; pairs as published (kept by the organisers)")
    )
