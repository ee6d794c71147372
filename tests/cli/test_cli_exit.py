"""The program's end (stats.cli.main as the process's own program): it leaves without the
interpreter's teardown, and loses nothing by it -- the whole output, the exit status, the
exit handlers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROGRAM = (
    "import atexit, sys\n"
    "atexit.register(lambda: print('exit handler ran', file=sys.stderr))\n"
    "from stats.cli import main\n"
    "sys.argv = ['mt-stats', *sys.argv[1:]]\n"
    "sys.exit(main())\n"
)


def _run(*args):
    return subprocess.run(
        [sys.executable, "-c", PROGRAM, *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"MT_SIGNIFICANCE_CACHE": "off", "PATH": ""},
    )


def test_output_status_and_exit_handlers_survive_the_quick_end(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(f"the cat sat on mat number {i} .\n" for i in range(60)))
    hyps = []
    for k in range(3):
        path = tmp_path / f"sys{k}.txt"
        path.write_text("".join(f"the cat sat on {k} mat {i % (k + 2)} .\n" for i in range(60)))
        hyps.append(path)
    done = _run("randomized", "--ref", ref, "--hyp", *hyps, "--resamples", "50", "--quiet")
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)["scores"]) == {"sys0", "sys1", "sys2"}
    assert done.stderr.strip().endswith("exit handler ran")
    bad = _run("randomized", "--ref", tmp_path / "missing.txt", "--hyp", *hyps)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error:") and "exit handler ran" in bad.stderr
