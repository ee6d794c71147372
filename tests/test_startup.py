"""Start-up stays light: ``import stats`` and ``python -m stats SUBCOMMAND --help`` import neither
numpy, scipy, pandas, pyarrow nor sacrebleu (checked in a fresh interpreter through
``sys.modules``, not by timing), while every public name still resolves on first use."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import stats
import stats.analyses

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("numpy", "scipy", "pandas", "pyarrow", "sacrebleu")

PROBE = """
import json, runpy, sys
sys.argv = ["stats", *json.loads(sys.argv[1])]
try:
    if sys.argv[1:]:
        runpy.run_module("stats", run_name="__main__")
    else:
        import stats, stats.analyses
except SystemExit as exc:
    assert exc.code == 0, exc.code
print(json.dumps(sorted(m for m in {heavy} if m in sys.modules)))
"""


def _heavy_modules_loaded(argv: list[str]) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(heavy=HEAVY), json.dumps(argv)],
        capture_output=True, text=True, env=env, cwd=ROOT, check=True,
    )
    return json.loads(out.stdout.splitlines()[-1])


@pytest.mark.parametrize(
    "argv",
    [[], ["--help"], *([name, "--help"] for name in
                       ("williams", "qe", "randomized", "accuracy", "meta-eval"))],
)
def test_help_and_import_load_no_heavy_module(argv):
    assert _heavy_modules_loaded(argv) == []


def test_williams_help_runs_and_names_power():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-m", "stats", "williams", "--help"],
                         capture_output=True, text=True, env=env, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert "80% power" in " ".join(out.stdout.split())


SUBPACKAGES = (
    "stats.mt",
    "stats.metaeval",
    "stats.metaeval.perm_both",
    "stats.pairwise",
    "stats.human",
    "stats.qe",
    "stats.power",
)


@pytest.mark.parametrize("name", ["stats", "stats.analyses", *SUBPACKAGES])
def test_every_public_name_resolves(name):
    import importlib

    package = importlib.import_module(name)
    for name in package.__all__:
        assert getattr(package, name) is not None, name
    assert set(package.__all__) <= set(dir(package))
    with pytest.raises(AttributeError):
        package.no_such_name  # noqa: B018


def test_public_functions_stay_functions_and_subpackages_are_modules():
    import importlib
    import types

    core = importlib.import_module("stats.metaeval.perm_both.core")
    assert stats.perm_both is core.perm_both
    assert isinstance(importlib.import_module("stats.metaeval.perm_both"), types.ModuleType)
    table = importlib.import_module("stats.mt.baseline_table")
    assert stats.systems_table is table.systems_table is stats.mt.systems_table


@pytest.mark.parametrize("name", SUBPACKAGES)
def test_subpackage_exports_every_public_name_of_its_modules(name):
    """Each topic subpackage exports the ``__all__`` of each of its public modules (a name
    equal to a submodule's name stays the submodule), and each of them is at the top too,
    the same object."""
    import importlib
    import pkgutil

    package = importlib.import_module(name)
    modules = [m.name for m in pkgutil.iter_modules(package.__path__)
               if not m.name.startswith("_") and not m.ispkg]
    expected = {n for m in modules for n in importlib.import_module(f"{name}.{m}").__all__}
    assert set(package.__all__) == expected - set(modules)
    for public in package.__all__:
        assert public in stats.__all__, public
        assert getattr(stats, public) is getattr(package, public), public
