"""Page "Quality estimation": QE systems by Pearson r versus MAE/RMSE, the shift-and-rescale
diagnosis with a live lambda slider, label/prediction distributions, a standardised scatter,
prediction correlations and the Williams grid (Graham, ACL 2015,
https://aclanthology.org/P15-1174/).

Thin: reads widgets, calls dashboard.data.qe (cached), shapes tables with dashboard.tables and
draws dashboard.figures builders.
"""

from __future__ import annotations

import streamlit as st

from dashboard import components, export, figures, tables, url_state, view_state
from dashboard.components.power_note import williams_mde_note
from dashboard.data import qe, samples
from dashboard.data import qe_wmt as qe_wmt_data
from dashboard.sections import qe_wmt

#: The paper's λ, the default of the rescaling slider.
LAMBDA = 0.5

#: the library's argument phrases -> this page's controls: a message names what to do here
#: (:func:`dashboard.components.name_controls`), as the CLI's name its flags
CONTROLS = {
    "allow_constant=True": "the “Keep constant systems” control",
    "give it together with the prediction files as the post-editing table (post_edit=FILE)":
        "upload it together with the prediction files (one upload: it is read as the "
        "post-editing table)",
    "give it together with the systems' prediction files as the gold labels (gold=FILE)":
        "upload it together with the systems' prediction files (one upload: it is read as the "
        "gold labels)",
    "give the gold labels too (a gold file: one label, or SID LABEL, per line; gold=FILE)":
        "upload the gold labels with them (a gold file: one label, or SID LABEL, per line)",
}

presentation = components.presentation_mode()
url_state.load_url("qe", url_state.QE)

st.title("Quality estimation")
st.caption(
    "Which QE system predicts translation quality best? MAE and RMSE reward predicting the "
    "test set's mean with a conservative spread; Pearson's r does not move when predictions are "
    "shifted or rescaled. Evaluate by r and compare systems with the Williams test "
    "(Graham, ACL 2015)."
)


sample_label = components.persistent(
    st.selectbox,
    "Sample data (used while nothing is uploaded)",
    list(samples.QE_SAMPLES),
    key="qe_sample",
)
main_uploader = st.container()  # drawn above the folder uploader, filled after it
folder, _ = components.file_input(
    "Or a whole WMT QE submissions folder (one folder per team, as the WMT23 task publishes "
    "it: <team>/<lp>/predictions.txt, <team>/multilingual/predictions.txt)",
    key="qe_folder",
    directory=True,
    help="Systems are labelled team/method (team/multilingual/method); empty files are "
    "skipped and named. Add the gold file above.",
)
with main_uploader:
    uploads, is_sample = components.file_input(
        "QE files: long format (METRIC SID SCORE RANK HUMAN), wide CSV (sid, gold, one column per "
        "system), or WMT QE submission files (<METHOD NAME> <SEGMENT NUMBER> <SEGMENT SCORE> "
        "<SEGMENT RANK>) together with a gold file (one label per line, or SID LABEL). Optionally "
        "add a post-editing table (SID TIME WORDS [HTER ...]). WMT20-24 QE task files as "
        "published: submissions (LP METHOD SEGMENT_NUMBER SCORE, header lines optional; files or "
        "zipped team folders), the gold file, the hallucination index, word-level tag files.",
        key="qe_upload",
        sample=() if folder else samples.sample_files("qe", samples.QE_SAMPLES[sample_label]),
        sample_note=(
            f"Showing the bundled **synthetic sample data**: {sample_label}. All numbers are "
            "invented. Upload your own files above to analyse them."
        ),
        types=None,  # WMT submission files often have no or odd extensions; the reader checks
    )

if folder:  # the folder's files, with the gold file (and any others) of the uploader above
    uploads, is_sample = tuple(() if is_sample else uploads) + tuple(folder), False

with components.input_errors(CONTROLS):
    wmt_files = qe_wmt_data.files(uploads)
if wmt_files is not None:  # WMT20-24 QE files: compared as the shared tasks do
    qe_wmt.section(uploads, wmt_files)
    url_state.write_url(url_state.QE)
    st.stop()

with components.controls_expander("Controls"):
    c1, c2, c3 = st.columns(3)
    with c1:
        alpha = components.alpha_input("qe_alpha")
    with c2:
        alternative = components.alternative_input(
            "qe_alternative",
            label="Williams test",
            help="One-sided (as in the paper): does the row system correlate better with "
            "the gold labels than the column system? Two-sided: do they differ?",
        )
    with c3:
        allow_constant = components.persistent(
            st.toggle,
            "Keep constant systems",
            key="qe_allow_constant",
            help="Keep systems whose predictions are all the same value. Their Pearson r and "
            "Williams tests are undefined (shown empty); MAE and RMSE are still computed.",
        )

