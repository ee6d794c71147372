"""Warnings a page shows (components.show_warnings): a few stand alone, more are folded into
one expander saying how many; each is also stated in the page's report."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _script(n: int):
    import streamlit as st

    from dashboard import components, page_run

    report = page_run.start_report("Test page")
    components.show_warnings([f"metric m{k}: too few segments" for k in range(n)])
    st.session_state["notes"] = [v["text"] for v in report.notes.values()]


def test_many_warnings_fold_into_one_expander_with_their_count():
    at = AppTest.from_function(_script, args=(12,), default_timeout=60).run()
    assert [e.label for e in at.expander] == ["12 warnings"]
    assert len(at.expander[0].warning) == 12
    assert len(at.session_state["notes"]) == 12


def test_a_few_warnings_stand_alone():
    at = AppTest.from_function(_script, args=(2,), default_timeout=60).run()
    assert not at.expander and len(at.warning) == 2
