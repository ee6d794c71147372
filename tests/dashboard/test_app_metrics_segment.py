"""AppTest: the segment-level section of the Metrics-vs-humans page -- the segment-level sample,
an upload of the MTME zip, a bad file, the controls (and their memory across page switches).
Values are compared with stats.analyses.meta_eval.meta_evaluate on the same file."""

from __future__ import annotations

import zipfile

import pytest

from dashboard.sections.metrics_segment import SAMPLES
from dashboard.state import PRESENTATION_KEY
from stats.analyses.meta_eval import meta_evaluate
from stats.readers import read_meta_eval
from tests.dashboard.conftest import REPO_ROOT
from tests.dashboard.helpers import assert_no_exception, files, frame_with, metric_values

META = REPO_ROOT / "sample_data" / "meta"
ZIP = META / "wmt-sample.zip"
SEGMENT_SAMPLE = next(label for label, segment in SAMPLES.items() if segment)


def _charts(at):
    return at.get("plotly_chart")


def _captions(at) -> str:
    return " ".join(c.value for c in at.caption)


@pytest.fixture
def at(fresh_run):
    at = fresh_run(timeout=120)
    at.selectbox(key="metrics_sample").set_value(SEGMENT_SAMPLE).run()
    assert_no_exception(at)
    return at


def test_a_rerun_reads_no_data_again(at, monkeypatch):
    # what the section shows of the files (read as, human scores, systems) is one small cached
    # summary: a rerun calls the cached loader (each hit unpickles all the data read) not once
    from dashboard.data import meta_eval

    calls = []
    load = meta_eval.load
    monkeypatch.setattr(meta_eval, "load", lambda *a, **k: calls.append(a) or load(*a, **k))
    shown = _captions(at)
    at.run()
    assert_no_exception(at)
    assert calls == []
    assert _captions(at) == shown
    data = read_meta_eval(ZIP)
    assert at.multiselect(key="meta_exclude").options == list(data.systems())
    assert "wmt-sample.zip" in shown and data.read_as.split(" ", 1)[1] in shown


def _expected(**settings):
    return meta_evaluate(read_meta_eval(ZIP), **settings)


def test_segment_level_sample_shows_the_section(at):
    assert not at.error
    assert any("wmt-sample.zip" in i.value for i in at.info)
    assert [s.value for s in at.subheader] == [
        "Segment-level meta-evaluation",
        "Pearson r with humans: en-de",
        "Distribution of the per-item correlations: en-de",
        "Which metric is significantly better (PERM-BOTH): en-de",
        "System-level pairwise accuracy across language pairs",
        "Soft pairwise accuracy across language pairs",
    ]
    assert at.selectbox(key="meta_gold").options == ["da", "mqm"]
    assert at.selectbox(key="meta_gold").value == "mqm"
    assert at.selectbox(key="meta_lp").options == ["en-de", "zh-en"]
    assert at.radio(key="meta_grouping").value == "item"
    assert len(_charts(at)) == 3  # dot chart, per-item boxes, pairwise accuracy
    assert metric_values(at) == {
        "Language pairs": "2",
        "Systems (en-de)": "6",
        "Items per system (en-de)": "200",
    }
    table = frame_with(at, "ci_low")
    lp = _expected(
        gold="mqm", correlation="pearson", grouping="item", n_resamples=1000, rng=12345
    ).language_pairs[0]
    assert list(table.index) == list(lp.metrics)
    for m in lp.metrics:
        r = lp.results[m]
        assert table.loc[m, "correlation"] == pytest.approx(r.statistic, abs=1e-12)
        assert (table.loc[m, "ci_low"], table.loc[m, "ci_high"]) == pytest.approx(
            r.confidence_interval, abs=1e-12
        )
    assert "random seed **12345**" in _captions(at) and "1,000 resamples" in _captions(at)
    assert "grouped by item" in _captions(at)
    # no Williams view for segment-level data
    assert "not a ranking" not in " ".join(m.value for m in at.markdown)


def test_upload_of_the_mtme_zip(fresh_run):
    at = fresh_run(timeout=120)
    at.file_uploader(key="metrics_upload").set_value(files(ZIP, mime="application/zip")).run()
    assert_no_exception(at)
    assert not at.error
    assert not any("synthetic sample data" in i.value for i in at.info)
    assert at.subheader[0].value == "Segment-level meta-evaluation"
    pooled = frame_with(at, "all language pairs")
    expected = _expected(gold="mqm", level="sys", correlation="pairwise-accuracy")
    assert list(pooled.index) == list(expected.across_language_pairs)
    assert pooled["all language pairs"].tolist() == pytest.approx(
        list(expected.across_language_pairs.values()), abs=1e-12
    )


def test_bad_file_gives_one_error_line(fresh_run, tmp_path):
    bad = tmp_path / "broken_segments.tsv"
    bad.write_text("BLEU\ten-de\twmt23\tsysA\t1\t0.5\nBLEU\ten-de\twmt23\tsysA\t2\tlots\n")
    at = fresh_run(timeout=120)
    at.file_uploader(key="metrics_upload").set_value(files(bad)).run()
    assert_no_exception(at)
    assert len(at.error) == 1
    message = at.error[0].value
    assert "broken\\_segments.tsv" in message or "broken_segments.tsv" in message
    assert "line 2" in message and "\n" not in message.strip()
    assert not _charts(at)


