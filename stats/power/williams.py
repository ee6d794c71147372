r"""Power of the Williams test: the smallest difference in correlation it detects.

With few systems the Williams test (Graham & Baldwin 2014) has little power: two metrics whose
true correlations with humans differ by 0.05 are rarely told apart with 12 systems. Given the
number of systems :math:`n`, the better metric's correlation with humans :math:`\rho_{13}` and
the correlation between the two metrics :math:`\rho_{12}`, :func:`williams_detectable_difference`
returns the smallest :math:`\Delta = \rho_{13} - \rho_{23}` that the test detects with the
requested power (80% by default) at :math:`\alpha`.

Approximation
-------------
The Williams statistic evaluated at the population correlations,

.. math::

    \delta = \frac{\Delta\sqrt{(n-1)(1 + \rho_{12})}}
                  {\sqrt{2K\frac{n-1}{n-3} + \bar\rho^2 (1 - \rho_{12})^3}},
    \quad K = 1 - \rho_{12}^2 - \rho_{13}^2 - \rho_{23}^2 + 2\rho_{12}\rho_{13}\rho_{23},
    \quad \bar\rho = \tfrac{\rho_{13} + \rho_{23}}{2},

is taken as the noncentrality of a noncentral :math:`t` with :math:`n - 3` degrees of freedom:
power :math:`\approx P(T_{n-3}(\delta) > t_{1-\alpha, n-3})` (:math:`t_{1-\alpha/2}` for
``'two-sided'``, counting rejections in the true direction). The tests check it against
:func:`williams_power_simulation` (trivariate normal samples, the test run on each); it is
within about 0.02 of the simulated power for 8-50 systems.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.choices import POWER
from stats._core.errors import StatsInputError
from stats._core.keywords import keyword_only
from stats._core.random import check_rng
from stats._core.validation import check_alpha, check_alternative, check_positive_int
from stats.metaeval.williams import as_correlation, as_sample_size, scalarize, williams_arrays

__all__ = [
    "WilliamsPowerResult",
    "williams_power",
    "williams_detectable_difference",
    "williams_power_simulation",
    "williams_grid_power",
    "williams_sample_size",
    "median_detectable_difference",
    "POWER",
]


_BISECTIONS = 60


def _noncentrality(n, r12, r13, r23):
    k = 1.0 - r12**2 - r13**2 - r23**2 + 2.0 * r12 * r13 * r23
    with np.errstate(divide="ignore", invalid="ignore"):
        den = np.sqrt(2.0 * k * (n - 1.0) / (n - 3.0) + ((r13 + r23) / 2.0) ** 2 * (1 - r12) ** 3)
        return (r13 - r23) * np.sqrt((n - 1.0) * (1.0 + r12)) / den


def _critical(n, alpha, alternative):
    from scipy import stats as sps  # when first needed: a slow import (the dashboard's first page)

    return sps.t.ppf(1.0 - (alpha / 2.0 if alternative == "two-sided" else alpha), n - 3.0)


def _approx_power(n, r12, r13, r23, alpha, alternative, critical=None):
    """Approximate power; ``critical`` is :func:`_critical` when the caller has it already."""
    from scipy import stats as sps  # when first needed: a slow import (the dashboard's first page)
    if critical is None:
        critical = _critical(n, alpha, alternative)
    return sps.nct.sf(critical, n - 3.0, _noncentrality(n, r12, r13, r23))


def _check_n(n) -> np.ndarray:
    arr = as_sample_size(n)
    if np.any(arr < 4):
        raise StatsInputError(f"n must be at least 4 (the test has n - 3 df); got {n!r}")
    return arr


@keyword_only(
    "williams_power(n=..., r_human_a=..., r_human_b=..., r_a_b=...)",
    refused={"r12": "r_a_b=", "r13": "r_human_a=", "r23": "r_human_b="},
)
def williams_power(
    *, n, r_human_a, r_human_b, r_a_b, alpha: float = 0.05, alternative: str = "greater"
) -> float | np.ndarray:
    r"""Approximate power of the Williams test of "metric A correlates better with humans than
    metric B" (noncentral :math:`t`, see the module notes). Keyword-only, in the notation of
    :func:`stats.metaeval.williams.williams_test`; arguments broadcast; ``r_human_a >= r_human_b`` is
    the direction tested.

    Parameters
    ----------
    n : int or array_like
        Number of systems (at least 4).
    r_human_a, r_human_b : float or array_like
        Population correlations of the better metric (A) and of the other (B) with humans
        (the paper's :math:`\rho_{13}`, :math:`\rho_{23}`).
    r_a_b : float or array_like
        Population correlation between the two metrics (the paper's :math:`\rho_{12}`).
    alpha : float
    alternative : {'greater', 'two-sided'}

    Returns
    -------
    float or numpy.ndarray
        NaN where the three correlations are not those of any data (:math:`K \le 0`).

    Examples
    --------
    The power of the Williams test to find the paper's difference with 20 systems.

    >>> from stats import williams_power
    >>> round(float(williams_power(n=20, r_human_a=0.95, r_human_b=0.85, r_a_b=0.9)), 3)
    0.877
    """
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, ("greater", "two-sided"))
    n, r12, r13, r23 = np.broadcast_arrays(
        _check_n(n),
        as_correlation(r_a_b, "r_a_b"),
        as_correlation(r_human_a, "r_human_a"),
        as_correlation(r_human_b, "r_human_b"),
    )
    k = 1.0 - r12**2 - r13**2 - r23**2 + 2.0 * r12 * r13 * r23
    out = np.where(k > 0, _approx_power(n, r12, r13, r23, alpha, alternative), np.nan)
    return scalarize(out)


@dataclass(frozen=True, kw_only=True)
class WilliamsPowerResult:
    """Result of :func:`williams_detectable_difference`; numeric fields broadcast like the
    inputs.

    Attributes
    ----------
    difference : float or ndarray
        Smallest :math:`\\Delta r = r_{13} - r_{23}` detected with probability ``power``; NaN
        when no difference that the correlations allow reaches it.
    n, r12, r13 : float or ndarray
        As passed in, in the paper's notation: ``r13`` = ``r_human_a``, ``r12`` = ``r_a_b``
        (properties of those names return them too).
    alpha, power : float
    alternative : str
    method : str
        How the power was computed.
    """

    difference: float | np.ndarray
    n: float | np.ndarray
    r12: float | np.ndarray
    r13: float | np.ndarray
    alpha: float
    power: float
    alternative: str
    method: str = "noncentral t approximation"

    @property
    def r_human_a(self) -> float | np.ndarray:
        """The better metric's correlation with humans (the paper's ``r13``)."""
        return self.r13

    @property
    def r_a_b(self) -> float | np.ndarray:
        """The two metrics' correlation (the paper's ``r12``)."""
        return self.r12


@keyword_only(
    "williams_detectable_difference(n=..., r_human_a=..., r_a_b=...)",
    refused={"r12": "r_a_b=", "r13": "r_human_a=", "r23": "r_human_b="},
)
def williams_detectable_difference(
    *,
    n,
    r_human_a,
    r_a_b,
    alpha: float = 0.05,
    power: float = 0.8,
    alternative: str = "greater",
) -> WilliamsPowerResult:
    r"""Smallest difference in correlation with humans the Williams test detects.

    Solves :math:`\mathrm{power}(\Delta) = ` ``power`` for :math:`\Delta` with
    :math:`\rho_{23} = \rho_{13} - \Delta` and :math:`\rho_{12}` held fixed, over the
    differences for which the correlation matrix is valid
    (:math:`\rho_{23} \ge \rho_{12}\rho_{13} - \sqrt{(1-\rho_{12}^2)(1-\rho_{13}^2)}`),
    by vectorised bisection on the approximate power (module notes).

    Parameters
    ----------
    n : int or array_like
        Number of systems (at least 4).
    r_human_a : float or array_like
        Correlation of the better metric (A) with humans (the paper's :math:`r_{13}`).
    r_a_b : float or array_like
        Correlation between the two metrics (the paper's :math:`r_{12}`).
    alpha : float
        Level of the test (default 0.05).
    power : float
        Probability of detecting the difference (default 0.8).
    alternative : {'greater', 'two-sided'}

    Returns
    -------
    WilliamsPowerResult

    References
    ----------
    Y. Graham and T. Baldwin (2014). Testing for Significance of Increased Correlation with
    Human Judgment. EMNLP. https://aclanthology.org/D14-1020/

    Examples
    --------
    >>> from stats.power.williams import williams_detectable_difference
    >>> res = williams_detectable_difference(n=12, r_human_a=0.95, r_a_b=0.9)
    >>> round(float(res.difference), 3)
    0.124
    """
    alpha = check_alpha(alpha)
    power = check_alpha(power, "power")
    alternative = check_alternative(alternative, ("greater", "two-sided"))
    n0 = _check_n(n)
    r12_0, r13_0 = as_correlation(r_a_b, "r_a_b"), as_correlation(r_human_a, "r_human_a")
    nn, a, b = np.broadcast_arrays(n0, r12_0, r13_0)
    # the largest difference keeping the 3x3 correlation matrix positive definite
    top = b - (a * b - np.sqrt(np.clip((1 - a**2) * (1 - b**2), 0, None)))
    top = np.minimum(top, b + 1.0) * (1 - 1e-9)
    ok = (top > 0) & (np.abs(a) < 1) & (np.abs(b) < 1)
    top = np.where(ok, top, np.nan)
    critical = _critical(nn, alpha, alternative)  # the same in every bisection step
    reach = _approx_power(nn, a, b, b - top, alpha, alternative, critical) >= power
    lo, hi = np.zeros_like(top), top.copy()
    for _ in range(_BISECTIONS):  # vectorised over every input; the count fixes the precision
        mid = (lo + hi) / 2.0
        up = _approx_power(nn, a, b, b - mid, alpha, alternative, critical) >= power
        hi, lo = np.where(up, mid, hi), np.where(up, lo, mid)
    diff = np.where(ok & reach, hi, np.nan)
    return WilliamsPowerResult(
        difference=scalarize(diff),
        n=scalarize(n0),
        r12=scalarize(r12_0),
        r13=scalarize(r13_0),
        alpha=alpha,
        power=power,
        alternative=alternative,
    )


@keyword_only(
    "williams_power_simulation(n=..., r_human_a=..., r_human_b=..., r_a_b=...)",
    refused={"r12": "r_a_b=", "r13": "r_human_a=", "r23": "r_human_b="},
)
def williams_power_simulation(
    *,
    n: int,
    r_human_a: float,
    r_human_b: float,
    r_a_b: float,
    alpha: float = 0.05,
    alternative: str = "greater",
    n_resamples: int = 10_000,
    rng=None,
) -> float:
    r"""Power of the Williams test by simulation: the share of ``n_resamples`` samples of
    ``n`` trivariate normal systems with correlations ``r_human_a``, ``r_human_b`` (metrics A
    and B with humans) and ``r_a_b`` (the metrics) in which the test rejects at ``alpha`` in
    the direction "A better" (for ``'two-sided'``: two-sided p below ``alpha`` and A's sample
    correlation the higher). Keyword-only, as :func:`stats.metaeval.williams.williams_test`.

    Vectorised over the samples; ``rng`` is checked by :func:`stats._core.random.check_rng`.
    """
    alpha = check_alpha(alpha)
    alternative = check_alternative(alternative, ("greater", "two-sided"))
    n = check_positive_int(n, "n", 4)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    r12, r13, r23 = r_a_b, r_human_a, r_human_b  # the paper's notation below
    c = np.array([[1.0, r12, r13], [r12, 1.0, r23], [r13, r23, 1.0]])
    try:
        chol = np.linalg.cholesky(c)
    except np.linalg.LinAlgError:
        raise StatsInputError(
            f"r_human_a, r_human_b, r_a_b = {r13}, {r23}, {r12} are not the correlations of "
            "any data"
        ) from None
    gen = check_rng(rng)
    x = gen.standard_normal((n_resamples, n, 3)) @ chol.T
    x -= x.mean(axis=1, keepdims=True)
    x /= np.sqrt((x**2).sum(axis=1, keepdims=True))
    r = np.einsum("kni,knj->kij", x, x)
    s12, s13, s23 = r[:, 0, 1], r[:, 0, 2], r[:, 1, 2]
    _, p, _, _ = williams_arrays(
        s12, s13, s23, np.full(n_resamples, float(n)), alternative, 0.95, warn=False
    )
    return float(np.mean((p < alpha) & (s13 > s23)))


def williams_grid_power(result, *, alpha: float = 0.05, power: float = 0.8) -> pd.DataFrame:
    """:func:`williams_detectable_difference` for every tested cell of a Williams grid.

    Parameters
    ----------
    result : stats.WilliamsMatrixResult
        The grid: ``n`` systems, the row metric's (aligned) correlation with humans as
        :math:`r_{13}` and the two metrics' (aligned) correlation as :math:`r_{12}`.
    alpha, power : float

    Returns
    -------
    pandas.DataFrame
        Same layout as ``result.pvalue``: the smallest detectable difference in each cell that
        holds a test, NaN elsewhere (and where the correlations are undefined).
    """
    tested = result.pvalue.notna().to_numpy() | result.difference.notna().to_numpy()
    r13 = np.broadcast_to(result.r_aligned.to_numpy(dtype=float)[:, None], tested.shape)
    r12 = result.metric_corr.to_numpy(dtype=float)
    ok = tested & np.isfinite(r12) & np.isfinite(r13)
    out = np.full(tested.shape, np.nan)
    if ok.any() and result.n >= 4:
        out[ok] = williams_detectable_difference(
            n=result.n,
            r_human_a=r13[ok],
            r_a_b=r12[ok],
            alpha=alpha,
            power=power,
            alternative=("two-sided" if result.alternative == "two-sided" else "greater"),
        ).difference
    return pd.DataFrame(out, index=result.pvalue.index, columns=result.pvalue.columns)


def median_detectable_difference(grid: pd.DataFrame) -> float:
    """The median over the tested cells of a :func:`williams_grid_power` grid: the one number
    that summarises a language pair's power ("with n systems, differences in r below this are
    not detected"); NaN when no cell has a value."""
    values = grid.stack().dropna()
    return float(values.median()) if len(values) else float("nan")


@keyword_only(
    "williams_sample_size(r_human_a=..., r_human_b=..., r_a_b=...)",
    refused={"r12": "r_a_b=", "r13": "r_human_a=", "r23": "r_human_b="},
)
def williams_sample_size(
    *, r_human_a, r_human_b, r_a_b, alpha: float = 0.05, power: float = 0.8,
    alternative: str = "greater", n_max: int = 100_000,
):
    r"""Smallest number of systems at which the Williams test detects "metric A correlates
    better with humans than B" with probability ``power`` (the noncentral-:math:`t`
    approximation of :func:`williams_power`, within about 0.02 of the simulated power for
    8-50 systems; no Monte Carlo, so ``mc_error`` is 0). Effect 0 (``r_human_a ==
    r_human_b``) has no sample size: NaN, said in ``note``.

    Returns
    -------
    stats.power.SampleSizeResult
        ``effect`` is ``r_human_a - r_human_b``; NaN with a note when ``n_max`` systems are
        not enough.

    Examples
    --------
    >>> from stats.power import williams_sample_size
    >>> res = williams_sample_size(r_human_a=0.95, r_human_b=0.85, r_a_b=0.9)
    >>> int(res.sample_size), res.mc_error, round(res.power, 3)
    (17, 0.0, 0.81)
    """
    from .engine import SampleSizeResult

    alpha = check_alpha(alpha)
    power = check_alpha(power, "power")
    alternative = check_alternative(alternative, ("greater", "two-sided"))
    n_max = check_positive_int(n_max, "n_max", 5)
    r12 = float(as_correlation(r_a_b, "r_a_b"))
    r13 = float(as_correlation(r_human_a, "r_human_a"))
    r23 = float(as_correlation(r_human_b, "r_human_b"))
    effect = r13 - r23
    k = 1.0 - r12**2 - r13**2 - r23**2 + 2.0 * r12 * r13 * r23
    if k <= 0:
        raise StatsInputError(
            f"r_human_a, r_human_b, r_a_b = {r13}, {r23}, {r12} are not the correlations of "
            "any data"
        )

    def result(n, reached, note=""):
        return SampleSizeResult(sample_size=n, mc_error=0.0 if np.isfinite(n) else np.nan,
                                power=reached, effect=effect, target_power=power,
                                n_simulations=0, test="williams", note=note)

    if not effect > 0:
        return result(float("nan"), float("nan"),
                      f"no sample size for a difference of {effect:g}: r_human_a must exceed "
                      "r_human_b")
    ns = np.arange(4, n_max + 1, dtype=float)  # the closed form at every n at once
    pw = _approx_power(ns, r12, r13, r23, alpha, alternative)
    above = np.flatnonzero(pw >= power)
    if not above.size:
        return result(float("nan"), float(pw[-1]),
                      f"the power with n_max={n_max:,} systems is {pw[-1]:.3f}, below {power:g}")
    return result(float(ns[above[0]]), float(pw[above[0]]))
