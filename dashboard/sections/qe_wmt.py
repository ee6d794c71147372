"""The WMT20-24 part of the "Quality estimation" page (imported by dashboard/views/qe.py, not a
page of its own): submissions as published, compared per language pair and on average as the
QE shared tasks do -- a leaderboard per language pair (significance cluster, primary measure
with its bootstrap CI, secondary measures), a systems x language pairs heatmap, the pairwise
grids (Williams for Pearson, PERM-BOTH for Spearman and Kendall) and the word-level section
(MCC, F1-BAD, F1-OK, paired bootstrap over sentences).
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from dashboard import components, figures, page_run
from dashboard.components.power_note import qe_wmt_mde_note
from dashboard.data import qe_wmt as data
from dashboard.figures import qe_wmt as figs
from dashboard.tables.qe import qe_all_pairs
from stats import POOLED_NOTE as POOLED

#: the library's argument names -> this section's controls (a refusal names what to change)
CONTROLS = components.resamples_named("Resamples (bootstrap CIs, PERM-BOTH, word level)")

MEASURES = {"spearman": "Spearman ρ", "pearson": "Pearson r", "kendall": "Kendall τ"}
TESTS = {"williams": "Williams test", "perm-both": "PERM-BOTH", "none": "no test"}



def _columns(primary: str) -> dict:
    cfg = {
        "rank": st.column_config.NumberColumn("rank", format="%d", help="significance cluster"),
    }
    for m, label in MEASURES.items():
        cfg[m] = st.column_config.NumberColumn(
            label + (" (primary)" if m == primary else ""), format="%.4f"
        )
        cfg[f"{m}_low"] = st.column_config.NumberColumn(f"{label} CI low", format="%.4f")
        cfg[f"{m}_high"] = st.column_config.NumberColumn(f"{label} CI high", format="%.4f")
    for c in ("mae", "rmse", "mae_rescaled", "rmse_rescaled"):
        cfg[c] = st.column_config.NumberColumn(
            c.replace("_", " ").upper().replace("RESCALED", "rescaled"), format="%.4f"
        )
    return cfg


def _leaderboard(table, primary: str):
    first = ["rank", primary, f"{primary}_low", f"{primary}_high"]
    rest = [m for m in MEASURES if m != primary] + ["mae", "rmse", "mae_rescaled", "rmse_rescaled"]
    return table[first + rest]


def sentence_section(
    uploads, files, *, primary: str, n_resamples: int, seed: int, alpha: float, correction: str
) -> None:
    """Sentence level: leaderboards, heatmap, grids, scatter."""
    if files.gold is None:
        st.info(
            "Add the gold file (lp, gold, segid, score -- or a train/dev TSV with z_mean) "
            "to compare the submissions."
        )
        return
    with components.input_errors(CONTROLS):
        (analysis,) = page_run.run_steps(
            [
                (
                    "Correlations and bootstrap CIs per language pair",
                    partial(data.comparison, uploads, primary, n_resamples, seed),
                )
            ],
            text="Comparing QE systems",
        )
    st.caption(components.escape_markdown(f"{analysis.read_as}; {analysis.input.gold.read_as}"))
    components.show_warnings(analysis.warnings, controls=CONTROLS)
    res = analysis.result
    lps = list(res.language_pairs)
    excluded = sum(r.excluded for r in res.language_pairs.values())
    m1, m2, m3, m4 = st.columns(4)
    m1.metric("Language pairs", len(lps))
    m2.metric("Systems", len(res.statistic.index))
    m3.metric("Segments scored", sum(r.n for r in res.language_pairs.values()))
    m4.metric(
        "Excluded",
        excluded,
        help="Gold items marked 'hallucination' and items of the "
        "exclude index, left out of every correlation (as the task's scoring program).",
    )
    label = MEASURES[primary]

    st.subheader(f"{label} per language pair")
    avg = res.average[primary] if len(res.average) else None
    pooled = [] if avg is None else list(res.average.index[res.average["pooled"].to_numpy(bool)])
    components.show_figure(
        figs.qe_lp_heatmap(
            res.statistic,
            measure=primary,
            average=avg,
            pooled=pooled,
            title=f"{label}: systems x language pairs" + (" († pooled average)" if pooled else ""),
        ),
        key="qe_wmt_heatmap",
        filename=f"qe_wmt_{primary}_heatmap",
    )
    if len(res.average):
        components.show_table(
            res.average,
            key="qe_wmt_average",
            filename="qe_wmt_average",
            caption=f"Average over the {len(lps)} language pairs (systems covering all of them), "
            f"by {label}" + (f"; pooled: {POOLED}" if len(pooled) else ""),
            column_config={
                **_columns(primary),
                "files": st.column_config.NumberColumn(
                    "files", format="%d", help="submitted files the predictions come from"
                ),
                "pooled": st.column_config.CheckboxColumn("pooled (unofficial)", help=POOLED),
            },
            static=True,
        )
        if len(pooled):
            st.caption(
                components.escape_markdown(
                    f"Pooled (not official): {', '.join(map(str, pooled))}: {POOLED}. The "
                    "official values are each file's, per language pair (below)."
                )
            )
    else:
        st.caption("No system covers every language pair of the gold file: no average.")

    _all_pairs(res, primary)

    lp = components.remembered(st.selectbox, "Language pair", lps, key="qe_wmt_lp", default=lps[0])
    r = res.language_pairs[lp]
    board = _leaderboard(r.table, primary)
    if len(board) > 1:
        with components.input_errors(CONTROLS):
            ((tests, adjusted, rank),) = page_run.run_steps(
                [
                    (
                        f"{label}: every pair of systems of {lp}",
                        partial(
                            data.pair_tests,
                            uploads,
                            primary,
                            n_resamples,
                            seed,
                            lp,
                            primary,
                            alpha,
                            correction,
                        ),
                    )
                ],
                text="Pairwise tests",
                key="qe_wmt_primary_tests",
            )
        board = board.assign(rank=rank.reindex(board.index).to_numpy())
    st.subheader(f"Leaderboard, {lp} (n = {r.n}, {r.excluded} excluded)")
    test_name = TESTS[tests.test] if len(board) > 1 else TESTS["none"]
    components.show_table(
        board,
        key="qe_wmt_board",
        filename=f"qe_wmt_{lp}_leaderboard",
        caption=f"{lp}: systems by {label} with {int(res.confidence_level * 100)}% bootstrap "
        f"CIs; rank = significance cluster ({test_name}, α = {alpha:g}, "
        f"{correction}); MAE/RMSE and after rescaling (Graham 2015)",
        column_config=_columns(primary),
    )
    # 16-30 systems: the grid does not fit half the page, stacked under the leaderboard
    left, right = components.two_columns(stack=not figures.fits_half_column(list(board.index)))
    with left:
        components.abbreviation_legend(
            components.show_figure(
                figs.qe_leaderboard(board, measure=primary, title=f"{lp}: {label} with CI"),
                key="qe_wmt_board_fig",
                filename=f"qe_wmt_{lp}_leaderboard",
            )
        )
    if len(board) < 2:
        return
    with right:
        _grid(tests, adjusted, rank, lp=lp, alpha=alpha, correction=correction, key="qe_wmt_grid")
        qe_wmt_mde_note(tests, adjusted, alpha)
    components.seed_caption(seed, n_resamples=n_resamples)

    others = [m for m in MEASURES if m != primary]
    other = components.remembered(
        st.radio,
        "Grid of another measure",
        others,
        key="qe_wmt_other",
        default=others[0],
        format_func=MEASURES.get,
        horizontal=True,
    )
    with components.input_errors(CONTROLS):
        ((tests_o, adjusted_o, rank_o),) = page_run.run_steps(
            [
                (
                    f"{MEASURES[other]}: every pair of systems of {lp}",
                    partial(
                        data.pair_tests,
                        uploads,
                        primary,
                        n_resamples,
                        seed,
                        lp,
                        other,
                        alpha,
                        correction,
                    ),
                )
            ],
            text="Pairwise tests",
            key="qe_wmt_other_tests",
        )
    _grid(
        tests_o,
        adjusted_o,
        rank_o,
        lp=lp,
        alpha=alpha,
        correction=correction,
        key="qe_wmt_grid_other",
    )
    qe_wmt_mde_note(tests_o, adjusted_o, alpha)
    _predictions(r, board, lp=lp, corr=partial(
        data.prediction_correlations, uploads, primary, n_resamples, seed, lp
    ))


def _all_pairs(res, primary: str) -> None:
    """Every language pair's table in one (shown folded, and in the page's report, so the
    report covers every language pair, not only the one selected below)."""
    label = MEASURES[primary]
    with st.expander(f"Every language pair: {label} with bootstrap CIs, MAE, RMSE"):
        components.show_table(
            qe_all_pairs(res, primary),
            key="qe_wmt_all_pairs",
            filename="qe_wmt_all_language_pairs",
            caption=f"Systems by {label} per language pair, with "
            f"{int(res.confidence_level * 100)}% bootstrap CIs, the other correlations, MAE "
            "and RMSE (significance clusters: the leaderboard of the language pair selected "
            "below)",
            column_config=_columns(primary),
        )


def _predictions(r, board, *, lp: str, corr) -> None:
    """Scatter of two systems against the gold scores and the correlations between systems'
    predictions (``corr(order)``: the data layer's), for the language pair shown (Graham 2015,
    Figures 3 and 4)."""
    st.subheader(f"Predictions against gold scores, {lp}")
    order = list(board.index)
    c_a, c_b = st.columns(2)
    with c_a:
        a = components.remembered(
            st.selectbox, "System A", order, key="qe_wmt_scatter_a", default=order[0]
        )
    with c_b:
        b = components.remembered(
            st.selectbox, "System B", order, key="qe_wmt_scatter_b", default=order[-1]
        )
    left, right = components.two_columns(stack=not figures.fits_half_column(order))
    with left:
        components.show_figure(
            figures.qe_standardised_scatter(
                r.gold,
                r.predictions,
                list(dict.fromkeys([a, b])),
                pearson=r.table["pearson"].to_dict(),
                mae=r.table["mae"].to_dict(),
                standardise=True,
            ),
            key="qe_wmt_scatter",
            filename=f"qe_wmt_{lp}_scatter_{a}_{b}",
        )
    with right:
        components.show_figure(
            figures.correlation_heatmap(corr(tuple(order)), title=f"{lp}: Pearson r between predictions"),
            key="qe_wmt_pred_corr",
            filename=f"qe_wmt_{lp}_prediction_correlation",
        )


def _grid(tests, adjusted, rank, *, lp: str, alpha: float, correction: str, key: str) -> None:
    """A grid of one language pair (coloured by the adjusted p, lines between clusters) and
    its raw p-value downloads."""
    label = MEASURES[tests.measure]
    note = "" if correction == "none" else f", {correction}-adjusted"
    ranks = rank.reindex(adjusted.index)
    shown = components.show_figure(
        figs.qe_pair_grid(
            adjusted,
            alpha=alpha,
            statistic=tests.statistic,
            measure=tests.measure,
            test=tests.test,
            clusters=list(ranks),  # a system without a rank (undefined) is boxed apart
            title=f"{lp}: {TESTS[tests.test]} on {label}{note}",
        ),
        key=key,
        filename=f"qe_wmt_{lp}_{tests.measure}_{tests.test}_grid",
    )
    components.abbreviation_legend(shown)
    components.table_downloads(
        tests.pvalue,
        key=f"{key}_p",
        filename=f"qe_wmt_{lp}_{tests.measure}_pvalues",
        caption=f"{TESTS[tests.test]} p-values on {label}, {lp}: row system correlates better "
        "than column system (raw, one-sided)",
    )


def word_section(
    uploads, files, *, n_resamples: int, seed: int, alpha: float, correction: str
) -> None:
    """Word level: MCC (primary), F1-BAD, F1-OK per system and language pair, paired
    bootstrap grids."""
    st.header("Word level")
    if files.word_gold is None or not files.word_submissions:
        st.info("Word level needs word-level submissions and the gold tags.")
        return
    with components.input_errors(CONTROLS):
        (res,) = page_run.run_steps(
            [
                (
                    "MCC and F1 with paired bootstrap over sentences",
                    partial(data.word_level, uploads, n_resamples, alpha, correction, seed),
                )
            ],
            text="Word-level scores",
        )
    avg = res.average["mcc"] if len(res.average) else None
    components.show_figure(
        figs.qe_lp_heatmap(
            res.statistic, measure="mcc", average=avg, title="MCC: systems x language pairs"
        ),
        key="qe_wmt_word_heatmap",
        filename="qe_wmt_word_mcc_heatmap",
    )
    lps = list(res.tables)
    lp = components.remembered(
        st.selectbox, "Language pair (word level)", lps, key="qe_wmt_word_lp", default=lps[0]
    )
    t = res.tables[lp]
    cfg = {
        c: st.column_config.NumberColumn(c.replace("_", "-").upper(), format="%.4f")
        for c in ("mcc", "mcc_low", "mcc_high", "f1_bad", "f1_ok", "f1_mult")
    }
    components.show_table(
        t,
        key="qe_wmt_word_table",
        filename=f"qe_wmt_word_{lp}",
        caption=f"Word level, {lp}: MCC (primary) with bootstrap CI, F1 of BAD and OK; rank = "
        f"cluster of paired bootstrap tests on MCC (α = {alpha:g}, {correction})",
        column_config=cfg,
    )
    components.show_figure(
        figs.qe_pair_grid(
            res.pvalue[lp],
            alpha=alpha,
            measure="mcc",
            test="paired-bootstrap",
            clusters=list(t["rank"]),
            title=f"{lp}: paired bootstrap on MCC",
        ),
        key="qe_wmt_word_grid",
        filename=f"qe_wmt_word_{lp}_grid",
    )
    components.seed_caption(seed, n_resamples=n_resamples)


def section(uploads, files) -> None:
    """The whole WMT part of the page, for uploads sorted by :func:`dashboard.data.qe_wmt.files`."""
    with components.controls_expander("WMT QE settings"):
        c1, c2, c3 = st.columns(3)
        with c1:
            primary = components.persistent(
                st.radio,
                "Primary measure",
                list(MEASURES),
                horizontal=True,
                key="qe_wmt_primary",
                format_func=MEASURES.get,
                help="Spearman is primary in WMT22-24, Pearson in WMT20-21. The pairwise tests "
                "use it: Williams for Pearson, PERM-BOTH for Spearman and Kendall.",
            )
            alpha = components.alpha_input("qe_alpha")
        with c2:
            n_resamples = int(
                components.number_setting(
                    "Resamples (bootstrap CIs, PERM-BOTH, word level)",
                    key="qe_wmt_resamples",
                    default=1000,
                    min_value=50,
                    max_value=20000,
                    step=50,
                )
            )
            correction = components.correction_input("qe_wmt_correction")
        with c3:
            seed = components.seed_input("qe_wmt_seed")
    names = [n for n, _ in files.submissions]
    with st.sidebar:
        st.caption(
            components.escape_markdown(
                f"WMT QE input: {len(names)} submission file(s)"
                + (f"; gold {files.gold[0]}" if files.gold else "")
                + (f"; exclude {files.exclude[0]}" if files.exclude else "")
            )
        )
    options = dict(n_resamples=n_resamples, seed=seed, alpha=alpha, correction=correction)
    if files.sentence:
        sentence_section(uploads, files, primary=primary, **options)
    if files.word:
        word_section(uploads, files, **options)
