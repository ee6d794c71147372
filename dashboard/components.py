"""Reusable Streamlit UI pieces shared by every page.

Pages compose these; nothing here computes statistics or caches (caches live in
:mod:`dashboard.data`, pure conversions in :mod:`dashboard.export`). Every widget created here
takes its ``key`` from the caller, so keys stay unique per page. How widgets remember their
values (across reruns, page switches and changed options) is decided here once:
:func:`persistent`, :func:`remembered`, :func:`remembered_multiselect` and :func:`file_input`.

Typical page::

    from dashboard import components, figures, tables
    from dashboard.data import metrics, samples

    presentation = components.presentation_mode()
    uploads, is_sample = components.file_input(
        "Upload score files", key="metrics_upload", sample=samples.sample_files("metrics")
    )
    with components.input_errors():
        result = metrics.analysis(uploads)      # may raise StatsInputError
    with components.controls_expander():
        alpha = components.alpha_input("metrics_alpha")
        lp = components.remembered(st.selectbox, "Language pair", list(result.analyses),
                                   key="metrics_lp", default=next(iter(result.analyses)))
    components.show_figure(figures.williams_grid(w, alpha=alpha), key="metrics_grid",
                           filename="williams_grid")
    components.show_table(table, key="metrics_table", filename="correlations")
"""

from __future__ import annotations

import contextlib
import functools
import re
from collections.abc import Iterator

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from dashboard import export, report, state, view_state
from dashboard.aliases import relabel_figure, relabel_frame
from dashboard.data import Uploads, uploads_from_widget
from dashboard.figures import apply_presentation
from dashboard.page_run import current_report, record_inputs, record_setting
from dashboard.tables import CORRECTION_LABELS
from dashboard.transport import browser_figure
from dashboard.view_state import current_aliases
from stats import StatsInputError
from stats.accuracy import ALPHAS

#: Work and memory one session's computation may use (:func:`stats.limited_budget`, set around
#: every page by app.py): a tenth of the command line's, so that one upload cannot hold the
#: server for minutes; past it the page shows one ``st.error`` line saying what to reduce.
SESSION_MAX_WORK = 1e9
SESSION_MAX_MEMORY = 1 * 2**30

# ---------------------------------------------------------------------------------------------
# ---- Presentation mode ----
# ---------------------------------------------------------------------------------------------


def presentation_mode() -> bool:
    """Whether the sidebar's presentation mode is on (large fonts, controls collapsed)."""
    return bool(st.session_state.get(state.PRESENTATION_KEY, False))


def presentation_toggle() -> bool:
    """Render the presentation-mode toggle (call once, in the sidebar, from app.py)."""
    return st.toggle(
        "Presentation mode",
        key=state.PRESENTATION_KEY,
        help="Large fonts and collapsed controls, for a projector. "
        "Figures and their PNG/SVG exports use the large fonts too.",
    )


# Metric values are Markdown inside [data-testid="stMetricValue"]: the paragraph rule must not
# shrink them to body size (they were smaller than their labels). Tables: st.dataframe draws on
# a canvas (Glide data grid) whose font size comes from the global theme in px, so no CSS can
# enlarge it per session; in presentation mode show_table draws an HTML st.table instead, whose
# text follows the root font size below.
_PRESENTATION_CSS = """
<style>
html { font-size: 21px; }
[data-testid="stMainBlockContainer"] { padding-top: 2rem; max-width: 100%; }
[data-testid="stMarkdownContainer"] p, [data-testid="stCaptionContainer"] { font-size: 1.05rem; }
[data-testid="stMetricValue"], [data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p {
  font-size: 2.4rem; line-height: 1.2;
}
[data-testid="stMetricLabel"] [data-testid="stMarkdownContainer"] p { font-size: 1rem; }
[data-testid="stMetricDelta"] div, [data-testid="stMetricDelta"] p { font-size: 1rem; }
[data-testid="stTable"] table { font-size: 1rem; }
[data-testid="stTable"] th, [data-testid="stTable"] td { padding: 0.3rem 0.6rem; }
</style>
"""


