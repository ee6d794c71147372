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
     "higher_is_better", "signature",
     "tokenizer_note",   # BLEU only, when the tokenizer is not WMT's released scores' one
     "wmt_block": {"lp", "testset", "refset"},   # WMT segment-level files only
     "confidence_level",
     "score_ci": {system: [low, high]},   # extras beyond the issue's shape
     "alpha", "correction", "sidedness", "test_note", "rank": {system: cluster},
     "pvalues_adjusted": {row: {col: p or null}}}   # the last with --correction only

The p-value of a pair sits in the row of the system with the better score (for TER, and
segment scores with ``--lower-is-better``: the lower); the mirror cell and the diagonal are
null. The same seed gives byte-identical output.

Several metrics (``--metric bleu chrf ter``) or ``--baseline NAME`` add the sacreBLEU-style
systems table (:func:`stats.systems_table`: every system against the baseline, default the
first system given, with sacreBLEU's paired bootstrap or approximate randomization, following
``--test``; ``--test bootstrap`` tables with the paired bootstrap). JSON: one metric gives the
object above plus ``"table"``; several give ``{"results": [one object per metric], "table"}``,
with::

    "table": {"test", "alternative", "baseline", "n_resamples", "n_ci_resamples", "seed",
              "confidence_level", "alpha", "metrics": [label], "systems": [baseline first],
              "rows": [{"system", "metric", "score", "mean", "ci", "statistic", "pvalue",
                        "significant"}]}

TSV prints each metric's block, then the table (``score (mean ± CI)`` and ``p``, † where
p < ``--alpha``). One metric without ``--baseline`` prints what it always printed.
"""

from __future__ import annotations

import argparse
import os
import sys

from stats._core.choices import RANDOMIZED_TESTS
from stats._core.errors import StatsInputError
from stats.escape import tsv_comment

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
from ._progress import progress_callback
from ._sacrebleu_options import add_sacrebleu_options, metric_options

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
    p.add_argument("--metric", choices=["bleu", "chrf", "ter", "mean"], nargs="+",
                   help="bleu|chrf|ter for --ref/--hyp (default bleu; several at once add the "
                   "systems table), mean for --scores")
    p.add_argument("--test", choices=list(RANDOMIZED_TESTS), default="paired-bootstrap",
                   help="default: paired-bootstrap")
    p.add_argument("--baseline", metavar="NAME",
                   help="add the sacreBLEU-style systems table: every system against this one "
                   "(default with several metrics: the first system given)")
    p.add_argument("--resamples", type=int, metavar="N",
                   help="number of resamples (default 1000; 10000 for approximate-randomization)")
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, metavar="S",
                   help=f"random seed (default {DEFAULT_SEED})")
    p.add_argument("--alternative", choices=["greater", "two-sided"], default="greater",
                   help="greater: row system better than column system (default)")
    add_correction(p)
    p.add_argument("--format", choices=["json", "tsv"], default="json")
    add_jobs(p)
    add_sacrebleu_options(p)
    p.set_defaults(func=run)


def _metrics(args: argparse.Namespace) -> list[str]:
    """The ``--metric`` names, each once, in order (default bleu, or mean for --scores)."""
    if args.scores and (args.hyp or args.ref):
        raise StatsInputError("give either --scores or --ref/--hyp, not both")
    return list(dict.fromkeys(args.metric or ["mean" if args.scores else "bleu"]))


def _load(args: argparse.Namespace, metric: str):
    from ..analyses import score_statistics, text_statistics

    if args.scores:
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
        return data
    _check_text_input(args, metric)
    return text_statistics(
        args.ref, args.hyp, metric=metric, jobs=args.jobs,
        options=metric_options(args)[metric], lp=args.lp,
    )


def _check_text_input(args: argparse.Namespace, metric: str) -> None:
    wmt_only = [f"--{k}" for k in ("testset", "refset") if getattr(args, k)]
    if wmt_only:
        raise StatsInputError(
            f"{', '.join(wmt_only)}: only with --scores (WMT segment-level files)"
        )
    if not args.hyp:
        raise StatsInputError("no input: give --ref FILE and --hyp FILE [FILE ...], or --scores FILE")
    if not args.ref:
        raise StatsInputError("--hyp given without --ref: give at least one reference file")
    check_scores_only(args)
    if metric == "mean":
        raise StatsInputError(
            "--metric mean needs --scores (segment scores); use bleu, chrf or ter with text files"
        )


def _load_all(args: argparse.Namespace, metrics: list[str]) -> dict:
    """Each metric's statistics; text files read once for all the metrics."""
    if args.scores or len(metrics) == 1:
        return {m: _load(args, m) for m in metrics}
    from ..analyses import text_statistics_by_metric

    for m in metrics:
        _check_text_input(args, m)
    options = metric_options(args)
    return text_statistics_by_metric(
        args.ref, args.hyp, metrics=metrics, jobs=args.jobs,
        options={m: options[m] for m in metrics}, lp=args.lp,
    )  # fmt: skip


