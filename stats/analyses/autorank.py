"""WMT25's automatic ranking (AutoRank) from the general task's ``automatic_scores/*.jsonl``
files, with the uncertainty the organisers do not publish: one workflow for the CLI
(``python -m stats autorank``) and the dashboard's AutoRank page.

Files -> :func:`read_autorank_scores` (:class:`~stats.readers.wmt25.WMT25Scores`) ->
:func:`autorank_analysis`: per language pair, the metric set (``metrics``, or a preset:
``'wmt25'``, the organisers' choice, by default), AutoRank
(:func:`stats.mt.automatic_ranking.autorank`), with ``intervals`` the paired bootstrap over documents
(:func:`stats.mt.automatic_ranking.autorank_bootstrap`), and the paragraph-level Pearson correlations
between the pair's metrics (:func:`stats.mt.automatic_ranking.paragraph_correlations`).
"""

from __future__ import annotations

import dataclasses
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError
from stats._core.random import rng_and_seed, seeded_rng
from stats.mt.automatic_ranking import (
    AUTORANK_PRESETS,
    AutoRankBootstrapResult,
    AutoRankResult,
    ParagraphArrays,
    autorank,
    autorank_bootstrap,
    autorank_metrics,
    paragraph_correlations,
)

from ..readers.wmt25 import WMT25Scores, read_wmt25_scores
from ._inputs import Files, _recorded
from .wmt25_texts import AUTORANK_TEXT_METRICS, _references, autorank_texts

__all__ = [
    "AutoRankAnalysis",
    "AutoRankLanguagePair",
    "autorank_analysis",
    "autorank_metric_set",
    "read_autorank_scores",
    "WMT25TextStatistics",
    "wmt25_text_statistics",
]

#: the column numbering the documents of the WMT25 files, (domain, document_id) within a pair
#: (the bootstrap's unit)
DOCUMENT = "doc"


@dataclass(frozen=True, kw_only=True)
class AutoRankLanguagePair:
    """AutoRank of one language pair.

    Attributes
    ----------
    lp : str
    metric_set : str
        Where the metrics came from: ``'wmt25 preset'`` or ``'metrics'`` (the user's).
    point : AutoRankResult
        The ranking (the organisers' table: AutoRank and each metric's mean).
    bootstrap : AutoRankBootstrapResult or None
        Intervals, pairwise p-values and clusters (None when not asked for).
    correlations : pandas.DataFrame
        Paragraph-level Pearson r between every metric present in the language pair.
    n_paragraphs : pandas.Series
        Paragraphs with a value, per metric present.
    """

    lp: str
    metric_set: str
    point: AutoRankResult
    bootstrap: AutoRankBootstrapResult | None
    correlations: pd.DataFrame
    n_paragraphs: pd.Series

    @property
    def metrics(self) -> tuple[str, ...]:
        return self.point.metrics

    def cannot_separate(self) -> list[tuple[str, str, float]]:
        """``(better, worse, p)`` of each pair of neighbours in the ranking that the data
        cannot separate (adjusted p >= alpha); empty without a bootstrap."""
        if self.bootstrap is None:
            return []
        n = self.bootstrap.neighbours()
        n = n[~n["separated"]]
        return list(zip(n["better"], n["worse"], n["pvalue"].astype(float), strict=True))

    def to_dict(self) -> dict:
        """The pair as the CLI's JSON holds it (numbers as numpy/pandas give them; NaN where
        undefined): ``lp``, ``metrics``, ``systems`` (best first: ``system``, ``autorank``,
        ``scores``, and with a bootstrap ``interval`` and ``cluster``), ``pvalues``,
        ``clusters``, ``cannot_separate`` and the settings."""
        point, boot = self.point, self.bootstrap
        # whole columns to Python floats at once (a cell lookup each costs more than all)
        names = list(point.systems)
        autorank = point.autorank.to_numpy(dtype=float).tolist()
        columns = [str(m) for m in point.scores.columns]
        means = point.scores.to_numpy(dtype=float).tolist()
        if boot is not None:
            low = boot.interval_low.reindex(names).to_numpy(dtype=float).tolist()
            high = boot.interval_high.reindex(names).to_numpy(dtype=float).tolist()
            rank = boot.significance.rank.reindex(names).to_numpy().tolist()
        systems = []
        for i, s in enumerate(names):
            row = {"system": s, "autorank": autorank[i], "scores": dict(zip(columns, means[i], strict=True))}
            if boot is not None:
                row["interval"] = [low[i], high[i]]
                row["cluster"] = int(rank[i])
            systems.append(row)
        out: dict = {
            "lp": self.lp,
            "metrics": list(point.metrics),
            "metric_set": self.metric_set,
            "left_out": list(point.left_out),
            "documents": point.n_documents,
            "systems": systems,
        }
        if boot is not None:
            sig = boot.significance
            out.update(
                {
                    "pvalues": _grid(boot.pvalue),
                    "clusters": [list(c) for c in boot.clusters],
                    "cannot_separate": [list(t) for t in self.cannot_separate()],
                    "confidence_level": boot.confidence_level,
                    "n_resamples": boot.n_resamples,
                    "n_defined": boot.n_defined,
                    "alpha": sig.alpha,
                    "correction": sig.correction,
                    "sidedness": sig.sidedness,
                    "test_note": sig.test_note,
                }
            )
            if sig.correction != "none":
                out["pvalues_adjusted"] = _grid(sig.pvalue_adjusted)
        out["correlations"] = _grid(self.correlations)
        return out


