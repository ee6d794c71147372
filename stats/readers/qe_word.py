"""Readers for word-level QE tags (OK/BAD per target token) as the WMT20-23 QE tasks publish
them.

Gold
    * the WMT22-23 TSV: a header, then ``lp, gold, segid, target, tokens, tags`` (tokens and
      tags space separated, as many of each);
    * a plain tags file (WMT20-21 ``*.tags``): one sentence per line, space-separated
      ``OK``/``BAD`` tags; the segment numbers are the line numbers from 0 and the language
      pair is ``lp`` or the ``xx-yy`` of the file name. MT tags with gaps interleaved
      (``2m + 1`` tags for ``m`` words) are recognised when the submissions are matched to
      them (:func:`stats.qe.word.align_word_tags`).
Submissions
    Optional three header lines, then one row per token, tab separated:
    ``LP METHOD TYPE SEGMENT_NUMBER WORD_INDEX WORD TAG`` (WMT21-23) or without ``LP``
    (WMT20, six fields; the language pair from ``lp`` or the file name). Rows whose TYPE is
    ``gap`` or ``src`` are left out: the target words (``mt``) are scored.

Tags ``OK``/``GOOD``/``BAD`` in any case. Both readers return a long DataFrame
``lp, system, sid, pos, bad`` (``system`` is ``gold`` for gold).
"""

from __future__ import annotations

import array
import itertools
import re
import warnings

import numpy as np
import pandas as pd

from stats._core.errors import DegenerateInputWarning, StatsInputError

from ._archives import expand_sources
from ._arrow import TextStream, categorical, map_categories, plain_breaks, read_typed, strings
from ._common import (
    PARSE_MEMORY_FACTORS,
    Source,
    check_parse_memory,
    iter_splitlines,
    load_text,
)
from .qe_wmt import (
    _lp_from_name,
    _norm_sid,
    is_submission_metadata,
    load_text_or_empty,
    skip_reason,
    submission_origin,
    system_label,
)

__all__ = ["read_word_gold", "read_word_submissions", "word_file_kind"]

_TAGS = {"ok": False, "good": False, "bad": True}
#: peak bytes of reading word-level gold, per tag (5M tags in either layout: +400 MB over the
#: decoded text; the frame's five columns are most of it)
BYTES_PER_TAG = 84
_INT = re.compile(r"\s*\d+\s*")


def _tag(value: str, label: str, line: int) -> bool:
    try:
        return _TAGS[value.strip().lower()]
    except KeyError:
        raise StatsInputError(
            f"{label}, line {line}: tag {value.strip()!r} is not OK or BAD"
        ) from None


def _is_tag_line(line: str) -> bool:
    parts = line.split()
    return bool(parts) and all(p.lower() in _TAGS for p in parts)


def _token_row(parts: list[str]) -> bool:
    if len(parts) == 7:
        return bool(_INT.fullmatch(parts[3]) and _INT.fullmatch(parts[4]))
    if len(parts) == 6:
        return bool(_INT.fullmatch(parts[2]) and _INT.fullmatch(parts[3]))
    return False


def word_file_kind(text: str) -> str | None:
    """``'gold-tsv'``, ``'tags'``, ``'submission'`` or None, from the first lines."""
    lines = [ln for ln in itertools.islice(iter_splitlines(text), 40) if ln.strip()]
    if not lines:
        return None
    if all(_is_tag_line(ln) for ln in lines[:20]):
        return "tags"
    rows = [ln.rstrip("\r\n").split("\t") for ln in lines]
    if len(rows) > 1 and all(len(r) == 6 and _INT.fullmatch(r[2]) for r in rows[1:10]):
        if all(_is_tag_line(r[5]) for r in rows[1:10]):
            return "gold-tsv"
    k = 0
    while k < min(len(rows), 4) and not _token_row(rows[k]):
        k += 1
    if k <= 3 and k < len(rows) and all(_token_row(r) for r in rows[k : k + 10]):
        return "submission"
    return None


