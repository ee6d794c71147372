"""The statistics package and its CLI need none of the dashboard's packages: the ``dashboard``
extra holds what viewing needs, the test extra adds the test tools, and running ``stats``
(every public name, a real CLI computation) imports no UI package."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")  # Python 3.11+

ROOT = Path(__file__).resolve().parents[1]
UI = ("streamlit", "plotly", "kaleido", "playwright", "pytest")


def _project() -> dict:
    with open(ROOT / "pyproject.toml", "rb") as fh:
        return tomllib.load(fh)["project"]


def _names(requirements: list[str]) -> set[str]:
    return {r.split("[")[0].split(">")[0].split("<")[0].split("=")[0].strip() for r in requirements}


def test_core_dependencies_hold_no_ui_or_test_package():
    assert not _names(_project()["dependencies"]) & set(UI)


def test_dashboard_extra_is_what_viewing_needs_and_test_extra_builds_on_it():
    extras = _project()["optional-dependencies"]
    assert _names(extras["dashboard"]) == {"streamlit", "plotly", "kaleido"}
    assert "mt-significance[dashboard]" in extras["test"]
    assert not _names(extras["dashboard"]) & {"pytest", "pytest-xdist", "hypothesis", "playwright"}


def test_stats_and_its_cli_import_no_ui_package(tmp_path):
    scores = tmp_path / "scores.tsv"
    scores.write_text(
        "system\tsegment\tscore\n"
        + "".join(f"{s}\t{i}\t{(i * 7 + len(s)) % 11}\n" for s in ("a", "b") for i in range(12)),
        encoding="utf-8",
    )
    probe = (
        "import runpy, sys\n"
        "import stats, stats.analyses\n"
        "for name in stats.__all__: getattr(stats, name)\n"
        f"sys.argv = ['stats', 'randomized', '--scores', {str(scores)!r}, '--resamples', '50']\n"
        "try:\n"
        "    runpy.run_module('stats', run_name='__main__')\n"
        "except SystemExit as exc:\n"
        "    assert not exc.code, exc.code\n"
        f"print(sorted(m for m in {UI!r} if m in sys.modules))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        check=True,
    )
    assert '"pvalue"' in out.stdout or "pvalue" in out.stdout
    assert out.stdout.splitlines()[-1] == "[]"
