"""Output helpers shared by the ``mt-stats`` (``python -m stats``) subcommands, and the manners
every subcommand shares: ``--version``, ``-`` for standard input on file arguments and
``--format latex`` wherever a subcommand has ``--format`` (see :func:`manners`)."""

from __future__ import annotations

import argparse
import contextlib
import contextvars
import json
import math
import os
import re
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from stats._core.choices import CORRECTIONS, GROUPINGS, KENDALL_LIKE_THRESHOLD
from stats._core.errors import StatsInputError
from stats._core.numbers import number_error, option_float, option_int
from stats.escape import latex as latex_escape
from stats.escape import tsv_cell

if TYPE_CHECKING:  # numpy and pandas are imported when output is formatted, not for --help
    import pandas as pd


def jsonable(obj):
    """Convert numpy/pandas scalars and containers to plain JSON types; NaN becomes None."""
    import numpy as np
    import pandas as pd

    if isinstance(obj, Mapping):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, pd.DataFrame):
        return {str(r): jsonable(obj.loc[r].to_dict()) for r in obj.index}
    if isinstance(obj, pd.Series):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, np.ndarray):
        return [jsonable(v) for v in obj.tolist()]
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, (np.bool_, bool)):
        return bool(obj)
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        value = float(obj)
        return None if math.isnan(value) or math.isinf(value) else value
    return obj


def say_read_as(read_as: str) -> None:
    """What the readers read each input file as (``NAME: read as ...``), one line per file on
    stderr (the lines of ``read_as``), before any result."""
    import sys

    for line in filter(None, read_as.splitlines()):
        print(f"note: {line}", file=sys.stderr)


def dumps(obj) -> str:
    """Deterministic JSON text (same input, byte-identical output)."""
    return json.dumps(jsonable(obj), indent=2, allow_nan=False)


# ---- the manners shared by every subcommand (as sacreBLEU's) ----

#: The distribution whose version ``--version`` prints.
DISTRIBUTION = "mt-significance"
#: Metavars of the options that name input files: ``-`` there is standard input.
FILE_METAVARS = ("FILE", "PATH")
#: The name standard input gets as an input file (``-``); readers see its bytes under it.
STDIN_NAME = "stdin"
#: Output formats every subcommand with ``--format`` accepts on top of its own.
SHARED_FORMATS = ("latex",)

#: Whether :func:`table_tsv` and :func:`matrix_tsv` write TSV or booktabs LaTeX (set by
#: :func:`manners` for ``--format latex``; the subcommands' TSV path then writes LaTeX tables).
_TABLES = contextvars.ContextVar("mt_stats_tables", default="tsv")


def program_name(argv0: str | None = None) -> str:
    """The name usage lines show: ``mt-stats`` from the installed command, ``python -m stats``
    when run as a module."""
    base = os.path.basename(argv0 if argv0 is not None else (sys.argv[0] if sys.argv else ""))
    return "python -m stats" if base in ("__main__.py", "") else base


