"""Outlier systems on Tests vs humans: the findings' MAD rule on the gold standard's human
scores (stats.analyses.human_outliers), and systems left out of the gold standard and of the
accuracy of every test (human_gold / accuracy_from_results with ``exclude``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError
from stats import analyses as A
from stats.metaeval.outliers import mad_outliers
from stats.mt.randomized import pairwise_significance
from tests._data import MT

JUDGEMENTS = Path(__file__).resolve().parents[2] / "sample_data" / "human" / "judgements.tsv"


def lowered_judgements(path: Path) -> Path:
    """Write the sample judgements with Harbor's scores 45 points lower (floored at 0) to
    ``path``; return it."""
    rows = pd.read_csv(JUDGEMENTS, sep="\t")
    harbor = rows["SYSTEM"] == "Harbor"
    rows.loc[harbor, "SCORE"] = (rows.loc[harbor, "SCORE"] - 45).clip(lower=0)
    rows.to_csv(path, sep="\t", index=False)
    return path


@pytest.fixture(scope="module")
def lowered(tmp_path_factory) -> Path:
    return lowered_judgements(tmp_path_factory.mktemp("human") / "judgements.tsv")


def test_outliers_by_the_mad_rule_match_r(lowered):
    gold = A.human_gold([lowered])
    z = gold.scores["adequacy_z"].reindex(list(gold.systems))
    # R 4.x on these mean adequacy z scores (printed from the gold standard, 16 digits):
    #   r <- abs(z - median(z)) / mad(z); names(z)[r > 2.5]  ->  "Harbor"  (r = 16.82;
    #   the next largest, Glacier, 1.38)
    r_golden = [
        0.9533070,
        0.6979238,
        0.4792979,
        0.3797450,
        0.3797450,
        0.6510577,
        1.3800013,
        16.8219246,
    ]
    assert list(z.index) == [
        "Aurora", "Borealis", "Ember", "Cirrus", "Delta", "Fjord", "Glacier", "Harbor",
    ]  # fmt: skip
    robust = np.abs(z - z.median()) / (1.4826 * np.median(np.abs(z - z.median())))
    np.testing.assert_allclose(robust, r_golden, rtol=1e-5)
    assert A.human_outliers(gold) == ("Harbor",)
    assert A.human_outliers(gold) == tuple(z.index[mad_outliers(z.to_numpy())])
    # the sample itself has none; a lower threshold flags more
    assert A.human_outliers(A.human_gold([JUDGEMENTS])) == ()
    assert "Glacier" in A.human_outliers(gold, threshold=1.3)


def test_excluded_system_leaves_the_gold_standard(lowered, tmp_path):
    gold = A.human_gold([lowered], exclude=["Harbor"])
    # the same as a judgements file without Harbor's rows (standardisation included)
    rows = pd.read_csv(lowered, sep="\t")
    without = tmp_path / "without.tsv"
    rows[rows["SYSTEM"] != "Harbor"].to_csv(without, sep="\t", index=False)
    direct = A.human_gold([without])
    assert gold.systems == direct.systems and "Harbor" not in gold.systems
    pd.testing.assert_frame_equal(gold.scores, direct.scores)
    for criterion in gold.pvalue:
        pd.testing.assert_frame_equal(gold.pvalue[criterion], direct.pvalue[criterion])
    assert "left out by choice: Harbor" in gold.warnings
    assert not any("left out by choice" in w for w in direct.warnings)
    with pytest.raises(StatsInputError, match="exclude: no judgements of Nobody"):
        A.human_gold([lowered], exclude=["Nobody"])


def test_accuracy_without_the_excluded_systems(lowered):
    hyps = sorted((MT / "hyp").glob("*.txt"))
    statistics = A.accuracy_statistics(
        references=[MT / "reference.txt"], hypotheses=hyps, metrics=["chrf"]
    )
    results = {
        (metric, "paired-bootstrap"): pairwise_significance(
            stats, test="paired-bootstrap", n_resamples=200, alternative="greater", rng=3
        )
        for metric, stats in statistics.items()
    }
    full = A.accuracy_from_results(
        A.human_gold([lowered]), results, alphas=(0.05, 0.01), n_resamples=200, seed=3
    )
    kept = A.accuracy_from_results(
        A.human_gold([lowered], exclude=["Harbor"]),
        results,
        alphas=(0.05, 0.01),
        n_resamples=200,
        seed=3,
        exclude=["Harbor"],
    )
    assert "Harbor" in full.systems and "Harbor" not in kept.systems
    assert kept.n_pairs == 7 * 6 // 2 and full.n_pairs == 8 * 7 // 2
    assert "left out by choice: Harbor" in kept.warnings
    assert not any("no human judgements" in w for w in kept.warnings)
