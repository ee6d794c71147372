"""AutoRank (stats.mt.automatic_ranking) against a plain second implementation on generated files in the
published WMT25 layout, and its paired bootstrap against an independent resampling loop.

The second implementation below reads the JSON lines itself and follows the WMT25 definition
word by word in plain Python (lists, statistics.median, a hand-written linear percentile); it
shares no code with stats."""

from __future__ import annotations

import json
import math
import statistics
import warnings

import numpy as np
import pandas as pd
import pytest

from stats import DegenerateInputWarning, StatsInputError
from stats.analyses import autorank_analysis
from stats.mt.automatic_ranking import (
    autorank,
    autorank_bootstrap,
    autorank_latex,
    autorank_metrics,
    paragraph_correlations,
)
from stats.readers.wmt25 import read_wmt25_scores
from tests._wmt25_data import generate

# ---- the plain second implementation -------------------------------------------------------


def _percentile(xs, q):
    """numpy's default ('linear') percentile written out: h = (n - 1) q / 100."""
    xs = sorted(xs)
    h = (len(xs) - 1) * q / 100
    lo = math.floor(h)
    if lo + 1 >= len(xs):
        return xs[-1]
    return xs[lo] + (h - lo) * (xs[lo + 1] - xs[lo])


def _plain_means(files: dict[str, bytes], lp: str) -> dict[str, dict[str, float]]:
    """{system: {metric: mean of its non-null paragraph values in lp}} from the raw lines."""
    out: dict[str, dict[str, list]] = {}
    for name, data in files.items():
        system = name[: -len(".jsonl")]
        for line in data.decode().splitlines():
            if not line.strip():
                continue
            rec = json.loads(line)
            if rec["language_pair"] != lp:
                continue
            for metric, values in rec["metric_scores"].items():
                out.setdefault(system, {}).setdefault(metric, []).extend(
                    v for v in values if v is not None
                )
    return {s: {m: sum(v) / len(v) for m, v in ms.items() if v} for s, ms in out.items()}


def _plain_autorank(means: dict[str, dict[str, float]], metrics) -> dict[str, float]:
    z: dict[str, list] = {s: [] for s in means}
    for m in metrics:
        have = {s: v[m] for s, v in means.items() if m in v}
        xs = list(have.values())
        scale = _percentile(xs, 100) - _percentile(xs, 25)
        if scale == 0:
            scale = 1.0
        med = statistics.median(xs)
        for s, x in have.items():
            z[s].append((x - med) / scale)
    zbar = {s: sum(v) / len(v) for s, v in z.items() if v}
    hi, lo = max(zbar.values()), min(zbar.values())
    n = len(zbar)
    return {s: 1 + (n - 1) * (hi - v) / (hi - lo) for s, v in zbar.items()}


FILES = generate(7)


@pytest.fixture(scope="module")
def scores():
    return read_wmt25_scores(list(FILES.items()))


@pytest.mark.parametrize("lp", ["en-cs_CZ", "en-ja_JP", "en-de_DE", "en-bho_IN"])
def test_autorank_and_means_equal_plain_implementation(scores, lp):
    metrics = [m for m in autorank_metrics(lp) if m in scores.metrics_of(lp)]
    res = autorank(scores.language_pair(lp), metrics=metrics, lp=lp,
                   document=("domain", "document"))  # fmt: skip
    means = _plain_means(FILES, lp)
    expected = _plain_autorank(means, metrics)
    assert set(res.systems) == set(expected)
    for s, v in expected.items():
        assert res.autorank[s] == pytest.approx(v, abs=1e-10), s
        for m in metrics:
            if m in means[s]:
                assert res.scores.at[s, m] == pytest.approx(means[s][m], rel=1e-12)
            else:
                assert np.isnan(res.scores.at[s, m])
    assert list(res.autorank) == sorted(res.autorank)


