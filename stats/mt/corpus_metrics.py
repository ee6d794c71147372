r"""Corpus-level metrics in AutoRank: BLEU and chrF++ as sacreBLEU defines them, a system's
score computed from its sufficient statistics summed over the documents, not a mean of
paragraph scores.

:class:`CorpusMetric` holds, per system and document, the sacreBLEU sufficient statistics
summed over the document's paragraphs (:func:`stats.mt.sufficient.extract_statistics`), and
the function giving the corpus score of summed statistics
(:meth:`stats.mt.sufficient.SegmentStatistics.score`). :func:`stats.mt.automatic_ranking.autorank`
and :func:`~stats.mt.automatic_ranking.autorank_bootstrap` take them as ``corpus=``: the
point score is the corpus score over every document a system has,

.. math:: \mathrm{BLEU}_k = f\Big(\sum_{d} s_{kd}\Big),

and each bootstrap resample scores the drawn documents' summed statistics (a document drawn
twice counts twice), so BLEU and chrF++ are re-computed at the corpus level on every resample,
as sacreBLEU's own paired bootstrap does.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from stats._core.errors import StatsInputError

__all__ = ["CorpusMetric"]


@dataclass(frozen=True, kw_only=True)
class CorpusMetric:
    """A metric whose system score is a corpus score of summed per-document statistics.

    Attributes
    ----------
    systems : tuple of str
    documents : tuple
        Values of the scores' document column, one per column of ``statistics``.
    statistics : numpy.ndarray, shape (systems, documents, d)
        Sufficient statistics summed over each document's paragraphs (0 where absent).
    n_segments : numpy.ndarray, shape (systems, documents)
        Paragraphs behind each row (0: the system has no output scored for the document).
    score : callable
        Summed statistics, shape (..., d) -> score, shape (...) (vectorised).
    label : str
        How the score is computed, for notes (e.g. sacreBLEU's signature).
    """

    systems: tuple[str, ...]
    documents: tuple
    statistics: np.ndarray = field(repr=False)
    n_segments: np.ndarray = field(repr=False)
    score: Callable[[np.ndarray], np.ndarray] = field(repr=False)
    label: str = ""

    def __post_init__(self) -> None:
        k, d = len(self.systems), len(self.documents)
        if self.statistics.ndim != 3 or self.statistics.shape[:2] != (k, d):
            raise StatsInputError(
                f"statistics must have shape (systems, documents, d) = ({k}, {d}, d); got "
                f"{self.statistics.shape}"
            )
        if self.n_segments.shape != (k, d):
            raise StatsInputError(f"n_segments must have shape ({k}, {d}); got {self.n_segments.shape}")


def aligned(
    metric: str, corpus: CorpusMetric, doc_keys: pd.Series, doc_codes: np.ndarray, systems
) -> tuple[np.ndarray, np.ndarray]:
    """``corpus`` laid out as the ranking's arrays: statistics (D, K, d) and paragraph counts
    (D, K), documents numbered as ``doc_codes`` numbers ``doc_keys`` and systems in the order of
    ``systems`` (a system without statistics has none: count 0)."""
    if not isinstance(corpus, CorpusMetric):
        raise StatsInputError(f"corpus[{metric!r}] must be a CorpusMetric; got {type(corpus).__name__}")
    n_docs = int(doc_codes.max()) + 1 if len(doc_codes) else 0
    first = pd.Series(doc_codes).groupby(doc_keys.to_numpy(), sort=False).first()
    where = first.reindex(list(corpus.documents))
    if where.isna().any():
        unknown = [str(d) for d, w in zip(corpus.documents, where.isna(), strict=True) if w]
        raise StatsInputError(
            f"corpus[{metric!r}]: {len(unknown)} document(s) not among the scores' documents "
            f"({', '.join(unknown[:5])}{', ...' if len(unknown) > 5 else ''})"
        )
    d_pos = where.to_numpy(dtype=np.int64)
    s_pos = pd.Index(list(corpus.systems)).get_indexer(list(systems))
    stats = np.zeros((n_docs, len(systems), corpus.statistics.shape[2]))
    counts = np.zeros((n_docs, len(systems)))
    have = s_pos >= 0
    stats[np.ix_(d_pos, np.flatnonzero(have))] = corpus.statistics[s_pos[have]].transpose(1, 0, 2)
    counts[np.ix_(d_pos, np.flatnonzero(have))] = corpus.n_segments[s_pos[have]].T
    return stats, counts


def corpus_scores(score, stats: np.ndarray) -> np.ndarray:
    """``score`` of summed statistics ``stats`` (..., d), NaN where nothing was summed."""
    empty = ~np.any(stats != 0, axis=-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = np.asarray(score(stats), dtype=float)
    return np.where(empty, np.nan, out)
