"""Benchmark: PERM-BOTH of soft pairwise accuracy for all pairs of metrics (one language pair).

    .venv/bin/python benchmarks/perm_both_spa.py [--systems 15] [--items 1500] [--metrics 20]
        [--resamples 1000] [--plain-resamples 10] [--jobs N] [--mtme PATH]
        [--mtme-resamples 20]

Synthetic data: MQM-like gold (steps of 0.5, ties, 3% missing, so the items
scored for every system are kept, as soft pairwise accuracy does) and ``--metrics`` unrounded
metrics of different quality. Times :func:`stats.metaeval.perm_both.spa.perm_both_soft_pairwise` (every
pair of metrics, ``--resamples`` swaps, 1,000 inner sign flips) against two others on the same
data, both too slow to run in full and extrapolated from fewer resamples (and said so):

- the plain array formulation this module used before (one product of the sign matrix per pair
  of metrics, the counts as resamples x permutations x system pairs comparisons), whose draws
  must be the same bytes as ours on the same resamples (checked);
- MTME's ``PermutationSigDiff`` with ``PairwiseConfidenceError`` (what
  ``CompareMetricsWithPairwiseConfidenceError`` runs per pair), when MTME can be imported
  (``--mtme PATH``, ``MTME_PATH`` or ``/tmp/mtme``), on the first pair and scaled to all.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys
import time
from pathlib import Path

# as the CLI (stats.cli.main): BLAS at one thread unless the environment says otherwise
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from meta_eval import _mtme_module  # noqa: E402 (benchmarks/meta_eval.py: MTME when available)

from stats.metaeval.perm_both.core import _zscore  # noqa: E402
from stats.metaeval.perm_both.spa import perm_both_soft_pairwise  # noqa: E402
from stats.metaeval.soft_pairwise import pairwise_permutation_pvalues  # noqa: E402


def _data(n_systems, n_items, n_metrics, seed):
    rng = np.random.default_rng(seed)
    truth = rng.normal(0, 1, (n_systems, 1)) + rng.normal(0, 1, (n_systems, n_items))
    gold = -np.round(np.clip(2.5 - truth, 0, None) * 2) / 2
    gold[rng.random(gold.shape) < 0.03] = np.nan
    noise = np.linspace(0.5, 2.0, n_metrics)
    metrics = {f"m{k:02d}": truth + rng.normal(0, s, truth.shape) for k, s in enumerate(noise)}
    return gold, metrics


def _plain(metrics, gold, n_resamples, seed, n_permutations=1000):
    """The former array formulation: per pair of metrics, the swapped cells' changes times
    the sign matrix, and the counts as one (resamples x permutations x pairs) comparison."""
    gen = np.random.default_rng(seed)
    keep = ~np.isnan(gold).any(axis=0)
    G = gold[:, keep]
    signs = np.where(gen.random((n_permutations, G.shape[1])) < 0.5, -1.0, 1.0)
    order = list(perm_both_soft_pairwise(metrics, gold, n_resamples=1, rng=seed).metrics)
    Z = {m: _zscore(metrics[m][:, keep], np.ones(G.shape, bool)) for m in order}
    iu = np.triu_indices(G.shape[0], 1)
    p_h = pairwise_permutation_pvalues(G, signs)[iu]
    partial = {m: signs @ z.T for m, z in Z.items()}
    total = {m: z.sum(axis=1) for m, z in Z.items()}
    W = gen.random((n_resamples, *G.shape)) < 0.5

    def spa(P, T):
        obs = T[:, iu[0]] - T[:, iu[1]]
        null = P[:, :, iu[0]] - P[:, :, iu[1]]
        tol = 1e-12 * np.maximum(1.0, np.abs(obs))
        p = (null >= (obs - tol)[:, None, :]).mean(axis=1)
        return 1.0 - np.abs(p - p_h[None, :]).mean(axis=1)

    out = []
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            xw = np.where(W, Z[b] - Z[a], 0.0)
            q = (xw.reshape(-1, G.shape[1]) @ signs.T).reshape(n_resamples, G.shape[0], -1)
            q = q.transpose(0, 2, 1)
            t = xw.sum(axis=2)
            out.append(
                spa(partial[a][None] + q, total[a][None] + t)
                - spa(partial[b][None] - q, total[b][None] - t)
            )
    return np.array(out)


def _timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--systems", type=int, default=15)
    ap.add_argument("--items", type=int, default=1500)
    ap.add_argument("--metrics", type=int, default=20)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--plain-resamples", type=int, default=10)
    ap.add_argument("--jobs", type=int, default=None)
    ap.add_argument("--mtme", default=None)
    ap.add_argument("--mtme-resamples", type=int, default=20)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    gold, metrics = _data(args.systems, args.items, args.metrics, args.seed)
    n_pairs = args.metrics * (args.metrics - 1) // 2
    kept = int((~np.isnan(gold).any(axis=0)).sum())
    print(
        f"{args.systems} systems x {args.items} segments ({kept} scored by humans for every "
        f"system) x {args.metrics} metrics ({n_pairs} pairs), 1,000 inner sign flips"
    )
    perm_both_soft_pairwise(metrics, gold, n_resamples=1, rng=0)  # numba's cache loaded
    res, wall, cpu = _timed(
        lambda: perm_both_soft_pairwise(
            metrics, gold, n_resamples=args.resamples, jobs=args.jobs, rng=args.seed
        )
    )
    print(
        f"ours: {args.resamples} resamples in {wall:.1f} s wall, {cpu:.1f} s CPU "
        f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
    )
    r = args.plain_resamples
    if r > 0:
        draws, w_p, c_p = _timed(lambda: _plain(metrics, gold, r, args.seed))
        ours_r = perm_both_soft_pairwise(
            metrics, gold, n_resamples=r, return_draws=True, rng=args.seed
        )
        same = np.array_equal(draws, ours_r.draws)
        scale = args.resamples / r
        print(
            f"former array code: {r} resamples in {w_p:.1f} s wall, {c_p:.1f} s CPU; scaled "
            f"to {args.resamples}: {w_p * scale:.0f} s wall, {c_p * scale:.0f} s CPU "
            f"(x{c_p * scale / cpu:.1f} ours' CPU); same draws: {same}"
        )
    ms = _mtme_module(args.mtme)
    if ms is None:
        print("MTME: not found (--mtme PATH, MTME_PATH or /tmp/mtme)")
        return
    keep = ~np.isnan(gold).any(axis=0)
    a, b = list(res.metrics)[:2]
    flat = gold[:, keep].ravel().tolist()
    c1 = ms.Correlation(args.systems, flat, metrics[a][:, keep].ravel().tolist())
    c2 = ms.Correlation(args.systems, flat, metrics[b][:, keep].ravel().tolist())
    pce = functools.partial(ms.PairwiseConfidenceError, num_sys=args.systems)
    k = args.mtme_resamples
    params = ms.PermutationSigDiffParams(block_size=k)
    _, w_m, c_m = _timed(lambda: ms.PermutationSigDiff(c2, c1, pce, "none", k, params))
    scale = n_pairs * args.resamples / k
    print(
        f"MTME PermutationSigDiff(PairwiseConfidenceError): 1 pair x {k} resamples in "
        f"{w_m:.1f} s wall, {c_m:.1f} s CPU; scaled to {n_pairs} pairs x {args.resamples}: "
        f"{c_m * scale / 3600:.2f} h CPU (x{c_m * scale / cpu:.0f} ours)"
    )


if __name__ == "__main__":
    main()
