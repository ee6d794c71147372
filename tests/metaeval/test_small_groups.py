"""A correlation over fewer than 3 items is undefined (NaN, named in a warning), in every place
that correlates per group: meta-eval's groupings (item, system, none, system level), PERM-BOTH's
groups, QE (refused below 4 sentences) and by-domain analyses. ``min_group_size=2`` gives
MTME's values (``AverageCorrelation`` computes a correlation over 2 items: +-1).

Expected values come from scipy on the groups that are left (a plain second formulation).
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.stats

from stats import DegenerateInputWarning, StatsInputError, meta_correlation, perm_both

NAN = np.nan
# 4 systems x 5 items; item 3 (index 2) and system 4 (index 3) have 2 gold scores each
GOLD = np.array([
    [1.0, 2.0, 3.0, 4.0, 2.5],
    [2.0, 1.0, 5.0, 3.0, 3.5],
    [3.0, 4.0, NAN, 1.0, 1.5],
    [4.0, NAN, NAN, NAN, 4.5],
])
METRIC = np.array([
    [1.2, 2.5, 2.0, 3.1, 2.0],
    [2.1, 0.7, 4.0, 3.3, 3.9],
    [2.7, 3.6, 0.1, 1.4, 1.0],
    [3.9, 1.0, 2.0, 0.5, 3.0],
])


def _groups(gold, metric, axis):
    """(gold, metric) of each group with its gold scores (item: columns; system: rows)."""
    g, m = (gold.T, metric.T) if axis == "item" else (gold, metric)
    return [(gi[~np.isnan(gi)], mi[~np.isnan(gi)]) for gi, mi in zip(g, m, strict=True)]


@pytest.mark.parametrize("correlation", ["pearson", "spearman", "kendall", "kendall-c"])
@pytest.mark.parametrize(("grouping", "small", "unit"), [("item", 2, "item 3"),
                                                          ("system", 3, "system 4")])
def test_groups_of_two_are_undefined_and_named(correlation, grouping, small, unit):
    with pytest.warns(DegenerateInputWarning, match=rf"{correlation}: 1 of \d groups by "
                      rf"{grouping} \({unit} \(2\); .*fewer than 3 items, so the correlation is "
                      r"undefined \(NaN\)"):
        res = meta_correlation(METRIC, GOLD, correlation=correlation, grouping=grouping)
    assert math.isnan(res.group_statistics[small])
    f = {"pearson": scipy.stats.pearsonr, "spearman": scipy.stats.spearmanr,
         "kendall": scipy.stats.kendalltau,
         "kendall-c": lambda a, b: scipy.stats.kendalltau(a, b, variant="c")}[correlation]
    groups = _groups(GOLD, METRIC, grouping)
    want = [f(g, m)[0] for k, (g, m) in enumerate(groups) if k != small]
    assert res.n_groups == len(want)
    assert res.statistic == pytest.approx(np.mean(want), abs=1e-12)
    # MTME's rule (a correlation over 2 items, always +-1), chosen by the option
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateInputWarning)
        mtme = meta_correlation(METRIC, GOLD, correlation=correlation, grouping=grouping,
                                min_group_size=2)
    every = [f(g, m)[0] for g, m in groups]
    assert abs(every[small]) == pytest.approx(1.0)
    assert mtme.statistic == pytest.approx(np.mean(every), abs=1e-12)


def test_bootstrap_leaves_small_groups_out_and_pair_statistics_keep_them():
    res = None
    with pytest.warns(DegenerateInputWarning, match="item 3"):
        res = meta_correlation(METRIC, GOLD, grouping="item", n_resamples=200, rng=3)
    masked = GOLD.copy()
    masked[:, 2] = NAN
    plain = meta_correlation(METRIC, masked, grouping="item", n_resamples=200, rng=3)
    np.testing.assert_array_equal(res.bootstrap_distribution, plain.bootstrap_distribution)
    # pair statistics count pairs: one pair (2 cells) is an answer, as in MTME and WMT20
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateInputWarning)
        for corr in ("acc23", "kendall-like"):
            r = meta_correlation(METRIC, GOLD, correlation=corr, grouping="item",
                                 **({"threshold": 0.5} if corr == "kendall-like" else {}))
            assert not math.isnan(r.group_statistics[2])


def test_two_systems_at_system_level_are_undefined():
    gold, metric = GOLD[:2], METRIC[:2]
    with pytest.warns(DegenerateInputWarning) as caught:
        res = meta_correlation(metric, gold, level="sys")
    assert math.isnan(res.statistic)
    text = " | ".join(str(w.message) for w in caught)
    assert "the system scores (2 systems with a gold score): fewer than 3 items" in text
    assert abs(meta_correlation(metric, gold, level="sys", min_group_size=2).statistic) == 1.0


@pytest.mark.parametrize("bad", [1, 0, 2.5, True, "3"])
def test_min_group_size_refused(bad):
    with pytest.raises((StatsInputError, TypeError), match="min_group_size"):
        meta_correlation(METRIC, GOLD, min_group_size=bad)


def test_perm_both_leaves_small_groups_out_of_every_resample():
    rng = np.random.default_rng(5)
    gold = rng.normal(size=(6, 30))
    gold[2:, 4] = NAN  # item 5: 2 gold scores
    gold[1:, 9] = NAN  # item 10: 1 gold score (left out by the two-score rule already)
    metrics = {"a": gold + rng.normal(0, 0.5, gold.shape), "b": gold + rng.normal(0, 1.5, gold.shape),
               "c": rng.normal(size=gold.shape)}
    metrics = {k: np.where(np.isnan(v), rng.normal(size=v.shape), v) for k, v in metrics.items()}
    for correlation in ("pearson", "kendall"):
        with pytest.warns(DegenerateInputWarning) as caught:
            res = perm_both(metrics, gold, correlation=correlation, grouping="item",
                            n_resamples=300, rng=7)
        notes = [str(w.message) for w in caught if "fewer than 3" in str(w.message)]
        assert len(notes) == 1 and "item 5 (2)" in notes[0]
        masked = gold.copy()
        masked[:, 4] = NAN
        plain = perm_both(metrics, masked, correlation=correlation, grouping="item",
                          n_resamples=300, rng=7)
        # the same swaps: the same p-values as with the small group's gold removed
        np.testing.assert_allclose(res.pvalue.to_numpy(), plain.pvalue.to_numpy(), equal_nan=True)
        assert dict(res.correlations) == pytest.approx(dict(plain.correlations))


def test_perm_both_over_two_systems_is_undefined_everywhere():
    rng = np.random.default_rng(6)
    gold = rng.normal(size=(2, 20))
    metrics = {"a": gold + rng.normal(0, 0.3, gold.shape), "b": rng.normal(size=gold.shape)}
    with pytest.warns(DegenerateInputWarning):
        res = perm_both(metrics, gold, level="sys", n_resamples=100, rng=1)
    assert res.correlations.isna().all()
    assert res.pvalue.isna().to_numpy().all()


def test_qe_refuses_fewer_than_four_sentences():
    # QE correlates each system over one language pair's sentences: below 4 (the Williams
    # test's n - 3 degrees of freedom) it is refused, so no correlation over 2 or 3 exists
    from stats import qe_scores

    with pytest.raises(StatsInputError, match="at least 4 sentences"):
        qe_scores(np.array([[0.1, 0.2], [0.5, 0.3], [0.9, 0.4]]), [0.2, 0.4, 0.8])