def _grid(frame: pd.DataFrame) -> dict:
    """``{row: {column: float}}`` of a square frame (names as str)."""
    columns = [str(c) for c in frame.columns]
    values = frame.to_numpy(dtype=float).tolist()
    return {str(r): dict(zip(columns, v, strict=True)) for r, v in zip(frame.index, values, strict=True)}


@dataclass(frozen=True, kw_only=True)
class AutoRankAnalysis:
    """Result of :func:`autorank_analysis`.

    Attributes
    ----------
    language_pairs : tuple of AutoRankLanguagePair
        In the order asked for (default: sorted).
    read_as : str
        What the files were read as.
    notes : tuple of str
        The reader's counts of what is missing, and each pair's metric set and left-out
        metrics or systems.
    warnings : tuple of str
        DegenerateInputWarning messages raised (each once).
    seed : int or None
    """

    language_pairs: tuple[AutoRankLanguagePair, ...]
    read_as: str
    notes: tuple[str, ...]
    warnings: tuple[str, ...]
    seed: int | None = None

    def pair(self, lp: str) -> AutoRankLanguagePair:
        for r in self.language_pairs:
            if r.lp == lp:
                return r
        raise StatsInputError(f"lp: {lp!r} was not ranked")


def read_autorank_scores(files: Files | WMT25Scores) -> WMT25Scores:
    """:func:`stats.readers.wmt25.read_wmt25_scores` (a WMT25Scores passes through)."""
    if isinstance(files, WMT25Scores):
        return files
    return read_wmt25_scores(files)


def autorank_metric_set(
    scores: WMT25Scores, lp: str, *, metrics: Sequence[str] | None = None,
    preset: str | None = None, texts=None,
) -> tuple[tuple[str, ...], str]:  # fmt: skip
    """The metrics ranked for ``lp`` and where they came from: ``metrics`` when given, else
    the ``preset`` (default ``'wmt25'``: :func:`stats.mt.automatic_ranking.autorank_metrics`). Every
    metric must have values in ``lp``; ``texts`` (:func:`stats.analyses.wmt25_texts.autorank_texts`)
    adds BLEU and corpus-chrF++ where the pair has references."""
    have = scores.metrics_of(lp) + (texts.metrics_of(lp) if texts is not None else ())
    known = scores.metrics + (tuple(AUTORANK_TEXT_METRICS) if texts is not None else ())
    if metrics is not None and preset is not None:
        raise StatsInputError("metrics and preset: give one of them")
    if metrics is not None:
        chosen = tuple(dict.fromkeys(str(m) for m in metrics))
        if not chosen:
            raise StatsInputError("metrics: give at least one metric")
        unknown = [m for m in chosen if m not in known]
        if unknown:
            hint = "" if texts is not None else (
                f"; {', '.join(AUTORANK_TEXT_METRICS)} need the system outputs and references (outputs and "
                "references; --outputs and --references)"
            )  # fmt: skip
            raise StatsInputError(
                f"metrics: {', '.join(unknown)} not among the metrics read "
                f"({', '.join(known)}){hint}"
            )
        source = "metrics"
    else:
        preset = "wmt25" if preset is None else preset
        if preset not in AUTORANK_PRESETS:
            raise StatsInputError(
                f"preset must be one of {', '.join(map(repr, AUTORANK_PRESETS))}; got {preset!r}"
            )
        chosen = autorank_metrics(lp, preset=preset)
        source = f"{preset} preset"
    absent = [m for m in chosen if m not in have]
    if absent:
        raise StatsInputError(
            f"{lp}: no value of {', '.join(absent)} ({source}); the metrics there are "
            f"{', '.join(have) or 'none'} (choose another metric set, or other language pairs)"
        )
    return chosen, source


