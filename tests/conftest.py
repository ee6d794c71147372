"""Session-wide test settings."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def pytest_configure(config):
    """Every test process at the lowest CPU priority (nice 19; inherited by the servers,
    browsers and worker processes the tests start). The dashboard runs its long computations
    in child processes at nice 19 (dashboard.data._isolated.HEAVY_NICE) so that a server's
    own threads come first; beside an xdist worker at nice 0 busy with short tests, such a
    child got about 1.5 % of a core and the browser tests waiting for it sat idle (a full run
    measured 915 s of CPU in all its processes for 22 minutes on 2 cores). At one priority the
    children share the cores evenly with the other worker. Raising one's own nice value
    needs no privilege; it cannot be lowered again."""
    os.setpriority(os.PRIO_PROCESS, 0, 19)


@pytest.fixture(autouse=True, scope="session")
def _statistics_cache_in_tmp(tmp_path_factory):
    """The on-disk statistics cache (stats.mt._ter_parallel) of the test session lives in a
    temporary directory, never in the user's ~/.cache; subprocesses inherit the setting."""
    old = os.environ.get("MT_SIGNIFICANCE_CACHE")
    os.environ["MT_SIGNIFICANCE_CACHE"] = str(tmp_path_factory.mktemp("stats-cache"))
    yield
    if old is None:
        os.environ.pop("MT_SIGNIFICANCE_CACHE", None)
    else:
        os.environ["MT_SIGNIFICANCE_CACHE"] = old


#: Tiers: ``pytest`` runs everything (CI). ``pytest -m fast`` is the local tier of unit and CLI
#: tests (minutes on 2 cores): everything but ``slow`` simulations, ``browser`` tests and the
#: dashboard's page runs (``tests/dashboard/test_app_*.py``, AppTest), which get ``pages``.
_TESTS = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)  # before -m deselects
def pytest_collection_modifyitems(config, items):
    long: set[int] = set()  # browser runs and slow simulations
    for item in items:
        path = Path(str(item.fspath)).resolve()
        if item.get_closest_marker("slow") or item.get_closest_marker("browser"):
            long.add(id(item))
            continue
        if _TESTS / "browser" in path.parents:
            long.add(id(item))
            continue
        # an AppTest page run
        app_run = {"app_test", "first_run"} & set(getattr(item, "fixturenames", ()))
        if app_run or path.parent == _TESTS / "dashboard" and path.name.startswith("test_app_"):
            item.add_marker(pytest.mark.pages)
            continue
        item.add_marker(pytest.mark.fast)
    # Long tests first (a stable sort: the same order on every xdist worker). ``--dist
    # worksteal`` hands each worker a contiguous share of the collection and an idle worker
    # steals from the end of another's: the first worker starts on the long tests, mostly
    # waiting on its browser and server, while the others run short tests beside it, and the
    # short tests at the end of its share are stolen, not a browser test starting last beside
    # an idle core. Next the single long tests marked ``early`` (each several seconds of one
    # tool, the longest 25 s): last in the collection they could be the last test running
    # while the other worker has nothing left to take.
    items.sort(
        key=lambda item: 0 if id(item) in long else 1 if item.get_closest_marker("early") else 2
    )
