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
                         "n_items": {system: items}, "human_score": "raw"|"z",
                         "read_as": [file: what it was read as], "notes": [...],
                         "segments": [{system, domain, document, segment, score, n}],
                         "documents": [{system, domain, document, score, n}]}]}

``--segments OUTFILE`` writes the segments and documents as one TSV. What each file was read as,
and the notes, go to stderr too, one line each.

Otherwise (2014-2020 files): ``pvalues[a][b]`` is the one-sided Wilcoxon rank-sum p that a's segment scores are higher than
b's (R's ``wilcox.test``: normal approximation, continuity correction), for every ordered pair;
a line is drawn below a system (a new cluster starts) when every system above it
significantly beats every system below it at ``alpha``.
"""

from __future__ import annotations

import argparse
import math

from stats._core.choices import CORRECTIONS, HUMAN_SCORES
from stats._core.errors import StatsInputError

from ._common import (
    check_alpha_option,
    dumps,
    jsonable,
    pvalue_matrix_json,
    say_read_as,
    table_tsv,
    undefined,
)
from ._progress import progress_callback

PAIRED_TESTS = ("signed-rank", "rank-sum")  # stats.human.paired.PAIRED_TESTS (no import here)
MQM_PRESETS = ("mtme", "wmt24")  # stats.readers.mqm.MQM_PRESETS


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
        "--human-score",
        choices=HUMAN_SCORES,
        default=None,
        help="rank and test by: z (each rater's scores standardised per language pair, sample "
        "SD, raters without spread left out, as WMT22 ranked DA+SQM) or raw. Default: z for "
        "2014-2020 files and DA+SQM, raw for ESA and MQM (as WMT24 ranked them)",
    )
    p.add_argument(
        "--exclude",
        nargs="+",
        default=[],
        metavar="SYSTEM",
        help="leave these systems out before anything is computed (each must be rated)",
    )
    p.add_argument(
        "--mqm-weights",
        metavar="SPEC",
        help="MQM error weights: 'wmt24' (the WMT24 organisers' tools.py), 'mtme' (default: "
        "mt-metrics-eval's score_mqm defaults, Major:5 Minor:1 Neutral:0 "
        "Major/Non-translation!:25 Minor/Fluency/Punctuation:0.1), or entries in score_mqm's "
        "--weights syntax, severity[/category[/subcategory]]:weight, separated by "
        "--mqm-weights-sep",
    )
    p.add_argument(
        "--mqm-weights-sep",
        default=" ",
        metavar="SEP",
        help="separator of the --mqm-weights entries (score_mqm's --weights_sep; default a "
        "space; e.g. ';' for categories with spaces such as 'Major/Source issue:0')",
    )
    p.add_argument(
        "--segments",
        metavar="OUTFILE",
        help="also write the per-segment and per-document scores (mean over raters; mean "
        "over segments) of the paired ranking to OUTFILE as TSV",
    )
    p.add_argument("--alpha", type=float, default=0.05, help="cluster lines at (default 0.05)")
    p.add_argument("--format", choices=["json", "tsv", "latex"], default="json")
    p.set_defaults(func=run)


def _say(lines) -> None:
    """What the files were read as and the notes, one line each on stderr."""
    say_read_as("\n".join(dict.fromkeys(lines)))


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
    for flag, value in (("--segments", args.segments), ("--mqm-weights", args.mqm_weights)):
        if value:
            raise StatsInputError(
                f"{flag} is for the paired ranking of WMT22-25 files (MQM, Appraise); these "
                "are 2014-2020 files (add --test signed-rank or rank-sum to rank them paired)"
            )
    results = human_rankings(
        args.human, lp=args.lp, score=args.human_score or "z", alpha=alpha, exclude=args.exclude,
        progress=progress_callback("human: rankings per language pair"),
    )
    _say([line for r in results for line in r.read_as] + [
        n for r in results for n in r.notes
    ])  # fmt: skip
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
                    "read_as": list(r.read_as),
                    "notes": list(r.notes),
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

    try:
        results = _paired_rankings(args, alpha)
    except StatsInputError as exc:  # the library names its arguments, the CLI its flags
        text = str(exc)
        for arg, flag in (("score:", "--human-score:"), ("exclude:", "--exclude:")):
            if text.startswith(arg):
                raise StatsInputError(flag + text[len(arg):]) from None
        raise
    if args.mqm_weights and not any(r.protocol == "MQM" for r in results):
        raise StatsInputError("--mqm-weights: none of these files is an MQM file")
    _say([line for r in results for line in r.read_as] + [
        n for r in results for n in r.notes
    ])  # fmt: skip
    if args.segments:
        _write_segments(args.segments, results)
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
                    "human_score": r.score_kind,
                    "read_as": list(r.read_as),
                    "notes": list(r.notes),
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
                    "rank_range": {
                        s: None if undefined(t) else [int(t), int(b)]  # null: no defined test
                        for s, (t, b) in r.rank_range.iterrows()
                    },
                    "clusters": [list(c) for c in r.clusters],
                    "n_items": jsonable(r.n_items),
                    "segments": _records(r.segment_scores),
                    "documents": _records(r.document_scores),
                }
                for r in results
            ]
        }
    )


def _paired_rankings(args, alpha: float):
    from ..analyses import paired_rankings

    return paired_rankings(
        args.human,
        documents=args.documents,
        test=args.test or "signed-rank",
        by_domain=args.by_domain is not False,
        average=args.average,
        alpha=alpha,
        correction=args.correction,
        lp=args.lp,
        exclude=args.exclude,
        score=args.human_score,
        mqm_weights=_mqm_weights(args),
        progress=progress_callback("human: paired rankings per language pair"),
    )


def _mqm_weights(args):
    if not args.mqm_weights:
        return None
    if args.mqm_weights.strip().lower() in MQM_PRESETS:
        return args.mqm_weights.strip().lower()
    from ..readers.mqm import parse_mqm_weights

    return parse_mqm_weights(args.mqm_weights, sep=args.mqm_weights_sep)  # flags: manners


def _records(frame) -> list:
    if frame is None:
        return []
    return [
        {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in row.items()}
        for row in frame.to_dict("records")
    ]


SEGMENT_COLUMNS = ["lp", "protocol", "human_score", "level", "system", "domain", "document",
                   "segment", "score", "n"]  # fmt: skip


def _write_segments(path: str, results) -> None:
    """The per-segment and per-document scores of every ranking as one TSV."""
    rows = []
    for r in results:
        head = {"lp": r.lp, "protocol": r.protocol, "human_score": r.score_kind}
        for level, frame in (("segment", r.segment_scores), ("document", r.document_scores)):
            for row in _records(frame):
                rows.append({**head, "level": level, "segment": "", **row})
    try:
        with open(path, "w", encoding="utf-8", newline="") as fh:
            fh.write(table_tsv(rows, SEGMENT_COLUMNS, fmt="{:.10g}") + "\n")
    except OSError as exc:
        raise StatsInputError(f"--segments {path}: cannot write ({exc.strerror})") from None
