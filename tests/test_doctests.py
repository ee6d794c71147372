"""The Examples sections of the docstrings run as doctests (numpydoc ``>>>`` blocks), one test
per module of :mod:`stats` that has any, and at least :data:`MIN_EXAMPLES` public functions
carry one (the reference shows a call and its output for each)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import warnings

import pytest

import stats

#: public functions and classes with an Examples section (scipy has one for all of them)
MIN_EXAMPLES = 20
#: modules not walked: the command-line front end (its docs are the CLI pages)
SKIP = ("stats.cli", "stats.__main__")
FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _modules() -> list[str]:
    names = []
    for info in pkgutil.walk_packages(stats.__path__, "stats."):
        if not info.name.startswith(SKIP):
            names.append(info.name)
    return sorted(names)


def _tests(name: str) -> list[doctest.DocTest]:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    return [t for t in finder.find(module, name) if t.examples]


MODULES = [name for name in _modules() if _tests(name)]


@pytest.mark.parametrize("name", MODULES)
def test_examples_run(name):
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for test in _tests(name):
            runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples failed in {name}"


def test_enough_public_functions_have_examples():
    documented = {
        t.name
        for name in MODULES
        for t in _tests(name)
        if not t.name.rsplit(".", 1)[-1].startswith("_") and t.name != name
    }
    assert len(documented) >= MIN_EXAMPLES, sorted(documented)
