"""Sufficient statistics: corpus scores from summed per-segment statistics equal sacrebleu's.

Golden source: sacrebleu 2.6 itself (``Metric.corpus_score`` on the strings, and
``Metric._compute_score_from_stats`` on summed statistics), an independent code path from our
vectorised numpy score functions.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import sacrebleu

from stats import StatsInputError
from stats.mt.sufficient import (
    SegmentStatistics,
    extract_statistics,
    metric_score,
    statistics_from_scores,
)
from tests._data import mt_sample_text

CLASSES = {"bleu": sacrebleu.BLEU, "chrf": sacrebleu.CHRF, "ter": sacrebleu.TER}


@pytest.fixture(scope="module")
def corpus():
    refs, hyps = mt_sample_text()
    n = 120  # a slice keeps TER fast
    refs = [r[:n] for r in refs]
    hyps = {k: v[:n] for k, v in list(hyps.items())[:4]}
    hyps["Empty"] = [""] * 3 + hyps["Aurora"][3:]  # empty outputs are scorable
    return refs, hyps


CASES = [
    ("bleu", {}),
    ("bleu", {"smooth_method": "none"}),
    ("bleu", {"smooth_method": "floor"}),
    ("bleu", {"smooth_method": "add-k", "effective_order": True}),
    ("bleu", {"lowercase": True, "tokenize": "char"}),
    ("chrf", {}),
    ("chrf", {"word_order": 2}),
    ("chrf", {"eps_smoothing": True}),
    ("ter", {}),
    ("ter", {"normalized": True, "case_sensitive": True}),
]


@pytest.mark.parametrize(("metric", "opts"), CASES)
def test_corpus_scores_equal_sacrebleu_exactly(corpus, metric, opts):
    refs, hyps = corpus
    data = extract_statistics(refs, hyps, metric=metric, **opts)
    assert data.stats.shape[:2] == (len(hyps), len(refs[0]))
    # golden: sacrebleu scoring the strings (the references given once: sacrebleu's cache)
    scorer = CLASSES[metric](**opts, references=refs)
    for k, name in enumerate(data.systems):
        expected = scorer.corpus_score(hyps[name], None).score
        assert data.corpus_scores[k] == expected
        assert data.scores[name] == expected
        # vectorised score of the summed statistics: same formula, rounding only
        ours = float(data.score(data.stats[k].sum(axis=0)))
        assert ours == pytest.approx(expected, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize(("metric", "opts"), CASES)
def test_vectorised_score_matches_sacrebleu_on_resamples(corpus, metric, opts):
    refs, hyps = corpus
    data = extract_statistics(refs, hyps, metric=metric, **opts)
    rng = np.random.default_rng(7)
    # small resamples hit the edge cases: no matches, zero totals, short hypotheses
    sizes = rng.integers(1, 6, size=60)
    sums = np.stack(
        [
            data.stats[k % data.n_systems][rng.integers(0, data.n_segments, s)].sum(0)
            for k, s in enumerate(sizes)
        ]
    )
    scorer = CLASSES[metric](**opts)
    expected = [scorer._compute_score_from_stats(list(row)).score for row in sums]
    ours = data.score(sums)  # one vectorised call for all rows
    np.testing.assert_allclose(ours, expected, rtol=1e-12, atol=1e-12)


def test_zero_statistics_give_sacrebleu_values():
    for metric in ("bleu", "chrf", "ter"):
        d = {"bleu": 10, "chrf": 18, "ter": 2}[metric]
        zero = np.zeros(d)
        expected = CLASSES[metric]()._compute_score_from_stats(list(zero)).score
        assert float(metric_score(metric, zero)) == expected


def test_multiple_references_equal_sacrebleu(corpus):
    refs, hyps = corpus
    second = [" ".join(r.split()[1:] + r.split()[:1]) for r in refs[0]]  # rotated words
    refs2 = [refs[0], second]
    for metric in ("bleu", "chrf", "ter"):
        n = 40 if metric == "ter" else len(second)  # TER's shift search is slow: a slice
        sub_refs, sub_hyps = [r[:n] for r in refs2], {k: v[:n] for k, v in hyps.items()}
        data = extract_statistics(sub_refs, sub_hyps, metric=metric)
        scorer = CLASSES[metric](references=sub_refs)
        for k, name in enumerate(data.systems):
            golden = scorer.corpus_score(sub_hyps[name], None).score
            assert data.corpus_scores[k] == golden
        assert "nrefs:2" in data.signature


def test_metadata(corpus):
    refs, hyps = corpus
    ter = extract_statistics(refs, hyps, metric="ter")
    assert ter.higher_is_better is False and ter.label == "TER"
    bleu = extract_statistics(refs, hyps, metric="bleu")
    assert bleu.higher_is_better is True and bleu.label == "BLEU"
    assert bleu.signature.startswith("nrefs:1|case:mixed")
    assert extract_statistics(refs, hyps, metric="chrf", word_order=2).label == "chrF2++"
    sub = bleu.subset(["Empty", "Aurora"])
    assert sub.systems == ("Empty", "Aurora")
    np.testing.assert_array_equal(sub.stats[1], bleu.stats[bleu.index_of("Aurora")])


def test_progress_called_per_system(corpus):
    refs, hyps = corpus
    seen = []
    extract_statistics(refs, hyps, metric="bleu", progress=seen.append)
    assert seen == pytest.approx([(k + 1) / len(hyps) for k in range(len(hyps))])


def test_statistics_from_scores_mean():
    frame = pd.DataFrame({"A": [0.1, 0.5, 0.9], "B": [0.2, 0.2, 0.2]}, index=["s1", "s2", "s3"])
    data = statistics_from_scores(frame, label="COMET")
    assert isinstance(data, SegmentStatistics)
    assert data.metric == "mean" and data.label == "COMET"
    np.testing.assert_allclose(data.corpus_scores, [0.5, 0.2])
    np.testing.assert_allclose(data.score(data.stats.sum(axis=1)), [0.5, 0.2])
    assert data.segment_ids == ("s1", "s2", "s3")
    assert SegmentStatistics.from_scores(frame).label == "mean score"


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: extract_statistics([["a b"]], {"A": ["a"]}, metric="meteor"), "metric must be"),
        (lambda: extract_statistics("a b", {"A": ["a"]}), "references"),
        (lambda: extract_statistics([["a"], ["a", "b"]], {"A": ["a"]}), "reference 2 has 2"),
        (lambda: extract_statistics([["a", "b"]], {"A": ["a"]}), "'A' has 1 segments"),
        (lambda: extract_statistics([["a"]], ["a"]), "mapping"),
        (lambda: extract_statistics([["a"]], {"A": "a"}), "not one string"),
        (lambda: extract_statistics([["a"]], {"A": ["a"]}, smooth_method="bogus"), "options"),
        (lambda: extract_statistics([["a"]], {"A": ["a"]}, colour=1), "options"),
        (lambda: statistics_from_scores([[1, 2]]), "DataFrame"),
        (lambda: statistics_from_scores(pd.DataFrame({"A": [1.0, np.nan]})), "segment 1"),
        (lambda: metric_score("bleurt", [1.0]), "metric must be"),
    ],
)
def test_errors(call, match):
    with pytest.raises(StatsInputError, match=match):
        call()


# Property test: arbitrary summed statistics (zeros, tiny and huge counts) -- the vectorised
# score functions must reproduce sacrebleu's scalar code path on every one of them.
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@st.composite
def _bleu_sums(draw):
    totals = [draw(st.integers(0, 10**6)) for _ in range(4)]
    correct = [draw(st.integers(0, t)) for t in totals]
    sys_len = draw(st.integers(0, 10**6))
    ref_len = draw(st.integers(0, 10**6))
    return [sys_len, ref_len, *correct, *totals]


@st.composite
def _chrf_sums(draw):
    out = []
    for _ in range(6):
        hyp, ref = draw(st.integers(0, 10**6)), draw(st.integers(0, 10**6))
        out += [hyp, ref, draw(st.integers(0, min(hyp, ref)))]
    return out


@settings(max_examples=120, deadline=None)
@given(
    bleu=st.lists(_bleu_sums(), min_size=1, max_size=8),
    chrf=st.lists(_chrf_sums(), min_size=1, max_size=8),
    ter=st.lists(st.tuples(st.integers(0, 10**5), st.integers(0, 10**5)), min_size=1, max_size=8),
    smooth=st.sampled_from(["exp", "none", "floor", "add-k"]),
)
def test_vectorised_scores_property(bleu, chrf, ter, smooth):
    for metric, rows, opts in (
        ("bleu", bleu, {"smooth_method": smooth}),
        ("chrf", chrf, {}),
        ("ter", [list(r) for r in ter], {}),
    ):
        scorer = CLASSES[metric](**opts)
        expected = [scorer._compute_score_from_stats(list(r)).score for r in rows]
        ours = metric_score(metric, np.array(rows, dtype=float), opts)
        np.testing.assert_allclose(ours, expected, rtol=1e-12, atol=1e-12)


def test_chrf_fast_path_equals_the_general_replica_bit_for_bit():
    # the fast path (every order with hypothesis and reference n-grams, no eps smoothing) and
    # the operation-by-operation replica of sacrebleu give the same doubles; rows that need
    # the general path (an order without n-grams, no matches) mixed in
    from stats.mt.sufficient import _chrf_from_sums, _chrf_general

    rng = np.random.default_rng(5)
    for orders, opts in ((6, {}), (8, {"word_order": 2}), (6, {"beta": 1}), (4, {"char_order": 4})):
        hyp = rng.integers(0, 4000, (500, orders))
        ref = rng.integers(0, 4000, (500, orders))
        match = np.minimum(hyp, ref) * rng.random((500, orders)) // 1
        match[:20] = 0
        sums = np.stack([hyp, ref, match], axis=-1).reshape(500, 3 * orders).astype(float)
        sums[20:40, 0] = 0  # a hypothesis without unigrams
        sums[40:60, -2] = 0  # a reference without n-grams of the highest order
        fast = _chrf_from_sums(sums, opts)
        assert np.array_equal(fast, _chrf_general(sums, opts))
        # the statistic-major layout (a view whose columns are contiguous) too
        columns = np.ascontiguousarray(sums.T)
        assert np.array_equal(_chrf_from_sums(np.moveaxis(columns, 0, -1), opts), fast)
