"""AppTest tests of the "MT systems" page (dashboard/views/mt_systems.py)."""

from __future__ import annotations

import numpy as np
import plotly.io as pio
import pytest

from dashboard import state
from dashboard.figures import grids
from stats.mt.randomized import pairwise_significance
from stats.mt.sufficient import extract_statistics, statistics_from_scores
from stats.readers.segments import read_parallel, read_segment_scores
from tests._data import MT, mt_sample_head, mt_sample_text
from tests.dashboard.helpers import arr, assert_no_exception, frame_with, metric_values

PAGE = "views/mt_systems.py"


def system_table(at):
    return frame_with(at, "95% CI low")


def chart_specs(at) -> list:
    """The page's Plotly figures, decoded (typed arrays included) by plotly itself."""
    return [pio.from_json(c.proto.spec) for c in at.get("plotly_chart")]


def no_problems(at):
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]


def test_sample_data_page(first_run):
    at = first_run(PAGE)
    no_problems(at)
    m = metric_values(at)
    assert m["Systems"] == "8" and m["Segments"] == "500" and m["Metric"] == "BLEU"
    assert m["Best system"] == "Aurora"
    # the table equals the stats API on the same files, seed and resamples
    refs, hyps = mt_sample_text()
    expected = pairwise_significance(
        extract_statistics(refs, hyps), test="paired-bootstrap", n_resamples=1000, rng=12345
    )
    table = system_table(at)
    assert list(table.index) == list(expected.systems)
    np.testing.assert_allclose(table["BLEU"], expected.scores.to_numpy())
    np.testing.assert_allclose(table["95% CI low"], expected.score_ci_low.to_numpy())
    specs = chart_specs(at)
    assert len(specs) == 3  # system scores, significance grids, distributions
    grid = specs[1]
    assert len(grid.data) == 3  # one heatmap per test
    z = arr(grid.data[0].z)
    alpha = 0.05
    np.testing.assert_allclose(
        z, grids.significance_colour_value(expected.pvalue.to_numpy(), alpha), rtol=1e-6
    )
    p_custom = arr(grid.data[0].customdata)[..., 0]
    np.testing.assert_array_equal(p_custom, grids.round_as_shown(expected.pvalue, ".3g"))
    # the pair section defaults to the closest pair and shows the three p-values
    assert any(label.startswith("p, Approximate") for label in m)
    assert "random seed **12345**" in " ".join(c.value for c in at.caption)
    # bundled samples are not offered to the "Tests vs humans" page as the user's uploads
    assert state.MT_SHARED_INPUTS_KEY not in at.session_state


def test_segment_scores_sample_and_metric_choice(fresh_run):
    at = fresh_run(PAGE)
    at.radio(key="mt_source").set_value("Segment scores").run()
    no_problems(at)
    assert metric_values(at)["Metric"] == "chrF"
    at.selectbox(key="mt_score_metric").set_value("SimCOMET").run()
    no_problems(at)
    assert metric_values(at)["Metric"] == "SimCOMET"
    frame = read_segment_scores(MT / "segment_scores.tsv", metric="SimCOMET")
    expected = statistics_from_scores(frame).scores.sort_values(ascending=False)
    np.testing.assert_allclose(system_table(at)["SimCOMET"], expected.to_numpy())


