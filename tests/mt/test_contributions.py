"""stats.mt.contributions.segment_contributions: each segment's part in the difference of two
systems. Golden values: sacrebleu's own corpus scores (corpus_bleu, corpus_chrf, corpus_ter)
recomputed with each segment left out, one call per segment, outside the project's
statistics; for segment scores, the differences computed with plain Python floats."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import sacrebleu

from stats import DegenerateInputWarning, StatsInputError, segment_contributions
from stats.mt.sufficient import extract_statistics, statistics_from_scores

REF = [
    "the cat sat on the mat today",
    "a quick brown fox jumps over the lazy dog",
    "we went to the market to buy fresh bread",
    "it was raining heavily in the north of the country",
    "the committee approved the new budget on monday",
    "she plays the violin in the city orchestra",
]
HYP_A = [
    "the cat sat on the mat today",
    "a fast brown fox jumps over a lazy dog",
    "we went to market to buy bread",
    "it rained heavily in the north of the country",
    "the committee approved a new budget monday",
    "she plays violin in the orchestra of the city",
]
HYP_B = [
    "a cat is sitting on the mat",
    "the quick brown fox jumped over the lazy dog",
    "we go to the market for fresh bread",
    "heavy rain in north country",
    "the committee approved the new budget on monday",
    "she is playing violin in an orchestra",
]

SACREBLEU = {
    "bleu": lambda h, r: sacrebleu.corpus_bleu(h, [r]).score,
    "chrf": lambda h, r: sacrebleu.corpus_chrf(h, [r]).score,
    "ter": lambda h, r: sacrebleu.corpus_ter(h, [r]).score,
}


def _without(lines, i):
    return lines[:i] + lines[i + 1 :]


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_leave_one_out_equals_sacrebleu(metric):
    data = extract_statistics([REF], {"A": HYP_A, "B": HYP_B}, metric=metric)
    res = segment_contributions(data, "A", "B")
    score = SACREBLEU[metric]
    diff = score(HYP_A, REF) - score(HYP_B, REF)
    loo = [
        score(_without(HYP_A, i), _without(REF, i)) - score(_without(HYP_B, i), _without(REF, i))
        for i in range(len(REF))
    ]
    assert res.difference == pytest.approx(diff, rel=1e-13, abs=1e-12)
    np.testing.assert_allclose(res.leave_one_out.to_numpy(), loo, rtol=1e-13, atol=1e-12)
    np.testing.assert_allclose(
        res.contributions.to_numpy(), diff - np.array(loo), rtol=1e-12, atol=1e-11
    )
    assert list(res.contributions.index) == [str(i) for i in range(1, 7)]
    assert (res.x, res.y, res.metric) == ("A", "B", metric)
    assert res.higher_is_better == (metric != "ter")


def test_swapping_the_systems_negates():
    data = extract_statistics([REF], {"A": HYP_A, "B": HYP_B}, metric="bleu")
    ab = segment_contributions(data, "A", "B")
    ba = segment_contributions(data, "B", "A")
    np.testing.assert_allclose(
        ab.contributions.to_numpy(), -ba.contributions.to_numpy(), atol=1e-12
    )


def test_segment_scores_give_the_score_difference():
    x = [0.5, 0.25, 0.125, 0.75]
    y = [0.25, 0.5, 0.125, 0.0]
    frame = pd.DataFrame({"X": x, "Y": y}, index=["d1:1", "d1:2", "d2:1", "d2:2"])
    res = segment_contributions(statistics_from_scores(frame, label="COMET"), "X", "Y")
    assert res.contributions.to_dict() == {
        "d1:1": 0.25,
        "d1:2": -0.25,
        "d2:1": 0.0,
        "d2:2": 0.75,
    }
    assert res.difference == pytest.approx(sum(x) / 4 - sum(y) / 4, abs=1e-15)
    loo = [(sum(x) - x[i]) / 3 - (sum(y) - y[i]) / 3 for i in range(4)]
    np.testing.assert_allclose(res.leave_one_out.to_numpy(), loo, atol=1e-15)


def test_one_segment_warns_and_gives_nan():
    data = extract_statistics([REF[:1]], {"A": HYP_A[:1], "B": HYP_B[:1]}, metric="bleu")
    with pytest.warns(DegenerateInputWarning, match="one segment only"):
        res = segment_contributions(data, "A", "B")
    assert np.isnan(res.contributions.iloc[0]) and np.isnan(res.leave_one_out.iloc[0])


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (("A", "A"), "two different systems; got 'A' twice"),
        (("A", "Z"), "unknown system 'Z'; known systems: A, B"),
    ],
)
def test_errors(args, match):
    data = extract_statistics([REF], {"A": HYP_A, "B": HYP_B}, metric="bleu")
    with pytest.raises(StatsInputError, match=match):
        segment_contributions(data, *args)
    with pytest.raises(StatsInputError, match="data must be SegmentStatistics"):
        segment_contributions(pd.DataFrame(), "A", "B")
