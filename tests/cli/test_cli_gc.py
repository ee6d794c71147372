"""The program's garbage-collector policy (stats.cli.main): only the program's own process
collects less often and freezes its heap before exit; main(argv) called as a function leaves
the caller's process as it is."""

from __future__ import annotations

import gc
import subprocess
import sys
from pathlib import Path

import pytest

from stats.cli import GC_THRESHOLD, main

ROOT = Path(__file__).resolve().parents[2]


def test_called_as_a_function_leaves_the_collector_alone(capsys):
    before = gc.get_threshold(), gc.get_freeze_count()
    with pytest.raises(SystemExit):
        main(["randomized", "--help"])
    assert (gc.get_threshold(), gc.get_freeze_count()) == before
    assert "randomized" in capsys.readouterr().out


def test_the_program_collects_less_often_and_freezes_before_exit():
    code = (
        "import gc, sys\n"
        "from stats.cli import main\n"
        "sys.argv = ['mt-stats', 'randomized', '--help']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "print(gc.get_threshold()[0], gc.get_freeze_count() > 0, file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stderr.split() == [str(GC_THRESHOLD), "True"]
