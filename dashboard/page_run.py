"""What a page run produces besides its elements: the progress bar of long computations and
the page report (what the page showed, bundled by the "Download report" button).

:mod:`dashboard.components` records into the report as it draws; ``app.py`` starts a report
each full run and draws the button; pages call :func:`run_steps` for slow cached steps.
"""

from __future__ import annotations

import contextvars
import functools

import streamlit as st

from dashboard import export, report, state
from dashboard.data import Uploads

# ---------------------------------------------------------------------------------------------
# ---- Progress of long computations ----
# ---------------------------------------------------------------------------------------------


def progress_callback(bar, start: float, end: float, text: str):
    """A ``progress(fraction)`` callback for stats functions that moves ``bar`` (an
    ``st.progress``) from ``start`` to ``end``.

    The update runs in the page's own context, captured here, so a call made while a
    ``st.cache_data`` function computes is not recorded for cache replay (which would fail:
    the bar lives outside the cached function). On a cache hit it is never called.
    """
    ctx = contextvars.copy_context()

    def update(fraction: float) -> None:
        value = min(1.0, max(0.0, start + (end - start) * float(fraction)))
        ctx.run(bar.progress, value, text=text)

    return update


def run_steps(steps, *, text: str) -> list:
    """Run slow cached computations one after another under one ``st.progress`` bar.

    ``steps`` is a sequence of ``(label, call)``: step k of n gets the k-th n-th of the bar,
    shows ``label`` and is called as ``call(_progress=...)`` with a :func:`progress_callback`
    for its part (the data layer's progress argument, not part of a cache key; use
    ``functools.partial`` for the other arguments). ``text`` is shown before the first step;
    the bar is removed after the last, or when a step raises. Returns the results in order.
    """
    bar = st.progress(0.0, text=text)
    results = []
    try:
        for k, (label, call) in enumerate(steps):
            start, end = k / len(steps), (k + 1) / len(steps)
            bar.progress(start, text=label)
            results.append(call(_progress=progress_callback(bar, start, end, label)))
    finally:  # a step that fails (e.g. on an input error) leaves no bar stuck behind
        bar.empty()
    return results


# ---------------------------------------------------------------------------------------------
# ---- The page report: what a page showed, bundled by "Download report" ----
# ---------------------------------------------------------------------------------------------


def start_report(page: str) -> report.PageReport:
    """A new, empty :class:`dashboard.report.PageReport` for this full run of ``page`` (from
    app.py): :func:`~dashboard.components.show_figure`, ``table_downloads``, ``file_input`` and
    every ``persistent`` setting add to it; a fragment's rerun updates its own entries."""
    page_report = report.PageReport(page)
    st.session_state[state.REPORT_KEY] = page_report
    return page_report


def current_report() -> report.PageReport | None:
    """The report of the page now running, or ``None`` outside app.py (a page run alone)."""
    return st.session_state.get(state.REPORT_KEY)


def record_setting(key: str, label: str, value) -> None:
    """Add a setting (seed, α, correction, ...) to the page's report record."""
    page_report = current_report()
    if page_report is not None:
        page_report.add_setting(key, label, value)


def record_inputs(key: str, uploads: Uploads, *, sample: bool) -> None:
    """Add the files analysed (uploaded or the bundled sample) to the page's report record."""
    page_report = current_report()
    if page_report is not None:
        page_report.add_inputs(key, uploads, sample=sample)


def report_button(page_report: report.PageReport, *, key: str = "download_report") -> None:
    """The "Download report" button: the zip of :func:`dashboard.report.build_report` for
    everything ``page_report`` holds when the user clicks (built then, on click: kaleido renders
    the SVG figures, which takes seconds)."""
    st.download_button(
        "Download report",
        data=functools.partial(
            report.build_report, page_report, svg=export.find_browser() is not None
        ),
        file_name=report.report_filename(page_report.page),
        mime="application/zip",
        key=key,
        on_click="ignore",
        icon=":material/folder_zip:",
        help="A zip: self-contained report.html, LaTeX tables, SVG figures and a JSON record "
        "(every number, settings, input files with SHA-256, versions).",
    )
