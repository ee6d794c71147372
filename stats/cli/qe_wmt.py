"""Output of ``python -m stats qe`` for WMT20-24 QE files (sentence and word level): JSON, TSV
and LaTeX. Only formatting lives here; the numbers come from :mod:`stats.analyses.qe_wmt`.

Sentence-level JSON::

    {"primary", "test", "n_resamples", "seed", "confidence_level", "alpha", "correction",
     "read_as",                          # "read as WMT QE sentence-level submissions, ..."
     "skipped": [{"file", "why"}],       # empty or header-only files of the folder
     "gold_read_as",                     # "read gold.tsv as WMT QE gold labels (...): ..."
     "exclude_file",
     "language_pairs": [{"lp", "n", "excluded", "test",
                         "systems": [{"system", "spearman", "spearman_low", "spearman_high",
                                      "pearson", ..., "kendall", ..., "mae", "rmse",
                                      "mae_rescaled", "rmse_rescaled", "rank"}],
                         "pvalues": {row: {col: p or null}},
                         "pvalues_adjusted": {...},          # with --correction
                         "rank": {system: cluster}}],
     "average": [{"system", "spearman", "pearson", "kendall", "mae", "rmse",
                  "files", "pooled"}],        # pooled: over separately submitted files
     "submissions": {system: {"file", "disk_footprint", "parameters", "ensemble"}}}

Word-level JSON: the same shape with ``mcc``, ``mcc_low``, ``mcc_high``, ``f1_bad``,
``f1_ok``, ``f1_mult`` per system and paired-bootstrap p-values on MCC.
"""

from __future__ import annotations

import math

import pandas as pd

from stats.escape import latex as latex_escape
from stats.escape import tsv_comment
from stats.qe.wmt import POOLED_NOTE

from ._common import dumps, matrix_tsv, pvalue_matrix_json, table_tsv


def _rows(table: pd.DataFrame) -> list[dict]:
    out = []
    for system, row in table.iterrows():
        rec: dict[str, object] = {"system": str(system)}
        for c, v in row.items():
            if c == "rank" or c in ("sentences", "words", "files"):
                rec[c] = None if pd.isna(v) else int(v)
            elif c == "pooled":
                rec[c] = bool(v)
            else:
                rec[c] = None if pd.isna(v) else float(v)
        out.append(rec)
    return out


def _num(v, digits: int = 3) -> str:
    return "--" if v is None or (isinstance(v, float) and math.isnan(v)) else f"{v:.{digits}f}"


def _latex(
    blocks: list[tuple[str, pd.DataFrame]], primary: str, others: list[str], caption: str
) -> str:
    lines = [
        r"\begin{table}[t]",
        r"\centering\small",
        r"\begin{tabular}{llr" + "r" * (1 + len(others)) + "}",
        r"\toprule",
        "LP & System & Rank & " + " & ".join([f"{primary} [CI]", *others]) + r" \\",
        r"\midrule",
    ]
    for lp, t in blocks:
        for i, (system, row) in enumerate(t.iterrows()):
            lo, hi = row.get(f"{primary}_low"), row.get(f"{primary}_high")
            ci = f" [{_num(lo)}, {_num(hi)}]" if lo is not None and not pd.isna(lo) else ""
            mark = r"$^\dagger$" if bool(row.get("pooled", False)) else ""
            cells = [
                latex_escape(lp) if i == 0 else "",
                latex_escape(str(system)) + mark,
                "" if "rank" not in row or pd.isna(row["rank"]) else str(int(row["rank"])),
                _num(row[primary]) + ci,
                *(_num(row[c]) for c in others),
            ]
            lines.append(" & ".join(cells) + r" \\")
        lines.append(r"\midrule")
    lines[-1] = r"\bottomrule"
    lines += [r"\end{tabular}", rf"\caption{{{latex_escape(caption)}}}", r"\end{table}"]
    return "\n".join(lines)


