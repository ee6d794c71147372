"""Shared fixtures for AppTest tests of the dashboard.

``app_test(page=None)`` (fixture returning a factory) builds
``AppTest.from_file("dashboard/app.py")`` with a generous timeout; with ``page`` (a path
relative to dashboard/, e.g. ``"views/qe.py"``) it runs the app once on the default page (needed
so ``st.navigation`` has registered the pages) and switches to ``page``; call ``.run()`` next.

Example::

    def test_qe_smoke(app_test):
        at = app_test("views/qe.py").run()
        assert not at.exception
"""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

REPO_ROOT = Path(__file__).resolve().parents[2]
APP = str(REPO_ROOT / "dashboard" / "app.py")


@pytest.fixture
def app_test():
    def make(page: str | None = None, timeout: float = 60) -> AppTest:
        at = AppTest.from_file(APP, default_timeout=timeout)
        if page is not None:
            at.run()
            at.switch_page(page)
        return at

    return make
