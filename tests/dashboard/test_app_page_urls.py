"""AppTest: the URL query string and display names on the Quality estimation, MT systems and
Tests vs humans pages -- settings read from a shared URL on the page's first run, the page's
settings written back, and aliases in figures, tables and the URL."""

from __future__ import annotations

import json
import logging

from streamlit.elements.lib import policies

from tests.dashboard.conftest import REPO_ROOT
from tests.dashboard.helpers import assert_no_exception, files
from tests.dashboard.test_app_view_settings import chart_layouts, param


def _open(app_test, page: str, params: dict, timeout: float = 60):
    """``page`` opened with the query string ``params`` (a list: a repeated parameter).

    Also checks that Streamlit logged no "created with a default value but also had its value
    set via the Session State API" warning (a stack trace on the server's console): settings
    from the URL and the widgets' defaults both go in through the session state."""
    at = app_test(page, timeout=timeout)
    for name, value in params.items():
        at.query_params[name] = value
    logged: list[logging.LogRecord] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = logged.append
    logger = logging.getLogger(policies.__name__)
    shown = policies._shown_default_value_warning  # Streamlit logs it once per process
    policies._shown_default_value_warning = False
    logger.addHandler(handler)
    try:
        at.run()
    finally:
        logger.removeHandler(handler)
        policies._shown_default_value_warning = shown
    assert_no_exception(at)
    assert [r.getMessage() for r in logged] == []
    return at


def _category_labels(at) -> set[str]:
    """Every category and tick label of the page's charts."""
    out = set()
    for layout in chart_layouts(at):
        for key, axis in layout.items():
            if key.startswith(("xaxis", "yaxis")):
                out.update(axis.get("categoryarray") or ())
                out.update(axis.get("ticktext") or ())
    return out


def test_qe_settings_from_the_url_and_back(app_test):
    at = _open(
        app_test,
        "views/qe.py",
        {
            "alpha": "0.01",
            "test": "two-sided",
            "systems": ["CONSERV-mean", "baseline"],
            "aliases": json.dumps({"CONSERV-mean": "Conservative"}),
        },
    )
    assert at.radio(key="qe_alpha").value == 0.01
    assert at.radio(key="qe_alternative").value == "two-sided"
    assert at.multiselect(key="qe_hist_systems").value == ["CONSERV-mean", "baseline"]
    labels = _category_labels(at)
    assert "Conservative" in labels and "CONSERV-mean" not in labels
    assert param(at, "alpha") == ["0.01"]
    at.radio(key="qe_alpha").set_value(0.001).run()
    assert param(at, "alpha") == ["0.001"]
    assert param(at, "test") == ["two-sided"]
    assert param(at, "systems") == ["CONSERV-mean", "baseline"]
    assert json.loads(param(at, "aliases")[0]) == {"CONSERV-mean": "Conservative"}


def test_qe_bad_url_values_are_ignored(app_test):
    at = _open(app_test, "views/qe.py", {"alpha": "0.2", "test": "sideways", "systems": "nobody"})
    assert at.radio(key="qe_alpha").value == 0.05
    assert at.radio(key="qe_alternative").value == "one-sided"
    assert "nobody" not in at.multiselect(key="qe_hist_systems").value


def test_mt_systems_settings_from_the_url_and_back(app_test):
    at = _open(
        app_test,
        "views/mt_systems.py",
        {
            "metric": "chrF",
            "tests": ["bootstrap"],
            "resamples": "200",
            "seed": "7",
            "alpha": "0.01",
            "x": "Cirrus",
            "y": "Aurora",
            "aliases": json.dumps({"Aurora": "Aurora-2"}),
        },
        timeout=180,
    )
    assert at.selectbox(key="mt_metric").value == "chrF"
    assert at.multiselect(key="mt_tests").value == ["bootstrap"]
    assert at.selectbox(key="mt_resamples").value == 200
    assert at.number_input(key="mt_seed").value == 7
    assert at.radio(key="mt_alpha").value == 0.01
    assert at.selectbox(key="mt_pair_x").value == "Cirrus"
    labels = _category_labels(at)
    assert "Aurora-2" in labels and "Aurora" not in labels
    assert any("random seed **7**" in c.value for c in at.caption)
    at.number_input(key="mt_seed").set_value(8).run()
    assert param(at, "seed") == ["8"]
    assert param(at, "tests") == ["bootstrap"]
    assert param(at, "x") == ["Cirrus"]


