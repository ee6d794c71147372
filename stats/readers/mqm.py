r"""MQM annotations as Google, WMT and mt-metrics-eval (MTME) publish them: a TSV of error spans,
one row per error (or one ``no-error`` row for a segment without errors), with a header.
Two header spellings are read:

* Google's / MTME's (``mqm_ted_zhen.tsv``, ``mqm_newstest2020_ende.tsv``)::

      system  doc  doc_id  seg_id  rater  source  target  category  severity  [domain]

* Marot's exports (WMT24's MQM files): ``globalSegId`` for ``seg_id`` and ``docSegId`` for
  ``doc_id``, in any column order.

Each rater's score of an item (system, document, segment) is minus the sum of the weights of
the errors they marked there, and an item's score is the mean over its raters
(:mod:`stats.human.paired`):

.. math:: s_{r,i} = -\sum_{e \in E_{r,i}} w(e)

The default weights are those of MTME's ``converters/score_mqm.py`` (its ``--weights``
default): ``Major:5 Minor:1 Neutral:0 Major/Non-translation!:25
Minor/Fluency/Punctuation:0.1``. An error's weight is that of the longest entry matching a
prefix of ``severity/category/subcategory`` (lower-cased; the category split at ``/``), else 0
-- so ``Critical``, ``HOTW-test`` and ``no-error`` weigh 0 and a Major ``Source error`` 5,
as in ``score_mqm``. Rows that match no entry at all are counted in the ratings' notes.

Other weights: a string in ``score_mqm``'s ``--weights`` syntax (:func:`parse_mqm_weights`),
or ``"wmt24"``, the rules of the WMT24 organisers' ``humeval/tools.py`` (``mqm_weights``):
``No-error``/``neutral`` severities and categories containing ``Reinterpretation`` 0, category
``Non-translation!`` 25, ``Source issue`` 0, ``minor`` 1 (0.1 when the category contains
``Fluency/Punctuation``), ``major``/``critical`` 5; any other severity is refused, as there.

The language pair is ``lp=``, else the ``xx-yy`` in the file name, else the ``xxyy`` that ends
Google's and MTME's names (``mqm_ted_zhen.tsv`` -> ``zh-en``), else ``"(language pair not
named)"``. A ``domain`` column, when present, gives each row's domain.

References
----------
M. Freitag et al. 2021. Experts, Errors, and Context: A Large-Scale Study of Human Evaluation
for Machine Translation. TACL 9. https://aclanthology.org/2021.tacl-1.87/
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError
from stats._core.numbers import number_error

from ._arrow import in_threads, plain_bytes, repeated
from ._common import (
    LINE,
    Decoded,
    Source,
    check_header_once,
    codes_and_names,
    decode,
    load_bytes,
    mix_codes,
)
from .documents import NO_DOMAIN, HumanRatings

#: pandas' string dtype held by pyarrow (no Python object per row)
_STR = pd.StringDtype("pyarrow", na_value=np.nan)

__all__ = [
    "MQM_COLUMNS",
    "MQM_PRESETS",
    "MQM_SOURCE_ERRORS",
    "MTME_WEIGHTS",
    "NO_LP",
    "is_mqm_file",
    "mqm_weight",
    "parse_mqm_weights",
    "read_mqm",
    "source_error_ratings",
]

#: required header columns (any case); ``seg_id`` may be Marot's ``globalSegId``
MQM_COLUMNS = ("system", "doc", "seg_id", "rater", "category", "severity")
_ALIASES = {"globalsegid": "seg_id", "docsegid": "doc_id"}

#: mt-metrics-eval's score_mqm.py default ``--weights`` (lower-cased keys, as it stores them)
MTME_WEIGHTS: Mapping[str, float] = {
    "major": 5.0,
    "minor": 1.0,
    "neutral": 0.0,
    "major/non-translation!": 25.0,
    "minor/fluency/punctuation": 0.1,
}
#: named weightings: ``mtme`` (the default) and ``wmt24`` (the organisers' tools.py rules)
MQM_PRESETS = ("mtme", "wmt24")
NO_LP = "(language pair not named)"
#: the protocol of a file of source-error annotations only (Google's ``*.source-errors.tsv``):
#: read as what it holds, never ranked as MQM ratings
MQM_SOURCE_ERRORS = "MQM source errors"
#: categories that mark an error in the source, not in the translation (Google's ``Source
#: error``, MTME's TED files' ``Source_error``, WMT24's ``Source issue``)
SOURCE_ERROR_CATEGORIES = ("source error", "source_error", "source issue")
_WMT24_SEVERITIES = ("major", "critical", "minor", "neutral", "No-error")

_LP = re.compile(r"(?<![A-Za-z])([a-z]{2,3})-([a-z]{2,3})(?![A-Za-z])")
#: Google's names end in ``xxyy`` then extensions, side files' suffixes included
#: (``mqm_newstest2020_ende.source-errors.tsv``, ``mqm_ted_zhen.avg_seg_scores.tsv``)
_LP_JOINED = re.compile(r"(?:^|[_.-])([a-z]{2})([a-z]{2})(?:\.[A-Za-z0-9_-]+)*$")
#: two-letter codes the joined form ``zhen`` may combine (WMT and Google MQM pairs)
_CODES = frozenset(
    "ar bn cs da de el en es et fi fr gu ha he hi hr hu is it ja kk km ko lt lv mr nl no pl "
    "ps pt ro ru sk sl sr sv ta tr uk vi xh zh zu liv".split()
)


def parse_mqm_weights(spec: str, *, sep: str = " ") -> dict[str, float]:
    """Weights in mt-metrics-eval's ``score_mqm --weights`` syntax: ``sep``-separated
    ``severity[/category[/subcategory]]:weight`` entries (names any case).

    Examples
    --------
    >>> parse_mqm_weights("Major:5 Minor:1 Minor/Fluency/Punctuation:0.1")
    {'major': 5.0, 'minor': 1.0, 'minor/fluency/punctuation': 0.1}
    >>> parse_mqm_weights("Major:5;Major/Source issue:0", sep=";")
    {'major': 5.0, 'major/source issue': 0.0}
    """
    if not isinstance(sep, str) or not sep:
        raise StatsInputError(
            f"mqm_weights_sep: the separator of the entries must be a non-empty text; got {sep!r}"
        )
    out: dict[str, float] = {}
    for entry in str(spec).split(sep):
        if not entry.strip():
            continue
        parts = entry.split(":")
        if len(parts) != 2 or not parts[0].strip():
            raise StatsInputError(
                f"mqm_weights: {entry!r} is not severity[/category]:weight (score_mqm's "
                "--weights syntax, e.g. 'Major:5 Minor:1 Major/Non-translation!:25')"
            )
        problem = number_error(parts[1])  # the one rule for numbers, files' bounds
        if problem is not None:
            raise StatsInputError(f"mqm_weights: {entry!r}: the weight {problem}")
        key = parts[0].lower()
        if key in out:
            raise StatsInputError(
                f"mqm_weights: {parts[0]!r} is given twice; give each severity[/category] "
                "once"
            )
        out[key] = float(parts[1])
    if not out:
        raise StatsInputError("mqm_weights: no severity[/category]:weight entry given")
    return out


def _resolve(weights) -> Mapping[str, float] | str:
    if weights is None or (isinstance(weights, str) and weights.lower() == "mtme"):
        return MTME_WEIGHTS
    if isinstance(weights, str):
        if weights.lower() == "wmt24":
            return "wmt24"
        return parse_mqm_weights(weights)
    return {str(k).lower(): float(v) for k, v in dict(weights).items()}


def mqm_weight(severity, category, weights=None) -> np.ndarray:
    """Weights of errors given their severities and categories (arrays of str).

    ``weights`` None (or ``"mtme"``) is score_mqm.py's default; a mapping or a string in its
    ``--weights`` syntax is matched as it matches (longest ``severity/category/...`` prefix,
    lower-cased, else 0); ``"wmt24"`` follows the WMT24 organisers' tools.py, NaN where its
    severities do not include the row's.

    Examples
    --------
    >>> mqm_weight(["Major", "Critical", "Minor"], ["Non-translation!", "Accuracy",
    ...            "Fluency/Punctuation"]).tolist()
    [25.0, 0.0, 0.1]
    """
    sev = pd.Series(np.asarray(severity, dtype=object), dtype=object).fillna("")
    cat = pd.Series(np.asarray(category, dtype=object), dtype=object).fillna("")
    rule = _resolve(weights)
    codes, usev, ucat = _distinct_pairs(sev, cat)
    if isinstance(rule, str):
        return _wmt24_weight(usev, ucat)[codes]
    w = _prefix_weight(usev, ucat, rule)
    return np.where(np.isnan(w), 0.0, w)[codes]


def _distinct_pairs(sev: pd.Series, cat: pd.Series) -> tuple[np.ndarray, pd.Series, pd.Series]:
    """A file has few distinct (severity, category) pairs: their codes per row and the pairs,
    so that each is weighed once."""
    cs, us = pd.factorize(sev.to_numpy())
    cc, uc = pd.factorize(cat.to_numpy())
    both, codes = np.unique(cs.astype(np.int64) * max(len(uc), 1) + cc, return_inverse=True)
    usev = pd.Series(us[both // max(len(uc), 1)], dtype=object)
    ucat = pd.Series(uc[both % max(len(uc), 1)], dtype=object)
    return codes.reshape(-1), usev, ucat


def _prefix_weight(sev: pd.Series, cat: pd.Series, rule: Mapping[str, float]) -> np.ndarray:
    """score_mqm's Score(): items = [severity] + category.split('/'), lower-cased; the longest
    '/'-joined prefix found in the weights wins; NaN where none is (score_mqm: 0)."""
    w = np.full(len(sev), np.nan)
    if not len(sev):
        return w
    parts = cat.str.lower().str.split("/", expand=True, regex=False)
    prefix = sev.str.lower()
    keys = [prefix]
    for j in range(parts.shape[1]):
        col = parts[j]
        prefix = prefix.where(col.isna(), prefix + "/" + col.fillna(""))
        keys.append(prefix.where(col.notna()))
    table = pd.Series(dict(rule), dtype=float)
    for key in reversed(keys):  # longest first
        hit = key.map(table).to_numpy(dtype=float)
        take = np.isnan(w) & ~np.isnan(hit)
        w[take] = hit[take]
    return w


def _unmatched(severity, category, rule) -> np.ndarray:
    """Rows no weight entry matches (score_mqm scores them 0), ``no-error`` rows aside."""
    if isinstance(rule, str):
        return np.zeros(len(severity), dtype=bool)
    sev = pd.Series(np.asarray(severity, dtype=object), dtype=object).fillna("")
    cat = pd.Series(np.asarray(category, dtype=object), dtype=object).fillna("")
    codes, usev, ucat = _distinct_pairs(sev, cat)
    none = np.isnan(_prefix_weight(usev, ucat, rule))
    return (none & (usev.str.lower() != "no-error").to_numpy())[codes]


def _wmt24_weight(sev: pd.Series, cat: pd.Series) -> np.ndarray:
    """humeval/tools.py's mqm_weights of WMT24 (case-sensitive, as there); NaN = refused."""
    s, c = sev.to_numpy(dtype=object), cat.to_numpy(dtype=object)
    w = np.full(len(s), np.nan)
    minor, major = s == "minor", (s == "major") | (s == "critical")
    w[minor] = np.where(cat.str.contains("Fluency/Punctuation", regex=False)[minor], 0.1, 1.0)
    w[major] = 5.0
    w[c == "Source issue"] = 0.0
    w[c == "Non-translation!"] = 25.0
    zero = (
        (s == "No-error")
        | (s == "neutral")
        | (s == "")
        | cat.str.contains("Reinterpretation", regex=False).to_numpy()
    )
    w[zero] = 0.0
    return w


