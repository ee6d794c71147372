"""Seeded WMT-like uploads at the sizes of WMT23 (generated, no WMT data), for the legibility
tests:

* :func:`metrics_30` -- WMT metrics task system-level files as the organisers published them
  (one ``METRIC.sys.score`` file per metric: ``METRIC LP TESTSET REFSET SYSTEM SCORE``,
  reference-free metrics with REFSET ``src``; DA files ``ad-sys-scores-LP.csv``), 30 metrics
  under WMT23 names (hyphenated: COMET-22, BERTScore-F1, YiSi-1, MetricX-23-QE; long:
  mre-score-labse-regular, docWMT22CometKiwiDA), 16 systems, the three WMT23 language pairs,
  zipped as one download;
* :func:`qe_8_lps` -- a WMT23 QE task 1 submissions folder (``T1_sentence/<team>/<lp>/
  predictions.txt`` and team-level files holding every pair, with the three header lines; one
  file without them) for 8 language pairs and 6 teams, zipped, and the gold file (``lp gold segid score`` with
  ``hallucination`` items).
"""

from __future__ import annotations

import io
import zipfile

import numpy as np

#: WMT23 metrics task names (30): reference-based, then reference-free (REFSET src)
METRICS_REF = (
    "BLEU", "chrF", "spBLEU", "TER", "f200spBLEU", "BERTScore-F1", "YiSi-1", "COMET-20",
    "COMET-22", "BLEURT-20", "MetricX-23", "MetricX-23-b", "MetricX-23-c", "XCOMET-Ensemble",
    "MS-COMET-22", "Calibri-COMET22", "docWMT22CometDA", "cometoid22-wmt22", "eBLEU",
    "embed_llama", "partokengram_F", "mre-score-labse-regular", "prismRef",
)  # fmt: skip
METRICS_QE = (
    "COMETKiwi", "MetricX-23-QE", "XCOMET-QE-Ensemble", "MS-COMET-QE-22", "docWMT22CometKiwiDA",
    "GEMBA-MQM", "KG-BERTScore",
)  # fmt: skip
METRICS = METRICS_REF + METRICS_QE
#: WMT23 general task system names (16), one long
SYSTEMS = (
    "ONLINE-B", "ONLINE-W", "ONLINE-Y", "ONLINE-A", "ONLINE-G", "ONLINE-M", "GPT4-5shot",
    "NLLB_Greedy", "NLLB_MBR_BLEU", "Lan-BridgeMT", "ZengHuiMT", "AIRC", "GTCOM_Peter",
    "UvA-LTL", "CUNI-GA", "Samsung_Research_Philippines",
)  # fmt: skip
METRICS_LPS = ("en-de", "he-en", "zh-en")
TESTSET = "generaltest2023"
#: the file of the zip of :func:`metrics_30`
METRICS_ZIP = "wmt23-metrics-sys.zip"


def metrics_30(seed: int = 37) -> bytes:
    """The zip of 30 ``<metric>.sys.score`` files and 3 DA files (see the module docstring).
    Every metric scores every system; TER is an error metric (lower is better); metrics differ
    in noise, so some pairs of metrics differ significantly and some do not."""
    rng = np.random.default_rng(seed)
    rows: dict[str, list[str]] = {m: [] for m in METRICS}
    files: dict[str, str] = {}
    for lp in METRICS_LPS:
        z = rng.normal(0.0, 0.4, len(SYSTEMS))
        lines = ["RAW.SCR Z.SCR N SYS N.ALL "]
        lines += [
            f"{75 + 12 * zi!r} {zi!r} 1500 {s} 1800 "
            for s, zi in zip(SYSTEMS, z.tolist(), strict=True)
        ]
        files[f"ad-sys-scores-{lp}.csv"] = "\n".join(lines) + "\n"
        for j, m in enumerate(METRICS):
            refset = "src" if m in METRICS_QE else "refA"
            sign = -1.0 if m == "TER" else 1.0
            v = sign * (z + rng.normal(0.0, 0.05 + 0.02 * (j % 12), len(SYSTEMS)))
            rows[m] += [
                f"{m}\t{lp}\t{TESTSET}\t{refset}\t{s}\t{x!r}"
                for s, x in zip(SYSTEMS, v.tolist(), strict=True)
            ]
    for m, lines in rows.items():
        files[f"{m}.sys.score"] = "\n".join(lines) + "\n"
    return _zip(files)


#: WMT23 QE task 1 language pairs (8)
QE_LPS = ("en-de", "zh-en", "he-en", "en-mr", "en-hi", "en-ta", "en-te", "en-gu")
#: (team, method, noise of its predictions): a long method name scores best and another worst,
#: so the page's default scatter (best against worst) has two long titles side by side
QE_TEAMS = (
    ("ustc-LabA", "core_ensemble_multilingual_xlmr_large", 0.3),
    ("unbabel-LabB", "CometKiwi-XXL-ensemble", 0.45),
    ("hw-LabC", "HW-TSC-QE", 0.6),
    ("baseline", "baseline", 0.8),
    ("fox-LabF", "COMETTDAug", 1.0),
    ("zz-LabG", "TeamZZ_monolingual_distilled_regressor", 1.4),
)
_HEADER = ("42868104221", "10716932147", "4")
#: the zip of :func:`qe_8_lps` and the gold file's name
QE_ZIP = "T1_sentence.zip"
#: the team with a folder per language pair
PER_PAIR_TEAM = "unbabel-LabB"
QE_GOLD = "gold_labels_task1_sentence.tsv"


def qe_8_lps(seed: int = 23, n: int = 60, hallucinations: int = 2) -> dict:
    """``{"zip": bytes, "gold": text}``: every team in every language pair; ``unbabel-LabB``
    in ``<team>/<lp>/predictions.txt`` files (its en-gu file without the header lines), the
    other teams in one file at their team folder's root holding every pair."""
    rng = np.random.default_rng(seed)
    gold = ["lp\tgold\tsegid\tscore"]
    files: dict[str, str] = {}
    rows: dict[str, list[str]] = {}
    for lp in QE_LPS:
        z = rng.normal(size=n)
        g = np.round(70 + 15 * z + rng.normal(scale=3, size=n), 2)
        hall = set(rng.choice(n, size=hallucinations, replace=False).tolist())
        gold += [
            f"{lp}\tgold\t{i}\t{'hallucination' if i in hall else f'{g[i]:.2f}'}" for i in range(n)
        ]
        for team, method, noise in QE_TEAMS:
            p = np.round(z + rng.normal(scale=noise, size=n), 6)
            lines = [f"{lp}\t{method}\t{i}\t{float(p[i])!r}" for i in range(n)]
            if team != PER_PAIR_TEAM:
                rows.setdefault(team, []).extend(lines)
                continue
            header = [] if lp == "en-gu" else list(_HEADER)
            files[f"{team}/{lp}/predictions.txt"] = "\n".join(header + lines) + "\n"
    for team, lines in rows.items():
        files[f"{team}/predictions.txt"] = "\n".join([*_HEADER, *lines]) + "\n"
    return {
        "zip": _zip({f"T1_sentence/{p}": t for p, t in files.items()}),
        "gold": "\n".join(gold) + "\n",
    }


def _zip(files: dict[str, str]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for path in sorted(files):
            zf.writestr(zipfile.ZipInfo(path, (2023, 8, 1, 0, 0, 0)), files[path])
    return buf.getvalue()
