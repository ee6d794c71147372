"""Tests against humans: the human gold standard and the accuracy of each metric x test (Graham,
Mathur & Baldwin, WMT 2014, Tables 1-2).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping, Sequence

import pandas as pd

from stats._core.errors import StatsInputError
from stats._core.progress import check_progress
from stats.human.accuracy import ALPHAS, AccuracyResult, accuracy_from_pvalues
from stats.human.gold import (
    HumanGoldResult,
    gold_from_segment_scores,
    human_gold_standard,
)
from stats.human.ranking import HumanRankingResult, human_ranking
from stats.metaeval.outliers import mad_outliers
from stats.mt.randomized import (
    PairwiseSignificanceResult,
)
from stats.mt.sufficient import SegmentStatistics, extract_statistics

from ..readers import source_name
from ..readers.judgements import read_judgement_files
from ..readers.segments import read_parallel
from ._human_scores import (
    _check_segments_once,
    _split_da_files,
    segment_scores_frame,
    without_systems,
)
from ._inputs import FileInput, Files, _named, decode_files
from .human_wmt import is_wmt_human_file, wmt_gold
from .mt_systems import TEXT_METRICS, statistics_from_score_file


def human_gold(
    judgements: Files, *, alpha: float = 0.05, exclude: Sequence[str] = ()
) -> HumanGoldResult:
    """Read judgement files (``SYSTEM SEGMENT ANNOTATOR CRITERION SCORE``; several files are
    one set, e.g. batches) and build the human gold standard, combined at ``alpha``
    (:func:`stats.human.gold.human_gold_standard`). Exclusion messages are in ``result.warnings``.

    Appraise exports (ESA, DA+SQM) and MQM files (with a WMT documents file among them for the
    domains) give the WMT24 paired ranking's grid (:func:`stats.analyses.human_wmt.wmt_gold`).
    Published segment-level DA files (``SYS SID RAW.SCR Z.SCR N``, one language pair) are a
    gold standard as they are: the Wilcoxon tests run on their z scores
    (:func:`stats.human.gold.gold_from_segment_scores`).

    The judgements of the systems in ``exclude`` (e.g. the outliers of
    :func:`human_outliers`) are left out before anything is computed -- the per-annotator
    standardisation included -- and ``result.warnings`` names them."""
    if not judgements:
        raise StatsInputError("judgements: no judgements file given")
    judgements = decode_files(judgements)  # read once, whichever reader takes them
    if any(is_wmt_human_file(f) for f in judgements):  # WMT22-25: the paired ranking's grid
        return _noting_exclusion(wmt_gold(judgements, alpha=alpha, exclude=exclude), exclude)
    da, judged = _split_da_files(judgements, lp=None, lp_required=False)
    if da and judged:
        raise StatsInputError(
            f"judgements: {judged[0].name} is a judgement file and {da[0].attrs['name']} a DA "
            "segment-score file; give one kind"
        )
    if judged:
        read = read_judgement_files(*judged)
        read = dataclasses.replace(read, frame=without_systems(read.frame, exclude))
        return _noting_exclusion(human_gold_standard(read, alpha=alpha), exclude)
    scores = without_systems(pd.concat(da, ignore_index=True), exclude)
    pairs = sorted(set(scores["lp"]))
    if len(pairs) > 1:
        raise StatsInputError(
            f"judgements: the gold standard is per language pair; these DA files hold "
            f"{', '.join(pairs)}: give the files of one"
        )
    _check_segments_once(scores)
    name = " + ".join(f.attrs["name"] for f in da)
    return _noting_exclusion(gold_from_segment_scores(scores, alpha=alpha, name=name), exclude)


def _noting_exclusion(gold: HumanGoldResult, exclude: Sequence[str]) -> HumanGoldResult:
    if not exclude:
        return gold
    note = f"left out by choice: {', '.join(str(s) for s in exclude)}"
    return dataclasses.replace(gold, warnings=(*gold.warnings, note))


def human_outliers(gold: HumanGoldResult, *, threshold: float = 2.5) -> tuple[str, ...]:
    r"""Systems whose human score is an outlier by the rule of the WMT metrics findings
    (:func:`stats.metaeval.outliers.mad_outliers`: robust z of the median absolute deviation above
    ``threshold``), applied to the systems' mean z scores in the gold standard's first
    criterion (adequacy; fluency when there is none).

    .. math::

        \text{outlier}_s \iff
        \frac{|z_s - \operatorname{median}(z)|}{1.4826\,\operatorname{MAD}(z)} > \text{threshold}

    Mathur et al. (2020), https://aclanthology.org/2020.wmt-1.77/. Returns the outliers in the
    gold standard's order (none when the MAD is 0)."""
    z = gold.scores[f"{gold.criteria[0]}_z"].reindex(list(gold.systems))
    flagged = mad_outliers(z.to_numpy(dtype=float), threshold=threshold)
    return tuple(s for s, out in zip(gold.systems, flagged, strict=True) if out)


