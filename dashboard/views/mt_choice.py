"""The block controls of the "MT systems" page for WMT metrics task segment-level files
(imported by dashboard/views/mt_systems.py, not a page of its own): which language pair, test
set and reference (REFSET) of the chosen metric give the systems' segment scores."""

from __future__ import annotations

import streamlit as st

from dashboard import components


def wmt_block(options, metric: str) -> tuple:
    """Selectors of the language pair (key ``mt_score_lp``) and, where the metric has several,
    the test set (``mt_score_testset``) and reference (``mt_score_refset``, the test set's own
    first) of :class:`stats.analyses.ScoreFileOptions` ``options``; returns the ``(lp, testset,
    refset)`` block for :func:`dashboard.data.mt_systems.statistics` (``()`` for files that
    are not WMT ones)."""
    if not options.wmt or metric not in options.metrics:
        return ()
    lps = options.lps(metric)
    lp = components.remembered(
        st.selectbox, "Language pair (LP)", lps, key="mt_score_lp", default=lps[0]
    )
    testsets = options.testsets(metric, lp)
    testset = testsets[0]
    if len(testsets) > 1:
        testset = components.remembered(
            st.selectbox, "Test set", testsets, key="mt_score_testset", default=testsets[0]
        )
    refsets = options.refsets(metric, lp, testset)
    refset = refsets[0]
    if len(refsets) > 1:
        refset = components.remembered(
            st.selectbox,
            "Reference (REFSET)",
            refsets,
            key="mt_score_refset",
            default=refsets[0],
            help="The test set's own reference first; each reference gives other segment "
            "scores, and a human translation used as a reference is no system of its block.",
        )
    return (lp, testset, refset)


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
