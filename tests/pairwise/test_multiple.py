"""Multiple-comparison corrections and significance clusters."""

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError
from stats.pairwise.clusters import significance_clusters
from stats.pairwise.multiple import adjust_matrix, adjust_pvalues

# Golden values: R 4 `p.adjust(p, "holm")` and `p.adjust(p, "BH")`, printed with %.17g
# (script: p <- c(...); cat(sprintf("%.17g", p.adjust(p, "holm")), sep=", ")).
P1 = [0.01, 0.04, 0.03, 0.005, 0.2, 0.04, 0.7, 0.0001, 0.049, 0.5]
HOLM1 = [0.08, 0.24, 0.21, 0.045, 0.6, 0.24, 1, 0.001, 0.24, 1]
BH1 = [0.033333333333333333, 0.066666666666666666, 0.066666666666666666, 0.025, 0.25,
       0.066666666666666666, 0.7, 0.001, 0.07, 0.55555555555555558]
P2 = [0.02, 0.001, 0.3, 0.3, 0.011, 0.04]
HOLM2 = [0.08, 0.006, 0.6, 0.6, 0.055, 0.12]
BH2 = [0.04, 0.006, 0.3, 0.3, 0.033, 0.06]


@pytest.mark.parametrize(
    "p, holm, bh", [(P1, HOLM1, BH1), (P2, HOLM2, BH2)], ids=["ten", "ties"]
)
def test_adjust_pvalues_equal_r_p_adjust(p, holm, bh):
    np.testing.assert_allclose(adjust_pvalues(p, method="holm"), holm, rtol=1e-12)
    np.testing.assert_allclose(adjust_pvalues(p, method="bh"), bh, rtol=1e-12)
    np.testing.assert_array_equal(adjust_pvalues(p, method="none"), p)


def test_nan_is_not_in_the_family():
    p = np.array([np.nan, 0.01, 0.04, np.nan, 0.03, 0.005, 0.2, 0.04, 0.7, 0.0001, 0.049, 0.5])
    out = adjust_pvalues(p, method="holm")
    assert np.isnan(out[[0, 3]]).all()
    np.testing.assert_allclose(out[~np.isnan(p)], HOLM1, rtol=1e-12)


def test_adjust_matrix_family_is_the_grid():
    # a 5 x 5 grid holds 10 pairs: P1, one per pair, in the upper triangle
    names = list("abcde")
    grid = np.full((5, 5), np.nan)
    iu = np.triu_indices(5, 1)
    grid[iu] = P1
    frame = pd.DataFrame(grid, index=names, columns=names)
    out = adjust_matrix(frame, method="bh")
    np.testing.assert_allclose(out.to_numpy()[iu], BH1, rtol=1e-12)
    assert out.isna().to_numpy()[np.tril_indices(5)].all()
    assert list(out.index) == names and list(out.columns) == names


@pytest.mark.parametrize(
    "bad, match",
    [(dict(pvalues=[0.1], method="bonferroni"), "method"), (dict(pvalues=[1.5]), r"\[0, 1\]"),
     (dict(pvalues="x"), "pvalues")],
)
def test_adjust_bad_input(bad, match):
    with pytest.raises(StatsInputError, match=match):
        adjust_pvalues(**bad)


# Golden values: mt_metrics_eval.data.AssignRanks (google-research/mt-metrics-eval, run outside
# the project with PYTHONPATH=/tmp/mtme) on the same matrices; the first three are MTME's own
# pinned cases (data_test.testAssignRanks), the others random grids drawn with
# numpy.random.default_rng(20261124).
MTME_4A = [[0, 1, 1, 1], [0, 0, 1, 1], [0, 0, 0, 1], [0, 0, 0, 0]]
MTME_4B = [[0, 1, 0, 1], [0, 0, 1, 1], [0, 0, 0, 1], [0, 0, 0, 0]]
MTME_4C = [[0, 0, 1, 1], [0, 0, 1, 1], [0, 0, 0, 0], [0, 0, 0, 0]]
GRID5 = [[0.0, 0.6, 0.001, 0.6, 0.03], [0.0, 0.0, 0.01, 0.2, 0.03],
         [0.0, 0.0, 0.0, 0.2, 0.01], [0.0, 0.0, 0.0, 0.0, 0.2], [0.0, 0.0, 0.0, 0.0, 0.0]]
GRID8 = [[0.0, 0.01, 0.6, 0.6, 0.01, 0.001, 0.6, 0.03],
         [0.0, 0.0, 0.001, 0.001, 0.03, 0.2, 0.001, 0.01],
         [0.0, 0.0, 0.0, 0.6, 0.6, 0.01, 0.01, 0.2],
         [0.0, 0.0, 0.0, 0.0, 0.2, 0.03, 0.001, 0.01],
         [0.0, 0.0, 0.0, 0.0, 0.0, 0.01, 0.03, 0.2],
         [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.01, 0.03],
         [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.6],
         [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]]


@pytest.mark.parametrize(
    "grid, alpha, ranks",
    [
        (MTME_4A, 0.5, [1, 1, 1, 1]),
        (MTME_4B, 0.5, [1, 1, 2, 2]),
        (MTME_4C, 0.5, [1, 2, 2, 3]),
        (GRID5, 0.05, [1, 1, 2, 2, 3]),
        (GRID5, 0.005, [1, 1, 2, 2, 2]),
        (GRID5, 0.3, [1, 1, 2, 3, 4]),
        (GRID8, 0.05, [1, 2, 3, 3, 3, 4, 5, 5]),
    ],
)
def test_clusters_equal_mtme_assign_ranks(grid, alpha, ranks):
    names = [f"m{i}" for i in range(len(grid))]
    frame = pd.DataFrame(np.array(grid, dtype=float), index=names, columns=names)
    got = significance_clusters(frame, alpha=alpha)
    assert got.tolist() == ranks
    assert list(got.index) == names


def test_clusters_nan_and_lower_triangle():
    # human gold combined: c won its pair with a (p in the lower triangle); only "a beats c"
    # (upper cell) separates, so c stays in a's cluster; b is beaten by a
    names = ["a", "b", "c"]
    p = pd.DataFrame(
        [[np.nan, 0.01, np.nan], [np.nan, np.nan, 0.5], [0.001, np.nan, np.nan]],
        index=names, columns=names,
    )
    assert significance_clusters(p).tolist() == [1, 2, 2]
    # the order argument reorders: in b, c, a the cell (c, a) separates a
    assert significance_clusters(p, order=["b", "c", "a"]).tolist() == [1, 1, 2]


def test_clusters_bad_input():
    frame = pd.DataFrame(np.zeros((2, 2)), index=["a", "b"], columns=["a", "b"])
    with pytest.raises(StatsInputError, match="alpha"):
        significance_clusters(frame, alpha=0)
    with pytest.raises(StatsInputError, match="zz"):
        significance_clusters(frame, order=["a", "zz"])
    with pytest.raises(StatsInputError, match="square"):
        significance_clusters(frame.iloc[:1])