def version_text() -> str:
    """``mt-stats X.Y.Z`` (the installed distribution's version)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        number = version(DISTRIBUTION)
    except PackageNotFoundError:  # a source checkout that was never installed
        number = "unknown"
    return f"%(prog)s {number}"


def add_segment_correlation_options(group, *, when: str = "") -> None:
    """``--grouping``, ``--epsilon``/``--tie-calibration`` and ``--threshold``: how a segment-level
    correlation is computed, one definition for ``meta-eval`` and ``power --metrics`` (``when``
    prefixes each help, e.g. "with --metrics: ")."""
    group.add_argument("--grouping", choices=list(GROUPINGS), default="none",
                       help=f"{when}segment level: correlate per item or per system and average "
                       "(default none)")
    ties = group.add_mutually_exclusive_group()
    ties.add_argument("--epsilon", type=float, metavar="E",
                      help=f"{when}acc23: metric differences <= E are ties (default 0)")
    ties.add_argument("--tie-calibration", action="store_true",
                      help=f"{when}acc23: use the epsilon that maximises acc23")
    group.add_argument("--threshold", type=float, default=KENDALL_LIKE_THRESHOLD, metavar="T",
                       help=f"{when}kendall-like: count pairs whose human scores differ by >= T "
                       f"(default {KENDALL_LIKE_THRESHOLD:g})")


def _subparsers(parser: argparse.ArgumentParser):
    for action in parser._actions:  # argparse keeps no public list of subcommands
        if isinstance(action, argparse._SubParsersAction):
            yield from action.choices.values()


#: argparse's number types -> the one rule for numbers (:mod:`stats._core.numbers`): ``5_0``,
#: ``0x10``, ``١٢``, ``１００``, ``nan`` and magnitudes past 1e150 are refused as in files
NUMBER_TYPES = {float: option_float, int: option_int}


def share_manners(parser: argparse.ArgumentParser) -> None:
    """Give every subcommand of ``parser`` the shared manners: ``latex`` among the choices of
    its ``--format`` (the help lists it), ``-`` (standard input) mentioned in the help of
    its file options, and every ``float``/``int`` option read by the one rule for numbers
    (:data:`NUMBER_TYPES`)."""
    for sub in dict.fromkeys(_subparsers(parser)):  # aliases share a parser
        add_run_options(sub)
        for action in sub._actions:
            if action.type in NUMBER_TYPES:
                action.type = NUMBER_TYPES[action.type]
            if "--format" in action.option_strings and action.choices is not None:
                # a subcommand that writes a format itself keeps writing it
                sub.set_defaults(own_formats=tuple(action.choices))
                extra = [f for f in SHARED_FORMATS if f not in action.choices]
                action.choices = [*action.choices, *extra]
            elif action.option_strings and action.metavar in FILE_METAVARS and action.help:
                action.help += " ('-': standard input)"


def add_run_options(sub: argparse.ArgumentParser) -> None:
    """``--max-seconds`` and ``--quiet``, which every subcommand takes: no fixed operation count
    refuses a run; a run longer than a few seconds shows its progress and the time left on
    stderr (when stderr is a terminal), Ctrl-C stops it with one line."""
    run = sub.add_argument_group("long runs")
    run.add_argument(
        "--max-seconds",
        type=float,
        metavar="S",
        help="refuse, before it starts, a run whose estimated time is over S seconds "
        "(default: no bound; the run shows its progress and Ctrl-C stops it)",
    )
    run.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="no progress bar on stderr (none is drawn when stderr is not a terminal either)",
    )


def _file_dests(parser: argparse.ArgumentParser, command: str | None) -> list[str]:
    """The destinations of the file options of subcommand ``command``."""
    return list(
        dict.fromkeys(
            a.dest
            for sub in _subparsers(parser)
            if sub.prog.endswith(f" {command}")
            for a in sub._actions
            if a.option_strings and a.metavar in FILE_METAVARS
        )
    )


#: Metavars of the options that name files the subcommand writes
OUTPUT_METAVARS = ("OUTFILE",)


def _output_dests(parser: argparse.ArgumentParser, command: str | None) -> list[tuple[str, str]]:
    """``(dest, flag)`` of the output-file options of subcommand ``command``."""
    return list(
        dict.fromkeys(
            (a.dest, a.option_strings[-1])
            for sub in _subparsers(parser)
            if sub.prog.endswith(f" {command}")
            for a in sub._actions
            if a.option_strings and a.metavar in OUTPUT_METAVARS
        )
    )


def _same_file(out: str, given: str) -> bool:
    """Whether writing ``out`` would write the input ``given``: the same path once links are
    resolved, the same file under another name (a hard link), or a file inside an input
    directory."""
    real_out, real_in = os.path.realpath(out), os.path.realpath(given)
    if real_out == real_in:
        return True
    try:
        if os.path.samefile(out, given):
            return True
    except OSError:  # either does not exist (yet)
        pass
    return os.path.isdir(real_in) and os.path.exists(real_out) and (
        os.path.commonpath([real_out, real_in]) == real_in
    )


def check_files(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Refuse a file given twice to one file option (the same path, a link to it or a hard
    link: its rows would count twice), and an output file (an option whose metavar is in
    :data:`OUTPUT_METAVARS`) that is one of the input files (the same path, a link to it, a
    hard link, or a file of an input directory): writing it would destroy the input."""
    command = getattr(args, "command", None)
    inputs = [
        (dest, v)
        for dest in _file_dests(parser, command)
        for v in (lambda x: [x] if isinstance(x, str) else list(x or ()))(getattr(args, dest, None))
        if isinstance(v, str) and v != "-"
    ]
    for dest in dict.fromkeys(d for d, _ in inputs):  # one option's files: each once
        given = [v for d, v in inputs if d == dest]
        for i, later in enumerate(given):
            first = next((g for g in given[:i] if _same_file(later, g)), None)
            if first is not None and not os.path.isdir(first):
                flag = f"--{dest.replace('_', '-')}"
                what = "twice" if first == later else f"twice ({first} and {later})"
                raise StatsInputError(
                    f"{flag}: the same file is given {what}; its rows would count twice; give "
                    "each file once"
                )
    for dest, flag in _output_dests(parser, command):
        out = getattr(args, dest, None)
        if not isinstance(out, str) or not out:
            continue
        for in_dest, source in inputs:
            if _same_file(out, source):
                raise StatsInputError(
                    f"{flag} {out}: is the input file {source} (--{in_dest.replace('_', '-')}); "
                    "writing it would overwrite the input; give another output file"
                )


