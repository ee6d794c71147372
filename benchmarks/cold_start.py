"""Benchmark: the first run of each analysis in a fresh copy against the next run (CPU).

A fresh copy of ``stats/`` is made in a temporary folder (no ``__pycache__``, so no bytecode and
no numba cache; the copy's bytecode is then compiled as an installed copy's is, so that only
the kernels differ). Each analysis runs as its own process twice, first and next, and the
CPU time of each process (user + system, from ``getrusage``; imports included) is printed
with their ratio against the goal, first <= 1.2x next:

- ``installed``: the copy as the install leaves it (``stats._core.jit.precompile()``, which
  setup.py's build step runs for ``pip install -e .`` and for a wheel): the kernels' machine
  code is in numba's cache before the first run;
- ``--uncached``: also the copy without that step (what each first run paid before: the
  kernels compiled on first use), for comparison.

Analyses (small generated data, so that compiling would show): BLEU, chrF and TER statistics
with all-pairs paired bootstrap (3 systems x 60 paragraphs of ~100 words), PERM-BOTH for every
correlation (grouping none and item, scores with ties, tie-calibrated acc23 too), soft pairwise
accuracy's PERM-BOTH, and a WMT24-like task set (``rank_task_set``).

Usage::

    .venv/bin/python benchmarks/cold_start.py              # installed copy, first vs next
    .venv/bin/python benchmarks/cold_start.py --uncached   # also the copy without precompile
    .venv/bin/python benchmarks/cold_start.py --only bleu,ter
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: the goal: the first run's CPU time at most this many times the next's
GOAL = 1.2

_MT = """
import numpy as np
from stats.mt.randomized import pairwise_significance
from stats.mt.sufficient import extract_statistics
rng = np.random.default_rng(0)
vocab = np.array([f"w{i}" for i in range(3000)] + [",", "."])
refs = [" ".join(rng.choice(vocab, size=int(n))) for n in rng.integers(60, 140, 60)]
def noisy(r, rate):
    toks = r.split()
    keep = rng.random(len(toks)) >= rate
    return " ".join(t if k else str(rng.choice(vocab)) for t, k in zip(toks, keep))
hyps = {f"sys{k}": [noisy(r, 0.1 + 0.1 * k) for r in refs] for k in range(3)}
stats = extract_statistics([refs], hyps, metric="{metric}", jobs=1)
pairwise_significance(stats, test="paired-bootstrap", n_resamples=200, rng=1)
"""

_PERM_DATA = """
import numpy as np
rng = np.random.default_rng(0)
S, I = 6, 360  # grouping none: one group of 2,160 cells, the long-group kernels
gold = np.round(rng.normal(size=(S, I)) * 2) / 2
metrics = {f"m{k}": gold + rng.normal(scale=0.5 + k, size=(S, I)) for k in range(3)}
metrics["m0"] = np.round(metrics["m0"])
gold[rng.random((S, I)) < 0.02] = np.nan
metrics["m1"][1] = metrics["m1"][0]
"""

_PERM = _PERM_DATA + """
from stats.metaeval.perm_both.core import perm_both
for grouping in ("none", "item"):
    perm_both(metrics, gold, correlation="{correlation}", grouping=grouping, n_resamples=20,
              rng=1{extra})
"""

_SPA = _PERM_DATA + """
gold = np.nan_to_num(gold)
from stats.metaeval.perm_both.spa import perm_both_soft_pairwise
perm_both_soft_pairwise(metrics, gold, n_resamples=50, n_permutations=100, rng=1, jobs=1)
"""

_TASK_SET = """
import sys, tempfile
sys.path.insert(0, {root})
from stats.analyses.task_set import rank_task_set
from stats.metaeval.task_set_presets import preset
from stats.readers.meta import read_meta_eval
from tests._task_set_data import write_wmt_like
with tempfile.TemporaryDirectory() as tmp:
    base = write_wmt_like(tmp, lps=("en-de",), n_systems=5, n_items=30, seed=0)
    data = read_meta_eval(base)
    rank_task_set(data, preset("wmt24").restricted(["en-de"]), n_resamples=50, rng=1,
                  primary_only=False)
