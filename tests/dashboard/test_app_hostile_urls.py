"""AppTest: a deep link whose aliases are JSON nested 5,000 deep opens the page with
its own settings instead of crashing it."""

from __future__ import annotations

from tests.dashboard.test_app_page_urls import _open


def test_aliases_nested_5000_deep_are_ignored(app_test):
    at = _open(app_test, "views/qe.py", {"aliases": "[" * 5_000 + "]" * 5_000})
    assert not at.error
