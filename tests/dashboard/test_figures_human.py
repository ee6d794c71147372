"""Figure builders of the "Tests vs humans" page, tested through fig.data / fig.layout."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from dashboard import tables
from dashboard.figures import human, style
from stats.human.accuracy import accuracy_from_pvalues
from stats.human.gold import annotator_summary, combine_criteria, human_gold_standard, system_scores

NAMES = ["A", "B", "C"]


def _mat(cells):
    m = pd.DataFrame(np.nan, index=NAMES, columns=NAMES)
    for (r, c), p in cells.items():
        m.at[r, c] = p
    return m


ADEQ = _mat({("A", "B"): 0.001, ("A", "C"): 0.2, ("B", "C"): 0.03})
FLU = _mat({("B", "A"): 0.4, ("C", "A"): 0.01, ("B", "C"): 0.5})


def test_human_gold_grids_three_panels_share_scale_and_hover():
    comb = combine_criteria(ADEQ, FLU, 0.05)
    z = pd.Series([0.5, 0.1, -0.6], index=NAMES)
    fig = human.human_gold_grids(
        {"adequacy": ADEQ, "fluency": FLU, "combined": comb},
        alpha=0.05,
        mean_z={"adequacy": z, "fluency": z},
    )
    titles = [a.text for a in fig.layout.annotations]
    assert titles == ["Adequacy", "Fluency", "Combined"]
    assert len(fig.data) == 3  # one heatmap per panel
    assert fig.layout.meta["alpha"] == 0.05
    sig_adeq, sig_comb = fig.data[0], fig.data[2]
    # adequacy: A>B (0.001) and B>C (0.03) coloured, A>C (0.2) grey (tested, not significant)
    z_adeq = np.asarray(sig_adeq.z, dtype=float)
    assert z_adeq[0, 1] >= 0 and z_adeq[1, 2] >= 0
    assert z_adeq[0, 2] == style.NOT_SIGNIFICANT_Z
    assert z_adeq[0, 1] == pytest.approx(math.log10(0.05 / 0.001), abs=5e-4)  # 3 decimals
    # combined: A vs C tied in adequacy -> fluency C > A (0.01) decides
    z_comb = np.asarray(sig_comb.z, dtype=float)
    assert z_comb[2, 0] >= 0 and not z_comb[0, 2] >= 0
    # hover carries p then the difference in mean z (row - column)
    cd = np.asarray(sig_adeq.customdata, dtype=float)
    assert cd[0, 1, 0] == pytest.approx(0.001, rel=1e-6) and cd[0, 1, 1] == pytest.approx(0.4)
    assert "Δ mean z" in sig_adeq.hovertemplate
    # no mean z for the combined panel: p only
    assert np.asarray(sig_comb.customdata).shape[-1] == 1


def _table():
    return pd.DataFrame(
        {
            "metric": ["BLEU", "BLEU", "chrF", "chrF"] * 2,
            "test": ["bootstrap", "approximate-randomization"] * 4,
            "alpha": [0.05] * 4 + [0.01] * 4,
            "correct": [53, 52, 51, 50, 48, 47, 46, 45],
            "pairs": [66] * 8,
            "accuracy": np.array([53, 52, 51, 50, 48, 47, 46, 45]) / 66,
            "ci_low": np.linspace(0.6, 0.65, 8),
            "ci_high": np.linspace(0.85, 0.9, 8),
        }
    )


def test_accuracy_intervals_one_panel_per_alpha_with_ci_bars():
    fig = human.accuracy_intervals(
        _table(), test_labels={"bootstrap": "Bootst.", "approximate-randomization": "AR"}
    )
    assert [a.text for a in fig.layout.annotations if a.text] == ["α = 0.05", "α = 0.01"]
    assert len(fig.data) == 4  # (alpha, test)
    first = fig.data[0]
    assert first.name == "Bootst." and first.showlegend and not fig.data[2].showlegend
    np.testing.assert_allclose(first.x, 100 * np.array([53, 51]) / 66)
    np.testing.assert_allclose(
        np.asarray(first.error_x.array), 100 * np.array([0.85, 0.85 + 0.05 * 2 / 7]) - first.x
    )
    assert list(fig.layout.yaxis.ticktext) == ["BLEU", "chrF"]
    # the two tests of a metric are dodged around its row
    assert fig.data[0].y[0] < 0 < fig.data[1].y[0]
    assert np.asarray(first.customdata)[0, :2].tolist() == [53, 66]
    # coin-toss line in each panel
    assert [s.x0 for s in fig.layout.shapes] == [50.0, 50.0]


def test_agreement_heatmap_discrete_colours_and_hover():
    outcome = pd.DataFrame(
        [[0, 1, 2], [3, 0, 0]],
        index=["BLEU · AR", "TER · AR"],
        columns=["A vs B", "A vs C", "B vs C"],
    )
    details = pd.DataFrame(
        "humans: A better; test: A better", index=outcome.index, columns=outcome.columns
    )
    fig = human.agreement_heatmap(outcome, details=details)
    (trace,) = fig.data
    np.testing.assert_array_equal(np.asarray(trace.z, dtype=float), outcome.to_numpy(dtype=float))
    assert list(trace.y) == ["BLEU · AR", "TER · AR"] and list(trace.x) == list(outcome.columns)
    cd = np.asarray(trace.customdata)
    assert cd[0, 1].startswith("test significant, humans tied<br>humans: A better")
    assert cd[1, 0].startswith("opposite direction")
    ca = fig.layout.coloraxis
    assert list(ca.colorbar.ticktext) == list(human.AGREEMENT_LABELS)
    assert ca.cmin == -0.5 and ca.cmax == 3.5
    # each code's band has one colour
    scale = [tuple(s) for s in ca.colorscale]
    assert scale[0][1] == scale[1][1] == human.AGREEMENT_COLOURS[0]
    assert scale[-1][1] == human.AGREEMENT_COLOURS[3]
    assert fig.layout.yaxis.scaleanchor is None  # rectangular cells: many pairs, few rows


def _judgements():
    rows = []
    rng = np.random.default_rng(1)
    for a, (bias, spread) in {"len": (70, 5), "str": (30, 15)}.items():
        for s, q in {"A": 1.0, "B": 0.0}.items():
            for seg in range(6):
                for crit in ("adequacy", "fluency"):
                    rows.append((s, str(seg), a, crit, bias + spread * (q + rng.normal())))
    return pd.DataFrame(rows, columns=["system", "segment", "annotator", "criterion", "score"])


def test_annotator_spread_mean_and_sd_per_criterion():
    summary = annotator_summary(_judgements())
    fig = human.annotator_spread(summary)
    assert [t.name for t in fig.data] == ["adequacy", "fluency"]
    adeq = summary[summary["criterion"] == "adequacy"].sort_values("mean", ascending=False)
    assert list(fig.data[0].x) == list(adeq["annotator"])
    np.testing.assert_allclose(fig.data[0].y, adeq["mean"])
    np.testing.assert_allclose(fig.data[0].error_y.array, adeq["sd"])
    assert len(fig.layout.shapes) == 2  # pooled mean per criterion


def test_standardisation_ranks_marks_systems_whose_rank_changes():
    scores = pd.DataFrame(
        {
            "adequacy_raw": [50.0, 60.0, 40.0],
            "adequacy_z": [0.5, 0.1, -0.6],
            "fluency_raw": [55.0, 50.0, 45.0],
            "fluency_z": [0.4, 0.0, -0.4],
        },
        index=pd.Index(NAMES, name="system"),
    )
    fig = human.standardisation_ranks(scores)
    assert [a.text for a in fig.layout.annotations] == ["Adequacy", "Fluency"]
    by_panel = {(t.xaxis, t.name): t for t in fig.data}
    a = by_panel[("x", "A")]
    assert list(a.x) == ["raw mean", "mean z"] and list(a.y) == [2, 1] and a.meta["changed"]
    assert not by_panel[("x", "C")].meta["changed"]
    assert not by_panel[("x2", "A")].meta["changed"]  # fluency: same order raw and z
    assert by_panel[("x2", "A")].line.color == "#9A9A9A"


def test_figures_on_real_gold_and_accuracy_results():
    j = _judgements()
    gold = human_gold_standard(j)
    p = pd.DataFrame(np.nan, index=["A", "B"], columns=["A", "B"])
    p.at["A", "B"] = 0.001
    acc = accuracy_from_pvalues(gold, {("m", "bootstrap"): p})
    outcome, details = tables.human_agreement(acc, 0.05)
    fig = human.agreement_heatmap(outcome, details=details)
    assert list(fig.data[0].y) == ["m · Bootst. Resamp."]
    fig = human.accuracy_intervals(acc.table, test_labels=tables.HUMAN_TEST_LABELS)
    assert len(fig.data) == 3  # three alphas, one test
    fig = human.standardisation_ranks(system_scores(j))
    assert {t.name for t in fig.data} == {"A", "B"}


# ---- dashboard.tables helpers of the page (pure, uncached) ----


def _accuracy():
    gold = human_gold_standard(_judgements())
    p1 = pd.DataFrame(np.nan, index=["A", "B"], columns=["A", "B"])
    p1.at["A", "B"] = 0.001
    p2 = pd.DataFrame(np.nan, index=["A", "B"], columns=["A", "B"])
    p2.at["B", "A"] = 0.02  # opposite direction at 0.05, tie at 0.01
    pvals = {("m", "bootstrap"): p1, ("m", "approximate-randomization"): p2}
    return gold, accuracy_from_pvalues(gold, pvals, alphas=(0.05, 0.01))


def test_paper_table_layout_and_disagreements():
    gold, acc = _accuracy()
    g05 = int(gold.conclusions(0.05)["combined"].iloc[0])
    assert g05 == 1  # A judged better than B by the humans (A's quality is higher)
    table = tables.human_paper_table(acc)
    assert list(table.columns) == [
        "alpha",
        "Metric",
        "Bootst. Resamp.: Conc.",
        "Bootst. Resamp.: Acc. (%)",
        "Approx. Rand.: Conc.",
        "Approx. Rand.: Acc. (%)",
    ]
    assert table["alpha"].tolist() == ["0.05", "0.01"]
    assert table["Bootst. Resamp.: Conc."].tolist() == [1, 1]
    assert table["Bootst. Resamp.: Acc. (%)"].iloc[0] == "100.0 [2.5, 100.0]"
    assert table["Approx. Rand.: Conc."].tolist() == [0, 0]
    dis = tables.human_disagreements(acc, 0.05)
    assert dis.to_dict("records") == [
        {
            "metric": "m",
            "test": "approximate-randomization",
            "pair": "A vs B",
            "humans": "A better",
            "test says": "B better",
            "outcome": "opposite direction",
        }
    ]
    dis01 = tables.human_disagreements(acc, 0.01)
    assert dis01["test says"].tolist() == ["no significant difference"]
    assert dis01["outcome"].tolist() == ["tied, humans significant"]


def test_standardisation_ranks_labels_carry_ranks_and_fit_the_margins():
    """G report item 9: names never run into rank numbers ("1Borealis") nor get clipped."""
    long = "uedin-syntax-phrase-2014"
    scores = pd.DataFrame(
        {"adequacy_raw": [50.0, 60.0, 40.0], "adequacy_z": [0.5, 0.1, -0.6]},
        index=pd.Index(["A", long, "x<b>y</b>"], name="system"),
    )
    fig = human.standardisation_ranks(scores)
    by_name = {t.name: t for t in fig.data}
    assert list(by_name["A"].text) == ["2. A", "A (1)"]
    short = style.short_labels([long])[0]
    assert list(by_name[long].text) == [f"1. {short}", f"{short} (2)"]
    assert by_name["x<b>y</b>"].text[0] == "3. x&lt;b&gt;y&lt;/b&gt;"  # drawn literally
    assert fig.layout.yaxis.showticklabels is False  # no separate rank numbers to collide with
    longest = max(len(s) for t in fig.data for s in t.text)
    label_px = style._GLYPH_WIDTH * style.BASE_FONT_SIZE * longest
    assert fig.layout.margin.l >= label_px and fig.layout.margin.r >= label_px
    assert all(t.cliponaxis is False for t in fig.data)
