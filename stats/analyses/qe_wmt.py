"""WMT20-24 QE workflows from files: sentence-level submissions against gold (with the
exclusions), and word-level tags. Shared by ``python -m stats qe`` and the dashboard."""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import pandas as pd

from stats._core.errors import DegenerateInputWarning, StatsInputError
from stats._core.random import check_rng, rng_and_seed
from stats.qe.wmt import QEComparisonResult, compare_qe_systems
from stats.qe.word import WordLevelResult, compare_word_level

from ..readers import expand_sources, load_bytes, name_list
from ..readers.qe_wmt import (
    QEGold,
    QESubmissions,
    is_submission_metadata,
    load_text_or_empty,
    qe_wmt_file_kind,
    read_qe_exclude,
    read_qe_submissions,
    read_qe_wmt_gold,
    skip_reason,
)
from ..readers.qe_word import read_word_gold, read_word_submissions, word_file_kind
from ._inputs import FileInput, Files, _named, _recorded

_HEAD_BYTES = 65536

__all__ = [
    "QEWMTInput",
    "QEWMTAnalysis",
    "is_wmt_qe_input",
    "load_qe_wmt",
    "qe_wmt_analysis",
    "load_qe_word",
    "qe_word_analysis",
]


def _kind_of(item: FileInput) -> tuple[str | None, str | None]:
    """(sentence-level kind, word-level kind) of the first file of ``item`` that tells one:
    empty files, metadata and files of header lines only (a WMT23 team folder has all three)
    are passed over, so that a team zip is never mistaken for another layout."""
    src, name = _named(item)
    kinds: tuple[str | None, str | None] = (None, None)
    for label, member in expand_sources([src], [name] if name else None):
        if is_submission_metadata(label):
            continue
        try:
            data, _ = load_bytes(member, label)
        except StatsInputError as exc:
            if str(exc).endswith(": file is empty"):
                continue
            raise
        # the first lines tell the kind: decode the head only (the reader decodes the file)
        head = data[:_HEAD_BYTES].decode("utf-8-sig", errors="replace")
        if len(data) > _HEAD_BYTES:
            head = head.rsplit("\n", 1)[0]
        if skip_reason(head) is not None:
            continue
        kinds = (qe_wmt_file_kind(head), word_file_kind(head))
        if kinds != (None, None):
            return kinds
    return kinds


def is_wmt_qe_input(files: Files, gold: FileInput | None = None) -> str | None:
    """``'sentence'`` when the files are WMT20-24 sentence-level submissions (or ``gold`` is a
    gold file of those tasks), ``'word'`` for word-level tag files, None otherwise (the
    Graham 2015 layouts of :func:`stats.analyses.qe.load_qe`)."""
    for item in ([gold] if gold is not None else []) + list(files):
        kind, word = _kind_of(item)
        if kind in ("submission", "gold", "gold-table"):
            return "sentence"
        if word in ("submission", "gold-tsv"):
            return "word"
    return None


@dataclass(frozen=True, kw_only=True)
class QEWMTInput:
    """Parsed WMT QE sentence-level files."""

    submissions: QESubmissions
    gold: QEGold
    exclude: pd.DataFrame | None
    exclude_file: str | None


def load_qe_wmt(files: Files, *, gold: FileInput, exclude: FileInput | None = None) -> QEWMTInput:
    """Read WMT20-24 sentence-level submissions (files, folders, archives), the gold file and
    an optional exclude index.

    Raises
    ------
    StatsInputError
        No submission; anything the readers reject.
    """
    if not files:
        raise StatsInputError("files: no submission given")
    pairs = [_named(f) for f in files]
    subs = read_qe_submissions([s for s, _ in pairs], names=[n for _, n in pairs])
    gsrc, gname = _named(gold)
    g = read_qe_wmt_gold(gsrc, name=gname)
    ex, ex_name = None, None
    if exclude is not None:
        esrc, ex_name = _named(exclude)
        ex = read_qe_exclude(esrc, name=ex_name)
        ex_name = ex_name or str(esrc)
    return QEWMTInput(submissions=subs, gold=g, exclude=ex, exclude_file=ex_name)


@dataclass(frozen=True, kw_only=True)
class QEWMTAnalysis:
    """A WMT QE sentence-level comparison and the warnings it raised."""

    input: QEWMTInput
    result: QEComparisonResult
    seed: int | None
    warnings: tuple[str, ...]

    @property
    def read_as(self) -> str:
        """What the submissions were read as (:attr:`QESubmissions.read_as`)."""
        return self.input.submissions.read_as


def qe_wmt_analysis(
    inp: QEWMTInput,
    *,
    primary: str = "spearman",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    alpha: float = 0.05,
    correction: str = "none",
    sd_ratio: float = 0.5,
    rng=1,
    tests: bool = True,
    progress=None,
) -> QEWMTAnalysis:
    """Compare the systems per language pair and on average
    (:func:`stats.qe.wmt.compare_qe_systems`), seeded with ``rng`` (default 1; the result's
    ``seed`` is the int seed, None for a Generator or None); ``tests=False`` leaves the
    pairwise tests out (the dashboard tests the chosen language pair alone); ``progress`` as
    :func:`~stats.qe.wmt.compare_qe_systems`."""
    _, seed = rng_and_seed(rng)
    with _recorded() as messages:
        result = compare_qe_systems(
            inp.submissions,
            inp.gold,
            exclude=inp.exclude,
            primary=primary,
            n_resamples=n_resamples,
            confidence_level=confidence_level,
            alpha=alpha,
            correction=correction,
            sd_ratio=sd_ratio,
            tests=tests,
            rng=rng,
            progress=progress,
        )
    return QEWMTAnalysis(
        input=inp,
        result=result,
        seed=seed,
        warnings=tuple(dict.fromkeys([*inp.submissions.notes, *messages])),
    )