def test_controls_change_the_results(at):
    at.selectbox(key="meta_correlation").set_value("acc23 (Deutsch et al. 2023)").run()
    at.number_input(key="meta_resamples").set_value(200).run()
    at.number_input(key="meta_seed").set_value(7).run()
    at.selectbox(key="meta_lp").set_value("zh-en").run()
    assert_no_exception(at)
    assert not at.error
    assert len(_charts(at)) == 3  # + the per-item boxes
    lp = _expected(
        gold="mqm", correlation="acc23", grouping="item", tie_calibration=True,
        n_resamples=200, rng=7,
    ).language_pairs[1]  # fmt: skip
    table = frame_with(at, "epsilon")
    assert list(table.index) == list(lp.metrics)
    for m in lp.metrics:
        assert table.loc[m, "correlation"] == pytest.approx(lp.results[m].statistic, abs=1e-12)
        assert table.loc[m, "epsilon"] == pytest.approx(lp.results[m].epsilon, abs=1e-12)
        assert table.loc[m, "ci_low"] == pytest.approx(lp.results[m].confidence_interval[0])
    assert "random seed **7**" in _captions(at) and "grouped by item" in _captions(at)
    assert at.subheader[2].value.startswith("Distribution of the per-item correlations: zh-en")

    at.radio(key="meta_ties").set_value("fixed ε").run()
    at.number_input(key="meta_epsilon").set_value(0.5).run()
    table = frame_with(at, "epsilon")
    assert (table["epsilon"] == 0.5).all()

    at.selectbox(key="meta_correlation").set_value("Kendall-like τ (WMT20)").run()
    at.number_input(key="meta_threshold").set_value(10.0).run()
    at.radio(key="meta_level").set_value("sys").run()
    at.number_input(key="meta_resamples").set_value(0).run()
    at.selectbox(key="meta_gold").set_value("da").run()
    assert_no_exception(at)
    assert not at.error
    assert at.radio(key="meta_grouping").disabled
    table = frame_with(at, "groups")
    assert "ci_low" not in table.columns
    lp = _expected(
        gold="da", level="sys", correlation="kendall-like", threshold=10.0
    ).language_pairs[1]
    for m in lp.metrics:
        assert table.loc[m, "correlation"] == pytest.approx(lp.results[m].statistic, abs=1e-12)
    assert "system level" in _captions(at) and "No confidence intervals" in _captions(at)
    assert len(_charts(at)) == 2  # no per-group boxes at system level


def test_settings_survive_a_page_switch(at):
    at.number_input(key="meta_resamples").set_value(0).run()  # τc over all pairs: no bootstrap
    at.selectbox(key="meta_correlation").set_value("Kendall τc").run()
    at.radio(key="meta_grouping").set_value("system").run()
    at.switch_page("views/qe.py").run()
    assert_no_exception(at)
    at.switch_page("views/metrics.py").run()
    assert_no_exception(at)
    assert at.selectbox(key="metrics_sample").value == SEGMENT_SAMPLE
    assert at.selectbox(key="meta_correlation").value == "Kendall τc"
    assert at.radio(key="meta_grouping").value == "system"
    assert at.number_input(key="meta_resamples").value == 0
    assert at.subheader[1].value == "Kendall τc with humans: en-de"


def test_presentation_mode(at):
    at.sidebar.toggle(key=PRESENTATION_KEY).set_value(True).run()
    assert_no_exception(at)
    assert not at.error
    assert len(_charts(at)) == 3
    # correlations, pairwise accuracy and soft pairwise accuracy as static tables
    assert len(at.table) == 3


def _with_system_files(tmp_path):
    """The sample zip plus .sys.score files for en-de (MQM and every metric)."""
    out = tmp_path / "with-sys.zip"
    systems = ["Aurora", "Borealis", "Cirrus", "Delta", "Ember", "Fjord"]
    with zipfile.ZipFile(ZIP) as src, zipfile.ZipFile(out, "w") as dst:
        names = src.namelist()
        for name in names:
            dst.writestr(name, src.read(name))
        metrics = [n for n in names if "metric-scores/en-de/" in n and n.endswith(".seg.score")]
        sys_files = ["wmt-sample/human-scores/en-de.mqm.sys.score"] + [
            m.replace(".seg.score", ".sys.score") for m in metrics
        ]
        for k, name in enumerate(sys_files):
            dst.writestr(
                name, "".join(f"{s}\t{(i * (k + 2)) % 7}\n" for i, s in enumerate(systems))
            )
    return out


def test_system_scores_from_files_are_not_resampled(fresh_run, tmp_path):
    at = fresh_run(timeout=120)
    upload = files(_with_system_files(tmp_path), mime="application/zip")
    at.file_uploader(key="metrics_upload").set_value(upload).run()
    at.radio(key="meta_level").set_value("sys").run()
    assert_no_exception(at)
    assert not at.error
    assert "no segments to resample" in _captions(at)
    table = frame_with(at, "groups")
    assert "ci_low" not in table.columns
    assert "No confidence intervals" in _captions(at)
