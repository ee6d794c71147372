"""``python -m stats randomized``: randomized significance tests for all pairs of MT systems.

Examples::

    python -m stats randomized --ref ref.txt --hyp sysA.txt sysB.txt sysC.txt \\
        --metric bleu --test approximate-randomization --resamples 10000 --seed 1
    python -m stats randomized --scores comet.tsv --metric mean --test paired-bootstrap
    python -m stats randomized --scores seg.tsv --score-metric TER --lower-is-better
    python -m stats randomized --scores wmt20-seg.zip --score-metric COMET --lp en-de \\
        --refset newstestB2020   # WMT metrics task segment-level files as published

JSON output::

    {"metric", "test", "alternative", "n_resamples", "seed", "n_segments",
     "systems": [best first], "scores": {system: score},
     "pvalues": {row: {col: p or null}},
     "higher_is_better", "signature", "confidence_level",
     "score_ci": {system: [low, high]},   # extras beyond the issue's shape
     "alpha", "correction", "sidedness", "test_note", "rank": {system: cluster},
     "pvalues_adjusted": {row: {col: p or null}}}   # the last with --correction only

The p-value of a pair sits in the row of the system with the better score (for TER, and
segment scores with ``--lower-is-better``: the lower); the mirror cell and the diagonal are
null. The same seed gives byte-identical output.
"""

from __future__ import annotations

import argparse
import os

from .._choices import TESTS
from .._errors import StatsInputError
from ._common import (
    add_correction,
    add_jobs,
    add_lower_is_better,
    add_system_outputs,
    check_alpha_option,
    check_resamples_seed,
    check_scores_only,
    dumps,
    lower_is_better_for,
    matrix_tsv,
    pvalue_matrix_json,
    significance_json,
    significance_tsv,
    table_tsv,
)

DEFAULT_SEED = 12345
DEFAULT_RESAMPLES = {"paired-bootstrap": 1000, "bootstrap": 1000, "approximate-randomization": 10000}


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "randomized",
        help="paired bootstrap / bootstrap / approximate randomization for all system pairs",
        description=(
            "Randomized significance tests (Graham, Mathur & Baldwin, WMT 2014) for every "
            "pair of MT systems, from raw text (BLEU/chrF/TER via sacrebleu sufficient "
            "statistics) or from segment-level scores (metric 'mean')."
        ),
    )
    src = p.add_argument_group("input (either --ref/--hyp or --scores)")
    add_system_outputs(src, wmt_scores=True)
    src.add_argument("--score-metric", metavar="NAME",
                     help="with --scores: which METRIC to use when the file holds several")
    add_lower_is_better(src, bare_flag=True)
    p.add_argument("--metric", choices=["bleu", "chrf", "ter", "mean"],
                   help="bleu|chrf|ter for --ref/--hyp (default bleu), mean for --scores")
    p.add_argument("--test", choices=list(TESTS), default="paired-bootstrap",
                   help="default: paired-bootstrap")
    p.add_argument("--resamples", type=int, metavar="N",
                   help="number of resamples (default 1000; 10000 for approximate-randomization)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="S",
                   help=f"random seed (default {DEFAULT_SEED})")
    p.add_argument("--alternative", choices=["greater", "two-sided"], default="greater",
                   help="greater: row system better than column system (default)")
    add_correction(p)
    p.add_argument("--format", choices=["json", "tsv"], default="json")
    add_jobs(p)
    p.set_defaults(func=run)


def _load(args: argparse.Namespace):
    from ..analyses import score_statistics, text_statistics

    if args.scores and (args.hyp or args.ref):
        raise StatsInputError("give either --scores or --ref/--hyp, not both")
    if args.scores:
        metric = args.metric or "mean"
        if metric != "mean":
            raise StatsInputError(
                f"--metric {metric} needs --ref/--hyp text files; segment scores (--scores) "
                "use --metric mean"
            )
        names = ", ".join(map(str, args.scores))
        data = score_statistics(
            args.scores,
            metric=args.score_metric,
            lower_is_better=lambda name: lower_is_better_for(args, name, source=names),
            lp=args.lp,
            testset=args.testset,
            refset=args.refset,
        )
        return data, metric
    wmt_only = [f"--{k}" for k in ("lp", "testset", "refset") if getattr(args, k)]
    if wmt_only:
        raise StatsInputError(
            f"{', '.join(wmt_only)}: only with --scores (WMT segment-level files)"
        )
    if not args.hyp:
        raise StatsInputError("no input: give --ref FILE and --hyp FILE [FILE ...], or --scores FILE")
    if not args.ref:
        raise StatsInputError("--hyp given without --ref: give at least one reference file")
    check_scores_only(args)
    metric = args.metric or "bleu"
    if metric == "mean":
        raise StatsInputError(
            "--metric mean needs --scores (segment scores); use bleu, chrf or ter with text files"
        )
    return text_statistics(args.ref, args.hyp, metric=metric, jobs=args.jobs), metric


def run(args: argparse.Namespace) -> str:
    from ..grids import grid_significance
    from ..randomized import pairwise_significance

    check_resamples_seed(args.resamples, args.seed)
    check_alpha_option(args.alpha)
    data, metric = _load(args)
    n = args.resamples if args.resamples is not None else DEFAULT_RESAMPLES[args.test]
    res = pairwise_significance(
        data, test=args.test, n_resamples=n, alternative=args.alternative, rng=args.seed,
        jobs=args.jobs or os.cpu_count(),
    )
    grid = grid_significance(
        res.pvalue, alpha=args.alpha, correction=args.correction, alternative=res.alternative
    )
    if args.format == "json":
        return dumps(
            {
                "metric": metric,
                "test": res.test,
                "alternative": res.alternative,
                "n_resamples": res.n_resamples,
                "seed": res.seed,
                "n_segments": res.n_segments,
                "systems": list(res.systems),
                "scores": {s: float(res.scores[s]) for s in res.systems},
                "pvalues": pvalue_matrix_json(res.pvalue),
                "higher_is_better": bool(res.higher_is_better),
                "signature": res.signature or None,
                "confidence_level": res.confidence_level,
                "score_ci": {
                    s: [float(res.score_ci_low[s]), float(res.score_ci_high[s])]
                    for s in res.systems
                },
                **significance_json(grid, "pvalues_adjusted"),
            }
        )
    direction = "" if res.higher_is_better else "; lower is better"
    head = (
        f"# metric={metric} ({res.label}{'; ' + res.signature if res.signature else ''}"
        f"{direction}) "
        f"test={res.test} alternative={res.alternative} n_resamples={res.n_resamples} "
        f"seed={res.seed} n_segments={res.n_segments}"
    )
    rows = [
        {"system": s, "score": res.scores[s], "ci_low": res.score_ci_low[s],
         "ci_high": res.score_ci_high[s]}
        for s in res.systems
    ]
    table = table_tsv(rows, ["system", "score", "ci_low", "ci_high"])
    ci = f"{round(res.confidence_level * 100)}% bootstrap CI"
    parts = [
        head,
        f"# systems, best first; {ci}",
        table,
        "",
        "# p-values (row better than column; '-' = no test in this cell)",
        matrix_tsv(res.pvalue),
    ]
    if args.correction != "none":
        parts += ["", significance_tsv(grid, "p-values")]
    return "\n".join(parts)
