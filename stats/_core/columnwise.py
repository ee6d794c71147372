r"""Column-wise correlations: the one Pearson (and Spearman) every module of :mod:`stats` uses.

A table ``x`` of shape (n, m) holds n items (systems, segments, sentences) and m columns
(metrics, QE systems). Pearson's r of two columns is

.. math::

    r_{jk} = \frac{\sum_i (x_{ij} - \bar x_j)(x_{ik} - \bar x_k)}
        {\sqrt{\sum_i (x_{ij} - \bar x_j)^2 \sum_i (x_{ik} - \bar x_k)^2}},

clipped to [-1, 1]; Spearman's rho is the same r of the mid-ranks (ties share the average
rank). A constant column has no correlation with anything: its r is NaN.
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "constant_columns",
    "correlation_pvalue",
    "pearson_columns",
    "pearson_matrix",
    "spearman_columns",
    "kendall_matrix",
    "sd_columns",
    "zscore_columns",
]


def constant_columns(x: np.ndarray) -> np.ndarray:
    """True for each column of ``x`` (n, m) whose values are all equal (for a vector (n,):
    one boolean).

    Decided on the values themselves, not on their centred sum of squares: the centred
    values of a constant column are the rounding residue of its mean (0.1 repeated gives
    residues near 1e-17) and would give a spurious r instead of NaN.
    """
    x = np.asarray(x, dtype=float)
    return np.ptp(x, axis=0) == 0


def _centred(x: np.ndarray):
    """Centred columns, their lengths, and where the correlation is undefined."""
    x = np.asarray(x, dtype=float)
    xc = x - x.mean(axis=0)
    norm = np.sqrt((xc**2).sum(axis=0))
    return xc, norm, constant_columns(x) | (norm == 0)


def pearson_columns(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Pearson r of each column of ``x`` (n, m) with ``y`` (n,): array (m,).

    NaN for a constant column, and everywhere when ``y`` is constant. Every column is
    reduced in the same order, so columns that are the same up to an exact affine map (e.g.
    ``2 * x + 1``) get the same r, not two values a rounding error apart.
    """
    xc, sx, undefined_x = _centred(x)
    yc, sy, undefined_y = _centred(y)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = (xc * yc[:, None]).sum(axis=0) / (sx * sy)
    return np.where(undefined_x | undefined_y, np.nan, np.clip(r, -1.0, 1.0))


def pearson_matrix(x: np.ndarray) -> np.ndarray:
    """Pearson r between every two columns of ``x`` (n, m): array (m, m), symmetric, 1 (up
    to rounding) on the diagonal; the row and column of a constant column are NaN."""
    xc, norm, undefined = _centred(x)
    with np.errstate(invalid="ignore", divide="ignore"):
        z = xc / norm
        c = np.clip(z.T @ z, -1.0, 1.0)
    c[:, undefined] = np.nan
    c[undefined, :] = np.nan
    return c


def kendall_matrix(x: np.ndarray, *, max_cells: int = 4_000_000) -> np.ndarray:
    r"""Kendall's tau-b between every two columns of ``x`` (n, m): array (m, m).

    With :math:`s_{pk} = \operatorname{sign}(x_{ik} - x_{jk})` for each pair :math:`p = (i, j)`,
    :math:`\tau_b(k, l) = \sum_p s_{pk} s_{pl} / \sqrt{n_k n_l}`, :math:`n_k` the pairs not
    tied in column :math:`k` (tau-b as :func:`scipy.stats.kendalltau`); one matrix product
    over the pairs, in blocks of at most ``max_cells`` signs. The row and column of a constant
    column are NaN.
    """
    x = np.asarray(x, dtype=float)
    n, m = x.shape
    i, j = np.triu_indices(n, 1)
    num = np.zeros((m, m))
    step = max(1, max_cells // max(m, 1))
    for start in range(0, len(i), step):  # blocks of pairs bound the memory
        sl = slice(start, start + step)
        signs = np.sign(x[i[sl]] - x[j[sl]])
        num += signs.T @ signs
    untied = np.diag(num).copy()
    undefined = constant_columns(x) | (untied == 0)
    with np.errstate(invalid="ignore", divide="ignore"):
        c = np.clip(num / np.sqrt(np.outer(untied, untied)), -1.0, 1.0)
    c[:, undefined] = np.nan
    c[undefined, :] = np.nan
    return c


def sd_columns(x: np.ndarray, *, ddof: int = 1) -> np.ndarray:
    """Standard deviation of each column of ``x`` (n, m) over its finite values (divisor
    ``k - ddof`` for ``k`` finite values): array (m,); exactly 0 for a constant column (decided
    on the values, as :func:`constant_columns`), NaN for a column with ``ddof`` or fewer finite
    values."""
    x = np.asarray(x, dtype=float)
    finite = np.isfinite(x)
    k = finite.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(finite, x, 0.0).sum(axis=0) / k
        dev = np.where(finite, x - mean, 0.0)
        sd = np.sqrt((dev**2).sum(axis=0) / (k - ddof))
    lo = np.where(finite, x, np.inf).min(axis=0)
    hi = np.where(finite, x, -np.inf).max(axis=0)
    sd = np.where(lo == hi, 0.0, sd)
    return np.where(k > ddof, sd, np.nan)


def zscore_columns(x: np.ndarray, *, ddof: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Each column of ``x`` (n, m) in standard deviations from its mean (over its finite
    values; :func:`sd_columns` with ``ddof``), and which columns have no z-scores: a constant
    column, or one with ``ddof`` or fewer finite values, is NaN throughout (its standard
    deviation is 0 or undefined: no scale to standardise by)."""
    x = np.asarray(x, dtype=float)
    sd = sd_columns(x, ddof=ddof)
    undefined = ~(sd > 0)
    finite = np.isfinite(x)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = np.where(finite, x, 0.0).sum(axis=0) / finite.sum(axis=0)
        z = (x - mean) / np.where(undefined, 1.0, sd)
    return np.where(undefined, np.nan, z), undefined


def spearman_columns(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Spearman rho of each column of ``x`` (n, m) with ``y`` (n,): Pearson r of the
    mid-ranks (:func:`scipy.stats.rankdata`); NaN for a constant column."""
    from scipy import stats as _st  # scipy.stats is imported when first needed (slow import)

    return pearson_columns(_st.rankdata(x, axis=0), _st.rankdata(y))


def correlation_pvalue(r, n: int) -> np.ndarray:
    r"""Two-sided p-value of :math:`H_0\colon \rho = 0` for correlations ``r`` of ``n`` items:

    .. math:: t = r \sqrt{\frac{n - 2}{1 - r^2}}, \qquad p = 2\, P(T_{n-2} \ge |t|),

    0 for :math:`|r| = 1` and NaN where ``r`` is NaN (the test of Pearson's r under
    normality; for Spearman's rho the usual large-sample approximation, as
    :func:`scipy.stats.spearmanr` computes it).
    """
    r = np.asarray(r, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = r * np.sqrt((n - 2) / (1.0 - r**2))
    from scipy import stats as _st

    p = 2.0 * _st.t.sf(np.abs(t), n - 2)
    return np.where(np.abs(r) == 1.0, 0.0, p)
