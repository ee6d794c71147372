"""Per-segment sufficient statistics for corpus-level MT metrics (BLEU, chrF, TER) and for
metrics whose system score is the mean of segment scores.

Randomized significance tests (:mod:`stats.mt.randomized`) resample *segments*. For a corpus
metric such as BLEU the system score is not a mean of sentence scores, but it is a function
of **summed** per-segment statistics (n-gram matches and totals, hypothesis and reference
lengths, edit counts). So the strings are scored once into an array ``stats`` of shape
``(systems, segments, d)`` equal to sacrebleu's per-segment statistics (BLEU and chrF counted
with array operations over the whole corpus in :mod:`stats.mt._ngrams`, TER by sacrebleu over
worker processes with an on-disk cache in :mod:`stats.mt._ter_parallel`); a resample is then only
a weighted sum of rows (a matrix product) followed by the metric's closed-form score function,
evaluated here in vectorised numpy form for many resamples at once.

The corpus score of each system is computed by sacrebleu itself from the same statistics
(``Metric._aggregate_and_compute``), so it equals ``Metric.corpus_score`` exactly; the
vectorised score functions reproduce sacrebleu's formulas operation by operation and agree
with them to floating-point rounding (tested to 1e-12 relative).

References
----------
Papineni et al. (2002), BLEU, https://aclanthology.org/P02-1040/ ;
Popović (2015), chrF, https://aclanthology.org/W15-3049/ ;
Snover et al. (2006), TER, https://aclanthology.org/2006.amta-papers.25/ ;
Post (2018), sacreBLEU, https://aclanthology.org/W18-6319/ .
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

__all__ = [
    "METRICS",
    "SegmentStatistics",
    "extract_statistics",
    "statistics_from_scores",
    "metric_score",
]

#: metrics with sufficient statistics extracted by sacrebleu, plus "mean" (segment scores)
METRICS = ("bleu", "chrf", "ter", "mean")

_MY_LOG_FLOOR = -9999999999.0  # sacrebleu.utils.my_log(0)


def _make_sacrebleu_metric(metric: str, options: Mapping, references=None):
    from sacrebleu.metrics import BLEU, CHRF, TER

    cls = {"bleu": BLEU, "chrf": CHRF, "ter": TER}[metric]
    try:
        return cls(**dict(options), references=references)
    except TypeError as exc:
        raise StatsInputError(f"metric options for {metric}: {exc}") from None
    except AssertionError as exc:  # sacrebleu validates some options with assert
        raise StatsInputError(f"metric options for {metric}: {exc}") from None


# ---------------------------------------------------------------------------------------------
# Vectorised score functions: summed statistics (..., d) -> scores (...)
# ---------------------------------------------------------------------------------------------


def _bleu_from_sums(sums: np.ndarray, opts: Mapping) -> np.ndarray:
    """Vectorised ``sacrebleu.BLEU.compute_bleu``.

    Fast path for the usual case (every n-gram order has a match, no add-k smoothing, no
    effective order), where smoothing plays no part:
    :math:`\\mathrm{BP}\\exp(\\frac1N\\sum_n \\log(100\\,m_n/t_n))`; all other rows go
    through the operation-by-operation replica of sacrebleu (:func:`_bleu_general`).
    """
    order = int(opts.get("max_ngram_order", 4))
    smooth = opts.get("smooth_method", "exp")
    if smooth == "add-k" or opts.get("effective_order", False):
        return _bleu_general(sums, opts)
    sums = np.asarray(sums, dtype=float)
    correct = sums[..., 2 : 2 + order]
    total = sums[..., 2 + order : 2 + 2 * order]
    ok = correct[..., 0] > 0  # clipped matches <= totals, so totals > 0 too
    for n in range(1, order):  # column by column: a reduction over 4 is slow in numpy
        ok &= correct[..., n] > 0
    if not ok.all():
        out = np.empty(sums.shape[:-1])
        out[ok] = _bleu_from_sums(sums[ok], opts)
        out[~ok] = _bleu_general(sums[~ok], opts)
        return out
    if sums.ndim == 1:  # one row: the columns below are arrays, not scalars
        return _bleu_from_sums(sums[None], opts)[0]
    sys_len = np.trunc(sums[..., 0])
    ref_len = np.trunc(sums[..., 1])
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        # in place, column by column: the operations of
        # bp * exp(sum_n log(100 c_n / t_n) / order), left to right as sacrebleu
        acc = np.multiply(correct[..., 0], 100.0)
        acc /= total[..., 0]
        np.log(acc, out=acc)
        term = np.empty_like(acc)
        for n in range(1, order):
            np.multiply(correct[..., n], 100.0, out=term)
            term /= total[..., n]
            np.log(term, out=term)
            acc += term
        acc /= order
        out = np.exp(acc, out=acc)
        short = sys_len < ref_len  # the brevity penalty (1 elsewhere: x * 1.0 is x)
        if short.any():
            out[short] *= np.exp(1 - ref_len[short] / sys_len[short])
    return out


def _bleu_general(sums: np.ndarray, opts: Mapping) -> np.ndarray:
    """Vectorised ``sacrebleu.BLEU.compute_bleu`` (same operations, same order)."""
    order = int(opts.get("max_ngram_order", 4))
    smooth = opts.get("smooth_method", "exp")
    value = opts.get("smooth_value")
    if value is None:
        value = {"none": None, "floor": 0.1, "add-k": 1, "exp": None}[smooth]
    effective = bool(opts.get("effective_order", False))
    sums = np.asarray(sums, dtype=float)
    sys_len = np.trunc(sums[..., 0])
    ref_len = np.trunc(sums[..., 1])
    correct = sums[..., 2 : 2 + order].copy()
    total = sums[..., 2 + order : 2 + 2 * order].copy()
    shape = sums.shape[:-1]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        bp = np.where(
            sys_len < ref_len,
            np.where(sys_len > 0, np.exp(1 - ref_len / np.where(sys_len > 0, sys_len, 1)), 0.0),
            1.0,
        )
        any_correct = (correct != 0).any(axis=-1)
        active = np.ones(shape, dtype=bool)
        smooth_mteval = np.ones(shape)
        eff_order = np.full(shape, order, dtype=float)
        precisions = np.zeros((*shape, order))
        for n in range(order):  # loop over n-gram orders (<= 4), not over resamples
            if smooth == "add-k" and n > 0:
                correct[..., n] += value
                total[..., n] += value
            active &= total[..., n] != 0
            if effective:
                eff_order = np.where(active, n + 1, eff_order)
            safe_total = np.where(total[..., n] != 0, total[..., n], 1.0)
            zero = active & (correct[..., n] == 0)
            if smooth == "exp":
                smooth_mteval = np.where(zero, smooth_mteval * 2, smooth_mteval)
                p_zero = 100.0 / (smooth_mteval * safe_total)
            elif smooth == "floor":
                p_zero = 100.0 * value / safe_total
            else:
                p_zero = np.zeros(shape)
            p = np.where(zero, p_zero, 100.0 * correct[..., n] / safe_total)
            precisions[..., n] = np.where(active, p, 0.0)
        acc = np.zeros(shape)
        for n in range(order):  # sacrebleu sums the logs left to right
            p = precisions[..., n]
            log_p = np.where(p == 0.0, _MY_LOG_FLOOR, np.log(np.where(p == 0.0, 1.0, p)))
            acc = acc + np.where(n < eff_order, log_p, 0.0)
        score = bp * np.exp(acc / eff_order)
    return np.where(any_correct, score, 0.0)


def _chrf_from_sums(sums: np.ndarray, opts: Mapping) -> np.ndarray:
    """Vectorised ``sacrebleu.CHRF._compute_f_score``.

    Fast path for the usual case (no eps smoothing, every order with hypothesis and reference
    n-grams), where the averages are plain sums of the per-order precisions and recalls:
    the same operations in the same order as the general path, without its masks; all
    other rows go through the operation-by-operation replica of sacrebleu
    (:func:`_chrf_general`).
    """
    order = int(opts.get("char_order", 6)) + int(opts.get("word_order", 0))
    if bool(opts.get("eps_smoothing", False)) or order == 0:
        return _chrf_general(sums, opts)
    sums = np.asarray(sums, dtype=float)
    ok = (sums[..., 0] > 0) & (sums[..., 1] > 0)
    for i in range(1, order):  # column by column: contiguous where the caller keeps them so
        ok &= sums[..., 3 * i] > 0
        ok &= sums[..., 3 * i + 1] > 0
    if not ok.all():
        out = np.empty(sums.shape[:-1])
        out[ok] = _chrf_from_sums(sums[ok], opts)
        out[~ok] = _chrf_general(sums[~ok], opts)
        return out
    factor = opts.get("beta", 2) ** 2
    avg_prec = sums[..., 2] / sums[..., 0]
    avg_rec = sums[..., 2] / sums[..., 1]
    for i in range(1, order):  # left to right, as sacrebleu
        avg_prec += sums[..., 3 * i + 2] / sums[..., 3 * i]
        avg_rec += sums[..., 3 * i + 2] / sums[..., 3 * i + 1]
    avg_prec /= float(order)
    avg_rec /= float(order)
    num = (1 + factor) * avg_prec * avg_rec
    den = (factor * avg_prec) + avg_rec
    with np.errstate(divide="ignore", invalid="ignore"):
        out = 100 * (num / np.where(den != 0, den, 1.0))
    return np.where((avg_prec + avg_rec) != 0, out, 0.0)


def _chrf_general(sums: np.ndarray, opts: Mapping) -> np.ndarray:
    """Vectorised ``sacrebleu.CHRF._compute_f_score`` (same operations, same order)."""
    char_order = int(opts.get("char_order", 6))
    word_order = int(opts.get("word_order", 0))
    beta = opts.get("beta", 2)
    eps_smoothing = bool(opts.get("eps_smoothing", False))
    order = char_order + word_order
    factor = beta**2
    eps = 1e-16
    sums = np.asarray(sums, dtype=float)
    shape = sums.shape[:-1]
    score = np.zeros(shape)
    avg_prec = np.zeros(shape)
    avg_rec = np.zeros(shape)
    eff = np.zeros(shape)
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in range(order):  # loop over n-gram orders, not over resamples
            n_hyp, n_ref, n_match = sums[..., 3 * i], sums[..., 3 * i + 1], sums[..., 3 * i + 2]
            prec = np.where(n_hyp > 0, n_match / np.where(n_hyp > 0, n_hyp, 1.0), eps)
            rec = np.where(n_ref > 0, n_match / np.where(n_ref > 0, n_ref, 1.0), eps)
            denom = factor * prec + rec
            score = score + np.where(
                denom > 0, (1 + factor) * prec * rec / np.where(denom > 0, denom, 1.0), eps
            )
            ok = (n_hyp > 0) & (n_ref > 0)
            avg_prec = np.where(ok, avg_prec + prec, avg_prec)
            avg_rec = np.where(ok, avg_rec + rec, avg_rec)
            eff = eff + ok
        if eps_smoothing:
            return 100 * score / order
        safe_eff = np.where(eff == 0, 1.0, eff)
        avg_prec = np.where(eff == 0, 0.0, avg_prec / safe_eff)
        avg_rec = np.where(eff == 0, 0.0, avg_rec / safe_eff)
        num = (1 + factor) * avg_prec * avg_rec
        den = (factor * avg_prec) + avg_rec
        out = 100 * (num / np.where(den != 0, den, 1.0))
    return np.where((avg_prec + avg_rec) != 0, out, 0.0)


def _ter_from_sums(sums: np.ndarray, opts: Mapping) -> np.ndarray:
    """Vectorised ``sacrebleu.TER._compute_score_from_stats``."""
    sums = np.asarray(sums, dtype=float)
    edits, ref = sums[..., 0], sums[..., 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = edits / np.where(ref > 0, ref, 1.0)
    return 100 * np.where(ref > 0, ratio, np.where(edits > 0, 1.0, 0.0))


def _mean_from_sums(sums: np.ndarray, opts: Mapping) -> np.ndarray:
    """Mean segment score: statistics are (score, 1) per segment."""
    sums = np.asarray(sums, dtype=float)
    return sums[..., 0] / sums[..., 1]


_SCORERS: dict[str, Callable[[np.ndarray, Mapping], np.ndarray]] = {
    "bleu": _bleu_from_sums,
    "chrf": _chrf_from_sums,
    "ter": _ter_from_sums,
    "mean": _mean_from_sums,
}


def metric_score(metric: str, sums, options: Mapping | None = None) -> np.ndarray:
    """Score(s) of ``metric`` from summed sufficient statistics (last axis), vectorised.

    Parameters
    ----------
    metric : {'bleu', 'chrf', 'ter', 'mean'}
    sums : array_like, shape (..., d)
        Sufficient statistics summed over the segments of a (pseudo-)corpus.
    options : mapping, optional
        The metric's sacrebleu options (e.g. ``smooth_method`` for BLEU, ``word_order``
        for chrF).
    """
    if metric not in _SCORERS:
        raise StatsInputError(f"metric must be one of {', '.join(METRICS)}; got {metric!r}")
    return _SCORERS[metric](sums, dict(options or {}))


# ---------------------------------------------------------------------------------------------
# Container
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class SegmentStatistics:
    """Per-segment sufficient statistics of several systems on one test set.

    Attributes
    ----------
    systems : tuple of str
        System names, in input order.
    stats : ndarray, shape (n_systems, n_segments, d)
        Sufficient statistics per system and segment (BLEU: hypothesis length, reference
        length, matching and total n-grams for n = 1..4; chrF: hypothesis, reference and
        matching counts per character/word n-gram order; TER: edits and average reference
        length; ``mean``: the segment score and 1).
    metric : str
        ``'bleu'``, ``'chrf'``, ``'ter'`` or ``'mean'``.
    label : str
        Display name ("BLEU", "chrF2", "TER", or the segment-level metric's name).
    options : tuple of (str, value)
        sacrebleu options of the metric, needed to score summed statistics.
    higher_is_better : bool
        False for TER (and error-count style segment metrics).
    corpus_scores : ndarray, shape (n_systems,)
        Corpus score of each system on the metric's usual scale; for BLEU/chrF/TER computed by
        sacrebleu from these statistics, equal to ``Metric.corpus_score``.
    segment_ids : tuple of str
        Segment identifiers (line numbers for text input).
    signature : str
        sacrebleu's reproducibility signature ("" for segment scores).
    block : tuple of (str, str)
        WMT metrics task files: which part of them the scores are, as ``(("lp", ...),
        ("testset", ...), ("refset", ...))``; ``()`` for other input.
    """

    systems: tuple[str, ...]
    stats: np.ndarray = field(repr=False)
    metric: str
    label: str
    options: tuple = ()
    higher_is_better: bool = True
    corpus_scores: np.ndarray = field(repr=False)
    segment_ids: tuple = field(default=(), repr=False)
    signature: str = ""
    block: tuple = ()

    @property
    def n_systems(self) -> int:
        return int(self.stats.shape[0])

    @property
    def n_segments(self) -> int:
        return int(self.stats.shape[1])

    @property
    def scores(self) -> pd.Series:
        """Corpus scores as a Series indexed by system name (input order)."""
        return pd.Series(self.corpus_scores, index=list(self.systems), name=self.label)

    def score(self, sums) -> np.ndarray:
        """Vectorised metric score of summed statistics ``sums`` (shape (..., d))."""
        return metric_score(self.metric, sums, dict(self.options))

    def index_of(self, system: str) -> int:
        """Position of ``system``; raises :class:`StatsInputError` naming known systems."""
        try:
            return self.systems.index(system)
        except ValueError:
            raise StatsInputError(
                f"unknown system {system!r}; known systems: {', '.join(self.systems)}"
            ) from None

    def subset(self, systems: Sequence[str]) -> SegmentStatistics:
        """The same data restricted to ``systems`` (in the given order)."""
        idx = [self.index_of(s) for s in systems]
        return SegmentStatistics(
            systems=tuple(self.systems[i] for i in idx),
            stats=self.stats[idx],
            metric=self.metric,
            label=self.label,
            options=self.options,
            higher_is_better=self.higher_is_better,
            corpus_scores=self.corpus_scores[idx],
            segment_ids=self.segment_ids,
            signature=self.signature,
            block=self.block,
        )

    @classmethod
    def from_text(cls, references, hypotheses, *, metric="bleu", progress=None, **options):
        """See :func:`extract_statistics`."""
        return extract_statistics(
            references, hypotheses, metric=metric, progress=progress, **options
        )

    @classmethod
    def from_scores(cls, scores, *, label="mean score", higher_is_better=True):
        """See :func:`statistics_from_scores`."""
        return statistics_from_scores(scores, label=label, higher_is_better=higher_is_better)


def _check_systems(hypotheses) -> dict[str, list[str]]:
    if not isinstance(hypotheses, Mapping):
        raise StatsInputError(
            f"hypotheses must be a mapping of system name -> list of segments; "
            f"got {type(hypotheses).__name__}"
        )
    if len(hypotheses) < 1:
        raise StatsInputError("hypotheses: need at least one system; got none")
    out = {}
    for name, lines in hypotheses.items():
        if isinstance(lines, str):
            raise StatsInputError(
                f"hypotheses[{name!r}] must be a list of segments, not one string"
            )
        out[str(name)] = [str(x) for x in lines]
    return out


def _check_jobs(jobs) -> int:
    """``jobs``: None (all cores) or a positive integer."""
    if jobs is None:
        from ._ter_parallel import default_jobs

        return default_jobs()
    if isinstance(jobs, bool) or not isinstance(jobs, (int, np.integer)) or jobs < 1:
        raise StatsInputError(f"jobs must be a positive integer or None (all cores); got {jobs!r}")
    return int(jobs)


def extract_statistics(
    references: Sequence[Sequence[str]],
    hypotheses: Mapping[str, Sequence[str]],
    *,
    metric: str = "bleu",
    progress: Callable[[float], None] | None = None,
    jobs: int | None = None,
    **options,
) -> SegmentStatistics:
    """Extract per-segment sufficient statistics of every system, equal to sacrebleu's.

    Parameters
    ----------
    references : sequence of reference streams
        ``[[ref1 line 1, ref1 line 2, ...], [ref2 line 1, ...]]`` (sacrebleu's layout); one
        or more references per segment.
    hypotheses : mapping
        System name -> list of hypothesis segments (same length as each reference stream).
    metric : {'bleu', 'chrf', 'ter'}
    progress : callable, optional
        Called with the fraction done (0..1): after each system (BLEU, chrF) or each chunk of
        segments (TER).
    jobs : int, optional
        Worker processes (default: all cores, ``os.cpu_count()``) for TER, and for BLEU's
        tokenization of large inputs; the n-grams of BLEU and chrF are counted in this
        process (their compiled matching in ``jobs`` threads).
    **options
        Passed to sacrebleu's ``BLEU``/``CHRF``/``TER`` constructor (e.g. ``tokenize``,
        ``lowercase``, ``word_order=2`` for chrF++).

    Returns
    -------
    SegmentStatistics

    Notes
    -----
    BLEU and chrF: every option is handled by the vectorised counting of
    :mod:`stats.mt._ngrams` (the strings go through the tokenizer, lowercasing and whitespace /
    punctuation handling of the sacrebleu object built from ``options``; n-grams are then
    counted and clipped with array operations over the whole corpus, the references once for
    all systems); the statistics equal sacrebleu's ``_extract_corpus_statistics`` exactly. TER
    has no vectorised form: sacrebleu's own per-segment extraction runs in ``jobs`` processes
    over chunks of segments and its results are cached on disk by content hash (see
    :mod:`stats.mt._ter_parallel`; ``MT_SIGNIFICANCE_CACHE=off`` disables the cache).

    For BLEU the statistics of segment :math:`s` are
    :math:`(|h_s|, |r_s|, m_{s,1..4}, t_{s,1..4})` and the corpus score is

    .. math:: \\mathrm{BLEU} = \\mathrm{BP}\\,\\exp\\Big(\\tfrac14\\sum_{n=1}^4
              \\log\\frac{\\sum_s m_{s,n}}{\\sum_s t_{s,n}}\\Big),\\quad
              \\mathrm{BP} = \\min\\big(1, e^{1-\\sum_s|r_s|/\\sum_s|h_s|}\\big)

    (with sacrebleu's smoothing), so any resample of segments is scored from summed rows.
    """
    if metric not in ("bleu", "chrf", "ter"):
        raise StatsInputError(
            f"metric must be one of bleu, chrf, ter for text input; got {metric!r}"
        )
    if isinstance(references, str) or not isinstance(references, Sequence) or not references:
        raise StatsInputError("references must be a non-empty list of reference streams")
    refs = []
    for k, stream in enumerate(references):
        if isinstance(stream, str):
            raise StatsInputError(f"references[{k}] must be a list of segments, not one string")
        refs.append([str(x) for x in stream])
    n = len(refs[0])
    if n == 0:
        raise StatsInputError("references: no segments")
    for k, stream in enumerate(refs[1:], start=1):
        if len(stream) != n:
            raise StatsInputError(
                f"reference {k + 1} has {len(stream)} segments but reference 1 has {n}"
            )
    hyps = _check_systems(hypotheses)
    for name, lines in hyps.items():
        if len(lines) != n:
            raise StatsInputError(
                f"system {name!r} has {len(lines)} segments but the reference has {n}"
            )
    jobs = _check_jobs(jobs)
    scorer = _make_sacrebleu_metric(metric, options)
    scorer.num_refs = len(refs)  # what caching the references would set (signature)
    names = list(hyps)
    if metric == "ter":
        from ._ter_parallel import ter_statistics

        counts = ter_statistics(options, refs, hyps, jobs=jobs, progress=progress)
    else:  # BLEU and chrF: cached by content like TER (a second run reads them back)
        from ._ngrams import bleu_statistics, chrf_statistics, warn_tokenized
        from ._ter_parallel import cached_statistics

        if metric == "bleu":
            warn_tokenized(scorer, hyps)  # also when the statistics come from the cache
            width = 2 + 2 * int(scorer.max_ngram_order)

            def compute(todo):
                return bleu_statistics(
                    scorer, refs, todo, options=dict(options), jobs=jobs, warn=False
                )
        else:
            width = 3 * (int(scorer.char_order) + int(scorer.word_order))

            def compute(todo):
                return chrf_statistics(
                    scorer,
                    refs,
                    todo,
                    lambda sums: _chrf_from_sums(sums, dict(options)),
                    jobs=jobs,
                )

        counts = cached_statistics(metric, dict(options), refs, hyps, width, compute)
    exact = []
    for k in range(len(names)):
        if metric == "ter":  # sacrebleu sums the rows itself (TER's floats left to right)
            score = scorer._aggregate_and_compute(counts[k].tolist())
        else:  # integer counts: numpy's column sums are sacreBLEU's (sum_of_lists) exactly
            score = scorer._compute_score_from_stats(counts[k].sum(axis=0).tolist())
        exact.append(float(score.score))
        if progress is not None and metric != "ter":
            progress((k + 1) / len(names))
    stats = counts.astype(float)
    signature = scorer.get_signature().format()
    label = {"bleu": "BLEU", "ter": "TER"}.get(metric)
    if label is None:
        label = f"chrF{int(options.get('beta', 2))}" + "+" * int(options.get("word_order", 0))
    return SegmentStatistics(
        systems=tuple(names),
        stats=stats,
        metric=metric,
        label=label,
        options=tuple(sorted(options.items())),
        higher_is_better=metric != "ter",
        corpus_scores=np.array(exact),
        segment_ids=tuple(str(i) for i in range(1, n + 1)),
        signature=signature,
    )


def statistics_from_scores(
    scores: pd.DataFrame, *, label: str = "mean score", higher_is_better: bool = True
) -> SegmentStatistics:
    """Sufficient statistics for a metric whose system score is the mean of segment scores.

    Parameters
    ----------
    scores : DataFrame
        Rows = segments (index = segment ids), columns = systems (e.g. from
        :func:`stats.readers.read_segment_scores`).
    label : str
        Name of the metric (COMET, sentence chrF, human DA, ...).
    higher_is_better : bool

    Notes
    -----
    Each segment contributes :math:`(x_s, 1)`, so a resample's score is
    :math:`\\sum_s w_s x_s / \\sum_s w_s`, the mean over the resampled segments.

    Examples
    --------
    Segment scores (items x systems) as the statistics the randomized tests take.

    >>> import pandas as pd
    >>> from stats import pairwise_significance, statistics_from_scores
    >>> scores = pd.DataFrame({'A': [0.5, 0.7, 0.6, 0.8], 'B': [0.4, 0.6, 0.6, 0.7]})
    >>> seg = statistics_from_scores(scores)
    >>> seg.systems
    ('A', 'B')
    """
    if not isinstance(scores, pd.DataFrame):
        raise StatsInputError(
            f"scores must be a DataFrame (segments x systems); got {type(scores).__name__}"
        )
    if scores.shape[1] < 1 or scores.shape[0] < 1:
        raise StatsInputError(
            f"scores must have at least one segment and one system; got shape {scores.shape}"
        )
    try:
        values = scores.to_numpy(dtype=float)
    except (TypeError, ValueError):
        raise StatsInputError("scores must be numeric") from None
    bad = ~np.isfinite(values)
    if bad.any():
        i, j = np.argwhere(bad)[0]
        raise StatsInputError(
            f"scores: system {scores.columns[j]!r}, segment {scores.index[i]!r} has no finite score"
        )
    stats = np.stack([values.T, np.ones_like(values.T)], axis=-1)
    return SegmentStatistics(
        systems=tuple(str(c) for c in scores.columns),
        stats=stats,
        metric="mean",
        label=str(label),
        options=(),
        higher_is_better=bool(higher_is_better),
        # correctly rounded sums: the same score whatever the file layout
        corpus_scores=np.array([math.fsum(col.tolist()) / len(col) for col in values.T]),
        # (one list first: iterating a pyarrow-backed index goes element by element)
        segment_ids=tuple(map(str, scores.index.to_numpy(dtype=object).tolist())),
        signature="",
    )
