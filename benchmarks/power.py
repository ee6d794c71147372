"""Power curves against their speed goals: 2 systems x 2,000 segments, 5 sample sizes
x 1,000 simulations; under 10 s for the signed-rank and t tests (per-item scores) and under
60 s for the paired bootstrap on BLEU (1,000 resamples in each simulation). Each run computes
the power at three effects and the MDE at every size. No public tool computes power (sacreBLEU,
MTME and the organisers' scripts have none), so the figures stand against the goals, with the
time of one plain scipy-loop simulation (extrapolated) beside the per-item tests for scale.

    python benchmarks/power.py [--simulations 1000] [--segments 2000]
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np


def _text(segments: int, seed: int = 0):
    gen = np.random.default_rng(seed)
    vocab = np.array([f"w{i}" for i in range(400)])
    refs = [" ".join(gen.choice(vocab, gen.integers(8, 30))) for _ in range(segments)]

    def noisy(ref: str, p: float) -> str:
        return " ".join(w if gen.random() > p else str(gen.choice(vocab)) for w in ref.split())

    return refs, {"A": [noisy(r, 0.45) for r in refs], "B": [noisy(r, 0.42) for r in refs]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--segments", type=int, default=2000)
    args = parser.parse_args()
    from scipy import stats as sps

    from stats import extract_statistics
    from stats.power import corpus_power, paired_power

    sizes = [100, 200, 500, 1000, 2000]
    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min), cores: {os.cpu_count()}")
    gen = np.random.default_rng(1)
    base = np.clip(np.rint(gen.normal(70, 18, args.segments)), 0, 100)
    syst = np.clip(base + np.rint(gen.normal(1.0, 12, args.segments)), 0, 100)
    # ESA-like integer scores, then continuous (COMET-like) scores: the signed-rank test counts
    # over the distinct observed values, few for integers, all 2,000 for continuous scores
    continuous = gen.normal(0.80, 0.1, args.segments)
    cases = [("t", base, syst, "integer"), ("signed-rank", base, syst, "integer"),
             ("signed-rank", continuous, continuous + gen.normal(0.01, 0.08, args.segments),
              "continuous")]
    for test, base, syst, kind in cases:
        t0, c0 = time.perf_counter(), time.process_time()
        res = paired_power(base, syst, effect=[0.5, 1.0, 2.0] if kind == "integer" else
                           [0.005, 0.01, 0.02], n=sizes, test=test,
                           n_simulations=args.simulations, rng=0)
        took, cpu = time.perf_counter() - t0, time.process_time() - c0
        if kind == "continuous":
            continuous_took, continuous_cpu = took, cpu
        one = {"t": lambda s: sps.ttest_rel(s, np.zeros_like(s)),
               "signed-rank": lambda s: sps.wilcoxon(s)}[test]
        d = syst - base
        t1 = time.perf_counter()
        for _ in range(20):
            one(d[gen.integers(0, d.size, 1000)])
        loop = (time.perf_counter() - t1) / 20 * args.simulations * len(sizes) * 3
        print(f"{test:>12} ({kind:>10}): {took:6.2f} s wall, {cpu:5.2f} s CPU (goal < 10 s; "
              f"{'met' if took < 10 else 'MISSED'}); "
              f"a scipy loop for the power alone ~{loop:.0f} s; "
              f"power at effect 1: {np.round(res.power[1], 2).tolist()}, "
              f"mde: {np.round(res.mde, 2).tolist()}")
    # the same continuous signed-rank run on the numpy formulation of the sums (what the
    # compiled kernel replaced): a paired ratio in one run
    from stats.power import paired as paired_module

    base_c, syst_c = cases[2][1], cases[2][2]
    kernel = paired_module.signed_rank_sums
    paired_module.signed_rank_sums = lambda *a, **k: None
    try:
        t0, c0 = time.perf_counter(), time.process_time()
        paired_power(base_c, syst_c, effect=[0.005, 0.01, 0.02], n=sizes, test="signed-rank",
                     n_simulations=args.simulations, rng=0)
        took_np, cpu_np = time.perf_counter() - t0, time.process_time() - c0
    finally:
        paired_module.signed_rank_sums = kernel
    print(f" signed-rank (continuous, numpy sums on the same counts): {took_np:6.2f} s wall, {cpu_np:5.2f} s CPU "
          f"(compiled: {continuous_took / took_np:.2f}x its wall, "
          f"{continuous_cpu / cpu_np:.2f}x its CPU)")
    refs, hyps = _text(args.segments)
    data = extract_statistics([refs], hyps)
    observed = float(data.corpus_scores[1] - data.corpus_scores[0])
    t0, c0 = time.perf_counter(), time.process_time()
    res = corpus_power(data, baseline="A", system="B", effect=[0.5, 1.0, 2.0], n=sizes,
                       n_simulations=args.simulations, n_resamples=1000, rng=0)
    took, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"paired-bootstrap BLEU (observed {observed:+.2f}): {took:6.2f} s wall, {cpu:5.2f} s "
          f"CPU (goal < 60 s; "
          f"{'met' if took < 60 else 'MISSED'}); power at +1 BLEU: "
          f"{np.round(res.power[1], 2).tolist()}, mde: {np.round(res.mde, 2).tolist()}")
    print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
