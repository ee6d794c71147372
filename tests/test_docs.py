"""The documentation site builds strictly (``mkdocs build --strict``: a broken link, a
docstring mkdocstrings cannot read or a page missing from the navigation fails), and its API
reference carries the docstrings' notation tables."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytest.importorskip("mkdocs")
pytest.importorskip("mkdocstrings")


def test_docs_build_strictly(tmp_path):
    site = tmp_path / "site"
    out = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--quiet", "--site-dir", str(site)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=300,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    williams = (site / "reference" / "williams" / "index.html").read_text(encoding="utf-8")
    assert "r_human_a" in williams and "psych::r.test" in williams
    for page in ("dashboard/metrics", "cli/randomized", "formats", "limits", "python", "tutorial",
                 "howto/wmt_metrics", "howto/mt_systems", "howto/human_rankings", "howto/qe"):
        assert (site / page / "index.html").is_file(), page


def test_reference_summary_tables_name_every_public_name_where_it_imports():
    """Each reference page opens with a table ``| `name` | `import path` | what |``: every
    public name of the topic subpackages is in one, and each import path works."""
    import importlib
    import re

    row = re.compile(r"^\| `(\w+)` \| `([\w.]+)` \|", re.M)
    listed = {}
    for page in (ROOT / "docs" / "reference").glob("*.md"):
        for name, path in row.findall(page.read_text(encoding="utf-8")):
            module, attr = path.rsplit(".", 1)
            assert attr == name, (page.name, name, path)
            assert getattr(importlib.import_module(module), attr) is not None, path
            listed[name] = path
    for package in ("stats.mt", "stats.metaeval", "stats.metaeval.perm_both", "stats.pairwise", "stats.human",
                    "stats.qe"):
        for name in importlib.import_module(package).__all__:
            assert name in listed, f"{package}.{name} is in no reference summary table"
