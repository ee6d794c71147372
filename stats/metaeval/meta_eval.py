"""Segment- and system-level meta-evaluation of MT metrics, as the WMT metrics task runs it.

The scores of one language pair are two matrices, ``metric`` and ``gold``, of shape
(systems x items); an item is a source segment. Missing gold scores are NaN (MTME's ``None``);
metric scores are complete. A correlation is computed

* at ``level='seg'`` over segment scores, within *groups*: ``grouping='none'`` (one group: all
  cells, system by system), ``'system'`` (one group per system, a row) or ``'item'`` (one group
  per item, a column). The result is the plain (macro) average over the groups whose
  correlation is defined; groups with fewer than two gold scores and NaN groups are dropped,
  and so are groups with fewer than three for a correlation coefficient (``min_group_size``:
  a correlation of two items is always +-1; MTME computes it, ``min_group_size=2`` follows).
  ``kendall-like`` is the exception: it pools the pairs of all groups (a pair-weighted average),
  as MTME does;
* at ``level='sys'`` over system scores: given directly, or the mean over items of each
  system's segment scores (gold: over the items with a gold score).

Cells with a missing gold score are left out of their group before anything is computed, exactly
as ``mt_metrics_eval.stats.AverageCorrelation`` filters ``None`` gold scores.

Correlations (``correlation=``): ``pearson``, ``spearman``, ``kendall`` (tau-b), ``kendall-c``
(tau-c), ``kendall-like`` (WMT20), ``acc23`` (pairwise accuracy with ties, Deutsch et al. 2023;
given ``epsilon`` or tie-calibrated) and ``pairwise-accuracy`` (system level, Kocmi et al. 2021;
pooled over language pairs by :func:`pairwise_accuracy`).

Everything is array arithmetic: pair statistics are counted over blocks of all pairs at once,
tie calibration sorts every pair's metric difference once and reads acc23 at every threshold
from a cumulative sum, and bootstrap confidence intervals with item grouping resample per-item
values as matrices. Only a statistic that does not decompose over items (rank-based
correlations with grouping ``none`` or ``system``, and tie calibration with those groupings)
is recomputed resample by resample.

References
----------
.. [1] D. Deutsch, G. Foster and M. Freitag. 2023. Ties Matter: Meta-Evaluating Modern Metrics
   with Pairwise Accuracy and Tie Calibration. EMNLP. https://aclanthology.org/2023.emnlp-main.798/
.. [2] T. Kocmi, C. Federmann, R. Grundkiewicz, M. Junczys-Dowmunt, H. Matsushita and
   A. Menezes. 2021. To Ship or Not to Ship: An Extensive Evaluation of Automatic Metrics for
   Machine Translation. WMT. https://aclanthology.org/2021.wmt-1.57/
.. [3] google-research/mt-metrics-eval (MTME), ``stats.py`` and ``tau_optimization.py``.
   https://github.com/google-research/mt-metrics-eval
.. [4] N. Mathur, J. Wei, M. Freitag, Q. Ma and O. Bojar. 2020. Results of the WMT20 Metrics
   Shared Task. WMT. https://aclanthology.org/2020.wmt-1.77/
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import scipy.sparse
import scipy.stats

from stats._core.budget import check_budget
from stats._core.errors import DegenerateInputWarning, StatsInputError
from stats._core.random import check_rng
from stats._core.results import StatisticPvalue

__all__ = [
    "CORRELATIONS",
    "GROUPINGS",
    "MetaCorrelationResult",
    "PairwiseAccuracyResult",
    "kendall_like_counts",
    "mean_system_scores",
    "meta_correlation",
    "pairwise_accuracy",
]

from stats._core.choices import (  # noqa: E402  (re-exported)
    CORRELATION_COEFFICIENTS,
    CORRELATIONS,
    GROUPINGS,
    KENDALL_LIKE_THRESHOLD,
    LEVELS,
    MIN_GROUP_SIZE,
)

#: cells of pair-difference arrays held at once (memory bound of the pair counting)
_BLOCK_CELLS = 4_000_000
#: most pairs tie calibration sorts at once (about 21 bytes each)
MAX_CALIBRATION_PAIRS = 20_000_000
#: relative tolerance when picking the smallest epsilon attaining the maximum acc23
_ARGMAX_RTOL = 1e-12


@dataclass(frozen=True, kw_only=True)
class MetaCorrelationResult(StatisticPvalue):
    """Correlation of a metric with gold scores, averaged over groups.

    Attributes
    ----------
    statistic : float
        The averaged correlation (NaN when no group has one).
    pvalue : float
        Always NaN: an average of correlations over groups has no p-value here (MTME averages
        per-group p-values, which are not a test); compare metrics with their confidence
        intervals.
    correlation, grouping, level : str
    epsilon : float
        For ``acc23``: the metric-tie threshold used (calibrated or given); NaN otherwise.
    group_statistics : ndarray
        The correlation of each group (NaN where dropped); for ``kendall-like`` each group's
        own (concordant - discordant) / pairs.
    n_groups : int
        Groups that entered the average.
    n_systems, n_items : int
    confidence_interval : tuple of float or None
        Percentile bootstrap interval resampling items, when ``n_resamples > 0``.
    confidence_level : float
    n_resamples : int
    bootstrap_distribution : ndarray or None
        The statistic in each resample.
    """

    statistic: float
    pvalue: float
    correlation: str
    grouping: str
    level: str
    epsilon: float
    group_statistics: np.ndarray
    n_groups: int
    n_systems: int
    n_items: int
    confidence_interval: tuple | None
    confidence_level: float
    n_resamples: int
    bootstrap_distribution: np.ndarray | None


@dataclass(frozen=True, kw_only=True)
class PairwiseAccuracyResult(StatisticPvalue):
    """System-level pairwise accuracy per language pair and pooled over language pairs.

    Attributes
    ----------
    statistic : float
        Pooled accuracy: agreeing pairs of all language pairs / all pairs.
    pvalue : float
        Always NaN (no test).
    per_language_pair : dict
        ``{lp: accuracy}``.
    n_agree, n_pairs : dict
        ``{lp: count}`` of system pairs ordered alike by metric and gold, and of system pairs
        with both gold scores.
    """

    statistic: float
    pvalue: float
    per_language_pair: dict
    n_agree: dict
    n_pairs: dict


# ---------------------------------------------------------------------------------------------
# validation and grouping


def _matrix(values, what: str) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise StatsInputError(f"{what}: expected numbers; got {type(values).__name__}") from None
    if arr.ndim == 1:
        arr = arr[:, None]
    if arr.ndim != 2:
        raise StatsInputError(f"{what}: expected a (systems x items) matrix; got {arr.ndim} dims")
    return arr


def check_choice(value, choices, what: str) -> str:
    """``value`` if it is one of ``choices``; else :class:`~stats.StatsInputError` naming
    ``what``."""
    if value not in choices:
        raise StatsInputError(f"{what} must be one of {', '.join(choices)}; got {value!r}")
    return value


def group_rows(gold: np.ndarray, metric: np.ndarray, grouping: str) -> tuple[np.ndarray, np.ndarray]:
    """Rows = groups, in MTME's order (``none``: all cells system by system; ``item``: columns)."""
    if grouping == "none":
        return gold.reshape(1, -1), metric.reshape(1, -1)
    if grouping == "system":
        return gold, metric
    return gold.T, metric.T