def test_human_settings_from_the_url_and_back(app_test):
    at = _open(
        app_test,
        "views/human.py",
        {
            "metrics": ["chrF"],
            "tests": ["approximate-randomization"],
            "resamples": "200",
            "seed": "11",
            "alpha": "0.01",
            "aliases": json.dumps({"Borealis": "Borealis (2014)"}),
        },
        timeout=300,
    )
    assert at.multiselect(key="human_metrics").value == ["chrF"]
    assert at.multiselect(key="human_tests").value == ["approximate-randomization"]
    assert at.number_input(key="human_resamples").value == 200
    assert at.number_input(key="human_seed").value == 11
    assert at.radio(key="human_alpha").value == 0.01
    labels = _category_labels(at)
    assert "Borealis (2014)" in labels and "Borealis" not in labels
    assert param(at, "resamples") == ["200"]
    assert param(at, "metrics") == ["chrF"]


def test_out_of_range_numbers_are_ignored(app_test):
    at = _open(app_test, "views/human.py", {"resamples": "5", "seed": "-1"}, timeout=300)
    assert at.number_input(key="human_resamples").value == 1000
    assert at.number_input(key="human_seed").value == 12345


def test_mt_segment_scores_default_to_the_bleu_metric(fresh_run, tmp_path):
    # WMT names: COMET first, sentBLEU second -- the metric analysed first is BLEU's
    rows = (REPO_ROOT / "sample_data" / "mt" / "segment_scores.tsv").read_text().splitlines()
    renamed = [rows[0]] + [
        line.replace("\tchrF", "\tsentBLEU").replace("\tSimCOMET", "\tCOMET-22")
        for line in rows[1:]
    ]
    comet_first = (
        [rows[0]]
        + [r for r in renamed[1:] if "COMET" in r]
        + [r for r in renamed[1:] if "COMET" not in r]
    )
    path = tmp_path / "scores.tsv"
    path.write_text("\n".join(comet_first) + "\n")
    at = fresh_run("views/mt_systems.py", timeout=180)
    at.radio(key="mt_source").set_value("Segment scores").run()
    at.file_uploader(key="mt_scores").set_value(files(path, mime="text/tab-separated-values")).run()
    assert_no_exception(at)
    box = at.selectbox(key="mt_score_metric")
    assert box.options[0] == "COMET-22" and box.value == "sentBLEU"


def test_every_number_changing_setting_is_declared_in_one_module():
    # one module holds the URL state of every page; the controls the meeting-room issue
    # names are among it (the Power page keeps its own)
    from dashboard import url_state

    assert set(url_state.PAGES) == {
        "metrics", "qe", "mt_systems", "human", "leaderboard", "autorank"
    }
    keys = {s.key for settings in url_state.PAGES.values() for s in settings.values()}
    for key in (
        "mt_opt_tokenize", "mt_opt_lowercase", "mt_opt_cw", "mt_opt_tnorm",  # metric options
        "mt_tests", "mt_resamples", "mt_seed", "mt_alpha", "mt_exclude", "mt_table_baseline",
        "metrics_correction", "metrics_exclude", "metrics_lp", "metrics_baseline",
        "meta_correction", "meta_perm_resamples", "meta_perm_seed", "meta_domain",
        "meta_include_human",
        "qe_wmt_lp", "qe_wmt_correction", "human_exclude", "human_lp",
        "board_resamples", "board_seed", "board_alpha", "board_lps", "board_task_set",
    ):  # fmt: skip
        assert key in keys, key


def test_mt_systems_sacrebleu_options_from_the_url_and_back(app_test):
    # the en-ja case: "As WMT's released scores" sets char; a shared link must carry it
    at = _open(
        app_test,
        "views/mt_systems.py",
        {"tokenize": "char", "lowercase": "True", "chrf_word_order": "2", "exclude": ["Aurora"]},
        timeout=180,
    )
    assert at.selectbox(key="mt_opt_tokenize").value == "char"
    assert at.checkbox(key="mt_opt_lowercase").value is True
    assert at.number_input(key="mt_opt_cw").value == 2
    assert at.multiselect(key="mt_exclude").value == ["Aurora"]
    assert any("tok:char" in c.value and "lc" in c.value for c in at.caption), [
        c.value for c in at.caption if "nrefs" in c.value
    ]
    assert param(at, "tokenize") == ["char"] and param(at, "lowercase") == ["True"]
    at.checkbox(key="mt_opt_lowercase").set_value(False).run()
    assert param(at, "lowercase") == ["False"]
    assert param(at, "exclude") == ["Aurora"]


def test_bad_sacrebleu_values_are_ignored(app_test):
    at = _open(
        app_test,
        "views/mt_systems.py",
        {"tokenize": "klingon", "chrf_word_order": "99", "lowercase": "maybe"},
        timeout=180,
    )
    assert at.selectbox(key="mt_opt_tokenize").value == "by language"
    assert at.number_input(key="mt_opt_cw").value == 0
    assert at.checkbox(key="mt_opt_lowercase").value is False
