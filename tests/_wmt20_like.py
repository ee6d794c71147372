"""Seeded WMT20-like system-level files as the organisers published them (generated, no WMT data):
several language pairs, one ``METRIC.sys.score`` file per metric (REFSET
column; QE metrics with REFSET ``src``), DA files ``ad-sys-scores-LP.csv`` whose systems include
human translations (``Human-A.0``, ``Human-B.0``) that most metrics did not score, and metrics
that skip a language pair."""

from __future__ import annotations

from pathlib import Path

import numpy as np

#: file order (the findings' tables put into-English first: cs-en, de-en, zh-en, en-cs, ...)
LPS = ("en-zh", "zh-en", "cs-en", "de-en", "en-cs", "en-de")
METRICS = (
    "BLEU",
    "chrF",
    "TER",
    "sentBLEU",
    "BERTScore",
    "COMET",
    "PRISM",
    "YiSi-1",
    "BLEURT",
    "esim",
    "parbleu",
    "EED",
)
QE = ("COMET-QE", "YiSi-2")
HUMANS = ("Human-A.0", "Human-B.0")


def write_wmt20_like(directory, *, seed: int = 0, n_systems: int = 8) -> list[Path]:
    """Write the files into ``directory``; return their paths (metric files, then DA files)."""
    rng = np.random.default_rng(seed)
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    rows: dict = {m: [] for m in METRICS + QE}
    da_paths = []
    for i, lp in enumerate(LPS):
        systems = [f"Sys{k}.{100 + k}" for k in range(n_systems)] + list(HUMANS)
        z = rng.normal(0, 0.3, len(systems))
        lines = ["RAW.SCR Z.SCR N SYS N.ALL "]
        for s, zi in zip(systems, z, strict=True):
            lines.append(f"{70 + 10 * float(zi)!r} {float(zi)!r} 500 {s} 700 ")
        p = d / f"ad-sys-scores-{lp}.csv"
        p.write_text("\n".join(lines) + "\n")
        da_paths.append(p)
        for j, m in enumerate(METRICS + QE):
            if m == "EED" and i == 2:
                continue  # a metric that skipped a language pair
            refset = "src" if m in QE else "newstest2020"
            scored = systems if (m in QE or j % 4 == 0) else systems[:n_systems]
            sign = -1 if m == "TER" else 1
            for s in scored:
                v = float(sign * z[systems.index(s)] + rng.normal(0, 0.1 + 0.05 * j))
                rows[m].append(f"{m}\t{lp}\tnewstest2020\t{refset}\t{s}\t{v!r}")
    paths = []
    for m, lines in rows.items():
        p = d / f"{m}.sys.score"
        p.write_text("\n".join(lines) + "\n")
        paths.append(p)
    return paths + da_paths
