"""Generate the synthetic quality-estimation (QE) sample data in ``sample_data/qe/``.

Run from the repository root: ``python sample_data/make_qe_sample.py`` (seeded; the output is
byte-for-byte reproducible). The data imitate WMT-14 Task 1.2 (HTER prediction) as analysed by
Graham (ACL 2015, https://aclanthology.org/P15-1174/):

* ``hter_long.txt`` -- 10 systems x 600 sentences in the long layout of the paper's reference
  tool (``METRIC SID SCORE RANK HUMAN``); gold HTER in [0, 1], skewed right with a spike of
  perfect translations (HTER 0).
* ``hter_wide.csv`` -- the same data as ``sid,gold,<system>,...``.
* ``wmt/`` -- three of the systems as WMT QE submission files (``<METHOD NAME> <SEGMENT
  NUMBER> <SEGMENT SCORE> <SEGMENT RANK>``, tab separated) plus ``wmt_gold.txt`` (one HTER
  per line).
* ``post_edit.tsv`` -- ``SID TIME WORDS HTER`` for the same 600 sentences: post-edit time in
  seconds, words in the translation, and the HTER gold label; post-edit rate (time / words)
  correlates more strongly with HTER than time does (paper Table 1).
* ``pet_long.txt`` -- four systems predicting post-edit time (seconds) against gold times;
  convert both to seconds per word with ``post_edit.tsv``'s word counts.
* ``effort_long.txt`` -- a Task 1.1-style set with discrete gold labels 1/2/3 where a system
  with continuous predictions beats a system with discrete 1/2/3 predictions on MAE although
  it correlates less with the gold labels (paper Figure 1).

Systems of ``hter_long.txt`` (predictions are HTER unless noted):

=================  =========================================================================
``ALPHA-svr``      strongest correlation, but over-dispersed and biased upwards: poor MAE
``BETA-nn``        strong, full gold spread, biased downwards
``GAMMA-gp``       strong, moderately conservative spread
``DELTA-rf``       mid, biased upwards
``ZETA-lasso``     mid
``ETA-clip``       mid, over-dispersed, clipped to [0, 1]
``baseline``       weaker, spread close to optimal: barely moves when rescaled
``CONSERV-mean``   conservative variance around the gold median: best MAE, low Pearson r
``EPS-tree``       weak, very over-dispersed and biased
``EFFORT-3class``  discrete 1/2/3 effort classes (another representation): MAE is meaningless,
                   Pearson r is fine
=================  =========================================================================
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

SEED = 20150726  # ACL 2015, Beijing
N = 600
OUT = Path(__file__).resolve().parent / "qe"

# name: (correlation of the latent prediction with gold, SD as a multiple of the gold SD,
#        shift of the mean in HTER units, clip to [0, 1])
SYSTEMS = {
    "ALPHA-svr": (0.64, 1.35, 0.06, False),
    "BETA-nn": (0.60, 1.10, -0.05, False),
    "GAMMA-gp": (0.57, 1.00, 0.04, False),
    "DELTA-rf": (0.52, 0.95, 0.05, False),
    "ZETA-lasso": (0.50, 0.90, -0.04, False),
    "ETA-clip": (0.47, 1.25, 0.03, True),
    "baseline": (0.40, 0.45, 0.00, False),
    "CONSERV-mean": (0.46, 0.30, None, False),  # None: centred on the gold median
    "EPS-tree": (0.33, 1.40, 0.07, False),
}
DISCRETE = ("EFFORT-3class", 0.55)


def _gold(rng: np.random.Generator) -> np.ndarray:
    """HTER-like labels: Beta(1.6, 4.2) (mean ~0.28, right skew) with ~7% exact zeros."""
    g = rng.beta(1.6, 4.2, size=N)
    g[rng.random(N) < 0.07] = 0.0
    return np.round(g, 4)


def _latent(rng: np.random.Generator, zg: np.ndarray, rho: float, shared: np.ndarray) -> np.ndarray:
    """Standardised prediction with correlation ~rho with zg; errors share a common part."""
    own = rng.standard_normal(N)
    err = 0.55 * shared + np.sqrt(1 - 0.55**2) * own
    x = rho * zg + np.sqrt(1 - rho**2) * err
    return (x - x.mean()) / x.std()


def _rank_low_is_best(score: np.ndarray) -> np.ndarray:
    """1 = predicted best translation (lowest predicted HTER / effort)."""
    order = np.argsort(score, kind="stable")
    ranks = np.empty(N, dtype=int)
    ranks[order] = np.arange(1, N + 1)
    return ranks


def _fmt(x: float) -> str:
    return f"{x:.6f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x))


def _write_long(path: Path, gold: np.ndarray, preds: dict[str, np.ndarray]) -> None:
    lines = ["METRIC SID SCORE RANK HUMAN"]
    for name, p in preds.items():
        ranks = _rank_low_is_best(p)
        lines += [
            f"{name} {i + 1} {_fmt(p[i])} {ranks[i]} {_fmt(gold[i])}" for i in range(N)
        ]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def main() -> None:
    rng = np.random.default_rng(SEED)
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "wmt").mkdir(exist_ok=True)

    gold = _gold(rng)
    mu, sd, med = gold.mean(), gold.std(ddof=1), np.median(gold)
    zg = (gold - mu) / sd
    shared = rng.standard_normal(N)

    preds: dict[str, np.ndarray] = {}
    for name, (rho, sd_mult, shift, clip) in SYSTEMS.items():
        z = _latent(rng, zg, rho, shared)
        centre = med if shift is None else mu + shift
        p = centre + sd_mult * sd * z
        if clip:
            p = np.clip(p, 0.0, 1.0)
        preds[name] = np.round(p, 4)
    name, rho = DISCRETE
    z = _latent(rng, zg, rho, shared)
    preds[name] = np.digitize(z, np.quantile(z, [0.45, 0.85])).astype(float) + 1.0

    _write_long(OUT / "hter_long.txt", gold, preds)

    header = "sid,gold," + ",".join(preds)
    rows = [
        ",".join([str(i + 1), _fmt(gold[i]), *(_fmt(p[i]) for p in preds.values())])
        for i in range(N)
    ]
    (OUT / "hter_wide.csv").write_text("\n".join([header, *rows]) + "\n", encoding="utf-8")

    for name in ("ALPHA-svr", "baseline", "CONSERV-mean"):
        p = preds[name]
        ranks = _rank_low_is_best(p)
        text = "\n".join(f"{name}\t{i + 1}\t{_fmt(p[i])}\t{ranks[i]}" for i in range(N))
        (OUT / "wmt" / f"{name}.txt").write_text(text + "\n", encoding="utf-8")
    (OUT / "wmt_gold.txt").write_text(
        "\n".join(_fmt(v) for v in gold) + "\n", encoding="utf-8"
    )

    # post-editing: words ~ lognormal; seconds per word driven by HTER; time = words x rate
    words = np.clip(np.round(rng.lognormal(np.log(20), 0.55, size=N)), 3, 90).astype(int)
    per = np.exp(np.log(3.0) + 0.45 * zg + 0.45 * rng.standard_normal(N))
    pet = np.round(per * words, 1)
    lines = ["SID\tTIME\tWORDS\tHTER"]
    lines += [f"{i + 1}\t{_fmt(pet[i])}\t{words[i]}\t{_fmt(gold[i])}" for i in range(N)]
    (OUT / "post_edit.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")

    # PET-predicting systems: predict log time from length and a noisy quality signal
    zt = (np.log(pet) - np.log(pet).mean()) / np.log(pet).std()
    pet_preds = {}
    for name, rho, spread in (
        ("PET-svr", 0.70, 0.9),
        ("PET-gp", 0.62, 0.7),
        ("PET-baseline", 0.50, 0.5),
        ("PET-length", 0.45, 0.4),
    ):
        z = _latent(rng, zt, rho, shared)
        pet_preds[name] = np.round(
            np.exp(np.log(pet).mean() + spread * np.log(pet).std() * z), 1
        )
    _write_long(OUT / "pet_long.txt", pet, pet_preds)

    # Task 1.1 style: discrete gold 1/2/3; continuous predictions beat discrete ones on MAE
    q = rng.standard_normal(N)
    eff = np.digitize(q, [-0.4, 0.9]).astype(float) + 1.0  # 1 perfect .. 3 very poor
    zq = (q - q.mean()) / q.std()
    disc = np.digitize(_latent(rng, zq, 0.6, shared), [-0.8, 0.3]).astype(float) + 1.0
    cont = np.median(eff) + 0.15 * eff.std() * _latent(rng, zq, 0.45, shared)
    _write_long(
        OUT / "effort_long.txt",
        eff,
        {"DISCRETE-clf": disc, "CONTINUOUS-svr": np.round(cont, 4)},
    )


if __name__ == "__main__":
    main()