def run(args: argparse.Namespace) -> str:
    check_resamples_seed(args.resamples, args.seed)
    check_alpha_option(args.alpha)
    metrics = _metrics(args)
    loaded = _load_all(args, metrics)
    note = _wmt_note(args, loaded)
    if note:
        print(f"note: {note}", file=sys.stderr)
    n = args.resamples if args.resamples is not None else DEFAULT_RESAMPLES[args.test]
    table = None
    if len(metrics) > 1 or args.baseline is not None:
        table = _table(args, loaded, n)  # first: an unknown --baseline fails before the tests
    blocks = [_block(args, loaded[m], m, n, note if m == "bleu" else None) for m in metrics]
    if table is None:
        return dumps(blocks[0]) if args.format == "json" else blocks[0]
    if args.format == "json":
        body = blocks[0] if len(blocks) == 1 else {"results": blocks}
        return dumps({**body, "table": _table_json(table, args.alpha)})
    return "\n\n".join([*blocks, _table_tsv(table, args.alpha)])


def _wmt_note(args: argparse.Namespace, loaded: dict) -> str | None:
    """The note when BLEU's tokenizer differs from what WMT's released scores used for the
    target language (:func:`stats.mt.sacrebleu_options.wmt_tokenizer_note`)."""
    data = loaded.get("bleu")
    if data is None or args.scores:
        return None
    from stats.mt.sacrebleu_options import wmt_tokenizer_note
    from stats.readers.mt_text import language_pair_of

    lp = args.lp or language_pair_of(args.ref, args.hyp)
    return wmt_tokenizer_note(lp, dict(data.options).get("tokenize"))


def _table(args: argparse.Namespace, loaded: dict, n: int):
    """The systems table of the loaded metrics (the workflow reuses the statistics)."""
    from stats.mt.baseline_table import SYSTEMS_TABLE_TESTS, systems_table

    from ..analyses import systems_table_analysis

    common = {
        "baseline": args.baseline,
        "test": args.test if args.test in SYSTEMS_TABLE_TESTS else "paired-bootstrap",
        "n_resamples": n,
        "rng": args.seed,
        "jobs": args.jobs or os.cpu_count(),
    }
    if args.scores:  # the one metric read from the score file(s), as the tests use it
        return systems_table(list(loaded.values()), **common)
    return systems_table_analysis(
        references=args.ref, hypotheses=args.hyp, metrics=list(loaded), load=loaded.__getitem__,
        **common,
    )


def _table_json(table, alpha: float) -> dict:
    return {
        "test": table.test,
        "alternative": table.alternative,
        "baseline": table.baseline,
        "n_resamples": table.n_resamples,
        "n_ci_resamples": table.n_ci_resamples,
        "seed": table.seed,
        "confidence_level": table.confidence_level,
        "alpha": alpha,
        "metrics": list(table.metrics),
        "systems": list(table.systems),
        "rows": table.long(alpha).to_dict(orient="records"),
    }


def _table_tsv(table, alpha: float) -> str:
    sig = table.significant(alpha)
    head = tsv_comment(
        f"systems table against baseline={table.baseline}: test={table.test} "
        f"alternative={table.alternative} n_resamples={table.n_resamples} "
        f"n_ci_resamples={table.n_ci_resamples} seed={table.seed}"
    )
    ci = f"{round(table.confidence_level * 100)}% CI"
    note = f"# score (bootstrap mean ± {ci} half-width); p against the baseline, † p < {alpha:g}"
    columns = ["system"] + [c for m in table.metrics for c in (m, f"{m} p")]
    rows = []
    for s in table.systems:
        row = {"system": s}
        for m in table.metrics:
            row[m] = (f"{table.score.at[s, m]:.4f} ({table.mean.at[s, m]:.4f} ± "
                      f"{table.ci.at[s, m]:.4f})")
            p = table.pvalue.at[s, m]
            row[f"{m} p"] = "-" if p != p else f"{p:.4f}{'†' if sig.at[s, m] else ''}"
        rows.append(row)
    return "\n".join([head, note, table_tsv(rows, columns)])


def _block(args: argparse.Namespace, data, metric: str, n: int, note: str | None = None):
    """Today's output of one metric: the all-pairs test (a dict for JSON, text for TSV)."""
    from stats.mt.randomized import pairwise_significance
    from stats.pairwise.grids import grid_significance

    res = pairwise_significance(
        data, test=args.test, n_resamples=n, alternative=args.alternative, rng=args.seed,
        jobs=args.jobs or os.cpu_count(),
        progress=progress_callback(f"randomized: {metric} {args.test}, {n:,} resamples"),
    )
    grid = grid_significance(
        res.pvalue, alpha=args.alpha, correction=args.correction, alternative=res.alternative
    )
    if args.format == "json":
        return (
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
                "metric_options": dict(data.options) if data.signature else None,
                **({"tokenizer_note": note} if note else {}),
                **({"wmt_block": dict(data.block)} if data.block else {}),
                "confidence_level": res.confidence_level,
                "score_ci": {
                    s: [float(res.score_ci_low[s]), float(res.score_ci_high[s])]
                    for s in res.systems
                },
                **significance_json(grid, "pvalues_adjusted"),
            }
        )
    direction = "" if res.higher_is_better else "; lower is better"
    head = tsv_comment(
        f"metric={metric} ({res.label}{'; ' + res.signature if res.signature else ''}"
        f"{direction}) "
        f"test={res.test} alternative={res.alternative} n_resamples={res.n_resamples} "
        f"seed={res.seed} n_segments={res.n_segments}"
        + "".join(f" {k}={v}" for k, v in data.block)
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
