"""Benchmark: PERM-BOTH for all pairs of metrics, against mt-metrics-eval (MTME).

    .venv/bin/python benchmarks/perm_both.py [--systems 15] [--items 1500] [--metrics 20]
        [--resamples 1000] [--mtme PATH] [--mtme-pairs 2] [--mtme-resamples 1000]
        [--cases pearson-none,kendall-none,kendall-item,acc23cal-item] [--twins 0.2]
        [--discrete 1] [--power-simulations 100] [--no-old-code] [--no-switch]

Synthetic data: ``--systems`` x ``--items`` segment scores, MQM-like gold
(minus error penalties in steps of 0.5 or 1: many ties; 3% missing), ``--metrics`` metrics of
different quality as unrounded floats (no metric ties, as neural metrics' scores; with
``--twins F`` every system after the first repeats the first one's output, gold and scores on
a share ``F`` of the items, as identical outputs do, and ``--discrete K`` rounds the first
``K`` metrics to integers, as a discrete metric: ties that move tau's normaliser). PERM-BOTH
(:func:`stats.metaeval.perm_both.core.perm_both`) of every pair of metrics with ``--resamples`` permutations
(no early stopping) for segment-level Pearson (grouping none), Kendall tau-b (none and item)
and tie-calibrated acc23 (item); the wall and CPU time of each is printed.

Kendall's tau-b and tau-c are timed again in the same run with the array route as the
baseline (``--no-old-code`` skips it): the sign sums of long groups by the merge-sort tree of numpy
searches instead of the compiled sweep of :mod:`stats.metaeval.perm_both._tau_sums`, and pairs
with symmetric ties through the tie kernel instead of products
(:data:`stats.metaeval.perm_both._ties.SYMMETRIC_PRODUCTS`): wall and CPU seconds
before and after, their ratio, the load average, and whether the SHA-256 of the results'
numbers (statistic, p-values, resamples used and every draw) is the same.

Tau and Spearman groups longer than ``SORT_GROUP_CELLS`` take the sorting path
(:mod:`stats.metaeval.perm_both._linear`); for those cases the same run is timed again with the
pair-of-cells matrices that served them before (the switch set out of reach), CPU seconds before
and after and their ratio printed with the load average (``--no-switch`` skips it). ``spearman-power`` and
``kendall-power`` (not among the default cases) time :func:`stats.perm_both_power` without
grouping on 4 systems x 200 items (sizes 50/100/200, two effects, ``--power-simulations`` x 200
resamples), the engine run once per simulated data set, before and after, and check that power
and MDE are equal.

When MTME's code can be imported (``--mtme PATH``, ``MTME_PATH`` or ``/tmp/mtme``),
``PermutationSigDiff`` is timed on the first ``--mtme-pairs`` pairs with
``--mtme-resamples`` permutations (no early stopping), its time per pair scaled to
``--resamples`` permutations (said so when they differ), and the ratio of our time for all
pairs to "MTME for 19 pairs" is printed: below 1 means all pairs here take less time than MTME
needs for 19 (for Kendall also the code before, same run). MTME's tau-b is
``scipy.stats.kendalltau`` (``--mtme-kendall scipy``, what its tasks' ``'kendall'`` runs, the
faster one) or its ``KendallVariants`` (``--mtme-kendall variants``: a Fenwick tree in Python,
minutes per pair at this size).
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import os
import time
import warnings

import numpy as np
from meta_eval import _mtme_module  # benchmarks/meta_eval.py: imports MTME when available

from stats.metaeval.perm_both import _linear, _tau_sums, _ties
from stats.metaeval.perm_both.core import perm_both

CASES = {
    "pearson-none": ("pearson", "none", {}),
    "kendall-none": ("kendall", "none", {}),
    "kendall-item": ("kendall", "item", {}),
    "acc23cal-item": ("acc23", "item", {"tie_calibration": True}),
    "spearman-none": ("spearman", "none", {}),
}
#: PERM-BOTH power (stats.perm_both_power) without grouping: 4 systems x 200 items, sizes
#: 50/100/200, two effects, --power-simulations x 200 resamples
POWER_CASES = {"spearman-power": "spearman", "kendall-power": "kendall"}


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


def _mtme_seconds(ms, gold, metrics, correlation, grouping, kwargs, pairs, k, kendall_fn):
    import scipy.stats

    n_sys = gold.shape[0]
    gold_list = [None if np.isnan(v) else float(v) for v in gold.ravel()]
    corr = {
        m: ms.Correlation(n_sys, gold_list, [float(v) for v in metrics[m].ravel()])
        for m in {x for p in pairs for x in p}
    }
    if correlation == "pearson":
        fn, kw = scipy.stats.pearsonr, {}
    elif correlation == "kendall" and kendall_fn == "scipy":  # MTME's tasks.py 'kendall'
        fn, kw = scipy.stats.kendalltau, {"variant": "b"}
    elif correlation == "kendall":  # its pure-Python Fenwick tree: slower on long vectors
        fn, kw = ms.KendallVariants, {"variant": "b"}
    elif kwargs.get("tie_calibration"):  # exact search (sample_rate 1), as ours
        fn, kw = ms.KendallWithTiesOpt, {"variant": "acc23", "sample_rate": 1.0}
    else:
        fn, kw = ms.KendallVariants, {"variant": "acc23", "epsilon": kwargs.get("epsilon", 0.0)}
    average_by = {"none": "none", "item": "item", "system": "sys"}[grouping]
    params = ms.PermutationSigDiffParams(block_size=k)
    start, cpu = time.perf_counter(), time.process_time()
    for hi, lo in pairs:
        ms.PermutationSigDiff(corr[lo], corr[hi], fn, average_by, k, params, **kw)
    return (time.perf_counter() - start) / len(pairs), (time.process_time() - cpu) / len(pairs)


@contextlib.contextmanager
def _pair_matrices():
    """Tau's and Spearman's groups as pair-of-cells matrices up to MAX_GROUP_CELLS (before
    SORT_GROUP_CELLS)."""
    saved = _linear.SORT_GROUP_CELLS
    _linear.SORT_GROUP_CELLS = {c: _linear.MAX_GROUP_CELLS for c in saved}
    try:
        yield
    finally:
        _linear.SORT_GROUP_CELLS = saved


def _cpu(fn):
    start = time.process_time()
    out = fn()
    return time.process_time() - start, out


def _before_after(label, fn, same):
    """Time ``fn`` with the sorting path and with the pair matrices; print both and check."""
    after, res = _cpu(fn)
    with _pair_matrices():
        before, old = _cpu(fn)
    print(
        f"  switch {label:28s} before {before:7.1f} s CPU, after {after:7.1f} s CPU, "
        f"ratio {before / max(after, 1e-9):5.1f}x (load {os.getloadavg()[0]:.1f}); "
        f"same results: {same(res, old)}"
    )
    return res


def _sha256(res) -> str:
    """SHA-256 of a result's numbers: statistic, p-values, resamples used and draws."""
    h = hashlib.sha256()
    for part in (res.statistic, res.pvalue, res.n_resamples_used):
        h.update(np.ascontiguousarray(part.to_numpy()).tobytes())
    if res.draws is not None:
        h.update(np.ascontiguousarray(res.draws).tobytes())
    return h.hexdigest()