def accuracy_statistics(
    *,
    references: Files = (),
    hypotheses: Files = (),
    metrics: Sequence[str] = (),
    scores: FileInput | None = None,
    score_metrics: Sequence[str] | None = None,
    lower_is_better: Sequence[str] = (),
    jobs: int | None = None,
) -> dict[str, SegmentStatistics]:
    """The metrics to evaluate against humans, by name: each text metric of ``metrics``
    (bleu, chrf, ter) from ``references`` and ``hypotheses``, then every metric of the
    segment-score file ``scores`` (those of ``score_metrics`` only, when given;
    ``lower_is_better`` names its lower-is-better metrics), as in
    :func:`stats.analyses.mt_systems.statistics_from_score_file`.

    Raises
    ------
    StatsInputError
        A metric of ``scores`` with the name of a text metric; anything the readers reject.
    """
    out: dict[str, SegmentStatistics] = {}
    text = [m for m in metrics if m in TEXT_METRICS]
    if text:
        refs, hyps = read_parallel(references, hypotheses)
        for m in text:
            out[m] = extract_statistics(refs, hyps, metric=m, jobs=jobs)
    if scores is not None:
        source, name = _named(scores)
        label = source_name(source, name)
        found = statistics_from_score_file(
            source, name=name, metrics=score_metrics, lower_is_better=lower_is_better
        )
        for metric, data in found.items():
            if metric in out:
                raise StatsInputError(
                    f"metric name {metric!r} of {label} clashes with the text metric {metric} "
                    "(metrics)"
                )
            out[metric] = data
    return out


def accuracy_from_results(
    gold: HumanGoldResult,
    results: Mapping[tuple[str, str], PairwiseSignificanceResult],
    *,
    alphas: Sequence[float] = ALPHAS,
    n_resamples: int | None = None,
    seed: int | None = None,
    exclude: Sequence[str] = (),
) -> AccuracyResult:
    """Accuracy against the gold standard of all-pairs results already computed, keyed by
    ``(metric, test)`` (:func:`stats.human.accuracy.accuracy_from_pvalues`). Messages about systems
    left out are in ``result.warnings``. The systems of ``exclude`` (those left out of
    ``gold`` by :func:`human_gold`) leave every test's results first, so each accuracy is
    over the pairs of the systems kept."""
    # systems left out of the gold standard by choice leave the tests' grids too (they are
    # not reported as systems without judgements)
    left_out = [str(s) for s in exclude]
    pvalues = {
        key: res.pvalue.drop(index=left_out, columns=left_out, errors="ignore")
        for key, res in results.items()
    }
    corpus = {
        metric: res.scores.drop(left_out, errors="ignore") for (metric, _), res in results.items()
    }
    # outputs named as WMT publishes them (generaltest2023.en-de.hyp.ONLINE-W.de) meet the
    # judged system whose name ends theirs after a dot
    names = {s for p in pvalues.values() for s in p.index}
    rename = _judged_names(names, gold.systems)
    if rename:
        pvalues = {k: p.rename(index=rename, columns=rename) for k, p in pvalues.items()}
        corpus = {k: v.rename(index=rename) for k, v in corpus.items()}
    return accuracy_from_pvalues(
        gold, pvalues, alphas=alphas, scores=corpus, n_resamples=n_resamples, seed=seed
    )


def _judged_names(names, judged) -> dict[str, str]:
    """``{output name: judged name}`` for outputs not judged under their own name whose name
    ends in ``"." + judged name`` (``generaltest2023.en-de.hyp.ONLINE-W``), or is the judged
    name with the submission id the organisers append (``Online-Y.3``, as WMT20-22's metric
    files name systems; the DA reader drops it), for exactly one judged system."""
    judged = [str(j) for j in judged]
    out = {}
    for name in map(str, names):
        if name in judged:
            continue
        base = re.sub(r"\.\d+$", "", name)
        hits = [j for j in judged if name.endswith("." + j) or base == j]
        if len(hits) == 1 and hits[0] not in names:
            out[name] = hits[0]
    return out


def human_rankings(
    files: Files,
    *,
    lp: str | None = None,
    score: str = "z",
    alpha: float = 0.05,
    exclude: Sequence[str] = (),
    progress=None,
) -> list[HumanRankingResult]:
    """Findings-style human rankings (:func:`stats.human.ranking.human_ranking`), one per
    language pair, from published segment-level DA files (``SYS SID RAW.SCR Z.SCR N``; the
    language pair from ``lp`` or the ``xx-yy`` ending each file name) or from judgement files
    (``SYSTEM SEGMENT ANNOTATOR CRITERION SCORE``: each annotator's scores standardised, the
    first criterion given -- adequacy when there is one -- averaged per system and segment;
    the language pair is ``lp``, or the file name's, or ``"all"``). The systems of
    ``exclude`` are left out (each must be among them).

    Several files of one language pair are one set; the rankings come in language-pair order.
    ``progress(fraction)`` (optional) is called with the share of the rankings done once the
    files are read.
    """
    check_progress(progress)
    scores = segment_scores_frame(files, lp=lp)
    attrs = dict(scores.attrs)
    notes = tuple(attrs.get("notes", ()))
    if exclude:
        scores = without_systems(scores, exclude)
        notes += (f"left out by choice: {', '.join(map(str, exclude))}",)
    blocks = list(scores.groupby("lp", sort=True))
    results = []
    for k, (pair, block) in enumerate(blocks, 1):
        results.append(
            dataclasses.replace(
                human_ranking(block, score=score, alpha=alpha, lp=str(pair)),
                read_as=tuple(attrs.get("read_as", ())),
                notes=notes,
            )
        )
        if progress is not None:
            progress(k / len(blocks))
    return results
