r"""AutoRank: the WMT25 general MT task's automatic ranking of systems, and its uncertainty.

Per language pair and metric set (Kocmi et al. 2025, the WMT25 findings; the organisers'
script ``autorank/compute_autorank.py`` of ``prosho-97/wmt-automatic-eval``):

1. a system's score for a metric is the mean of all its non-null paragraph values in the
   language pair, :math:`x_{km}`;
2. each metric is scaled robustly across the systems that have it,

   .. math::

       z_{km} = \frac{x_{km} - \operatorname{median}_k x_{km}}{P_{100}(x_{\cdot m}) - P_{25}(x_{\cdot m})},

   with the percentiles interpolated linearly (numpy's default); a scale of exactly 0 is
   replaced by 1, as the organisers' script does (``scale = q_high - q_low or 1.0``; the
   paper writes :math:`\max(\epsilon, \cdot)`: the two agree whenever the scale is positive);
3. the :math:`z` of the metrics a system has are averaged with equal weights,
   :math:`\bar z_k`;
4. :math:`\mathrm{AutoRank}_k = 1 + (N - 1)\,\dfrac{\max_j \bar z_j - \bar z_k}{\max_j \bar z_j - \min_j \bar z_j}`:
   1 is the best system, :math:`N` the worst (all 1 when the :math:`\bar z` are equal,
   ``np.isclose``, as the organisers' script).

A metric with the same value for every system (scale 0 and nothing to scale) is left out with
a warning: its :math:`z` would be 0 for every system, and leaving it out changes no AutoRank
(AutoRank is invariant to rescaling :math:`\bar z`).

What nobody publishes: how sure the ranking is. :func:`autorank_bootstrap` resamples the
documents of the language pair with replacement (every system with the same documents: a
paired bootstrap), recomputes every step above on each resample, and reports each system's
percentile interval of AutoRank, a p-value for every pair of systems on the combined score
:math:`\bar z` (the paired bootstrap's :math:`(c + 1)/(R + 1)` of
:mod:`stats.mt.randomized`, with :math:`c` the resamples in which the better system does not
beat the other), and the significance clusters of :func:`stats.pairwise.grids.grid_significance`
(the same rule, corrections and sidedness note as every other grid of :mod:`stats`).

References
----------
T. Kocmi et al. 2025. Findings of the WMT25 General Machine Translation Shared Task.
WMT 2025.

P. Koehn. 2004. Statistical Significance Tests for Machine Translation Evaluation. EMNLP.
https://aclanthology.org/W04-3250/
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats._core.budget import check_budget
from stats._core.errors import StatsInputError
from stats._core.random import CHUNK_BUDGET, bootstrap_weights, rng_and_seed
from stats._core.results import StatisticPvalue
from stats._core.validation import (
    check_alpha,
    check_alternative,
    check_confidence_level,
    check_positive_int,
    warn_degenerate,
)
from stats.pairwise.grids import GridSignificance, grid_significance

from .corpus_metrics import CorpusMetric, aligned, corpus_scores
from .randomized import _pvalues_from_counts, _quantiles

__all__ = [
    "AUTORANK_PRESETS",
    "WMT25_CHRF_ONLY",
    "WMT25_METRICS",
    "WMT25_REFERENCE_LPS",
    "AutoRankBootstrapResult",
    "AutoRankResult",
    "ParagraphArrays",
    "autorank",
    "autorank_bootstrap",
    "autorank_latex",
    "autorank_metrics",
    "findings_shading",
    "metric_digits",
    "paragraph_correlations",
]

#: the metrics of WMT25's AutoRank where human references exist (the organisers' metric folders)
WMT25_METRICS = (
    "CometKiwi-XL",
    "GEMBA-ESA-CMDA",
    "GEMBA-ESA-GPT4.1",
    "MetricX-24-Hybrid-XL",
    "XCOMET-XL",
)
#: language pairs with human references in WMT25 (``reference_exists`` of the organisers'
#: compute_autorank.py): elsewhere XCOMET and MetricX ran as QE and CometKiwi-XL is left out
WMT25_REFERENCE_LPS = (
    "cs-uk_UA", "en-ar_EG", "en-cs_CZ", "en-et_EE", "en-is_IS", "en-ja_JP", "en-ko_KR",
    "en-ru_RU", "en-uk_UA", "en-zh_CN", "ja-zh_CN", "cs-de_DE", "en-sr_Cyrl_RS",
)  # fmt: skip
#: language pairs WMT25 ranks by chrF++ alone (``chrf_only``)
WMT25_CHRF_ONLY = ("en-bho_IN", "en-mas_KE")
#: the metric-set presets :func:`autorank_metrics` knows
AUTORANK_PRESETS = ("wmt25",)
#: fewer documents than this: the bootstrap runs but warns that its resolution is coarse
FEW_DOCUMENTS = 10


def autorank_metrics(lp: str, *, preset: str = "wmt25") -> tuple[str, ...]:
    """The metric set of a preset for language pair ``lp``.

    ``'wmt25'``: the organisers' choice -- chrF++ alone for English-Bhojpuri and
    English-Maasai (:data:`WMT25_CHRF_ONLY`); the five :data:`WMT25_METRICS` where human
    references exist (:data:`WMT25_REFERENCE_LPS`); those without CometKiwi-XL elsewhere.

    Examples
    --------
    >>> autorank_metrics("en-bho_IN")
    ('chrF++',)
    >>> autorank_metrics("en-de_DE")
    ('GEMBA-ESA-CMDA', 'GEMBA-ESA-GPT4.1', 'MetricX-24-Hybrid-XL', 'XCOMET-XL')
    """
    if preset not in AUTORANK_PRESETS:
        raise StatsInputError(
            f"preset must be one of {', '.join(map(repr, AUTORANK_PRESETS))}; got {preset!r}"
        )
    if lp in WMT25_CHRF_ONLY:
        return ("chrF++",)
    if lp in WMT25_REFERENCE_LPS:
        return WMT25_METRICS
    return tuple(m for m in WMT25_METRICS if m != "CometKiwi-XL")


# ---------------------------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, kw_only=True)
class AutoRankResult:
    """AutoRank of the systems of one language pair (:func:`autorank`).

    Attributes
    ----------
    autorank : pandas.Series
        AutoRank per system, best (1) first.
    zbar : pandas.Series
        :math:`\\bar z`, the mean robust z of each system's metrics (same order).
    z : pandas.DataFrame
        Robust z per system (rows, best first) and metric (columns of ``metrics``); NaN
        where a system has no value of that metric.
    scores : pandas.DataFrame
        Mean of the non-null paragraph values per system and metric (same layout); for a
        corpus metric (``corpus=``), the corpus score.
    n_values : pandas.DataFrame
        Non-null paragraph values behind each mean (same layout, int); paragraphs scored for a
        corpus metric.
    metrics : tuple of str
        The metrics averaged (the set asked for, less those left out).
    left_out : tuple of str
        Metrics of the set left out: the same value for every system.
    systems : tuple of str
        Best first.
    lp : str
    n_documents : int
        Documents of the language pair (the bootstrap's units).
    notes : tuple of str
        What was left out, and why.
    """

    autorank: pd.Series
    zbar: pd.Series
    z: pd.DataFrame
    scores: pd.DataFrame
    n_values: pd.DataFrame
    metrics: tuple[str, ...]
    left_out: tuple[str, ...]
    systems: tuple[str, ...]
    lp: str
    n_documents: int
    notes: tuple[str, ...] = ()

    def to_frame(self) -> pd.DataFrame:
        """One row per system, best first: AutoRank then each metric's mean."""
        out = pd.DataFrame({"AutoRank": self.autorank})
        for m in self.scores.columns:
            out[m] = self.scores[m]
        out.index.name = "system"
        return out


@dataclass(frozen=True, kw_only=True)
class AutoRankBootstrapResult(StatisticPvalue):
    """AutoRank with its uncertainty from a paired bootstrap over documents
    (:func:`autorank_bootstrap`).

    Attributes
    ----------
    statistic : pandas.Series
        AutoRank per system (the point values of :attr:`point`), best first.
    pvalue : pandas.DataFrame
        Paired-bootstrap p-value that the row system's :math:`\\bar z` is higher than the
        column system's, in the row of the system ranked better (NaN elsewhere and on the
        diagonal): :math:`(c + 1)/(R + 1)`, :math:`c` the resamples in which it is not
        (two-sided: twice the smaller tail, capped at 1).
    interval_low, interval_high : pandas.Series
        Percentile bootstrap interval of each system's AutoRank at ``confidence_level``.
    confidence_level : float
    significance : GridSignificance
        Adjusted p-values, clusters (``rank``), correction and sidedness of the grid.
    clusters : tuple of tuples of str
        Systems not significantly apart, top first (from ``significance.rank``).
    point : AutoRankResult
    n_resamples : int
        Resamples drawn.
    n_defined : int
        Resamples on which every system's metric means exist (a resample that draws none of
        the documents where a system has a metric leaves that mean undefined; such resamples
        are left out, with a warning).
    seed : int or None
        The integer seed when ``rng`` was one.
    distribution : numpy.ndarray
        AutoRank on each defined resample, shape (n_defined, systems), columns best first.
    """

    statistic: pd.Series
    pvalue: pd.DataFrame
    interval_low: pd.Series
    interval_high: pd.Series
    confidence_level: float
    significance: GridSignificance
    clusters: tuple[tuple[str, ...], ...]
    point: AutoRankResult
    n_resamples: int
    n_defined: int
    seed: int | None
    distribution: np.ndarray = field(repr=False)

    @property
    def systems(self) -> tuple[str, ...]:
        return self.point.systems

    def neighbours(self) -> pd.DataFrame:
        """Each system and the next one down: ``better``, ``worse``, the (adjusted) p-value,
        and ``separated`` (p < alpha). The pairs with ``separated`` False are the neighbours
        the data cannot tell apart."""
        s = self.systems
        p = self.significance.pvalue_adjusted
        rows = [
            {"better": a, "worse": b, "pvalue": float(p.at[a, b]),
             "separated": bool(p.at[a, b] < self.significance.alpha)}
            for a, b in zip(s[:-1], s[1:], strict=True)
        ]  # fmt: skip
        return pd.DataFrame(rows, columns=["better", "worse", "pvalue", "separated"])

    def to_frame(self) -> pd.DataFrame:
        """One row per system, best first: AutoRank, interval, cluster, each metric's mean."""
        out = pd.DataFrame(
            {
                "AutoRank": self.statistic,
                "low": self.interval_low,
                "high": self.interval_high,
                "cluster": self.significance.rank,
            }
        )
        for m in self.point.scores.columns:
            out[m] = self.point.scores[m]
        out.index.name = "system"
        return out


# ---------------------------------------------------------------------------------------------
# Preparation: document sums and counts
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Prepared:
    systems: list  # sorted
    metrics: list  # the set asked for
    sums: np.ndarray  # (D, K, M) per document: sum of non-null paragraph values
    counts: np.ndarray  # (D, K, M) per document: number of them
    notes: list
    # metric index -> (statistics (D, K, d), score function): corpus metrics (corpus_metrics)
    corpus: dict = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class ParagraphArrays:
    """The paragraphs of one language pair as arrays: the input of :func:`autorank`,
    :func:`autorank_bootstrap` and :func:`paragraph_correlations` without a DataFrame (what
    :meth:`stats.readers.wmt25.WMT25Scores.language_pair_arrays` holds).

    Attributes
    ----------
    values : numpy.ndarray
        Shape (paragraphs, metrics), float; NaN where a paragraph has no value.
    metrics : tuple of str
        The metric of each column of ``values``.
    system : numpy.ndarray
        Shape (paragraphs,), int: the index into ``systems`` of each paragraph's system.
    systems : tuple of str
        The systems' names.
    document : numpy.ndarray
        Shape (paragraphs,), int: a number per document (the bootstrap's unit; documents are
        numbered in order of first appearance, as ``pandas.factorize`` numbers them).

    Examples
    --------
    >>> import numpy as np
    >>> from stats.mt.automatic_ranking import ParagraphArrays, autorank
    >>> arrays = ParagraphArrays(
    ...     values=np.array([[0.9, 80], [0.7, 90], [0.5, 60], [0.6, 70], [0.1, 20],
    ...                      [0.2, np.nan]]),
    ...     metrics=("m1", "m2"), system=np.array([0, 0, 1, 1, 2, 2]), systems=("A", "B", "C"),
    ...     document=np.array([0, 1, 0, 1, 0, 1]))
    >>> autorank(arrays, metrics=["m1", "m2"]).autorank.round(3).to_dict()
    {'A': 1.0, 'B': 1.69, 'C': 3.0}
    """

    values: np.ndarray
    metrics: tuple[str, ...]
    system: np.ndarray
    systems: tuple[str, ...]
    document: np.ndarray

    def column(self, metric: str) -> np.ndarray:
        """The values of one metric (a view of ``values``)."""
        return self.values[:, self.metrics.index(metric)]


def _check_metrics(metrics) -> list:
    if isinstance(metrics, str) or not isinstance(metrics, Sequence) or not len(metrics):
        raise StatsInputError(f"metrics must be a non-empty sequence of column names; got {metrics!r}")
    return list(dict.fromkeys(metrics))


def _prepare(scores, metrics, document, lp, corpus=None) -> _Prepared:
    if isinstance(scores, ParagraphArrays):
        if corpus:
            raise StatsInputError(
                "corpus metrics need the paragraphs as a DataFrame with a document column; "
                "got ParagraphArrays"
            )
        return _prepare_arrays(scores, metrics, lp)
    if not isinstance(scores, pd.DataFrame):
        raise StatsInputError(
            f"scores must be a DataFrame or ParagraphArrays; got {type(scores).__name__}"
        )
    keys = [document] if isinstance(document, str) else list(document)
    metrics = _check_metrics(metrics)
    where = f" in {lp}" if lp else ""
    missing = [c for c in ["system", *keys] if c not in scores]
    if missing:
        raise StatsInputError(f"scores: missing column(s) {', '.join(missing)}")
    corpus = dict(corpus or {})
    absent = [m for m in metrics if m not in scores and m not in corpus]
    if absent:
        have = [c for c in scores.columns if c not in ("system", "paragraph", "doc", *keys)]
        raise StatsInputError(
            f"metrics: {', '.join(absent)} not among the metrics{where} ({', '.join(map(str, have))})"
        )
    values = np.empty((len(scores), len(metrics)))
    for j, m in enumerate(metrics):
        if m in corpus:  # its values are the corpus statistics, laid out below
            values[:, j] = np.nan
            continue
        try:
            values[:, j] = scores[m].to_numpy(dtype=float)
        except (TypeError, ValueError):
            raise StatsInputError(f"scores[{m!r}]: values must be numbers (NaN: none)") from None
    if np.isinf(values).any():
        raise StatsInputError("scores: infinite values (NaN marks a missing value)")
    sys_codes, systems = pd.factorize(scores["system"].astype(str), sort=True)
    if len(keys) == 1 and pd.api.types.is_integer_dtype(scores[keys[0]]):
        doc_codes = pd.factorize(scores[keys[0]])[0]  # numbers already: in order of appearance
    else:
        doc_codes = scores.groupby(keys, sort=False, observed=True).ngroup().to_numpy()
    texts, text_counts = {}, {}
    for j, m in enumerate(metrics):
        if m in corpus:
            if len(keys) != 1:
                raise StatsInputError("corpus metrics need one document column (document='doc')")
            texts[j], text_counts[j] = aligned(
                m, corpus[m], scores[keys[0]], doc_codes, list(systems)
            )
    return _prepared(
        values, sys_codes, list(systems), doc_codes, metrics, where,
        texts=texts, text_counts=text_counts, corpus=corpus,
    )


def _prepare_arrays(arrays: ParagraphArrays, metrics, lp) -> _Prepared:
    """:func:`_prepare` of :class:`ParagraphArrays`: the same sums and counts as the
    DataFrame of the same paragraphs gives (systems sorted by name, documents numbered in order
    of first appearance, the same bincounts)."""
    metrics = _check_metrics(metrics)
    where = f" in {lp}" if lp else ""
    names = tuple(arrays.metrics)
    absent = [m for m in metrics if m not in names]
    if absent:
        raise StatsInputError(
            f"metrics: {', '.join(absent)} not among the metrics{where} ({', '.join(names)})"
        )
    raw = np.asarray(arrays.values)
    system = np.asarray(arrays.system)
    document = np.asarray(arrays.document)
    if raw.ndim != 2 or raw.shape[1] != len(names) or len(system) != len(raw) or len(
        document
    ) != len(raw):
        raise StatsInputError(
            f"scores: values of shape {raw.shape} for {len(names)} metrics, {len(system)} "
            f"system codes and {len(document)} document codes (one row per paragraph)"
        )
    if system.dtype.kind not in "iu" or document.dtype.kind not in "iu":
        raise StatsInputError("scores: system and document codes must be integers")
    if len(raw) and (system.min() < 0 or system.max() >= len(arrays.systems) or document.min() < 0):
        raise StatsInputError(
            f"scores: system codes must lie in [0, {len(arrays.systems)}) and document codes "
            "be non-negative"
        )
    try:
        values = raw[:, [names.index(m) for m in metrics]].astype(float, copy=False)
    except (TypeError, ValueError):
        raise StatsInputError("scores: values must be numbers (NaN: none)") from None
    if np.isinf(values).any():
        raise StatsInputError("scores: infinite values (NaN marks a missing value)")
    # the systems present, sorted by name (pandas.factorize(..., sort=True) of their names)
    present = np.flatnonzero(np.bincount(system, minlength=len(arrays.systems)) > 0)
    named = sorted((str(arrays.systems[i]), i) for i in present)
    lookup = np.full(len(arrays.systems), -1, dtype=np.int64)
    lookup[[i for _, i in named]] = np.arange(len(named))
    sys_codes = lookup[system]
    doc_codes = pd.factorize(document)[0]  # in order of first appearance, as the frame's
    return _prepared(values, sys_codes, [n for n, _ in named], doc_codes, metrics, where)


def _prepared(
    values, sys_codes, systems, doc_codes, metrics, where, *, texts=None, text_counts=None,
    corpus=None,
) -> _Prepared:
    """Per-document sums and counts of each (system, metric) from paragraph ``values`` (one
    bincount per metric), the systems without any value left out with a note. ``texts`` and
    ``text_counts``: the corpus metrics' statistics and paragraph counts per (document,
    system), by metric index (``corpus``: the metrics by name)."""
    texts, text_counts, corpus = dict(texts or {}), dict(text_counts or {}), dict(corpus or {})
    k, d = len(systems), int(doc_codes.max()) + 1 if len(doc_codes) else 0
    present = ~np.isnan(values)
    flat = doc_codes * k + sys_codes
    flat_sums = np.zeros((d * k, len(metrics)))
    flat_counts = np.zeros((d * k, len(metrics)))
    for j in range(len(metrics)):  # one bincount per metric
        weights = np.where(present[:, j], values[:, j], 0.0)
        flat_sums[:, j] = np.bincount(flat, weights=weights, minlength=d * k)
        flat_counts[:, j] = np.bincount(flat, weights=present[:, j], minlength=d * k)
    sums = flat_sums.reshape(d, k, len(metrics))
    counts = flat_counts.reshape(d, k, len(metrics))
    for j, n in text_counts.items():  # corpus metrics: their paragraphs with a hypothesis
        counts[:, :, j] = n
    systems = np.array(systems, dtype=object)
    notes = []
    has_any = counts.sum(axis=(0, 2)) > 0
    if not has_any.all():
        gone = [systems[i] for i in np.flatnonzero(~has_any)]
        notes.append(
            f"{len(gone)} system(s) without a value of {', '.join(metrics)}{where} not ranked "
            f"(as the organisers' script): {', '.join(gone)}"
        )
        keep = np.flatnonzero(has_any)
        systems = systems[keep]
        sums, counts = sums[:, keep], counts[:, keep]
        texts = {j: t[:, keep] for j, t in texts.items()}
    if len(systems) < 3:
        raise StatsInputError(
            f"scores{where}: {len(systems)} system(s) with values of {', '.join(metrics)}"
            f"{' (' + ', '.join(systems) + ')' if len(systems) else ''}; AutoRank needs at "
            "least 3"
        )
    scorers = {j: (t, corpus[metrics[j]].score) for j, t in texts.items()}
    return _Prepared(list(systems), metrics, sums, counts, notes, scorers)


def _robust_z(x: np.ndarray) -> np.ndarray:
    """Robust z of ``x`` along its last axis (the systems): (x - median) / (P100 - P25),
    scale 0 -> 1 (the organisers' script); numpy's linear percentiles."""
    med = np.median(x, axis=-1, keepdims=True)
    scale = np.max(x, axis=-1, keepdims=True) - np.percentile(x, 25, axis=-1, keepdims=True)
    scale = np.where(scale == 0, 1.0, scale)
    return (x - med) / scale


def _autorank_of(zbar: np.ndarray) -> np.ndarray:
    """AutoRank from :math:`\\bar z` along the last axis (NaN rows stay NaN)."""
    n = zbar.shape[-1]
    zmax = np.max(zbar, axis=-1, keepdims=True)
    zmin = np.min(zbar, axis=-1, keepdims=True)
    tied = np.isclose(zmax, zmin)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = 1 + (n - 1) * (zmax - zbar) / (zmax - zmin)
    return np.where(tied, 1.0, out)


def _point(prep: _Prepared, lp: str, warn: bool = True):
    """(AutoRankResult, used metric indices, availability mask (K, M_used), metric counts)."""
    total_s = prep.sums.sum(axis=0)
    total_c = prep.counts.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        means = total_s / total_c
    for j, (stats, score) in prep.corpus.items():  # corpus metrics: scored, not averaged
        means[:, j] = corpus_scores(score, stats.sum(axis=0))
    avail = total_c > 0
    notes = list(prep.notes)
    where = f" in {lp}" if lp else ""
    used, left = [], []
    z = np.full(means.shape, np.nan)
    for j, m in enumerate(prep.metrics):
        x = means[avail[:, j], j]
        if x.size == 0:
            left.append(m)
            notes.append(f"metric {m} has no value{where}: left out")
            continue
        if np.all(x == x[0]):
            left.append(m)
            msg = (
                f"metric {m}: the same mean ({x[0]:.6g}) for every system{where}; left out of "
                "AutoRank (its robust z would be 0 for every system: no AutoRank changes)"
            )
            notes.append(msg)
            if warn:
                warn_degenerate(msg, stacklevel=4)
            continue
        scale = np.max(x) - np.percentile(x, 25)
        if scale == 0:
            msg = (
                f"metric {m}{where}: P100 - P25 is 0 (a quarter or more of the systems share "
                "the best mean); scaled by 1, as the organisers' script does"
            )
            notes.append(msg)
            if warn:
                warn_degenerate(msg, stacklevel=4)
        z[avail[:, j], j] = _robust_z(x)
        used.append(j)
    if not used:
        raise StatsInputError(
            f"metrics{where}: none of {', '.join(prep.metrics)} tells the systems apart; "
            "nothing to rank by"
        )
    zu, au = z[:, used], avail[:, used]
    n_m = au.sum(axis=1)
    ranked = n_m > 0
    if not ranked.all():
        gone = [prep.systems[i] for i in np.flatnonzero(~ranked)]
        raise StatsInputError(
            f"scores{where}: {', '.join(gone)} have values only of metrics left out; give "
            "another metric set"
        )
    zbar = np.where(au, zu, 0.0).sum(axis=1) / n_m
    ar = _autorank_of(zbar)
    if np.isclose(zbar.max(), zbar.min()):
        msg = f"every system has the same combined score{where}: AutoRank 1 for all"
        notes.append(msg)
        if warn:
            warn_degenerate(msg, stacklevel=4)
    order = np.argsort(ar, kind="stable")
    names = [prep.systems[i] for i in order]
    idx = pd.Index(names, dtype=object, name="system")
    metrics_used = [prep.metrics[j] for j in used]
    result = AutoRankResult(
        autorank=pd.Series(ar[order], index=idx, name="AutoRank"),
        zbar=pd.Series(zbar[order], index=idx, name="zbar"),
        z=pd.DataFrame(zu[order], index=idx, columns=metrics_used),
        scores=pd.DataFrame(means[order][:, used], index=idx, columns=metrics_used),
        n_values=pd.DataFrame(total_c[order][:, used].astype(np.int64), index=idx,
                              columns=metrics_used),  # fmt: skip
        metrics=tuple(metrics_used),
        left_out=tuple(left),
        systems=tuple(names),
        lp=lp,
        n_documents=int(prep.sums.shape[0]),
        notes=tuple(notes),
    )
    return result, used, order


def autorank(
    scores: pd.DataFrame | ParagraphArrays,
    *,
    metrics: Sequence[str],
    lp: str = "",
    document: str | Sequence[str] = "document",
    corpus: Mapping[str, CorpusMetric] | None = None,
) -> AutoRankResult:
    """AutoRank of the systems of one language pair (WMT25's definition; module docstring).

    Parameters
    ----------
    scores : pandas.DataFrame or ParagraphArrays
        One row per paragraph: columns ``system``, the ``document`` column(s) and one column
        per metric (NaN where a paragraph has no value), e.g.
        :meth:`stats.readers.wmt25.WMT25Scores.language_pair`; or the same paragraphs as
        :class:`ParagraphArrays` (``document`` then unused), the same result without a
        DataFrame.
    metrics : sequence of str
        The metric set, averaged with equal weights (e.g. :func:`autorank_metrics`).
    lp : str
        Language pair, for messages and the result.
    document : str or sequence of str
        The column(s) naming a document (default ``'document'``).
    corpus : mapping of str to CorpusMetric, optional
        Corpus-level metrics (BLEU, chrF++: :mod:`stats.mt.corpus_metrics`) by name: a metric
        of ``metrics`` named here is a system's corpus score over its documents' summed
        statistics instead of a mean of paragraph values (``document`` one column, the values
        ``CorpusMetric.documents`` name).

    Returns
    -------
    AutoRankResult

    Raises
    ------
    StatsInputError
        A metric not among the columns; fewer than 3 systems with values; no metric that
        tells the systems apart.

    Examples
    --------
    >>> import pandas as pd
    >>> from stats.mt.automatic_ranking import autorank
    >>> scores = pd.DataFrame({"system": list("AABBCC"), "document": ["d1", "d2"] * 3,
    ...                        "m1": [0.9, 0.7, 0.5, 0.6, 0.1, 0.2],
    ...                        "m2": [80, 90, 60, 70, 20, None]})
    >>> autorank(scores, metrics=["m1", "m2"]).autorank.round(3).to_dict()
    {'A': 1.0, 'B': 1.69, 'C': 3.0}
    """
    prep = _prepare(scores, metrics, document, lp, corpus)
    return _point(prep, lp)[0]


def autorank_bootstrap(
    scores: pd.DataFrame | ParagraphArrays,
    *,
    metrics: Sequence[str],
    lp: str = "",
    document: str | Sequence[str] = "document",
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    alpha: float = 0.05,
    correction: str = "none",
    alternative: str = "greater",
    rng=None,
    progress: Callable[[float], None] | None = None,
    corpus: Mapping[str, CorpusMetric] | None = None,
) -> AutoRankBootstrapResult:
    r"""AutoRank with intervals, pairwise p-values and clusters from a paired bootstrap over
    documents.

    On each of ``n_resamples`` resamples, the documents of the language pair are drawn with
    replacement (the same documents for every system), each system's metric means are
    recomputed from the drawn documents' paragraphs, and the robust scaling, the mean
    :math:`\bar z` and AutoRank are computed anew. Then:

    - interval: the :math:`(1 \pm \text{confidence\_level})/2` percentiles of each system's
      AutoRank over the resamples;
    - p-value of a pair (system :math:`i` ranked above :math:`j`):
      :math:`p = (c + 1)/(R + 1)`, :math:`c = \#\{b : \bar z_{ib} - \bar z_{jb} \le 0\}`
      (``'two-sided'``: twice the smaller of the two tails, capped at 1), as
      :func:`stats.paired_bootstrap` counts;
    - clusters: :func:`stats.pairwise.grids.grid_significance` of that grid (``alpha``,
      ``correction``).

    All resamples are one array computation: the document counts :math:`W` (R x D) times the
    per-document sums and counts of every system and metric.

    Parameters
    ----------
    scores, metrics, lp, document, corpus
        As :func:`autorank`; a corpus metric is re-scored at the corpus level from the drawn
        documents' summed statistics on every resample.
    n_resamples : int
        Bootstrap resamples (default 1000).
    confidence_level : float
        Of the AutoRank intervals (default 0.95).
    alpha : float
        Level of the clusters (default 0.05).
    correction : {'none', 'holm', 'bh'}
        Multiple-comparison adjustment of the grid before the clusters.
    alternative : {'greater', 'two-sided'}
        ``'greater'``: the one-sided p in the observed direction (the grids' reading).
    rng : int, numpy.random.Generator or None
        Keyword-only; an int is recorded as ``seed``.
    progress : callable, optional
        Called with the fraction of resamples done after each chunk.

    Returns
    -------
    AutoRankBootstrapResult

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from stats.mt.automatic_ranking import autorank_bootstrap
    >>> g = np.random.default_rng(0)
    >>> docs = np.repeat(np.arange(30), 4)
    >>> rows = [pd.DataFrame({"system": s, "document": docs,
    ...                       "m1": q + g.normal(0, 0.2, docs.size),
    ...                       "m2": q + g.normal(0, 0.2, docs.size)})
    ...         for s, q in [("A", 1.0), ("B", 0.5), ("C", 0.49), ("D", 0.0)]]
    >>> res = autorank_bootstrap(pd.concat(rows), metrics=["m1", "m2"], n_resamples=500, rng=1)
    >>> res.clusters
    (('A',), ('B', 'C'), ('D',))
    """
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    confidence_level = check_confidence_level(confidence_level)
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, ("greater", "two-sided"))
    gen, seed = rng_and_seed(rng)
    prep = _prepare(scores, metrics, document, lp, corpus)
    point, used, order = _point(prep, lp)
    sums = prep.sums[:, order][:, :, used]  # systems best first, metrics used
    counts = prep.counts[:, order][:, :, used]
    d, k, m = sums.shape
    n_pairs = k * (k - 1) // 2
    check_budget(
        what="AutoRank bootstrap", n_resamples=n_resamples, n_segments=d, n_systems=k,
        n_pairs=n_pairs, pair_cost=2.0, memory=8.0 * n_resamples * k * 2,
    )  # fmt: skip
    avail = counts.sum(axis=0) > 0  # (K, M)
    n_metrics = avail.sum(axis=1)
    ii, jj = np.triu_indices(k, k=1)
    s2 = sums.reshape(d, k * m)
    c2 = counts.reshape(d, k * m)
    texts = [  # corpus metrics: (position among the metrics used, statistics (D, K*S), score)
        (pos, prep.corpus[j][0][:, order].reshape(d, -1), prep.corpus[j][1])
        for pos, j in enumerate(used) if j in prep.corpus
    ]  # fmt: skip
    draws = np.empty((n_resamples, k))
    zbar_all = np.empty((n_resamples, k))
    chunk = max(1, min(n_resamples, CHUNK_BUDGET // max(d, k * m, n_pairs, 1)))
    for start in range(0, n_resamples, chunk):  # chunks bound memory; the draws are one stream
        size = min(chunk, n_resamples - start)
        w = bootstrap_weights(gen.random((size, d)), np.float64)
        rs = (w @ s2).reshape(size, k, m)
        rc = (w @ c2).reshape(size, k, m)
        with np.errstate(invalid="ignore", divide="ignore"):
            means = rs / rc
        for pos, t2, score in texts:
            means[:, :, pos] = corpus_scores(score, (w @ t2).reshape(size, k, -1))
        bad = ((rc == 0) & avail).any(axis=(1, 2))
        z = np.zeros((size, k, m))
        for j in range(m):  # a handful of metrics; every resample at once
            a = avail[:, j]
            z[:, a, j] = _robust_z(means[:, a, j])
        zbar = z.sum(axis=2) / n_metrics
        zbar[bad] = np.nan
        zbar_all[start : start + size] = zbar
        draws[start : start + size] = _autorank_of(zbar)
        if progress is not None:
            progress((start + size) / n_resamples)
    defined = ~np.isnan(zbar_all[:, 0])
    n_defined = int(defined.sum())
    where = f" in {lp}" if lp else ""
    if n_defined < n_resamples:
        warn_degenerate(
            f"{n_resamples - n_defined} of {n_resamples} resamples{where} drew none of the "
            "documents where some system has a metric (its mean undefined there); left out of "
            "the intervals and p-values", stacklevel=2,
        )  # fmt: skip
    draws, zbar_all = draws[defined], zbar_all[defined]
    names = list(point.systems)
    idx = pd.Index(names, dtype=object, name="system")
    pv = np.full((k, k), np.nan)
    if d < 2 or n_defined == 0:
        warn_degenerate(
            f"{d} document(s){where}: the bootstrap cannot vary the data; intervals and "
            "p-values are NaN", stacklevel=2,
        )  # fmt: skip
        low = high = np.full(k, np.nan)
    else:
        if d < FEW_DOCUMENTS:
            warn_degenerate(
                f"only {d} documents{where}: the bootstrap's intervals and p-values are coarse",
                stacklevel=2,
            )
        low, high = _quantiles(draws, confidence_level)
        below = np.zeros(n_pairs, dtype=np.int64)
        above = np.zeros(n_pairs, dtype=np.int64)
        # systems as rows, resamples contiguous; zbar_i <= zbar_j exactly when their
        # difference is <= 0 (a difference of two doubles is 0 only when they are equal)
        by_system = np.ascontiguousarray(zbar_all.T)
        step = max(1, CHUNK_BUDGET // max(n_pairs, 1))
        for start in range(0, n_defined, step):
            block = by_system[:, start : start + step]
            better, worse = block[ii], block[jj]
            below += np.count_nonzero(better <= worse, axis=1)
            if alternative != "greater":
                above += np.count_nonzero(better >= worse, axis=1)
        counted = below if alternative == "greater" else np.where(below <= above, below, above)
        pv[ii, jj] = _pvalues_from_counts("paired-bootstrap", alternative, counted, n_defined)
    pvalue = pd.DataFrame(pv, index=idx, columns=idx)
    sig = grid_significance(pvalue, alpha=alpha, correction=correction, alternative=alternative)
    ranks = sig.rank.tolist()
    rank_of = dict(zip(sig.rank.index, ranks, strict=True))
    members: dict = {}  # rank -> its systems, best first (a NaN rank has none)
    for s in names:
        if rank_of[s] == rank_of[s]:
            members.setdefault(rank_of[s], []).append(s)
    clusters = tuple(tuple(members.get(r, ())) for r in dict.fromkeys(ranks))
    return AutoRankBootstrapResult(
        statistic=point.autorank,
        pvalue=pvalue,
        interval_low=pd.Series(low, index=idx, name="low"),
        interval_high=pd.Series(high, index=idx, name="high"),
        confidence_level=confidence_level,
        significance=sig,
        clusters=clusters,
        point=point,
        n_resamples=n_resamples,
        n_defined=n_defined,
        seed=seed,
        distribution=draws,
    )


def paragraph_correlations(
    scores: pd.DataFrame | ParagraphArrays, *, metrics: Sequence[str]
) -> pd.DataFrame:
    """Pearson's r between metrics over the paragraphs where both have a value (every system's
    paragraphs of one language pair pooled): the segment-level agreement of the metrics.
    ``scores``: a DataFrame with a column per metric, or :class:`ParagraphArrays`.

    Returns a square DataFrame (metrics x metrics); NaN where fewer than 3 paragraphs have
    both values or a metric is constant on them.

    Examples
    --------
    >>> import pandas as pd
    >>> s = pd.DataFrame({"a": [1.0, 2, 3, 4], "b": [2.0, 4, 6, None], "c": [4.0, 3, 2, 1]})
    >>> paragraph_correlations(s, metrics=["a", "b", "c"]).round(3).to_dict()["a"]
    {'a': 1.0, 'b': 1.0, 'c': -1.0}
    """
    metrics = list(metrics)
    have = scores.metrics if isinstance(scores, ParagraphArrays) else scores
    missing = [m for m in metrics if m not in have]
    if missing:
        raise StatsInputError(f"metrics: {', '.join(missing)} not among the columns")
    if isinstance(scores, ParagraphArrays):
        columns = [scores.metrics.index(m) for m in metrics]
        values = pd.DataFrame(scores.values[:, columns].astype(float), columns=metrics)
    else:
        values = scores[metrics].astype(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = values.corr(method="pearson", min_periods=3)
    return out.reindex(index=metrics, columns=metrics)


def findings_shading(values) -> np.ndarray:
    r"""The findings' shading of a metric column (the organisers' ``shade``):
    :math:`g = (x - P_{25}) / (\max - P_{25})` over the column's values, clipped to [0, 1]
    (linear percentile); NaN where a value is missing. 0 is red, 1 green.

    Examples
    --------
    >>> findings_shading([1.0, 2.0, 3.0, 4.0, 5.0]).round(3).tolist()
    [0.0, 0.0, 0.333, 0.667, 1.0]
    """
    values = np.asarray(values, dtype=float)
    finite = values[~np.isnan(values)]
    if finite.size == 0:
        return np.full(values.shape, np.nan)
    low, high = np.percentile(finite, 25), finite.max()
    with np.errstate(invalid="ignore", divide="ignore"):
        g = (values - low) / (high - low)
    return np.clip(g, 0, 1)


def metric_digits(metric: str) -> int:
    """Decimals a metric's mean is printed with in the findings' tables: 3 for COMET-family
    metrics (``'comet'`` in the name), else 1."""
    return 3 if "comet" in metric.lower() else 1


def autorank_latex(result: AutoRankResult | AutoRankBootstrapResult, *, shade: bool = True) -> str:
    """A findings-style booktabs table of one language pair: system, AutoRank (with its
    interval and a rule between clusters when ``result`` is a bootstrap result), each
    metric's mean; cells shaded per metric as the organisers' tables
    (``\\cellcolor{green!G!red!R}`` with :math:`G = 100 - R`, :math:`R = \\mathrm{round}(100(1 - g))`,
    :math:`g` of :func:`findings_shading`; needs ``\\usepackage[table]{xcolor}``). AutoRank to one
    decimal, COMET-family means to three, the others to one (:func:`metric_digits`)."""
    from stats.escape import latex as latex_escape

    boot = result if isinstance(result, AutoRankBootstrapResult) else None
    point = boot.point if boot is not None else result
    if not isinstance(point, AutoRankResult):
        raise StatsInputError(
            "result: expected an AutoRankResult or AutoRankBootstrapResult; got "
            f"{type(result).__name__}"
        )
    metrics = list(point.scores.columns)
    shares = {m: findings_shading(point.scores[m].to_numpy(dtype=float)) for m in metrics}
    head = ["System", r"AutoRank $\downarrow$"]
    if boot is not None:
        head.append(f"{boot.confidence_level:.0%} interval".replace("%", r"\%"))
    head += [latex_escape(m) + r" $\uparrow$" for m in metrics]
    lines = [
        r"\begin{table}[t]",
        r"\centering",
        r"\small",
        r"\begin{tabular}{l" + "r" * (len(head) - 1) + "}",
        r"\toprule",
        " & ".join(head) + r" \\",
        r"\midrule",
    ]
    rank = boot.significance.rank if boot is not None else None
    previous = None
    for i, system in enumerate(point.systems):
        if rank is not None:
            if previous is not None and rank[system] != previous:
                lines.append(r"\midrule")
            previous = rank[system]
        cells = [latex_escape(system), f"{point.autorank[system]:.1f}"]
        if boot is not None:
            lo, hi = boot.interval_low[system], boot.interval_high[system]
            cells.append("--" if np.isnan(lo) else f"{lo:.1f}--{hi:.1f}")
        for m in metrics:
            v = point.scores.at[system, m]
            if np.isnan(v):
                cells.append("--")
                continue
            text = f"{v:.{metric_digits(m)}f}"
            g = shares[m][i]
            if shade and not np.isnan(g):
                red = int(round((1 - g) * 100))
                text = rf"\cellcolor{{green!{100 - red}!red!{red}}}{text}"
            cells.append(text)
        lines.append(" & ".join(cells) + r" \\")
    caption = f"{point.lp + ': ' if point.lp else ''}AutoRank over {', '.join(metrics)}"
    if boot is not None:
        caption += (
            f"; {boot.confidence_level:.0%} paired-bootstrap intervals over "
            f"{point.n_documents} documents ({boot.n_defined} resamples); rules between "
            f"clusters at alpha {boot.significance.alpha:g}"
        )
        if boot.significance.correction != "none":
            caption += f" ({boot.significance.correction}-adjusted)"
    lines += [r"\bottomrule", r"\end{tabular}", rf"\caption{{{latex_escape(caption)}}}",
              r"\end{table}"]  # fmt: skip
    return "\n".join(lines) + "\n"
