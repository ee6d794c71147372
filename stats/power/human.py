r"""Power of the human ranking's pairwise test by domain (WMT24-25 general task): two-sided
Wilcoxon signed-rank tests on the items of each domain, Stouffer-combined
(:mod:`stats.human.paired`), as a function of the number of items rated per domain.

Definition
----------
For each domain :math:`d` the observed paired item differences (system minus baseline) give
the signed-rank test's null, a distribution symmetric about 0: the differences of the items
whose two scores differ are centred on their median and symmetrised (each with its
negative), and the items with equal scores stay exact zeros (the test drops them). The
effect :math:`\delta` shifts the symmetrised values by :math:`\delta / q_d` (:math:`q_d` the
domain's share of items whose scores differ), so the mean item difference is :math:`\delta`
in every domain; at :math:`\delta = 0` every domain's null holds exactly. Power at :math:`n` = the share of ``n_simulations`` rankings
in which :math:`n` items are drawn with replacement in every domain, each domain's
signed-rank p-value is computed as ``scipy.stats.wilcoxon`` does and the domains are combined
by :func:`stats.human.paired.stouffer`, on which the combined p-value is below :math:`\alpha`
with the system's mean item score the higher for a positive effect (a rejection the other
way is not power; at effect 0 every rejection counts: the size).
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
from stats._core.random import common_seed, rng_and_seed
from stats.human.paired import stouffer

from . import engine as power_engine
from .engine import PowerResult
from .paired import (
    _PERMUTATION_MAX,
    _differences,
    _pool_counts,
    _signed_rank_pool,
    _signed_rank_small,
    check_effect_range,
    paired_t_mde,
    symmetric_pool,
)

__all__ = ["domain_power", "domain_sample_size"]


def domain_power(
    domains: Mapping[str, tuple],
    *,
    effect,
    n,
    alpha: float = 0.05,
    power: float = 0.8,
    n_simulations: int = 1000,
    rng=None,
    sample_size: bool = False,
    n_max: int = 100_000,
    progress=None,
    _mde: bool = True,
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
    alpha, alternative, power, n_simulations = power_engine.check_common(
        alpha, "two-sided", power, n_simulations
    )
    effects, sizes = power_engine.as_effects(effect), power_engine.as_sizes(n)
    pools = {}
    scores = []
    for name, pair in domains.items():
        try:
            base, syst = pair
        except (TypeError, ValueError):
            raise StatsInputError(
                f"domains[{name!r}] must be a pair (baseline scores, system scores)"
            ) from None
        try:
            d, _ = _differences(base, syst)
        except StatsInputError as exc:
            if "same score on every item" in str(exc):  # a domain without differences
                continue
            raise StatsInputError(f"domains[{name!r}]: {exc}") from None
        pools[name] = symmetric_pool(d)
        scores += [np.asarray(base, float), np.asarray(syst, float)]
    if not pools:
        raise StatsInputError(
            "baseline and system have the same score on every item of every domain (the same "
            "system twice?): there is no difference to simulate from"
        )
    check_effect_range(np.concatenate(scores[::2]), np.concatenate(scores[1::2]), effects)
    power_engine.budget("by-domain signed-rank power", n_simulations * len(pools), 0, sizes)
    gen, seed = rng_and_seed(rng)
    sd = float(np.concatenate([v for v, _, _ in pools.values()]).std(ddof=1)) or 1.0
    hi = 4.0 * max(float(np.abs(v).max()) / share for v, _, share in pools.values()) + 1e-9
    evals = (*effects, 0.0)
    pw = np.zeros((len(evals), len(sizes)))
    mde = np.full(len(sizes), np.nan)
    tick = power_engine.ticker(progress, len(sizes) + bool(sample_size))
    for j, size in enumerate(sizes):  # loop over sizes (and domains); simulations are rows
        tick(j)
        combined = _combined_test(pools, size, gen, n_simulations, alpha)
        for i, e in enumerate(evals):
            reject, favour = combined(e)
            pw[i, j] = power_engine.directed(reject, favour, e, alternative).mean()
        if _mde:
            guess = float(paired_t_mde(sd=sd, n=size * len(pools), alpha=alpha, power=power))
            def favour(e: float, c=combined) -> float:
                return float(c(e)[1].mean())

            mde[j] = power_engine.scalar_mde(favour, power, guess, hi, steps=12)
    result = PowerResult(
        power=pw[:-1],
        mc_error=power_engine.mc_error(pw[:-1], n_simulations),
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
        n_observed=int(sum(v.size for v, _, _ in pools.values()) // 2),
        observed_effect=float("nan"),
        metric="human",
        unit="items per domain",
        definition=DEFINITION_DOMAIN,
        effect_meaning=EFFECT_DOMAIN,
    )
    if not _mde:
        return result
    tick(len(sizes))
    if sample_size:
        found = domain_sample_size(
            domains, effect=effects[0], alpha=alpha, power=power, n_simulations=n_simulations,
            n_max=n_max, rng=seed if seed is not None else gen,
            _known=dict(zip(sizes, pw[0], strict=True)),
            _n_cap=power_engine.search_cap(n_simulations, 0, sizes, len(pools), None),
        )
        result = power_engine.with_sample_size(result, found)
    smallest = min(v.size // 2 for v, _, _ in pools.values())
    notes = power_engine.beyond_observed_note(sizes, smallest, "items of the smallest domain")
    return power_engine.finish(result, size=pw[-1], notes=notes)


def _combined_test(pools, size, gen, n_simulations, alpha):
    """The by-domain test of ``n_simulations`` rankings of ``size`` items per domain, drawn
    once: a function of the effect returning (reject, reject with the system the better)."""
    draws: list[tuple] = []
    for full, fixed, share in pools.values():
        idx = gen.integers(0, full.size, (n_simulations, size))
        if size <= _PERMUTATION_MAX:
            draws.append(("small", idx, None, (full, fixed, share)))
        else:
            values, inverse = np.unique(full[~fixed], return_inverse=True)
            index = np.full(full.size, values.size)
            index[~fixed] = inverse
            nfree = (~fixed[idx]).sum(axis=1)
            sums = np.where(fixed[idx], 0.0, full[idx]).sum(axis=1)
            draws.append(("pool", _pool_counts(index[idx], values.size + 1), values,
                          (sums, nfree, share)))

    def combined(e):
        ps, means = [], []
        for kind, data, values, extra in draws:
            if kind == "small":
                full, fixed, share = extra
                y = np.where(fixed[data], 0.0, full[data] + e / share)
                p, _ = _signed_rank_small(y, "two-sided")
                means.append(y.mean(axis=1))
            else:
                sums, nfree, share = extra
                p, _ = _signed_rank_pool(data, np.r_[values + e / share, 0.0], size,
                                         "two-sided")
                means.append((sums + nfree * e / share) / size)
            ps.append(p)
        p = stouffer(np.vstack(ps), axis=0)
        return p < alpha, (p < alpha) & (np.mean(means, axis=0) > 0)

    return combined


#: the definition :func:`domain_power` states
DEFINITION_DOMAIN = (
    "power at n = share of simulated rankings, n items drawn with replacement in every domain "
    "from the domain's symmetrised item differences shifted to the hypothesised effect, on "
    "which the signed-rank tests per domain, Stouffer-combined, reject at alpha in the "
    "effect's direction; mde = the smallest effect in the system's favour detected with the "
    "target power"
)
#: what "effect" means for the by-domain test
EFFECT_DOMAIN = (
    "effect = the mean per-item difference, system minus baseline, in every domain: in each "
    "domain the differences of the items whose scores differ are centred on their median and "
    "symmetrised (the signed-rank null, symmetric about 0), then shifted by effect / (that "
    "domain's share of items whose scores differ); items with equal scores stay equal"
)


def domain_sample_size(
    domains: Mapping[str, tuple],
    *,
    effect: float,
    alpha: float = 0.05,
    power: float = 0.8,
    n_simulations: int = 1000,
    n_max: int = 100_000,
    rng=None,
    _known=None,
    _n_cap: int | None = None,
) -> power_engine.SampleSizeResult:
    """Smallest number of items per domain at which :func:`domain_power` for ``effect``
    reaches ``power``, with its Monte Carlo error (one seed for every n;
    :func:`stats.power.engine.search_sample_size`).

    Examples
    --------
    >>> import numpy as np
    >>> from stats.power import domain_sample_size
    >>> gen = np.random.default_rng(0)
    >>> doms = {d: (b := np.rint(gen.normal(70, 15, 150)), b + np.rint(gen.normal(1, 12, 150)))
    ...         for d in ("news", "social")}
    >>> res = domain_sample_size(doms, effect=3, n_simulations=300, rng=1)
    >>> 20 < res.sample_size < 200
    True
    """
    seed = common_seed(rng)

    def power_at(size: int) -> float:
        res = domain_power(domains, effect=effect, n=size, alpha=alpha, power=power,
                           n_simulations=n_simulations, rng=seed, _mde=False)
        return float(res.power[0, 0])

    target = power_engine.check_common(alpha, "two-sided", power, 2)[2]
    return power_engine.sample_size_result(
        power_at, effect, target, n_simulations=n_simulations, n_min=2, n_max=n_max,
        test="signed-rank by domain, Stouffer", known=_known, n_cap=_n_cap,
    )
