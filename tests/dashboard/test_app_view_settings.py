"""AppTest: page settings that follow real WMT files -- the default baseline for WMT's BLEU
names, language pairs too small for a Williams grid, aliases and the URL query string."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stats import DegenerateInputWarning
from tests.dashboard import test_app_metrics as metrics_page
from tests.dashboard.conftest import REPO_ROOT
from tests.dashboard.helpers import assert_no_exception

SAMPLE = REPO_ROOT / "sample_data" / "metrics"
#: Fixture: the Metrics page run once on the bundled sample.
at = metrics_page.at
#: The sample's metrics under names from WMT-12 (SIMPBLEU is another metric, not BLEU).
WMT12_NAMES = {"BLEU": "BLEU_4_closest_cased", "NIST": "SIMPBLEU", "PER": "sacreBLEU-chrF"}


def wmt_named_metrics(tmp_path: Path, renames: dict[str, str]) -> Path:
    """The sample's metrics.tsv with the metrics in ``renames`` renamed."""
    lines = SAMPLE.joinpath("metrics.tsv").read_text().splitlines(keepends=True)
    out = [lines[0]]
    for line in lines[1:]:
        metric, rest = line.split("\t", 1)
        out.append(f"{renames.get(metric, metric)}\t{rest}")
    path = tmp_path / "metrics.tsv"
    path.write_text("".join(out))
    return path


def upload(at, *paths: Path):
    metrics_page._upload(at, *paths)
    assert_no_exception(at)
    return at


def test_baseline_defaults_to_wmt_bleu_name(at, tmp_path):
    upload(at, SAMPLE / "human.tsv", wmt_named_metrics(tmp_path, WMT12_NAMES))
    box = at.selectbox(key="metrics_baseline")
    assert "SIMPBLEU" in box.options
    assert box.value == "BLEU_4_closest_cased"
    texts = " ".join(c.value for c in at.caption)
    assert r"baseline (BLEU\_4\_closest\_cased)" in texts, texts


def two_metric_lp(tmp_path: Path, lp: str = "fr-en", keep=("BLEU", "TER")) -> Path:
    """The sample's metrics.tsv with only the metrics ``keep`` left in ``lp``."""
    lines = SAMPLE.joinpath("metrics.tsv").read_text().splitlines(keepends=True)
    out = [lines[0]] + [
        line for line in lines[1:] if line.split("\t")[1] != lp or line.split("\t")[0] in keep
    ]
    path = tmp_path / "metrics.tsv"
    path.write_text("".join(out))
    return path


def test_two_metric_lp_is_explained_and_not_blown_up(at, tmp_path):
    upload(at, SAMPLE / "human.tsv", two_metric_lp(tmp_path))
    assert not any("only two metrics" in i.value for i in at.info)  # es-en has 12
    at.selectbox(key="metrics_lp").set_value("fr-en").run()
    assert_no_exception(at)
    notes = [i.value for i in at.info if "only two metrics" in i.value]
    assert len(notes) == 1, [i.value for i in at.info]
    assert "single Williams test" in notes[0] and "p = " in notes[0]
    assert any("At most one Williams test in fr-en" in c.value for c in at.caption)
    grid = next(c for c in at.get("plotly_chart") if "Williams test" in c.proto.spec[:4000])
    layout = json.loads(grid.proto.spec)["layout"]
    plot_px = layout["height"] - layout["margin"]["t"] - layout["margin"]["b"]
    assert plot_px / 2 <= 64 + 1  # two cells of at most MAX_CELL_PX, not one 300 px block


def test_grid_note_for_untestable_lp():
    from dashboard import tables
    from dashboard.data import metrics

    # B is constant: its r with humans is undefined, so no pair can be tested
    text = "system,human,A,B\ns1,1,1,2\ns2,2,3,2\ns3,3,2,2\ns4,4,4,2\ns5,5,6,2\n"
    with pytest.warns(DegenerateInputWarning, match="undefined"):
        result = metrics.analysis((("constant.csv", text.encode()),), "greater")
    lp, analysis = next(iter(result.analyses.items()))
    note = tables.williams_grid_note(lp, analysis.williams, 0.05)
    assert note is not None and "undefined" in note
    assert tables.sparse_grid_lps(result.analyses) == [lp]


def chart_layouts(at) -> list[dict]:
    """The layout of every Plotly chart the run drew (as sent to the browser)."""
    return [json.loads(c.proto.spec)["layout"] for c in at.get("plotly_chart")]


def param(at, name: str) -> list[str]:
    """A query parameter's values (AppTest gives one value as a string)."""
    value = at.query_params[name]
    return [value] if isinstance(value, str) else list(value)


def titled(at, words: str) -> dict:
    found = [lay for lay in chart_layouts(at) if words in lay.get("title", {}).get("text", "")]
    assert found, words
    return found[0]


def test_one_metric_order_in_every_overview_panel(at):
    at.selectbox(key="metrics_lp").set_value("de-en").run()
    assert_no_exception(at)
    grid = titled(at, "(b) Williams test")
    page_order = grid["yaxis"]["categoryarray"]  # the selected LP's |r| order
    heatmap = titled(at, "between metrics")
    assert heatmap["yaxis"]["categoryarray"] == page_order
    overview = titled(at, "Williams significance per language pair")
    panels = [v["categoryarray"] for k, v in overview.items() if k.startswith("yaxis")]
    assert len(panels) == 4
    # the sample's four LPs rank the same 12 metrics differently by |r| (es-en: TerrorCat
    # first, de-en: AMBER, ...), yet every panel follows the page's order
    assert all(p == page_order for p in panels)
    xpanels = [v["categoryarray"] for k, v in overview.items() if k.startswith("xaxis")]
    assert xpanels == panels