def read_stdin(args: argparse.Namespace, parser: argparse.ArgumentParser) -> None:
    """Replace a ``-`` among the file arguments of ``args`` by the bytes of standard input, as
    an upload ``("stdin", bytes)`` that every reader takes. Standard input is read once: ``-``
    given twice is an error."""
    found = []
    for dest in _file_dests(parser, getattr(args, "command", None)):
        value = getattr(args, dest, None)
        found += [dest] * (value == "-" if isinstance(value, str) else list(value or ()).count("-"))
    if not found:
        return
    if len(found) > 1:
        flags = ", ".join(dict.fromkeys(f"--{d.replace('_', '-')}" for d in found))
        raise StatsInputError(f"standard input ('-') can be read once; given to {flags}")
    from stats.readers import read_stream

    data = read_stream(sys.stdin.buffer, f"--{found[0].replace('_', '-')} - (standard input)")
    if not data:
        raise StatsInputError(f"--{found[0].replace('_', '-')} -: standard input is empty")
    value = getattr(args, found[0])
    upload = (STDIN_NAME, data)
    if isinstance(value, list):
        setattr(args, found[0], [upload if v == "-" else v for v in value])
    else:
        setattr(args, found[0], upload)


#: the library's argument names -> the command line's flags (the one place they are mapped):
#: library messages name arguments (``refset=NAME``, ``n_resamples``), and the CLI shows the
#: flags (``--refset NAME``, ``--resamples``); see :func:`flag_names`
ARGUMENT_FLAGS = {
    "allow_constant": "--allow-constant",
    "epsilon": "--epsilon",
    "exclude_systems": "--exclude-systems",
    "gold": "--gold",
    "include_human": "--include-human",
    "input_format": "--input-format",
    "level": "--level",
    "lp": "--lp",
    "max_seconds": "--max-seconds",
    "metric": "--score-metric",
    "mqm_weights": "--mqm-weights",
    "mqm_weights_sep": "--mqm-weights-sep",
    "n_resamples": "--resamples",
    "n_simulations": "--simulations",
    "perm_test": "--perm-test",
    "post_edit": "--post-edit",
    "reference_free": "--reference-free",
    "refset": "--refset",
    "rng": "--seed",
    "scheduler": "--scheduler",
    "seed": "--seed",
    "testset": "--testset",
}
_NAMES = sorted(ARGUMENT_FLAGS, key=len, reverse=True)  # longest first: mqm_weights_sep
#: mapped only as ``name=VALUE``: bare, the name is also a task-set file's key
#: (``task 3: include_human must be true or false``; the accepted keys a task set names), not a
#: flag
_WITH_VALUE_ONLY = frozenset({"include_human", "perm_test"})
#: ``name=VALUE`` for any mapped name; a bare name only where it cannot be a plain word (``_``);
#: neither inside a path or file name (``pe/post_edit.tsv``, ``post_edit-2.tsv``)
_ARGUMENT = re.compile(
    r"(?<![\w./\\-])(?:(" + "|".join(_NAMES) + r")=(?:True\b)?"
    r"|(" + "|".join(n for n in _NAMES if "_" in n and n not in _WITH_VALUE_ONLY)
    + r")(?![\w/\\=-]|\.\w))"
)
_PROTECTED = "\x00{}\x00"


