"""AppTest test of the system exclusion on "MT systems": leaving systems out recomputes every
test and table, as if they had not been uploaded, and a caption says which were left out."""

from __future__ import annotations

from tests._data import mt_sample_head
from tests.dashboard.helpers import assert_no_exception, frame_with
from tests.dashboard.test_app_mt_explorer import PAGE, _upload_head


def test_system_exclusion_recomputes_everything(fresh_run):
    """Leaving systems out equals not uploading them: the same table, grids and p-values."""
    at = fresh_run(PAGE)
    _upload_head(at, n=60)
    at.multiselect(key="mt_exclude").set_value(["Cirrus"]).run()
    assert_no_exception(at)
    assert not at.error
    assert at.metric[0].value == "3"  # Systems
    captions = " ".join(c.value for c in at.caption)
    assert "Left out: Cirrus (1 system)" in captions
    table = frame_with(at, "95% CI low")
    grid = at.get("plotly_chart")[1].proto.spec
    assert at.selectbox(key="mt_explore_a").options == list(table.index)

    other = fresh_run(PAGE)
    ref, hyps = mt_sample_head(60, ("Aurora", "Delta", "Harbor"))
    other.file_uploader(key="mt_refs").set_value([("ref.txt", ref.encode(), "text/plain")])
    other.file_uploader(key="mt_hyps").set_value(
        [(f"{s}.txt", h.encode(), "text/plain") for s, h in hyps.items()]
    ).run()
    assert_no_exception(other)
    assert "Left out" not in " ".join(c.value for c in other.caption)
    assert frame_with(other, "95% CI low").equals(table)
    assert other.get("plotly_chart")[1].proto.spec == grid
