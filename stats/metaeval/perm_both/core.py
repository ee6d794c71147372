r"""PERM-BOTH: does one metric correlate with the gold scores better than another?

Deutsch, Dror & Roth (NAACL 2021) test the difference between two metrics' correlations with
the same gold scores by permutation. Both metrics' scores are standardised (z-scores over the
cells with a gold score), then each cell's pair of scores is swapped with probability 1/2;
the difference of the two permuted metrics' correlations, over many such swaps, is the null
distribution of the observed difference:

.. math::

    p = \frac{1}{R} \sum_{r=1}^{R}
        \mathbb{1}\bigl[c(\tilde a^{(r)}) - c(\tilde b^{(r)}) \ge c(a) - c(b)\bigr],
    \qquad
    \tilde a^{(r)}_k = \begin{cases} b_k & w^{(r)}_k = 1 \\ a_k & w^{(r)}_k = 0 \end{cases},\;
    \tilde b^{(r)}_k = \begin{cases} a_k & w^{(r)}_k = 1 \\ b_k & w^{(r)}_k = 0 \end{cases},
    \; w^{(r)}_k \sim \mathrm{Bernoulli}(1/2),

with :math:`a` the metric with the higher correlation :math:`c` (as ``mt_metrics_eval.stats.
PermutationSigDiff``; "at least as large" with a relative tolerance of :math:`10^{-12}`, so
that rounding in a resample equal to the observed data does not decide). :math:`c` is any
correlation of :func:`stats.metaeval.meta_eval.meta_correlation` under any grouping, acc23 with tie
calibration included (the epsilon is calibrated again on each permuted metric, as MTME does);
a fixed ``epsilon`` applies to the standardised scores, as in MTME.

Every pair of metrics of a language pair is tested with the same swaps; the resamples are
array work (a chunk of resamples at a time, stacked as rows of the grouped matrices), and
Pearson correlations of all pairs come from matrix products of the swap matrix with per-cell
terms (:func:`_pearson_differences`).

References
----------
D. Deutsch, R. Dror and D. Roth. 2021. A Statistical Analysis of Summarization Evaluation
Metrics Using Resampling Methods. NAACL. https://aclanthology.org/2021.naacl-main.5/ (the paper
cited by the WMT metrics findings for PERM-BOTH; TACL 2021 version:
https://doi.org/10.1162/tacl_a_00417).
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Mapping

import numpy as np

from stats._core.budget import check_budget
from stats._core.errors import DegenerateInputWarning
from stats._core.validation import metric_arrays_like
from stats.metaeval.meta_eval import (
    CORRELATIONS,
    GROUPINGS,
    KENDALL_LIKE_THRESHOLD,
    MIN_GROUP_SIZE,
    calibration_pairs,
    check_choice,
    check_min_group_size,
    group_correlations,
    group_rows,
    mask_small_groups,
    mean_system_scores,
    meta_correlation,
    small_group_note,
)
from stats.metaeval.perm_both import _calibrated as _perm_calibrated
from stats.metaeval.perm_both import _calibrated_one as _perm_calibrated_one
from stats.metaeval.perm_both import _linear as _perm_linear
from stats.metaeval.perm_both import _ties as _perm_ties
from stats.metaeval.perm_both._linear import (  # re-exported: the sorting switch
    SORT_GROUP_CELLS as SORT_GROUP_CELLS,
)
from stats.metaeval.perm_both._linear import (
    long_cells as long_cells,
)

from .engine import (
    CorrelationSpec,
    PermBothResult,
    check_metric_count,
    metric_pairs,
    ranked,
    resampling,
    run,
)
from .engine import zscore as _zscore

__all__ = ["PermBothResult", "perm_both"]  # PermBothResult: defined in .engine

#: cells of (resamples x systems x items) held at once; more for the matrix-product paths,
#: whose per-pair terms are then built fewer times
_CHUNK_CELLS = 2_000_000
_PRODUCT_CHUNK_CELLS = 10_000_000
_CALIBRATED_SWAP_CELLS = 50_000_000


def _stacked(gold: np.ndarray, metric_draws: np.ndarray, grouping: str):
    """Rows of every resample's groups: ``gold`` (S x I) and ``metric_draws`` (R x S x I) to
    (R * groups, cells) each."""
    R = metric_draws.shape[0]
    gold_rows, _ = group_rows(gold, gold, grouping)
    if grouping == "none":
        by_group = metric_draws.reshape(R, 1, -1)
    elif grouping == "system":
        by_group = metric_draws
    else:
        by_group = metric_draws.transpose(0, 2, 1)
    groups, cells = gold_rows.shape
    rows_g = np.broadcast_to(gold_rows, (R, groups, cells)).reshape(R * groups, cells)
    return rows_g, np.ascontiguousarray(by_group).reshape(R * groups, cells), groups


def _calibrated_acc23(rows_g, rows_m, R: int, groups: int) -> np.ndarray:
    """Tie-calibrated acc23 of each of ``R`` resamples (rows stacked resample by resample):
    every resample's pairs sorted by metric difference at once (a lexsort), the gain of each
    threshold a cumulative sum within the resample, the best threshold a segmented maximum."""
    diff, row, delta, base, n_pairs = calibration_pairs(rows_g, rows_m)
    has = n_pairs > 0
    safe = np.where(has, n_pairs, 1)
    start = (np.where(has, base / safe, 0.0)).reshape(R, groups).sum(axis=1)
    n_groups = has.reshape(R, groups).sum(axis=1)
    res = row // groups
    order = np.lexsort((diff, res))
    d, rr = diff[order], res[order]
    step = (delta / safe[row])[order]
    csum = np.cumsum(step)
    first = np.searchsorted(rr, np.arange(R))  # each resample's first sorted pair
    offset = np.where(first > 0, csum[np.maximum(first - 1, 0)], 0.0)
    within = csum - np.repeat(offset, np.diff(np.r_[first, len(rr)]))
    run_end = np.r_[(d[1:] != d[:-1]) | (rr[1:] != rr[:-1]), True] if len(d) else np.zeros(0, bool)
    gain = np.where(run_end, within, -np.inf)
    best = np.zeros(R)
    if len(d):
        nonempty = np.diff(np.r_[first, len(rr)]) > 0
        seg_max = np.maximum.reduceat(gain, np.minimum(first, len(d) - 1))
        best = np.where(nonempty, np.maximum(seg_max, 0.0), 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n_groups > 0, (start + best) / n_groups, np.nan)


def resampled_correlations(gold, metric_draws, spec: CorrelationSpec) -> np.ndarray:
    """The correlation of each resample ``metric_draws[r]`` (R x S x I) with ``gold`` (S x I)."""
    R = metric_draws.shape[0]
    correlation = spec.correlation
    rows_g, rows_m, groups = _stacked(gold, metric_draws, spec.grouping)
    if spec.tie_calibration:
        return _calibrated_acc23(rows_g, rows_m, R, groups)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        vals, extra = group_correlations(
            rows_g, rows_m, correlation, epsilon=spec.eps, threshold=spec.threshold,
            min_group_size=spec.min_group_size,
        )
    vals = vals.reshape(R, groups)
    ok = ~np.isnan(vals)
    if correlation == "kendall-like":
        con = np.where(ok, extra["con"].reshape(R, groups), 0).sum(axis=1)
        dis = np.where(ok, extra["dis"].reshape(R, groups), 0).sum(axis=1)
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.where(con + dis > 0, (con - dis) / (con + dis), np.nan)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(
            ok.any(axis=1), np.where(ok, vals, 0.0).sum(axis=1) / ok.sum(axis=1), np.nan
        )


def _pearson_terms(gold, standardised, grouping):
    """Per-cell terms of the Pearson correlation within each group, as (groups, cells)
    arrays: centred gold (0 where missing), the gold sum of squares and count per group."""
    gold_rows, _ = group_rows(gold, gold, grouping)
    valid = ~np.isnan(gold_rows)
    n = valid.sum(axis=1)
    g0 = np.where(valid, gold_rows, 0.0)
    gc = np.where(valid, gold_rows - g0.sum(axis=1, keepdims=True) / np.maximum(n, 1)[:, None], 0.0)
    syy = (gc * gc).sum(axis=1)
    zs = {
        k: np.where(valid, group_rows(gold, z, grouping)[1], 0.0) for k, z in standardised.items()
    }
    return gc, syy, n, valid, zs


def _pearson_from_sums(sxy, sx, sxx, n, syy):
    with np.errstate(invalid="ignore", divide="ignore"):
        var = sxx - sx * sx / n
        r = sxy / np.sqrt(var * syy)
    return np.where((var > 1e-12 * np.maximum(sxx, 1e-300)) & (syy > 0) & (n >= 2), r, np.nan)


def _pearson_differences(gold, standardised, pairs, swaps, grouping):
    """Permuted differences c(a~) - c(b~) of every pair (a, b) in ``pairs`` for the swaps
    ``swaps`` (R x S x I booleans), Pearson: every sum over a group is linear in the swaps,
    :math:`\\sum_k w_k v_k`, so all pairs' sums are batched matrix products (groups x R x
    cells) @ (groups x cells x terms)."""
    gc, syy, n, valid, zs = _pearson_terms(gold, standardised, grouping)
    R = swaps.shape[0]
    _, swaps_by_group, groups = _stacked(gold, swaps.astype(float), grouping)
    swaps_by_group = swaps_by_group.reshape(R, groups, -1).transpose(1, 0, 2)  # groups x R x cells
    out = np.empty((R, len(pairs)))
    terms_per_pair = 3
    width = max(1, int(_CHUNK_CELLS * 4 // max(1, groups * R * terms_per_pair)))
    for p0 in range(0, len(pairs), width):
        chunk = pairs[p0 : p0 + width]
        feats = []
        base = []
        for a, b in chunk:
            za, zb = zs[a], zs[b]
            d = zb - za  # a swapped cell of a~ takes b's score
            feats += [gc * d, d, zb * zb - za * za]
            base.append(
                (
                    (gc * za).sum(1),
                    za.sum(1),
                    (za * za).sum(1),
                    (gc * zb).sum(1),
                    zb.sum(1),
                    (zb * zb).sum(1),
                )
            )
        features = np.stack(feats, axis=2)  # groups x cells x 3P
        sums = np.matmul(swaps_by_group, features)  # groups x R x 3P
        for k, (ga, sa, qa, gb, sb, qb) in enumerate(base):
            dxy, dx, dxx = sums[:, :, 3 * k], sums[:, :, 3 * k + 1], sums[:, :, 3 * k + 2]
            nn = n[:, None]
            ra = _pearson_from_sums(
                ga[:, None] + dxy, sa[:, None] + dx, qa[:, None] + dxx, nn, syy[:, None]
            )
            rb = _pearson_from_sums(
                gb[:, None] - dxy, sb[:, None] - dx, qb[:, None] - dxx, nn, syy[:, None]
            )
            out[:, p0 + k] = _nanmean_groups(ra) - _nanmean_groups(rb)
    return out


#: groups of at most this many cells take the quadratic-form path of acc23
_QUADRATIC_CELLS = 64


def _acc23_differences(gold, standardised, pairs, swaps, grouping, eps):
    r"""Permuted differences of acc23 at a fixed ``eps`` for small groups (e.g. items).

    Whether a pair of cells :math:`(s, t)` of a group is counted correct depends only on
    which of the two metrics each cell took, :math:`(w_s, w_t) \in \{0, 1\}^2`, so with
    :math:`D_{uv}[s, t]` the change of the difference for each of the four cases,

    .. math::

        \Delta(w) = \sum_{s<t} D_{00} + w_s (D_{10} - D_{00}) + w_t (D_{01} - D_{00})
                     + w_s w_t (D_{11} - D_{10} - D_{01} + D_{00}),

    a linear term (a matrix product of the swaps) plus one quadratic form per group (a
    batched matrix product).
    """
    gold_rows, _ = group_rows(gold, gold, grouping)
    groups, c = gold_rows.shape
    valid = ~np.isnan(gold_rows)
    upper = np.triu(np.ones((c, c), dtype=bool), 1)
    vpair = valid[:, :, None] & valid[:, None, :] & upper
    tot = vpair.sum(axis=(1, 2))
    n_ok = int((tot > 0).sum())
    scale = np.where(tot > 0, 1.0 / np.maximum(tot, 1), 0.0)[:, None, None] / max(n_ok, 1)
    dg = gold_rows[:, :, None] - gold_rows[:, None, :]
    g_tie = dg == 0
    R = swaps.shape[0]
    _, swap_rows, _ = _stacked(gold, swaps.astype(float), grouping)
    swaps_by_group = np.ascontiguousarray(
        swap_rows.reshape(R, groups, c).transpose(1, 0, 2)
    )  # groups x R x c
    out = np.empty((R, len(pairs)))

    def correct(x, y):
        dm = x[:, :, None] - y[:, None, :]
        m_tie = np.abs(dm) <= eps
        con = ~g_tie & ~m_tie & ((dg > 0) == (dm > 0))
        return (vpair & (con | (g_tie & m_tie))).astype(float)

    for k, (a, b) in enumerate(pairs):  # each pair: two batched products over all resamples
        za, zb = (
            np.where(valid, group_rows(gold, standardised[m], grouping)[1], 0.0) for m in (a, b)
        )
        # D_uv: acc23 of a~ minus b~ when cell s took metric u and cell t metric v (0 = a)
        d = {}
        for u, xs, xs_c in ((0, za, zb), (1, zb, za)):
            for v, yt, yt_c in ((0, za, zb), (1, zb, za)):
                d[u, v] = (correct(xs, yt) - correct(xs_c, yt_c)) * scale
        lin = (d[1, 0] - d[0, 0]).sum(axis=2) + (d[0, 1] - d[0, 0]).sum(axis=1)  # groups x c
        quad = d[1, 1] - d[1, 0] - d[0, 1] + d[0, 0]
        const = d[0, 0].sum()
        linear = swap_rows.reshape(R, -1) @ lin.reshape(-1)
        quadratic = (np.matmul(swaps_by_group, quad) * swaps_by_group).sum(axis=(0, 2))
        out[:, k] = const + linear + quadratic
    return out


def _nanmean_groups(r):  # groups x R -> R
    ok = ~np.isnan(r)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(ok.any(axis=0), np.where(ok, r, 0.0).sum(axis=0) / ok.sum(axis=0), np.nan)


def _quadratic(gold, spec: CorrelationSpec) -> bool:
    """Whether acc23 takes the quadratic-form path (fixed epsilon, small groups)."""
    return (
        spec.correlation == "acc23"
        and not spec.tie_calibration
        and spec.grouping != "none"
        and group_rows(gold, gold, spec.grouping)[0].shape[1] <= _QUADRATIC_CELLS
    )


def _differences(gold, standardised, pairs, swaps, spec: CorrelationSpec, fast=True):
    """Permuted differences (R x pairs) for the swaps ``swaps``: Pearson by matrix products, any
    other correlation one batched evaluation of all resamples per metric and pair."""
    if fast and spec.correlation == "pearson":
        return _pearson_differences(gold, standardised, pairs, swaps, spec.grouping)
    if fast and _quadratic(gold, spec):
        return _acc23_differences(gold, standardised, pairs, swaps, spec.grouping, spec.eps)
    out = np.empty((swaps.shape[0], len(pairs)))
    for k, (a, b) in enumerate(pairs):  # a pair's resamples are one array computation
        za, zb = standardised[a], standardised[b]
        ta, tb = np.where(swaps, zb, za), np.where(swaps, za, zb)
        out[:, k] = resampled_correlations(gold, ta, spec) - resampled_correlations(gold, tb, spec)
    return out


def perm_both(
    metrics: Mapping[str, object],
    gold,
    *,
    correlation: str = "pearson",
    level: str = "seg",
    grouping: str = "none",
    epsilon: float | None = None,
    tie_calibration: bool = False,
    threshold: float = KENDALL_LIKE_THRESHOLD,
    n_resamples: int = 1000,
    early_stopping: bool = False,
    block_size: int = 1000,
    return_draws: bool = False,
    min_group_size: int = MIN_GROUP_SIZE,
    rng=None,
    progress=None,
) -> PermBothResult:
    r"""PERM-BOTH tests of every pair of metrics (module notes for the formula).

    Parameters
    ----------
    metrics : mapping of str to array_like, shape (n_systems, n_items)
        Each metric's segment scores (complete).
    gold : array_like, shape (n_systems, n_items)
        Gold (human) scores, NaN where missing.
    correlation, level, grouping, epsilon, tie_calibration, threshold
        As :func:`stats.metaeval.meta_eval.meta_correlation` (``pairwise-accuracy`` is system-level
        only). At ``level='sys'`` the permuted cells are the systems' mean scores.
    n_resamples : int
        Permutations (default 1000).
    early_stopping : bool
        As MTME: after every ``block_size`` resamples, a pair whose p so far is below 0.02 or
        above 0.5 stops (its ``n_resamples_used`` says when).
    block_size : int
    return_draws : bool
        Keep every resample's permuted difference (:attr:`PermBothResult.draws`, shape
        ``(n_pairs, n_resamples)``), for a task set to combine across tasks.
    min_group_size : int
        As :func:`~stats.metaeval.meta_eval.meta_correlation`: a group with fewer gold scores
        (3 by default; 2 follows MTME) has no correlation coefficient and is left out of the
        observed and of every permuted correlation, named in one warning.
    rng : int, Generator or None
        Seed or generator; one swap matrix per resample serves every pair.
    progress : callable or None
        Called as ``progress(fraction)`` after every chunk of resamples with the share done
        (increasing, 1.0 last); a caller may raise from it to interrupt the run. It does not
        change the result.

    Returns
    -------
    PermBothResult

    Raises
    ------
    StatsInputError
        Fewer than two metrics, shapes that differ, an option
        :func:`~stats.metaeval.meta_eval.meta_correlation` rejects.

    Examples
    --------
    Does the closer metric correlate better with the gold scores than the noisier one?

    >>> import numpy as np
    >>> from stats import perm_both
    >>> rng = np.random.default_rng(0)
    >>> gold = rng.normal(size=(5, 40))
    >>> metrics = {'close': gold + rng.normal(0, 0.5, gold.shape), 'noisy': gold + rng.normal(0, 2, gold.shape)}
    >>> res = perm_both(metrics, gold, n_resamples=200, rng=1)
    >>> res.metrics
    ('close', 'noisy')
    >>> float(res.pvalue.at['close', 'noisy']) < 0.05
    True
    """
    check_choice(correlation, CORRELATIONS, "correlation")
    check_choice(grouping, GROUPINGS, "grouping")
    resampling_settings = resampling(
        n_resamples=n_resamples,
        early_stopping=early_stopping,
        block_size=block_size,
        return_draws=return_draws,
        rng=rng,
        progress=progress,
    )
    names = list(metrics)
    check_metric_count(len(names))
    gold_matrix = np.asarray(gold, dtype=float)
    check_budget(
        what="PERM-BOTH",
        n_resamples=resampling_settings.n_resamples,
        n_segments=gold_matrix.size,
        n_metrics=len(names),
        n_pairs=len(names) * (len(names) - 1) // 2,
        pair_cost=gold_matrix.size,
    )
    arrays = metric_arrays_like({m: metrics[m] for m in names}, gold_matrix)
    spec = CorrelationSpec(
        correlation=correlation,
        grouping=grouping,
        epsilon=epsilon,
        tie_calibration=tie_calibration,
        threshold=threshold,
        min_group_size=check_min_group_size(min_group_size),
    )
    with warnings.catch_warnings():  # an undefined correlation is named by engine.result
        warnings.simplefilter("ignore", DegenerateInputWarning)
        observed = {
            m: meta_correlation(arrays[m], gold_matrix, level=level, **spec.options()).statistic
            for m in names
        }
    order = ranked(observed)
    if level == "sys":
        gold_matrix = mean_system_scores(arrays[order[0]], gold_matrix)[0][:, None]
        arrays = {
            m: mean_system_scores(arrays[m], np.asarray(gold, float))[1][:, None] for m in order
        }
        spec = dataclasses.replace(spec, grouping="none")
    valid = ~np.isnan(gold_matrix)
    standardise_on = np.ones_like(valid) if tie_calibration else valid  # as MTME
    standardised = {m: _zscore(arrays[m], standardise_on) for m in order}
    note = small_group_note(group_rows(gold_matrix, gold_matrix, spec.grouping)[0], correlation,
                            spec.grouping, level, spec.min_group_size)
    if note:  # once for every metric: the groups are the gold scores' (engine_paths masks them)
        warnings.warn(note, DegenerateInputWarning, stacklevel=2)
    pairs = metric_pairs(order)
    differences, chunk = engine_paths(gold_matrix, standardised, pairs, spec)
    return run(
        differences,
        order,
        observed,
        shape=gold_matrix.shape,
        chunk=chunk,
        resampling=resampling_settings,
        correlation=correlation,
        grouping=spec.grouping,
        level=level,
    )


def engine_paths(gold, standardised, pairs, spec: CorrelationSpec):
    """The ``differences(swaps, idx)`` of :func:`perm_both` (the first kernel whose ``applies``
    says yes; the array paths of this module otherwise) and its chunk of resamples. Groups too
    small for the correlation (``spec.min_group_size``) are left out of every path (their gold
    scores masked), as :func:`~stats.metaeval.meta_eval.meta_correlation` leaves them out."""
    gold = mask_small_groups(gold, spec.correlation, spec.grouping, spec.min_group_size)
    lin = None
    if _perm_linear.applies(gold, spec):
        lin = _perm_linear.linear_terms(
            gold, standardised, pairs, spec.correlation, spec.grouping, spec.eps, spec.threshold
        )

    tied = None  # pairs whose metric ties move tau's or Spearman's normaliser
    if lin is not None and not lin[2].all() and _perm_ties.applies(gold, spec):
        tied = _perm_ties.Tied(gold, standardised, pairs, spec.correlation, spec.grouping)

    cal: _perm_calibrated.Calibrated | _perm_calibrated_one.CalibratedOne | None = None
    if _perm_calibrated.applies(gold, spec):
        cal = _perm_calibrated.Calibrated(gold, standardised, pairs, spec.grouping)
    elif _perm_calibrated_one.applies(gold, spec):
        cal = _perm_calibrated_one.CalibratedOne(gold, standardised, pairs)  # one long group

    def differences(swaps, idx):
        todo = [pairs[i] for i in idx]
        if cal is not None:
            return cal.differences(swaps, idx)
        if lin is None:
            return _differences(gold, standardised, todo, swaps, spec)
        const, coefficients, ok = lin
        out = np.empty((swaps.shape[0], len(idx)))
        fast = ok[idx]
        if fast.any():
            out[:, fast] = _perm_linear.linear_differences(
                swaps, const[idx[fast]], coefficients[:, idx[fast]]
            )
        if not fast.all() and tied is not None:
            out[:, ~fast] = tied.differences(swaps, idx[~fast])
        elif not fast.all():
            rest = [todo[i] for i in np.flatnonzero(~fast)]
            out[:, ~fast] = _differences(gold, standardised, rest, swaps, spec)
        return out

    products = spec.correlation == "pearson" or lin is not None or _quadratic(gold, spec)
    chunk = max(1, (_PRODUCT_CHUNK_CELLS if products else _CHUNK_CELLS) // max(1, gold.size))
    if spec.tie_calibration:  # every pair of a group is held at once: bound them too
        gold_rows, _ = group_rows(gold, gold, spec.grouping)
        n_valid = (~np.isnan(gold_rows)).sum(axis=1)
        chunk = max(
            1, min(chunk, _CHUNK_CELLS // max(1, int((n_valid * (n_valid - 1) // 2).sum())))
        )
    if cal is not None:  # swaps only (booleans): the candidate arrays bound themselves
        chunk = max(1, _CALIBRATED_SWAP_CELLS // max(1, gold.size))
    return differences, chunk
