"""Benchmark: paragraph-level MT data as WMT23 en-de (12 systems x 557 segments of ~100 words).

Generated, seeded data written with WMT23's file names (``generaltest2023.en-de.hyp.X.de``).
Two comparisons, each on the same files in the same run:

1. **BLEU + chrF, whole processes, statistics cache off**: ``python -m stats randomized --metric bleu
   chrf`` (all pairs, plus the systems table against the first system, 1,000 resamples) against
   ``sacrebleu REF -i SYS... -m bleu chrf --paired-bs`` (its 11 baseline pairs, 1,000
   resamples), alternating, ``--repeat`` times each (medians; a shared machine's load moves
   single runs by tens of percent). Goal: at most 0.08x. Before timing, ``stats/``
   is compiled to bytecode (:mod:`_bytecode`: an installed copy has its bytecode, as
   sacrebleu's has), and one untimed process loads the compiled n-gram kernel (the build
   compiled ahead of time at install, else numba's cached one), as an installed copy's is
   after its first use; the output says how long that took. The statistics cache is off
   (``MT_SIGNIFICANCE_CACHE=off``): the work is timed, not a cache hit. ``--also DIR`` times
   another checkout's ``python -m stats randomized`` (e.g. the code before a change) in the
   same alternation, on the same files, so before and after come from one run.
2. **TER extraction** (the statistics sacreBLEU computes, checked equal): the compiled TER
   (``extract_statistics(metric="ter")``, cold cache) on 1 and 2 cores against sacreBLEU's
   ``TER._extract_corpus_statistics``. sacreBLEU needs minutes per system on paragraphs, so it
   runs on ``--ter-systems`` systems x ``--ter-segments`` segments (the same subset for both;
   ours is also timed on the whole corpus). Goals: at least 10x on one core, 18x with 2.

Usage::

    .venv/bin/python benchmarks/mt_paragraphs.py
    .venv/bin/python benchmarks/mt_paragraphs.py --systems 4 --segments 100 --ter-segments 20
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sacrebleu.metrics import TER  # noqa: E402

from stats.mt.sufficient import extract_statistics  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))  # benchmarks/: _bytecode
from _bytecode import precompile  # noqa: E402

#: loads (or, the first time ever, compiles and caches) the compiled n-gram kernel, and
#: prints which one runs: the build compiled ahead of time at install, or numba's (a build
#: older than the kernel's source is not used, and loading numba costs a few tenths of a second)
WARM_KERNEL = (
    "import numpy as np; from stats.mt._ngrams_numba import order_matches, _aot_kernel; "
    "order_matches(np.arange(4), np.array([2, 2]), 4, 4, np.array([1]), np.array([0])); "
    "print('ahead-of-time build' if _aot_kernel() is not None else "
    "'numba (no current ahead-of-time build: pip install -e . builds it)', end='')"
)

#: the goal: ours (all pairs + table) over sacrebleu --paired-bs, wall, same run
GOAL = 0.08

PUNCT = [",", ".", ";", ":", "?", "!", "–", "„", "“"]


def make_corpus(n_systems: int, n_segments: int, seed: int = 0):
    """A reference of ~100-word paragraphs (pseudo-German words, punctuation) and systems of
    graded quality: substituted words, dropped and inserted words, and moved blocks."""
    rng = np.random.default_rng(seed)
    vocab = np.array([f"wort{i}" for i in range(5000)] + PUNCT)
    probs = 1.0 / np.arange(1, len(vocab) + 1) ** 1.05
    probs /= probs.sum()
    lengths = np.clip(rng.normal(100, 25, n_segments).astype(int), 30, 200)
    refs = [list(rng.choice(vocab, size=n, p=probs)) for n in lengths]
    systems = {}
    for k in range(n_systems):
        rate = 0.1 + 0.3 * k / max(n_systems - 1, 1)
        out = []
        for toks in refs:
            toks = list(
                np.where(
                    rng.random(len(toks)) < rate, rng.choice(vocab, size=len(toks), p=probs), toks
                )
            )
            for _ in range(rng.poisson(3)):  # reordered phrases: what TER's shifts find
                a = int(rng.integers(0, len(toks)))
                block = toks[a : a + int(rng.integers(2, 7))]
                del toks[a : a + len(block)]
                at = int(rng.integers(0, len(toks) + 1))
                toks[at:at] = block
            out.append(" ".join(toks))
        systems[f"SYS-{k:02d}"] = out
    return [" ".join(t) for t in refs], systems


def write(directory: Path, ref, systems):
    ref_path = directory / "generaltest2023.en-de.ref.refA.de"
    ref_path.write_text("\n".join(ref) + "\n", encoding="utf-8")
    hyps = []
    for name, lines in systems.items():
        path = directory / f"generaltest2023.en-de.hyp.{name}.de"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        hyps.append(path)
    return ref_path, hyps


def run(cmd, env, cwd=ROOT, out=False):
    """Wall time and CPU time (user + system, the process and its children) of ``cmd``, and
    with ``out`` what it printed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=cwd)
    took = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(map(str, cmd[:4]))} ... failed: {done.stderr[-500:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return (took, cpu, done.stdout) if out else (took, cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", type=int, default=12)
    ap.add_argument("--segments", type=int, default=557)
    ap.add_argument("--ter-systems", type=int, default=1)
    ap.add_argument("--ter-segments", type=int, default=60)
    ap.add_argument("--no-ter", action="store_true", help="only the BLEU+chrF comparison")
    ap.add_argument("--repeat", type=int, default=3, help="alternating BLEU+chrF runs of each")
    ap.add_argument(
        "--also",
        type=Path,
        default=None,
        help="another checkout whose `python -m stats randomized` is timed too",
    )
    args = ap.parse_args()
    print(
        f"# {platform.python_version()} on {platform.machine()}, {os.cpu_count()} cores; "
        f"{args.systems} systems x {args.segments} paragraphs of ~100 words; load average "
        f"{os.getloadavg()[0]:.2f}"
    )
    print(precompile())
    for root in [ROOT] if args.also is None else [ROOT, args.also.resolve()]:
        took, _, which = run(
            [sys.executable, "-c", WARM_KERNEL],
            dict(os.environ, PYTHONPATH=str(root)),
            cwd=root,
            out=True,
        )
        why = "over 2 s: compiled (first run since install), or a loaded machine"
        print(
            f"{root}: one untimed process loaded the n-gram kernel in {took:.1f} s "
            f"({why if took > 2 else 'cache was warm'}); it runs {which}"
        )
    ref, systems = make_corpus(args.systems, args.segments)
    py = sys.executable
    sacrebleu_cli = str(Path(py).with_name("sacrebleu"))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        ref_path, hyps = write(tmp, ref, systems)
        env = dict(os.environ, MT_SIGNIFICANCE_CACHE="off")
        # --- 1. BLEU + chrF, whole processes, statistics cache off, alternating ---
        ours_cmd = [
            py,
            "-m",
            "stats",
            "randomized",
            "--ref",
            str(ref_path),
            "--hyp",
            *map(str, hyps),
            "--metric",
            "bleu",
            "chrf",
            "--resamples",
            "1000",
        ]
        theirs_cmd = [
            sacrebleu_cli,
            str(ref_path),
            "-i",
            *map(str, hyps),
            "-m",
            "bleu",
            "chrf",
            "--paired-bs",
            "--paired-bs-n",
            "1000",
            "-f",
            "text",
        ]
        times: dict[str, list[tuple[float, float]]] = {"ours": [], "theirs": [], "also": []}
        also_env = None
        if args.also is not None:
            also_env = dict(env, PYTHONPATH=str(args.also.resolve()))
        for _ in range(args.repeat):
            times["ours"].append(run(ours_cmd, dict(env, PYTHONPATH=str(ROOT))))
            times["theirs"].append(run(theirs_cmd, env))
            if also_env is not None:
                times["also"].append(run(ours_cmd, also_env, cwd=args.also.resolve()))
        (ours, ours_cpu), (theirs, theirs_cpu) = (
            tuple(statistics.median(x) for x in zip(*times[k], strict=True))
            for k in ("ours", "theirs")
        )
        runs = "; ".join(
            f"{o[0]:.2f}/{t[0]:.2f}" for o, t in zip(times["ours"], times["theirs"], strict=True)
        )
        print(
            f"BLEU+chrF, all {args.systems * (args.systems - 1) // 2} pairs + table, medians of "
            f"{args.repeat} alternating runs: ours {ours:.2f} s; sacrebleu --paired-bs "
            f"({args.systems - 1} pairs) {theirs:.2f} s; ratio {ours / theirs:.3f}x (goal <= "
            f"{GOAL}x: {'MET' if ours <= GOAL * theirs else 'NOT MET'}); CPU time {ours_cpu:.2f} s "
            f"vs {theirs_cpu:.2f} s: {ours_cpu / theirs_cpu:.3f}x (wall, ours/theirs, run by "
            f"run: {runs}); load average now {os.getloadavg()[0]:.2f}"
        )
        if times["also"]:
            also, also_cpu = (statistics.median(x) for x in zip(*times["also"], strict=True))
            print(
                f"  {args.also} in the same alternation: {also:.2f} s, ratio "
                f"{also / theirs:.3f}x; CPU time {also_cpu:.2f} s: {also_cpu / theirs_cpu:.3f}x "
                f"(run by run: {'; '.join(f'{a[0]:.2f}' for a in times['also'])})"
            )
    if args.no_ter:
        return
    # --- 2. TER extraction ---
    names = list(systems)[: args.ter_systems]
    sub_ref = [ref[: args.ter_segments]]
    sub = {n: systems[n][: args.ter_segments] for n in names}
    os.environ["MT_SIGNIFICANCE_CACHE"] = "off"
    warm = {n: v[:2] for n, v in sub.items()}
    extract_statistics([sub_ref[0][:2]], warm, metric="ter", jobs=1)  # load the kernel first
    t0 = time.perf_counter()
    want = [
        np.array(TER()._extract_corpus_statistics(v, sub_ref), dtype=float) for v in sub.values()
    ]
    t_sacre = time.perf_counter() - t0
    for jobs in (1, 2):
        t0 = time.perf_counter()
        got = extract_statistics(sub_ref, sub, metric="ter", jobs=jobs)
        took = time.perf_counter() - t0
        same = all(np.array_equal(g, w) for g, w in zip(got.stats, want, strict=True))
        print(
            f"TER, {len(sub)} x {args.ter_segments} paragraphs, {jobs} core(s): ours "
            f"{took:.3f} s, sacreBLEU {t_sacre:.1f} s (1 core): {t_sacre / took:.0f}x "
            f"(goal {10 if jobs == 1 else 18}x); identical statistics: {same}"
        )
    t0 = time.perf_counter()
    extract_statistics([ref], systems, metric="ter", jobs=2)
    full = time.perf_counter() - t0
    per = t_sacre / (len(sub) * args.ter_segments) * len(systems) * len(ref)
    print(
        f"TER, all {len(systems)} x {len(ref)} paragraphs, 2 cores, cold: ours {full:.1f} s "
        f"(sacreBLEU extrapolated from the subset: about {per:.0f} s on 1 core)"
    )


if __name__ == "__main__":
    main()