def test_upload_text_and_controls(fresh_run):
    ref, hyps = mt_sample_head(60, ("Aurora", "Delta", "Harbor"))
    at = fresh_run(PAGE)
    at.file_uploader(key="mt_refs").set_value([("ref.txt", ref.encode(), "text/plain")])
    at.file_uploader(key="mt_hyps").set_value(
        [(f"{s}.txt", h.encode(), "text/plain") for s, h in hyps.items()]
    ).run()
    no_problems(at)
    m = metric_values(at)
    assert m["Systems"] == "3" and m["Segments"] == "60"
    assert not any("synthetic sample" in i.value for i in at.info)
    shared = at.session_state["mt_shared_inputs"]
    assert [n for n, _ in shared["hypotheses"]] == ["Aurora.txt", "Delta.txt", "Harbor.txt"]
    # only approximate randomization, two-sided, TER, another seed
    at.multiselect(key="mt_tests").set_value(["approximate-randomization"])
    at.radio(key="mt_alternative").set_value("two-sided")
    at.selectbox(key="mt_metric").set_value("TER")
    at.number_input(key="mt_seed").set_value(7)
    at.selectbox(key="mt_resamples").set_value(200).run()
    no_problems(at)
    m = metric_values(at)
    assert m["Metric"] == "TER" and "p, Approximate randomization" in m
    assert "p, Paired bootstrap resampling" not in m
    specs = chart_specs(at)
    assert len(specs[1].data) == 1
    refs, hyps_ = read_parallel([ref.encode()], [(f"{s}.txt", h.encode()) for s, h in hyps.items()])
    expected = pairwise_significance(
        extract_statistics(refs, hyps_, metric="ter"),
        test="approximate-randomization",
        n_resamples=200,
        rng=7,
        alternative="two-sided",
    )
    p_custom = arr(specs[1].data[0].customdata)[..., 0]
    np.testing.assert_array_equal(p_custom, grids.round_as_shown(expected.pvalue, ".3g"))
    assert list(system_table(at).index) == list(expected.systems)  # lowest TER first
    assert "random seed **7**" in " ".join(c.value for c in at.caption)


@pytest.mark.parametrize(
    ("refs", "hyps", "message"),
    [
        (
            [("ref.txt", b"a b\nc d\ne f\n")],
            [("A.txt", b"a b\nc d\ne f\n"), ("B.txt", b"a b\n")],
            "B.txt has 1 lines but ref.txt has 3",
        ),
        (
            [("ref.txt", b"a b\n\ne f\n")],
            [("A.txt", b"a\nb\nc\n"), ("B.txt", b"a\nb\nc\n")],
            "ref.txt, line 2: empty reference segment",
        ),
        ([("ref.txt", b"a\n")], [("A.txt", b"a\n")], "at least two"),
    ],
)
def test_malformed_text_upload_shows_error(fresh_run, refs, hyps, message):
    at = fresh_run(PAGE)
    if refs:
        at.file_uploader(key="mt_refs").set_value([(n, b, "text/plain") for n, b in refs])
    at.file_uploader(key="mt_hyps").set_value([(n, b, "text/plain") for n, b in hyps]).run()
    assert_no_exception(at)
    assert len(at.error) == 1 and message in at.error[0].value
    assert not at.get("plotly_chart")


@pytest.mark.parametrize(
    ("refs", "hyps", "prompt"),
    [
        ([], [("A.txt", b"a\n"), ("B.txt", b"b\n")], "Now upload the reference file"),
        ([("ref.txt", b"a\n")], [], "Now upload one output file per system"),
    ],
)
def test_half_of_a_text_upload_asks_for_the_other_half(fresh_run, refs, hyps, prompt):
    at = fresh_run(PAGE)
    if refs:
        at.file_uploader(key="mt_refs").set_value([(n, b, "text/plain") for n, b in refs])
    if hyps:
        at.file_uploader(key="mt_hyps").set_value([(n, b, "text/plain") for n, b in hyps])
    at.run()
    assert_no_exception(at)
    assert not at.error and len(at.info) == 1 and at.info[0].value.startswith(prompt)
    assert not at.get("plotly_chart")


def test_malformed_score_upload_shows_error(fresh_run):
    at = fresh_run(PAGE)
    at.radio(key="mt_source").set_value("Segment scores").run()
    bad = b"SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nA\t2\tx\nB\t1\t0.2\nB\t2\t0.1\n"
    at.file_uploader(key="mt_scores").set_value([("bad.tsv", bad, "text/plain")]).run()
    assert not at.exception
    assert "bad.tsv, line 3, column SCORE: 'x' is not a number" in at.error[0].value
    uneven = b"SYSTEM\tSEGMENT\tSCORE\nA\t1\t0.5\nA\t2\t0.4\nB\t1\t0.2\n"
    at.file_uploader(key="mt_scores").set_value([("u.tsv", uneven, "text/plain")]).run()
    assert not at.exception
    assert "system 'B' has no score for segment(s) 2" in at.error[0].value


