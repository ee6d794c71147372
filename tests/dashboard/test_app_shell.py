"""AppTest smoke tests of the app shell (navigation, presentation mode) and its Streamlit
config."""

from __future__ import annotations

import json

import pytest
import tomllib

from dashboard.state import PRESENTATION_KEY
from tests.dashboard.conftest import REPO_ROOT


@pytest.mark.parametrize(
    "page,title",
    [
        ("views/qe.py", "Quality estimation"),
        ("views/mt_systems.py", "MT systems"),
        ("views/human.py", "Tests vs humans"),
        ("views/leaderboard.py", "Leaderboard"),
        ("views/power.py", "Power"),
    ],
)
def test_each_page_runs_without_exception(first_run, page, title):
    # first_run(page) switches before the first run (tests/dashboard/conftest.py): the page
    # must be found by its file name, not fall back to the default page
    at = first_run(page)
    assert not at.exception, [e.value for e in at.exception]
    assert at.title[0].value == title, [t.value for t in at.title]


@pytest.mark.parametrize(
    "page", ["views/metrics.py", "views/qe.py", "views/mt_systems.py", "views/human.py"]
)
def test_every_chart_is_sent_in_the_form_plotly_draws_once(first_run, page):
    """transport.browser_figure on every page (through components.show_figure): plain numbers
    and a data revision, no template or meta object -- nothing that stops plotly.js from
    seeing Streamlit's JSON copy of a chart as the chart it has just drawn."""
    at = first_run(page)
    charts = at.get("plotly_chart")
    assert charts, page
    for chart in charts:
        spec = json.loads(chart.proto.spec)
        assert '"bdata"' not in chart.proto.spec, page
        assert "datarevision" in spec["layout"], page
        assert "template" not in spec["layout"] and "meta" not in spec["layout"], page


def test_presentation_toggle_in_sidebar_sets_session_state(fresh_run):
    at = fresh_run("views/qe.py")
    toggle = at.sidebar.toggle(key=PRESENTATION_KEY)
    assert toggle.value is False
    toggle.set_value(True).run()
    assert at.session_state[PRESENTATION_KEY] is True
    assert not at.exception


def test_each_page_runs_inside_the_shell(fresh_run):
    """Every page must run through app.py (sidebar toggle present), not as a bare script."""
    at = fresh_run()
    for page in ["views/qe.py", "views/mt_systems.py", "views/human.py", "views/metrics.py"]:
        at.switch_page(page).run()
        assert not at.exception, (page, [e.value for e in at.exception])
        assert at.sidebar.toggle(key=PRESENTATION_KEY) is not None, page


def test_no_legacy_pages_directory():
    """A dashboard/pages/ directory next to app.py puts Streamlit in legacy multipage mode
    (deep links then skip app.py); pages live in dashboard/views/."""
    assert not (REPO_ROOT / "dashboard" / "pages").exists()


def test_streamlit_config():
    config = tomllib.loads((REPO_ROOT / ".streamlit" / "config.toml").read_text())
    assert config["theme"]["base"] == "light"
    assert config["server"]["maxUploadSize"] >= 50  # MB: a WMT segment-level file fits
    assert config["browser"]["gatherUsageStats"] is False
    # no full gc.collect() between the end of a run and the "finished" message to the browser
    assert config["runner"]["postScriptGC"] is False
