"""Benchmark: peak memory of parsing a file, per reader, against the file's size (goal <= 3x).

Each reader reads a generated file in the exact published layout (about ``--mb`` MB) in its own
process; the figure is (peak resident memory after reading - peak after importing the reader
and loading the file's bytes) / the file's size, so the interpreter and its libraries are not
counted, and neither are the bytes read and decoded once by the raw input layer
(:func:`stats.readers._common.decoded`, as a workflow hands a file to its reader). Peak memory is the kernel's
high-water mark of the process (``VmHWM`` in ``/proc/self/status``; ``getrusage``'s
``ru_maxrss`` would start from the parent's resident size, which a child keeps across ``exec``
on Linux, and hide growth below it).

Readers: Appraise ESA exports (with error-span JSON) and WMT22-23 DA+SQM DocLvl exports, WMT QE sentence-level submissions,
word-level QE tag submissions, WMT segment-level metric scores (``read_wmt_scores``).

Usage::

    .venv/bin/python benchmarks/parse_memory.py [--mb 20] [--only appraise,qe]
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

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._peak import PEAK_KB  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def write_appraise(path: Path, size: int, rng) -> None:
    """ESA rows: user, system, segment, TGT, eng, deu, score, document, spans JSON, start, end."""
    out = []
    total = 0
    k = 0
    while total < size:
        spans = json.dumps(
            [{"start_i": int(a), "end_i": int(a) + 5, "severity": "minor"} for a in range(k % 3)]
        )
        row = (
            f'user{k % 40},sys{k % 15},{k % 2000},TGT,eng,deu,{rng.integers(0, 101)},'
            f'doc{k % 300}#seg,"{spans.replace(chr(34), chr(34) * 2)}",{1700000000 + k},'
            f"{1700000060 + k}\n"
        )
        out.append(row)
        total += len(row)
        k += 1
    path.write_text("".join(out))


def write_appraise_doclvl(path: Path, size: int, rng) -> None:
    """WMT22-23 DA+SQM DocLvl rows (11 fields): ..., score, docId, isDocScore, start, end."""
    out = []
    total = 0
    k = 0
    while total < size:
        row = (
            f"user{k % 40},sys{k % 15},{k % 2000},TGT,eng,deu,{rng.integers(0, 101)},"
            f"doc{k % 300},{'True' if k % 20 == 0 else 'False'},{1700000000 + k},"
            f"{1700000060 + k}\n"
        )
        out.append(row)
        total += len(row)
        k += 1
    path.write_text("".join(out))


def write_qe(path: Path, size: int, rng) -> None:
    """WMT QE submission: 3 header lines, then LP METHOD SEGMENT_NUMBER SCORE."""
    out = ["512\n", "1000000\n", "1\n"]
    total = 0
    k = 0
    while total < size:
        row = f"en-de\tteam_method\t{k}\t{rng.random():.6f}\n"
        out.append(row)
        total += len(row)
        k += 1
    path.write_text("".join(out))


def write_word(path: Path, size: int, rng) -> None:
    """Word-level tags: LP METHOD TYPE SEGMENT_NUMBER WORD_INDEX WORD TAG."""
    out = []
    total = 0
    k = 0
    while total < size:
        tag = "BAD" if rng.random() < 0.2 else "OK"
        row = f"en-de\tteam_method\tmt\t{k // 20}\t{k % 20}\twort{k % 5000}\t{tag}\n"
        out.append(row)
        total += len(row)
        k += 1
    path.write_text("".join(out))


def write_wmt(path: Path, size: int, rng) -> None:
    """WMT segment scores (``*.seg.score``, WMT20-21): METRIC LP TESTSET REFSET SYSTEM DOCID
    SEGID SCORE (the 8-field layout :func:`stats.readers.wmt.read_wmt_scores` reads as
    segment level)."""
    out = []
    total = 0
    k = 0
    while total < size:
        row = (
            f"metricA\ten-de\tnewstest2020\tnewstest2020\tsys{k // 2000}\tdoc{k % 2000 // 20}"
            f"\t{k % 20 + 1}\t{rng.random():.6f}\n"
        )
        out.append(row)
        total += len(row)
        k += 1
    path.write_text("".join(out))


READERS = {
    "appraise": (
        write_appraise,
        "export.csv",
        "from stats.readers.appraise import read_appraise as read",
    ),
    "appraise doclvl": (
        write_appraise_doclvl,
        "WMT23.Appraise.DocLvl.csv",
        "from stats.readers.appraise import read_appraise as read",
    ),
    "qe submission": (
        write_qe,
        "en-de.team.txt",
        "from stats.readers.qe_wmt import read_qe_submissions as read",
    ),
    "word-level tags": (
        write_word,
        "en-de.words.tsv",
        "from stats.readers.qe_word import read_word_submissions as read",
    ),
    "wmt segment scores": (
        write_wmt,
        "metricA.seg.score",
        "from stats.readers.wmt import read_wmt_scores as read",
    ),
}

_PROBE = PEAK_KB + """
import resource, sys
{imp}
from stats.readers import decoded
source = decoded(sys.argv[1])  # read and decoded once, as a workflow hands it to the reader
before = peak_kb()
got = read(source)
after = peak_kb()
print(before, after)
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=20.0)
    ap.add_argument("--only", default="")
    ap.add_argument("--root", default=str(ROOT), help="the checkout whose stats/ is measured")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    size = int(args.mb * 2**20)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    env = dict(os.environ, PYTHONPATH=args.root)
    with tempfile.TemporaryDirectory() as tmp:
        for name, (write, file_name, imp) in READERS.items():
            if args.only and not any(s in name for s in args.only.split(",")):
                continue
            path = Path(tmp, file_name)
            write(path, size, rng)
            n = path.stat().st_size
            out = subprocess.run(
                [sys.executable, "-c", _PROBE.format(imp=imp), str(path)],
                env=env,
                capture_output=True,
                text=True,
                cwd=args.root,
            )
            if out.returncode:
                print(f"{name}: failed\n{out.stderr[-1500:]}")
                continue
            before, after = (int(x) for x in out.stdout.split()[-2:])
            grown = (after - before) * 1024
            ratio = grown / n
            verdict = "ok" if ratio <= 3 else "OVER"
            print(
                f"{name:20s} file {n / 2**20:6.1f} MB, parsing peak +{grown / 2**20:7.1f} MB: "
                f"{ratio:5.1f}x the file (goal <= 3x: {verdict})"
            )
            path.unlink()


if __name__ == "__main__":
    main()