if not is_sample:  # QE tables are read here, not in a child as WMT submissions are
    components.check_upload_memory("qe_tables", uploads)
with components.input_errors(CONTROLS):
    loaded = qe.load(uploads, allow_constant)  # parse first: a bad file stops here

rate = False
if loaded.post_edit is not None:
    rate = components.persistent(
        st.toggle,
        "Evaluate post-edit rate (seconds per word) instead of post-edit time",
        key="qe_rate",
        help=f"Divide gold labels and predictions (post-edit times) by the WORDS of "
        f"{components.escape_markdown(loaded.post_edit_file)}. Graham (2015) evaluates post-edit rate (PER) rather than "
        "post-edit time (PET): PER correlates better with HTER.",
    )

# the lambda slider sits in the rescaling section below; its value is read here so the main
# table's rescaled columns follow it in the same run
sd_ratio = float(st.session_state.get("qe_lambda", LAMBDA))

with components.input_errors(CONTROLS):
    analysis = qe.analysis(uploads, allow_constant, rate, alternative)
    rescale = qe.rescaling(uploads, sd_ratio, allow_constant, rate)
    curve = qe.rescaling_by_lambda(uploads, allow_constant, rate)

components.show_warnings(analysis.warnings, controls=CONTROLS)

result = analysis.result
evaluated = analysis.data
order = list(result.order)
view_state.alias_editor(order, key="qe_aliases")
scores = result.scores
unit = " (seconds per word)" if analysis.rate else ""
best_mae = scores.mae.idxmin()
best_mae_rank = scores.ranks.at[best_mae, "pearson"]
best_mae_rank_text = "–" if best_mae_rank != best_mae_rank else f"{int(best_mae_rank)}"

m1, m2, m3, m4 = st.columns(4)
m1.metric("Sentences (n)", result.n, help="Williams test degrees of freedom: n - 3")
m2.metric("Systems", len(order))
# the number is the value, the system name goes underneath (long names would be cut as values);
# no arrows: these are not changes
m3.metric(
    "Highest Pearson r",
    f"{scores.statistic.iloc[0]:.3f}",
    components.escape_markdown(order[0]),
    delta_color="off",
    delta_arrow="off",
    help=f"System with the highest Pearson r: {components.escape_markdown(order[0])}",
)
m4.metric(
    "Lowest MAE" + unit,
    f"{scores.mae[best_mae]:.4f}",
    f"{components.escape_markdown(best_mae)} (rank {best_mae_rank_text} by r)",
    delta_color="off",
    delta_arrow="off",
    help=f"System with the lowest MAE: {components.escape_markdown(best_mae)}, ranked {best_mae_rank_text} by Pearson r",
)

with st.sidebar:
    st.caption(
        components.escape_markdown(
            f"QE input: {', '.join(loaded.data_files)}"
            + (f"; gold {loaded.gold_file}" if loaded.gold_file else "")
            + (f"; post-editing {loaded.post_edit_file}" if loaded.post_edit_file else "")
        )
    )

# ---- MAE versus Pearson ----
table = tables.qe_rank_table(result, rescale)
changed = table["rank_change"].fillna(0).ne(0)
if changed.any():
    st.subheader("Pearson r versus MAE: the rankings disagree")
else:
    st.subheader("Pearson r versus MAE")


def _highlight(row):
    style = "background-color: #FCE3D3" if changed.loc[row.name] else ""
    return [style] * len(row)


