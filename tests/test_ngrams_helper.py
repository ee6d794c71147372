"""The n-gram matching helper process (stats._ngrams_helper): the counts it returns equal this
process's own; a helper that dies or was never asked changes nothing; it is not started where
numba is loaded already, one core is asked for, or other threads run. Run in a fresh
interpreter (numba not yet loaded there, as in a command-line process); Linux only (fork)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork: Linux only")

SCRIPT = """
import sys
import numpy as np
from stats import _ngrams_helper as helper, _ngrams_numba
import os
os.getloadavg = lambda: (0.0, 0.0, 0.0)  # an idle machine (else no helper: a busy one)
os.cpu_count = lambda: 2  # (one core: no helper)

os.getloadavg = lambda: (9.0, 9.0, 9.0)
assert not helper.start(2), "no core free: no helper"
os.getloadavg = lambda: (0.0, 0.0, 0.0)
rng = np.random.default_rng(1)
lengths = rng.integers(0, 300, 12)
tokens = rng.integers(0, 40, int(lengths.sum()))
hyp, ref = np.arange(6, 12), np.arange(6)
args = (tokens, lengths, 40, 6, hyp, ref)
assert not helper.start(1), "one core: no helper"
import threading
stop_waiting = threading.Event()
other = threading.Thread(target=stop_waiting.wait)
other.start()
assert not helper.start(2), "another thread runs: no fork"
stop_waiting.set()
other.join()
assert helper.start(2)
helper.stop()  # never asked: killed at once
assert not helper.running()
assert helper.start(2) and helper.running()
via_helper = helper.order_matches(*args, threads=2)
assert via_helper is not None and "numba" not in sys.modules, "the helper did the work"
local = _ngrams_numba.local_order_matches(*args)
assert (via_helper == local).all()
helper.stop()
assert not helper.running() and helper.order_matches(*args, threads=2) is None
assert not helper.start(2), "numba loaded here: no helper"
print("ok")
"""

DIES = """
import numpy as np
from stats import _ngrams_helper as helper, _ngrams_numba
import os
os.getloadavg = lambda: (0.0, 0.0, 0.0)  # an idle machine (else no helper: a busy one)
os.cpu_count = lambda: 2  # (one core: no helper)

import os, signal
assert helper.start(2)
os.kill(helper._pid, signal.SIGKILL)
os.waitpid(helper._pid, 0)
tokens, lengths = np.array([0, 0, 1, 0, 1]), np.array([3, 2])
got = _ngrams_numba.order_matches(tokens, lengths, 2, 3, np.array([0]), np.array([1]), threads=2)
assert got[:, 0].tolist() == [2, 1, 0] and not helper.running()
print("ok")
"""


def _run(code: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.strip()


def test_helper_counts_equal_local_counts_and_it_stops():
    assert _run(SCRIPT) == "ok"


def test_a_dead_helper_leaves_the_work_to_this_process():
    assert _run(DIES) == "ok"


def test_the_program_with_its_helper_prints_what_main_returns(tmp_path, capsys, monkeypatch):
    # `python -m stats randomized` (a helper loads the kernel) against main(argv) in this
    # process (no helper): the same bytes
    from stats.cli import main

    rng = np.random.default_rng(3)
    words = np.array(["ein", "Haus", "ist", "groß", ",", ".", "und", "klein"])
    files = []
    for name in ("ref", "A", "B", "C"):
        path = tmp_path / f"{name}.txt"
        path.write_text("\n".join(" ".join(rng.choice(words, 30)) for _ in range(40)) + "\n")
        files.append(str(path))
    argv = [
        "randomized",
        "--ref",
        files[0],
        "--hyp",
        *files[1:],
        "--metric",
        "bleu",
        "chrf",
        "--resamples",
        "50",
    ]
    env = {**os.environ, "MT_SIGNIFICANCE_CACHE": "off"}
    done = subprocess.run(
        [sys.executable, "-m", "stats", *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", "off")
    assert main(argv) == 0
    assert done.stdout == capsys.readouterr().out
