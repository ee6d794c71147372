"""Test data shared by several test modules: the bundled MT sample and small builders on it."""

from __future__ import annotations

from pathlib import Path

from stats.randomized import approximate_randomization, bootstrap, paired_bootstrap
from stats.readers.segments import read_parallel

ROOT = Path(__file__).resolve().parents[1]
#: The bundled MT sample: reference.txt, hyp/<system>.txt (8 systems x 500 segments) and
#: segment_scores.tsv.
MT = ROOT / "sample_data" / "mt"

#: Test name -> single-pair function of :mod:`stats.randomized`.
SINGLE = {
    "paired-bootstrap": paired_bootstrap,
    "bootstrap": bootstrap,
    "approximate-randomization": approximate_randomization,
}


def mt_sample_text() -> tuple[list[list[str]], dict[str, list[str]]]:
    """``(references, hypotheses)`` of the MT sample, as :func:`read_parallel` returns them
    (one reference stream; systems in file-name order)."""
    return read_parallel([MT / "reference.txt"], sorted(MT.glob("hyp/*.txt")))