"""


def _fill(template: str, **fields: str) -> str:
    for key, value in fields.items():
        template = template.replace("{" + key + "}", value)
    return template


def analyses() -> dict[str, str]:
    """Name -> the code of one run (its own process)."""
    from stats._core.choices import CORRELATIONS  # noqa: PLC0415 (the repository's copy)

    out = {m: _fill(_MT, metric=m) for m in ("bleu", "chrf", "ter")}
    for c in CORRELATIONS:
        if c == "pairwise-accuracy":  # system level only
            code = _PERM.replace('grouping in ("none", "item")', 'grouping in ("none",)')
            out[f"perm-both {c}"] = _fill(code, correlation=c, extra=', level="sys"')
            continue
        out[f"perm-both {c}"] = _fill(_PERM, correlation=c, extra="")
        if c == "acc23":
            out["perm-both acc23 tie-calibrated"] = _fill(
                _PERM, correlation=c, extra=", tie_calibration=True"
            )
    out["soft pairwise accuracy"] = _SPA
    out["task set (WMT24)"] = _fill(_TASK_SET, root=repr(str(ROOT)))
    return out


def fresh_copy(dest: Path, *, installed: bool) -> Path:
    """``stats/`` copied without caches, bytecode compiled; with ``installed`` the kernels too."""
    shutil.copytree(
        ROOT / "stats",
        dest / "stats",
        ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "*.so"),  # no AOT build either
    )
    compileall.compile_dir(dest / "stats", quiet=1)
    if installed:
        env = _env(dest)
        t0 = time.perf_counter()
        c0 = _children_cpu()
        subprocess.run(
            [sys.executable, "-c", "from stats._core.jit import precompile; precompile(quiet=True)"],
            env=env,
            check=True,
            cwd=dest,  # the copy first on sys.path (not the checkout an editable install maps)
        )
        print(
            f"  precompile (the install's step): {time.perf_counter() - t0:.1f} s wall, "
            f"{_children_cpu() - c0:.1f} s CPU"
        )
    return dest


def _env(copy: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(copy)
    env.pop("NUMBA_CACHE_DIR", None)  # numba's cache next to the copy's sources
    env["MT_SIGNIFICANCE_CACHE"] = "off"  # the statistics computed, not read back
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    return env


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_once(code: str, copy: Path) -> float:
    """CPU seconds of one process running ``code`` on ``copy``."""
    c0 = _children_cpu()
    subprocess.run([sys.executable, "-c", code], env=_env(copy), check=True, cwd=copy)
    return _children_cpu() - c0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uncached", action="store_true", help="also time a copy without precompile")
    ap.add_argument("--only", default="", help="comma-separated substrings of analysis names")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    todo = analyses()
    if args.only:
        keys = args.only.split(",")
        todo = {k: v for k, v in todo.items() if any(s in k for s in keys)}
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (start)")
    variants = [("installed", True)] + ([("uncached", False)] if args.uncached else [])
    worst = 0.0
    for label, installed in variants:
        with tempfile.TemporaryDirectory() as tmp:
            print(f"{label} copy:")
            copy = fresh_copy(Path(tmp), installed=installed)
            for name, code in todo.items():
                first = run_once(code, copy)
                nxt = run_once(code, copy)
                ratio = first / nxt
                if installed:
                    worst = max(worst, ratio)
                goal = "ok" if ratio <= GOAL else "OVER"
                print(
                    f"  {name:32s} first {first:6.2f} s CPU, next {nxt:6.2f} s: "
                    f"{ratio:4.2f}x (goal <= {GOAL}x: {goal})"
                )
    print(f"worst first/next of the installed copy: {worst:.2f}x (goal <= {GOAL}x)")
    print(f"load average {os.getloadavg()[0]:.1f} (end)")


if __name__ == "__main__":
    main()
