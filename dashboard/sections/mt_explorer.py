"""The segment explorer of the "MT systems" page (imported by dashboard/views/mt_systems.py, not
a page of its own): for two chosen systems, every segment with its source, reference and both
hypotheses, sorted by how much it moves their difference (:func:`stats.segment_contributions`),
filterable by reference length and searchable.

Thin: widgets, the cached data of dashboard.data.mt_systems and dashboard.tables.explorer.
"""

from __future__ import annotations

import streamlit as st

from dashboard import components
from dashboard.data import mt_systems, uploads_from_widget
from dashboard.page_run import record_inputs
from dashboard.tables import explorer as explorer_tables

#: the library's argument names -> this page's controls (a refusal names what to change here)
CONTROLS = components.resamples_named("Resamples")


def render(inputs: tuple, block: tuple, systems: list[str], x: str, y: str) -> None:
    """The explorer for the page's ``inputs`` (kind, references, files, metric,
    higher_is_better), WMT ``block`` and ``systems``; ``x`` and ``y`` are the default pair."""
    kind, references, files = inputs[:3]
    st.subheader("Segment explorer")
    st.caption(
        "Which segments make the difference between two systems? For BLEU, chrF and TER a "
        "segment's contribution is the change in the corpus score difference when it is left "
        "out (D − D without the segment); for segment scores it is the segment's score "
        "difference. Largest |contribution| first."
    )
    c_a, c_b, c_src = st.columns([2, 2, 3])
    with c_a:
        a = components.remembered(st.selectbox, "System A", systems, key="mt_explore_a", default=x)
    with c_b:
        others = [s for s in systems if s != a]
        b = components.remembered(
            st.selectbox,
            "System B",
            others,
            key="mt_explore_b",
            default=y if y in others else others[0],
        )
    texts, source = None, ()
    if kind == mt_systems.KIND_TEXT:
        with c_src:
            source = uploads_from_widget(
                st.file_uploader(
                    "Source text (optional): one line per segment",
                    key="mt_explore_source",
                    help="Shown beside the reference and the two hypotheses.",
                )
            )
            record_inputs("mt_explore_source", source, sample=False)
            components.check_upload_memory("mt_explore_source", source, kept=False)
        with components.input_errors(CONTROLS):
            texts = mt_systems.segment_texts(references, files, a, b, source)
    with components.input_errors(CONTROLS):
        result = mt_systems.contributions(inputs, a, b, block)
    table = explorer_tables.explorer_table(result, texts)

    c_len, c_find = st.columns([3, 2])
    length = None
    if explorer_tables.LENGTH in table and len(table):
        lo, hi = int(table[explorer_tables.LENGTH].min()), int(table[explorer_tables.LENGTH].max())
        if lo < hi:
            with c_len:
                length = st.slider(
                    "Reference length (words)", lo, hi, (lo, hi), key="mt_explore_length"
                )
    with c_find:
        query = st.text_input(
            "Search", key="mt_explore_search", placeholder="a word of any text, or a segment id"
        )
    shown = explorer_tables.filter_segments(table, length=length, query=query)
    label = components.escape_markdown(result.label)
    st.caption(
        f"Δ {label} (A − B) = {result.difference:.4g}; showing {len(shown):,} of "
        f"{len(table):,} segments. A = {components.escape_markdown(a)}, "
        f"B = {components.escape_markdown(b)}."
    )
    components.show_table(
        shown,
        key="mt_explore_table",
        filename=f"mt_segments_{a}_vs_{b}",
        index=False,
        caption=f"Segments of {a} (A) and {b} (B), largest |contribution| to Δ {result.label} first",
        column_config={explorer_tables.CONTRIBUTION: st.column_config.NumberColumn(format="%.4g")},
    )
