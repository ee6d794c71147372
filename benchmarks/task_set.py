"""Benchmark: a WMT24-like task set end to end (``python -m stats rank``'s workflow).

    .venv/bin/python benchmarks/task_set.py [--lps 3] [--systems 15] [--items 1500]
        [--metrics 20] [--resamples 1000] [--scheduler local:2] [--max-work W]

Synthetic data in MTME's layout (tests/_task_set_data.py: MQM-like gold with ties and missing
scores, metrics against two references and the source, a second human translation): the
WMT24 task list (per language pair: system-level soft pairwise accuracy and segment-level
tie-calibrated acc23 by item, uniform weights; mt-metrics-eval tasks.py ``WMT24``). Where this
version has no PERM-BOTH draws for soft pairwise accuracy, the system-level task is Pearson,
and the script says so. Prints reading, running and total wall time; with ``--scheduler``, the
same run on Dask and the speed-up (and checks that both give the same average and p-values).
The full size runs within the library's default work budget (``stats._core.budget.MAX_WORK``, as
``python -m stats rank`` has it); ``--max-work`` raises it for bigger runs (more language pairs,
metrics or resamples per piece), on Dask workers too, and says so.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

# as the CLI (stats.cli.main): BLAS at one thread unless the environment says otherwise
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from stats._core import budget as _budget  # noqa: E402
from stats._core.errors import StatsInputError  # noqa: E402
from stats.analyses.task_set import rank_task_set  # noqa: E402
from stats.metaeval.task_set_presets import preset  # noqa: E402
from stats.metaeval.task_sets import Task, TaskSet  # noqa: E402
from stats.readers.meta import read_meta_eval  # noqa: E402
from tests._task_set_data import write_wmt_like  # noqa: E402

LPS = ("en-de", "en-es", "ja-zh", "en-cs", "en-zh")
_MAX_WORK_ENV = "MTS_BENCHMARK_MAX_WORK"


def dask_setup(worker) -> None:
    """Dask preload (the ``--scheduler`` run): the workers get the same work budget."""
    if _MAX_WORK_ENV in os.environ:
        _budget.MAX_WORK = float(os.environ[_MAX_WORK_ENV])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lps", type=int, default=3)
    ap.add_argument("--systems", type=int, default=15)
    ap.add_argument("--items", type=int, default=1500)
    ap.add_argument("--metrics", type=int, default=20)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--scheduler", default=None)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-work", type=float, default=None)
    args = ap.parse_args()
    if args.max_work is not None and args.max_work > _budget.MAX_WORK:
        print(f"note: work budget raised from {_budget.MAX_WORK:.3g} to {args.max_work:.3g}")
        _budget.MAX_WORK = args.max_work
        os.environ[_MAX_WORK_ENV] = repr(args.max_work)
        if args.scheduler:
            import dask  # noqa: PLC0415 (only with --scheduler)

            dask.config.set({"distributed.worker.preload": [str(Path(__file__).resolve())]})
    lps = LPS[: args.lps]
    noise = np.linspace(0.5, 2.0, max(1, args.metrics - 1))
    metrics = {f"metric{k:02d}": float(s) for k, s in enumerate(noise)}
    with tempfile.TemporaryDirectory() as tmp:
        base = write_wmt_like(
            tmp,
            lps=lps,
            n_systems=args.systems,
            n_items=args.items,
            seed=args.seed,
            metrics=metrics,
        )
        t0 = time.perf_counter()
        data = read_meta_eval(base)
        t_read = time.perf_counter() - t0
        ts = preset("wmt24").restricted(lps) if set(lps) <= {"en-de", "en-es", "ja-zh"} else None
        tasks = []
        for lp in lps:
            tasks += [
                Task(lp=lp, level="sys", correlation="soft-pairwise-accuracy"),
                Task(
                    lp=lp, level="seg", correlation="acc23", grouping="item", tie_calibration=True
                ),
            ]
        ts = ts or TaskSet.from_tasks(tasks, name="wmt24-like", test_set="wmt24")
        label = "WMT24 task list"

        def run(scheduler):
            return rank_task_set(
                data,
                ts,
                n_resamples=args.resamples,
                rng=args.seed,
                primary_only=False,
                scheduler=scheduler,
            )

        try:
            t0, c0 = time.perf_counter(), time.process_time()
            res = run(None)
        except StatsInputError as exc:
            if "soft pairwise" not in str(exc):
                raise
            print(f"note: {exc}; the system-level tasks are Pearson instead")
            tasks = [
                Task(lp=t.lp, level="sys", correlation="pearson") if t.level == "sys" else t
                for t in ts.tasks
            ]
            ts = TaskSet.from_tasks(tasks, name="wmt24-like", test_set="wmt24")
            label = "WMT24 task list with system-level Pearson"
            t0, c0 = time.perf_counter(), time.process_time()
            res = run(None)
        t_run, c_run = time.perf_counter() - t0, time.process_time() - c0
        n_m = len(res.statistic)
        print(
            f"{label}: {len(ts.tasks)} tasks over {len(lps)} lps, {args.systems} systems x "
            f"{args.items} segments x {n_m} metrics ({n_m * (n_m - 1) // 2} pairs), "
            f"{args.resamples} resamples"
        )
        print(
            f"read: {t_read:.2f} s; run (one process): {t_run:.1f} s wall, {c_run:.1f} s CPU; "
            f"total {t_read + t_run:.1f} s; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
        )
        if args.scheduler:
            t0 = time.perf_counter()
            other = run(args.scheduler)
            t_dask = time.perf_counter() - t0
            same = other.statistic.equals(res.statistic) and other.pvalue.equals(res.pvalue)
            print(
                f"run on {args.scheduler}: {t_dask:.1f} s (cluster start included); "
                f"speed-up x{t_run / t_dask:.2f}; same result: {same}"
            )
        print(
            "top 3:",
            ", ".join(
                f"{m} {v:.4f} (cluster {res.rank[m]})" for m, v in res.statistic.head(3).items()
            ),
        )


if __name__ == "__main__":
    main()
