"""One name per idea (issue 33.3): randomness comes through ``rng`` everywhere; ``seed`` is
still accepted where callers pass it (mapped by :func:`stats._core.keywords.rng_or_seed`), and
stays a name only where a seed is recorded, not drawn from."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import stats
from stats import StatsInputError
from stats._core.keywords import rng_or_seed

#: public functions whose ``seed`` records the seed other tests ran with (it draws nothing)
RECORDS_SEED = {
    "stats.analyses.human.accuracy_from_results",
    "stats.human.accuracy.accuracy_from_pvalues",
    "stats.metaeval.task_sets.combine_tasks",
}


def test_rng_or_seed():
    assert rng_or_seed(None, None, default=1) == 1
    assert rng_or_seed(5, None, default=1) == 5
    assert rng_or_seed(None, 7, default=1) == 7
    with pytest.raises(StatsInputError, match="rng and seed"):
        rng_or_seed(1, 2)


def test_every_public_function_taking_a_seed_takes_rng():
    missing = []
    for info in pkgutil.walk_packages(stats.__path__, "stats."):
        if info.name.startswith("stats.cli") or "._" in info.name:
            continue
        module = importlib.import_module(info.name)
        names = getattr(module, "__all__", None) or [n for n in vars(module) if n[0] != "_"]
        for name in names:
            func = getattr(module, name)
            if not inspect.isfunction(func) or func.__module__ != info.name:
                continue
            params = inspect.signature(func).parameters
            where = f"{info.name}.{name}"
            if "seed" in params and "rng" not in params and where not in RECORDS_SEED:
                missing.append(where)
    assert not missing, missing
