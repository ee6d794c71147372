"""``python -m stats autorank``: WMT25's automatic ranking (AutoRank) from the general task's
``automatic_scores/*.jsonl`` files, with intervals, pairwise p-values and clusters.

Examples::

    python -m stats autorank --scores wmt25-general-mt/data/automatic_scores
    python -m stats autorank --scores automatic_scores.zip --lp en-cs_CZ --format latex
    python -m stats autorank --scores automatic_scores --metrics XCOMET-XL MetricX-24-Hybrid-XL
    python -m stats autorank --scores wmt25-general-mt/data/automatic_scores \
        --systems-metadata wmt25-general-mt/data/systems_metadata_updated3.json
    python -m stats autorank --scores automatic_scores --outputs wmt25-general-mt/data/systems \
        --references wmt25-general-mt/data/wmt25-genmt.jsonl --lp en-cs_CZ \
        --metrics BLEU corpus-chrF++ XCOMET-XL

JSON output::

    {"language_pairs": [{"lp", "metrics": [...], "metric_set": "wmt25 preset"|"metrics",
                         "systems": [{"system", "autorank", "scores": {METRIC: mean},
                                      "interval": [lo, hi], "cluster"}, ...],   (best first)
                         "pvalues": {a: {b: p}}, "clusters": [[names], ...],
                         "cannot_separate": [[better, worse, p], ...],
                         "confidence_level", "n_resamples", "n_defined", "alpha",
                         "correction", "sidedness", "test_note", "documents",
                         "correlations": {metric: {metric: r}}}],
     "read_as", "notes", "seed"}

``pvalues[a][b]`` is the paired bootstrap's p that ``a`` (ranked better) has the higher
combined score: documents resampled with replacement, the same documents for every system.
"""

from __future__ import annotations

from stats._core.errors import StatsInputError

from ._common import (
    add_correction,
    check_alpha_option,
    check_resamples_seed,
    dumps,
    say_read_as,
    table_tsv,
)

PRESETS = ("wmt25",)  # stats.mt.automatic_ranking.AUTORANK_PRESETS (no import here: --help stays fast)


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "autorank",
        help="WMT25 AutoRank from automatic_scores/*.jsonl, with bootstrap intervals and "
        "clusters",
        description=(
            "Rank the systems of each language pair by WMT25's AutoRank (robustly scaled "
            "metric means, averaged), with what the organisers do not publish: a paired "
            "bootstrap over documents giving each system's AutoRank interval, a p-value for "
            "every pair and clusters of systems the data cannot separate."
        ),
    )
    p.add_argument(
        "--scores",
        nargs="+",
        required=True,
        metavar="FILE",
        help="automatic_scores/SYSTEM.jsonl files (one per system, the name is the system), "
        "a folder of them, or a zip/tar of it",
    )
    p.add_argument("--lp", nargs="+", metavar="LP", help="language pairs to rank (default all)")
    p.add_argument(
        "--metrics",
        nargs="+",
        metavar="M",
        help="the metric set, averaged with equal weights (default: --preset wmt25)",
    )
    p.add_argument(
        "--preset",
        choices=PRESETS,
        help="wmt25: the organisers' choice per language pair (five metrics where references "
        "exist, CometKiwi-XL left out where they do not, chrF++ alone for en-bho_IN and "
        "en-mas_KE); the default without --metrics",
    )
    p.add_argument(
        "--systems-metadata",
        metavar="FILE",
        help="WMT25's data/systems_metadata_updated3.json (or systems_metadata.json): rank, per "
        "language pair, only the systems it lists for the pair, as the organisers' "
        "compute_autorank.py does (the systems left out are named)",
    )
    p.add_argument(
        "--outputs",
        nargs="+",
        metavar="FILE",
        help="the system outputs, systems/SYSTEM.jsonl (one per system), a folder of them or a "
        "zip/tar of it; with --references, adds BLEU and corpus-chrF++ to the metrics "
        "--metrics may name",
    )
    p.add_argument(
        "--references",
        metavar="FILE",
        help="WMT25's data/wmt25-genmt.jsonl (the test set with refA): BLEU and corpus-chrF++ "
        "are sacreBLEU's corpus scores of each system over the paragraphs with a reference",
    )
    p.add_argument("--resamples", type=int, default=1000, help="bootstrap resamples (default 1000)")
    p.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    p.add_argument(
        "--confidence-level",
        type=float,
        default=0.95,
        help="of the AutoRank intervals (default 0.95)",
    )
    p.add_argument(
        "--alternative",
        choices=("greater", "two-sided"),
        default="greater",
        help="greater: the one-sided p in the observed direction, as every grid (default); "
        "two-sided: twice the smaller tail",
    )
    p.add_argument(
        "--no-intervals",
        action="store_true",
        help="the point ranking alone (no bootstrap)",
    )
    add_correction(p)
    p.add_argument("--format", choices=["json", "tsv", "latex"], default="json")
    p.set_defaults(func=run, own_formats=("latex",))


