"""AppTest of the AutoRank page on the bundled WMT25-layout sample: the table holds the workflow's
result (stats.analyses.autorank_analysis with the page's seed), the metric set and language
pair switch, a bad upload is one line; and the table's shading."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.tables.autorank import autorank_table, cell_colours, shade_share
from stats.analyses import autorank_analysis
from tests._wmt25_data import generate
from tests.dashboard.helpers import assert_no_exception

SAMPLE = "sample_data/wmt25/automatic_scores"


def _table(at) -> pd.DataFrame:
    """The page's AutoRank table (a Styler in st.dataframe: its data)."""
    for d in at.dataframe:
        value = d.value
        data = getattr(value, "data", value)
        if "AutoRank" in getattr(data, "columns", []):
            return data
    raise AssertionError("no AutoRank table")


def test_autorank_page_sample(app_test):
    at = app_test("views/autorank.py", timeout=120)
    at.session_state["autorank_resamples"] = 200
    at.run()
    assert_no_exception(at)
    assert any(c.value.startswith("read as WMT25 automatic scores: 8 systems") for c in at.caption)
    from pathlib import Path

    files = [(p.name, p.read_bytes()) for p in sorted(Path(SAMPLE).glob("*.jsonl"))]
    expected = autorank_analysis(files, lps=["en-bho_IN"], n_resamples=200, rng=12345)
    pair = expected.language_pairs[0]
    table = _table(at)
    assert list(table.index) == list(pair.point.systems)
    np.testing.assert_allclose(table["AutoRank"], pair.point.autorank.to_numpy())
    np.testing.assert_allclose(table["low"], pair.bootstrap.interval_low.to_numpy())
    assert list(table.columns[4:]) == ["chrF++"]
    assert any("cannot separate" in m.value for m in at.markdown)
    # the point table drawn first is replaced, not left beside the final one
    assert sum("AutoRank" in getattr(getattr(d.value, "data", d.value), "columns", []) for d in at.dataframe) == 1
    # another pair, another metric set
    at.selectbox(key="autorank_lp").set_value("en-cs_CZ").run()
    assert_no_exception(at)
    assert list(_table(at).columns[4:]) == ["CometKiwi-XL", "GEMBA-ESA-CMDA", "GEMBA-ESA-GPT4.1",
                                           "MetricX-24-Hybrid-XL", "XCOMET-XL"]  # fmt: skip
    at.radio(key="autorank_metric_set").set_value("Choose metrics").run()
    at.multiselect(key="autorank_metrics").set_value(["XCOMET-XL"]).run()
    assert_no_exception(at)
    assert list(_table(at).columns[4:]) == ["XCOMET-XL"]


def test_autorank_page_bad_upload_one_line(app_test):
    at = app_test("views/autorank.py", timeout=120)
    at.session_state["autorank_resamples"] = 200
    at.run()
    at.file_uploader(key="autorank_upload").set_value(
        [("A.jsonl", b'{"language_pair": "en-de_DE"}\n', "application/octet-stream")]
    ).run()
    assert [e.value for e in at.error] and "A.jsonl, line 1: field domain is missing" in at.error[0].value


def test_table_and_shading():
    files = generate(5)
    pair = autorank_analysis(list(files.items()), lps=["en-cs_CZ"], n_resamples=100,
                             rng=1).language_pairs[0]  # fmt: skip
    table = autorank_table(pair)
    assert list(table.columns[:4]) == ["AutoRank", "low", "high", "cluster"]
    assert table["AutoRank"].is_monotonic_increasing
    g = shade_share(pd.Series([1.0, 2.0, 3.0, 4.0, 5.0]))
    np.testing.assert_allclose(g, [0, 0, 1 / 3, 2 / 3, 1])  # (x - P25) / (max - P25), clipped
    assert cell_colours(pd.Series([np.nan, 1.0, 2.0]))[0] == ""


def test_autorank_page_other_metrics_default_to_all_of_them(app_test):
    import json as _json

    g = np.random.default_rng(2)
    files = []
    for s, q in (("A", 0.9), ("B", 0.5), ("C", 0.1)):
        lines = [
            _json.dumps({"language_pair": "de-en", "domain": "news", "document_id": f"d{d}",
                         "metric_scores": {"m1": list(q + g.normal(0, 0.1, 3)),
                                           "m2": list(q + g.normal(0, 0.1, 3))}})
            for d in range(12)
        ]  # fmt: skip
        files.append((f"{s}.jsonl", "\n".join(lines).encode(), "application/octet-stream"))
    at = app_test("views/autorank.py", timeout=120)
    at.session_state["autorank_resamples"] = 200
    at.run()
    at.file_uploader(key="autorank_upload").set_value(files).run()
    assert_no_exception(at)
    assert not at.error
    table = _table(at)
    assert list(table.index) == ["A", "B", "C"] and list(table.columns[4:]) == ["m1", "m2"]
