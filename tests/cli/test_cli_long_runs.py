"""Long command-line runs: no fixed operation count refuses work that memory allows, a bar
with the time left on stderr (only on a terminal, never with ``--quiet``), ``--max-seconds``
checked against the estimate before the run, Ctrl-C ends a run with one line; ``rank`` also
takes the dashboard's per-language-pair task set and a gold."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time

import pytest

from stats import OverTimeBound, StatsInputError, time_bounded
from stats._core import budget
from stats._core.budget import check_budget, check_run_budget, estimated_seconds
from stats.cli import main
from stats.cli._progress import bars, progress_callback
from tests._task_set_data import write_wmt_like

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.fixture(scope="module")
def wmt_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("wmt")
    return write_wmt_like(root, lps=("en-de", "en-es"), n_systems=5, n_items=12, seed=4)


def test_time_bound_replaces_the_operation_count():
    # the case: 2.59e10 operations, over MAX_WORK (1e10): refused outside, run inside
    with pytest.raises(StatsInputError, match="over the budget of 1e\\+10"):
        check_run_budget(what="task set", n_resamples=1000, per_resample=2.59e7)
    with time_bounded():
        check_run_budget(what="task set", n_resamples=1000, per_resample=2.59e7)
        check_budget(what="paired-bootstrap", n_resamples=10**6, n_segments=10**5, n_systems=5)
        # a session's own lower work limit counts no more either, memory still does
        with budget.limited_budget(max_work=1e6, max_memory=1e6):
            check_budget(what="x", n_resamples=10**4, n_segments=10**4)
            with pytest.raises(StatsInputError, match="memory"):
                check_budget(what="x", n_resamples=10, memory=2e6)


def test_max_seconds_is_checked_against_the_estimate():
    per = 1e7
    work = 1000 * per
    with time_bounded(max_seconds=estimated_seconds(work) * 2):
        check_run_budget(what="task set", n_resamples=1000, per_resample=per)
    with time_bounded(max_seconds=1.0), pytest.raises(OverTimeBound) as info:
        check_run_budget(what="task set", n_resamples=1000, per_resample=per)
    exc = info.value
    assert exc.seconds == pytest.approx(estimated_seconds(work))
    assert exc.max_seconds == 1.0
    # the most resamples that fit, said in the message too
    assert exc.most == int(budget.OPERATIONS_PER_SECOND // per)
    assert f"at most {exc.most:,}" in str(exc) and "max_seconds=1" in str(exc)
    with pytest.raises(StatsInputError, match="max_seconds must be a positive number"):
        with time_bounded(max_seconds=0):
            pass


def test_max_seconds_flag_refuses_before_the_run(capsys, wmt_dir):
    code = main(["rank", "--data", str(wmt_dir), "--task-set", "per-lp", "--resamples",
                 "10000000", "--max-seconds", "1"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2
    assert err.startswith("error: ") and err.count("\n") == 1, err
    assert "--max-seconds" in err and "--resamples" in err and "estimated" in err


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_bar_only_on_a_terminal_and_not_quiet(monkeypatch):
    term = _Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    monkeypatch.setattr("stats.cli._progress.DELAY", 0)
    monkeypatch.setattr("stats.cli._progress.MININTERVAL", 0)
    with bars(quiet=False):
        update = progress_callback("rank: PERM-BOTH")
        assert update is not None
        for k in range(1, 11):
            update(k / 10)
    shown = term.getvalue()
    assert "rank: PERM-BOTH" in shown and "100%" in shown and "left" in shown
    with bars(quiet=True):
        assert progress_callback("x") is None
    monkeypatch.setattr(sys, "stderr", io.StringIO())  # a pipe or a log: no bar
    with bars(quiet=False):
        assert progress_callback("x") is None
    assert progress_callback("x") is None  # outside a command


def test_rank_per_lp_and_gold(capsys, wmt_dir):
    code = main(["rank", "--data", str(wmt_dir), "--task-set", "per-lp", "--gold", "mqm",
                 "--resamples", "50", "--quiet"])  # fmt: skip
    out = capsys.readouterr()
    assert code == 0, out.err
    doc = json.loads(out.out)
    assert doc["task_set"] == "per-lp"
    assert [(t["lp"], t["level"]) for t in doc["tasks"]] == [
        ("en-de", "sys"), ("en-de", "seg"), ("en-es", "sys"), ("en-es", "seg")
    ]
    assert {t["gold"] for t in doc["tasks"]} == {"mqm"}
    assert "█" not in out.err  # captured stderr is no terminal: no bar


def _wait_for_cpu(pid: int, seconds: float, timeout: float = 120.0) -> None:
    """Until process ``pid`` has used ``seconds`` of CPU (past its imports on a loaded machine)."""
    tick = os.sysconf("SC_CLK_TCK")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        except OSError:
            return
        if (int(fields[11]) + int(fields[12])) / tick >= seconds:
            return
        time.sleep(0.2)


#: ``python -m stats`` as a shell starts it: SIGINT unblocked, at Python's handler (a child
#: inherits its parent's signal mask and ignored signals, and a test worker's may differ)
_STATS_AS_FROM_A_SHELL = (
    "import signal; signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT]); "
    "signal.signal(signal.SIGINT, signal.default_int_handler); import runpy, sys; "
    "sys.argv[0] = 'stats'; runpy.run_module('stats', run_name='__main__', alter_sys=True)"
)


def _signal_state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/status") as f:
            return " ".join(ln.strip() for ln in f if ln.startswith(("SigBlk", "SigIgn", "SigCgt")))
    except OSError:
        return "(gone)"


def test_ctrl_c_stops_with_one_line(tmp_path):
    base = write_wmt_like(tmp_path, lps=("en-de",), n_systems=8, n_items=400, seed=1)
    env = {**os.environ, "PYTHONPATH": REPO}
    proc = subprocess.Popen(
        [sys.executable, "-c", _STATS_AS_FROM_A_SHELL, "rank", "--data", str(base),
         "--task-set", "per-lp", "--resamples", "2000000"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=REPO,
    )  # fmt: skip
    try:
        _wait_for_cpu(proc.pid, seconds=4.0)  # imports, reading, and into the resamples
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGINT)
        try:
            out, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            pytest.fail(f"no exit 60 s after SIGINT; the process's signals: {_signal_state(proc.pid)}")
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert out == ""
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("interrupted: rank stopped by Ctrl-C after"), err


#: ``python -m stats`` (runpy.run_module is what ``-m`` does) with the bar shown from the first
#: update (the command's own delay, 2 s, would make this test wait for it)
_STATS_WITHOUT_BAR_DELAY = (
    "import runpy, sys; import stats.cli._progress as p; p.DELAY = 0; p.MININTERVAL = 0; "
    "sys.argv[0] = 'stats'; runpy.run_module('stats', run_name='__main__', alter_sys=True)"
)


def _read_until_closed(fd: int) -> bytes:
    chunks = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # EIO: the child's end of the terminal is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    return b"".join(chunks)


def test_rank_three_pairs_end_to_end_with_progress_on_a_terminal(tmp_path):
    """The issue's 3-language-pair task set (system-level Pearson and segment-level Kendall by
    item per pair), small: ``rank`` run as a command with stderr on a pseudo-terminal draws its
    bar there with the time left, and stdout holds the whole JSON result."""
    import pty
    import re
    import threading

    lps = ("en-de", "en-es", "ja-zh")
    base = write_wmt_like(tmp_path / "data", lps=lps, n_systems=6, n_items=60, seed=46)
    master, child = pty.openpty()
    err: list[bytes] = []
    reader = threading.Thread(target=lambda: err.append(_read_until_closed(master)))
    reader.start()
    with open(tmp_path / "out.json", "wb") as out:
        proc = subprocess.run(
            [sys.executable, "-c", _STATS_WITHOUT_BAR_DELAY, "rank", "--data", str(base),
             "--task-set", "per-lp", "--resamples", "200", "--seed", "1"],
            stdout=out, stderr=child, env={**os.environ, "PYTHONPATH": REPO}, cwd=REPO,
            timeout=120,
        )  # fmt: skip
    os.close(child)
    reader.join(timeout=30)
    os.close(master)
    shown = b"".join(err).decode(errors="replace")
    assert proc.returncode == 0, shown
    # the bar: its name, a fraction and an estimate of the time left ("~00:01 left", not "?")
    assert "rank: PERM-BOTH, 200 resamples per task" in shown, shown
    assert re.search(r"\d+%\|.*\| \d\d:\d\d elapsed, ~\d\d:\d\d left", shown), shown
    doc = json.loads((tmp_path / "out.json").read_text())
    assert doc["task_set"] == "per-lp"
    assert [(t["lp"], t["level"]) for t in doc["tasks"]] == [
        (lp, level) for lp in lps for level in ("sys", "seg")
    ]
    metrics = set(doc["average"])
    assert len(metrics) >= 2 and set(doc["rank"]) == metrics
    assert all(set(t["correlations"]) == metrics for t in doc["tasks"]), doc["tasks"]
    assert set(doc["pvalues"]) == metrics
