"""Progress of a long command on stderr: a tqdm bar with the fraction done, the time spent and
an estimate of the time left, shown once a run has taken :data:`DELAY` seconds, only when stderr
is a terminal and ``--quiet`` was not given (a log or a pipe gets no bar). Subcommands ask for a
callback with :func:`progress_callback` and pass it as the workflows' ``progress=``; ``--max-seconds``
and Ctrl-C are handled around every subcommand by :func:`stats.cli.main`.
"""

from __future__ import annotations

import contextlib
import contextvars
import os
import sys

#: seconds a run goes before its bar appears (a short run prints nothing)
DELAY = 2.0
#: seconds between two redraws of a bar at most
MININTERVAL = 0.5

#: whether this command may draw bars (set by :func:`bars` around a subcommand)
_ENABLED: contextvars.ContextVar[bool] = contextvars.ContextVar("cli_bars", default=False)
#: the bars open now (closed when the command ends or is interrupted)
_OPEN: contextvars.ContextVar[list | None] = contextvars.ContextVar("cli_open_bars", default=None)


@contextlib.contextmanager
def bars(*, quiet: bool, stream=None):
    """Allow :func:`progress_callback` bars while the block runs (not with ``quiet`` or when
    ``stream``, stderr by default, is not a terminal); every bar is closed when it ends."""
    stream = sys.stderr if stream is None else stream
    isatty = getattr(stream, "isatty", None)
    enabled = not quiet and bool(isatty and isatty())
    opened: list = []
    t1, t2 = _ENABLED.set(enabled), _OPEN.set(opened)
    try:
        yield
    finally:
        for bar in opened:
            bar.close()
        _ENABLED.reset(t1)
        _OPEN.reset(t2)


def _columns() -> int:
    try:
        cols = os.get_terminal_size(sys.stderr.fileno()).columns
    except (AttributeError, OSError, ValueError):
        cols = 0
    return min(cols, 120) if cols >= 40 else 100


def progress_callback(desc: str):
    """A ``progress(fraction)`` callable drawing a tqdm bar named ``desc`` on stderr, or
    ``None`` where no bar is drawn (quiet, stderr not a terminal, outside :func:`bars`)."""
    if not _ENABLED.get():
        return None
    from tqdm import tqdm

    bar = tqdm(
        total=1.0,
        desc=desc,
        file=sys.stderr,
        delay=DELAY,
        mininterval=MININTERVAL,
        leave=False,
        # a terminal that reports no size (a pty without one: 0 x 0) still gets a bar
        ncols=_columns(),
        nrows=20,
        bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed} elapsed, ~{remaining} left",
    )
    opened = _OPEN.get()
    if opened is not None:
        opened.append(bar)

    def update(fraction: float) -> None:
        fraction = min(1.0, max(0.0, float(fraction)))
        if fraction > bar.n:
            bar.update(fraction - bar.n)
        if fraction >= 1.0:
            bar.close()

    return update