def _header(text: str) -> list[str]:
    first = next((line for line in text.split("\n", 5) if line.strip()), "")
    fields = [f.strip().lower() for f in first.rstrip("\r").split("\t")]
    return [_ALIASES.get(f, f) for f in fields]


def is_mqm_file(text: str) -> bool:
    """True when the first line is a tab-separated header with the MQM columns (Google's,
    MTME's or Marot's spelling)."""
    return set(MQM_COLUMNS) <= set(_header(text))


def is_source_error(category: pd.Series) -> pd.Series:
    """Which categories (str) mark a source error (:data:`SOURCE_ERROR_CATEGORIES`, any case,
    any subcategory: ``Source error/-``)."""
    return category.str.strip().str.lower().str.startswith(SOURCE_ERROR_CATEGORIES)


def language_pair_of(label: str) -> str | None:
    """The language pair a file name gives: ``xx-yy`` anywhere, or Google's/MTME's ``xxyy``
    ending the name (``mqm_ted_zhen.tsv`` -> ``zh-en``); None without one."""
    base = re.split(r"[\\/]", label)[-1]
    for found in _LP.finditer(base):  # not Google's ``mqm-ted``: 3-letter parts must be codes
        a, b = found.group(1), found.group(2)
        if all(len(c) == 2 or c in _CODES for c in (a, b)):
            return f"{a}-{b}"
    joined = _LP_JOINED.search(base)
    if joined and joined.group(1) in _CODES and joined.group(2) in _CODES:
        return f"{joined.group(1)}-{joined.group(2)}"
    return None


