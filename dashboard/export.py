"""Pure (Streamlit-free) conversions for exports: figures to PNG/SVG bytes through kaleido,
tables to CSV and LaTeX (:mod:`stats.export_tables`, re-exported here), and safe file names.
Unit-testable without a running app.

kaleido 1.x renders with a Chromium it finds through the ``BROWSER_PATH`` environment variable
(Debian: ``/usr/bin/chromium``); :func:`ensure_browser_env` sets that default when the file
exists, and :func:`find_browser` tells the UI whether PNG/SVG export can work at all.

Exports of a process render in one Chromium that stays open after the first (starting one costs
seconds, rendering a figure in an open one a fraction of that): a ``kaleido.Kaleido`` owned by
an event loop of its own in a daemon thread, used by one export at a time. Each export waits for
it with a time limit; if it fails or runs out of time, that Chromium is closed (its own process
group killed if closing does not end it), the export is rendered by a Chromium of its own
(kaleido's one-shot export), and the next export opens a new kept one.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import logging
import os
import re
import shutil
import signal
import subprocess
import tempfile
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import plotly.graph_objects as go
import plotly.io as pio

from dashboard.figures.style import with_full_names

# The table writers (booktabs LaTeX, safe CSV) live in stats, shared with the command line.
from stats.export_tables import (  # noqa: F401 - re-exported for the pages and the report
    DAGGER,
    HUMAN_HEADERS,
    RESIZE_COLUMNS,
    Column,
    FormattedTable,
    Marks,
    auto_format,
    column_specs,
    config_entry,
    csv_frame,
    csv_safe,
    dataframe_to_csv,
    dataframe_to_latex,
    format_table,
    human_header,
    latex_escape,
    latex_label,
    number_formatter,
    pvalue_marks,
    ranking_marks,
)

DEBIAN_CHROMIUM = "/usr/bin/chromium"
_BROWSER_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")

#: Image formats :func:`figure_to_bytes` produces, with their MIME types.
IMAGE_MIME = {"png": "image/png", "svg": "image/svg+xml"}

#: Export size used when a figure's layout leaves width/height to the browser.
DEFAULT_EXPORT_WIDTH = 1200
DEFAULT_EXPORT_HEIGHT = 700


#: Seconds the kept Chromium may take to start, to render one figure, and to close; and how long
#: an export waits for another one's turn in it before rendering in a Chromium of its own.
KEPT_OPEN_TIMEOUT = 60.0
KEPT_RENDER_TIMEOUT = 30.0
KEPT_CLOSE_TIMEOUT = 10.0
KEPT_TURN_TIMEOUT = 30.0

_logger = logging.getLogger(__name__)

#: Figure (as plotly's dict) and kaleido options (format, width, height, scale) of one render.
_Render = tuple[dict[str, Any], dict[str, Any]]
_T = TypeVar("_T")


class ExportUnavailableError(RuntimeError):
    """PNG/SVG export is impossible here (no Chromium for kaleido)."""


def ensure_browser_env() -> None:
    """Point kaleido at Debian's chromium (``BROWSER_PATH``) unless the user set it already."""
    if "BROWSER_PATH" not in os.environ and os.path.exists(DEBIAN_CHROMIUM):
        os.environ["BROWSER_PATH"] = DEBIAN_CHROMIUM


def find_browser() -> str | None:
    """Path of the Chromium kaleido will use, or ``None`` if there is none.

    ``BROWSER_PATH`` wins when it names an executable file; otherwise the usual Chromium/Chrome
    names are looked up on ``PATH``.
    """
    ensure_browser_env()
    configured = os.environ.get("BROWSER_PATH")
    if configured:
        return configured if os.path.isfile(configured) and os.access(configured, os.X_OK) else None
    for exe in _BROWSER_NAMES:
        path = shutil.which(exe)
        if path:
            return path
    return None


def export_size(fig: go.Figure) -> tuple[int, int]:
    """(width, height) in CSS pixels for exporting ``fig``: its layout's, or the defaults."""
    width = fig.layout.width or DEFAULT_EXPORT_WIDTH
    height = fig.layout.height or DEFAULT_EXPORT_HEIGHT
    return int(width), int(height)