def apply_page_style() -> None:
    """Inject the page CSS for the current mode (call once per run, from app.py)."""
    if presentation_mode():
        st.html(_PRESENTATION_CSS)


def two_columns(spec=2, *, stack: bool = False) -> tuple:
    """Two containers side by side (``st.columns(spec)``), stacked full width in presentation
    mode so each figure gets the whole projector width, or with ``stack`` (figures too big for
    half the page, see :func:`dashboard.figures.fits_half_column`)."""
    if stack or presentation_mode():
        return st.container(), st.container()
    left, right = st.columns(spec)
    return left, right


def controls_expander(label: str = "Controls", *, expanded: bool | None = None):
    """An ``st.expander`` for a page's controls: open normally, collapsed in presentation mode."""
    if expanded is None:
        expanded = not presentation_mode()
    return st.expander(label, expanded=expanded, icon=":material/tune:")


# ---------------------------------------------------------------------------------------------
# ---- Uploads and input errors ----
# ---------------------------------------------------------------------------------------------


def file_input(
    label: str,
    *,
    key: str,
    sample: Uploads = (),
    sample_note: str | None = None,
    types: list[str] | None = None,
    help: str | None = None,
) -> tuple[Uploads, bool]:
    """A multi-file uploader that falls back to bundled sample data and keeps the session's
    uploads across page switches.

    Returns ``(uploads, is_sample)``. While nothing is uploaded, ``sample`` is returned and an
    ``st.info`` note says so (``sample_note`` or a default naming the sample files). Uploads are
    copied to ``(name, bytes)`` tuples so they can key :mod:`dashboard.data` caches.

    Streamlit drops the state of widgets that are not rendered, so after a switch to another
    page and back the uploader is re-created empty. The uploads are therefore also kept in
    ``st.session_state[state.upload_store_key(key)]`` (this session only) and reused, with an
    ``st.info`` naming them and a "Clear uploads / use sample data" button
    (key ``f"{key}_clear"``). A new upload replaces them; removing the files in the widget
    (its x buttons) while it is shown clears them. The two empty cases are told apart by the
    widget's file ids remembered from the previous run: a re-created widget has no state
    before it is drawn, a widget whose files the user removed does.
    """
    uploads, is_sample = _file_input(
        label, key=key, sample=sample, sample_note=sample_note, types=types, help=help
    )
    record_inputs(key, uploads, sample=is_sample)
    return uploads, is_sample


def _file_input(label, *, key, sample, sample_note, types, help) -> tuple[Uploads, bool]:
    store_key = state.upload_store_key(key)
    stored = st.session_state.get(store_key)
    widget_existed = key in st.session_state
    files = st.file_uploader(label, accept_multiple_files=True, key=key, type=types, help=help)
    if files is not None and not isinstance(files, (list, tuple)):
        files = [files]
    files = list(files or [])
    ids = tuple(f.file_id for f in files)
    if ids:
        if stored is None or stored["ids"] != ids:
            stored = {"uploads": uploads_from_widget(files), "ids": ids}
            st.session_state[store_key] = stored
        return stored["uploads"], False
    if stored is not None and stored["ids"] and widget_existed:
        # the widget showed files last run and the user removed them: forget them
        del st.session_state[store_key]
        stored = None
    if stored is not None:
        # the widget was re-created empty (page switch): keep analysing the kept uploads
        stored = {"uploads": stored["uploads"], "ids": ()}
        st.session_state[store_key] = stored
        names = ", ".join(escape_markdown(name) for name, _ in stored["uploads"])
        st.info(f"Using your uploaded files: {names}", icon=":material/upload_file:")
        st.button(
            "Clear uploads / use sample data" if sample else "Clear uploads",
            key=f"{key}_clear",
            on_click=_clear_uploads,
            args=(store_key,),
            icon=":material/delete:",
        )
        return stored["uploads"], False
    if sample:
        names = ", ".join(escape_markdown(name) for name, _ in sample)
        st.info(
            sample_note
            or f"Showing the bundled **synthetic sample data** ({names}). "
            "Upload your own files above to analyse them.",
            icon=":material/science:",
        )
    return sample, True


