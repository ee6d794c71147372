"""The CLI leaves BLAS at one thread (its own --jobs threads do the parallel work) unless the
user set the thread count; in-process callers that already loaded numpy are left alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PROBE = """
import os, sys
from stats.cli import main
try:
    main(["randomized", "--help"])
except SystemExit:
    pass
import numpy  # BLAS reads its thread count here
print(os.environ.get("OPENBLAS_NUM_THREADS"), os.environ.get("OMP_NUM_THREADS"))
"""


def _run(**env) -> list[str]:
    full = {k: v for k, v in os.environ.items()
            if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")}
    full.update(PYTHONPATH=str(ROOT), **env)
    out = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True,
                         env=full, cwd=ROOT, check=True)
    return out.stdout.split()[-2:]


def test_blas_left_at_one_thread():
    assert _run() == ["1", "1"]


def test_a_users_setting_wins():
    assert _run(OPENBLAS_NUM_THREADS="3") == ["3", "1"]