def figure_to_bytes(fig: go.Figure, fmt: str, *, scale: float = 2.0) -> bytes:
    """Render ``fig`` as PNG or SVG bytes with kaleido.

    Parameters
    ----------
    fig : plotly.graph_objects.Figure
    fmt : {'png', 'svg'}
    scale : float
        Pixel density for PNG (2 gives crisp slides); ignored by SVG.

    Raises
    ------
    ValueError
        ``fmt`` is not 'png' or 'svg'.
    ExportUnavailableError
        No Chromium was found for kaleido.
    """
    fmt = fmt.lower()
    if fmt not in IMAGE_MIME:
        raise ValueError(f"fmt must be one of {sorted(IMAGE_MIME)}; got {fmt!r}")
    _require_browser()
    fig = with_full_names(fig, width=export_size(fig)[0])  # names shortened on axes, in full
    width, height = export_size(fig)
    opts = {"format": fmt, "width": width, "height": height, "scale": scale}
    kept = _render_in_kept_browser([(fig.to_dict(), opts)])
    if kept is not None:
        return kept[0]
    return fig.to_image(format=fmt, width=width, height=height, scale=scale)


def figures_to_svg(figs: list[go.Figure]) -> list[bytes]:
    """SVG bytes of every figure in ``figs``, rendered by one kaleido session (much faster than
    one :func:`figure_to_bytes` call each). Raises :class:`ExportUnavailableError` without a
    Chromium."""
    if not figs:
        return []
    _require_browser()
    figs = [with_full_names(fig, width=export_size(fig)[0]) for fig in figs]
    sizes = [export_size(fig) for fig in figs]
    scale = pio.defaults.default_scale  # what plotly's write_images gives an SVG
    kept = _render_in_kept_browser(
        [
            (fig.to_dict(), {"format": "svg", "width": w, "height": h, "scale": scale})
            for fig, (w, h) in zip(figs, sizes, strict=True)
        ]
    )
    if kept is not None:
        return kept
    with tempfile.TemporaryDirectory() as tmp:
        paths = [Path(tmp) / f"figure_{k}.svg" for k in range(len(figs))]
        pio.write_images(
            list(figs),
            paths,
            format="svg",
            width=[w for w, _ in sizes],
            height=[h for _, h in sizes],
        )
        return [path.read_bytes() for path in paths]