def _clear_uploads(store_key: str) -> None:
    st.session_state.pop(store_key, None)


def reference_and_outputs(
    labels: tuple[str, str],
    *,
    keys: tuple[str, str],
    sample: tuple[Uploads, Uploads],
    sample_note: str,
    helps: tuple[str | None, str | None] = (None, None),
    types: list[str] | None = None,
    side_by_side: bool = False,
) -> tuple[Uploads, Uploads, bool]:
    """Two :func:`file_input` uploaders, the reference file(s) and one output file per system,
    with one bundled sample for both.

    Returns ``(references, outputs, is_sample)``. The sample pair is used only while neither
    uploader has a file, with one ``st.info`` note (``sample_note``): an uploaded output is never
    paired with the sample reference, nor the reverse. ``labels``, ``keys`` and ``helps`` are
    (reference, outputs); ``side_by_side`` puts the uploaders in two columns.
    """
    places = st.columns(2) if side_by_side else (st.container(), st.container())
    uploaded = []
    for place, label, key, help_text in zip(places, labels, keys, helps, strict=True):
        with place:
            uploaded.append(file_input(label, key=key, help=help_text, types=types)[0])
    references, outputs = uploaded
    if references or outputs:
        return references, outputs, False
    st.info(sample_note, icon=":material/science:")
    for key, files in zip(keys, sample, strict=True):
        record_inputs(key, files, sample=True)
    return *sample, True


def ask_for_the_other_half(references: Uploads, outputs: Uploads) -> None:
    """With system outputs but no reference, or a reference but no outputs (one half of
    :func:`reference_and_outputs`), say which upload comes next (``st.info``) and stop the
    run: the other half is the user's next step, not an error. Anything else wrong with the
    files (a single system, unaligned lines) stays an input error of the data layer."""
    if outputs and not references:
        missing = "the reference file (one segment per line)"
    elif references and not outputs:
        missing = "one output file per system (at least two), aligned with the reference"
    else:
        return
    st.info(f"Now upload {missing}.", icon=":material/upload_file:")
    st.stop()


def escape_markdown(text) -> str:
    """``text`` with Markdown, KaTeX and HTML-significant characters backslash-escaped.

    Use it for every string that carries user-supplied names (file, system, metric, LP names)
    before it reaches ``st.error``/``st.warning``/``st.info``/``st.markdown``/``st.subheader``, so
    ``**x**``, ``$x^2$``, ``_a_``, ``:red[x]`` or ``<b>`` print literally instead of as formatting.
    """
    return _MARKDOWN_SPECIAL.sub(r"\\\1", str(text))


_MARKDOWN_SPECIAL = re.compile(r"([\\`*_{}\[\]<>#$~|])")


def show_warnings(messages, *, prefix: str | None = None) -> None:
    """One ``st.warning`` per distinct message, escaped with :func:`escape_markdown` (the
    messages of :mod:`dashboard.data` / :mod:`stats` name user files, systems, metrics, LPs).

    ``messages`` is an iterable of strings, or a mapping ``{name: message}`` shown as
    ``"<name> <prefix>: <message>"`` (e.g. ``prefix="left out"`` for per-LP problems); only
    the messages/names are escaped, ``prefix`` is trusted page text.
    """
    if isinstance(messages, dict):
        lines = [
            f"{escape_markdown(name)}{' ' + prefix if prefix else ''}: {escape_markdown(msg)}"
            for name, msg in messages.items()
        ]
    else:
        lines = [escape_markdown(msg) for msg in messages]
    for line in dict.fromkeys(lines):
        st.warning(line, icon=":material/warning:")