def read_word_gold(source: Source, *, name: str | None = None, lp: str | None = None):
    """Read word-level gold tags (module notes): a DataFrame ``lp, system, sid, pos, bad``.

    Raises
    ------
    StatsInputError
        Not a word-level gold file; tokens and tags of different counts; a tag other than
        OK/BAD (file and line named).
    """
    text, label = load_text(source, name)
    kind = word_file_kind(text)
    # its tags counted from the text (an upper bound: a word of the target holding OK, GOOD
    # or BAD counts too), at the peak measured per tag
    n_tags = sum(text.count(t) for t in ("OK", "BAD", "GOOD", "ok", "bad", "good"))
    check_parse_memory(n_tags, label, BYTES_PER_TAG)
    # per sentence (not per tag): its language pair, id, and tags as a boolean array; the
    # frame is made from arrays at the end (a tuple per tag held 80x the file's size)
    lps: list[str] = []
    sids: list[str] = []
    bads: list[np.ndarray] = []
    if kind == "tags":
        lp = lp or _lp_from_name(label) or "all"
        for i, line in enumerate(text.splitlines()):
            if not line.strip():
                continue
            lps.append(lp)
            sids.append(str(i))
            bads.append(_tag_array(line.split(), label, i + 1))
    elif kind == "gold-tsv":
        for i, line in enumerate(text.splitlines()[1:], start=2):
            if not line.strip():
                continue
            parts = line.rstrip("\r\n").split("\t")
            if len(parts) != 6:
                raise StatsInputError(
                    f"{label}, line {i}: expected 6 tab-separated fields (lp, gold, segid, "
                    f"target, tokens, tags); got {len(parts)}"
                )
            toks, tags = parts[4].split(" "), parts[5].split()
            if len(toks) != len(tags):
                raise StatsInputError(f"{label}, line {i}: {len(toks)} tokens but {len(tags)} tags")
            lps.append(parts[0].strip().lower())
            sids.append(_norm_sid(parts[2]))
            bads.append(_tag_array(tags, label, i))
    else:
        raise StatsInputError(
            f"{label}: not a word-level gold file (one line of OK/BAD tags per sentence, or "
            "the TSV lp, gold, segid, target, tokens, tags)"
        )
    counts = np.fromiter((len(b) for b in bads), dtype=np.int64, count=len(bads))
    if not counts.sum():
        raise StatsInputError(f"{label}: no tags")
    sentence = np.repeat(np.arange(len(bads)), counts)
    pos = np.arange(len(sentence), dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    lp_codes, lp_names = pd.factorize(np.asarray(lps, dtype=object))
    sid_codes, sid_names = pd.factorize(np.asarray(sids, dtype=object))
    del lps, sids
    frame = pd.DataFrame(
        {
            "lp": strings(pd.Categorical.from_codes(lp_codes[sentence], categories=lp_names)),
            "system": strings(pd.Categorical.from_codes(np.zeros(len(sentence), np.int8),
                                                        categories=["gold"])),
            "sid": strings(pd.Categorical.from_codes(sid_codes[sentence], categories=sid_names)),
            "pos": pos,
            "bad": np.concatenate(bads),
        }
    )  # fmt: skip
    return frame


def _tag_array(tags: list[str], label: str, line: int) -> np.ndarray:
    """One sentence's tags as booleans (BAD: True); a tag other than OK/GOOD/BAD is named."""
    low = [t.strip().lower() for t in tags]
    if not set(low) <= _TAGS.keys():
        _tag(next(t for t in tags if t.strip().lower() not in _TAGS), label, line)
    return np.fromiter((t == "bad" for t in low), dtype=bool, count=len(low))


def _read_one(text: str, label: str, lp: str | None) -> pd.DataFrame:
    rest = iter_splitlines(text)
    lines = list(itertools.islice(rest, 4))  # the header, if any
    k = 0
    while k < min(len(lines), 4) and not _token_row(lines[k].rstrip("\r\n").split("\t")):
        k += 1
    if k > 3:
        raise StatsInputError(
            f"{label}: not a word-level QE submission (after at most 3 header lines, rows "
            "LP METHOD TYPE SEGMENT_NUMBER WORD_INDEX WORD TAG)"
        )
    check_parse_memory(len(text), label)
    frame = _typed_words(text, k, lines, label, lp)
    if frame is not None:  # a plain file, read by columns (no word twice)
        return frame
    # line by line (the first bad line is named), repeated values (language pair, method,
    # segment) shared
    check_parse_memory(len(text), label, PARSE_MEMORY_FACTORS["word-lines"])
    lps: list[str] = []
    systems: list[str] = []
    sids: list[str] = []
    pos = array.array("q")
    bad = bytearray()
    shared: dict[str, str] = {}
    for i, line in enumerate(itertools.chain(lines[k:], rest), k):
        if not line.strip():
            continue
        parts = line.rstrip("\r\n").split("\t")
        if not _token_row(parts):
            raise StatsInputError(
                f"{label}, line {i + 1}: expected 7 tab-separated fields LP METHOD TYPE "
                f"SEGMENT_NUMBER WORD_INDEX WORD TAG (or 6 without LP); got {len(parts)}"
            )
        if len(parts) == 6:
            lpv = lp or _lp_from_name(label) or "all"
            parts = [lpv, *parts]
        if parts[2].strip().lower() in ("gap", "src", "source"):
            continue
        if not parts[4].strip().isascii() or not parts[4].strip().isdigit() or len(parts[4]) > 18:
            raise StatsInputError(
                f"{label}, line {i + 1}: word index {parts[4][:40]!r} is not a whole number"
            )
        for column, value in (
            (lps, parts[0].strip().lower()),
            (systems, parts[1].strip()),
            (sids, _norm_sid(parts[3])),
        ):
            column.append(shared.setdefault(value, value))
        pos.append(int(parts[4]))
        bad.append(_tag(parts[6], label, i + 1))
    del lines, shared
    if not pos:
        raise StatsInputError(f"{label}: no target-word tags")
    frame = pd.DataFrame(
        {
            "lp": lps,
            "system": systems,
            "sid": sids,
            "pos": np.frombuffer(pos, dtype=np.int64).copy(),
            "bad": np.frombuffer(bad, dtype=np.uint8).astype(bool),
        }
    )
    _no_word_twice(frame, label)
    return frame


def _no_word_twice(frame: pd.DataFrame, label: str) -> None:
    """Refuse a word (language pair, method, segment, index) given twice, naming the first."""
    from .qe_wmt import _check_unique

    try:
        _check_unique(frame, ["lp", "system", "sid", "pos"], label, frame["pos"].to_numpy())
    except StatsInputError:
        dup = frame.duplicated(["lp", "system", "sid", "pos"])
        r = frame[dup].iloc[0]
        raise StatsInputError(
            f"{label}: word {r['pos']} of segment {r['sid']} ({r['lp']}, {r['system']}) twice"
        ) from None


#: a word index as the line-by-line reader takes it (ASCII digits, at most 18 characters)
_INDEX = re.compile(r"\s*[0-9]{1,18}\s*")
_LEFT_OUT = ("gap", "src", "source")


def _typed_words(text: str, k: int, lines: list, label: str, lp: str | None):
    """The rows of a plain word-level submission (after its ``k`` header lines) read by
    pyarrow's typed parser (:mod:`._arrow`): every field a dictionary-encoded column whose
    distinct values are checked and converted once (WORD is not kept); a frame as
    :func:`_read_one` makes, or None for anything the line-by-line reader must read and name
    (a blank or ragged line, 6 and 7 fields mixed, a number or tag it would refuse, a word
    given twice)."""
    if k >= len(lines) or any(not ln.strip() for ln in lines[: k + 1]) or not plain_breaks(text):
        return None
    width = len(lines[k].rstrip("\r\n").split("\t"))
    if width not in (6, 7):
        return None
    names = ["lp", "method", "type", "sid", "pos", "word", "tag"][7 - width :]
    keep = [c for c in names if c != "word"]
    table = read_typed(TextStream(text), names, dict.fromkeys(names, "dict"), skip_rows=k,
                       include=keep)
    if table is None or not table.num_rows:
        return None
    cols = {c: categorical(table.column(c)) for c in keep}
    del table
    seg, pos, tag = cols["sid"], cols["pos"], cols["tag"]
    if not all(_INT.fullmatch(v) for v in seg.categories) or not all(
        _INDEX.fullmatch(v) for v in pos.categories
    ):
        return None
    if not all(v.strip().lower() in _TAGS for v in tag.categories):
        return None
    out = np.asarray([v.strip().lower() not in _LEFT_OUT for v in cols["type"].categories])
    kept = out[np.asarray(cols["type"].codes)]
    if not kept.any():
        return None  # (the line-by-line reader says there are no target-word tags)

    def take(values: pd.Categorical) -> pd.Categorical:
        return values if kept.all() else values[kept]

    index = np.array([int(v) for v in pos.categories], dtype=np.int64)
    bad = np.array([_TAGS[v.strip().lower()] for v in tag.categories], dtype=bool)
    if "lp" in cols:
        lps = map_categories(take(cols["lp"]), lambda v: v.strip().lower())
    else:
        lps = pd.Categorical.from_codes(np.zeros(int(kept.sum()), dtype=np.int8),
                                        categories=[lp or _lp_from_name(label) or "all"])
    system = map_categories(take(cols["method"]), str.strip)
    sid = map_categories(take(seg), _norm_sid)
    words = index[np.asarray(take(pos).codes)]
    del cols, seg, pos
    # a word twice: two equal keys of codes (the line-by-line reader then names it)
    key = np.zeros(len(words), dtype=np.int64)
    size = 1
    for codes, n in ((lps.codes, len(lps.categories)), (system.codes, len(system.categories)),
                     (sid.codes, len(sid.categories)), (words, int(index.max()) + 1)):
        if size * n >= 2**62:
            return None
        key *= n
        key += np.asarray(codes, dtype=np.int64)
        size *= n
    key.sort()
    if (key[1:] == key[:-1]).any():
        return None
    del key
    return pd.DataFrame(
        {
            # (language pair and method stay categories until the system labels are made)
            "lp": pd.Series(lps, copy=False),
            "system": pd.Series(system, copy=False),
            "sid": strings(sid),
            "pos": words,
            "bad": bad[np.asarray(take(tag).codes)],
        },
        copy=False,
    )


def read_word_submissions(sources, *, names=None, lp: str | None = None) -> pd.DataFrame:
    """Read word-level QE submissions (files, folders, zip/tar archives): a DataFrame
    ``lp, system, sid, pos, bad`` of target-word tags.

    Raises
    ------
    StatsInputError
        A file that is not a submission; a bad row or tag (file and line named); the same word
        twice; one method's tags of one language pair in two files.

    Systems are labelled ``team/method`` from the path, as at the sentence level
    (:func:`stats.readers.qe_wmt.submission_origin`); empty files are skipped with a warning.
    """
    if not isinstance(sources, (list, tuple)):
        sources = [sources]
        names = [names] if isinstance(names, str) else names
    frames: list[pd.DataFrame] = []
    owner: dict[tuple[str, str], str] = {}
    skipped = []
    for label, src in expand_sources(list(sources), names):
        if is_submission_metadata(label):
            continue
        text, label = load_text_or_empty(src, label)
        if skip_reason(text) is not None:  # the empty files of a submissions folder
            skipped.append(label)
            continue
        frame = _read_one(text, label, lp)
        # labelled team/method as the sentence level (the WMT23 folder layout): one method
        # across a team's per-pair files is one submission, but one pair in two files is not
        team, multi = submission_origin(label)
        codes, methods = pd.factorize(frame["system"])  # one label per method, not per row
        frame["system"] = strings(pd.Categorical.from_codes(
            codes, categories=[system_label(team, multi, m) for m in methods]
        ))  # fmt: skip
        del codes
        if isinstance(frame["lp"].dtype, pd.CategoricalDtype):  # (read by columns)
            frame["lp"] = strings(frame["lp"].array)
        for key in frame[["system", "lp"]].drop_duplicates().itertuples(index=False):
            s, pair = key
            if (s, pair) in owner:
                raise StatsInputError(
                    f"{label}: method {s!r} has {pair} tags in {owner[s, pair]} too (rename one)"
                )
            owner[s, pair] = label
        frames.append(frame)
    if not frames:
        raise StatsInputError(
            "no word-level submission given"
            + (f" (skipped: {', '.join(skipped)})" if skipped else "")
        )
    if skipped:
        warnings.warn(
            "word level: " + ", ".join(skipped) + " empty or header lines only, skipped",
            DegenerateInputWarning,
            stacklevel=2,
        )
    out = pd.concat(frames, ignore_index=True)
    out["bad"] = out["bad"].astype(bool)
    out["pos"] = out["pos"].astype(np.int64)
    return out
