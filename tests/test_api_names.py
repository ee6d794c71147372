"""One name per idea: randomness comes through ``rng`` everywhere; ``seed`` is a name only where
a seed is recorded, not drawn from."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import stats

#: public functions whose ``seed`` records the seed other tests ran with (it draws nothing)
RECORDS_SEED = {
    "stats.analyses.human.accuracy_from_results",
    "stats.human.accuracy.accuracy_from_pvalues",
    "stats.metaeval.task_sets.combine_tasks",
}


def test_no_public_function_takes_seed_for_rng():
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
            if "seed" in params and where not in RECORDS_SEED:
                missing.append(where)
    assert not missing, missing
