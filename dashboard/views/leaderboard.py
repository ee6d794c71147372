"""Page "Leaderboard": metrics ranked by a task set as the WMT23-25 metrics findings rank them
(weighted average of correlations moved to [0, 1], PERM-BOTH p-values of the average from the
tasks' draws combined, clusters), with a drill-down into any task.

Thin: reads widgets, calls dashboard.data.leaderboard (cached) and draws
dashboard.figures.leaderboard.
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from dashboard import components, page_run
from dashboard.data import leaderboard, samples
from dashboard.figures.leaderboard import ranking_dots

SAMPLE_NOTE = (
    "Showing the bundled **synthetic sample data** (sample_data/meta/wmt-sample.zip: invented "
    "segment scores of 6 systems x 200 segments in MTME's layout, MQM and DA human scores). "
    "Upload your own files above to rank their metrics."
)

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

with components.input_errors():
    golds = list(leaderboard.gold_names(uploads))
    default_choice = leaderboard.default_choice(uploads)

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

gold = None if gold_label == gold_options[0] else gold_label
with components.input_errors():
    result = page_run.run_long(
        partial(
            leaderboard.ranking,
            uploads,
            choice,
            file,
            gold=gold,
            n_resamples=n_resamples,
            seed=seed,
            alpha=alpha,
            confidence_resamples=200,
        ),
        text=f"Running the task set: PERM-BOTH, {n_resamples:,} resamples per task …",
        key="board_ranking",
    )

components.seed_caption(seed, n_resamples=n_resamples)
for note in result.notes:
    st.caption(note)

table = leaderboard.leaderboard_table(result)
labels = list(table.index)
ci = result.confidence_interval
fig = ranking_dots(
    labels,
    table["average"],
    table["cluster"],
    low=None if ci is None else table["ci low"],
    high=None if ci is None else table["ci high"],
    title=f"{result.task_set.name}: {len(result.tasks)} tasks",
)
with st.container(key="board_chart"):
    components.show_figure(fig, key="board_dots", filename="leaderboard")
st.caption(
    "Dots: weighted average; whiskers: 95% percentile bootstrap interval (items resampled per "
    "task, 200 resamples); dotted lines separate significance clusters at "
    f"α = {alpha:g}. `*` marks a metric that is not primary, `[noref]` a source-based one."
)
with st.container(key="board_table_box"):
    components.show_table(table, key="board_table", filename="leaderboard", float_format="%.4f")

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
    components.show_figure(task_fig, key="board_task_dots", filename=f"task-{index + 1}")
