"""Benchmark: the dashboard's first page load after the server is up (goal: within 5 s).

Starts ``streamlit run dashboard/app.py`` (headless, a free port) with Debian's chromium
already launched (Playwright), waits until the server answers its health check, then opens the
start page on the bundled sample data and stops the clock when its first Plotly charts are
drawn: what the first user of a freshly started server waits for (the server's first run
imports the statistics package, loads the compiled kernels and computes the sample's
analyses). The clock starts when the server answers (a new browser context, no HTTP cache) and
stops on the browser's own account: a chart counts once plotly.js has drawn it
(:func:`tests.browser.helpers.wait_for_charts`), not when the server sent it. At Playwright's
1280x720 window the first chart (the correlation dots) lies below the first screen, under the
title, the inputs and the controls, so the goal's clock runs past what the first screen shows;
"whole page" is when the page's last chart was drawn (the page's own clock, read once the
script has finished and the page has been still for a second: all of it a user can scroll to). ``--uncached`` points numba at an empty cache
(``NUMBA_CACHE_DIR``): the kernels then compile in that first run, as every first run did
before they were compiled at install.

Each checkout's server starts twice on one statistics cache directory
(``$MT_SIGNIFICANCE_CACHE``), empty at first: *cold*, the first start of a fresh install, then
*warm*, every later start (the bundled sample's analyses kept on disk by the first: see
:func:`dashboard.data.samples.kept_for_sample`). Also printed: the second page load (a new
browser context, so a new session that parses the frontend again, on the now warm server: the
browser's share of the first load) and the CPU seconds of the server and of chromium for each,
until the whole page is drawn. ``--against DIR`` runs the same measurement on another checkout
(e.g. ``git archive main | tar -x -C /tmp/base``; this checkout's interpreter runs it)
alternately with this one, ``--rounds`` times each, and prints the medians and their ratio:
before/after figures from one run on the same machine.

Usage::

    .venv/bin/python benchmarks/first_page.py [--uncached] [--charts 1]
    .venv/bin/python benchmarks/first_page.py --against /tmp/base --rounds 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS, _free_port  # noqa: E402
from tests.browser.helpers import (  # noqa: E402
    CHART_SELECTOR,
    wait_for_charts,
    wait_until_healthy,
    wait_until_still,
)

#: the page at rest: the script finished and every Plotly chart on the page drawn
_PAGE_DONE_JS = """
([sel, all]) => {
  const app = document.querySelector('[data-testid="stApp"]');
  const charts = document.querySelectorAll(all).length;
  return !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && charts > 0 && document.querySelectorAll(sel).length === charts;
}
"""
_ALL_CHARTS = '[data-testid="stPlotlyChart"]'
#: when each chart was drawn (the page's clock): the whole page's time is the last one's
_CHART_TIMES_JS = (
    "window.__chartTimes = [];\n"
    "new MutationObserver(() => {\n"
    f"  const n = document.querySelectorAll({json.dumps(CHART_SELECTOR)}).length;\n"
    "  while (window.__chartTimes.length < n) window.__chartTimes.push(performance.now());\n"
    "}).observe(document, {subtree: true, childList: true});\n"
)


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) the process ``pid`` has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _browser_cpu() -> float:
    """CPU seconds used so far by the chromium processes this benchmark started (descendants
    of this process: Playwright's driver and its browser; the server is not one of them)."""
    parents, cpu = {}, {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(stat.parent.name)
        parents[pid] = int(fields[1])
        cpu[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    mine, grew = {os.getpid()}, True
    while grew:
        new = {pid for pid, ppid in parents.items() if ppid in mine} - mine
        mine |= new
        grew = bool(new)
    total = 0.0
    for pid in mine - {os.getpid()}:
        try:
            if b"chromium" in Path(f"/proc/{pid}/cmdline").read_bytes():
                total += cpu[pid]
        except OSError:
            continue
    return total


def measure(browser, repo: Path, args, cache: Path) -> dict:
    """One fresh server of the checkout ``repo`` with the statistics cache in ``cache``: seconds
    from healthy to the first page's charts, the same for a second page (new context), and the
    CPU of each."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, MT_SIGNIFICANCE_CACHE=str(cache))
        if args.uncached:
            env["NUMBA_CACHE_DIR"] = tmp
        port = _free_port()
        log = open(args.log or Path(tmp, "streamlit.log"), "wb")  # noqa: SIM115
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "dashboard/app.py",
             "--server.headless", "true", "--server.address", "127.0.0.1",
             "--server.port", str(port), "--browser.gatherUsageStats", "false"],
            cwd=repo, env=env, stdout=log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        url = f"http://127.0.0.1:{port}"
        out: dict = {}
        try:
            t_start = time.perf_counter()
            if wait_until_healthy(url, proc, timeout=120, poll=0.1) is not None:
                raise SystemExit("streamlit did not start")
            out["up"] = time.perf_counter() - t_start
            for which in ("first", "second"):
                context = browser.new_context()
                context.add_init_script(_CHART_TIMES_JS)
                t0, cpu0, cpu_b0 = time.perf_counter(), _cpu(proc.pid), _browser_cpu()
                page = context.new_page()
                page.goto(url)
                # the page's clock (from its navigation) on this one: seconds from t0
                now = page.evaluate("performance.now()") / 1000
                offset = time.perf_counter() - t0 - now
                out[f"{which}_charts"] = wait_for_charts(page, args.charts, timeout=180)
                page.wait_for_function(
                    _PAGE_DONE_JS, arg=[CHART_SELECTOR, _ALL_CHARTS], timeout=180_000
                )
                # the script's end can be told before the last charts are mounted: the page
                # is whole when nothing has changed for a while
                wait_until_still(page, quiet=1.0, frames=10, timeout=180)
                # when plotly.js drew each chart, as the page saw it (polling from here would
                # add the time the busy page takes to answer)
                drawn = page.evaluate("window.__chartTimes")
                out[which] = offset + drawn[args.charts - 1] / 1000
                out[f"{which}_page"] = offset + drawn[-1] / 1000
                out[f"{which}_all_charts"] = len(drawn)
                out[f"{which}_server_cpu"] = _cpu(proc.pid) - cpu0
                out[f"{which}_browser_cpu"] = _browser_cpu() - cpu_b0
                context.close()
        finally:
            proc.terminate()
            proc.wait(timeout=20)
            log.close()
    return out


def _line(name: str, m: dict) -> str:
    return (
        f"{name}: server up in {m['up']:.1f} s; first page (first charts drawn) "
        f"{m['first']:.2f} s after, whole page ({m['first_all_charts']:.0f} charts) "
        f"{m['first_page']:.2f} s (server CPU {m['first_server_cpu']:.2f} s, chromium CPU "
        f"{m['first_browser_cpu']:.2f} s); second page {m['second']:.2f} s (server CPU "
        f"{m['second_server_cpu']:.2f} s, chromium CPU {m['second_browser_cpu']:.2f} s)"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--uncached", action="store_true")
    ap.add_argument("--charts", type=int, default=1, help="charts that make the page loaded")
    ap.add_argument("--log", default=None, help="keep the server's log in this file")
    ap.add_argument("--against", type=Path, default=None, help="another checkout, run alternately")
    ap.add_argument("--rounds", type=int, default=1, help="runs of each checkout (default 1)")
    args = ap.parse_args()
    from playwright.sync_api import sync_playwright  # noqa: PLC0415

    repos = {"this": REPO_ROOT}
    if args.against is not None:
        repos = {"against": args.against.resolve(), "this": REPO_ROOT}
    runs: dict = {f"{name}, {start}": [] for name in repos for start in ("cold", "warm")}
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            for k in range(args.rounds):
                for name, repo in repos.items():
                    with tempfile.TemporaryDirectory() as cache:
                        for start in ("cold", "warm"):
                            m = measure(browser, repo, args, Path(cache))
                            runs[f"{name}, {start}"].append(m)
                            print(f"  round {k + 1}, " + _line(f"{name}, {start}", m), flush=True)
        finally:
            browser.close()
    medians = {
        name: {key: statistics.median(m[key] for m in ms) for key in ms[0]}
        for name, ms in runs.items()
    }
    for name, m in medians.items():
        verdict = "ok" if m["first"] <= 5 else "OVER"
        print(
            f"median {_line(name, m)}; goal first page <= 5 s: {verdict}"
            f"{' [numba cache empty]' if args.uncached else ''}"
        )
    for start in ("cold", "warm") if "against, cold" in medians else ():
        this, other = medians[f"this, {start}"], medians[f"against, {start}"]
        print(
            f"this / against, {start} cache: first page {this['first'] / other['first']:.2f}x, "
            f"whole page {this['first_page'] / other['first_page']:.2f}x, "
            f"its server CPU {this['first_server_cpu'] / other['first_server_cpu']:.2f}x"
        )
    print(f"load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
