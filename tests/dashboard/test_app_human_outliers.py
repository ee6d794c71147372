"""AppTest: outlier systems on the "Tests vs humans" page -- the MAD outliers of the human
scores are named, and systems left out (the outliers, or any chosen) leave the gold standard
and every test's accuracy, as the captions and the report record say."""

from __future__ import annotations

import pytest

from tests.dashboard.helpers import assert_no_exception, files
from tests.human.test_human_outliers import lowered_judgements


def _metric(at, label_start: str) -> str:
    return next(m.value for m in at.metric if m.label.startswith(label_start))


@pytest.fixture
def at(fresh_run, tmp_path):
    at = fresh_run("views/human.py", timeout=240)
    path = lowered_judgements(tmp_path / "judgements.tsv")
    tsv = files(path, mime="text/tab-separated-values")
    at.file_uploader(key="human_judgements_upload").set_value(tsv).run()
    assert_no_exception(at)
    return at


def test_outliers_named_then_left_out(at):
    assert _metric(at, "Systems compared") == "8"
    assert any("MAD rule" in c.value and "Harbor" in c.value for c in at.caption)
    at.checkbox(key="human_outliers").check().run()
    assert_no_exception(at)
    assert _metric(at, "Systems compared") == "7"
    notes = [i.value for i in at.info if "without these systems" in i.value]
    assert notes == ["The gold standard and every test without these systems: Harbor (MAD outlier)"]
    assert any("correct conclusions of 21" in m.value for m in at.markdown)
    # no system is reported as lacking judgements
    assert not any("no human judgements" in w.value for w in at.warning)
    at.multiselect(key="human_exclude").set_value(["Aurora"]).run()
    assert_no_exception(at)
    assert _metric(at, "Systems compared") == "6"
    assert any("Aurora, Harbor (MAD outlier)" in i.value for i in at.info)
    assert at.query_params["exclude"] in ("Aurora", ["Aurora"])