def _systems_metadata(source):
    """The systems metadata (:func:`stats.readers.wmt25_metadata.read_wmt25_systems_metadata`)
    of a path, bytes or ``(name, bytes)``; None for None."""
    from ..readers.wmt25_metadata import WMT25SystemsMetadata, read_wmt25_systems_metadata

    if source is None or isinstance(source, WMT25SystemsMetadata):
        return source
    if isinstance(source, tuple) and len(source) == 2 and isinstance(source[0], str):
        return read_wmt25_systems_metadata(source[1], name=source[0])
    return read_wmt25_systems_metadata(source)


def _team_filter(frame: pd.DataFrame, teams, lp: str, notes: list) -> pd.DataFrame:
    """The rows of the systems ``teams`` lists with ``lp``; those left out named in ``notes``."""
    from ..readers.wmt25_metadata import filter_note

    present = sorted(set(frame["system"].unique().tolist()))
    not_listed = [s for s in present if s not in teams.lps]
    without_lp = [s for s in present if s in teams.lps and not teams.registered(s, lp)]
    if not (not_listed or without_lp):
        return frame
    notes.extend(filter_note(lp, not_listed, without_lp))
    return frame[~frame["system"].isin([*not_listed, *without_lp])].reset_index(drop=True)


def _lp_rng(rng, seed: int | None, lp: str):
    """An int seed gives each language pair its own stream (:func:`stats._core.random.seeded_rng`
    keyed by the CRC-32 of the pair's name), so a pair's intervals do not depend on the other
    pairs ranked."""
    if seed is None:
        return rng
    return seeded_rng(seed, zlib.crc32(lp.encode("utf-8")))


def _share(progress, i: int, n: int):
    """``progress`` of pair ``i`` of ``n``: its fraction done mapped to its share of all."""
    if progress is None:
        return None

    def report(fraction: float) -> None:
        progress((i + fraction) / n)

    return report


