"""The segment-level section of the "Metrics vs humans" page (not a page itself): metrics
meta-evaluated as the WMT metrics task does with google-research/mt-metrics-eval -- correlations
at segment or system level under a grouping, Kendall variants and acc23 with tie calibration,
bootstrap confidence intervals, and system-level pairwise accuracy pooled over language pairs.

dashboard/views/metrics.py draws it (:func:`render`) instead of the Williams view when the
uploads are segment-level data (:func:`dashboard.data.meta_eval.is_segment_level`). Thin:
reads widgets, calls :mod:`dashboard.data.meta_eval` (cached), shapes tables with
:mod:`dashboard.tables` and draws :mod:`dashboard.figures.meta_eval` builders.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from dashboard import components, figures, page_run, tables
from dashboard.data import Uploads, meta_eval, samples

#: Sample choices of the page: label -> whether it is the segment-level sample.
SAMPLES = {
    "System-level: WMT-12 metrics, 4 language pairs (metrics/human.tsv, metrics.tsv)": False,
    "Segment-level: MTME layout, 2 language pairs, 2 human score types (meta/wmt-sample.zip)": True,
}
SAMPLE_NOTE = (
    "Showing the bundled **synthetic sample data** (sample_data/meta/wmt-sample.zip: invented "
    "segment scores of 6 systems x 200 segments in MTME's layout, MQM and DA human scores). "
    "Upload your own files above to analyse them."
)
UPLOAD_HELP = (
    "Segment-level data opens the WMT-style meta-evaluation: a directory in mt-metrics-eval's "
    "layout as .zip or .tar.gz (human-scores/LP.NAME.seg.score, "
    "metric-scores/LP/METRIC-REF.seg.score), long text (METRIC LP TESTSET SYSTEM SEGMENT SCORE; "
    "human rows have METRIC = HUMAN) or a wide CSV (lp, system, segment, human, one column per "
    "metric)."
)
_LEVELS = {"seg": "segment", "sys": "system"}
_GROUPINGS = {"none": "none", "item": "by item", "system": "by system"}
_TIES = ("tie calibration", "fixed ε")
CONFIDENCE_LEVEL = 0.95
#: the library's argument phrases -> this section's controls: a message names what to change
#: here (:func:`dashboard.components.name_controls`), as the CLI's name its flags
CONTROLS = {
    "include_human=True": "the “Human translations as systems” control",
    "exclude_systems": "“Exclude systems”",
    "gold=NAME": "the “Human scores” control",
}
#: for the correlations (their resamples are the bootstrap's) and for the tests
BOOTSTRAP_CONTROLS = components.resamples_named("Bootstrap resamples (0: no intervals)", CONTROLS)
PERMUTATION_CONTROLS = components.resamples_named("Permutations", CONTROLS)


def sample_input() -> bool:
    """The page's sample choice (used while nothing is uploaded); True for the segment-level
    sample."""
    label = components.persistent(
        st.selectbox,
        "Sample data (used while nothing is uploaded)",
        list(SAMPLES),
        key="metrics_sample",
    )
    return SAMPLES[label]


def sample() -> Uploads:
    """The segment-level sample as uploads."""
    return samples.sample_files("meta", samples.META_SAMPLE_FILES)


def _controls(uploads: Uploads) -> dict:
    """Draw the controls; return the settings of :func:`dashboard.data.meta_eval.evaluation`."""
    files = meta_eval.shown(uploads)
    golds = list(files.gold_names)
    c_gold, c_level, c_group = st.columns(3)
    c_corr, c_ties, c_eps = st.columns(3)
    c_res, c_seed, c_human = st.columns(3)
    with c_gold:
        if len(golds) > 1:
            gold = components.remembered(
                st.selectbox,
                "Human scores",
                golds,
                key="meta_gold",
                default="mqm" if "mqm" in golds else golds[0],
                help="The files hold several human score types; the metrics are correlated "
                "with this one.",
            )
        else:
            with components.input_errors():  # no human scores in the files: one line
                gold = meta_eval.load(uploads).choose_gold()
            st.caption(f"Human scores: **{components.escape_markdown(gold)}**")
    with c_level:
        level = components.persistent(
            st.radio,
            "Level",
            list(_LEVELS),
            format_func=_LEVELS.get,
            horizontal=True,
            key="meta_level",
            help="Segment: correlate segment scores. System: correlate each system's mean "
            "scores over the segments with a human score.",
        )
    with c_group:
        grouping = components.persistent(
            st.radio,
            "Grouping",
            list(_GROUPINGS),
            format_func=_GROUPINGS.get,
            horizontal=True,
            index=1,  # by item: fast to resample for every correlation
            key="meta_grouping",
            disabled=level == "sys",
            help="Segment level only. By item: one correlation per segment across systems, "
            "averaged (the WMT23 primary segment-level setting); by system: one per system "
            "across its segments; none: all segments at once.",
        )
    with c_corr:
        label = components.persistent(
            st.selectbox,
            "Correlation",
            list(tables.META_CORRELATIONS),
            key="meta_correlation",
            help="Kendall-like: WMT20's τ over segment pairs whose human scores differ by at "
            "least the threshold. acc23: pairwise accuracy with ties (Deutsch et al. 2023).",
        )
    correlation = tables.META_CORRELATIONS[label]
    settings = {
        "gold": gold,
        "level": level,
        "grouping": grouping if level == "seg" else "none",
        "correlation": correlation,
    }
    if correlation == "acc23":
        with c_ties:
            ties = components.persistent(
                st.radio,
                "Metric ties",
                list(_TIES),
                horizontal=True,
                key="meta_ties",
                help="Tie calibration: the ε that maximises acc23 (mt-metrics-eval's "
                "KendallWithTiesOpt); fixed: metric differences up to ε count as ties.",
            )
        if ties == _TIES[0]:
            settings["tie_calibration"] = True
        else:
            with c_eps:
                settings["epsilon"] = float(
                    components.persistent(
                        st.number_input,
                        "ε",
                        min_value=0.0,
                        value=0.0,
                        format="%.4g",
                        key="meta_epsilon",
                    )
                )
    elif correlation == "kendall-like":
        with c_ties:
            settings["threshold"] = float(
                components.persistent(
                    st.number_input,
                    "Human score difference counted (≥)",
                    value=25.0,
                    key="meta_threshold",
                    help="WMT20 used 25 on the 0-100 DA scale.",
                )
            )
    with c_res:
        settings["n_resamples"] = int(
            components.persistent(
                st.number_input,
                "Bootstrap resamples (0: no intervals)",
                min_value=0,
                max_value=10_000,
                value=1000,
                step=100,
                key="meta_resamples",
                help="Items (segments) resampled with replacement, as in the WMT findings "
                f"papers, for {CONFIDENCE_LEVEL:.0%} percentile intervals. The Kendall "
                "variants without grouping by item compare every pair of segments in each "
                "resample: with thousands of segments, use fewer resamples.",
            )
        )
    with c_seed:
        settings["seed"] = components.seed_input("meta_seed")
    with c_human:
        settings["include_human"] = bool(
            components.persistent(
                st.checkbox,
                "Human translations as systems",
                key="meta_include_human",
                help="Keep human translations with human scores (other than the references) "
                "as systems (meta-eval --include-human); default: left out, as "
                "mt-metrics-eval.",
            )
        )
    with c_human:
        settings["exclude_systems"] = tuple(
            components.remembered_multiselect(
                "Exclude systems",
                list(files.systems),
                key="meta_exclude",
                default=[],
                help="Leave these systems out of every correlation, test and pooled accuracy "
                "(meta-eval --exclude-systems), each named in a note.",
            )
        )
    named = meta_eval.domains(uploads)
    settings["domain"] = None
    if named:
        with c_human:
            label = components.persistent(
                st.selectbox,
                "Domain",
                ["all", *named],
                key="meta_domain",
                help="Only this domain's segments (the files' DOMAIN column), and at system "
                "level its .domain.score scores when given (meta-eval --domain), as "
                "mt-metrics-eval's domain=.",
            )
        settings["domain"] = None if label == "all" else label
    if level == "sys" and meta_eval.system_scores_from_files(uploads, gold, settings["domain"]):
        settings["n_resamples"] = 0
        st.caption(
            "System scores come from the .sys.score files: there are no segments to resample, "
            "so no confidence intervals at system level."
        )
    return settings


def _test_controls(uploads: Uploads, settings: dict) -> tuple[dict | None, int, int]:
    """Draw the controls of the PERM-BOTH tests and of soft pairwise accuracy; return the
    arguments of :func:`dashboard.data.meta_eval.perm_both_grids` (None: tests off, or
    system scores from files), the permutations and the seed."""
    c_run, c_res, c_seed = st.columns(3)
    c_alpha, c_corr = st.columns([2, 3])
    with c_run:
        run = components.persistent(
            st.toggle,
            "Test every pair of metrics (PERM-BOTH)",
            key="meta_perm_run",
            help="PERM-BOTH (Deutsch, Dror & Roth 2021), as the WMT metrics task since 2021: "
            "each item's two metric scores (standardised) swapped with probability 1/2. Pearson "
            "takes about a second on the sample; the rank correlations and tie-calibrated "
            "acc23 re-rank every permutation and can take minutes.",
        )
    with c_res:
        n_resamples = int(
            components.persistent(
                st.number_input,
                "Permutations",
                min_value=100,
                max_value=10_000,
                value=1000,
                step=100,
                key="meta_perm_resamples",
                help="Permutations of PERM-BOTH and of the paired tests behind soft pairwise "
                "accuracy.",
            )
        )
    with c_seed:
        seed = components.seed_input("meta_perm_seed")
    with c_alpha:
        alpha = components.alpha_input(
            "meta_alpha", help="Colours the PERM-BOTH grids and draws their clusters."
        )
    with c_corr:
        correction = components.correction_input("meta_correction")
    from_files = settings["level"] == "sys" and meta_eval.system_scores_from_files(
        uploads, settings["gold"], settings["domain"]
    )
    if not run or from_files:
        return None, n_resamples, seed
    shared = {k: v for k, v in settings.items() if k not in ("n_resamples", "seed")}
    return (
        {
            **shared,
            "n_resamples": n_resamples,
            "seed": seed,
            "alpha": alpha,
            "correction": correction,
        },
        n_resamples,
        seed,
    )


def render(uploads: Uploads) -> None:
    """Draw the segment-level section for ``uploads`` (segment-level data)."""
    presentation = components.presentation_mode()
    with components.input_errors():
        # parse first: a bad file stops here with one st.error; say what each was read as
        for line in meta_eval.shown(uploads).read_as.splitlines():
            st.caption(line)
    st.subheader("Segment-level meta-evaluation")
    st.caption(
        "How well does each metric agree with human scores, as the WMT metrics task measures "
        "it (google-research/mt-metrics-eval): correlations at segment or system level, "
        "averaged over items or systems, with bootstrap confidence intervals; system-level "
        "pairwise accuracy across language pairs (Kocmi et al. 2021)."
    )
    with components.controls_expander("Controls"):
        settings = _controls(uploads)
        tests, n_permutations, test_seed = _test_controls(uploads, settings)
        with components.input_errors(BOOTSTRAP_CONTROLS):
            result, problems = meta_eval.evaluation(uploads, **settings)
        lps = [lp.lp for lp in result.language_pairs]
        lp = components.remembered(
            st.selectbox, "Language pair (table, distribution)", lps, key="meta_lp", default=lps[0]
        )
    grids, test_problems = _perm_both_grids(uploads, tests)
    components.show_warnings(problems, controls=BOOTSTRAP_CONTROLS)
    components.show_warnings(test_problems, controls=PERMUTATION_CONTROLS)
    gold, n_resamples, seed = settings["gold"], settings["n_resamples"], settings["seed"]
    one = next(x for x in result.language_pairs if x.lp == lp)
    label = tables.META_SYMBOLS[result.correlation]
    variant = tables.meta_variant(result, gold=gold)
    resampled = (
        f"{CONFIDENCE_LEVEL:.0%} bootstrap intervals from {n_resamples:,} resamples of the "
        f"items, random seed **{seed}**."
        if n_resamples
        else "No confidence intervals (0 resamples)."
    )

    m1, m2, m3 = st.columns(3)
    m1.metric("Language pairs", len(lps))
    m2.metric(f"Systems ({lp})", one.n_systems)
    m3.metric(f"Items per system ({lp})", one.n_items)

    # ---- correlation table and dot chart ----
    st.subheader(f"{label} with humans: {components.escape_markdown(lp)}")
    tested = grids.get(lp)
    table = tables.meta_eval_table(one, tested.significance.rank if tested else None)
    left, right = components.two_columns([2, 3])
    with left:
        components.show_table(
            table,
            key="meta_table",
            filename=f"meta_eval_{result.correlation}_{lp}",
            caption=f"{variant}, {lp}, best first",
            column_config={
                "rank": st.column_config.NumberColumn("rank"),
                "cluster": st.column_config.NumberColumn(
                    "cluster", help="PERM-BOTH significance cluster (1 = top)"
                ),
                "correlation": st.column_config.NumberColumn(label, format="%.4f"),
                "ci_low": st.column_config.NumberColumn("CI low", format="%.4f"),
                "ci_high": st.column_config.NumberColumn("CI high", format="%.4f"),
                "epsilon": st.column_config.NumberColumn("ε", format="%.4g"),
                "groups": st.column_config.NumberColumn(
                    "groups", help="Groups (items or systems) in the average"
                ),
            },
        )
        clustered = (
            f" Cluster: PERM-BOTH significance cluster at α = {tested.significance.alpha:g} "
            f"({tables.CORRECTION_LABELS[tested.significance.correction]} correction)."
            if tested
            else ""
        )
        st.caption(f"{components.escape_markdown(variant)}; best first. {resampled}{clustered}")
    with right:
        components.show_figure(
            figures.meta_eval_dots(
                {x.lp: tables.meta_eval_table(x) for x in result.language_pairs},
                label=label,
                title=f"{label} with {gold} scores per language pair",
                cols=min(len(lps), 2 if presentation else 3),
            ),
            key="meta_dots",
            filename=f"meta_eval_{result.correlation}_all_lps",
        )

    # ---- per-group distribution ----
    if result.level == "seg" and result.grouping != "none":
        what = "item" if result.grouping == "item" else "system"
        st.subheader(
            f"Distribution of the per-{what} correlations: {components.escape_markdown(lp)}"
        )
        components.show_figure(
            figures.group_distributions(
                tables.meta_group_statistics(one),
                label=label,
                grouping=what,
                title=f"{label} per {what}, {lp} (dashed: mean, the reported value)",
            ),
            key="meta_groups",
            filename=f"meta_eval_{result.correlation}_per_{what}_{lp}",
        )
        st.caption(
            f"Each box holds one correlation per {what} (groups without one are left out); "
            "its mean is the value in the table."
        )
    else:
        st.caption("Choose grouping by item or by system to see the per-group correlations.")

    # ---- PERM-BOTH grids ----
    st.subheader(
        f"Which metric is significantly better (PERM-BOTH): {components.escape_markdown(lp)}"
    )
    if tested:
        _perm_both_section(grids, lp, label=label, variant=variant, seed=test_seed)
    else:
        st.info(
            "Switch on **Test every pair of metrics (PERM-BOTH)** under Controls for the "
            "significance grids and clusters (system scores read from .sys.score files cannot "
            "be permuted).",
            icon=":material/info:",
        )

    # ---- pairwise accuracy across language pairs ----
    st.subheader("System-level pairwise accuracy across language pairs")
    with components.input_errors(CONTROLS):
        accuracy, accuracy_problems = meta_eval.evaluation(
            uploads, gold=gold, level="sys", correlation="pairwise-accuracy",
            include_human=settings["include_human"], domain=settings["domain"],
            exclude_systems=settings["exclude_systems"],
        )  # fmt: skip
    components.show_warnings(accuracy_problems, controls=CONTROLS)
    pairwise = tables.pairwise_accuracy_table(accuracy)
    left, right = components.two_columns([2, 3])
    with left:
        components.show_table(
            pairwise,
            key="meta_pairwise_table",
            filename="pairwise_accuracy",
            caption=f"System-level pairwise accuracy against {gold} scores per language pair "
            "and pooled",
            column_config={c: st.column_config.NumberColumn(format="percent") for c in pairwise},
        )
        st.caption(
            "Share of system pairs that the metric orders as the humans do (system scores: "
            "means over the segments with a human score), per language pair and pooled over "
            "all pairs of all language pairs (Kocmi et al. 2021)."
        )
    with right:
        components.show_figure(
            figures.pairwise_accuracy_dots(
                pairwise, title=f"Pairwise accuracy against {gold} scores"
            ),
            key="meta_pairwise_fig",
            filename="pairwise_accuracy",
        )

    # ---- soft pairwise accuracy ----
    if not meta_eval.system_scores_from_files(uploads, gold, settings["domain"]):
        _soft_pairwise_section(uploads, gold=gold, n_resamples=n_permutations, seed=test_seed,
                               include_human=settings["include_human"],
                               domain=settings["domain"],
                               exclude_systems=settings["exclude_systems"])


def _perm_both_grids(uploads: Uploads, tests: dict | None) -> tuple[dict, tuple]:
    """:func:`dashboard.data.meta_eval.perm_both_grids` under a progress bar with a Stop
    button (outside the Controls, which presentation mode collapses); nothing when off."""
    if not tests:
        return {}, ()
    with components.input_errors(PERMUTATION_CONTROLS):
        return page_run.run_long(
            partial(meta_eval.perm_both_grids, uploads, **tests),
            text=f"Testing every pair of metrics (PERM-BOTH): {tests['n_resamples']:,} "
            "permutations …",
            key="meta_perm_both",
        )


def _perm_both_section(grids: dict, lp: str, *, label: str, variant: str, seed: int) -> None:
    """The PERM-BOTH grid of ``lp`` and of every language pair, with their captions."""
    tested = grids[lp]
    sig, n = tested.significance, tested.result.n_resamples
    note = (
        f"PERM-BOTH on {components.escape_markdown(variant)}, {n:,} permutations, random "
        f"seed **{seed}**. " + components.escape_markdown(tables.correction_note(sig))
    )
    title = f"PERM-BOTH, {tables.CORRECTION_LABELS[sig.correction]} correction, α = {sig.alpha:g}"
    left, right = components.two_columns()
    with left:
        components.show_figure(
            figures.perm_both_grid(tested.result, sig, label=label, title=f"{lp}: {title}"),
            key="meta_perm_grid",
            filename=f"perm_both_{lp}",
        )
        components.table_downloads(
            sig.pvalue_adjusted,
            key="meta_perm_pvalues",
            filename=f"perm_both_pvalues_{lp}",
            caption=f"PERM-BOTH p-values ({sig.correction}), {lp}; row better than column; "
            f"seed {seed}",
            label="p-values",
        )
    with right:
        st.caption(note)
        components.show_table(
            tables.cluster_table(tested.result.correlations, sig.rank),
            key="meta_perm_clusters",
            filename=f"perm_both_clusters_{lp}",
            caption=f"PERM-BOTH significance clusters (the WMT22-25 rule, MTME's AssignRanks), "
            f"{lp}",
            column_config={"correlation": st.column_config.NumberColumn(label, format="%.4f")},
            static=True,
        )
    if len(grids) > 1:
        shown = components.show_figure(
            figures.grids_side_by_side(
                {
                    key: figures.perm_both_grid(t.result, t.significance, label=label)
                    for key, t in grids.items()
                },
                cols=min(len(grids), 3),
                title=f"{title}, every language pair",
                panel_height=360,
                legible_columns=True,  # many metrics: stack the panels, labels never overlap
            ),
            key="meta_perm_all",
            filename="perm_both_all_lps",
        )
        components.abbreviation_legend(shown)
        st.caption(f"Every language pair: {note}")


def _soft_pairwise_section(
    uploads: Uploads,
    *,
    gold: str,
    n_resamples: int,
    seed: int,
    include_human: bool = False,
    domain: str | None = None,
    exclude_systems: tuple[str, ...] = (),
) -> None:
    """Soft pairwise accuracy per language pair and averaged over them."""
    st.subheader("Soft pairwise accuracy across language pairs")
    with components.input_errors(PERMUTATION_CONTROLS):
        soft, problems = meta_eval.soft_pairwise(
            uploads, gold=gold, n_resamples=n_resamples, seed=seed, include_human=include_human,
            domain=domain, exclude_systems=exclude_systems,
        )
    components.show_warnings(problems, controls=PERMUTATION_CONTROLS)
    table = tables.soft_pairwise_table(soft)
    components.show_table(
        table,
        key="meta_soft_table",
        filename="soft_pairwise_accuracy",
        caption=f"Soft pairwise accuracy against {gold} scores per language pair and averaged",
        column_config={c: st.column_config.NumberColumn(format="%.4f") for c in table},
    )
    st.caption(
        "Soft pairwise accuracy (Thompson et al. 2024, the WMT24 primary system-level "
        "statistic): 1 − mean |p_human − p_metric| over the system pairs, each p from a "
        "one-sided paired permutation test on the segments that humans scored for every "
        f"system ({n_resamples:,} permutations, random seed **{seed}**); the last column "
        "averages the language pairs."
    )