def load_qe_word(files: Files, *, gold: FileInput) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Read word-level submissions and gold tags: ``(submissions, gold)`` long tables."""
    if not files:
        raise StatsInputError("files: no word-level submission given")
    pairs = [_named(f) for f in files]
    subs = read_word_submissions([s for s, _ in pairs], names=[n for _, n in pairs])
    gsrc, gname = _named(gold)
    return subs, read_word_gold(gsrc, name=gname)


def qe_word_analysis(
    submissions: pd.DataFrame,
    gold: pd.DataFrame,
    *,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    alpha: float = 0.05,
    correction: str = "none",
    rng=1,
    exclude: pd.DataFrame | None = None,
    progress=None,
) -> WordLevelResult:
    """Word-level scores and paired bootstrap tests (:func:`stats.qe.word.compare_word_level`);
    the sentences of ``exclude`` (``lp, sid``) are left out of both, as the WMT23 word-level
    scoring program leaves out the hallucination index. ``rng`` seeds the bootstrap (default
    1); ``progress`` as :func:`~stats.qe.word.compare_word_level`."""
    check_rng(rng)
    if exclude is not None and len(exclude):
        drop = pd.MultiIndex.from_frame(exclude[["lp", "sid"]])
        unmatched = drop[~drop.isin(pd.MultiIndex.from_frame(gold[["lp", "sid"]]))]
        if len(unmatched):
            warnings.warn(
                f"exclude index: {len(unmatched)} item(s) match no gold sentence and leave "
                f"nothing out: {name_list(f'{lp} {sid}' for lp, sid in unmatched)}",
                DegenerateInputWarning,
                stacklevel=2,
            )

        def keep(f):
            return f[~pd.MultiIndex.from_frame(f[["lp", "sid"]]).isin(drop)]

        submissions, gold = keep(submissions), keep(gold)
    return compare_word_level(
        submissions,
        gold,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        alpha=alpha,
        correction=correction,
        rng=rng,
        progress=progress,
    )


@dataclass(frozen=True, kw_only=True)
class QEWMTFiles:
    """WMT QE files sorted by content (:func:`sort_wmt_qe_files`), each ``(name, bytes)``."""

    submissions: tuple = ()
    gold: tuple | None = None
    exclude: tuple | None = None
    word_submissions: tuple = ()
    word_gold: tuple | None = None

    @property
    def sentence(self) -> bool:
        return bool(self.submissions) or self.gold is not None

    @property
    def word(self) -> bool:
        return bool(self.word_submissions) or self.word_gold is not None


def sort_wmt_qe_files(files: Files) -> QEWMTFiles:
    """Sort uploads (files, zips of team folders) into sentence-level submissions, gold, the
    exclude index, word-level submissions and word-level gold, by content.

    Raises
    ------
    StatsInputError
        A file of none of these kinds; two gold files or two exclude indexes of one level.
    """
    out: dict = {"submissions": [], "word_submissions": []}
    empty: list[tuple[str, bytes]] = []
    for item in files:
        src, name = _named(item)
        for label, member in expand_sources([src], [name] if name else None):
            if is_submission_metadata(label):
                continue
            text, label = load_text_or_empty(member, label)
            data = text.encode("utf-8")
            kind, word = qe_wmt_file_kind(text), word_file_kind(text)
            if skip_reason(text) is not None:  # named as skipped by a submissions reader
                empty.append((label, data))
                continue
            if kind == "submission":
                out["submissions"].append((label, data))
                continue
            if word == "submission":
                out["word_submissions"].append((label, data))
                continue
            slot = {"gold": "gold", "gold-table": "gold", "exclude": "exclude"}.get(kind)
            if slot is None and word in ("gold-tsv", "tags"):
                slot = "word_gold"
            if slot is None:
                raise StatsInputError(
                    f"{label}: not a WMT QE submission, gold file, exclude index or word-level "
                    "tag file"
                )
            if out.get(slot) is not None:
                raise StatsInputError(
                    f"{label}: a second {slot.replace('_', ' ')} file (the first: {out[slot][0]})"
                )
            out[slot] = (label, data)
    # empty or header-only files go to the level that has submissions (sentence if both or
    # neither): its reader names each as skipped
    level = (
        "word_submissions" if out["word_submissions"] and not out["submissions"] else "submissions"
    )
    out[level] += empty
    return QEWMTFiles(
        submissions=tuple(out["submissions"]),
        gold=out.get("gold"),
        exclude=out.get("exclude"),
        word_submissions=tuple(out["word_submissions"]),
        word_gold=out.get("word_gold"),
    )
