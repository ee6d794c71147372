"""Load test: N concurrent browser sessions, each uploading its own file.

Starts ``streamlit run dashboard/app.py`` on a free port and, for each N of ``--sessions``
(default 1, 10, 20), opens N Playwright pages in Debian's chromium (one browser context, i.e.
one Streamlit session, each) on the "Metrics vs humans" page and waits until every one has drawn
the sample data. Then all N upload at once a WMT system-level file of their own (synthetic,
seeded; the language pairs are named after the session, ``s07a-en``...), and each page is timed
from its upload (the file input's ``change`` event) to the first moment where every
chart shows that session's data (each chart's ``layout.datarevision`` new, the script idle) --
both read in the page, so opening the pages and Playwright's own round trips are not timed.
Each page is then checked for isolation: the language pairs in its charts are exactly its own,
none of another session's. An untimed upload first warms the fresh server up.

Prints, per N: the slowest and median seconds from upload to all charts drawn, the number of
sessions that saw exactly their own data, the server's peak resident memory (VmHWM of the
server process and its children, from /proc), and the CPU seconds per session spent by the
server and by the browser side (Chromium and Playwright's driver) during the uploads, with the
load average. Goal: with 20 sessions every session is correct and the slowest is within 10x the
single-session time. Server and browsers share this machine's cores, so the slowest of N
sessions takes at least N x (server + browser CPU per session) / cores seconds, whatever the
server does: printed as the CPU floor, with the server's own share (its script runs take turns
on one core: one process, one GIL).

This is a benchmark, not a test: run it on a quiet machine::

    .venv/bin/python benchmarks/load.py                    # N = 1, 10, 20
    .venv/bin/python benchmarks/load.py --sessions 1 3     # smoke
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

from dashboard_render import free_port, make_scores, start_app  # noqa: E402

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.browser.helpers import CHART_SELECTOR  # noqa: E402

N_CHARTS = 5
_SESSION_LP = re.compile(r"s\d+[a-z]-en")  #: the LP names of session_lps
GOAL_RATIO = 10.0
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100

# Whether every chart is drawn (at least ``n``, each laid out by plotly.js and none showing a
# data revision from ``window._old``: dashboard/transport.py hashes each figure's content into
# layout.datarevision), the script idle, and the LP ``lp`` among the chart titles. Streamlit
# keeps a new chart hidden until it hands the container's width over in layout.width, and
# plotly.js draws it again then; that second drawing is not waited for: with several headless
# pages open, some never got the handover (no animation frames), so it would never end.
_READY_BODY = """
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  const charts = Array.from(document.querySelectorAll(sel));
  if (charts.length < n) return false;
  if (charts.some(gd => !gd._fullLayout || window._old.has(gd.layout.datarevision))) return false;
  return Array.from(document.querySelectorAll(
      '.js-plotly-plot .gtitle, .js-plotly-plot .annotation-text'))
    .some(e => e.textContent === lp);
"""
# Arms the page's own clock: the upload starts it (the file input's change event, not when
# Playwright was asked to send the file); every DOM change queues one check after the task that
# made it (a timer, not an animation frame: with several headless pages open, a second page's
# animation frame callbacks were seen not to run), and the first check that finds the charts
# ready stops it. Nothing polls the page
# meanwhile, so the timing adds no work to the pages being timed, and Playwright's round trips
# are not in it.
_ARM_JS = (
    """
([sel, n, lp, old]) => {
  window._old = new Set(old ? Array.from(document.querySelectorAll('.js-plotly-plot'))
      .map(gd => gd.layout && gd.layout.datarevision) : []);
  window._changed = null;
  window._drawn = null;
  document.addEventListener('change', (e) => {
    if (window._changed === null) window._changed = e.timeStamp;
  }, {capture: true, once: true});
  const ready = () => {"""
    + _READY_BODY
    + """};
  let queued = false;
  const check = () => {
    queued = false;
    if (window._drawn === null && ready()) {
      window._drawn = performance.now();
      observer.disconnect();
    }
  };
  const observer = new MutationObserver(() => {
    if (!queued) { queued = true; setTimeout(check, 0); }
  });
  observer.observe(document.documentElement,
                   {subtree: true, childList: true, attributes: true, characterData: true});
  setTimeout(check, 0);
}
"""
)
_DRAWN_JS = "() => window._drawn !== null"
_TITLES_JS = """
() => Array.from(document.querySelectorAll(
    '.js-plotly-plot .gtitle, .js-plotly-plot .annotation-text')).map(e => e.textContent)
