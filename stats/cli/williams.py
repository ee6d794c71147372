"""``python -m stats williams``: correlations with humans and all-pairs Williams tests per
language pair, from WMT system-level or wide CSV/TSV score files (Graham & Baldwin 2014)."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from stats._core.choices import POWER
from stats._core.errors import StatsInputError
from stats.escape import tsv_cell

from ._common import (
    add_correction,
    check_alpha_option,
    dumps,
    jsonable,
    matrix_tsv,
    pvalue_matrix_json,
    significance_json,
    significance_tsv,
)

if TYPE_CHECKING:
    from ..analyses import LanguagePairAnalysis

__all__ = ["add_parser", "document", "run"]


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser(
        "williams",
        help="Williams tests: does one metric correlate better with humans than another?",
        description=(
            "Pearson/Spearman/Kendall correlation of each metric with human scores and one-sided "
            "Williams tests for every pair of metrics, per language pair (Graham & Baldwin, EMNLP "
            "2014). Files: WMT system-level (METRIC LP TESTSET SYSTEM SCORE; human rows have "
            "METRIC HUMAN), the WMT metrics task's own files (METRIC LP TESTSET REFSET SYSTEM "
            "SCORE, one per metric; DA files RAW.SCR Z.SCR N SYS N.ALL), or wide CSV/TSV "
            "(system, human, one column per metric, optional lp). gzip, zip and tar(.gz) "
            "archives and directories are read as they are."
        ),
    )
    _many(p, "--human", "FILE", "human scores")
    _many(
        p,
        "--metrics",
        "FILE",
        "metric scores: files, directories (every score file inside) or archives",
    )
    _many(p, "--scores", "FILE", "files holding both human and metric scores")
    p.add_argument(
        "--lp",
        action="append",
        metavar="LP",
        help="language pair (default: all); with one, also the language pair of DA files whose "
        "name does not end in xx-yy",
    )
    p.add_argument(
        "--testset",
        metavar="NAME",
        help="only this test set (default: every test set, each its own block)",
    )
    p.add_argument(
        "--refset",
        metavar="NAME|all",
        help="reference (REFSET) to analyse: default the test set's own (REFSET = TESTSET); "
        "'all': each reference its own block",
    )
    _many(
        p,
        "--reference-free",
        "NAME",
        "metrics that use no reference (QE as a metric): they join every reference block",
    )
    _many(
        p,
        "--exclude-systems",
        "PATTERN",
        "leave out systems by name or shell pattern (e.g. 'Human-*')",
    )
    p.add_argument(
        "--exclude-outliers",
        action="store_true",
        help="leave out outlier systems: |x - median| / (1.4826 MAD) > 2.5 on the block's human "
        "scores (WMT20 findings)",
    )
    p.add_argument(
        "--outliers",
        metavar="FILE",
        help="WMT's outliers.json ({lp: [system, ...]}): those systems are left out of their "
        "language pair's blocks (as rank --outliers)",
    )
    p.add_argument(
        "--human-score",
        choices=("z", "raw"),
        default="z",
        help="score of DA files: Z.SCR (default, as in the findings) or RAW.SCR",
    )
    p.add_argument("--alternative", choices=("greater", "two-sided"), default="greater")
    p.add_argument(
        "--confidence-level",
        type=float,
        default=0.95,
        metavar="LEVEL",
        help="level of the Zou (2007) interval of each difference in r (default 0.95)",
    )
    p.add_argument(
        "--no-sign-align",
        action="store_true",
        help="compare signed r instead of |r| (error metrics are then not flipped)",
    )
    add_correction(p)
    p.add_argument(
        "--power",
        action="store_true",
        help=f"report the smallest difference in r each test detects with {POWER:.0%}% power at "
        "--alpha, given the number of systems and the correlations (noncentral-t "
        "approximation checked against simulation)",
    )
    p.add_argument("--format", choices=("json", "tsv"), default="json")
    p.set_defaults(func=run)
    return p


def _many(parser, flag: str, metavar: str, help: str) -> None:
    """An option taking several values, repeatable (its values are concatenated)."""
    parser.add_argument(flag, action="extend", nargs="+", default=[], metavar=metavar, help=help)


def _power(a: LanguagePairAnalysis, alpha: float):
    """``(detectable difference per cell, its median over the grid)`` of one block."""
    from stats.power.williams import median_detectable_difference, williams_grid_power

    grid = williams_grid_power(a.williams, alpha=alpha, power=POWER)
    return grid, median_detectable_difference(grid)


def _power_json(a: LanguagePairAnalysis, alpha: float) -> dict:
    """The ``power`` entry of a block: the smallest detectable difference per cell and its
    median over the grid."""
    grid, median = _power(a, alpha)
    return {
        "n": a.williams.n,
        "alpha": alpha,
        "power": POWER,
        "method": "noncentral t approximation",
        "median_detectable_difference": median,
        "detectable_difference": pvalue_matrix_json(grid),
    }


def _grid(a: LanguagePairAnalysis, alpha: float, correction: str):
    from stats.pairwise.grids import grid_significance

    res = a.williams
    return grid_significance(
        res.pvalue, alpha=alpha, correction=correction, alternative=res.alternative
    )


def _block(a: LanguagePairAnalysis, grid, power: bool) -> dict:
    """One block (language pair, test set, reference) of the JSON document: ``lp``,
    ``testset`` and ``refset`` each hold one name (null when the files name none)."""
    from stats.metaeval.williams import williams_winners

    corr, res, loo = a.correlation, a.williams, a.influence
    order = list(res.order)
    extra = significance_json(grid, "williams_p_adjusted")
    if power:
        extra["power"] = _power_json(a, grid.alpha)
    sel = a.selection
    return {
        "lp": a.lp,
        "testset": a.testset or None,
        "refset": a.refset or None,
        "n": res.n,
        "df": res.df,
        "metrics": order,
        "pearson": {m: corr.pearson[m] for m in order},
        "spearman": {m: corr.spearman[m] for m in order},
        "kendall": {m: corr.kendall[m] for m in order},
        "sign": {m: int(res.sign[m]) or None for m in order},  # null: r undefined
        "williams_p": pvalue_matrix_json(res.pvalue),
        "williams_t": pvalue_matrix_json(res.statistic),
        "difference": pvalue_matrix_json(res.difference),
        "ci_low": pvalue_matrix_json(res.ci_low),
        "ci_high": pvalue_matrix_json(res.ci_high),
        "metric_corr": pvalue_matrix_json(res.metric_corr),
        "most_influential_system": {
            m: {
                "system": loo.most_influential[m],
                "r_without": (
                    None
                    if loo.most_influential[m] is None
                    else loo.r_without.at[loo.most_influential[m], m]
                ),
            }
            for m in order
        },
        "alternative": res.alternative,
        "confidence_level": res.confidence_level,
        "sign_align": res.sign_align,
        "systems": list(a.scores.systems),
        "winners": list(williams_winners(res, alpha=grid.alpha)),
        "excluded_systems": list(sel.excluded_systems),
        "outliers": list(sel.outliers),
        "dropped_metrics": list(sel.dropped_metrics),
        "without_human": list(sel.without_human),
        **extra,
    }


def document(analyses, *, alpha=0.05, correction="none", power=False) -> dict:
    """The CLI's JSON document (as plain JSON types) of :func:`stats.analyses.metrics_report`;
    each block with its clusters (``rank``), sidedness, ``williams_p_adjusted`` with a
    ``correction`` and ``power`` when asked."""
    blocks = [_block(a, _grid(a, alpha, correction), power) for a in analyses]
    return jsonable({"language_pairs": blocks})


def _num(value, fmt: str) -> str:
    """``fmt`` applied to a number; '-' for None or NaN (an undefined statistic)."""
    return "-" if value is None or value != value else fmt.format(value)


def _tables(analyses, args) -> str:
    """TSV (or, with ``--format latex``, booktabs LaTeX) of each block, from the result
    objects: caption lines (``#``), then the Williams p-value matrix, significant cells
    marked."""
    from ..export_tables import pvalue_marks

    parts: list = []
    for a in analyses:
        res = a.williams
        order = list(res.order)
        grid = _grid(a, args.alpha, args.correction)
        side = "one-sided" if res.alternative == "greater" else "two-sided"
        head = (
            f"# {tsv_cell(a.lp)}"
            + (f" {tsv_cell(a.testset)}" if a.testset else "")
            + (f" refset={tsv_cell(a.refset)}" if a.refset else "")
            + f"\tn={res.n}\t{side} Williams p: row correlates better than column"
        )
        # an undefined r (constant metric) is '-', as in the matrix
        rs = "\t".join(
            tsv_cell(f"{m}={_num(a.correlation.pearson[m], '{:.4f}')}") for m in order
        )
        lines = [head, f"# pearson\t{rs}"]
        if a.refset or _left_out(a.selection):  # blocks of WMT metrics task files
            lines += _selection_lines(a, args.alpha)
        matrix = res.pvalue.loc[order, order]
        marks = pvalue_marks(res.significant(args.alpha).loc[order, order], alpha=args.alpha)
        lines.append(matrix_tsv(matrix, fmt="{:.4g}", marks=marks))
        if args.correction != "none":
            lines.append(significance_tsv(grid, "Williams p"))
        if args.power:
            d = _power(a, args.alpha)[1]
            lines.append(
                f"# power: with {res.n} systems, differences in r below "
                f"{_num(d, '{:.3f}')} (median over the pairs) are not detected with "
                f"{POWER:.0%} power at alpha={args.alpha:g}"
            )
        parts.append("\n".join(lines))
    return "\n\n".join(parts)


def _left_out(sel) -> bool:
    return bool(sel.excluded_systems or sel.without_human or sel.dropped_metrics)


def _selection_lines(a: LanguagePairAnalysis, alpha: float) -> list[str]:
    """The caption lines of a block: winners, and what was left out of it."""
    from stats.metaeval.williams import williams_winners

    sel = a.selection
    lines = [
        f"# winners (alpha={alpha:g}, not outperformed by any metric; the WMT17-21 rule, raw p)\t"
        + "\t".join(map(tsv_cell, williams_winners(a.williams, alpha=alpha)))
    ]
    outliers = set(sel.outliers)
    if sel.excluded_systems:
        names = [s + (" (outlier)" if s in outliers else "") for s in sel.excluded_systems]
        lines.append("# excluded systems\t" + "\t".join(map(tsv_cell, names)))
    if sel.without_human:
        lines.append(
            "# systems without human scores\t" + "\t".join(map(tsv_cell, sel.without_human))
        )
    if sel.dropped_metrics:
        lines.append(
            "# dropped metrics (no score for a kept system)\t"
            + "\t".join(map(tsv_cell, sel.dropped_metrics))
        )
    return lines


def run(args) -> str:
    sources = [*args.human, *args.metrics, *args.scores]
    if not sources:
        raise StatsInputError("give the score files: --human FILE --metrics FILE, or --scores FILE")
    if args.human and not (args.metrics or args.scores):
        raise StatsInputError("--human needs --metrics FILE (or use --scores for a combined file)")
    from ..analyses import metrics_report

    check_alpha_option(args.alpha)
    outliers = None
    if args.outliers:
        from stats.metaeval.outliers import read_outliers_json

        outliers = read_outliers_json(args.outliers)  # a path, or '-': (name, bytes)
    analyses = metrics_report(
        sources,
        language_pairs=args.lp,
        testset=args.testset,
        alternative=args.alternative,
        confidence_level=args.confidence_level,
        sign_align=not args.no_sign_align,
        refset=args.refset,
        reference_free=args.reference_free,
        exclude_systems=args.exclude_systems,
        exclude_outliers=args.exclude_outliers,
        outlier_systems=outliers,
        lp=args.lp[0] if args.lp and len(args.lp) == 1 else None,
        human_score=args.human_score,
    )
    if args.format == "tsv":  # also --format latex (stats.cli._common.manners)
        return _tables(analyses, args)
    return dumps(document(analyses, alpha=args.alpha, correction=args.correction, power=args.power))