def test_url_settings_applied_on_load(app_test):
    at = app_test()
    at.query_params["lp"] = "fr-en"
    at.query_params["alpha"] = "0.01"
    at.query_params["test"] = "two-sided"
    at.query_params["metrics"] = ["NIST", "TER"]
    at.query_params["aliases"] = json.dumps({"BLEU": "BLEU-4"})
    at.run()
    assert_no_exception(at)
    assert at.selectbox(key="metrics_lp").value == "fr-en"
    assert at.radio(key="metrics_alpha").value == 0.01
    assert at.radio(key="metrics_alternative").value == "two-sided"
    assert at.multiselect(key="metrics_scatter").value == ["NIST", "TER"]
    grid = titled(at, "(b) Williams test")
    assert "BLEU-4" in grid["xaxis"]["ticktext"] and "BLEU" not in grid["xaxis"]["ticktext"]
    assert "α = 0.01" in grid["title"]["text"]


def test_url_settings_wait_for_the_upload(app_test, tmp_path):
    # the sample has no LP "xx-en": the setting waits (the URL keeps it) until an upload has it
    at = app_test()
    at.query_params["lp"] = "xx-en"
    at.run()
    assert_no_exception(at)
    assert at.selectbox(key="metrics_lp").value == "es-en"
    assert param(at, "lp") == ["xx-en"]
    lines = SAMPLE.joinpath("metrics.tsv").read_text().replace("\tfr-en\t", "\txx-en\t")
    human = SAMPLE.joinpath("human.tsv").read_text().replace("\tfr-en\t", "\txx-en\t")
    (tmp_path / "metrics.tsv").write_text(lines)
    (tmp_path / "human.tsv").write_text(human)
    upload(at, tmp_path / "human.tsv", tmp_path / "metrics.tsv")
    assert at.selectbox(key="metrics_lp").value == "xx-en"
    # from now on the user's choice is the URL's
    at.selectbox(key="metrics_lp").set_value("de-en").run()
    assert param(at, "lp") == ["de-en"]


def test_settings_written_to_url(at):
    at.radio(key="metrics_alpha").set_value(0.001).run()
    at.selectbox(key="metrics_lp").set_value("cs-en").run()
    assert param(at, "alpha") == ["0.001"]
    assert param(at, "lp") == ["cs-en"]
    assert param(at, "metrics") == at.multiselect(key="metrics_scatter").value


def test_aliases_reach_figures_and_tables(at):
    at.session_state["aliases"] = {"BLEU": "BLEU-4", "TerrorCat": "Terror Cat"}
    at.run()
    assert_no_exception(at)
    grid = titled(at, "(b) Williams test")
    assert (
        "BLEU-4" in grid["yaxis"]["categoryarray"] and "BLEU" not in grid["yaxis"]["categoryarray"]
    )
    overview = titled(at, "Williams significance per language pair")
    assert all(
        "Terror Cat" in v["categoryarray"] for k, v in overview.items() if k.startswith("yaxis")
    )
    corr = [d.value for d in at.dataframe if "pearson" in getattr(d.value, "columns", [])][0]
    assert "BLEU-4" in corr.index and "BLEU" not in corr.index
    # the URL carries them
    assert json.loads(param(at, "aliases")[0]) == {
        "BLEU": "BLEU-4",
        "TerrorCat": "Terror Cat",
    }


def _many_metrics(tmp_path, n_metrics=32, lps=("x0-en", "x1-en")):
    import numpy as np

    rng = np.random.default_rng(46)
    metrics = [f"metric-{k:02d}" for k in range(n_metrics)]
    human = ["METRIC\tLP\tTESTSET\tSYSTEM\tSCORE\n"]
    scores = ["METRIC\tLP\tTESTSET\tSYSTEM\tSCORE\n"]
    for lp in lps:
        h = rng.normal(size=10)
        human += [f"HUMAN\t{lp}\tnewstest2020\tsys{s}\t{h[s]:.4f}\n" for s in range(10)]
        for m in metrics:
            v = h + rng.normal(scale=0.8, size=10)
            scores += [f"{m}\t{lp}\tnewstest2020\tsys{s}\t{v[s]:.4f}\n" for s in range(10)]
    (tmp_path / "human.tsv").write_text("".join(human))
    (tmp_path / "metrics.tsv").write_text("".join(scores))
    return tmp_path / "human.tsv", tmp_path / "metrics.tsv", metrics


def test_all_pairs_panels_name_their_metrics(fresh_run, tmp_path):
    # over 30 metrics the overview is one mosaic without tick labels: a caption names the
    # metrics in the one order every panel shares; presentation mode draws a labelled grid per
    # language pair instead (a projector or a PDF has no hover)
    from dashboard.state import PRESENTATION_KEY

    human, scores, metrics = _many_metrics(tmp_path)
    at = fresh_run()
    upload(at, human, scores)
    (caption,) = [c.value for c in at.caption if c.value.startswith("Rows and columns")]
    assert all(m.replace("-", "\\-") in caption or m in caption for m in metrics)
    at.sidebar.toggle(key=PRESENTATION_KEY).set_value(True).run()
    assert_no_exception(at)
    layouts = chart_layouts(at)
    per_lp = [
        lay for lay in layouts
        if "Williams significance per language pair" in str(lay.get("title", {}).get("text"))
    ]  # fmt: skip
    assert len(per_lp) == 2, [str(lay.get("title")) for lay in layouts]
    orders = [list(lay["yaxis"]["categoryarray"]) for lay in per_lp]
    assert orders[0] == orders[1] and sorted(orders[0]) == sorted(metrics)
    assert not [c for c in at.caption if c.value.startswith("Rows and columns")]
