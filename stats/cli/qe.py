"""``python -m stats qe``: evaluate QE systems by Pearson r, with MAE/RMSE before and after the
shift-and-rescale diagnosis and Williams tests between all pairs (Graham, ACL 2015,
https://aclanthology.org/P15-1174/).

Examples::

    python -m stats qe --data sample_data/qe/hter_long.txt
    python -m stats qe --data sample_data/qe/wmt/*.txt --gold sample_data/qe/wmt_gold.txt
    python -m stats qe --data sample_data/qe/wmt/*.txt sample_data/qe/wmt_gold.txt   # gold found
    python -m stats qe --data sample_data/qe/hter_wide.csv --rescale-sd 0.3 --format tsv
    python -m stats qe --data sample_data/qe/pet_long.txt --post-edit sample_data/qe/post_edit.tsv --rate

JSON output::

    {"n": 600, "rescale_sd": 0.5, "alternative": "greater",
     "systems": [{"system", "pearson", "spearman", "mae", "rmse", "mae_rescaled",
                  "rmse_rescaled", "rank_pearson", "rank_spearman", "rank_mae", "rank_rmse"}],
     "williams_p": {row: {col: p or null}},
     "post_edit": {...}}          # only with --post-edit

Systems are listed by decreasing (signed) Pearson r; a QE system with negative r is worse
than any with positive r, it is not flipped. ``williams_p[row][col]`` is the p-value that
row's r exceeds col's, filled only when it does (null otherwise), as in ``python -m stats
williams``.
"""

from __future__ import annotations

import argparse
import math

import pandas as pd

from .._errors import StatsInputError
from ..qe import compare_gold_representations, evaluate_qe, post_edit_rate
from ..readers.qe import read_post_edit, read_qe, split_qe_files
from ._common import dumps, matrix_tsv, pvalue_matrix_json, table_tsv

COLUMNS = (
    "system",
    "pearson",
    "spearman",
    "mae",
    "rmse",
    "mae_rescaled",
    "rmse_rescaled",
    "rank_pearson",
    "rank_spearman",
    "rank_mae",
    "rank_rmse",
)


def _positive_float(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number > 0; got {text!r}") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"must be a number > 0; got {text!r}")
    return value


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "qe",
        help="quality estimation: Pearson r vs MAE/RMSE, rescaling diagnosis, Williams tests",
        description="Evaluate sentence-level QE systems as in Graham (ACL 2015): Pearson r "
        "(primary), Spearman, MAE and RMSE with ranks, MAE/RMSE after shifting predictions to "
        "the gold mean and rescaling to a fraction of the gold SD, and Williams tests for all "
        "pairs of systems.",
    )
    p.add_argument(
        "--data",
        required=True,
        nargs="+",
        metavar="FILE",
        help="long file (METRIC SID SCORE RANK HUMAN), wide CSV (sid,gold,sys1,...), or one "
        "or more WMT QE submission files (then --gold is required)",
    )
    p.add_argument("--gold", metavar="FILE", help="gold labels for WMT submission files")
    p.add_argument(
        "--layout",
        choices=("auto", "long", "wmt", "wide"),
        default="auto",
        help="input layout (default: recognised from the first line)",
    )
    p.add_argument(
        "--rescale-sd",
        type=_positive_float,
        default=0.5,
        metavar="LAMBDA",
        help="rescale predictions to LAMBDA x the gold SD (default 0.5, as in the paper)",
    )
    p.add_argument(
        "--alternative",
        choices=("greater", "two-sided"),
        default="greater",
        help="Williams test alternative (default: greater, one-sided)",
    )
    p.add_argument(
        "--allow-constant",
        action="store_true",
        help="keep systems with constant predictions (their r and tests are NaN/null)",
    )
    p.add_argument(
        "--post-edit",
        metavar="FILE",
        help="post-editing table with SID TIME WORDS and a reference column (e.g. HTER): "
        "adds a Williams test of post-edit rate vs post-edit time against the reference",
    )
    p.add_argument(
        "--reference",
        default="hter",
        help="reference column of --post-edit (default: hter)",
    )
    p.add_argument(
        "--rate",
        action="store_true",
        help="convert gold labels and predictions (post-edit times) to seconds per word "
        "using the WORDS of --post-edit before evaluating",
    )
    p.add_argument("--format", choices=("json", "tsv"), default="json", help="output format")
    p.set_defaults(func=run)


