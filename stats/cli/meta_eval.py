"""``python -m stats meta-eval``: segment- and system-level correlation of metrics with human
scores, as the WMT metrics task computes it with mt-metrics-eval (MTME).

Examples::

    python -m stats meta-eval --data sample_data/meta/wmt-sample --gold mqm --level seg \\
        --correlation acc23 --grouping item --tie-calibration
    python -m stats meta-eval --data scores.tsv --level sys --correlation pairwise-accuracy

JSON output::

    {"level", "correlation", "grouping",
     "language_pairs": [{"lp", "gold", "n_systems", "n_items",
                         "metrics": [names, best first],
                         "correlation": {metric: value},
                         "epsilon": {metric: value},          # with --tie-calibration
                         "pairs": {metric: n},                # kendall-like, segment level
                         "concordant": {metric: n},
                         "ci": {metric: [low, high]}}],       # with --confidence-resamples
     "across_language_pairs": {"correlation": {metric: value}}}   # pairwise-accuracy

plus ``epsilon`` (given), ``threshold`` (kendall-like) and ``n_resamples``, ``seed``,
``confidence_level`` (resampled) at the top level when they apply.

With ``--test perm-both --resamples N --seed S`` every pair of metrics is tested with PERM-BOTH
(Deutsch, Dror & Roth 2021) and each language pair gains ``"pvalues": {row: {col: p}}`` (row =
the metric with the higher correlation), ``"rank": {metric: cluster}`` at ``--alpha``,
``"sidedness"``, ``"test_note"`` and, with ``--correction``, ``"pvalues_adjusted"``; the top level
gains ``"test"``, ``"test_resamples"``, ``"seed"``, ``"alpha"``, ``"correction"`` and
``"early_stopping"``.
"""

from __future__ import annotations

import argparse

from stats._core.choices import (
    CORRELATIONS,
    KENDALL_LIKE_THRESHOLD,
    LEVELS,
    SOFT_PAIRWISE_ACCURACY,
)
from stats._core.errors import StatsInputError
from stats.escape import tsv_comment

from ._common import (
    add_correction,
    add_segment_correlation_options,
    check_alpha_option,
    dumps,
    matrix_tsv,
    pvalue_matrix_json,
    say_read_as,
    significance_json,
    significance_tsv,
    table_tsv,
)
from ._progress import progress_callback
from .randomized import DEFAULT_SEED


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "meta-eval",
        help="segment/system-level correlation of metrics with human scores (WMT, MTME)",
        description=(
            "Correlate every metric with human (gold) scores per language pair: Pearson, "
            "Spearman, Kendall tau-b/tau-c, WMT20 Kendall-like, acc23 with tie calibration "
            "(Deutsch et al. 2023), system-level pairwise accuracy pooled over language pairs "
            "(Kocmi et al. 2021); values as google-research/mt-metrics-eval computes them."
        ),
    )
    p.add_argument(
        "--data",
        required=True,
        nargs="+",
        metavar="PATH",
        help="MTME directory (or .zip/.tar.gz of one), long METRIC LP TESTSET SYSTEM SEGMENT "
        "SCORE text, or wide CSV lp,system,segment,human,<metric>...; several are merged",
    )
    p.add_argument(
        "--input-format",
        choices=["long", "wide", "wmt-seg"],
        help="how to read the text files of --data (default: detected from each file's "
        "first line; a file that fits two formats is refused and names this option)",
    )
    p.add_argument("--gold", metavar="NAME", help="human score type (default: the only one)")
    p.add_argument("--lp", nargs="+", metavar="LP", help="language pairs (default: all)")
    p.add_argument(
        "--include-human",
        action="store_true",
        help="keep human translations (other than the references) as systems (default: left "
        "out, as mt-metrics-eval; as rank --include-human)",
    )
    p.add_argument(
        "--domain",
        metavar="NAME",
        help="only this domain's segments (and at --level sys its *.domain.score scores when "
        "the human and every metric have them), as mt-metrics-eval's domain=; domains come "
        "from MTME-layout files with a DOMAIN column",
    )
    p.add_argument(
        "--exclude-systems",
        nargs="+",
        default=[],
        metavar="PATTERN",
        help="leave out systems by name or shell pattern (e.g. 'Human-*'), in every language "
        "pair; each must match a system",
    )
    p.add_argument("--level", required=True, choices=list(LEVELS))
    names = [*CORRELATIONS, SOFT_PAIRWISE_ACCURACY]
    p.add_argument("--correlation", required=True, choices=names, metavar="NAME",
                   help=", ".join(names) + " (soft pairwise accuracy, Thompson et al. 2024: "
                   "system level, --resamples permutations)")
    add_segment_correlation_options(p)
    p.add_argument("--confidence-resamples", type=int, default=0, metavar="N",
                   help="bootstrap resamples of the items for confidence intervals (default 0)")
    p.add_argument("--confidence-level", type=float, default=0.95, metavar="C")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="S",
                   help="random seed of the bootstrap and of the permutations "
                   f"(default {DEFAULT_SEED})")
    p.add_argument("--test", choices=["perm-both"],
                   help="perm-both: test every pair of metrics with PERM-BOTH (Deutsch, Dror & "
                   "Roth 2021), per language pair")
    p.add_argument("--resamples", type=int, default=1000, metavar="N",
                   help="permutations of --test perm-both and of soft-pairwise-accuracy "
                   "(default 1000)")
    p.add_argument("--early-stopping", action="store_true",
                   help="perm-both: stop a pair after a block of 1000 permutations once its p is "
                   "below 0.02 or above 0.5 (as MTME)")
    p.add_argument("--perm-test", choices=["scores", "pairs"], default="scores",
                   help="perm-both: swap the metrics' scores per cell (default), or, for acc23 "
                   "at segment level, each pair of cells' comparison (MTME's perm_test='pairs', "
                   "WMT24-25)")
    add_correction(p)
    p.add_argument("--format", choices=["json", "tsv"], default="json")
    p.set_defaults(func=run)


