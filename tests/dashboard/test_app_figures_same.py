"""The charts a page sends are plotly's own, byte for byte: each page's first run on the sample
data sends the same JSON with the figure builders' quick paths (``style.subplots``,
``style.add_axis_lines``) as with the plotly calls they stand for (``make_subplots``,
``add_vline`` / ``add_hline``)."""

from __future__ import annotations

import pytest
from plotly.subplots import make_subplots

from dashboard.figures import human, meta_eval, metrics, mt_systems, qe
from tests.dashboard.test_figures_axis_lines import plotly_lines

#: the pages whose charts are built with the quick paths, and how many charts each draws
PAGES = {"views/qe.py": 7, "views/human.py": 5, "views/mt_systems.py": 3, "views/metrics.py": 3}


def _charts(at) -> list[str]:
    assert not at.exception
    return [chart.proto.spec for chart in at.get("plotly_chart")]


@pytest.mark.parametrize("page", list(PAGES))
def test_a_pages_charts_are_plotlys(page, app_test, fresh_run, monkeypatch):
    quick = _charts(fresh_run(page))
    for module in (human, meta_eval, metrics, mt_systems, qe):
        monkeypatch.setattr(module, "subplots", make_subplots)
        if hasattr(module, "add_axis_lines"):
            monkeypatch.setattr(module, "add_axis_lines", plotly_lines)
    assert len(quick) >= PAGES[page]
    assert quick == _charts(app_test(page).run())