def test_the_layout_cases_are_in_the_files(scores):
    # nulls, a metric absent for a system in a pair, a system without a pair, chrF++ only
    assert any("null value" in n for n in scores.notes)
    assert any("CometKiwi-XL absent for 1 system" in n and "Harbor" in n for n in scores.notes)
    assert any(n.startswith("en-ja_JP: 1 of 8 systems have no lines (Cirrus)") for n in scores.notes)
    assert scores.metrics_of("en-bho_IN") == ("chrF++",)
    res = autorank(scores.language_pair("en-ja_JP"), metrics=["XCOMET-XL"], lp="en-ja_JP")
    assert "Cirrus" not in res.systems and len(res.systems) == 7
    cs = autorank(scores.language_pair("en-cs_CZ"), metrics=autorank_metrics("en-cs_CZ"),
                  document=("domain", "document"))  # fmt: skip
    assert np.isnan(cs.z.at["Harbor", "CometKiwi-XL"])  # its zbar uses the other four
    assert cs.zbar["Harbor"] == pytest.approx(cs.z.loc["Harbor"].dropna().mean())


def test_user_metric_set_equals_plain_implementation(scores):
    lp, metrics = "en-de_DE", ["XCOMET-XL", "GEMBA-ESA-CMDA"]
    res = autorank(scores.language_pair(lp), metrics=metrics, document=("domain", "document"))
    expected = _plain_autorank(_plain_means(FILES, lp), metrics)
    for s, v in expected.items():
        assert res.autorank[s] == pytest.approx(v, abs=1e-10)


def test_wmt25_preset():
    assert autorank_metrics("en-mas_KE") == ("chrF++",)
    assert "CometKiwi-XL" in autorank_metrics("en-ja_JP")
    assert "CometKiwi-XL" not in autorank_metrics("en-it_IT")  # human-evaluated, no reference
    with pytest.raises(StatsInputError, match="preset"):
        autorank_metrics("en-de_DE", preset="wmt24")


def test_degenerate_metric_left_out_with_a_warning_and_no_change():
    frame = pd.DataFrame({"system": list("AABBCCDD"), "document": ["d1", "d2"] * 4,
                          "m": [0.9, 0.8, 0.5, 0.7, 0.2, 0.4, 0.1, 0.3],
                          "flat": [5.0] * 8})  # fmt: skip
    with pytest.warns(DegenerateInputWarning, match="flat: the same mean"):
        both = autorank(frame, metrics=["m", "flat"])
    alone = autorank(frame, metrics=["m"])
    pd.testing.assert_series_equal(both.autorank, alone.autorank)
    assert both.left_out == ("flat",) and both.metrics == ("m",)


def test_scale_zero_uses_one_as_the_organisers_script():
    # five systems, four sharing the best mean: P25 = P100, the scale is 0
    frame = pd.DataFrame({"system": list("ABCDE"), "document": "d",
                          "m": [1.0, 1.0, 1.0, 1.0, 0.0], "k": [0.4, 0.3, 0.2, 0.1, 0.0]})  # fmt: skip
    with pytest.warns(DegenerateInputWarning, match="scaled by 1"):
        res = autorank(frame, metrics=["m", "k"])
    assert res.z.at["E", "m"] == pytest.approx(-1.0)  # (0 - 1) / 1


def test_too_few_systems_and_bad_arguments():
    frame = pd.DataFrame({"system": ["A", "B"], "document": "d", "m": [1.0, 0.0]})
    with pytest.raises(StatsInputError, match="AutoRank needs at least 3"):
        autorank(frame, metrics=["m"], lp="xx")
    with pytest.raises(StatsInputError, match="not among the metrics"):
        autorank(frame, metrics=["nope"])
    with pytest.raises(StatsInputError, match="rng"):
        autorank_bootstrap(frame, metrics=["m"], rng="x")
    with pytest.raises(StatsInputError, match="n_resamples"):
        autorank_bootstrap(frame, metrics=["m"], n_resamples=0)


# ---- the bootstrap -------------------------------------------------------------------------


def _small(seed=3, n_docs=25, qualities=(1.0, 0.6, 0.55, 0.2, 0.0)):
    """Paragraph scores of a few systems: a skewed metric and an integer one with nulls, each
    document with a difficulty all systems share."""
    g = np.random.default_rng(seed)
    k = len(qualities)
    n = g.integers(1, 5, n_docs)  # paragraphs per document, the same for every system
    doc = np.repeat(np.arange(n_docs), n)
    difficulty = np.repeat(g.normal(0, 0.5, n_docs), n)
    system = np.repeat(np.array(list("ABCDEFG"[:k])), doc.size)
    base = np.repeat(np.asarray(qualities), doc.size) - np.tile(difficulty, k)
    m1 = base + g.gamma(1.0, 0.4, base.size)  # skewed
    m2 = np.round(50 + 20 * base + g.normal(0, 10, base.size))  # integers, ties
    m2[g.random(base.size) < 0.05] = np.nan  # nulls
    docs = np.array([f"d{i}" for i in range(n_docs)], dtype=object)
    return pd.DataFrame({"system": system, "document": docs[np.tile(doc, k)], "m1": m1, "m2": m2})


