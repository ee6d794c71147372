"""Controls of the "MT systems" page (imported by dashboard/views/mt_systems.py, not a page of
its own): for WMT metrics task segment-level files, which language pair, test set and reference
(REFSET) of the chosen metric give the systems' segment scores; which systems to leave out."""

from __future__ import annotations

import streamlit as st

from dashboard import components


def wmt_block(options, metric: str, *, prefix: str = "mt_score", lp: str | None = None) -> tuple:
    """Selectors of the language pair (key ``{prefix}_lp``) and, where the metric has several,
    the test set (``{prefix}_testset``) and reference (``{prefix}_refset``, the test set's own
    first) of :class:`stats.analyses.ScoreFileOptions` ``options``; returns the ``(lp, testset,
    refset)`` block for :func:`dashboard.data.mt_systems.statistics` (``()`` for files that
    are not WMT ones). ``lp``: the language pair shown first, when the files have it (e.g. the
    one of the human judgements)."""
    if not options.wmt or metric not in options.metrics:
        return ()
    lps = options.lps(metric)
    chosen_lp = _choose("Language pair (LP)", lps, f"{prefix}_lp", always=True,
                        default=lp if lp in lps else None)
    testset = _choose("Test set", options.testsets(metric, chosen_lp), f"{prefix}_testset")
    refset = _choose(
        "Reference (REFSET)",
        options.refsets(metric, chosen_lp, testset),
        f"{prefix}_refset",
        help="The test set's own reference first; each reference gives other segment scores, "
        "and a human translation used as a reference is no system of its block.",
    )
    return (chosen_lp, testset, refset)


def _choose(label: str, values: list, key: str, *, always: bool = False, help=None,
            default=None):
    """A remembered selectbox of ``values`` (``default``, else the first, on the first run),
    drawn when there is a choice (or ``always``); else the only value."""
    if len(values) == 1 and not always:
        return values[0]
    return components.remembered(st.selectbox, label, values, key=key,
                                 default=values[0] if default is None else default, help=help)


def block_caption(block: tuple, metric: str) -> None:
    """Say which block of WMT files the page shows."""
    if block:
        lp, testset, refset = block
        st.caption(
            components.escape_markdown(
                f"WMT metrics task segment scores: {metric}, {lp}, test set {testset}, "
                f"reference {refset}; item = (DOCID, SEGID)."
            )
        )


def exclusion(systems) -> tuple:
    """The multiselect (key ``mt_exclude``) of systems to leave out of every test and table;
    at least two systems stay."""
    systems = list(systems)
    return tuple(
        components.remembered_multiselect(
            "Exclude systems",
            systems,
            key="mt_exclude",
            default=[],
            max_selections=max(len(systems) - 2, 1),
            help="Left out of every test, table and figure below, as if not uploaded.",
        )
    )


def exclusion_caption(excluded: tuple, kept: int) -> None:
    """Say which systems were left out."""
    if excluded:
        names = ", ".join(excluded)
        st.caption(
            components.escape_markdown(
                f"Left out: {names} ({len(excluded)} system{'s' * (len(excluded) > 1)}); "
                f"every test and table is computed on the other {kept}."
            )
        )