def read_mqm(
    source: Source, *, name: str | None = None, lp: str | None = None, weights=None
) -> HumanRatings:
    """Read an MQM TSV and score every (rater, item).

    Parameters
    ----------
    source : path, bytes or binary file object
    name : str, optional
        Display name (the language pair is read from it when ``lp`` is not given).
    lp : str, optional
        The language pair of every row.
    weights : None, str or mapping, optional
        None or ``"mtme"``: score_mqm.py's default weights; ``"wmt24"``: the WMT24
        organisers' rules; a mapping or a string in score_mqm's ``--weights`` syntax.

    Returns
    -------
    HumanRatings
        One row per rater and item; ``score`` is minus the weighted error count; ``read_as``
        and ``notes`` say what was read and what weighed 0 unlisted.

    Raises
    ------
    StatsInputError
        A missing header column, a row with a different number of fields than the header, an
        empty system/doc/seg_id/rater, or a severity the ``wmt24`` rules refuse (naming file,
        line and value).
    """
    data, label = load_bytes(source, name)
    if plain_bytes(data):  # read by columns from the bytes when the header is on line 1
        first_line = data[: data.find(b"\n")].decode("utf-8")
        if first_line.strip():
            header = _checked_header(first_line, first_line, label, 0)
            cols = _coded_columns(data, header)
            if cols is not None:
                return _ratings(cols, header, label, lp, weights, _is_marot(first_line))
    text = source.text if isinstance(source, Decoded) else decode(data, label)
    # texts hold quotes: tabs split fields, \n ends a row (score_mqm reads with csv.QUOTE_NONE
    # too); a carriage return inside a field is refused (a line break to score_mqm)
    split = text.split("\n")
    first = next((i for i, ln in enumerate(split) if ln.strip()), 0)  # the header
    header = _checked_header(text, split[first], label, first)
    marot = _is_marot(split[first])
    raw = _columns(text, header) if first == 0 else None
    if raw is not None:
        line = np.arange(2, len(raw) + 2, dtype=np.int64)
        return _ratings(_coded_frame(raw, line, arrow=True), header, label, lp, weights, marot)
    rows, lines = [], []
    for line_num, text_line in enumerate(split[first + 1 :], start=first + 2):
        row = text_line.removesuffix("\r").split("\t")
        if not any(f.strip() for f in row):
            continue
        if "\r" in text_line[:-1]:  # one row to us, two lines to score_mqm's open()
            col = next(h for h, f in zip(header, row, strict=False) if "\r" in f)
            raise StatsInputError(
                f"{label}, line {line_num}, column {col}: a carriage return inside the field; "
                "mt-metrics-eval's score_mqm reads it as a line break (splitting the row): "
                "remove it"
            )
        if len(row) != len(header):
            raise StatsInputError(
                f"{label}, line {line_num}: {len(row)} field(s), the header has {len(header)}"
            )
        rows.append(row)
        lines.append(line_num)
    if not rows:
        raise StatsInputError(f"{label}: no MQM rows after the header")
    raw = pd.DataFrame(rows, columns=header)
    raw = raw.loc[:, ~raw.columns.duplicated()]
    line = np.asarray(lines, dtype=np.int64)
    return _ratings(_coded_frame(raw, line, arrow=False), header, label, lp, weights, marot)


