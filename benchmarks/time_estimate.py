"""Benchmark: the time estimate of ``--max-seconds`` (``stats._core.budget``) against runs.

    .venv/bin/python benchmarks/time_estimate.py [--resamples 1000] [--only NAME ...]

Runs a few command-line workloads in this process, as ``python -m stats`` runs them (inside
:func:`stats.time_bounded`), records the work each budget check counted, and prints per
workload: the operations counted, the estimate (operations / the rate of its kind,
:data:`stats._core.budget.OPERATIONS_PER_SECOND` and ``RATE_FACTOR``), the wall and CPU
seconds, the operations per CPU second measured and the ratio estimate / wall. The workloads:
the 3-pair task set (15 systems x 1,500 segments x 20 metrics, a system-level
Pearson and a segment-level Kendall-by-item task per pair; ``rank``), PERM-BOTH over one
language pair (``meta-eval``), paired bootstrap and approximate randomization on 16 systems x
2,000 segment scores (``randomized``). Wall time depends on the machine's load: the script
prints the load average before and after.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import sys
import tempfile
import time
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from stats._core import budget  # noqa: E402
from stats.cli import main  # noqa: E402
from tests._task_set_data import write_wmt_like  # noqa: E402


def _scores(path: Path, n_systems: int = 16, n_segments: int = 2000) -> Path:
    rng = np.random.default_rng(5)
    quality = rng.normal(0, 0.02, n_systems)
    rows = ["SEGMENT\t" + "\t".join(f"sys{k}" for k in range(n_systems))]
    values = rng.uniform(0.3, 0.9, (n_segments, 1)) + quality + rng.normal(0, 0.1, (n_segments, n_systems))
    rows += [f"{j + 1}\t" + "\t".join(f"{v:.4f}" for v in row) for j, row in enumerate(values)]
    path.write_text("\n".join(rows) + "\n")
    return path


def workloads(root: Path, resamples: int) -> dict[str, list[str]]:
    noise = np.linspace(0.5, 2.0, 19)
    metrics = {f"metric{k:02d}": float(s) for k, s in enumerate(noise)}
    wmt = write_wmt_like(root / "wmt", lps=("en-de", "en-es", "ja-zh"), n_systems=15,
                         n_items=1500, seed=46, metrics=metrics, testset="wmt24-size")
    scores = _scores(root / "scores.tsv")
    r = str(resamples)
    return {
        "rank 3-pair task set": ["rank", "--data", str(wmt), "--task-set", "per-lp",
                                 "--all-metrics", "--resamples", r, "--quiet"],
        "meta-eval PERM-BOTH seg, 1 pair": ["meta-eval", "--data", str(wmt), "--lp", "en-de",
                                            "--level", "seg", "--correlation", "pearson",
                                            "--test", "perm-both",
                                            "--resamples", r, "--quiet"],
        "randomized paired-bootstrap 16x2000": ["randomized", "--scores", str(scores),
                                                "--test", "paired-bootstrap", "--resamples", r,
                                                "--quiet"],
        "randomized approximate-randomization 16x2000": [
            "randomized", "--scores", str(scores), "--test", "approximate-randomization",
            "--resamples", r, "--quiet"],
    }  # fmt: skip


def measure(argv: list[str]) -> dict:
    """Run ``argv`` once; the work the budget checks counted, the estimate, wall and CPU s."""
    seen: list[float] = []
    original = budget._over_time

    def record(what, given, work, per_resample, fixed=0.0, extra=0):
        seen.append(float(work))
        return original(what, given, work, per_resample, fixed, extra)

    budget._over_time = record
    try:
        out, err = io.StringIO(), io.StringIO()
        wall, cpu = time.perf_counter(), time.process_time()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(argv)
            except SystemExit as exc:  # argparse: a usage error
                code = exc.code
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        budget._over_time = original
    if code != 0:
        raise SystemExit(f"{argv[0]} failed: {err.getvalue().strip()}")
    # a run checks its whole work once (task sets) or each piece: the largest is the run's
    # when one check covers the whole, else their sum
    work = max(seen) if argv[0] == "rank" else sum(seen)
    return {"work": work, "estimate": budget.estimated_seconds(work), "wall": wall, "cpu": cpu}


def main_(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args(argv)
    print(f"load average before: {os.getloadavg()}, {os.cpu_count()} CPUs")
    print(f"rate: {budget.OPERATIONS_PER_SECOND:.3g} operations/s")
    with tempfile.TemporaryDirectory() as tmp:
        jobs = workloads(Path(tmp), args.resamples)
        for name, cmd in jobs.items():
            if args.only and not any(o in name for o in args.only):
                continue
            m = measure(cmd)
            print(
                f"{name}: {m['work']:.3g} operations, estimate {m['estimate']:.1f} s, "
                f"wall {m['wall']:.1f} s, CPU {m['cpu']:.1f} s, "
                f"{m['work'] / max(m['cpu'], 1e-9):.3g} operations per CPU s, "
                f"estimate/wall {m['estimate'] / m['wall']:.2f}, "
                f"estimate/CPU {m['estimate'] / max(m['cpu'], 1e-9):.2f}",
                flush=True,
            )
    print(f"load average after: {os.getloadavg()}")


if __name__ == "__main__":
    main_()
