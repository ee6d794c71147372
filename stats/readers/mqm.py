r"""MQM annotations as WMT and Google publish them: a TSV of error spans, one row per error
(or one ``no-error`` row for a segment without errors), with a header::

    system  doc  doc_id  seg_id  rater  source  target  category  severity  [domain]

Each rater's score of an item (system, document, segment) is minus the sum of the weights of
the errors they marked there, with mt-metrics-eval's ``score_mqm`` weights (Freitag et al.
2021):

=========================================  ======
error (severity / category)                weight
=========================================  ======
Major / Non-translation!                   25
Major, Critical                            5
Minor / Fluency/Punctuation                0.1
Minor                                      1
Neutral, no-error; Source issue/error      0
=========================================  ======

(``score_mqm``'s default ``--weights``, its most specific severity/category match; a severity
it does not list is an error here rather than a silent 0.)

.. math:: s_{r,i} = -\sum_{e \in E_{r,i}} w(e)

and an item's score is the mean over its raters (:mod:`stats.human.paired`). The language pair
is ``lp=``, else the ``xx-yy`` in the file name, else ``"(language pair not named)"``. A
``domain`` column, when present, gives each row's domain.

References
----------
M. Freitag et al. 2021. Experts, Errors, and Context: A Large-Scale Study of Human Evaluation
for Machine Translation. TACL 9. https://aclanthology.org/2021.tacl-1.87/
"""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

from ._common import LINE, Source, load_text
from .documents import NO_DOMAIN, HumanRatings

__all__ = ["MQM_COLUMNS", "MQM_WEIGHTS", "is_mqm_file", "mqm_weight", "read_mqm"]

#: required header columns (any case)
MQM_COLUMNS = ("system", "doc", "seg_id", "rater", "category", "severity")

#: severity weights of mt-metrics-eval's score_mqm (plus the two special cases of mqm_weight)
MQM_WEIGHTS = {"major": 5.0, "minor": 1.0, "neutral": 0.0, "critical": 5.0, "no-error": 0.0}
NON_TRANSLATION = 25.0
MINOR_PUNCTUATION = 0.1
_LP = re.compile(r"(?<![A-Za-z])([a-z]{2,3})-([a-z]{2,3})(?![A-Za-z])")


def mqm_weight(severity: np.ndarray, category: np.ndarray) -> np.ndarray:
    """Weights of errors given their severities and categories (arrays of str), as above;
    NaN where the severity is unknown."""
    sev = pd.Series(severity, dtype=object).str.strip().str.lower()
    cat = pd.Series(category, dtype=object).str.strip().str.lower()
    w = sev.map(MQM_WEIGHTS).to_numpy(dtype=float, copy=True)
    punct = (sev == "minor").to_numpy() & cat.str.startswith("fluency/punctuation").to_numpy()
    w[punct] = MINOR_PUNCTUATION
    major = (sev == "major").to_numpy()
    w[major & cat.str.startswith("non-translation").to_numpy()] = NON_TRANSLATION
    no_error = cat.isin(["no-error", "source error", "source issue"]).to_numpy()
    w[no_error & ~np.isnan(w)] = 0.0
    return w


def _header(text: str) -> list[str]:
    first = next((line for line in text.split("\n", 5) if line.strip()), "")
    return [f.strip().lower() for f in first.rstrip("\r").split("\t")]


def is_mqm_file(text: str) -> bool:
    """True when the first line is a tab-separated header with the MQM columns."""
    return set(MQM_COLUMNS) <= set(_header(text))


def read_mqm(source: Source, *, name: str | None = None, lp: str | None = None) -> HumanRatings:
    """Read an MQM TSV and score every (rater, item) with mt-metrics-eval's weights.

    Returns
    -------
    HumanRatings
        One row per rater and item; ``score`` is minus the weighted error count.

    Raises
    ------
    StatsInputError
        A missing header column, a row with a different number of fields than the header, an
        empty system/doc/seg_id/rater, or an unknown severity (naming file, line and value).
    """
    text, label = load_text(source, name)
    header = _header(text)
    missing = [c for c in MQM_COLUMNS if c not in header]
    if missing:
        raise StatsInputError(
            f"{label}: not an MQM file: the header lacks {', '.join(missing)} (expected "
            f"{' '.join(MQM_COLUMNS)}, tab-separated)"
        )
    twice = next((c for i, c in enumerate(header) if c in header[:i]), None)
    if twice is not None:
        raise StatsInputError(f"{label}: column {twice!r} appears twice in the header")
    # texts hold quotes and may hold a carriage return: tabs split fields, \n ends a row
    split = text.split("\n")
    first = next(i for i, ln in enumerate(split) if ln.strip())  # the header (blank lines first)
    rows, lines = [], []
    for line_num, text_line in enumerate(split[first + 1 :], start=first + 2):
        row = text_line.removesuffix("\r").split("\t")
        if not any(f.strip() for f in row):
            continue
        if len(row) != len(header):
            raise StatsInputError(
                f"{label}, line {line_num}: {len(row)} field(s), the header has {len(header)}"
            )
        rows.append(row)
        lines.append(line_num)
    if not rows:
        raise StatsInputError(f"{label}: no MQM rows after the header")
    raw = pd.DataFrame(rows, columns=header)
    line = np.asarray(lines, dtype=np.int64)
    for col in ("system", "doc", "seg_id", "rater"):
        empty = (raw[col].str.strip() == "").to_numpy()
        if empty.any():
            i = int(np.flatnonzero(empty)[0])
            raise StatsInputError(f"{label}, line {line[i]}, column {col}: empty value")
    weight = mqm_weight(raw["severity"].to_numpy(), raw["category"].to_numpy())
    unknown = np.isnan(weight)
    if unknown.any():
        i = int(np.flatnonzero(unknown)[0])
        raise StatsInputError(
            f"{label}, line {line[i]}, column severity: unknown severity "
            f"{raw['severity'].iloc[i]!r}; expected Major, Minor, Critical, Neutral or no-error"
        )
    if lp is None:
        found = _LP.search(re.split(r"[\\/]", label)[-1])
        lp = f"{found.group(1)}-{found.group(2)}" if found else "(language pair not named)"
    has_domain = "domain" in header
    errors = pd.DataFrame(
        {
            "lp": lp,
            "domain": raw["domain"].str.strip().to_numpy(dtype=object) if has_domain else NO_DOMAIN,
            "system": raw["system"].str.strip().to_numpy(dtype=object),
            "document": raw["doc"].str.strip().to_numpy(dtype=object),
            "segment": raw["seg_id"].str.strip().to_numpy(dtype=object),
            "rater": raw["rater"].str.strip().to_numpy(dtype=object),
            "weight": weight,
            LINE: line,
        }
    )
    key = ["lp", "domain", "system", "document", "segment", "rater"]
    frame = errors.groupby(key, sort=False, as_index=False).agg(
        weight=("weight", "sum"), **{LINE: (LINE, "first")}
    )
    frame.insert(6, "score", -frame.pop("weight"))
    return HumanRatings(frame=frame, name=label, protocol="MQM", has_domains=has_domain)
