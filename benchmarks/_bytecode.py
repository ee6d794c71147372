"""Compile the project's modules to bytecode before timing whole processes.

An installed package carries its compiled bytecode (pip compiles it at install time), and so
do the public tools measured beside ours (sacrebleu, pandas in ``site-packages``). A machine
with ``PYTHONDONTWRITEBYTECODE`` set (this one is) never caches the project's own bytecode, so
each process would otherwise recompile every ``stats`` module it imports (about 0.1 s): a cost
no installed copy pays. The ``__pycache__`` directories this writes are git-ignored.
"""

from __future__ import annotations

import compileall
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def precompile() -> str:
    """Compile ``stats/`` in place; return a line saying so, for the benchmark's output."""
    ok = compileall.compile_dir(ROOT / "stats", quiet=1, force=False)
    flag = os.environ.get("PYTHONDONTWRITEBYTECODE")
    return (
        f"stats/ compiled to bytecode as an installed copy would be ({'ok' if ok else 'FAILED'}; "
        f"PYTHONDONTWRITEBYTECODE={flag or 'unset'})"
    )
