"""Generate synthetic WMT25 automatic scores in the published layout (seeded, deterministic).

``automatic_scores/SYSTEM.jsonl``, one file per system, one JSON line per (language pair,
document)::

    {"language_pair": "en-cs_CZ", "domain": "news", "document_id": "doc003",
     "metric_scores": {"CometKiwi-XL": [...], "GEMBA-ESA-CMDA": [...], ...}}

one value per paragraph. **All numbers are invented**; the metric and language-pair names are
WMT25's so the tables look familiar. What the published files have, and the reader must say:

* nulls (about 1% of the GEMBA values, a few of the others);
* metrics present for some language pairs only: ``chrF++`` for English-Bhojpuri and
  English-Maasai (the pairs WMT25 ranks by chrF++ alone) and none of the others there;
  CometKiwi-XL is in every other pair (the ``wmt25`` preset leaves it out where WMT25 had no
  references);
* a system without one language pair (the third system has no lines for the second pair);
* a system without one metric in one pair (the last system has no CometKiwi-XL in the first).

Each system has a latent quality; each document a difficulty shared by all systems (so a
paired bootstrap over documents is narrower than an unpaired one); the metrics read both with
their own noise and scale. MetricX is stored negated, as published.

Run:  .venv/bin/python sample_data/make_wmt25_sample.py   (writes sample_data/wmt25/)
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

#: the sample's systems and their latent quality (higher is better)
SYSTEMS = {
    "Aurora": 0.80, "Borealis": 0.78, "Cirrus": 0.74, "Delta": 0.735, "Ember": 0.70,
    "Fjord": 0.62, "Glacier": 0.62, "Harbor": 0.45,
}  # fmt: skip
#: the sample's language pairs (WMT25 names): two with references, one without, one chrF++-only
SAMPLE_LPS = ("en-cs_CZ", "en-ja_JP", "en-de_DE", "en-bho_IN")
#: WMT25's 31 language pairs (the benchmark's size)
WMT25_LPS = (
    "cs-de_DE", "cs-uk_UA", "en-ar_EG", "en-bho_IN", "en-bn_BD", "en-cs_CZ", "en-de_DE",
    "en-el_GR", "en-et_EE", "en-fa_IR", "en-hi_IN", "en-id_ID", "en-is_IS", "en-it_IT",
    "en-ja_JP", "en-kn_IN", "en-ko_KR", "en-lt_LT", "en-mas_KE", "en-mr_IN", "en-ro_RO",
    "en-ru_RU", "en-sr_Cyrl_RS", "en-sr_Latn_RS", "en-sv_SE", "en-th_TH", "en-tr_TR",
    "en-uk_UA", "en-vi_VN", "ja-zh_CN", "en-zh_CN",
)  # fmt: skip
METRICS = ("CometKiwi-XL", "GEMBA-ESA-CMDA", "GEMBA-ESA-GPT4.1", "MetricX-24-Hybrid-XL",
           "XCOMET-XL")  # fmt: skip
CHRF_ONLY = ("en-bho_IN", "en-mas_KE")
DOMAINS = ("news", "social", "speech", "literary", "dialogue")


def _metric_values(metric: str, quality: float, difficulty: np.ndarray, rng) -> list:
    n = difficulty.size
    base = quality - difficulty
    if metric == "CometKiwi-XL":
        v = np.clip(0.45 + 0.5 * base + rng.normal(0, 0.08, n), 0, 1)
        return v.astype(np.float32).astype(float).tolist()
    if metric == "XCOMET-XL":
        v = np.clip(0.25 + 0.8 * base + rng.normal(0, 0.15, n), 0, 1)
        return v.astype(np.float32).astype(float).tolist()
    if metric == "MetricX-24-Hybrid-XL":
        v = np.clip(-14 + 14 * base + rng.normal(0, 2.5, n), -25, 0)
        return v.astype(np.float32).astype(float).tolist()
    if metric == "chrF++":
        v = np.clip(20 + 45 * base + rng.normal(0, 8, n), 0, 100)
        return np.round(v, 4).tolist()
    v = np.clip(np.round(20 + 80 * base + rng.normal(0, 12, n)), 0, 100)  # GEMBA: integers
    return v.astype(np.int64).tolist()


def generate(
    seed: int = 20250901,
    *,
    systems: dict[str, float] | None = None,
    lps: tuple[str, ...] = SAMPLE_LPS,
    documents: int = 12,
    paragraphs: tuple[int, int] = (1, 8),
    null_rate: float = 0.01,
    cases: bool = True,
) -> dict[str, bytes]:
    """``{"SYSTEM.jsonl": bytes}`` of synthetic automatic scores (the module docstring).

    ``documents`` per language pair with ``paragraphs`` (low, high) paragraphs each;
    ``cases``: the third system lacks the second language pair and the last system lacks
    CometKiwi-XL in the first (with at least 3 systems and 2 pairs)."""
    rng = np.random.default_rng(seed)
    systems = dict(SYSTEMS if systems is None else systems)
    names = list(systems)
    lines: dict[str, list[str]] = {s: [] for s in names}
    for li, lp in enumerate(lps):
        lp_shift = rng.normal(0, 0.05)
        metrics = ("chrF++",) if lp in CHRF_ONLY else METRICS
        n = rng.integers(paragraphs[0], paragraphs[1] + 1, documents)
        bounds = np.cumsum(n)[:-1]
        difficulty = np.repeat(rng.normal(0, 0.15, documents), n) + rng.normal(0, 0.1, n.sum())
        docs = [(DOMAINS[d % len(DOMAINS)], f"{DOMAINS[d % len(DOMAINS)][:3]}{d:03d}")
                for d in range(documents)]  # fmt: skip
        for si, s in enumerate(names):
            if cases and si == 2 and li == 1 and len(names) >= 3:
                continue  # a system without this language pair
            quality = systems[s] + lp_shift + rng.normal(0, 0.02)
            per_metric = {}
            for m in metrics:
                if cases and li == 0 and si == len(names) - 1 and m == "CometKiwi-XL":
                    continue  # a system without this metric in this language pair
                values = _metric_values(m, quality, difficulty, rng)
                rate = null_rate if m.startswith("GEMBA") else null_rate / 5
                for i in np.flatnonzero(rng.random(len(values)) < rate):
                    values[i] = None
                per_metric[m] = np.split(np.array(values, dtype=object), bounds)
            for d, (domain, doc) in enumerate(docs):
                record = {"language_pair": lp, "domain": domain, "document_id": doc,
                          "metric_scores": {m: v[d].tolist() for m, v in per_metric.items()}}  # fmt: skip
                lines[s].append(json.dumps(record))
    return {f"{s}.jsonl": ("\n".join(lines[s]) + "\n").encode("utf-8") for s in names}


def main() -> None:
    out = Path(__file__).resolve().parent / "wmt25" / "automatic_scores"
    out.mkdir(parents=True, exist_ok=True)
    for name, data in generate().items():
        (out / name).write_bytes(data)


if __name__ == "__main__":
    main()