def _checked_header(text: str, line: str, label: str, first: int) -> list[str]:
    """The header fields of an MQM file (:func:`_header` of ``text``), lower-cased with
    Marot's names as ours; refused when a required column is missing or a column of its first
    non-blank ``line`` (at 0-based ``first``) appears twice."""
    header = _header(text)
    missing = [c for c in MQM_COLUMNS if c not in header]
    if missing:
        raise StatsInputError(
            f"{label}: not an MQM file: the header lacks {', '.join(missing)} (expected "
            f"{' '.join(MQM_COLUMNS)}, or Marot's globalSegId for seg_id; tab-separated)"
        )
    check_header_once(line.rstrip("\r").split("\t"), label, first + 1)
    return header


def _is_marot(line: str) -> bool:
    return "globalsegid" in [f.strip().lower() for f in line.rstrip("\r").split("\t")]


#: the columns :func:`_ratings` reads (``domain`` when the file has one)
_USED = ("system", "doc", "seg_id", "rater", "category", "severity", "domain")


@dataclass(frozen=True)
class _Coded:
    """An MQM file's rows as codes: per used column, each row's code into its distinct
    spellings (``names``, in order of first appearance), and each row's line."""

    columns: dict  #: column -> (int64 codes, object array of the distinct spellings)
    line: np.ndarray
    n_rows: int
    #: whether the cells were pyarrow strings (stripped as pyarrow strips) or Python's
    arrow: bool = True

    def values(self, col: str) -> np.ndarray:
        """The column's spelling on every row (for the rare paths that need them all)."""
        codes, names = self.columns[col]
        return names[codes]


