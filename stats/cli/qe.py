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
     "post_edit": {...},          # only with --post-edit
     "alpha", "correction", "sidedness", "test_note", "rank": {system: cluster},
     "williams_p_adjusted": {...}}   # only with --correction

WMT20-24 QE files (sentence-level submissions as published, the tasks' gold with
``hallucination`` marks, word-level tag files) are recognised by content and compared as the
tasks do -- Spearman primary, all three correlations with bootstrap CIs, Williams/PERM-BOTH
grids per language pair, the average over language pairs (:mod:`stats.cli.qe_wmt` documents
that JSON)::

    python -m stats qe --data submissions.zip --gold gold_labels_task1_sentence.tsv \
        --exclude gold_hallucinations_task1_sentence.tsv --primary spearman --format latex
    python -m stats qe --data word/ --gold gold_labels_task1_word.tsv     # word level

Systems are listed by decreasing (signed) Pearson r; a QE system with negative r is worse
than any with positive r, it is not flipped. ``williams_p[row][col]`` is the p-value that
row's r exceeds col's, filled only when it does (null otherwise), as in ``python -m stats
williams``.
"""

from __future__ import annotations

import argparse

from stats._core.errors import StatsInputError
from stats._core.numbers import option_float
from stats.escape import tsv_comment

from ._common import (
    add_correction,
    check_alpha_option,
    check_resamples_seed,
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
    value = option_float(text)  # the one rule for numbers
    if value <= 0:
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
    add_correction(p)
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
        help="reference column of --post-edit (default: hter when present, else the first "
        "column after SID TIME WORDS)",
    )
    p.add_argument(
        "--rate",
        action="store_true",
        help="convert gold labels and predictions (post-edit times) to seconds per word "
        "using the WORDS of --post-edit before evaluating",
    )
    wmt = p.add_argument_group("WMT20-24 QE files (recognised by content)")
    wmt.add_argument(
        "--exclude",
        metavar="FILE",
        help="index of items to leave out (LP<TAB>SEGMENT_NUMBER per line, e.g. the tasks' "
        "hallucination index); gold items marked 'hallucination' are always left out",
    )
    wmt.add_argument(
        "--primary",
        choices=("spearman", "pearson", "kendall"),
        default="spearman",
        help="ranking measure, tested per pair of systems: Williams for pearson, PERM-BOTH for "
        "spearman and kendall (default spearman, as WMT22-24)",
    )
    wmt.add_argument(
        "--resamples",
        type=int,
        default=1000,
        metavar="N",
        help="bootstrap resamples of the CIs and PERM-BOTH permutations (default 1000)",
    )
    wmt.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        metavar="S",
        help=f"random seed (default {DEFAULT_SEED})",
    )
    wmt.add_argument(
        "--confidence-level",
        type=float,
        default=0.95,
        metavar="C",
        help="level of the bootstrap CIs (default 0.95)",
    )
    p.add_argument(
        "--format",
        choices=("json", "tsv", "latex"),
        default="json",
        help="output format (latex: WMT20-24 files only)",
    )
    p.set_defaults(func=run)


def _post_edit_block(reference: str, res) -> dict:
    return {
        "reference": reference,
        "n": res.n,
        "r_rate": res.r13,
        "r_time": res.r23,
        "r_rate_time": res.r12,
        "statistic": res.statistic,
        "pvalue": res.pvalue,
        "ci_low": res.ci_low,
        "ci_high": res.ci_high,
    }


def _run_wmt(args, level: str) -> str:
    from ..analyses.qe_wmt import load_qe_wmt, load_qe_word, qe_wmt_analysis, qe_word_analysis
    from .qe_wmt import sentence_output, word_output

    check_resamples_seed(args.resamples, args.seed)
    check_alpha_option(args.alpha)
    if not 0 < args.confidence_level < 1:
        raise StatsInputError(
            f"--confidence-level must be in (0, 1); got {args.confidence_level:g}"
        )
    if args.gold is None:
        raise StatsInputError("--gold FILE is required with WMT20-24 QE submissions")
    common = dict(
        n_resamples=args.resamples,
        confidence_level=args.confidence_level,
        alpha=args.alpha,
        correction=args.correction,
        rng=args.seed,
    )
    if level == "word":
        from ..readers.qe_wmt import read_qe_exclude

        subs, gold = load_qe_word(args.data, gold=args.gold)
        ex = read_qe_exclude(args.exclude) if args.exclude else None
        res = qe_word_analysis(
            subs, gold, exclude=ex,
            progress=progress_callback(f"qe: word level, {args.resamples:,} resamples"),
            **common,
        )  # fmt: skip
        return word_output(res, fmt=args.format, seed=args.seed)
    inp = load_qe_wmt(args.data, gold=args.gold, exclude=args.exclude)
    analysis = qe_wmt_analysis(
        inp, primary=args.primary, sd_ratio=args.rescale_sd,
        progress=progress_callback(f"qe: intervals and tests, {args.resamples:,} resamples"),
        **common,
    )  # fmt: skip
    out = sentence_output(analysis, fmt=args.format)
    # what the files were read as, skipped files, predictions read once: after the results,
    # so that a refusal stays one line
    say_read_as("\n".join([inp.submissions.read_as, inp.gold.read_as, *inp.submissions.notes]))
    return out


def run(args) -> str:
    import pandas as pd

    from ..analyses.qe_wmt import is_wmt_qe_input

    if args.layout == "auto":
        level = is_wmt_qe_input(args.data, args.gold)
        if level is not None:
            return _run_wmt(args, level)
    if args.format == "latex":
        raise StatsInputError("--format latex is for WMT20-24 QE files")
    if args.exclude is not None:
        raise StatsInputError(
            "--exclude is for WMT20-24 QE files (LP<TAB>METHOD<TAB>SEGMENT<TAB>SCORE)"
        )

    from stats.pairwise.grids import grid_significance

    from ..analyses import load_qe, qe_analysis

    if args.gold and args.gold in args.data:
        raise StatsInputError(f"{args.gold}: given both as --gold and in --data")
    inp = load_qe(
        args.data,
        gold=args.gold,
        post_edit=args.post_edit,
        layout=args.layout,
        allow_constant=args.allow_constant,
    )
    if args.rate and inp.post_edit is None:
        raise StatsInputError("--rate needs --post-edit FILE (for the word counts)")
    analysis = qe_analysis(
        inp,
        rate=args.rate,
        sd_ratio=args.rescale_sd,
        alternative=args.alternative,
        reference=args.reference,
    )
    result = analysis.result
    table = result.to_frame()
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
    check_alpha_option(args.alpha)
    grid = grid_significance(
        pvalues, alpha=args.alpha, correction=args.correction, alternative=args.alternative
    )
    if inp.data.read_as:  # once the answer stands (a refusal is the one line on stderr)
        say_read_as(f"{inp.data.source}: {inp.data.read_as}")
    if args.format == "tsv":
        parts = [
            f"# n = {result.n}; rescaled to {args.rescale_sd:g} x gold SD; systems by Pearson r",
            table_tsv(rows, COLUMNS),
            "",
            f"# Williams test ({args.alternative}): p that the row system's r exceeds the "
            "column system's",
            matrix_tsv(pvalues),
        ]
        if analysis.post_edit_test is not None:
            block = _post_edit_block(analysis.post_edit_reference, analysis.post_edit_test)
            parts += [
                "",
                tsv_comment("post-edit rate vs post-edit time against " + block["reference"]),
                table_tsv([block], list(block)),
            ]
        if args.correction != "none":
            parts += ["", significance_tsv(grid, "Williams p")]
        return "\n".join(parts)
    out = {
        "read_as": inp.data.read_as,
        "n": result.n,
        "rescale_sd": args.rescale_sd,
        "alternative": args.alternative,
        "systems": rows,
        "williams_p": pvalue_matrix_json(pvalues),
    }
    if analysis.post_edit_test is not None:
        out["post_edit"] = _post_edit_block(analysis.post_edit_reference, analysis.post_edit_test)
    out.update(significance_json(grid, "williams_p_adjusted"))
    return dumps(out)
