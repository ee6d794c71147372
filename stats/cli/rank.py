"""``python -m stats rank``: metrics ranked by a task set, as the WMT23-25 metrics findings rank
them (mt-metrics-eval's TaskSet: weighted average of correlations moved to [0, 1], PERM-BOTH
p-values of the average from the tasks' draws combined, clusters, average rank).

Examples::

    python -m stats rank --data mt-metrics-eval-v2/wmt24 --task-set wmt24 --resamples 1000
    python -m stats rank --data DIR --task-set mine.toml --format latex
    python -m stats rank --data DIR --task-set wmt24 --scheduler local:2

JSON output::

    {"task_set", "source", "test_set", "n_resamples", "seed", "alpha", "notes",
     "tasks": [{"name", "lp", "level", "correlation", "grouping", "gold", "refs", "weight",
                "n_systems", "n_items", "correlations": {metric: value},
                "rank": {metric: cluster}}],
     "average": {metric: value}, "average_rank": {metric: value},
     "pvalues": {a: {b: p}},          # a above b on the average
     "rank": {metric: cluster},
     "metrics": {metric: {"label", "primary", "noref"}},
     "left_out": {metric: reason},    # read but not ranked, and why
     "read_as": "NAME: read as ..."}  # one line per --data file

``read_as`` says what each --data file was read as (also a line on stderr).

The text, TSV and LaTeX forms are MTME's MetricsTable: one row per metric (``*`` before a
metric that is not primary, ``[noref]`` after a source-based one), the average with its
cluster first, then each task's correlation with its cluster.
"""

from __future__ import annotations

import argparse

from stats._core.errors import StatsInputError
from stats.escape import latex as latex_escape
from stats.escape import tsv_cell, tsv_comment

from ._common import check_alpha_option, dumps, pvalue_matrix_json, say_read_as
from ._progress import progress_callback
from .randomized import DEFAULT_SEED


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "rank",
        help="rank metrics by a task set (WMT23-25 findings; MTME TaskSet)",
        description=(
            "Run every task of a task set (language pair x level x correlation) with PERM-BOTH, "
            "average the correlations moved to [0, 1] with the task weights, and rank the "
            "metrics in significance clusters from the tasks' resampling draws combined."
        ),
    )
    p.add_argument(
        "--data",
        required=True,
        nargs="+",
        metavar="PATH",
        help="MTME directory of a test set (or .zip/.tar.gz of one), or the "
        "long/wide files meta-eval reads",
    )
    p.add_argument(
        "--task-set",
        required=True,
        metavar="NAME|FILE",
        help="wmt23, wmt24, wmt25 (the findings' task lists), per-lp (system Pearson and "
        "segment Kendall by item for each language pair of the data, uniform weights: the "
        'dashboard\'s default), or a .json/.toml file '
        '{"tasks": [{"lp", "level", "correlation", "grouping", "weight", ...}]}',
    )
    p.add_argument(
        "--gold",
        metavar="NAME",
        help="human scores of this type for every task (e.g. mqm, da; default: each task's, "
        "else the test set's standard gold, else the only one)",
    )
    p.add_argument(
        "--test-set",
        metavar="NAME",
        help="known test set whose standard gold, references and primary metrics "
        "apply (default: the task set's, or the --data directory's name)",
    )
    p.add_argument("--lp", nargs="+", metavar="LP", help="only these language pairs' tasks")
    p.add_argument(
        "--refs",
        nargs="+",
        metavar="REF",
        help="references a metric may use (default: the standard one per lp)",
    )
    p.add_argument(
        "--close-refs",
        nargs="+",
        metavar="REF",
        help="references close to --refs (e.g. post-edits): never systems",
    )
    p.add_argument(
        "--include-human",
        action="store_true",
        default=None,
        help="keep human translations (other than the references) as systems",
    )
    prim = p.add_mutually_exclusive_group()
    prim.add_argument(
        "--primary-only",
        action="store_true",
        default=None,
        help="only primary metrics of a known test set (the presets' default)",
    )
    prim.add_argument(
        "--all-metrics",
        dest="primary_only",
        action="store_false",
        help="primary and contrastive metrics",
    )
    p.add_argument(
        "--input-format",
        choices=["long", "wide", "wmt-seg"],
        help="how to read the text files of --data (default: detected from each file's "
        "first line; a file that fits two formats is refused and names this option)",
    )
    p.add_argument(
        "--outliers",
        metavar="FILE",
        help="WMT's outliers.json ({lp: [system, ...]}): those systems are left out of "
        "their language pair's tasks",
    )
    p.add_argument(
        "--resamples",
        type=int,
        default=1000,
        metavar="N",
        help="PERM-BOTH resamples per task (default 1000)",
    )
    p.add_argument(
        "--seed",
        type=int,
        default=DEFAULT_SEED,
        metavar="S",
        help=f"random seed (default {DEFAULT_SEED})",
    )
    p.add_argument(
        "--alpha",
        type=float,
        default=0.05,
        metavar="A",
        help="significance level of the clusters (default 0.05)",
    )
    p.add_argument(
        "--confidence-resamples",
        type=int,
        default=0,
        metavar="N",
        help="bootstrap resamples of the items per task for a percentile interval of each "
        "average (default 0: none)",
    )
    p.add_argument("--confidence-level", type=float, default=0.95, metavar="C")
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on Dask distributed: local:N (a local cluster of N workers) or a "
        "scheduler address; needs the 'dask' extra; same seed, same result",
    )
    p.add_argument("--format", choices=["json", "tsv", "latex", "text"], default="json")
    p.set_defaults(func=run)


