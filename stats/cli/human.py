"""``python -m stats human``: findings-style human rankings of MT systems.

Examples::

    python -m stats human --human ad-seg-scores-de-en.csv ad-seg-scores-en-de.csv
    python -m stats human --human newstest.seg.da --lp de-en --human-score raw --format tsv

JSON output::

    {"language_pairs": [{"lp", "score", "alpha", "systems": [best first],
                         "z": {system: mean z}, "raw": {system: mean raw}, "n": {system: segments},
                         "pvalues": {a: {b: p}}, "clusters": [[names], ...]}]}

WMT22-25 files (Appraise ESA/DA+SQM exports, MQM error spans; the domains from
``--documents en-de.docs``) are ranked as the WMT24 findings do (:mod:`stats.human.paired`):
two-sided Wilcoxon signed-rank tests on shared items per domain, Stouffer-combined; rank
ranges; clusters. So is any file when ``--test``, ``--documents``, ``--by-domain`` or
``--format latex`` is given::

    python -m stats human --human wmt24.en-de.esa.csv --documents en-de.docs --format latex

JSON output of that ranking::

    {"language_pairs": [{"lp", "protocol", "test", "by_domain", "average", "correction",
                         "alpha", "description", "domains", "systems": [best first],
                         "score": {system: score}, "pvalues": {a: {b: p}},
                         ["pvalues_adjusted": {a: {b: p}} with --correction holm|bh],
                         "rank_range": {system: [top, bottom]}, "clusters": [[names], ...],
                         "n_items": {system: items}}]}

Otherwise (2014-2020 files): ``pvalues[a][b]`` is the one-sided Wilcoxon rank-sum p that a's segment scores are higher than
b's (R's ``wilcox.test``: normal approximation, continuity correction), for every ordered pair;
a line is drawn below a system (a new cluster starts) when every system above it
significantly beats every system below it at ``alpha``.
"""

from __future__ import annotations

import argparse

from stats._core.choices import CORRECTIONS, HUMAN_SCORES

from ._common import check_alpha_option, dumps, jsonable, pvalue_matrix_json, table_tsv

PAIRED_TESTS = ("signed-rank", "rank-sum")  # stats.human.paired.PAIRED_TESTS (no import here)


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "human",
        help="human rankings with Wilcoxon rank-sum tests and clusters (WMT findings)",
        description=(
            "Rank the systems of each language pair by their mean DA score, test every "
            "ordered pair with a one-sided Wilcoxon rank-sum test on the segment scores and "
            "draw the findings' cluster lines."
        ),
    )
    p.add_argument(
        "--human",
        required=True,
        nargs="+",
        metavar="FILE",
        help="Appraise CSV exports (ESA, DA+SQM), MQM TSVs of error spans, published "
        "segment-level DA files (SYS SID RAW.SCR Z.SCR N; the language pair from the xx-yy "
        "ending the file name) or judgement files (SYSTEM SEGMENT ANNOTATOR CRITERION SCORE); "
        "each detected from its content",
    )
    p.add_argument(
        "--documents",
        nargs="+",
        default=[],
        metavar="FILE",
        help="WMT documents files (DOMAIN<TAB>DOCUMENT per test-set line, line 0 the canary; "
        "the language pair from the name, e.g. en-ja.docs): the domains of the paired ranking",
    )
    p.add_argument(
        "--test",
        choices=PAIRED_TESTS,
        help="signed-rank: two-sided Wilcoxon signed-rank on the items both systems were rated "
        "on (WMT24; default for Appraise and MQM files); rank-sum: the unpaired one-sided "
        "Wilcoxon rank-sum of WMT 2014-2020",
    )
    p.add_argument(
        "--by-domain",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="signed-rank per domain, combined with Stouffer's method (default when domains "
        "are known); --no-by-domain: one test on all shared items",
    )
    p.add_argument(
        "--average",
        choices=("macro", "micro"),
        default="macro",
        help="system score: mean of the domain means (macro, default) or of all items (micro)",
    )
    p.add_argument(
        "--correction",
        choices=CORRECTIONS,
        default="none",
        help="adjust the grid's p-values (holm or bh) before ranks and clusters (default none)",
    )
    p.add_argument("--lp", help="language pair of every file (default: from each file name)")
    p.add_argument(
        "--human-score", choices=HUMAN_SCORES, default="z", help="rank and test by (default: z)"
    )
    p.add_argument("--alpha", type=float, default=0.05, help="cluster lines at (default 0.05)")
    p.add_argument("--format", choices=["json", "tsv", "latex"], default="json")
    p.set_defaults(func=run)


def run(args) -> str:
    from ..analyses import decode_files, human_rankings, is_wmt_human_file

    alpha = check_alpha_option(args.alpha)
    args.human = decode_files(args.human)  # read once: its kind, then the ranking
    paired = (
        args.test is not None
        or args.documents
        or args.by_domain is not None
        or args.format == "latex"
        or any(is_wmt_human_file(f, documents=True) for f in args.human)
    )
    if paired:
        return _paired(args, alpha)
    results = human_rankings(args.human, lp=args.lp, score=args.human_score, alpha=alpha)
    if args.format == "tsv":
        rows = [
            {"lp": r.lp, "system": s, **row}
            for r in results
            for s, row in r.to_frame().to_dict("index").items()
        ]
        return table_tsv(rows, ["lp", "system", "cluster", "z", "raw", "n"])
    return dumps(
        {
            "language_pairs": [
                {
                    "lp": r.lp,
                    "score": r.score,
                    "alpha": r.alpha,
                    "systems": list(r.systems),
                    "z": jsonable(r.z),
                    "raw": jsonable(r.raw),
                    "n": jsonable(r.n),
                    "pvalues": pvalue_matrix_json(r.pvalue),
                    "clusters": [list(c) for c in r.clusters],
                }
                for r in results
            ]
        }
    )


def _paired(args, alpha: float) -> str:
    from stats.human.paired import ranking_latex

    from ..analyses import paired_rankings

    results = paired_rankings(
        args.human,
        documents=args.documents,
        test=args.test or "signed-rank",
        by_domain=args.by_domain is not False,
        average=args.average,
        alpha=alpha,
        correction=args.correction,
        lp=args.lp,
    )
    if args.format == "latex":
        return "\n".join(ranking_latex(r) for r in results)
    if args.format == "tsv":
        rows = [
            {"lp": r.lp, "protocol": r.protocol, "system": s, **row}
            for r in results
            for s, row in r.to_frame().to_dict("index").items()
        ]
        columns = ["lp", "protocol", "system", "rank_top", "rank_bottom", "cluster", "score"]
        return table_tsv(rows, [*columns, "n_items"])
    return dumps(
        {
            "language_pairs": [
                {
                    "lp": r.lp,
                    "protocol": r.protocol,
                    "test": r.test,
                    "by_domain": len(r.domains) > 1 or r.domains != ("all",),
                    "average": r.average,
                    "correction": r.correction,
                    "alpha": r.alpha,
                    "description": r.describe(),
                    "domains": list(r.domains),
                    "systems": list(r.systems),
                    "score": jsonable(r.score),
                    "pvalues": pvalue_matrix_json(r.pvalue_unadjusted),
                    **(
                        {"pvalues_adjusted": pvalue_matrix_json(r.pvalue)}
                        if r.correction != "none"
                        else {}
                    ),
                    "rank_range": {s: [int(t), int(b)] for s, (t, b) in r.rank_range.iterrows()},
                    "clusters": [list(c) for c in r.clusters],
                    "n_items": jsonable(r.n_items),
                }
                for r in results
            ]
        }
    )