def _coded_columns(data: bytes, header: list[str]) -> _Coded | None:
    """The used columns of a plain MQM file (:func:`~._arrow.plain_bytes`) parsed from its
    bytes by pyarrow (tabs split fields, ``\n`` ends a row, no quoting; the texts not
    converted) and encoded (:func:`~._arrow.coded`); None when a row is not as wide as the
    header, a line is blank or there is no row (the line-by-line reader names it)."""
    if len(set(header)) != len(header):
        return None
    from ._arrow import LARGE_BLOCK, coded, read_typed

    names = [f"c{i}" for i in range(len(header))]
    used = [names[header.index(c)] for c in _USED if c in header]
    table = read_typed(data, names, dict.fromkeys(names, "str"), skip_rows=1,
                       blank_lines=False, include=used, block=LARGE_BLOCK, threads=True)
    if table is None or not table.num_rows:
        return None
    # the columns encoded at once, on the cores the parser used
    found = in_threads(lambda c: coded(table.column(c)), used)
    columns = {header[names.index(c)]: f for c, f in zip(used, found, strict=True)}
    n = table.num_rows
    return _Coded(columns=columns, line=np.arange(2, n + 2, dtype=np.int64), n_rows=n)


def _columns(text: str, header: list[str]) -> pd.DataFrame | None:
    """The rows of an MQM file read by columns (pyarrow's parser: tabs split fields, ``\n``
    ends a row, no quoting, each field a pyarrow string, no Python object per cell), when
    the file is plain: no carriage return, no blank line, every row as wide as the header;
    None otherwise (the line-by-line reader then reads it, naming what is wrong)."""
    if "\r" in text or len(set(header)) != len(header):
        return None
    from ._arrow import TextStream, read_typed

    names = [f"c{i}" for i in range(len(header))]
    # large strings: as pandas' str holds them (each column as parsed, no cast of every cell)
    table = read_typed(TextStream(text), names, dict.fromkeys(names, "large"), skip_rows=1,
                       blank_lines=False)
    if table is None or not table.num_rows:
        return None
    dtype = pd.StringDtype("pyarrow", na_value=np.nan)
    return pd.DataFrame({
        h: pd.array(table.column(c), dtype=dtype)
        for h, c in zip(header, names, strict=True)
    })


