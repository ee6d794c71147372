"""Benchmark: peak memory of reading an upload the way each dashboard page reads it, against the
upload's size: the factors :data:`dashboard.data.upload_memory.READ_FACTORS` holds.

Each case generates a file in its published layout (about ``--mb`` MB; the writers of
``benchmarks/readers_vs_pandas.py``), holds its bytes as an upload (``(name, bytes)``), then
calls what the page's data layer calls on it (``stats.analyses`` / the readers) in a fresh
process, after the same call on a small file of the layout (so that every module the reading
imports is loaded before it is measured). The figure is (peak resident memory after reading
- resident memory with the bytes held) / the upload's size (an archive's unpacked size, as the
dashboard counts it): decoding, parsing and what the reader keeps, not the interpreter nor the
bytes already held. Each file is read twice: as written (the fast path, by columns) and with a bad
last value (``abc``: the careful path that reads the rows again as strings to name the line),
and the larger figure is what a page must assume.

Usage::

    .venv/bin/python benchmarks/upload_memory.py [--mb 10] [--only judgements,meta]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from _peak import PEAK_KB  # noqa: E402
from readers_vs_pandas import (  # noqa: E402
    w_da,
    w_judgements,
    w_long,
    w_meta_long,
    w_meta_wide,
    w_mqm,
    w_qe_long,
    w_qe_wide,
    w_wide,
    w_wmt_seg,
)

from dashboard.data.upload_memory import unpacked_size  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: bytes per row of the writers, roughly (rows are chosen for ``--mb``)
_ROW_BYTES = 30

_PROBE = (
    PEAK_KB
    + """
import json, sys
from pathlib import Path
cut = sys.argv.index("::")
def uploads(paths):
    return tuple((Path(p).name, Path(p).read_bytes()) for p in paths)
exec(sys.argv[1].split("|", 1)[0])
UPLOADS = uploads(sys.argv[2:cut])  # a small file first: every module the reading imports
try:
    exec(sys.argv[1].split("|", 1)[1])
except Exception:
    pass
UPLOADS = uploads(sys.argv[cut + 1:])
with open("/proc/self/clear_refs", "w") as f:  # the peak from here on (not the small file's)
    f.write("5")
with open("/proc/self/status") as f:  # what is held now
    before = next(int(ln.split()[1]) for ln in f if ln.startswith("VmRSS:"))
try:
    exec(sys.argv[1].split("|", 1)[1])
    outcome = "read"
except Exception as exc:  # a refusal of the bad value is the expected end of that run
    outcome = type(exc).__name__
