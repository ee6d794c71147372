"""Accuracy of randomized significance tests against a human gold standard.

Graham, Mathur & Baldwin (2014, Tables 1-2) compare, for every metric x test x significance
level, the conclusion the test draws for each pair of systems (X better, Y better, or no
significant difference) with the conclusion of the human gold standard
(:func:`stats.human.gold.human_gold_standard`), and report the number of correct conclusions, the
accuracy and its exact (Clopper-Pearson) 95% confidence interval, and a chi-square test of
whether accuracies differ across metrics.

References
----------
Y. Graham, N. Mathur and T. Baldwin (2014). Randomized Significance Tests in Machine
Translation. Proceedings of the Ninth Workshop on Statistical Machine Translation, 266-274.
https://aclanthology.org/W14-3333

C. J. Clopper and E. S. Pearson (1934). The use of confidence or fiducial limits illustrated in
the case of the binomial. Biometrika 26(4), 404-413. https://doi.org/10.1093/biomet/26.4.404
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats._core.errors import DegenerateInputWarning, StatsInputError
from stats._core.random import common_seed, rng_and_seed
from stats._core.results import StatisticPvalue
from stats._core.validation import (
    check_alpha,
    check_confidence_level,
    check_positive_int,
    warn_degenerate,
)
from stats.mt.randomized import RANDOMIZED_TESTS, pairwise_significance
from stats.mt.sufficient import SegmentStatistics

from .gold import HumanGoldResult, human_gold_standard, pair_conclusions

__all__ = [
    "ALPHAS",
    "OUTCOMES",
    "AccuracyResult",
    "accuracy_from_pvalues",
    "accuracy_interval",
    "compare_accuracies",
    "min_resamples",
    "significance_accuracy",
    "unattainable_alpha_messages",
]

#: significance levels of the paper's tables
from stats._core.choices import ALPHAS  # noqa: E402  (re-exported)

#: agreement codes of :attr:`AccuracyResult.agreement` (``outcome`` column)
OUTCOMES = (
    "agrees with humans",
    "significant, humans tied",
    "tied, humans significant",
    "opposite direction",
)


def accuracy_interval(correct: int, total: int, *, confidence_level: float = 0.95):
    r"""Accuracy ``correct / total`` and its exact Clopper-Pearson confidence interval.

    .. math::

        \Big[\, B\big(\tfrac{\alpha}{2};\ c,\ n - c + 1\big),\;
               B\big(1 - \tfrac{\alpha}{2};\ c + 1,\ n - c\big) \Big]

    with :math:`B(q; a, b)` the :math:`q` quantile of the Beta(a, b) distribution and
    :math:`\alpha = 1 - \text{confidence level}`; computed by
    ``scipy.stats.binomtest(c, n).proportion_ci(method="exact")``.

    Returns
    -------
    (accuracy, ci_low, ci_high) : tuple of float

    Examples
    --------
    The paper's Table 1 (BLEU, 0.05): 53 correct of 66 is 80.3% [68.7, 89.1].

    >>> acc, lo, hi = accuracy_interval(53, 66)
    >>> round(100 * acc, 1), round(100 * lo, 1), round(100 * hi, 1)
    (80.3, 68.7, 89.1)
    """
    confidence_level = check_confidence_level(confidence_level)
    total = check_positive_int(total, "total")
    if (
        isinstance(correct, bool)
        or not isinstance(correct, (int, np.integer))
        or not 0 <= correct <= total
    ):
        raise StatsInputError(f"correct must be an integer in [0, {total}]; got {correct!r}")
    from scipy import stats as _st  # when first needed: a slow import (the dashboard's first page)

    ci = _st.binomtest(int(correct), total).proportion_ci(
        confidence_level=confidence_level, method="exact"
    )
    return correct / total, float(ci.low), float(ci.high)


def compare_accuracies(correct: Mapping[str, int], total: int):
    """Chi-square test of whether accuracies differ across metrics.

    The contingency table has one row per metric and the columns (correct, incorrect);
    ``scipy.stats.chi2_contingency`` with its defaults (Yates' continuity correction when there
    are exactly two metrics). As in the paper, the pairs are treated as independent samples
    although every metric judges the same pairs.

    Parameters
    ----------
    correct : mapping of metric -> number of correct conclusions (at least two metrics)
    total : int
        Number of pairs judged by every metric.

    Returns
    -------
    (statistic, pvalue, dof) : tuple
        NaN statistic and p-value (with a :class:`~stats.DegenerateInputWarning`) when every
        metric is right on all pairs or wrong on all pairs: the expected table then has a zero
        column and the statistic is undefined.

    Examples
    --------
    Two tests' correct conclusions out of the same 66 pairs of systems.

    >>> from stats import compare_accuracies
    >>> statistic, pvalue, dof = compare_accuracies({'bootstrap': 53, 'approximate randomization': 57}, 66)
    >>> round(float(pvalue), 3), dof
    (0.484, 1)
    """
    total = check_positive_int(total, "total")
    if len(correct) < 2:
        raise StatsInputError(f"compare_accuracies needs at least two metrics; got {len(correct)}")
    c = np.array([int(v) for v in correct.values()], dtype=np.int64)
    if (c < 0).any() or (c > total).any():
        raise StatsInputError(f"correct counts must lie in [0, {total}]; got {c.tolist()}")
    table = np.column_stack([c, total - c])
    if (table.sum(axis=0) == 0).any():
        warn_degenerate(
            "chi-square test of accuracies: every metric has the same accuracy "
            f"({'100%' if c[0] == total else '0%'}); the statistic is undefined"
        )
        return float("nan"), float("nan"), len(c) - 1
    from scipy import stats as _st  # when first needed: a slow import (the dashboard's first page)

    res = _st.chi2_contingency(table)
    return float(res.statistic), float(res.pvalue), int(res.dof)


@dataclass(frozen=True, kw_only=True)
class AccuracyResult(StatisticPvalue):
    """Accuracy of significance tests against the human gold standard.

    Attributes
    ----------
    statistic : pandas.Series
        Accuracy (fraction of pairs with the gold conclusion), indexed by
        (metric, test, alpha).
    pvalue : pandas.Series
        p-value of the chi-square test that accuracies differ across metrics, indexed by
        (test, alpha); empty with fewer than two metrics.
    table : pandas.DataFrame
        One row per metric x test x alpha: ``metric``, ``test``, ``alpha``, ``correct``,
        ``pairs``, ``accuracy``, ``ci_low``, ``ci_high`` (exact Clopper-Pearson interval at
        ``confidence_level``).
    chi2 : pandas.DataFrame
        ``test``, ``alpha``, ``statistic``, ``pvalue``, ``dof``, ``n_metrics``.
    agreement : pandas.DataFrame
        One row per metric x test x alpha x pair: ``metric``, ``test``, ``alpha``,
        ``system_a``, ``system_b``, ``gold`` and ``conclusion`` (+1: a better, -1: b better,
        0: no significant difference), ``correct`` (bool), ``outcome`` (index into
        :data:`OUTCOMES`).
    gold : HumanGoldResult
        The gold standard (on all judged systems).
    systems : tuple of str
        Systems compared (judged by humans and scored by every metric), gold order.
    n_pairs : int
        Number of unordered pairs of ``systems``.
    pvalues : dict of (metric, test) -> pandas.DataFrame
        The tests' p-value matrices on ``systems`` (p in the row of the better system).
    scores : dict of metric -> pandas.Series
        Corpus scores of ``systems`` per metric (empty when p-values were given directly).
    metrics, tests, alphas : tuple
    n_resamples : int or None
    seed : int or None
        Seed of every randomized test (each metric x test ran with this seed), or None when a
        Generator was passed.
    confidence_level : float
    warnings : tuple of str
        Messages a user interface should show.
    """

    statistic: pd.Series
    pvalue: pd.Series
    table: pd.DataFrame
    chi2: pd.DataFrame
    agreement: pd.DataFrame
    gold: HumanGoldResult
    systems: tuple[str, ...]
    n_pairs: int
    pvalues: dict
    scores: dict
    metrics: tuple[str, ...]
    tests: tuple[str, ...]
    alphas: tuple[float, ...]
    n_resamples: int | None = None
    seed: int | None = None
    confidence_level: float = 0.95
    warnings: tuple[str, ...] = ()

    def confidence_interval(self, confidence_level: float | None = None) -> pd.DataFrame:
        """Exact Clopper-Pearson intervals of every accuracy at ``confidence_level`` (default:
        the level the result was computed with): ``ci_low``, ``ci_high`` indexed like
        :attr:`statistic` by (metric, test, alpha)."""
        level = self.confidence_level if confidence_level is None else confidence_level
        level = check_confidence_level(level)
        rows = [
            accuracy_interval(int(c), int(n), confidence_level=level)[1:] if n else (np.nan,) * 2
            for c, n in zip(self.table["correct"], self.table["pairs"], strict=True)
        ]
        index = pd.MultiIndex.from_frame(self.table[["metric", "test", "alpha"]])
        return pd.DataFrame(rows, index=index, columns=["ci_low", "ci_high"], dtype=float)

    def paper_table(self) -> pd.DataFrame:
        """The accuracy table laid out as the paper's Tables 1-2.

        Rows: (alpha, metric); columns: (test, ``correct`` | ``accuracy`` | ``ci_low`` |
        ``ci_high``), tests in :data:`stats.mt.randomized.RANDOMIZED_TESTS` order.
        """
        long = self.table.set_index(["alpha", "metric", "test"])[
            ["correct", "accuracy", "ci_low", "ci_high"]
        ]
        wide = long.unstack("test")
        wide = wide.swaplevel(0, 1, axis=1)
        cols = pd.MultiIndex.from_product(
            [list(self.tests), ["correct", "accuracy", "ci_low", "ci_high"]], names=["test", None]
        )
        rows = pd.MultiIndex.from_product(
            [list(self.alphas), list(self.metrics)], names=["alpha", "metric"]
        )
        return wide.reindex(index=rows, columns=cols)

    def agreement_matrix(self, alpha: float | None = None) -> pd.DataFrame:
        """Outcome codes (:data:`OUTCOMES`) for a heatmap: rows ``"metric / test"`` (or
        ``"metric / test / alpha"`` when ``alpha`` is None and there are several levels),
        columns ``"A vs B"`` pairs in gold order."""
        ag = self.agreement
        if alpha is not None:
            alpha = check_alpha(alpha)
            ag = ag[np.isclose(ag["alpha"].to_numpy(dtype=float), alpha)]
            if ag.empty:
                raise StatsInputError(
                    f"alpha {alpha} was not evaluated; available: {', '.join(map(str, self.alphas))}"
                )
        multi = alpha is None and len(self.alphas) > 1
        label = ag["metric"] + " / " + ag["test"]
        if multi:
            label = label + " / " + ag["alpha"].map(lambda a: f"{a:g}")
        pair = ag["system_a"] + " vs " + ag["system_b"]
        frame = pd.DataFrame({"row": label, "pair": pair, "outcome": ag["outcome"]})
        out = frame.pivot(index="row", columns="pair", values="outcome")
        return out.reindex(index=pd.unique(label), columns=pd.unique(pair))


def _gold(gold, alpha: float) -> HumanGoldResult:
    if isinstance(gold, HumanGoldResult):
        return gold
    return human_gold_standard(gold, alpha=alpha)


def _common_systems(
    gold: HumanGoldResult, names: Mapping[str, Sequence[str]], *, already: Sequence[str] = ()
):
    """Systems judged by humans and scored by every metric (gold order), and messages about
    the systems left out; messages not in ``already`` are also warned."""
    keep = [s for s in gold.systems if all(s in set(v) for v in names.values())]
    messages = []
    not_scored = [s for s in gold.systems if s not in keep]
    if not_scored:
        messages.append(
            f"judged by humans but not scored by every metric, left out: {', '.join(not_scored)}"
        )
    judged = set(gold.systems)
    unjudged = sorted({s for v in names.values() for s in v if s not in judged})
    if unjudged:
        messages.append(f"no human judgements, left out: {', '.join(unjudged)}")
    for msg in messages:
        if msg not in already:
            warnings.warn(msg, UserWarning, stacklevel=4)
    if len(keep) < 2:
        raise StatsInputError(
            "fewer than two systems are both judged by humans and scored by the metric(s): "
            f"judged {', '.join(gold.systems)}; scored "
            + "; ".join(f"{m}: {', '.join(v)}" for m, v in names.items())
        )
    return tuple(keep), messages


def min_resamples(alpha: float) -> int:
    """Smallest number of resamples R whose smallest p-value :math:`1/(R+1)` is below
    ``alpha`` (the p-values of :mod:`stats.mt.randomized` are :math:`(c+1)/(R+1)`)."""
    alpha = check_alpha(alpha)
    r = max(1, int(np.floor(1.0 / alpha)) - 1)
    while 1.0 / (r + 1) >= alpha:
        r += 1
    while r > 1 and 1.0 / r < alpha:
        r -= 1
    return r


def unattainable_alpha_messages(n_resamples: int, alphas: Sequence[float]) -> list[str]:
    r"""One message per alpha that no randomized test with ``n_resamples`` resamples can reach.

    The tests' p-values are :math:`(c+1)/(R+1) \ge 1/(R+1)`, and a pair is significant when
    :math:`p < \alpha`; for :math:`1/(R+1) \ge \alpha` every pair is "no significant
    difference" whatever the data, so accuracies at that alpha only count the pairs the humans
    found tied.
    """
    out = []
    for a in alphas:
        p_min = 1.0 / (n_resamples + 1)
        if p_min >= a:
            out.append(
                f"alpha {a:g}: with {n_resamples} resamples the smallest attainable p-value is "
                f"1/({n_resamples}+1) = {p_min:.4g}, not below alpha {a:g}, so no test can find a "
                f"significant difference and every pair counts as 'no significant difference'; "
                f"use at least {min_resamples(a)} resamples"
            )
    return out


def accuracy_from_pvalues(
    gold,
    pvalues: Mapping[tuple[str, str], pd.DataFrame],
    *,
    alphas: Sequence[float] = ALPHAS,
    confidence_level: float = 0.95,
    scores: Mapping[str, pd.Series] | None = None,
    n_resamples: int | None = None,
    seed: int | None = None,
    extra_warnings: Sequence[str] = (),
) -> AccuracyResult:
    """Accuracy of tests whose pairwise p-value matrices are already computed.

    Parameters
    ----------
    gold : HumanGoldResult, Judgements or pandas.DataFrame
        The gold standard, or judgements to build it from.
    pvalues : mapping of (metric, test) -> pandas.DataFrame
        Square p-value matrices ("p in the row of the better system"; NaN elsewhere), e.g.
        ``pairwise_significance(...).pvalue``.
    alphas : sequence of float
        Significance levels; a pair is significant at alpha when ``p < alpha``.
    confidence_level : float
        Of the Clopper-Pearson intervals.
    n_resamples : int, optional
        Resamples behind ``pvalues`` (recorded in the result). At every alpha with
        :math:`1/(R+1) \\ge \\alpha` no pair can be significant: a
        :class:`~stats.DegenerateInputWarning` names R and alpha and the message is kept in
        the result's ``warnings``.

    Returns
    -------
    AccuracyResult
    """
    alphas = tuple(check_alpha(a, "alphas") for a in alphas)
    if not alphas:
        raise StatsInputError("alphas: give at least one significance level")
    confidence_level = check_confidence_level(confidence_level)
    if not pvalues:
        raise StatsInputError("pvalues: no test results to evaluate")
    gold = _gold(gold, alphas[0])
    names = {f"{m} / {t}": list(map(str, p.index)) for (m, t), p in pvalues.items()}
    systems, messages = _common_systems(gold, names, already=list(extra_warnings))
    messages = [*gold.warnings, *extra_warnings, *messages]
    if n_resamples is not None:
        n_resamples = check_positive_int(n_resamples, "n_resamples")
        for msg in unattainable_alpha_messages(n_resamples, alphas):
            if msg not in messages:
                warn_degenerate(msg, stacklevel=3)
                messages.append(msg)
    metrics = tuple(dict.fromkeys(m for m, _ in pvalues))
    tests = tuple(dict.fromkeys(t for _, t in pvalues))
    k = len(systems)
    n_pairs = k * (k - 1) // 2
    iu, ju = np.triu_indices(k, 1)
    sys = np.asarray(systems, dtype=object)
    gold_conc = {
        a: pair_conclusions(gold.combined_pvalue(a).loc[list(systems), list(systems)], a, systems)
        for a in alphas
    }
    rows, agree_parts = [], []
    for (metric, test), pmat in pvalues.items():
        for a in alphas:
            conc = pair_conclusions(pmat, a, systems)
            g = gold_conc[a]
            correct = conc == g
            outcome = np.select(
                [correct, (conc != 0) & (g == 0), (conc == 0) & (g != 0)], [0, 1, 2], default=3
            )
            n_correct = int(correct.sum())
            acc, lo, hi = accuracy_interval(n_correct, n_pairs, confidence_level=confidence_level)
            rows.append(
                {
                    "metric": metric,
                    "test": test,
                    "alpha": a,
                    "correct": n_correct,
                    "pairs": n_pairs,
                    "accuracy": acc,
                    "ci_low": lo,
                    "ci_high": hi,
                }
            )
            agree_parts.append(
                pd.DataFrame(
                    {
                        "metric": metric,
                        "test": test,
                        "alpha": a,
                        "system_a": sys[iu],
                        "system_b": sys[ju],
                        "gold": g,
                        "conclusion": conc,
                        "correct": correct,
                        "outcome": outcome.astype(np.int8),
                    }
                )
            )
    table = pd.DataFrame(rows)
    agreement = pd.concat(agree_parts, ignore_index=True)
    chi_rows = []
    if len(metrics) >= 2:
        for test in tests:
            for a in alphas:
                sub = table[(table["test"] == test) & (table["alpha"] == a)]
                if sub["metric"].nunique() < 2:
                    continue
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always", DegenerateInputWarning)
                    stat, p, dof = compare_accuracies(
                        dict(zip(sub["metric"], sub["correct"], strict=True)), n_pairs
                    )
                for w in caught:
                    msg = f"{test}, alpha {a:g}: {w.message}"
                    messages.append(msg)
                    warnings.warn(msg, DegenerateInputWarning, stacklevel=2)
                chi_rows.append(
                    {
                        "test": test,
                        "alpha": a,
                        "statistic": stat,
                        "pvalue": p,
                        "dof": dof,
                        "n_metrics": int(sub["metric"].nunique()),
                    }
                )
    chi2 = pd.DataFrame(
        chi_rows, columns=["test", "alpha", "statistic", "pvalue", "dof", "n_metrics"]
    )
    statistic = table.set_index(["metric", "test", "alpha"])["accuracy"]
    pvalue = chi2.set_index(["test", "alpha"])["pvalue"]
    return AccuracyResult(
        statistic=statistic,
        pvalue=pvalue,
        table=table,
        chi2=chi2,
        agreement=agreement,
        gold=gold,
        systems=systems,
        n_pairs=n_pairs,
        pvalues={
            key: p.reindex(index=list(systems), columns=list(systems)) for key, p in pvalues.items()
        },
        scores=dict(scores or {}),
        metrics=metrics,
        tests=tests,
        alphas=alphas,
        n_resamples=n_resamples,
        seed=seed,
        confidence_level=confidence_level,
        warnings=tuple(dict.fromkeys(messages)),
    )


def significance_accuracy(
    gold,
    metrics,
    *,
    tests: Sequence[str] = RANDOMIZED_TESTS,
    alphas: Sequence[float] = ALPHAS,
    n_resamples: int = 1000,
    confidence_level: float = 0.95,
    rng=None,
    progress: Callable[[float], None] | None = None,
    jobs: int | None = None,
) -> AccuracyResult:
    """Run randomized tests for every metric and measure their accuracy against humans.

    For each metric x test, :func:`stats.mt.randomized.pairwise_significance` (one-sided,
    ``alternative="greater"``, as the paper's Figures 2-4) gives a p-value for every pair of
    systems; at each alpha each unordered pair gets the test's conclusion (X better, Y better,
    no significant difference: ``p < alpha``) and the gold conclusion
    (:meth:`HumanGoldResult.combined_pvalue` at the same alpha). See
    :func:`accuracy_from_pvalues`.

    Parameters
    ----------
    gold : HumanGoldResult, Judgements or pandas.DataFrame
        The human gold standard or the judgements to build it from.
    metrics : SegmentStatistics, sequence of them, or mapping name -> SegmentStatistics
        Per-segment statistics of the systems (BLEU, chrF, TER from text; segment scores).
        A sequence is keyed by each one's ``label``.
    tests : sequence of str
        Subset of :data:`stats.mt.randomized.RANDOMIZED_TESTS`.
    alphas : sequence of float
        Significance levels (default 0.05, 0.01, 0.001).
    n_resamples : int
        Resamples of every test.
    confidence_level : float
        Of the Clopper-Pearson intervals.
    rng : int, numpy.random.Generator or None
        An int seed is passed to every metric x test (so each matches
        ``python -m stats randomized --seed`` with that seed); None draws a fresh seed, which
        is recorded in the result; a Generator is used as is (seed not recorded).
    progress : callable, optional
        Called with the fraction done after each metric x test.
    jobs : int, optional
        Threads of each test's resampling (see :func:`stats.mt.randomized.pairwise_significance`;
        the results do not depend on it). Default 1.

    Returns
    -------
    AccuracyResult

    Warns
    -----
    DegenerateInputWarning
        For every alpha with :math:`1/(R+1) \\ge \\alpha` (R = ``n_resamples``): no pair can be
        significant there, so the test's conclusions are all "no significant difference". The
        message (naming R and alpha) is also in the result's ``warnings``.

    References
    ----------
    Graham, Mathur & Baldwin (2014), Tables 1-2, https://aclanthology.org/W14-3333
    """
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    tests = tuple(tests)
    if not tests:
        raise StatsInputError("tests: choose at least one test")
    for t in tests:
        if t not in RANDOMIZED_TESTS:
            raise StatsInputError(
                f"tests must be among {', '.join(RANDOMIZED_TESTS)}; got {t!r}"
            )
    if isinstance(metrics, SegmentStatistics):
        metrics = [metrics]
    if isinstance(metrics, Mapping):
        items = [(str(k), v) for k, v in metrics.items()]
    elif isinstance(metrics, Sequence) and not isinstance(metrics, str):
        items = [(getattr(m, "label", str(i)), m) for i, m in enumerate(metrics)]
    else:
        raise StatsInputError(
            f"metrics must be SegmentStatistics, a list or a mapping of them; got {type(metrics).__name__}"
        )
    if not items:
        raise StatsInputError("metrics: give at least one metric")
    labels = [k for k, _ in items]
    dup = sorted({k for k in labels if labels.count(k) > 1})
    if dup:
        raise StatsInputError(f"metrics: duplicate metric name(s) {', '.join(dup)}")
    for k, m in items:
        if not isinstance(m, SegmentStatistics):
            raise StatsInputError(
                f"metrics[{k!r}] must be SegmentStatistics; got {type(m).__name__}"
            )
    alphas = tuple(check_alpha(a, "alphas") for a in alphas)
    if not alphas:
        raise StatsInputError("alphas: give at least one significance level")
    gold = _gold(gold, alphas[0])
    systems, messages = _common_systems(gold, {k: m.systems for k, m in items})
    for msg in unattainable_alpha_messages(n_resamples, alphas):  # before the long run
        warn_degenerate(msg, stacklevel=3)
        messages.append(msg)
    # an int seed (drawn for None, and recorded) starts every metric x test afresh; a
    # Generator is drawn from by one test after the other
    run_rng, seed = rng_and_seed(common_seed(None) if rng is None else rng)
    pvalues, scores = {}, {}
    total = len(items) * len(tests)
    done = 0
    for name, data in items:
        sub = data.subset(list(systems))
        scores[name] = pd.Series(sub.corpus_scores, index=list(sub.systems), name=name)
        for test in tests:
            res = pairwise_significance(
                sub,
                test=test,
                n_resamples=n_resamples,
                alternative="greater",
                confidence_level=confidence_level,
                rng=run_rng if seed is None else seed,
                progress=None
                if progress is None
                else (lambda f, d=done: progress(min(1.0, (d + f) / total))),  # type: ignore[misc]
                jobs=jobs,
            )
            pvalues[(name, test)] = res.pvalue
            done += 1
            if progress is not None:
                progress(done / total)
    return accuracy_from_pvalues(
        gold,
        pvalues,
        alphas=alphas,
        confidence_level=confidence_level,
        scores=scores,
        n_resamples=n_resamples,
        seed=seed,
        extra_warnings=messages,
    )
