"""The wheel is a product: built from a copy of the repository, installed (with ``--no-deps``)
into a fresh venv that sees this test environment's packages but not the checkout, and
started with ``mt-stats dashboard`` from an unrelated directory, it serves the bundled sample
with the project's theme and favicon, and draws it in a real browser with no error."""

from __future__ import annotations

import base64
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

from tests.browser.conftest import REPO_ROOT, _free_port, _require_chromium
from tests.browser.helpers import (
    ERROR_SELECTOR,
    assert_no_exception,
    goto_page,
    wait_for_charts,
    wait_until_healthy,
)

#: what is not part of the source tree a wheel is built from
_NOT_SOURCE = shutil.ignore_patterns(
    ".git",
    ".venv*",
    "build",
    "dist",
    "artifacts",
    "site",
    "*.egg-info",
    "__pycache__",
    ".cache*",
    ".pytest_cache",
    ".ruff_cache",
    ".mypy_cache",
    ".hypothesis",
    "screenshots",
)


def _run(cmd: list[str], **kwargs) -> None:
    out = subprocess.run(cmd, capture_output=True, text=True, **kwargs)
    assert out.returncode == 0, f"{cmd[:4]} failed:\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A venv holding only the wheel (its dependencies come from this environment); returns
    its bin/ directory."""
    _require_chromium()
    tmp = tmp_path_factory.mktemp("wheel")
    source = tmp / "source"
    shutil.copytree(REPO_ROOT, source, ignore=_NOT_SOURCE)  # no stale build/ in the wheel
    wheels = tmp / "wheels"
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(wheels),
            str(source),
        ],
        cwd=tmp,
        # the served sample runs no compiled kernel; compiling them at install is checked in
        # tests/test_jit_precompile.py (this saves the build ~20 s of CPU)
        env=dict(os.environ, MT_STATS_PRECOMPILE="0"),
    )
    (wheel,) = wheels.glob("mt_significance-*.whl")
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    bin_dir = env_dir / ("Scripts" if os.name == "nt" else "bin")
    python = bin_dir / "python"
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    # after the venv's own site-packages: numpy, streamlit, ... of this environment; the
    # checkout (an editable install's import hook) stays out of reach
    paths = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    Path(purelib, "_test_environment.pth").write_text("\n".join(paths) + "\n")
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "-q",
            str(wheel),
        ],
        cwd=tmp,
    )
    return bin_dir


def test_wheel_carries_the_dashboards_files_and_type_marker(installed):
    probe = (
        "import dashboard, stats, pathlib\n"
        "from dashboard.resources import resource\n"
        "print(pathlib.Path(stats.__file__).parent)\n"
        "print(resource('sample_data'))\n"
        "print(resource('.streamlit/config.toml'))\n"
        "print((pathlib.Path(dashboard.__file__).parent / 'favicon.svg').is_file())\n"
        "print((pathlib.Path(stats.__file__).parent / 'py.typed').is_file())\n"
    )
    out = subprocess.run(
        [str(installed / "python"), "-c", probe],
        capture_output=True,
        text=True,
        cwd=installed.parent,
        check=True,
    ).stdout.splitlines()
    venv_dir = str(installed.parent)
    assert all(line.startswith(venv_dir) for line in out[:3]), out
    assert "_bundled" in out[1] and "_bundled" in out[2]
    assert Path(out[1], "metrics", "human.tsv").is_file()
    assert out[3:] == ["True", "True"]


def test_mt_stats_dashboard_serves_the_sample_from_the_install(installed, browser, tmp_path):
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["BROWSER_PATH"] = os.environ.get("BROWSER_PATH", "/usr/bin/chromium")
    log_path = tmp_path / "streamlit.log"
    with open(log_path, "wb") as log:
        proc = subprocess.Popen(
            [str(installed / "mt-stats"), "dashboard", "--server.headless", "true",
             "--server.address", "127.0.0.1", "--server.port", str(port)],
            cwd=tmp_path, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
    url = f"http://127.0.0.1:{port}"
    try:
        why = wait_until_healthy(url, proc, timeout=90)
        assert why is None, f"{why}: " + log_path.read_text(errors="replace")[-3000:]
        context = browser.new_context(viewport={"width": 1400, "height": 1000})
        try:
            page = context.new_page()
            page.set_default_timeout(60_000)
            goto_page(page, url, timeout=180)
            wait_for_charts(page, minimum=3, timeout=120)
            assert_no_exception(page)
            assert page.locator(ERROR_SELECTOR).count() == 0, page.locator(
                ERROR_SELECTOR
            ).all_inner_texts()
            assert "synthetic sample data" in page.inner_text("body")
            # the packaged favicon, not Streamlit's default: a media URL of the SVG, or the
            # SVG itself as a data URI
            href = page.locator("link[rel='shortcut icon'], link[rel='icon']").first.get_attribute(
                "href"
            )
            if (href or "").startswith("data:"):
                svg = (REPO_ROOT / "dashboard" / "favicon.svg").read_bytes()
                assert base64.b64decode(href.split(",", 1)[1]) == svg, href[:80]
            else:
                assert ".svg" in (href or ""), href
        finally:
            context.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