def flag_names(message: str, paths: Sequence[str] = ()) -> str:
    """A library message with its argument names as the command line's flags:
    ``refset=NAME`` -> ``--refset NAME``, ``allow_constant=True`` -> ``--allow-constant``,
    ``n_resamples must be ...`` -> ``--resamples must be ...``. Names inside a path or file name
    are left as they are, and so is all of each of ``paths`` (the files the user gave:
    :func:`input_paths`).

    Examples
    --------
    >>> flag_names("n_resamples must be >= 1")
    '--resamples must be >= 1'
    >>> flag_names("pe/post_edit.tsv, line 2: post_edit needs a SID column")
    'pe/post_edit.tsv, line 2: --post-edit needs a SID column'
    >>> flag_names("post_edit: file not found", ["post_edit"])
    'post_edit: file not found'
    """
    kept: list[str] = []
    for path in sorted({p for p in paths if p}, key=len, reverse=True):
        if path in message:
            message = message.replace(path, _PROTECTED.format(len(kept)))
            kept.append(path)

    def flag(m: re.Match) -> str:
        if m.group(1):
            value_follows = not m.group(0).endswith("True") and m.end() < len(message) and (
                message[m.end()] not in " ,;)"
            )
            return ARGUMENT_FLAGS[m.group(1)] + (" " if value_follows else "")
        return ARGUMENT_FLAGS[m.group(2)]

    message = _ARGUMENT.sub(flag, message)
    for i, path in enumerate(kept):
        message = message.replace(_PROTECTED.format(i), path)
    return message


def input_paths(args: argparse.Namespace, parser: argparse.ArgumentParser) -> list[str]:
    """The file names given to the file options of ``args`` (as typed, and their base names):
    what :func:`flag_names` leaves as it is in messages."""
    out: list[str] = []
    for dest in _file_dests(parser, getattr(args, "command", None)):
        value = getattr(args, dest, None)
        for v in [value] if isinstance(value, str) else list(value or ()):
            if isinstance(v, str) and v != "-":
                out += [v, os.path.basename(v)]
    return out


@contextlib.contextmanager
def manners(args: argparse.Namespace, parser: argparse.ArgumentParser):
    """While a subcommand runs: standard input read (:func:`read_stdin`), and ``--format
    latex`` turned into the subcommand's table path with LaTeX tables. Yields the function
    that finishes its output text (:func:`finish`)."""
    paths = input_paths(args, parser)
    check_files(args, parser)
    read_stdin(args, parser)
    shared = None
    token = None
    fmt = getattr(args, "format", None)
    if fmt in SHARED_FORMATS and fmt not in getattr(args, "own_formats", ()):
        shared, args.format = args.format, "tsv"
        token = _TABLES.set(shared)
    try:
        yield lambda text: finish(text, shared)
    except StatsInputError as exc:  # the library names arguments; the user typed flags
        raise StatsInputError(flag_names(str(exc), paths)) from exc
    finally:
        if token is not None:
            _TABLES.reset(token)


