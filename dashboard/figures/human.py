"""Figures of the "Tests vs humans" page: the human gold standard and how often each test
agrees with it."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from dashboard.figures.grids import _GRID_LAYOUT_WIDTH, significance_grid
from dashboard.figures.overview import LABEL_CELL_FACTOR, grids_side_by_side
from dashboard.figures.presentation import PRESENTATION_CONTENT_PX
from dashboard.figures.style import (
    BASE_FONT_SIZE,
    PRESENTATION_FONT_SIZE,
    _label_px,
    _rank_labels,
    add_axis_lines,
    base_layout,
    base_layout_dict,
    category_colours,
    escape_html,
    short_label_map,
    short_labels,
    subplots,
)

#: Colours of the agreement heatmap, one per :data:`stats.human.accuracy.OUTCOMES` code
#: (agree, significant where humans tie, tied where humans differ, opposite direction).
AGREEMENT_COLOURS = ("#E3E3E3", "#E69F00", "#56B4E9", "#D55E00")
#: Short labels of the outcome codes for the colour bar.
AGREEMENT_LABELS = (
    "agrees with humans",
    "test significant, humans tied",
    "test tied, humans significant",
    "opposite direction",
)
CRITERION_TITLES = {"adequacy": "Adequacy", "fluency": "Fluency", "combined": "Combined"}


def human_gold_grids(
    pvalues: Mapping[str, pd.DataFrame],
    *,
    alpha: float = 0.05,
    mean_z: Mapping[str, pd.Series] | None = None,
    title: str | None = None,
    panel_height: int = 420,
) -> go.Figure:
    """The human gold standard as significance grids side by side (paper Figure 7).

    One :func:`significance_grid` per entry of ``pvalues`` (e.g. adequacy, fluency, combined),
    laid out by :func:`grids_side_by_side` with a shared colour scale: cell (row i, column j)
    coloured when humans judge system i significantly better than system j (one-sided
    Wilcoxon rank-sum on standardised scores, ``p < alpha``).

    Parameters
    ----------
    pvalues : mapping of panel key -> square p-value DataFrame
        Keys ``adequacy``/``fluency``/``combined`` get capitalised panel titles.
    mean_z : mapping of panel key -> Series, optional
        Mean standardised score per system; hover then shows the difference row - column.

    Returns
    -------
    go.Figure
        One heatmap trace per panel, as :func:`significance_grid` builds it;
        ``layout.meta["alpha"]`` = ``alpha``.
    """
    panels = {}
    for key, p in pvalues.items():
        hover = None
        if mean_z is not None and key in mean_z:
            z = mean_z[key].reindex(p.index).to_numpy(dtype=float)
            diff = pd.DataFrame(z[:, None] - z[None, :], index=p.index, columns=p.columns)
            hover = {"Δ mean z (row − column)": (diff, ".3f")}
        panels[CRITERION_TITLES.get(key, str(key))] = significance_grid(
            p, alpha=alpha, hover=hover, verb="is judged better than"
        )
    return grids_side_by_side(
        panels,
        cols=min(len(panels), 3),
        title=title,
        panel_height=panel_height,
        legible_columns=True,  # 16-30 systems: stack the criteria rather than overlap labels
    )


def accuracy_intervals(
    table: pd.DataFrame,
    *,
    test_labels: Mapping[str, str] | None = None,
    chance: float | None = 50.0,
    title: str | None = None,
) -> go.Figure:
    """Accuracy of each metric x test with its exact 95% CI, one panel per alpha.

    ``table`` has the columns of :attr:`stats.human.accuracy.AccuracyResult.table` (``metric``,
    ``test``, ``alpha``, ``correct``, ``pairs``, ``accuracy``, ``ci_low``, ``ci_high``;
    fractions). Metrics run top to bottom in first-appearance order; the tests of a metric are
    dodged vertically and coloured by :func:`category_colours`. A dashed line marks ``chance`` (%), the
    paper's coin-toss reference.

    Returns
    -------
    go.Figure
        One scatter per (alpha, test), named by the test label, ``x`` = accuracy in %,
        ``error_x`` = CI in %, ``y`` = metric position (tick labels = metric names),
        ``customdata`` = (correct, pairs, CI low %, CI high %).
    """
    labels = dict(test_labels or {})
    alphas = list(dict.fromkeys(table["alpha"]))
    metrics = list(dict.fromkeys(table["metric"]))
    tests = list(dict.fromkeys(table["test"]))
    pos = {m: i for i, m in enumerate(metrics)}
    width = 0.6 / max(len(tests), 1)
    fig = subplots(
        rows=1,
        cols=len(alphas),
        shared_yaxes=True,
        subplot_titles=[f"α = {a:g}" for a in alphas],
        horizontal_spacing=0.04,
    )
    colours = category_colours(len(tests))
    chance_lines: list[dict] = []  # drawn once every panel has its points
    for c, a in enumerate(alphas, start=1):
        sub = table[table["alpha"] == a]
        for k, test in enumerate(tests):
            rows = sub[sub["test"] == test]
            acc = 100 * rows["accuracy"].to_numpy(dtype=float)
            lo = 100 * rows["ci_low"].to_numpy(dtype=float)
            hi = 100 * rows["ci_high"].to_numpy(dtype=float)
            offset = (k - (len(tests) - 1) / 2) * width
            fig.add_trace(
                go.Scatter(
                    x=acc,
                    y=[pos[m] + offset for m in rows["metric"]],
                    mode="markers",
                    name=labels.get(test, test),
                    legendgroup=test,
                    showlegend=c == 1,
                    marker={"size": 10, "color": colours[k]},
                    error_x={
                        "type": "data",
                        "symmetric": False,
                        "array": hi - acc,
                        "arrayminus": acc - lo,
                        "thickness": 1.5,
                        "width": 3,
                    },
                    text=list(rows["metric"]),
                    customdata=np.column_stack(
                        [rows["correct"].to_numpy(), rows["pairs"].to_numpy(), lo, hi]
                    ),
                    hovertemplate=f"<b>%{{text}}</b>, {labels.get(test, test)}, α = {a:g}"
                    "<br>%{customdata[0]} of %{customdata[1]} correct: %{x:.1f}%"
                    " [%{customdata[2]:.1f}, %{customdata[3]:.1f}]<extra></extra>",
                ),
                row=1,
                col=c,
            )
        if chance is not None:
            chance_lines.append(
                {"x": chance, "line": {"dash": "dash", "color": "#777777", "width": 1},
                 "row": 1, "col": c}
            )  # fmt: skip
        fig.update_xaxes(range=[0, 101], title={"text": "accuracy (%)"}, row=1, col=c)
    add_axis_lines(fig, chance_lines)
    fig.update_yaxes(
        tickvals=list(range(len(metrics))),
        ticktext=short_labels(metrics),
        autorange="reversed",
        showgrid=False,
        zeroline=False,
    )
    base_layout(fig, title=title, height=int(max(300, 60 * len(metrics) + 170)))
    fig.update_layout(
        legend={"orientation": "h", "y": -0.25, "x": 0}, margin={"t": 80 if title else 50}
    )
    return fig


#: Tick font (px) of the agreement map, row height (px) and the longest system name its
#: pair labels keep whole (longer names are abbreviated, with a legend on the page).
AGREEMENT_FONT_PX, AGREEMENT_ROW_PX, AGREEMENT_NAME_CHARS = 11, 20, 14
#: Longest "metric · test" row label kept whole ("COMET-22 · Approx. Rand." and the like).
AGREEMENT_ROW_CHARS = 32
#: Right margin (px) of the agreement map: its colour bar's longest label,
#: "test tied, humans significant", at 13 px.
AGREEMENT_COLORBAR_PX = 260


#: Keywords of :func:`agreement_heatmap` for presentation mode: cells sized for the tick
#: labels a projector draws (the base 11 px scaled as presentation mode scales fonts, names
#: whole) in its narrowest content width; the page draws one block of pairs a slide.
AGREEMENT_SLIDE = {
    "width": PRESENTATION_CONTENT_PX,
    "label_px": round(AGREEMENT_FONT_PX * PRESENTATION_FONT_SIZE / BASE_FONT_SIZE),
}


def _pair_labels(pairs, chars: int) -> tuple[list[str], dict[str, str]]:
    """Tick labels of "A vs B" pair columns with each system name shortened to ``chars``
    characters (:func:`short_labels`, the same abbreviation in every pair), and the
    abbreviation -> full name map of the names shortened."""
    split = [str(p).split(" vs ", 1) if " vs " in str(p) else [str(p)] for p in pairs]
    names = list(dict.fromkeys(n for parts in split for n in parts))
    short = dict(zip(names, short_labels(names, chars), strict=True))
    labels = [" vs ".join(short[n] for n in parts) for parts in split]
    return labels, {short[n]: n for n in names if short[n] != escape_html(n)}


def agreement_heatmap(
    outcome: pd.DataFrame,
    *,
    details: pd.DataFrame | None = None,
    title: str | None = None,
    width: int = _GRID_LAYOUT_WIDTH,
    label_px: float = AGREEMENT_FONT_PX,
) -> go.Figure:
    """Where each test agrees and disagrees with the humans: rows = metric / test, columns =
    system pairs, cell colour = outcome code (:data:`AGREEMENT_LABELS`).

    Legible with any number of pairs (12 systems give 66, 30 give 435): cells never shrink
    below :data:`~dashboard.figures.overview.LABEL_CELL_FACTOR` tick fonts
    (:data:`AGREEMENT_FONT_PX`) in a ``width`` px figure, so neighbouring -45 degree pair
    labels cannot overlap; the pairs that do not fit one block go into further blocks stacked
    below (the same rows, rows :data:`AGREEMENT_ROW_PX` high). System names longer than
    :data:`AGREEMENT_NAME_CHARS` are abbreviated in the pair labels
    (``layout.meta["abbreviated"]``: abbreviation -> name, for the page's legend); hover has
    the whole names. ``label_px``: the tick font the labels will be drawn at, when larger (a
    presentation's, :data:`AGREEMENT_SLIDE`: cells sized for it, so that no labels overlap
    once :func:`~dashboard.figures.presentation.apply_presentation` enlarges them).

    Parameters
    ----------
    outcome : DataFrame of int codes 0-3
        E.g. :meth:`stats.human.accuracy.AccuracyResult.agreement_matrix`.
    details : DataFrame of str, optional
        Same shape; hover text per cell (e.g. "humans: A better; test: no difference").

    Returns
    -------
    go.Figure
        One heatmap trace per block of pairs (trace ``k`` on axes ``x{k+1}``/``y{k+1}``;
        ``x`` the pairs, ``y`` the rows), ``z`` = the codes; ``layout.coloraxis`` discrete with
        colour-bar ticks at 0..3 labelled by outcome; ``layout.meta["pairs_per_block"]``.
    """
    names = np.asarray(AGREEMENT_LABELS, dtype=object)
    codes = outcome.to_numpy(dtype=float)
    text = names[np.clip(np.nan_to_num(codes, nan=0).astype(int), 0, 3)].astype(str)
    if details is not None:
        extra = details.reindex(index=outcome.index, columns=outcome.columns).to_numpy(dtype=object)
        text = np.char.add(np.char.add(text, "<br>"), extra.astype(str))
    rows = [str(r) for r in outcome.index]
    pairs = [str(c) for c in outcome.columns]
    ticks, abbreviated = _pair_labels(pairs, AGREEMENT_NAME_CHARS)
    font = AGREEMENT_FONT_PX
    row_ticks = short_labels(rows, AGREEMENT_ROW_CHARS)
    abbreviated.update(
        {t: r for t, r in zip(row_ticks, rows, strict=True) if t != escape_html(r)}
    )
    ylab = _label_px(row_ticks, font) + 12
    xlab = _label_px(ticks, font) * 0.71 + font + 10
    drawn = max(font, label_px)
    plot_w = width - _label_px(rows, drawn) - 22 - AGREEMENT_COLORBAR_PX * drawn / font
    per_block = max(1, int(plot_w // (LABEL_CELL_FACTOR * drawn)))
    n_blocks = max(1, -(-len(pairs) // per_block))
    per_block = -(-max(len(pairs), 1) // n_blocks)  # balanced blocks
    block_px = AGREEMENT_ROW_PX * max(len(rows), 1)
    gap_px = xlab + 16
    top = 60 if title else 30
    plot_h = n_blocks * block_px + (n_blocks - 1) * gap_px
    layout = base_layout_dict(title=title, height=int(top + plot_h + xlab + 10))
    layout["margin"] = {"l": int(ylab) + 10, "r": AGREEMENT_COLORBAR_PX, "t": top,
                        "b": int(xlab) + 10}  # fmt: skip
    layout["plot_bgcolor"] = "#ffffff"
    traces = []
    for k in range(n_blocks):
        cols = slice(k * per_block, (k + 1) * per_block)
        suffix = "" if k == 0 else str(k + 1)
        y1 = 1.0 - k * (block_px + gap_px) / plot_h
        traces.append(
            go.Heatmap(
                z=codes[:, cols],
                x=pairs[cols],
                y=rows,
                customdata=text[:, cols],
                coloraxis="coloraxis",
                xgap=1,
                ygap=1,
                hovertemplate="<b>%{y}</b><br>%{x}<br>%{customdata}<extra></extra>",
                name="agreement" if n_blocks == 1 else f"pairs {cols.start + 1}-"
                f"{min(cols.stop, len(pairs))}",
                xaxis=f"x{suffix}",
                yaxis=f"y{suffix}",
            )
        )
        axis = {"type": "category", "categoryorder": "array", "showgrid": False,
                "zeroline": False, "tickfont": {"size": font}, "automargin": False}  # fmt: skip
        layout[f"xaxis{suffix}"] = {
            **axis,
            "categoryarray": pairs[cols],
            "tickmode": "array",
            "tickvals": pairs[cols],
            "ticktext": ticks[cols],
            "tickangle": -45,
            "domain": [0.0, 1.0],
            "anchor": f"y{suffix}",
        }
        layout[f"yaxis{suffix}"] = {
            **axis,
            "tickmode": "array",
            "tickvals": rows,
            "ticktext": row_ticks,
            "categoryarray": rows,
            "autorange": "reversed",
            "domain": [max(y1 - block_px / plot_h, 0.0), y1],
            "anchor": f"x{suffix}",
        }
    scale = []
    for k, colour in enumerate(AGREEMENT_COLOURS):
        scale += [[k / 4, colour], [(k + 1) / 4, colour]]
    layout["coloraxis"] = {
        "colorscale": scale,
        "cmin": -0.5,
        "cmax": 3.5,
        "colorbar": {
            "tickvals": [0, 1, 2, 3],
            "ticktext": list(AGREEMENT_LABELS),
            "thickness": 14,
            "title": {"text": ""},
            "len": min(1.0, 300 / plot_h),
            "y": 1.0,
            "yanchor": "top",
        },
    }
    layout["meta"] = {"abbreviated": abbreviated, "pairs_per_block": per_block}
    return go.Figure(traces, layout=layout)


def annotator_spread(summary: pd.DataFrame, *, title: str | None = None) -> go.Figure:
    """Each annotator's raw mean score ± one SD, per criterion (sorted, most lenient first).

    Shows what per-annotator standardisation removes: lenient and strict annotators (means far
    apart) and different spreads (SD). ``summary`` has the columns of
    :func:`stats.human.gold.annotator_summary` (``criterion``, ``annotator``, ``n``, ``mean``,
    ``sd``, ``min``, ``max``). A dashed line marks each criterion's mean over all judgements.

    Returns
    -------
    go.Figure
        One scatter per criterion (name = criterion), ``x`` = annotators, ``y`` = means,
        ``error_y`` = SDs, ``customdata`` = (n, sd, min, max).
    """
    criteria = list(dict.fromkeys(summary["criterion"]))
    fig = subplots(
        rows=len(criteria),
        cols=1,
        subplot_titles=[CRITERION_TITLES.get(c, c) for c in criteria],
        vertical_spacing=0.18 if len(criteria) > 1 else 0.0,
    )
    criterion_colours = category_colours(len(criteria))
    mean_lines: list[dict] = []  # drawn once every panel has its points
    for r, crit in enumerate(criteria, start=1):
        sub = summary[summary["criterion"] == crit].sort_values(
            "mean", ascending=False, kind="stable"
        )
        n = sub["n"].to_numpy(dtype=float)
        mean = sub["mean"].to_numpy(dtype=float)
        fig.add_trace(
            go.Scatter(
                x=[str(a) for a in sub["annotator"]],
                y=mean,
                mode="markers",
                name=crit,
                marker={"size": 9, "color": criterion_colours[r - 1]},
                error_y={
                    "type": "data",
                    "array": sub["sd"].to_numpy(dtype=float),
                    "thickness": 1.2,
                },
                customdata=sub[["n", "sd", "min", "max"]].to_numpy(dtype=float),
                hovertemplate="<b>%{x}</b> (" + crit + ")<br>mean %{y:.1f}, SD %{customdata[1]:.1f}"
                "<br>%{customdata[0]:.0f} judgements, range %{customdata[2]:.0f}-%{customdata[3]:.0f}"
                "<extra></extra>",
            ),
            row=r,
            col=1,
        )
        overall = float(np.sum(n * mean) / np.sum(n)) if n.sum() else float("nan")
        mean_lines.append(
            {"y": overall, "line": {"dash": "dash", "color": "#777777", "width": 1},
             "row": r, "col": 1}
        )  # fmt: skip
        fig.update_yaxes(title={"text": "raw score (mean ± SD)"}, row=r, col=1)
        fig.update_xaxes(type="category", tickangle=-45, row=r, col=1)
    add_axis_lines(fig, mean_lines)
    base_layout(fig, title=title, height=300 * len(criteria) + 90)
    fig.update_layout(showlegend=False)
    return fig


def standardisation_ranks(scores: pd.DataFrame, *, title: str | None = None) -> go.Figure:
    """System ranks by raw mean score and by mean standardised (z) score, per criterion.

    A slope chart (1 = best, at the top): a line that crosses others is a system whose place
    depends on who happened to judge it. ``scores`` is :func:`stats.human.gold.system_scores`
    (columns ``<criterion>_raw`` and ``<criterion>_z``). Systems whose rank changes are drawn
    in colour, the others in grey. The criteria are stacked (one panel per row) and the labels
    carry the ranks ("1. name" on the left, "name (1)" on the right) in margins sized from the
    longest name, so nothing collides or is clipped in a narrow column.

    Returns
    -------
    go.Figure
        Per criterion panel, one scatter per system (name = system), ``x`` = ["raw mean",
        "mean z"], ``y`` = the two ranks; ``meta`` = ``{"changed": bool}``.
    """
    criteria = [c for c in ("adequacy", "fluency") if f"{c}_z" in scores.columns]
    nrows = max(len(criteria), 1)
    panel_px = int(max(220, 30 * len(scores) + 60))
    fig = subplots(
        rows=nrows,
        cols=1,
        subplot_titles=[CRITERION_TITLES[c] for c in criteria],
        vertical_spacing=min(90 / (panel_px * nrows + 90 * (nrows - 1)), 0.3) if nrows > 1 else 0,
    )
    labels = []
    for r, crit in enumerate(criteria, start=1):
        raw = scores[f"{crit}_raw"].rank(ascending=False, method="min")
        z = scores[f"{crit}_z"].rank(ascending=False, method="min")
        colour_k = 0
        colours = category_colours(len(scores.index), lines=True)
        drawn = [s for s in scores.index if not np.isnan([raw[s], z[s]]).any()]
        shorts = short_label_map(drawn)  # one label per system drawn, none alike
        for system in scores.index:
            ranks = np.array([raw[system], z[system]], dtype=float)
            if np.isnan(ranks).any():
                continue
            changed = ranks[0] != ranks[1]
            colour = colours[colour_k] if changed else "#9A9A9A"
            colour_k += int(changed)
            text = _rank_labels(shorts[str(system)], ranks)
            labels += text
            fig.add_trace(
                go.Scatter(
                    x=["raw mean", "mean z"],
                    y=ranks,
                    mode="lines+markers+text",
                    name=str(system),
                    text=text,
                    textposition=["middle left", "middle right"],
                    textfont={"color": "#111111" if changed else "#6A6A6A"},
                    cliponaxis=False,
                    line={"color": colour, "width": 3 if changed else 1.5},
                    marker={"color": colour, "size": 8},
                    meta={"changed": bool(changed)},
                    customdata=[scores.at[system, f"{crit}_raw"], scores.at[system, f"{crit}_z"]],
                    hovertemplate=f"<b>{escape_html(system)}</b> ({crit})<br>%{{x}}: rank %{{y}}"
                    "<br>score %{customdata:.3f}<extra></extra>",
                    showlegend=False,
                ),
                row=r,
                col=1,
            )
        fig.update_yaxes(
            autorange="reversed", showticklabels=False, zeroline=False, dtick=1, row=r, col=1
        )
        fig.update_xaxes(range=[-0.05, 1.05], side="top", row=r, col=1)
    side_px = int(_label_px(labels, BASE_FONT_SIZE)) + 24
    top = (60 if title else 20) + 40  # title, panel title and the column headers
    base_layout(fig, title=title, height=panel_px * nrows + 90 * (nrows - 1) + top + 20)
    fig.update_layout(margin={"l": side_px, "r": side_px, "t": top, "b": 20})
    fig.update_annotations(yshift=22)  # panel titles above the column headers
    return fig
