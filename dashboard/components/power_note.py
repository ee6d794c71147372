"""The one line every page shows beside a "not significant": the minimum detectable effect at
80% power (:func:`stats.power.normal_mde`, the normal approximation from the spread of the
test's resampled differences), so a reader sees whether the test could have seen a difference
of the size that matters. Its wording says what an MDE is: a property of the design (how many
items, how much spread), not evidence that there is no difference. The Power page simulates
it at other sizes.

Calibration: each note's MDE comes from the test's null spread (the resampled or permuted
differences, or the Williams test's noncentral t); the power tests check that the simulated
tests behind these numbers reject at alpha at effect 0 (tests/power/test_calibration.py)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import streamlit as st

import stats
from dashboard import page_run
from stats import power  # lazy: each function is imported when first used

#: the power the note reports the MDE at
NOTE_POWER = 0.8


def mde_text(*, pvalue: float, alpha: float, spread: float, unit: str = "",
             alternative: str = "two-sided") -> str:
    """The note's text ("" when the result is significant or the MDE undefined)."""
    if not math.isfinite(pvalue) or pvalue < alpha:
        return ""
    mde = float(power.normal_mde(se=spread, alpha=alpha, power=NOTE_POWER,
                           alternative="greater" if alternative == "greater" else "two-sided"))
    if not math.isfinite(mde):
        return ""
    return (
        f"Not significant at α = {alpha:g}. With these segments the test would detect a "
        f"difference of about {mde:.3g}{' ' + unit if unit else ''} with {NOTE_POWER:.0%} "
        "power (minimum detectable effect, normal approximation from the resampled "
        "differences' spread). The MDE is a property of the design (its size and spread), "
        "not evidence that there is no difference: smaller differences may be real and "
        "unseen. The Power page simulates other sizes."
    )


def mde_note(*, pvalue: float, alpha: float, differences=None, spread: float | None = None,
             unit: str = "", alternative: str = "two-sided") -> str:
    """Show :func:`mde_text` as a caption beside a "not significant"; ``differences`` are a
    test's resampled differences (their standard deviation is the spread) or ``spread`` is
    given. Returns the text shown ("" when nothing)."""
    if spread is None:
        values = np.asarray(differences if differences is not None else [], dtype=float)
        spread = (
            float(stats.standard_deviation(values, ddof=0, name="resampled differences"))
            if values.size > 1
            else float("nan")
        )
    text = mde_text(pvalue=pvalue, alpha=alpha, spread=spread, unit=unit,
                    alternative=alternative)
    if text:
        _show(text)
    return text


def _show(text: str) -> None:
    """The caption on the page and the same line in the page's report."""
    st.caption(text)
    page_run.record_note(f"power_mde_{text[:60]}", "note", text)


def mde_pairs_note(*, significant, spreads=None, mdes=None, alpha: float, unit: str = "",
                   what: str = "pairs not significant",
                   method: str = "normal approximation") -> str:
    """One caption for a table of pairs: the median minimum detectable effect at 80% power
    over the pairs that are not significant (``significant`` False): each pair's ``mdes``, or
    :func:`stats.power.normal_mde` of its ``spreads`` (the standard error of its difference);
    ``method`` names how they were found. Also recorded in the page's report. Returns the text
    shown ("" when none)."""
    sig = np.asarray(significant, dtype=bool).ravel()
    if mdes is None:
        mdes = power.normal_mde(se=np.asarray(spreads, dtype=float).ravel(), alpha=alpha,
                          power=NOTE_POWER)
    mde = np.asarray(mdes, dtype=float).ravel()[~sig]
    mde = mde[np.isfinite(mde)]
    if not mde.size:
        return ""
    text = (
        f"{what[:1].upper() + what[1:]} ({mde.size}): the test would detect a difference of about "
        f"{float(np.median(mde)):.3g}{' ' + unit if unit else ''} (median; "
        f"{float(mde.min()):.3g} to {float(mde.max()):.3g}) with {NOTE_POWER:.0%} power at "
        f"α = {alpha:g} (minimum detectable effect, {method}). The MDE is a property of the "
        "design, not evidence of no difference: a pair not significant may still differ by "
        "less than that."
    )
    _show(text)
    return text


