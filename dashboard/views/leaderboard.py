"""Page "Leaderboard": metrics ranked by a task set as the WMT23-25 metrics findings rank them
(weighted average of correlations moved to [0, 1], PERM-BOTH p-values of the average from the
tasks' draws combined, clusters), with a drill-down into any task.

Thin: reads widgets, calls dashboard.data.leaderboard (cached) and draws
dashboard.figures.leaderboard.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from dashboard import components, page_run, url_state
from dashboard.components.power_note import leaderboard_mde_note
from dashboard.data import leaderboard, samples
from dashboard.figures.leaderboard import ranking_dots
from dashboard.sections.metrics_choice import outliers_upload
from stats import OverTimeBound, time_bounded

SAMPLE_NOTE = (
    "Showing the bundled **synthetic sample data** (sample_data/meta/wmt-sample.zip: invented "
    "segment scores of 6 systems x 200 segments in MTME's layout, MQM and DA human scores). "
    "Upload your own files above to rank their metrics."
)

url_state.load_url("leaderboard", url_state.LEADERBOARD)

st.title("Leaderboard")
st.caption(
    "Which metrics are best across many tasks? Every task (language pair x level x correlation) "
    "is run with PERM-BOTH; the correlations, moved to [0, 1], are averaged with the task "
    "weights, and metrics are ranked in significance clusters from the tasks' resampling draws "
    "combined (WMT23-25 metrics findings; mt-metrics-eval's TaskSet)."
)

uploads, is_sample = components.file_input(
    "Segment-level data: a directory in mt-metrics-eval's layout as .zip or .tar.gz, long text "
    "or wide CSV (as on Metrics vs humans)",
    key="board_upload",
    sample=samples.sample_files("meta", samples.META_SAMPLE_FILES),
    sample_note=SAMPLE_NOTE,
)

READ_AS = {"detected from each file": None, "long text": "long", "wide CSV": "wide",
           "WMT segment scores": "wmt-seg"}
input_format = READ_AS[
    components.persistent(
        st.selectbox,
        "Read text files as",
        list(READ_AS),
        key="board_input_format",
        help="As the CLI's --input-format: a file whose first line fits two formats is "
        "refused until you choose here.",
    )
]
with components.input_errors(leaderboard.CONTROLS):
    files = leaderboard.summary(uploads, input_format)
    golds = list(files.gold_names)
    default_choice = files.default_choice
    data_lps = list(files.language_pairs)
    data_refs = list(files.references)
    for line in files.read_as.splitlines():
        st.caption(line)

with components.controls_expander("Controls"):
    c1, c2, c3 = st.columns([3, 2, 2])
    with c1:
        choice = components.remembered(
            st.selectbox,
            "Task set",
            list(leaderboard.CHOICES),
            key="board_task_set",
            default=default_choice,
            help="The findings' task lists come from mt-metrics-eval's tasks.py; a file "
            'holds {"tasks": [{"lp", "level", "correlation", "grouping", "weight"}, ...]}.',
        )
        file = None
        if leaderboard.CHOICES[choice] == "file":
            up = st.file_uploader("Task-set file", type=["json", "toml"], key="board_ts_file")
            if up is None:
                st.info("Upload a task-set file (JSON or TOML) to run it.")
                st.stop()
            file = (up.name, up.getvalue())
            page_run.record_inputs("board_ts_file", (file,), sample=False)
    with c2:
        gold_options = ["standard / only one", *golds]
        gold_label = components.remembered(
            st.selectbox,
            "Human scores",
            gold_options,
            key="board_gold",
            default="mqm" if "mqm" in golds else gold_options[0],
        )
        n_resamples = int(
            components.number_setting(
                "PERM-BOTH resamples per task",
                key="board_resamples",
                default=1000,
                min_value=100,
                max_value=10_000,
                step=100,
            )
        )
    with c3:
        alpha = components.alpha_input("board_alpha")
        seed = components.seed_input("board_seed")
    c4, c5, c6 = st.columns([3, 2, 2])
    with c4:
        lps = components.persistent(
            st.multiselect,
            "Language pairs",
            data_lps,
            key="board_lps",
            help="Only these language pairs' tasks (as rank --lp); empty: all of them.",
        )
        refs = components.persistent(
            st.multiselect,
            "References",
            data_refs,
            key="board_refs",
            help="References a metric may use (as rank --refs); empty: the standard one per "
            "language pair. Metrics of other references are listed as left out.",
        )
    with c5:
        primary_label = components.persistent(
            st.radio,
            "Metrics",
            ["task set's choice", "primary only", "all metrics"],
            key="board_primary",
            help="Primary metrics of a known test set only (rank --primary-only), or primary "
            "and contrastive ones (rank --all-metrics).",
        )
        include_human = components.persistent(
            st.checkbox,
            "Human translations as systems",
            key="board_include_human",
            help="Keep human translations with human scores as systems (rank "
            "--include-human); default: left out, as mt-metrics-eval.",
        )
    with c6:
        outliers = outliers_upload("board_outliers_file")

url_state.write_url(url_state.LEADERBOARD)  # before the long run: a link made while it runs
gold = None if gold_label == gold_options[0] else gold_label
settings = partial(
    leaderboard.ranking,
    uploads,
    choice,
    file,
    gold=gold,
    n_resamples=n_resamples,
    seed=seed,
    alpha=alpha,
    confidence_resamples=200,
    lps=tuple(lps) or None,
    refs=tuple(refs) or None,
    primary_only={"primary only": True, "all metrics": False}.get(primary_label),
    include_human=True if include_human else None,
    outliers=outliers,
    input_format=input_format,
)


def draw(result, slot, *, provisional: bool) -> None:
    """The ranking chart into ``slot`` (the point ranking first, then the final one)."""
    table = leaderboard.leaderboard_table(result)
    ci = result.confidence_interval
    fig = ranking_dots(
        list(table.index),
        table["average"],
        table["cluster"],
        low=None if ci is None else table["ci low"],
        high=None if ci is None else table["ci high"],
        title=f"{result.task_set.name}: {len(result.tasks)} tasks"
        + (" (provisional: no clusters yet)" if provisional else ""),
    )
    with slot.container(key="board_chart_point" if provisional else "board_chart"):
        components.abbreviation_legend(
            components.show_figure(
                fig,
                key="board_dots_point" if provisional else "board_dots",
                filename="leaderboard",
            )
        )


chart_slot = st.empty()
over_bound = None
# bounded by memory before a run and by time while it runs (progress, Stop, the queue): no
# operation count refuses a WMT-size task set; clusters estimated to take longer than the
# page's bound are offered as the command that computes them
with components.input_errors(leaderboard.CONTROLS), time_bounded():
    point = settings(significance=False)  # correlations and averages: seconds
    draw(point, chart_slot, provisional=True)
    try:
        with time_bounded(max_seconds=leaderboard.PAGE_MAX_SECONDS):
            result = page_run.run_long(
                settings,
                text=f"Clusters: PERM-BOTH, {n_resamples:,} resamples per task … (the chart "
                "above is the point ranking; its clusters follow)",
                key="board_ranking",
            )
    except OverTimeBound as exc:
        over_bound, result = exc, point
if over_bound is None:
    draw(result, chart_slot, provisional=False)
else:
    fewer = (
        f"lower “PERM-BOTH resamples per task” to at most {over_bound.most:,}, "
        if over_bound.most and over_bound.most >= 100
        else ""
    )
    st.warning(
        f"Clusters not computed: PERM-BOTH at {n_resamples:,} resamples per task would take "
        f"about {over_bound.seconds / 60:,.0f} min here, over this page's bound of "
        f"{leaderboard.PAGE_MAX_SECONDS / 60:,.0f} min. The chart shows the point ranking; "
        f"{fewer}choose fewer “Language pairs”, or run the same ranking with the command "
        "line (progress on its terminal, any length):",
        icon=":material/schedule:",
    )
    st.code(
        leaderboard.cli_command(
            uploads,
            choice,
            file,
            gold=gold,
            n_resamples=n_resamples,
            seed=seed,
            alpha=alpha,
            lps=tuple(lps) or None,
            refs=tuple(refs) or None,
            primary_only={"primary only": True, "all metrics": False}.get(primary_label),
            include_human=True if include_human else None,
            outliers_name=st.session_state.get("board_outliers_file").name
            if outliers and st.session_state.get("board_outliers_file") is not None
            else None,
            input_format=input_format,
        ),
        language="bash",
    )

components.seed_caption(seed, n_resamples=n_resamples)
for note in result.notes:
    st.caption(components.escape_markdown(components.page_words(note, leaderboard.CONTROLS)))
if result.left_out:
    st.caption("Left out, because …")
    components.show_table(
        leaderboard.left_out_table(result), key="board_left_out", filename="left-out"
    )

table = leaderboard.leaderboard_table(result)
st.caption(
    "Dots: weighted average; whiskers: 95% percentile bootstrap interval (items resampled per "
    "task, 200 resamples); dotted lines separate significance clusters at "
    f"α = {alpha:g}. `*` marks a metric that is not primary, `[noref]` a source-based one."
)
with st.container(key="board_table_box"):
    components.show_table(table, key="board_table", filename="leaderboard", float_format="%.4f")
leaderboard_mde_note(result, alpha)  # MDE beside the pairs not separated

st.subheader("One task")
names = [
    f"{i + 1}: {o.task.label} (weight {w:.3g})"
    for i, (o, w) in enumerate(zip(result.tasks, result.weights, strict=True))
]
picked = components.remembered(st.selectbox, "Task", names, key="board_task", default=names[0])
index = names.index(picked)
outcome = result.tasks[index]
st.caption(
    f"{outcome.task.name}; gold {outcome.gold}; references {', '.join(outcome.refs) or '-'}; "
    f"{outcome.n_systems} systems x {outcome.n_items} segments."
)
task_tab = leaderboard.task_table(result, index)
task_fig = ranking_dots(
    list(task_tab.index),
    task_tab["correlation"],
    task_tab["cluster"],
    title=outcome.task.label,
    x_title=outcome.task.correlation,
)
with st.container(key="board_task_chart"):
    components.abbreviation_legend(
        components.show_figure(task_fig, key="board_task_dots", filename=f"task-{index + 1}")
    )
