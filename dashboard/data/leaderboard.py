"""Cached data of the Leaderboard page: the files read once (:mod:`dashboard.data.meta_eval`),
a task set run by :func:`stats.analyses.task_set.rank_task_set`, and the table shaped from its
result."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from dashboard.data import Uploads
from dashboard.data._cache import cache_data
from dashboard.data._isolated import isolated, upload_values
from dashboard.data.meta_eval import load
from stats.analyses.task_set import load_task_set, rank_task_set
from stats.metaeval.task_set_presets import PRESETS, per_language_pair
from stats.metaeval.task_sets import TaskSet, TaskSetResult, read_task_set
from stats.readers.meta import parse_metric_name

#: choice label -> preset name (None: per language pair; "file": an uploaded task-set file)
CHOICES = {
    "Per language pair: system Pearson + segment Kendall by item": None,
    **{f"{name.upper()} findings' task set": name for name in PRESETS},
    "Task-set file (JSON / TOML)": "file",
}


#: the longest the page lets its clusters run (estimated before they start, as
#: :func:`stats.time_bounded` estimates them: a WMT24-size task set at 1,000 resamples about a
#: minute, at 10,000 about 9 minutes); a longer run is offered as :func:`cli_command`
PAGE_MAX_SECONDS = 300.0

#: what the page calls the library's arguments in its messages (every refusal names a control)
CONTROLS = {
    "input_format=long": "“Read text files as” → “long text”",
    "input_format": "“Read text files as”",
    "include_human=True": "the “Human translations as systems” control",
    "gold=NAME": "the “Human scores” control",
    "max_seconds": "the page's bound",
    "n_resamples": "“PERM-BOTH resamples per task”",
    "read it as system-level scores": "upload system-level scores on the Metrics vs humans page",
}


@dataclass(frozen=True)
class FilesSummary:
    """What the page shows of the files on every run (:func:`summary`)."""

    #: what each file was read as, one line per file
    read_as: str
    language_pairs: tuple
    #: the reference names (MTME ``references/``, WMT REFSETs, metric names' ``-refA``), sorted
    references: tuple
    #: the human score types
    gold_names: tuple
    #: the label of :data:`CHOICES` the page starts from (:func:`_default_choice`)
    default_choice: str


@cache_data(show_spinner=False, max_entries=16)
def summary(uploads: Uploads, input_format: str | None = None) -> FilesSummary:
    """What the page shows of the files on every run, cached on its own: a cache hit of
    :func:`~dashboard.data.meta_eval.load` unpickles all the data read (0.15 s of CPU for a
    WMT24-size archive), each time it is called."""
    data = load(uploads, input_format)
    return FilesSummary(
        read_as=data.read_as,
        language_pairs=tuple(data.language_pairs),
        references=_references(data),
        gold_names=tuple(data.gold_names()),
        default_choice=_default_choice(data),
    )


def _default_choice(data) -> str:
    """The WMT preset all of whose language pairs the data holds (the newest first), else
    per language pair."""
    lps = set(data.language_pairs)
    for label, name in reversed(list(CHOICES.items())):
        if name in PRESETS and all(lp in lps for t in PRESETS[name]().tasks for lp in t.lps):
            return label
    return next(iter(CHOICES))


def task_set(
    uploads: Uploads,
    choice: str,
    file: tuple | None = None,
    lps: tuple | None = None,
    input_format: str | None = None,
) -> TaskSet:
    """The task set chosen (``file``: an uploaded ``(name, bytes)``), restricted to the
    language pairs ``lps`` when given (as ``rank --lp``)."""
    name = CHOICES[choice]
    if name is None:
        chosen = per_language_pair(load(uploads, input_format).language_pairs)
    elif name == "file":
        chosen = read_task_set(file[0], text=file[1])
    else:
        chosen = load_task_set(name)
    return chosen.restricted(list(lps)) if lps else chosen


def _references(data) -> tuple:
    """The reference names of the data (MTME ``references/``, WMT REFSETs, metric names'
    ``-refA``), sorted."""
    names: set = set()
    for pair in data.pairs.values():
        names |= set(pair.references)
        for level in ("seg", "sys"):
            for m in pair.metrics[level]:
                refs = parse_metric_name(m, pair.references)[1]
                names |= set(refs or ())
    return tuple(sorted(names))


@cache_data(show_spinner=False, max_entries=16)
def ranking(
    uploads: Uploads,
    choice: str,
    file: tuple | None,
    *,
    gold: str | None,
    n_resamples: int,
    seed: int,
    alpha: float,
    confidence_resamples: int,
    lps: tuple | None = None,
    refs: tuple | None = None,
    primary_only: bool | None = None,
    include_human: bool | None = None,
    outliers: tuple = (),
    significance: bool = True,
    input_format: str | None = None,
    _progress: Callable[[float], None] | None = None,
) -> TaskSetResult:
    """The task set run on the files (cached on their content and the settings), with
    ``rank``'s choices: ``lps`` (``--lp``), ``refs`` (``--refs``), ``primary_only``,
    ``include_human`` and ``outliers`` (``((lp, systems), ...)``, ``--outliers``).
    ``significance=False``: the point ranking only, drawn at once while PERM-BOTH runs.
    ``_progress`` (not part of the cache key) receives the fraction of the tasks' PERM-BOTH
    resamples done while it runs (:func:`dashboard.page_run.run_long`)."""
    return isolated(  # in a child process: Stop ends it, the session's memory budget holds
        rank_task_set,
        load(uploads, input_format),
        task_set(uploads, choice, file, lps, input_format),
        work=float(n_resamples + confidence_resamples) * upload_values(uploads),
        n_resamples=n_resamples,
        rng=seed,
        alpha=alpha,
        gold=gold,
        refs=refs or None,
        primary_only=primary_only,
        include_human=include_human,
        outliers=dict(outliers),
        confidence_resamples=confidence_resamples,
        significance=significance,
        what="ranking the task set",
        progress=_progress,
        reduce="use fewer resamples or tasks",
    )


def leaderboard_table(result: TaskSetResult) -> pd.DataFrame:
    """One row per metric, best first: MTME's label (``*`` not primary, ``[noref]``), cluster,
    average, its interval, average rank, then each task's correlation."""
    rows = []
    for m in result.statistic.index:
        info = next(o.display[m] for o in result.tasks if m in o.display)
        rank = result.rank[m]
        row = {
            "metric": info.label,
            "cluster": float(rank),
            "average": float(result.statistic[m]),
        }
        if result.confidence_interval is not None:
            row["ci low"] = float(result.confidence_interval.loc[m, "low"])
            row["ci high"] = float(result.confidence_interval.loc[m, "high"])
        row["average rank"] = float(result.average_rank.get(m, float("nan")))
        for i, o in enumerate(result.tasks):
            row[f"{i + 1}: {o.task.label}"] = (
                float(o.correlations[m]) if m in o.correlations.index else float("nan")
            )
        rows.append(row)
    table = pd.DataFrame(rows).set_index("metric")
    table["cluster"] = table["cluster"].astype("Int64")  # <NA>: in no cluster
    return table