# the table gets the full width (11 columns); the slope chart half of it, next to its key
table_columns = {
    "pearson": st.column_config.NumberColumn("Pearson r", format="%.4f"),
    "rank_pearson": st.column_config.NumberColumn("rank by r", format="%d"),
    "mae": st.column_config.NumberColumn("MAE" + unit, format="%.4f"),
    "rank_mae": st.column_config.NumberColumn("rank by MAE", format="%d"),
    "rank_change": st.column_config.NumberColumn(
        "rank change", format="%+d", help="rank by MAE - rank by r (shaded when not 0)"
    ),
    "rmse": st.column_config.NumberColumn("RMSE", format="%.4f"),
    "rank_rmse": st.column_config.NumberColumn("rank by RMSE", format="%d"),
    "spearman": st.column_config.NumberColumn("Spearman ρ", format="%.4f"),
    "mae_rescaled": st.column_config.NumberColumn(f"MAE, λ = {sd_ratio:g}", format="%.4f"),
    "rmse_rescaled": st.column_config.NumberColumn(f"RMSE, λ = {sd_ratio:g}", format="%.4f"),
}
st.dataframe(
    table.style.apply(_highlight, axis=1),
    key="qe_table",
    width="stretch",
    column_config=table_columns,
)
significant = result.williams.significant(alpha)
components.table_downloads(
    table,
    key="qe_table",
    filename="qe_pearson_vs_mae",
    caption=f"QE systems by Pearson r and MAE (n = {result.n} sentences); MAE/RMSE after "
    f"shifting to the gold mean and rescaling to {sd_ratio:g} x gold SD",
    column_config=table_columns,
    marks=export.ranking_marks(
        significant.loc[table.index, table.index],
        alpha=alpha,
        undefined=[s for s in table.index if result.williams.r_human.isna().get(s, False)],
    ),
)
st.caption(
    "Systems by decreasing Pearson r (signed: a negative r is worse, not flipped). Shaded "
    "rows rank differently by MAE than by r."
)
left, right = components.two_columns()
with left:
    components.show_figure(
        figures.qe_rank_change(
            table, measures=("pearson", "mae", "rmse"), title="Rank by r, MAE and RMSE"
        ),
        key="qe_ranks_fig",
        filename="qe_rank_change",
    )
with right:
    st.caption(
        "Each line is a system: its rank by Pearson r (left), MAE and RMSE (1 = best, at the "
        "top). Coloured lines change rank; crossing lines are systems that MAE or RMSE order "
        "differently from r -- typically conservative systems that predict close to the "
        "test-set mean (Graham 2015)."
    )

# ---- rescaling ----
st.subheader(f"Shift to the gold mean and rescale to λ = {sd_ratio:g} × gold SD")
components.persistent(
    st.slider,
    "λ: rescale predictions to λ × gold SD",
    min_value=0.05,
    max_value=1.5,
    value=LAMBDA,
    step=0.05,
    key="qe_lambda",
    help="Predictions are standardised, then mapped to the gold mean and λ times the gold "
    "standard deviation. The paper uses λ = 0.5. Pearson r does not change.",
)
resc_table = rescale.to_frame().loc[order]
n_drop = int((resc_table["mae_change"] < 0).sum())
r1, r2, r3 = st.columns(3)
r1.metric(
    f"MAE falls (λ = {sd_ratio:g})",
    f"{n_drop} / {len(order)}",
    help=f"Systems whose MAE falls when their predictions are shifted to the gold mean and "
    f"rescaled to {sd_ratio:g} × the gold SD -- without predicting any sentence better: only "
    "the mean and spread change.",
)
r2.metric("Gold mean", f"{rescale.gold_mean:.4g}")
r3.metric("Gold SD", f"{rescale.gold_sd:.4g}")
left, right = components.two_columns()
with left:
    components.show_figure(
        figures.qe_rescale_bars(
            resc_table,
            sd_ratio=sd_ratio,
            title="MAE and RMSE, original and rescaled",
        ),
        key="qe_rescale_fig",
        filename=f"qe_rescaled_mae_rmse_lambda_{sd_ratio:g}",
    )
with right:
    components.show_figure(
        figures.qe_rescale_curve(
            curve,
            sd_ratio=sd_ratio,
            measure="mae",
            title="MAE as a function of λ",
            original=scores.mae.to_dict(),
        ),
        key="qe_curve_fig",
        filename="qe_mae_by_lambda",
    )
components.show_table(
    resc_table,
    key="qe_rescale_table",
    filename=f"qe_rescaling_lambda_{sd_ratio:g}",
    caption=f"MAE and RMSE before and after shifting predictions to the gold mean and "
    f"rescaling them to {sd_ratio:g} x the gold SD; Pearson r is unchanged",
    column_config={
        c: st.column_config.NumberColumn(c.replace("_", " "), format="%.4f")
        for c in resc_table.columns
    },
)
st.caption(
    "Left: MAE and RMSE of the original and the rescaled predictions (paper Tables 2 and 3). "
    "Right: MAE as λ varies; dotted lines: MAE of the original predictions. "
    "RMSE after rescaling equals gold SD × √((n−1)/n · (1 + λ² − 2λr)): it is smallest at "
    "λ = r, so a system can lower its MAE/RMSE by matching test-set aggregates alone."
)

