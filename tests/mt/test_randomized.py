"""Randomized tests (paired bootstrap, bootstrap with shift-to-zero, approximate randomization).

Golden sources:
* exact enumeration of all 2**n swaps (the permutation distribution AR approximates), scored
  with sacrebleu's own ``_compute_score_from_stats`` in plain Python loops;
* literal implementations of the paper's Figures 1-4 (one loop iteration per resample,
  sacrebleu scoring), run on the same resamples, for the vectorised all-pairs algebra;
* sacrebleu's paired approximate randomization (``sacrebleu.significance.PairedTest``) for the
  two-sided AR p-value, within Monte Carlo error.
"""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest
import sacrebleu
from sacrebleu.significance import PairedTest

from stats import DegenerateInputWarning, StatsInputError
from stats.mt.randomized import (
    RANDOMIZED_TESTS,
    PairwiseSignificanceResult,
    RandomizedTestResult,
    approximate_randomization,
    bootstrap,
    paired_bootstrap,
    pairwise_significance,
)
from stats.mt.sufficient import extract_statistics, statistics_from_scores
from tests._data import SINGLE, mt_sample_text


@pytest.fixture(scope="module")
def text():
    return mt_sample_text()


@pytest.fixture(scope="module")
def bleu(text):
    refs, hyps = text
    return extract_statistics(refs, hyps, metric="bleu")


@pytest.fixture(scope="module")
def small_bleu(text):
    refs, hyps = text
    n = 60
    keep = ["Cirrus", "Delta", "Fjord", "Glacier"]
    return extract_statistics([r[:n] for r in refs], {k: hyps[k][:n] for k in keep})


def _mc_tol(p, r, k=4.5):
    return k * np.sqrt(max(p * (1 - p), 1e-4) / r) + 2.0 / r


# ---------------------------------------------------------------------------------------------
# Approximate randomization vs the exact permutation p-value (all 2**n swaps)
# ---------------------------------------------------------------------------------------------


def _exact_ar_pvalues(sx: np.ndarray, sy: np.ndarray, score, higher=True):
    """Exact permutation p-values over all 2**n swap patterns (literal Figure 2, no sampling)."""
    n = len(sx)
    sign = 1 if higher else -1
    obs = sign * (score(sx.sum(0)) - score(sy.sum(0)))
    greater = two = 0
    for swap in itertools.product((False, True), repeat=n):
        m = np.array(swap)
        x = np.where(m[:, None], sy, sx).sum(0)
        y = np.where(m[:, None], sx, sy).sum(0)
        d = sign * (score(x) - score(y))
        greater += d >= obs - 1e-9
        two += abs(d) >= abs(obs) - 1e-9
    return greater / 2**n, two / 2**n


@pytest.mark.parametrize("n", [8, 12])
def test_ar_equals_exact_permutation_mean_metric(n):
    rng = np.random.default_rng(n)
    x = rng.normal(0.3, 1.0, n)
    y = x - 0.35 + rng.normal(0, 0.6, n)
    sx = np.stack([x, np.ones(n)], 1)
    sy = np.stack([y, np.ones(n)], 1)
    exact_g, exact_2 = _exact_ar_pvalues(sx, sy, lambda s: s[0] / s[1])
    r = 20000
    for alt, exact in (("greater", exact_g), ("two-sided", exact_2)):
        res = approximate_randomization(x, y, alternative=alt, n_resamples=r, rng=3)
        assert abs(res.pvalue - exact) < _mc_tol(exact, r), (alt, res.pvalue, exact)


def test_ar_equals_exact_permutation_bleu(text):
    refs, hyps = text
    idx = slice(100, 112)  # n = 12 segments -> 4096 swap patterns
    data = extract_statistics([refs[0][idx]], {k: hyps[k][idx] for k in ("Ember", "Fjord")})
    scorer = sacrebleu.BLEU()
    score = lambda s: scorer._compute_score_from_stats(list(s)).score  # noqa: E731
    exact_g, exact_2 = _exact_ar_pvalues(data.stats[0], data.stats[1], score)
    r = 20000
    for alt, exact in (("greater", exact_g), ("two-sided", exact_2)):
        res = approximate_randomization("Ember", "Fjord", data=data, alternative=alt,
                                        n_resamples=r, rng=11)
        assert abs(res.pvalue - exact) < _mc_tol(exact, r), (alt, res.pvalue, exact)