print(json.dumps({"before": before, "after": peak_kb(), "outcome": outcome}))
"""
)

_SCORES = "from stats import analyses|analyses.score_statistics(list(UPLOADS), metric=None)"
_META = "from stats.readers import read_meta_eval|read_meta_eval(*UPLOADS)"
_HUMAN = "from stats import analyses|analyses.human_gold(UPLOADS)"
_QE = "from stats import analyses|analyses.load_qe(UPLOADS, find_roles=True)"
_TEXT = (
    "from stats import analyses|analyses.text_statistics(UPLOADS[:1], UPLOADS[1:], metric='bleu')"
)


def w_text(path: Path, rows: int, rng) -> None:
    """A reference of ``rows`` lines of pseudo-words (the outputs are made from it)."""
    words = np.array([f"wort{i}" for i in range(5000)])
    lines = (" ".join(words[rng.integers(0, 5000, 20)]) for _ in range(rows))
    path.write_text("\n".join(lines) + "\n")


def w_autorank(path: Path, rows: int, rng) -> None:
    """A zip of WMT25 automatic_scores/SYSTEM.jsonl files of the published size (about 1.4 MB a
    system), as many systems as ``rows`` rows of the other writers take."""
    import zipfile

    from tests._wmt25_data import published_size

    systems = max(2, round(rows * _ROW_BYTES / 1.4e6))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in published_size(systems=systems).items():
            archive.writestr(f"automatic_scores/{name}", data)


_AUTORANK = (
    "from stats.analyses.autorank import read_autorank_scores|read_autorank_scores(list(UPLOADS))"
)

#: name -> (upload keys of the pages that read it this way, file name, writer, statement)
CASES = {
    "segment scores long": (
        "mt_scores power_scores human_scores_upload",
        "scores.tsv",
        w_long,
        _SCORES,
    ),
    "segment scores wide": (
        "mt_scores power_scores human_scores_upload",
        "wide.tsv",
        w_wide,
        _SCORES,
    ),
    "wmt seg.score": (
        "mt_scores power_scores human_scores_upload",
        "sentBLEU.seg.score",
        w_wmt_seg,
        _SCORES,
    ),
    "system outputs (BLEU)": ("mt_refs mt_hyps power_refs power_hyps", "ref.txt", w_text, _TEXT),
    "meta-eval long text": ("metrics_upload board_upload", "long.tsv", w_meta_long, _META),
    "meta-eval wide csv": ("metrics_upload board_upload", "wide.csv", w_meta_wide, _META),
    "meta-eval wmt seg": ("metrics_upload board_upload", "sentBLEU.seg.score", w_wmt_seg, _META),
    "WMT25 automatic scores": ("autorank_upload", "wmt25.zip", w_autorank, _AUTORANK),
    "judgements": ("human_judgements_upload", "judgements.tsv", w_judgements, _HUMAN),
    "DA segments": ("human_judgements_upload", "ad-seg-scores-de-en.csv", w_da, _HUMAN),
    "MQM spans": ("human_judgements_upload", "mqm_newstest2020_ende.tsv", w_mqm, _HUMAN),
    "QE long": ("qe_tables", "qe.tsv", w_qe_long, _QE),
    "QE wide": ("qe_tables", "qe.csv", w_qe_wide, _QE),
}

_LAST_NUMBER = re.compile(rb"\d+(\.\d+)?(?=\D*$)")


def _bad_last_value(path: Path) -> Path:
    """A copy of ``path`` whose last number is ``abc``."""
    data = path.read_bytes().rstrip(b"\n")
    head, _, last = data.rpartition(b"\n")
    out = path.with_name("bad_" + path.name)
    out.write_bytes(head + b"\n" + _LAST_NUMBER.sub(b"abc", last, count=1) + b"\n")
    return out


def _measure(statement: str, small: list[Path], paths: list[Path]) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [*map(str, small), "::", *map(str, paths)]
    out = subprocess.run([sys.executable, "-c", _PROBE, statement, *argv],
                         env=env, cwd=ROOT, capture_output=True, text=True)  # fmt: skip
    if out.returncode:
        raise RuntimeError(out.stderr.strip().splitlines()[-1] if out.stderr else "failed")
    return json.loads(out.stdout.strip().splitlines()[-1])


def _paths(name: str, file_name: str, write, tmp: Path, rows: int, rng) -> list[Path]:
    tmp.mkdir(exist_ok=True)
    path = tmp / file_name
    if name.startswith("system outputs"):  # the reference and two systems' outputs
        write(path, rows // 6, rng)  # lines of about 180 bytes
        lines = path.read_text().splitlines()
        outs = []
        for s in range(2):
            out = tmp / f"hyp.sys{s}.txt"
            out.write_text("\n".join(line[s:] for line in lines) + "\n")
            outs.append(out)
        return [path, *outs]
    write(path, rows, rng)
    return [path]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mb", type=float, default=10.0)
    ap.add_argument("--only", default="")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    rows = int(args.mb * 2**20 / _ROW_BYTES)
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    worst: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for name, (keys, file_name, write, statement) in CASES.items():
            if args.only and not any(s in name for s in args.only.split(",")):
                continue
            small = _paths(name, file_name, write, tmp / "small", 2000, rng)
            paths = _paths(name, file_name, write, tmp / "big", rows, rng)
            # an archive by its unpacked size, as dashboard.data.upload_memory counts it
            size = sum(unpacked_size(p.read_bytes(), 2**40) for p in paths)
            figures = []
            for variant, files in (
                ("plain", paths),
                ("bad last", [*paths[:-1], _bad_last_value(paths[-1])]),
            ):
                got = _measure(statement, small, files)
                factor = (got["after"] - got["before"]) * 1024 / size
                figures.append(factor)
                print(
                    f"{name:24s} {variant:8s} {size / 2**20:6.1f} MB: +"
                    f"{(got['after'] - got['before']) / 1024:7.1f} MB, {factor:4.1f}x "
                    f"({got['outcome']})"
                )
            for key in keys.split():
                worst[key] = max(worst.get(key, 0.0), *figures)
            for folder in ("small", "big"):
                for p in (tmp / folder).iterdir():
                    p.unlink()
    print("worst factor per upload key:")
    for key, factor in sorted(worst.items()):
        print(f"  {key:26s} {factor:4.1f}x")
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