def finish(text: str, shared: str | None) -> str:
    """The output of a subcommand in a shared format: for LaTeX, its ``#`` caption lines become
    LaTeX comments (``%``) around the booktabs tables."""
    if shared != "latex" or not text:
        return text
    return "\n".join(
        "%" + latex_escape(line[1:]) if line.startswith("#") else line
        for line in text.split("\n")
    )


def _latex(df: pd.DataFrame, *, index: bool, marks=None) -> str:
    from ..export_tables import dataframe_to_latex

    return dataframe_to_latex(df, index=index, marks=marks).rstrip("\n")


def pvalue_matrix_json(matrix: pd.DataFrame) -> dict:
    """``{row: {col: p or None}}`` from a square p-value DataFrame (NaN -> None)."""
    # each column's values once (the cells' own scalars, as ``.at`` gives them), not a
    # label lookup per cell
    columns = [matrix.iloc[:, j].array for j in range(matrix.shape[1])]
    return {
        str(r): {str(c): jsonable(col[i]) for c, col in zip(matrix.columns, columns, strict=True)}
        for i, r in enumerate(matrix.index)
    }


def matrix_tsv(matrix: pd.DataFrame, *, empty: str = "-", fmt: str = "{:.6g}", marks=None) -> str:
    """Tab-separated matrix with a header row; NaN cells print as ``empty``. With ``--format
    latex``, a booktabs tabular (one number format for the matrix; ``marks``, a
    :class:`stats.export_tables.Marks`, in bold and dagger)."""
    if _TABLES.get() == "latex":
        return _latex(matrix, index=True, marks=marks)
    lines = ["\t".join(["", *map(tsv_cell, matrix.columns)])]
    for r in matrix.index:
        cells = []
        for c in matrix.columns:
            v = matrix.at[r, c]
            cells.append(
                empty if v is None or (isinstance(v, float) and math.isnan(v))
                else tsv_cell(v) if isinstance(v, str) else fmt.format(v)
            )
        lines.append("\t".join([tsv_cell(r), *cells]))
    return "\n".join(lines)


def table_tsv(rows: Sequence[Mapping], columns: Sequence[str], *, fmt: str = "{:.6g}") -> str:
    """Tab-separated table of ``rows`` (dicts) restricted to ``columns``; with ``--format
    latex``, a booktabs tabular of the same cells (numbers formatted per column)."""
    import numpy as np

    if _TABLES.get() == "latex":
        import pandas as pd

        frame = pd.DataFrame([{c: row.get(c) for c in columns} for row in rows], columns=columns)
        return _latex(frame, index=False)

    def cell(v):
        if undefined(v):
            return "-"
        if isinstance(v, (float, np.floating)):
            return "-" if math.isnan(v) else fmt.format(v)
        return tsv_cell(v)  # names from files: one cell, no formula

    out = ["\t".join(map(tsv_cell, columns))]
    out += ["\t".join(cell(row.get(c)) for c in columns) for row in rows]
    return "\n".join(out)


# ---- input options shared by the randomized and accuracy subcommands ----