@contextlib.contextmanager
def input_errors() -> Iterator[None]:
    """Turn a :class:`stats.StatsInputError` into ``st.error`` + ``st.stop()``.

    Only input errors are caught: any other exception is a bug and must stay visible to tests.
    """
    try:
        yield
    except StatsInputError as exc:
        st.error(escape_markdown(exc), icon=":material/error:")
        st.stop()


# ---------------------------------------------------------------------------------------------
# ---- Figures and exports ----
# ---------------------------------------------------------------------------------------------

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
    the table's entry in the page's report (:func:`current_report`).

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
) -> None:
    """A sortable ``st.dataframe`` with CSV/LaTeX downloads below.

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
    shown = relabel_frame(df, current_aliases())  # table_downloads relabels df itself
    if static or presentation_mode():
        slide = presentation_mode() and len(shown) > PRESENTATION_MAX_ROWS
        st.table(
            presentation_table(
                shown.head(PRESENTATION_MAX_ROWS) if slide else shown,
                column_config,
                float_format=float_format or "{:.4g}",
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
            column_config=column_config,
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
    starts = df[cluster].ne(df[cluster].shift()).to_numpy(copy=True)
    starts[0] = False
    styler = presentation_table(df).apply(
        lambda col: np.where(starts, "border-top: 3px solid currentColor", ""), axis=0
    )
    st.table(styler)
    table_downloads(df, key=key, filename=filename, caption=caption)


def presentation_table(
    df: pd.DataFrame, column_config: dict | None = None, *, float_format: str = "{:.4g}"
):
    """``df`` as a pandas ``Styler`` for ``st.table`` (presentation mode).

    ``column_config`` is applied: ``None`` hides a column, a string or a column's ``label``
    renames it, a printf ``format`` (``"%.4f"``, ``"%.2e"``, ``"%d"``, ``"percent"``) formats
    it; other floats use ``float_format``; missing values print as an empty cell. Number columns
    stay numeric (so they are right-aligned); ``st.table`` renders cells as Markdown, so text
    cells and the index are escaped with :func:`escape_markdown`.
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
    styler = table.style.format(formats)
    return styler.format_index(_text_formatter, axis=0).format_index(_text_formatter, axis=1)


def _text_formatter(value) -> str:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    return escape_markdown(value)


def _number_formatter(fmt: str | None, float_format: str):
    def one(value) -> str:
        if value is None or pd.isna(value):
            return ""
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


# ---------------------------------------------------------------------------------------------
# ---- Widgets that remember their values ----
# ---------------------------------------------------------------------------------------------


def persistent(widget, label: str, *args, key: str, **kwargs):
    """``widget(label, *args, key=key, **kwargs)`` (any Streamlit input widget) whose value
    survives page switches for this session: Streamlit drops the state of widgets that are not
    drawn, ``persist_state="session"`` keeps it. Every page setting is drawn through this."""
    value = widget(label, *args, key=key, persist_state="session", **kwargs)
    record_setting(key, label, value)
    return value


def number_setting(label: str, *, key: str, default, **kwargs):
    """A :func:`persistent` ``st.number_input`` starting at ``default``.

    The default goes in through the session state, as a value from a shared URL does
    (:mod:`dashboard.view_state`): a widget given both a ``value`` and a session-state value
    makes Streamlit log a warning with a stack trace on the server's console."""
    if key not in st.session_state:
        st.session_state[key] = default
    return persistent(st.number_input, label, key=key, **kwargs)


def remembered(widget, label: str, options, *, key: str, default, **kwargs):
    """A single-choice widget (``st.selectbox``, ``st.radio``) over ``options`` that keeps the
    session's choice while it is among ``options`` and shows ``default`` otherwise (first run,
    another upload, another language pair). Pass no ``index``: the value is set here."""
    options = list(options)
    if (shared := view_state.pending(key, options)) is not None:  # from a shared URL
        st.session_state[key] = shared
    elif st.session_state.get(key) not in options:
        st.session_state[key] = default
    return persistent(widget, label, options, key=key, **kwargs)


