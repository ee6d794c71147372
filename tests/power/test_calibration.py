"""Calibration of every test the power tool offers: at effect 0 each simulated test
rejects at alpha within Monte Carlo error, on skewed differences with exact ties (identical
outputs), on integer ESA-like 0-100 scores and on normal scores. The bound is alpha + 3 Monte
Carlo standard errors of a rate alpha, sqrt(alpha (1 - alpha) / S); the tests of the mean at
small n have a known small-sample excess on skewed data, which the result states in a note
(checked below). The rate at effect 0 is the one each result reports (``size``), the same
simulation as its power; ``tests/power/test_*_power.py`` check that power against independent
simulations at known effects."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from stats._core.errors import DegenerateInputWarning
from stats.power import (
    corpus_power,
    domain_power,
    paired_power,
    perm_both_power,
    williams_power,
    williams_power_simulation,
)

ALPHA = 0.05


def _bound(sims: int) -> float:
    return ALPHA + 3 * np.sqrt(ALPHA * (1 - ALPHA) / sims)


def _scores(kind: str, size: int = 600, seed: int = 0):
    """Two systems' per-item scores of one kind."""
    gen = np.random.default_rng(seed)
    if kind == "skewed-ties":  # 35% identical outputs; the other differences right-skewed
        base = np.round(gen.normal(60, 12, size), 1)
        diff = np.round(gen.gamma(0.7, 4.0, size) - 1.0, 0)
        return base, base + np.where(gen.random(size) < 0.35, 0.0, diff)
    if kind == "esa":  # integer 0-100, piled at the top, clipped
        base = np.clip(np.rint(gen.normal(78, 18, size)), 0, 100)
        syst = np.clip(base + np.rint(gen.normal(1.5, 9, size)), 0, 100)
        return base, syst
    base = gen.normal(0.8, 0.1, size)  # normal (COMET-like)
    return base, base + gen.normal(0.01, 0.05, size)


KINDS = ["skewed-ties", "esa", "normal"]


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateInputWarning)
        return fn(*args, **kwargs)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("test", ["t", "signed-rank", "paired-bootstrap",
                                  "approximate-randomization"])
def test_paired_tests_reject_at_alpha_at_effect_0(test, kind):
    base, syst = _scores(kind)
    sims = 2000
    res = _quiet(paired_power, base, syst, effect=0.0, n=[40, 200], test=test,
                 n_simulations=sims, n_resamples=199, rng=1)
    assert np.array_equal(res.power[0], res.size)  # at effect 0 power is the size
    # the signed-rank null is exact at every n; the mean tests from n = 200 (40 on skewed
    # data carries their small-sample excess, stated in the notes when it shows)
    checked = res.size if test == "signed-rank" or kind != "skewed-ties" else res.size[1:]
    assert (checked <= _bound(sims)).all(), (test, kind, res.size)
    assert (res.size[1:] >= ALPHA - 3 * np.sqrt(ALPHA * (1 - ALPHA) / sims) - 0.01).all(), (
        test, kind, res.size)


def test_signed_rank_was_wrong_under_the_mean_shift_and_is_right_now():
    """The model the issue found wrong: differences skewed with ties, mean-centred; the
    signed-rank test's null is symmetry, so it rejected far above alpha there (0.985 at n=200
    with 15% ties). Drawn from the symmetrised differences it rejects at alpha."""
    from scipy import stats as sps

    gen = np.random.default_rng(3)
    d = np.where(gen.random(800) < 0.15, 0.0, np.round(gen.exponential(4, 800) - 1, 0))
    centred = d - d.mean()
    sample = centred[gen.integers(0, d.size, (300, 200))]
    old = np.mean(sps.wilcoxon(sample, axis=1).pvalue < ALPHA)
    assert old > 0.5  # the old model's "size"
    res = _quiet(paired_power, np.zeros_like(d), d, effect=0.0, n=200, test="signed-rank",
                 n_simulations=2000, rng=0)
    assert res.size[0] <= _bound(2000)


def test_small_sample_excess_of_the_bootstrap_is_stated():
    base, syst = _scores("skewed-ties")
    with pytest.warns(DegenerateInputWarning, match="rejects more often than alpha"):
        res = paired_power(base, syst, effect=[0.0, 1.0], n=[8, 200], test="paired-bootstrap",
                           n_simulations=2000, n_resamples=199, rng=1)
    assert res.size[0] > _bound(2000) and any("n=8" in note for note in res.notes)


@pytest.mark.parametrize("kind", KINDS)
def test_by_domain_rejects_at_alpha_at_effect_0(kind):
    doms = {}
    for i, name in enumerate(("news", "social", "speech")):
        base, syst = _scores(kind, 300, seed=10 + i)
        doms[name] = (base, syst)
    sims = 1000
    res = _quiet(domain_power, doms, effect=0.0, n=[12, 40], n_simulations=sims, rng=2)
    assert (res.size <= _bound(sims)).all(), (kind, res.size)


