"""Session-wide test settings."""

from __future__ import annotations

import itertools
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


#: where a test goes in the collection xdist hands out: 0 the single long tool runs (``early``),
#: 1 browser runs and slow simulations, 2 the dashboard's page runs, 3 the rest
_RANK = pytest.StashKey[int]()


@pytest.hookimpl(tryfirst=True)  # before -m deselects
def pytest_collection_modifyitems(config, items):
    for item in items:
        path = Path(str(item.fspath)).resolve()
        if item.get_closest_marker("slow") or item.get_closest_marker("browser"):
            item.stash[_RANK] = 1
            continue
        if _TESTS / "browser" in path.parents:
            item.stash[_RANK] = 1
            continue
        # an AppTest page run
        app_run = {"app_test", "first_run"} & set(getattr(item, "fixturenames", ()))
        if app_run or path.parent == _TESTS / "dashboard" and path.name.startswith("test_app_"):
            item.add_marker(pytest.mark.pages)
            item.stash[_RANK] = 2
            continue
        item.add_marker(pytest.mark.fast)
        item.stash[_RANK] = 0 if item.get_closest_marker("early") else 3


@pytest.hookimpl(trylast=True, specname="pytest_collection_modifyitems")
def pytest_collection_modifyitems_into_shares(config, items):
    # after -m deselects: the shares are those of the tests that run
    items[:] = xdist_order(items, int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1")))


def xdist_order(items: list, workers: int) -> list:
    """The collection in the order xdist should hand it out (the same on every worker).

    ``--dist worksteal`` hands each of the n workers a contiguous share of the collection
    (the first ``len // n``, then ``len // (n - 1)`` of the rest, ...), each worker runs its
    share from the front, and an idle worker steals the back half of the longest queue left.
    The long tests (the single long tool runs marked ``early``: mypy, the docs build, a Dask
    cluster; browser runs and ``slow`` simulations; the dashboard's page runs, some of them
    half a minute) are therefore split between the shares and put at the front of each, in
    that order, and the short tests fill the rest: every worker starts on long tests, and
    what is stolen at the end, and so what runs last, is short (were the long tests all in
    the first share, the workers would meet among them, and a tool run of half a minute
    could start last beside an idle core)."""
    ranked = sorted(items, key=lambda item: item.stash.get(_RANK, 3))  # stable
    head = [item for item in ranked if item.stash.get(_RANK, 3) < 3]
    short = ranked[len(head) :]
    if workers < 2 or not head:
        return ranked
    # the long tests module by module (a module's fixtures set up once) to the share with the
    # fewest long tests so far: each share gets its part of every kind
    heads: list[list] = [[] for _ in range(workers)]
    for _, module in itertools.groupby(head, key=lambda item: (item.stash[_RANK], item.path)):
        min(heads, key=len).extend(module)
    ordered: list = []
    left = len(items)
    for share in range(workers):
        size = left // (workers - share)  # worksteal's share of this worker
        if len(heads[share]) > size:  # more long tests than one share: long first, one block
            return ranked
        ordered += heads[share] + short[: size - len(heads[share])]
        short = short[size - len(heads[share]) :]
        left -= size
    return ordered