def run(args) -> str:
    from ..analyses import autorank_analysis

    check_resamples_seed(args.resamples, args.seed)
    alpha = check_alpha_option(args.alpha)
    if not 0.0 < args.confidence_level < 1.0:
        raise StatsInputError(f"--confidence-level must be in (0, 1); got {args.confidence_level:g}")
    if args.metrics and args.preset:
        raise StatsInputError("--metrics and --preset: give one of them")
    try:
        result = autorank_analysis(
            args.scores, lps=args.lp, metrics=args.metrics, preset=args.preset,
            intervals=not args.no_intervals, n_resamples=args.resamples,
            confidence_level=args.confidence_level, alpha=alpha, correction=args.correction,
            alternative=args.alternative, rng=args.seed,
            systems_metadata=args.systems_metadata, outputs=args.outputs,
            references=args.references,
        )  # fmt: skip
    except StatsInputError as exc:
        text = str(exc)
        for arg, flag in (("metrics:", "--metrics:"), ("preset", "--preset"), ("lp:", "--lp:"),
                          ("outputs and references:", "--outputs and --references:")):  # fmt: skip
            if text.startswith(arg):
                raise StatsInputError(flag + text[len(arg):]) from None
        raise
    say_read_as(result.read_as)
    say_read_as("\n".join(result.notes))
    if args.format == "latex":
        from stats.mt.automatic_ranking import autorank_latex

        return "\n".join(
            autorank_latex(r.bootstrap if r.bootstrap is not None else r.point)
            for r in result.language_pairs
        )
    if args.format == "tsv":
        return "\n\n".join(_tsv(r) for r in result.language_pairs)
    return dumps(
        {
            "language_pairs": [r.to_dict() for r in result.language_pairs],
            "read_as": result.read_as,
            "notes": list(result.notes),
            "seed": result.seed,
        }
    )


def _tsv(r) -> str:
    point, boot = r.point, r.bootstrap
    metrics = list(point.scores.columns)
    rows = []
    for s in point.systems:
        row = {"system": s, "autorank": point.autorank[s]}
        if boot is not None:
            row.update(low=boot.interval_low[s], high=boot.interval_high[s],
                       cluster=int(boot.significance.rank[s]))  # fmt: skip
        row.update({m: point.scores.at[s, m] for m in metrics})
        rows.append(row)
    columns = ["system", "autorank", *(["low", "high", "cluster"] if boot else []), *metrics]
    head = [f"# {r.lp}: AutoRank over {', '.join(point.metrics)} ({r.metric_set})"]
    if boot is not None:
        together = r.cannot_separate()
        head.append(
            f"# {boot.confidence_level:.0%} paired-bootstrap intervals over {point.n_documents} "
            f"documents, {boot.n_defined} resamples; clusters at alpha {boot.significance.alpha:g}"
            f" ({boot.significance.correction}); {boot.significance.sidedness} p-values"
        )
        head.append(
            "# neighbours the data cannot separate: "
            + ("; ".join(f"{a} ~ {b} (p={p:.3g})" for a, b, p in together) or "none")
        )
    return "\n".join([*head, table_tsv(rows, columns)])
