"""AppTest tests of the significance parts of the "Metrics vs humans" page: PERM-BOTH grids,
clusters, soft pairwise accuracy and the multiple-comparison correction on the segment-level
section; clusters, the correction and the Williams power line on the system-level view.

Expected values come from the stats workflows the CLI runs (stats.analyses.*), with the
page's settings: the page must show those numbers, not compute its own.
"""

from __future__ import annotations

import numpy as np
import plotly.io as pio
import pytest

from dashboard.sections.metrics_segment import SAMPLES
from stats.analyses import metrics_report
from stats.analyses.meta_significance import perm_both_analysis, soft_pairwise_analysis
from stats.metaeval.williams import williams_winners
from stats.pairwise.grids import grid_significance
from stats.power.williams import williams_grid_power
from stats.readers import read_meta_eval
from tests.dashboard.conftest import REPO_ROOT
from tests.dashboard.helpers import arr, assert_no_exception, frame_with

ZIP = REPO_ROOT / "sample_data" / "meta" / "wmt-sample.zip"
METRICS = REPO_ROOT / "sample_data" / "metrics"
SEGMENT_SAMPLE = next(label for label, segment in SAMPLES.items() if segment)


def _specs(at) -> list:
    return [pio.from_json(c.proto.spec) for c in at.get("plotly_chart")]


def _captions(at) -> str:
    return " ".join(c.value for c in at.caption)


def _lines(spec, yref: str = "y") -> list[float]:
    """Where a grid's cluster lines cross the rows (the horizontal ones of axis ``yref``)."""
    return sorted(sh.y0 for sh in spec.layout.shapes if sh.y0 == sh.y1 and sh.yref == yref)


def _expected_lines(rank) -> list[float]:
    return [k - 0.5 for k in np.flatnonzero(np.diff(rank.to_numpy())) + 1]


def _close(shown, expected) -> bool:
    """Hover values equal ``expected`` as printed: 3 significant digits, NaN where NaN."""
    return np.allclose(shown, expected, equal_nan=True, rtol=5e-3, atol=0)


def _grid(at, title_start: str):
    found = [s for s in _specs(at) if (s.layout.title.text or "").startswith(title_start)]
    assert found, f"no chart titled {title_start!r}"
    return found[0]


@pytest.fixture
def segment(fresh_run):
    at = fresh_run(timeout=180)
    at.selectbox(key="metrics_sample").set_value(SEGMENT_SAMPLE).run()
    at.toggle(key="meta_perm_run").set_value(True).run()
    assert_no_exception(at)
    return at


def test_perm_both_grid_clusters_and_seed(segment):
    at = segment
    assert not at.error
    expected = perm_both_analysis(
        read_meta_eval(ZIP), gold="mqm", correlation="pearson", grouping="item",
        n_resamples=1000, rng=12345,
    )  # fmt: skip
    en_de = expected[0]
    grid = _grid(at, "en-de: PERM-BOTH")
    p = arr(grid.data[0].customdata)[..., 0]
    want = en_de.result.pvalue.to_numpy(dtype=float)
    assert _close(p, want)
    assert list(grid.data[0].y) == list(en_de.result.metrics)
    lines = _expected_lines(en_de.significance.rank)
    assert lines and _lines(grid) == lines
    assert len(grid.layout.shapes) == 2 * len(lines)
    # the ranking table carries the clusters
    table = frame_with(at, "cluster")
    assert table["cluster"].to_dict() == en_de.significance.rank.to_dict()
    text = _captions(at)
    assert "1,000 permutations, random seed **12345**" in text
    assert "no multiple-comparison correction" in text and "2 x alpha" in text
    # every language pair side by side, each with its cluster lines
    overview = _grid(at, "PERM-BOTH, none correction")
    assert [a.text for a in overview.layout.annotations] == ["en-de", "zh-en"]
    assert _lines(overview, "y") == lines
    assert _lines(overview, "y2") == _expected_lines(expected[1].significance.rank)


def test_correction_seed_and_resamples_change_the_grid(segment):
    at = segment
    at.radio(key="meta_correction").set_value("holm").run()
    at.number_input(key="meta_perm_seed").set_value(7).run()
    at.number_input(key="meta_perm_resamples").set_value(200).run()
    at.radio(key="meta_alpha").set_value(0.01).run()
    assert_no_exception(at)
    expected = perm_both_analysis(
        read_meta_eval(ZIP), gold="mqm", correlation="pearson", grouping="item",
        n_resamples=200, rng=7, alpha=0.01, correction="holm",
    )[0]  # fmt: skip
    grid = _grid(at, "en-de: PERM-BOTH, Holm correction, α = 0.01")
    custom = arr(grid.data[0].customdata)
    adjusted = expected.significance.pvalue_adjusted.to_numpy(dtype=float)
    assert _close(custom[..., 0], adjusted)
    raw = expected.result.pvalue.to_numpy(dtype=float)  # the raw p in the hover
    assert _close(custom[..., 1], raw)
    assert "p (Holm)" in grid.data[0].hovertemplate
    assert _lines(grid) == _expected_lines(expected.significance.rank)
    text = _captions(at)
    assert "200 permutations, random seed **7**" in text and "Holm's method" in text