# ---- distributions ----
st.subheader("Gold labels and predictions")
default_hist = list(dict.fromkeys([order[0], best_mae]))
hist_systems = components.remembered_multiselect(
    "Systems in the histograms",
    order,
    key="qe_hist_systems",
    default=default_hist,
    max_selections=5,
)
components.show_figure(
    figures.qe_distributions(
        evaluated.gold,
        evaluated.predictions,
        hist_systems,
        mae=scores.mae.to_dict(),
        cols=1 if presentation else None,
        title="Distributions (discrete values as bars of counts)",
    ),
    key="qe_hist_fig",
    filename="qe_distributions",
)
st.caption(
    "With discrete gold labels (e.g. 1/2/3), systems predicting continuous values get a lower "
    "MAE than systems predicting the same discrete classes (paper Figure 1)."
)

# ---- standardised scatter ----
st.subheader("Predictions against gold labels")
c_a, c_b, c_z = st.columns([2, 2, 2])
with c_a:
    sys_a = components.remembered(
        st.selectbox, "System A", order, key="qe_scatter_a", default=order[0]
    )
with c_b:
    sys_b = components.remembered(
        st.selectbox,
        "System B",
        order,
        key="qe_scatter_b",
        default=best_mae if best_mae != order[0] else order[min(1, len(order) - 1)],
    )
with c_z:
    standardise = components.persistent(
        st.toggle,
        "Standard deviations from the mean",
        value=True,
        key="qe_standardise",
        help="Paper Figure 3: both axes in SDs from the mean of each distribution.",
    )
components.show_figure(
    figures.qe_standardised_scatter(
        evaluated.gold,
        evaluated.predictions,
        list(dict.fromkeys([sys_a, sys_b])),
        pearson=scores.statistic.to_dict(),
        mae=scores.mae.to_dict(),
        standardise=standardise,
    ),
    key="qe_scatter_fig",
    filename=f"qe_scatter_{sys_a}_{sys_b}",
)

# ---- correlations and Williams ----
st.subheader("Prediction correlations and Williams significance")
w = result.williams
side = tables.side_label(w.alternative)
# 16-30 systems do not fit half the page: the two matrices stacked, each full width
left, right = components.two_columns(stack=not figures.fits_half_column(list(w.pvalue.index)))
with left:
    components.show_figure(
        figures.correlation_heatmap(
            result.prediction_corr,
            title="(a) Pearson r between predictions",
        ),
        key="qe_heatmap",
        filename="qe_prediction_correlation",
    )
    components.table_downloads(
        result.prediction_corr,
        key="qe_heatmap_matrix",
        filename="qe_prediction_correlation",
        caption="Pearson correlation between QE systems' predictions",
    )
with right:
    components.abbreviation_legend(
        components.show_figure(
            figures.qe_williams_grid(
                w,
                alpha=alpha,
                title=f"(b) Williams test, {side}, α = {alpha:g}",
            ),
            key="qe_grid",
            filename="qe_williams_grid",
        )
    )
    components.table_downloads(
        result.pvalue,
        key="qe_pvalues",
        filename="qe_williams_pvalues",
        caption=f"Williams test p-values ({side}); row system correlates better with the gold "
        "labels than column system",
        marks=export.pvalue_marks(significant, alpha=alpha),
    )
st.caption(
    f"(a) Pearson r between the systems' predictions (paper Figure 4). (b) Systems ordered by "
    f"Pearson r with the gold labels (highest first, signed). Cell (row, column) is coloured when the row system correlates significantly better with the gold "
    f"labels ({side} Williams test, df = n - 3 = {w.df}); darker = smaller p; grey = tested, "
    f"not significant."
)
williams_mde_note(w, significant, alpha, what="QE system pairs not significant")
st.info(figures.QE_WINS_NOT_A_RANKING, icon=":material/info:")

# ---- post-edit rate ----
if analysis.post_edit_test is not None:
    t = analysis.post_edit_test
    ref = components.escape_markdown(analysis.post_edit_reference.upper())
    st.subheader(f"Post-edit rate versus post-edit time as gold labels (against {ref})")
    p1, p2, p3 = st.columns(3)
    p1.metric(f"r(PER, {ref})", f"{float(t.r13):.3f}")
    p2.metric(f"r(PET, {ref})", f"{float(t.r23):.3f}")
    p3.metric("Williams p (PER > PET)", figures.format_pvalue(float(t.pvalue)))
    st.caption(
        f"Post-edit rate (PER) = post-edit time / words. One-sided Williams test of r(PER, {ref}) "
        f"> r(PET, {ref}) with r(PER, PET) = {float(t.r12):.3f}, n = {int(t.n)} (paper Table 1)."
    )

url_state.write_url(url_state.QE)
