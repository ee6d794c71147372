"""WMT20-24 QE sentence level: readers, the task's scoring semantics, bootstrap intervals,
pairwise grids and the average over language pairs."""

from __future__ import annotations

import io
import zipfile

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from stats import DegenerateInputWarning, StatsInputError
from stats.metaeval.perm_both.core import perm_both
from stats.metaeval.williams import williams_all_pairs
from stats.pairwise.grids import grid_significance
from stats.qe.wmt import (
    _counts,
    _weighted_kendall,
    _weighted_pearson,
    _weighted_ranks,
    bootstrap_correlations,
    compare_qe_systems,
    qe_pair_tests,
)
from stats.readers.qe_wmt import (
    qe_wmt_file_kind,
    read_qe_exclude,
    read_qe_submissions,
    read_qe_wmt_gold,
)
from tests._qe_wmt_data import generate


def _subs(d, teams=None):
    teams = teams or list(d["submissions"])
    return read_qe_submissions(
        [(f"{t}/predictions.txt", d["submissions"][t].encode()) for t in teams]
    )


def _gold(d):
    return read_qe_wmt_gold(d["gold"].encode(), name="gold.tsv")


def test_kinds_and_headers():
    d = generate()
    assert qe_wmt_file_kind(d["submissions"]["alpha"]) == "submission"
    assert qe_wmt_file_kind(d["submissions"]["gamma"]) == "submission"  # no header
    assert qe_wmt_file_kind(d["gold"]) == "gold"
    assert qe_wmt_file_kind(d["exclude"]) == "exclude"
    s = _subs(d)
    assert s.headers["beta/BETA-ens"]["parameters"].startswith("about 300M")  # free text
    assert s.headers["gamma/GAMMA"]["disk_footprint"] is None
    # systems are labelled team/method, the team from the folder of predictions.txt
    assert s.systems == [
        "alpha/ALPHA-xl",
        "beta/BETA-base",
        "beta/BETA-ens",
        "delta/DELTA-mono",
        "gamma/GAMMA",
    ]
    assert set(s.scores[s.scores.system == "delta/DELTA-mono"].lp) == {"en-de", "zh-en"}


def test_zip_of_team_folders_equals_files():
    d = generate()
    z = read_qe_submissions([("subs.zip", d["zip"])])
    f = _subs(d)
    key = ["lp", "system", "sid"]
    pd.testing.assert_frame_equal(
        z.scores.sort_values(key, ignore_index=True), f.scores.sort_values(key, ignore_index=True)
    )
    assert z.files[0] == "subs.zip:submissions/alpha/predictions.txt"


def test_folder(tmp_path):
    d = generate()
    for t, text in d["submissions"].items():
        (tmp_path / t).mkdir()
        (tmp_path / t / "predictions.txt").write_text(text)
    s = read_qe_submissions(str(tmp_path))
    assert s.systems == sorted(d["systems"].values())


@pytest.mark.parametrize(
    "text, message",
    [
        ("en-de\tA\t0\t0.5\nen-de\tA\t1\n", "line 2: expected 4 tab-separated fields"),
        ("en-de\tA\t0\t0.5\nen-de\tA\t1\tx\n", "line 2: score is not a number: 'x'"),
        ("en-de\tA\t0\t0.5\nen-de\tA\t0\t0.7\n", "the same item twice"),
        ("a\nb\nc\nd\nen-de\tA\t0\t0.5\n", "not a WMT QE submission"),
        ("en-de\tA\t0\tnan\n", "score is not finite"),
    ],
)
def test_submission_errors(text, message):
    with pytest.raises(StatsInputError, match=message):
        read_qe_submissions([("s.txt", text.encode())])


def test_gold_among_submissions_and_method_twice():
    d = generate()
    with pytest.raises(StatsInputError, match="gold.tsv: a gold-label file"):
        read_qe_submissions([("gold.tsv", d["gold"].encode())])
    # one method in two files is one submission: the same predictions are read once, noted
    text = d["submissions"]["alpha"]
    s = read_qe_submissions([("a.txt", text.encode()), ("b.txt", text.encode())])
    assert s.systems == ["ALPHA-xl"] and len(s.scores) == 120
    assert s.notes == (
        "b.txt: repeats 120 prediction(s) of 'ALPHA-xl' from a.txt with the same scores; read once",
    )
    other = text.replace("en-de\tALPHA-xl\t12\t", "en-de\tALPHA-xl\t12\t9")
    other = other.replace("\t9-", "\t9")
    with pytest.raises(
        StatsInputError,
        match=r"b.txt: method 'ALPHA-xl' scores en-de segment "
        r"12 9.*, a.txt scores it",
    ):
        read_qe_submissions([("a.txt", text.encode()), ("b.txt", other.encode())])


