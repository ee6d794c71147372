"""Benchmark: start-up of ``python -m stats`` (whole processes, interpreter included).

Times ``python -m stats --help``, ``python -m stats SUBCOMMAND --help`` for every subcommand
and a bare ``python -c pass`` (the interpreter's own floor), each the median of ``--repeat``
runs, and ``import stats`` followed by the first heavy use (``import stats; stats.williams_test``)
for comparison. Goal: every ``--help`` under 0.5 s.

Usage::

    .venv/bin/python benchmarks/cli_startup.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _bytecode import precompile

ROOT = Path(__file__).resolve().parents[1]
SUBCOMMANDS = ("williams", "qe", "randomized", "accuracy", "meta-eval")
GOAL = 0.5


def _seconds(argv: list[str], repeat: int) -> float:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(argv, env=env, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    py = sys.executable
    cases = [
        ("python -c pass", [py, "-c", "pass"]),
        ("python -m stats --help", [py, "-m", "stats", "--help"]),
        *((f"python -m stats {c} --help", [py, "-m", "stats", c, "--help"]) for c in SUBCOMMANDS),
        ("import stats; stats.williams_test", [py, "-c", "import stats; stats.williams_test"]),
    ]
    print(f"load average {os.getloadavg()[0]:.2f}; median of {args.repeat} runs")
    print(precompile())
    worst = 0.0
    for label, argv in cases:
        sec = _seconds(argv, args.repeat)
        if "--help" in argv:
            worst = max(worst, sec)
        print(f"{sec:7.3f} s  {label}")
    print(f"slowest --help {worst:.3f} s: {'within' if worst < GOAL else 'over'} the {GOAL} s goal")


if __name__ == "__main__":
    main()
