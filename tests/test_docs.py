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


@pytest.mark.early
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
    metaeval = (site / "reference" / "metaeval" / "index.html").read_text(encoding="utf-8")
    assert "r_human_a" in metaeval and "psych::r.test" in metaeval
    for page in ("dashboard/metrics", "cli/randomized", "formats", "limits", "python", "tutorial",
                 "howto/wmt_metrics", "howto/mt_systems", "howto/human_rankings", "howto/qe"):
        assert (site / page / "index.html").is_file(), page


#: the API reference is grouped by package: each package's page under docs/reference/ (``stats``
#: itself: its own names, from ``stats._core``)
PACKAGE_PAGES = {
    "stats.mt": "mt.md",
    "stats.metaeval": "metaeval.md",
    "stats.metaeval.perm_both": "metaeval.md",
    "stats.pairwise": "pairwise.md",
    "stats.human": "human.md",
    "stats.qe": "qe.md",
    "stats.power": "power.md",
    "stats.analyses": "analyses.md",
    "stats.readers": "readers.md",
    "stats": "errors.md",
}


def _package_page(module: str) -> str:
    """The page of the package ``module`` belongs to (the longest package naming it)."""
    for package in sorted(PACKAGE_PAGES, key=len, reverse=True):
        if module == package or module.startswith(package + "."):
            return PACKAGE_PAGES[package]
    raise AssertionError(f"{module} is in no package with a reference page")


def test_reference_is_one_page_per_package_with_every_public_name_once():
    """Each reference page opens with a table ``| `name` | `import path` | what |``. Every
    public name (a package's ``__all__``; ``stats``' own names) is in exactly one row, on its
    package's page, imported the one documented way (``stats.<name>``; the readers
    ``stats.readers.<name>``), and each import path works; each page's ``::: module``
    sections document modules of its own package only."""
    import importlib
    import re

    row = re.compile(r"^\| `(\w+)` \| `([\w.]+)` \|", re.M)
    section = re.compile(r"^::: ([\w.]+)", re.M)
    rows: dict[str, list[tuple[str, str]]] = {}
    for page in sorted((ROOT / "docs" / "reference").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for name, path in row.findall(text):
            module, attr = path.rsplit(".", 1)
            assert attr == name, (page.name, name, path)
            assert getattr(importlib.import_module(module), attr) is not None, path
            rows.setdefault(name, []).append((page.name, path))
        for module in section.findall(text):
            home = "errors.md" if module.startswith("stats._core") else _package_page(module)
            assert home == page.name, f"{page.name} documents {module}, of {home}"
    assert set(PACKAGE_PAGES.values()) | {"index.md"} == {
        p.name for p in (ROOT / "docs" / "reference").glob("*.md")
    }
    owner = {}  # public name -> its package
    for package in sorted(PACKAGE_PAGES, key=len):  # a subpackage's own names override
        names = importlib.import_module(package).__all__
        owner.update(dict.fromkeys(names, package))
    for name, package in owner.items():
        expected = f"stats.readers.{name}" if package == "stats.readers" else f"stats.{name}"
        assert rows.get(name) == [(PACKAGE_PAGES[package], expected)], (
            f"{package}.{name}: in the rows {rows.get(name)}; expected once, "
            f"on {PACKAGE_PAGES[package]} as {expected}"
        )
    for name, found in rows.items():  # names of modules that no package exports
        for page, path in found:
            if name not in owner:
                assert page == _package_page(path.rsplit(".", 1)[0]), (name, page, path)


# ---- the dashboard's docs name every page the app registers ----

_NUMBERS = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine"}


def _registered_pages() -> list[dict]:
    """The pages ``dashboard/app.py`` hands to ``st.navigation`` (its ``st.Page(...)`` calls,
    hidden twins left out), read from the source without running Streamlit: each page's
    script name, title and url_path."""
    import ast

    tree = ast.parse((ROOT / "dashboard" / "app.py").read_text(encoding="utf-8"))
    constants = {  # module-level dict literals passed as ``**NAME`` (a shared title and icon)
        node.targets[0].id: ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Dict)
    }
    pages = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "Page"):
            continue
        options: dict = {}
        for kw in node.keywords:
            if kw.arg is None:
                options.update(constants[kw.value.id])
            else:
                options[kw.arg] = ast.literal_eval(kw.value)
        if options.get("visibility") == "hidden":
            continue
        script = node.args[0]
        assert isinstance(script, ast.BinOp), ast.dump(script)  # _PAGES / "name.py"
        pages.append({"script": ast.literal_eval(script.right), **options})
    return pages


def test_dashboard_docs_describe_every_page_the_app_registers():
    pages = _registered_pages()
    assert len(pages) >= 7, pages  # Metrics ... AutoRank (WMT25): the parse found them all
    docs = ROOT / "docs" / "dashboard"
    index = (docs / "index.md").read_text(encoding="utf-8")
    assert f"opens {_NUMBERS[len(pages)]} pages" in index
    table = [line for line in index.splitlines() if line.startswith("| ")]
    for page in pages:
        title, doc = page["title"], Path(page["script"]).with_suffix(".md").name
        assert (docs / doc).is_file(), f"no page doc docs/dashboard/{doc} for {title!r}"
        assert f"[{title}]({doc})" in index, f"index.md links no page doc for {title!r}"
        assert any(line.startswith(f"| {title}") for line in table), f"no table row for {title!r}"
        path = page.get("url_path")
        if path and not page.get("default"):  # the default page is served at the root
            assert f"`/{path}`" in index, f"index.md does not name the URL path /{path}"
        heading = (docs / doc).read_text(encoding="utf-8").splitlines()[0]
        assert heading == f"# {title}", (doc, heading)
