"""The reference and system controls of the "Metrics vs humans" page (imported by
dashboard/views/metrics.py, not a page of its own): which reference of WMT metrics task files,
which metrics use no reference, which systems to leave out; and the captions saying what the
workflow left out of each block (:class:`stats.analyses.metrics.BlockSelection`)."""

from __future__ import annotations

from collections import Counter
from fnmatch import fnmatchcase

import pandas as pd
import streamlit as st

from dashboard import components, tables
from dashboard.page_run import record_inputs, record_note
from dashboard.sections import left_out


def controls(frame: pd.DataFrame) -> tuple:
    """Widgets for the scores ``frame`` (:attr:`stats.readers.system_level.SystemScores.frame`);
    returns the choice for :func:`dashboard.data.metrics.analysis`. The reference controls
    appear only for files that name references (REFSET)."""
    if "refset" in frame:
        c_ref, c_free, c_excl, c_out = st.columns([2, 2, 3, 3])  # room for the longest label
        options = tables.metric_options(frame)
        free = components.remembered_multiselect(
            "Reference-free metrics",
            options,
            key="metrics_reference_free",
            default=source_based(frame),
            help="Metrics that use no reference (QE): they join every reference block. "
            "Preselected: the metrics whose every REFSET is 'src'.",
        )
    else:
        (c_excl, c_out), c_ref, free = st.columns([5, 3]), None, []
    refsets = tables.refset_options(frame, free)
    refset = None
    if refsets:
        with c_ref:
            refset = components.persistent(
                st.selectbox,
                "Reference",
                refsets,
                format_func=tables.refset_label,
                key="metrics_refset",
                help="Default: the test set's own reference; all: one block per reference.",
            )
    systems = sorted(pd.unique(frame["system"]))
    humans = [s for s in systems if any(fnmatchcase(s, p) for p in HUMAN_PATTERNS)]
    with c_excl:
        excluded = components.remembered_multiselect(
            "Exclude systems", systems, key="metrics_exclude", default=[]
        )
    with c_out:
        outliers = components.persistent(
            st.checkbox, "Exclude MAD outliers", key="metrics_outliers", help=tables.MAD_HELP
        )
        published = outliers_upload("metrics_outliers_file")
        no_humans = False
        if humans:
            if "metrics_no_humans" not in st.session_state:  # default on, as in MTME
                st.session_state["metrics_no_humans"] = True
            no_humans = components.persistent(
                st.checkbox,
                f"Leave out human translations ({len(humans)})",
                key="metrics_no_humans",
                help="Systems named like a human translation ("
                + ", ".join(HUMAN_PATTERNS)
                + "), as the CLI's --exclude-systems 'Human-*' and mt-metrics-eval's default: "
                "most metrics do not score them.",
            )
    patterns = tuple(excluded) + (HUMAN_PATTERNS if no_humans else ())
    return (refset, tuple(free), patterns, bool(outliers), published)


def outliers_upload(key: str) -> tuple:
    """An uploader for WMT's ``outliers.json``; its systems as ``((lp, systems), ...)``
    (``()`` without a file; a bad file is one error line and stops the page)."""
    from stats.metaeval.outliers import read_outliers_json

    up = st.file_uploader(
        "WMT outliers.json",
        type=["json"],
        key=key,
        help="WMT's published outlier systems, {language pair: [system, ...]}: left out of "
        "their language pair.",
    )
    if up is None:
        return ()
    data = up.getvalue()
    record_inputs(key, ((up.name, data),), sample=False)  # the report lists it, with its SHA-256
    with components.input_errors():
        found = read_outliers_json(data, name=up.name)
    record_note(
        f"{key}_systems",
        "left out",
        f"WMT outlier systems ({up.name}), left out of their language pair: "
        + ("; ".join(f"{lp}: {', '.join(s)}" for lp, s in found.items()) or "none"),
    )
    return tuple((lp, tuple(s)) for lp, s in found.items())


#: shell patterns of the names WMT and MTME give human translations
HUMAN_PATTERNS = ("Human-*", "human-*", "ref*", "Ref*")


