"""``python -m stats accuracy``: accuracy of randomized significance tests against a human
gold standard (Graham, Mathur & Baldwin, WMT 2014, Tables 1-2).

Examples::

    python -m stats accuracy --human judgements.tsv --ref ref.txt --hyp sysA.txt sysB.txt \\
        --metric bleu chrf ter --resamples 1000 --seed 1
    python -m stats accuracy --human judgements.tsv --scores comet.tsv --tests bootstrap

JSON output::

    {"pairs": K, "systems": [...], "alphas": [...], "tests": [...], "metrics": [...],
     "n_resamples": N, "seed": S, "alternative": "greater", "gold_alpha": a,
     "gold": {"adequacy": {row: {col: p or null}}, "fluency": {...}, "combined": {...}},
     "human_scores": {system: {"adequacy_raw", "adequacy_z", "adequacy_n", ...}},
     "scores": {metric: {system: corpus score}},
     "rows": [{"metric", "test", "alpha", "correct", "accuracy", "ci_low", "ci_high"}],
     "chi2": [{"test", "alpha", "statistic", "pvalue", "dof", "n_metrics"}],
     "warnings": [...],
     "gold_alpha", "gold_correction", "gold_sidedness", "gold_test_note",
     "gold_rank": {system: cluster}, "gold_adjusted": {row: {col: p or null}}}

``gold_rank`` holds the significance clusters of the systems under the combined gold matrix
at ``gold_alpha`` (its p-values adjusted over the grid with ``--correction``; then
``gold_adjusted`` holds them). The accuracy rows compare the tests' raw p-values.

Gold p-values sit in the row of the system with the higher mean standardised (z) score; the
mirror cell and the diagonal are null. ``combined`` follows the paper's rule at ``gold_alpha``
(the first ``--alpha``); the accuracy at each alpha uses the rule at that alpha.
"""

from __future__ import annotations

import argparse
import os

from stats._core.choices import ALPHAS, CRITERIA, RANDOMIZED_TESTS, TEXT_METRICS
from stats._core.errors import StatsInputError

from ._common import (
    add_correction,
    add_jobs,
    add_lower_is_better,
    add_system_outputs,
    check_resamples_seed,
    check_scores_only,
    dumps,
    jsonable,
    matrix_tsv,
    pvalue_matrix_json,
    significance_json,
    significance_tsv,
    table_tsv,
)
from ._progress import progress_callback
from ._sacrebleu_options import add_sacrebleu_options, metric_options
from .randomized import DEFAULT_SEED

DEFAULT_RESAMPLES = 1000


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "accuracy",
        help="accuracy of randomized tests against a human gold standard",
        description=(
            "Build the human gold standard (per-annotator standardised scores, one-sided "
            "Wilcoxon rank-sum tests per pair, adequacy then fluency) and measure how often "
            "each metric x randomized test x alpha reaches the same conclusion "
            "(Graham, Mathur & Baldwin, WMT 2014)."
        ),
    )
    p.add_argument(
        "--human",
        required=True,
        nargs="+",
        metavar="FILE",
        help="judgements: SYSTEM SEGMENT ANNOTATOR CRITERION SCORE (TSV/CSV); several files "
        "are read as one set; or published segment-level DA files (SYS SID RAW.SCR Z.SCR N) "
        "of one language pair, tested on their z scores",
    )
    src = p.add_argument_group("system outputs (--ref/--hyp and/or --scores)")
    add_system_outputs(src)
    src.add_argument(
        "--score-metric",
        nargs="+",
        metavar="NAME",
        help="with --scores: which METRIC(s) of the file to evaluate "
        "(default: every metric in the file)",
    )
    add_lower_is_better(src)
    p.add_argument(
        "--metric",
        nargs="+",
        choices=[*TEXT_METRICS, "mean"],
        metavar="METRIC",
        help="bleu chrf ter (with --ref/--hyp; default bleu) and/or mean (the "
        "segment scores of --scores; default when --scores is given)",
    )
    p.add_argument(
        "--tests",
        nargs="+",
        choices=list(RANDOMIZED_TESTS),
        default=list(RANDOMIZED_TESTS),
        metavar="TEST",
        help=f"default: all of {', '.join(RANDOMIZED_TESTS)}",
    )
    p.add_argument(
        "--alpha",
        nargs="+",
        type=float,
        default=list(ALPHAS),
        metavar="A",
        help="significance levels (default 0.05 0.01 0.001)",
    )
    p.add_argument(
        "--resamples",
        type=int,
        default=DEFAULT_RESAMPLES,
        metavar="N",
        help=f"resamples of every test (default {DEFAULT_RESAMPLES})",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        metavar="S",
        help=f"random seed, used for every metric x test (default {DEFAULT_SEED})",
    )
    add_correction(p, alpha=False)
    p.add_argument("--format", choices=["json", "tsv"], default="json")
    add_jobs(p)
    add_sacrebleu_options(p, lp=True)
    p.set_defaults(func=run)