class _KeptBrowser:
    """One kaleido Chromium, opened on first use, on an event loop of its own in a daemon
    thread. Callers wait for its results with a time limit; :meth:`close` is bounded too."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.kaleido: Any = None
        self.closed = False
        self.thread = threading.Thread(target=self._run, name="kept-kaleido", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            self.loop.run_forever()
        finally:  # what the loop still holds is cancelled (with a time limit), then it closes
            pending = asyncio.all_tasks(self.loop)
            for task in pending:
                task.cancel()
            if pending:
                self.loop.run_until_complete(asyncio.wait(pending, timeout=KEPT_CLOSE_TIMEOUT))
            self.loop.close()

    def render(self, renders: list[_Render]) -> list[bytes]:
        """The bytes of each render, in order; raises on any failure or when the time runs
        out (the coroutine is then cancelled)."""
        opening = KEPT_OPEN_TIMEOUT if self.kaleido is None else 0.0
        future = self._submit(self._render(renders))
        try:
            return future.result(timeout=opening + KEPT_RENDER_TIMEOUT * len(renders))
        except BaseException:
            future.cancel()
            raise

    def _submit(self, coroutine: Coroutine[Any, Any, _T]) -> concurrent.futures.Future[_T]:
        """``coroutine`` scheduled on the loop (closed unstarted if the loop is closed)."""
        try:
            return asyncio.run_coroutine_threadsafe(coroutine, self.loop)
        except BaseException:
            coroutine.close()
            raise

    async def _render(self, renders: list[_Render]) -> list[bytes]:
        if self.kaleido is None:
            import kaleido

            # the options plotly's own export gives kaleido, and kaleido's time limit per figure
            kopts = {
                name: value
                for name in ("plotlyjs", "mathjax", "headers")
                if (value := getattr(pio.defaults, name))
            }
            self.kaleido = kaleido.Kaleido(timeout=KEPT_RENDER_TIMEOUT, **kopts)
            await self.kaleido.open()
        elif self.process() is None:
            raise RuntimeError("the kept Chromium has exited")
        return [
            await self.kaleido.calc_fig(fig, opts=opts, topojson=pio.defaults.topojson)
            for fig, opts in renders
        ]

    def process(self) -> subprocess.Popen | None:
        """The process kaleido started (choreographer's wrapper, leading the process group of
        its Chromium), while it runs."""
        proc = getattr(self.kaleido, "subprocess", None)
        return proc if proc is not None and proc.poll() is None else None

    def close(self) -> None:
        """Close the Chromium (kill its process group if closing does not end it in time) and
        stop the loop; returns within about three times :data:`KEPT_CLOSE_TIMEOUT`."""
        if self.closed:
            return
        self.closed = True
        if self.kaleido is not None and not self.loop.is_closed():
            future = None
            try:
                future = self._submit(self.kaleido.close())
                future.result(timeout=KEPT_CLOSE_TIMEOUT)
            except BaseException as exc:  # noqa: BLE001 - the process is ended below
                if future is not None:
                    future.cancel()
                _logger.warning("closing the kept Chromium failed (%r); killing it", exc)
        proc = self.process()
        if proc is not None:
            try:
                if os.getpgid(proc.pid) == proc.pid:  # its own group: wrapper and Chromium
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(timeout=KEPT_CLOSE_TIMEOUT)
            except (ProcessLookupError, subprocess.TimeoutExpired) as exc:
                _logger.warning("ending the kept Chromium (pid %d): %r", proc.pid, exc)
        try:
            self.loop.call_soon_threadsafe(self.loop.stop)
        except RuntimeError:  # the loop is closed: its thread has ended
            pass
        self.thread.join(timeout=KEPT_CLOSE_TIMEOUT)


_kept: _KeptBrowser | None = None
_kept_turn = threading.Lock()


def _render_in_kept_browser(renders: list[_Render]) -> list[bytes] | None:
    """The bytes of ``renders`` from the kept Chromium, or ``None`` when it cannot give them in
    time (it is then closed; the caller renders in a Chromium of its own)."""
    global _kept
    if not _kept_turn.acquire(timeout=KEPT_TURN_TIMEOUT):
        _logger.warning("the kept Chromium is busy; this export starts its own")
        return None
    try:
        if _kept is not None and _kept.kaleido is not None and _kept.process() is None:
            _kept.close()  # its Chromium has ended: this export opens the next one
            _kept = None
        kept = _kept = _kept or _KeptBrowser()
        try:
            return kept.render(renders)
        except Exception as exc:  # noqa: BLE001 - any failure: a Chromium of the export's own
            _logger.warning("the kept Chromium failed (%r); this export starts its own", exc)
            if _kept is kept:
                _kept = None
            kept.close()
            return None
    finally:
        _kept_turn.release()


def _forget_the_parents_browser() -> None:
    """In a forked child: the kept Chromium, its loop's thread and its turn are the parent's."""
    global _kept, _kept_turn
    _kept, _kept_turn = None, threading.Lock()


os.register_at_fork(after_in_child=_forget_the_parents_browser)


@atexit.register
def close_kept_browser() -> None:
    """Close the kept Chromium, if one is open (at interpreter exit, or in a test); bounded in
    time like :meth:`_KeptBrowser.close`, even while an export holds it."""
    global _kept
    got_turn = _kept_turn.acquire(timeout=KEPT_CLOSE_TIMEOUT)
    try:
        kept, _kept = _kept, None
        if kept is not None:
            kept.close()
    finally:
        if got_turn:
            _kept_turn.release()


def _require_browser() -> None:
    if find_browser() is None:
        raise ExportUnavailableError(
            "PNG/SVG export needs Chromium: install it (Debian: apt install chromium) "
            "or set BROWSER_PATH to a Chrome/Chromium executable"
        )


def slugify(name: str) -> str:
    """A safe file-name stem: letters, digits, '-', '_' and '.' only."""
    slug = re.sub(r"[^A-Za-z0-9._-]+", "_", str(name)).strip("._")
    return slug or "export"
