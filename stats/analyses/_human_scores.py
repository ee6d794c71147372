"""Segment scores from the 2014-2020 human files (published DA segment scores, judgement files),
shared by the findings-style rankings (:mod:`.human`) and the WMT22-25 paired rankings
(:mod:`.human_wmt`), and the exclusion of systems both apply."""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from stats._core.errors import StatsInputError
from stats.human.gold import standardize_judgements

from ..readers import Decoded
from ..readers.da_segments import (
    is_da_segment_file,
    language_pair_from_name,
    read_da_segment_scores,
)
from ..readers.judgements import CRITERIA, read_judgement_files
from ._inputs import Files, decode_files

__all__ = ["segment_scores_frame", "without_systems"]


def without_systems(rows: pd.DataFrame, exclude: Sequence[str]) -> pd.DataFrame:
    """``rows`` without the systems of ``exclude`` (each must be among them)."""
    exclude = [str(s) for s in exclude]
    if not exclude:
        return rows
    present = set(rows["system"].astype(str))
    unknown = [s for s in exclude if s not in present]
    if unknown:
        raise StatsInputError(
            f"exclude: no judgements of {', '.join(unknown)}; the systems judged are "
            f"{', '.join(sorted(present))}"
        )
    return rows[~rows["system"].astype(str).isin(exclude)].reset_index(drop=True)


def _split_da_files(
    files: Files, *, lp: str | None, lp_required: bool = True
) -> tuple[list[pd.DataFrame], list[Decoded]]:
    """Published segment-level DA files read (each frame's ``attrs["name"]`` is its display
    name), and the other files, decoded, for the judgement reader."""
    da, judged = [], []
    for item in decode_files(files):  # each decoded once: its kind, then its reader
        head = item.text.lstrip().split("\n", 1)[0].split()
        if is_da_segment_file(head):
            pair = lp or language_pair_from_name(item.name)
            if pair is None and not lp_required:
                pair = "(language pair not named)"
            frame = read_da_segment_scores(item, lp=pair)
            frame.attrs["name"] = item.name
            da.append(frame)
        else:
            judged.append(item)
    return da, judged


def _check_judgements_header(item) -> None:
    """A file that is no other human layout must at least name a judgement file's SYSTEM and
    SEGMENT columns; else it fits none of them, and is refused saying what it looks like."""
    import re

    from ..readers import HUMAN_LAYOUTS, none_fits

    lines = item.text.split("\n", 50)
    at = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if at is None:
        return  # empty: the judgements reader says so
    first = lines[at].lstrip("\ufeff")
    head = {f.strip().strip('"').lower() for f in re.split(r"[\t,; ]+", first)}
    if not {"system", "segment"} <= head:
        raise StatsInputError(none_fits(item.name, at + 1, first, HUMAN_LAYOUTS))


def _check_segments_once(scores: pd.DataFrame) -> None:
    repeated = scores.duplicated(["lp", "system", "segment"])
    if repeated.any():
        first = scores[repeated].iloc[0]
        raise StatsInputError(
            f"human: {first['lp']}: system {first['system']!r} has segment "
            f"{first['segment']!r} in more than one file"
        )


def segment_scores_frame(files: Files, *, lp: str | None = None) -> pd.DataFrame:
    """Per (language pair, system, segment): ``raw``, ``z`` and ``n``, from published DA segment
    files or judgement files (see :func:`human_rankings`)."""
    if not files:
        raise StatsInputError("human: no file given")
    frames, judged = _split_da_files(files, lp=lp)
    for item in judged:
        _check_judgements_header(item)
    if judged:
        z = standardize_judgements(read_judgement_files(*judged))
        present = set(z["criterion"])
        criterion = next(c for c in (*CRITERIA, *sorted(present)) if c in present)
        per_segment = (
            z[z["criterion"] == criterion]
            .groupby(["system", "segment"], sort=False)
            .agg(raw=("score", "mean"), z=("z", "mean"), n=("score", "size"))
            .reset_index()
        )
        pair = lp or language_pair_from_name(judged[0].name) or "all"
        block = per_segment.assign(lp=pair, n=per_segment["n"].astype(float))
        block.attrs = {
            "name": " + ".join(item.name for item in judged),
            "read_as": (
                f"read as human judgements (SYSTEM SEGMENT ANNOTATOR CRITERION SCORE), "
                f"{len(z):,} judgements, criterion {criterion} ranked "
                f"({', '.join(sorted(present))} given), each annotator's scores standardised, "
                f"{pair}"
            ),
        }
        frames.append(block)
    notes = tuple(n for f in frames for n in f.attrs.get("notes", ()))
    read_as = tuple(
        f"{f.attrs['name']}: {f.attrs['read_as']}" for f in frames if f.attrs.get("read_as")
    )
    scores = pd.concat(frames, ignore_index=True)
    scores.attrs = {"notes": notes, "read_as": read_as}
    _check_segments_once(scores)
    return scores
