"""AppTest tests of the WMT20-24 part of the "Quality estimation" page
(dashboard/sections/qe_wmt.py): uploads as published, leaderboards, grids, word level."""

from __future__ import annotations

import numpy as np

from stats.pairwise.grids import grid_significance
from stats.qe.wmt import compare_qe_systems, qe_pair_tests
from stats.readers.qe_wmt import read_qe_exclude, read_qe_submissions, read_qe_wmt_gold
from tests._qe_wmt_data import generate
from tests.dashboard.helpers import assert_no_exception, frame_with, metric_values

PAGE = "views/qe.py"


def _uploads(d, *, word=True):
    out = [
        ("subs.zip", d["zip"], "application/zip"),
        ("gold.tsv", d["gold"].encode(), "text/plain"),
        ("hall.tsv", d["exclude"].encode(), "text/plain"),
    ]
    if word:
        out.append(("word_gold.tsv", d["word_gold"].encode(), "text/plain"))
        out += [(f"w_{t}.txt", x.encode(), "text/plain") for t, x in d["word_submissions"].items()]
    return out


def _board(at, primary):
    """The leaderboard of the language pair shown (the table with a rank column)."""
    frames = [
        d.value
        for d in at.dataframe
        if {"rank", f"{primary}_low"} <= set(getattr(d.value, "columns", []))
    ]
    assert frames, "no leaderboard"
    return frames[0]


def test_zipped_submissions_page(app_test):
    d = generate()
    at = app_test(PAGE)
    at.session_state["qe_wmt_resamples"] = 100
    at.run()
    at.file_uploader(key="qe_upload").set_value(_uploads(d)).run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    m = metric_values(at)
    assert m["Language pairs"] == "3" and m["Systems"] == "5" and m["Excluded"] == "9"
    board = _board(at, "spearman")
    want = compare_qe_systems(
        read_qe_submissions([("s.zip", d["zip"])]),
        read_qe_wmt_gold(d["gold"].encode(), name="g"),
        exclude=read_qe_exclude(d["exclude"].encode(), name="x"),
        n_resamples=100,
        tests=False,
        rng=12345,
    ).language_pairs["en-de"]
    assert list(board.index) == list(want.table.index)
    assert np.allclose(board["spearman"], want.table["spearman"], atol=1e-12)
    assert np.allclose(board["spearman_low"], want.table["spearman_low"], atol=1e-12)
    # the clusters: PERM-BOTH of en-de alone, seeded with the page's seed
    tests = qe_pair_tests(
        want.predictions, want.gold, measure="spearman", n_resamples=100, rng=12345
    )
    rank = grid_significance(tests.pvalue, alpha=0.05).rank
    assert list(board["rank"]) == list(rank.reindex(board.index))
    word = frame_with(at, "f1_bad")
    assert {"mcc", "f1_ok"} <= set(word.columns)
    # PERM-BOTH for the primary Spearman; Pearson gets the Williams grid
    at.radio(key="qe_wmt_primary").set_value("pearson").run()
    assert_no_exception(at)
    assert _board(at, "pearson").columns[1] == "pearson"


def test_presentation_mode_and_report(app_test):
    from dashboard.state import PRESENTATION_KEY

    d = generate()
    at = app_test(PAGE)
    at.session_state["qe_wmt_resamples"] = 50
    at.run()
    at.file_uploader(key="qe_upload").set_value(_uploads(d, word=False)).run()
    at.sidebar.toggle(key=PRESENTATION_KEY).set_value(True).run()
    assert_no_exception(at)
    assert not at.error
    assert len(at.get("plotly_chart")) >= 6  # heatmap, leaderboard, two grids, scatter, r
    assert not any("Word level" == h.value for h in at.header)
    # "Download report" gets what the page showed, with the seed used
    from dashboard import state

    report = at.session_state[state.REPORT_KEY]
    assert {"qe_wmt_heatmap", "qe_wmt_grid", "qe_wmt_grid_other"} <= set(report.figures)
    assert {"qe_wmt_board", "qe_wmt_average", "qe_wmt_all_pairs"} <= set(report.tables)
    # the report covers every language pair, not only the one selected
    every = report.tables["qe_wmt_all_pairs"].df
    assert sorted(set(every.index.get_level_values("lp"))) == ["en-de", "en-mr", "zh-en"]
    assert report.settings["seed_used"]["value"] == 12345
    # the MDE beside the PERM-BOTH grid's pairs not significant (Spearman, the default) is in
    # the report as on the page
    notes = [n["text"] for n in report.notes.values() if "PERM-BOTH" in n["text"]]
    assert notes and all(" ρ (median" in t or " τ (median" in t for t in notes)


