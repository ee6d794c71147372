"""Generate synthetic human judgements for the MT sample (seeded, deterministic).

Judges the systems of ``sample_data/mt/`` (names and latent quality from
``sample_data/mt/systems.tsv``; segments ``1..N`` = lines of ``reference.txt``) the way a
crowd-sourced direct assessment (DA) does: 25 annotators give 0-100 adequacy and fluency
scores to (system, segment) items.

Model of one judgement by annotator ``a`` of system ``s`` on segment ``i``, criterion ``c``::

    t      = SIGNAL * (quality[s] + human_offset[c][s])       # what humans value in s
           + SEGMENT * (chrF[s, i] - mean_i chrF[s, i]) / 100 # the realised translation
           + N(0, 1)                                          # judgement noise
    score  = clip(round(bias[a] + 12 * spread[a] * (t - centre)), 0, 100)

* ``quality[s]`` is the latent quality of issue 5's sample; ``human_offset`` adds small
  differences between what humans and what string metrics reward (so the metric-based tests
  do not agree with humans on every pair, as in the paper);
* ``chrF[s, i]`` is sacrebleu's sentence chrF of the actual hypothesis, so human scores follow
  the realised segment quality too;
* annotators are lenient (high ``bias``), strict (low ``bias``) or neutral, with different
  spreads; each judges 1-4 "HITs" of 100 items per criterion, drawing systems with their own
  uneven preferences (a Dirichlet draw), so raw means are distorted by who judged what and
  standardising each annotator's scores matters.

Outputs (sample_data/human/):
  judgements.tsv   SYSTEM SEGMENT ANNOTATOR CRITERION SCORE (tab-separated)
  judgements.csv   the same rows as CSV
  annotators.tsv   ANNOTATOR TYPE BIAS SPREAD (the generating parameters, for reference)

Run:  .venv/bin/python sample_data/make_human_sample.py
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import sacrebleu

SEED = 20140627
HERE = Path(__file__).resolve().parent
MT = HERE / "mt"
OUT = HERE / "human"

N_ANNOTATORS = 25
HIT_SIZE = 100
SIGNAL = 2.0  # standardised-score units per unit of latent quality
SEGMENT = 2.0  # weight of the realised segment quality (chrF deviation / 100)

#: what humans reward beyond the string-matching quality (latent-quality units)
HUMAN_OFFSET = {
    "adequacy": {"Ember": 0.05, "Delta": -0.02, "Glacier": -0.025},
    "fluency": {"Borealis": -0.04, "Fjord": 0.03, "Cirrus": 0.02},
}


def _systems() -> dict[str, float]:
    rows = (MT / "systems.tsv").read_text(encoding="utf-8").splitlines()
    head = rows[0].split("\t")
    i_sys, i_q = head.index("SYSTEM"), head.index("QUALITY")
    return {r.split("\t")[i_sys]: float(r.split("\t")[i_q]) for r in rows[1:] if r.strip()}


def _chrf(systems: list[str]) -> np.ndarray:
    refs = (MT / "reference.txt").read_text(encoding="utf-8").splitlines()
    chrf = sacrebleu.metrics.CHRF()
    out = np.empty((len(systems), len(refs)))
    for k, s in enumerate(systems):
        hyps = (MT / "hyp" / f"{s}.txt").read_text(encoding="utf-8").splitlines()
        out[k] = [chrf.sentence_score(h, [r]).score for h, r in zip(hyps, refs, strict=True)]
    return out


def main() -> None:
    rng = np.random.default_rng(SEED)
    quality = _systems()
    systems = list(quality)
    chrf = _chrf(systems)
    n_seg = chrf.shape[1]
    dev = (chrf - chrf.mean(axis=1, keepdims=True)) / 100.0
    q = np.array([quality[s] for s in systems])
    centre = SIGNAL * q.mean()

    kinds = rng.permutation(["lenient"] * 8 + ["strict"] * 8 + ["neutral"] * 9)
    base = {"lenient": 68.0, "strict": 36.0, "neutral": 52.0}
    annotators = []
    for a in range(N_ANNOTATORS):
        kind = str(kinds[a])
        annotators.append(
            {
                "id": f"ann{a + 1:02d}",
                "type": kind,
                "bias": round(float(base[kind] + rng.normal(0, 5)), 1),
                "spread": round(float(rng.uniform(0.45, 1.6)), 2),
                "prefs": rng.dirichlet(np.full(len(systems), 3.0)),
                # a few annotators did only one criterion
                "criteria": ("adequacy",)
                if a in (3, 11, 19)
                else ("fluency",)
                if a in (7, 22)
                else ("adequacy", "fluency"),
            }
        )

    rows = []
    for ann in annotators:
        for crit in ann["criteria"]:
            n = HIT_SIZE * int(rng.integers(1, 3))
            sys_idx = rng.choice(len(systems), size=n, p=ann["prefs"])
            seg_idx = rng.integers(0, n_seg, size=n)
            offset = np.array([HUMAN_OFFSET[crit].get(s, 0.0) for s in systems])
            t = (
                SIGNAL * (q[sys_idx] + offset[sys_idx])
                + SEGMENT * dev[sys_idx, seg_idx]
                + rng.normal(0, 1, size=n)
            )
            score = np.clip(np.round(ann["bias"] + 12 * ann["spread"] * (t - centre)), 0, 100)
            rows += [
                (systems[s], str(g + 1), ann["id"], crit, int(v))
                for s, g, v in zip(sys_idx, seg_idx, score, strict=True)
            ]

    OUT.mkdir(exist_ok=True)
    header = ("SYSTEM", "SEGMENT", "ANNOTATOR", "CRITERION", "SCORE")
    with open(OUT / "judgements.tsv", "w", encoding="utf-8", newline="") as f:
        f.write("\t".join(header) + "\n")
        f.writelines("\t".join(map(str, r)) + "\n" for r in rows)
    with open(OUT / "judgements.csv", "w", encoding="utf-8", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)
    with open(OUT / "annotators.tsv", "w", encoding="utf-8", newline="") as f:
        f.write("ANNOTATOR\tTYPE\tBIAS\tSPREAD\tCRITERIA\n")
        f.writelines(
            f"{a['id']}\t{a['type']}\t{a['bias']}\t{a['spread']}\t{','.join(a['criteria'])}\n"
            for a in annotators
        )
    print(
        f"wrote {len(rows)} judgements by {N_ANNOTATORS} annotators of {len(systems)} systems to {OUT}"
    )


if __name__ == "__main__":
    main()