def add_system_outputs(group, *, wmt_scores: bool = False) -> None:
    """Add the system-output inputs: ``--ref FILE`` (repeatable), ``--hyp FILE ...`` (one file
    per system) and ``--scores FILE`` (segment scores); with ``wmt_scores``, ``--scores FILE
    [FILE ...]`` (a list: also WMT metrics task segment-level files, archives, directories)
    with ``--lp``, ``--testset`` and ``--refset`` to choose their block."""
    group.add_argument(
        "--ref",
        action="extend",
        nargs="+",
        metavar="FILE",
        default=[],
        help="reference file(s), one segment per line: several give several references "
        "(--ref refA refB, as sacrebleu; --ref may also be repeated)",
    )
    group.add_argument(
        "--hyp",
        action="extend",
        nargs="+",
        metavar="FILE",
        default=[],
        help="hypothesis file(s), one per system, any extension; system names: what the file "
        "names do not share (generaltest2023.en-de.hyp.ONLINE-W.de -> ONLINE-W)",
    )
    if not wmt_scores:
        group.add_argument(
            "--scores",
            metavar="FILE",
            help="segment scores: long SYSTEM SEGMENT SCORE [METRIC] or wide CSV (one column "
            "per system)",
        )
        return
    group.add_argument(
        "--scores",
        nargs="+",
        metavar="FILE",
        help="segment scores: long SYSTEM SEGMENT SCORE [METRIC] or wide CSV (one column per "
        "system); or WMT metrics task segment-level files as published (METRIC LP TESTSET "
        "REFSET SYSTEM DOCID SEGID SCORE, gzip, .zip/.tar.gz, directories)",
    )
    group.add_argument("--lp", metavar="LP", help="with WMT --scores: the language pair; with "
                       "--ref/--hyp: the pair whose target language sets sacreBLEU's default "
                       "tokenizer (default: read from the file names)")
    group.add_argument("--testset", metavar="NAME", help="with WMT --scores: the test set")
    group.add_argument(
        "--refset",
        metavar="NAME",
        help="with WMT --scores: the reference (REFSET); default the test set's own",
    )


def _jobs(text: str) -> int:
    value = int(text) if number_error(text, integer=True) is None else 0  # the one rule
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be a positive integer; got {text!r}")
    return value


def add_jobs(parser) -> None:
    """Add ``--jobs N``: worker processes for statistics extraction, threads for resampling
    (default: all cores)."""
    parser.add_argument(
        "--jobs",
        type=_jobs,
        default=None,
        metavar="N",
        help="worker processes for TER statistics extraction and threads for resampling "
        "(default: all cores)",
    )


def check_resamples_seed(resamples: int | None, seed: int) -> None:
    """``--resamples`` (when given) must be positive and ``--seed`` non-negative."""
    if resamples is not None and resamples < 1:
        raise StatsInputError(f"--resamples must be a positive integer; got {resamples}")
    if seed < 0:
        raise StatsInputError(f"--seed must be a non-negative integer; got {seed}")


def check_two_systems(
    first: str, second: str, flags=("--baseline", "--system"), what: str = "system"
) -> None:
    """Refuse a comparison of a system (or metric: ``what``) with itself, the two options
    naming one."""
    if str(first).strip() == str(second).strip():
        raise StatsInputError(
            f"{flags[0]} and {flags[1]} name the same {what} {str(first).strip()!r}; a {what} "
            f"compared with itself has no difference to test: name two {what}s"
        )


def add_lower_is_better(group, *, bare_flag: bool = False) -> None:
    """Add ``--lower-is-better NAME ...``: metrics of a ``--scores`` file (SYSTEM SEGMENT SCORE
    [METRIC]) for which a lower score is better (error rates such as segment-level TER).

    With ``bare_flag`` (a subcommand that tests one metric) the names are optional: a bare
    ``--lower-is-better`` means the metric chosen with ``--score-metric`` or the file's only
    one (then ``[]``). The value is None when the option is absent.
    """
    group.add_argument(
        "--lower-is-better",
        nargs="*" if bare_flag else "+",
        default=None,
        metavar="NAME",
        help="with --scores: a lower score is better for "
        + ("the metric tested (or the named metric(s)) " if bare_flag else "these metrics ")
        + "of the file ('mean' for a file without METRIC column); the system with the lower "
        "score is ranked first and holds the p-value",
    )


