"""Tables of the segment explorer on "MT systems": one row per segment, sorted by how much it
moves the difference of two systems (:func:`stats.segment_contributions`), filtered by
reference length and a search text. Pure pandas, no Streamlit."""

from __future__ import annotations

import numpy as np
import pandas as pd

from stats.mt.contributions import SegmentContributions

#: column names of the explorer table
ID, SOURCE, REFERENCE, HYP_A, HYP_B, LENGTH, CONTRIBUTION = (
    "segment",
    "source",
    "reference",
    "hypothesis A",
    "hypothesis B",
    "length",
    "contribution",
)
#: the columns searched by :func:`filter_segments`
TEXT_COLUMNS = (ID, SOURCE, REFERENCE, HYP_A, HYP_B)


def explorer_table(result: SegmentContributions, texts: pd.DataFrame | None = None) -> pd.DataFrame:
    """One row per segment, largest |contribution| first (ties in segment order): ``segment``,
    then with ``texts`` (:func:`stats.analyses.segment_texts`) ``source`` (when given),
    ``reference``, ``hypothesis A`` (system x), ``hypothesis B`` (system y) and ``length``
    (reference words), and ``contribution``."""
    c = result.contributions
    table = pd.DataFrame({ID: c.index.astype(str)})
    if texts is not None:
        texts = texts.loc[c.index]
        if "source" in texts:
            table[SOURCE] = texts["source"].to_numpy()
        table[REFERENCE] = texts["reference"].to_numpy()
        table[HYP_A] = texts["x"].to_numpy()
        table[HYP_B] = texts["y"].to_numpy()
        table[LENGTH] = texts["length"].to_numpy()
    table[CONTRIBUTION] = c.to_numpy()
    order = np.argsort(-np.abs(np.nan_to_num(c.to_numpy(), nan=-np.inf)), kind="stable")
    return table.iloc[order].reset_index(drop=True)


def filter_segments(
    table: pd.DataFrame, *, length: tuple[int, int] | None = None, query: str = ""
) -> pd.DataFrame:
    """The rows of :func:`explorer_table` whose reference length lies in ``length``
    (inclusive) and whose id or texts contain ``query`` (case-insensitive)."""
    keep = np.ones(len(table), dtype=bool)
    if length is not None and LENGTH in table:
        lo, hi = length
        keep &= table[LENGTH].between(lo, hi).to_numpy()
    query = query.strip().lower()
    if query:
        hits = np.zeros(len(table), dtype=bool)
        for col in (c for c in TEXT_COLUMNS if c in table):
            hits |= table[col].str.lower().str.contains(query, regex=False).to_numpy()
        keep &= hits
    return table[keep]
