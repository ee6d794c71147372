"""The minimum detectable effect beside "not significant" on the MT systems table, Quality estimation's Williams grid, the Metrics page's
Williams grid, and the page report (the helper records each line it shows). The numbers are
those of stats.power on the same results (a second path to the same value)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from dashboard.components import power_note
from stats import systems_table
from stats.mt.sufficient import extract_statistics
from stats.power import normal_mde, williams_grid_power
from tests._data import mt_sample_text
from tests.dashboard.helpers import assert_no_exception


def _captions(at) -> list[str]:
    return [c.value for c in at.caption]


def note_all(at) -> list[str]:
    return [c for c in _captions(at) if "minimum detectable effect" in c]


def test_pairs_note_is_recorded_in_the_report(monkeypatch):
    shown, recorded = [], []
    monkeypatch.setattr(power_note.st, "caption", shown.append)
    monkeypatch.setattr(power_note.page_run, "record_note",
                        lambda key, kind, text: recorded.append((kind, text)))
    text = power_note.mde_pairs_note(significant=[True, False, False],
                                     spreads=[0.1, 0.2, np.nan], alpha=0.05, unit="BLEU",
                                     what="systems without †")
    assert "Systems without † (1)" in text and f"{normal_mde(se=0.2):.3g} BLEU" in text
    assert shown == [text] and recorded == [("note", text)]
    # precomputed MDEs (the Williams grid's) and nothing when every pair is significant
    text = power_note.mde_pairs_note(significant=[False, True], mdes=[0.3, 0.1], alpha=0.05,
                                     unit="r", method="noncentral-t")
    assert "0.3 r" in text and "noncentral-t" in text
    assert power_note.mde_pairs_note(significant=[True], spreads=[0.1], alpha=0.05) == ""


def test_mt_systems_table_mde(fresh_run):
    at = fresh_run("views/mt_systems.py", timeout=180)
    assert_no_exception(at)
    # against the best system every other differs on the sample: no note
    assert not [c for c in _captions(at) if c.startswith("Systems without †")]
    at.selectbox(key="mt_table_baseline").set_value("Delta").run()
    assert_no_exception(at)
    notes = [c for c in _captions(at) if c.startswith("Systems without † on ")]
    refs, hyps = mt_sample_text()
    data = [extract_statistics(refs, hyps, metric=m) for m in ("bleu", "chrf")]
    expected = systems_table(data, n_resamples=1000, rng=12345, baseline="Delta")
    assert len(notes) == 2
    for note, m in zip(notes, expected.metrics, strict=True):
        (system,) = expected.pvalue.index[expected.pvalue[m] >= 0.05]
        mde = normal_mde(se=expected.spread.at[system, m])
        assert note.startswith(f"Systems without † on {m} (1)") and f"{mde:.3g} {m}" in note


def test_qe_williams_grid_mde(first_run):
    from dashboard.data import samples  # noqa: F401  (the page's sample data)
    from stats.qe.graham import evaluate_qe
    from stats.readers import read_qe
    from tests.dashboard.test_app_qe import QE

    at = first_run("views/qe.py")
    assert_no_exception(at)
    note = [c for c in _captions(at) if c.startswith("QE system pairs not significant")]
    assert len(note) == 1
    w = evaluate_qe(read_qe(QE / "hter_long.txt")).williams
    mde = williams_grid_power(w, alpha=0.05).to_numpy()
    keep = np.isfinite(mde) & ~w.significant(0.05).reindex_like(
        williams_grid_power(w)).to_numpy(dtype=bool)
    assert f"({keep.sum()})" in note[0]
    assert f"{np.median(mde[keep]):.3g} r" in note[0]


def test_metrics_williams_grid_mde(first_run):
    at = first_run()
    assert_no_exception(at)
    note = [c for c in _captions(at) if c.startswith("Metric pairs not significant")]
    assert len(note) == 1 and "Williams test" in note[0] and " r (median" in note[0]


def test_leaderboard_mde(app_test):
    at = app_test("views/leaderboard.py", timeout=120)
    at.session_state["board_resamples"] = 200
    at.run()
    assert_no_exception(at)
    note = [c for c in _captions(at) if c.startswith("Metric pairs not significantly different")]
    assert len(note) == 1 and "80% power" in note[0] and "(weighted average)" in note[0]


def test_leaderboard_note_from_the_spread_of_paired_differences(monkeypatch):
    """Two tasks, three metrics; the pairs' spreads from the bootstrap resamples combined as
    the weighted average is, checked against a plain second computation."""
    from types import SimpleNamespace

    import pandas as pd

    from stats.metaeval.task_sets import average_difference_spread

    gen = np.random.default_rng(1)
    metrics = ["m1", "m2", "m3"]
    tasks = tuple(
        SimpleNamespace(task=SimpleNamespace(range=rng_),
                        bootstrap={m: gen.normal(0.5, 0.05, 50) for m in metrics})
        for rng_ in ((-1.0, 1.0), (0.0, 1.0))
    )
    weights = (0.25, 0.75)
    spread = average_difference_spread(tasks, weights, metrics)
    plain = {m: sum(w * (t.bootstrap[m] - t.task.range[0]) / (t.task.range[1] - t.task.range[0])
                    for t, w in zip(tasks, weights, strict=True)) for m in metrics}
    assert spread.at["m1", "m3"] == pytest.approx(np.std(plain["m1"] - plain["m3"]))
    pvalue = pd.DataFrame([[np.nan, 0.01, 0.3], [np.nan, np.nan, 0.2], [np.nan] * 3],
                          index=metrics, columns=metrics)
    result = SimpleNamespace(statistic=pd.Series([3.0, 2.0, 1.0], index=metrics),
                             pvalue=pvalue, tasks=tasks, weights=weights)
    shown = []
    monkeypatch.setattr(power_note.st, "caption", shown.append)
    monkeypatch.setattr(power_note.page_run, "record_note", lambda *a: None)
    text = power_note.leaderboard_mde_note(result, 0.05)
    mdes = normal_mde(se=np.array([spread.at["m1", "m3"], spread.at["m2", "m3"]]))
    assert "(2)" in text and f"{np.median(mdes):.3g} (weighted average)" in text


def test_qe_wmt_williams_grid_mde(app_test):
    from stats.metaeval.williams import williams_all_pairs
    from stats.power import williams_grid_power as grid_power
    from stats.qe.wmt import compare_qe_systems
    from stats.readers.qe_wmt import read_qe_exclude, read_qe_submissions, read_qe_wmt_gold
    from tests._qe_wmt_data import generate
    from tests.dashboard.test_app_qe_wmt import _uploads

    d = generate()
    at = app_test("views/qe.py")
    at.session_state["qe_wmt_resamples"] = 100
    at.run()
    at.file_uploader(key="qe_upload").set_value(_uploads(d, word=False)).run()
    at.radio(key="qe_wmt_primary").set_value("pearson").run()  # the Williams grid
    assert_no_exception(at)
    note = [c for c in _captions(at) if c.startswith("System pairs not significant")
            and "Williams test" in c]
    assert len(note) == 1
    lp = compare_qe_systems(
        read_qe_submissions([("s.zip", d["zip"])]),
        read_qe_wmt_gold(d["gold"].encode(), name="g"),
        exclude=read_qe_exclude(d["exclude"].encode(), name="x"),
        n_resamples=100, tests=False, rng=12345,
    ).language_pairs["en-de"]
    w = williams_all_pairs(lp.predictions.astype(float), lp.gold.to_numpy(float),
                           sign_align=False)
    mde = grid_power(w, alpha=0.05).to_numpy()
    # the note's range lies within the Williams MDEs of the language pair's tested cells
    low, high = map(float, re.search(r"median; ([\d.e-]+) to ([\d.e-]+)\)", note[0]).groups())
    assert np.nanmin(mde) * 0.995 <= low <= high <= np.nanmax(mde) * 1.005
    # the other grid (Spearman) is PERM-BOTH: its note, in the same page run, from the spread
    # of the same permutations (stats.perm_both with the grid's seed and resamples, draws kept)
    from stats import perm_both
    from stats.power.perm_both import perm_both_grid_mde

    (pb_note,) = [c for c in note_all(at) if "PERM-BOTH" in c]
    assert pb_note.startswith("System pairs not significant") and " ρ (median" in pb_note
    pb = perm_both({s: lp.predictions[s].to_numpy(float)[None, :] for s in lp.predictions},
                   lp.gold.to_numpy(float)[None, :], correlation="spearman", n_resamples=100,
                   rng=12345, return_draws=True)
    pb_mde = perm_both_grid_mde(pb).to_numpy()
    low, high = map(float, re.search(r"median; ([\d.e-]+) to ([\d.e-]+)\)", pb_note).groups())
    assert np.nanmin(pb_mde) * 0.995 <= low <= high <= np.nanmax(pb_mde) * 1.005
