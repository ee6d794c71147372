"""Benchmark: Williams tests for all pairs of 200 metrics over 1,000 items (goal: < 0.1 s).

    .venv/bin/python benchmarks/williams_all_pairs.py [--metrics 200] [--items 1000] [--repeat 5]

Prints the best-of-``repeat`` wall time of :func:`stats.metaeval.williams.williams_all_pairs` (the
correlations included), and for comparison, on the same data in the same process:

* a Python loop over pairs calling :func:`stats.metaeval.williams.williams_test` once per pair (what a
  straightforward port would do), and
* the reference approach of Graham & Baldwin's R tool, a loop over pairs calling
  ``psych::r.test`` (timed inside one ``Rscript`` process on the same correlations; skipped
  when Rscript or psych is missing).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from stats.metaeval.williams import williams_all_pairs, williams_test


def make_data(n_metrics: int, n_items: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    human = rng.normal(size=n_items)
    quality = rng.uniform(0.2, 0.9, n_metrics)
    noise = rng.normal(size=(n_items, n_metrics))
    x = human[:, None] * quality + noise * np.sqrt(1 - quality**2)
    x[:, ::7] *= -1  # some error metrics
    return pd.DataFrame(x, columns=[f"m{i:03d}" for i in range(n_metrics)]), human


def best_of(fn, repeat):
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times)


def loop_over_pairs(scores, human):
    """Reference-style: one scalar test per ordered pair (correlations computed once)."""
    x = scores.to_numpy()
    r = np.array([np.corrcoef(x[:, j], human)[0, 1] for j in range(x.shape[1])])
    sign = np.where(r < 0, -1.0, 1.0)
    xa = x * sign
    ra = r * sign
    corr = np.corrcoef(xa, rowvar=False)
    out = np.full((x.shape[1], x.shape[1]), np.nan)
    for i in range(x.shape[1]):
        for j in range(x.shape[1]):
            if ra[i] > ra[j]:
                out[i, j] = williams_test(
                    r_a_b=corr[i, j], r_human_a=ra[i], r_human_b=ra[j], n=len(human)
                ).pvalue
    return out


def r_psych_loop(scores, human):
    if shutil.which("Rscript") is None:
        return None, "Rscript not installed"
    x = scores.to_numpy()
    r = np.array([np.corrcoef(x[:, j], human)[0, 1] for j in range(x.shape[1])])
    sign = np.where(r < 0, -1.0, 1.0)
    ra = r * sign
    corr = np.corrcoef(x * sign, rowvar=False)
    with tempfile.TemporaryDirectory() as tmp:
        np.savetxt(Path(tmp) / "r.txt", ra)
        np.savetxt(Path(tmp) / "c.txt", corr)
        script = f"""
suppressMessages(library(psych))
r <- scan('{tmp}/r.txt', quiet=TRUE); C <- as.matrix(read.table('{tmp}/c.txt'))
n <- {len(human)}; m <- length(r); P <- matrix(NA, m, m)
t0 <- proc.time()[['elapsed']]
for (i in 1:m) for (j in 1:m) if (r[i] > r[j])
  P[i, j] <- r.test(n = n, r12 = r[i], r13 = r[j], r23 = C[i, j], twotailed = FALSE)$p
cat(proc.time()[['elapsed']] - t0, '\\n')
"""
        proc = subprocess.run(["Rscript", "-e", script], capture_output=True, text=True)
    if proc.returncode != 0:
        return None, proc.stderr.strip().splitlines()[-1] if proc.stderr else "R failed"
    return float(proc.stdout.split()[-1]), None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--metrics", type=int, default=200)
    ap.add_argument("--items", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--skip-loops", action="store_true", help="time only williams_all_pairs")
    args = ap.parse_args(argv)

    scores, human = make_data(args.metrics, args.items)
    pairs = args.metrics * (args.metrics - 1) // 2
    warnings.simplefilter("ignore")
    williams_all_pairs(scores, human)  # warm-up (imports, caches)
    t_vec = best_of(lambda: williams_all_pairs(scores, human), args.repeat)
    print(f"data: {args.metrics} metrics x {args.items} items = {pairs} pairs")
    verdict = "OK" if t_vec < 0.1 else "SLOWER than goal"
    print(f"williams_all_pairs (vectorised):      {t_vec:.4f} s  (goal < 0.1 s: {verdict})")
    if args.skip_loops:
        return
    t_loop = best_of(lambda: loop_over_pairs(scores, human), 1)
    res = williams_all_pairs(scores, human)
    ref = loop_over_pairs(scores[list(res.order)], human)
    agree = np.allclose(res.pvalue.to_numpy(), ref, equal_nan=True, rtol=1e-9)
    print(
        f"python loop over pairs (williams_test): {t_loop:.4f} s  ratio {t_loop / t_vec:.0f}x"
        f"  (same p-values: {agree})"
    )
    t_r, why = r_psych_loop(scores, human)
    if t_r is None:
        print(f"R loop over pairs (psych::r.test):      skipped ({why})")
    else:
        print(f"R loop over pairs (psych::r.test):      {t_r:.4f} s  ratio {t_r / t_vec:.0f}x")


if __name__ == "__main__":
    main()