def test_no_test_selected_warns(fresh_run):
    at = fresh_run(PAGE)
    at.multiselect(key="mt_tests").set_value([]).run()
    assert not at.exception
    assert any("at least one test" in w.value for w in at.warning)
    assert not at.get("plotly_chart")


def test_pair_selection(fresh_run):
    at = fresh_run(PAGE)
    at.selectbox(key="mt_pair_x").set_value("Aurora").run()
    at.selectbox(key="mt_pair_y").set_value("Harbor").run()
    no_problems(at)
    m = metric_values(at)
    assert m["p, Approximate randomization"] == "0.0010"  # 1 / (R + 1), R = 1000
    dist = chart_specs(at)[2]
    assert "Aurora vs Harbor" in dist.layout.title.text


def test_presentation_mode(app_test):
    at = app_test(PAGE)
    at.session_state["presentation_mode"] = True
    at.run()
    no_problems(at)
    specs = chart_specs(at)
    # the three tests' grids (long titles) one figure each: legible at 1400 px, large fonts
    grids = [s for s in specs if s.data[0].type == "heatmap"]
    assert [g.layout.annotations[0].text for g in grids] == [
        "Paired bootstrap resampling",
        "Bootstrap resampling",
        "Approximate randomization",
    ]
    assert {g.layout.font.size for g in grids} == {20}
    assert len(specs) == 5


def test_lower_is_better_toggle_for_uploaded_error_scores(fresh_run):
    """An error-type segment metric (here the sample SimCOMET scores negated, which is exact in
    floating point) with "Lower scores are better": the lowest error ranks first and holds the
    p-values, and the grid's p-values equal those of the stats API on the original
    (higher-is-better) SimCOMET scores with the same seed -- the independent reference."""
    import pandas as pd

    long = pd.read_csv(MT / "segment_scores.tsv", sep="\t")
    comet = long[long["METRIC"] == "SimCOMET"]
    neg = comet.assign(SCORE=-comet["SCORE"], METRIC="negCOMET")
    upload = neg.to_csv(sep="\t", index=False, float_format="%.6f").encode()
    at = fresh_run(PAGE)
    at.radio(key="mt_source").set_value("Segment scores").run()
    at.file_uploader(key="mt_scores").set_value([("err.tsv", upload, "text/plain")])
    at.multiselect(key="mt_tests").set_value(["approximate-randomization"])
    at.selectbox(key="mt_resamples").set_value(200).run()
    no_problems(at)
    means = neg.groupby("SYSTEM")["SCORE"].mean()
    assert list(system_table(at).index) == list(means.sort_values(ascending=False).index)
    at.toggle(key="mt_lower").set_value(True).run()
    no_problems(at)
    assert list(system_table(at).index) == list(means.sort_values().index)
    assert metric_values(at)["Best system"] == means.idxmin()
    frame = read_segment_scores(MT / "segment_scores.tsv", metric="SimCOMET")
    expected = pairwise_significance(
        statistics_from_scores(frame),
        test="approximate-randomization",
        n_resamples=200,
        rng=12345,
    )
    assert list(system_table(at).index) == list(expected.systems)
    grid = chart_specs(at)[1]
    p_custom = arr(grid.data[-1].customdata)[..., 0]
    np.testing.assert_array_equal(p_custom, grids.round_as_shown(expected.pvalue, ".3g"))
    # the upper triangle (row = better = lower error) holds the p-values
    upper = np.triu_indices(len(expected.systems), 1)
    assert np.isfinite(p_custom[upper]).all()
    assert np.isnan(p_custom[np.tril_indices(len(expected.systems))]).all()


def test_unreachable_alpha_warns(fresh_run):
    """1/(200+1) ~ 0.005 is not below alpha 0.001 (by hand): the page says nothing can be
    significant there; at 0.05 it does not."""
    at = fresh_run(PAGE)
    at.multiselect(key="mt_tests").set_value(["approximate-randomization"])
    at.selectbox(key="mt_resamples").set_value(200)
    at.radio(key="mt_alpha").set_value(0.001).run()
    no_problems(at)
    assert any("1/(200+1) = 0.004975, not below α = 0.001" in w.value for w in at.warning)
    at.radio(key="mt_alpha").set_value(0.05).run()
    assert not any("smallest attainable" in w.value for w in at.warning)
