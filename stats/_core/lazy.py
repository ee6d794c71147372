"""Lazy re-exports of a package (PEP 562): a public name is imported from its submodule on
first access, so ``import stats`` and ``python -m stats SUBCOMMAND --help`` load neither scipy
nor pandas (nor sacrebleu) until a function needs them."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Mapping


def lazy_exports(package: str, exports: Mapping[str, str]):
    """Make ``package`` import each name of ``exports`` (name -> relative module) on first
    access. Returns its ``__getattr__`` and ``__dir__``.

    A name is never also a submodule's name (``stats.metaeval`` leaves ``perm_both``, its
    subpackage, to ``stats.perm_both``): importing the submodule would replace the name on the
    package."""
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

    return __getattr__, __dir__
