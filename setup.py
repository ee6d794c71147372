"""Build step only (metadata lives in pyproject.toml):

- the wheel carries what the dashboard needs from the repository's top -- ``sample_data/`` and
  ``.streamlit/config.toml`` -- under ``dashboard/_bundled/``, where :mod:`dashboard.resources`
  finds them in an install;
- the compiled kernels (numba) are compiled here, once, into numba's cache next to their
  sources (:func:`stats._core.jit.precompile`): in the source tree for ``pip install -e .``,
  into the wheel otherwise, so that no analysis compiles at its first run. numba and scipy
  are build requirements for that (pyproject.toml); without numba the step says so and the
  kernels compile at first use instead;
- an editable install's modules (``stats/``, ``dashboard/``) are compiled to bytecode in place,
  as pip compiles a wheel's modules when it installs them: without it every process compiles
  each module it imports, and never caches it where ``PYTHONDONTWRITEBYTECODE`` is set.
"""

import os
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: repository path -> path under dashboard/_bundled/
BUNDLE = {"sample_data": "sample_data", ".streamlit/config.toml": ".streamlit/config.toml"}
#: the kernels' modules in two processes of about equal compile time (2 cores: half the wait): the
#: n-gram and TER kernels, and every other module of stats._core.jit.KERNELS (so a kernel added
#: there is compiled at install without a change here)
FIRST_GROUP = ["stats.mt._ngrams_kernel", "stats.mt._ter_numba"]
KERNEL_GROUPS = (FIRST_GROUP, ["--except", *FIRST_GROUP])


def compile_kernels(root: Path) -> None:
    """Compile the kernels of the ``stats`` package under ``root`` into numba's cache there
    (``MT_STATS_PRECOMPILE=0`` leaves them to compile at first use, as without numba)."""
    if os.environ.get("MT_STATS_PRECOMPILE", "1") == "0":
        print("note: MT_STATS_PRECOMPILE=0: the compiled kernels compile at their first use",
              file=sys.stderr)
        return
    env = dict(os.environ)
    env.pop("NUMBA_CACHE_DIR", None)  # the cache goes next to the sources, into the package
    code = (
        "import sys; sys.path.insert(0, sys.argv[1]); import importlib.util as u\n"
        "if u.find_spec('numba') is None: sys.exit(3)\n"
        "from stats._core.jit import KERNELS, precompile; a = sys.argv[2:]\n"
        "if a[:1] == ['--except']: a = [m for m in KERNELS if m not in a[1:]]\n"
        "precompile(a, quiet=True)"
    )
    procs = [
        subprocess.Popen([sys.executable, "-c", code, str(root), *group], env=env)
        for group in KERNEL_GROUPS
    ]
    codes = [proc.wait() for proc in procs]
    if any(codes):
        why = "numba is not installed" if 3 in codes else "compiling failed"
        print(
            f"note: the compiled kernels were not compiled at install ({why}); "
            "they compile at their first use instead",
            file=sys.stderr,
        )


def compile_bytecode(root: Path) -> bool:
    """Compile the Python modules of ``stats/`` and ``dashboard/`` under ``root`` to bytecode
    next to their sources (``__pycache__``, git-ignored); True when every one compiled."""
    import compileall

    return all(
        compileall.compile_dir(root / package, quiet=1, workers=0)
        for package in ("stats", "dashboard")
    )


class BuildPy(build_py):
    def run(self):
        super().run()
        target = Path(self.build_lib) / "dashboard" / "_bundled"
        for source, dest in BUNDLE.items():
            src, dst = ROOT / source, target / dest
            if src.is_dir():
                shutil.copytree(
                    src,
                    dst,
                    dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.pyc"),
                )
            else:
                dst.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(src, dst)
        # an editable install runs the sources in place: their cache is the one to fill
        editable = getattr(self, "editable_mode", False)
        compile_kernels(ROOT if editable else Path(self.build_lib))
        if editable and not compile_bytecode(ROOT):
            print("note: some modules did not compile to bytecode at install", file=sys.stderr)


setup(cmdclass={"build_py": BuildPy})
