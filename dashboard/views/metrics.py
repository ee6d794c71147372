"""Page "Metrics vs humans": correlations with human judgement, metric-metric heatmap, Williams
significance grids per language pair and across all of them (Graham & Baldwin, EMNLP 2014).

Thin: reads widgets, calls dashboard.data.metrics (cached), shapes tables with
dashboard.tables and draws dashboard.figures builders. Segment-level uploads (or the
segment-level sample) get the WMT-style meta-evaluation of dashboard/sections/metrics_segment.py
instead of the Williams view.
"""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from dashboard import components, export, figures, tables, url_state, view_state
from dashboard.components.power_note import NOTE_POWER, williams_mde_note
from dashboard.data import meta_eval, metrics, samples
from dashboard.sections import metrics_choice, metrics_segment
from stats import williams_winners

#: Print values in heatmap cells up to this many metrics (beyond, text is unreadably small and
#: thousands of SVG labels slow the browser down; hover shows the value).
MAX_CELL_VALUES = 30
#: Up to this many metrics the all-LP overview is labelled subplots with full hover (difference,
#: CI); beyond, tick labels are unreadable and it is one mosaic heatmap
#: (:func:`dashboard.figures.significance_mosaic`), which redraws far faster on an alpha change.
MAX_OVERVIEW_DETAIL = 30
#: The settings a shared URL carries (?lp=de-en&alpha=0.01&metrics=BLEU&metrics=TER&...)
URL_SETTINGS = url_state.METRICS

presentation = components.presentation_mode()
url_state.load_url("metrics", URL_SETTINGS)

st.title("Metrics vs humans")
st.caption(
    "Does one metric correlate significantly better with human judgement than another? "
    "Pearson, Spearman and Kendall correlation per language pair, and the Williams test for "
    "dependent correlations (Graham & Baldwin, EMNLP 2014)."
)

segment_sample = metrics_segment.sample_input()
uploads, is_sample = components.file_input(
    "Score files: WMT system-level (METRIC LP TESTSET SYSTEM SCORE; human rows have METRIC = "
    "HUMAN) or wide CSV/TSV (system, human, one column per metric, optional lp) -- several "
    "files at once, e.g. a human file and a metrics file; WMT metrics task files as published "
    "(*.sys.score with REFSET, DA ad-sys-scores files; .gz, or many in a .zip / .tar.gz); or "
    "segment-level data (MTME .zip / .tar.gz, long text, wide CSV)",
    key="metrics_upload",
    sample=metrics_segment.sample()
    if segment_sample
    else samples.sample_files("metrics", samples.METRICS_SAMPLE_FILES),
    sample_note=metrics_segment.SAMPLE_NOTE
    if segment_sample
    else (
        "Showing the bundled **synthetic sample data** (sample_data/metrics/human.tsv and "
        "metrics.tsv: invented scores under WMT-12 metric names). Upload your own files above "
        "to analyse them."
    ),
    help=metrics_segment.UPLOAD_HELP,
)
# other files open on their own defaults (language pair, scatter metrics), not on what the
# previous files left selected; the first run keeps a shared URL's settings
_seen = tuple((str(u[0]), len(u[1])) if isinstance(u, tuple) else str(u) for u in uploads)
if st.session_state.get("metrics_files_seen", _seen) != _seen:
    for _key in ("metrics_lp", "metrics_scatter"):
        st.session_state.pop(_key, None)
st.session_state["metrics_files_seen"] = _seen
if meta_eval.is_segment_level(uploads) and not metrics.is_published(uploads):
    metrics_segment.render(uploads)
    url_state.write_url(URL_SETTINGS)  # the segment-level settings in the link too
    st.stop()  # the system-level Williams view below is for system-level files

with components.input_errors():
    # parse first: a bad file stops here with st.error; then say what each file was read as
    scores = metrics.load_system_scores(uploads)
    metrics_choice.read_as_captions(scores)