def test_exclude_reader():
    ex = read_qe_exclude(b"lp\tsegid\nEN-DE\t007\nen-de\t7\nzh-en\t3\textra\tcols\n", name="x")
    assert ex.values.tolist() == [["en-de", "7"], ["zh-en", "3"]]
    with pytest.raises(StatsInputError, match="x, line 3: segment number 'q' is not an integer"):
        read_qe_exclude(b"lp\tsegid\nen-de\t1\nen-de\tq\n", name="x")


def test_gold_table_z_mean():
    text = "index\toriginal\ttranslation\tscores\tmean\tz_scores\tz_mean\n"
    text += "".join(f"{i}\ts{i}\tt{i}\t[1]\t{50 + i}\t[0]\t{i / 10}\n" for i in range(5))
    g = read_qe_wmt_gold(text.encode(), name="dev.en-de.df.short.tsv")
    assert g.labels.lp.unique().tolist() == ["en-de"]
    assert g.labels.score.tolist() == [0.0, 0.1, 0.2, 0.3, 0.4]
    with pytest.raises(StatsInputError, match="no 'lp' column and no language pair"):
        read_qe_wmt_gold(text.encode(), name="dev.tsv")


def test_gold_table_errors_name_the_files_line_after_blank_lines():
    """Blank lines are skipped, not counted away: the message names the line in the file, and
    a table without an id column still numbers its rows 0, 1, ... (blank lines not counted)."""
    text = "translation\tmean\tz_mean\n\nt0\t50\t0.1\n\n\nt1\t51\tnope\n"
    with pytest.raises(StatsInputError, match=r"x.en-de.tsv, line 6: z_mean is not a number"):
        read_qe_wmt_gold(text.encode(), name="x.en-de.tsv")
    good = read_qe_wmt_gold(text.replace("nope", "0.2").encode(), name="x.en-de.tsv")
    assert good.labels.sid.tolist() == ["0", "1"]
    assert good.labels.score.tolist() == [0.1, 0.2]


def _plain(d, exclude_extra=()):
    """The task's scoring semantics, written plainly: delete the hallucination items (and the
    extra excluded ones) from gold and predictions by index, then scipy on what is left (the
    WMT23 task1_sentence_evaluate.py semantics: np.delete, then spearmanr/pearsonr/kendalltau)."""
    out = {}
    for lp, (g, methods) in d["truth"].items():
        drop = list(np.flatnonzero(np.isnan(g))) + [s for (lp2, s) in exclude_extra if lp2 == lp]
        gg = np.delete(g, drop)
        for m, p in methods.items():
            pp = np.delete(p, drop)
            out[lp, m] = (
                sps.spearmanr(gg, pp).statistic,
                sps.pearsonr(gg, pp).statistic,
                sps.kendalltau(gg, pp).statistic,
            )
    return out


@pytest.mark.parametrize("extra", [(), (("en-de", 5), ("zh-en", 11))])
def test_task_semantics_to_1e12(extra):
    d = generate()
    exclude = None
    if extra:
        exclude = read_qe_exclude("".join(f"{lp}\t{s}\n" for lp, s in extra).encode(), name="x.tsv")
    res = compare_qe_systems(
        _subs(d), _gold(d), exclude=exclude, n_resamples=20, tests=False, rng=0
    )
    plain = _plain(d, extra)
    for (lp, m), (rho, r, tau) in plain.items():
        row = res.language_pairs[lp].table.loc[d["systems"][m]]
        assert abs(row["spearman"] - rho) < 1e-12
        assert abs(row["pearson"] - r) < 1e-12
        assert abs(row["kendall"] - tau) < 1e-12
    assert res.language_pairs["en-de"].excluded == 3 + (1 if extra else 0)
    assert res.language_pairs["en-mr"].n == 37
    # the average: systems covering every language pair, mean over the pairs
    assert "delta/DELTA-mono" not in res.average.index
    method = {v: k for k, v in d["systems"].items()}
    for m in res.average.index:
        want = np.mean([plain[lp, method[m]][0] for lp in ("en-de", "zh-en", "en-mr")])
        assert abs(res.average.at[m, "spearman"] - want) < 1e-12
    assert list(res.average.index) == list(
        res.average.sort_values("spearman", ascending=False).index
    )


