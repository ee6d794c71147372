"""Pure (Streamlit-free) conversions for exports: figures to PNG/SVG bytes through kaleido,
tables to CSV and LaTeX (:mod:`stats.export_tables`, re-exported here), and safe file names.
Unit-testable without a running app.

kaleido 1.x renders with a Chromium it finds through the ``BROWSER_PATH`` environment variable
(Debian: ``/usr/bin/chromium``); :func:`ensure_browser_env` sets that default when the file
exists, and :func:`find_browser` tells the UI whether PNG/SVG export can work at all.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

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