def williams_mde_note(result, significant, alpha: float, *,
                      what: str = "pairs not significant", mdes=None) -> str:
    """:func:`mde_pairs_note` for a Williams grid (``result``: a
    :class:`stats.WilliamsMatrixResult`; ``significant`` its cells significant as the page
    colours them): each tested cell's smallest difference in r detected with 80% power
    (:func:`stats.power.williams_grid_power`); untested cells have none. ``mdes``: that grid
    computed already (by the data layer, e.g. :func:`dashboard.data.metrics.williams_mdes`)."""
    if mdes is None:
        mdes = power.williams_grid_power(result, alpha=alpha, power=NOTE_POWER)
    if isinstance(significant, pd.DataFrame):  # cell by cell, whatever the order
        significant = significant.reindex(index=mdes.index, columns=mdes.columns,
                                          fill_value=False)
    return mde_pairs_note(significant=np.asarray(significant, dtype=bool), mdes=mdes.to_numpy(),
                          alpha=alpha, unit="r", what=what,
                          method="noncentral-t approximation of the Williams test")


def human_mde_note(gold, pairs, alpha: float) -> str:
    """:func:`mde_pairs_note` for the human gold standard's pairs (``pairs``: rows of
    ``gold.conclusions(alpha)``, ``combined`` 0 = not separated): each pair's spread is that of
    a difference of two mean standardised scores with unit standard deviation,
    :math:`\\sqrt{1/n_a + 1/n_b}` (``n`` judgements of the first criterion)."""
    crit = next((c for c in gold.criteria if f"{c}_n" in gold.scores), None)
    if crit is None or not len(pairs):
        return ""
    n = gold.scores[f"{crit}_n"].astype(float)
    na = pairs["system_a"].map(n).to_numpy(dtype=float)
    nb = pairs["system_b"].map(n).to_numpy(dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        spread = np.sqrt(1.0 / na + 1.0 / nb)
    return mde_pairs_note(significant=pairs["combined"].to_numpy() != 0, spreads=spread,
                          alpha=alpha, unit="z", what="pairs the humans do not separate")


def leaderboard_mde_note(result, alpha: float) -> str:
    """:func:`mde_pairs_note` for a task-set leaderboard (``result``: a
    :class:`stats.metaeval.task_sets.TaskSetResult`): each pair of metrics' spread is that of
    the difference of their weighted averages over the bootstrap resamples
    (:func:`stats.metaeval.task_sets.average_difference_spread`); a pair is significant when
    either direction's p is below ``alpha``. Nothing without bootstrap resamples."""
    metrics = list(result.statistic.index)
    from stats.metaeval.task_sets import average_difference_spread  # noqa: PLC0415

    spread = average_difference_spread(result.tasks, result.weights, metrics)
    if spread is None or len(metrics) < 2:
        return ""
    p = result.pvalue.reindex(index=metrics, columns=metrics).to_numpy(dtype=float)
    sig = (p < alpha) | (p.T < alpha)
    upper = np.triu_indices(len(metrics), k=1)  # each pair once
    return mde_pairs_note(significant=sig[upper], spreads=spread.to_numpy()[upper], alpha=alpha,
                          unit="(weighted average)",
                          what="metric pairs not significantly different")


#: symbols of the QE grids' correlations in the note
_QE_UNITS = {"spearman": "ρ", "kendall": "τ", "pearson": "r"}


def qe_wmt_mde_note(tests, adjusted, alpha: float) -> str:
    """The MDE beside the "not significant" cells of a QE shared-task grid of one language
    pair, only the cells the grid shows (``adjusted`` not NaN), from the grid's own tests
    (``tests.mde`` of :func:`stats.qe.wmt.qe_pair_tests` run with ``mde_alpha``). Williams
    (Pearson): :func:`williams_mde_note`. PERM-BOTH (Spearman, Kendall): :func:`mde_pairs_note`
    of each pair's :func:`stats.power.perm_both.perm_both_grid_mde`. Nothing without
    ``tests.mde``."""
    if tests.mde is None:
        return ""
    shown = adjusted.lt(alpha) | adjusted.isna()  # cells not shown count as significant
    if tests.test == "perm-both":
        mdes = tests.mde.reindex(index=adjusted.index, columns=adjusted.columns)
        return mde_pairs_note(
            significant=shown.to_numpy(dtype=bool), mdes=mdes.to_numpy(dtype=float),
            alpha=alpha, unit=_QE_UNITS.get(tests.measure, ""),
            what="system pairs not significant",
            method="normal approximation from the spread of PERM-BOTH's permuted "
            "differences, one-sided",
        )
    if tests.test != "williams":
        return ""
    return williams_mde_note(None, shown, alpha, what="system pairs not significant",
                             mdes=tests.mde)
