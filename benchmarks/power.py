"""Power: each test's typical call against its speed goals.

Typical call: 2 systems x 2,000 items, 5 sample sizes, 1,000 simulations (1,000 resamples for
the resampling tests), three effects, the rate at effect 0 (the size), the MDE at every size
and the sample size for the first effect with its Monte Carlo error, as ``python -m stats
power`` runs it. Goals: under 10 s for every per-item test (t, signed-rank on integer and on
continuous scores, paired bootstrap, approximate randomization) and for the by-domain test;
BLEU's approximate randomization within 2x of BLEU's paired bootstrap (same data, same run;
it took 16x before its pseudo systems were scored as products of the moving match counts).
No public tool computes power (sacreBLEU, MTME and the organisers' scripts have none), so the
figures stand against the goals, with one plain scipy-loop simulation (extrapolated) beside
the t and signed-rank for scale. CPU is this process's; wall time depends on the load, printed.

    python benchmarks/power.py [--simulations 1000] [--segments 2000] [--resamples 1000]
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

import numpy as np


def _text(segments: int, seed: int = 0):
    gen = np.random.default_rng(seed)
    vocab = np.array([f"w{i}" for i in range(400)])
    refs = [" ".join(gen.choice(vocab, gen.integers(8, 30))) for _ in range(segments)]

    def noisy(ref: str, p: float) -> str:
        return " ".join(w if gen.random() > p else str(gen.choice(vocab)) for w in ref.split())

    return refs, {"A": [noisy(r, 0.45) for r in refs], "B": [noisy(r, 0.42) for r in refs]}


def _timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the notes (sizes beyond the data) are expected here
        out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def _line(name, res, took, cpu, goal=10.0):
    ss = (f"{res.sample_size:,.0f} +- {res.sample_size_mc_error:,.1f}"
          if np.isfinite(res.sample_size) else "n/a")
    print(f"{name:>44}: {took:6.2f} s wall, {cpu:6.2f} s CPU (goal < {goal:g} s: "
          f"{'met' if took < goal else 'MISSED'} on wall, {'met' if cpu < goal else 'MISSED'} "
          f"on CPU); size {np.round(res.size, 3).tolist()}; power at effect 2: "
          f"{np.round(res.power[-1], 2).tolist()}; mde {np.round(res.mde, 2).tolist()}; "
          f"sample size {ss}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--segments", type=int, default=2000)
    parser.add_argument("--resamples", type=int, default=1000)
    args = parser.parse_args()
    from scipy import stats as sps

    from stats import extract_statistics
    from stats.power import corpus_power, domain_power, paired_power

    s, r = args.simulations, args.resamples
    sizes = [100, 200, 500, 1000, 2000]
    print(f"load average before: {os.getloadavg()[0]:.2f} (1 min), cores: {os.cpu_count()}")
    gen = np.random.default_rng(1)
    base = np.clip(np.rint(gen.normal(70, 18, args.segments)), 0, 100)
    syst = np.clip(base + np.rint(gen.normal(1.0, 12, args.segments)), 0, 100)
    continuous = gen.normal(0.80, 0.1, args.segments)
    cont_syst = continuous + gen.normal(0.01, 0.08, args.segments)
    cases = [
        ("t", base, syst, "integer", [0.5, 1.0, 2.0]),
        ("signed-rank", base, syst, "integer", [0.5, 1.0, 2.0]),
        ("signed-rank", continuous, cont_syst, "continuous", [0.005, 0.01, 0.02]),
        ("paired-bootstrap", base, syst, "integer", [0.5, 1.0, 2.0]),
        ("approximate-randomization", base, syst, "integer", [0.5, 1.0, 2.0]),
    ]
    for test, b, y, kind, effects in cases:
        res, took, cpu = _timed(lambda: paired_power(  # noqa: B023
            b, y, effect=effects, n=sizes, test=test, n_simulations=s, n_resamples=r, rng=0,  # noqa: B023
            sample_size=True))
        _line(f"{test} ({kind})", res, took, cpu)
        if test in ("t", "signed-rank") and kind == "integer":
            one = {"t": lambda x: sps.ttest_rel(x, np.zeros_like(x)),
                   "signed-rank": lambda x: sps.wilcoxon(x)}[test]
            d = syst - base
            t1 = time.perf_counter()
            for _ in range(20):
                one(d[gen.integers(0, d.size, 1000)])
            loop = (time.perf_counter() - t1) / 20 * s * len(sizes) * 4
            print(f"{'':>44}  (a scipy loop for the power and size alone: ~{loop:.0f} s)")
    doms = {k: (base[i::3], syst[i::3]) for i, k in enumerate(("news", "social", "speech"))}
    res, took, cpu = _timed(lambda: domain_power(
        doms, effect=[0.5, 1.0, 2.0], n=[50, 100, 200, 400, 700], n_simulations=s, rng=0,
        sample_size=True))
    _line("signed-rank by domain (3 domains)", res, took, cpu)
    refs, hyps = _text(args.segments)
    data = extract_statistics([refs], hyps)
    times = {}
    for test in ("paired-bootstrap", "approximate-randomization"):
        res, took, cpu = _timed(lambda: corpus_power(  # noqa: B023
            data, baseline="A", system="B", effect=[0.5, 1.0, 2.0], n=sizes, test=test,  # noqa: B023
            n_simulations=s, n_resamples=r, rng=0, sample_size=True))
        times[test] = (took, cpu)
        _line(f"{test} BLEU", res, took, cpu, goal=60.0)
    ratio_wall = times["approximate-randomization"][0] / times["paired-bootstrap"][0]
    ratio_cpu = times["approximate-randomization"][1] / times["paired-bootstrap"][1]
    print(f"BLEU approximate randomization / paired bootstrap: {ratio_wall:.2f}x wall, "
          f"{ratio_cpu:.2f}x CPU (goal < 2x: {'met' if ratio_cpu < 2 else 'MISSED'})")
    print(f"load average after: {os.getloadavg()[0]:.2f} (1 min)")


if __name__ == "__main__":
    main()
