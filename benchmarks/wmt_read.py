"""Read time and memory of a WMT metrics task segment-level file against ``pandas.read_csv``.

A synthetic ``*.seg.score`` of ``--rows`` rows (default 1,000,000) in the published layout
``METRIC LP TESTSET REFSET SYSTEM DOCID SEGID SCORE ENSEMBLE AVAILABLE`` (tab-separated, no
header) is written to a temporary directory, then read by
:func:`stats.readers.wmt.read_wmt_scores` and by ``pandas.read_csv`` (C parser, tab separator,
no header), each in a fresh process, alternating, ``--repeat`` times. Per process: wall and CPU
seconds of the read and the process's peak resident memory (``VmHWM`` of ``/proc/self/status``:
the interpreter, its libraries and the read; ``ru_maxrss`` would keep the parent's peak, which
a child inherits across ``exec`` on Linux). Medians and their ratios are printed against the
goals: at most 1.5x read_csv's time and 2x its memory.

    python benchmarks/wmt_read.py [--rows N] [--repeat R]
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
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._peak import PEAK_KB  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: goals: ours / read_csv's, same file, same run
TIME_GOAL, MEMORY_GOAL = 1.5, 2.0

#: imports what the statement needs, then times it; prints wall/CPU seconds and peak RSS
PROBE = PEAK_KB + """
import json, resource, sys, time
exec(sys.argv[1])
start, cpu = time.perf_counter(), time.process_time()
exec(sys.argv[2])
print(json.dumps({"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu,
                  "peak_mb": peak_kb() / 1024}))
"""


def write_file(path: str, rows: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    systems = np.array([f"System-{i}.{100 + i}" for i in range(12)])
    per_system = rows // len(systems)
    docs = np.repeat(np.arange(per_system // 20 + 1), 20)[:per_system]
    segs = np.tile(np.arange(1, 21), per_system // 20 + 1)[:per_system]
    frame = pd.DataFrame(
        {
            "metric": "sentBLEU",
            "lp": "en-de",
            "testset": "newstest2020",
            "refset": "newstest2020",
            "system": np.repeat(systems, per_system),
            "docid": np.tile([f"doc{d}.en" for d in docs], len(systems)),
            "segid": np.tile(segs, len(systems)),
            "score": rng.random(per_system * len(systems)),
            "ensemble": "non-ensemble",
            "available": "yes",
        }
    )
    frame.to_csv(path, sep="\t", header=False, index=False)


def measure(imports: str, statement: str, root: str = str(ROOT)) -> dict:
    env = {**os.environ, "PYTHONPATH": root}
    out = subprocess.run([sys.executable, "-c", PROBE, imports, statement], env=env, cwd=root,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--root", default=str(ROOT), help="the checkout whose stats/ is measured")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sentBLEU.seg.score")
        write_file(path, args.rows)
        size = os.path.getsize(path) / 2**20
        runs: dict[str, list] = {"read_csv": [], "ours": []}
        for _ in range(args.repeat):  # alternating, so a busy spell hits both
            runs["read_csv"].append(measure(
                "import pandas as pd", f"pd.read_csv({path!r}, sep='\\t', header=None)"))
            runs["ours"].append(measure(
                "from stats.readers.wmt import read_wmt_scores", f"read_wmt_scores({path!r})",
                args.root))
    med = {who: {k: statistics.median(r[k] for r in rs) for k in rs[0]} for who, rs in runs.items()}
    print(f"{args.rows:,} rows, {size:.0f} MiB; medians of {args.repeat} runs each; "
          f"load average now {os.getloadavg()[0]:.2f}")
    for who, label in (("read_csv", "pandas.read_csv"), ("ours", "read_wmt_scores")):
        m = med[who]
        print(f"  {label:16s} wall {m['wall']:6.2f} s  cpu {m['cpu']:6.2f} s  "
              f"peak {m['peak_mb']:6.0f} MB")
    ours, theirs = med["ours"], med["read_csv"]
    for what, key, goal in (("time (wall)", "wall", TIME_GOAL), ("time (cpu)", "cpu", TIME_GOAL),
                            ("memory (peak)", "peak_mb", MEMORY_GOAL)):
        ratio = ours[key] / theirs[key]
        verdict = "ok" if ratio <= goal else "OVER"
        print(f"  {what:14s} {ratio:5.2f}x read_csv's (goal <= {goal}x: {verdict})")


if __name__ == "__main__":
    main()
