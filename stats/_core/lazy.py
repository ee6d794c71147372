"""Lazy re-exports of a package (PEP 562): a public name is imported from its submodule on
first access, so ``import stats`` and ``python -m stats SUBCOMMAND --help`` load neither scipy
nor pandas (nor sacrebleu) until a function needs them."""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Mapping


class _Package(types.ModuleType):
    """A package whose public function may share its name with the submodule defining it
    (``stats.perm_both``): importing the submodule does not replace the function."""

    def __setattr__(self, name, value):
        if isinstance(value, types.ModuleType) and self._lazy_exports.get(name) == f".{name}":
            value = getattr(value, name)
        super().__setattr__(name, value)


def lazy_exports(package: str, exports: Mapping[str, str]):
    """Make ``package`` import each name of ``exports`` (name -> relative module) on first
    access. Returns its ``__getattr__`` and ``__dir__``."""
    module = sys.modules[package]
    namespace = vars(module)

    def __getattr__(name: str):
        source = exports.get(name)
        if source is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(source, package), name)
        namespace[name] = value
        return value

    def __dir__():
        return sorted({*namespace, *exports})

    namespace["_lazy_exports"] = exports
    module.__class__ = _Package
    return __getattr__, __dir__