def _by_document(frame, metrics):
    """{system: {document: {metric: [non-null values]}}}, built once in plain Python."""
    out: dict = {}
    for row in frame.itertuples(index=False):
        cell = out.setdefault(row.system, {}).setdefault(row.document, {m: [] for m in metrics})
        for m in metrics:
            v = getattr(row, m)
            if not math.isnan(v):
                cell[m].append(v)
    return out


def _plain_draw(table, docs_drawn, metrics):
    """AutoRank of one resample: each drawn document's values, as often as it is drawn."""
    means = {}
    for s, by_doc in table.items():
        means[s] = {}
        for m in metrics:
            total, count = 0.0, 0
            for d in docs_drawn:
                vals = by_doc.get(d, {}).get(m, [])
                total += sum(vals)
                count += len(vals)
            means[s][m] = total / count
    return _plain_autorank(means, metrics)


def test_bootstrap_equals_a_loop_over_the_same_draws():
    frame = _small()
    docs = list(pd.unique(frame["document"]))
    res = autorank_bootstrap(frame, metrics=["m1", "m2"], n_resamples=40, rng=11)
    g = np.random.default_rng(11)
    u = g.random((40, len(docs)))
    idx = np.minimum((u * len(docs)).astype(int), len(docs) - 1)
    table = _by_document(frame, ["m1", "m2"])
    for b in range(40):
        ar = _plain_draw(table, [docs[i] for i in idx[b]], ["m1", "m2"])
        got = dict(zip(res.systems, res.distribution[b], strict=True))
        for s, v in ar.items():
            assert got[s] == pytest.approx(v, abs=1e-9)


def test_bootstrap_against_an_independent_resampling_loop():
    """Intervals and p-values within Monte Carlo error of a loop with its own draws
    (integers from another generator)."""
    frame = _small(seed=5, n_docs=30)
    docs = list(pd.unique(frame["document"]))
    r1, r2 = 2000, 600
    res = autorank_bootstrap(frame, metrics=["m1", "m2"], n_resamples=r1, rng=2)
    g = np.random.default_rng(99)
    loop = []
    table = _by_document(frame, ["m1", "m2"])
    for _ in range(r2):
        ar = _plain_draw(table, [docs[i] for i in g.integers(0, len(docs), len(docs))],
                         ["m1", "m2"])  # fmt: skip
        loop.append([ar[s] for s in res.systems])
    loop = np.array(loop)
    for k, s in enumerate(res.systems):
        ours, theirs = res.distribution[:, k], loop[:, k]
        se = math.sqrt(ours.var() / r1 + theirs.var() / r2)
        assert abs(ours.mean() - theirs.mean()) < 4 * se + 1e-9, s
        for q, end in ((0.025, res.interval_low[s]), (0.975, res.interval_high[s])):
            share = (theirs < end).mean() if q < 0.5 else (theirs <= end).mean()
            assert abs(share - q) < 4 * math.sqrt(q * (1 - q) / r2) + 0.02, (s, q, share)
    # pairwise p: (c + 1) / (R + 1) with c = resamples where the better system does not win
    for i, a in enumerate(res.systems):
        for j, b in enumerate(res.systems[i + 1 :], start=i + 1):
            c = (loop[:, i] >= loop[:, j]).sum()  # AutoRank: lower is better
            p_loop = (c + 1) / (r2 + 1)
            p = res.pvalue.at[a, b]
            tol = 4 * math.sqrt(max(p, 1 / r2) * (1 - p) * (1 / r1 + 1 / r2)) + 2 / r2
            assert abs(p - p_loop) < tol, (a, b, p, p_loop)
            assert np.isnan(res.pvalue.at[b, a])