def test_bad_submission_is_a_one_line_error(app_test):
    at = app_test(PAGE)
    at.session_state["qe_wmt_resamples"] = 50
    at.run()
    bad = [
        ("team.txt", b"en-de\tA\t0\t0.5\nen-de\tA\t1\tbroken\n", "text/plain"),
        ("gold.tsv", generate()["gold"].encode(), "text/plain"),
    ]
    at.file_uploader(key="qe_upload").set_value(bad).run()
    assert_no_exception(at)
    assert "team.txt, line 2: score is not a number: 'broken'" in at.error[0].value


def test_wmt23_submissions_folder_page(app_test):
    """The WMT23 submissions folder uploaded as a folder (files named by their relative
    paths, three of them empty) beside the gold file: every system labelled team/method, the
    multilingual submissions apart, the empty files named, every language pair in a table."""
    from tests._qe_wmt_data import generate_wmt23_folder
    from tests.qe.test_qe_wmt23_folder import READ_AS

    d = generate_wmt23_folder()
    at = app_test(PAGE)
    at.session_state["qe_wmt_resamples"] = 50
    at.run()
    at.file_uploader(key="qe_upload").set_value(
        [("gold_labels_task1_sentence.tsv", d["gold"].encode(), "text/plain")]
    )
    at.file_uploader(key="qe_folder").set_value(
        [(f"T1_sentence/{p}", t.encode(), "text/plain") for p, t in d["files"].items()]
    ).run()
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    (caption,) = [c.value for c in at.caption if READ_AS in c.value]
    assert "WMT QE gold labels (lp gold segid score): 120 items, 4 language pairs" in caption
    notes = " ".join(w.value for w in at.warning)
    assert "asmith-LabA/he-en/predictions.txt: empty, skipped" in notes
    m = metric_values(at)
    assert m["Language pairs"] == "4" and m["Systems"] == "12"
    every = frame_with(at, "kendall_high")
    assert sorted(set(every.index.get_level_values(0))) == ["en-de", "en-mr", "he-en", "zh-en"]
    de = every.loc["en-de"]
    assert {"gao-LabG/score_ensemble", "gao-LabG/multilingual/score_ensemble"} <= set(de.index)
    assert "synthetic sample" not in " ".join(i.value for i in at.info)


def test_a_constant_system_is_undefined_in_every_grid_and_table(app_test):
    """Undefined stays undefined on the page: a system predicting 0.5 for every sentence has no p-value in
    either grid (Spearman by PERM-BOTH, Pearson by Williams), no rank on the leaderboard, and
    the warning names it."""
    import json

    rng = np.random.default_rng(0)
    g = rng.normal(size=30)
    gold = "lp\tmethod\tsid\tscore\n" + "".join(f"en-de\tgold\t{i}\t{g[i]:.3f}\n" for i in range(30))
    rows = [f"en-de\tA\t{i}\t{g[i] + rng.normal():.3f}" for i in range(30)]
    rows += [f"en-de\tB\t{i}\t{g[i] + 2 * rng.normal():.3f}" for i in range(30)]
    rows += [f"en-de\tCONST\t{i}\t0.5" for i in range(30)]
    at = app_test(PAGE)
    at.session_state["qe_wmt_resamples"] = 50
    at.run()
    at.file_uploader(key="qe_upload").set_value(
        [("team/predictions.txt", ("\n".join(rows) + "\n").encode(), "text/plain"),
         ("gold.tsv", gold.encode(), "text/plain")]
    ).run()  # fmt: skip
    assert_no_exception(at)
    assert not at.error, [e.value for e in at.error]
    board = _board(at, "spearman")
    const = next(s for s in board.index if s.endswith("CONST"))
    assert np.isnan(board.at[const, "rank"]) and board["rank"].drop(const).notna().all()
    shown = " ".join(
        str(e.value) for kind in ("warning", "markdown", "caption", "text") for e in at.get(kind)
    )
    assert "undefined" in shown and "CONST" in shown  # the warning names it, and why
    checked = 0
    for chart in at.get("plotly_chart"):
        spec = json.loads(chart.proto.spec)
        title = str(spec["layout"].get("title", {}).get("text", ""))
        if "PERM-BOTH on" not in title and "Williams test on" not in title:
            continue
        (grid,) = [t for t in spec["data"] if t.get("type") == "heatmap"][:1] or [None]
        assert grid is not None, title
        names = list(grid["y"])
        row = [r for r in grid["z"][names.index(const)]]
        col = [r[names.index(const)] for r in grid["z"]]
        assert all(v is None for v in row + col), title  # no p next to the constant system
        checked += 1
    assert checked == 2  # the primary measure's grid and the other measure's
