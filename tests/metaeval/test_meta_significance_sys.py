"""System-level PERM-BOTH on MTME data with ``.sys.score`` files: the analysis permutes the
files' system scores (it used to refuse), with p-values within Monte Carlo error of MTME's
PermutationSigDiff definition (a plain re-formulation below: scipy z-scores, one Bernoulli swap
per system, scipy's Pearson / MTME's Agreement)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
import scipy.stats

from stats.analyses.meta_significance import perm_both_analysis
from stats.readers.meta import read_meta_eval
from tests._meta_golden import write_mtme

SYSTEMS = tuple(f"s{k}" for k in range(9))
PAIRS = list(itertools.combinations(range(len(SYSTEMS)), 2))


@pytest.fixture(scope="module")
def sys_data(tmp_path_factory):
    rng = np.random.default_rng(3)
    gold = np.round(rng.normal(size=len(SYSTEMS)), 1)
    metrics = {
        "Good-refA": gold + rng.normal(scale=0.3, size=gold.shape),
        "Mid-refA": gold + rng.normal(scale=0.9, size=gold.shape),
        "Bad-refA": rng.normal(size=gold.shape),
    }
    root = tmp_path_factory.mktemp("mtme_sys")
    base = write_mtme(
        root, "aa-bb", gold={"mqm": gold}, metrics=metrics, systems=SYSTEMS, level="sys"
    )
    return base, gold, metrics


def _mtme_definition(gold, m_lo, m_hi, corr, k, seed):
    """PermutationSigDiff(corr1=lower, corr2=higher) as MTME defines it, at system level."""
    rng = np.random.default_rng(seed)
    z1, z2 = scipy.stats.zscore(m_lo), scipy.stats.zscore(m_hi)

    def c(x):
        if corr == "pearson":  # scipy.stats.pearsonr's value (faster for the loop)
            return np.corrcoef(gold, x)[0, 1]
        agree = sum(np.sign(gold[i] - gold[j]) == np.sign(x[i] - x[j]) for i, j in PAIRS)
        return agree / (len(x) * (len(x) - 1) / 2)

    delta = c(z2) - c(z1)
    hits = 0
    for _ in range(k):
        w = rng.random(len(gold)) < 0.5
        hits += c(np.where(w, z1, z2)) - c(np.where(w, z2, z1)) >= delta - 1e-12
    return hits / k, delta


@pytest.mark.parametrize("corr", ["pearson", "pairwise-accuracy"])
def test_sys_score_files_are_permuted_as_mtme(sys_data, corr):
    base, gold, metrics = sys_data
    data = read_meta_eval(base)
    (res,) = perm_both_analysis(data, correlation=corr, level="sys", n_resamples=4000, rng=5)
    r = res.result
    assert r.level == "sys" and r.correlation == corr
    for hi, lo in [("Good-refA", "Bad-refA"), ("Good-refA", "Mid-refA")]:
        if r.metrics.index(hi) > r.metrics.index(lo):
            hi, lo = lo, hi
        p, delta = _mtme_definition(gold, metrics[lo], metrics[hi], corr, 1000, seed=11)
        assert r.statistic.at[hi, lo] == pytest.approx(delta, abs=1e-12)
        se = np.sqrt(max(p * (1 - p), 0.01) * (1 / 1000 + 1 / 4000))
        assert abs(r.pvalue.at[hi, lo] - p) <= 4 * se
