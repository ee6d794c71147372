"""The kernels compiled at install (stats._core.jit.KERNELS, setup.py's build step): every
compiled kernel of the package is listed, each listed signature fits its function, and a run
of a fresh copy after precompile() loads the machine code instead of compiling it.
(benchmarks/cold_start.py measures the first against the next run of every analysis.)"""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from stats._core import jit

ROOT = Path(__file__).resolve().parents[1]
numba = pytest.importorskip("numba")


def _compiled_modules() -> set[str]:
    """Modules of stats/ that compile something with numba (a decorator or the lazy loader)."""
    found = set()
    for path in (ROOT / "stats").rglob("*.py"):
        if path.name == "jit.py":
            continue
        src = path.read_text(encoding="utf-8")
        if re.search(r"@njit\(|njit_one\(|\bnjit\(_", src):
            found.add(".".join(path.relative_to(ROOT).with_suffix("").parts))
    return found


def test_every_compiled_kernel_is_compiled_at_install():
    assert _compiled_modules() == set(jit.KERNELS)


@pytest.mark.parametrize("module_name", sorted(jit.KERNELS))
def test_each_listed_signature_fits_its_function(module_name):
    module = importlib.import_module(module_name)
    for name, signatures in jit.KERNELS[module_name].items():
        function = getattr(module, name)
        py = getattr(function, "py_func", function)
        for signature in signatures:
            args, _ = numba.core.sigutils.normalize_signature(signature)
            assert len(args) == len(inspect.signature(py).parameters), (module_name, name)


def test_a_fresh_copy_after_precompile_loads_the_kernels_without_compiling(tmp_path):
    shutil.copytree(
        ROOT / "stats", tmp_path / "stats", ignore=shutil.ignore_patterns("__pycache__")
    )
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    only = ["stats.metaeval.perm_both._long"]  # the smallest kernels: a few seconds
    run = [sys.executable, "-c"]
    subprocess.run(
        [*run, f"from stats._core.jit import precompile; precompile({only}, quiet=True)"],
        env=env,
        cwd=tmp_path,
        check=True,
    )
    probe = (
        "import numpy as np\n"
        "from stats.metaeval.perm_both import _long\n"
        "g = np.array([1.0, 2.0, 3.0, 5.0]); x = np.array([1.0, 3.0, 2.0, 4.0])\n"
        "print(_long.pair_terms(g, x, x[::-1].copy(), 'acc23', 0.0, 25.0)[0],"
        " _long.counted_pairs(g, 1.5))\n"
        "terms, counted = _long.compiled()\n"
        "print(all(d.stats.cache_hits and not d.stats.cache_misses for d in (terms, counted)))\n"
    )
    out = subprocess.run(
        [*run, probe], env=env, cwd=tmp_path, check=True, capture_output=True, text=True
    )
    assert out.stdout.splitlines()[-1] == "True", out.stdout


def test_every_kernel_module_imports_with_the_build_requirements_alone():
    # setup.py compiles the kernels in pip's build environment, which holds only the
    # build-system requirements: a module importing another dependency there stops the compile
    # of it and of every module after it (they then compile at first use, in every process
    # until one has written the cache)
    import tomllib

    meta = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))

    def names(requirements):
        return {re.split(r"[<>=!~\[ ;(]", r, maxsplit=1)[0].lower() for r in requirements}

    build, todo = set(), names(meta["build-system"]["requires"])
    while todo:  # with what each installs (numba brings numpy): no extras
        build |= todo
        todo = {
            dep
            for name in todo
            for dep in names(
                r for r in importlib.metadata.requires(name) or () if "extra ==" not in r
            )
        } - build
    absent = sorted(names(meta["project"]["dependencies"]) - build)
    assert "pyarrow" in absent  # the check below blocks something
    probe = (
        "import importlib, sys\n"
        f"absent = {absent!r}\n"
        "class Absent:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in absent:\n"
        "            raise ImportError(f'{name} is not a build requirement')\n"
        "sys.meta_path.insert(0, Absent())\n"
        "from stats._core.jit import KERNELS\n"
        "for name in KERNELS:\n"
        "    importlib.import_module(name)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stderr[-2000:]


def test_an_editable_install_compiles_every_module_to_bytecode(tmp_path):
    # pip compiles a wheel's modules at install; an editable install runs the sources, whose
    # bytecode setup.py's build step writes (a process then compiles nothing at import, where
    # PYTHONDONTWRITEBYTECODE would keep it from caching what it compiled)
    import importlib.util

    for package in ("stats", "dashboard"):
        shutil.copytree(
            ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__")
        )
    shutil.copy2(ROOT / "setup.py", tmp_path / "setup.py")
    probe = (
        "import runpy, sys; from pathlib import Path\n"
        "sys.argv = ['setup.py', '--name']  # setup() only prints the name\n"
        "build = runpy.run_path('setup.py')\n"
        "print(build['compile_bytecode'](Path('.')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, check=True, capture_output=True, text=True
    )
    assert out.stdout.splitlines()[-1] == "True", out.stdout + out.stderr
    sources = sorted(
        p for package in ("stats", "dashboard") for p in (tmp_path / package).rglob("*.py")
    )
    assert len(sources) > 100
    missing = [
        str(p) for p in sources if not Path(importlib.util.cache_from_source(str(p))).exists()
    ]
    assert missing == []
