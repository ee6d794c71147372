"""A seeded generator of WMT metrics task files as the organisers publish them, for tests.

Two language pairs: cs-en (one reference, newstest2020) and en-de (two references,
newstest2020 and newstestB2020, and the human translation Human-B.0 among the systems). Every
language pair has an outlier system (Bad.999, far below the others in the human scores).
Metrics: BLEU (gzip, no header, tab), chrF (header, whitespace), TER (an error metric),
COMET-QE (reference-free, REFSET ``src``) and METEOR (no score for one cs-en system).
Human scores: DA system-level files ``ad-sys-scores-xx-yy.csv``. Segment- and document-level
files of one metric, and the same system-level set as a zip and a tar.gz archive.
"""

from __future__ import annotations

import gzip
import io
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

TESTSET = "newstest2020"
REFSETS = {"cs-en": ["newstest2020"], "en-de": ["newstest2020", "newstestB2020"]}
MT_SYSTEMS = [f"Sys{i}.{100 + i}" for i in range(8)]
OUTLIER = "Bad.999"
HUMAN_TRANSLATION = "Human-B.0"
MISSING = ("METEOR", "cs-en", "Sys3.103")  #: the one score METEOR lacks
METRICS = ("BLEU", "chrF", "TER", "COMET-QE", "METEOR")
SYS_FILES = [f"{m}.sys.score" + (".gz" if m == "BLEU" else "") for m in METRICS]
DA_FILES = [f"ad-sys-scores-{lp}.csv" for lp in REFSETS]


def systems(lp: str) -> list[str]:
    return MT_SYSTEMS + [OUTLIER] + ([HUMAN_TRANSLATION] if lp == "en-de" else [])


