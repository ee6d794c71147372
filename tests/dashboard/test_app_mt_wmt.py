"""AppTest tests of the "MT systems" page with WMT metrics task segment-level files as
published (tests/_wmt_data.py): a .zip of them read as the systems' segment scores, the
language pair and reference selectors, and a bad file shown as one error line."""

from __future__ import annotations

import numpy as np
import plotly.io as pio

from dashboard.figures import grids
from stats.analyses import score_statistics
from stats.mt.randomized import pairwise_significance
from tests import _wmt_data as wmt
from tests.dashboard.helpers import arr, assert_no_exception, frame_with, metric_values

PAGE = "views/mt_systems.py"


def _upload(at, files):
    at.radio(key="mt_source").set_value("Segment scores").run()
    at.file_uploader(key="mt_scores").set_value(
        [(name, data, "application/octet-stream") for name, data in files]
    ).run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]


def test_zip_of_published_segment_files(fresh_run):
    files = wmt.segment_level_files()
    archive = ("wmt20-seg.zip", wmt.zip_bytes(files))
    at = fresh_run(PAGE)
    _upload(at, [archive])
    # the BLEU metric of the archive first (tables.default_baseline), its first language pair
    assert at.selectbox(key="mt_score_metric").value == "sentBLEU"
    assert at.selectbox(key="mt_score_lp").options == ["cs-en", "en-de"]
    assert not at.get("selectbox") or "mt_score_refset" not in [s.key for s in at.selectbox]
    m = metric_values(at)
    assert m["Systems"] == str(len(wmt.MT_SYSTEMS)) and m["Segments"] == "15"
    assert m["Metric"] == "sentBLEU"

    at.selectbox(key="mt_score_metric").set_value("COMET").run()
    at.selectbox(key="mt_score_lp").set_value("en-de").run()
    at.selectbox(key="mt_score_refset").set_value("newstestB2020").run()
    assert_no_exception(at)
    assert "reference newstestB2020" in " ".join(c.value for c in at.caption)
    # the table and p-values equal the workflow's on the same block, seed and resamples
    data = score_statistics([archive], metric="COMET", lp="en-de", refset="newstestB2020")
    want = pairwise_significance(data, test="paired-bootstrap", n_resamples=1000, rng=12345)
    table = frame_with(at, "95% CI low")
    assert list(table.index) == list(want.systems)
    np.testing.assert_allclose(table["COMET"], want.scores.to_numpy())
    grid = pio.from_json(at.get("plotly_chart")[1].proto.spec)  # the significance grids
    p_custom = arr(grid.data[0].customdata)[..., 0]
    np.testing.assert_array_equal(p_custom, grids.round_as_shown(want.pvalue, ".3g"))

    at.selectbox(key="mt_score_metric").set_value("sentBLEU").run()
    assert_no_exception(at)
    assert metric_values(at)["Metric"] == "sentBLEU"


def test_several_files_and_a_bad_one(fresh_run):
    files = wmt.segment_level_files()
    at = fresh_run(PAGE)
    _upload(at, list(files.items()))  # a .gz and a plain file, uploaded together
    assert metric_values(at)["Systems"] == str(len(wmt.MT_SYSTEMS))
    bad = files["COMET.seg.score"].replace(b" doc0 2 ", b" doc0 2 x", 1)
    at.file_uploader(key="mt_scores").set_value([("COMET.seg.score", bad, "text/plain")]).run()
    assert_no_exception(at)
    assert len(at.error) == 1
    assert "COMET.seg.score, line 3, column SCORE" in at.error[0].value
    assert "\n" not in at.error[0].value.strip()