@pytest.mark.parametrize("n", [4, 7, 30, 65])
def test_weighted_resample_formulas_equal_scipy_on_the_resample(n):
    rng = np.random.default_rng(n)
    x = np.round(rng.normal(size=n), 1)  # ties
    y = np.round(x + rng.normal(size=n), 1)
    gen = np.random.default_rng(5)
    idx = gen.integers(0, n, size=(4, n))
    W = np.stack([np.bincount(i, minlength=n) for i in idx]).astype(float)
    r = _weighted_pearson(W, x, y)
    rho = _weighted_pearson(W, _weighted_ranks(W, x), _weighted_ranks(W, y))
    tau = _weighted_kendall(W, x, y)
    for k in range(4):  # scipy on the resample itself
        assert abs(r[k] - sps.pearsonr(x[idx[k]], y[idx[k]]).statistic) < 1e-12
        assert abs(rho[k] - sps.spearmanr(x[idx[k]], y[idx[k]]).statistic) < 1e-12
        assert abs(tau[k] - sps.kendalltau(x[idx[k]], y[idx[k]]).statistic) < 1e-12
    assert _counts(np.random.default_rng(1), 3, n).sum(axis=1).tolist() == [n, n, n]


def test_bootstrap_intervals_contain_estimate_and_are_seeded():
    rng = np.random.default_rng(1)
    g = rng.normal(size=50)
    P = pd.DataFrame({"a": g + rng.normal(size=50), "b": g + 2 * rng.normal(size=50)})
    a = bootstrap_correlations(P, g, n_resamples=300, rng=4)
    b = bootstrap_correlations(P, g, n_resamples=300, rng=4)
    pd.testing.assert_frame_equal(a.low, b.low)
    assert ((a.low <= a.statistic) & (a.statistic <= a.high)).all().all()


def test_grids_are_the_tests_they_name():
    d = generate()
    res = compare_qe_systems(_subs(d), _gold(d), primary="spearman", n_resamples=200, rng=7)
    lp = res.language_pairs["en-de"]
    assert lp.test == "perm-both"
    # the same generator state: rerun the bootstrap draws first, as compare_qe_systems does
    gen = np.random.default_rng(7)
    bootstrap_correlations(lp.predictions, lp.gold, n_resamples=200, rng=gen)
    direct = perm_both(
        {s: lp.predictions[s].to_numpy()[None, :] for s in lp.predictions},
        lp.gold.to_numpy()[None, :],
        correlation="spearman",
        n_resamples=200,
        rng=gen,
    )
    pd.testing.assert_frame_equal(
        lp.pvalue, direct.pvalue.reindex(index=lp.pvalue.index, columns=lp.pvalue.columns)
    )
    sig = grid_significance(lp.pvalue, alpha=0.05, order=list(lp.pvalue.index))
    assert lp.rank.tolist() == sig.rank.tolist()
    assert lp.table["rank"].tolist() == sig.rank.tolist()


def test_pearson_grid_is_williams_and_kendall_grid_is_perm_both():
    d = generate()
    subs, gold = _subs(d), _gold(d)
    res = compare_qe_systems(
        subs, gold, primary="pearson", correction="holm", n_resamples=20, rng=1
    )
    lp = res.language_pairs["zh-en"]
    w = williams_all_pairs(lp.predictions, lp.gold.to_numpy(), sign_align=False)
    pd.testing.assert_frame_equal(
        lp.pvalue,
        w.pvalue.reindex(index=lp.pvalue.index, columns=lp.pvalue.columns),
        check_names=False,
    )
    assert lp.test == "williams"
    assert (lp.pvalue_adjusted.fillna(1) >= lp.pvalue.fillna(1) - 1e-15).all().all()
    k = qe_pair_tests(lp.predictions, lp.gold, measure="kendall", n_resamples=50, rng=2)
    direct = perm_both(
        {s: lp.predictions[s].to_numpy()[None, :] for s in lp.predictions},
        lp.gold.to_numpy()[None, :],
        correlation="kendall",
        n_resamples=50,
        rng=2,
    )
    pd.testing.assert_frame_equal(k.pvalue, direct.pvalue)


def test_pair_tests_mde_comes_from_the_tests_just_run():
    # independent: the same PERM-BOTH run with its draws kept and the Williams grid, each
    # given to its own MDE function (stats.power)
    from stats.power import williams_grid_power
    from stats.power.perm_both import perm_both_grid_mde

    d = generate()
    lp = compare_qe_systems(_subs(d), _gold(d), tests=False, n_resamples=5).language_pairs["zh-en"]
    plain = qe_pair_tests(lp.predictions, lp.gold, measure="kendall", n_resamples=50, rng=2)
    k = qe_pair_tests(
        lp.predictions, lp.gold, measure="kendall", n_resamples=50, rng=2, mde_alpha=0.1
    )
    assert plain.mde is None
    pd.testing.assert_frame_equal(k.pvalue, plain.pvalue)  # keeping the draws changes nothing
    direct = perm_both(
        {s: lp.predictions[s].to_numpy()[None, :] for s in lp.predictions},
        lp.gold.to_numpy()[None, :],
        correlation="kendall",
        n_resamples=50,
        rng=2,
        return_draws=True,
    )
    pd.testing.assert_frame_equal(k.mde, perm_both_grid_mde(direct, alpha=0.1))
    w = qe_pair_tests(lp.predictions, lp.gold, measure="pearson", mde_alpha=0.1)
    grid = williams_all_pairs(lp.predictions, lp.gold.to_numpy(), sign_align=False)
    pd.testing.assert_frame_equal(w.mde, williams_grid_power(grid, alpha=0.1))