def _coded_frame(raw: pd.DataFrame, line: np.ndarray, *, arrow: bool) -> _Coded:
    """The rows read as a frame of strings (pyarrow's when ``arrow``), as codes."""
    columns = {}
    for col in _USED:
        if col in raw:
            codes, names = codes_and_names(raw[col])
            columns[col] = (codes, np.array(names, dtype=object))
    return _Coded(columns=columns, line=line, n_rows=len(raw), arrow=arrow)


def _strip(names: np.ndarray, arrow: bool) -> np.ndarray:
    """Each of ``names`` stripped as a column of pyarrow strings (``arrow``) or of Python
    strings strips it."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not arrow or not len(names):
        return np.array([str(v).strip() for v in names], dtype=object)
    cells = pa.array(list(names), type=pa.string())
    return np.array(pc.utf8_trim_whitespace(cells).to_pylist(), dtype=object)


def _stripped(names: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct spellings stripped as pandas' pyarrow strings strip them: each spelling's code
    into the distinct stripped names (first appearance order) and those names."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if not len(names):
        return np.zeros(0, dtype=np.int64), names
    out = pc.utf8_trim_whitespace(pa.array(list(names), type=pa.string())).to_pylist()
    merged, distinct = pd.factorize(np.array(out, dtype=object))
    return merged.astype(np.int64), np.asarray(distinct, dtype=object)


def _ratings(cols: _Coded, header: list[str], label: str, lp, weights,
             marot: bool) -> HumanRatings:
    """One rating per rater and item from an MQM file's rows (``cols``: codes of the names
    and each row's line): weights summed per (lp, domain, system, doc, seg_id, rater), on
    integer codes of the names (no Python string per row)."""
    line = cols.line
    for col in ("system", "doc", "seg_id", "rater"):
        codes, names = cols.columns[col]
        blank = _strip(names, cols.arrow) == ""
        if blank.any():
            i = int(np.flatnonzero(blank[codes])[0])
            raise StatsInputError(f"{label}, line {line[i]}, column {col}: empty value")
    rule = _resolve(weights)
    # weighed once per distinct (severity, category) pair, as spelled
    sev_codes, sev_names = cols.columns["severity"]
    cat_codes, cat_names = cols.columns["category"]
    pair_codes, pairs = pd.factorize(sev_codes * max(len(cat_names), 1) + cat_codes)
    usev = [sev_names[k // max(len(cat_names), 1)] for k in pairs.tolist()]
    ucat = [cat_names[k % max(len(cat_names), 1)] for k in pairs.tolist()]
    weight = mqm_weight(usev, ucat, rule)[pair_codes]
    unknown = np.isnan(weight)
    if unknown.any():
        i = int(np.flatnonzero(unknown)[0])
        raise StatsInputError(
            f"{label}, line {line[i]}, column severity: {sev_names[sev_codes[i]]!r} is not "
            f"a severity the WMT24 organisers' tools.py weighs ({', '.join(_WMT24_SEVERITIES)})"
        )
    found = lp or language_pair_of(label)
    pair = found or NO_LP
    cat_stripped = pd.Series(_strip(cat_names, cols.arrow), dtype=_STR if cols.arrow else object)
    present = np.flatnonzero(np.bincount(cat_codes, minlength=len(cat_names)))
    if is_source_error(cat_stripped).to_numpy()[present].all():
        return source_error_ratings(cols.values("system"), cat_stripped.to_numpy()[cat_codes],
                                    cols.values("severity"), label=label, lp=pair,
                                    n_fields=len(header))
    notes = []
    zero = _unmatched(usev, ucat, rule)[pair_codes]
    if zero.any():
        seen, at = np.unique(sev_codes[zero], return_index=True)
        counts = np.bincount(sev_codes[zero], minlength=len(sev_names))
        listed = ", ".join(f"{sev_names[s]!r} ({counts[s]:,} rows)"
                           for s in seen[np.argsort(at, kind="stable")].tolist())
        notes.append(f"severities without a weight scored 0, as score_mqm does: {listed}")
    errors = np.flatnonzero((cat_stripped.str.lower() != "no-error").to_numpy())
    distinct = pd.unique(cat_stripped.to_numpy()[np.intersect1d(present, errors)])
    if len(distinct) == 1:
        notes.append(
            f"every error row of {label} has category {distinct[0]!r}: its scores weigh that "
            "one category only"
        )
    has_domain = "domain" in header
    # one rating per (domain, system, doc, seg_id, rater), in order of first appearance (as
    # groupby(sort=False)): the weights summed, the line of its first row kept
    key_columns = {"domain": "domain", "system": "system", "document": "doc",
                   "segment": "seg_id", "rater": "rater"}
    if not has_domain:
        key_columns.pop("domain")
    codes, size, coded = None, 1, {}
    for out_col, col in key_columns.items():
        raw_codes, raw_names = cols.columns[col]
        merged, names = _stripped(raw_names)
        # (no two spellings merged by the stripping: the codes as they are)
        k = raw_codes if (merged == np.arange(len(merged))).all() else merged[raw_codes]
        coded[out_col] = (k, list(names))
        codes, size = (k.copy(), len(names)) if codes is None else mix_codes(
            codes, size, k, len(names))
    group = _groups(codes, size)
    n_groups = int(group.max()) + 1
    # (groups numbered in order of first appearance: a row opens one when its number passes
    # every number before it)
    opens = np.empty(len(group), dtype=bool)
    opens[0] = True
    np.greater(group[1:], np.maximum.accumulate(group)[:-1], out=opens[1:])
    first_row = np.flatnonzero(opens)
    total = np.bincount(group, weights=weight, minlength=n_groups)
    frame = pd.DataFrame({"lp": repeated(pair, n_groups)})
    frame["domain"] = (_taken(*coded["domain"], first_row) if has_domain
                       else repeated(NO_DOMAIN, n_groups))
    # the name columns built at once, on the cores the parser used
    taken = in_threads(lambda c: _taken(*coded[c], first_row),
                       ("system", "document", "segment", "rater"))
    for out_col, column in zip(("system", "document", "segment", "rater"), taken, strict=True):
        frame[out_col] = column
    frame["score"] = -total
    frame[LINE] = line[first_row]
    if isinstance(rule, str):
        how = "the WMT24 organisers' tools.py weights"
    elif rule is MTME_WEIGHTS:
        how = "score_mqm.py's default weights"
    else:
        how = "the weights " + " ".join(f"{k}:{v:g}" for k, v in rule.items())
    layout = "Marot export (globalSegId)" if marot else "Google/MTME layout (seg_id)"
    where = "" if lp else (f", {pair} from the file name" if found else f", {pair}")
    read_as = (
        f"read as MQM error spans, {layout}, {len(header)} fields, {cols.n_rows:,} rows -> "
        f"{len(frame):,} ratings by {frame['rater'].nunique()} raters, scored with {how}{where}"
    )
    if marot:
        read_as += "; a documents file's line is globalSegId - 1 (WMT24's tools.py)"
    return HumanRatings(
        frame=frame, name=label, protocol="MQM", has_domains=has_domain, read_as=read_as,
        notes=tuple(notes), line_offset=-1 if marot else 0,
    )  # fmt: skip


def _groups(codes: np.ndarray, size: int) -> np.ndarray:
    """``pd.factorize(codes)[0]`` (each row's group, numbered in order of first appearance) of
    keys below ``size``. The rows of one rating are usually adjacent: when every run of equal
    keys holds a key no other run has (told by marking each run's key in an array of
    ``size`` flags, kept within 16 bytes a row), the groups are the runs, counted, without a
    hash of every row."""
    n = len(codes)
    if n and size <= 16 * n + 1024:
        starts = np.empty(n, dtype=bool)
        starts[0] = True
        np.not_equal(codes[1:], codes[:-1], out=starts[1:])
        run_keys = codes[starts]
        seen = np.zeros(size, dtype=bool)
        seen[run_keys] = True
        if np.count_nonzero(seen) == len(run_keys):
            return np.cumsum(starts, dtype=np.intp) - 1
    return pd.factorize(codes)[0]


def _taken(codes: np.ndarray, names: list, rows: np.ndarray):
    """The names of ``rows`` as a column of pyarrow strings (built by pyarrow from the
    codes, no Python string per row)."""
    import pyarrow as pa

    if len(names) == 1:  # one name (a file's one document): two buffers, no take per row
        return repeated(str(names[0]), len(rows))
    cells = pa.array(names, type=pa.large_string()).take(pa.array(codes[rows]))
    return pd.array(cells, dtype=_STR)


def source_error_ratings(
    system, category, severity, *, label: str, lp: str, n_fields: int | None = None
) -> HumanRatings:
    """A file of source-error annotations only, as what it holds: no ratings (an empty
    ``frame``), protocol :data:`~stats.readers.mqm.MQM_SOURCE_ERRORS`, ``read_as`` naming
    its rows, systems, categories and severities, ``notes`` the same in one short line."""
    system = pd.Series(np.asarray(system, dtype=object)).str.strip()
    severity = pd.Series(np.asarray(severity, dtype=object)).fillna("").str.strip()
    category = pd.Series(np.asarray(category, dtype=object)).fillna("").str.strip()
    by_severity = ", ".join(f"{s or '(none)'} {n:,}" for s, n in severity.value_counts().items())
    cats = ", ".join(repr(c) for c in category.unique()[:3])
    fields = f", rows of {n_fields} fields" if n_fields else ""
    read_as = (
        f"read as Google's MQM source-error file: {len(system):,} rows, all category {cats} "
        f"(errors in the source text, marked on the translations; severities {by_severity}) "
        f"of {system.nunique()} systems in {lp}{fields}; no MQM ratings: not ranked"
    )
    empty = pd.DataFrame({c: pd.Series(dtype=object) for c in
                          ("lp", "domain", "system", "document", "segment", "rater")})
    empty["score"] = pd.Series(dtype=float)
    empty[LINE] = pd.Series(dtype=np.int64)
    short = (
        f"Google's MQM source-error file, {len(system):,} source-error rows of "
        f"{system.nunique()} systems, no ratings: not ranked"
    )
    return HumanRatings(frame=empty, name=label, protocol=MQM_SOURCE_ERRORS, read_as=read_as,
                        notes=(short,))
