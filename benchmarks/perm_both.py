"""Benchmark: PERM-BOTH for all pairs of metrics, against mt-metrics-eval (MTME).

    .venv/bin/python benchmarks/perm_both.py [--systems 15] [--items 1500] [--metrics 20]
        [--resamples 1000] [--mtme PATH] [--mtme-pairs 2] [--mtme-resamples 1000]
        [--cases pearson-none,kendall-none,kendall-item,acc23cal-item] [--twins 0.2]
        [--discrete 1]

Synthetic data (issue 23's size): ``--systems`` x ``--items`` segment scores, MQM-like gold
(minus error penalties in steps of 0.5 or 1: many ties; 3% missing), ``--metrics`` metrics of
different quality as unrounded floats (no metric ties, as neural metrics' scores; with
``--twins F`` every system after the first repeats the first one's output, gold and scores on
a share ``F`` of the items, as identical outputs do, and ``--discrete K`` rounds the first
``K`` metrics to integers, as a discrete metric: ties that move tau's normaliser). PERM-BOTH
(:func:`stats.metaeval.perm_both.core.perm_both`) of every pair of metrics with ``--resamples`` permutations
(no early stopping) for segment-level Pearson (grouping none), Kendall tau-b (none and item)
and tie-calibrated acc23 (item); the wall time of each is printed.

When MTME's code can be imported (``--mtme PATH``, ``MTME_PATH`` or ``/tmp/mtme``),
``PermutationSigDiff`` is timed on the first ``--mtme-pairs`` pairs with
``--mtme-resamples`` permutations (no early stopping), its time per pair scaled to
``--resamples`` permutations (said so when they differ), and the ratio of our time for all
pairs to "MTME for 19 pairs" is printed: below 1 means all pairs here take less time than MTME
needs for 19.
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
from meta_eval import _mtme_module  # benchmarks/meta_eval.py: imports MTME when available

from stats.metaeval.perm_both.core import perm_both

CASES = {
    "pearson-none": ("pearson", "none", {}),
    "kendall-none": ("kendall", "none", {}),
    "kendall-item": ("kendall", "item", {}),
    "acc23cal-item": ("acc23", "item", {"tie_calibration": True}),
}


def _data(
    systems: int, items: int, n_metrics: int, seed: int = 0, twins: float = 0.0, discrete: int = 0
):
    rng = np.random.default_rng(seed)
    quality = rng.normal(scale=1.0, size=(systems, 1))
    errors = rng.poisson(np.exp(0.3 * quality + 0.2), size=(systems, items))
    severity = rng.choice([0.5, 1.0, 5.0], p=[0.2, 0.5, 0.3], size=(systems, items))
    gold = -np.minimum(errors * severity, 25.0)
    latent = gold + rng.normal(scale=1.0, size=gold.shape)
    noise = np.linspace(1.0, 8.0, n_metrics)
    metrics = {
        f"metric{k:02d}": latent + rng.normal(scale=s, size=gold.shape) for k, s in enumerate(noise)
    }
    if twins > 0:  # identical outputs: the same gold and the same score for every metric
        same = rng.random(items) < twins
        gold[1:, same] = gold[0, same]
        for m in metrics.values():
            m[1:, same] = m[0, same]
    for name in list(metrics)[:discrete]:
        metrics[name] = np.round(metrics[name])
    gold[rng.random(gold.shape) < 0.03] = np.nan
    return gold, metrics


def _mtme_seconds(ms, gold, metrics, correlation, grouping, kwargs, pairs, k):
    import scipy.stats

    n_sys = gold.shape[0]
    gold_list = [None if np.isnan(v) else float(v) for v in gold.ravel()]
    corr = {
        m: ms.Correlation(n_sys, gold_list, [float(v) for v in metrics[m].ravel()])
        for m in {x for p in pairs for x in p}
    }
    if correlation == "pearson":
        fn, kw = scipy.stats.pearsonr, {}
    elif correlation == "kendall":
        fn, kw = ms.KendallVariants, {"variant": "b"}
    elif kwargs.get("tie_calibration"):  # exact search (sample_rate 1), as ours
        fn, kw = ms.KendallWithTiesOpt, {"variant": "acc23", "sample_rate": 1.0}
    else:
        fn, kw = ms.KendallVariants, {"variant": "acc23", "epsilon": kwargs.get("epsilon", 0.0)}
    average_by = {"none": "none", "item": "item", "system": "sys"}[grouping]
    params = ms.PermutationSigDiffParams(block_size=k)
    start = time.perf_counter()
    for hi, lo in pairs:
        ms.PermutationSigDiff(corr[lo], corr[hi], fn, average_by, k, params, **kw)
    return (time.perf_counter() - start) / len(pairs)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--systems", type=int, default=15)
    ap.add_argument("--items", type=int, default=1500)
    ap.add_argument("--metrics", type=int, default=20)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--mtme", help="directory containing the mt_metrics_eval package")
    ap.add_argument("--mtme-pairs", type=int, default=2)
    ap.add_argument("--mtme-resamples", type=int, default=1000)
    ap.add_argument("--twins", type=float, default=0.0, help="share of items with one output")
    ap.add_argument("--discrete", type=int, default=0, help="metrics rounded to integers")
    ap.add_argument(
        "--cases", default=",".join(CASES), help="comma-separated, of " + ", ".join(CASES)
    )
    args = ap.parse_args()
    gold, metrics = _data(
        args.systems, args.items, args.metrics, twins=args.twins, discrete=args.discrete
    )
    n_pairs = args.metrics * (args.metrics - 1) // 2
    print(
        f"PERM-BOTH, {args.metrics} metrics ({n_pairs} pairs), {args.systems} systems x "
        f"{args.items} items, {args.resamples} resamples, identical outputs on "
        f"{args.twins:.0%} of the items, {args.discrete} discrete metric(s)"
    )
    ms = _mtme_module(args.mtme)
    if ms is None:
        print("MTME not importable (give --mtme PATH or MTME_PATH): no comparison")
    for case in args.cases.split(","):
        correlation, grouping, kwargs = CASES[case]
        start = time.perf_counter()
        res = perm_both(
            metrics,
            gold,
            correlation=correlation,
            grouping=grouping,
            n_resamples=args.resamples,
            rng=1,
            **kwargs,
        )
        ours = time.perf_counter() - start
        label = f"{case}"
        print(
            f"  ours   {label:28s} {ours:8.1f} s for all {n_pairs} pairs "
            f"({ours / n_pairs:.3f} s per pair; smallest p {np.nanmin(res.pvalue.values):.3g})"
        )
        if ms is None:
            continue
        order = res.metrics
        pairs = [(order[i], order[i + 1]) for i in range(min(args.mtme_pairs, len(order) - 1))]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            per_pair = _mtme_seconds(
                ms, gold, metrics, correlation, grouping, kwargs, pairs, args.mtme_resamples
            )
        scaled = per_pair * args.resamples / args.mtme_resamples
        note = (
            ""
            if args.mtme_resamples == args.resamples
            else f", timed at {args.mtme_resamples} resamples and scaled"
        )
        print(
            f"  MTME   {label:28s} {scaled:8.1f} s per pair ({len(pairs)} pairs timed{note}); "
            f"19 pairs {19 * scaled:.1f} s"
        )
        print(
            f"  ratio  ours for {n_pairs} pairs / MTME for 19 pairs = {ours / (19 * scaled):.3f}"
            f"  (MTME per pair / ours per pair = {scaled / (ours / n_pairs):.1f}x)"
        )


if __name__ == "__main__":
    main()