@contextlib.contextmanager
def _code_before():
    """Kendall by the array route: the sign sums of long groups by the merge-sort tree of
    numpy searches (not the compiled sweep of stats.metaeval.perm_both._tau_sums), and pairs
    with symmetric ties through the tie kernel (not Tied._symmetric's products)."""
    saved = _tau_sums.compiled, _ties.SYMMETRIC_PRODUCTS
    _tau_sums.compiled = lambda: None
    _ties.SYMMETRIC_PRODUCTS = False
    try:
        yield
    finally:
        _tau_sums.compiled, _ties.SYMMETRIC_PRODUCTS = saved


def _timed(fn):
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return time.perf_counter() - wall, time.process_time() - cpu, out


def _power_case(case: str, simulations: int) -> None:
    from stats.power import perm_both_power

    gen = np.random.default_rng(0)
    gold = gen.normal(size=(4, 200))
    a = gold + gen.normal(0, 1.0, gold.shape)
    b = gold + gen.normal(0, 1.6, gold.shape)

    def run():
        return perm_both_power(
            a, b, gold, effect=[0.05, 0.1], n=[50, 100, 200], correlation=POWER_CASES[case],
            n_simulations=simulations, n_resamples=200, rng=0,
        )

    def same(x, y):
        return np.array_equal(x.power, y.power) and np.array_equal(x.mde, y.mde, equal_nan=True)

    print(f"PERM-BOTH power, {POWER_CASES[case]}, 4 systems x 200 items, {simulations} "
          "simulations x 200 resamples, sizes 50/100/200")
    res = _before_after(case, run, same)
    print(f"         power {np.round(res.power, 3).tolist()}, mde {np.round(res.mde, 4).tolist()}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--systems", type=int, default=15)
    ap.add_argument("--items", type=int, default=1500)
    ap.add_argument("--metrics", type=int, default=20)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--mtme", help="directory containing the mt_metrics_eval package")
    ap.add_argument("--mtme-pairs", type=int, default=2)
    ap.add_argument("--mtme-resamples", type=int, default=1000)
    ap.add_argument(
        "--mtme-kendall", choices=("scipy", "variants"), default="scipy",
        help="MTME's tau-b: scipy.stats.kendalltau (its tasks' 'kendall') or KendallVariants",
    )
    ap.add_argument("--twins", type=float, default=0.0, help="share of items with one output")
    ap.add_argument("--discrete", type=int, default=0, help="metrics rounded to integers")
    ap.add_argument("--power-simulations", type=int, default=100)
    ap.add_argument("--no-old-code", dest="old_code", action="store_false",
                    help="skip Kendall's run with the merge-sort tree (the code before)")
    ap.add_argument("--no-switch", dest="switch", action="store_false",
                    help="skip the run with the pair-of-cells matrices")
    ap.add_argument(
        "--cases",
        default=",".join(CASES),
        help="comma-separated, of " + ", ".join([*CASES, *POWER_CASES]),
    )
    args = ap.parse_args()
    cases = args.cases.split(",")
    for case in [c for c in cases if c in POWER_CASES]:
        _power_case(case, args.power_simulations)
    cases = [c for c in cases if c not in POWER_CASES]
    if not cases:
        return
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
    for case in cases:
        correlation, grouping, kwargs = CASES[case]

        def ours_run(correlation=correlation, grouping=grouping, kwargs=kwargs):
            return perm_both(metrics, gold, correlation=correlation, grouping=grouping,
                             n_resamples=args.resamples, rng=1, return_draws=True, **kwargs)

        ours, ours_cpu, res = _timed(ours_run)
        label = f"{case}"
        print(
            f"  ours   {label:28s} {ours:8.1f} s for all {n_pairs} pairs, {ours_cpu:.1f} s CPU "
            f"({ours / n_pairs:.3f} s per pair; smallest p {np.nanmin(res.pvalue.values):.3g}; "
            f"load {os.getloadavg()[0]:.1f})"
        )
        old = old_cpu = None
        if correlation in ("kendall", "kendall-c") and args.old_code:
            with _code_before():
                old, old_cpu, old_res = _timed(ours_run)
            print(
                f"  before {label:28s} {old:8.1f} s for all {n_pairs} pairs, {old_cpu:.1f} s CPU "
                f"(code before; load {os.getloadavg()[0]:.1f}); before/after "
                f"{old / ours:.1f}x wall, {old_cpu / max(ours_cpu, 1e-9):.1f}x CPU; SHA-256 "
                f"{_sha256(res)[:16]} after, {_sha256(old_res)[:16]} before: "
                f"{'identical' if _sha256(res) == _sha256(old_res) else 'DIFFERENT'}"
            )
        if correlation in _linear.SORT_GROUP_CELLS and args.switch:

            def again(correlation=correlation, grouping=grouping, kwargs=kwargs):
                return perm_both(metrics, gold, correlation=correlation, grouping=grouping,
                                 n_resamples=args.resamples, rng=1, **kwargs)

            _before_after(case, again, lambda x, y: x.pvalue.equals(y.pvalue))
        if ms is None:
            continue
        order = res.metrics
        pairs = [(order[i], order[i + 1]) for i in range(min(args.mtme_pairs, len(order) - 1))]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            per_pair, per_pair_cpu = _mtme_seconds(
                ms, gold, metrics, correlation, grouping, kwargs, pairs, args.mtme_resamples,
                args.mtme_kendall,
            )
        scaled = per_pair * args.resamples / args.mtme_resamples
        scaled_cpu = per_pair_cpu * args.resamples / args.mtme_resamples
        note = (
            ""
            if args.mtme_resamples == args.resamples
            else f", timed at {args.mtme_resamples} resamples and scaled"
        )
        if correlation == "kendall":
            note += (", scipy.stats.kendalltau" if args.mtme_kendall == "scipy"
                     else ", KendallVariants")
        print(
            f"  MTME   {label:28s} {scaled:8.1f} s per pair, {scaled_cpu:.1f} s CPU "
            f"({len(pairs)} pairs timed{note}); 19 pairs {19 * scaled:.1f} s, "
            f"{19 * scaled_cpu:.1f} s CPU (load {os.getloadavg()[0]:.1f})"
        )
        for name, mine, mine_cpu in (("ours", ours, ours_cpu), ("before", old, old_cpu)):
            if mine is None:
                continue
            print(
                f"  ratio  {name} for {n_pairs} pairs / MTME for 19 pairs = "
                f"{mine / (19 * scaled):.3f} wall, {mine_cpu / (19 * scaled_cpu):.3f} CPU "
                f"(MTME per pair / {name} per pair = {scaled / (mine / n_pairs):.1f}x wall, "
                f"{scaled_cpu / (mine_cpu / n_pairs):.1f}x CPU; load {os.getloadavg()[0]:.1f})"
            )


if __name__ == "__main__":
    main()
