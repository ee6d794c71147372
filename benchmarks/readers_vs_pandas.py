"""Benchmark: every segment-level reader against ``pandas.read_csv`` on the same file, same run.

For each reader a file of ``--rows`` rows (default 1,000,000) is generated in its exact
published layout, then read ``--repeat`` times, alternating, each time in a fresh process:
once by ``pandas.read_csv`` (C parser; the separator and header of the layout, nothing else)
and once by the reader. Per process: wall and CPU seconds of the read alone (imports done
before the clock starts) and the process's peak resident memory (``VmHWM`` of
``/proc/self/status``: interpreter, libraries and the read). Medians and the ratios
reader / read_csv are printed against the goals: at most 1.5x read_csv's time and
2x its memory. The load average is printed before and after: wall times scale with it on a
busy machine, CPU times much less.

Both sides parse with threads: pandas' C parser splits a large local file among up to
``mode.max_threads`` threads (pandas 3.1; printed), pyarrow's parser runs on its thread pool.
The CPU figures count every thread; ``main`` is the CPU of the calling thread alone (the
serial part: read_csv's own is near 0, its workers parse), so a reader's wall ratio is above
its CPU ratio by the part of its work that runs on one thread while read_csv's runs on all.

Readers: long and wide segment scores (``read_segment_scores``), meta-evaluation long text,
wide CSV, MTME segment files and WMT ``*.seg.score`` (``read_meta_eval``), WMT segment scores
(``read_wmt_scores``), WMT DA segment files (``read_da_segment_scores``), MQM error spans
(``read_mqm``) and Google's MQM averages (``read_mqm_averages``), QE long, wide and
post-editing tables (``read_qe``, ``read_post_edit``), WMT QE submissions
(``read_qe_submissions``), human judgements (``read_judgements``).

Usage::

    .venv/bin/python benchmarks/readers_vs_pandas.py [--rows 1000000] [--repeat 3]
        [--only judgements,meta] [--before /path/to/main]

``--before`` measures another checkout's readers in the same run (alternating with the
others), printed under each reader as its before figures.
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
#: goals: reader / read_csv, same file, same run
TIME_GOAL, MEMORY_GOAL = 1.5, 2.0
SYSTEMS = 20

#: imports (argv[1]), then times a statement (argv[2]) with ``PATH`` the file
PROBE = PEAK_KB + """
import json, sys, time
PATH = sys.argv[3]
exec(sys.argv[1])
start, cpu, main = time.perf_counter(), time.process_time(), time.thread_time()
exec(sys.argv[2])
print(json.dumps({"wall": time.perf_counter() - start, "cpu": time.process_time() - cpu,
                  "main": time.thread_time() - main, "peak_mb": peak_kb() / 1024}))