def check_scores_only(args) -> None:
    """``--score-metric`` and ``--lower-is-better`` describe a ``--scores`` file: an error
    without one."""
    if args.score_metric and not args.scores:
        raise StatsInputError("--score-metric only applies to --scores")
    if args.lower_is_better is not None and not args.scores:
        raise StatsInputError(
            "--lower-is-better only applies to --scores (TER from --ref/--hyp is already "
            "lower-is-better)"
        )


def lower_is_better_for(args, metric: str, *, source: str) -> bool:
    """Whether ``metric`` (the name of the one metric read from ``--scores``) is lower-is-better
    according to ``--lower-is-better`` (bare: yes; names: yes if listed, case-insensitive; a
    name that is not ``metric`` is an error naming the file's metric)."""
    names = args.lower_is_better
    if names is None:
        return False
    if not names:
        return True
    wanted = {str(n).lower() for n in names}
    unknown = sorted(wanted - {metric.lower()})
    if unknown:
        raise StatsInputError(
            f"--lower-is-better names {', '.join(unknown)}, not the metric tested from {source} "
            f"({metric}); give a bare --lower-is-better or --lower-is-better {metric}"
        )
    return True


# ---- multiple comparisons, clusters and sidedness of a significance grid ----


def add_correction(parser, *, alpha: bool = True) -> None:
    """Add ``--correction none|holm|bh`` (and, with ``alpha``, ``--alpha A``: the level of the
    significance clusters)."""
    parser.add_argument(
        "--correction",
        choices=CORRECTIONS,
        default="none",
        help="adjust the p-values of each grid (all pairs of one language pair / system set) "
        "for multiple comparisons: holm (family-wise error, Holm 1979) or bh (false discovery "
        "rate, Benjamini-Hochberg 1995); the JSON keeps the raw p-values and adds the adjusted "
        "ones (default none)",
    )
    if alpha:
        parser.add_argument(
            "--alpha",
            type=float,
            default=0.05,
            metavar="A",
            help="significance level of the clusters ('rank'; default 0.05)",
        )


def check_alpha_option(alpha: float) -> float:
    """``--alpha`` must lie in (0, 1)."""
    if not 0.0 < alpha < 1.0:
        raise StatsInputError(f"--alpha must be in (0, 1); got {alpha:g}")
    return alpha


def rank_json(rank) -> dict:
    """``{item: cluster}`` for JSON: null where the item has no rank (its statistic or every
    test of it undefined)."""
    return {str(k): None if undefined(v) else int(v) for k, v in rank.items()}


def undefined(value) -> bool:
    """A missing number (None, NaN, pandas' NA)."""
    if value is None:
        return True
    try:
        return bool(value != value)
    except TypeError:  # pandas' NA has no truth value
        return True


def significance_json(grid, adjusted_key: str) -> dict:
    """The keys a :class:`stats.pairwise.grids.GridSignificance` adds to a JSON block: ``alpha``,
    ``correction``, ``sidedness``, ``test_note``, ``rank`` ({item: cluster or null}) and, with a
    correction, ``adjusted_key`` (the adjusted p-value grid)."""
    out = {
        "alpha": grid.alpha,
        "correction": grid.correction,
        "sidedness": grid.sidedness,
        "test_note": grid.test_note,
        "rank": rank_json(grid.rank),
    }
    if grid.correction != "none":
        out[adjusted_key] = pvalue_matrix_json(grid.pvalue_adjusted)
    return out


def significance_tsv(grid, what: str) -> str:
    """TSV lines for a corrected grid: the ranks and the adjusted p-value matrix."""
    ranks = "\t".join(
        tsv_cell(f"{k}={'-' if undefined(v) else int(v)}") for k, v in grid.rank.items()
    )
    return "\n".join(
        [
            f"# rank (clusters at alpha={grid.alpha:g}, {grid.correction}-adjusted)\t{ranks}",
            f"# {grid.correction}-adjusted {what} (family: this grid)",
            matrix_tsv(grid.pvalue_adjusted, fmt="{:.4g}"),
        ]
    )
