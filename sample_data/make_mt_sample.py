"""Generate the synthetic MT sample in sample_data/mt/ (seeded, deterministic).

A reference of 500 segments is built from a Zipf-distributed pseudo-word vocabulary; each of
8 systems corrupts it with token-level noise (substitutions, deletions, insertions, swaps)
whose rate falls with the system's latent quality ``q`` and rises with each segment's latent
difficulty. Two systems (Fjord, Glacier) share the same quality, so their difference is pure
chance; two others (Cirrus, Delta) are very close.

Outputs (sample_data/mt/):
  reference.txt             the reference, one segment per line
  hyp/<System>.txt          one hypothesis file per system
  systems.tsv               SYSTEM QUALITY (latent quality in [0, 1]; higher is better) and
                            NOISE (expected token error rate on a segment of mean difficulty)
  segment_scores.tsv        long format SYSTEM SEGMENT SCORE METRIC, metrics "chrF"
                            (sacrebleu sentence chrF) and "SimCOMET" (synthetic COMET-like
                            score in [0, 1] driven by the realised corruption)
  segment_scores_wide.csv   SEGMENT + one column per system, SimCOMET

Run:  .venv/bin/python sample_data/make_mt_sample.py
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import sacrebleu

SEED = 20140626
N_SEGMENTS = 500
OUT = Path(__file__).resolve().parent / "mt"

#: latent quality per system (higher is better), deliberately not in alphabetical order
SYSTEMS = {
    "Cirrus": 0.72,
    "Aurora": 0.80,
    "Harbor": 0.50,
    "Delta": 0.715,
    "Borealis": 0.78,
    "Fjord": 0.62,
    "Ember": 0.68,
    "Glacier": 0.62,
}


def _vocabulary(rng: np.random.Generator, size: int = 1500) -> list[str]:
    onsets = ["b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z", "br",
              "st", "tr", "kl", "sh", "ch"]
    vowels = ["a", "e", "i", "o", "u", "ai", "ou", "ee"]
    codas = ["", "n", "r", "s", "t", "l", "m", "nd", "st"]
    words: set[str] = set()
    while len(words) < size:
        syll = rng.integers(1, 4)
        w = "".join(
            rng.choice(onsets) + rng.choice(vowels) + rng.choice(codas) for _ in range(syll)
        )
        words.add(w)
    return sorted(words)


def _reference(rng, vocab):
    ranks = np.arange(1, len(vocab) + 1)
    probs = 1.0 / ranks**1.05
    probs /= probs.sum()
    segs = []
    for _ in range(N_SEGMENTS):
        n = int(np.clip(rng.gamma(4.0, 4.5), 3, 45))
        toks = list(rng.choice(vocab, size=n, p=probs))
        if n > 8 and rng.random() < 0.4:
            toks.insert(int(rng.integers(2, n - 2)), ",")
        toks[0] = toks[0].capitalize()
        segs.append(toks)
    return segs, probs


def _corrupt(rng, toks, rate, vocab, probs):
    out = []
    i = 0
    n_err = 0
    while i < len(toks):
        t = toks[i]
        if rng.random() < rate:
            n_err += 1
            op = rng.random()
            if op < 0.5:  # substitution
                out.append(str(rng.choice(vocab, p=probs)))
            elif op < 0.7:  # deletion
                pass
            elif op < 0.85:  # insertion
                out.extend([t, str(rng.choice(vocab, p=probs))])
            elif i + 1 < len(toks):  # swap with the next token
                out.extend([toks[i + 1], t])
                i += 1
            else:
                out.append(t)
        else:
            out.append(t)
        i += 1
    return out, n_err / max(len(toks), 1)


def _detok(toks, period=True):
    text = " ".join(toks).replace(" ,", ",")
    return text + ("." if period else "")


def main() -> None:
    rng = np.random.default_rng(SEED)
    vocab = _vocabulary(rng)
    ref_toks, probs = _reference(rng, vocab)
    difficulty = rng.gamma(2.0, 0.5, size=N_SEGMENTS)  # mean 1
    refs = [_detok(t) for t in ref_toks]
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "hyp").mkdir(exist_ok=True)
    (OUT / "reference.txt").write_text("\n".join(refs) + "\n", encoding="utf-8")
    noise = {name: 1.2 * (1.0 - q) for name, q in SYSTEMS.items()}
    long_rows = ["SYSTEM\tSEGMENT\tSCORE\tMETRIC"]
    wide = {}
    chrf = sacrebleu.CHRF()
    for name, _q in SYSTEMS.items():
        hyps, sim = [], []
        for s, toks in enumerate(ref_toks):
            rate = float(np.clip(noise[name] * difficulty[s], 0.0, 0.9))
            out, frac = _corrupt(rng, toks, rate, vocab, probs)
            if out:
                out[0] = out[0][:1].upper() + out[0][1:]
            hyps.append(_detok(out, period=rng.random() > rate))
            sim.append(float(np.clip(0.92 - 1.1 * frac + rng.normal(0.0, 0.04), 0.0, 1.0)))
        (OUT / "hyp" / f"{name}.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
        for s, (h, r) in enumerate(zip(hyps, refs, strict=True), start=1):
            long_rows.append(f"{name}\t{s}\t{chrf.sentence_score(h, [r]).score:.4f}\tchrF")
        for s, v in enumerate(sim, start=1):
            long_rows.append(f"{name}\t{s}\t{v:.4f}\tSimCOMET")
        wide[name] = sim
    (OUT / "segment_scores.tsv").write_text("\n".join(long_rows) + "\n", encoding="utf-8")
    names = list(SYSTEMS)
    lines = ["SEGMENT," + ",".join(names)]
    for s in range(N_SEGMENTS):
        lines.append(f"{s + 1}," + ",".join(f"{wide[n][s]:.4f}" for n in names))
    (OUT / "segment_scores_wide.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    rows = ["SYSTEM\tQUALITY\tNOISE"] + [
        f"{n}\t{q:.3f}\t{noise[n]:.4f}" for n, q in SYSTEMS.items()
    ]
    (OUT / "systems.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