with components.controls_expander("Controls"):
    c_lp, c_base, c_alt = st.columns([2, 2, 2])
    c_kind, c_z = st.columns([2, 4])
    with c_alt:
        alternative = components.alternative_input(
            "metrics_alternative",
            label="Williams test",
            help="One-sided (as in the paper): does the row metric correlate better than "
            "the column metric? Two-sided: do they differ? Either way the p-value sits in "
            "the row of the metric with the higher |r|.",
        )
    choice = metrics_choice.controls(metrics.load_system_scores(uploads).frame)
    with components.input_errors():
        result = metrics.analysis(uploads, alternative, choice)
    keys = list(result.analyses)
    with c_lp:
        lp = components.remembered(
            st.selectbox,
            "Language pair",
            keys,
            key="metrics_lp",
            # WMT files as published: the findings' order; a user's own files: theirs
            default=metrics.findings_order(keys)[0] if metrics.is_published(uploads) else keys[0],
        )
    analysis = metrics.lp_analysis(uploads, lp, alternative, choice)
    names = list(analysis.williams.order)
    all_names = list(dict.fromkeys(m for a in result.analyses.values() for m in a.williams.order))
    with c_base:
        baseline = components.remembered(
            st.selectbox,
            "Baseline metric",
            all_names,
            key="metrics_baseline",
            default=tables.default_baseline(all_names) or names[-1],
            help="The summary counts the metrics that significantly beat it in each language pair.",
        )
    with c_kind:
        kind = tables.CORRELATION_KINDS[
            components.persistent(
                st.radio,
                "Correlation shown",
                list(tables.CORRELATION_KINDS),
                horizontal=True,
                key="metrics_kind",
                help="For the table order, the dot chart and the metric-metric heatmap. The "
                "Williams test is always on Pearson's r.",
            )
        ]
    with c_z:
        zscore = components.persistent(
            st.toggle,
            "z-score axes in scatter plots",
            key="metrics_zscore",
            help="As the paper's Figure 1.",
        )
    scatter_metrics = components.remembered_multiselect(
        "Metrics in the scatter plots",
        names,
        key="metrics_scatter",
        # the best metric beside the baseline (BLEU), as a user compares them
        default=list(
            dict.fromkeys(
                [
                    next((m for m in names if m != baseline), names[0]),
                    baseline if baseline in names else names[-1],
                ]
            )
        ),
        max_selections=6,
    )
    if not presentation:  # the names stay; the table is for preparing the slides
        view_state.alias_editor(all_names, key="metrics_aliases")

metrics_choice.left_out_summary(result, analysis)

w = analysis.williams
symbol = tables.CORRELATION_SYMBOLS[kind]
side = tables.side_label(w.alternative)

m1, m2, m3 = st.columns(3)
m1.metric("Systems (n)", w.n, help="Williams test degrees of freedom: n - 3")
m2.metric("Metrics", len(names))
m3.metric(
    "Highest |r| with humans",
    components.escape_markdown(names[0]),
    f"r = {w.r_human.iloc[0]:.3f}",
    delta_color="off",
    delta_arrow="off",
)

# ---- correlations with humans ----
st.subheader(f"Correlation with human judgement: {components.escape_markdown(lp)}")
table = tables.correlation_table(analysis, kind)
left, right = components.two_columns([3, 2])
with left:
    components.show_table(
        table,
        key="metrics_corr_table",
        filename=f"correlations_{lp}",
        caption=f"Correlation of each metric with human scores, {lp} (n = {w.n} systems)",
        column_config={
            "pearson": st.column_config.NumberColumn("Pearson r", format="%.4f"),
            "spearman": st.column_config.NumberColumn("Spearman ρ", format="%.4f"),
            "kendall": st.column_config.NumberColumn("Kendall τ", format="%.4f"),
            "n": st.column_config.NumberColumn("n"),
            "pearson_pvalue": st.column_config.NumberColumn("p (r ≠ 0)", format="%.2e"),
            "most_influential": st.column_config.TextColumn(
                "most influential system", help="Removing it changes |r| the most"
            ),
            "pearson_without": st.column_config.NumberColumn("r without it", format="%.4f"),
        },
    )
    st.caption("Click a column header to sort. Negative correlations: error metrics (TER, WER).")
