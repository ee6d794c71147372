"""Benchmark: the Leaderboard's time to first chart on a WMT20-sized 5-language-pair upload.

    .venv/bin/python benchmarks/leaderboard_first_chart.py [--systems 12] [--items 1418]
        [--metrics 17] [--resamples 1000] [--skip-full] [--layout mtme|wmt-seg]

Generated data (no WMT data), zipped in mt-metrics-eval's layout as a user uploads it: 5
language pairs like WMT20's (cs-en, de-en, zh-en, en-de, en-zh), ``--systems`` MT systems plus
WMT's human translations ``Human-A.0`` (metric scores, no human score) and ``Human-B.0``
(both), ``--items`` segments (WMT20 newstest2020 cs-en: 664 to 2000 by pair), ``--metrics``
metrics with WMT's hyphenated names, DA-like gold; ``--layout wmt-seg``: the same as WMT20
publishes it, one 8-field ``*.seg.score`` file per metric and long-format human scores. The task set is the page's default for a
test set that is not a findings' preset (system-level Pearson and segment-level Kendall by
item per language pair).

Measured, on the path the page takes (``dashboard.data.leaderboard`` without Streamlit's
cache): reading the upload (``read_meta_eval``), the point ranking that draws the first chart
(``rank_task_set(significance=False)``: correlations, averages, order), and the full ranking
with PERM-BOTH and the 200-resample intervals (what the page would otherwise finish before its
first chart). Prints each time (wall and this process's CPU time), the time to
first chart before and after, their ratio, and the load average.
"""

from __future__ import annotations

import argparse
import io
import os
import sys
import time
import zipfile
from pathlib import Path

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import numpy as np  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from stats.analyses.task_set import rank_task_set  # noqa: E402
from stats.metaeval.task_set_presets import per_language_pair  # noqa: E402
from stats.readers.meta import read_meta_eval  # noqa: E402

LPS = ("cs-en", "de-en", "zh-en", "en-de", "en-zh")
NAMES = (
    "BLEU", "chrF", "TER", "sentBLEU", "BERTScore", "COMET", "PRISM", "YiSi-1", "BLEURT",
    "esim", "parbleu", "EED", "BERT-base-L2", "CharacTER", "MEE", "COMET-QE", "YiSi-2",
)


def _lines(systems, values) -> str:
    return "".join(
        f"{s}\t{v!r}\n" for s, row in zip(systems, values.tolist(), strict=True) for v in row
    )


def upload(n_systems: int, n_items: int, n_metrics: int, seed: int = 0) -> tuple[str, bytes]:
    """``("wmt20-like.zip", bytes)``: the generated test set in MTME's layout."""
    rng = np.random.default_rng(seed)
    names = [NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else f"-v{i}") for i in range(n_metrics)]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        for lp in LPS:
            systems = [f"Sys{k}.{100 + k}" for k in range(n_systems)] + ["Human-A.0", "Human-B.0"]
            truth = rng.normal(0, 1, len(systems))[:, None] + rng.normal(
                0, 1, (len(systems), n_items)
            )
            gold = np.round(truth * 25 + 60, 1)
            z.writestr(f"wmt20/human-scores/{lp}.da.seg.score", _lines(systems[1:], gold[1:]))
            z.writestr(f"wmt20/references/{lp}.refA.txt", "x\n" * n_items)
            for j, name in enumerate(names):
                ref = "src" if name in ("COMET-QE", "YiSi-2") else "refA"
                vals = truth + rng.normal(0, 0.4 + 0.1 * j, truth.shape)
                z.writestr(f"wmt20/metric-scores/{lp}/{name}-{ref}.seg.score", _lines(systems, vals))
    return "wmt20-like.zip", buf.getvalue()