def _texts(seed=0, segments=150):
    from stats import extract_statistics

    gen = np.random.default_rng(seed)
    words = np.array("the a cat dog sat on mat and ran far away home big small red".split())
    refs = [" ".join(gen.choice(words, gen.integers(6, 20))) for _ in range(segments)]

    def noisy(r, p):
        return " ".join(w if gen.random() > p else str(gen.choice(words)) for w in r.split())

    hyps = {"A": [noisy(r, 0.45) for r in refs], "B": [noisy(r, 0.3) for r in refs]}
    return refs, hyps, extract_statistics


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_corpus_tests_reject_at_alpha_at_effect_0(metric):
    refs, hyps, extract = _texts(segments=100)
    data = extract([refs], hyps, metric=metric)
    sims = 800
    for test in ("paired-bootstrap", "approximate-randomization"):
        res = _quiet(corpus_power, data, baseline="A", system="B", effect=0.0, n=[100],
                     test=test, n_simulations=sims, n_resamples=199, rng=4)
        assert res.size[0] <= _bound(sims), (metric, test, res.size)
    # sacreBLEU's paired_bs, reproduced exactly (|resampled delta| minus its mean against
    # |observed delta|), is itself liberal: about 0.09-0.10 at alpha 0.05 here. Its power
    # says so in a note instead of passing that excess off as power.
    res = _quiet(corpus_power, data, baseline="A", system="B", effect=0.0, n=[100],
                 test="sacrebleu-paired-bs", n_simulations=sims, n_resamples=199, rng=4)
    assert res.size[0] > _bound(sims)
    assert any("rejects more often than alpha" in note for note in res.notes)


@pytest.mark.parametrize("kind", KINDS)
def test_perm_both_rejects_at_alpha_at_effect_0(kind):
    """The held design at effect 0: the two metrics correlate equally with the humans and as
    much with each other as observed; Pearson's closed form and Spearman's
    engine path."""
    gen = np.random.default_rng(5)
    k, items = 4, 80
    if kind == "esa":  # integer human scores 0-100
        gold = np.clip(np.rint(gen.normal(70, 20, (k, items))), 0, 100)
    elif kind == "skewed-ties":
        gold = np.round(gen.gamma(1.0, 10.0, (k, items)), 0)
    else:
        gold = gen.normal(size=(k, items))
    z = (gold - gold.mean()) / gold.std()
    a = np.round(z + gen.normal(0, 1.0, gold.shape), 1)
    b = np.round(z + gen.normal(0, 1.5, gold.shape), 1)
    sims = 400
    res = _quiet(perm_both_power, a, b, gold, effect=0.0, n=[40], n_simulations=sims,
                 n_resamples=100, rng=6)
    assert res.size[0] <= _bound(sims), (kind, res.size)
    if kind == "normal":  # the engine path, data set by data set: fewer simulations
        sims = 100
        res = _quiet(perm_both_power, a, b, gold, effect=0.0, n=[30], correlation="spearman",
                     n_simulations=sims, n_resamples=60, rng=6)
        assert res.size[0] <= _bound(sims), res.size


def test_williams_rejects_at_alpha_at_equal_correlations():
    """The Williams test's power at effect 0 (r_human_a == r_human_b) is its size: alpha in
    the closed form, and by simulation within Monte Carlo error."""
    assert float(williams_power(n=20, r_human_a=0.8, r_human_b=0.8, r_a_b=0.7)) == (
        pytest.approx(ALPHA, abs=1e-12))
    sims = 4000
    sim = williams_power_simulation(n=15, r_human_a=0.7, r_human_b=0.7, r_a_b=0.6,
                                    n_resamples=sims, rng=3)
    assert sim <= _bound(sims)


def test_the_mde_notes_normal_approximation_matches_the_simulated_mde():
    """The MDE beside "not significant" (dashboard/components/power_note.py) is the normal
    approximation from the spread of the test's resampled differences; at the observed number
    of items it agrees with the simulated MDE of the same test (an independent route: data
    sets drawn under the test's null, the 80% quantile of their critical effects) within 10%,
    on skewed-with-ties and ESA-like data."""
    from stats import paired_bootstrap
    from stats.power import normal_mde

    for kind in ("skewed-ties", "esa"):
        base, syst = _scores(kind, 400)
        boot = paired_bootstrap(syst, base, alternative="two-sided", n_resamples=2000, rng=1,
                                n_ci_resamples=1)
        spread = float(np.std(boot.distribution))
        note = float(normal_mde(se=spread))
        sim = _quiet(paired_power, base, syst, effect=1.0, n=400, test="paired-bootstrap",
                     n_simulations=1000, n_resamples=400, rng=2)
        assert abs(note - sim.mde[0]) < 0.1 * sim.mde[0], (kind, note, sim.mde[0])