def test_bootstrap_at_the_null_rejects_at_alpha():
    """Two systems of equal quality (skewed, tied integer scores): the two-sided paired
    bootstrap p rejects at 0.05 about 5% of the time (percentile bootstrap: allow 2-10%); the
    one-sided p in the observed direction ('greater', the grids' reading) about 2 x 5%, as the
    sidedness note says."""
    rejected = {"two-sided": 0, "greater": 0}
    n_sets = 200
    for k in range(n_sets):
        frame = _small(seed=1000 + k, n_docs=40, qualities=(1.0, 0.5, 0.5, 0.0))
        for alternative in rejected:
            res = autorank_bootstrap(frame, metrics=["m1", "m2"], n_resamples=199, rng=k,
                                     alternative=alternative)  # fmt: skip
            rejected[alternative] += res.pvalue.loc[["B", "C"], ["B", "C"]].min().min() < 0.05
    assert 0.02 <= rejected["two-sided"] / n_sets <= 0.10, rejected
    assert 0.06 <= rejected["greater"] / n_sets <= 0.20, rejected


def test_clusters_use_the_projects_grid_rule():
    frame = _small(seed=8, n_docs=40)
    res = autorank_bootstrap(frame, metrics=["m1", "m2"], n_resamples=300, rng=4,
                             correction="holm")  # fmt: skip
    from stats.pairwise.grids import grid_significance

    again = grid_significance(res.pvalue, alpha=0.05, correction="holm")
    pd.testing.assert_series_equal(res.significance.rank, again.rank)
    flat = [s for c in res.clusters for s in c]
    assert tuple(flat) == res.systems
    n = res.neighbours()
    assert list(n["better"]) == list(res.systems[:-1])


def test_few_documents_and_one_document():
    frame = pd.DataFrame({"system": list("ABC"), "document": "d", "m": [3.0, 2.0, 1.0]})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = autorank_bootstrap(frame, metrics=["m"], n_resamples=20, rng=1)
    assert any("cannot vary" in str(w.message) for w in caught)
    assert res.interval_low.isna().all() and res.pvalue.isna().all().all()


def test_rng_same_seed_same_result_and_generator_accepted():
    frame = _small()
    a = autorank_bootstrap(frame, metrics=["m1"], n_resamples=50, rng=3)
    b = autorank_bootstrap(frame, metrics=["m1"], n_resamples=50, rng=np.random.default_rng(3))
    np.testing.assert_array_equal(a.distribution, b.distribution)
    assert a.seed == 3 and b.seed is None


def test_paragraph_correlations_equal_scipy():
    from scipy.stats import pearsonr

    frame = _small()
    r = paragraph_correlations(frame, metrics=["m1", "m2"])
    both = frame[["m1", "m2"]].dropna()
    assert r.at["m1", "m2"] == pytest.approx(pearsonr(both["m1"], both["m2"])[0], abs=1e-12)


def test_latex_table(scores):
    res = autorank_bootstrap(scores.language_pair("en-cs_CZ"), metrics=autorank_metrics("en-cs_CZ"),
                             document=("domain", "document"), n_resamples=100, rng=1)  # fmt: skip
    text = autorank_latex(res)
    assert r"\toprule" in text and r"\cellcolor{green!" in text and "XCOMET-XL" in text
    assert text.count(r"\midrule") >= 1


def test_workflow_seeds_each_pair_on_its_own(scores):
    one = autorank_analysis(scores, lps=["en-de_DE"], n_resamples=50, rng=5)
    two = autorank_analysis(scores, lps=["en-cs_CZ", "en-de_DE"], n_resamples=50, rng=5)
    np.testing.assert_array_equal(
        one.pair("en-de_DE").bootstrap.distribution, two.pair("en-de_DE").bootstrap.distribution
    )
    assert one.read_as.startswith("read as WMT25 automatic scores: 8 systems, 4 language pairs")


def test_workflow_takes_one_pair_or_metric_as_a_string(scores):
    one = autorank_analysis(scores, lps="en-de_DE", metrics="XCOMET-XL", intervals=False)
    assert [r.lp for r in one.language_pairs] == ["en-de_DE"]
    assert one.language_pairs[0].metrics == ("XCOMET-XL",)


# ---- the same paragraphs as arrays (the workflow's path without a DataFrame) ---------------


