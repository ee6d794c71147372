"""WMT25 AutoRank at the published size: 60 systems x 31 language pairs, ~1.4 MB per
``automatic_scores/SYSTEM.jsonl`` file (generated in the published layout by
``sample_data/make_wmt25_sample.py``, written to a temporary folder).

Times, each in a fresh process (``python -m stats autorank --scores FOLDER``, the files read
from disk, the interpreter's imports included; ``stats/`` compiled to bytecode first, as an
installed copy is), ``--repeat`` times:

* the point ranking of all 31 pairs (``--no-intervals``): goal under 3 s;
* all 31 pairs with 1,000 bootstrap resamples: goal under 30 s (``--no-bootstrap`` skips it);

the first run of each (the first process after the files are written) and the median, both
against the goal; the imports of a fresh process alone; and, in this process, the parts
(reading; point ranking; bootstrap) of one run. Wall and CPU seconds are printed with the
load average before and after each run (the machine is shared: CPU seconds are the figure a
busy machine does not inflate).

    python benchmarks/autorank.py [--systems 60] [--resamples 1000] [--repeat 3] [--no-bootstrap]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from _bytecode import precompile  # noqa: E402

from tests._wmt25_data import published_size  # noqa: E402

GOALS = {"point": 3.0, "bootstrap": 30.0}


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


#: the imports of ``python -m stats autorank`` (the CLI, the workflow, the reader, AutoRank)
IMPORTS = (
    "import stats.cli, stats.cli.autorank, stats.analyses.autorank, stats.readers.wmt25, "
    "stats.mt.automatic_ranking"
)


def run_python(args: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one fresh ``python ARGS`` process."""
    start = time.perf_counter()
    before = os.times()
    subprocess.run(
        [sys.executable, *args],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    after = os.times()
    cpu = (after.children_user - before.children_user) + (
        after.children_system - before.children_system
    )
    return time.perf_counter() - start, cpu


def run_cli(folder: str, extra: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one ``python -m stats autorank`` process."""
    return run_python(["-m", "stats", "autorank", "--scores", folder, *extra])


def verdict(x: float, goal: float) -> str:
    return f"{'meets' if x < goal else 'misses'} it ({x / goal:.2f} of the goal)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=60)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-bootstrap", action="store_true", help="time the point ranking only")
    args = parser.parse_args()
    print(precompile())
    files = published_size(args.systems)
    sizes = [len(d) for d in files.values()]
    kinds = [("point", ["--no-intervals"])]
    if not args.no_bootstrap:
        kinds.append(("bootstrap", ["--resamples", str(args.resamples)]))
    with tempfile.TemporaryDirectory() as tmp:
        for name, data in files.items():
            Path(tmp, name).write_bytes(data)
        print(
            f"{len(files)} files, {statistics.mean(sizes) / 1e6:.2f} MB each on average "
            f"({sum(sizes) / 1e6:.0f} MB), 31 language pairs; {os.cpu_count()} cores"
        )
        results: dict[str, list] = {kind: [] for kind, _ in kinds}
        for _ in range(args.repeat):
            for kind, extra in kinds:
                load0 = _load()
                wall, cpu = run_cli(tmp, extra)
                results[kind].append((wall, cpu, os.getloadavg()[0]))
                print(f"  {kind:9s} wall {wall:6.2f} s  CPU {cpu:6.2f} s  load {load0} -> {_load()}")
        for kind, rows in results.items():
            goal = GOALS[kind]
            first_wall, first_cpu, first_load = rows[0]
            print(
                f"{kind}, first run (a fresh process, imports included): wall {first_wall:.2f} s, "
                f"CPU {first_cpu:.2f} s at 1-min load {first_load:.1f}; goal {goal:g} s: wall "
                f"{verdict(first_wall, goal)}, CPU {verdict(first_cpu, goal)}"
            )
            wall = statistics.median(r[0] for r in rows)
            cpu = statistics.median(r[1] for r in rows)
            load = statistics.median(r[2] for r in rows)
            print(
                f"{kind}: median of {len(rows)} wall {wall:.2f} s, CPU {cpu:.2f} s, 1-min load "
                f"{load:.1f} on {os.cpu_count()} cores; goal {goal:g} s: wall {verdict(wall, goal)}, "
                f"CPU {verdict(cpu, goal)} (a shared machine's load inflates wall, not CPU)"
            )
        imports = [run_python(["-c", IMPORTS]) for _ in range(args.repeat)]
        print(
            f"imports alone (a fresh process: the CLI, the workflow, the reader, AutoRank; numpy, "
            f"pandas, pyarrow): median wall {statistics.median(w for w, _ in imports):.2f} s, "
            f"CPU {statistics.median(c for _, c in imports):.2f} s; load {_load()}"
        )
        # the parts, in this process
        from stats.analyses import autorank_analysis, read_autorank_scores

        load0 = _load()
        t0, c0 = time.perf_counter(), time.process_time()
        scores = read_autorank_scores([tmp])
        t1, c1 = time.perf_counter(), time.process_time()
        autorank_analysis(scores, intervals=False)
        t2, c2 = time.perf_counter(), time.process_time()
        parts = (
            f"parts (wall/CPU s): read {t1 - t0:.2f}/{c1 - c0:.2f}, point ranking of 31 pairs "
            f"{t2 - t1:.2f}/{c2 - c1:.2f}"
        )
        if not args.no_bootstrap:
            autorank_analysis(scores, n_resamples=args.resamples, rng=1)
            t3, c3 = time.perf_counter(), time.process_time()
            parts += f", with {args.resamples} resamples {t3 - t2:.2f}/{c3 - c2:.2f}"
        print(f"{parts}; load {load0} -> {_load()}")
        print(scores.read_as)


if __name__ == "__main__":
    main()
