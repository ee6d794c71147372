"""stats.analyses.without_systems: systems left out of the randomized tests. Golden values: the
same tests run on statistics extracted from only the kept systems' files (as if the excluded
ones had never been given), with the same seed."""

from __future__ import annotations

import pandas as pd
import pytest

from stats import StatsInputError
from stats.analyses import text_statistics, without_systems
from stats.mt.randomized import pairwise_significance
from tests._data import mt_sample_head

SYSTEMS = ("Aurora", "Cirrus", "Delta", "Harbor")


def _files(systems):
    ref, hyps = mt_sample_head(50, SYSTEMS)
    return [("ref.txt", ref.encode())], [(f"{s}.txt", hyps[s].encode()) for s in systems]


@pytest.mark.parametrize("test", ["paired-bootstrap", "approximate-randomization"])
def test_equals_the_tests_without_those_files(test):
    data = without_systems(text_statistics(*_files(SYSTEMS)), ["Cirrus"])
    kept = text_statistics(*_files(("Aurora", "Delta", "Harbor")))
    assert data.systems == kept.systems
    got = pairwise_significance(data, test=test, n_resamples=300, rng=5)
    want = pairwise_significance(kept, test=test, n_resamples=300, rng=5)
    pd.testing.assert_frame_equal(got.pvalue, want.pvalue)
    pd.testing.assert_series_equal(got.scores, want.scores)


def test_nothing_excluded_is_the_same_data():
    data = text_statistics(*_files(SYSTEMS))
    assert without_systems(data, []).systems == data.systems


@pytest.mark.parametrize(
    ("excluded", "match"),
    [
        (["Zed"], r"excluded: unknown system\(s\) Zed; known systems: Aurora, Cirrus, Delta"),
        (["Aurora", "Cirrus", "Delta"], "after leaving out Aurora, Cirrus, Delta: need at least "
         r"two systems to compare; got 1 \(Harbor\)"),
    ],
)
def test_errors(excluded, match):
    with pytest.raises(StatsInputError, match=match):
        without_systems(text_statistics(*_files(SYSTEMS)), excluded)
