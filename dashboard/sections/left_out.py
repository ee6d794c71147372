"""What the Metrics vs humans page left out, summarised: the workflow's per-block messages
(:mod:`stats.analyses.metrics`: a metric without a score for some system, a reference-free
metric not named so, systems or language pairs without human scores, blocks that could not be
analysed) grouped by reason with counts, for one collapsed summary instead of a box per message.
Pure: messages in, groups out."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

#: reason -> pattern of the message (group ``where``: the block; ``what``: the item)
_REASONS = (
    (
        "metrics without a score for every system (left out of their block)",
        re.compile(
            r"^(?P<where>.*?): metric (?P<what>.+?) has no score for (?P<detail>.+?); it is "
            r"left out of this block$"
        ),
    ),
    (
        "metrics scored only against another reference or the source (e.g. QE, REFSET src): "
        "choose them under “Reference-free metrics”",
        re.compile(
            r"^(?P<where>.*?): metric (?P<what>.+?) has scores only for reference\(s\) "
            r"(?P<detail>.+?), not analysed"
        ),
    ),
    (
        "systems with metric scores but no human score",
        re.compile(
            r"^(?P<where>.*?): system\(s\) with metric scores but no human score left out: "
            r"(?P<what>.+)$"
        ),
    ),
    (
        "language pairs without human scores",
        re.compile(r"^language pair\(s\) without human scores left out: (?P<what>.+)$"),
    ),
    (
        "blocks without human scores (a language pair, test set or reference humans did not judge)",
        re.compile(r"^(?P<where>.*?): no human scores in .*$"),
    ),
)
OTHER = "other"


@dataclass
class LeftOut:
    """One reason: how many items it left out and one line per block."""

    reason: str
    count: int = 0
    lines: dict = field(default_factory=dict)  #: block -> items


def _short_where(where: str) -> str:
    """``language pair 'cs-en', test set 'x', reference 'y'`` -> ``cs-en / x / y``."""
    parts = re.findall(r"'([^']*)'", where)
    return " / ".join(parts) if parts else where


def summarise(messages: Iterable[str], problems: Mapping[str, str] | None = None) -> list:
    """Group ``messages`` (and ``problems``: block -> why it was not analysed) by reason.

    Returns
    -------
    list of LeftOut
        In the order of :data:`_REASONS` (then ``other``), only reasons that occurred; a
        reason's count is of metrics (per block), systems, language pairs or blocks.
    """
    groups: dict = {}
    items = [(None, m) for m in dict.fromkeys(messages)]
    items += list((problems or {}).items())
    for block, msg in items:
        for i, (reason, pattern) in enumerate(_REASONS):
            m = pattern.match(msg)
            if not m:
                continue
            g = groups.setdefault(reason, LeftOut(reason))
            d = m.groupdict()
            where = _short_where(d.get("where") or "") if d.get("where") else (block or "all")
            what = d.get("what") or block or msg
            listed = i in (2, 3)  # the message lists several systems / language pairs
            g.count += len(what.split(", ")) if listed else 1
            if i == 0:
                what = f"{what} (no score for {d['detail']})"
            g.lines.setdefault(where, []).append(what)
            break
        else:
            g = groups.setdefault(OTHER, LeftOut(OTHER))
            g.count += 1
            g.lines.setdefault(block or "all", []).append(msg)
    order = [r for r, _ in _REASONS] + [OTHER]
    return [groups[r] for r in order if r in groups]


def headline(groups: list) -> str:
    """``Left out: 58 metrics without a score for every system, 12 ...``."""
    if not groups:
        return ""
    parts = [f"{g.count} {g.reason.split(' (')[0].split(':')[0]}" for g in groups]
    return "Left out: " + "; ".join(parts)


#: ``language pair 'x'[, test set 'y'][, reference 'z']: message`` (a block's warning)
_BLOCK_MESSAGE = re.compile(r"^(?P<where>language pair '[^']*'(?:, [a-z ]+ '[^']*')*): (?P<rest>.+)$")


def fold_repeats(messages: Iterable[str]) -> list[str]:
    """``messages`` with the same warning about several blocks folded into one line with the
    count and the blocks (``outliers as published left out: X (×2: cs-en / newstest2020 / A,
    cs-en / newstest2020 / B)``), in the order first seen; other messages as they are.

    >>> fold_repeats(["language pair 'cs-en', reference 'A': x left out",
    ...               "language pair 'cs-en', reference 'B': x left out", "other"])
    ['x left out (×2: cs-en / A, cs-en / B)', 'other']
    """
    groups: dict[str, list[str]] = {}
    for msg in dict.fromkeys(messages):
        m = _BLOCK_MESSAGE.match(msg)
        key = m.group("rest") if m else msg
        groups.setdefault(key, []).append(_short_where(m.group("where")) if m else "")
    out = []
    for rest, wheres in groups.items():
        if len(wheres) > 1:
            out.append(f"{rest} (×{len(wheres)}: {', '.join(wheres)})")
        elif wheres[0]:
            out.append(f"{wheres[0]}: {rest}")
        else:
            out.append(rest)
    return out