def _post_edit_block(table, reference: str, label: str) -> dict:
    if reference.lower() not in table.columns:
        others = [c for c in table.columns if c not in ("time", "words")]
        raise StatsInputError(
            f"{label}: no reference column {reference!r}; found {', '.join(others) or 'none'}"
        )
    per = post_edit_rate(table["time"], table["words"])
    res = compare_gold_representations(per, table["time"], table[reference.lower()])
    return {
        "reference": reference.lower(),
        "n": res.n,
        "r_rate": res.r13,
        "r_time": res.r23,
        "r_rate_time": res.r12,
        "statistic": res.statistic,
        "pvalue": res.pvalue,
        "ci_low": res.ci_low,
        "ci_high": res.ci_high,
    }


def run(args) -> str:
    if args.gold and args.gold in args.data:
        raise StatsInputError(f"{args.gold}: given both as --gold and in --data")
    sources, names = list(args.data), list(args.data)
    gold, gold_name = args.gold, None
    post = read_post_edit(args.post_edit) if args.post_edit else None
    if args.gold is None and len(args.data) > 1:
        # several files and no --gold: a gold file (and a post-edit table) may be among them
        found, gold_found, post_found = split_qe_files(args.data, names=args.data)
        sources, names = [b for b, _ in found], [n for _, n in found]
        if gold_found is not None:
            gold, gold_name = gold_found
        if post_found is not None:
            if post is not None:
                raise StatsInputError(f"{post_found[1]}: a second post-editing table (--post-edit)")
            post = read_post_edit(post_found[0], name=post_found[1])
            args.post_edit = post_found[1]
    data = read_qe(
        sources if len(sources) > 1 else sources[0],
        gold,
        format=args.layout,
        name=names if len(names) > 1 else names[0],
        gold_name=gold_name,
        allow_constant=args.allow_constant,
    )
    if args.rate:
        if post is None:
            raise StatsInputError("--rate needs --post-edit FILE (for the word counts)")
        try:
            data = post_edit_rate(data, post["words"])
        except StatsInputError as exc:  # name the file the word counts came from
            raise StatsInputError(f"{args.post_edit}: {exc}") from None
    result = evaluate_qe(data, sd_ratio=args.rescale_sd, alternative=args.alternative)
    table = result.table()
    rows = []
    for system, row in table.iterrows():
        rows.append(
            {
                "system": system,
                **{c: row[c] for c in COLUMNS[1:7]},
                **{c: None if pd.isna(row[c]) else int(row[c]) for c in COLUMNS[7:]},
            }
        )
    pvalues = result.pvalue
    if args.format == "tsv":
        parts = [
            f"# n = {result.n}; rescaled to {args.rescale_sd:g} x gold SD; systems by Pearson r",
            table_tsv(rows, COLUMNS),
            "",
            f"# Williams test ({args.alternative}): p that the row system's r exceeds the "
            "column system's",
            matrix_tsv(pvalues),
        ]
        if post is not None:
            block = _post_edit_block(post, args.reference, args.post_edit)
            parts += [
                "",
                "# post-edit rate vs post-edit time against " + block["reference"],
                table_tsv([block], list(block)),
            ]
        return "\n".join(parts)
    out = {
        "n": result.n,
        "rescale_sd": args.rescale_sd,
        "alternative": args.alternative,
        "systems": rows,
        "williams_p": pvalue_matrix_json(pvalues),
    }
    if post is not None:
        out["post_edit"] = _post_edit_block(post, args.reference, args.post_edit)
    return dumps(out)
