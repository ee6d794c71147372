"""Test data shared by several test modules: the bundled MT sample and small builders on it."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from stats.mt.randomized import approximate_randomization, bootstrap, paired_bootstrap
from stats.readers.segments import read_parallel

ROOT = Path(__file__).resolve().parents[1]
#: The bundled MT sample: reference.txt, hyp/<system>.txt (8 systems x 500 segments) and
#: segment_scores.tsv.
MT = ROOT / "sample_data" / "mt"

#: Test name -> single-pair function of :mod:`stats.mt.randomized`.
SINGLE = {
    "paired-bootstrap": paired_bootstrap,
    "bootstrap": bootstrap,
    "approximate-randomization": approximate_randomization,
}


def mt_sample_text() -> tuple[list[list[str]], dict[str, list[str]]]:
    """``(references, hypotheses)`` of the MT sample, as :func:`read_parallel` returns them
    (one reference stream; systems in file-name order)."""
    return read_parallel([MT / "reference.txt"], sorted(MT.glob("hyp/*.txt")))


def mt_sample_head(n: int, systems: Sequence[str]) -> tuple[str, dict[str, str]]:
    """The first ``n`` segments of the MT sample as text: ``(reference, {system: output})``,
    one segment per line with a final newline."""

    def head(path: Path) -> str:
        return "\n".join(path.read_text().splitlines()[:n]) + "\n"

    return head(MT / "reference.txt"), {s: head(MT / "hyp" / f"{s}.txt") for s in systems}


def write_mt_sample_head(
    folder: Path, n: int, systems: Sequence[str], *, ref_name: str = "reference.txt"
) -> tuple[Path, list[Path]]:
    """Write :func:`mt_sample_head` to ``folder`` (``ref_name`` and ``<system>.txt``); return
    the reference path and the output paths (in ``systems`` order)."""
    ref_text, outputs = mt_sample_head(n, systems)
    ref = Path(folder) / ref_name
    ref.write_text(ref_text)
    hyps = []
    for s, text in outputs.items():
        p = Path(folder) / f"{s}.txt"
        p.write_text(text)
        hyps.append(p)
    return ref, hyps


def pvalue_matrix(names: Sequence[str], cells: dict[tuple[str, str], float]) -> pd.DataFrame:
    """A square p-value matrix over ``names`` (object-dtype labels), NaN except the given
    ``{(row, column): p}`` cells."""
    idx = pd.Index(names, dtype=object)
    m = pd.DataFrame(np.nan, index=idx, columns=idx)
    for (r, c), p in cells.items():
        m.at[r, c] = p
    return m


def run_rscript(script: str, *args: str | Path, cwd: Path | None = None) -> str:
    """Run the R code ``script`` with ``Rscript -e`` (``args`` after it, for
    ``commandArgs(trailingOnly = TRUE)``) and return what it printed. Skips the calling test
    when Rscript is not installed, or when the script fails because the psych package is
    missing; any other failure fails the test with R's message."""
    if shutil.which("Rscript") is None:
        pytest.skip("Rscript not installed")
    out = subprocess.run(
        ["Rscript", "-e", script, *map(str, args)],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
    )
    if out.returncode != 0 and "psych" in out.stderr:
        pytest.skip("R package psych not installed")
    assert out.returncode == 0, out.stderr
    return out.stdout


#: Systems of the sample system outputs (sample_data/mt/hyp), best first by design.
MT_SYSTEMS = ("Aurora", "Borealis", "Cirrus", "Delta", "Ember", "Fjord", "Glacier", "Harbor")


def da_segment_text(systems=MT_SYSTEMS, segments: int = 60, seed: int = 0) -> str:
    """A segment-level DA file as the WMT organisers publish it (``SYS SID RAW.SCR Z.SCR N``,
    space-separated): system k's z scores drawn around ``0.6 - 0.3 k`` (seeded)."""
    rng = np.random.default_rng(seed)
    lines = ["SYS SID RAW.SCR Z.SCR N"]
    for k, s in enumerate(systems):
        z = rng.normal(0.6 - 0.3 * k, 0.8, segments)
        raw = np.clip(65 + 18 * z + rng.normal(0, 5, segments), 0, 100)
        lines += [f"{s} {i + 1} {raw[i]:.1f} {z[i]:.4f} {1 + i % 2}" for i in range(segments)]
    return "\n".join(lines) + "\n"
