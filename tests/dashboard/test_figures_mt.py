"""Figure builders of the "MT systems" page, tested through fig.data / fig.layout arrays."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dashboard.figures import grids, mt_systems, style
from stats.mt.randomized import (
    RANDOMIZED_TESTS,
    bootstrap,
    pairwise_significance,
)
from stats.mt.sufficient import extract_statistics, statistics_from_scores
from tests._data import SINGLE, mt_sample_text


@pytest.fixture(scope="module")
def data():
    refs, hyps = mt_sample_text()
    keep = ["Aurora", "Cirrus", "Delta", "Glacier", "Fjord"]
    return extract_statistics([refs[0][:200]], {k: hyps[k][:200] for k in keep})


@pytest.fixture(scope="module")
def results(data):
    return {t: pairwise_significance(data, test=t, n_resamples=300, rng=5) for t in RANDOMIZED_TESTS}


def test_system_scores(results):
    r = results["bootstrap"]
    fig = mt_systems.mt_system_scores(r.scores, r.score_ci_low, r.score_ci_high, label="BLEU")
    (trace,) = fig.data
    np.testing.assert_allclose(trace.x, r.scores.to_numpy())
    assert list(trace.y) == list(r.systems)
    np.testing.assert_allclose(trace.error_x.array, r.score_ci_high - r.scores)
    np.testing.assert_allclose(trace.error_x.arrayminus, r.scores - r.score_ci_low)
    np.testing.assert_allclose(np.asarray(trace.customdata)[:, 0], r.score_ci_low)
    assert list(fig.layout.yaxis.categoryarray) == list(r.systems)
    assert fig.layout.yaxis.autorange == "reversed"  # best at the top
    assert "higher is better" in fig.layout.xaxis.title.text
    ter = mt_systems.mt_system_scores(
        r.scores, r.score_ci_low, r.score_ci_high, label="TER", higher_is_better=False
    )
    assert "lower is better" in ter.layout.xaxis.title.text


@pytest.mark.parametrize("alpha", [0.05, 0.001])
def test_significance_grids_side_by_side(results, alpha):
    panels = {t: results[t] for t in RANDOMIZED_TESTS}
    fig = mt_systems.mt_significance_grids(panels, alpha=alpha)
    assert len(fig.data) == len(panels)  # one heatmap per test
    assert [a.text for a in fig.layout.annotations][: len(panels)] == list(RANDOMIZED_TESTS)
    for k, t in enumerate(RANDOMIZED_TESTS):
        p = results[t].pvalue.to_numpy()
        trace = fig.data[k]
        expected = grids.significance_colour_value(p, alpha)
        np.testing.assert_array_equal(np.asarray(trace.z, dtype=float), expected)
        assert np.all(expected[(p >= alpha)] == style.NOT_SIGNIFICANT_Z)  # grey band
        custom = np.asarray(trace.customdata, dtype=float)
        np.testing.assert_array_equal(custom[..., 0], grids.round_as_shown(p, ".3g"))
        np.testing.assert_allclose(custom[..., 1], results[t].statistic.to_numpy(), atol=5e-4)
        np.testing.assert_allclose(custom[..., 2], results[t].diff_ci_low.to_numpy(), atol=5e-4)
        assert list(trace.y) == list(results[t].systems)
    assert fig.layout.meta["alpha"] == alpha
    one = mt_systems.mt_significance_grids(
        {"AR": results["approximate-randomization"]}, alpha=alpha
    )
    assert len(one.data) == 1


@pytest.mark.parametrize("alternative", ["greater", "two-sided", "less"])
def test_pseudo_distributions(data, alternative):
    r = 400
    single = {
        t: SINGLE[t]("Cirrus", "Delta", data=data, n_resamples=r, rng=9, alternative=alternative)
        for t in RANDOMIZED_TESTS
    }
    fig = mt_systems.mt_pseudo_distributions(single)
    assert len(fig.data) == 2 * len(RANDOMIZED_TESTS)
    for k, t in enumerate(RANDOMIZED_TESTS):
        counted, other = fig.data[2 * k], fig.data[2 * k + 1]
        assert (counted.name, other.name) == ("counted", "not counted")
        assert int(np.sum(counted.y) + np.sum(other.y)) == r
        res = single[t]
        mask = res.counted
        assert int(np.sum(counted.y)) == int(mask.sum())
        if not (t == "paired-bootstrap" and alternative == "two-sided"):
            # the highlighted bars are exactly the c of p = (c + 1) / (R + 1)
            assert int(np.sum(counted.y)) == round(res.pvalue * (r + 1) - 1)
        # bin edges cover every pseudo-statistic and the statistic
        edges = np.asarray(counted.customdata, dtype=float)
        assert edges[0, 0] <= res.null_distribution.min()
        assert edges[-1, 1] >= max(res.null_distribution.max(), res.statistic) - 1e-12
    names = [s.name for s in fig.layout.shapes]
    xs = {(s.name, round(float(s.x0), 9)) for s in fig.layout.shapes}
    stat = round(single["approximate-randomization"].statistic, 9)
    assert ("actual statistic", stat) in xs
    assert ("cut-off", 0.0) in xs  # paired bootstrap cuts at 0
    assert names.count("actual statistic") == len(RANDOMIZED_TESTS)
    assert names.count("mirrored statistic") == (2 if alternative == "two-sided" else 0)
    assert "p = " in fig.layout.annotations[0].text


def test_pseudo_distribution_bootstrap_is_shifted(data):
    res = bootstrap("Cirrus", "Delta", data=data, n_resamples=300, rng=2)
    fig = mt_systems.mt_pseudo_distributions({"bootstrap": res})
    centers = np.asarray(fig.data[0].x)
    weights = np.asarray(fig.data[0].y) + np.asarray(fig.data[1].y)
    # histogram mean ~ 0: the distribution drawn is the shifted one (null_distribution)
    assert abs(np.average(centers, weights=weights)) < np.diff(centers)[0]
    assert "τ_B" in fig.layout.xaxis.title.text


@pytest.mark.parametrize("higher_is_better", [True, False])
def test_pseudo_distribution_axis_names_the_difference_the_statistic_is(higher_is_better):
    # a lower-is-better metric (TER): the statistic is S_Y - S_X, and the axis must say so
    scores = pd.DataFrame({"X": [0.1, 0.2, 0.3, 0.2] * 5, "Y": [0.3, 0.4, 0.3, 0.5] * 5})
    seg = statistics_from_scores(scores, label="TER", higher_is_better=higher_is_better)
    single = {t: SINGLE[t]("X", "Y", data=seg, n_resamples=200, rng=1) for t in RANDOMIZED_TESTS}
    fig = mt_systems.mt_pseudo_distributions(single)
    mean_x, mean_y = scores.mean()
    for k, t in enumerate(RANDOMIZED_TESTS):
        title = fig.layout[f"xaxis{k + 1 if k else ''}"].title.text
        assert title.startswith("S_X − S_Y" if higher_is_better else "S_Y − S_X")
        expected = mean_x - mean_y if higher_is_better else mean_y - mean_x
        assert single[t].statistic == pytest.approx(expected)


def test_empty_results_raise():
    with pytest.raises(ValueError, match="nothing to draw"):
        mt_systems.mt_pseudo_distributions({})


@pytest.mark.parametrize("alternative", ["greater", "two-sided", "less"])
def test_pseudo_distributions_counted_bars_end_at_the_cut_off(data, alternative):
    """G report item 11: one set of bins for both traces, with the cut-off (0 for the paired
    bootstrap, the statistic and its mirror otherwise) on a bin edge, so the highlighted bars
    never cross the line."""
    single = {
        t: SINGLE[t]("Cirrus", "Delta", data=data, n_resamples=400, rng=3, alternative=alternative)
        for t in RANDOMIZED_TESTS
    }
    fig = mt_systems.mt_pseudo_distributions(single)
    for k, t in enumerate(RANDOMIZED_TESTS):
        counted, other = fig.data[2 * k], fig.data[2 * k + 1]
        np.testing.assert_array_equal(counted.x, other.x)  # the same bins for both traces
        np.testing.assert_array_equal(counted.width, other.width)
        edges = np.asarray(counted.customdata, dtype=float)
        res = single[t]
        stat = float(res.statistic)
        if t == "paired-bootstrap":
            cuts = [0.0]
        elif alternative == "two-sided":
            cuts = [abs(stat), -abs(stat)]
        else:
            cuts = [stat]
        bounds = np.concatenate([edges[:, 0], edges[-1:, 1]])
        for cut in cuts:
            assert np.min(np.abs(bounds - cut)) < 1e-9 * max(1.0, abs(cut))  # cut on an edge
            # no bin straddles the cut-off, so no bar has counted and uncounted parts there
            assert not np.any((edges[:, 0] < cut - 1e-9) & (edges[:, 1] > cut + 1e-9))
        y = np.asarray(counted.y)
        lo, hi = edges[y > 0, 0], edges[y > 0, 1]
        if t == "paired-bootstrap" and alternative == "greater":
            assert np.all(hi <= 1e-9)  # counted: X does not beat Y, left of 0
        if t != "paired-bootstrap" and alternative == "greater":
            assert np.all(lo >= stat - 1e-9)  # counted: at least the actual statistic
        if t != "paired-bootstrap" and alternative == "less":
            assert np.all(hi <= stat + 1e-9)
        if t != "paired-bootstrap" and alternative == "two-sided":
            assert np.all((lo >= abs(stat) - 1e-9) | (hi <= -abs(stat) + 1e-9))


@pytest.mark.parametrize("scale", [1e-10, 1.0, 1e10])
@pytest.mark.parametrize("alternative", ["greater", "two-sided", "less"])
def test_highlighted_bars_are_what_the_pvalue_counts_at_any_scale(scale, alternative):
    # Segment scores with many ties (so approximate randomization meets the observed statistic
    # exactly), scaled: the highlighted bars must be the test's own `counted` at every scale.
    # A figure-side tolerance once made AR at 1e-10 highlight every bar while p was 0.23.
    rng = np.random.default_rng(4)
    base = rng.integers(0, 3, size=(2, 40)).astype(float)
    seg = statistics_from_scores(pd.DataFrame({"X": base[0] * scale, "Y": base[1] * scale}))
    r = 500
    for t in RANDOMIZED_TESTS:
        res = SINGLE[t]("X", "Y", data=seg, n_resamples=r, rng=3, alternative=alternative)
        fig = mt_systems.mt_pseudo_distributions({t: res})
        counted, other = fig.data[0], fig.data[1]
        assert int(np.sum(counted.y)) == int(res.counted.sum())
        assert int(np.sum(counted.y) + np.sum(other.y)) == r
        if not (t == "paired-bootstrap" and alternative == "two-sided"):
            assert int(np.sum(counted.y)) + 1 == round(res.pvalue * (r + 1))
