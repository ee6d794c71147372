"""AppTest of the Leaderboard page on the bundled MTME sample: the table holds the task set's
result (stats.analyses.task_set.rank_task_set with the page's seed), the drill-down shows a task,
and the figure builder's dots, whiskers and cluster lines."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from dashboard.figures.leaderboard import ranking_dots
from stats.analyses.task_set import rank_task_set
from stats.metaeval.task_set_presets import per_language_pair
from stats.readers import read_meta_eval
from tests.dashboard.helpers import assert_no_exception, frame_with

ZIP = "sample_data/meta/wmt-sample.zip"


def test_ranking_dots_layout():
    fig = ranking_dots(
        ["a", "b", "c"],
        [0.9, 0.8, 0.7],
        [1, 1, 2],
        low=[0.85, 0.7, np.nan],
        high=[0.95, 0.9, np.nan],
    )
    (trace,) = fig.data
    assert list(trace.y) == [0, 1, 2] and list(fig.layout.yaxis.ticktext) == ["a", "b", "c"]
    assert fig.layout.yaxis.autorange == "reversed"
    np.testing.assert_allclose(trace.error_x.array, [0.05, 0.1, 0.0])
    np.testing.assert_allclose(trace.error_x.arrayminus, [0.05, 0.1, 0.0])
    assert [s.y0 for s in fig.layout.shapes] == [1.5]  # one line between clusters 1 and 2
    assert ranking_dots(["a"], [0.5], [1]).data[0].error_x.array is None


def test_leaderboard_page(app_test):
    at = app_test("views/leaderboard.py", timeout=120)
    at.session_state["board_resamples"] = 200
    at.run()
    assert_no_exception(at)
    table = frame_with(at, "average")
    expected = rank_task_set(
        read_meta_eval(ZIP),
        per_language_pair(("en-de", "zh-en")),
        n_resamples=200,
        rng=12345,
        gold="mqm",
    )
    assert [m.replace("[noref]", "") for m in table.index] == list(expected.statistic.index)
    np.testing.assert_allclose(table["average"], expected.statistic.to_numpy(), atol=1e-12)
    assert list(table["cluster"]) == list(expected.rank)
    at.selectbox(key="board_task").set_value(at.selectbox(key="board_task").options[1]).run()
    assert_no_exception(at)
    assert frame_with(at, "average") is not None
    assert any("correlation=kendall grouping=item" in c.value for c in at.caption)


def test_a_rerun_reads_no_data_again(app_test, monkeypatch):
    # what the page shows of the files comes from one small cached summary: a rerun calls the
    # cached loader (whose every hit unpickles all the data read) not once
    from dashboard.data import leaderboard

    calls = []
    load = leaderboard.load
    monkeypatch.setattr(leaderboard, "load", lambda *a, **k: calls.append(a) or load(*a, **k))
    leaderboard.summary.clear()  # as on a new server (another test may have filled it)
    at = app_test("views/leaderboard.py", timeout=120)
    at.session_state["board_resamples"] = 200
    at.run()
    assert_no_exception(at)
    assert calls  # the first run reads the files
    first = frame_with(at, "average")
    calls.clear()
    at.run()
    assert_no_exception(at)
    assert calls == []
    assert frame_with(at, "average").equals(first)
    uploads = (("wmt-sample.zip", Path(ZIP).read_bytes()),)
    summary = leaderboard.summary(uploads, None)
    data = read_meta_eval(*uploads)
    assert summary.language_pairs == tuple(data.language_pairs) == ("en-de", "zh-en")
    assert summary.gold_names == tuple(data.gold_names())
    assert summary.default_choice == next(iter(leaderboard.CHOICES))
    assert summary.read_as == data.read_as
    assert {r for pair in data.pairs.values() for r in pair.references} <= set(summary.references)


def test_clusters_over_the_page_bound_offer_the_command(app_test, monkeypatch):
    # no operation count refuses the run: its estimated time, over the page's bound (here
    # lowered), keeps the point ranking and offers the CLI command with the page's settings
    from dashboard.data import leaderboard

    monkeypatch.setattr(leaderboard, "PAGE_MAX_SECONDS", 1e-3)
    at = app_test("views/leaderboard.py", timeout=120)
    at.query_params["resamples"] = "300"
    at.query_params["seed"] = "7"
    at.query_params["lp"] = ["en-de"]
    at.run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    (warning,) = [w.value for w in at.warning if "Clusters not computed" in w.value]
    assert "“PERM-BOTH resamples per task”" in warning or "“Language pairs”" in warning
    (code,) = [c.value for c in at.code]
    assert code.startswith("mt-stats rank --data wmt-sample.zip --task-set per-lp --lp en-de")
    assert "--resamples 300 --seed 7 --alpha 0.05" in code and "--gold mqm" in code
    table = frame_with(at, "average")  # the point ranking stays on the page
    assert table["cluster"].isna().all() or len(table)
    # the settings went back into the URL
    from tests.dashboard.test_app_view_settings import param

    assert param(at, "resamples") == ["300"] and param(at, "lp") == ["en-de"]


def test_leaderboard_input_format_message_names_the_page_control(fresh_run):
    # a WMT20 *.sys.score line fits long segment scores too: the message names the page's
    # "Read text files as" choice and where system-level scores go, not a Python argument
    at = fresh_run("views/leaderboard.py", timeout=120)
    line = "BLEU\tde-en\tnewstest2020\tnewstest2020-ende-ref.de\tOnline-A.0\t0.3\n"
    at.file_uploader(key="board_upload").set_value(
        [("BLEU.sys.score", line.encode(), "text/plain")]
    ).run()
    (error,) = [e.value for e in at.error]
    assert "input_format" not in error
    assert "“Read text files as” → “long text”" in error and "Metrics vs humans" in error