def source_based(frame: pd.DataFrame) -> list:
    """Metrics whose every REFSET is ``src`` (scored against the source: QE)."""
    if "refset" not in frame:
        return []
    rows = frame[frame["metric"] != "HUMAN"]
    refs = rows.groupby("metric")["refset"].agg(lambda r: set(r) == {"src"})
    return sorted(m for m, only_src in refs.items() if only_src)


#: up to this many files, one "read as" caption each; more (a zip of a WMT year's published
#: files: 33 for WMT23) get one summary line and the per-file captions in an expander
READ_AS_LINES = 3


def read_as_summary(scores) -> str | None:
    """One line for all the files of ``scores`` (a
    :class:`stats.readers.system_level.SystemScores`): how many files, read as what (with
    counts per kind, :attr:`~stats.readers.system_level.SystemScores.formats`), and the
    language pairs and metrics they hold together. None when the formats are not known for
    every file (each file's line is shown instead)."""
    if not scores.formats or len(scores.formats) != len(scores.files):
        return None
    frame = scores.frame
    kinds = Counter(scores.formats)
    n_lp = frame["lp"].nunique()
    n_metrics = frame.loc[frame["metric"] != "HUMAN", "metric"].nunique()
    human = (frame["metric"] == "HUMAN").any()
    return (
        f"Read {len(scores.formats)} files: "
        + "; ".join(f"{n} as {kind}" for kind, n in kinds.most_common())
        + f". Together {n_lp} LP{'s' if n_lp != 1 else ''}, {n_metrics} "
        f"metric{'s' if n_metrics != 1 else ''}{', human scores' if human else ''}."
    )


def read_as_captions(scores) -> None:
    """What each file of ``scores`` was read as: a caption per file for a few files; for more,
    one summary line (:func:`read_as_summary`) with every file's caption in an expander."""
    lines = scores.read_as.splitlines()
    summary = read_as_summary(scores) if len(lines) > READ_AS_LINES else None
    if summary is None:
        for line in lines:
            st.caption(components.escape_markdown(line))
        return
    st.caption(components.escape_markdown(summary))
    with st.expander(f"What each file was read as ({len(lines)} files)", key="metrics_read_as"):
        for line in lines:
            st.caption(components.escape_markdown(line))


def captions(analyses: dict) -> None:
    """One caption per block that lost systems or metrics."""
    for key, block in analyses.items():
        if note := tables.selection_note(key, block.selection):
            st.caption(components.escape_markdown(note))


def left_out_summary(result, analysis) -> None:
    """One collapsed summary of everything the workflow left out (the workflow's messages and
    each block's exclusions), grouped by reason with counts -- never a box per message."""
    groups = left_out.summarise(result.warnings + analysis.warnings, result.problems)
    other = [g for g in groups if g.reason == left_out.OTHER]
    groups = [g for g in groups if g.reason != left_out.OTHER]
    if other:  # warnings about the results (not what was left out): one box, repeats folded
        lines = left_out.fold_repeats(m for items in other[0].lines.values() for m in items)
        st.warning(
            "\n".join(f"- {components.escape_markdown(m)}" for m in lines),
            icon=":material/warning:",
        )
    notes = [
        (key, note)
        for key, block in result.analyses.items()
        if (note := tables.selection_note(key, block.selection))
    ]
    for g in groups:  # the report says what was left out, and why, as the page does
        record_note(
            f"metrics_left_out_{g.reason}",
            "left out",
            f"{g.reason} ({g.count}): "
            + "; ".join(f"{where}: {', '.join(items)}" for where, items in g.lines.items()),
        )
    for key, note in notes:
        record_note(f"metrics_left_out_block_{key}", "left out", note)
    if not groups and not notes:
        return
    title = left_out.headline(groups) or "Left out: systems by your choice"
    with st.expander(components.escape_markdown(title), expanded=False, key="metrics_left_out"):
        for g in groups:
            st.markdown(f"**{components.escape_markdown(g.reason)}** ({g.count})")
            st.markdown(
                "\n".join(
                    f"- {components.escape_markdown(where)}: "
                    f"{components.escape_markdown(', '.join(items))}"
                    for where, items in g.lines.items()
                )
            )
        if notes:
            st.markdown("**Systems and metrics left out per block**")
            st.markdown("\n".join(f"- {components.escape_markdown(note)}" for _, note in notes))
