r"""Word-level QE: OK/BAD tags per target word scored as the WMT20-23 QE tasks do.

With BAD the positive class and the confusion counts :math:`TP, FP, FN, TN` of a system's
tags against the gold tags over all words of a language pair,

.. math::

    \mathrm{MCC} = \frac{TP \cdot TN - FP \cdot FN}
                        {\sqrt{(TP + FP)(TP + FN)(TN + FP)(TN + FN)}},\qquad
    F_1^{BAD} = \frac{2 TP}{2 TP + FP + FN},\qquad
    F_1^{OK} = \frac{2 TN}{2 TN + FN + FP}.

MCC is primary (WMT20-23); the tasks also report :math:`F_1^{BAD} \cdot F_1^{OK}` (WMT20-21
"F1-mult"). A zero denominator gives NaN with a warning.

Significance: a paired bootstrap over sentences (Koehn 2004), every system on the same
resamples. A resample is a vector of counts :math:`w` over sentences; its confusion counts are
:math:`w^\top C` with :math:`C` the per-sentence counts (one matrix product for all systems
and resamples). For a pair with observed :math:`\Delta = M_a - M_b > 0`,
:math:`p = (\#\{\Delta^{(r)} \le 0\} + 1)/(R + 1)` in the row of :math:`a`, as
:func:`stats.mt.randomized.paired_bootstrap` counts.

References
----------
B. W. Matthews. 1975. Comparison of the predicted and observed secondary structure of T4
phage lysozyme. Biochimica et Biophysica Acta 405(2).

P. Koehn. 2004. Statistical Significance Tests for Machine Translation Evaluation. EMNLP.
https://aclanthology.org/W04-3250/
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.budget import check_budget
from stats._core.errors import DegenerateInputWarning, StatsInputError
from stats._core.progress import check_progress
from stats._core.random import check_rng
from stats._core.results import StatisticPvalue
from stats._core.validation import check_confidence_level, check_positive_int
from stats.pairwise.grids import grid_significance

from .wmt import _counts  # bootstrap counts (one home)

__all__ = [
    "WORD_MEASURES",
    "word_scores_from_confusion",
    "align_word_tags",
    "WordLevelResult",
    "compare_word_level",
]

WORD_MEASURES = ("mcc", "f1_bad", "f1_ok", "f1_mult")
_CELLS = 4_000_000


def word_scores_from_confusion(tp, fp, fn, tn) -> dict:
    """MCC, F1-BAD, F1-OK and their product from confusion counts (arrays broadcast)."""
    tp, fp, fn, tn = (np.asarray(a, dtype=float) for a in (tp, fp, fn, tn))
    with np.errstate(invalid="ignore", divide="ignore"):
        den = np.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
        mcc = np.where(den > 0, (tp * tn - fp * fn) / np.where(den > 0, den, 1), np.nan)
        f1_bad = np.where(2 * tp + fp + fn > 0, 2 * tp / (2 * tp + fp + fn), np.nan)
        f1_ok = np.where(2 * tn + fn + fp > 0, 2 * tn / (2 * tn + fn + fp), np.nan)
    return {"mcc": mcc, "f1_bad": f1_bad, "f1_ok": f1_ok, "f1_mult": f1_bad * f1_ok}


def align_word_tags(submissions: pd.DataFrame, gold: pd.DataFrame) -> dict:
    """Per language pair: ``(sentence ids, per-sentence confusion counts)`` where the counts
    are an array (systems x sentences x 4: TP, FP, FN, TN, BAD positive) and the systems are
    listed in ``systems``. Returns ``{lp: (systems, sids, counts)}``.

    Gold tags with gaps interleaved (``2m + 1`` tags where the submissions have ``m`` words,
    for every sentence) are reduced to the word tags (odd positions).

    Raises
    ------
    StatsInputError
        A submitted language pair missing from gold; a system whose words differ from the
        gold words (the first differing sentence named).
    """
    unknown = sorted(set(submissions["lp"]) - set(gold["lp"]))
    if unknown:
        raise StatsInputError(f"gold: no word tags for language pair(s) {', '.join(unknown)}")
    out = {}
    for lp, sub in submissions.groupby("lp", sort=True):
        g = gold[gold["lp"] == lp]
        glen = g.groupby("sid").size()
        slen = sub.groupby(["system", "sid"]).size().groupby("sid").max()
        common = glen.index.intersection(slen.index)
        if len(common) and (glen[common] == 2 * slen[common] + 1).all():
            g = g[g["pos"] % 2 == 1].assign(pos=lambda f: f["pos"] // 2)
        sids = pd.Index(sorted(g["sid"].unique(), key=lambda s: (len(s), s)))
        gkey = pd.MultiIndex.from_frame(g[["sid", "pos"]])
        gbad = pd.Series(g["bad"].to_numpy(), index=gkey).sort_index()
        systems = sorted(sub["system"].unique())
        counts = np.zeros((len(systems), len(sids), 4))
        sent = sids.get_indexer(gbad.index.get_level_values(0))
        for k, s in enumerate(systems):
            rows = sub[sub["system"] == s]
            pred = pd.Series(
                rows["bad"].to_numpy(), index=pd.MultiIndex.from_frame(rows[["sid", "pos"]])
            ).sort_index()
            if not pred.index.equals(gbad.index):
                diff = pred.index.symmetric_difference(gbad.index)
                first = diff[0][0] if len(diff) else "?"
                raise StatsInputError(
                    f"{lp}: system {s!r} tags other words than the gold file (first in "
                    f"segment {first}: {len(pred)} tags vs {len(gbad)} gold)"
                )
            p, t = pred.to_numpy(dtype=bool), gbad.to_numpy(dtype=bool)
            code = np.select([p & t, p & ~t, ~p & t], [0, 1, 2], 3)
            np.add.at(counts[k], (sent, code), 1)
        out[lp] = (systems, sids, counts)
    return out


@dataclass(frozen=True, kw_only=True)
class WordLevelResult(StatisticPvalue):
    """Result of :func:`compare_word_level`.

    ``statistic``: systems x language pairs of MCC; ``pvalue``: ``{lp: grid}`` (paired
    bootstrap on MCC, "row better"); ``tables``: ``{lp: DataFrame}`` per system with
    ``mcc``, ``mcc_low``, ``mcc_high``, ``f1_bad``, ``f1_ok``, ``f1_mult``, ``rank``, best
    first; ``average``: mean over language pairs of systems covering all of them.
    """

    statistic: pd.DataFrame
    pvalue: dict
    tables: dict
    average: pd.DataFrame
    n_resamples: int
    confidence_level: float
    alpha: float
    correction: str


def compare_word_level(
    submissions: pd.DataFrame,
    gold: pd.DataFrame,
    *,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    alpha: float = 0.05,
    correction: str = "none",
    rng=None,
    progress=None,
) -> WordLevelResult:
    """Score word-level QE systems per language pair (module notes): MCC, F1-BAD, F1-OK,
    F1-mult, a percentile bootstrap interval of MCC, and paired bootstrap tests of every pair
    of systems on MCC with clusters (``alpha``, ``correction`` as
    :func:`stats.pairwise.grids.grid_significance`).

    Parameters
    ----------
    submissions, gold : DataFrame
        As read by :func:`stats.readers.qe_word.read_word_submissions` /
        :func:`~stats.readers.qe_word.read_word_gold`.
    n_resamples : int
    confidence_level, alpha : float
    correction : {'none', 'holm', 'bh'}
    rng : int, Generator or None
    progress : callable, optional
        Called as ``progress(fraction)`` with the share of the resamples done over all
        language pairs (changes nothing drawn).

    Returns
    -------
    WordLevelResult
    """
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    check_progress(progress)
    confidence_level = check_confidence_level(confidence_level)
    gen = check_rng(rng)
    aligned = align_word_tags(submissions, gold)
    tables, grids = {}, {}
    a = (1 - confidence_level) / 2
    for k, (lp, (systems, _sids, C)) in enumerate(aligned.items()):
        K, S, _ = C.shape
        check_budget(
            what="word-level bootstrap",
            n_resamples=n_resamples,
            n_segments=S,
            n_systems=K,
            n_pairs=K * (K - 1) // 2,
        )
        total = C.sum(axis=1)  # K x 4
        obs = word_scores_from_confusion(*total.T)
        if np.isnan(obs["mcc"]).any():
            bad = [systems[i] for i in np.flatnonzero(np.isnan(obs["mcc"]))]
            warnings.warn(
                f"{lp}: MCC undefined (a row or column of the confusion matrix is "
                f"empty) for {', '.join(bad)}",
                DegenerateInputWarning,
                stacklevel=2,
            )
        boot = np.empty((n_resamples, K))
        chunk = max(1, _CELLS // max(S * K, 1))
        for r0 in range(0, n_resamples, chunk):
            R = min(chunk, n_resamples - r0)
            W = _counts(gen, R, S)
            conf = np.einsum("rs,ksc->rkc", W, C)
            boot[r0 : r0 + R] = word_scores_from_confusion(*np.moveaxis(conf, -1, 0))["mcc"]
            if progress is not None:
                progress((k + (r0 + R) / n_resamples) / len(aligned))
        order = sorted(
            range(K),
            key=lambda i: (np.isnan(obs["mcc"][i]), -np.nan_to_num(obs["mcc"][i]), systems[i]),
        )
        names = [systems[i] for i in order]
        iu, ju = np.triu_indices(K, 1)
        bo, mo = boot[:, order], obs["mcc"][order]
        counts = (~(bo[:, iu] - bo[:, ju] > 0)).sum(axis=0)  # X does not beat Y
        pv = np.full((K, K), np.nan)
        pv[iu, ju] = np.where(mo[iu] > mo[ju], (counts + 1) / (n_resamples + 1), np.nan)
        grid = pd.DataFrame(pv, index=names, columns=names)
        sig = grid_significance(grid, alpha=alpha, correction=correction, order=names)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            low = np.nanquantile(boot, a, axis=0)
            high = np.nanquantile(boot, 1 - a, axis=0)
        t = pd.DataFrame(
            {
                "mcc": obs["mcc"],
                "mcc_low": low,
                "mcc_high": high,
                "f1_bad": obs["f1_bad"],
                "f1_ok": obs["f1_ok"],
                "f1_mult": obs["f1_mult"],
                "sentences": S,
                "words": total.sum(axis=1).astype(int),
            },
            index=pd.Index(systems, name="system"),
        ).loc[names]
        t["rank"] = sig.rank.reindex(names).to_numpy()
        tables[lp], grids[lp] = t, grid
    stat = pd.DataFrame({lp: t["mcc"] for lp, t in tables.items()})
    lps = sorted(set(gold["lp"]))
    full = [s for s in stat.index if all(lp in tables and s in tables[lp].index for lp in lps)]
    avg = pd.DataFrame(
        {m: [np.mean([tables[lp].at[s, m] for lp in lps]) for s in full] for m in WORD_MEASURES},
        index=pd.Index(full, name="system"),
    )
    if len(avg):
        avg = avg.sort_values("mcc", ascending=False, kind="stable")
    if stat.empty:
        raise StatsInputError("no word-level language pair to score")
    return WordLevelResult(
        statistic=stat,
        pvalue=grids,
        tables=tables,
        average=avg,
        n_resamples=n_resamples,
        confidence_level=confidence_level,
        alpha=alpha,
        correction=correction,
    )
