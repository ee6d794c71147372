"""Readers for quality-estimation (QE) data: sentence-level predictions of several systems and
the gold labels they are evaluated against.

Three layouts are read, and :func:`read_qe` tells them apart by themselves:

``long``
    A header row ``METRIC SID SCORE RANK HUMAN`` (whitespace, tab or comma separated; column
    order free, ``RANK`` optional and ignored), one row per system and sentence. ``METRIC`` is
    the system name and ``HUMAN`` the gold label, which must agree for a sentence across
    systems. This is the input of the reference tool of Graham (2015),
    https://github.com/ygraham/mt-qe-eval.
``wmt``
    WMT QE shared-task submission files, no header, tab separated::

        <METHOD NAME>  <SEGMENT NUMBER>  <SEGMENT SCORE>  <SEGMENT RANK>

    one file per system (a file holding several method names is split by name, each method
    scoring the same sentences; a method name that changes for some lines is an error naming
    the line), plus a
    separate gold file with either one label per line or ``SID LABEL`` per line (an optional
    header line is skipped). Gold labels given one per line get the ids 1..n, or 0..n-1 when
    the submissions number their segments from 0.
``wide``
    A delimited table with a header ``sid, gold, <system 1>, <system 2>, ...`` (the id column
    may also be called ``id`` or ``segment``, the gold column ``human`` or ``label``).

Whatever the layout, the result is a :class:`QEData`: gold labels as a Series indexed by
sentence id and predictions as a DataFrame (sentence id x system), aligned row for row.
Sentence ids are strings; ids that are integers are normalised (``"007"`` -> ``"7"``) and the
rows are then sorted numerically, otherwise they keep the order of the file.

Errors (all :class:`~stats.StatsInputError`, one line naming the file, line, system or ids):
an unrecognised layout, a missing column, wrong field counts, non-numeric or non-finite
values, the same sentence id twice for one system, systems (or gold) with different numbers
of sentences or different sentence ids (the differing ids are named), conflicting gold labels
for a sentence in the long layout, constant gold labels, and -- unless ``allow_constant=True``
-- a system whose predictions are all equal.

**Constant predictions.** Pearson r (and so the Williams test and the standardisation used by
the rescaling experiment) is undefined for a system that predicts one value for every
sentence. By default the reader rejects such a file with an error naming the system and the
value, because every headline number of a QE evaluation would be missing for it. With
``allow_constant=True`` the system is kept; the statistics in :mod:`stats.qe.graham` then report
NaN for its undefined quantities with a :class:`~stats.DegenerateInputWarning`, while MAE and
RMSE, which are defined, are reported as usual.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.budget import MAX_SYSTEMS
from stats._core.columnwise import constant_columns
from stats._core.errors import StatsInputError

from ._arrow import plain_bytes
from ._common import (
    LINE,
    Decoded,
    Source,
    codes_and_names,
    decode,
    first_repeat,
    iter_splitlines,
    leading_lines,
    load_bytes,
    load_text,
    name_list,
    read_table,
    source_name,
    spells_number,
    split_lines,
    to_float,
    wrong_file_hint,
)
from ._limits import check_header_width
from ._qe_plain import (
    normal_ints,
    plain_head,
    plain_long,
    plain_post_edit,
    plain_wide,
)

__all__ = [
    "QEData",
    "read_qe",
    "read_qe_gold",
    "read_post_edit",
    "qe_file_kind",
    "split_qe_files",
    "QE_FORMATS",
]

#: layouts understood by :func:`read_qe`
QE_FORMATS = ("auto", "long", "wmt", "wide")

_ID_NAMES = ("sid", "id", "segment", "seg", "segid", "segment_id", "sentence")
_GOLD_NAMES = ("gold", "human", "label")
_INT = re.compile(r"[+-]?\d+")
_MIN_SENTENCES = 4  # the Williams test has n - 3 degrees of freedom
#: pandas' string dtype held by pyarrow (no Python object per row)
_STR = pd.StringDtype("pyarrow", na_value=np.nan)


@dataclass(frozen=True, kw_only=True)
class QEData:
    """QE predictions of several systems and the gold labels, aligned by sentence id.

    Attributes
    ----------
    gold : pandas.Series
        Gold labels (float), indexed by sentence id (``str``, index name ``"sid"``).
    predictions : pandas.DataFrame
        Predictions (float), same index as ``gold``, one column per system in file order.
    format : str
        ``"long"``, ``"wmt"`` or ``"wide"``: the layout that was read.
    source : str
        Display name of the file(s) read.
    read_as : str
        What the file(s) were read as, in words ("read as Graham 2015 long layout ...").
    """

    gold: pd.Series
    predictions: pd.DataFrame
    format: str
    source: str
    read_as: str = ""

    @property
    def systems(self) -> tuple[str, ...]:
        """System names in file order."""
        return tuple(str(c) for c in self.predictions.columns)

    @property
    def n(self) -> int:
        """Number of sentences."""
        return int(len(self.gold))


# ---------------------------------------------------------------- helpers


def _norm_ids(values) -> np.ndarray:
    """Sentence ids as strings; integer ids lose leading zeros and '+' signs (vectorised)."""
    s = pd.Series(np.asarray(values, dtype=object)).astype(str)
    arrow = s.astype(_STR)
    if arrow.str.isascii().all():  # pyarrow's RE2 (ASCII digits, as Python's \d on ASCII)
        arrow = arrow.str.strip()
        ints = arrow.str.fullmatch(r"[+-]?\d+")
        if ints.any():
            norm = (
                arrow[ints]
                .str.replace(r"^\+", "", regex=True)
                .str.replace(r"^(-?)0+(\d)", r"\1\2", regex=True)
                .replace("-0", "0")
            )
            arrow = arrow.where(~ints, norm)
        return arrow.to_numpy(dtype=object)
    s = s.str.strip()
    ints = s.str.fullmatch(r"[+-]?\d+")
    if ints.any():
        norm = (
            s[ints]
            .str.replace(r"^\+", "", regex=True)
            .str.replace(r"^(-?)0+(?=\d)", r"\1", regex=True)
            .replace("-0", "0")
        )
        s = s.where(~ints, norm)
    return s.to_numpy(dtype=object)


def _ordered(ids: Sequence[str]) -> list[str]:
    """Unique ids, sorted numerically when all are integers, else in first-seen order."""
    uniq = list(dict.fromkeys(ids))
    if len(uniq) > 64:  # many: told and sorted by arrays when all are short ASCII integers
        spelled = pd.Series(uniq, dtype=_STR)
        if (spelled.str.isascii().all() and spelled.str.len().max() <= 18
                and spelled.str.fullmatch(r"[+-]?[0-9]+").all()):
            try:
                numbers = spelled.astype(np.int64).to_numpy()
            except (ValueError, TypeError, OverflowError):
                numbers = None
            if numbers is not None:
                return [uniq[k] for k in np.argsort(numbers, kind="stable").tolist()]
    if uniq and all(_INT.fullmatch(i) for i in uniq):
        uniq.sort(key=int)
    return uniq


def _coded_ids(frame: pd.DataFrame, column: str, label: str) -> tuple[list[str], np.ndarray]:
    """(distinct ids, each row's code): a sentence-id column normalised on its distinct
    spellings only (:func:`_norm_ids`), refused when an id is given twice (naming both
    lines), on integer codes (no Python string per row)."""
    raw_codes, raw_ids = codes_and_names(frame[column].astype(_STR))
    merged, distinct = pd.factorize(_norm_ids(raw_ids))
    code = merged[raw_codes]
    ids = [str(i) for i in distinct]
    lines = frame[LINE].to_numpy()
    dup = pd.Series(code).duplicated().to_numpy()
    if dup.any():
        i = int(np.flatnonzero(dup)[0])
        first = int(np.flatnonzero(code == code[i])[0])
        raise StatsInputError(
            f"{label}, line {int(lines[i])}: the file has sentence id {ids[code[i]]!r} twice "
            f"(first on line {int(lines[first])})"
        )
    return ids, code


def _id_order(ids: list[str], code: np.ndarray) -> np.ndarray:
    """The rows in the order :func:`_ordered` gives their (distinct) ids ``ids[code]``:
    numerically when every id is an integer, else as in the file."""
    spelled = pd.Series(ids, dtype=object)
    ascii_ids = spelled.astype(_STR)
    if not ascii_ids.str.isascii().all():
        ascii_ids = spelled  # Python's \d: any script's digits, as _ordered
    if not len(ids) or not ascii_ids.str.fullmatch(r"[+-]?\d+").all():
        return np.arange(len(code))
    try:
        numbers = (spelled.astype(np.int64).to_numpy()
                   if ascii_ids.str.len().max() <= 18 else None)
    except (ValueError, OverflowError):
        numbers = None
    if numbers is None:  # beyond int64, or digits numpy does not read: Python's integers
        by_name = {name: k for k, name in enumerate(_ordered(ids))}
        rank = np.array([by_name[name] for name in ids], dtype=np.int64)
        return np.argsort(rank[code], kind="stable")
    return np.argsort(numbers[code], kind="stable")


def _check_duplicates(ids: np.ndarray, lines: np.ndarray, label: str, who: str) -> None:
    ids = np.asarray(ids, dtype=object)
    codes, _ = pd.factorize(ids, use_na_sentinel=False)  # a missing id is a value too
    dup = pd.Series(codes).duplicated().to_numpy()
    if dup.any():
        i = int(np.flatnonzero(dup)[0])
        first = int(np.flatnonzero(codes == codes[i])[0])
        raise StatsInputError(
            f"{label}, line {int(lines[i])}: {who} has sentence id {ids[i]!r} twice "
            f"(first on line {int(lines[first])})"
        )


def _check_duplicates_by_system(long: pd.DataFrame, label: str) -> None:
    """The same (system, sentence id) twice -> error naming both lines (vectorised)."""
    dup = long.duplicated(["system", "sid"]).to_numpy()
    if dup.any():
        i = int(np.flatnonzero(dup)[0])
        system, sid = long["system"].iat[i], long["sid"].iat[i]
        same = (long["system"].to_numpy() == system) & (long["sid"].to_numpy() == sid)
        first = int(np.flatnonzero(same)[0])
        raise StatsInputError(
            f"{label}, line {int(long[LINE].iat[i])}: system {system!r} has sentence id "
            f"{sid!r} twice (first on line {int(long[LINE].iat[first])})"
        )


def _check_systems_ids(long: pd.DataFrame, ref: list[str], ref_who: str, *, who, where) -> None:
    """Every system of ``long`` (no duplicate ids) must have exactly the ids in ``ref``.

    Vectorised: a system passes when it has ``len(ref)`` rows all of whose ids are in
    ``ref``; only a failing system is examined in detail (:func:`_compare_ids`).
    """
    in_ref = long["sid"].isin(set(ref))
    grouped = in_ref.groupby(long["system"], sort=False)
    ok = (grouped.size() == len(set(ref))) & grouped.all()
    for system in ok.index[~ok.to_numpy()][:1]:
        ids = long.loc[long["system"] == system, "sid"].tolist()
        _compare_ids(ref, ref_who, ids, who(system), where(system))


def _compare_ids(ref: list[str], ref_who: str, other: Sequence[str], who: str, label: str) -> None:
    """Raise if ``other`` does not hold exactly the ids ``ref`` holds, naming the differences."""
    ref_set, other_set = set(ref), set(other)
    if ref_set == other_set:
        return
    missing = [i for i in ref if i not in other_set]
    extra = [i for i in _ordered(other) if i not in ref_set]
    parts = []
    if len(ref_set) != len(other_set):
        parts.append(f"{ref_who} has {len(ref_set)} sentences but {who} has {len(other_set)}")
    if missing:
        parts.append(f"{who} lacks sentence id(s) {name_list(missing)} that {ref_who} has")
    if extra:
        parts.append(f"{who} has sentence id(s) {name_list(extra)} that {ref_who} lacks")
    raise StatsInputError(f"{label}: sentence ids do not match: " + "; ".join(parts))


def _finish(
    gold: pd.Series,
    long: pd.DataFrame,
    systems: list[str],
    *,
    label: str,
    fmt: str,
    gold_who: str,
    allow_constant: bool,
) -> QEData:
    """Check ids per system against the gold ids and pivot ``long`` (system, sid, score)."""
    ref = list(gold.index)
    _check_systems_ids(long, ref, gold_who, who=lambda s: f"system {s!r}", where=lambda s: label)
    if len(ref) < _MIN_SENTENCES:
        raise StatsInputError(f"{label}: needs at least {_MIN_SENTENCES} sentences; got {len(ref)}")
    wide = long.pivot(index="sid", columns="system", values="score")
    wide = wide.reindex(index=ref, columns=systems)
    wide.index.name = "sid"
    wide.columns.name = None
    gold = gold.astype(float).rename("gold")
    gold.index.name = "sid"
    return _validated(gold, wide.astype(float), label=label, fmt=fmt, allow_constant=allow_constant)


def _validated(
    gold: pd.Series, preds: pd.DataFrame, *, label: str, fmt: str, allow_constant: bool
) -> QEData:
    if not len(preds.columns):
        raise StatsInputError(f"{label}: no system predictions found")
    g = gold.to_numpy()
    if constant_columns(g):
        raise StatsInputError(
            f"{label}: every gold label is {g[0]:g}; correlations with constant gold labels "
            "are undefined"
        )
    if not allow_constant:
        values = preds.to_numpy()
        const = constant_columns(values)
        if const.any():
            j = int(np.flatnonzero(const)[0])
            raise StatsInputError(
                f"{label}: system {preds.columns[j]!r} predicts {values[0, j]:g} for every "
                "sentence; its Pearson r is undefined: remove the system, or keep constant "
                "systems with undefined correlations (allow_constant=True)"
            )
    return QEData(gold=gold, predictions=preds, format=fmt, source=label)


# ---------------------------------------------------------------- sniffing


def _first_line(text: str) -> str:
    for ln in iter_splitlines(text):  # (one line at a time: no list of every line)
        if ln.strip() and not ln.lstrip().startswith("#"):
            return ln
    return ""


def _data_lines(text: str, limit: int = 4) -> list[str]:
    out = []
    for ln in iter_splitlines(text):
        if ln.strip() and not ln.lstrip().startswith("#"):
            out.append(ln)
            if len(out) >= limit:
                break
    return out


def _kind(text: str) -> str | None:
    """The kind of QE-related file ``text`` is, judged from its first lines, or None."""
    first = _first_line(text)
    if "\t" in first:
        fields = [f.strip() for f in first.split("\t")]
    elif "," in first:
        fields = [f.strip() for f in first.split(",")]
    else:
        fields = first.split()
    low = [f.lower() for f in fields]
    if {"metric", "sid", "score", "human"} <= set(low):
        return "long"
    if len(low) >= 3 and low[0] in _ID_NAMES and {"time", "words"} <= set(low):
        return "post_edit"
    if len(low) >= 3 and low[0] in _ID_NAMES and any(f in _GOLD_NAMES for f in low[1:]):
        return "wide"
    ws = first.split("\t") if "\t" in first else first.split()
    if len(ws) in (3, 4) and spells_number(ws[1].strip()) and spells_number(ws[2].strip()):
        return "wmt"
    lines = _data_lines(text)
    if lines and not spells_number((lines[0].replace(",", " ").split() or [""])[-1]):
        lines = lines[1:]  # a header line of a gold file
    if lines and all(
        len(ln.replace(",", " ").split()) in (1, 2) and spells_number(ln.replace(",", " ").split()[-1])
        for ln in lines
    ):
        return "gold"
    return None


def _wrong_file(text: str, label: str, expected: str) -> str:
    """'; is this a plain-text file? ...' / '; this looks like <other input>' or ''."""
    try:
        head, rows, _ = split_lines(text, label)
    except StatsInputError:  # empty, or a single line: nothing more to say
        return ""
    return wrong_file_hint(head, rows, expected=expected)


def _unrecognised(text: str, label: str) -> StatsInputError:
    """The error for a file that is no QE layout (quoting its first line)."""
    return StatsInputError(
        f"{label}: unrecognised QE file layout (first line {_first_line(text).strip()[:60]!r}); "
        "expected a header 'METRIC SID SCORE RANK HUMAN', a header 'sid,gold,<system>,...', "
        "or WMT submission lines '<METHOD NAME><TAB><SEGMENT NUMBER><TAB><SEGMENT SCORE>"
        "<TAB><SEGMENT RANK>'" + _wrong_file(text, label, "QE predictions")
    )


def qe_file_kind(source: Source, *, name: str | None = None) -> str:
    """Recognise a QE-related file from its first lines.

    Returns
    -------
    str
        ``'long'``, ``'wide'``, ``'wmt'`` (a submission file), ``'gold'`` (one label per line
        or ``SID LABEL``) or ``'post_edit'`` (header ``SID TIME WORDS ...``).

    Raises
    ------
    StatsInputError
        The file is none of these (naming the file and quoting its first line).
    """
    text, label = load_text(source, name)
    kind = _kind(text)
    if kind is None:
        raise _unrecognised(text, label)
    return kind


def split_qe_files(
    sources: Sequence[Source], *, names: Sequence[str | None] | None = None
) -> tuple[list[tuple[bytes, str]], tuple[bytes, str] | None, tuple[bytes, str] | None]:
    """Sort several files (e.g. one upload of many) into QE data, gold and post-edit files.

    Returns ``(data, gold, post_edit)`` as ``(bytes, display name)`` pairs (``gold`` and
    ``post_edit`` may be None), ready for :func:`read_qe` and :func:`read_post_edit`.

    Raises
    ------
    StatsInputError
        An unrecognised file, two gold files, two post-edit files, no prediction file, or a
        mix of layouts (e.g. a long file and WMT submissions).
    """
    names = list(names) if names is not None else [None] * len(sources)
    data: list[tuple[bytes, str, str]] = []
    gold = post = None
    for src, nm in zip(sources, names, strict=True):
        raw, label = load_bytes(src, nm)
        kind = qe_file_kind(raw, name=label)
        if kind == "gold":
            if gold is not None:
                raise StatsInputError(f"{label}: a second gold-label file (the first is {gold[1]})")
            gold = (raw, label)
        elif kind == "post_edit":
            if post is not None:
                raise StatsInputError(
                    f"{label}: a second post-editing table (the first is {post[1]})"
                )
            post = (raw, label)
        else:
            data.append((raw, label, kind))
    if not data:
        what = "a gold-label file" if gold else "a post-editing table" if post else "nothing"
        raise StatsInputError(
            f"no QE predictions among the files (found {what}); add the systems' prediction files"
        )
    kinds = {k for _, _, k in data}
    if len(kinds) > 1:
        desc = ", ".join(f"{lab} ({k})" for _, lab, k in data)
        raise StatsInputError(f"files of different QE layouts cannot be combined: {desc}")
    return [(b, lab) for b, lab, _ in data], gold, post


def _sniff(text: str, label: str) -> str:
    kind = _kind(text)
    if kind == "post_edit":
        raise StatsInputError(
            f"{label}: this is a post-editing table (SID TIME WORDS ...), not QE predictions; "
            "give it together with the prediction files as the post-editing table "
            "(post_edit=FILE)"
        )
    if kind == "gold":
        raise StatsInputError(
            f"{label}: this looks like a gold-label file (one label, or SID LABEL, per line); "
            "give it together with the systems' prediction files as the gold labels "
            "(gold=FILE)"
        )
    if kind is None:
        raise _unrecognised(text, label)
    return kind


def _sniff_bytes(data: bytes, label: str) -> str:
    """:func:`_sniff` of a file's bytes: judged from its first lines alone when they tell a
    long or wide layout (its reader decodes or checks the whole file, and refuses it as the
    whole decoded file would be refused), else from the whole decoded file."""
    cut = 0  # the end of the first 64 lines, or of the file when it is shorter
    for _ in range(64):
        end = data.find(b"\n", cut, 1 << 20)
        if end < 0:
            cut = len(data) if len(data) <= 1 << 20 else cut
            break
        cut = end + 1
    if cut > 0 and data.find(b"\x00", 0, cut) < 0:  # (NULs: UTF-16 without a BOM)
        try:
            head = data[:cut].decode("utf-8")
        except UnicodeDecodeError:
            head = None
        if head is not None and len(_data_lines(head, 5)) >= 5 and not head.startswith("\ufeff"):
            kind = _kind(head)
            if kind in ("long", "wide"):
                return kind
    return _sniff(decode(data, label), label)


# ---------------------------------------------------------------- layouts


def _read_long(source: Source, name: str | None, allow_constant: bool) -> QEData:
    data, label = load_bytes(source, name)
    fast = plain_long(data) if plain_bytes(data, careful=b'"#') else None
    if fast is not None:
        delimiter, has_rank, (sys_codes, systems), (raw_codes, raw_ids), score, human = fast
        lines = np.arange(2, len(score) + 2, dtype=np.int64)
    else:
        table = read_table(
            source,
            required=("METRIC", "SID", "SCORE", "HUMAN"),
            optional=("RANK",),
            name=name,
            hint="QE predictions",
            dtype={"SCORE": "float64", "HUMAN": "float64"},
        )
        frame, label, delimiter = table.frame, table.name, table.delimiter
        has_rank = "RANK" in frame
        sys_codes, systems = codes_and_names(frame["METRIC"].astype(_STR))
        raw_codes, raw_ids = codes_and_names(frame["SID"].astype(_STR))
        score = to_float(frame, "SCORE", label)
        human = to_float(frame, "HUMAN", label, what="gold label")
        lines = frame[LINE].to_numpy()
        del frame
    # ids normalised on the distinct spellings only ("007" and "7" are one sentence)
    if normal_ints(raw_ids):  # each spelled as normalised already, each distinct
        sid, ids = np.asarray(raw_codes, dtype=np.int64), [str(i) for i in raw_ids]
    else:
        merged, ids = pd.factorize(_norm_ids(raw_ids))
        sid = merged[raw_codes].astype(np.int64)
        ids = [str(i) for i in ids]
    n_ids = max(len(ids), 1)
    key = sys_codes * n_ids + sid
    cells = len(systems) * n_ids
    i = first_repeat(key, cells)
    if i is not None:
        first = int(np.flatnonzero(key == key[i])[0])
        raise StatsInputError(
            f"{label}, line {int(lines[i])}: system {systems[sys_codes[i]]!r} has sentence id "
            f"{ids[sid[i]]!r} twice (first on line {int(lines[first])})"
        )
    # the gold label of a sentence must be the same on every system's row
    first_row = _first_rows(sid, len(ids))  # first row of each id (codes 0..n-1)
    ref_human = human[first_row[sid]]
    bad = ~np.isclose(human, ref_human, rtol=1e-9, atol=1e-12)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        j = int(first_row[sid[i]])
        raise StatsInputError(
            f"{label}, line {int(lines[i])}: HUMAN for sentence {ids[sid[i]]!r} is "
            f"{human[i]:g} but was {human[j]:g} on line {int(lines[j])}; gold labels must "
            "agree across systems"
        )
    # every system is compared with the first one
    ref_who = f"system {systems[0]!r}"
    ref_ids = _ordered([ids[c] for c in pd.unique(sid[sys_codes == 0]).tolist()])
    position = {c: k for k, c in enumerate(ids)}
    ref_codes = np.array([position[i] for i in ref_ids], dtype=np.int64)
    is_ref = np.zeros(len(ids), dtype=bool)
    is_ref[ref_codes] = True
    in_ref = is_ref[sid]
    held = np.bincount(sys_codes[in_ref], minlength=len(systems))
    total = np.bincount(sys_codes, minlength=len(systems))
    wrong = np.flatnonzero((held != len(ref_ids)) | (total != len(ref_ids)))
    if wrong.size:
        j = int(wrong[0])
        _compare_ids(ref_ids, ref_who, [ids[c] for c in sid[sys_codes == j].tolist()],
                     f"system {systems[j]!r}", label)
    if len(ref_ids) < _MIN_SENTENCES:
        raise StatsInputError(
            f"{label}: needs at least {_MIN_SENTENCES} sentences; got {len(ref_ids)}"
        )
    row_of = np.full(len(ids), -1, dtype=np.int64)
    row_of[ref_codes] = np.arange(len(ref_codes))
    values = np.full((len(ref_ids), len(systems)), np.nan)
    values[row_of[sid], sys_codes] = score
    index = pd.Index(ref_ids, name="sid")
    wide = pd.DataFrame(values, index=index, columns=pd.Index(systems), copy=False)
    gold = pd.Series(human[first_row[ref_codes]], index=index, name="gold")
    read = _validated(gold, wide, label=label, fmt="long", allow_constant=allow_constant)
    columns = "METRIC SID SCORE RANK HUMAN" if has_rank else "METRIC SID SCORE HUMAN"
    return dataclasses.replace(
        read, read_as=_read_as(f"Graham 2015 long layout ({columns})", delimiter, read)
    )


def _first_rows(codes: np.ndarray, n: int) -> np.ndarray:
    """The first row of each of the codes ``0 .. n-1`` (every one present), as
    ``np.unique(codes, return_index=True)[1]``: where the codes are numbered in order of first
    appearance, the rows where a code passes every code before it, without a sort."""
    if len(codes):
        opens = np.empty(len(codes), dtype=bool)
        opens[0] = True
        np.greater(codes[1:], np.maximum.accumulate(codes)[:-1], out=opens[1:])
        first = np.flatnonzero(opens)
        if len(first) == n and (codes[first] == np.arange(n)).all():
            return first
    return np.unique(codes, return_index=True)[1]


def _read_wide(source: Source, name: str | None, allow_constant: bool) -> QEData:
    data, label = load_bytes(source, name)
    plain = plain_head(data) if plain_bytes(data, careful=b'"#') else None
    if plain is not None:  # the header on line 1, the body read by columns from the bytes
        head, delimiter = plain
    else:
        text = source.text if isinstance(source, Decoded) else decode(data, label)
        head, rows, _ = leading_lines(text, label)  # the header only: the body is read_table's
    low = [h.lower() for h in head]
    gold_cols = [i for i, h in enumerate(low) if i > 0 and h in _GOLD_NAMES]
    if not gold_cols:
        raise StatsInputError(
            f"{label}, line 1: no gold column; expected a header 'sid,gold,<system>,...' "
            f"(found {', '.join(head)})"
        )
    gold_col = gold_cols[0]
    check_header_width(len(head) - 2, label, what="systems", limit=MAX_SYSTEMS)  # before the body
    if plain is not None:
        fast = _plain_wide(data, label, head, delimiter, gold_col, allow_constant)
        if fast is not None:
            return fast
    table = read_table(source, required=tuple(head), name=name)
    frame = table.frame
    sys_cols = [h for i, h in enumerate(head) if i not in (0, gold_col)]
    if not sys_cols:
        raise StatsInputError(
            f"{label}, line 1: no system columns after {head[0]!r} and {head[gold_col]!r}"
        )
    ids, code = _coded_ids(frame, head[0], label)
    gold_values = to_float(frame, head[gold_col], label, what="gold label")
    values = np.empty((len(frame), len(sys_cols)))
    for j, c in enumerate(sys_cols):
        values[:, j] = to_float(frame, c, label)
    if len(ids) < _MIN_SENTENCES:
        raise StatsInputError(
            f"{label}: needs at least {_MIN_SENTENCES} sentences; got {len(ids)}"
        )
    rows = _id_order(ids, code)
    index = pd.Index([ids[k] for k in code[rows].tolist()], name="sid")
    gold = pd.Series(gold_values[rows], index=index, name="gold")
    preds = pd.DataFrame(values[rows], index=index, columns=pd.Index(sys_cols), copy=False)
    read = _validated(gold, preds, label=label, fmt="wide", allow_constant=allow_constant)
    layout = f"wide layout ({head[0]}, {head[gold_col]}, one column per system)"
    return dataclasses.replace(read, read_as=_read_as(layout, table.delimiter, read))


def _plain_wide(data: bytes, label: str, head: list[str], delimiter: str, gold_col: int,
                allow_constant: bool) -> QEData | None:
    """:func:`_read_wide` of a plain file whose ids are plain integers and numbers plain, from
    its bytes by columns (:func:`~._qe_plain.plain_wide`); None for anything else."""
    found = plain_wide(data, head, delimiter, gold_col, _MIN_SENTENCES)
    if found is None:
        return None
    gold, preds = found
    qe = _validated(gold, preds, label=label, fmt="wide", allow_constant=allow_constant)
    layout = f"wide layout ({head[0]}, {head[gold_col]}, one column per system)"
    return dataclasses.replace(qe, read_as=_read_as(layout, delimiter, qe))


def _read_as(layout: str, delimiter: str, data: QEData) -> str:
    sep = {"tab": "tab", "csv": "comma", "whitespace": "space"}.get(delimiter, delimiter)
    return (f"read as {layout}, {sep}-separated, {len(data.systems)} systems x "
            f"{data.n} sentences")  # fmt: skip


def _read_submission(source: Source, name: str | None) -> tuple[pd.DataFrame, str]:
    """One WMT QE submission file -> DataFrame(system, sid, score, _line, file)."""
    text, label = load_text(source, name)
    rows = []
    for line_no, ln in enumerate(text.splitlines(), start=1):
        if not ln.strip() or ln.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in ln.rstrip("\r\n").split("\t")] if "\t" in ln else ln.split()
        if len(fields) not in (3, 4):
            raise StatsInputError(
                f"{label}, line {line_no}: expected 4 tab-separated fields (<METHOD NAME> "
                f"<SEGMENT NUMBER> <SEGMENT SCORE> <SEGMENT RANK>), found {len(fields)}"
            )
        rows.append((fields[0], fields[1], fields[2], line_no))
    if not rows:
        raise StatsInputError(f"{label}: file is empty")
    frame = pd.DataFrame(rows, columns=["system", "SEGMENT NUMBER", "SEGMENT SCORE", LINE])
    frame[LINE] = frame[LINE].astype(np.int64)
    out = pd.DataFrame(
        {
            "system": frame["system"].astype(str).to_numpy(dtype=object),
            "sid": _norm_ids(frame["SEGMENT NUMBER"]),
            "score": to_float(frame, "SEGMENT SCORE", label),
            LINE: frame[LINE].to_numpy(),
        }
    )
    out["file"] = label
    _check_duplicates_by_system(out, label)
    _check_methods_of_file(out, label)
    return out, label


def _check_methods_of_file(frame: pd.DataFrame, label: str) -> None:
    """A file holding several method names must give each the same sentences (e.g. complete
    submissions one after another). Otherwise a stray or mistyped method name (``OTHER`` on
    one line of ``baseline``'s file) would surface later as missing sentence ids; this names
    the file and the line where the method name changes instead."""
    methods = list(dict.fromkeys(frame["system"]))
    if len(methods) < 2:
        return
    ids = {m: frozenset(frame.loc[frame["system"] == m, "sid"]) for m in methods}
    if len(set(ids.values())) == 1:
        return
    ref = max(methods, key=lambda m: len(ids[m]))  # the file's main method (first if tied)
    odd = min((m for m in methods if ids[m] != ids[ref]), key=lambda m: len(ids[m]))
    lines = frame[LINE].to_numpy()
    first = {
        m: int(lines[np.flatnonzero((frame["system"] == m).to_numpy())[0]]) for m in (ref, odd)
    }
    raise StatsInputError(
        f"{label}, line {first[odd]}: method {odd!r} differs from {ref!r} on line {first[ref]}; "
        f"one file per system (here {odd!r} scores {len(ids[odd])} sentence(s) and {ref!r} "
        f"{len(ids[ref])}, so they cannot both be complete)"
    )


def read_qe_gold(source: Source, *, name: str | None = None) -> pd.Series:
    """Read a gold-label file: one label per line, or ``SID LABEL`` per line.

    A first line whose last field is not a number is taken as a header and skipped.
    Labels given one per line are indexed ``"1"``, ``"2"``, ... (see :func:`read_qe` for the
    0-based case). Returns a float Series named ``"gold"`` indexed by sentence id.
    """
    return _read_gold(source, name)[0]


def _read_gold(source: Source, name: str | None) -> tuple[pd.Series, bool]:
    """(gold Series, whether the file gave sentence ids)."""
    text, label = load_text(source, name)
    entries: list[tuple[int, list[str]]] = []
    for line_no, ln in enumerate(text.splitlines(), start=1):
        if not ln.strip() or ln.lstrip().startswith("#"):
            continue
        fields = [f.strip() for f in ln.split("\t")] if "\t" in ln else ln.replace(",", " ").split()
        fields = [f for f in fields if f != ""]
        entries.append((line_no, fields))
    if entries and not spells_number(entries[0][1][-1]):
        entries = entries[1:]  # header line
    if not entries:
        raise StatsInputError(f"{label}: no gold labels found")
    width = len(entries[0][1])
    if width not in (1, 2):
        raise StatsInputError(
            f"{label}, line {entries[0][0]}: expected one gold label, or 'SID LABEL', per line; "
            f"found {width} fields" + _wrong_file(text, label, "gold labels")
        )
    for line_no, fields in entries:
        if len(fields) != width:
            raise StatsInputError(
                f"{label}, line {line_no}: expected {width} field(s) like the first line, "
                f"found {len(fields)}"
            )
    if width == 1:
        # labels are matched to segments by position: an empty line inside the list would
        # silently shift every later label, so it is an error (trailing blank lines are fine)
        lines = text.splitlines()
        for line_no in range(entries[0][0], entries[-1][0] + 1):
            if not lines[line_no - 1].strip():
                raise StatsInputError(
                    f"{label}, line {line_no}: empty line in a file of one gold label per line "
                    "(labels are matched to segments by position); remove it or give the label"
                )
    frame = pd.DataFrame([f[-1] for _, f in entries], columns=["LABEL"], dtype=object)
    frame[LINE] = np.array([i for i, _ in entries], dtype=np.int64)
    values = to_float(frame, "LABEL", label, what="gold label")
    if width == 2:
        ids = _norm_ids([f[0] for _, f in entries])
        _check_duplicates(ids, frame[LINE].to_numpy(), label, "the gold file")
    else:
        ids = np.array([str(i) for i in range(1, len(entries) + 1)], dtype=object)
    gold = pd.Series(values, index=pd.Index(ids, name="sid"), name="gold")
    return gold.loc[_ordered(list(ids))], width == 2


def _read_wmt(
    sources: Sequence[Source],
    gold: Source | None,
    names: Sequence[str | None],
    gold_name: str | None,
    allow_constant: bool,
) -> QEData:
    if gold is None:
        label = ", ".join(source_name(s, n) for s, n in zip(sources, names, strict=True))
        raise StatsInputError(
            f"{label}: WMT QE submission files hold no gold labels; give the gold labels too "
            "(a gold file: one label, or SID LABEL, per line; gold=FILE)"
        )
    parts, labels = [], []
    owner: dict[str, str] = {}
    for src, nm in zip(sources, names, strict=True):
        part, label = _read_submission(src, nm)
        for system in dict.fromkeys(part["system"]):
            if system in owner:
                raise StatsInputError(
                    f"{label}: method {system!r} is also in {owner[system]}; each system "
                    "must come from one file"
                )
            owner[system] = label
        parts.append(part)
        labels.append(label)
    long = pd.concat(parts, ignore_index=True)
    systems = list(dict.fromkeys(long["system"]))
    gold_series, has_ids = _read_gold(gold, gold_name)
    gold_label = source_name(gold, gold_name)
    one_per_line = not has_ids
    sub_ids = set(long["sid"])
    n = len(gold_series)
    if one_per_line and sub_ids == {str(i) for i in range(n)}:
        gold_series.index = pd.Index([str(i) for i in range(n)], name="sid")
    label = ", ".join([*labels, gold_label])
    # report mismatches against the gold file, per system, with the system's own file name
    _check_systems_ids(
        long,
        list(gold_series.index),
        f"gold file {gold_label}",
        who=lambda s: f"system {s!r} ({owner[s]})",
        where=lambda s: owner[s],
    )
    data = _finish(
        gold_series,
        long,
        systems,
        label=label,
        fmt="wmt",
        gold_who=f"gold file {gold_label}",
        allow_constant=allow_constant,
    )
    layout = (f"WMT 2014-15 QE submissions (METHOD SEGMENT SCORE RANK, {len(sources)} "
              f"file(s)) with gold labels {gold_label}")  # fmt: skip
    return dataclasses.replace(data, read_as=_read_as(layout, "tab", data))


# ---------------------------------------------------------------- public entry point


def read_qe(
    data: Source | Sequence[Source],
    gold: Source | None = None,
    *,
    format: str = "auto",
    name: str | Sequence[str] | None = None,
    gold_name: str | None = None,
    allow_constant: bool = False,
) -> QEData:
    """Read QE predictions and gold labels in any supported layout into a :class:`QEData`.

    Parameters
    ----------
    data : source or sequence of sources
        One file in the long or wide layout, or one or more WMT QE submission files. A source
        is a path, ``bytes`` or a binary file object (e.g. a Streamlit upload).
    gold : source, optional
        Gold-label file; required for WMT submissions, not allowed for the other layouts
        (they carry their own gold labels).
    format : {'auto', 'long', 'wmt', 'wide'}
        Layout; ``'auto'`` recognises it from the first line of the (first) file.
    name : str or sequence of str, optional
        Display name(s) for error messages (default: the path or the object's ``name``).
    gold_name : str, optional
        Display name of the gold file.
    allow_constant : bool
        Keep systems whose predictions are all equal (their Pearson r is NaN downstream)
        instead of raising.

    Returns
    -------
    QEData

    Raises
    ------
    StatsInputError
        See the module docstring for the full list; every message is one line naming the
        file, line, system or sentence ids concerned.
    """
    if format not in QE_FORMATS:
        raise StatsInputError(f"format must be one of {', '.join(QE_FORMATS)}; got {format!r}")
    if isinstance(data, (list, tuple)):
        sources = list(data)
    else:
        sources = [data]
    if not sources:
        raise StatsInputError("data: no QE file given")
    if isinstance(name, (list, tuple)):
        names = list(name)
        if len(names) != len(sources):
            raise StatsInputError(f"name: got {len(names)} names for {len(sources)} files")
    else:
        names = [name] + [None] * (len(sources) - 1)
    # read every file once: file objects with only read() cannot be read twice
    loaded = [load_bytes(s, n) for s, n in zip(sources, names, strict=True)]
    sources = [b for b, _ in loaded]
    names = [lab for _, lab in loaded]
    if gold is not None:
        gold, gold_name = load_bytes(gold, gold_name)
    fmt = format
    if fmt == "auto":
        fmt = _sniff_bytes(sources[0], names[0])
    if fmt in ("long", "wide"):
        if len(sources) > 1:
            raise StatsInputError(
                f"{source_name(sources[0], names[0])}: a {fmt}-layout file holds all systems; "
                f"got {len(sources)} files (only WMT submission files come one per system)"
            )
        if gold is not None:
            raise StatsInputError(
                f"{source_name(sources[0], names[0])}: this {fmt}-layout file already contains "
                f"gold labels; do not give a separate gold file ({source_name(gold, gold_name)})"
            )
        reader = _read_long if fmt == "long" else _read_wide
        return reader(sources[0], names[0], allow_constant)
    return _read_wmt(sources, gold, names, gold_name, allow_constant)


def read_post_edit(source: Source, *, name: str | None = None) -> pd.DataFrame:
    """Read post-editing data: a header with ``SID``, ``TIME`` (seconds) and ``WORDS`` columns,
    plus any further numeric columns (e.g. ``HTER``), one row per sentence.

    Returns
    -------
    pandas.DataFrame
        Indexed by sentence id (``"sid"``), with float columns ``time``, ``words`` and the
        extra columns (lower-cased names), in file order (numerically sorted for integer ids).

    Raises
    ------
    StatsInputError
        Missing columns, non-numeric values, duplicate ids, or a word count that is not a
        positive number (the post-edit rate ``time / words`` would be undefined).
    """
    data, label = load_bytes(source, name)
    plain = plain_bytes(data, careful=b'"#')
    fast = plain_post_edit(data, _MIN_SENTENCES) if plain else None
    if fast is not None:
        return fast
    del data  # (read_table loads the file itself: not two copies at once)
    table = read_table(
        source,
        required=("SID", "TIME", "WORDS"),
        name=name,
        extra_columns=True,
        hint="a post-editing table",
    )
    frame, label = table.frame, table.name
    ids, code = _coded_ids(frame, "SID", label)
    out = {"time": to_float(frame, "TIME", label, what="post-edit time")}
    words = to_float(frame, "WORDS", label, what="word count")
    bad = words <= 0
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise StatsInputError(
            f"{label}, line {int(frame[LINE].iat[i])}, column WORDS: word count must be "
            f"positive; got {frame['WORDS'].iat[i]!r}"
        )
    out["words"] = words
    for col in frame.columns:
        if col not in ("SID", "TIME", "WORDS", LINE):
            out[col.lower()] = to_float(frame, col, label)
    if (out["time"] < 0).any():
        i = int(np.flatnonzero(out["time"] < 0)[0])
        raise StatsInputError(
            f"{label}, line {int(frame[LINE].iat[i])}, column TIME: post-edit time must not "
            f"be negative; got {frame['TIME'].iat[i]!r}"
        )
    rows = _id_order(ids, code)
    index = pd.Index([ids[k] for k in code[rows].tolist()], name="sid")
    return pd.DataFrame({k: v[rows] for k, v in out.items()}, index=index)


