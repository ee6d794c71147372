"""Generated files in the layouts WMT and MTME publish (no WMT data), for the tests of WMT's published layouts:

* :func:`write_wmt25_mixed`: MTME's layout of a WMT25-like test set whose language pairs have
  different gold types (``mqm`` for en-ko_KR, ``esa-human1`` for cs-de_DE, en-ko_KR having
  both), metrics named ``NAME-REF`` with hyphens in NAME (``COMET-QE-src``);
* :func:`long_text`: the long format ``METRIC LP TESTSET SYSTEM SEGMENT SCORE`` with metric
  names as WMT writes them (``YiSi-2``, ``COMET-QE``, ``BERT-base-L2``), ``HUMAN:NAME`` rows,
  and WMT's human translations as systems (``Human-A.0`` with metric scores only,
  ``Human-B.0`` with human scores too);
* :func:`wide_csv_empty_gold`: a wide CSV whose ``human:mqm`` column is empty for one pair;
* :func:`wmt20_seg_score`: a WMT20 ``*.seg.score`` file (8 fields, tab-separated);
* :func:`outliers_json`: WMT20's ``outliers.json`` (language pair -> systems).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tests._meta_golden import score_lines

WMT25_LPS = ("cs-de_DE", "en-ko_KR")
HYPHENATED = ("BLEU", "YiSi-2", "COMET-QE", "BERT-base-L2", "chrF")


def _truth(rng, n_systems, n_items):
    quality = rng.normal(0, 1, n_systems)
    return quality[:, None] + rng.normal(0, 1, (n_systems, n_items))


def write_wmt25_mixed(root, *, n_systems=6, n_items=20, seed=0) -> tuple[Path, dict]:
    """MTME's layout under ``root/wmt25``; returns the directory and, per language pair, the
    gold arrays (``{lp: {gold_name: array}}``) and metric arrays (``{lp: {metric: array}}``)."""
    rng = np.random.default_rng(seed)
    base = Path(root) / "wmt25"
    (base / "human-scores").mkdir(parents=True, exist_ok=True)
    (base / "references").mkdir(parents=True, exist_ok=True)
    systems = [f"sys{i}" for i in range(n_systems)]
    golds: dict = {}
    metrics: dict = {}
    for lp in WMT25_LPS:
        truth = _truth(rng, n_systems, n_items)
        mqm = np.round(truth * 4) / 4
        esa = rng.normal(0, 1, truth.shape)  # unrelated to the metrics: a wrong gold shows
        golds[lp] = {"esa-human1": esa}
        (base / "human-scores" / f"{lp}.esa-human1.seg.score").write_text(
            score_lines(systems, esa)
        )
        if lp == "en-ko_KR":
            golds[lp]["mqm"] = mqm
            (base / "human-scores" / f"{lp}.mqm.seg.score").write_text(score_lines(systems, mqm))
        (base / "references" / f"{lp}.refA.txt").write_text("x\n" * n_items)
        mdir = base / "metric-scores" / lp
        mdir.mkdir(parents=True, exist_ok=True)
        gold = mqm if lp == "en-ko_KR" else esa
        metrics[lp] = {}
        for name, noise in (("m1-refA", 0.3), ("COMET-QE-src", 0.8)):
            vals = gold + rng.normal(0, noise, gold.shape)
            metrics[lp][name] = vals
            (mdir / f"{name}.seg.score").write_text(score_lines(systems, vals))
    return base, {"gold": golds, "metrics": metrics}


def long_text(
    *,
    lps=("de-en", "en-de"),
    n_systems=5,
    n_items=12,
    seed=1,
    metrics=HYPHENATED,
    constant=None,
    humans=True,
) -> str:
    """Long text with a header; ``constant``: a metric name whose scores are all 1.0."""
    rng = np.random.default_rng(seed)
    lines = ["METRIC\tLP\tTESTSET\tSYSTEM\tSEGMENT\tSCORE"]
    for lp in lps:
        systems = [f"Sys{k}.{100 + k}" for k in range(n_systems)]
        scored = systems + (["Human-A.0", "Human-B.0"] if humans else [])
        truth = _truth(rng, len(scored), n_items)
        for s, row in zip(scored, truth, strict=True):
            if s == "Human-A.0":
                continue  # WMT: a human translation with metric scores but no human score
            for j, v in enumerate(row):
                lines.append(f"HUMAN:mqm\t{lp}\tnewstest2020\t{s}\t{j + 1}\t{float(v)!r}")
        for m_index, m in enumerate(metrics):
            noise = 0.3 + 0.3 * m_index
            vals = truth + rng.normal(0, noise, truth.shape)
            for s, row in zip(scored, vals, strict=True):
                for j, v in enumerate(row):
                    value = 1.0 if m == constant else float(v)
                    lines.append(f"{m}\t{lp}\tnewstest2020\t{s}\t{j + 1}\t{value!r}")
    return "\n".join(lines) + "\n"


def wide_csv_empty_gold(*, n_systems=4, n_items=6, seed=2) -> str:
    """``lp,system,segment,human:mqm,BLEU,YiSi-2``; the mqm column empty for en-de."""
    rng = np.random.default_rng(seed)
    rows = ["lp,system,segment,human:mqm,BLEU,YiSi-2"]
    for lp in ("de-en", "en-de"):
        for k in range(n_systems):
            for j in range(n_items):
                g = "" if lp == "en-de" else f"{rng.normal():.4f}"
                rows.append(
                    f"{lp},Sys{k},{j + 1},{g},{rng.normal():.4f},{rng.normal():.4f}"
                )
    return "\n".join(rows) + "\n"


def wmt20_seg_score(metric="YiSi-2", *, lps=("cs-en", "de-en"), n_systems=4, n_docs=2,
                    n_segs=3, seed=3, refset=None) -> str:
    """``METRIC LP TESTSET REFSET SYSTEM DOCID SEGID SCORE`` lines, tab-separated (WMT20)."""
    rng = np.random.default_rng(seed)
    out = []
    for lp in lps:
        for k in range(n_systems):
            for d in range(n_docs):
                for s in range(n_segs):
                    ref = refset or ("src" if metric in ("YiSi-2", "COMET-QE") else "newstest2020")
                    out.append(
                        f"{metric}\t{lp}\tnewstest2020\t{ref}\tSys{k}.{100 + k}\tdoc{d}\t{s + 1}\t"
                        f"{rng.normal():.6f}"
                    )
    return "\n".join(out) + "\n"


def outliers_json(mapping=None) -> str:
    """WMT20's ``outliers.json``: ``{lp: [system, ...]}``."""
    return json.dumps(mapping or {"cs-en": ["zlabs-nlp.1149", "CUNI-DocTransformer.1457"]})
