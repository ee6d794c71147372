"""MT systems: segment statistics from files, randomized tests for a pair (Graham, Mathur &
Baldwin, WMT 2014), and the sacreBLEU-style systems table (every system against a baseline on
several metrics, Post 2018).

Segment scores come from one file in the long (``SYSTEM SEGMENT SCORE [METRIC]``) or wide
layout, or from the WMT metrics task's segment-level files as published
(``METRIC LP TESTSET REFSET SYSTEM DOCID SEGID SCORE [ENSEMBLE AVAILABLE]``, headerless, gzip,
several files or a .zip/.tar.gz of them): one block of those (a metric, language pair, test set
and reference) gives the segment scores of each system, the item being ``(DOCID, SEGID)``.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.choices import TEXT_METRICS as TEXT_METRICS  # re-exported
from stats._core.errors import StatsInputError
from stats._core.random import check_rng
from stats.mt.baseline_table import SystemsTableResult, systems_table
from stats.mt.randomized import (
    RandomizedTestResult,
    approximate_randomization,
    bootstrap,
    paired_bootstrap,
)
from stats.mt.sufficient import SegmentStatistics, extract_statistics, statistics_from_scores
from stats.mt.tokenize_options import resolve_options

from ..readers import expand_sources, load_bytes, name_list, source_name, split_lines
from ..readers.mt_text import language_pair_of
from ..readers.segments import (
    pivot_scores,
    read_lines,
    read_parallel,
    read_segment_scores,
    score_file_metrics,
)
from ..readers.wmt import detect_wmt_format, read_wmt_scores, select_refsets
from ._inputs import FileInput, Files, _named

_SINGLE_TESTS = {
    "paired-bootstrap": paired_bootstrap,
    "bootstrap": bootstrap,
    "approximate-randomization": approximate_randomization,
}


def statistics_from_score_file(
    source, *, name: str | None = None, metrics=None, lower_is_better=()
) -> dict:
    """Every metric of a segment-score file as :class:`~stats.mt.sufficient.SegmentStatistics`.

    A long file (``SYSTEM SEGMENT SCORE METRIC``) may hold several metrics (e.g. COMET and
    sentence chrF); each becomes one entry, so their accuracies can be compared. A long file
    without ``METRIC`` or a wide file (one column per system) gives one entry named after the
    file's metric or ``"mean"``. Read with :func:`stats.readers.read_segment_scores`.

    Parameters
    ----------
    source : path, bytes or binary file object
    name : str, optional
        Display name in messages.
    metrics : sequence of str, optional
        Only these metrics of the ``METRIC`` column (case-insensitive), in this order.
    lower_is_better : sequence of str
        Metrics (names as returned, case-insensitive) for which a lower score is better.

    Returns
    -------
    dict of metric name -> SegmentStatistics
    """
    data, label = load_bytes(source, name)
    names: list = list(score_file_metrics(data, name=label)) or [None]
    if metrics:
        if names == [None]:
            raise StatsInputError(f"{label} has no METRIC column to choose metrics from")
        lower = {str(n).lower(): n for n in names}
        missing = [m for m in metrics if str(m).lower() not in lower]
        if missing:
            raise StatsInputError(
                f"{', '.join(map(str, missing))} not in column METRIC of {label}; "
                f"found {', '.join(names)}"
            )
        names = [lower[str(m).lower()] for m in metrics]
    lower_set = {str(m).lower() for m in lower_is_better}
    out = {}
    for metric in names:
        frame = read_segment_scores(data, metric=metric, name=label)
        key = str(metric or frame.columns.name or "mean")
        out[key] = statistics_from_scores(
            frame, label=key, higher_is_better=key.lower() not in lower_set
        )
    unknown = lower_set - {k.lower() for k in out}
    if unknown:
        raise StatsInputError(
            f"lower_is_better names {', '.join(sorted(unknown))}, not a metric of {label}; "
            f"metrics: {', '.join(out)}"
        )
    return out


def _check_two_systems(n: int, systems, label: str | None = None) -> None:
    if n < 2:
        raise StatsInputError(
            (f"{label}: " if label else "")
            + f"need at least two systems to compare; got {n} ({', '.join(map(str, systems))})"
        )


def text_statistics(
    references: Files,
    hypotheses: Files,
    *,
    metric: str = "bleu",
    progress: Callable[[float], None] | None = None,
    jobs: int | None = None,
    options: Mapping | None = None,
    lp: str | None = None,
) -> SegmentStatistics:
    """Per-segment sufficient statistics of ``metric`` (bleu, chrf or ter) for every system.

    Parameters
    ----------
    references : Files
        One or more reference files, one segment per line.
    hypotheses : Files
        One output file per system (at least two), aligned with the references; the system
        name is the file name without its extension.
    metric : {'bleu', 'chrf', 'ter'}
    progress : callable, optional
        Receives the fraction of systems done.
    jobs : int, optional
        Worker processes for TER extraction (default: all cores).
    options : mapping, optional
        sacreBLEU's options of the metric under its names (``tokenize``, ``lowercase``,
        ``smooth_method``; ``word_order``, ``beta``, ``whitespace``; ``asian_support``, ...).
    lp : str, optional
        The language pair (``en-ja``); default the one the file names hold
        (:func:`stats.readers.mt_text.language_pair_of`). BLEU's tokenizer defaults by its
        target language as in sacreBLEU (``zh``, ``ja-mecab``, ``ko-mecab``, else ``13a``);
        the one used is in the options and the signature.

    Raises
    ------
    StatsInputError
        Fewer than two systems; anything :func:`stats.readers.segments.read_parallel` or
        :func:`stats.mt.sufficient.extract_statistics` rejects; an unknown option; a tokenizer
        that cannot run here (a missing MeCab package or SentencePiece model).
    """
    if lp is None:
        lp = language_pair_of(references, hypotheses)
    opts = resolve_options(metric, options, lp=lp)
    refs, hyps = read_parallel(references, hypotheses)
    _check_two_systems(len(hyps), hyps)
    out = extract_statistics(refs, hyps, metric=metric, progress=progress, jobs=jobs, **opts)
    if metric == "chrf" and len(refs) > 1:
        _warn_order(refs, hyps, opts, references, jobs)
    return out


def text_statistics_by_metric(
    references: Files,
    hypotheses: Files,
    *,
    metrics: Sequence[str],
    jobs: int | None = None,
    options: Mapping[str, Mapping | None] | None = None,
    lp: str | None = None,
) -> dict[str, SegmentStatistics]:
    """:func:`text_statistics` of several metrics, the files read and decoded once.

    Parameters
    ----------
    references, hypotheses, jobs, lp
        As for :func:`text_statistics`.
    metrics : sequence of {'bleu', 'chrf', 'ter'}
        Each once, in the order wanted.
    options : mapping, optional
        Metric name -> sacreBLEU's options of that metric (as ``options`` of
        :func:`text_statistics`).

    Returns
    -------
    dict
        Metric name -> :class:`~stats.mt.sufficient.SegmentStatistics`, in the order of
        ``metrics``; each equal to :func:`text_statistics` of that metric. BLEU and chrF are
        extracted at the same time, in two threads, unless ``jobs=1`` (or one core).

    Raises
    ------
    StatsInputError
        As :func:`text_statistics`.
    """
    if lp is None:
        lp = language_pair_of(references, hypotheses)
    opts = {m: resolve_options(m, (options or {}).get(m), lp=lp) for m in metrics}
    refs, hyps = read_parallel(references, hypotheses)
    _check_two_systems(len(hyps), hyps)
    out = _extract_together(refs, hyps, opts, jobs)
    if "chrf" in opts and len(refs) > 1:
        _warn_order(refs, hyps, opts["chrf"], references, jobs)
    return out


#: metrics whose statistics are mostly compiled n-gram matching that runs without the GIL:
#: with several of them, each after the first is extracted in a thread of its own, so that
#: one's Python pre-processing (tokenizing, decoding characters) runs beside another's matching
_OVERLAPPED = ("bleu", "chrf")


def _extract_together(refs, hyps, opts: Mapping[str, Mapping], jobs: int | None) -> dict:
    """:func:`~stats.mt.sufficient.extract_statistics` of every metric of ``opts`` (metric ->
    options), in that order; BLEU and chrF concurrently where more than one core is allowed
    (``jobs`` None or above 1). Each metric's computation is the same either way (the same
    statistics, bit for bit), and the results are taken in order: an error is the one a
    serial run raises."""

    def one(metric: str) -> SegmentStatistics:
        return extract_statistics(refs, hyps, metric=metric, jobs=jobs, **opts[metric])

    together = [m for m in opts if m in _OVERLAPPED]
    if len(together) < 2 or jobs == 1 or (jobs is None and (os.cpu_count() or 1) < 2):
        return {m: one(m) for m in opts}
    import contextvars
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(len(together) - 1, thread_name_prefix="statistics") as pool:
        # each thread in a copy of this context: budgets and time bounds hold there too
        futures = {m: pool.submit(contextvars.copy_context().run, one, m) for m in together[1:]}
        return {m: futures[m].result() if m in futures else one(m) for m in opts}


def _reference_names(references: Files) -> list[str]:
    items = [references] if isinstance(references, (str, os.PathLike)) else list(references)
    return [source_name(*_named(item)) for item in items]


def chrf_order_ties(refs, hyps, options: Mapping | None = None, *, jobs: int | None = None):
    """Where several references make chrF depend on their order: a boolean array (systems,
    segments), True where two references give a segment the same best sentence chrF with
    different statistics (sacreBLEU keeps the first best: another order gives other
    statistics, and possibly another corpus score).

    ``refs`` are reference streams and ``hyps`` system -> lines, as
    :func:`stats.mt.sufficient.extract_statistics` takes them; each reference is scored alone
    (sacreBLEU's sentence chrF of every reference, as its multi-reference choice compares them).
    """
    opts = dict(options or {})
    single = [
        extract_statistics([stream], hyps, metric="chrf", jobs=jobs, **opts).stats
        for stream in refs
    ]
    stats = np.stack(single)  # (refs, systems, segments, d)
    from stats.mt.sufficient import metric_score

    f = metric_score("chrf", stats, opts)  # (refs, systems, segments)
    best = np.argmax(f, axis=0)
    chosen = np.take_along_axis(stats, best[None, ..., None], axis=0)[0]
    tied = f == np.take_along_axis(f, best[None], axis=0)[0]
    differ = (stats != chosen[None]).any(axis=-1)
    return (tied & differ).any(axis=0)


def reference_order_note(refs, hyps, options: Mapping | None, names, *, jobs=None) -> str:
    """The order of the references (always) and, when it changes chrF statistics
    (:func:`chrf_order_ties`), how many segments of which systems it changes."""
    order = f"chrF with {len(refs)} references in this order: {', '.join(names)}"
    ties = chrf_order_ties(refs, hyps, options, jobs=jobs)
    if not ties.any():
        return order + " (the order changes no segment's statistics)"
    systems = [s for s, row in zip(hyps, ties, strict=True) if row.any()]
    return (
        f"{order}; on {int(ties.any(axis=0).sum())} of {ties.shape[1]} segments two references "
        f"score equally with different statistics ({', '.join(systems[:5])}"
        f"{', ...' if len(systems) > 5 else ''}): sacreBLEU keeps the first, so another "
        "reference order can give other chrF scores"
    )


def _warn_order(refs, hyps, options, references: Files, jobs) -> None:
    """Warn (:class:`UserWarning`) when the order of several references changes chrF."""
    import warnings

    if chrf_order_ties(refs, hyps, options, jobs=jobs).any():
        warnings.warn(
            reference_order_note(refs, hyps, options, _reference_names(references), jobs=jobs),
            stacklevel=3,
        )


def reference_order(
    references: Files, hypotheses: Files, *, options: Mapping | None = None, lp=None
) -> str | None:
    """:func:`reference_order_note` of the files (``None`` for one reference)."""
    if isinstance(references, (str, os.PathLike)) or len(references) < 2:
        return None
    if lp is None:
        lp = language_pair_of(references, hypotheses)
    refs, hyps = read_parallel(references, hypotheses)
    opts = resolve_options("chrf", options, lp=lp)
    return reference_order_note(refs, hyps, opts, _reference_names(references))


def segment_texts(
    references: Files,
    hypotheses: Files,
    x: str,
    y: str,
    *,
    source: FileInput | None = None,
) -> pd.DataFrame:
    """The texts of every segment for comparing systems ``x`` and ``y``.

    Parameters
    ----------
    references, hypotheses : Files
        As for :func:`text_statistics`.
    x, y : str
        Two systems (hypothesis file names without extension).
    source : FileInput, optional
        The source text, one line per segment.

    Returns
    -------
    DataFrame
        Index: segment ids (line numbers, as :func:`text_statistics` gives them); columns
        ``source`` (when given), ``reference`` (the first reference file), ``x`` and ``y``
        (the two systems' hypotheses) and ``length`` (reference words, split on whitespace).

    Raises
    ------
    StatsInputError
        Anything :func:`stats.readers.segments.read_parallel` rejects; an unknown system; a
        source with another number of lines than the reference (naming both files and counts).
    """
    refs, hyps = read_parallel(references, hypotheses)
    for name in (x, y):
        if name not in hyps:
            raise StatsInputError(f"unknown system {name!r}; known systems: {name_list(hyps)}")
    first = refs[0]
    columns = {}
    if source is not None:
        src, name = _named(source)
        lines, label = read_lines(src, name)
        if len(lines) != len(first):
            one = references if isinstance(references, (str, os.PathLike)) else references[0]
            ref_label = source_name(*_named(one))
            raise StatsInputError(
                f"{label} has {len(lines)} lines but {ref_label} has {len(first)}; the source "
                "text needs one line per segment"
            )
        columns["source"] = lines
    columns.update(reference=first, x=hyps[x], y=hyps[y])
    frame = pd.DataFrame(columns, index=pd.Index([str(i + 1) for i in range(len(first))]))
    frame.index.name = "segment"
    frame["length"] = frame["reference"].str.split().str.len().astype(np.int64)
    return frame


def score_statistics(
    scores: FileInput | Files,
    *,
    metric: str | None = None,
    lower_is_better: bool | Callable[[str], bool] = False,
    lp: str | None = None,
    testset: str | None = None,
    refset: str | None = None,
) -> SegmentStatistics:
    """Segment scores as :class:`~stats.mt.sufficient.SegmentStatistics` (the corpus score is the
    mean): one file, long ``SYSTEM SEGMENT SCORE [METRIC]`` or wide, or WMT metrics task
    segment-level files (:func:`wmt_segment_scores`).

    .. math:: \\bar x_j = \\frac{1}{n} \\sum_{i=1}^{n} x_{ij}

    Parameters
    ----------
    scores : FileInput or Files
        One file, or several WMT segment-level files (gzip, .zip and .tar.gz archives and
        directories are read as the files they hold).
    metric : str, optional
        Which METRIC to use when the files hold several (case-insensitive).
    lower_is_better : bool or callable
        Whether a lower score is better; or a function of the metric's name (the METRIC value,
        ``'mean'`` for a file without one) that says so (and may raise for a name it does not
        expect).
    lp, testset, refset : str, optional
        WMT files only: the language pair, test set and reference (REFSET) when the metric has
        several; the default reference is the test set's own (REFSET = TESTSET).

    Raises
    ------
    StatsInputError
        Fewer than two systems (the file named); anything
        :func:`stats.readers.segments.read_segment_scores` or :func:`wmt_segment_scores`
        rejects; ``lp``, ``testset`` or ``refset`` for a file that is not a WMT one.
    """
    sources = _score_sources(scores)
    if plain := _plain_file(sources):
        name, data = plain
        given = [k for k, v in (("lp", lp), ("testset", testset), ("refset", refset)) if v]
        if given:
            raise StatsInputError(
                f"{name}: {', '.join(given)} only for WMT metrics task segment-level files "
                "(METRIC LP TESTSET REFSET SYSTEM DOCID SEGID SCORE); this is not one"
            )
        frame = read_segment_scores(data, metric=metric, name=name)
        label = name
    else:
        frame = _wmt_block(_read_wmt_segments(sources), metric, lp, testset, refset)
        label = ", ".join(dict.fromkeys(n for n, _ in sources))
    block = tuple(frame.attrs.get("block", {}).items())
    lower = (
        lower_is_better(str(frame.columns.name or "mean"))
        if callable(lower_is_better)
        else bool(lower_is_better)
    )
    _check_two_systems(frame.shape[1], frame.columns, label)
    seg = statistics_from_scores(
        frame, label=frame.columns.name or "mean score", higher_is_better=not lower
    )
    return dataclasses.replace(seg, block=block) if block else seg


# ---- WMT metrics task segment-level files ----

#: WMT segment columns kept from the reader (besides ``_line``)
_WMT_COLUMNS = ["metric", "lp", "testset", "refset", "system", "docid", "segid", "score"]


@dataclass(frozen=True, kw_only=True)
class ScoreFileOptions:
    """What segment-score files offer to choose from.

    Attributes
    ----------
    metrics : tuple of str
        METRIC names in file order (``()`` for a file without a METRIC column).
    blocks : tuple of (metric, lp, testset, refset)
        WMT metrics task files: every block present, in file order (``()`` for other files).
    """

    metrics: tuple = ()
    blocks: tuple = ()

    @property
    def wmt(self) -> bool:
        """True for WMT metrics task segment-level files."""
        return bool(self.blocks)

    def _values(self, column: int, **where) -> list[str]:
        names = ("metric", "lp", "testset", "refset")
        keep = [b for b in self.blocks if all(b[names.index(k)] == v for k, v in where.items())]
        return list(dict.fromkeys(b[column] for b in keep))

    def lps(self, metric: str) -> list[str]:
        """Language pairs of ``metric``, in file order."""
        return self._values(1, metric=metric)

    def testsets(self, metric: str, lp: str) -> list[str]:
        """Test sets of ``metric`` and ``lp``, in file order."""
        return self._values(2, metric=metric, lp=lp)

    def refsets(self, metric: str, lp: str, testset: str) -> list[str]:
        """References (REFSET) of ``metric``, ``lp`` and ``testset``: the test set's own
        first, then the others in file order."""
        refs = self._values(3, metric=metric, lp=lp, testset=testset)
        return sorted(refs, key=lambda r: r != testset)


def score_file_options(scores: FileInput | Files) -> ScoreFileOptions:
    """The metrics (and, for WMT metrics task files, the blocks) that ``scores`` holds, for a
    page's selectors; see :func:`score_statistics` for ``scores``."""
    sources = _score_sources(scores)
    if plain := _plain_file(sources):
        name, data = plain
        return ScoreFileOptions(metrics=score_file_metrics(data, name=name))
    frame = _read_wmt_segments(sources)
    keys = frame[["metric", "lp", "testset", "refset"]].drop_duplicates()
    blocks = tuple(tuple(str(v) for v in row) for row in keys.itertuples(index=False))
    return ScoreFileOptions(metrics=tuple(dict.fromkeys(b[0] for b in blocks)), blocks=blocks)


def wmt_segment_scores(
    scores: FileInput | Files,
    *,
    metric: str | None = None,
    lp: str | None = None,
    testset: str | None = None,
    refset: str | None = None,
) -> pd.DataFrame:
    """The segment scores of one block of WMT metrics task segment-level files.

    Parameters
    ----------
    scores : FileInput or Files
        ``METRIC LP TESTSET REFSET SYSTEM DOCID SEGID SCORE [ENSEMBLE AVAILABLE]`` files
        (:func:`stats.readers.wmt.read_wmt_scores`; header optional, gzip, archives and
        directories read as the files they hold).
    metric, lp, testset : str, optional
        Required when the files hold several (the metric case-insensitive).
    refset : str, optional
        The reference; by default the test set's own (REFSET = TESTSET), or the only one
        (:func:`stats.readers.wmt.select_refsets`).

    Returns
    -------
    DataFrame
        Rows = items ``(DOCID, SEGID)`` labelled ``"DOCID:SEGID"`` (file order), columns =
        systems (file order), ``columns.name`` = the metric; ``attrs["block"]`` = ``{"lp",
        "testset", "refset"}``, the block chosen (defaults included).

    Raises
    ------
    StatsInputError
        A file that is not a segment-level WMT file, or any row the reader rejects (file and
        line); several metrics, language pairs, test sets or references and none chosen, or
        one chosen that is absent (naming those present); the same item twice for a system
        (file and lines); a system without a score for an item other systems have.
    """
    return _wmt_block(_read_wmt_segments(_score_sources(scores)), metric, lp, testset, refset)


def _score_sources(scores) -> list[tuple[str, bytes]]:
    """``(display name, bytes)`` of every file (gunzipped; archives and directories
    expanded)."""
    single = isinstance(scores, (str, os.PathLike)) or (
        isinstance(scores, tuple)
        and len(scores) == 2
        and isinstance(scores[0], str)
        and isinstance(scores[1], (bytes, bytearray, memoryview))
    )
    items = [scores] if single else list(scores)
    if not items:
        raise StatsInputError("scores: no file given")
    out = []
    for name, src in expand_sources(items, skip=(".sys.score", ".doc.score")):
        data, label = load_bytes(src, name)
        out.append((label, data))
    return out


def _plain_file(sources: list[tuple[str, bytes]]) -> tuple[str, bytes] | None:
    """The one source when it is a long or wide segment-score file (not a WMT one)."""
    if len(sources) == 1 and not _is_wmt_segment_file(*sources[0]):
        return sources[0]
    return None


def _is_wmt_segment_file(name: str, data: bytes) -> bool:
    """Whether the first line of ``data`` is a WMT segment-level header or row."""
    head = data[:65536].decode("utf-8-sig", errors="replace")
    try:
        _, rows, _ = split_lines(head, name, header=False)
    except StatsInputError:
        return False
    return detect_wmt_format(rows[0][1]) == "wmt-seg"


def _read_wmt_segments(sources: list[tuple[str, bytes]]) -> pd.DataFrame:
    """Every row of the WMT segment-level files, with ``_file`` (index into ``sources``) and
    ``_line``."""
    frames = []
    for k, (name, data) in enumerate(sources):
        if len(sources) > 1 and not _is_wmt_segment_file(name, data):
            raise StatsInputError(
                f"{name}, line 1: not a WMT metrics task segment-level file (METRIC LP TESTSET "
                "REFSET SYSTEM DOCID SEGID SCORE); several score files must all be"
            )
        frame = read_wmt_scores(data, name=name, level="seg").frame
        frame = frame[[*_WMT_COLUMNS, "_line"]].astype({c: str for c in _WMT_COLUMNS[:-1]})
        frames.append(frame.assign(_file=k, _name=name))
    return pd.concat(frames, ignore_index=True)


def _pick(values: pd.Series, choice: str | None, what: str, option: str, where: str) -> str:
    """The one value of ``values`` meant by ``choice`` (case-insensitive), or the only one."""
    present = list(dict.fromkeys(values))
    if choice is None:
        if len(present) == 1:
            return present[0]
        raise StatsInputError(
            f"{where}: several {what}s ({name_list(present)}); choose one with {option}"
        )
    match = [v for v in present if v.lower() == str(choice).lower()]
    if not match:
        raise StatsInputError(
            f"{where}: {what} {choice!r} not found; present: {name_list(present)}"
        )
    return match[0]


def _wmt_block(frame: pd.DataFrame, metric, lp, testset, refset) -> pd.DataFrame:
    """The segments x systems scores of one block of :func:`_read_wmt_segments`' rows."""
    files = ", ".join(dict.fromkeys(frame["_name"]))
    m = _pick(frame["metric"], metric, "metric", "metric=NAME", files)
    frame = frame[frame["metric"] == m]
    files = ", ".join(dict.fromkeys(frame["_name"]))
    pair = _pick(frame["lp"], lp, "language pair", "lp=XX-YY", f"{files}, metric {m}")
    frame = frame[frame["lp"] == pair]
    where = f"{files}, metric {m}, {pair}"
    test = _pick(frame["testset"], testset, "test set", "testset=NAME", where)
    frame = frame[frame["testset"] == test]
    if refset == "all":
        raise StatsInputError(
            f"{where}: refset 'all' does not apply to segment scores; choose one reference"
        )
    ref = select_refsets(frame["refset"], test, refset, f"{where} / {test}")[0]
    frame = frame[frame["refset"] == ref]
    names = list(frame["_name"])
    lines = frame["_line"].to_numpy()
    system, sys_order = pd.factorize(frame["system"])
    item, items = pd.factorize(frame["docid"] + "\x00" + frame["segid"])
    wide = pivot_scores(
        system.astype(np.int64),
        [str(s) for s in sys_order],
        item.astype(np.int64),
        [str(i).replace("\x00", ":") for i in items],
        frame["score"].to_numpy(dtype=float),
        label=", ".join(dict.fromkeys(names)) + f" ({m}, {pair}, {test}, reference {ref})",
        rows=lambda i, j: (
            f"{names[i]}, lines {lines[i]} and {lines[j]}"
            if names[i] == names[j]
            else f"{names[i]}, line {lines[i]} and {names[j]}, line {lines[j]}"
        ),
        metric=m,
    )
    wide.attrs["block"] = {"lp": str(pair), "testset": str(test), "refset": str(ref)}
    return wide


def without_systems(data: SegmentStatistics, excluded: Sequence[str]) -> SegmentStatistics:
    """``data`` without the systems named in ``excluded`` (the others keep their order), for
    tests and tables recomputed as if those systems had not been given.

    Raises
    ------
    StatsInputError
        An excluded name that is no system of ``data``; fewer than two systems left.
    """
    excluded = [str(s) for s in excluded]
    unknown = [s for s in excluded if s not in data.systems]
    if unknown:
        raise StatsInputError(
            f"excluded: unknown system(s) {name_list(unknown)}; known systems: "
            f"{name_list(data.systems)}"
        )
    kept = [s for s in data.systems if s not in set(excluded)]
    _check_two_systems(len(kept), kept, f"after leaving out {name_list(excluded)}")
    return data.subset(kept)


def pair_tests(
    data: SegmentStatistics,
    x: str,
    y: str,
    *,
    tests: Sequence[str],
    n_resamples: int,
    alternative: str = "greater",
    rng=None,
) -> dict[str, RandomizedTestResult]:
    """The randomized ``tests`` (names of :data:`stats.mt.randomized.RANDOMIZED_TESTS`) of
    system ``x`` against ``y``, with their pseudo-statistic distributions; with the same
    integer ``rng`` the p-values equal those of
    :func:`stats.mt.randomized.pairwise_significance`."""
    check_rng(rng)
    unknown = [t for t in tests if t not in _SINGLE_TESTS]
    if unknown:
        raise StatsInputError(
            f"tests: unknown test(s) {', '.join(map(repr, unknown))}; choose from "
            f"{', '.join(_SINGLE_TESTS)}"
        )
    return {
        t: _SINGLE_TESTS[t](
            x, y, data=data, alternative=alternative, n_resamples=n_resamples, rng=rng
        )
        for t in tests
    }


def systems_table_analysis(
    *,
    references: Files = (),
    hypotheses: Files = (),
    scores: FileInput | None = None,
    metrics: Sequence[str] | None = None,
    lower_is_better: bool | Callable[[str], bool] = False,
    baseline: str | None = None,
    test: str = "paired-bootstrap",
    n_resamples: int | None = None,
    rng=None,
    jobs: int | None = None,
    progress: Callable[[float], None] | None = None,
    load: Callable[[str], SegmentStatistics] | None = None,
    options: Mapping[str, Mapping] | None = None,
    lp: str | None = None,
) -> SystemsTableResult:
    """The sacreBLEU-style systems table (:func:`stats.mt.baseline_table.systems_table`) of text
    files or of a segment-score file.

    Parameters
    ----------
    references, hypotheses : Files
        Text input: reference file(s) and one output file per system.
    scores : FileInput, optional
        Segment-score input instead (long ``SYSTEM SEGMENT SCORE [METRIC]`` or wide).
    metrics : sequence of str, optional
        Text: names of :data:`TEXT_METRICS` (default all three, in that order). Scores: names
        of the file's METRIC column (default every metric of the file; a file without one has
        the single metric ``""``).
    lower_is_better : bool or callable
        Scores only: see :func:`score_statistics` (the table's p-values are two-sided, so the
        direction only labels the metric).
    baseline, test, n_resamples, rng, jobs, progress
        See :func:`stats.mt.baseline_table.systems_table` (``jobs`` also extracts TER).
    load : callable, optional
        ``load(metric)`` returns the statistics of one metric in place of reading the files
        (the dashboard passes its cached extraction); the metric names are those above.
    options, lp : optional
        Text: sacreBLEU's options per metric (``{"bleu": {"tokenize": "char"}}``) and the
        language pair, as for :func:`text_statistics`.

    Raises
    ------
    StatsInputError
        An unknown metric or baseline, and anything the readers reject.
    """
    check_rng(rng)
    if scores is not None:
        source, name = _named(scores)
        found = score_file_metrics(source, name=name) or ("",)
        chosen = tuple(found) if metrics is None else tuple(metrics)
        if "" not in found:
            lowered = {m.lower(): m for m in found}
            unknown = [m for m in chosen if m.lower() not in lowered]
            if unknown:
                raise StatsInputError(
                    f"metrics: {', '.join(map(repr, unknown))} not in the METRIC column of "
                    f"{source_name(source, name)} ({', '.join(found)})"
                )

        def read(metric: str) -> SegmentStatistics:
            return score_statistics(scores, metric=metric or None, lower_is_better=lower_is_better)
    else:
        chosen = TEXT_METRICS if metrics is None else tuple(metrics)
        unknown = [m for m in chosen if m not in TEXT_METRICS]
        if unknown:
            raise StatsInputError(
                f"metrics: unknown text metric(s) {', '.join(map(repr, unknown))}; choose from "
                f"{', '.join(TEXT_METRICS)}"
            )

        def read(metric: str) -> SegmentStatistics:
            return text_statistics(
                references, hypotheses, metric=metric, jobs=jobs,
                options=(options or {}).get(metric), lp=lp,
            )
    if not chosen:
        raise StatsInputError("metrics: choose at least one metric")
    data = [(load or read)(m) for m in dict.fromkeys(chosen)]
    return systems_table(
        data, baseline=baseline, test=test, n_resamples=n_resamples, rng=rng, jobs=jobs,
        progress=progress,
    )