def truth(seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(human, metrics)``: human columns ``lp system raw z n n_all``; metric columns
    ``metric lp testset refset system score`` (the rows the files hold)."""
    rng = np.random.default_rng(seed)
    human_rows, metric_rows = [], []
    for lp, refs in REFSETS.items():
        names = systems(lp)
        z = rng.normal(0.0, 0.25, len(names))
        z[names.index(OUTLIER)] = -1.6
        if HUMAN_TRANSLATION in names:
            z[names.index(HUMAN_TRANSLATION)] = 0.45
        raw = 72 + 12 * z + rng.normal(0, 1.0, len(names))
        n = rng.integers(500, 800, len(names))
        for s, zi, ri, ni in zip(names, z, raw, n, strict=True):
            human_rows.append((lp, s, float(ri), float(zi), int(ni), int(ni) + 200))
        for ref in refs:
            for metric in METRICS:
                if metric == "COMET-QE" and ref != refs[0]:
                    continue  # one score per system: it uses no reference
                refset = "src" if metric == "COMET-QE" else ref
                noise = rng.normal(0, 0.12, len(names))
                base = {
                    "BLEU": (30, 8),
                    "chrF": (0.55, 0.06),
                    "TER": (0.6, -0.1),
                    "COMET-QE": (0.1, 0.3),
                    "METEOR": (0.3, 0.05),
                }[metric]
                score = base[0] + base[1] * (z + noise)
                for s, v in zip(names, score, strict=True):
                    if (metric, lp, s) == MISSING:
                        continue
                    if s == HUMAN_TRANSLATION and ref == "newstestB2020":
                        continue  # the reference itself
                    metric_rows.append((metric, lp, TESTSET, refset, s, float(v)))
    human = pd.DataFrame(human_rows, columns=["lp", "system", "raw", "z", "n", "n_all"])
    metrics = pd.DataFrame(
        metric_rows, columns=["metric", "lp", "testset", "refset", "system", "score"]
    )
    return human, metrics


def _sys_text(rows: pd.DataFrame, *, header: bool, sep: str) -> str:
    lines = [sep.join(["METRIC", "LP", "TESTSET", "REFSET", "SYSTEM", "SCORE"])] if header else []
    lines += [
        sep.join([r.metric, r.lp, r.testset, r.refset, r.system, repr(r.score)])
        for r in rows.itertuples()
    ]
    return "\n".join(lines) + "\n"


def _da_text(rows: pd.DataFrame) -> str:
    lines = ["RAW.SCR Z.SCR N SYS N.ALL "]
    lines += [f"{r.raw!r} {r.z!r} {r.n} {r.system} {r.n_all} " for r in rows.itertuples()]
    return "\n".join(lines) + "\n"


def system_level_files(seed: int = 0) -> dict[str, bytes]:
    """File name -> bytes of the system-level set: one file per metric, one DA file per LP."""
    human, metrics = truth(seed)
    out = {}
    for metric, name in zip(METRICS, SYS_FILES, strict=True):
        rows = metrics[metrics["metric"] == metric]
        text = _sys_text(rows, header=metric == "chrF", sep=" " if metric == "chrF" else "\t")
        data = text.encode()
        out[name] = gzip.compress(data, mtime=0) if name.endswith(".gz") else data
    for lp, name in zip(REFSETS, DA_FILES, strict=True):
        out[name] = _da_text(human[human["lp"] == lp]).encode()
    return out


def segment_level_text(seed: int = 0, *, docs: int = 3, segs: int = 4) -> str:
    """A ``sentBLEU.seg.score`` (with ENSEMBLE AVAILABLE) of cs-en: SEGID restarts per doc."""
    rng = np.random.default_rng(seed + 1)
    lines = []
    for s in MT_SYSTEMS:
        for d in range(docs):
            for g in range(1, segs + 1):
                v = rng.random()
                lines.append(
                    f"sentBLEU\tcs-en\t{TESTSET}\t{TESTSET}\t{s}\tdoc{d}\t{g}\t{v!r}\tnon-ensemble\tyes"
                )
    return "\n".join(lines) + "\n"


#: segment-level metrics of :func:`segment_level_files`
SEG_METRICS = ("sentBLEU", "COMET")
SEG_FILES = ("sentBLEU.seg.score.gz", "COMET.seg.score")


def segment_level_files(seed: int = 0, *, docs: int = 3, segs: int = 5) -> dict[str, bytes]:
    """File name -> bytes of a segment-level set as published: ``sentBLEU.seg.score.gz``
    (gzip, no header, tab, ENSEMBLE AVAILABLE) and ``COMET.seg.score`` (header, whitespace),
    each with cs-en (one reference) and en-de (two references; the human translation has no
    score against newstestB2020, which it is). System ``k`` scores ``0.4 + 0.04 k`` plus
    noise, so the later systems are the better ones."""
    rng = np.random.default_rng(seed + 3)
    out = {}
    for metric, name in zip(SEG_METRICS, SEG_FILES, strict=True):
        header = metric == "COMET"
        sep = " " if header else "\t"
        lines = [sep.join(SEG_COLUMNS)] if header else []
        for lp, refs in REFSETS.items():
            names = MT_SYSTEMS + ([HUMAN_TRANSLATION] if lp == "en-de" else [])
            for ref in refs:
                for k, s in enumerate(names):
                    if s == HUMAN_TRANSLATION and ref == "newstestB2020":
                        continue
                    for d in range(docs):
                        for g in range(1, segs + 1):
                            v = 0.4 + 0.04 * k + rng.normal(0, 0.1)
                            row = [metric, lp, TESTSET, ref, s, f"doc{d}", str(g), repr(v)]
                            lines.append(sep.join(row + ([] if header else ["non-ensemble", "yes"])))
        data = ("\n".join(lines) + "\n").encode()
        out[name] = gzip.compress(data, mtime=0) if name.endswith(".gz") else data
    return out


SEG_COLUMNS = ("METRIC", "LP", "TESTSET", "REFSET", "SYSTEM", "DOCID", "SEGID", "SCORE")


def document_level_text(seed: int = 0, *, docs: int = 3) -> str:
    """A ``chrF.doc.score`` of cs-en (with a header)."""
    rng = np.random.default_rng(seed + 2)
    lines = ["METRIC LP TESTSET REFSET SYSTEM DOCID SCORE"]
    for s in MT_SYSTEMS:
        for d in range(docs):
            lines.append(f"chrF cs-en {TESTSET} {TESTSET} {s} doc{d} {rng.random()!r}")
    return "\n".join(lines) + "\n"


def zip_bytes(files: dict[str, bytes], folder: str = "wmt20/") -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in files.items():
            zf.writestr(folder + name, data)
        zf.writestr(folder + "README.md", b"not a score file")
    return buf.getvalue()


def tar_gz_bytes(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        for name, data in files.items():
            info = tarfile.TarInfo(f"scores/{name}")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def write_fixture(directory: Path, seed: int = 0) -> dict[str, Path]:
    """Write the system-level set into ``directory`` (plus seg/doc files, a zip and a
    tar.gz beside it); returns the paths by role."""
    directory = Path(directory)
    sys_dir = directory / "sys"
    sys_dir.mkdir(parents=True, exist_ok=True)
    files = system_level_files(seed)
    for name, data in files.items():
        (sys_dir / name).write_bytes(data)
    (directory / "sentBLEU.seg.score").write_text(segment_level_text(seed))
    (directory / "chrF.doc.score").write_text(document_level_text(seed))
    (directory / "all.zip").write_bytes(zip_bytes(files))
    (directory / "all.tar.gz").write_bytes(tar_gz_bytes(files))
    return {
        "dir": sys_dir,
        "metrics": [sys_dir / n for n in SYS_FILES],
        "human": [sys_dir / n for n in DA_FILES],
        "seg": directory / "sentBLEU.seg.score",
        "doc": directory / "chrF.doc.score",
        "zip": directory / "all.zip",
        "tar": directory / "all.tar.gz",
    }
