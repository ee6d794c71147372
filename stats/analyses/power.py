"""Power and sample size from files: the one workflow behind ``python -m stats power`` and the
dashboard's Power page.

The inputs are those of ``randomized``: a segment-score file (or WMT segment-level files) read
by :func:`stats.analyses.score_statistics`, or reference and system-output text files scored
by :func:`stats.analyses.text_statistics` (BLEU, chrF, TER). Segment scores (metric
``'mean'``) go to :func:`stats.power.paired_power` (any of the four per-item tests; a
lower-is-better metric is negated so that a positive effect always means "system better"),
corpus metrics to :func:`stats.power.corpus_power` (paired bootstrap or approximate
randomization with segments resampled).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np

from stats._core.choices import KENDALL_LIKE_THRESHOLD
from stats._core.errors import StatsInputError
from stats._core.random import check_rng
from stats.mt.sufficient import SegmentStatistics
from stats.power import PowerResult, corpus_power, paired_power
from stats.power.corpus import CORPUS_TESTS

from ._inputs import FileInput, Files

__all__ = [
    "PowerAnalysis",
    "default_sizes",
    "human_power_analysis",
    "metrics_power_analysis",
    "power_analysis",
    "power_from_statistics",
]


@dataclass(frozen=True, kw_only=True)
class PowerAnalysis:
    """A power computation and what it was computed from.

    Attributes
    ----------
    result : PowerResult
    baseline, system : str
    label : str
        The metric's display name (BLEU, chrF2, TER, or the segment metric's).
    higher_is_better : bool
    n_segments : int
        Segments (items) of the observed data.
    read_as : str
        What the input was read as (one line).
    """

    result: PowerResult
    baseline: str
    system: str
    label: str
    higher_is_better: bool
    n_segments: int
    read_as: str


def default_sizes(n_observed: int) -> list[int]:
    """Five sample sizes for a power curve: from a tenth of the observed items (at least 10)
    to twice as many, rounded."""
    top = max(20, 2 * int(n_observed))
    raw = np.geomspace(max(10, top // 20), top, 5)
    return sorted({int(round(float(v), -1 if v >= 100 else 0)) for v in raw})


def power_from_statistics(
    data: SegmentStatistics,
    *,
    baseline: str,
    system: str,
    effect,
    n,
    test: str | None = None,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    power: float = 0.8,
    n_simulations: int = 1000,
    n_resamples: int = 1000,
    rng=None,
    read_as: str = "",
    sample_size: bool = True,
    progress=None,
) -> PowerAnalysis:
    """Power of ``test`` for ``system`` against ``baseline`` of ``data`` (module notes), with
    the sample size reaching ``power`` at the first effect (``sample_size``) and its Monte
    Carlo error. ``test`` defaults to ``'t'`` for segment scores, ``'paired-bootstrap'`` for
    corpus metrics; ``n`` may be None for :func:`default_sizes`; ``progress`` receives the
    fraction done."""
    check_rng(rng)
    if data.n_systems < 2:
        raise StatsInputError("power needs two systems; the data holds one")
    data.index_of(baseline)
    data.index_of(system)
    _two_systems(baseline, system)
    if n is None:
        n = default_sizes(data.n_segments)
    if data.metric == "mean":
        test = test or "t"
        sign = 1.0 if data.higher_is_better else -1.0
        seg = sign * data.stats[..., 0] / data.stats[..., 1]
        result = paired_power(
            seg[data.index_of(baseline)], seg[data.index_of(system)], effect=effect, n=n,
            test=test, alpha=alpha, alternative=alternative, power=power,
            n_simulations=n_simulations, n_resamples=n_resamples, rng=rng,
            sample_size=sample_size, progress=progress,
        )
        result = _relabel(result, data.label)
    else:
        test = test or "paired-bootstrap"
        if test not in CORPUS_TESTS:
            raise StatsInputError(
                f"test {test!r} needs per-segment scores; {data.label} is a corpus metric: use "
                f"{' or '.join(CORPUS_TESTS)}"
            )
        result = corpus_power(
            data, baseline=baseline, system=system, effect=effect, n=n, test=test,
            alpha=alpha, alternative=alternative, power=power, n_simulations=n_simulations,
            n_resamples=n_resamples, rng=rng, sample_size=sample_size, progress=progress,
        )
    return PowerAnalysis(
        result=result,
        baseline=baseline,
        system=system,
        label=data.label,
        higher_is_better=data.higher_is_better,
        n_segments=data.n_segments,
        read_as=read_as or f"{data.label}: {data.n_systems} systems x {data.n_segments} segments",
    )


def _two_systems(baseline: str, system: str, what: str = "system") -> None:
    if baseline == system:
        raise StatsInputError(
            f"baseline and system are the same {what} twice ({system!r}): there is no "
            "difference to simulate; choose two"
        )


def _relabel(result: PowerResult, label: str) -> PowerResult:
    from dataclasses import replace

    return replace(result, metric=label, unit="segments")


def power_analysis(
    *,
    baseline: str,
    system: str,
    effect,
    n=None,
    scores: FileInput | Files | None = None,
    references: Files | None = None,
    hypotheses: Files | None = None,
    metric: str | None = None,
    score_metric: str | None = None,
    lower_is_better: bool | Callable[[str], bool] = False,
    lp: str | None = None,
    testset: str | None = None,
    refset: str | None = None,
    options: Mapping | None = None,
    jobs: int | None = None,
    test: str | None = None,
    alpha: float = 0.05,
    alternative: str = "two-sided",
    power: float = 0.8,
    n_simulations: int = 1000,
    n_resamples: int = 1000,
    rng=None,
    progress=None,
) -> PowerAnalysis:
    """Read the files as ``randomized`` does and compute the power (module notes).

    Either ``scores`` (segment scores; ``score_metric`` picks one metric of several,
    ``lower_is_better`` as :func:`stats.analyses.score_statistics`) or ``references`` and
    ``hypotheses`` (text; ``metric`` bleu, chrf or ter, default bleu; ``options`` sacreBLEU's
    options of the metric). ``progress(fraction)`` (optional) receives the fraction of the
    simulations done.
    """
    check_rng(rng)
    from . import score_statistics, text_statistics

    if scores is not None and (references or hypotheses):
        raise StatsInputError("give either scores or references/hypotheses, not both")
    if scores is not None:
        if metric not in (None, "mean"):
            raise StatsInputError(
                f"metric {metric!r} needs reference and output text files; segment scores "
                "use metric 'mean'"
            )
        data = score_statistics(scores, metric=score_metric, lower_is_better=lower_is_better,
                                lp=lp, testset=testset, refset=refset)
        what = "segment scores"
    elif references and hypotheses:
        data = text_statistics(references, hypotheses, metric=metric or "bleu", jobs=jobs,
                               options=options, lp=lp)
        what = "reference and output text"
    else:
        raise StatsInputError(
            "no input: give segment scores, or reference and system-output text files"
        )
    read_as = (
        f"read as {what}: {data.label}, {data.n_systems} systems x {data.n_segments} segments"
        + (f" ({dict(data.block).get('lp')})" if data.block else "")
    )
    return power_from_statistics(
        data, baseline=baseline, system=system, effect=effect, n=n, test=test, alpha=alpha,
        alternative=alternative, power=power, n_simulations=n_simulations,
        n_resamples=n_resamples, rng=rng, read_as=read_as, progress=progress,
    )


def human_power_analysis(
    files: Files,
    *,
    baseline: str,
    system: str,
    effect,
    n=None,
    documents: Files = (),
    lp: str | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    n_simulations: int = 1000,
    rng=None,
    progress=None,
) -> PowerAnalysis:
    """Power of the human ranking's pairwise test (signed-rank by domain, Stouffer-combined;
    :func:`stats.power.domain_power`) from human evaluation files read as ``human`` reads them
    (:func:`stats.analyses.read_human_ratings`): the two systems' item scores on the items
    both were rated on, per domain. ``n`` is items per domain (default: five sizes around the
    smallest domain's). Files holding several protocols or language pairs are refused, naming
    them (give one file, or ``lp``). ``progress`` as :func:`power_analysis`."""
    check_rng(rng)
    import pandas as pd

    from stats.human.paired import item_scores
    from stats.power import domain_power

    from . import read_human_ratings

    _two_systems(baseline, system)
    ratings = read_human_ratings(files, documents=documents, lp=lp)
    sets = sorted({(r.protocol, str(lp_)) for r in ratings
                   for lp_ in r.frame.get("lp", pd.Series([lp or ""])).unique()})
    if len(sets) > 1:
        raise StatsInputError(
            "human files hold several rating sets ("
            + ", ".join(f"{p} {x}".strip() for p, x in sets)
            + "); give the files of one protocol and one language pair (lp)"
        )
    frame = pd.concat([r.frame for r in ratings], ignore_index=True)
    table = item_scores(frame)
    for name in (baseline, system):
        if name not in table.columns:
            raise StatsInputError(
                f"unknown system {name!r}; rated systems: {', '.join(map(str, table.columns))}"
            )
    both = table[[baseline, system]].dropna()
    domains = {
        str(d): (g[baseline].to_numpy(dtype=float), g[system].to_numpy(dtype=float))
        for d, g in both.groupby(level="domain", sort=True)
        if len(g) >= 2
    }
    if not domains:
        raise StatsInputError(f"{baseline} and {system} share fewer than 2 rated items")
    smallest = min(len(v[0]) for v in domains.values())
    if n is None:
        n = default_sizes(smallest)
    result = domain_power(domains, effect=effect, n=n, alpha=alpha, power=power,
                          n_simulations=n_simulations, rng=rng, sample_size=True,
                          progress=progress)
    protocol = sets[0][0] if sets else "human"
    read_as = (
        f"read as {protocol} ratings: {table.shape[1]} systems, {len(both)} items rated for "
        f"both {baseline} and {system} in {len(domains)} domain(s)"
    )
    return PowerAnalysis(
        result=result, baseline=baseline, system=system, label=protocol,
        higher_is_better=True, n_segments=len(both), read_as=read_as,
    )


def metrics_power_analysis(
    sources,
    *,
    system: str,
    baseline: str,
    effect,
    n=None,
    lp: str | None = None,
    gold: str | None = None,
    alpha: float = 0.05,
    power: float = 0.8,
    n_simulations: int = 200,
    n_resamples: int = 200,
    rng=None,
    correlation: str = "pearson",
    grouping: str = "none",
    epsilon: float | None = None,
    tie_calibration: bool = False,
    threshold: float = KENDALL_LIKE_THRESHOLD,
    progress=None,
) -> PowerAnalysis:
    """PERM-BOTH power of two metrics against humans (:func:`stats.power.perm_both_power`)
    from meta-evaluation files as :func:`stats.readers.meta.read_meta_eval` reads them (MTME
    folders, long or wide score files with human scores): metric ``system`` hypothesised to
    correlate better with the humans (gold type ``gold``) than ``baseline`` by ``effect`` (the
    difference in ``correlation`` under ``grouping``, segment level; Pearson by default) in
    language pair ``lp`` (default: the only one). ``n``: items per simulated data set
    (default :func:`default_sizes` of the observed items). ``progress`` as
    :func:`power_analysis`."""
    check_rng(rng)
    from stats.power.perm_both import perm_both_power
    from stats.readers.meta import read_meta_eval

    files = list(sources) if isinstance(sources, (list, tuple)) else [sources]
    data = read_meta_eval(*files)
    lps = data.language_pairs
    if lp is None:
        if len(lps) != 1:
            raise StatsInputError(f"lp: the files hold {len(lps)} language pairs "
                                  f"({', '.join(lps)}); choose one")
        lp = lps[0]
    elif lp not in lps:
        raise StatsInputError(f"lp: unknown language pair {lp!r}; present: {', '.join(lps)}")
    table = data.table(lp, gold=data.choose_gold(gold))
    if table.metrics is None or table.gold is None:
        raise StatsInputError(f"{lp}: PERM-BOTH power needs segment scores; the files give "
                              "system-level scores only")
    for arg, name in (("system", system), ("baseline", baseline)):
        if name not in table.metrics:
            raise StatsInputError(f"{arg}: unknown metric {name!r} in {lp}; metrics: "
                                  f"{', '.join(table.metrics)}")
    _two_systems(baseline, system, "metric")
    sizes = default_sizes(table.n_items) if n is None else n
    result = perm_both_power(table.metrics[system], table.metrics[baseline], table.gold,
                             effect=effect, n=sizes, alpha=alpha, power=power,
                             n_simulations=n_simulations, n_resamples=n_resamples, rng=rng,
                             correlation=correlation, grouping=grouping, epsilon=epsilon,
                             tie_calibration=tie_calibration, threshold=threshold,
                             sample_size=True, progress=progress)
    label = {"pearson": "Pearson r", "spearman": "Spearman ρ", "kendall": "Kendall τ"}.get(
        correlation, correlation) + ("" if grouping == "none" else f" by {grouping}")
    return PowerAnalysis(
        result=result, baseline=baseline, system=system, label=f"{label} with {table.gold_name}",
        higher_is_better=True, n_segments=table.n_items,
        read_as=f"{data.read_as}; {lp}: {len(table.systems)} systems x {table.n_items} items",
    )