def autorank_analysis(
    files: Files | WMT25Scores,
    *,
    lps: Sequence[str] | None = None,
    metrics: Sequence[str] | None = None,
    preset: str | None = None,
    intervals: bool = True,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    alpha: float = 0.05,
    correction: str = "none",
    alternative: str = "greater",
    rng=None,
    progress: Callable[[float], None] | None = None,
    systems_metadata=None,
    outputs=None,
    references=None,
) -> AutoRankAnalysis:
    """AutoRank per language pair from WMT25 automatic-scores files, with its uncertainty.

    Parameters
    ----------
    files : Files or WMT25Scores
        ``automatic_scores/*.jsonl`` files, folders or archives (or what
        :func:`read_autorank_scores` returned).
    lps : sequence of str, optional
        Language pairs to rank (default: all, sorted).
    metrics : sequence of str, optional
        The metric set, the same for every pair (default: the ``preset``).
    preset : {'wmt25'}, optional
        The organisers' metric set per pair (the default when ``metrics`` is not given).
    intervals : bool
        Run the paired bootstrap over documents (default True); False gives the point
        ranking alone.
    n_resamples, confidence_level, alpha, correction, alternative
        As :func:`stats.mt.automatic_ranking.autorank_bootstrap`.
    rng : int, numpy.random.Generator or None
        An int seeds each language pair's own stream (seed and the pair's name).
    progress : callable, optional
        Called with the fraction of the pairs' resamples done.
    systems_metadata : path, bytes, (name, bytes) or WMT25SystemsMetadata, optional
        WMT25's ``systems_metadata_updated3.json`` (or ``systems_metadata.json``): the
        organisers' team filter. Each pair ranks only the systems whose record lists it
        (:mod:`stats.readers.wmt25_metadata`), as their ``compute_autorank.py`` does, before
        anything is scaled; every system left out is named in the notes, with why.
    outputs, references : optional
        The system outputs (``systems/SYSTEM.jsonl`` files, folder or archive) and the test set
        with its references (``wmt25-genmt.jsonl``), both or neither: they add ``BLEU`` and
        ``corpus-chrF++`` (sacreBLEU's corpus scores over the paragraphs with a reference,
        :mod:`stats.analyses.wmt25_texts`) to the metrics ``metrics`` may name.

    Returns
    -------
    AutoRankAnalysis
    """
    gen, seed = rng_and_seed(rng)
    if isinstance(lps, str):  # one language pair, not its characters
        lps = [lps]
    if isinstance(metrics, str):
        metrics = [metrics]
    teams = _systems_metadata(systems_metadata)  # the small file first: refused before the big
    if (outputs is None) != (references is None):
        raise StatsInputError(
            "outputs and references: give both (the systems' outputs and wmt25-genmt.jsonl) "
            "for BLEU and chrF++, or neither"
        )
    if references is not None:  # refused before the many files are read
        references = _references(references)
    scores = read_autorank_scores(files)
    wanted = list(scores.lps) if lps is None else list(dict.fromkeys(map(str, lps)))
    unknown = [lp for lp in wanted if lp not in scores.lps]
    if unknown:
        raise StatsInputError(
            f"lp: {', '.join(unknown)} not among the language pairs read "
            f"({', '.join(scores.lps)})"
        )
    if not wanted:
        raise StatsInputError("lp: give at least one language pair")
    out = []
    notes = list(scores.notes)
    texts = None
    read_as = scores.read_as
    if outputs is not None:
        clash = [m for m in AUTORANK_TEXT_METRICS if m in scores.metrics]
        if clash:
            raise StatsInputError(
                f"the automatic scores already hold a metric named {', '.join(clash)}: rename "
                "it, or leave out the outputs and references"
            )
        needed = metrics is not None and any(m in AUTORANK_TEXT_METRICS for m in metrics)
        texts = autorank_texts(outputs, references, lps=wanted if needed else ())
        read_as = "\n".join((read_as, *texts.read_as))
        if not needed:
            notes.append(
                f"outputs and references read; {' and '.join(AUTORANK_TEXT_METRICS)} are not in the "
                "metric set (name them in metrics, --metrics)"
            )
    if teams is not None:
        notes.append(teams.read_as.replace("read as", f"{teams.file}: read as", 1))
        unscored = sorted(set(teams.lps) - set(scores.systems))
        if unscored:
            notes.append(
                f"{len(unscored)} system(s) of the systems metadata have no automatic scores: "
                f"{', '.join(unscored)}"
            )
    elif metrics is None and preset in (None, "wmt25"):
        notes.append(
            "wmt25 preset: the organisers rank, per language pair, only the systems that "
            "data/systems_metadata_updated3.json lists for it; give that file "
            "(systems_metadata, --systems-metadata) to apply their team filter"
        )
    with _recorded() as messages:
        for i, lp in enumerate(wanted):
            chosen, source = autorank_metric_set(
                scores, lp, metrics=metrics, preset=preset, texts=texts
            )
            present = list(scores.metrics_of(lp))
            with_texts = texts is not None and any(m in AUTORANK_TEXT_METRICS for m in chosen)
            corpus = None
            if teams is not None or with_texts:  # the team filter and the texts join by rows
                frame = scores.language_pair(lp)
                if teams is not None:
                    frame = _team_filter(frame, teams, lp, notes)
                if with_texts:
                    corpus, joined = texts.corpus(lp, frame, chosen)
                    notes.extend(joined)
                n_paragraphs = frame[present].notna().sum()
            else:  # the same paragraphs as arrays: no DataFrame of the pair's rows
                frame = ParagraphArrays(**scores.language_pair_arrays(lp)._asdict())
                missing = np.isnan(frame.values).sum(axis=0)
                n_paragraphs = pd.Series(len(frame.values) - missing, index=pd.Index(present))
            if intervals:
                boot = autorank_bootstrap(
                    frame, metrics=chosen, lp=lp, document=DOCUMENT, n_resamples=n_resamples,
                    confidence_level=confidence_level, alpha=alpha, correction=correction,
                    alternative=alternative, rng=_lp_rng(gen, seed, lp),
                    progress=_share(progress, i, len(wanted)), corpus=corpus,
                )  # fmt: skip
                boot = dataclasses.replace(boot, seed=seed)
                point = boot.point
            else:
                boot = None
                point = autorank(frame, metrics=chosen, lp=lp, document=DOCUMENT, corpus=corpus)
            notes.append(f"{lp}: metric set ({source}): {', '.join(point.metrics)}")
            notes.extend(f"{lp}: {n}" if not n.startswith(lp) else n for n in point.notes)
            out.append(
                AutoRankLanguagePair(
                    lp=lp,
                    metric_set=source,
                    point=point,
                    bootstrap=boot,
                    correlations=paragraph_correlations(frame, metrics=present),
                    n_paragraphs=n_paragraphs,
                )
            )
    if texts is not None:
        notes.extend(texts.notes)
    return AutoRankAnalysis(
        language_pairs=tuple(out),
        read_as=read_as,
        notes=tuple(dict.fromkeys(notes)),
        warnings=tuple(messages),
        seed=seed,
    )


