"""scipy's Wilcoxon signed-rank p-value of many simulated data sets at once, equal to one
``scipy.stats.wilcoxon`` call per data set (the power tests' reference loops)."""

from __future__ import annotations

import numpy as np
from scipy import stats as sps


def wilcoxon_rows(d, alternative="two-sided"):
    """p of each row of ``d`` (n > 13 items a row) as ``sps.wilcoxon(row).pvalue`` gives it.

    scipy's ``method='auto'`` picks its method from the whole array it is given (exact without
    ties or zeros, else the normal approximation; a permutation test at n <= 13, not done
    here), so rows without ties or zeros and the others go in as two vectorised calls. Rows of
    zeros only get NaN (scipy refuses them). Checked against the per-row loop in
    tests/power/test_paired_power.py and tests/power/test_domain_power.py (same draws).
    """
    d = np.asarray(d, dtype=float)
    assert d.ndim == 2 and d.shape[1] > 13, d.shape
    a = np.sort(np.abs(d), axis=1)
    plain = (a[:, 0] > 0) & np.all(np.diff(a, axis=1) > 0, axis=1)
    p = np.full(len(d), np.nan)
    for rows in (plain, ~plain & np.any(d, axis=1)):
        if rows.any():
            p[rows] = sps.wilcoxon(d[rows], axis=1, alternative=alternative).pvalue
    return p


def symmetric_pool_draws(d, effect, n, sims, gen):
    """Data sets from the signed-rank null as stats.power draws them, written out here: the
    differences of the items whose scores differ centred on their median, each with its
    negative, then the equal items (zeros, twice, so each keeps its share), indices drawn
    uniformly, shifted by effect / share of differing items (equal items stay 0)."""
    d = np.asarray(d, dtype=float)
    x = d[d != 0]
    c = x - np.median(x)
    nzero = int((d == 0).sum())
    pool = np.r_[c, -c, np.zeros(2 * nzero)]
    fixed = np.r_[np.zeros(2 * x.size, bool), np.ones(2 * nzero, bool)]
    idx = gen.integers(0, pool.size, (sims, n))
    return np.where(fixed[idx], 0.0, pool[idx] + effect / (x.size / d.size))


def symmetric_independent(d, effect, n, sims, gen):
    """The same null drawn another way: each item equal (0) with the observed share of equal
    items, else a random sign times the absolute centred difference of a random differing
    item, plus effect / share of differing items."""
    d = np.asarray(d, dtype=float)
    x = d[d != 0]
    c = np.abs(x - np.median(x))
    share = x.size / d.size
    equal = gen.random((sims, n)) >= share
    sign = np.where(gen.random((sims, n)) < 0.5, -1.0, 1.0)
    vals = sign * c[gen.integers(0, c.size, (sims, n))] + effect / share
    return np.where(equal, 0.0, vals)


def signed_rank_up(s):
    """Whether T+ (sum of the midranks of |s| among the non-zero items with s > 0) lies above
    its null mean n'(n'+1)/4, each row: the direction of the signed-rank statistic."""
    s = np.asarray(s, dtype=float)
    a = np.where(s == 0, np.nan, np.abs(s))
    ranks = sps.rankdata(a, axis=1, nan_policy="omit")
    ranks = np.where(s == 0, 0.0, ranks)
    nz = (s != 0).sum(axis=1)
    return np.where(s > 0, ranks, 0.0).sum(axis=1) > nz * (nz + 1) / 4.0
