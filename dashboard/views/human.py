"""Page "Tests vs humans": the human gold standard and the accuracy of randomized significance
tests against it (Graham, Mathur & Baldwin, WMT 2014: Figure 7, Tables 1-2).

Thin: reads widgets, calls dashboard.data.human and dashboard.data.mt_systems (cached), shapes
tables with dashboard.tables and draws dashboard.figures builders.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from dashboard import components, figures, page_run, state, tables, url_state, view_state
from dashboard.components.power_note import human_mde_note
from dashboard.data import human, mt_systems, samples
from dashboard.sections import human_gold as human_gold_view
from dashboard.sections import mt_choice, mt_options
from stats import RANDOMIZED_TESTS
from stats.readers.segments import system_name
from stats.readers.wmt import lp_from_name

#: the library's argument names -> this page's controls (a refusal names what to change here)
CONTROLS = components.resamples_named("Resamples per test")

SOURCES = ("System outputs (text)", "Segment scores")
REUSE = "Files of the MT systems page"

url_state.load_url("human", url_state.HUMAN)

st.title("Tests vs humans")
st.caption(
    "How often does a significance test on an automatic metric reach the conclusion a human "
    "evaluation reaches? Human judgements are standardised per annotator, every pair of systems "
    "is compared with a one-sided Wilcoxon rank-sum test (adequacy first, fluency breaks "
    "adequacy ties), and each metric × randomized test × α is scored against that gold "
    "standard (Graham, Mathur & Baldwin, WMT 2014)."
)

#: the outputs' note beside the sample judgements, and beside uploaded ones (real human scores
#: are never shown under a "sample" banner: the synthetic outputs are named as not theirs)
OUTPUTS_NOTE = (
    "Sample reference and systems: sample_data/mt/reference.txt and sample_data/mt/hyp/*.txt "
    "(8 synthetic systems)."
)
UNMATCHED_NOTE = (
    "No {what} uploaded: the metric tests below use the bundled synthetic systems, which are "
    "not the systems your human scores rate (the human ranking does not need them). Upload the "
    "judged systems' {what} here to compare metrics with your human scores."
)

# ---- inputs ----
col_h, col_s = st.columns(2)
with col_h:
    judgements, judgements_sample = components.file_input(
        human_gold_view.JUDGEMENTS_LABEL,
        key="human_judgements_upload",
        sample=samples.human_sample_judgements(),
        sample_note="Showing the bundled **synthetic judgements** (sample_data/human/"
        "judgements.tsv: 25 invented annotators). Upload your own file above.",
    )
with col_s:
    shared = st.session_state.get(state.MT_SHARED_INPUTS_KEY) or {}
    sources = [REUSE, *SOURCES] if shared else list(SOURCES)
    source = components.remembered(
        st.radio, "System outputs", sources, horizontal=True, key="human_source", default=sources[0]
    )
    references = hypotheses = scores = ()
    outputs_sample = False
    if source == REUSE:
        references = tuple(shared.get("references", ()))
        hypotheses = tuple(shared.get("hypotheses", ()))
        scores = tuple(shared.get("scores", ()))
        st.info(
            "Using the files uploaded on the MT systems page: "
            + ", ".join(
                components.escape_markdown(name) for name, _ in (*references, *hypotheses, *scores)
            ),
            icon=":material/link:",
        )
    elif source == SOURCES[0]:
        references, hypotheses, outputs_sample = components.reference_and_outputs(
            (
                "Reference translation(s), one segment per line (any extension, e.g. "
                "generaltest2023.en-de.ref.refA.de)",
                "System outputs, one file per system (system name = file name; any extension)",
            ),
            keys=("human_ref_upload", "human_hyp_upload"),
            sample=samples.mt_sample_text(),
            sample_note=OUTPUTS_NOTE
            if judgements_sample
            else UNMATCHED_NOTE.format(what="reference and system outputs"),
        )
    else:
        scores, outputs_sample = components.file_input(
            "Segment scores: SYSTEM SEGMENT SCORE [METRIC], wide CSV (one column per system), "
            "or WMT metrics task .seg.score files (several, .gz, .zip)",
            key="human_scores_upload",
            sample=samples.mt_sample_scores(),
            sample_note="Sample scores: sample_data/mt/segment_scores.tsv (chrF, SimCOMET)."
            if judgements_sample
            else UNMATCHED_NOTE.format(what="segment scores"),
        )

with components.input_errors(CONTROLS):
    kinds = human.file_kinds(judgements)
wmt = human_gold_view.is_wmt(kinds)
human_block: tuple[str, ...] = ()  # (protocol, lp) of WMT files holding several
if wmt:
    with components.input_errors(CONTROLS):
        blocks = human.blocks(judgements)
    human_block = human_gold_view.block_picker(blocks)
with components.input_errors(CONTROLS):
    gold = human.gold(judgements, (), human_block)
    flagged = human.outliers(judgements, human_block)
components.ask_for_the_other_half(references, hypotheses)

text_mode = bool(references or hypotheses)
kind = mt_systems.KIND_TEXT if text_mode else mt_systems.KIND_SCORES
with components.controls_expander("Controls"):
    c_metric, c_test, c_alpha = st.columns([2, 3, 2])
    c_n, c_seed, c_lower = st.columns([2, 2, 3])
    with c_metric:
        if text_mode:
            metric_args = dict(tables.TEXT_METRICS)
            default_metrics = ["BLEU"]
        else:
            with components.input_errors(CONTROLS):
                metric_args = tables.score_metric_choices(mt_systems.score_metrics(scores))
            default_metrics = list(metric_args)
        metric_options = list(metric_args)
        metrics = components.remembered_multiselect(
            "Metrics",
            metric_options,
            key="human_metrics",
            default=default_metrics,
            help="Each metric is tested with each test; TER statistics take longest to extract.",
        )
        block = ()  # WMT segment-level files: one (lp, testset, refset) for every metric
        if not text_mode and metrics:
            with components.input_errors(CONTROLS):
                block = mt_choice.wmt_block(
                    mt_systems.score_options(scores),
                    metric_args[metrics[0]],
                    prefix="human_score",
                    lp=human_block[1]
                    if human_block
                    else next(filter(None, (lp_from_name(name) for name, _ in judgements)), None),
                )
    with c_test:
        tests = components.remembered_multiselect(
            "Randomized tests",
            RANDOMIZED_TESTS,
            default=RANDOMIZED_TESTS,
            key="human_tests",
            format_func=lambda t: tables.HUMAN_TEST_LABELS[t],
            help="One-sided, as in the paper: paired bootstrap resampling (Koehn 2004), "
            "bootstrap resampling with shift-to-zero, approximate randomization.",
        )
    with c_alpha:
        alpha = components.alpha_input(
            "human_alpha",
            label="α for the grids and the agreement map",
            help="The accuracy table always shows all three levels, as the paper's Tables 1-2.",
        )
    with c_n:
        n_resamples = int(
            components.number_setting(
                "Resamples per test",
                default=1000,
                min_value=100,
                max_value=100_000,
                step=100,
                key="human_resamples",
            )
        )
    with c_seed:
        seed = components.seed_input("human_seed")
    lower: list[str] = []
    if not text_mode:
        with c_lower:
            lower = components.remembered_multiselect(
                "Lower is better for",
                metric_options,
                key="human_lower",
                default=[],
                help="Segment metrics where a lower score is better (error rates, TER-like).",
            )

    c_excl, c_out = st.columns([5, 2])
    with c_excl:
        chosen_out = components.remembered_multiselect(
            "Exclude systems",
            list(gold.systems),
            key="human_exclude",
            default=[],
            help="Leave these systems out of the human gold standard and of every test.",
        )
    with c_out:
        drop_outliers = components.persistent(
            st.checkbox,
            "Exclude MAD outliers",
            key="human_outliers",
            help=tables.MAD_HELP
            + (f" Flagged here: {', '.join(flagged)}." if flagged else " None flagged here."),
        )
excluded = tuple(dict.fromkeys([*chosen_out, *(flagged if drop_outliers else ())]))
left_out = tables.left_out_note(excluded, flagged)
page_run.record_setting("excluded_systems", "systems left out", list(excluded))
if excluded:
    with components.input_errors(CONTROLS):
        gold = human.gold(judgements, excluded, human_block)
    st.info(
        "The gold standard and every test without these systems: "
        + components.escape_markdown(left_out.removeprefix("left out: ")),
        icon=":material/filter_alt:",
    )
elif flagged:
    st.caption(
        "Outliers of the human scores by the findings' MAD rule (kept; tick *Exclude MAD "
        "outliers* to leave them out): " + components.escape_markdown(", ".join(flagged))
    )

sample_systems = {system_name(name) for name, _ in samples.mt_sample_text()[1]}
if outputs_sample and not judgements_sample and len(sample_systems & set(gold.systems)) < 2:
    # human files of other systems than the sample's, and no outputs uploaded: the human files
    # alone are a gold standard (rankings, clusters and grids)
    st.info(
        "Ranking the systems from the human files alone. Upload system outputs and a reference "
        "(or segment scores) to measure how often each metric × test reaches the humans' "
        "conclusions.",
        icon=":material/leaderboard:",
    )
    human_gold_view.show_rankings(judgements, kinds, alpha, excluded)
    human_gold_view.show_gold(gold, list(gold.systems), alpha, wmt=wmt)
    url_state.write_url(url_state.HUMAN)
    st.stop()

if not metrics or not tests:
    st.warning("Choose at least one metric and one test.", icon=":material/warning:")
    st.stop()
if text_mode:  # sacreBLEU's options, as on the MT systems page (the same widgets and keys)
    sacrebleu_options = mt_options.expander()
    metric_args = {n: mt_options.spec(a, sacrebleu_options) for n, a in metric_args.items()}
mt_choice.block_caption(block, ", ".join(metrics))
if block:
    page_run.record_setting("wmt_block", "WMT block (lp, test set, reference)", list(block))

# ---- run the tests (all cached; the bar shows the first, slow run) ----
# per metric: one step to extract the segment statistics, then one step per test (one-sided, as
# in the paper); the MT systems page shares these caches
files = hypotheses if text_mode else scores
chosen = tuple((metric, metric_args[metric], metric not in lower) for metric in metrics)
steps = []
for name, metric, higher_is_better in chosen:
    inputs = (kind, references, files, metric, higher_is_better)
    steps.append(
        (f"{name}: extracting segment statistics…", partial(mt_systems.statistics, *inputs, block))
    )
    steps.extend(
        (
            f"{name}: {tables.HUMAN_TEST_LABELS[test]}…",
            partial(mt_systems.pairwise, *inputs, test, n_resamples, "greater", seed, block),
        )
        for test in tests
    )
with components.input_errors(CONTROLS):
    page_run.run_steps(steps, text="Running the randomized tests…")
    accuracy = human.accuracy(
        judgements,
        kind,
        references,
        files,
        chosen,
        tuple(tests),
        n_resamples,
        seed,
        excluded,
        block,
        human_block,
    )

components.show_warnings(accuracy.warnings)
if text_mode:  # which tokenizer BLEU used, and sacreBLEU's signature of each text metric
    with components.input_errors(CONTROLS):
        signatures = {
            name: mt_systems.statistics(kind, references, files, metric, higher, block).signature
            for name, metric, higher in chosen
        }
    st.caption(human_gold_view.signature_caption(signatures))

systems = list(accuracy.systems)
view_state.alias_editor([*systems, *metrics], key="human_aliases")
conclusions = gold.conclusions(alpha)
# the humans' verdicts over the pairs actually compared (systems with outputs and judgements)
compared = conclusions["system_a"].isin(systems) & conclusions["system_b"].isin(systems)
n_sig = int((conclusions.loc[compared, "combined"] != 0).sum())
n_compared = int(compared.sum())
m1, m2, m3, m4 = st.columns(4)
m1.metric(
    "Systems compared",
    len(systems),
    f"{accuracy.n_pairs} pairs",
    delta_color="off",
    delta_arrow="off",
)
m2.metric(
    "Judgements used",
    f"{gold.n_judgements:,}",
    f"{gold.annotators['annotator'].nunique()} annotators",
    delta_color="off",
    delta_arrow="off",
)
m3.metric(
    f"Pairs humans separate (α = {alpha:g})",
    f"{n_sig} / {n_compared}",
    help=f"Pairs of the {len(systems)} compared systems that the human gold standard finds "
    f"significantly different"
    + (
        f" ({len(gold.systems)} systems were judged; only those with outputs are compared)."
        if len(systems) < len(gold.systems)
        else "."
    ),
)
human_mde_note(gold, conclusions.loc[compared], alpha)  # MDE beside "not separated"
top_accuracy, who, tied = tables.most_accurate(accuracy, alpha)
m4.metric(
    f"Most accurate at α = {alpha:g}",
    f"{100 * top_accuracy:.1f}%",
    who,
    delta_color="off",
    delta_arrow="off",
    help="Highest accuracy against the human gold standard: "
    + "; ".join(components.escape_markdown(s) for s in tied),
)

# ---- human gold standard (paper Figure 7) and the findings' rankings ----
human_gold_view.show_gold(gold, systems, alpha, wmt=wmt)
human_gold_view.show_rankings(judgements, kinds, alpha, excluded)

# ---- accuracy (paper Tables 1-2) ----
st.subheader("Accuracy of the significance tests")
st.markdown(
    f"For every pair of systems, does the test reach the humans' conclusion (X better, Y "
    f"better, or no significant difference)? Conc. = correct conclusions of "
    f"{accuracy.n_pairs}; Acc. = accuracy with its exact (Clopper-Pearson) 95% confidence "
    "interval. Intervals reaching below 50% are no better than a coin toss (paper Section 4.1)."
)
components.seed_caption(seed, n_resamples=n_resamples)
components.show_table(
    tables.human_paper_table(accuracy),
    key="human_accuracy_table",
    filename="accuracy_tables",
    index=False,
    caption="Accuracy of randomized significance tests against the human gold standard"
    + (f"; {left_out}" if excluded else ""),
)
components.show_figure(
    figures.accuracy_intervals(accuracy.table, test_labels=tables.HUMAN_TEST_LABELS),
    key="human_accuracy_chart",
    filename="accuracy_intervals",
)
if len(accuracy.chi2):
    st.markdown("**Do accuracies differ across metrics?** Chi-square test per test and α:")
    components.show_table(
        accuracy.chi2,
        key="human_chi2_table",
        filename="accuracy_chi_square",
        index=False,
        caption="Chi-square tests of equal accuracy across metrics",
    )

# ---- agreement map ----
st.subheader(f"Where the tests agree with the humans (α = {alpha:g})")
outcome, details = tables.human_agreement(accuracy, alpha)
if components.presentation_mode():  # a slide per block of pairs, laid out for its larger font
    per_block = figures.agreement_heatmap(outcome, **figures.AGREEMENT_SLIDE).layout.meta[
        "pairs_per_block"
    ]
    blocks = [slice(k, k + per_block) for k in range(0, outcome.shape[1], per_block)]
else:
    blocks = [slice(None)]
components.abbreviation_legend(
    *(
        components.show_figure(
            figures.agreement_heatmap(
                outcome.iloc[:, block],
                details=details.iloc[:, block],
                **(figures.AGREEMENT_SLIDE if len(blocks) > 1 else {}),
            ),
            key="human_agreement" if k == 0 else f"human_agreement_{k + 1}",
            filename=f"agreement_alpha_{alpha:g}" + (f"_{k + 1}" if k else ""),
        )
        for k, block in enumerate(blocks)
    )
)
disagree = tables.human_disagreements(accuracy, alpha)
with st.expander(f"The {len(disagree)} disagreements, listed", expanded=False):
    components.show_table(
        disagree,
        key="human_disagreements",
        filename=f"disagreements_alpha_{alpha:g}",
        index=False,
    )

# ---- annotators (judgement files: what standardisation removes) ----
if not wmt:
    st.subheader("Annotators: why standardisation matters")
    st.markdown(
        "Lenient annotators score everything high, strict ones low, and spreads differ. Raw means "
        "then depend on which annotators happened to judge a system; standardising each annotator's "
        "scores (z = (score − annotator mean) / annotator SD) removes that."
    )
    left, right = components.two_columns()
    with left:
        components.show_figure(
            figures.annotator_spread(gold.annotators),
            key="human_annotators_chart",
            filename="annotators",
        )
    with right:
        components.show_figure(
            figures.standardisation_ranks(gold.scores.loc[systems]),
            key="human_rank_chart",
            filename="ranks_raw_vs_z",
        )
    components.show_table(
        gold.annotators,
        key="human_annotator_table",
        filename="annotators",
        index=False,
        caption="Judgements, mean and SD of raw scores per annotator and criterion",
        float_format="{:.2f}",
    )
    if len(gold.excluded):
        st.markdown("**Excluded** (cannot be standardised):")
        st.dataframe(gold.excluded, key="human_excluded", hide_index=True)

url_state.write_url(url_state.HUMAN)