def _fmt(v, spec="{:.4f}") -> str:
    import math

    return "--" if v is None or (isinstance(v, float) and math.isnan(v)) else spec.format(v)


def _cluster(value) -> int | None:
    """A cluster rank, None for a metric in no cluster (undefined correlation)."""
    import math

    return None if value is None or math.isnan(float(value)) else int(value)


def _rank_text(r) -> str:
    return "-" if r is None else str(r)


def _table_rows(res):
    """(label, [(value, rank) for the average and each task]); rank None: in no cluster."""
    rows = []
    for m in res.statistic.index:
        info = next(o.display[m] for o in res.tasks if m in o.display)
        cells = [(float(res.statistic[m]), _cluster(res.rank[m]))]
        for o in res.tasks:
            cells.append(
                (float(o.correlations[m]), _cluster(o.rank[m])) if m in o.rank else (None, None)
            )
        rows.append((info.label, cells))
    return rows


def _correlation(task) -> str:
    """A task's correlation as its column header shows it (``acc23-tc``; a pooled task's too)."""
    return task.correlation + ("-tc" if task.tie_calibration else "")


def _headers(res) -> list:
    return [
        ["lp:", ""] + [o.task.lp if "," not in o.task.lp else "all" for o in res.tasks],
        ["level:", ""] + [o.task.level for o in res.tasks],
        ["correlation:", ""] + [_correlation(o.task) for o in res.tasks],
        ["weight:", ""] + [f"{w:.4g}" for w in res.weights],
        ["metric", "avg-corr"] + [f"task{i + 1}" for i in range(len(res.tasks))],
    ]


def _tsv(res) -> str:
    lines = [
        "\t".join(h[:1] + [tsv_cell(x) + "\t" for x in h[1:-1]] + [tsv_cell(x) for x in h[-1:]])
        for h in _headers(res)
    ]
    for label, cells in _table_rows(res):
        lines.append(
            "\t".join(
                [tsv_cell(label)]
                + ["--\t--" if c is None else f"{_rank_text(r)}\t{_fmt(c, '{:f}')}" for c, r in cells]
            )
        )
    return "\n".join(lines)


def _text(res) -> str:
    rows = [
        [label]
        + ["--" if c is None else f"{_rank_text(r)}{_fmt(c, '{:7.4f}'):>7}" for c, r in cells]
        for label, cells in _table_rows(res)
    ]
    heads = _headers(res)
    widths = [max(len(r[i]) for r in heads + rows) for i in range(len(heads[0]))]

    def line(r):
        return "  ".join(
            s.ljust(w) if i == 0 else s.rjust(w)
            for i, (s, w) in enumerate(zip(r, widths, strict=True))
        )

    return "\n".join([*map(line, heads), "  ".join("-" * w for w in widths), *map(line, rows)])


def _latex(res) -> str:
    n = len(res.tasks) + 1
    out = ["\\begin{tabular}{l" + "|rr" * n + "}", "\\toprule"]
    for h in _headers(res)[:-1]:
        out.append(
            latex_escape(h[0])
            + " & "
            + " & ".join(f"\\multicolumn{{2}}{{|l}}{{{latex_escape(x)}}}" for x in h[1:])
            + " \\\\"
        )
    out.append(
        "metric & "
        + " & ".join(
            f"\\multicolumn{{2}}{{|l}}{{{x}}}"
            for x in ["avg-corr", *(f"task{i + 1}" for i in range(len(res.tasks)))]
        )
        + " \\\\"
    )
    out.append("\\midrule")
    for m, (_, cells) in zip(res.statistic.index, _table_rows(res), strict=True):
        info = next(o.display[m] for o in res.tasks if m in o.display)
        name = latex_escape(info.name) + ("*" if info.noref else "")  # MTME latex: * = no reference
        name = name if info.primary else f"\\textit{{{name}}}"
        parts = []
        for c, r in cells:
            if c is None:
                parts.append("-- & --")
                continue
            cs, rs = _fmt(c, "{:0.3f}"), _rank_text(r)
            if r == 1:
                cs, rs = f"\\textbf{{{cs}}}", f"\\textbf{{{rs}}}"
            parts.append(f"{rs} & {cs}")
        out.append(f"{name} & " + " & ".join(parts) + " \\\\")
    out += ["\\bottomrule", "\\end{tabular}"]
    return "\n".join(out)