with right:
    components.show_figure(
        figures.correlation_dots(
            table, kind=kind, baseline=baseline, title=f"|{symbol}| with humans, {lp}"
        ),
        key="metrics_dots",
        filename=f"correlation_{kind}_{lp}",
    )

# ---- scatter plots ----
st.subheader("Human against metric scores")
if scatter_metrics:
    components.show_figure(
        figures.metric_scatter(
            analysis.scores.human,
            analysis.scores.metrics,
            scatter_metrics,
            pearson=analysis.correlation.pearson.to_dict(),
            spearman=analysis.correlation.spearman.to_dict(),
            most_influential=analysis.influence.most_influential.to_dict(),
            r_without=(analysis.influence.r + analysis.influence.max_change).to_dict(),
            zscore=zscore,
            cols=1 if presentation and len(scatter_metrics) == 1 else None,
        ),
        key="metrics_scatter_fig",
        filename=f"scatter_{lp}",
    )
    st.caption(
        "Ringed: the system whose removal changes r the most. One very weak system can make "
        "Pearson's r look good (Graham & Baldwin 2014, Figure 1)."
    )
else:
    st.info("Choose metrics for the scatter plots under Controls.")

# Not coloured by alpha, so outside the fragment below: an alpha change does not re-send the
# 1,225 rows of 50 metrics.
with st.expander(f"Williams tests for all metric pairs in {lp} (sortable: t, p, Δr, CI)"):
    components.show_table(
        w.to_frame(),
        key="metrics_pairs_table",
        filename=f"williams_pairs_{lp}",
        index=False,
        caption=f"Williams tests for all metric pairs, {lp}",
    )


# ---- heatmap, Williams grid and all language pairs: alpha reruns only this part ----


def _clusters_and_power(lp: str, w, significance, alpha: float) -> None:
    """The metrics of ``lp`` in their Williams significance clusters, and the power line."""
    components.show_table(
        tables.cluster_table(
            w.r_human,
            significance.rank,
            value_name="pearson",
            winners=williams_winners(w, alpha=alpha),
        ),
        key="metrics_clusters",
        filename=f"williams_clusters_{lp}",
        caption=f"Williams significance clusters (the WMT22-25 rule), {lp}, α = {alpha:g}, "
        f"correction {significance.correction}; WMT17-21 winner: not significantly outperformed "
        "by any other metric (raw p, the WMT17-21 rule)",
        column_config={"pearson": st.column_config.NumberColumn("Pearson r", format="%.4f")},
        static=True,
    )
    detectable = metrics.williams_power(uploads, lp, alternative, alpha, choice)
    st.markdown(tables.power_line(w.n, detectable, alpha))
    adjusted = significance.pvalue_adjusted
    williams_mde_note(w, adjusted.lt(alpha) & adjusted.notna(), alpha,
                      what="metric pairs not significant",
                      mdes=metrics.williams_mdes(uploads, lp, alternative, alpha, choice,
                                                 NOTE_POWER))


