"""Seeded WMT24-like data in MTME's layout for the task-set tests and benchmark: a few language
pairs, MQM-like gold (rounded, ties, some missing), metrics scored against the standard
reference, another reference and the source, and a second human translation as a system."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from tests._meta_golden import score_lines

#: metric base name -> noise level (smaller is better)
METRICS = {"XCOMET": 0.6, "MetricX-24-Hybrid": 0.7, "COMET-22": 0.9, "BLEU": 1.6, "chrF": 1.4}
QE = {"CometKiwi": 1.0}


def write_wmt_like(
    root,
    lps=("en-de", "en-es", "ja-zh"),
    *,
    n_systems=6,
    n_items=30,
    seed=0,
    std_refs=None,
    metrics=METRICS,
    qe=QE,
    testset="wmt24",
) -> Path:
    """Write the data under ``root/testset`` and return that directory."""
    rng = np.random.default_rng(seed)
    base = Path(root) / testset
    (base / "human-scores").mkdir(parents=True, exist_ok=True)
    (base / "references").mkdir(parents=True, exist_ok=True)
    std_refs = std_refs or {"en-de": "refB"}
    for lp in lps:
        std = std_refs.get(lp, "refA")
        other = "refA" if std == "refB" else "refB"
        systems = [f"sys{i}" for i in range(n_systems)] + [other]
        quality = rng.normal(0, 1, n_systems + 1)
        quality[-1] = 1.5  # the human translation is good
        truth = quality[:, None] + rng.normal(0, 1, (len(systems), n_items))
        gold = -np.round(np.clip(2.5 - truth, 0, None) * 2) / 2  # MQM-like: <= 0, ties
        gold[rng.random(gold.shape) < 0.05] = np.nan
        (base / "human-scores" / f"{lp}.mqm.seg.score").write_text(score_lines(systems, gold))
        for ref in ("refA", "refB"):
            (base / "references" / f"{lp}.{ref}.txt").write_text("x\n" * n_items)
        mdir = base / "metric-scores" / lp
        mdir.mkdir(parents=True, exist_ok=True)
        for name, noise in metrics.items():
            for ref in (std, other):
                scored = systems if ref == std else systems[:-1]
                vals = truth[: len(scored)] + rng.normal(0, noise, (len(scored), n_items))
                (mdir / f"{name}-{ref}.seg.score").write_text(score_lines(scored, vals))
        for name, noise in qe.items():
            vals = truth + rng.normal(0, noise, truth.shape)
            (mdir / f"{name}-src.seg.score").write_text(score_lines(systems, vals))
    return base
