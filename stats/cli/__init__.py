"""``mt-stats`` (``python -m stats``): the command-line front end.

Each subcommand lives in its own module exposing ``add_parser(subparsers)`` (which registers
the subcommand and sets ``func`` to a callable taking the parsed arguments and returning the
text to print). A subcommand only parses its arguments and formats what the workflows of
:mod:`stats.analyses` return. Bad input of any kind ends with one line on stderr and exit
status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import sys
import time
import warnings

from stats._core.budget import time_bounded
from stats._core.errors import StatsInputError
from stats.escape import one_line, terminal

from ._common import (
    flag_names,
    input_paths,
    manners,
    program_name,
    share_manners,
    version_text,
)
from ._progress import bars

#: subcommand modules, in the order ``--help`` lists them
SUBCOMMANDS = (
    "williams",
    "qe",
    "randomized",
    "accuracy",
    "meta_eval",
    "human",
    "dashboard",
    "rank",
    "power",
    "autorank",
)


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line on stderr and exit status 2."""

    def error(self, message):  # noqa: D401 - argparse API
        self.exit(2, f"{self.prog}: error: {message}\n")


class _Version(argparse.Action):
    """``--version``: the installed distribution's version, looked up only when asked for
    (reading the installed metadata costs about 20 ms, which every other run would pay)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, **kwargs):
        kwargs.setdefault("help", "show program's version number and exit")
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(self, parser, namespace, values, option_string=None):
        sys.stdout.write(version_text() % {"prog": parser.prog} + "\n")
        parser.exit()


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The program's parser; ``only`` (a subcommand's name) registers that subcommand alone
    (what a run of it parses; the others' modules are not imported)."""
    parser = _Parser(
        prog=program_name(),
        description="Significance tests for MT evaluation (Williams, randomized tests, QE, "
        "human gold standard).",
    )
    parser.add_argument("--version", action=_Version)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    for name in SUBCOMMANDS if only is None else (only,):
        importlib.import_module(f"{__name__}.{name}").add_parser(sub)
    share_manners(parser)  # --format latex, '-' for standard input
    return parser


#: BLAS thread pools, left at one thread: ``--jobs`` runs our own threads (and processes), and
#: BLAS threads on top of them oversubscribe the cores; on a busy machine they spin waiting for
#: each other (several times the CPU time of one thread). Results do not depend on it.
_BLAS_THREADS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")

#: first-generation threshold of the cyclic garbage collector in the program's own process
#: (Python's default is 700); see :func:`main`. Above the objects a BLEU+chrF run on 12 x 557
#: paragraphs creates, imports included (about 60,000 at their peak: no pass at all, where
#: 50,000 cost two passes of 20-80 ms); cyclic garbage still goes, every 200,000 net new
#: objects
GC_THRESHOLD = 200_000


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
        program = True
    else:  # called as a function (tests, scripts): the caller's process, left as it is
        program = False
    if argv[:1] == ["dashboard"]:  # its options go to `streamlit run`, not to argparse
        from .dashboard import main as dashboard_main

        return dashboard_main(argv[1:])
    if program:
        # A one-shot process whose heap is mostly the modules it imports (pandas, numba's
        # typing registries: some 10^5 objects living until exit). The cyclic collector's
        # full passes over them, while they load and twice more at shutdown, free nothing
        # and took a third of a BLEU+chrF run's CPU time: collect less often while running
        # (garbage cycles still go, in bigger batches), and freeze the heap before exit.
        gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    try:
        code = _run(argv)
    except KeyboardInterrupt:  # before a subcommand runs (its own Ctrl-C is said in _run)
        print("interrupted: stopped by Ctrl-C; nothing was written", file=sys.stderr)
        return 130
    finally:
        if program:
            gc.freeze()
    if program and _started_as_module():
        _end_process(code)
    return code


def _started_as_module() -> bool:
    """Whether this process was started as ``python -m stats``: its main module is this
    package's ``__main__``, which exits with what :func:`main` returns (a script that runs the
    package's main module itself goes on after it)."""
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    return getattr(spec, "name", None) == "stats.__main__"


def _end_process(code: int) -> None:
    """End the program's own process with ``code`` once only the interpreter's teardown is
    left: the output flushed and the exit handlers run, as at any exit, but not the freeing
    of every module, object and array one by one (some 30-50 ms after a BLEU+chrF run, for
    memory the system takes back at once). Returns instead, to the usual exit, where a thread
    besides the main one still runs (the interpreter waits for it) or flushing the output
    fails (the interpreter reports that)."""
    import atexit
    import threading

    main_thread = threading.main_thread()
    if any(t is not main_thread and not t.daemon and t.is_alive() for t in threading.enumerate()):
        return
    try:
        sys.stdout.flush()
        sys.stderr.flush()
        atexit._run_exitfuncs()  # what a usual exit runs (each handler once)
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):
        return
    os._exit(code)


def _run(argv: list[str]) -> int:
    if "numpy" not in sys.modules:  # read when numpy loads its BLAS; a user's setting wins
        for var in _BLAS_THREADS:
            os.environ.setdefault(var, "1")
    parser = build_parser(argv[0] if argv[:1] and argv[0] in SUBCOMMANDS else None)
    args = parser.parse_args(argv)
    paths = input_paths(args, parser)
    started = time.monotonic()
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with manners(args, parser) as finish:
                # no operation count refuses work here: memory before the run, --max-seconds
                # against the estimate, and the user (progress on stderr, Ctrl-C) while it runs
                with time_bounded(max_seconds=args.max_seconds), bars(quiet=args.quiet):
                    text = finish(args.func(args))
    except StatsInputError as exc:
        print(f"error: {one_line(exc)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(
            f"interrupted: {args.command} stopped by Ctrl-C after "
            f"{time.monotonic() - started:.1f} s; nothing was written",
            file=sys.stderr,
        )
        return 130
    for message in dict.fromkeys(str(w.message) for w in caught):  # each message once
        print(f"warning: {one_line(flag_names(message, paths), 2000)}", file=sys.stderr)
    if text:
        if sys.stdout.isatty():  # names from files: no control sequence reaches a terminal
            text = "\n".join(terminal(line) for line in text.split("\n"))
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0