"""


def _frame(path: Path, columns: dict, *, sep: str = "\t", header: bool = True) -> None:
    pd.DataFrame(columns).to_csv(path, sep=sep, header=header, index=False)


def _ids(rows: int, systems: int = SYSTEMS):
    per = rows // systems
    system = np.repeat([f"System-{s:02d}" for s in range(systems)], per)
    segment = np.tile(np.arange(1, per + 1), systems)
    return per, system, segment


def w_long(path: Path, rows: int, rng) -> None:
    _, system, segment = _ids(rows)
    _frame(path, {"SYSTEM": system, "SEGMENT": segment, "SCORE": rng.random(len(system)).round(6)})


def w_wide(path: Path, rows: int, rng) -> None:
    cols = {"SEGMENT": np.arange(1, rows + 1)}
    cols.update({f"System-{s}": rng.random(rows).round(6) for s in range(4)})
    _frame(path, cols)


def w_meta_long(path: Path, rows: int, rng) -> None:
    per, system, segment = _ids(rows // 2)
    n = len(system)
    _frame(path, {
        "METRIC": np.repeat(["HUMAN", "BLEU"], n), "LP": "en-de", "TESTSET": "wmt23",
        "SYSTEM": np.tile(system, 2), "SEGMENT": np.tile(segment, 2),
        "SCORE": rng.random(2 * n).round(6),
    })


def w_meta_wide(path: Path, rows: int, rng) -> None:
    _, system, segment = _ids(rows)
    _frame(path, {"lp": "en-de", "system": system, "segment": segment,
                  "human": rng.random(len(system)).round(6),
                  "BLEU": rng.random(len(system)).round(6)}, sep=",")


def w_mtme(path: Path, rows: int, rng) -> None:
    """An MTME folder: one human and one metric segment file of ``rows / 2`` lines each."""
    _, system, _ = _ids(rows // 2)
    (path / "human-scores").mkdir(parents=True)
    (path / "metric-scores" / "en-de").mkdir(parents=True)
    _frame(path / "human-scores" / "en-de.mqm.seg.score",
           {"s": system, "v": rng.random(len(system)).round(6)}, header=False)
    _frame(path / "metric-scores" / "en-de" / "BLEU-refA.seg.score",
           {"s": system, "v": rng.random(len(system)).round(6)}, header=False)


def w_wmt_seg(path: Path, rows: int, rng) -> None:
    per, system, segment = _ids(rows)
    _frame(path, {
        "metric": "sentBLEU", "lp": "en-de", "testset": "newstest2020", "refset": "newstest2020",
        "system": system, "docid": [f"doc{d}.en" for d in (segment - 1) // 20],
        "segid": segment, "score": rng.random(len(system)).round(6),
        "ensemble": "non-ensemble", "available": "yes",
    }, header=False)


def w_da(path: Path, rows: int, rng) -> None:
    _, system, segment = _ids(rows)
    system = np.char.add(system.astype(str), ".1234")
    _frame(path, {"SYS": system, "SID": segment,
                  "RAW.SCR": (rng.random(len(system)) * 100).round(1),
                  "Z.SCR": rng.normal(size=len(system)).round(6),
                  "N": rng.integers(1, 4, len(system))}, sep=" ")


def w_mqm(path: Path, rows: int, rng) -> None:
    _, system, segment = _ids(rows)
    severity = np.array(["no-error", "Minor", "Major"])[rng.integers(0, 3, len(system))]
    category = np.where(severity == "no-error", "no-error", "Accuracy/Mistranslation")
    _frame(path, {"system": system, "doc": "doc1", "doc_id": segment, "seg_id": segment,
                  "rater": np.array([f"rater{r}" for r in range(6)])[segment % 6],
                  "source": "Ein Satz .", "target": "A sentence .",
                  "category": category, "severity": severity})


def w_mqm_avg(path: Path, rows: int, rng) -> None:
    _, system, segment = _ids(rows)
    _frame(path, {"system": system, "mqm_avg_score": (-rng.random(len(system)) * 5).round(4),
                  "seg_id": segment}, sep=" ")


def w_qe_long(path: Path, rows: int, rng) -> None:
    per, system, segment = _ids(rows)
    human = np.tile(rng.random(per).round(6), SYSTEMS)
    _frame(path, {"METRIC": system, "SID": segment, "SCORE": rng.random(len(system)).round(6),
                  "RANK": 1, "HUMAN": human})


def w_qe_wide(path: Path, rows: int, rng) -> None:
    cols = {"sid": np.arange(1, rows + 1), "gold": rng.random(rows).round(6)}
    cols.update({f"System-{s}": rng.random(rows).round(6) for s in range(4)})
    _frame(path, cols, sep=",")


def w_qe_sub(path: Path, rows: int, rng) -> None:
    path.write_text("512\n1000000\n1\n")
    frame = pd.DataFrame({"lp": "en-de", "method": "team_method", "sid": np.arange(rows),
                          "score": rng.random(rows).round(6)})
    with path.open("a") as fh:
        frame.to_csv(fh, sep="\t", header=False, index=False)


def w_post_edit(path: Path, rows: int, rng) -> None:
    _frame(path, {"SID": np.arange(1, rows + 1), "TIME": (rng.random(rows) * 60).round(2),
                  "WORDS": rng.integers(1, 40, rows)})


def w_judgements(path: Path, rows: int, rng) -> None:
    _, system, segment = _ids(rows)
    _frame(path, {"SYSTEM": system, "SEGMENT": segment,
                  "ANNOTATOR": np.array([f"w{a:02d}" for a in range(50)])[
                      rng.integers(0, 50, len(system))],
                  "CRITERION": np.array(["adequacy", "fluency"])[segment % 2],
                  "SCORE": rng.integers(0, 101, len(system))})


#: name -> (file name, writer, pandas.read_csv's arguments, reader's import, reader's call)
READERS = {
    "segment scores long": ("scores.tsv", w_long, "sep='\\t'",
                            "from stats.readers import read_segment_scores",
                            "read_segment_scores(PATH)"),
    "segment scores wide": ("wide.tsv", w_wide, "sep='\\t'",
                            "from stats.readers import read_segment_scores",
                            "read_segment_scores(PATH)"),
    "meta-eval long text": ("long.tsv", w_meta_long, "sep='\\t'",
                            "from stats.readers import read_meta_eval", "read_meta_eval(PATH)"),
    "meta-eval wide csv": ("wide.csv", w_meta_wide, "",
                           "from stats.readers import read_meta_eval", "read_meta_eval(PATH)"),
    "meta-eval MTME seg": ("mtme", w_mtme, None,
                           "from stats.readers import read_meta_eval", "read_meta_eval(PATH)"),
    "meta-eval wmt seg": ("sentBLEU.seg.score", w_wmt_seg, "sep='\\t', header=None",
                          "from stats.readers import read_meta_eval", "read_meta_eval(PATH)"),
    "wmt seg.score": ("sentBLEU.seg.score", w_wmt_seg, "sep='\\t', header=None",
                      "from stats.readers import read_wmt_scores", "read_wmt_scores(PATH)"),
    "DA segments": ("ad-seg-scores-de-en.csv", w_da, "sep=r'\\s+'",
                    "from stats.readers.da_segments import read_da_segment_scores",
                    "read_da_segment_scores(PATH)"),
    "MQM spans": ("mqm_newstest2020_ende.tsv", w_mqm, "sep='\\t'",
                  "from stats.readers import read_mqm", "read_mqm(PATH)"),
    "MQM averages": ("mqm_newstest2020_ende.avg_seg_scores.tsv", w_mqm_avg, "sep=r'\\s+'",
                     "from stats.readers import read_mqm_averages", "read_mqm_averages(PATH)"),
    "QE long": ("qe.tsv", w_qe_long, "sep='\\t'",
                "from stats.readers import read_qe", "read_qe(PATH)"),
    "QE wide": ("qe.csv", w_qe_wide, "", "from stats.readers import read_qe", "read_qe(PATH)"),
    "QE submission": ("en-de.team.txt", w_qe_sub, "sep='\\t', skiprows=3, header=None",
                      "from stats.readers.qe_wmt import read_qe_submissions",
                      "read_qe_submissions([PATH])"),
    "post-edit": ("pe.tsv", w_post_edit, "sep='\\t'",
                  "from stats.readers import read_post_edit", "read_post_edit(PATH)"),
    "judgements": ("judgements.tsv", w_judgements, "sep='\\t'",
                   "from stats.readers import read_judgements", "read_judgements(PATH)"),
}

#: read_csv of every file of an MTME folder
_MTME_PANDAS = (
    "import glob\n"
    "[pd.read_csv(f, sep='\\t', header=None) for f in sorted(glob.glob(PATH + '/**/*.score', "
    "recursive=True))]"
)


def measure(imports: str, statement: str, path: Path, root: str) -> dict:
    env = {**os.environ, "PYTHONPATH": root}
    out = subprocess.run([sys.executable, "-c", PROBE, imports, statement, str(path)], env=env,
                         cwd=root, capture_output=True, text=True)  # fmt: skip
    if out.returncode:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "failed")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default="", help="comma-separated parts of reader names")
    ap.add_argument("--root", default=str(ROOT), help="the checkout whose stats/ is measured")
    ap.add_argument("--before", default="", help="another checkout (e.g. main) measured in the "
                    "same run, alternating, for before/after ratios")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())} on {os.cpu_count()} "
          f"cores; {args.rows:,} rows per file; medians of {args.repeat} runs, each in its own "
          f"process; goals: time <= {TIME_GOAL}x, peak <= {MEMORY_GOAL}x read_csv's")
    threads = pd.get_option("mode.max_threads")
    print(f"read_csv's parse threads: {threads if threads is not None else 'default'} "
          f"(pandas {pd.__version__}); main: CPU of the calling thread alone")
    print(f"{'reader':22s} {'MiB':>5s} | {'read_csv wall/cpu/main/peak':>31s} | "
          f"{'reader wall/cpu/main/peak':>31s} | ratio wall  cpu  peak")
    over = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (file_name, write, pd_args, imp, call) in READERS.items():
            if args.only and not any(s in name for s in args.only.split(",")):
                continue
            path = Path(tmp, name.replace(" ", "_"), file_name)
            path.parent.mkdir()
            write(path, args.rows, rng)
            size = sum(f.stat().st_size for f in ([path] if path.is_file() else
                                                  path.rglob("*.score"))) / 2**20
            theirs = (_MTME_PANDAS if pd_args is None else
                      f"pd.read_csv(PATH{', ' + pd_args if pd_args else ''})")
            runs: dict[str, list] = {"pandas": [], "ours": []}
            if args.before:
                runs["before"] = []
            try:
                for _ in range(args.repeat):  # alternating, so a busy spell hits both
                    runs["pandas"].append(measure("import pandas as pd", theirs, path, args.root))
                    runs["ours"].append(measure(imp, call, path, args.root))
                    if args.before:
                        runs["before"].append(measure(imp, call, path, args.before))
            except RuntimeError as exc:
                print(f"{name:22s} failed: {exc}")
                continue
            med = {who: {k: statistics.median(r[k] for r in rs) for k in rs[0]}
                   for who, rs in runs.items()}
            p, o = med["pandas"], med["ours"]
            ratio = {k: o[k] / p[k] for k in ("wall", "cpu", "peak_mb")}
            flag = []
            if ratio["cpu"] > TIME_GOAL:
                flag.append("TIME")
            if ratio["peak_mb"] > MEMORY_GOAL:
                flag.append("MEMORY")
            if flag:
                over.append(name)
            print(f"{name:22s} {size:5.0f} | {p['wall']:6.2f} {p['cpu']:6.2f} {p['main']:6.2f} "
                  f"{p['peak_mb']:6.0f}MB | {o['wall']:6.2f} {o['cpu']:6.2f} {o['main']:6.2f} "
                  f"{o['peak_mb']:6.0f}MB | "
                  f"{ratio['wall']:5.2f} {ratio['cpu']:5.2f} {ratio['peak_mb']:5.2f} "
                  f"{'OVER: ' + ','.join(flag) if flag else 'ok'}", flush=True)
            if args.before:
                b = med["before"]
                print(f"{'  before (' + Path(args.before).name + ')':22s} {'':5s} | {'':31s} | "
                      f"{b['wall']:6.2f} {b['cpu']:6.2f} {b['main']:6.2f} {b['peak_mb']:6.0f}MB | "
                      f"{b['wall'] / p['wall']:5.2f} {b['cpu'] / p['cpu']:5.2f} "
                      f"{b['peak_mb'] / p['peak_mb']:5.2f}", flush=True)
            shutil_rm(path.parent)
    print(f"load average now {' '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"over a goal: {', '.join(over) or 'none'}")


def shutil_rm(path: Path) -> None:
    import shutil

    shutil.rmtree(path, ignore_errors=True)


if __name__ == "__main__":
    main()