@dataclass(frozen=True, kw_only=True)
class WMT25TextStatistics:
    """Result of :func:`wmt25_text_statistics`.

    Attributes
    ----------
    statistics : SegmentStatistics
        sacreBLEU's sufficient statistics per document (documents as segments) of every system
        with all the references' documents: the input of :func:`stats.pairwise_significance`
        and :func:`stats.systems_table`; ``statistics.corpus_scores`` are sacreBLEU's corpus
        scores over the documents.
    documents : tuple of (str, str)
        (domain, document id) of each segment, in order.
    left_out : tuple of str
        Systems without some reference document (never filled in).
    read_as, notes : tuple of str
    """

    statistics: object
    documents: tuple[tuple[str, str], ...]
    left_out: tuple[str, ...]
    read_as: tuple[str, ...]
    notes: tuple[str, ...]


def wmt25_text_statistics(
    outputs, references, *, lp: str, metric: str = "chrf", **options
) -> WMT25TextStatistics:
    """BLEU, chrF or chrF++ (``metric='chrf', word_order=2``) statistics of WMT25 system
    outputs against references in the same layout (``systems/SYSTEM.jsonl``), one segment per
    document of language pair ``lp``.

    Parameters
    ----------
    outputs, references : Files or WMT25Outputs
        The systems' files and the reference files (each reference file one reference
        stream; several give several references, as sacreBLEU's ``-r refA refB``).
    lp : str
        The language pair.
    metric : {'bleu', 'chrf', 'ter'}
    **options
        sacreBLEU's options under its names (``tokenize``, ``lowercase``, ``word_order=2``).

    Returns
    -------
    WMT25TextStatistics
    """
    from stats.mt.sufficient import extract_statistics

    from ..readers.wmt25_outputs import WMT25Outputs, read_wmt25_outputs

    out = outputs if isinstance(outputs, WMT25Outputs) else read_wmt25_outputs(outputs)
    ref = references if isinstance(references, WMT25Outputs) else read_wmt25_outputs(references)
    if lp not in ref.lps:
        raise StatsInputError(f"lp: {lp!r} not among the references' language pairs ({', '.join(ref.lps)})")
    refs = ref.documents[ref.documents["lp"] == lp]
    streams = {}
    for name, block in refs.groupby("system", sort=True):
        streams[name] = {(d, doc): t for d, doc, t in zip(block["domain"], block["document"], block["text"], strict=True) if t is not None}
    keys = sorted(next(iter(streams.values())))
    for name, texts in streams.items():
        if sorted(texts) != keys:
            raise StatsInputError(
                f"references: {name} holds {len(texts)} documents of {lp} where another reference "
                f"holds {len(keys)}; every reference must hold the same documents"
            )
    hyps = out.documents[out.documents["lp"] == lp]
    systems, left_out, notes = {}, [], []
    for name, block in hyps.groupby("system", sort=True):
        texts = {(d, doc): t for d, doc, t in zip(block["domain"], block["document"], block["text"], strict=True) if t is not None}
        missing = [k for k in keys if k not in texts]
        if missing:
            left_out.append(name)
            notes.append(
                f"{lp}, {name}: {len(missing):,} of the {len(keys):,} reference documents absent; "
                "left out (not filled in)"
            )
            continue
        extra = len(set(texts) - set(keys))
        if extra:
            notes.append(f"{lp}, {name}: {extra:,} documents without a reference not scored")
        systems[name] = [texts[k] for k in keys]
    if not systems:
        raise StatsInputError(f"outputs: no system holds every reference document of {lp}")
    statistics = extract_statistics(
        [[s[k] for k in keys] for s in streams.values()], systems, metric=metric, **options
    )
    return WMT25TextStatistics(
        statistics=statistics,
        documents=tuple(keys),
        left_out=tuple(left_out),
        read_as=(out.read_as, ref.read_as.replace("system outputs", "references")),
        notes=(*out.notes, *ref.notes, *notes),
    )