def _settings(args) -> dict:
    """The correlation settings that the meta-evaluation and its PERM-BOTH test share."""
    return {
        "correlation": args.correlation,
        "level": args.level,
        "grouping": args.grouping,
        "gold": args.gold,
        "lps": args.lp,
        "epsilon": args.epsilon,
        "tie_calibration": args.tie_calibration,
        "threshold": args.threshold,
    }


def _perm_both(args, data) -> dict:
    """lp -> LanguagePairPermBoth when ``--test perm-both``; else empty."""
    from ..analyses.meta_significance import perm_both_analysis

    if args.test is None:
        if args.early_stopping or args.correction != "none" or args.perm_test != "scores":
            raise StatsInputError(
                "--early-stopping, --perm-test and --correction apply to --test perm-both"
            )
        return {}
    if args.resamples < 1:
        raise StatsInputError(f"--resamples must be a positive integer; got {args.resamples}")
    check_alpha_option(args.alpha)
    tested = perm_both_analysis(
        data,
        **_settings(args),
        n_resamples=args.resamples,
        early_stopping=args.early_stopping,
        alpha=args.alpha,
        correction=args.correction,
        perm_test=args.perm_test,
        rng=args.seed,
        progress=progress_callback(f"meta-eval: PERM-BOTH, {args.resamples:,} resamples"),
    )
    return {t.lp: t for t in tested}


