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
