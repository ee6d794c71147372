"""Power of the corpus-metric tests (stats.power.corpus): golden values from an independent
Monte Carlo (the project's single-pair paired_bootstrap / approximate_randomization, each
checked against sacreBLEU elsewhere, and sacreBLEU's own paired bootstrap at the observed
effect, run in a loop one simulated test set at a time), the effect injection, the shape of
the curves and the refusals."""

from __future__ import annotations

import numpy as np
import pytest

from stats import StatsInputError, extract_statistics
from stats.mt.sufficient import SegmentStatistics
from stats.power import corpus_power
from stats.power.corpus import _scaled_columns

SIMS = 2000
TOL = 0.03

WORDS = "the a cat dog sat on mat and ran far away home big small red".split()


def _corpus(size=60, seed=0, metric="bleu"):
    gen = np.random.default_rng(seed)
    refs = [" ".join(gen.choice(WORDS, gen.integers(6, 14))) for _ in range(size)]

    def noisy(ref, p):
        return " ".join(w if gen.random() > p else str(gen.choice(WORDS)) for w in ref.split())

    hyps = {"A": [noisy(r, 0.45) for r in refs], "B": [noisy(r, 0.38) for r in refs]}
    return refs, hyps, extract_statistics([refs], hyps, metric=metric)


def _scaled(data, effect):
    """The system B of the module notes: matching (TER: edit) counts times (S_A +- e)/S_B."""
    ia, ib = data.index_of("A"), data.index_of("B")
    sign = 1.0 if data.higher_is_better else -1.0
    c = (data.corpus_scores[ia] + sign * effect) / data.corpus_scores[ib]
    stats = data.stats.astype(float).copy()
    stats[ib][:, _scaled_columns(data)] *= c
    return stats


def _sub(data, stats, idx):
    sub = stats[:, idx]
    scores = data.score(sub.sum(axis=1))
    return SegmentStatistics(systems=data.systems, stats=sub, metric=data.metric,
                             label=data.label, options=data.options,
                             higher_is_better=data.higher_is_better, corpus_scores=scores)


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_injected_effect_gives_the_hypothesised_corpus_score(metric):
    _, _, data = _corpus(metric=metric)
    for effect in (-3.0, 0.0, 2.5):
        stats = _scaled(data, effect)
        s = data.score(stats.sum(axis=1))
        sign = 1.0 if data.higher_is_better else -1.0
        assert sign * (s[1] - s[0]) == pytest.approx(effect, abs=1e-9)


@pytest.mark.parametrize("test", ["paired-bootstrap", "approximate-randomization"])
def test_matches_a_loop_of_the_single_pair_test(test):
    from stats import approximate_randomization, paired_bootstrap

    _, _, data = _corpus()
    n, effect, r = 25, 6.0, 199
    res = corpus_power(data, baseline="A", system="B", effect=effect, n=n, test=test,
                       n_simulations=SIMS, n_resamples=r, rng=1)
    fn = paired_bootstrap if test == "paired-bootstrap" else approximate_randomization
    stats = _scaled(data, effect)
    gen = np.random.default_rng(42)
    hits = 0
    for k in range(SIMS):  # reference loop: one single-pair test per simulated test set
        sub = _sub(data, stats, gen.integers(0, data.n_segments, n))
        p = fn("B", "A", data=sub, alternative="two-sided", n_resamples=r, rng=k,
               n_ci_resamples=1).pvalue
        hits += p < 0.05
    assert abs(res.power[0, 0] - hits / SIMS) < TOL, (res.power[0, 0], hits / SIMS)


@pytest.mark.early
def test_matches_sacrebleu_paired_bootstrap_at_the_observed_effect():
    """At the observed difference the injection factor is 1, so the simulated test sets are
    plain resamples of the strings: sacreBLEU's paired bootstrap can run on them."""
    from sacrebleu.metrics import BLEU
    from sacrebleu.significance import PairedTest

    refs, hyps, data = _corpus(size=40, seed=4)
    observed = float(data.corpus_scores[1] - data.corpus_scores[0])
    # 150 resamples a test on both sides (sacreBLEU scores each resample in Python: the
    # reference's cost); the same paired test either way, the power compared at 400 sets
    n, sims, r = 20, 400, 150
    res = corpus_power(data, baseline="A", system="B", effect=observed, n=n,
                       test="sacrebleu-paired-bs", n_simulations=SIMS, n_resamples=r, rng=2)
    gen = np.random.default_rng(8)
    hits = 0
    for _ in range(sims):  # sacreBLEU's own paired test (paired_bs) per simulated test set
        idx = gen.integers(0, len(refs), n)
        named = [("A", [hyps["A"][i] for i in idx]), ("B", [hyps["B"][i] for i in idx])]
        test = PairedTest(named, {"BLEU": BLEU()}, references=[[refs[i] for i in idx]],
                          test_type="bs", n_samples=r, n_jobs=1)
        _, scores = test()
        hits += scores["BLEU"][1].p_value < 0.05
    # the same p-value as sacreBLEU's (its own resamples and seed); 400 reference simulations
    # (sacreBLEU scores each resample in Python): MC error 0.025, tolerance 0.06 (2.4 errors)
    assert abs(res.power[0, 0] - hits / sims) < 0.06, (res.power[0, 0], hits / sims)


def test_power_rises_and_mde_falls_for_ter_too():
    _, _, data = _corpus(size=150, metric="ter")
    res = corpus_power(data, baseline="A", system="B", effect=[2.0, 5.0], n=[20, 60, 150],
                       n_simulations=300, n_resamples=200, rng=3)
    assert np.all(np.diff(res.power, axis=1) >= -0.03)
    assert np.all(res.power[1] >= res.power[0] - 0.03)
    assert np.all(np.diff(res.mde) < 0)
    assert res.unit == "segments" and res.metric == "TER"


def test_refusals():
    _, _, data = _corpus()
    with pytest.raises(StatsInputError, match="unknown system"):
        corpus_power(data, baseline="A", system="Z", effect=1, n=10)
    with pytest.raises(StatsInputError, match="above 0"):
        corpus_power(data, baseline="A", system="B", effect=-500, n=10)
    with pytest.raises(StatsInputError, match="test must be one of"):
        corpus_power(data, baseline="A", system="B", effect=1, n=10, test="t")
