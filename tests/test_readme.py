"""Every code block a newcomer copies runs: the README's ```python blocks (and those of the
docs' Python guide, tutorial and how-to guides) execute from the repository root, and its shell blocks' ``python -m stats``
calls exit 0 with output. The README's relative links point at files that exist."""

from __future__ import annotations

import glob
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
_BLOCK = re.compile(r"^```(\w*)\n(.*?)^```", re.M | re.S)


def _blocks(path: Path, languages: set[str]) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return [body for lang, body in _BLOCK.findall(text) if lang in languages]


def _python_blocks():
    guides = (ROOT / "docs" / "tutorial.md", *sorted((ROOT / "docs" / "howto").glob("*.md")))
    for path in (README, ROOT / "docs" / "python.md", *guides):
        for i, block in enumerate(_blocks(path, {"python"})):
            yield pytest.param(block, id=f"{path.relative_to(ROOT)}-{i}")


def _cli_calls():
    for block in _blocks(README, {"", "sh", "bash", "shell"}):
        for command in block.replace("\\\n", " ").splitlines():
            if command.strip().startswith("python -m stats"):
                yield pytest.param(command.strip(), id=command.split()[3])


@pytest.fixture
def in_root(monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", str(tmp_path / "cache"))


def test_the_readme_has_python_and_cli_examples():
    assert len(list(_python_blocks())) >= 2 and len(list(_cli_calls())) >= 1


@pytest.mark.parametrize("code", list(_python_blocks()))
def test_python_block_runs(code, in_root, capsys):
    namespace = {"__name__": "__readme__"}
    exec(compile(code, "<README block>", "exec"), namespace)
    assert len(namespace) > 2  # the block ran to its end and defined what it shows


@pytest.mark.parametrize("command", list(_cli_calls()))
def test_cli_call_runs(command, in_root):
    argv = []
    for arg in shlex.split(command)[1:]:
        argv.extend(sorted(glob.glob(arg)) if "*" in arg else [arg])
    out = subprocess.run(
        [sys.executable, *argv],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip()
    # the output the README shows (```text block; table rows, not "#" comments or "...") is
    # what the call prints today
    for shown in _blocks(README, {"text"}):
        rows = [r for r in shown.splitlines() if r and not r.startswith(("#", "..."))]
        assert [r for r in rows if r not in out.stdout.splitlines()] == []


def test_readme_links_point_at_files():
    text = README.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)#:]+)(?:#[^)]*)?\)", text)
    assert targets
    missing = [t for t in targets if not (ROOT / t).exists()]
    assert missing == []
