"""AppTest: the Metrics-vs-humans page (default page) with sample data, uploads, controls,
malformed files and presentation mode. Uploads go through AppTest's file_uploader support."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
import streamlit as st

from dashboard.state import PRESENTATION_KEY
from tests.dashboard.conftest import REPO_ROOT
from tests.dashboard.helpers import arr, assert_no_exception, files

SAMPLE = REPO_ROOT / "sample_data" / "metrics"


def _charts(at):
    return at.get("plotly_chart")


def _texts(at):
    return " ".join(
        [m.value for m in at.markdown] + [c.value for c in at.caption] + [i.value for i in at.info]
    )


def _upload(at, *paths: Path):
    tsv = files(*paths, mime="text/tab-separated-values")
    at.file_uploader(key="metrics_upload").set_value(tsv).run()
    return at


@pytest.fixture
def at(fresh_run):
    at = fresh_run()
    assert_no_exception(at)
    return at


def test_opens_on_sample_data_with_note_and_all_figures(at):
    assert at.title[0].value == "Metrics vs humans"
    assert any("synthetic sample data" in i.value for i in at.info)
    assert len(_charts(at)) == 5  # dots, scatter, heatmap, grid, all-LP grids
    assert at.selectbox(key="metrics_lp").options == ["es-en", "de-en", "fr-en", "cs-en"]
    assert at.selectbox(key="metrics_baseline").value == "BLEU"
    assert at.multiselect(key="metrics_scatter").value == ["TerrorCat", "BLEU"]
    assert "not a ranking" in _texts(at)
    assert not at.error


def test_every_control_has_a_key_and_reruns_cleanly(at):
    at.radio(key="metrics_alpha").set_value(0.001).run()
    at.radio(key="metrics_alternative").set_value("two-sided").run()
    at.radio(key="metrics_kind").set_value("Kendall").run()
    at.toggle(key="metrics_zscore").set_value(True).run()
    at.selectbox(key="metrics_lp").set_value("fr-en").run()
    at.selectbox(key="metrics_baseline").set_value("TER").run()
    at.multiselect(key="metrics_scatter").set_value(["NIST", "METEOR", "TER"]).run()
    assert_no_exception(at)
    assert not at.error
    assert len(_charts(at)) == 5
    assert "two-sided" in _texts(at)
    assert at.subheader[0].value.endswith("fr-en")


def test_upload_two_files_replaces_sample(at):
    _upload(at, SAMPLE / "human.tsv", SAMPLE / "metrics.tsv")
    assert_no_exception(at)
    assert not any("synthetic sample data" in i.value for i in at.info)
    assert len(_charts(at)) == 5
    assert at.selectbox(key="metrics_lp").options == ["es-en", "de-en", "fr-en", "cs-en"]


def test_upload_wide_csv_single_lp(at):
    _upload(at, SAMPLE / "es-en_wide.csv")
    assert not at.exception and not at.error
    assert at.selectbox(key="metrics_lp").options == ["es-en"]
    assert len(_charts(at)) == 5


def test_malformed_file_gives_error_not_exception(at):
    bad = ("broken.tsv", b"METRIC\tLP\tTESTSET\tSYSTEM\tSCORE\nBLEU\tes-en\tt\tsysA\tabc\n", "")
    at.file_uploader(key="metrics_upload").set_value([bad]).run()
    assert_no_exception(at)
    assert len(at.error) == 1
    msg = at.error[0].value
    assert "broken.tsv" in msg and "line 2" in msg
    assert len(_charts(at)) == 0  # page stopped after the error


def test_human_without_metrics_names_the_problem(at):
    _upload(at, SAMPLE / "human.tsv")
    assert not at.exception
    assert len(at.error) == 1 and "no metric scores" in at.error[0].value


def test_lp_with_missing_human_is_a_warning_others_still_shown(at, tmp_path):
    extra = tmp_path / "extra.tsv"
    extra.write_text(
        "METRIC\tLP\tTESTSET\tSYSTEM\tSCORE\n"
        + "".join(f"BLEU\tzz-en\tt\ts{i}\t{i}\n" for i in range(5))
    )
    _upload(at, SAMPLE / "human.tsv", SAMPLE / "metrics.tsv", extra)
    assert not at.exception and not at.error
    # one collapsed summary of what was left out, not a warning box
    assert "zz-en" in _texts(at) and "without human scores" in _texts(at)
    assert "human-score file" not in _texts(at)  # it asks for no file that was uploaded
    assert not at.warning
    assert "zz-en" not in at.selectbox(key="metrics_lp").options
    assert len(_charts(at)) == 5


def test_presentation_mode_collapses_controls_and_still_renders(at):
    at.sidebar.toggle(key=PRESENTATION_KEY).set_value(True).run()
    assert not at.exception
    assert at.session_state[PRESENTATION_KEY] is True
    assert at.expander[0].proto.expanded is False
    assert len(_charts(at)) == 5


def test_export_buttons_present_for_figures_and_tables(at):
    keys = {b.key for b in at.get("download_button")}
    for k in ("metrics_grid_png", "metrics_grid_svg", "metrics_heatmap_png",
              "metrics_pvalues_csv", "metrics_pvalues_tex", "metrics_summary_csv",
              "metrics_summary_tex", "metrics_corr_table_csv", "metrics_all_grids_svg"):  # fmt: skip
        assert k in keys, k


def test_constant_metric_and_two_testsets_render_with_warning(at):
    rows = ["system,human,BLEU,Flat,chrF,lp"]
    for i in range(8):
        rows.append(f"s{i},{0.1 * i:.2f},{10 + 3 * i + (i % 3)},5.0,{40 + 2 * i - (i % 2)},xx-en")
    wide = "\n".join(rows) + "\n"
    wmt = "METRIC\tLP\tTESTSET\tSYSTEM\tSCORE\n" + "".join(
        f"{m}\tyy-en\t{t}\tsys{i}\t{v + i * (1 + k)}\n"
        for k, t in enumerate(("nt2012", "nt2013"))
        for m, v in (("HUMAN", 0.1), ("BLEU", 20.0), ("TER", -0.5))
        for i in range(6)
    )
    at.file_uploader(key="metrics_upload").set_value(
        [("flat.csv", wide.encode(), "text/csv"), ("two_sets.tsv", wmt.encode(), "text/plain")]
    ).run()
    assert_no_exception(at)
    assert not at.error
    assert at.selectbox(key="metrics_lp").options == [
        "xx-en",
        "yy-en / nt2012",
        "yy-en / nt2013",
    ]
    assert any("Flat" in w.value for w in at.warning)  # degenerate input is reported
    assert len(_charts(at)) == 5
    # undefined is undefined: the constant metric has no cluster, is no winner, and its row
    # and column of the grid carry no p-value
    clusters = at.table[0].value
    assert pd.isna(clusters.loc["Flat", "cluster"])
    assert clusters.loc["Flat", "WMT17-21 winner"] == "-"
    assert clusters["cluster"].drop("Flat").notna().all()
    summary = at.table[1].value
    assert "Flat" not in summary.loc["xx-en", "top cluster (WMT22-25 rule)"]
    assert "Flat" not in summary.loc["xx-en", "winners (WMT17-21 rule)"]
    specs = [json.loads(c.proto.spec) for c in _charts(at)]
    grid = next(g for g in specs if "(b) Williams" in str(g["layout"].get("title", "")))
    names = [shape.get("name") for shape in grid["layout"].get("shapes", [])]
    assert "no cluster (undefined)" in names
    at.selectbox(key="metrics_lp").set_value("yy-en / nt2013").run()
    assert not at.exception and len(_charts(at)) == 5


def test_scatter_selection_can_be_cleared_and_resets_on_lp_change(at):
    at.multiselect(key="metrics_scatter").set_value([]).run()
    assert not at.exception
    assert at.multiselect(key="metrics_scatter").value == []
    assert any("Choose metrics" in i.value for i in at.info)
    assert len(_charts(at)) == 4  # no scatter figure
    at.multiselect(key="metrics_scatter").set_value(["SAGAN"]).run()
    at.selectbox(key="metrics_lp").set_value("cs-en").run()  # SAGAN exists there too: kept
    assert at.multiselect(key="metrics_scatter").value == ["SAGAN"]
    assert len(_charts(at)) == 5


def test_binary_upload_is_an_error_naming_the_file(at):
    png = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    at.file_uploader(key="metrics_upload").set_value([("figure.png", png, "image/png")]).run()
    assert_no_exception(at)
    assert len(at.error) == 1 and "figure.png" in at.error[0].value


def _specs(at) -> dict:
    """The page's figures in page order (dots, scatter, heatmap, grid, overview), decoded by
    plotly itself."""
    import plotly.io as pio

    return {i: pio.from_json(c.proto.spec) for i, c in enumerate(_charts(at))}


def test_alpha_recolours_grid_overview_and_summary(at):
    # the sample (12 metrics): labelled subplots in the overview, one per LP
    overview = _specs(at)[4]
    assert [a.text for a in overview.layout.annotations] == ["es-en", "de-en", "fr-en", "cs-en"]
    assert len(overview.data) == 4 and overview.layout.xaxis4.showticklabels
    # one row per LP, a static table (redrawn with every alpha), after the clusters of es-en
    summary = at.table[1].value
    assert list(summary.index) == ["es-en", "de-en", "fr-en", "cs-en"]
    before = summary["share significant"].tolist()
    label = next(m.label for m in at.metric if m.label.startswith("Significant pairs in es-en"))
    assert label.endswith("(α = 0.05)")
    at.radio(key="metrics_alpha").set_value(0.001).run()
    assert_no_exception(at)
    specs = _specs(at)
    for spec in (specs[3], specs[4]):  # grid and overview: the colour bar marks the new alpha
        assert spec.layout.coloraxis.colorbar.ticktext[:2] == ("≥ 0.001 (n.s.)", "0.001 (α)")
    assert "α = 0.001" in specs[3].layout.title.text
    after = at.table[1].value["share significant"].tolist()
    assert after != before and all(a <= b for a, b in zip(after, before, strict=True))
    assert any(m.label == "Significant pairs in es-en (α = 0.001)" for m in at.metric)


def test_many_metrics_overview_is_one_mosaic(at, tmp_path):
    from benchmarks.dashboard_render import make_scores
    from dashboard.figures import style

    path = tmp_path / "big.tsv"
    lps = make_scores(path, 4, 12, 40, seed=3)  # 40 metrics > MAX_OVERVIEW_DETAIL
    _upload(at, path)
    assert_no_exception(at)
    overview = _specs(at)[4]
    assert [t.name for t in overview.data] == lps  # one heatmap per LP ...
    assert "xaxis2" not in overview.layout.to_plotly_json()  # ... on one pair of axes
    titles = [a.text for a in overview.layout.annotations]
    assert titles[: len(lps)] == lps  # each block titled by its LP, then the two axis titles
    assert titles[len(lps) :][0].startswith("column:") and titles[-1].startswith("row:")
    z = arr(overview.data[0].z)
    assert z.shape == (40, 40)
    assert (z == style.NOT_SIGNIFICANT_Z).any() and (z >= 0).any()
    at.radio(key="metrics_alpha").set_value(0.01).run()
    z01 = arr(_specs(at)[4].data[0].z)
    assert (z01 >= 0).sum() < (z >= 0).sum()  # fewer cells significant at 0.01


def test_first_page_asks_for_the_chart_and_table_code_first(at):
    """The shell's first element has the browser load plotly.js and the table grid while the
    page computes (dashboard/app.py; benchmarks/first_page.py measures it): both chunks exist in
    the Streamlit installed (a renamed chunk would silently lose the head start)."""
    (preload,) = [e for e in at.sidebar.get("html") if "import(" in e.proto.body]
    found = re.findall(r'import\("\./static/js/((PlotlyChart|DataFrame)\.[\w-]+\.js)"\)',
                       preload.proto.body)
    assert sorted(kind for _, kind in found) == ["DataFrame", "PlotlyChart"], preload.proto.body
    static = Path(st.__file__).parent / "static" / "static" / "js"
    assert all((static / name).is_file() for name, _ in found)


def test_metric_scores_without_human_scores_are_one_line_not_a_traceback(fresh_run):
    """A zip holding only a metric's segment scores (no human scores): the segment section
    says so in one line, from the gold-standard choice, not a traceback."""
    import io
    import zipfile

    packed = io.BytesIO()
    rows = "".join(f"s{k}\t{0.1 * k + 0.01 * i:.2f}\n" for k in range(3) for i in range(5))
    with zipfile.ZipFile(packed, "w") as archive:
        archive.writestr("wmt/metric-scores/en-de/BLEU-refA.seg.score", rows)
    at = fresh_run()
    at.file_uploader(key="metrics_upload").set_value(
        [("scores.zip", packed.getvalue(), "application/zip")]
    ).run()
    assert_no_exception(at)
    errors = [e.value for e in at.error]
    assert len(errors) == 1 and "no human (gold) scores" in errors[0], errors
