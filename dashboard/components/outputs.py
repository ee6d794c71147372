"""Figures, tables and their downloads: how a page shows a figure or a table, with PNG/SVG,
CSV and LaTeX exports, and recorded into the page report."""

from __future__ import annotations

import functools
import html
import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard import export, report
from dashboard.aliases import relabel_figure, relabel_frame
from dashboard.components.layout import presentation_mode
from dashboard.components.uploads import escape_markdown
from dashboard.figures import apply_presentation, shortened_names
from dashboard.page_run import current_report
from dashboard.transport import browser_figure
from dashboard.url_state import current_aliases

_PLOTLY_CONFIG = {"displaylogo": False, "modeBarButtonsToRemove": ["lasso2d", "select2d"]}


def show_figure(
    fig: go.Figure,
    *,
    key: str,
    filename: str,
    exports: bool = True,
    label: str = "",
) -> go.Figure:
    """Draw ``fig`` full-width (presentation fonts applied) with PNG/SVG download buttons below.

    Returns the figure as drawn (after :func:`dashboard.figures.apply_presentation`). The
    browser gets it as :func:`dashboard.figures.browser_figure` (drawn once, not twice); the
    downloads use the figure itself. Widget keys used: ``key`` (chart), ``f"{key}_png"``,
    ``f"{key}_svg"``.
    """
    shown = apply_presentation(relabel_figure(fig, current_aliases()), presentation_mode())
    config = dict(_PLOTLY_CONFIG)
    config["toImageButtonOptions"] = {"filename": export.slugify(filename), "scale": 2}
    st.plotly_chart(browser_figure(shown), key=key, width="stretch", theme=None, config=config)
    page_report = current_report()
    if page_report is not None:
        page_report.add_figure(key, shown, filename)
    if exports:
        figure_downloads(shown, key=key, filename=filename, label=label)
    return shown


def abbreviation_legend(*shown: go.Figure) -> dict[str, str]:
    """A caption under figures as drawn (:func:`show_figure`'s return values) listing the
    names their labels abbreviate ("Abbreviated: Samsung_Research… = Samsung_Research_Philippines;
    ..."); nothing when none is. Hover and exports have the names whole. Returns the
    abbreviation -> full name map shown."""
    abbreviated: dict[str, str] = {}
    for fig in shown:
        abbreviated.update(shortened_names(fig))
    if abbreviated:
        st.caption(
            "Abbreviated: "
            + "; ".join(
                f"{escape_markdown(html.unescape(s))} = {escape_markdown(full)}"
                for s, full in abbreviated.items()
            )
        )
    return abbreviated


def figure_downloads(fig: go.Figure, *, key: str, filename: str, label: str = "") -> None:
    """PNG and SVG download buttons for ``fig``, rendered lazily by kaleido on click.

    The image is produced only when the button is pressed (deferred ``data`` callable), so
    reruns stay fast. Without a Chromium for kaleido an ``st.warning`` says so instead.
    Button labels are ``f"{label} PNG"`` / ``f"{label} SVG"`` (just "PNG"/"SVG" by default).
    """
    if export.find_browser() is None:
        st.warning(
            "PNG/SVG export is unavailable: no Chromium found for kaleido "
            "(install chromium or set BROWSER_PATH). The chart toolbar's camera icon still "
            "saves a PNG.",
            icon=":material/warning:",
        )
        return
    stem = export.slugify(filename)
    row = st.container(horizontal=True, gap="small")
    for fmt in ("png", "svg"):
        with row:
            st.download_button(
                f"{label} {fmt.upper()}".strip(),
                data=functools.partial(export.figure_to_bytes, fig, fmt),
                file_name=f"{stem}.{fmt}",
                mime=export.IMAGE_MIME[fmt],
                key=f"{key}_{fmt}",
                on_click="ignore",
                icon=":material/download:",
                help=f"Download this figure as {fmt.upper()}",
            )


