"""Generate the SYNTHETIC system-level metric sample in sample_data/metrics/ (seeded, deterministic).

    python sample_data/make_metrics_sample.py

Writes
  metrics/human.tsv        WMT system-level format, human scores (METRIC = HUMAN)
  metrics/metrics.tsv      WMT system-level format, 12 metrics (3 of them error metrics)
  metrics/es-en_wide.csv   the es-en language pair as a wide CSV (system, human, metrics..., lp)

The numbers are invented. Four language pairs with 10-16 systems each; every pair has one very
weak system that inflates Pearson's r of the metrics that place it far below the others
(Graham & Baldwin 2014, Figure 1). For es-en (12 systems) the generator is tuned so that the
correlations the paper reports for WMT-12 Spanish-English come out: TerrorCat r = 0.971 and
AMBER r = 0.881 with humans, both Spearman rho = 0.965, and TerrorCat not significantly better
(one-sided Williams p >= 0.05) than the next four metrics (METEOR, SAGAN, SEMPOS, PosF).
The metric names are those of WMT-12 participants; their scores here are NOT theirs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from scipy import optimize, stats

SEED = 20140529
OUT = Path(__file__).resolve().parent / "metrics"
TESTSET = "newstest2012"
METRICS = [
    "BLEU",
    "NIST",
    "METEOR",
    "AMBER",
    "TerrorCat",
    "SAGAN",
    "SEMPOS",
    "PosF",
    "chrF",
    "TER",
    "WER",
    "PER",
]
ERROR_METRICS = {"TER", "WER", "PER"}
#: (location, scale) turning a standardised score into the metric's usual range
SCALE = {
    "BLEU": (28.0, 4.0),
    "NIST": (7.5, 0.5),
    "METEOR": (0.33, 0.02),
    "AMBER": (0.22, 0.015),
    "TerrorCat": (0.55, 0.12),
    "SAGAN": (0.27, 0.03),
    "SEMPOS": (0.47, 0.03),
    "PosF": (0.52, 0.025),
    "chrF": (55.0, 3.0),
    "TER": (0.55, 0.04),
    "WER": (0.62, 0.045),
    "PER": (0.44, 0.03),
}
SYSTEM_NAMES = [
    "online-A",
    "online-B",
    "online-C",
    "online-D",
    "cmu",
    "dcu",
    "jhu",
    "kit",
    "limsi",
    "lium",
    "uedin",
    "upc",
    "qcri",
    "rwth",
    "uk",
    "sfu",
]


def _std(x):
    x = np.asarray(x, dtype=float)
    return (x - x.mean()) / x.std()


def with_correlation(h, noise, r):
    """``h`` plus ``noise`` made orthogonal to ``h`` and scaled so corr(result, h) == r exactly."""
    hc = _std(h)
    e = noise - noise.mean()
    e = e - (e @ hc) / (hc @ hc) * hc
    s = np.sqrt(hc @ hc) * np.sqrt(1.0 / r**2 - 1.0) / np.sqrt(e @ e)
    return hc + s * e


def human_scores(rng, n):
    """'Expected wins'-like human scores: a cluster plus one very weak system (last)."""
    cluster = np.sort(rng.uniform(0.42, 0.70, n - 1))[::-1]
    weak = cluster.min() - rng.uniform(0.22, 0.28)
    return np.append(cluster, weak)


def same_rank_values(perm_rank, shape):
    """Values whose ranks are ``perm_rank`` (1 = lowest), spaced like ``shape`` (ascending)."""
    return np.asarray(shape)[perm_rank - 1]


def es_en(rng):
    """The es-en pair, tuned to the numbers Graham & Baldwin (2014) report for WMT-12 es-en."""
    n = 12
    h = human_scores(rng, n)
    human_rank = stats.rankdata(h).astype(int)  # 1 = weakest
    # TerrorCat and AMBER rank the systems identically: five disjoint adjacent swaps among the
    # cluster give sum d^2 = 10, i.e. Spearman rho = 1 - 6*10/(12*143) = 0.965
    metric_rank = human_rank.copy()
    for a, b in [(12, 11), (10, 9), (8, 7), (6, 5), (4, 3)]:
        ia, ib = np.flatnonzero(human_rank == a)[0], np.flatnonzero(human_rank == b)[0]
        metric_rank[ia], metric_rank[ib] = b, a
    sorted_h = np.sort(h)
    even = np.arange(1.0, n + 1)

    def terrorcat(lam):
        return same_rank_values(metric_rank, sorted_h + lam * even / n)

    lam = optimize.brentq(lambda x: np.corrcoef(terrorcat(x), h)[0, 1] - 0.971, 0.0, 10.0)
    tc = terrorcat(lam)

    def amber(theta):  # convex spacing: the weak system sits close to the others
        return same_rank_values(metric_rank, even**theta)

    theta = optimize.brentq(lambda x: np.corrcoef(amber(x), h)[0, 1] - 0.881, 1.0, 12.0)
    am = amber(theta)
    targets = {
        "METEOR": 0.964,
        "SAGAN": 0.961,
        "SEMPOS": 0.958,
        "PosF": 0.955,
        "BLEU": 0.912,
        "NIST": 0.905,
        "chrF": 0.936,
        "TER": -0.902,
        "WER": -0.887,
        "PER": -0.874,
    }
    scores = {"AMBER": _std(am), "TerrorCat": _std(tc)}
    for m, r in targets.items():
        noise = rng.normal(size=n)
        noise[-1] = 0.0  # the weak system is as weak for every metric: it inflates r
        scores[m] = with_correlation(h, noise, abs(r)) * np.sign(r)
    return h, scores


def other_pair(rng, n, strength):
    h = human_scores(rng, n)
    scores = {}
    for m in METRICS:
        r = float(np.clip(strength + rng.normal(scale=0.05), 0.55, 0.985))
        noise = rng.normal(size=n)
        if rng.random() < 0.5:
            noise[-1] = 0.0  # weak system in line: inflated r
        else:
            noise[-1] = rng.normal(scale=2.5)  # weak system off the line: r pulled down
        sign = -1.0 if m in ERROR_METRICS else 1.0
        scores[m] = with_correlation(h, noise, r) * sign
    return h, scores


def to_metric_scale(m, z):
    """Standardised score -> the metric's usual range (error metrics already carry sign -1)."""
    loc, scale = SCALE[m]
    return loc + scale * np.asarray(z)


