"""The import graph of ``stats`` and ``dashboard``, read from the source (every ``import``,
also inside functions): rooms talk through public names, no arrow goes up a layer, and no
modules import each other in a circle."""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: room -> layer; a module may import its own room and rooms of lower layers only (the topics
#: among themselves as long as they form no circle). ``stats`` (the lazy namespace) and
#: ``stats.__main__`` are the entry points and may import anything.
LAYERS = {
    "stats._core": 0,
    "stats.escape": 1,
    "stats.readers": 1,
    "stats.mt": 2,
    "stats.pairwise": 2,
    "stats.metaeval": 2,
    "stats.metaeval.perm_both": 2,
    "stats.human": 2,
    "stats.qe": 2,
    "stats.power": 2,
    "stats.export_tables": 3,
    "stats.analyses": 3,
    "stats.cli": 4,
    "dashboard": 5,
}
ENTRY_POINTS = {"stats", "stats.__main__"}

#: (importing module, imported module, name) allowed to cross rooms although private, with why
PRIVATE_EXCEPTIONS: dict[tuple[str, str, str | None], str] = {}

#: module circles allowed for now, with why (sorted module names)
CYCLE_EXCEPTIONS: dict[tuple[str, ...], str] = {}


def _modules() -> dict[str, tuple[Path, bool]]:
    out = {}
    for folder in ("stats", "dashboard"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            package = parts[-1] == "__init__"
            if package:
                parts = parts[:-1]
            out[".".join(parts)] = (path, package)
    return out


MODULES = _modules()


def _run_time_nodes(tree: ast.Module):
    """Every node but those under ``if TYPE_CHECKING:`` (never run)."""
    skip = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING":
            skip.update(id(n) for child in node.body for n in ast.walk(child))
    return [node for node in ast.walk(tree) if id(node) not in skip]


@functools.cache
def _imports(name: str) -> tuple[tuple[str, str | None, str, int], ...]:
    """``(imported module, imported name or None, the module it resolves to, line)`` of the
    imports that run (each module parsed once per test process: the tests below read the
    same graph)."""
    return tuple(_read_imports(name))


def _read_imports(name: str):
    path, package = MODULES[name]
    here = name if package else name.rsplit(".", 1)[0]
    for node in _run_time_nodes(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here.split(".")[: len(here.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                full = f"{target}.{alias.name}"
                yield target, alias.name, full if full in MODULES else target, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, alias.name, node.lineno


def _room(module: str) -> str | None:
    parts = module.split(".")
    if parts[0] == "dashboard":
        return "dashboard"
    if parts[0] != "stats":
        return None
    if module in ENTRY_POINTS:
        return module
    if parts[1:3] == ["metaeval", "perm_both"]:
        return "stats.metaeval.perm_both"
    return ".".join(parts[:2])


def _crossings():
    for name in MODULES:
        for target, imported, resolved, line in _imports(name):
            here, there = _room(name), _room(resolved)
            if there is not None and here != there and here not in ENTRY_POINTS:
                yield name, here, target, imported, resolved, there, line


def test_every_module_is_in_a_room_with_a_layer():
    rooms = {_room(m) for m in MODULES} - ENTRY_POINTS
    assert rooms <= set(LAYERS), rooms - set(LAYERS)


def test_no_private_name_crosses_rooms():
    """Another room is reached through public names of public modules: no ``_name``, no
    ``_module`` on the way (``stats._core``, the shared plumbing, is open to ``stats`` but not
    to the dashboard, which uses public ``stats`` names only)."""
    found = []
    for name, here, target, imported, _, _, line in _crossings():
        private_path = any(
            part.startswith("_") and not (part == "_core" and here != "dashboard")
            for part in target.split(".")[1:]
        )
        private_name = imported is not None and imported.startswith("_")
        if (private_path or private_name) and (name, target, imported) not in PRIVATE_EXCEPTIONS:
            found.append(f"{name}:{line} imports {target}.{imported}")
    assert not found, "\n".join(found)


def test_no_arrow_goes_up_a_layer():
    found = [
        f"{name}:{line} ({here}) imports {resolved} ({there})"
        for name, here, _, _, resolved, there, line in _crossings()
        if there not in ENTRY_POINTS and LAYERS[there] > LAYERS[here]
        or there in ENTRY_POINTS and here != "dashboard" and here != "stats.cli"
    ]
    assert not found, "\n".join(found)


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one node (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_circles_between_modules_or_rooms():
    modules: dict[str, set[str]] = {m: set() for m in MODULES}
    rooms: dict[str, set[str]] = {r: set() for r in LAYERS}
    for name in MODULES:
        for _, _, resolved, _ in _imports(name):
            if resolved in MODULES and resolved != name:
                modules[name].add(resolved)
    for _, here, _, _, _, there, _ in _crossings():
        if there not in ENTRY_POINTS:
            rooms[here].add(there)
    cycles = [c for c in _cycles(modules) if tuple(c) not in CYCLE_EXCEPTIONS]
    assert not cycles, cycles
    assert not _cycles(rooms), _cycles(rooms)


NAMESPACES = (
    "stats",
    "stats.analyses",
    "stats.human",
    "stats.metaeval",
    "stats.metaeval.perm_both",
    "stats.mt",
    "stats.pairwise",
    "stats.power",
    "stats.qe",
    "stats.readers",
)


def test_type_checking_imports_name_every_lazy_name_where_it_loads():
    """Each lazy namespace spells its table out under ``if TYPE_CHECKING:`` (IDEs and static
    tools do not run ``__getattr__``): the same names from the same modules."""
    import importlib

    for package in NAMESPACES:
        path, _ = MODULES[package]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        block = [
            node
            for node in tree.body
            if isinstance(node, ast.If) and getattr(node.test, "id", None) == "TYPE_CHECKING"
        ]
        assert len(block) == 1, package
        spelled = {
            alias.name: "." * node.level + (node.module or "")
            for node in block[0].body
            if isinstance(node, ast.ImportFrom)
            for alias in node.names
        }
        assert spelled == dict(importlib.import_module(package)._LAZY), package
