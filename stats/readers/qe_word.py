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
from ._common import Source, check_parse_memory, iter_splitlines, load_text
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
    rows: list[tuple] = []
    if kind == "tags":
        lp = lp or _lp_from_name(label) or "all"
        for i, line in enumerate(text.splitlines()):
            if not line.strip():
                continue
            rows += [(lp, str(i), j, _tag(t, label, i + 1)) for j, t in enumerate(line.split())]
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
            sid, lpv = _norm_sid(parts[2]), parts[0].strip().lower()
            rows += [(lpv, sid, j, _tag(t, label, i)) for j, t in enumerate(tags)]
    else:
        raise StatsInputError(
            f"{label}: not a word-level gold file (one line of OK/BAD tags per sentence, or "
            "the TSV lp, gold, segid, target, tokens, tags)"
        )
    if not rows:
        raise StatsInputError(f"{label}: no tags")
    frame = pd.DataFrame(rows, columns=["lp", "sid", "pos", "bad"])
    frame.insert(1, "system", "gold")
    return frame


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
    # column by column, repeated values (language pair, method, segment) shared
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
    dup = frame.duplicated(["lp", "system", "sid", "pos"])
    if dup.any():
        r = frame[dup].iloc[0]
        raise StatsInputError(
            f"{label}: word {r['pos']} of segment {r['sid']} ({r['lp']}, {r['system']}) twice"
        )
    return frame


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
        frame["system"] = [system_label(team, multi, m) for m in frame["system"]]
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
