"""Benchmark: segment-level meta-evaluation at WMT scale, against mt-metrics-eval (MTME).

    .venv/bin/python benchmarks/meta_eval.py [--lps 15] [--systems 20] [--items 1500]
        [--metrics 40] [--mtme PATH] [--mtme-metrics 2]

Synthetic data: ``--lps`` language pairs x ``--systems`` systems x ``--items`` items x
``--metrics`` metrics; DA-like gold on 0-100 in whole numbers (ties) with 10% missing, metric
scores rounded to 3 decimals. Every correlation of :func:`stats.metaeval.meta_eval.meta_correlation` is
computed with item grouping for every (language pair, metric): Pearson, Spearman, Kendall
tau-b, tau-c, Kendall-like (threshold 25), acc23 (epsilon 0) and tie-calibrated acc23; then
system-level pairwise accuracy per language pair and pooled (:func:`pairwise_accuracy`). The
wall time of each is printed.

When MTME's code can be imported (``--mtme PATH``, the ``MTME_PATH`` environment variable, or
``/tmp/mtme`` if it exists), the same correlations are timed with MTME's ``AverageCorrelation``
(and ``KendallWithTiesOpt(sample_rate=1.0)`` for tie calibration) on the first
``--mtme-metrics`` metrics of the first language pair, the largest difference of the values is
printed, and MTME's time is extrapolated to all (language pair, metric) combinations (said so
in the output): MTME takes minutes per metric for tie calibration at this size.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
import warnings
from pathlib import Path

import numpy as np

from stats.metaeval.meta_eval import mean_system_scores, meta_correlation, pairwise_accuracy

CORRELATIONS = (
    ("pearson", {}),
    ("spearman", {}),
    ("kendall", {}),
    ("kendall-c", {}),
    ("kendall-like", {"threshold": 25.0}),
    ("acc23", {"epsilon": 0.0}),
    ("acc23 tie-calibrated", {"tie_calibration": True}),
)


def make_lp(rng: np.random.Generator, n_sys: int, n_items: int, n_metrics: int):
    quality = rng.normal(0, 8, (n_sys, 1))
    difficulty = rng.normal(0, 12, (1, n_items))
    latent = 70 + quality - difficulty + rng.normal(0, 10, (n_sys, n_items))
    gold = np.clip(np.round(latent + rng.normal(0, 10, latent.shape)), 0, 100)
    gold[rng.random(gold.shape) < 0.1] = np.nan
    noise = rng.uniform(5, 40, n_metrics)
    metrics = np.round(
        (latent[None] + rng.normal(size=(n_metrics, n_sys, n_items)) * noise[:, None, None]) / 100,
        3,
    )
    return gold, metrics


def _mtme_module(path: str | None):
    for candidate in (path, os.environ.get("MTME_PATH"), "/tmp/mtme"):
        if candidate and Path(candidate).is_dir():
            sys.path.insert(0, candidate)
            try:
                return importlib.import_module("mt_metrics_eval.stats")
            except ImportError:
                sys.path.pop(0)
    return None


def _mtme_value(ms, name, options, gold_list, metric_list, n_sys):
    import scipy.stats  # noqa: PLC0415 (only for MTME's functions)

    if name == "acc23 tie-calibrated":
        return ms.KendallWithTiesOpt(gold_list, metric_list, "acc23", n_sys, "item", 1.0)[0]
    fn, kw = {
        "pearson": (scipy.stats.pearsonr, {}),
        "spearman": (scipy.stats.spearmanr, {}),
        "kendall": (scipy.stats.kendalltau, {"variant": "b"}),
        "kendall-c": (scipy.stats.kendalltau, {"variant": "c"}),
        "kendall-like": (ms.KendallLike, {"macro": False, "thresh": options.get("threshold")}),
        "acc23": (ms.KendallVariants, {"variant": "acc23", "epsilon": 0.0}),
    }[name]
    return ms.AverageCorrelation(fn, n_sys, "item", **kw)(gold_list, metric_list)[0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lps", type=int, default=15)
    ap.add_argument("--systems", type=int, default=20)
    ap.add_argument("--items", type=int, default=1500)
    ap.add_argument("--metrics", type=int, default=40)
    ap.add_argument("--mtme", help="directory containing the mt_metrics_eval package")
    ap.add_argument("--mtme-metrics", type=int, default=2)
    args = ap.parse_args()
    rng = np.random.default_rng(20231206)
    data = [make_lp(rng, args.systems, args.items, args.metrics) for _ in range(args.lps)]
    combos = args.lps * args.metrics
    print(
        f"{args.lps} language pairs x {args.systems} systems x {args.items} items x "
        f"{args.metrics} metrics = {combos} (language pair, metric) correlations each; "
        "grouping: item"
    )
    ours: dict[str, float] = {}
    values: dict[str, list] = {}
    warnings.simplefilter("ignore")
    for name, options in CORRELATIONS:
        corr = "acc23" if name.startswith("acc23") else name
        t0 = time.perf_counter()
        vals = [  # min_group_size=2: MTME's rule, so that the values compare with MTME's
            meta_correlation(metrics[k], gold, correlation=corr, grouping="item",
                             min_group_size=2, **options).statistic
            for gold, metrics in data
            for k in range(args.metrics)
        ]
        ours[name] = time.perf_counter() - t0
        values[name] = vals
        print(
            f"  stats  {name:22s} {ours[name]:8.2f} s  ({1000 * ours[name] / combos:7.1f} ms per "
            "metric)"
        )
    t0 = time.perf_counter()
    for k in range(args.metrics):
        gs, ms_ = {}, {}
        for i, (gold, metrics) in enumerate(data):
            gs[i], ms_[i] = mean_system_scores(metrics[k], gold)
        pairwise_accuracy(ms_, gs)
    t_pa = time.perf_counter() - t0
    print(f"  stats  {'pairwise-accuracy (sys)':22s} {t_pa:8.2f} s  (per LP and pooled, all metrics)")
    print(f"  stats  {'total':22s} {sum(ours.values()) + t_pa:8.2f} s")

    ms = _mtme_module(args.mtme)
    if ms is None:
        print("MTME not importable (give --mtme PATH or MTME_PATH): no comparison")
        return
    n = min(args.mtme_metrics, args.metrics)
    gold, metrics = data[0]
    gold_list = [None if np.isnan(v) else float(v) for v in gold.ravel()]
    print(
        f"MTME (mt_metrics_eval.stats) on {n} metric(s) of the first language pair, "
        f"extrapolated x{combos / n:g} to all {combos}:"
    )
    total_mtme = 0.0
    for name, options in CORRELATIONS:
        t0 = time.perf_counter()
        ref = [
            _mtme_value(ms, name, options, gold_list, [float(v) for v in metrics[k].ravel()],
                        args.systems)
            for k in range(n)
        ]
        elapsed = (time.perf_counter() - t0) * combos / n
        total_mtme += elapsed
        diff = max(abs(a - b) for a, b in zip(ref, values[name][:n], strict=True))
        print(
            f"  MTME   {name:22s} {elapsed:8.1f} s extrapolated  (x{elapsed / ours[name]:.0f} "
            f"ours; max |difference| {diff:.1e})"
        )
    print(f"  MTME   {'total':22s} {total_mtme:8.1f} s extrapolated  "
          f"(x{total_mtme / sum(ours.values()):.0f} ours, pairwise accuracy not included)")


if __name__ == "__main__":
    main()