def test_ar_equals_exact_permutation_ter_lower_is_better(text):
    refs, hyps = text
    idx = slice(0, 10)
    data = extract_statistics([refs[0][idx]], {k: hyps[k][idx] for k in ("Borealis", "Harbor")},
                              metric="ter")
    scorer = sacrebleu.TER()
    score = lambda s: scorer._compute_score_from_stats(list(s)).score  # noqa: E731
    exact_g, exact_2 = _exact_ar_pvalues(data.stats[0], data.stats[1], score, higher=False)
    r = 20000
    res = approximate_randomization("Borealis", "Harbor", data=data, n_resamples=r, rng=5)
    assert res.statistic == pytest.approx(data.corpus_scores[1] - data.corpus_scores[0])
    assert abs(res.pvalue - exact_g) < _mc_tol(exact_g, r)
    res2 = approximate_randomization("Borealis", "Harbor", data=data, n_resamples=r, rng=5,
                                     alternative="two-sided")
    assert abs(res2.pvalue - exact_2) < _mc_tol(exact_2, r)


# ---------------------------------------------------------------------------------------------
# Literal Figures 1-4 on the same resamples (checks the vectorised all-pairs algebra exactly)
# ---------------------------------------------------------------------------------------------


def _same_draws(seed, r, n):
    """The uniform draws the implementation consumes (documented: one double per segment)."""
    return np.random.default_rng(seed).random((r, n))


