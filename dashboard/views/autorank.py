"""Page "AutoRank (WMT25)": the general task's automatic ranking from its
``automatic_scores/*.jsonl`` files, as the findings print it (system, AutoRank, each metric's
mean, cells shaded per metric), with what they do not print: each system's AutoRank interval
from a paired bootstrap over documents, the clusters of systems the data cannot separate, and
the paragraph-level correlations between the metrics.

Thin: reads widgets, calls dashboard.data.autorank (cached), draws the point table at once and
the intervals when the bootstrap has run.
"""

from __future__ import annotations

import functools
import json
from functools import partial

import streamlit as st

from dashboard import components, page_run, tables, url_state
from dashboard.data import autorank, samples
from dashboard.figures.grids import correlation_heatmap
from dashboard.figures.leaderboard import ranking_dots
from dashboard.tables.autorank import autorank_table, number_formats, shaded
from stats.analyses.wmt25_texts import AUTORANK_TEXT_METRICS
from stats.mt.automatic_ranking import autorank_latex, autorank_metrics

#: the library's argument names -> this page's controls (a refusal names what to change here)
CONTROLS = components.resamples_named("Bootstrap resamples")

SAMPLE_NOTE = (
    "Showing the bundled **synthetic sample data** (sample_data/wmt25/automatic_scores: "
    "invented scores of 8 systems in 4 language pairs, in the published layout, with nulls, a "
    "system without a pair and a metric missing for one system). Upload your own files above: "
    "the WMT25 automatic_scores folder (or a zip of it)."
)
PRESET, CHOSEN = "WMT25's choice (wmt25 preset)", "Choose metrics"

url_state.load_url("autorank", url_state.AUTORANK)
st.title("AutoRank (WMT25)")
st.caption(
    "WMT25's automatic ranking: each metric's mean per system, scaled robustly across the "
    "systems ((x − median) / (max − P25)), averaged, and mapped to 1 (best) … N (worst). "
    "Below the organisers' table: how sure it is, from a paired bootstrap over documents."
)

uploads, is_sample = components.file_input(
    "WMT25 automatic scores: automatic_scores/SYSTEM.jsonl files (one per system), or a zip "
    "of the folder",
    key="autorank_upload",
    sample=samples.sample_files("wmt25/automatic_scores", ("*.jsonl",)),
    sample_note=SAMPLE_NOTE,
    types=["jsonl", "zip", "gz", "tar"],
)
with st.expander("More files: systems metadata, system outputs and references (optional)"):
    meta_up, _ = components.file_input(
        "Systems metadata: data/systems_metadata_updated3.json (or systems_metadata.json): "
        "rank, per language pair, only the systems it lists for the pair (the organisers' "
        "team filter)",
        key="autorank_metadata_upload",
        types=["json"],
    )
    outputs_up, _ = components.file_input(
        "System outputs: systems/SYSTEM.jsonl files (one per system), or a zip of the folder",
        key="autorank_outputs_upload",
        types=["jsonl", "zip", "gz", "tar"],
        help="With the references: BLEU and corpus-chrF++ (sacreBLEU's corpus scores over the "
        "paragraphs with a reference) become metrics to choose.",
    )
    references_up, _ = components.file_input(
        "References: data/wmt25-genmt.jsonl (the test set with refA)",
        key="autorank_references_upload",
        types=["jsonl", "gz", "zip"],
    )
extras = (meta_up, outputs_up, references_up)
with components.input_errors(CONTROLS):
    scores = autorank.scores(uploads)
    meta = autorank.metadata(meta_up)
    read_outputs = autorank.outputs(outputs_up)
    read_refs = autorank.references(references_up)
st.caption(components.escape_markdown(scores.read_as))
for extra in (meta, read_outputs, read_refs):
    if extra is not None:
        st.caption(components.escape_markdown(
            f"{getattr(extra, 'file', '') or 'System outputs'}: {extra.read_as}"
        ))  # fmt: skip