def table_downloads(
    df: pd.DataFrame,
    *,
    key: str,
    filename: str,
    index: bool = True,
    caption: str | None = None,
    float_format: str | None = None,
    label: str = "",
    column_config: dict | None = None,
    marks: export.Marks | None = None,
) -> None:
    """CSV and LaTeX download buttons for a table or p-value matrix, produced on click, and
    the table's entry in the page's report (:func:`current_report`). Tables longer than
    :data:`dashboard.report.LATEX_MAX_ROWS` rows (segment tables) get CSV only.

    Both use the ``column_config`` labels as headers (:func:`dashboard.export.column_specs`);
    LaTeX gets one precision per column (``float_format`` for floats a ``column_config`` does
    not format, else chosen per column), ``marks`` and ``caption``. Button labels are
    ``f"{label} CSV"`` / ``f"{label} LaTeX"``; widget keys ``f"{key}_csv"``, ``f"{key}_tex"``.
    """
    df = relabel_frame(df, current_aliases())
    entry = report.TableEntry(
        df,
        filename=filename,
        caption=caption,
        index=index,
        column_config=column_config,
        float_format=float_format,
        marks=marks,
    )
    page_report = current_report()
    if page_report is not None:
        page_report.add_table(key, entry)
    stem = export.slugify(filename)
    row = st.container(horizontal=True, gap="small")
    with row:
        st.download_button(
            f"{label} CSV".strip(),
            data=functools.partial(
                export.dataframe_to_csv, df, index=index, column_config=column_config
            ),
            file_name=f"{stem}.csv",
            mime="text/csv",
            key=f"{key}_csv",
            on_click="ignore",
            icon=":material/download:",
        )
    if len(df) > report.LATEX_MAX_ROWS:  # a segment table: no paper takes it as LaTeX
        return
    with row:
        st.download_button(
            f"{label} LaTeX".strip(),
            data=functools.partial(
                export.dataframe_to_latex, df, caption=caption, **entry.export_kwargs()
            ),
            file_name=f"{stem}.tex",
            mime="application/x-tex",
            key=f"{key}_tex",
            on_click="ignore",
            icon=":material/download:",
        )


def show_table(
    df: pd.DataFrame,
    *,
    key: str,
    filename: str,
    index: bool = True,
    caption: str | None = None,
    column_config: dict | None = None,
    float_format: str | None = None,
    height: int | str = "auto",
    label: str = "",
    static: bool = False,
    marks: export.Marks | None = None,
    shown_as: pd.DataFrame | None = None,
    shown_config: dict | None = None,
) -> None:
    """A sortable ``st.dataframe`` with CSV/LaTeX downloads below.

    ``shown_as``: what the page draws when it differs from what is exported (the same rows
    and columns, e.g. a p column as text with "-" for the baseline; the downloads and the
    report keep ``df``'s numbers), drawn with ``shown_config`` (default ``column_config``).

    In presentation mode, or with ``static=True``, the table is drawn as a static HTML
    ``st.table`` instead (the dataframe's canvas keeps its small font whatever the page CSS
    says), with the ``column_config`` labels and number formats applied by
    :func:`presentation_table`; presentation mode shows the first ``PRESENTATION_MAX_ROWS``
    rows (what a slide holds) and says so. ``static`` suits a short table redrawn on every
    change of a control: the browser mounts a new ``st.dataframe`` grid each time, a static
    table is cheaper to redraw. ``float_format`` (default ``"{:.4g}"`` on screen, one precision per
    column in LaTeX), ``column_config`` and ``marks`` go to :func:`table_downloads`.
    Widget keys used: ``key`` (dataframe), ``f"{key}_csv"``, ``f"{key}_tex"``.
    """
    # table_downloads relabels df itself
    shown = relabel_frame(df if shown_as is None else shown_as, current_aliases())
    if static or presentation_mode():
        slide = presentation_mode() and len(shown) > PRESENTATION_MAX_ROWS
        st.table(
            presentation_table(
                shown.head(PRESENTATION_MAX_ROWS) if slide else shown,
                column_config if shown_config is None else shown_config,
                float_format=float_format or "{:.4g}",
                transpose=presentation_mode() and index,  # rows named by the index
            ),
            hide_index=not index,
        )
        if slide:  # 500 segments made one slide 169,000 px tall
            st.caption(
                f"Presentation mode shows the first {PRESENTATION_MAX_ROWS} of {len(shown):,} "
                "rows; the downloads below hold them all."
            )
    else:
        st.dataframe(
            shown,
            key=key,
            hide_index=not index,
            column_config=column_config if shown_config is None else shown_config,
            width="stretch",
            height=_fitted_height(len(shown)) if height == "auto" else height,
        )
    table_downloads(
        df,
        key=key,
        filename=filename,
        index=index,
        caption=caption,
        float_format=float_format,
        label=label,
        column_config=column_config,
        marks=marks,
    )


#: what a static table prints for a number that is undefined (NaN), as the figures' hover
#: (:func:`dashboard.figures.style.format_number`)
UNDEFINED = "–"

#: st.dataframe's row height in px (header row included), and the most rows shown unscrolled
_ROW_PX, _MAX_ROWS_SHOWN = 35, 25
#: the most rows of a table drawn in presentation mode (enlarged rows on a 1080-px slide)
PRESENTATION_MAX_ROWS = 20


def _fitted_height(n_rows: int) -> int | str:
    """A height showing every row of a table up to ``_MAX_ROWS_SHOWN`` rows (Streamlit's
    "auto" stops at 10 and hides the rest behind a scroll bar); "auto" beyond."""
    if n_rows > _MAX_ROWS_SHOWN:
        return "auto"
    return _ROW_PX * (n_rows + 1) + 3