"""


def session_lps(session: int, lps: int) -> list[str]:
    return [f"s{session:02d}{chr(97 + k)}-en" for k in range(lps)]


def write_file(path: Path, session: int, args) -> list[str]:
    """The session's file: make_scores's data with the LPs renamed after the session."""
    generic = make_scores(path, args.lps, args.systems, args.metrics, seed=1000 + session)
    text = path.read_text()
    own = session_lps(session, args.lps)
    for old, new in zip(generic, own, strict=True):
        text = text.replace(f"\t{old}\t", f"\t{new}\t")
    path.write_text(text)
    return own


def _processes() -> dict[int, tuple[int, float, int]]:
    """pid -> (parent pid, CPU seconds of the process and its reaped children, VmHWM in kB)."""
    out = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
            status = (stat.parent / "status").read_text()
        except OSError:
            continue
        ticks = sum(int(f) for f in fields[11:15])  # utime, stime, cutime, cstime
        hwm = next((int(line.split()[1]) for line in status.splitlines()
                    if line.startswith("VmHWM:")), 0)  # fmt: skip
        out[int(stat.parent.name)] = (int(fields[1]), ticks / _CLOCK_TICKS, hwm)
    return out


def _tree(procs: dict, root: int) -> set[int]:
    """``root`` and its live descendants."""
    tree, grew = {root}, True
    while grew:
        new = {pid for pid, (ppid, _, _) in procs.items() if ppid in tree} - tree
        tree |= new
        grew = bool(new)
    return tree & set(procs) | {root}


class Usage:
    """CPU seconds used so far by the server (its process tree) and by the browser side (every
    other descendant of this process: Playwright's driver, Chromium and its renderers), and the
    server's peak resident memory."""

    def __init__(self, server_pid: int):
        self.server_pid = server_pid

    def snapshot(self) -> tuple[float, float, float]:
        """(server CPU s, browser-side CPU s, server peak memory MB: VmHWM of the server and
        its live children)."""
        procs = _processes()
        server = _tree(procs, self.server_pid)
        ours = _tree(procs, os.getpid()) - {os.getpid()}
        cpu = lambda pids: sum(procs[p][1] for p in pids if p in procs)  # noqa: E731
        hwm = sum(procs[p][2] for p in server if p in procs) / 1024
        return cpu(server), cpu(ours - server), hwm


async def open_session(browser, url: str):
    """A fresh browser context (one Streamlit session) on the page, drawn with the sample."""
    context = await browser.new_context(viewport={"width": 1600, "height": 1000})
    page = await context.new_page()
    page.set_default_timeout(600_000)
    await page.goto(url)
    await page.evaluate(_ARM_JS, [CHART_SELECTOR, N_CHARTS, "es-en", False])
    await page.wait_for_function(_DRAWN_JS, polling=250)
    return context, page


async def timed_upload(page, file: Path, own: list[str]) -> tuple[float, bool]:
    """(seconds from the upload to all charts drawn with this file's data, the session saw
    exactly its own LPs), both read in the page."""
    await page.evaluate(_ARM_JS, [CHART_SELECTOR, N_CHARTS, own[-1], True])
    uploader = page.locator('[data-testid="stFileUploader"] input[type="file"]').first
    await uploader.set_input_files(str(file))
    await page.wait_for_function(_DRAWN_JS, polling=250)
    t0, t1 = await page.evaluate("[window._changed, window._drawn]")
    titles = set(await page.evaluate(_TITLES_JS))
    seen = {t for t in titles if _SESSION_LP.fullmatch(t)}
    return (t1 - t0) / 1000, seen == set(own)


async def run_level(browser, url: str, tmp: Path, n: int, args, usage: Usage, level: int) -> dict:
    """N sessions opened and idle, then all upload at once; timings, isolation, CPU use.
    Every file is new to the server (``level`` numbers the calls): no cached results."""
    files = []
    for s in range(n):
        path = tmp / f"load_{level}_{s}.tsv"
        files.append((path, write_file(path, s + 100 * level, args)))
    sessions = await asyncio.gather(*(open_session(browser, url) for _ in range(n)))
    await asyncio.sleep(1)  # the pages' own start-up work settles
    before = usage.snapshot()
    load0 = os.getloadavg()[0]
    results = await asyncio.gather(
        *(timed_upload(page, f, own) for (_, page), (f, own) in zip(sessions, files, strict=True))
    )
    after = usage.snapshot()
    await asyncio.gather(*(context.close() for context, _ in sessions))
    times = [t for t, _ in results]
    return {
        "times": times,
        "correct": sum(ok for _, ok in results),
        "server_cpu": (after[0] - before[0]) / n,
        "browser_cpu": (after[1] - before[1]) / n,
        "peak_mb": after[2],
        "load": (load0, os.getloadavg()[0]),
    }


async def main_async(args) -> None:
    from playwright.async_api import async_playwright

    port = free_port()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        log = open(tmp / "streamlit.log", "wb")  # noqa: SIM115
        proc = start_app(port, log)
        usage = Usage(proc.pid)
        url = f"http://127.0.0.1:{port}"
        try:
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                print(
                    f"Load test, Metrics vs humans page, each session its own file of "
                    f"{args.lps} LPs x {args.systems} systems x {args.metrics} metrics"
                )
                # warm-up, untimed: the first upload in a fresh server process imports and
                # compiles what the sample data did not need
                await run_level(browser, url, tmp, 1, args, usage, level=0)
                single = None
                for k, n in enumerate(args.sessions, start=1):
                    level = await run_level(browser, url, tmp, n, args, usage, level=k)
                    times = level["times"]
                    slowest = max(times)
                    single = slowest if single is None and n == 1 else single
                    ratio = f", {slowest / single:.1f}x the single session" if single else ""
                    print(
                        f"  N = {n:2d}: slowest {slowest:.2f} s, median "
                        f"{statistics.median(times):.2f} s upload to charts{ratio}; "
                        f"{level['correct']}/{n} sessions saw exactly their own data; server "
                        f"peak memory {level['peak_mb']:.0f} MB\n"
                        f"          CPU per session: server {level['server_cpu']:.2f} s, "
                        f"browser side {level['browser_cpu']:.2f} s; load average "
                        f"{level['load'][0]:.1f} -> {level['load'][1]:.1f}"
                    )
                    # what the cores allow: every session's CPU spread over all cores, and the
                    # server's script runs one at a time (one process, one GIL)
                    cores = os.cpu_count() or 1
                    floor = n * (level["server_cpu"] + level["browser_cpu"]) / cores
                    serial = n * level["server_cpu"]
                    print(
                        f"          CPU floor for the slowest: {floor:.1f} s on {cores} cores"
                        + (f" ({floor / single:.1f}x the single session)" if single else "")
                        + f"; the server's share, one run at a time: {serial:.1f} s"
                    )
                if single and max(args.sessions) > 1:
                    print(f"  goal: every session correct, slowest within {GOAL_RATIO:g}x the "
                          f"single-session time")  # fmt: skip
                await browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sessions", type=int, nargs="+", default=[1, 10, 20])
    ap.add_argument("--lps", type=int, default=3)
    ap.add_argument("--systems", type=int, default=15)
    ap.add_argument("--metrics", type=int, default=12)
    args = ap.parse_args(argv)
    if not os.path.exists(CHROMIUM):
        raise SystemExit(f"{CHROMIUM} not found: this benchmark needs Debian's chromium")
    asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