if (read_outputs is None) != (read_refs is None):
    st.info(
        "BLEU and corpus-chrF++ need both the system outputs and the references: upload "
        + ("the references (wmt25-genmt.jsonl)." if read_refs is None else "the system outputs."),
        icon=":material/info:",
    )
if scores.notes:
    with st.expander(f"What the files hold and lack ({len(scores.notes)} notes)"):
        for note in scores.notes:
            st.caption(components.escape_markdown(note))

with components.controls_expander("Controls"):
    c1, c2, c3 = st.columns([3, 3, 2])
    with c1:
        lp = components.remembered(
            st.selectbox, "Language pair", list(scores.lps), key="autorank_lp",
            default=scores.lps[0],
        )  # fmt: skip
        present = list(scores.metrics_of(lp)) + list(autorank.text_metrics(extras, lp))
        preset_fits = set(autorank_metrics(lp)) <= set(present)
        if not preset_fits and st.session_state.get("autorank_metric_set") == PRESET:
            st.session_state["autorank_metric_set"] = CHOSEN  # the files lack WMT25's set
        choice = components.remembered(
            st.radio,
            "Metric set",
            [PRESET, CHOSEN],
            key="autorank_metric_set",
            default=PRESET if preset_fits else CHOSEN,
            help="WMT25's choice: the five metrics where references exist, CometKiwi-XL left "
            "out where they do not, chrF++ alone for English-Bhojpuri and English-Maasai "
            "(chosen by default when the language pair has them).",
        )
        metrics = None
        if not preset_fits:
            st.caption(components.escape_markdown(
                f"WMT25's metric set for {lp} ({', '.join(autorank_metrics(lp))}) is not in "
                "these files: choose among their metrics."
            ))  # fmt: skip
        if choice == CHOSEN:
            metrics = tuple(
                components.remembered_multiselect(
                    "Metrics", present, key="autorank_metrics", default=present,
                    help="Averaged with equal weights, as AutoRank averages its metrics.",
                )  # fmt: skip
            )
            if not metrics:
                st.info("Choose at least one metric.")
                st.stop()
    with c2:
        n_resamples = components.remembered(
            st.selectbox, "Bootstrap resamples", url_state.AUTORANK_RESAMPLES,
            key="autorank_resamples", default=1000,
        )  # fmt: skip
        confidence = components.remembered(
            st.selectbox, "Interval", url_state.AUTORANK_LEVELS, key="autorank_level",
            default=0.95, format_func=lambda c: f"{c:.0%}",
        )  # fmt: skip
        seed = components.seed_input("autorank_seed")
    with c3:
        alpha = components.alpha_input("autorank_alpha")
        correction = components.correction_input("autorank_correction")
url_state.write_url(url_state.AUTORANK)

config = {
    c: st.column_config.NumberColumn(label, format=fmt)
    for c, (label, fmt) in number_formats((*scores.metrics, *AUTORANK_TEXT_METRICS)).items()
}


