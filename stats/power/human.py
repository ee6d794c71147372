r"""Power of the human ranking's pairwise test by domain (WMT24-25 general task): two-sided
Wilcoxon signed-rank tests on the items of each domain, Stouffer-combined
(:mod:`stats.human.paired`), as a function of the number of items rated per domain.

Definition
----------
For each domain :math:`d` the observed paired item differences (system minus baseline) are
shifted to the hypothesised effect, :math:`d_{di} - \bar d_d + \delta` (the same
:math:`\delta` in every domain). Power at :math:`n` = the share of ``n_simulations`` rankings
in which :math:`n` items are drawn with replacement in every domain, each domain's
signed-rank p-value is computed as ``scipy.stats.wilcoxon`` does and the domains are combined
by :func:`stats.human.paired.stouffer`, on which the combined p-value is below :math:`\alpha`.
The MDE is the smallest :math:`\delta` reaching ``power`` in the system's favour (combined
rejection with the system's mean item score the higher), by bisection on the same draws.

References
----------
T. Kocmi et al. (2024). Findings of the WMT24 General Machine Translation Shared Task.
https://aclanthology.org/2024.wmt-1.1/ ; Graham, Haddow & Koehn (2020), EMNLP,
https://aclanthology.org/2020.emnlp-main.6/ .
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from stats._core.errors import StatsInputError
from stats._core.random import rng_and_seed
from stats.human.paired import stouffer

from . import engine as E
from .engine import PowerResult
from .paired import (
    _PERMUTATION_MAX,
    _differences,
    _pool_counts,
    _signed_rank_pool,
    _signed_rank_small,
    paired_t_mde,
)

__all__ = ["domain_power"]


def domain_power(
    domains: Mapping[str, tuple],
    *,
    effect,
    n,
    alpha: float = 0.05,
    power: float = 0.8,
    n_simulations: int = 1000,
    rng=None,
) -> PowerResult:
    r"""Simulated power of the by-domain signed-rank test with Stouffer's combination, and
    the MDE, for each effect and number of items per domain (module notes).

    Parameters
    ----------
    domains : mapping of str to (baseline, system)
        Per domain, the two systems' item scores on the items both were rated on (mean over
        raters per item, as :func:`stats.human.paired.item_scores`).
    effect : float or sequence of float
        Hypothesised differences, system minus baseline, in every domain.
    n : int or sequence of int
        Items per domain in each simulated ranking.
    alpha, power, n_simulations, rng
        As :func:`stats.power.paired_power` (the test is two-sided, as the findings run it).

    Returns
    -------
    PowerResult
        ``unit`` is "items per domain".

    Examples
    --------
    >>> import numpy as np
    >>> from stats.power import domain_power
    >>> gen = np.random.default_rng(0)
    >>> doms = {}
    >>> for d in ("news", "social", "speech"):
    ...     base = np.rint(gen.normal(70, 15, 150))
    ...     doms[d] = (base, base + np.rint(gen.normal(1, 12, 150)))
    >>> res = domain_power(doms, effect=[1, 3], n=[30, 120], n_simulations=300, rng=1)
    >>> bool(res.power[1, 1] > res.power[1, 0] and res.mde[1] < res.mde[0])
    True
    """
    if not isinstance(domains, Mapping) or not domains:
        raise StatsInputError("domains must map each domain to (baseline, system) item scores")
    alpha, alternative, power, n_simulations = E.check_common(alpha, "two-sided", power,
                                                              n_simulations)
    effects, sizes = E.as_effects(effect), E.as_sizes(n)
    pools = {}
    for name, pair in domains.items():
        try:
            base, syst = pair
        except (TypeError, ValueError):
            raise StatsInputError(
                f"domains[{name!r}] must be a pair (baseline scores, system scores)"
            ) from None
        d, _ = _differences(base, syst)
        pools[name] = d - d.mean()
    E.budget("by-domain signed-rank power", n_simulations * len(pools), 0, sizes)
    gen, seed = rng_and_seed(rng)
    sd = float(np.concatenate(list(pools.values())).std(ddof=1)) or 1.0
    hi = 4.0 * max(float(np.abs(c).max()) for c in pools.values()) + 1e-9
    pw = np.zeros((len(effects), len(sizes)))
    mde = np.full(len(sizes), np.nan)
    for j, size in enumerate(sizes):  # loop over sizes (and domains); simulations are rows
        draws: list[tuple] = []
        for c in pools.values():
            values, inverse = np.unique(c, return_inverse=True)
            idx = gen.integers(0, c.size, (n_simulations, size))
            if size <= _PERMUTATION_MAX:
                draws.append(("small", c[idx], None, idx))
            else:
                draws.append(("pool", _pool_counts(inverse[idx], values.size), values, c[idx]))

        def combined(e, draws=draws, size=size):
            ps, means = [], []
            for kind, data, values, sample in draws:
                if kind == "small":
                    p, _ = _signed_rank_small(data + e, "two-sided")
                else:
                    p, _ = _signed_rank_pool(data, values + e, size, "two-sided")
                ps.append(p)
                means.append(sample.mean(axis=1) + e)
            p = stouffer(np.vstack(ps), axis=0)
            return p < alpha, (p < alpha) & (np.mean(means, axis=0) > 0)

        for i, e in enumerate(effects):
            pw[i, j] = combined(e)[0].mean()
        guess = float(paired_t_mde(sd=sd, n=size * len(pools), alpha=alpha, power=power))
        mde[j] = E.scalar_mde(lambda e: float(combined(e)[1].mean()), power, guess, hi,
                              steps=12)
    return PowerResult(
        power=pw,
        mc_error=E.mc_error(pw, n_simulations),
        mde=mde,
        effects=effects,
        sizes=sizes,
        test="signed-rank by domain, Stouffer",
        alternative=alternative,
        alpha=alpha,
        target_power=power,
        n_simulations=n_simulations,
        n_resamples=0,
        seed=seed,
        n_observed=int(sum(c.size for c in pools.values())),
        observed_effect=float("nan"),
        metric="human",
        unit="items per domain",
        definition=(
            "power at n = share of simulated rankings, n items drawn with replacement in every "
            "domain from the observed item differences shifted to the hypothesised effect, on "
            "which the signed-rank tests per domain, Stouffer-combined, reject at alpha; mde = "
            "the smallest effect in the system's favour detected with the target power"
        ),
    )
