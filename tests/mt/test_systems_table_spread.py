"""SystemsTableResult.spread (the standard error of each system's difference from the baseline,
from which the MT systems page states the minimum detectable effect): checked against a plain
second formulation, sacreBLEU's bootstrap draws (``rng.choice(n, (B, n))``) summed segment by
segment and scored, the standard deviation of the differences taken directly."""

from __future__ import annotations

import numpy as np
import pytest

from stats import systems_table
from stats.mt.sufficient import extract_statistics
from tests._data import mt_sample_text


@pytest.mark.parametrize("test", ["paired-bootstrap", "approximate-randomization"])
def test_spread_is_the_std_of_the_bootstrap_differences(test):
    refs, hyps = mt_sample_text()
    d = extract_statistics(refs, hyps, metric="bleu")
    r = systems_table(d, n_resamples=300, n_ci_resamples=200, rng=7, baseline="Delta",
                      test=test)
    gen = np.random.default_rng(7)
    n = d.n_segments
    if test == "approximate-randomization":  # the masks come first from the same generator
        gen.integers(2, size=(300, n), dtype=bool)
    b = 300 if test == "paired-bootstrap" else 200
    idx = gen.choice(n, (b, n))
    stats = d.subset(list(r.systems)).stats  # (K, n, d), the baseline first
    totals = stats[:, idx, :].sum(axis=2)  # (K, B, d)
    scores = np.stack([d.score(t) for t in totals], axis=1)  # (B, K)
    expected = np.std(scores - scores[:, [0]], axis=0)
    assert np.isnan(r.spread.iloc[0, 0])
    np.testing.assert_allclose(r.spread.iloc[1:, 0], expected[1:], rtol=1e-9)