def _soft_pairwise(args, data) -> str:
    """``--correlation soft-pairwise-accuracy``: per language pair and averaged over them."""
    from ..analyses.meta_significance import soft_pairwise_analysis

    if args.level != "sys":
        raise StatsInputError("soft-pairwise-accuracy is a system-level statistic: use --level sys")
    if args.resamples < 1:
        raise StatsInputError(f"--resamples must be a positive integer; got {args.resamples}")
    res = soft_pairwise_analysis(
        data, gold=args.gold, lps=args.lp, n_resamples=args.resamples, rng=args.seed
    )
    tests = _perm_both(args, data)  # SPA's PERM-BOTH (MTME's, inner flips = --resamples)
    blocks = [
        {
            "lp": lp,
            "gold": res.gold,
            "n_systems": res.n_systems[lp],
            "n_items": r.n_items,
            "metrics": list(r.statistic.index),
            "correlation": {m: float(v) for m, v in r.statistic.items()},
            **_test_json(tests.get(lp), args),
        }
        for lp, r in res.language_pairs.items()
    ]
    doc = {
        "level": "sys",
        "correlation": SOFT_PAIRWISE_ACCURACY,
        "grouping": "none",
        "n_resamples": args.resamples,
        "seed": args.seed,
        "language_pairs": blocks,
        "across_language_pairs": {"correlation": res.across_language_pairs},
    }
    if tests:
        doc.update(test=args.test, test_resamples=args.resamples, alpha=args.alpha,
                   correction=args.correction, early_stopping=args.early_stopping)
    doc["read_as"] = data.read_as
    if args.format == "json":
        return dumps(doc)
    head = (
        f"# level=sys correlation={SOFT_PAIRWISE_ACCURACY} n_resamples={args.resamples} "
        f"seed={args.seed}"
    )
    rows = [
        {**{k: b[k] for k in ("lp", "gold", "n_systems", "n_items")}, "metric": m,
         "correlation": b["correlation"][m]}
        for b in blocks for m in b["metrics"]
    ]
    columns = ["lp", "gold", "n_systems", "n_items", "metric", "correlation"]
    mean = [{"metric": m, "correlation": v} for m, v in res.across_language_pairs.items()]
    return "\n".join(
        [head, table_tsv(rows, columns, fmt="{:.10g}"), *_tests_tsv(tests, args), "",
         "# soft pairwise accuracy averaged over language pairs",
         table_tsv(mean, ["metric", "correlation"], fmt="{:.10g}")]
    )


def _test_json(t, args) -> dict:
    """A PERM-BOTH test's keys of a JSON block (none when not tested)."""
    if t is None:
        return {}
    block = {"pvalues": pvalue_matrix_json(t.result.pvalue)}
    block.update(significance_json(t.significance, "pvalues_adjusted"))
    block.pop("alpha")
    if args.early_stopping:
        block["n_resamples_used"] = pvalue_matrix_json(t.result.n_resamples_used)
    return block


def _tests_tsv(tests: dict, args) -> list:
    parts = []
    for lp, t in tests.items():
        parts += [
            "",
            tsv_comment(
                f"{lp}: PERM-BOTH p-values (row correlates better than column; "
                f"{t.significance.sidedness}; n_resamples={args.resamples} seed={args.seed})"
            ),
            matrix_tsv(t.result.pvalue, fmt="{:.4g}"),
            significance_tsv(t.significance, "PERM-BOTH p-values"),
        ]
    return parts


def _pooled_test(args, data, res):
    """PERM-BOTH of pairwise accuracy pooled over language pairs (with --test perm-both)."""
    from ..analyses.meta_significance import pooled_accuracy_perm_both

    if args.test is None or res.across_language_pairs is None:
        return None
    return pooled_accuracy_perm_both(
        data, gold=args.gold, lps=args.lp, n_resamples=args.resamples,
        early_stopping=args.early_stopping, alpha=args.alpha, correction=args.correction,
        rng=args.seed,
    )


def run(args: argparse.Namespace) -> str:
    from ..readers.meta import read_meta_eval

    if args.confidence_resamples < 0:
        raise StatsInputError(
            f"--confidence-resamples must be a non-negative integer; got {args.confidence_resamples}"
        )
    if args.seed < 0:
        raise StatsInputError(f"--seed must be a non-negative integer; got {args.seed}")
    if (args.epsilon is not None or args.tie_calibration) and args.correlation != "acc23":
        raise StatsInputError("--epsilon and --tie-calibration apply to --correlation acc23 only")
    if args.threshold != KENDALL_LIKE_THRESHOLD and args.correlation != "kendall-like":
        raise StatsInputError("--threshold applies to --correlation kendall-like only")
    data = read_meta_eval(*args.data, input_format=args.input_format).with_systems(
        include_human=args.include_human, exclude_systems=args.exclude_systems
    ).in_domain(args.domain)
    text = _soft_pairwise(args, data) if args.correlation == SOFT_PAIRWISE_ACCURACY else (
        _evaluate(args, data)
    )
    say_read_as(data.read_as)  # after the results: an error stays one line
    return text