def _json(res, read_as: str = "") -> str:
    tasks = []
    for o, w in zip(res.tasks, res.weights, strict=True):
        t = o.task
        tasks.append(
            {
                "name": t.name,
                "lp": t.lp,
                "level": t.level,
                "correlation": t.correlation,
                "grouping": t.grouping,
                "tie_calibration": t.tie_calibration,
                "gold": o.gold,
                "refs": list(o.refs),
                "include_human": t.include_human,
                "perm_test": t.perm_test,
                "weight": w,
                "n_systems": o.n_systems,
                "n_items": o.n_items,
                "correlations": {m: o.correlations[m] for m in o.metrics},
                "rank": {m: _cluster(o.rank[m]) for m in o.metrics},
            }
        )
    infos: dict = {}
    for o in res.tasks:
        for m, i in o.display.items():
            infos.setdefault(m, {"label": i.label, "primary": i.primary, "noref": i.noref})
    doc = {
        "task_set": res.task_set.name,
        "source": res.task_set.source,
        "test_set": res.test_set,
        "n_resamples": res.n_resamples,
        "seed": res.seed,
        "alpha": res.alpha,
        "notes": list(res.notes),
        "tasks": tasks,
        "average": dict(res.statistic.items()),
        "average_rank": dict(res.average_rank.items()),
        "pvalues": pvalue_matrix_json(res.pvalue),
        "rank": {m: _cluster(r) for m, r in res.rank.items()},
        "metrics": infos,
        "left_out": dict(res.left_out),
        "read_as": read_as,
    }
    if res.confidence_interval is not None:
        doc["ci"] = {m: [r.low, r.high] for m, r in res.confidence_interval.iterrows()}
        doc["confidence_level"] = res.confidence_level
    return dumps(doc)


def run(args: argparse.Namespace) -> str:
    from pathlib import Path

    from stats.metaeval.task_set_presets import TEST_SETS

    from ..analyses.task_set import load_task_set, rank_task_set
    from ..readers.meta import read_meta_eval

    if args.seed < 0:
        raise StatsInputError(f"--seed must be a non-negative integer; got {args.seed}")
    if args.resamples < 1:
        raise StatsInputError(f"--resamples must be a positive integer; got {args.resamples}")
    check_alpha_option(args.alpha)
    if args.confidence_resamples < 0 or not 0 < args.confidence_level < 1:
        raise StatsInputError(
            "--confidence-resamples must be >= 0 and --confidence-level in (0, 1); got "
            f"{args.confidence_resamples} and {args.confidence_level}"
        )
    per_lp = str(args.task_set).lower() == "per-lp"
    task_set = None if per_lp else load_task_set(args.task_set)
    if args.lp and task_set is not None:
        task_set = task_set.restricted(args.lp)
    test_set = args.test_set
    if test_set is None and (per_lp or task_set.test_set is None) and len(args.data) == 1:
        name = Path(args.data[0]).name.lower()
        test_set = name if name in TEST_SETS else None
    outliers = None
    if args.outliers:
        from stats.metaeval.outliers import read_outliers_json

        outliers = read_outliers_json(args.outliers)  # a path, or '-': (name, bytes)
    data = read_meta_eval(*args.data, input_format=args.input_format)
    if per_lp:
        from stats.metaeval.task_set_presets import per_language_pair

        task_set = per_language_pair(data.language_pairs)
        if args.lp:
            task_set = task_set.restricted(args.lp)
    res = rank_task_set(
        data,
        task_set,
        n_resamples=args.resamples,
        rng=args.seed,
        alpha=args.alpha,
        test_set=test_set,
        gold=args.gold,
        refs=args.refs,
        close_refs=args.close_refs,
        include_human=args.include_human,
        primary_only=args.primary_only,
        scheduler=args.scheduler,
        confidence_resamples=args.confidence_resamples,
        confidence_level=args.confidence_level,
        outliers=outliers,
        progress=progress_callback(f"rank: PERM-BOTH, {args.resamples:,} resamples per task"),
    )
    say_read_as(data.read_as)  # after the results: an error stays one line
    if args.format == "json":
        return _json(res, data.read_as)
    head = tsv_comment(
        f"task set {res.task_set.name} ({res.task_set.source}); test set "
        f"{res.test_set or 'unknown'}; "
        f"n_resamples={res.n_resamples} seed={res.seed} alpha={res.alpha:g}"
    )
    notes = [tsv_comment(n) for n in res.notes] + [
        tsv_comment(f"left out, because {why}: {m}") for m, why in res.left_out.items()
    ]
    golds = [
        tsv_comment(f"task{i + 1}: {o.task.name} refs={','.join(o.refs) or '-'}")
        for i, o in enumerate(res.tasks)
    ]
    body = {"tsv": _tsv, "latex": _latex, "text": _text}[args.format](res)
    if args.format == "latex":
        return "\n".join([h.replace("#", "%", 1) for h in [head, *notes, *golds]] + [body])
    return "\n".join([head, *notes, *golds, body])
