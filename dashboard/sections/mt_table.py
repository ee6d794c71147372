"""The sacreBLEU/WMT-style systems table of the "MT systems" page (imported by
dashboard/views/mt_systems.py, not a page of its own): every system against a chosen baseline
on every metric of the input -- BLEU, chrF and TER for system outputs, every segment-level
metric of a score file -- as ``score``, bootstrap mean μ ± CI half-width and the p-value of
sacreBLEU's paired bootstrap or approximate randomization (Post 2018,
https://aclanthology.org/W18-6319/), † where a system differs significantly from the baseline.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

import streamlit as st

from dashboard import components, export, page_run, tables
from dashboard.components.power_note import mde_pairs_note
from dashboard.data import mt_systems
from dashboard.sections import mt_options

#: the library's argument names -> this page's controls (a refusal names what to change here)
CONTROLS = components.resamples_named("Resamples")


def section(
    inputs: tuple,
    score_metrics: Sequence[str],
    systems: Sequence[str],
    *,
    n_resamples: int,
    seed: int,
    alpha: float,
    block: tuple = (),
    excluded: tuple = (),
    metric_options: dict | None = None,
    best: str | None = None,
) -> None:
    """Draw the table for the page's ``inputs`` (kind, references, files, metric,
    higher_is_better: the arguments of :func:`dashboard.data.mt_systems.statistics`).
    ``score_metrics``: the METRIC names of a score file (``()`` for text or a file without
    METRIC column); ``systems`` in input order (the default baseline is the first, as in
    sacreBLEU); ``n_resamples``, ``seed`` and ``alpha`` are the page's controls; ``block``
    (WMT files) and ``excluded`` systems as the page's tests use them; ``metric_options``
    the sacreBLEU options of the page's expander (:mod:`dashboard.sections.mt_options`);
    ``best`` the best-scoring system on the page's metric, the default baseline (as WMT's
    tables read; sacreBLEU's, the first file, is one click away and named on the page)."""
    kind, references, files, _, higher_is_better = inputs
    st.subheader("Systems against a baseline (sacreBLEU table)")
    if kind == mt_systems.KIND_TEXT:
        choices, default = dict(tables.TEXT_METRICS), ["BLEU", "chrF"]
    else:
        choices = tables.score_metric_choices(score_metrics)
        default = list(choices)
    c_base, c_metrics, c_test = st.columns([2, 3, 3])
    with c_base:
        baseline = components.remembered(
            st.selectbox,
            "Baseline system",
            list(systems),
            key="mt_table_baseline",
            default=best if best in systems else systems[0],
            help="Every other system is tested against this one. Default: the best-scoring "
            "system on the page's metric, as WMT's tables read; sacreBLEU takes the first "
            "system given.",
        )
        origin = (
            "the best-scoring system (as WMT's tables read)"
            if baseline == best
            else "the first file given (as sacreBLEU does)"
            if baseline == systems[0]
            else "your choice"
        )
        st.caption(
            f"Baseline: {components.escape_markdown(baseline)}, {origin}; sacreBLEU's "
            f"would be the first file, {components.escape_markdown(systems[0])}."
        )
    with c_metrics:
        chosen = components.remembered_multiselect(
            "Table metrics",
            list(choices),
            key=f"mt_table_metrics_{kind}",
            default=default,
            help="One column group per metric; TER statistics take longest to extract.",
        )
    with c_test:
        test = components.remembered(
            st.radio,
            "Paired test",
            list(tables.MT_TABLE_TESTS),
            key="mt_table_test",
            default="paired-bootstrap",
            format_func=tables.MT_TABLE_TESTS.get,
            help="sacreBLEU's two-sided paired tests of a system against the baseline.",
        )
    if not chosen:
        st.info("Choose at least one metric for the table.", icon=":material/info:")
        return
    metrics = tuple(choices[m] for m in chosen)
    if kind == mt_systems.KIND_TEXT:
        metrics = tuple(mt_options.spec(m, metric_options or {}) for m in metrics)
    with components.input_errors(CONTROLS):
        (result,) = page_run.run_steps(
            [
                (
                    f"Systems table: {tables.MT_TABLE_TESTS[test]}, {n_resamples:,} resamples ...",
                    partial(
                        mt_systems.systems_table,
                        kind,
                        references,
                        files,
                        metrics,
                        higher_is_better,
                        baseline,
                        test,
                        n_resamples,
                        seed,
                        block,
                        excluded,
                    ),
                )
            ],
            text="Systems table ...",
        )
    with c_test:
        components.seed_caption(result.seed, n_resamples=result.n_resamples)
        if test == "approximate-randomization":
            st.caption(f"μ ± CI from {result.n_ci_resamples:,} bootstrap resamples.")
    if kind == mt_systems.KIND_TEXT:  # each metric's signature into the report
        mt_options.record_table_signatures(result, metrics)
    frame, dagger = tables.mt_baseline_table(result, alpha)
    level = round(result.confidence_level * 100)
    p_columns = {f"{m} p" for m in result.metrics}
    config = {
        c: st.column_config.NumberColumn(
            c, format="%.4f" if c in p_columns else _score_format(frame[c])
        )
        for c in frame.columns
        if c != "vs baseline"
    }
    # on the page the baseline's p is "-" (as sacreBLEU leaves it), not "None"; the exports
    # keep the numbers (an empty cell for the baseline)
    shown = frame.copy()
    for c in p_columns:
        shown[c] = ["-" if p != p else f"{p:.4f}" for p in frame[c]]
    shown_config = {
        **config,
        **{c: st.column_config.TextColumn(c) for c in p_columns},
    }
    marks = export.Marks(
        dagger=dagger,
        note=f"{export.DAGGER}: differs significantly from the baseline {baseline} "
        f"(two-sided p < {alpha:g}).",
    )
    components.show_table(
        frame,
        key="mt_baseline_table",
        filename=f"mt_systems_table_{baseline}",
        caption=f"Every system against the baseline {baseline}: score, bootstrap mean μ and "
        f"{level}% CI half-width, p-value of the {tables.MT_TABLE_TESTS[test]} "
        f"(seed {result.seed}, {result.n_resamples} resamples)",
        column_config=config,
        marks=marks,
        shown_as=shown,
        shown_config=shown_config,
    )
    st.caption(
        f"As `sacrebleu --paired-{'bs' if test == 'paired-bootstrap' else 'ar'}` reports it: "
        f"μ ± CI is the mean of the bootstrap scores and half the width of their central "
        f"{level}% range; p is two-sided against the baseline, and † marks p < α = {alpha:g}. "
        "With the same seed sacreBLEU gives the same p-values (μ and CI up to its float32 "
        "rounding), except for a copy of the baseline: p = 1 here, 1/(R + 1) in sacreBLEU."
    )
    significant = result.significant(alpha)
    for m in result.metrics if result.spread is not None else ():  # MDE beside "no †"
        mde_pairs_note(significant=significant[m].iloc[1:], spreads=result.spread[m].iloc[1:],
                       alpha=alpha, unit=m, what=f"systems without † on {m}")


def _score_format(values) -> str:
    """Number format of a score column: 4 decimals, but 2 in presentation mode for scores on a
    0-100 scale (BLEU 49.96, as sacreBLEU's table prints them), so the table fits the page."""
    large = bool((values.abs() >= 1).any())
    return "%.2f" if components.presentation_mode() and large else "%.4f"