def _evaluate(args: argparse.Namespace, data) -> str:
    from ..analyses.meta_eval import meta_evaluate

    res = meta_evaluate(
        data,
        **_settings(args),
        n_resamples=args.confidence_resamples,
        confidence_level=args.confidence_level,
        rng=args.seed,
    )
    tests = _perm_both(args, data)
    pooled = _pooled_test(args, data, res)
    resampled = args.confidence_resamples > 0
    blocks = []
    for lp in res.language_pairs:
        block = {
            "lp": lp.lp,
            "gold": lp.gold,
            "n_systems": lp.n_systems,
            "n_items": lp.n_items,
            "metrics": list(lp.metrics),
            "correlation": {m: lp.results[m].statistic for m in lp.metrics},
        }
        if args.tie_calibration:
            block["epsilon"] = {m: lp.results[m].epsilon for m in lp.metrics}
        if lp.pair_counts:
            block["pairs"] = {m: sum(lp.pair_counts[m]) for m in lp.metrics}
            block["concordant"] = {m: lp.pair_counts[m][0] for m in lp.metrics}
        if resampled:
            block["ci"] = {m: list(lp.results[m].confidence_interval) for m in lp.metrics}
        if lp.lp in tests:
            t = tests[lp.lp]
            block["pvalues"] = pvalue_matrix_json(t.result.pvalue)
            block.update(significance_json(t.significance, "pvalues_adjusted"))
            block.pop("alpha")
            if args.early_stopping:
                block["n_resamples_used"] = pvalue_matrix_json(t.result.n_resamples_used)
        blocks.append(block)
    if args.format == "json":
        doc: dict = {"level": res.level, "correlation": res.correlation, "grouping": res.grouping}
        if args.epsilon is not None:
            doc["epsilon"] = args.epsilon
        if args.correlation == "kendall-like":
            doc["threshold"] = args.threshold
        if resampled:
            doc.update(
                n_resamples=args.confidence_resamples,
                seed=args.seed,
                confidence_level=args.confidence_level,
            )
        if tests:
            doc.update(
                test=args.test,
                test_resamples=args.resamples,
                seed=args.seed,
                alpha=args.alpha,
                correction=args.correction,
                early_stopping=args.early_stopping,
            )
        doc["language_pairs"] = blocks
        if res.across_language_pairs is not None:
            doc["across_language_pairs"] = {
                "correlation": res.across_language_pairs,
                **_test_json(pooled, args),
            }
        doc["read_as"] = data.read_as
        return dumps(doc)
    head = f"# level={res.level} correlation={res.correlation} grouping={res.grouping}"
    if args.epsilon is not None:
        head += f" epsilon={args.epsilon:g}"
    if args.correlation == "kendall-like":
        head += f" threshold={args.threshold:g}"
    if resampled:
        head += (
            f" n_resamples={args.confidence_resamples} seed={args.seed} "
            f"confidence_level={args.confidence_level:g}"
        )
    columns = ["lp", "gold", "n_systems", "n_items", "metric", "correlation"]
    columns += ["epsilon"] if args.tie_calibration else []
    counted = any("pairs" in b for b in blocks)
    columns += ["pairs", "concordant"] if counted else []
    columns += ["ci_low", "ci_high"] if resampled else []
    rows = []
    for block in blocks:
        for m in block["metrics"]:
            row = {k: block[k] for k in ("lp", "gold", "n_systems", "n_items")}
            row.update(metric=m, correlation=block["correlation"][m])
            if args.tie_calibration:
                row["epsilon"] = block["epsilon"][m]
            if counted:
                row["pairs"] = block["pairs"][m]
                row["concordant"] = block["concordant"][m]
            if resampled:
                row["ci_low"], row["ci_high"] = block["ci"][m]
            rows.append(row)
    parts = [head, table_tsv(rows, columns, fmt="{:.10g}")]
    for lp, t in tests.items():
        parts += [
            "",
            tsv_comment(
                f"{lp}: PERM-BOTH p-values (row correlates better than column; "
                f"{t.significance.sidedness}; n_resamples={args.resamples} seed={args.seed})"
            ),
            matrix_tsv(t.result.pvalue, fmt="{:.4g}"),
            significance_tsv(t.significance, "PERM-BOTH p-values"),
        ]
    if res.across_language_pairs is not None:
        parts += ["", "# pairwise accuracy pooled across language pairs"]
        parts.append(
            table_tsv(
                [{"metric": m, "correlation": v} for m, v in res.across_language_pairs.items()],
                ["metric", "correlation"],
                fmt="{:.10g}",
            )
        )
    if pooled is not None:
        parts += _tests_tsv({f"pooled ({pooled.lp})": pooled}, args)
    return "\n".join(parts)