def _jsonable(obj):
    if isinstance(obj, dict):
        return {k: _jsonable(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [_jsonable(v) for v in obj]
    if isinstance(obj, float) and obj != obj:
        return None
    return obj


def draw_table(pair, slot, *, provisional: bool) -> None:
    """The organisers' table into ``slot``: the point ranking first, then with intervals."""
    table = autorank_table(pair)
    with slot.container(key="autorank_table_point" if provisional else "autorank_table_box"):
        # the same elements in both (a caption, then the table): the final table replaces
        # the point one element by element, none of the point table's is left behind
        if provisional:
            st.caption("Point ranking (the intervals follow) …")
        else:
            boot = pair.bootstrap
            st.caption(
                f"{boot.confidence_level:.0%} intervals from the paired bootstrap over "
                f"{pair.point.n_documents:,} documents ({boot.n_defined:,} resamples); clusters "
                f"at α = {boot.significance.alpha:g}."
            )
        styler = shaded(table, list(pair.point.scores.columns))
        if components.presentation_mode():
            st.table(styler)
        else:
            st.dataframe(styler, key="autorank_point_df" if provisional else "autorank_df",
                         column_config=config, width="stretch",
                         height=35 * (len(table) + 1) + 3)  # fmt: skip


table_slot = st.empty()
with components.input_errors(CONTROLS):
    if choice == PRESET:
        autorank.preset_metrics(uploads, lp)  # the preset's metrics must be there
    point = autorank.point(uploads, lp, metrics, extras)
    draw_table(point, table_slot, provisional=True)
    result = page_run.run_long(
        partial(
            autorank.ranking, uploads, lp, metrics, n_resamples=int(n_resamples), seed=seed,
            alpha=alpha, correction=correction, confidence_level=float(confidence),
            extras=extras,
        ),  # fmt: skip
        text=f"Paired bootstrap over documents, {int(n_resamples):,} resamples …",
        key="autorank_bootstrap",
    )
pair = result.language_pairs[0]
boot = pair.bootstrap
draw_table(pair, table_slot, provisional=False)
for note in [n for n in result.notes if lp in n] + list(result.warnings):
    st.caption(components.escape_markdown(note))
together = pair.cannot_separate()
st.markdown(
    "**Neighbours the data cannot separate** "
    f"(paired bootstrap, α = {alpha:g}"
    + (f", {tables.CORRECTION_LABELS[correction]}" if correction != "none" else "")
    + "): "
    + (
        "; ".join(
            f"{components.escape_markdown(a)} and {components.escape_markdown(b)} (p = {p:.3g})"
            for a, b, p in together
        )
        or "none: every neighbour is separated."
    )
)
components.seed_caption(seed, n_resamples=int(n_resamples))

table = autorank_table(pair)
stem = f"autorank-{lp}"
components.table_downloads(table, key="autorank_export", filename=stem, caption=(
    f"{lp}: AutoRank over {', '.join(pair.metrics)} with {confidence:.0%} paired-bootstrap "
    f"intervals ({boot.n_defined} resamples over {pair.point.n_documents} documents)"
))  # fmt: skip
row = st.container(horizontal=True, gap="small")
with row:
    st.download_button(
        "JSON",
        data=lambda: json.dumps(_jsonable(pair.to_dict()), indent=2),
        file_name=f"{stem}.json",
        mime="application/json",
        key="autorank_json",
        on_click="ignore",
        icon=":material/download:",
    )
    st.download_button(
        "LaTeX (findings style, shaded)",
        data=functools.partial(autorank_latex, boot),
        file_name=f"{stem}-findings.tex",
        mime="application/x-tex",
        key="autorank_findings_tex",
        on_click="ignore",
        icon=":material/download:",
    )


st.subheader("AutoRank with its interval")
fig = ranking_dots(
    list(table.index),
    table["AutoRank"],
    table["cluster"],
    low=table["low"],
    high=table["high"],
    title=f"{lp}: AutoRank, {confidence:.0%} intervals, clusters at α = {alpha:g}",
    x_title="AutoRank (1 = best)",
)
with st.container(key="autorank_chart"):
    components.abbreviation_legend(
        components.show_figure(fig, key="autorank_dots", filename=f"{stem}-intervals")
    )
st.caption(
    "Dots: AutoRank; whiskers: percentile interval from the paired bootstrap (documents "
    "resampled, the same for every system, everything recomputed on each resample); dotted "
    "lines separate significance clusters."
)

st.subheader("How the metrics agree, paragraph by paragraph")
with st.container(key="autorank_heatmap"):
    components.show_figure(
        correlation_heatmap(pair.correlations, title=f"{lp}: Pearson r between the metrics "
                            "(every system's paragraphs)"),  # fmt: skip
        key="autorank_corr",
        filename=f"{stem}-metric-correlations",
    )
st.caption(components.escape_markdown(
    "Pearson's r over the paragraphs where both metrics have a value: "
    + ", ".join(f"{m} {int(n):,}" for m, n in pair.n_paragraphs.items())
    + " paragraphs."
))  # fmt: skip
