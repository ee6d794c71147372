"""Benchmark: all-pairs randomized tests (stats.mt.randomized) vs sacrebleu's PairedTest.

Same data, one process. A synthetic corpus of N systems x M segments (default 20 x 2,000;
8 x 500 for TER, whose extraction is slow) is scored with BLEU, chrF and TER. We run paired
bootstrap (1,000 resamples) and approximate randomization (10,000 trials) for all N(N-1)/2
pairs; sacrebleu's ``PairedTest`` runs its N-1 comparisons against a baseline (its only mode).
Both timings include everything from the strings onwards (reference caching,
sufficient-statistics extraction, resampling, scoring). The statistics extraction alone is
also timed against sacrebleu's own ``_extract_corpus_statistics`` (the arrays must be equal),
and for TER a second extraction from the on-disk cache.

Goals (the statistics cache off for the timed extraction): ours for all pairs at
most 0.07x sacrebleu's time with the paired bootstrap and 0.04x with AR; TER extraction at
least 1.8x faster than sacrebleu's on 2 cores. Each ratio is printed with the load average
at the time (a shared machine: ratios of wall times move with it).

With ``--cli`` the two command-line tools are also timed end to end as separate processes
(interpreter start-up and imports included): ``python -m stats randomized`` for all pairs against
``sacrebleu REF -i SYS... --paired-bs/--paired-ar`` (first system = baseline), on the same files.

Usage::

    .venv/bin/python benchmarks/randomized_vs_sacrebleu.py            # full size
    .venv/bin/python benchmarks/randomized_vs_sacrebleu.py --cli      # + both CLIs
    .venv/bin/python benchmarks/randomized_vs_sacrebleu.py --systems 4 --segments 200 \\
        --ter-systems 3 --ter-segments 100 --bs 100 --ar 500          # quick check
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import sacrebleu  # noqa: E402
from _bytecode import precompile  # noqa: E402  (benchmarks/, the script's own folder)
from sacrebleu.significance import PairedTest  # noqa: E402

from stats.mt.randomized import pairwise_significance  # noqa: E402
from stats.mt.sufficient import extract_statistics  # noqa: E402


def make_corpus(n_systems: int, n_segments: int, seed: int = 0):
    """Reference and systems of graded quality (token noise), pseudo-words, seeded."""
    rng = np.random.default_rng(seed)
    vocab = np.array([f"w{i}" for i in range(3000)])
    probs = 1.0 / np.arange(1, len(vocab) + 1) ** 1.05
    probs /= probs.sum()
    lengths = np.clip(rng.gamma(4.0, 5.0, n_segments).astype(int), 3, 60)
    ref_toks = [list(rng.choice(vocab, size=n, p=probs)) for n in lengths]
    refs = [" ".join(t) + "." for t in ref_toks]  # detokenized: final period attached
    systems = {}
    for k in range(n_systems):
        rate = 0.15 + 0.35 * k / max(n_systems - 1, 1)
        out = []
        for toks in ref_toks:
            keep = rng.random(len(toks)) >= rate
            sub = rng.choice(vocab, size=len(toks), p=probs)
            out.append(" ".join(np.where(keep, toks, sub)) + ".")
        systems[f"sys{k:02d}"] = out
    return [refs], systems


def timed(fn):
    t0 = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t0


def cpu_timed(fn):
    """``(result, wall seconds, CPU seconds of this process and its finished children)``."""
    c0 = os.times()
    out, wall = timed(fn)
    c1 = os.times()
    cpu = sum(c1[i] - c0[i] for i in range(4))
    return out, wall, cpu


#: the goals: ours (all pairs) over sacrebleu's time (its baseline pairs), same run
GOAL_BS = 0.07
GOAL_AR = 0.04


def _load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


SACREBLEU = {"bleu": sacrebleu.BLEU, "chrf": sacrebleu.CHRF, "ter": sacrebleu.TER}
LABEL = {"bleu": "BLEU", "chrf": "chrF2", "ter": "TER"}


def compare_extraction(metric, refs, systems, jobs, repeat=1):
    """Statistics extraction: ours (cold cache, then warm) vs sacrebleu's own
    ``_extract_corpus_statistics`` with cached references; the arrays must be equal.
    ``repeat`` alternating runs of each (ours always from a cold cache); medians."""

    def theirs():
        scorer = SACREBLEU[metric](references=refs)
        return [scorer._extract_corpus_statistics(h, None) for h in systems.values()]

    runs = {"ours": [], "warm": [], "theirs": []}
    for _ in range(repeat):  # alternating, so a busy spell of the machine hits both
        with tempfile.TemporaryDirectory() as cache:
            os.environ["MT_SIGNIFICANCE_CACHE"] = "off"  # the work timed, not a cache
            data, t_ours, c_ours = cpu_timed(
                lambda: extract_statistics(refs, systems, metric=metric, jobs=jobs))
            os.environ["MT_SIGNIFICANCE_CACHE"] = cache
            extract_statistics(refs, systems, metric=metric, jobs=jobs)  # fills it (untimed)
            # a second run (or dashboard session) on the same files
            again, t_warm = timed(lambda: extract_statistics(refs, systems, metric=metric,
                                                             jobs=jobs))
            assert np.array_equal(again.stats, data.stats)
            os.environ["MT_SIGNIFICANCE_CACHE"] = "off"
        golden, t_theirs, c_theirs = cpu_timed(theirs)
        assert np.array_equal(data.stats, np.asarray(golden, dtype=float)), "statistics differ"
        runs["ours"].append((t_ours, c_ours))
        runs["warm"].append(t_warm)
        runs["theirs"].append((t_theirs, c_theirs))
    t_ours, c_ours = (statistics.median(x) for x in zip(*runs["ours"], strict=True))
    t_theirs, c_theirs = (statistics.median(x) for x in zip(*runs["theirs"], strict=True))
    t_warm = statistics.median(runs["warm"])
    if repeat > 1:
        print(f"extraction, medians of {repeat} alternating runs; ours/sacrebleu wall per run: "
              + ", ".join(f"{a[0]:.2f}/{b[0]:.2f}"
                          for a, b in zip(runs["ours"], runs["theirs"], strict=True)))
    print(f"extraction CPU time (this process and its finished children): ours {c_ours:.2f}s, "
          f"sacrebleu {c_theirs:.2f}s")
    return data, t_ours, t_warm, t_theirs, c_ours, c_theirs


def run_metric(metric, refs, systems, args):
    named = list(systems.items())
    k = len(systems)
    n_pairs = k * (k - 1) // 2
    label = LABEL[metric]
    print()
    print(f"=== {label}: {k} systems x {len(refs[0])} segments; ours: {n_pairs} pairs; "
          f"sacrebleu PairedTest: {k - 1} comparisons with a baseline")

    # ---- extraction alone, ours vs sacrebleu's, same numbers ---------------------------------
    data, t_extract, t_warm, t_sb_extract, c_extract, c_sb_extract = compare_extraction(
        metric, refs, systems, args.jobs, repeat=args.repeat if metric == "ter" else 1)

    # ---- ours: the tests from the extracted statistics ---------------------------------------
    res_bs, t_bs, c_bs = cpu_timed(lambda: pairwise_significance(
        data, test="paired-bootstrap", n_resamples=args.bs, rng=12345, jobs=args.jobs))
    res_ar, t_ar, c_ar = cpu_timed(lambda: pairwise_significance(
        data, test="approximate-randomization", n_resamples=args.ar, rng=12345,
        jobs=args.jobs))

    # ---- sacrebleu: what `sacrebleu -paired-bs / -paired-ar` does (references cached) ------
    def sacre(test_type, n):
        scorer = SACREBLEU[metric](references=refs)  # caches the references, as its CLI does
        return PairedTest(named, {label: scorer}, references=None, test_type=test_type,
                          n_samples=n)()

    (_, sb_bs), s_bs, cs_bs = cpu_timed(lambda: sacre("bs", args.bs))
    (_, sb_ar), s_ar, cs_ar = cpu_timed(lambda: sacre("ar", args.ar))

    # sanity: identical corpus scores
    sb_scores = {name: r.score for name, r in zip(sb_bs["System"], sb_bs[label], strict=True)}
    assert all(sb_scores[s] == data.scores[s] for s in data.systems), "score mismatch"

    ours_bs_total = t_extract + t_bs
    ours_ar_total = t_extract + t_ar
    print(f"{'':34s}{'ours (all pairs)':>18s}{'sacrebleu (vs baseline)':>26s}{'ratio':>8s}")
    print(f"{'pairs tested':34s}{n_pairs:>18d}{k - 1:>26d}")
    print(f"{'statistics extraction':34s}{t_extract:>17.2f}s{t_sb_extract:>25.2f}s"
          f"{t_extract / t_sb_extract:>8.3f}")
    if t_warm is not None:
        print(f"{'  again, from the cache':34s}{t_warm:>17.2f}s{t_sb_extract:>25.2f}s"
              f"{t_warm / t_sb_extract:>8.3f}")
    print(f"{'paired bootstrap, B=' + str(args.bs):34s}{ours_bs_total:>17.2f}s"
          f"{s_bs:>25.2f}s{ours_bs_total / s_bs:>8.3f}")
    print(f"{'approximate randomization, R=' + str(args.ar):34s}{ours_ar_total:>17.2f}s"
          f"{s_ar:>25.2f}s{ours_ar_total / s_ar:>8.3f}")
    for name, t_test, t_sb in (("paired bootstrap", t_bs, s_bs), ("AR", t_ar, s_ar)):
        print(f"{'  ' + name + ', warm cache':34s}{t_warm + t_test:>17.2f}s"
              f"{t_sb:>25.2f}s{(t_warm + t_test) / t_sb:>8.3f}")
    print("where our time goes:")
    print(f"  statistics extraction (once, {k} systems, jobs={args.jobs}): {t_extract:8.2f}s")
    print(f"  paired bootstrap resampling, {n_pairs} pairs:           {t_bs:8.2f}s")
    print(f"  approximate randomization, {n_pairs} pairs:             {t_ar:8.2f}s")
    print(f"  per pair: bootstrap {1000 * t_bs / n_pairs:.1f} ms, AR {1000 * t_ar / n_pairs:.1f} ms;"
          f" sacrebleu per comparison: bootstrap {1000 * s_bs / (k - 1):.0f} ms,"
          f" AR {1000 * s_ar / (k - 1):.0f} ms")
    print(f"CPU time (all threads; a loaded machine stretches wall times unevenly): "
          f"paired bootstrap ours {c_extract + c_bs:.2f}s vs sacrebleu {cs_bs:.2f}s, "
          f"{(c_extract + c_bs) / cs_bs:.3f}x; AR ours {c_extract + c_ar:.2f}s vs sacrebleu "
          f"{cs_ar:.2f}s, {(c_extract + c_ar) / cs_ar:.3f}x")
    goal_bs = ours_bs_total <= GOAL_BS * s_bs
    goal_ar = ours_ar_total <= GOAL_AR * s_ar
    print(f"goal bootstrap (ours {n_pairs} pairs <= {GOAL_BS}x sacrebleu {k - 1}): "
          f"{ours_bs_total / s_bs:.3f}x, {'MET' if goal_bs else 'NOT MET'} ({_load()})")
    print(f"goal AR (ours <= {GOAL_AR}x sacrebleu): {ours_ar_total / s_ar:.3f}x, "
          f"{'MET' if goal_ar else 'NOT MET'} ({_load()})")
    if metric == "ter":
        speedup = t_sb_extract / t_extract
        print(f"goal TER extraction >= 1.8x faster than sacrebleu's, same numbers: "
              f"{speedup:.2f}x, {'MET' if speedup >= 1.8 else 'NOT MET'}")
        ceiling = parallel_ceiling(args.jobs)
        print(f"  this machine's ceiling for {args.jobs} processes (the same pure-Python loop "
              f"once, then in {args.jobs} processes at once): {ceiling:.2f}x; TER reaches "
              f"{speedup / ceiling:.0%} of it")


def _busy(n: int) -> float:
    start = time.perf_counter()
    total = 0
    for i in range(n):
        total += i * i
    return time.perf_counter() - start


def parallel_ceiling(jobs: int, n: int = 10_000_000) -> float:
    """Speed-up of ``jobs`` identical CPU-bound tasks in ``jobs`` processes over one task run
    ``jobs`` times: what perfectly parallel work gains on this machine (a VM's 2 vCPUs share
    more than their names say)."""
    from concurrent.futures import ProcessPoolExecutor

    one = _busy(n)
    with ProcessPoolExecutor(jobs) as pool:
        start = time.perf_counter()
        list(pool.map(_busy, [n] * jobs))
        together = time.perf_counter() - start
    return jobs * one / together


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", type=int, default=20)
    ap.add_argument("--segments", type=int, default=2000)
    ap.add_argument("--ter-systems", type=int, default=8,
                    help="TER is slow: its own corpus size (default 8 x 500)")
    ap.add_argument("--ter-segments", type=int, default=500)
    ap.add_argument("--metrics", nargs="+", choices=list(SACREBLEU),
                    default=list(SACREBLEU))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                    help="worker processes for our extraction (default: all cores)")
    ap.add_argument("--repeat", type=int, default=3,
                    help="TER extraction: alternating runs of ours and sacrebleu's; medians")
    ap.add_argument("--bs", type=int, default=1000, help="paired bootstrap resamples")
    ap.add_argument("--ar", type=int, default=10000, help="approximate randomization trials")
    ap.add_argument("--cli", action="store_true",
                    help="also time both command-line tools (BLEU) as separate processes")
    args = ap.parse_args(argv)

    os.environ.setdefault("SACREBLEU_SEED", "12345")
    print(f"python {platform.python_version()}, numpy {np.__version__}, "
          f"sacrebleu {sacrebleu.__version__}, {os.cpu_count()} CPUs, "
          f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for metric in args.metrics:
        size = (args.ter_systems, args.ter_segments) if metric == "ter" else (
            args.systems, args.segments)
        refs, systems = make_corpus(*size)
        run_metric(metric, refs, systems, args)
    print()
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    if args.cli:
        refs, systems = make_corpus(args.systems, args.segments)
        time_clis(refs, systems, args)


def time_clis(refs, systems, args) -> None:
    """Both CLIs end to end, each in its own process, on the same files."""
    root = Path(__file__).resolve().parents[1]
    sacrebleu_exe = Path(sys.executable).with_name("sacrebleu")
    with tempfile.TemporaryDirectory() as tmp:
        ref = Path(tmp) / "ref.txt"
        ref.write_text("\n".join(refs[0]) + "\n", encoding="utf-8")
        hyps = []
        for name, lines in systems.items():
            path = Path(tmp) / f"{name}.txt"
            path.write_text("\n".join(lines) + "\n", encoding="utf-8")
            hyps.append(str(path))
        env = dict(os.environ, SACREBLEU_SEED="12345")
        print(precompile())

        def run(cmd):
            t0 = time.perf_counter()
            subprocess.run(cmd, check=True, cwd=root, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            return time.perf_counter() - t0

        rows = []
        for test, flag, n in (("paired-bootstrap", "--paired-bs", args.bs),
                              ("approximate-randomization", "--paired-ar", args.ar)):
            ours = run([sys.executable, "-m", "stats", "randomized", "--ref", str(ref),
                        "--hyp", *hyps, "--metric", "bleu", "--test", test,
                        "--resamples", str(n), "--seed", "12345"])
            n_flag = "--paired-bs-n" if flag == "--paired-bs" else "--paired-ar-n"
            theirs = run([str(sacrebleu_exe), str(ref), "-i", *hyps, "-m", "bleu", flag,
                          n_flag, str(n), "-q"])
            rows.append((test, n, ours, theirs))
    print()
    print("command-line tools, whole process (start-up, reading files, extraction, tests):")
    for test, n, ours, theirs in rows:
        print(f"  {test:26s} n={n:<6d} python -m stats randomized {ours:7.2f}s   "
              f"sacrebleu {theirs:7.2f}s   ratio {ours / theirs:.3f}")


if __name__ == "__main__":
    main()