@st.fragment
def significance_section() -> None:
    """Everything alpha colours, with the alpha control on top: changing alpha reruns this
    fragment only (the cached analyses are reused; the correlation table, dot chart and
    scatter plots above are not rebuilt or redrawn)."""
    st.subheader(
        f"Metric-metric correlation and Williams significance: {components.escape_markdown(lp)}"
    )
    c_alpha, c_corr, c_sig = st.columns([2, 2, 3])
    with c_alpha:
        alpha = components.alpha_input(
            "metrics_alpha",
            help="Colours the Williams grids and counts the summary below; changing it "
            "redraws this part of the page only.",
        )
    with c_corr:
        correction = components.correction_input("metrics_correction")
    grids = metrics.williams_significance(uploads, alternative, alpha, correction, choice)
    adjusted = grids[lp].pvalue_adjusted
    sig = adjusted.lt(alpha) & adjusted.notna()
    n_pairs = len(names) * (len(names) - 1) // 2
    corrected = "" if correction == "none" else f", {tables.CORRECTION_LABELS[correction]}"
    c_sig.metric(
        f"Significant pairs in {components.escape_markdown(lp)} (α = {alpha:g}{corrected})",
        f"{int(sig.to_numpy().sum())} / {n_pairs}",
        f"{sig.to_numpy().sum() / max(n_pairs, 1):.0%} of pairs",
        delta_color="off",
        delta_arrow="off",
    )
    note = tables.williams_grid_note(lp, w, alpha)
    if note:
        st.info(components.escape_markdown(note), icon=":material/info:")
    grid = figures.williams_grid(
        w,
        alpha=alpha,
        title=f"(b) Williams test, {side}{corrected}, α = {alpha:g}",
        significance=grids[lp],
    )
    left, right = components.two_columns(stack=not figures.fits_half_column(names))
    with right:
        components.abbreviation_legend(
            components.show_figure(
                grid, key="metrics_grid", filename=f"williams_grid_{lp}", label="Figure"
            )
        )
        components.table_downloads(
            w.pvalue,
            key="metrics_pvalues",
            filename=f"williams_pvalues_{lp}",
            caption=f"Williams test p-values ({side}), {lp}; row better than column",
            label="p-values",
            marks=export.pvalue_marks(sig, alpha=alpha),
        )
        if correction != "none":
            components.table_downloads(
                adjusted,
                key="metrics_pvalues_adjusted",
                filename=f"williams_pvalues_{correction}_{lp}",
                caption=f"Williams test p-values ({side}) adjusted with {correction}, {lp}",
                label="adjusted p-values",
            )
        _clusters_and_power(lp, w, grids[lp], alpha)
    # the heatmap, which alpha does not change, is drawn last (below): the parts alpha
    # recolours reach the browser first, the unchanged chart is left as it is there
    explanation = st.container()

    # ---- all language pairs ----
    st.subheader("All language pairs")
    many = max(len(a.williams.order) for a in result.analyses.values())
    # long metric names need wide panels: two per row (the labels are shortened to 18 characters)
    longest = max(len(str(m)) for a in result.analyses.values() for m in a.williams.order)
    order = tables.metric_order(result.analyses, lp)  # one order in every panel
    overview_title = f"Williams significance per language pair ({side}{corrected}, α = {alpha:g})"
    if many <= MAX_OVERVIEW_DETAIL:  # labelled panels, full hover
        overview = figures.grids_side_by_side(
            {
                key: figures.williams_grid(
                    a.williams, alpha=alpha, significance=grids[key], order=order
                )
                for key, a in result.analyses.items()
            },
            cols=min(len(result.analyses), 2 if presentation or longest > 12 else 3),
            title=overview_title,
            panel_height=480 if presentation else 360,
            horizontal_spacing=0.16 if presentation else None,
            legible_columns=True,  # 16-30 metrics: fewer panels a row, labels never overlap
            x_title="column: compared with",
            y_title="row: correlates better?",
        )
    elif presentation:  # a projector or a PDF needs the names: one labelled grid per pair
        overview = None
        for k, (key, a) in enumerate(result.analyses.items()):
            components.abbreviation_legend(
                components.show_figure(
                    figures.williams_grid(
                        a.williams,
                        alpha=alpha,
                        significance=grids[key],
                        order=order,
                        title=f"{key}: {overview_title}",
                    ),
                    key=f"metrics_all_grids_{k}",
                    filename=f"williams_grid_{key}",
                )
            )
    else:  # too many metrics for tick labels: one mosaic heatmap redraws fastest
        overview = figures.significance_mosaic(
            {key: figures.in_order(grids[key].pvalue_adjusted, order) for key in result.analyses},
            alpha=alpha,
            cols=min(len(result.analyses), 2 if presentation else 3),
            title=overview_title,
            panel_height=480 if presentation else 360,
            verb="correlates better with humans than",
        )
    if overview is not None:
        components.abbreviation_legend(
            components.show_figure(
                overview, key="metrics_all_grids", filename="williams_grids_all_lps"
            )
        )
    if many > MAX_OVERVIEW_DETAIL and not presentation:  # the mosaic's panels name no metric
        st.caption(
            "Rows and columns of every panel, in this order (best first in "
            f"{components.escape_markdown(str(lp))}): "
            + ", ".join(f"{k + 1}. {components.escape_markdown(str(m))}" for k, m in enumerate(order))
            + ". Presentation mode draws one labelled grid per language pair."
        )
    if sparse := tables.sparse_grid_lps(result.analyses):
        st.caption(
            f"At most one Williams test in {components.escape_markdown(', '.join(sparse))}: "
            "too few metrics or systems (select the language pair above for why)."
        )
    summary = tables.significance_summary(
        result.analyses, alpha=alpha, baseline=baseline, significance=grids
    )
    components.show_table(
        summary,
        key="metrics_summary",
        filename="williams_summary",
        caption=f"Williams tests per language pair, alpha = {alpha:g}, correction {correction}, "
        f"baseline {baseline}",
        column_config={
            "share significant": st.column_config.NumberColumn(format="percent"),
        },
        static=True,  # one row per LP, redrawn with every alpha: plain HTML draws fastest
    )
    st.caption(
        f"Share of metric pairs significantly different at α = {alpha:g} (for one of the two "
        f"directions) and the metrics that correlate significantly better than the baseline "
        f"({components.escape_markdown(baseline)}). {figures.WINS_NOT_A_RANKING.split(':')[0]}. "
        + components.escape_markdown(tables.RULES)
    )

    # ---- (a) heatmap and the explanation under (a) and (b) ----
    corr_matrix = analysis.metric_corr[kind]
    lowest = float(np.nanmin(corr_matrix.to_numpy())) if corr_matrix.notna().any().any() else 0.0
    with left:
        components.show_figure(
            figures.correlation_heatmap(
                corr_matrix,
                title=f"(a) {kind.capitalize()} {symbol} between metrics",
                zmin=-1.0 if lowest < 0 else math.floor(lowest * 10) / 10,
                colorbar_title=symbol,
                hover_label=symbol,
                show_values=len(names) <= MAX_CELL_VALUES,
                colorbar_px=figures.SIGNIFICANCE_COLORBAR_PX,  # as large as grid (b)
            ),
            key="metrics_heatmap",
            filename=f"metric_correlation_{lp}",
            label="Figure",
        )
        components.table_downloads(
            corr_matrix,
            key="metrics_heatmap_matrix",
            filename=f"metric_correlation_{lp}",
            caption=f"{kind.capitalize()} correlation between metrics, {lp}",
            label="Matrix",
        )
    with explanation:
        st.caption(
            f"(a) {kind.capitalize()} correlation between metrics, error metrics sign-aligned; "
            f"metrics ordered by |r| with humans (highest first). (b) Cell (row, column) is "
            f"coloured when the row metric correlates significantly better with humans than the "
            f"column metric ({side} Williams test, df = n - 3 = {w.df}); darker = smaller "
            f"p; grey = tested, not significant. Hover for p, the difference in r and its "
            f"{w.confidence_level:.0%} confidence interval (Zou 2007). "
            + components.escape_markdown(tables.correction_note(grids[lp]))
        )
        st.info(figures.WINS_NOT_A_RANKING, icon=":material/info:")
    url_state.write_url(URL_SETTINGS)  # alpha reruns this fragment only


significance_section()