def _same_swaps(seed, r, n):
    """The swap masks approximate randomization draws (documented: one bit per segment, the
    bits of 64-bit words lowest first, each row starting a new word), bit by bit."""
    words = np.random.default_rng(seed).integers(0, 2**64, size=(r, (n + 63) // 64),
                                                 dtype=np.uint64)
    return np.array([[(int(row[i // 64]) >> (i % 64)) & 1 for i in range(n)] for row in words],
                    dtype=bool)


def test_literal_figures_give_identical_pvalues(small_bleu):
    data = small_bleu
    scorer = sacrebleu.BLEU()
    score = lambda s: scorer._compute_score_from_stats(list(s)).score  # noqa: E731
    n, b = data.n_segments, 300
    seed = 99
    u = _same_draws(seed, b, n)
    idx = np.minimum((u * n).astype(int), n - 1)
    res = {t: pairwise_significance(data, test=t, n_resamples=b, rng=seed,
                                    alternative="two-sided") for t in RANDOMIZED_TESTS}
    resg = {t: pairwise_significance(data, test=t, n_resamples=b, rng=seed) for t in RANDOMIZED_TESTS}
    for x, y in itertools.combinations(res["bootstrap"].systems, 2):  # x better than y
        sx, sy = data.stats[data.index_of(x)], data.stats[data.index_of(y)]
        obs = score(sx.sum(0)) - score(sy.sum(0))
        # bootstrap pseudo-statistics, one resample at a time
        d = np.array([score(sx[i].sum(0)) - score(sy[i].sum(0)) for i in idx])
        # Figure 4 (paired bootstrap), ties counted against H1
        c = int(np.sum(d <= 0))
        assert resg["paired-bootstrap"].pvalue.at[x, y] == pytest.approx((c + 1) / (b + 1))
        # Figures 3 (one-sided) and 1 (two-sided): shift by tau_B = mean pseudo-statistic
        tau = d.mean()
        c3 = int(np.sum(d - tau >= obs - 1e-9))
        c1 = int(np.sum(np.abs(d - tau) >= abs(obs) - 1e-9))
        assert resg["bootstrap"].pvalue.at[x, y] == pytest.approx((c3 + 1) / (b + 1))
        assert res["bootstrap"].pvalue.at[x, y] == pytest.approx((c1 + 1) / (b + 1))
        # Figure 2: swap each segment's pair with probability 0.5
        m = _same_swaps(seed, b, n)
        dr = np.array([
            score(np.where(mm[:, None], sy, sx).sum(0)) - score(np.where(mm[:, None], sx, sy).sum(0))
            for mm in m
        ])
        c2 = int(np.sum(dr >= obs - 1e-9))
        c2two = int(np.sum(np.abs(dr) >= abs(obs) - 1e-9))
        ar = "approximate-randomization"
        assert resg[ar].pvalue.at[x, y] == pytest.approx((c2 + 1) / (b + 1))
        assert res[ar].pvalue.at[x, y] == pytest.approx((c2two + 1) / (b + 1))


@pytest.mark.parametrize(("opts", "refsets"), [({}, 1), ({"word_order": 2}, 2)])
def test_literal_ar_chrf_identical_pvalues_all_pairs(text, opts, refsets):
    # AR on chrF/chrF++ (one and two references, where the pseudo systems' reference counts
    # differ) counted pair by pair, one swap pattern at a time, with sacrebleu's own scoring;
    # the all-pairs run (statistic-major layout, chrF fast path) gives the same counts
    refs, hyps = text
    n, b, seed = 40, 200, 21
    names = ["Cirrus", "Delta", "Fjord"]
    refs = [refs[0][:n], [" ".join(r.split()[::-1]) for r in refs[0][:n]]][:refsets]
    data = extract_statistics(refs, {k: hyps[k][:n] for k in names}, metric="chrf", **opts)
    scorer = sacrebleu.CHRF(**opts)
    score = lambda s: scorer._compute_score_from_stats(list(s)).score  # noqa: E731
    ar = "approximate-randomization"
    res = pairwise_significance(data, test=ar, n_resamples=b, rng=seed, alternative="two-sided")
    m = _same_swaps(seed, b, n)
    for x, y in itertools.combinations(res.systems, 2):  # x better than y
        sx, sy = data.stats[data.index_of(x)], data.stats[data.index_of(y)]
        obs = score(sx.sum(0)) - score(sy.sum(0))
        dr = np.array([
            score(np.where(mm[:, None], sy, sx).sum(0)) - score(np.where(mm[:, None], sx, sy).sum(0))
            for mm in m
        ])
        c = int(np.sum(np.abs(dr) >= abs(obs) - 1e-9))
        assert res.pvalue.at[x, y] == pytest.approx((c + 1) / (b + 1))


# ---------------------------------------------------------------------------------------------
# Agreement with sacrebleu's paired AR (two-sided)
# ---------------------------------------------------------------------------------------------


def test_two_sided_ar_agrees_with_sacrebleu(text):
    refs, hyps = text
    r = 4000
    for a, b in (("Delta", "Cirrus"), ("Glacier", "Fjord")):
        bleu = sacrebleu.BLEU(references=refs)
        _, scores = PairedTest([(a, hyps[a]), (b, hyps[b])], {"BLEU": bleu}, references=None,
                               test_type="ar", n_samples=r)()
        p_sacrebleu = scores["BLEU"][1].p_value
        data = extract_statistics(refs, {a: hyps[a], b: hyps[b]})
        ours = approximate_randomization(a, b, data=data, alternative="two-sided",
                                         n_resamples=r, rng=2)
        assert scores["BLEU"][0].score == pytest.approx(ours.score_x, abs=1e-12)
        assert 0.02 < p_sacrebleu < 0.9  # an informative pair
        tol = 4.5 * np.sqrt(2 * p_sacrebleu * (1 - p_sacrebleu) / r)
        assert abs(ours.pvalue - p_sacrebleu) < tol, (a, b, ours.pvalue, p_sacrebleu)


# ---------------------------------------------------------------------------------------------
# All pairs vs one pair; seeds; chunking
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("test", RANDOMIZED_TESTS)
def test_all_pairs_equal_single_pairs(bleu, test):
    res = pairwise_significance(bleu, test=test, n_resamples=300, rng=4, alternative="two-sided")
    assert isinstance(res, PairwiseSignificanceResult)
    for x, y in [("Delta", "Cirrus"), ("Glacier", "Fjord"), ("Aurora", "Harbor")]:
        one = SINGLE[test](x, y, data=bleu, n_resamples=300, rng=4, alternative="two-sided")
        assert isinstance(one, RandomizedTestResult)
        assert res.pvalue.at[x, y] == one.pvalue
        assert res.statistic.at[x, y] == pytest.approx(one.statistic)
        assert res.diff_ci_low.at[x, y] == pytest.approx(one.difference_ci[0])
        assert res.diff_ci_high.at[x, y] == pytest.approx(one.difference_ci[1])
        assert res.score_ci_low[x] == pytest.approx(one.score_x_ci[0])


@pytest.mark.parametrize("test", RANDOMIZED_TESTS)
def test_seed_reproduces_and_chunking_does_not_matter(small_bleu, test):
    a = pairwise_significance(small_bleu, test=test, n_resamples=250, rng=7)
    b = pairwise_significance(small_bleu, test=test, n_resamples=250, rng=7, chunk_size=17)
    c = pairwise_significance(small_bleu, test=test, n_resamples=250, rng=8)
    pd.testing.assert_frame_equal(a.pvalue, b.pvalue)
    pd.testing.assert_frame_equal(a.diff_ci_low, b.diff_ci_low)
    pd.testing.assert_series_equal(a.score_ci_high, b.score_ci_high)
    assert a.seed == 7 and c.seed == 8
    assert not a.diff_ci_low.equals(c.diff_ci_low)
    gen = pairwise_significance(small_bleu, test=test, n_resamples=250,
                                rng=np.random.default_rng(7))
    assert gen.seed is None
    pd.testing.assert_frame_equal(a.pvalue, gen.pvalue)


def test_pairwise_layout(bleu):
    res = pairwise_significance(bleu, test="paired-bootstrap", n_resamples=200, rng=1)
    systems = list(res.systems)
    scores = bleu.scores
    assert systems == list(scores.sort_values(ascending=False).index)
    assert list(res.pvalue.index) == systems == list(res.pvalue.columns)
    p = res.pvalue.to_numpy()
    upper = np.triu_indices(len(systems), 1)
    assert np.isfinite(p[upper]).all()
    assert np.isnan(p[np.tril_indices(len(systems))]).all()  # mirror and diagonal empty
    assert ((p[upper] > 0) & (p[upper] <= 1)).all()
    assert (res.statistic.to_numpy()[upper] >= 0).all()
    assert res.scores.equals(scores[systems].rename(res.scores.name))
    assert (res.score_ci_low < res.scores).all() and (res.scores < res.score_ci_high).all()
    lo, hi = res.diff_ci_low.to_numpy()[upper], res.diff_ci_high.to_numpy()[upper]
    stat = res.statistic.to_numpy()[upper]
    assert ((lo <= stat) & (stat <= hi)).all()
    assert res.n_segments == 500 and res.n_resamples == 200 and res.seed == 1
    pairs = res.pairs()
    assert len(pairs) == 28 and set(pairs.columns) >= {"better", "worse", "pvalue"}
    assert res.significant(0.05).at["Aurora", "Harbor"]
    assert not res.significant(0.05).at["Harbor", "Aurora"]
    assert list(res.system_table()["system"]) == systems


def test_ter_lower_is_better_orientation(text):
    refs, hyps = text
    n = 80
    data = extract_statistics([refs[0][:n]], {k: hyps[k][:n] for k in ("Harbor", "Aurora")},
                              metric="ter")
    res = pairwise_significance(data, test="approximate-randomization", n_resamples=200, rng=0)
    assert res.systems == ("Aurora", "Harbor")  # lower TER first
    assert res.scores["Aurora"] < res.scores["Harbor"]
    assert res.statistic.at["Aurora", "Harbor"] == pytest.approx(
        res.scores["Harbor"] - res.scores["Aurora"]
    )
    assert res.pvalue.at["Aurora", "Harbor"] < 0.05


def test_single_pair_distributions():
    rng = np.random.default_rng(0)
    x = rng.normal(0.6, 0.2, 200)
    y = x - 0.05 + rng.normal(0, 0.2, 200)
    pb = paired_bootstrap(x, y, n_resamples=500, rng=1)
    bs = bootstrap(x, y, n_resamples=500, rng=1)
    ar = approximate_randomization(x, y, n_resamples=500, rng=1)
    for r in (pb, bs, ar):
        assert r.distribution.shape == (500,)
        assert r.statistic == pytest.approx(x.mean() - y.mean())
        assert r.seed == 1 and r.n_segments == 200
        assert r.confidence_interval() == r.difference_ci
    # same bootstrap resamples for both bootstrap tests
    np.testing.assert_array_equal(pb.distribution, bs.distribution)
    assert bs.shift == pytest.approx(bs.distribution.mean())
    assert bs.null_distribution.mean() == pytest.approx(0, abs=1e-12)
    assert pb.threshold == 0.0 and bs.threshold == bs.statistic
    assert abs(ar.distribution.mean()) < 0.01  # AR simulates H0 directly
    assert pb.pvalue == pytest.approx((np.sum(pb.distribution <= 0) + 1) / 501)
    # identical systems: nothing to detect, p = 1 for the paired bootstrap (ties count)
    assert paired_bootstrap(x, x, n_resamples=100, rng=1).pvalue == 1.0
    assert approximate_randomization(x, x, n_resamples=100, rng=1).pvalue == 1.0


def test_one_sided_directions_and_two_sided():
    rng = np.random.default_rng(3)
    x = rng.normal(0.5, 0.3, 150)
    y = x - 0.08 + rng.normal(0, 0.3, 150)
    for f in SINGLE.values():
        g = f(x, y, alternative="greater", n_resamples=800, rng=2)
        lo = f(x, y, alternative="less", n_resamples=800, rng=2)
        two = f(x, y, alternative="two-sided", n_resamples=800, rng=2)
        assert g.pvalue < 0.05 < lo.pvalue
        assert g.pvalue <= two.pvalue <= min(1.0, 2 * g.pvalue + 0.02)


def test_progress_callback(small_bleu):
    for test in RANDOMIZED_TESTS:
        seen = []
        pairwise_significance(small_bleu, test=test, n_resamples=300, rng=0, chunk_size=50,
                              progress=seen.append)
        assert len(seen) >= 6
        assert seen == sorted(seen) and seen[-1] == 1.0 and 0 <= seen[0]


# ---------------------------------------------------------------------------------------------
# Type I error under a simulated null
# ---------------------------------------------------------------------------------------------


@pytest.mark.slow
def test_type_one_error_near_alpha():
    """Under H0 (two systems drawn from one distribution) rejections at alpha=0.05 occur at
    about rate 0.05 for every test; 300 independent datasets, binomial 99.9% band."""
    rng = np.random.default_rng(2014)
    reps, n, alpha = 300, 100, 0.05
    base = rng.gamma(2.0, 0.2, size=(reps, n))  # segment difficulty shared by both systems
    xs = base + rng.normal(0, 0.15, size=(reps, n))
    ys = base + rng.normal(0, 0.15, size=(reps, n))
    for name, f in SINGLE.items():
        for alt in ("greater", "two-sided"):
            rejected = sum(
                f(xs[k], ys[k], alternative=alt, n_resamples=400, rng=k).pvalue <= alpha
                for k in range(reps)
            )
            # binomial(300, 0.05): mean 15, sd 3.8; bootstrap tests are slightly liberal at n=100
            assert 3 <= rejected <= 30, (name, alt, rejected)


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda d: pairwise_significance(d, test="t-test"), "test must be one of"),
        (lambda d: pairwise_significance(d, test="bootstrap", alternative="less"), "alternative"),
        (lambda d: pairwise_significance(d, test="bootstrap", n_resamples=0), "n_resamples"),
        (lambda d: pairwise_significance(d, test="bootstrap", n_resamples=2.5), "n_resamples"),
        (lambda d: pairwise_significance(d, test="bootstrap", confidence_level=95),
         "confidence_level"),
        (lambda d: pairwise_significance(d, test="bootstrap", rng="seed"), "rng"),
        (lambda d: pairwise_significance(d, test="bootstrap", rng=-1), "rng"),
        (lambda d: pairwise_significance(d, test="bootstrap", chunk_size=0), "chunk_size"),
        (lambda d: pairwise_significance(d.subset(["Cirrus"]), test="bootstrap"), "two systems"),
        (lambda d: pairwise_significance(pd.DataFrame(), test="bootstrap"), "SegmentStatistics"),
        (lambda d: paired_bootstrap("Cirrus", "Cirrus", data=d), "two different systems"),
        (lambda d: paired_bootstrap("Cirrus", "Nope", data=d), "unknown system 'Nope'"),
        (lambda d: bootstrap([1, 2, 3], [1, 2]), "same number of segments"),
        (lambda d: bootstrap([1, 2, np.nan], [1, 2, 3]), "non-finite"),
        (lambda d: approximate_randomization([1, 2], [2, 1], alternative="bigger"), "alternative"),
    ],
)
def test_errors(small_bleu, call, match):
    with pytest.raises(StatsInputError, match=match):
        call(small_bleu)


def test_mean_metric_from_scores_frame():
    frame = pd.DataFrame({"A": np.linspace(0, 1, 50), "B": np.linspace(0, 1, 50)[::-1] * 0.5})
    data = statistics_from_scores(frame, label="COMET")
    res = pairwise_significance(data, test="approximate-randomization", n_resamples=300, rng=1)
    assert res.label == "COMET" and res.systems == ("A", "B")
    assert res.statistic.at["A", "B"] == pytest.approx(0.25)


@pytest.mark.parametrize("scale", [1e-10, 1e10])
def test_pvalues_do_not_depend_on_the_scale_of_the_scores(scale):
    """Regression: the tie tolerance had an absolute floor of 1e-9, so for scores on a small
    scale (here 1e-10) every pseudo-statistic "tied" with the observed one and every test
    returned p = 1.0. Golden: the exact permutation p-value over all 2**12 swaps (exact
    enumeration, scale-invariant), and each test's own p-value on the unscaled data."""
    rng = np.random.default_rng(12)
    n = 12
    x = rng.normal(0.3, 1.0, n)
    y = x - 0.35 + rng.normal(0, 0.6, n)
    sx = np.stack([x, np.ones(n)], 1)
    sy = np.stack([y, np.ones(n)], 1)
    exact_g, _ = _exact_ar_pvalues(sx, sy, lambda s: s[0] / s[1])
    assert 0.03 < exact_g < 0.1  # an informative case (exact enumeration: 0.0569)
    r = 20000
    tiny = approximate_randomization(x * scale, y * scale, n_resamples=r, rng=3)
    assert abs(tiny.pvalue - exact_g) < _mc_tol(exact_g, r), (tiny.pvalue, exact_g)
    for name, f in SINGLE.items():
        for alt in ("greater", "two-sided"):
            ref = f(x, y, alternative=alt, n_resamples=2000, rng=5)
            scaled = f(x * scale, y * scale, alternative=alt, n_resamples=2000, rng=5)
            assert scaled.pvalue == ref.pvalue, (name, alt, scaled.pvalue, ref.pvalue)


SCALES = (1e-10, 1.0, 1e10)


@pytest.fixture(scope="module")
def mostly_tied():
    """40 segments of which only the first 8 differ between X and Y: approximate
    randomization leaves the statistic unchanged (up to rounding) whenever none of the 8 is
    swapped (1 resample in 256), so ties with the observed statistic occur and must count."""
    rng = np.random.default_rng(11)
    x = rng.normal(0.3, 1.0, 40)
    y = x.copy()
    y[:8] = x[:8] - 0.4 + rng.normal(0, 0.6, 8)
    return x, y


@pytest.mark.parametrize("alternative", ["greater", "less", "two-sided"])
@pytest.mark.parametrize("test", RANDOMIZED_TESTS)
def test_counted_is_what_the_pvalue_counts_at_every_scale(mostly_tied, test, alternative):
    """``counted`` marks exactly the resamples the p-value counts: (c + 1)/(R + 1), doubled and
    capped at 1 for the two-sided paired bootstrap (its documented formula), and the same mask
    for the same seed whether the segment scores are scaled by 1e-10, 1 or 1e10. Regression:
    the dashboard's own mask used an absolute tolerance floor and highlighted resamples that
    implied p = 1 at scale 1e-10 while the test reported p = 0.23."""
    x, y = mostly_tied
    r = 2000
    masks = []
    for scale in SCALES:
        res = SINGLE[test](x * scale, y * scale, alternative=alternative, n_resamples=r, rng=7)
        counted = res.counted
        assert counted.dtype == bool and counted.shape == res.null_distribution.shape == (r,)
        p = (counted.sum() + 1) / (r + 1)
        if test == "paired-bootstrap" and alternative == "two-sided":
            p = min(1.0, 2 * p)
        assert res.pvalue == p, (scale, res.pvalue, p)
        masks.append(counted)
    for scale, mask in zip(SCALES[1:], masks[1:], strict=True):
        np.testing.assert_array_equal(mask, masks[0], err_msg=f"scale {scale}")
    assert 0 < masks[0].sum() < r  # neither test nor alternative makes this case trivial
    if test == "approximate-randomization":
        # the resamples that swap none of the differing segments tie with the statistic
        ties = np.isclose(res.null_distribution, res.statistic, rtol=1e-12, atol=0)
        if alternative == "two-sided":  # ... and those that swap all of them mirror it
            ties |= np.isclose(res.null_distribution, -res.statistic, rtol=1e-12, atol=0)
        assert ties.sum() > 2 and res.counted[ties].all()


def test_counted_follows_the_definitions_on_the_null_distribution():
    """Away from ties the mask is the comparison each test's docstring states, written here
    on the stored pseudo-statistics: paired bootstrap <= 0 / >= 0 (two-sided: the smaller
    tail), bootstrap after the shift and approximate randomization against the statistic."""
    rng = np.random.default_rng(5)
    x = rng.normal(0.5, 0.3, 120)
    y = x - 0.04 + rng.normal(0, 0.3, 120)
    for test, f in SINGLE.items():
        for alt in ("greater", "less", "two-sided"):
            res = f(x, y, alternative=alt, n_resamples=700, rng=3)
            v, s = res.null_distribution, res.statistic
            if test == "paired-bootstrap":
                below, above = v <= 0, v >= 0
                expected = {"greater": below, "less": above}.get(
                    alt, below if below.sum() <= above.sum() else above
                )
            else:
                expected = {"greater": v >= s, "less": v <= s}.get(alt, np.abs(v) >= abs(s))
            np.testing.assert_array_equal(res.counted, expected, err_msg=f"{test} {alt}")


def test_segment_score_series_are_paired_by_segment_id():
    """Regression: two Series of segment scores labelled by segment id were paired by
    position, so y listed in another order paired each of x's segments with another segment
    (the tests resample/swap pairs of the SAME segment). Golden: the p-value of the same data
    given in matching order (the paired tests' definition)."""
    rng = np.random.default_rng(4)
    n = 60
    ids = [f"seg{i}" for i in range(n)]
    base = rng.normal(0, 1, n)  # segment difficulty shared by both systems
    x = pd.Series(base + 0.15 + rng.normal(0, 0.2, n), index=ids)
    y = pd.Series(base + rng.normal(0, 0.2, n), index=ids)
    shuffled = y.sample(frac=1.0, random_state=0)
    for f in SINGLE.values():
        ref = f(x.to_numpy(), y.to_numpy(), n_resamples=500, rng=1)
        assert f(x, shuffled, n_resamples=500, rng=1).pvalue == ref.pvalue
    with pytest.raises(StatsInputError, match="only in x: seg0; only in y: other"):
        paired_bootstrap(x, y.rename(index={"seg0": "other"}))


def test_min_pvalue_is_attained_and_significant_warns_when_alpha_is_unreachable():
    """With R resamples the smallest p-value is (0 + 1)/(R + 1) (the paper's (c+1)/(R+1)
    with c = 0; arithmetic, no other source needed). A difference far beyond any resample
    attains it; with R = 19 that is 1/20 = 0.05, so nothing is significant at alpha = 0.05
    and `significant` says why instead of silently returning all False."""
    from stats import DegenerateInputWarning

    n = 30
    x = np.linspace(10.0, 11.0, n)
    y = x - 5.0  # X better on every segment by far more than any resample can undo
    for f in SINGLE.values():
        res = f(x, y, n_resamples=19, rng=0)
        assert res.min_pvalue == 1 / 20
        assert res.pvalue == pytest.approx(1 / 20)
    data = statistics_from_scores(pd.DataFrame({"a": x, "b": y, "c": y - 5.0}))
    res = pairwise_significance(data, test="approximate-randomization", n_resamples=19, rng=0)
    assert res.min_pvalue == 1 / 20
    assert np.nanmin(res.pvalue.to_numpy()) == pytest.approx(1 / 20)
    with pytest.warns(DegenerateInputWarning, match=r"19 resamples .* 1/\(19\+1\) = 0.05, not "
                      r"below alpha 0.05"):
        assert not res.significant(0.05).to_numpy().any()
    assert res.significant(0.051).at["a", "b"]  # reachable: no warning needed
    with pytest.raises(StatsInputError, match="alpha"):
        res.significant(1.5)


# ---------------------------------------------------------------------------------------------
# One segment: NaN p-values; few segments: a warning (G report item 7)
# ---------------------------------------------------------------------------------------------

_FUNCS = {"paired-bootstrap": paired_bootstrap, "bootstrap": bootstrap,
          "approximate-randomization": approximate_randomization}


@pytest.mark.parametrize("test", RANDOMIZED_TESTS)
def test_single_segment_gives_nan_pvalue_with_warning(test):
    # one segment: every bootstrap resample is that segment; p = 1/(R+1) would look significant
    with pytest.warns(DegenerateInputWarning, match=r"^only 1 segment: .*p-values are NaN"):
        res = _FUNCS[test]([0.61], [0.14], n_resamples=199, rng=1)
    assert np.isnan(res.pvalue)
    assert res.statistic == pytest.approx(0.61 - 0.14) and res.n_segments == 1


@pytest.mark.parametrize("test", RANDOMIZED_TESTS)
def test_single_segment_all_pairs_nan(test):
    scores = pd.DataFrame({"A": [0.61], "B": [0.44], "C": [0.14]})
    data = statistics_from_scores(scores)
    with pytest.warns(DegenerateInputWarning, match=r"^only 1 segment"):
        res = pairwise_significance(data, test=test, n_resamples=99, rng=2)
    upper = res.pvalue.to_numpy()[np.triu_indices(3, k=1)]
    assert upper.shape == (3,) and np.isnan(upper).all()
    assert not res.significant(0.05).to_numpy().any()
    assert res.pairs().empty  # no p-value, no tested pair
    assert res.systems == ("A", "B", "C")


def test_few_segments_warn_but_keep_the_exact_pvalues():
    # n = 3 segments: the paired bootstrap p-value estimates the exact fraction of the 3**3
    # equally likely resamples in which X does not beat Y (enumerated here, mean metric)
    x = np.array([0.9, 0.2, 0.5])
    y = np.array([0.4, 0.6, 0.25])  # differences 0.5, -0.4, 0.25: no resample sums to 0
    worse = [(x[list(ix)] - y[list(ix)]).sum() <= 0
             for ix in itertools.product(range(3), repeat=3)]
    exact = sum(worse) / 27  # 7/27: segment 2 three times (1), twice with segment 1 or 3 (3+3)
    assert exact == 7 / 27
    r = 20000
    with pytest.warns(DegenerateInputWarning, match=r"^only 3 segments: too few .* 8 distinct "
                      r"swap patterns"):
        res = paired_bootstrap(x, y, n_resamples=r, rng=4)
    assert abs(res.pvalue - exact) < _mc_tol(exact, r)
    # approximate randomization with n = 8: exact enumeration of the 256 swaps, and a warning
    rng = np.random.default_rng(8)
    x8 = rng.normal(0.3, 1.0, 8)
    y8 = x8 - 0.35 + rng.normal(0, 0.6, 8)
    exact_g, _ = _exact_ar_pvalues(np.stack([x8, np.ones(8)], 1), np.stack([y8, np.ones(8)], 1),
                                   lambda s: s[0] / s[1])
    with pytest.warns(DegenerateInputWarning, match=r"^only 8 segments"):
        res = approximate_randomization(x8, y8, n_resamples=r, rng=3)
    assert abs(res.pvalue - exact_g) < _mc_tol(exact_g, r)


def test_ten_segments_do_not_warn():
    import warnings

    rng = np.random.default_rng(10)
    x, y = rng.normal(size=10), rng.normal(size=10)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DegenerateInputWarning)
        for f in _FUNCS.values():
            assert 0 < f(x, y, n_resamples=99, rng=1).pvalue <= 1


@pytest.mark.parametrize("test", ["paired-bootstrap", "bootstrap", "approximate-randomization"])
def test_threads_give_the_same_results_as_one_thread(test):
    # resampling in threads (jobs) draws in the caller's thread and sums in chunk order, so
    # every number equals the serial run's bit for bit
    rng = np.random.default_rng(3)
    scores = pd.DataFrame(rng.normal(size=(60, 5)), columns=list("abcde"))
    data = statistics_from_scores(scores)
    kw = dict(test=test, n_resamples=97, rng=11, chunk_size=8, n_ci_resamples=50)
    serial = pairwise_significance(data, **kw)
    threaded = pairwise_significance(data, **kw, jobs=3)
    for field in ("statistic", "pvalue", "diff_ci_low", "diff_ci_high"):
        pd.testing.assert_frame_equal(getattr(serial, field), getattr(threaded, field))
    pd.testing.assert_series_equal(serial.score_ci_low, threaded.score_ci_low)


def test_ar_pair_blocks_and_blas_threads_leave_the_numbers_alone(bleu, monkeypatch):
    # the pairs scored one at a time, in blocks, or all at once; BLAS on its own threads
    # (serial) or on one (2 jobs): the same p-values, intervals and null distribution, bit
    # for bit
    from stats.mt import randomized

    def run(jobs):
        res = pairwise_significance(bleu, test="approximate-randomization", n_resamples=500,
                                    rng=3, jobs=jobs, chunk_size=128)
        one = approximate_randomization(bleu.systems[0], bleu.systems[1], data=bleu,
                                        n_resamples=500, rng=3, chunk_size=128)
        return (res.pvalue.to_numpy(), res.score_ci_low.to_numpy(),
                res.score_ci_high.to_numpy(), one.null_distribution)

    want = run(1)
    for cells, jobs in ((1, 1), (128 * 3, 2), (2**30, 2)):
        monkeypatch.setattr(randomized, "_SCORE_CELLS", cells)
        for got, expected in zip(run(jobs), want, strict=True):
            assert np.array_equal(got, expected, equal_nan=True)
