"""Pure figure builders: data in, :class:`plotly.graph_objects.Figure` out.

No Streamlit here and no statistics either: builders receive computed results (p-value
matrices, correlations, ...) and only lay them out. They are tested through ``fig.data`` and
``fig.layout``.

Modules:

- :mod:`~dashboard.figures.style` -- palette, colour scales, the house template and layout,
  label and number formatting.
- :mod:`~dashboard.figures.grids` -- the builders every page shares (keep their signatures
  stable): :func:`correlation_heatmap`, :func:`significance_grid` (cell (row i, column j)
  coloured when i significantly beats j at ``alpha``; darker for smaller p); many of them in
  one figure in :mod:`~dashboard.figures.overview`: :func:`significance_mosaic` and
  :func:`grids_side_by_side`, wrapped into rows.
- :mod:`~dashboard.figures.presentation` -- :func:`apply_presentation`, larger fonts for a
  projector.
- One module per page: :mod:`~dashboard.figures.metrics` (Metrics vs humans; its
  segment-level section in :mod:`~dashboard.figures.meta_eval`),
  :mod:`~dashboard.figures.mt_systems` (MT systems), :mod:`~dashboard.figures.qe` (Quality
  estimation), :mod:`~dashboard.figures.human` (Tests vs humans).

Pages use them as ``from dashboard import figures; figures.williams_grid(...)``: the names
below are re-exported here. How a figure travels to the browser is not a figure's concern: see
:mod:`dashboard.transport`.
"""

from dashboard.figures.grids import (
    CORRELATION_COLORBAR_PX,
    HALF_COLUMN_PX,
    MIN_CELL_PX,
    SIGNIFICANCE_COLORBAR_PX,
    cell_text,
    correlation_heatmap,
    fits_half_column,
    in_order,
    round_as_shown,
    significance_coloraxis,
    significance_colour_value,
    significance_grid,
)
from dashboard.figures.human import (
    AGREEMENT_COLOURS,
    AGREEMENT_LABELS,
    AGREEMENT_SLIDE,
    CRITERION_TITLES,
    accuracy_intervals,
    agreement_heatmap,
    annotator_spread,
    human_gold_grids,
    standardisation_ranks,
)
from dashboard.figures.meta_eval import (
    group_distributions,
    meta_eval_dots,
    pairwise_accuracy_dots,
    perm_both_grid,
)
from dashboard.figures.metrics import (
    WINS_NOT_A_RANKING,
    correlation_dots,
    metric_scatter,
    williams_grid,
)
from dashboard.figures.mt_systems import (
    mt_pseudo_distributions,
    mt_significance_grids,
    mt_system_scores,
)
from dashboard.figures.overview import (
    MIN_OVERVIEW_CELL_PX,
    grids_side_by_side,
    significance_mosaic,
)
from dashboard.figures.presentation import apply_presentation, fits_slide, slide_rows
from dashboard.figures.qe import (
    QE_WINS_NOT_A_RANKING,
    qe_distributions,
    qe_rank_change,
    qe_rescale_bars,
    qe_rescale_curve,
    qe_standardised_scatter,
    qe_williams_grid,
)
from dashboard.figures.style import (
    BASE_FONT_SIZE,
    HIGHLIGHT,
    HOUSE_TEMPLATE,
    MAX_TICK_CHARS,
    NOT_SIGNIFICANT,
    NOT_SIGNIFICANT_Z,
    PALETTE,
    PRESENTATION_FONT_SIZE,
    SIGNIFICANCE_COLORSCALE,
    SIGNIFICANCE_DECADES,
    base_layout,
    category_colours,
    escape_html,
    format_number,
    format_pvalue,
    short_labels,
    shortened_names,
    with_full_names,
)

__all__ = [
    "AGREEMENT_COLOURS",
    "AGREEMENT_LABELS",
    "AGREEMENT_SLIDE",
    "BASE_FONT_SIZE",
    "CORRELATION_COLORBAR_PX",
    "HALF_COLUMN_PX",
    "MIN_CELL_PX",
    "CRITERION_TITLES",
    "HIGHLIGHT",
    "HOUSE_TEMPLATE",
    "MAX_TICK_CHARS",
    "NOT_SIGNIFICANT",
    "NOT_SIGNIFICANT_Z",
    "PALETTE",
    "PRESENTATION_FONT_SIZE",
    "QE_WINS_NOT_A_RANKING",
    "SIGNIFICANCE_COLORBAR_PX",
    "SIGNIFICANCE_COLORSCALE",
    "SIGNIFICANCE_DECADES",
    "WINS_NOT_A_RANKING",
    "accuracy_intervals",
    "agreement_heatmap",
    "annotator_spread",
    "apply_presentation",
    "fits_slide",
    "slide_rows",
    "base_layout",
    "category_colours",
    "cell_text",
    "correlation_dots",
    "correlation_heatmap",
    "escape_html",
    "format_number",
    "format_pvalue",
    "fits_half_column",
    "grids_side_by_side",
    "in_order",
    "group_distributions",
    "human_gold_grids",
    "meta_eval_dots",
    "metric_scatter",
    "mt_pseudo_distributions",
    "mt_significance_grids",
    "mt_system_scores",
    "pairwise_accuracy_dots",
    "perm_both_grid",
    "qe_distributions",
    "qe_rank_change",
    "qe_rescale_bars",
    "qe_rescale_curve",
    "qe_standardised_scatter",
    "qe_williams_grid",
    "round_as_shown",
    "short_labels",
    "shortened_names",
    "with_full_names",
    "significance_coloraxis",
    "significance_colour_value",
    "significance_grid",
    "significance_mosaic",
    "MIN_OVERVIEW_CELL_PX",
    "standardisation_ranks",
    "williams_grid",
]