def _assert_point_identical(a, b):
    """Two AutoRankResults equal bit for bit (values, order, names, notes)."""
    assert a.systems == b.systems and a.metrics == b.metrics and a.left_out == b.left_out
    assert a.notes == b.notes and a.n_documents == b.n_documents
    for x, y in ((a.autorank, b.autorank), (a.zbar, b.zbar)):
        np.testing.assert_array_equal(x.to_numpy(), y.to_numpy())
    for x, y in ((a.z, b.z), (a.scores, b.scores), (a.n_values, b.n_values)):
        np.testing.assert_array_equal(x.to_numpy(), y.to_numpy())
        assert list(x.columns) == list(y.columns) and list(x.index) == list(y.index)


@pytest.mark.parametrize("lp", ["en-cs_CZ", "en-ja_JP", "en-de_DE", "en-bho_IN"])
def test_arrays_give_the_frames_autorank_bit_for_bit(scores, lp):
    from stats.mt.automatic_ranking import ParagraphArrays

    arrays = ParagraphArrays(**scores.language_pair_arrays(lp)._asdict())
    frame = scores.language_pair(lp)
    metrics = autorank_metrics(lp)
    _assert_point_identical(
        autorank(arrays, metrics=metrics, lp=lp),
        autorank(frame, metrics=metrics, lp=lp, document="doc"),
    )
    a = autorank_bootstrap(arrays, metrics=metrics, lp=lp, n_resamples=30, rng=3)
    b = autorank_bootstrap(frame, metrics=metrics, lp=lp, document="doc", n_resamples=30, rng=3)
    np.testing.assert_array_equal(a.distribution, b.distribution)
    np.testing.assert_array_equal(a.pvalue.to_numpy(), b.pvalue.to_numpy())
    assert a.clusters == b.clusters
    pd.testing.assert_frame_equal(
        paragraph_correlations(arrays, metrics=arrays.metrics),
        paragraph_correlations(frame, metrics=list(arrays.metrics)),
        check_exact=True,
    )


def test_arrays_of_a_language_pair_are_its_frames_rows(scores):
    lp = "en-ja_JP"  # a system without lines there (Cirrus)
    arrays = scores.language_pair_arrays(lp)
    frame = scores.language_pair(lp)
    assert arrays.metrics == scores.metrics_of(lp)
    np.testing.assert_array_equal(arrays.values, frame[list(arrays.metrics)].to_numpy())
    assert [arrays.systems[i] for i in arrays.system] == frame["system"].tolist()
    np.testing.assert_array_equal(arrays.document, frame["doc"].to_numpy())


def test_workflow_without_team_filter_equals_the_frame_path(scores):
    res = autorank_analysis(scores, intervals=False)
    for pair in res.language_pairs:
        frame = scores.language_pair(pair.lp)
        expected = autorank(frame, metrics=autorank_metrics(pair.lp), lp=pair.lp, document="doc")
        _assert_point_identical(pair.point, expected)
        present = list(scores.metrics_of(pair.lp))
        pd.testing.assert_series_equal(pair.n_paragraphs, frame[present].notna().sum())
        pd.testing.assert_frame_equal(
            pair.correlations, paragraph_correlations(frame, metrics=present), check_exact=True
        )


def test_arrays_refused_with_one_line_messages():
    from stats.mt.automatic_ranking import ParagraphArrays

    def arrays(**kw):
        base = {"values": np.array([[1.0], [2.0], [3.0]]), "metrics": ("m",),
                "system": np.array([0, 1, 2]), "systems": ("A", "B", "C"),
                "document": np.array([0, 0, 0])}  # fmt: skip
        return ParagraphArrays(**{**base, **kw})

    assert autorank(arrays(), metrics=["m"]).systems == ("C", "B", "A")
    cases = [
        (arrays(), ["x"], "metrics: x not among the metrics"),
        (arrays(values=np.array([1.0, 2.0, 3.0])), ["m"], "values of shape (3,)"),
        (arrays(system=np.array([0, 1])), ["m"], "2 system codes"),
        (arrays(system=np.array([0, 1, 3])), ["m"], "system codes must lie in [0, 3)"),
        (arrays(document=np.array([0.0, 0.0, 0.0])), ["m"], "must be integers"),
        (arrays(values=np.array([[1.0], [np.inf], [3.0]])), ["m"], "infinite values"),
        (arrays(system=np.array([0, 1, 1])), ["m"], "AutoRank needs at least 3"),
    ]
    for given, metrics, message in cases:
        with pytest.raises(StatsInputError) as err:
            autorank(given, metrics=metrics)
        assert message in str(err.value) and "\n" not in str(err.value)
