"""Page "MT systems": randomized significance tests for every pair of MT systems -- paired
bootstrap, bootstrap with shift-to-zero, approximate randomization -- on BLEU/chrF/TER from
system outputs (sacrebleu sufficient statistics) or on segment-level scores (Graham, Mathur &
Baldwin, WMT 2014, https://aclanthology.org/W14-3333/).

Thin: reads widgets, calls dashboard.data.mt_systems (cached), shapes tables with
dashboard.tables and draws dashboard.figures builders.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from dashboard import components, figures, page_run, state, tables, url_state, view_state
from dashboard.components.power_note import mde_note
from dashboard.data import mt_systems, samples
from dashboard.sections import mt_choice, mt_explorer, mt_options, mt_table
from stats import RANDOMIZED_TESTS

#: the library's argument names -> this page's controls (a refusal names what to change here)
CONTROLS = components.resamples_named("Resamples")

RESAMPLES = url_state.MT_RESAMPLES
TEXT, SCORES = "System outputs + reference", "Segment scores"

presentation = components.presentation_mode()
url_state.load_url("mt_systems", url_state.MT_SYSTEMS)

st.title("MT systems")
st.caption(
    "Is system X really better than system Y? Randomized significance tests for every pair of "
    "systems at once -- paired bootstrap resampling (Koehn 2004), bootstrap resampling with "
    "shift-to-zero, and approximate randomization -- exactly as Graham, Mathur & Baldwin "
    "(WMT 2014) define them. BLEU, chrF and TER come from sacrebleu's sufficient statistics, "
    "extracted once; segment-level metrics (COMET, human scores, ...) use the mean."
)

source = components.persistent(st.radio, "Input", (TEXT, SCORES), horizontal=True, key="mt_source")
if source == TEXT:
    kind = mt_systems.KIND_TEXT
    references, files, is_sample = components.reference_and_outputs(
        (
            "Reference file(s): plain text, one segment per line",
            "System outputs: one file per system, aligned with the reference",
        ),
        keys=("mt_refs", "mt_hyps"),
        helps=(
            "Several files = several references per segment (as sacrebleu -r refA refB). "
            "Any extension.",
            "Any extension. System names: what the file names do not share "
            "(generaltest2023.en-de.hyp.ONLINE-W.de, system-outputs/en-de/ONLINE-W.txt -> "
            "ONLINE-W); the language pair in them sets BLEU's tokenizer.",
        ),
        sample=samples.mt_sample_text(),
        sample_note="Showing the bundled **synthetic sample data**: a pseudo-word reference of "
        "500 segments and 8 systems of graded quality (sample_data/mt). Upload a reference and "
        "your systems' outputs above to analyse them.",
        side_by_side=True,
    )
    components.ask_for_the_other_half(references, files)  # before the uploads are shared
else:
    kind = mt_systems.KIND_SCORES
    references = ()
    files, is_sample = components.file_input(
        "Segment scores: long SYSTEM SEGMENT SCORE [METRIC], or wide CSV (SEGMENT + one "
        "column per system), or WMT metrics task .seg.score files (several, .gz, .zip)",
        key="mt_scores",
        sample=samples.mt_sample_scores(),
        sample_note="Showing the bundled **synthetic sample data**: segment-level chrF and "
        "SimCOMET scores of the 8 sample systems (sample_data/mt/segment_scores.tsv). Upload "
        "your own score file above to analyse it.",
    )

if not is_sample:  # the "Tests vs humans" page can reuse these uploads
    shared = (
        {"references": references, "hypotheses": files}
        if kind == mt_systems.KIND_TEXT
        else {"scores": files}
    )
    st.session_state[state.MT_SHARED_INPUTS_KEY] = shared

with components.controls_expander("Controls"):
    c1, c2, c3 = st.columns(3)
    higher_is_better, block = True, ()
    with c1:
        if kind == mt_systems.KIND_TEXT:
            metric_label = components.persistent(
                st.selectbox, "Metric", list(tables.TEXT_METRICS), key="mt_metric"
            )
            metric = tables.TEXT_METRICS[metric_label]
        else:
            with components.input_errors(CONTROLS):
                names = mt_systems.score_options(files).metrics
            metric = ""
            if names:
                metric = components.remembered(
                    st.selectbox,
                    "Metric (METRIC column)",
                    names,
                    key="mt_score_metric",
                    default=tables.default_baseline(names) or names[0],
                )
                block = mt_choice.wmt_block(mt_systems.score_options(files), metric)
            higher_is_better = not components.persistent(
                st.toggle,
                "Lower scores are better",
                key="mt_lower",
                help="For error-type segment scores (e.g. sentence TER, MQM penalties).",
            )
        tests = components.remembered_multiselect(
            "Tests",
            RANDOMIZED_TESTS,
            default=RANDOMIZED_TESTS,
            format_func=lambda t: tables.MT_TEST_LABELS[t],
            key="mt_tests",
        )
    with c2:
        n_resamples = components.remembered(
            st.selectbox,
            "Resamples",
            RESAMPLES,
            default=1000,
            key="mt_resamples",
            format_func=lambda n: f"{n:,}",
            help="B for the bootstrap tests, R for approximate randomization; the same number "
            "for all tests so their p-values have the same resolution, 1 / (R + 1).",
        )
        seed = components.seed_input("mt_seed")
    with c3:
        alternative = components.alternative_input(
            "mt_alternative",
            label="Alternative",
            help="One-sided (as in the paper's Figures 2-4): is the row system better "
            "than the column system? Two-sided (Figure 1): do they differ?",
        )
        alpha = components.alpha_input("mt_alpha")
    exclude_slot = st.container()  # filled once the systems are known

if not tests:
    st.warning("Choose at least one test in the controls.", icon=":material/warning:")
    st.stop()

metric_options: dict = {}
if kind == mt_systems.KIND_TEXT:  # sacreBLEU's options travel with the metric's name
    metric_options = mt_options.expander()
    metric = mt_options.spec(metric, metric_options)
    if metric.startswith("ter"):
        mt_options.ter_estimate(references, files)

# the cached functions' input arguments: which files, metric and direction
inputs = (kind, references, files, metric, higher_is_better)
with components.input_errors(CONTROLS):
    (stats_data,) = page_run.run_steps(
        [("Extracting sufficient statistics ...", partial(mt_systems.statistics, *inputs, block))],
        text="Extracting sufficient statistics ...",
        keep=False,  # another upload's statistics are no results to keep
    )
with exclude_slot:
    excluded = mt_choice.exclusion(stats_data.systems)
# the tests' settings, and which block and systems they run on
setting, chosen = (n_resamples, alternative, seed), {"block": block, "excluded": excluded}
with components.input_errors(CONTROLS):
    pairwise = page_run.run_steps(
        [
            (
                f"{tables.MT_TEST_LABELS[test]}: {n_resamples:,} resamples ...",
                partial(mt_systems.pairwise, *inputs, test, *setting, **chosen),
            )
            for test in tests
        ],
        text=f"{tables.MT_TEST_LABELS[tests[0]]}: {n_resamples:,} resamples ...",
        key="mt_tests",  # one Stop button whatever the settings: a Stop keeps the last results
    )
results = dict(zip(tests, pairwise, strict=True))

first = results[tests[0]]
systems = list(first.systems)
view_state.alias_editor(systems, key="mt_aliases")
side = tables.side_label(alternative)

m1, m2, m3, m4 = st.columns(4)
m1.metric("Systems", len(systems), help=f"{len(systems) * (len(systems) - 1) // 2} pairs")
m2.metric("Segments", first.n_segments)
m3.metric("Metric", components.escape_markdown(first.label), "lower is better" if not first.higher_is_better else None,
          delta_color="off", delta_arrow="off")  # fmt: skip
m4.metric("Best system", components.escape_markdown(systems[0]),
          f"{components.escape_markdown(first.label)} {first.scores.iloc[0]:.4g}", delta_color="off",
          delta_arrow="off", help=components.escape_markdown(systems[0]))  # fmt: skip
if kind == mt_systems.KIND_TEXT:  # signature, options in words, WMT and reference notes
    with components.input_errors(CONTROLS):
        order = mt_systems.reference_order(references, files, metric)
    mt_options.metric_notes(
        stats_data, lp=mt_systems.language_pair(references, files), order=order
    )
mt_choice.block_caption(block, metric)
mt_choice.exclusion_caption(excluded, len(systems))

# ---- system table ----
st.subheader("Systems and bootstrap confidence intervals")
table = tables.mt_system_table(first)
left, right = components.two_columns([2, 3])
with left:
    components.show_table(
        table,
        key="mt_system_table",
        filename=f"mt_systems_{first.label}",
        caption=f"{first.label} of each system with its {round(first.confidence_level * 100)}% "
        f"percentile bootstrap confidence interval ({first.n_segments} segments)",
        column_config={c: st.column_config.NumberColumn(c, format="%.4f") for c in table.columns},
    )
    ci_source = "the paired bootstrap" if tests[0] != "approximate-randomization" else (
        "1,000 extra bootstrap resamples"
    )  # fmt: skip
    st.caption(f"Systems best first. Confidence intervals from {ci_source}.")
with right:
    components.show_figure(
        figures.mt_system_scores(
            first.scores,
            first.score_ci_low,
            first.score_ci_high,
            label=first.label,
            higher_is_better=first.higher_is_better,
            confidence_level=first.confidence_level,
            title=f"{first.label} by system",
        ),
        key="mt_scores_fig",
        filename=f"mt_system_scores_{first.label}",
    )

mt_table.section(
    inputs,
    names if kind == mt_systems.KIND_SCORES else (),
    [s for s in stats_data.systems if s not in excluded],
    n_resamples=n_resamples,
    seed=seed,
    alpha=alpha,
    metric_options=metric_options,
    best=systems[0],
    **chosen,
)

# ---- significance grids (paper Figure 8) ----
st.subheader(f"Pairwise significance ({side}, α = {alpha:g})")
panels = {tables.MT_TEST_LABELS[t]: results[t] for t in tests}
# presentation mode: as many grids a row as keep legible cells and whole titles at 1400 px,
# one figure (a slide high) per row
aliases = url_state.current_aliases()
rows = (
    figures.slide_rows(list(panels), [aliases.get(s, s) for s in systems])
    if presentation
    else [list(panels)]
)
shown_grids = []
for k, row in enumerate(rows):
    shown_grids.append(
        components.show_figure(
            figures.mt_significance_grids(
                {name: panels[name] for name in row},
                alpha=alpha,
                title=f"{first.label}: row system significantly better than column system",
            ),
            key="mt_grids" if k == 0 else f"mt_grids_{k + 1}",
            filename=f"mt_significance_{first.label}_{side}" + (f"_{k + 1}" if k else ""),
        )
    )
components.abbreviation_legend(*shown_grids)  # hover and exports have the names whole
components.seed_caption(first.seed, n_resamples=n_resamples)
if first.min_pvalue >= alpha:
    components.show_warnings(  # also stated in the report
        [
            f"With {n_resamples:,} resamples the smallest attainable p-value is "
            f"1/({n_resamples}+1) = {first.min_pvalue:.4g}, not below α = {alpha:g}: no pair "
            "can be significant at this level, whatever the data. Choose more resamples."
        ]
    )
st.caption(
    "Cell (row, column) is coloured when the row system's score is significantly better than "
    "the column system's (darker = smaller p; grey = tested, not significant). p = (c + 1) / "
    "(R + 1). Hover a cell for the difference and its bootstrap confidence interval."
)
pvalues = tables.mt_pvalue_table(results)
with st.expander("p-values of every pair", expanded=False, icon=":material/table:"):
    components.show_table(
        pvalues,
        key="mt_pvalues",
        filename=f"mt_pvalues_{first.label}_{side}",
        index=False,
        caption=f"Randomized tests ({side}) of every pair of systems on {first.label}; "
        f"seed {first.seed}, {n_resamples} resamples",
    )
for test in tests:
    components.table_downloads(
        results[test].pvalue,
        key=f"mt_matrix_{test}",
        filename=f"mt_pvalue_matrix_{test}",
        caption=f"{tables.MT_TEST_LABELS[test]} ({side}) p-values, {first.label}: row better than "
        f"column; seed {first.seed}, {n_resamples} resamples",
        label=f"{tables.MT_TEST_LABELS[test]} matrix",
    )

# ---- one pair: pseudo-statistic distributions (paper Figures 5 and 6) ----
st.subheader("One pair: pseudo-statistic distributions")
pairs = first.pairs()
closest = pairs.loc[pairs["statistic"].idxmin()] if len(pairs) else None
c_x, c_y = st.columns(2)
with c_x:
    x = components.remembered(
        st.selectbox,
        "System X",
        systems,
        key="mt_pair_x",
        default=closest["better"] if closest is not None else systems[0],
    )
with c_y:
    others = [s for s in systems if s != x]
    default_y = closest["worse"] if closest is not None and closest["worse"] in others else None
    y = components.remembered(
        st.selectbox,
        "System Y",
        others,
        key="mt_pair_y",
        default=others[0] if default_y is None else default_y,
    )
with components.input_errors(CONTROLS):
    single = mt_systems.pair_tests(*inputs, x, y, tuple(tests), *setting, **chosen)
one = single[tests[0]]
cols = st.columns(len(tests) + 1)
cols[0].metric(
    f"Δ {components.escape_markdown(one.label)} ({'X − Y' if one.higher_is_better else 'Y − X'})",
    figures.format_number(one.statistic),
    f"{round(one.confidence_level * 100)}% CI [{one.difference_ci[0]:.3f}, "
    f"{one.difference_ci[1]:.3f}]",
    delta_color="off",
    delta_arrow="off",
)
for col, test in zip(cols[1:], tests, strict=True):
    col.metric(f"p, {tables.MT_TEST_LABELS[test]}", figures.format_pvalue(single[test].pvalue))
mde_note(pvalue=one.pvalue, alpha=alpha, differences=one.distribution, unit=one.label,
         alternative=alternative)
components.show_figure(
    figures.mt_pseudo_distributions(
        {tables.MT_TEST_LABELS[t]: single[t] for t in tests},
        cols=1 if presentation else None,
        title=f"{x} vs {y}: pseudo-statistics ({side})",
    ),
    key="mt_dist_fig",
    filename=f"mt_distributions_{x}_vs_{y}",
)
components.seed_caption(one.seed, n_resamples=n_resamples)
st.caption(
    "Highlighted: the resamples each test counts in its p-value. "
    "Paired bootstrap (Figure 4): resampled differences S_Xb − S_Yb, counting resamples where X "
    "does not beat Y (left of the dashed cut-off at 0). Bootstrap (Figures 1 and 3): the same "
    "differences shifted to mean zero by τ_B to simulate H0, counting those at least as extreme "
    "as the actual statistic (solid line). Approximate randomization (Figure 2): differences "
    "after swapping each segment's pair of translations with probability 0.5."
)
with st.expander("Why the Riezler & Maxwell bootstrap was effectively one-sided",
                 icon=":material/info:"):  # fmt: skip
    st.markdown(
        "Riezler & Maxwell (2005) took absolute values of the bootstrap pseudo-statistics "
        "*before* shifting them to zero, counting |S_Xb − S_Yb| − τ_B ≥ |S_X − S_Y|. After "
        "taking absolute values, pseudo-statistics below the mean can never be counted, so only "
        "one tail was used: their bootstrap was one-sided while their approximate randomization "
        "was two-sided, and the p-values were compared as if both were two-sided. Doubling the "
        "bootstrap p-values makes the two tests agree closely (Graham, Mathur & Baldwin 2014, "
        "§2). Here the shift comes first and the absolute value second (Figure 1)."
    )

mt_explorer.render(inputs, block, systems, x, y)

url_state.write_url(url_state.MT_SYSTEMS)
