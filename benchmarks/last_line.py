"""Benchmark: a big file whose last line is bad fails fast (goal: within 10 s at 2M rows).

Each reader gets a generated file in its exact published layout, ``--rows`` rows long, whose
last row holds a score that is not a number (``abc``). The reader is timed in its own process
until it raises its one-line error naming that line: wall and CPU seconds (user + system, the
fairer figure on a shared machine) and peak memory (``ru_maxrss``). The load average is
printed first: wall times scale with it on a busy machine.

Readers: long segment scores (``randomized --scores``), WMT QE sentence-level submissions,
WMT segment-level metric scores (``*.seg.score``), WMT22-23 Appraise DocLvl exports, long
meta-evaluation text (``METRIC LP TESTSET SYSTEM SEGMENT SCORE``), human judgements (CSV).

Also timed: a zip of ``--teams`` one-row team folders of QE submissions (9,000 by default,
about 1 MB: more systems than the limit), refused from its listing before any file is parsed.

Usage::

    .venv/bin/python benchmarks/last_line.py [--rows 2000000] [--only qe,wmt] [--teams 9000]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
GOAL = 10.0


def _write(path: Path, head: list[str], row, n: int, last: str) -> None:
    rng = np.random.default_rng(0)
    values = rng.random(n)
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(h + "\n" for h in head)
        chunk = 100_000
        for at in range(0, n - 1, chunk):
            fh.write("".join(row(k, values[k]) for k in range(at, min(at + chunk, n - 1))))
        fh.write(last + "\n")


WRITERS = {
    "segment scores": (
        "scores.tsv",
        lambda p, n: _write(p, ["SYSTEM\tSEGMENT\tSCORE"],
                            lambda k, v: f"sys{k % 20}\t{k // 20}\t{v:.6f}\n", n, "sys0\tX\tabc"),
        "from stats.readers import read_segment_scores as read",
    ),
    "qe submission": (
        "en-de.team.txt",
        lambda p, n: _write(p, ["512", "1000000", "1"],
                            lambda k, v: f"en-de\tteam_method\t{k}\t{v:.6f}\n", n,
                            f"en-de\tteam_method\t{n}\tabc"),
        "from stats.readers.qe_wmt import read_qe_submissions as read",
    ),
    "wmt segment scores": (
        "metricA.seg.score",
        lambda p, n: _write(p, [], lambda k, v: (
            f"metricA\ten-de\tnewstest2020\tnewstest2020\tsys{k // 2000}\tdoc{k % 2000 // 20}"
            f"\t{k % 20 + 1}\t{v:.6f}\n"), n,
            "metricA\ten-de\tnewstest2020\tnewstest2020\tsysX\tdocX\t1\tabc"),
        "from stats.readers.wmt import read_wmt_scores as read",
    ),
    "appraise doclvl": (
        "WMT23.Appraise.DocLvl.csv",
        lambda p, n: _write(p, [], lambda k, v: (
            f"user{k % 40},sys{k % 15},{k % 2000},TGT,eng,deu,{int(v * 100)},doc{k % 300},"
            f"{'True' if k % 20 == 0 else 'False'},{1700000000 + k},{1700000060 + k}\n"), n,
            "user1,sys1,1,TGT,eng,deu,abc,doc1,False,1,2"),
        "from stats.readers import read_appraise as read",
    ),
    "meta-eval long": (
        "long.tsv",
        lambda p, n: _write(p, ["METRIC\tLP\tTESTSET\tSYSTEM\tSEGMENT\tSCORE"],
                            lambda k, v: f"{'BLEU' if k % 2 else 'HUMAN'}\ten-de\tt\tsys{k // 2 % 20}"
                            f"\t{k // 40}\t{v:.6f}\n", n, "BLEU\ten-de\tt\tsys0\tX\tabc"),
        "from stats.readers import read_meta_eval\nread = lambda p: read_meta_eval(p)",
    ),
    "judgements": (
        "judgements.csv",
        lambda p, n: _write(p, ["SYSTEM,SEGMENT,ANNOTATOR,CRITERION,SCORE"],
                            lambda k, v: f"sys{k % 20},{k // 20},a{k % 50},adequacy,"
                            f"{int(v * 100)}\n", n, "sys0,X,a0,adequacy,abc"),
        "from stats.readers import read_judgements as read",
    ),
}

PROBE = """
import json, resource, sys, time
{imp}
t, c = time.perf_counter(), time.process_time()
try:
    read(sys.argv[1])
    error = None
except Exception as exc:  # the reader's one-line error
    error = f"{{type(exc).__name__}}: {{exc}}"
print(json.dumps({{"wall": time.perf_counter() - t, "cpu": time.process_time() - c,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "error": error}}))
"""


TEAMS_PROBE = """
import io, json, resource, sys, time, zipfile
buf = io.BytesIO()
with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
    for team in range(int(sys.argv[1])):
        zf.writestr(f"subs/team{team}/predictions.txt", "en-de\\tM\\t0\\t0.5\\n")
data = buf.getvalue()
from stats.readers.qe_wmt import read_qe_submissions
t, c = time.perf_counter(), time.process_time()
try:
    read_qe_submissions([("subs.zip", data)])
    error = None
except Exception as exc:
    error = f"{type(exc).__name__}: {exc}"
print(json.dumps({"wall": time.perf_counter() - t, "cpu": time.process_time() - c,
                  "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                  "mb": len(data) / 2**20, "error": error}))
"""


def teams(n: int, env: dict) -> None:
    out = subprocess.run([sys.executable, "-c", TEAMS_PROBE, str(n)], env=env,
                         capture_output=True, text=True, cwd=ROOT)  # fmt: skip
    if out.returncode:
        print(f"team folders: failed\n{out.stderr[-1500:]}")
        return
    got = json.loads(out.stdout.splitlines()[-1])
    print(f"{n:,} one-row team folders ({got['mb']:.1f} MB zip): wall {got['wall']:.1f} s, "
          f"CPU {got['cpu']:.1f} s, peak {got['peak_mb']:.0f} MB; {str(got['error'])[:110]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--only", default="")
    ap.add_argument("--teams", type=int, default=9000)
    args = ap.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; {args.rows:,} rows")
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    with tempfile.TemporaryDirectory() as tmp:
        for name, (file_name, write, imp) in WRITERS.items():
            if args.only and not any(s in name for s in args.only.split(",")):
                continue
            path = Path(tmp, file_name)
            write(path, args.rows)
            out = subprocess.run([sys.executable, "-c", PROBE.format(imp=imp), str(path)],
                                 env=env, capture_output=True, text=True, cwd=ROOT)  # fmt: skip
            if out.returncode:
                print(f"{name}: failed\n{out.stderr[-1500:]}")
                continue
            got = json.loads(out.stdout.splitlines()[-1])
            named = got["error"] and f"line {args.rows + (name in ('segment scores', 'meta-eval long', 'judgements')) + 3 * (name == 'qe submission')}" in got["error"]  # noqa: E501
            print(
                f"{name:20s} {path.stat().st_size / 2**20:6.1f} MB: wall {got['wall']:5.1f} s, "
                f"CPU {got['cpu']:5.1f} s, peak {got['peak_mb']:6.0f} MB "
                f"({'CPU within' if got['cpu'] <= GOAL else 'CPU OVER'} {GOAL:g} s; "
                f"{'last line named' if named else 'ERROR: ' + str(got['error'])[:120]})"
            )
            path.unlink()
    if not args.only or "teams" in args.only:
        teams(args.teams, env)


if __name__ == "__main__":
    main()
