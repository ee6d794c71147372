"""Page layout: presentation mode, its CSS, columns and the controls expander, and the
work budget of one session."""

from __future__ import annotations

import streamlit as st

from dashboard import state

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
# text follows the root font size below. Cells wrap -- numbers (right-aligned) at spaces only,
# names and other text anywhere, names not narrower than a short one -- so a wide table of
# long system names or segments fits the page instead of being cut at its right edge. Column
# headers wrap at word boundaries only ("systems", not "sy/st/em/s"), a name between its parts
# too (after "_", "/", "." and "-": outputs.presentation_table). Below 1,600 px (the 1400 x 900
# window, its sidebar open: some 850 px for a table in an expander) headers are set at 0.75rem,
# cells padded less and names at least 4.5em wide, so the pairs' p-value table (eight columns)
# fits with its headers in whole words (at the slide's sizes it was 110 px too wide); a summary
# of a few rows and many columns is drawn transposed (outputs.transposed).
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
[data-testid="stTable"] :is(th, td), [data-testid="stTable"] :is(th, td) [data-testid="stMarkdownContainer"] p {
  white-space: normal;
}
[data-testid="stTable"] :is(th, td:not([style*="text-align: right"])),
[data-testid="stTable"] :is(th, td:not([style*="text-align: right"])) [data-testid="stMarkdownContainer"] p {
  overflow-wrap: anywhere;
}
[data-testid="stTable"] :is(tbody th, td:not([style*="text-align: right"])) { min-width: 5.5em; }
[data-testid="stTable"] thead th:not([style*="text-align: right"]),
[data-testid="stTable"] thead th:not([style*="text-align: right"]) [data-testid="stMarkdownContainer"] p {
  overflow-wrap: normal; word-break: normal;
}
@media (max-width: 1599px) {
  [data-testid="stTable"] thead th { font-size: 0.75rem; }
  [data-testid="stTable"] th, [data-testid="stTable"] td { padding: 0.3rem 0.35rem; }
  [data-testid="stTable"] :is(tbody th, td:not([style*="text-align: right"])) { min-width: 4.5em; }
}
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
