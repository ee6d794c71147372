"""AppTest tests of the "Quality estimation" page (dashboard/views/qe.py)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dashboard.data import samples
from stats.qe.graham import evaluate_qe, rescaling_experiment
from stats.readers import read_qe
from tests.dashboard.helpers import assert_no_exception, files, frame_with, metric_values

QE = Path(__file__).resolve().parents[2] / "sample_data" / "qe"
PAGE = "views/qe.py"


def qe_table(at):
    return frame_with(at, "rank_change")  # the main QE table


def rescale_table(at):
    return frame_with(at, "mae_change")


def upload(at, *paths):
    at.file_uploader(key="qe_upload").set_value(files(*paths)).run()
    return at


def _long_qe_file(path: Path, noise: dict[str, float], *, n: int, seed: int) -> Path:
    """A long-format QE file: gold labels uniform in [0, 1), each system = gold + N(0, noise)."""
    rng = np.random.default_rng(seed)
    g = rng.random(n)
    lines = ["METRIC SID SCORE RANK HUMAN"]
    for name, sd in noise.items():
        p = g + rng.normal(0, sd, n)
        lines += [f"{name} {i + 1} {p[i]:.5f} 0 {g[i]:.5f}" for i in range(n)]
    path.write_text("\n".join(lines) + "\n")
    return path


def test_sample_data_page(first_run):
    at = first_run(PAGE)
    assert_no_exception(at)
    assert not at.error
    m = metric_values(at)
    assert m["Sentences (n)"] == "600" and m["Systems"] == "10"
    ev = evaluate_qe(read_qe(QE / "hter_long.txt"))
    # the number is the badge value, the system name sits underneath without a change arrow
    badges = {b.label: b for b in at.metric}
    assert m["Highest Pearson r"] == f"{ev.scores.statistic['ALPHA-svr']:.3f}"
    assert badges["Highest Pearson r"].delta == "ALPHA-svr"
    assert m["Lowest MAE"] == f"{ev.scores.mae['CONSERV-mean']:.4f}"
    assert badges["Lowest MAE"].delta.startswith("CONSERV-mean (rank 8 by r)")
    # the rankings do disagree on the sample: the heading says so
    assert any("the rankings disagree" in h.value for h in at.subheader)
    table = qe_table(at)
    assert list(table.index) == list(ev.order)
    np.testing.assert_allclose(table["pearson"], ev.scores.statistic.loc[list(ev.order)])
    assert table.at["CONSERV-mean", "rank_change"] == 1 - 8
    # all charts drawn: ranks, bars, curve, histograms, scatter, heatmap, Williams grid
    assert len(at.get("plotly_chart")) >= 7


def test_lambda_slider_changes_rescaled_values(fresh_run):
    at = fresh_run(PAGE)
    before = rescale_table(at)
    at.slider(key="qe_lambda").set_value(0.3).run()
    assert not at.exception
    after = rescale_table(at)
    expected = rescaling_experiment(read_qe(QE / "hter_long.txt"), sd_ratio=0.3)
    np.testing.assert_allclose(after["mae_rescaled"], expected.mae_rescaled.loc[after.index])
    np.testing.assert_allclose(after["rmse_rescaled"], expected.rmse_rescaled.loc[after.index])
    assert not np.allclose(after["mae_rescaled"], before["mae_rescaled"])
    # the original MAE and Pearson r do not move
    np.testing.assert_allclose(after["mae"], before["mae"])
    np.testing.assert_allclose(after["pearson_rescaled"], before["pearson_rescaled"])
    assert "λ = 0.3" in " ".join(s.value for s in at.subheader)
    # the main table's rescaled columns follow the slider too
    np.testing.assert_allclose(
        qe_table(at)["mae_rescaled"], expected.mae_rescaled.loc[qe_table(at).index]
    )


def test_upload_long_file(fresh_run, tmp_path):
    path = _long_qe_file(tmp_path / "mine.txt", {"mine": 0.1, "theirs": 0.4}, n=30, seed=0)
    at = upload(fresh_run(PAGE), path)
    assert not at.exception and not at.error
    m = metric_values(at)
    assert m["Systems"] == "2" and m["Sentences (n)"] == "30"
    assert {b.label: b.delta for b in at.metric}["Highest Pearson r"] == "mine"
    assert not any("synthetic sample" in i.value for i in at.info)


def test_upload_wmt_submissions_with_gold_in_one_go(fresh_run):
    at = upload(
        fresh_run(PAGE),
        QE / "wmt_gold.txt",
        QE / "wmt" / "baseline.txt",
        QE / "wmt" / "ALPHA-svr.txt",
    )
    assert not at.exception and not at.error
    assert list(qe_table(at).index) == ["ALPHA-svr", "baseline"]


def test_upload_post_edit_and_rate_toggle(fresh_run):
    at = upload(fresh_run(PAGE), QE / "pet_long.txt", QE / "post_edit.tsv")
    assert not at.exception and not at.error
    assert "r(PER, HTER)" in metric_values(at)
    seconds = qe_table(at)["mae"].copy()
    at.toggle(key="qe_rate").set_value(True).run()
    assert not at.exception
    per_word = qe_table(at)["mae"]
    assert (per_word.to_numpy() < seconds.loc[per_word.index].to_numpy() / 5).all()
    assert "MAE (seconds per word)" in metric_values(at) or any(
        "seconds per word" in k for k in metric_values(at)
    )


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("bad.txt", b"METRIC SID SCORE RANK HUMAN\nA 1 x 0 0.5\n", "bad.txt, line 2, column SCORE"),
        ("gold.txt", b"0.1\n0.2\n0.3\n0.4\n", "no QE predictions among the files"),
        ("junk.bin", b"\xff\xfe\x00garbage", "not valid UTF-8"),
        (
            "short.txt",
            b"METRIC SID SCORE HUMAN\nA 1 0.1 0.2\nA 2 0.3 0.1\nB 1 0.2 0.2\n",
            "sentence ids do not match",
        ),
    ],
)
def test_malformed_upload_shows_error_not_exception(fresh_run, name, content, message):
    at = fresh_run(PAGE)
    at.file_uploader(key="qe_upload").set_value((name, content, "text/plain")).run()
    assert_no_exception(at)
    assert len(at.error) == 1
    assert message in at.error[0].value
    assert not at.get("plotly_chart")  # the page stopped


def test_constant_system_toggle(fresh_run):
    rows = ["sid,gold,A,FLAT"] + [
        f"{i},{(i * 7) % 11 / 10:.2f},{(i * 5) % 9 / 10:.2f},0.5" for i in range(1, 21)
    ]
    content = ("\n".join(rows) + "\n").encode()
    at = fresh_run(PAGE)
    at.file_uploader(key="qe_upload").set_value(("c.csv", content, "text/csv")).run()
    assert len(at.error) == 1 and "'FLAT' predicts 0.5 for every sentence" in at.error[0].value
    at.toggle(key="qe_allow_constant").set_value(True).run()
    assert not at.exception and not at.error
    assert any("'FLAT'" in w.value for w in at.warning)
    assert np.isnan(qe_table(at).at["FLAT", "pearson"])


def test_every_sample_runs(fresh_run):
    at = fresh_run(PAGE)
    for label in list(samples.QE_SAMPLES)[1:]:
        at.selectbox(key="qe_sample").set_value(label).run()
        assert not at.exception, (label, [e.value for e in at.exception])
        assert not at.error, (label, [e.value for e in at.error])


def test_presentation_mode_runs(fresh_run):
    from dashboard.state import PRESENTATION_KEY

    at = fresh_run(PAGE)
    at.sidebar.toggle(key=PRESENTATION_KEY).set_value(True).run()
    assert_no_exception(at)
    assert len(at.get("plotly_chart")) >= 7


def test_rate_with_missing_word_counts_is_an_input_error(fresh_run):
    lines = (QE / "post_edit.tsv").read_text().splitlines()
    short = ("\n".join(lines[:-1]) + "\n").encode()
    at = fresh_run(PAGE)
    at.file_uploader(key="qe_upload").set_value(
        [
            ("pet_long.txt", (QE / "pet_long.txt").read_bytes(), "text/plain"),
            ("pe.tsv", short, "text/plain"),
        ]
    ).run()
    assert not at.error  # post-edit time is evaluated as is
    at.toggle(key="qe_rate").set_value(True).run()
    assert not at.exception
    assert len(at.error) == 1 and at.error[0].value.startswith("pe.tsv: words: no word count")


def test_heading_neutral_when_rankings_agree(fresh_run, tmp_path):
    """G report item 15: "the rankings disagree" only when r and MAE rank differently."""
    # "close" is better by r and by MAE
    path = _long_qe_file(tmp_path / "agree.txt", {"close": 0.05, "far": 0.5}, n=40, seed=1)
    at = upload(fresh_run(PAGE), path)
    assert not at.exception and not at.error
    heads = [h.value for h in at.subheader]
    assert "Pearson r versus MAE" in heads
    assert not any("disagree" in h for h in heads)
