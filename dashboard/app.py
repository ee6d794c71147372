"""Entry point: ``streamlit run dashboard/app.py`` (from the repository root).

Sets the page config, the sidebar presentation-mode toggle and the navigation over the
pages (docs/dashboard/ describes each one); each page is a thin script under
``dashboard/views/``.

Why ``views/`` and not ``pages/``: a ``pages/`` directory next to the entry script switches
Streamlit into its legacy multipage mode until ``st.navigation`` has run once in the process,
so a deep link like ``/qe`` opened first on a fresh server ran ``pages/qe.py`` *without* this
shell (no presentation toggle, wrong sidebar), and ``AppTest.switch_page`` did the same.
``tests/dashboard/test_app_shell.py`` guards against a ``dashboard/pages/`` directory coming back.
"""

from __future__ import annotations

import sys
from pathlib import Path

# `streamlit run dashboard/app.py` puts dashboard/ (not the repo root) on sys.path; make
# `import dashboard.*` / `import stats.*` work even without the editable install.
_ROOT = str(Path(__file__).resolve().parent.parent)
if _ROOT not in sys.path:
    sys.path.insert(0, _ROOT)

import streamlit as st  # noqa: E402

# Streamlit loads the code of a kind of element when the first one arrives: plotly.js (4.6 MB of
# JavaScript) with the first chart, the table grid (1.5 MB with Arrow) with the first table.
# Asked for here, the browser loads and compiles them while this script imports the dashboard
# and computes the page (a new server's first run: its imports alone take a second), not after.
_STATIC_JS = Path(st.__file__).parent / "static" / "static" / "js"
_PRELOAD = [p for kind in ("PlotlyChart", "DataFrame") for p in _STATIC_JS.glob(f"{kind}.*.js")]
if _PRELOAD:  # none in another Streamlit's layout: each then loads with its first element
    st.sidebar.container(key="preload_js").html(
        "<style>:has(> .st-key-preload_js) {display: none}</style>"  # no room taken in the sidebar
        '<script type="module">'
        + "".join(f'import("./static/js/{p.name}").catch(() => {{}});' for p in _PRELOAD)
        + "</script>",
        unsafe_allow_javascript=True,
    )

from dashboard import components, export, page_run  # noqa: E402
from stats import limited_budget  # noqa: E402

export.ensure_browser_env()

_PAGES = Path(__file__).resolve().parent / "views"

st.set_page_config(
    page_title="MT significance",
    # a file, not a ":material/...:" icon: Streamlit fetches those favicons from Google's
    # font CDN, which an offline machine (a meeting room, an air-gapped lab) cannot reach
    page_icon=str(Path(__file__).resolve().parent / "favicon.svg"),
    layout="wide",
    # not collapsed in presentation mode: the sidebar holds the toggle that ends it
    initial_sidebar_state="auto",
)

_METRICS = {"title": "Metrics vs humans", "icon": ":material/scatter_plot:"}
pages = [
    # the default page is served at the root only; the hidden twin below answers /metrics
    st.Page(_PAGES / "metrics.py", **_METRICS, default=True, url_path="metrics_vs_humans"),
    st.Page(_PAGES / "metrics.py", **_METRICS, url_path="metrics", visibility="hidden"),
    st.Page(_PAGES / "qe.py", title="Quality estimation", icon=":material/rule:", url_path="qe"),
    st.Page(
        _PAGES / "mt_systems.py",
        title="MT systems",
        icon=":material/translate:",
        url_path="mt_systems",
    ),
    st.Page(
        _PAGES / "human.py", title="Tests vs humans", icon=":material/groups:", url_path="human"
    ),
    st.Page(
        _PAGES / "leaderboard.py",
        title="Leaderboard",
        icon=":material/leaderboard:",
        url_path="leaderboard",
    ),
    st.Page(_PAGES / "power.py", title="Power", icon=":material/query_stats:", url_path="power"),
    st.Page(
        _PAGES / "autorank.py",
        title="AutoRank (WMT25)",
        icon=":material/format_list_numbered:",
        url_path="autorank",
    ),
]
page = st.navigation(pages)

# getattr: outside `streamlit run` (a bare import of this script) the page returned may have
# no title.
page_report = page_run.start_report(getattr(page, "title", "") or "MT significance")
with st.sidebar:
    components.presentation_toggle()
    page_run.report_button(page_report)
    st.caption(
        "Significance testing for MT evaluation: Williams test (Graham & Baldwin 2014), "
        "randomized tests (Graham, Mathur & Baldwin 2014), QE evaluation (Graham 2015)."
    )

components.apply_page_style()
# Each session runs in its own script thread: the work budget below holds for this session only,
# so one upload cannot occupy the server for minutes (stats refuses it in one line instead).
with limited_budget(max_work=components.SESSION_MAX_WORK, max_memory=components.SESSION_MAX_MEMORY):
    page.run()
