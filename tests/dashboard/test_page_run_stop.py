"""dashboard.page_run.run_steps: its Stop button, and the run that follows a click on it."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.dashboard.helpers import assert_no_exception


def _script():
    import streamlit as st

    from dashboard import page_run

    calls = st.session_state.setdefault("calls", [])

    @st.cache_data
    def square(x, _progress=None):
        calls.append(x)
        if _progress:
            _progress(1.0)
        return x * x

    out = page_run.run_steps([("one", lambda _progress: square(3, _progress))], text="Working")
    st.write(f"result {out[0]}")


def _stop_key():
    from dashboard.page_run import _stop_key

    return _stop_key("Working", None)


def test_steps_run_and_leave_no_bar_or_button_behind():
    at = AppTest.from_function(_script).run()
    assert_no_exception(at)
    assert at.markdown[-1].value == "result 9"
    assert not at.button  # the Stop button went with the bar
    assert at.session_state["calls"] == [3]


def test_the_run_after_a_click_on_stop_computes_nothing_and_says_so():
    at = AppTest.from_function(_script)
    at.session_state[_stop_key()] = True  # the button's value in the run its click triggers
    at.run()
    assert_no_exception(at)
    assert "calls" not in at.session_state or at.session_state["calls"] == []
    assert any("Stopped: Working was interrupted" in i.value for i in at.info)
    assert [b.label for b in at.button] == ["Run again"]
    assert not any("result" in m.value for m in at.markdown)
    # Run again: a button is True for one run only (AppTest keeps a value set by hand)
    at.session_state[_stop_key()] = False
    at.button[0].click().run()  # computes afresh
    assert_no_exception(at)
    assert at.markdown[-1].value == "result 9"


def test_a_stop_after_a_completed_run_keeps_its_results_and_names_the_running_step():
    at = AppTest.from_function(_script).run()
    assert at.markdown[-1].value == "result 9"
    # the step that was running when Stop was clicked, as its bar named it
    at.session_state[f"{_stop_key()}_running"] = "Approximate randomization: 1,000 resamples"
    at.session_state[_stop_key()] = True
    at.run()
    assert_no_exception(at)
    info = " ".join(i.value for i in at.info)
    assert "Stopped: Approximate randomization: 1,000 resamples was interrupted" in info
    assert "the last ones computed" in info
    assert at.markdown[-1].value == "result 9"  # the results shown before stay
    assert len(at.session_state["calls"]) <= 1  # nothing computed again


def _priority_script():
    import os
    import threading

    import streamlit as st

    from dashboard import page_run

    def nice() -> int:
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    before = nice()
    inside = page_run.run_steps([("one", lambda _progress: nice())], text="Working")[0]
    st.write(f"nice {before} {inside}")


def test_steps_run_at_the_threads_own_priority():
    """The server's threads are never lowered (a lowered thread on a busy machine holds up a
    Stop, a freed slot and every thread waiting for the interpreter's lock); the long
    computations' child processes are (dashboard.data._isolated.HEAVY_NICE)."""
    at = AppTest.from_function(_priority_script).run()
    assert_no_exception(at)
    _, before, inside = at.markdown[-1].value.split()
    assert before == inside
