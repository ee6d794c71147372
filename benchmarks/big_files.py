"""Benchmark: a paired bootstrap over a big segment-score file against reading it with
``pandas.read_csv`` alone.

Writes a long ``SYSTEM SEGMENT SCORE`` file (tab-separated; 20 systems x 50,000 segments =
1,000,000 rows, and 20 x 250,000 = 5,000,000 rows), then runs, each as a separate process:

- ``pandas.read_csv(FILE, sep="\\t")`` (the floor: parsing the file into a DataFrame);
- ``python -m stats randomized --scores FILE --test paired-bootstrap --resamples 200`` for all
  190 pairs (reading, checks, resampling, output).

Reported per process: wall seconds, CPU seconds (user + system: the fairer figure on a shared
machine) and peak memory (``resource.getrusage(RUSAGE_SELF).ru_maxrss`` at exit), and the
ratios ours / read_csv. Goal at 1M rows: within 3x the time and 3x the peak memory.

Usage::

    .venv/bin/python benchmarks/big_files.py [--rows 1000000 5000000] [--resamples 200] [--jobs N]
        [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from _bytecode import precompile

ROOT = Path(__file__).resolve().parents[1]
SYSTEMS = 20

#: runs a statement in a fresh interpreter and prints wall/CPU seconds and peak RSS as JSON
PROBE = """
import json, resource, sys, time
start, cpu = time.perf_counter(), time.process_time()
code = 0
try:
    exec(sys.argv[1])
except SystemExit as exc:
    code = exc.code
usage = resource.getrusage(resource.RUSAGE_SELF)
print(json.dumps({"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu,
                  "peak_mb": usage.ru_maxrss / 1024, "exit": code}), file=sys.stderr)
"""


def write_file(path: Path, rows: int, seed: int = 0) -> None:
    segments = rows // SYSTEMS
    rng = np.random.default_rng(seed)
    with path.open("w") as f:
        f.write("SYSTEM\tSEGMENT\tSCORE\n")
        for s in range(SYSTEMS):  # one system at a time: bounded memory
            scores = np.round(rng.normal(0.5 + 0.01 * s, 0.2, segments), 6)
            f.writelines(f"system-{s:02d}\tseg{i}\t{v!r}\n"
                         for i, v in enumerate(scores.tolist(), start=1))


def measure(statement: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", PROBE, statement], env=env, cwd=ROOT,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=True)
    lines = out.stderr.strip().splitlines()
    result = json.loads(lines[-1])
    if result.pop("exit") not in (0, None):  # a run that stopped on an error measures nothing
        raise SystemExit(f"benchmark run failed: {' '.join(lines[:-1])}")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, nargs="+", default=[1_000_000, 5_000_000])
    parser.add_argument("--resamples", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=None)
    parser.add_argument("--repeat", type=int, default=3,
                        help="runs of each process, alternating; medians are reported")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; {os.cpu_count()} cores")
    print(precompile())
    with tempfile.TemporaryDirectory() as tmp:
        for rows in args.rows:
            path = Path(tmp) / f"scores_{rows}.tsv"
            write_file(path, rows)
            size = path.stat().st_size / 2**20
            argv = ["randomized", "--scores", str(path), "--test", "paired-bootstrap",
                    "--resamples", str(args.resamples), "--seed", "1", "--format", "tsv"]
            if args.jobs:
                argv += ["--jobs", str(args.jobs)]
            runs = {"floor": [], "ours": []}
            for _ in range(args.repeat):  # alternating, so a busy spell hits both
                runs["floor"].append(
                    measure(f"import pandas as pd; pd.read_csv({str(path)!r}, sep='\\t')"))
                runs["ours"].append(measure(f"from stats.cli import main; main({argv!r})"))
            floor, ours = (
                {k: statistics.median(r[k] for r in runs[who]) for k in runs[who][0]}
                for who in ("floor", "ours")
            )
            print(f"\n{rows:,} rows ({rows // SYSTEMS:,} segments x {SYSTEMS} systems), "
                  f"{size:.0f} MiB; medians of {args.repeat} runs each")
            for label, m in (("pandas.read_csv", floor), ("paired bootstrap", ours)):
                print(f"  {label:17s} wall {m['wall']:6.2f} s  cpu {m['cpu']:6.2f} s  "
                      f"peak {m['peak_mb']:7.0f} MB")
            print(f"  ratio             wall {ours['wall'] / floor['wall']:5.2f}x  "
                  f"cpu {ours['cpu'] / floor['cpu']:5.2f}x  "
                  f"peak {ours['peak_mb'] / floor['peak_mb']:5.2f}x  (goal: 3x)")


if __name__ == "__main__":
    main()
