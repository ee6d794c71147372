"""Reusable Streamlit UI pieces shared by every page, one module per job:
:mod:`~dashboard.components.layout` (presentation mode, columns, the controls expander),
:mod:`~dashboard.components.uploads` (uploaders, warnings, input errors),
:mod:`~dashboard.components.outputs` (figures, tables and their downloads) and
:mod:`~dashboard.components.settings` (remembered widgets, seeds, test settings). Pages use
them through this package (``components.show_figure``).

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

from dashboard.components.layout import (
    SESSION_MAX_MEMORY,
    SESSION_MAX_WORK,
    apply_page_style,
    controls_expander,
    presentation_mode,
    presentation_toggle,
    two_columns,
)
from dashboard.components.outputs import (
    PRESENTATION_MAX_ROWS,
    abbreviation_legend,
    figure_downloads,
    presentation_table,
    show_clustered_table,
    show_figure,
    show_table,
    table_downloads,
)
from dashboard.components.settings import (
    ALPHAS,
    ALTERNATIVES,
    alpha_input,
    alternative_input,
    correction_input,
    number_setting,
    persistent,
    remembered,
    remembered_multiselect,
    seed_caption,
    seed_input,
)
from dashboard.components.uploads import (
    ask_for_the_other_half,
    check_upload_memory,
    escape_markdown,
    file_input,
    input_errors,
    page_words,
    reference_and_outputs,
    resamples_named,
    show_warnings,
)

__all__ = [
    "ALPHAS",
    "SESSION_MAX_WORK",
    "SESSION_MAX_MEMORY",
    "presentation_mode",
    "presentation_toggle",
    "apply_page_style",
    "two_columns",
    "controls_expander",
    "file_input",
    "check_upload_memory",
    "reference_and_outputs",
    "ask_for_the_other_half",
    "escape_markdown",
    "show_warnings",
    "page_words",
    "resamples_named",
    "input_errors",
    "show_figure",
    "abbreviation_legend",
    "figure_downloads",
    "table_downloads",
    "show_table",
    "PRESENTATION_MAX_ROWS",
    "show_clustered_table",
    "presentation_table",
    "persistent",
    "number_setting",
    "remembered",
    "remembered_multiselect",
    "seed_input",
    "seed_caption",
    "ALTERNATIVES",
    "alpha_input",
    "correction_input",
    "alternative_input",
]
