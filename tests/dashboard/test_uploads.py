"""AppTest: uploads survive page switches (components.file_input keeps them per session).

Streamlit drops the state of a widget that is not rendered, so the uploader comes back empty
after a visit to another page; file_input must keep analysing the user's files, say so, offer
a button to go back to the sample, and forget the files when the user removes them.
"""

from __future__ import annotations

from dashboard.state import upload_store_key
from tests.dashboard.helpers import assert_no_exception


def _wide_csv(lp: str = "zz-en") -> list[tuple[str, bytes, str]]:
    rows = ["system,human,BLEU,chrF,lp"]
    for i in range(7):
        rows.append(f"s{i},{0.1 * i:.2f},{10 + 3 * i + (i % 3)},{40 + 2 * i - (i % 2)},{lp}")
    return [("my_scores.csv", ("\n".join(rows) + "\n").encode(), "text/csv")]


def _infos(at) -> str:
    return " ".join(i.value for i in at.info)


def _upload(fresh_run, lp: str = "zz-en"):
    at = fresh_run()
    at.file_uploader(key="metrics_upload").set_value(_wide_csv(lp)).run()
    assert_no_exception(at)
    assert at.selectbox(key="metrics_lp").options == [lp]
    return at


def test_uploads_survive_switching_pages(fresh_run):
    at = _upload(fresh_run)
    at.switch_page("views/qe.py").run()
    assert_no_exception(at)
    at.switch_page("views/metrics.py").run()
    assert_no_exception(at)
    assert not at.error
    # the analysis is still on the uploaded data, and the page says so
    assert at.selectbox(key="metrics_lp").options == ["zz-en"]
    assert "Using your uploaded files: my\\_scores.csv" in _infos(at)
    assert "synthetic sample data" not in _infos(at)
    # later reruns (a control change) keep them too
    at.radio(key="metrics_alpha").set_value(0.01).run()
    assert at.selectbox(key="metrics_lp").options == ["zz-en"]


def test_clear_button_returns_to_the_sample(fresh_run):
    at = _upload(fresh_run)
    at.switch_page("views/human.py").run()
    at.switch_page("views/metrics.py").run()
    at.button(key="metrics_upload_clear").click().run()
    assert_no_exception(at)
    assert "synthetic sample data" in _infos(at)
    assert at.selectbox(key="metrics_lp").options == ["es-en", "de-en", "fr-en", "cs-en"]
    assert upload_store_key("metrics_upload") not in at.session_state


def test_removing_the_files_in_the_widget_returns_to_the_sample(fresh_run):
    at = _upload(fresh_run)
    at.file_uploader(key="metrics_upload").set_value([]).run()  # the user clicks x
    assert_no_exception(at)
    assert "synthetic sample data" in _infos(at)
    assert at.selectbox(key="metrics_lp").options == ["es-en", "de-en", "fr-en", "cs-en"]
    # and a later page switch does not bring them back
    at.switch_page("views/qe.py").run()
    at.switch_page("views/metrics.py").run()
    assert "synthetic sample data" in _infos(at)


def test_new_upload_replaces_kept_uploads(fresh_run):
    at = _upload(fresh_run, "zz-en")
    at.switch_page("views/qe.py").run()
    at.switch_page("views/metrics.py").run()
    at.file_uploader(key="metrics_upload").set_value(_wide_csv("yy-en")).run()
    assert_no_exception(at)
    assert at.selectbox(key="metrics_lp").options == ["yy-en"]
    assert "Using your uploaded files" not in _infos(at)


def test_uploads_are_per_session(app_test, fresh_run):
    _upload(fresh_run)
    other = app_test()  # a second session (browser tab) of the same server process
    other.run()
    assert "synthetic sample data" in _infos(other)
    assert other.selectbox(key="metrics_lp").options == ["es-en", "de-en", "fr-en", "cs-en"]


def test_test_settings_survive_switching_pages(fresh_run):
    at = fresh_run()
    at.radio(key="metrics_alpha").set_value(0.001).run()
    at.radio(key="metrics_alternative").set_value("two-sided").run()
    at.switch_page("views/qe.py").run()
    at.switch_page("views/metrics.py").run()
    assert_no_exception(at)
    assert at.radio(key="metrics_alpha").value == 0.001
    assert at.radio(key="metrics_alternative").value == "two-sided"
