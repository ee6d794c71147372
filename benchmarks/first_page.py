"""Benchmark: the dashboard's first page load after the server is up (goal: within 5 s).

Starts ``streamlit run dashboard/app.py`` (headless, a free port) with Debian's chromium
already launched (Playwright), waits until the server answers its health check, then opens the
start page on the bundled sample data and stops the clock when its first Plotly charts are
drawn: what the first user of a freshly started server waits for (the server's first run
imports the statistics package, loads the compiled kernels and computes the sample's
analyses). ``--uncached`` points numba at an empty cache (``NUMBA_CACHE_DIR``): the kernels
then compile in that first run, as every first run did before they were compiled at install.

Usage::

    .venv/bin/python benchmarks/first_page.py [--uncached] [--charts 1]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, _free_port  # noqa: E402
from tests.browser.helpers import wait_for_charts  # noqa: E402


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) the process ``pid`` has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uncached", action="store_true")
    ap.add_argument("--charts", type=int, default=1, help="charts that make the page loaded")
    ap.add_argument("--log", default=None, help="keep the server's log in this file")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        env = dict(os.environ, MT_SIGNIFICANCE_CACHE="off")
        if args.uncached:
            env["NUMBA_CACHE_DIR"] = tmp
        port = _free_port()
        log = open(args.log or Path(tmp, "streamlit.log"), "wb")  # noqa: SIM115
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "dashboard/app.py",
             "--server.headless", "true", "--server.address", "127.0.0.1",
             "--server.port", str(port), "--browser.gatherUsageStats", "false"],
            cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        try:
            t_start = time.perf_counter()
            while True:
                try:
                    with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as resp:
                        if resp.read().strip() == b"ok":
                            break
                except OSError:
                    pass
                if proc.poll() is not None or time.perf_counter() - t_start > 120:
                    raise SystemExit("streamlit did not start")
                time.sleep(0.1)
            t_up = time.perf_counter()
            cpu_up = _cpu(proc.pid)
            page = browser.new_page()
            page.goto(url)
            n = wait_for_charts(page, args.charts, timeout=180)
            t_page = time.perf_counter() - t_up
            cpu_page = _cpu(proc.pid) - cpu_up
        finally:
            proc.terminate()
            proc.wait(timeout=20)
            log.close()
            browser.close()
    verdict = "ok" if t_page <= 5 else "OVER"
    print(
        f"server up in {t_up - t_start:.1f} s; first page ({n} charts) {t_page:.1f} s after "
        f"(goal <= 5 s: {verdict}), the server's CPU for it {cpu_page:.1f} s"
        f"{' [numba cache empty]' if args.uncached else ''}"
    )


if __name__ == "__main__":
    main()
