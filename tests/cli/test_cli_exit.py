"""The program's end (stats.cli.main in a process started as ``python -m stats``): it leaves
without the interpreter's teardown and loses nothing by it -- the whole output, the exit
status, the exit handlers; a script that calls main() itself goes on after it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: ``python -m stats ARGS`` (runpy as ``-m`` runs it), with an exit handler and a line that only
#: an exit through the interpreter's usual path prints
AS_MODULE = (
    "import atexit, runpy, sys\n"
    "atexit.register(lambda: print('exit handler ran', file=sys.stderr))\n"
    "sys.argv = ['stats', *sys.argv[1:]]\n"
    "try:\n"
    "    runpy.run_module('stats', run_name='__main__', alter_sys=True)\n"
    "finally:\n"
    "    print('usual exit', file=sys.stderr)\n"
)

#: a script calling main() as the program, then going on
AS_FUNCTION = (
    "import sys\n"
    "from stats.cli import main\n"
    "sys.argv = ['mt-stats', *sys.argv[1:]]\n"
    "code = main()\n"
    "print('went on', code, file=sys.stderr)\n"
)


def _run(program, *args):
    return subprocess.run(
        [sys.executable, "-c", program, *map(str, args)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"MT_SIGNIFICANCE_CACHE": "off", "PATH": ""},
    )


def _files(tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(f"the cat sat on mat number {i} .\n" for i in range(60)))
    hyps = []
    for k in range(3):
        path = tmp_path / f"sys{k}.txt"
        path.write_text("".join(f"the cat sat on {k} mat {i % (k + 2)} .\n" for i in range(60)))
        hyps.append(path)
    return ref, hyps


def test_output_status_and_exit_handlers_survive_the_quick_end(tmp_path):
    ref, hyps = _files(tmp_path)
    args = ["randomized", "--ref", ref, "--hyp", *hyps, "--resamples", "50", "--quiet"]
    done = _run(AS_MODULE, *args)
    assert done.returncode == 0, done.stderr
    assert set(json.loads(done.stdout)["scores"]) == {"sys0", "sys1", "sys2"}
    assert done.stderr.strip() == "exit handler ran"  # and not the usual exit's line
    bad = _run(AS_MODULE, "randomized", "--ref", tmp_path / "missing.txt", "--hyp", *hyps)
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("error:") and bad.stderr.strip().endswith("exit handler ran")
    assert "usual exit" not in bad.stderr


def test_a_script_calling_main_goes_on(tmp_path):
    ref, hyps = _files(tmp_path)
    done = _run(AS_FUNCTION, "randomized", "--ref", ref, "--hyp", *hyps, "--resamples", "50")
    assert done.returncode == 0, done.stderr
    assert "pvalues" in done.stdout and done.stderr.strip().endswith("went on 0")
