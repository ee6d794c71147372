"""Build step only (metadata lives in pyproject.toml): the wheel carries what the dashboard
needs from the repository's top -- ``sample_data/`` and ``.streamlit/config.toml`` -- under
``dashboard/_bundled/``, where :mod:`dashboard.resources` finds them in an install."""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
#: repository path -> path under dashboard/_bundled/
BUNDLE = {"sample_data": "sample_data", ".streamlit/config.toml": ".streamlit/config.toml"}


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


setup(cmdclass={"build_py": BuildPy})