def test_soft_pairwise_accuracy_table(segment):
    at = segment
    table = frame_with(at, "average over language pairs")
    expected = soft_pairwise_analysis(read_meta_eval(ZIP), gold="mqm", n_resamples=1000, rng=12345)
    assert list(table.index) == list(expected.across_language_pairs)
    for lp, res in expected.language_pairs.items():
        for m, v in res.statistic.items():
            assert table.loc[m, lp] == pytest.approx(v, abs=1e-12)
    for m, v in expected.across_language_pairs.items():
        assert table.loc[m, "average over language pairs"] == pytest.approx(v, abs=1e-12)
    assert "Thompson et al. 2024" in _captions(at)
    # pairwise accuracy per language pair and pooled stays beside it
    assert "all language pairs" in frame_with(at, "all language pairs").columns


def test_tests_off_by_default(fresh_run):
    at = fresh_run(timeout=120)
    at.selectbox(key="metrics_sample").set_value(SEGMENT_SAMPLE).run()
    assert_no_exception(at)
    assert any("Test every pair of metrics" in i.value for i in at.info)
    assert not any("cluster" in d.value.columns for d in at.dataframe)


# ---- system-level view: Williams clusters, correction, power ----


@pytest.fixture
def system(fresh_run):
    at = fresh_run(timeout=120)
    assert_no_exception(at)
    return at


def _analysis(lp: str = "es-en"):
    analyses = metrics_report([METRICS / "human.tsv", METRICS / "metrics.tsv"])
    return next(a for a in analyses if a.key == lp)


def test_williams_clusters_correction_and_power(system):
    at = system
    w = _analysis().williams
    sig = grid_significance(w.pvalue, alpha=0.05)
    clusters = at.table[0].value
    assert list(clusters.index) == list(w.order)
    assert clusters["cluster"].tolist() == sig.rank.tolist()
    grid = _grid(at, "(b) Williams test")
    assert _lines(grid) == _expected_lines(sig.rank)
    power = williams_grid_power(w, alpha=0.05, power=0.8).stack().median()
    line = next(m.value for m in at.markdown if m.value.startswith("**Power:**"))
    assert f"with {w.n} systems, differences in r below **{power:.3f}**" in line
    assert "80% power at α = 0.05" in line

    at.radio(key="metrics_correction").set_value("bh").run()
    assert_no_exception(at)
    sig = grid_significance(w.pvalue, alpha=0.05, correction="bh")
    grid = _grid(at, "(b) Williams test, one-sided, BH")
    p = arr(grid.data[0].customdata)[..., 0]
    assert _close(p, sig.pvalue_adjusted.to_numpy(dtype=float))
    assert at.table[0].value["cluster"].tolist() == sig.rank.tolist()
    won = set(williams_winners(w))  # the WMT17-21 rule beside the clusters: raw p
    assert at.table[0].value["WMT17-21 winner"].tolist() == [
        "yes" if m in won else "no" for m in sig.rank.index
    ]
    assert "Benjamini-Hochberg" in _captions(at)
    summary = at.table[1].value
    adjusted = sig.pvalue_adjusted.to_numpy()
    assert summary.loc["es-en", "significant pairs"] == int(np.sum(adjusted < 0.05))
    counted = {m.label: m.value for m in at.metric}["Significant pairs in es-en (α = 0.05, BH)"]
    assert counted == f"{int(np.sum(adjusted < 0.05))} / 66"
    top = ", ".join(sig.rank.index[sig.rank.to_numpy() == 1])
    assert summary.loc["es-en", "top cluster (WMT22-25 rule)"] == top
    assert summary.loc["es-en", "winners (WMT17-21 rule)"] == ", ".join(williams_winners(w))
    overview = _grid(at, "Williams significance per language pair")
    assert overview.layout.shapes  # every panel's clusters

    at.radio(key="metrics_alpha").set_value(0.01).run()
    power = williams_grid_power(w, alpha=0.01, power=0.8).stack().median()
    line = next(m.value for m in at.markdown if m.value.startswith("**Power:**"))
    assert f"below **{power:.3f}**" in line and "α = 0.01" in line


def test_a_constant_metric_has_no_p_value_rank_or_cluster_on_the_page(fresh_run):
    """Undefined stays undefined on the segment-level part of the page: a constant metric in an uploaded
    wide CSV has no PERM-BOTH p-value against any other metric, no rank and no
    cluster in the ranking table."""
    rng = np.random.default_rng(2)
    rows = ["lp,system,segment,human,GOOD,BLEU,CONST"]
    for s in range(6):
        q = rng.normal()
        for seg in range(12):
            h = q + rng.normal()
            rows.append(f"en-de,sys{s},{seg},{h:.4f},{h + rng.normal(0, .5):.4f},"
                        f"{h + rng.normal(0, 1.5):.4f},0.5")  # fmt: skip
    at = fresh_run(timeout=180)
    at.file_uploader(key="metrics_upload").set_value(
        [("seg.csv", ("\n".join(rows) + "\n").encode(), "text/csv")]
    ).run()
    at.toggle(key="meta_perm_run").set_value(True).run()
    assert_no_exception(at)
    grid = _grid(at, "en-de: PERM-BOTH")
    names = list(grid.data[0].y)
    p = arr(grid.data[0].customdata)[..., 0]
    k = names.index("CONST")
    assert np.isnan(p[k]).all() and np.isnan(p[:, k]).all()
    assert np.isfinite(p[names.index("GOOD"), names.index("BLEU")])
    table = frame_with(at, "cluster")
    assert table["cluster"].isna().to_dict() == {"GOOD": False, "BLEU": False, "CONST": True}
    if "rank" in table:
        assert table["rank"].isna().to_dict()["CONST"]