def left_out_table(result: TaskSetResult) -> pd.DataFrame:
    """The metrics read but not ranked, and why."""
    return pd.DataFrame(
        {"metric": list(result.left_out), "left out, because": list(result.left_out.values())}
    ).set_index("metric")


def task_table(result: TaskSetResult, index: int) -> pd.DataFrame:
    """One task's metrics, best first: correlation and cluster."""
    o = result.tasks[index]
    return pd.DataFrame(
        {
            "metric": [o.display[m].label for m in o.metrics],
            "correlation": [float(o.correlations[m]) for m in o.metrics],
            "cluster": pd.array(
                [None if pd.isna(o.rank[m]) else int(o.rank[m]) for m in o.metrics], dtype="Int64"
            ),
        }
    ).set_index("metric")


def cli_command(
    uploads: Uploads,
    choice: str,
    file: tuple | None,
    *,
    gold: str | None,
    n_resamples: int,
    seed: int,
    alpha: float,
    lps: tuple | None = None,
    refs: tuple | None = None,
    primary_only: bool | None = None,
    include_human: bool | None = None,
    outliers_name: str | None = None,
    input_format: str | None = None,
) -> str:
    """The ``mt-stats rank`` command that computes what the page would, on the files as the
    user has them (their upload names): for a run longer than :data:`PAGE_MAX_SECONDS`."""
    name = CHOICES[choice]
    args = ["mt-stats", "rank", "--data", *(n for n, _ in uploads)]
    if name is None:
        args += ["--task-set", "per-lp"]
    else:
        args += ["--task-set", file[0] if name == "file" else name]
    if lps:
        args += ["--lp", *lps]
    if refs:
        args += ["--refs", *refs]
    if gold:
        args += ["--gold", gold]
    if primary_only is True:
        args.append("--primary-only")
    elif primary_only is False:
        args.append("--all-metrics")
    if include_human:
        args.append("--include-human")
    if outliers_name:
        args += ["--outliers", outliers_name]
    if input_format:
        args += ["--input-format", input_format]
    args += ["--resamples", str(n_resamples), "--seed", str(seed), "--alpha", f"{alpha:g}",
             "--confidence-resamples", "200", "--format", "tsv"]
    return shlex.join(args)