def remembered_multiselect(label: str, options, *, key: str, default, **kwargs) -> list:
    """``st.multiselect`` over ``options`` that keeps the session's choices still among them
    (e.g. after another upload) and shows ``default`` on the first run or when none of the
    earlier choices is left. A selection the user emptied stays empty."""
    options = list(options)
    if (shared := view_state.pending(key, options)) is not None:  # from a shared URL
        st.session_state[key] = shared
    stored = st.session_state.get(key)
    kept = [o for o in stored or () if o in options]
    if stored is None or (stored and not kept):
        kept = list(default)
    if kept != stored:
        st.session_state[key] = kept
    return persistent(st.multiselect, label, options, key=key, **kwargs)


# ---------------------------------------------------------------------------------------------
# ---- Randomness: seeds shown beside p-values ----
# ---------------------------------------------------------------------------------------------


def seed_input(key: str, *, default: int = 12345, label: str = "Random seed") -> int:
    """Integer seed widget (for resampling tests); pass the value as ``rng=`` to stats."""
    return int(
        number_setting(
            label,
            default=default,
            min_value=0,
            max_value=2**32 - 1,
            step=1,
            key=key,
            help="p-values from resampling depend on the seed; the same seed reproduces them.",
        )
    )


def seed_caption(seed: int | None, *, n_resamples: int | None = None) -> None:
    """The caption shown beside resampling p-values: seed (and number of resamples)."""
    record_setting("seed_used", "random seed", seed)
    if n_resamples is not None:
        record_setting("resamples_used", "resamples", n_resamples)
    parts = [
        f"random seed **{seed}**" if seed is not None else "random seed: none (not reproducible)"
    ]
    if n_resamples is not None:
        parts.append(f"{n_resamples:,} resamples")
    st.caption("p-values from " + ", ".join(parts) + ".")


# ---------------------------------------------------------------------------------------------
# ---- Test settings: significance level and alternative ----
# ---------------------------------------------------------------------------------------------


#: Radio labels of :func:`alternative_input` -> the stats ``alternative`` argument.
ALTERNATIVES = {"one-sided": "greater", "two-sided": "two-sided"}


def alpha_input(
    key: str,
    *,
    label: str = "Significance level α",
    help: str | None = None,
) -> float:
    """Horizontal radio for the significance level α, one of the levels of the papers' tables
    (:data:`stats.accuracy.ALPHAS`, shown as ``0.05``, ``0.01``, ...); its value survives page
    switches (:func:`persistent`), like the other settings here."""
    return persistent(
        st.radio,
        label,
        ALPHAS,
        horizontal=True,
        key=key,
        format_func=lambda a: f"{a:g}",
        help=help,
    )


def correction_input(key: str) -> str:
    """Horizontal radio beside α: the multiple-comparison correction of each grid (one of
    :data:`stats.multiple.CORRECTIONS`; labels :data:`dashboard.tables.CORRECTION_LABELS`)."""
    return persistent(
        st.radio,
        "Multiple comparisons",
        list(CORRECTION_LABELS),
        horizontal=True,
        key=key,
        format_func=CORRECTION_LABELS.get,
        help="Adjust the p-values of each grid (all pairs of one language pair) before "
        "comparing them with α: Holm controls the family-wise error (Holm 1979), BH the false "
        "discovery rate (Benjamini & Hochberg 1995). The grids are coloured by the adjusted p.",
    )


def alternative_input(key: str, *, label: str, help: str | None = None) -> str:
    """Horizontal one-sided/two-sided radio; returns ``'greater'`` or ``'two-sided'``."""
    choice = persistent(st.radio, label, list(ALTERNATIVES), horizontal=True, key=key, help=help)
    return ALTERNATIVES[choice]
