"""The systems table against a baseline on the "MT systems" page (dashboard/sections/mt_table.py):
AppTest of the section, and the table shaping and its CSV/LaTeX/report exports.

The numbers on the page must be those of :func:`stats.systems_table` on the same files, seed
and resamples (whose golden tests against sacreBLEU's own PairedTest are in
tests/mt/test_systems_table.py).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dashboard import export, report, state, tables
from stats import analyses, systems_table
from stats.mt.sufficient import extract_statistics, statistics_from_scores
from stats.readers.segments import read_segment_scores
from tests._data import MT, mt_sample_text
from tests.dashboard.helpers import assert_no_exception, frame_with

PAGE = "views/mt_systems.py"


def baseline_table(at) -> pd.DataFrame:
    return frame_with(at, "vs baseline")


def _expected_text(metrics=("bleu", "chrf"), **kwargs):
    refs, hyps = mt_sample_text()
    data = [extract_statistics(refs, hyps, metric=m) for m in metrics]
    return systems_table(data, n_resamples=1000, rng=12345, **kwargs)


def _assert_matches(table: pd.DataFrame, expected) -> None:
    assert list(table.index) == list(expected.systems)
    for m in expected.metrics:
        np.testing.assert_allclose(table[m], expected.score[m])
        np.testing.assert_allclose(table[f"{m} μ"], expected.mean[m])
        np.testing.assert_allclose(table[f"{m} ± 95% CI"], expected.ci[m])
        # on the page: 4 decimals, "-" for the baseline (not "None"); the exports keep numbers
        shown = table[f"{m} p"]
        assert shown.loc[expected.baseline] == "-"
        np.testing.assert_allclose(pd.to_numeric(shown.replace("-", np.nan)),
                                   expected.pvalue[m], atol=5e-5)


def test_sample_table_baseline_and_test_selectors(fresh_run):
    at = fresh_run(PAGE, timeout=180)
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    table = baseline_table(at)
    refs, hyps = mt_sample_text()
    best = extract_statistics(refs, hyps, metric="bleu").scores.idxmax()
    expected = _expected_text(baseline=best)
    _assert_matches(table, expected)
    # the best-scoring system by default (as WMT's tables read), said on the page with
    # sacreBLEU's (the first file given)
    assert table.index[0] == best
    assert table.loc[best, "vs baseline"] == "baseline"
    assert any(f"Baseline: {best}, the best-scoring system" in c.value
               and "first file, Aurora" in c.value for c in at.caption)
    sig = expected.significant(0.05)
    for s in expected.systems[1:]:
        marked = [m for m in expected.metrics if sig.at[s, m]]
        assert table.loc[s, "vs baseline"] == ("† " + ", ".join(marked) if marked else "")
    captions = " ".join(c.value for c in at.caption)
    assert "random seed **12345**, 1,000 resamples" in captions
    assert "sacrebleu --paired-bs" in captions

    at.selectbox(key="mt_table_baseline").set_value("Delta").run()
    at.radio(key="mt_table_test").set_value("approximate-randomization").run()
    assert_no_exception(at)
    table = baseline_table(at)
    assert table.index[0] == "Delta"
    refs, hyps = mt_sample_text()
    data = [extract_statistics(refs, hyps, metric=m) for m in ("bleu", "chrf")]
    ar = systems_table(data, baseline="Delta", test="approximate-randomization",
                       n_resamples=1000, rng=12345)
    _assert_matches(table, ar)
    assert "μ ± CI from 1,000 bootstrap resamples." in " ".join(c.value for c in at.caption)
    # the page report holds the table, with its † marks, for "Download report"
    entry = at.session_state[state.REPORT_KEY].tables["mt_baseline_table"]
    assert entry.marks.dagger.to_numpy().sum() == ar.significant(0.05).to_numpy().sum()
    assert "baseline Delta" in entry.marks.note


def test_metric_choice_and_segment_scores(fresh_run):
    at = fresh_run(PAGE, timeout=180)
    at.multiselect(key="mt_table_metrics_text").set_value(["chrF"]).run()
    assert_no_exception(at)
    assert [c for c in baseline_table(at).columns if c.endswith(" p")] == ["chrF2 p"]
    at.multiselect(key="mt_table_metrics_text").set_value([]).run()
    assert_no_exception(at)
    assert "Choose at least one metric for the table." in [i.value for i in at.info]

    at.radio(key="mt_source").set_value("Segment scores").run()
    assert_no_exception(at)
    table = baseline_table(at)  # every metric of the file by default
    # the workflow the page calls, on the file itself; the baseline chosen on text (the best
    # there) stays chosen, being one of the file's systems too
    expected = analyses.systems_table_analysis(
        scores=MT / "segment_scores.tsv", baseline=table.index[0], n_resamples=1000, rng=12345
    )
    assert expected.metrics == ("chrF", "SimCOMET")
    _assert_matches(table, expected)
    at.selectbox(key="mt_table_baseline").set_value("Cirrus").run()
    table = baseline_table(at)
    frame = read_segment_scores(MT / "segment_scores.tsv", metric="SimCOMET")
    data = statistics_from_scores(frame, label="SimCOMET")
    direct = systems_table(data, baseline="Cirrus", n_resamples=1000, rng=12345)
    np.testing.assert_allclose(pd.to_numeric(table["SimCOMET p"].replace("-", np.nan)),
                               direct.pvalue["SimCOMET"], atol=5e-5)


def test_table_shaping_and_exports():
    """tables.mt_baseline_table and its CSV/LaTeX exports and report entry."""
    scores = pd.DataFrame({"base": np.r_[np.zeros(30), np.ones(30)],
                           "same": np.r_[np.zeros(30), np.ones(30)],
                           "better_sys": np.r_[np.ones(50), np.zeros(10)]})
    a = statistics_from_scores(scores, label="COMET")
    b = statistics_from_scores(scores * 2, label="x_y")
    res = systems_table([a, b], n_resamples=200, rng=0)
    frame, dagger = tables.mt_baseline_table(res, 0.05)
    assert list(frame.columns) == [
        "COMET", "COMET μ", "COMET ± 95% CI", "COMET p",
        "x_y", "x_y μ", "x_y ± 95% CI", "x_y p", "vs baseline",
    ]
    assert frame.index.name == "system" and list(frame.index) == ["base", "same", "better_sys"]
    assert frame["vs baseline"].tolist() == ["baseline", "", "† COMET, x_y"]
    assert list(dagger.columns) == list(frame.columns) and dagger.dtypes.map(lambda t: t.kind == "b").all()
    assert dagger.loc["better_sys"].tolist() == [c in ("COMET", "x_y") for c in frame.columns]
    assert not dagger.loc[["base", "same"]].any().any()
    assert frame.at["same", "COMET p"] == 1.0  # identical to the baseline: c = 0 ... p = 1

    marks = export.Marks(dagger=dagger, note="†: differs significantly from the baseline base.")
    config = {c: {"label": c, "type_config": {"format": "%.4f"}}
              for c in frame.columns if c != "vs baseline"}
    tex = export.dataframe_to_latex(frame, column_config=config, marks=marks, caption="T")
    assert r"\toprule" in tex and r"\resizebox" in tex  # 10 columns: scaled
    row = next(line for line in tex.splitlines() if line.startswith("better"))
    assert row.count(r"\textsuperscript{\dag}") == 2  # the two score cells
    assert r"x\_y $\pm$ 95\% CI" in tex and r"x\_y $\mu$" in tex
    assert "differs significantly from the baseline base" in tex
    csv = export.dataframe_to_csv(frame, column_config=config).decode()
    header, *rows = csv.splitlines()
    assert header == ("system,COMET,COMET μ,COMET ± 95% CI,COMET p,x_y,x_y μ,x_y ± 95% CI,"
                      "x_y p,vs baseline")
    assert rows[0].endswith(",baseline") and rows[2].endswith(",\"† COMET, x_y\"")
    assert float(rows[1].split(",")[1]) == pytest.approx(res.score.at["same", "COMET"], abs=0)
    html = report.table_html(report.TableEntry(frame, filename="t", caption="T",
                                               column_config=config, marks=marks))
    assert html.count("†") >= 3