def show_clustered_table(
    df: pd.DataFrame, *, cluster: str, key: str, filename: str, caption: str
) -> None:
    """A short ranking table drawn as a static table with a line above each new cluster
    (the findings' human ranking tables), with CSV/LaTeX downloads below. ``cluster`` names
    the column holding each row's cluster number."""
    ids = pd.to_numeric(df[cluster], errors="coerce").astype(float).fillna(-1.0)  # -1: none
    starts = ids.ne(ids.shift()).to_numpy(dtype=bool, copy=True)
    starts[0] = False
    styler = presentation_table(df).apply(
        lambda col: np.where(starts, "border-top: 3px solid currentColor", ""), axis=0
    )
    st.table(styler)
    table_downloads(df, key=key, filename=filename, caption=caption)


def presentation_table(
    df: pd.DataFrame,
    column_config: dict | None = None,
    *,
    float_format: str = "{:.4g}",
    transpose: bool = False,
):
    """``df`` as a pandas ``Styler`` for ``st.table`` (presentation mode).

    ``column_config`` is applied: ``None`` hides a column, a string or a column's ``label``
    renames it, a printf ``format`` (``"%.4f"``, ``"%.2e"``, ``"%d"``, ``"percent"``) formats
    it; other floats use ``float_format``; a missing number (undefined: NaN) prints as
    :data:`UNDEFINED`, missing text as an empty cell. Number columns
    stay numeric (so they are right-aligned); ``st.table`` renders cells as Markdown, so text
    cells and the index are escaped with :func:`escape_markdown`. With ``transpose``, a table
    :func:`transposed` chooses is drawn with its columns as rows (its cells as formatted text).
    """
    keep, labels, formats = [], {}, {}
    for column in df.columns:
        shown, label, fmt = export.config_entry(column, column_config)
        if not shown:
            continue
        keep.append(column)
        label = label or column
        labels[column] = label
        values = df[column]
        numeric = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
        formats[label] = _number_formatter(fmt, float_format) if numeric else _text_formatter
    table = df[keep].rename(columns=labels)
    # st.table renders headers and row labels from the frame itself, not from the Styler's
    # format_index: they are escaped in the frame
    # headers wrap at word boundaries (layout.py), a name also between its parts
    table.columns = [_header_breaks(_text_formatter(c)) for c in table.columns]
    if not pd.api.types.is_numeric_dtype(table.index):
        table.index = pd.Index([_text_formatter(i) for i in table.index], name=table.index.name)
    formats = {_text_formatter(label): fmt for label, fmt in formats.items()}
    if transpose and transposed(table):
        # a summary of a few rows and many columns: its headers in whole words would not fit
        # a slide's width at the slide's font (eleven columns at 1400 px), so its columns are
        # drawn as rows (labels of any length wrap at word boundaries there), values as text
        text = pd.DataFrame(
            {c: [formats[c](v) for v in table[c]] for c in table.columns}, index=table.index
        )
        return text.T.style
    return table.style.format(formats)


#: a presentation table of at most this many rows and at least :data:`TRANSPOSE_MIN_COLUMNS`
#: columns is drawn transposed (:func:`transposed`)
TRANSPOSE_MAX_ROWS, TRANSPOSE_MIN_COLUMNS = 4, 8


def transposed(table: pd.DataFrame) -> bool:
    """Whether presentation mode draws ``table`` with its columns as rows: a few rows
    (:data:`TRANSPOSE_MAX_ROWS`, e.g. one per language pair) and many columns
    (:data:`TRANSPOSE_MIN_COLUMNS`), whose headers would otherwise break inside words."""
    return 0 < len(table) <= TRANSPOSE_MAX_ROWS and table.shape[1] >= TRANSPOSE_MIN_COLUMNS


#: where a header's word may end a line besides spaces and hyphens: after an escaped "_", a
#: "/", or a "." before a letter (``NLLB_MBR_3.3B``, ``team/run``, ``sys.v``)
_WORD_PARTS = re.compile(r"(\\_|/|\.(?=[^\W\d_]))")


def _header_breaks(label: str) -> str:
    r"""A (Markdown-escaped) header ``label`` with a zero-width space after each separator of
    a name's parts (``_``, ``/``, ``.`` before a letter), where the presentation CSS lets it
    wrap: headers never break inside a word (layout.py), a long name still breaks between
    its parts (a hyphen is one already).

    Examples
    --------
    >>> _header_breaks("NLLB\\_MBR\\_3.3B team/run.v").split("\u200b")
    ['NLLB\\_', 'MBR\\_', '3.3B team/', 'run.', 'v']
    """
    return _WORD_PARTS.sub("\\1\u200b", label)


def _text_formatter(value) -> str:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    return escape_markdown(value)


def _number_formatter(fmt: str | None, float_format: str):
    def one(value) -> str:
        if value is None or pd.isna(value):
            return UNDEFINED
        if fmt == "percent":
            return f"{value:.1%}"
        if fmt and fmt.startswith("%"):
            try:
                return fmt % (int(value) if fmt.endswith(("d", "i")) else value)
            except (TypeError, ValueError):
                return str(value)
        if isinstance(value, float):
            return float_format.format(value)
        return str(value)

    return one