def sentence_output(analysis, *, fmt: str) -> str:
    res = analysis.result
    primary = res.primary
    others = [m for m in ("spearman", "pearson", "kendall") if m != primary]
    blocks = [(lp, r.table) for lp, r in res.language_pairs.items()]
    if fmt == "latex":
        avg = res.average.copy()
        if len(avg):
            blocks.append(("average", avg))
        pooled = bool(len(avg)) and bool(avg["pooled"].any())
        return _latex(
            blocks,
            primary,
            others,
            f"QE systems by {primary} per language pair ({int(res.confidence_level * 100)}% "
            f"bootstrap CI, {res.n_resamples} resamples, seed {analysis.seed}); rank: "
            f"significance cluster at alpha {res.alpha:g}, correction {res.correction}."
            + (f" † {POOLED_NOTE}." if pooled else ""),
        )
    if fmt == "tsv":
        parts = [
            f"# primary {primary}; {res.n_resamples} resamples; seed {analysis.seed}; "
            f"alpha {res.alpha:g}; correction {res.correction}"
        ]
        for lp, r in res.language_pairs.items():
            rows = _rows(r.table)
            parts += [
                "",
                tsv_comment(f"{lp}: n = {r.n}, excluded = {r.excluded}; test {r.test}"),
                table_tsv(rows, list(rows[0])),
                tsv_comment(f"{lp}: p that the row system's {primary} exceeds the column system's"),
                matrix_tsv(r.pvalue),
            ]
        if len(res.average):
            rows = _rows(res.average)
            parts += ["", "# average over language pairs", table_tsv(rows, list(rows[0]))]
            if res.average["pooled"].any():
                parts.append(f"# pooled = True: {POOLED_NOTE}")
        return "\n".join(parts)
    out = {
        "primary": primary,
        "n_resamples": res.n_resamples,
        "seed": analysis.seed,
        "confidence_level": res.confidence_level,
        "alpha": res.alpha,
        "correction": res.correction,
        "read_as": analysis.read_as,
        "gold_read_as": analysis.input.gold.read_as,
        "skipped": [{"file": f, "why": w} for f, w in analysis.input.submissions.skipped],
        "exclude_file": analysis.input.exclude_file,
        "gold_file": analysis.input.gold.file,
        "language_pairs": [],
        "average": _rows(res.average),
        "submissions": analysis.input.submissions.headers,
        "warnings": list(analysis.warnings),
    }
    for lp, r in res.language_pairs.items():
        block = {
            "lp": lp,
            "n": r.n,
            "excluded": r.excluded,
            "test": r.test,
            "systems": _rows(r.table),
            "pvalues": pvalue_matrix_json(r.pvalue),
            "rank": {str(k): None if pd.isna(v) else int(v) for k, v in r.rank.items()},
        }
        if res.correction != "none":
            block["pvalues_adjusted"] = pvalue_matrix_json(r.pvalue_adjusted)
        out["language_pairs"].append(block)
    return dumps(out)


def word_output(result, *, fmt: str, seed: int) -> str:
    if fmt == "latex":
        blocks = [(lp, t) for lp, t in result.tables.items()]
        return _latex(
            blocks,
            "mcc",
            ["f1_bad", "f1_ok"],
            f"Word-level QE by MCC (paired bootstrap over sentences, {result.n_resamples} "
            f"resamples, seed {seed}).",
        )
    if fmt == "tsv":
        parts = [f"# word level: MCC primary; {result.n_resamples} resamples; seed {seed}"]
        for lp, t in result.tables.items():
            rows = _rows(t)
            parts += [
                "",
                tsv_comment(lp),
                table_tsv(rows, list(rows[0])),
                tsv_comment(f"{lp}: paired bootstrap p that the row system's MCC exceeds the column's"),
                matrix_tsv(result.pvalue[lp]),
            ]
        return "\n".join(parts)
    return dumps(
        {
            "level": "word",
            "primary": "mcc",
            "n_resamples": result.n_resamples,
            "seed": seed,
            "alpha": result.alpha,
            "correction": result.correction,
            "language_pairs": [
                {
                    "lp": lp,
                    "systems": _rows(t),
                    "pvalues": pvalue_matrix_json(result.pvalue[lp]),
                    "rank": {str(k): None if pd.isna(v) else int(v) for k, v in t["rank"].items()},
                }
                for lp, t in result.tables.items()
            ],
            "average": _rows(result.average),
        }
    )