def _load_metrics(args: argparse.Namespace) -> dict:
    has_text = bool(args.ref or args.hyp)
    metrics = list(dict.fromkeys(args.metric or []))
    if not has_text and not args.scores:
        raise StatsInputError(
            "no system outputs: give --ref FILE --hyp FILE [FILE ...] and/or --scores FILE"
        )
    if has_text and not args.ref:
        raise StatsInputError("--hyp given without --ref: give at least one reference file")
    if has_text and not args.hyp:
        raise StatsInputError("--ref given without --hyp: give one hypothesis file per system")
    check_scores_only(args)
    if not metrics:
        metrics = (["bleu"] if has_text else []) + (["mean"] if args.scores else [])
    text_metrics = [m for m in metrics if m in TEXT_METRICS]
    if text_metrics and not has_text:
        raise StatsInputError(
            f"--metric {' '.join(text_metrics)} needs --ref/--hyp text files; segment scores "
            "(--scores) use --metric mean"
        )
    if "mean" in metrics and not args.scores:
        raise StatsInputError("--metric mean needs --scores (segment scores)")
    if args.scores and "mean" not in metrics:
        raise StatsInputError("--scores given but --metric does not include mean")
    if has_text and not text_metrics:
        raise StatsInputError("--ref/--hyp given but --metric names none of bleu, chrf, ter")
    from ..analyses import accuracy_statistics
    from ..analyses.mt_systems import text_statistics

    options = metric_options(args)
    out = {  # each text metric with sacreBLEU's options (tokenizer by --lp / the file names)
        m: text_statistics(
            args.ref, args.hyp, metric=m, jobs=args.jobs, options=options[m], lp=args.lp
        )
        for m in text_metrics
    }
    if args.scores:
        found = accuracy_statistics(
            scores=args.scores,
            score_metrics=args.score_metric,
            lower_is_better=args.lower_is_better or (),
            jobs=args.jobs,
        )
        for name, data in found.items():
            if name in out:
                raise StatsInputError(
                    f"metric name {name!r} of {args.scores} clashes with the text metric {name} "
                    "(metrics)"
                )
            out[name] = data
    return out


def run(args: argparse.Namespace) -> str:
    from stats.human.accuracy import significance_accuracy
    from stats.pairwise.grids import grid_significance

    from ..analyses import human_gold

    check_resamples_seed(args.resamples, args.seed)
    for a in args.alpha:
        if not 0.0 < a < 1.0:
            raise StatsInputError(f"--alpha must be in (0, 1); got {a:g}")
    alphas = list(dict.fromkeys(args.alpha))
    tests = list(dict.fromkeys(args.tests))
    gold = human_gold(args.human, alpha=alphas[0])
    metrics = _load_metrics(args)
    res = significance_accuracy(
        gold, metrics, tests=tests, alphas=alphas, n_resamples=args.resamples, rng=args.seed,
        jobs=args.jobs or os.cpu_count(),
        progress=progress_callback(
            f"accuracy: {len(metrics)} metric(s) x {len(tests)} test(s), "
            f"{args.resamples:,} resamples"
        ),
    )
    systems = list(res.systems)
    gold_p = {  # a criterion without judgements is null
        c: pvalue_matrix_json(gold.pvalue[c].loc[systems, systems]) if c in gold.criteria else None
        for c in CRITERIA
    }
    gold_p["combined"] = pvalue_matrix_json(gold.pvalue["combined"].loc[systems, systems])
    grid = grid_significance(
        gold.pvalue["combined"].loc[systems, systems],
        alpha=alphas[0],
        correction=args.correction,
    )
    rows = [
        {k: row[k] for k in ("metric", "test", "alpha", "correct", "accuracy", "ci_low", "ci_high")}
        for row in res.table.to_dict("records")
    ]
    if args.format == "json":
        scores = gold.scores.loc[systems]
        return dumps(
            {
                "pairs": res.n_pairs,
                "systems": systems,
                "alphas": alphas,
                "tests": tests,
                "metrics": list(res.metrics),
                "n_resamples": res.n_resamples,
                "seed": res.seed,
                "alternative": "greater",
                "gold_alpha": alphas[0],
                "gold": gold_p,
                "human_scores": {s: jsonable(scores.loc[s].to_dict()) for s in systems},
                "scores": {m: {s: float(v) for s, v in sc.items()} for m, sc in res.scores.items()},
                "rows": rows,
                "chi2": res.chi2.to_dict("records"),
                "warnings": list(res.warnings),
                **{
                    f"gold_{k}": v
                    for k, v in significance_json(grid, "adjusted").items()
                    if k != "alpha"
                },
            }
        )
    head = (
        f"# pairs={res.n_pairs} systems={len(systems)} tests={','.join(tests)} "
        f"n_resamples={res.n_resamples} seed={res.seed} alternative=greater "
        f"confidence_level={res.confidence_level:g} (exact Clopper-Pearson)"
    )
    parts = [head, "# accuracy of each metric x test x alpha against the human gold standard"]
    parts.append(
        table_tsv(rows, ["metric", "test", "alpha", "correct", "accuracy", "ci_low", "ci_high"])
    )
    if len(res.chi2):
        parts += ["", "# chi-square test: do accuracies differ across metrics?"]
        parts.append(
            table_tsv(
                res.chi2.to_dict("records"),
                ["test", "alpha", "statistic", "pvalue", "dof", "n_metrics"],
            )
        )
    for crit in [*[c for c in CRITERIA if c in gold.criteria], "combined"]:
        extra = f" at alpha={alphas[0]:g}" if crit == "combined" else ""
        parts += [
            "",
            f"# human gold standard, {crit}{extra}: one-sided Wilcoxon rank-sum p-values "
            "(row higher mean z than column; '-' = no test in this cell)",
        ]
        parts.append(matrix_tsv(gold.pvalue[crit].loc[systems, systems]))
    if args.correction != "none":
        parts += ["", significance_tsv(grid, "human gold standard, combined")]
    return "\n".join(parts)