def seg_upload(n_systems: int, n_items: int, n_metrics: int, seed: int = 0) -> list:
    """The same test set as WMT20 publishes it: one ``METRIC.seg.score`` file per metric (8
    fields, ``METRIC LP TESTSET REFSET SYSTEM DOCID SEGID SCORE``, documents of 14 segments)
    and the human scores in the long format (SEGMENT ``DOCID:SEGID``)."""
    rng = np.random.default_rng(seed)
    names = [NAMES[i % len(NAMES)] + ("" if i < len(NAMES) else f"-v{i}") for i in range(n_metrics)]
    files: dict = {m: [] for m in names}
    gold = ["METRIC\tLP\tTESTSET\tSYSTEM\tSEGMENT\tSCORE"]
    items = [(f"doc{j // 14}", str(j % 14 + 1)) for j in range(n_items)]
    for lp in LPS:
        systems = [f"Sys{k}.{100 + k}" for k in range(n_systems)]
        truth = rng.normal(0, 1, n_systems)[:, None] + rng.normal(0, 1, (n_systems, n_items))
        for s, row in zip(systems, truth.tolist(), strict=True):
            gold += [f"HUMAN:da\t{lp}\tnewstest2020\t{s}\t{d}:{g}\t{v:.3f}"
                     for (d, g), v in zip(items, row, strict=True)]
        for j, name in enumerate(names):
            ref = "src" if name in ("COMET-QE", "YiSi-2") else "newstest2020"
            vals = truth + rng.normal(0, 0.4 + 0.1 * j, truth.shape)
            for s, row in zip(systems, vals.tolist(), strict=True):
                files[name] += [f"{name}\t{lp}\tnewstest2020\t{ref}\t{s}\t{d}\t{g}\t{v!r}"
                                for (d, g), v in zip(items, row, strict=True)]
    out = [(f"{m}.seg.score", ("\n".join(lines) + "\n").encode()) for m, lines in files.items()]
    return [*out, ("da.tsv", ("\n".join(gold) + "\n").encode())]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--systems", type=int, default=12)
    ap.add_argument("--items", type=int, default=1418)
    ap.add_argument("--metrics", type=int, default=17)
    ap.add_argument("--resamples", type=int, default=1000)
    ap.add_argument("--skip-full", action="store_true", help="only the point ranking")
    ap.add_argument("--layout", choices=["mtme", "wmt-seg"], default="mtme",
                    help="an MTME zip, or WMT20's *.seg.score files and a long gold file")
    args = ap.parse_args()
    t0 = time.perf_counter()
    if args.layout == "mtme":
        ups = [upload(args.systems, args.items, args.metrics)]
    else:
        ups = seg_upload(args.systems, args.items, args.metrics)
    size = sum(len(u[1]) for u in ups) / 1e6
    print(f"generated {len(ups)} file(s), {size:.1f} MB, in {time.perf_counter() - t0:.1f} s")
    t0, c0 = time.perf_counter(), time.process_time()
    data = read_meta_eval(*ups)
    t_read, c_read = time.perf_counter() - t0, time.process_time() - c0
    print("\n".join(data.read_as.splitlines()[:2] + ["..."]))
    ts = per_language_pair(data.language_pairs)
    t0, c0 = time.perf_counter(), time.process_time()
    point = rank_task_set(data, ts, rng=1, significance=False)
    t_point, c_point = time.perf_counter() - t0, time.process_time() - c0
    print(f"read: {t_read:.2f} s; point ranking: {t_point:.2f} s")
    # CPU time of this process: what the wall times are made of on an idle machine (the wall
    # times grow with the load average on a shared one)
    print(f"CPU time: read {c_read:.2f} s; point ranking {c_point:.2f} s; first chart "
          f"{c_read + c_point:.2f} s")
    print(f"time to first chart now: {t_read + t_point:.2f} s "
          f"({len(point.statistic)} metrics, {len(point.tasks)} tasks)")
    if not args.skip_full:
        t0 = time.perf_counter()
        full = rank_task_set(
            data, ts, rng=1, n_resamples=args.resamples, confidence_resamples=200
        )
        t_full = time.perf_counter() - t0
        same = list(full.statistic.index) == list(point.statistic.index) and np.allclose(
            full.statistic.to_numpy(), point.statistic.to_numpy(), equal_nan=True
        )
        print(f"full ranking (PERM-BOTH {args.resamples} resamples + 200-resample intervals): "
              f"{t_full:.2f} s; same averages and order as the point ranking: {same}")
        print(f"time to first chart before (read + full): {t_read + t_full:.2f} s; "
              f"ratio before/now: {(t_read + t_full) / (t_read + t_point):.1f}x")
    print("load average: " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