def test_missing_predictions_and_unknown_lp():
    d = generate()
    text = d["submissions"]["alpha"].replace("en-de\tALPHA-xl\t12\t", "en-de\tALPHA-xl\t999\t")
    subs = read_qe_submissions([("a.txt", text.encode())])
    with pytest.raises(StatsInputError, match="predictions for 1 segment"):
        compare_qe_systems(subs, _gold(d), tests=False, n_resamples=5)
    text = d["submissions"]["alpha"].replace("\nen-de\tALPHA-xl\t12\t", "\nxx-yy\tALPHA-xl\t12\t")
    with pytest.raises(StatsInputError, match="no gold labels for language pair"):
        compare_qe_systems(
            read_qe_submissions([("a.txt", text.encode())]), _gold(d), tests=False, n_resamples=5
        )


def test_wmt21_two_header_lines_and_header_free_gold():
    body = "".join(f"en-de\tM\t{i}\t{v}\n" for i, v in enumerate([0.1, 0.5, 0.3, 0.9, 0.2]))
    s = read_qe_submissions([("wmt21.txt", ("1.1GB\n560M\n" + body).encode())])
    assert s.headers["M"]["parameters"] == "560M" and s.headers["M"]["ensemble"] is None
    gold = "".join(f"en-de\tda\t{i}\t{v}\n" for i, v in enumerate([1, 4, 2, 5, 3]))
    g = read_qe_wmt_gold(gold.encode(), name="goldlabels.tsv")
    res = compare_qe_systems(s, g, tests=False, n_resamples=5, rng=0)
    want = sps.spearmanr([1, 4, 2, 5, 3], [0.1, 0.5, 0.3, 0.9, 0.2]).statistic
    assert abs(res.language_pairs["en-de"].table.at["M", "spearman"] - want) < 1e-12


def test_metadata_files_of_team_folders_are_left_out():
    d = generate()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("alpha/metadata.txt", "Team Alpha\nXLM-R large, fine-tuned on DA\n")
        zf.writestr("alpha/predictions.txt", d["submissions"]["alpha"])
    s = read_qe_submissions([("alpha.zip", buf.getvalue())])
    assert s.systems == ["alpha/ALPHA-xl"] and s.files == ("alpha.zip:alpha/predictions.txt",)


@pytest.mark.parametrize("primary", ["spearman", "pearson"])
def test_constant_system_is_not_tested_and_has_no_rank(primary):
    rng = np.random.default_rng(0)
    g = rng.normal(size=30)
    gold = "".join(f"en-de\tgold\t{i}\t{g[i]:.3f}\n" for i in range(30))
    rows = [f"en-de\tA\t{i}\t{g[i] + rng.normal():.3f}" for i in range(30)]
    rows += [f"en-de\tB\t{i}\t{rng.normal():.3f}" for i in range(30)]
    rows += [f"en-de\tC\t{i}\t0.5" for i in range(30)]
    subs = read_qe_submissions([("s.txt", "\n".join(rows).encode())])
    with pytest.warns(DegenerateInputWarning, match="en-de: correlation undefined .* for C"):
        res = compare_qe_systems(
            subs,
            read_qe_wmt_gold(gold.encode(), name="g"),
            primary=primary,
            n_resamples=50,
            rng=0,
        )
    lp = res.language_pairs["en-de"]
    assert np.isnan(lp.table.at["C", "rank"]) and lp.table.at["A", "rank"] == 1
    assert lp.pvalue_adjusted["C"].isna().all() and lp.pvalue_adjusted.loc["C"].isna().all()


def test_gold_table_with_score_column():
    text = "lp\tsrc\tmt\tscore\n" + "".join(
        f"en-mr\ts{i}\tt{i}\t{v}\n" for i, v in enumerate(["0.5", "hallucination", "-1.2", "2"])
    )
    g = read_qe_wmt_gold(text.encode(), name="train.tsv")
    assert g.labels.sid.tolist() == ["0", "1", "2", "3"]
    assert g.labels.hallucination.tolist() == [False, True, False, False]