# ---------------------------------------------------------------------------------------------
# pair counting


def _pair_blocks(gold_rows: np.ndarray, metric_rows: np.ndarray):
    """Yield (row slice, dg, dm, valid) over blocks of the pairs (i < j) of every row.

    ``dg[r, a, b] = G[r, i] - G[r, j]`` for i in a block of first indices, all j; ``valid`` is
    true for i < j with both gold scores present. At most :data:`_BLOCK_CELLS` cells at once.
    """
    R, m = gold_rows.shape
    has_gold = ~np.isnan(gold_rows)
    if R * m * m <= _BLOCK_CELLS:
        upper = np.triu(np.ones((m, m), dtype=bool), 1)
        rows_per = R
        width = m
    else:
        rows_per = max(1, _BLOCK_CELLS // (m * m))
        width = m if rows_per > 1 else max(1, _BLOCK_CELLS // m)
        upper = None
    for r0 in range(0, R, rows_per):
        rs = slice(r0, min(R, r0 + rows_per))
        g, mm, v = gold_rows[rs], metric_rows[rs], has_gold[rs]
        for i0 in range(0, m, width):
            i1 = min(m, i0 + width)
            dg = g[:, i0:i1, None] - g[:, None, :]
            dm = mm[:, i0:i1, None] - mm[:, None, :]
            tri = upper[i0:i1] if upper is not None else (
                np.arange(i0, i1)[:, None] < np.arange(m)[None, :]
            )
            valid = v[:, i0:i1, None] & v[:, None, :] & tri
            yield rs, dg, dm, valid


def _tied_pairs(*columns: np.ndarray) -> int:
    """Pairs of rows equal in every one of ``columns``."""
    _, counts = np.unique(np.stack(columns, axis=1), axis=0, return_counts=True)
    return int((counts * (counts - 1) // 2).sum())


def _tau_counts_sorted(gold_rows: np.ndarray, metric_rows: np.ndarray) -> dict:
    """:func:`_tau_counts` at epsilon 0 in O(n log n) per row: ties from sorted uniques, and
    concordant minus discordant from scipy's tau-b (an exact integer once rescaled)."""
    R = gold_rows.shape[0]
    out = {k: np.zeros(R, dtype=np.int64) for k in ("con", "dis", "t_g", "t_m", "t_b")}
    for r in range(R):
        ok = ~np.isnan(gold_rows[r])
        g, m = gold_rows[r, ok], metric_rows[r, ok]
        n = len(g)
        if n < 2:
            continue
        tot = n * (n - 1) // 2
        t_b = _tied_pairs(g, m)
        g_tie, m_tie = _tied_pairs(g), _tied_pairs(m)
        untied = tot - g_tie - m_tie + t_b
        if g_tie == tot or m_tie == tot:
            diff = 0
        else:
            tau = scipy.stats.kendalltau(g, m).statistic
            diff = int(round(tau * math.sqrt(tot - m_tie) * math.sqrt(tot - g_tie)))
        out["con"][r] = (untied + diff) // 2
        out["dis"][r] = (untied - diff) // 2
        out["t_g"][r] = g_tie - t_b
        out["t_m"][r] = m_tie - t_b
        out["t_b"][r] = t_b
    return out


#: rows longer than this are counted by sorting (epsilon 0) rather than pair by pair
_SORT_LENGTH = 400


def _tau_counts(gold_rows: np.ndarray, metric_rows: np.ndarray, epsilon: float = 0.0) -> dict:
    """Per-row pair counts: concordant, discordant, tied in gold only, in metric only, in both.

    A metric difference with ``|dm| <= epsilon`` is a metric tie (Deutsch et al. 2023).
    """
    R = gold_rows.shape[0]
    if epsilon == 0 and gold_rows.shape[1] > _SORT_LENGTH:
        return _tau_counts_sorted(gold_rows, metric_rows)
    out = {k: np.zeros(R, dtype=np.int64) for k in ("con", "dis", "t_g", "t_m", "t_b")}
    for rs, dg, dm, valid in _pair_blocks(gold_rows, metric_rows):
        g_tie = dg == 0
        m_tie = np.abs(dm) <= epsilon
        untied = valid & ~g_tie & ~m_tie
        same = (dg > 0) == (dm > 0)
        out["con"][rs] += (untied & same).sum(axis=(1, 2))
        out["dis"][rs] += (untied & ~same).sum(axis=(1, 2))
        out["t_g"][rs] += (valid & g_tie & ~m_tie).sum(axis=(1, 2))
        out["t_m"][rs] += (valid & ~g_tie & m_tie).sum(axis=(1, 2))
        out["t_b"][rs] += (valid & g_tie & m_tie).sum(axis=(1, 2))
    return out


def _kendall_like_counts(gold_rows: np.ndarray, metric_rows: np.ndarray, threshold: float) -> tuple:
    """Per-row (concordant, discordant) of WMT20's Kendall-like tau: pairs with
    ``|dg| >= threshold``; concordant when the metric orders them strictly as gold does, every
    other such pair (a metric tie included) discordant."""
    R = gold_rows.shape[0]
    con = np.zeros(R, dtype=np.int64)
    dis = np.zeros(R, dtype=np.int64)
    for rs, dg, dm, valid in _pair_blocks(gold_rows, metric_rows):
        counted = valid & (np.abs(dg) >= threshold)
        agree = ((dg > 0) & (dm > 0)) | ((dg < 0) & (dm < 0))
        con[rs] += (counted & agree).sum(axis=(1, 2))
        dis[rs] += (counted & ~agree).sum(axis=(1, 2))
    return con, dis


def _distinct(X: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Number of distinct values per row among ``valid`` cells."""
    S = np.sort(np.where(valid, X, np.nan), axis=1)  # NaN last
    n = valid.sum(axis=1)
    change = (np.diff(S, axis=1) != 0) & ~np.isnan(S[:, 1:])
    return np.where(n > 0, 1 + change.sum(axis=1), 0)


# ---------------------------------------------------------------------------------------------
# per-group correlations


def _masked_pearson(X: np.ndarray, Y: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Row-wise Pearson r over ``valid`` cells; NaN for a constant row (as MTME)."""
    n = valid.sum(axis=1)
    with np.errstate(invalid="ignore", divide="ignore"):
        x = np.where(valid, X, 0.0)
        y = np.where(valid, Y, 0.0)
        mx = x.sum(axis=1) / n
        my = y.sum(axis=1) / n
        dx = np.where(valid, X - mx[:, None], 0.0)
        dy = np.where(valid, Y - my[:, None], 0.0)
        sxx = (dx * dx).sum(axis=1)
        syy = (dy * dy).sum(axis=1)
        r = (dx * dy).sum(axis=1) / np.sqrt(sxx * syy)
    lo_x = np.where(valid, X, np.inf).min(axis=1)
    hi_x = np.where(valid, X, -np.inf).max(axis=1)
    lo_y = np.where(valid, Y, np.inf).min(axis=1)
    hi_y = np.where(valid, Y, -np.inf).max(axis=1)
    constant = (lo_x == hi_x) | (lo_y == hi_y)
    r = np.clip(r, -1.0, 1.0)
    return np.where((n >= 2) & ~constant, r, np.nan)


def _masked_ranks(X: np.ndarray, valid: np.ndarray) -> np.ndarray:
    """Average ranks per row among ``valid`` cells (others get ranks above them, unused)."""
    return scipy.stats.rankdata(np.where(valid, X, np.inf), method="average", axis=1)


def group_correlations(
    gold_rows, metric_rows, correlation, *, epsilon, threshold,
    min_group_size: int = MIN_GROUP_SIZE,
) -> tuple[np.ndarray, dict]:
    """Correlation of each row (NaN when undefined, when fewer than 2 gold scores and, for a
    correlation coefficient, fewer than ``min_group_size``)."""
    valid = ~np.isnan(gold_rows)
    n = valid.sum(axis=1)
    enough = n >= _fewest(correlation, min_group_size)
    extra: dict = {}
    if correlation == "pearson":
        vals = _masked_pearson(gold_rows, metric_rows, valid)
    elif correlation == "spearman":
        vals = _masked_pearson(
            _masked_ranks(gold_rows, valid), _masked_ranks(metric_rows, valid), valid
        )
        constant = (_distinct(gold_rows, valid) < 2) | (_distinct(metric_rows, valid) < 2)
        vals = np.where(constant, np.nan, vals)
    elif correlation == "kendall-like":
        con, dis = _kendall_like_counts(gold_rows, metric_rows, threshold)
        pairs = con + dis
        with np.errstate(invalid="ignore", divide="ignore"):
            vals = np.where(pairs > 0, (con - dis) / pairs, 0.0)
        extra = {"con": con, "dis": dis}
    else:
        eps = epsilon if correlation in ("acc23",) else 0.0
        c = _tau_counts(gold_rows, metric_rows, eps)
        tot = n * (n - 1) // 2
        x_tie = c["t_m"] + c["t_b"]  # metric ties
        y_tie = c["t_g"] + c["t_b"]  # gold ties
        all_tied = (x_tie == tot) | (y_tie == tot)
        with np.errstate(invalid="ignore", divide="ignore"):
            if correlation == "kendall":
                vals = (c["con"] - c["dis"]) / np.sqrt((tot - x_tie) * (tot - y_tie))
                vals = np.where(all_tied, np.nan, vals)
            elif correlation == "kendall-c":
                mc = np.minimum(_distinct(gold_rows, valid), _distinct(metric_rows, valid))
                vals = 2 * (c["con"] - c["dis"]) / (n.astype(float) ** 2 * (mc - 1) / mc)
                vals = np.where(all_tied, np.nan, vals)
            else:  # acc23, pairwise-accuracy: (con + tied in both) / pairs
                vals = (c["con"] + c["t_b"]) / tot
        extra = c
    return np.where(enough, vals, np.nan), extra


def _fewest(correlation: str, min_group_size: int) -> int:
    """The fewest cells with a gold score a group of ``correlation`` is defined over."""
    return max(2, min_group_size) if correlation in CORRELATION_COEFFICIENTS else 2


def check_min_group_size(value) -> int:
    """``min_group_size`` as an int: 2 (MTME: a correlation of two items, always +-1) or more."""
    if isinstance(value, bool) or int(value) != value or value < 2:
        raise StatsInputError(
            f"min_group_size must be an integer of at least 2 (3: a correlation needs 3 items; "
            f"2: MTME's rule); got {value!r}"
        )
    return int(value)


def small_groups(gold_rows: np.ndarray, correlation: str, min_group_size: int) -> np.ndarray:
    """Which rows (groups) have a correlation over 2 or more gold scores but fewer than
    ``min_group_size``: undefined by the size rule alone (a correlation coefficient only)."""
    n = (~np.isnan(gold_rows)).sum(axis=1)
    return (n >= 2) & (n < _fewest(correlation, min_group_size))


def mask_small_groups(
    gold: np.ndarray, correlation: str, grouping: str, min_group_size: int
) -> np.ndarray:
    """``gold`` (systems x items) with the cells of groups too small for a correlation
    coefficient set to NaN (missing), so every route that computes per group leaves them out."""
    small = small_groups(group_rows(gold, gold, grouping)[0], correlation, min_group_size)
    if not small.any():
        return gold
    out = gold.copy()
    if grouping == "none":
        out[:] = np.nan
    elif grouping == "system":
        out[small, :] = np.nan
    else:
        out[:, small] = np.nan
    return out


def small_group_note(
    gold_rows: np.ndarray, correlation: str, grouping: str, level: str, min_group_size: int
) -> str | None:
    """The warning naming the groups too small for a correlation, or None when there are none."""
    small = np.flatnonzero(small_groups(gold_rows, correlation, min_group_size))
    if not len(small):
        return None
    n = (~np.isnan(gold_rows)).sum(axis=1)
    fewest = _fewest(correlation, min_group_size)
    if level == "sys":
        what = f"the system scores ({int(n[0])} systems with a gold score)"
    elif grouping == "none":
        what = f"all cells ({int(n[0])} with a gold score)"
    else:
        unit = "item" if grouping == "item" else "system"
        shown = ", ".join(f"{unit} {i + 1} ({int(n[i])})" for i in small[:10])
        more = f" and {len(small) - 10} more" if len(small) > 10 else ""
        what = (
            f"{len(small)} of {len(n)} groups by {grouping} ({shown}{more}; 1-based, with how "
            "many gold scores)"
        )
    return (
        f"{correlation}: {what}: fewer than {fewest} items, so the correlation is undefined "
        "(NaN) there and left out of any average (a correlation of 2 items is always +-1, "
        "whatever the scores; MTME computes it)"
    )


def _average(vals: np.ndarray, correlation: str, extra: dict) -> tuple[float, int]:
    ok = ~np.isnan(vals)
    if correlation == "kendall-like":
        con, dis = extra["con"][ok], extra["dis"][ok]
        pairs = int((con + dis).sum())
        return ((float((con - dis).sum()) / pairs) if pairs else math.nan), int(ok.sum())
    if not ok.any():
        return math.nan, 0
    return float(vals[ok].mean()), int(ok.sum())


# ---------------------------------------------------------------------------------------------
# tie calibration (Deutsch et al. 2023, Sec. 5; MTME tau_optimization at sample rate 1)


def calibration_pairs(gold_rows: np.ndarray, metric_rows: np.ndarray):
    """The pairs whose metric tie changes acc23: |metric difference|, row and change.

    Returns ``(diff, row, delta, base, n_pairs)``: ``delta`` is +1 for a pair tied in gold but
    not in the metric (it becomes correct as a tie), -1 for a concordant pair (it becomes
    wrong); pairs with no change are left out, since acc23 is constant between the
    differences of the pairs that change it and the smallest maximising epsilon is therefore
    0 or one of theirs. ``base`` is the per-row count of correct pairs at epsilon 0 and
    ``n_pairs`` the per-row number of pairs.
    """
    R, m = gold_rows.shape
    n = (~np.isnan(gold_rows)).sum(axis=1)
    n_pairs = n * (n - 1) // 2
    total = int(n_pairs.sum())
    if total > MAX_CALIBRATION_PAIRS:
        raise StatsInputError(
            f"tie calibration over {total:,} pairs is more than {MAX_CALIBRATION_PAIRS:,} held "
            "at once; use grouping 'item' (WMT's choice) or give epsilon=VALUE"
        )
    diffs, rows, deltas = [np.zeros(0)], [np.zeros(0, dtype=np.int64)], [np.zeros(0, np.int8)]
    base = np.zeros(R, dtype=np.int64)
    for rs, dg, dm, valid in _pair_blocks(gold_rows, metric_rows):
        g_tie = dg == 0
        m_tie = dm == 0
        con = valid & ~g_tie & ~m_tie & ((dg > 0) == (dm > 0))
        base[rs] += (con | (valid & g_tie & m_tie)).sum(axis=(1, 2))
        gain = valid & g_tie & ~m_tie
        idx = np.nonzero(gain | con)
        diffs.append(np.abs(dm[idx]))
        rows.append(idx[0] + rs.start)
        deltas.append(gain[idx].astype(np.int8) - con[idx].astype(np.int8))
    return np.concatenate(diffs), np.concatenate(rows), np.concatenate(deltas), base, n_pairs


def _best_thresholds(values: np.ndarray, thresholds: np.ndarray) -> tuple:
    """Per column of ``values`` (thresholds x k): the maximum and the smallest threshold
    reaching it (within rounding of the running sums)."""
    top = values.max(axis=0)
    first = np.argmax(values >= (top - _ARGMAX_RTOL * np.maximum(1.0, np.abs(top))), axis=0)
    return values[first, np.arange(values.shape[1])], thresholds[first]


def _calibrate(diff, row, delta, base, n_pairs, weights: np.ndarray | None = None):
    """acc23 maximised over epsilon for one or more weightings of the rows.

    ``weights`` (k x rows; default one row of ones) multiplies each row's acc23 in the
    average (a bootstrap multiplicity). Returns arrays (best acc23, best epsilon) of length k.
    The change of every row's acc23 at each candidate threshold is a sparse (rows x
    thresholds) matrix, so all weightings are one sparse product and one cumulative sum.
    """
    has = n_pairs > 0
    safe = np.where(has, n_pairs, 1)
    order = np.argsort(diff)  # order within equal differences is irrelevant: values are
    d = diff[order]  # read at the end of each run of equal differences
    new_value = np.r_[True, d[1:] != d[:-1]] if len(d) else np.zeros(0, dtype=bool)
    thresholds = np.r_[0.0, d[new_value]]
    step = (delta / safe[row])[order]  # change of its row's acc23 when a pair becomes a tie
    if weights is None:  # one weighting: a plain cumulative sum over the sorted pairs
        if not has.any():
            return np.array([np.nan]), np.array([np.nan])
        last = np.r_[new_value[1:], True] if len(d) else new_value
        vals = np.r_[0.0, np.cumsum(step)[last]] + (base / safe)[has].sum()
        v, e = _best_thresholds(vals[:, None], thresholds)
        return v / has.sum(), e
    w = np.where(has, weights, 0.0)
    denom = w.sum(axis=1)
    column = np.cumsum(new_value)  # threshold index of each sorted pair (0 is epsilon = 0)
    change = scipy.sparse.csr_matrix(
        (step, (row[order], column)), shape=(len(n_pairs), len(thresholds))
    )
    start = w @ (base / safe)
    best_v = np.full(len(w), np.nan)
    best_e = np.full(len(w), np.nan)
    chunk = max(1, _BLOCK_CELLS // len(thresholds))
    for k0 in range(0, len(w), chunk):
        ks = slice(k0, k0 + chunk)
        vals = np.cumsum(np.asarray(change.T @ w[ks].T), axis=0) + start[ks]  # thresholds x k
        v, e = _best_thresholds(vals, thresholds)
        ok = denom[ks] > 0
        with np.errstate(invalid="ignore", divide="ignore"):
            best_v[ks] = np.where(ok, v / denom[ks], np.nan)
        best_e[ks] = np.where(ok, e, np.nan)
    return best_v, best_e


# ---------------------------------------------------------------------------------------------
# public functions


def _point(gold, metric, correlation, grouping, epsilon, tie_calibration, threshold,
           min_group_size=MIN_GROUP_SIZE):
    gold_rows, metric_rows = group_rows(gold, metric, grouping)
    if tie_calibration:
        diff, row, delta, base, n_pairs = calibration_pairs(gold_rows, metric_rows)
        v, e = _calibrate(diff, row, delta, base, n_pairs)
        eps = float(e[0])
        vals, _ = group_correlations(
            gold_rows, metric_rows, "acc23", epsilon=eps, threshold=threshold
        )
        return float(v[0]), eps, vals, int((n_pairs > 0).sum())
    vals, extra = group_correlations(
        gold_rows, metric_rows, correlation, epsilon=epsilon, threshold=threshold,
        min_group_size=min_group_size,
    )
    stat, n_groups = _average(vals, correlation, extra)
    return stat, (epsilon if correlation == "acc23" else math.nan), vals, n_groups


def mean_system_scores(metric, gold, counts: np.ndarray | None = None) -> tuple:
    """System scores as the mean of each system's segment scores.

    Parameters
    ----------
    metric, gold : array_like, shape (n_systems, n_items)
        NaN in ``gold`` marks a missing gold score.
    counts : ndarray, shape (k, n_items), optional
        Item multiplicities (a bootstrap resample per row); default one row of ones.

    Returns
    -------
    (gold_sys, metric_sys) : ndarrays of shape (n_systems,), or (k, n_systems) with ``counts``
        The gold mean is over the items with a gold score (NaN for a system without any), the
        metric mean over all items.
    """
    gold = np.asarray(gold, dtype=float)
    metric = np.asarray(metric, dtype=float)
    valid = ~np.isnan(gold)
    g0 = np.where(valid, gold, 0.0)
    single = counts is None
    if single:
        counts = np.ones((1, gold.shape[1]))
    with np.errstate(invalid="ignore", divide="ignore"):
        gs = (counts @ g0.T) / (counts @ valid.T.astype(float))
        ms = (counts @ metric.T) / counts.sum(axis=1, keepdims=True)
    return (gs[0], ms[0]) if single else (gs, ms)


def meta_correlation(
    metric,
    gold,
    *,
    correlation: str = "pearson",
    level: str = "seg",
    grouping: str = "none",
    epsilon: float | None = None,
    tie_calibration: bool = False,
    threshold: float = KENDALL_LIKE_THRESHOLD,
    n_resamples: int = 0,
    confidence_level: float = 0.95,
    min_group_size: int = MIN_GROUP_SIZE,
    rng=None,
) -> MetaCorrelationResult:
    r"""Correlation of a metric with gold (human) scores, as the WMT metrics task computes it.

    Parameters
    ----------
    metric, gold : array_like, shape (n_systems, n_items) or (n_systems,)
        Segment scores (row = system, column = item). NaN in ``gold`` marks a missing human
        score; ``metric`` must be complete. A 1-D pair is read as system scores (``level``
        must then be ``'sys'``).
    correlation : {'pearson', 'spearman', 'kendall', 'kendall-c', 'kendall-like', 'acc23', \
'pairwise-accuracy'}
    level : {'seg', 'sys'}
        ``'sys'`` with 2-D input correlates system scores: each system's mean metric score and
        mean gold score over the items it has one for (systems without any are dropped).
    grouping : {'none', 'item', 'system'}
        Segment level only: correlate within each item (column) or each system (row) and
        average, or over all cells at once.
    epsilon : float, optional
        ``acc23`` only: metric differences ``|m_i - m_j| <= epsilon`` count as ties
        (default 0).
    tie_calibration : bool
        ``acc23`` only: use the epsilon that maximises acc23 over all pairs (MTME's
        ``KendallWithTiesOpt`` at sample rate 1); the smallest such epsilon is reported.
    threshold : float
        ``kendall-like`` only: pairs with ``|g_i - g_j| >= threshold`` are counted (WMT20 used
        25 on the DA scale).
    n_resamples : int
        Bootstrap resamples of the items for a percentile confidence interval (0: none).
        At system level the system scores are recomputed from the resampled segments, so
        this needs 2-D input.
    confidence_level : float
    min_group_size : int
        The fewest cells with a gold score a correlation coefficient (``pearson``,
        ``spearman``, ``kendall``, ``kendall-c``) is computed over, per group (and over the
        systems at ``level='sys'``); a smaller group's correlation is undefined (NaN, named in
        a :class:`~stats.DegenerateInputWarning`) and left out of the average. Default 3: a
        correlation of 2 items is always +-1, whatever the scores. ``2`` follows MTME, which
        computes it. The pair statistics (``kendall-like``, ``acc23``,
        ``pairwise-accuracy``) count pairs, so one pair (2 cells) is an answer for them.
    rng : int, Generator or None
        Seed or generator of the resampling.

    Returns
    -------
    MetaCorrelationResult

    Notes
    -----
    For one group with the pairs :math:`i<j` of its cells with gold scores, let :math:`C`,
    :math:`D` be the concordant and discordant pairs, :math:`T_g`, :math:`T_m`, :math:`T_{gm}`
    the pairs tied in gold only, in the metric only and in both (a metric tie being
    :math:`|m_i-m_j|\le\varepsilon`), and :math:`N` all pairs. Then

    .. math::

        \tau_b = \frac{C-D}{\sqrt{(N-T_m-T_{gm})(N-T_g-T_{gm})}},\qquad
        \tau_c = \frac{2(C-D)}{n^2 (k-1)/k},\qquad
        \mathrm{acc}_{23}(\varepsilon) = \frac{C + T_{gm}}{N}

    (:math:`k` the smaller number of distinct values), ``pairwise-accuracy`` is
    :math:`\mathrm{acc}_{23}(0)`: the share of pairs ordered alike, ties included (Kocmi et al.
    2021), and WMT20's Kendall-like

    .. math::

        \tau_{\text{like}} = \frac{\text{Concordant} - \text{Discordant}}
        {\text{Concordant} + \text{Discordant}}

    over pairs with :math:`|g_i - g_j| \ge` ``threshold``, a metric tie being discordant, with
    the counts pooled over groups. Tie calibration reports

    .. math::

        \max_{\varepsilon \in \{0\} \cup \{|m_i - m_j|\}} \frac{1}{G} \sum_{g=1}^{G}
        \mathrm{acc}_{23}^{(g)}(\varepsilon)

    over the :math:`G` groups with at least one pair (Deutsch et al. 2023, EMNLP,
    https://aclanthology.org/2023.emnlp-main.798/). The values equal those of
    ``mt_metrics_eval.stats`` (``AverageCorrelation`` over ``scipy.stats.pearsonr``,
    ``spearmanr``, ``kendalltau``, ``KendallLike``, ``KendallVariants``;
    ``KendallWithTiesOpt``; ``Agreement``) except that where MTME returns 0 for "no group has a
    correlation", this returns NaN with a :class:`~stats.DegenerateInputWarning`, and that a
    correlation coefficient over fewer than ``min_group_size`` (3) items is undefined where
    MTME computes one over 2 (``min_group_size=2`` gives MTME's values).

    Raises
    ------
    StatsInputError
        Unknown option, shapes that differ, a NaN metric score, an option given for the wrong
        correlation or level, a bad ``n_resamples`` or ``confidence_level``.

    Examples
    --------
    Segment-level Pearson of one metric over 2 systems x 3 items (no grouping).

    >>> import numpy as np
    >>> from stats import meta_correlation
    >>> gold = np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 5.0]])
    >>> metric = np.array([[1.1, 2.2, 2.9], [2.5, 3.9, 5.2]])
    >>> round(float(meta_correlation(metric, gold).statistic), 4)
    0.9884
    >>> round(float(meta_correlation(metric, gold, correlation='kendall').statistic), 4)
    0.9661
    """
    check_choice(correlation, CORRELATIONS, "correlation")
    check_choice(level, LEVELS, "level")
    check_choice(grouping, GROUPINGS, "grouping")
    one_d = np.ndim(metric) == 1
    metric_matrix = _matrix(metric, "metric")
    gold_matrix = _matrix(gold, "gold")
    if metric_matrix.shape != gold_matrix.shape:
        raise StatsInputError(
            f"metric has shape {metric_matrix.shape} but gold has {gold_matrix.shape}"
        )
    if not np.all(np.isfinite(metric_matrix)):
        raise StatsInputError("metric: scores must be finite numbers (NaN found)")
    if np.isinf(gold_matrix).any():
        raise StatsInputError("gold: scores must be finite or NaN (missing)")
    if one_d and level != "sys":
        raise StatsInputError("1-D scores are system scores: use level='sys'")
    if level == "sys" and grouping != "none":
        raise StatsInputError(f"grouping {grouping!r} applies to level 'seg' only; use 'none'")
    if correlation == "pairwise-accuracy" and level != "sys":
        raise StatsInputError("pairwise-accuracy is a system-level statistic: use level='sys'")
    if correlation != "acc23" and (epsilon is not None or tie_calibration):
        raise StatsInputError("epsilon and tie_calibration apply to correlation 'acc23' only")
    if epsilon is not None and tie_calibration:
        raise StatsInputError("give epsilon or tie_calibration, not both")
    if epsilon is not None and not (np.isfinite(epsilon) and epsilon >= 0):
        raise StatsInputError(f"epsilon must be a non-negative number; got {epsilon!r}")
    if not np.isfinite(threshold):
        raise StatsInputError(f"threshold must be a finite number; got {threshold!r}")
    if int(n_resamples) != n_resamples or n_resamples < 0:
        raise StatsInputError(f"n_resamples must be a non-negative integer; got {n_resamples!r}")
    if not 0 < confidence_level < 1:
        raise StatsInputError(f"confidence_level must be in (0, 1); got {confidence_level!r}")
    if n_resamples and level == "sys" and one_d:
        raise StatsInputError(
            "a system-level confidence interval resamples segments: give segment scores "
            "(systems x items), not system scores"
        )
    min_group_size = check_min_group_size(min_group_size)
    gen = check_rng(rng)
    eps = 0.0 if epsilon is None else float(epsilon)
    n_sys, n_items = gold_matrix.shape
    if level == "sys" and not one_d:
        gs, ms = mean_system_scores(metric_matrix, gold_matrix)
        g_pt, m_pt = gs[:, None], ms[:, None]  # (systems x 1)
    else:
        g_pt, m_pt = gold_matrix, metric_matrix
    stat, eps_used, vals, n_groups = _point(
        g_pt, m_pt, correlation, grouping, eps, tie_calibration, threshold, min_group_size
    )
    note = small_group_note(
        group_rows(g_pt, m_pt, grouping)[0], correlation, grouping, level, min_group_size
    )
    if note:
        warnings.warn(note, DegenerateInputWarning, stacklevel=2)
    if math.isnan(stat):
        fewest = _fewest(correlation, min_group_size)
        warnings.warn(
            f"{correlation}: no group has a defined correlation (constant scores or fewer "
            f"than {fewest} gold scores per group); the result is NaN",
            DegenerateInputWarning,
            stacklevel=2,
        )
    ci, dist = None, None
    if n_resamples:
        check_budget(
            what="bootstrap confidence interval",
            n_resamples=int(n_resamples),
            n_segments=n_items,
            n_systems=n_sys,
            memory=24.0 * int(n_resamples) * n_items,  # indices, counts, one product
        )
        idx = gen.integers(0, n_items, size=(int(n_resamples), n_items))
        dist = _bootstrap(
            gold_matrix,
            metric_matrix,
            idx,
            correlation,
            level,
            grouping,
            eps,
            tie_calibration,
            threshold,
            min_group_size,
        )
        alpha = (1 - confidence_level) / 2
        finite = dist[~np.isnan(dist)]
        if len(finite):
            lo, hi = np.quantile(finite, [alpha, 1 - alpha])
            ci = (float(lo), float(hi))
        else:
            ci = (math.nan, math.nan)
    return MetaCorrelationResult(
        statistic=stat,
        pvalue=math.nan,
        correlation=correlation,
        grouping=grouping,
        level=level,
        epsilon=float(eps_used),
        group_statistics=vals,
        n_groups=n_groups,
        n_systems=n_sys,
        n_items=n_items if not one_d else 0,
        confidence_interval=ci,
        confidence_level=confidence_level,
        n_resamples=int(n_resamples),
        bootstrap_distribution=dist,
    )


def _bootstrap(
    gold_matrix, metric_matrix, idx, correlation, level, grouping, eps, tie_calibration, threshold,
    min_group_size=MIN_GROUP_SIZE,
):
    """The statistic on each resample of the items (rows of ``idx``)."""
    B, n_items = idx.shape
    counts = np.zeros((B, n_items))
    np.add.at(counts, (np.repeat(np.arange(B), n_items), idx.ravel()), 1.0)
    if level == "sys":
        # (B x systems): one row per resample
        gs, ms = mean_system_scores(metric_matrix, gold_matrix, counts)
        if tie_calibration:
            return np.array([_point(g[:, None], m[:, None], correlation, "none", eps, True,
                                    threshold)[0] for g, m in zip(gs, ms, strict=True)])
        vals, extra = group_correlations(gs, ms, correlation, epsilon=eps, threshold=threshold,
                                         min_group_size=min_group_size)
        if correlation == "kendall-like":
            with np.errstate(invalid="ignore", divide="ignore"):
                pairs = extra["con"] + extra["dis"]
                return np.where(pairs > 0, (extra["con"] - extra["dis"]) / pairs, np.nan)
        return vals
    if grouping == "item":
        gold_by_item, metric_by_item = gold_matrix.T, metric_matrix.T
        if tie_calibration:
            diff, row, delta, base, n_pairs = calibration_pairs(gold_by_item, metric_by_item)
            return _calibrate(diff, row, delta, base, n_pairs, weights=counts)[0]
        vals, extra = group_correlations(
            gold_by_item, metric_by_item, correlation, epsilon=eps, threshold=threshold,
            min_group_size=min_group_size,
        )
        if correlation == "kendall-like":
            ok = ~np.isnan(vals)
            num = counts[:, ok] @ (extra["con"] - extra["dis"])[ok]
            den = counts[:, ok] @ (extra["con"] + extra["dis"])[ok]
            with np.errstate(invalid="ignore", divide="ignore"):
                return np.where(den > 0, num / den, np.nan)
        ok = ~np.isnan(vals)
        w = counts[:, ok]
        with np.errstate(invalid="ignore", divide="ignore"):
            return (w @ vals[ok]) / w.sum(axis=1)
    # grouping none / system: the statistic does not decompose over items
    out = np.empty(B)
    for b in range(B):
        out[b] = _point(
            gold_matrix[:, idx[b]],
            metric_matrix[:, idx[b]],
            correlation,
            grouping,
            eps,
            tie_calibration,
            threshold,
            min_group_size,
        )[0]
    return out


def pairwise_accuracy(metric: Mapping, gold: Mapping) -> PairwiseAccuracyResult:
    r"""System-level pairwise accuracy per language pair and pooled over them (Kocmi et al.
    2021, https://aclanthology.org/2021.wmt-1.57/).

    Parameters
    ----------
    metric, gold : mapping of language pair -> array_like of system scores
        The same language pairs; per language pair the same systems in the same order. NaN in
        ``gold`` drops that system from the pairs.

    Returns
    -------
    PairwiseAccuracyResult

    Notes
    -----
    .. math::

        \mathrm{acc} = \frac{\sum_{l} |\{(i<j) : \operatorname{sign}(m_i-m_j) =
        \operatorname{sign}(g_i-g_j)\}|_l}{\sum_{l} \binom{n_l}{2}}

    over the systems :math:`n_l` of each language pair :math:`l` with gold scores; a tie
    agrees only with a tie. This is MTME's ``CompareMetricsWithGlobalAccuracy`` (``Agreement``
    summed over language pairs).

    Raises
    ------
    StatsInputError
        Different language pairs, shapes that differ, a NaN metric score, or no pair at all.

    Examples
    --------
    The share of pairs of systems ordered as humans order them (Kocmi et al. 2021).

    >>> from stats import pairwise_accuracy
    >>> gold = {'en-de': [3.0, 2.0, 1.0], 'en-ja': [1.0, 2.0]}
    >>> res = pairwise_accuracy({'en-de': [0.9, 0.7, 0.8], 'en-ja': [0.1, 0.3]}, gold)
    >>> round(float(res.statistic), 4)
    0.75
    """
    if set(metric) != set(gold):
        raise StatsInputError(
            f"metric and gold must hold the same language pairs; got {sorted(metric)} and "
            f"{sorted(gold)}"
        )
    per, agree, pairs = {}, {}, {}
    for lp in metric:
        m = np.asarray(metric[lp], dtype=float).reshape(1, -1)
        g = np.asarray(gold[lp], dtype=float).reshape(1, -1)
        if m.shape != g.shape:
            raise StatsInputError(f"language pair {lp!r}: metric has {m.size} systems, gold {g.size}")
        if not np.all(np.isfinite(m)):
            raise StatsInputError(f"language pair {lp!r}: metric scores must be finite")
        c = _tau_counts(g, m, 0.0)
        n = int((~np.isnan(g)).sum())
        agree[lp] = int(c["con"][0] + c["t_b"][0])
        pairs[lp] = n * (n - 1) // 2
        per[lp] = agree[lp] / pairs[lp] if pairs[lp] else math.nan
    total = sum(pairs.values())
    if not total:
        raise StatsInputError("pairwise accuracy: no language pair has two systems with gold scores")
    return PairwiseAccuracyResult(
        statistic=sum(agree.values()) / total,
        pvalue=math.nan,
        per_language_pair=per,
        n_agree=agree,
        n_pairs=pairs,
    )


def kendall_like_counts(
    metric, gold, *, grouping: str = "none", threshold: float = KENDALL_LIKE_THRESHOLD
) -> tuple[int, int]:
    """The (concordant, discordant) pairs that WMT20's Kendall-like of :func:`meta_correlation`
    counts: pairs of cells of one group whose gold scores differ by ``threshold`` or more,
    concordant when the metric orders them strictly as the gold does, every other one (a
    metric tie included) discordant. Their sum is the pair count the WMT17-20 findings print
    beside each tau (the relative-ranking pairs of ``grouping='item'`` on raw DA scores).

    Examples
    --------
    >>> kendall_like_counts([[1.0, 2.0], [3.0, 3.0]], [[10.0, 50.0], [60.0, 90.0]],
    ...                     grouping="item")
    (2, 0)
    """
    check_choice(grouping, GROUPINGS, "grouping")
    metric_matrix, gold_matrix = _matrix(metric, "metric"), _matrix(gold, "gold")
    if metric_matrix.shape != gold_matrix.shape:
        raise StatsInputError(
            f"metric has shape {metric_matrix.shape} but gold has {gold_matrix.shape}"
        )
    con, dis = _kendall_like_counts(*group_rows(gold_matrix, metric_matrix, grouping), threshold)
    return int(con.sum()), int(dis.sum())