def build():
    rng = np.random.default_rng(SEED)
    pairs = {}
    h, sc = es_en(rng)
    pairs["es-en"] = (SYSTEM_NAMES[:12], h, sc)
    for lp, n, strength in [("de-en", 16, 0.88), ("fr-en", 14, 0.93), ("cs-en", 10, 0.80)]:
        names = list(rng.permutation(SYSTEM_NAMES)[:n])
        h, sc = other_pair(rng, n, strength)
        pairs[lp] = (names, h, sc)
    return pairs


def fmt(x):
    return f"{x:.6f}"


def write(pairs, out: Path = OUT):
    out.mkdir(parents=True, exist_ok=True)
    header = "METRIC\tLP\tTESTSET\tSYSTEM\tSCORE"
    human_rows = [header]
    metric_rows = [header]
    for lp, (names, h, sc) in pairs.items():
        human_rows += [
            f"HUMAN\t{lp}\t{TESTSET}\t{s}\t{fmt(v)}" for s, v in zip(names, h, strict=True)
        ]
        for m in METRICS:
            vals = to_metric_scale(m, sc[m])
            metric_rows += [
                f"{m}\t{lp}\t{TESTSET}\t{s}\t{fmt(v)}" for s, v in zip(names, vals, strict=True)
            ]
    (out / "human.tsv").write_text("\n".join(human_rows) + "\n", encoding="utf-8")
    (out / "metrics.tsv").write_text("\n".join(metric_rows) + "\n", encoding="utf-8")
    names, h, sc = pairs["es-en"]
    lines = [",".join(["system", "human", *METRICS, "lp"])]
    for i, s in enumerate(names):
        row = [s, fmt(h[i]), *(fmt(to_metric_scale(m, sc[m])[i]) for m in METRICS), "es-en"]
        lines.append(",".join(row))
    (out / "es-en_wide.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write(build())
    print(f"wrote {OUT}/human.tsv, metrics.tsv, es-en_wide.csv")
