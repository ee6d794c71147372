"""Load test: does a heavy session slow another one down?

Starts ``streamlit run dashboard/app.py`` on a free port. A *probe* session (one Playwright page
in Debian's chromium on the "Metrics vs humans" page) uploads a WMT system-level file of its
own (synthetic, seeded; its language pairs named after the upload, ``s07a-en``...) and is timed
from the upload (the file input's ``change`` event) to every chart drawn with its data, read in
the page. It does so on the idle server, then while ``--heavy`` other sessions (default 5) run
heavy analyses, one after another for as long as the probe runs: randomized tests of all pairs
with 10,000 resamples (paired bootstrap, bootstrap, approximate randomization on MT systems; the
tests of Tests vs humans), each run with a seed of its own. The heavy sessions are browser pages
too, but while the server computes their browsers have nothing to do: what is measured is the
server.

Prints the probe's median (and each) upload-to-charts time idle and loaded and their ratio
(goal: at most 3x), the server's resident memory (VmRSS of the server and its children, sampled
every 0.2 s throughout; goal: below 1.5 GB), whether every heavy session was still computing
how many heavy analyses finished meanwhile, and whether every session showed its own numbers:
the probe exactly its own language pairs, each heavy analysis the seed it asked for beside its
p-values.

``--hostile N`` measures something else: N sessions on the Quality estimation page
each upload, at once, a WMT QE submissions zip of about 26 MB whose last row is bad (with its
gold file; generated, seeded: ``tests/_big_qe.py``). While they are read, the server's health
check (``/_stcore/health``) is timed back to back and the memory of the server's process and
of its whole tree (the children that read) is sampled every 0.1 s. The health check is timed
twice over: from a process of its own (the server's answer; the figure held to the goal), and
from this process beside Playwright (which reads each upload and hands it to the browser, its
time counts there: the difference is the client's, not the server's). Prints the health check's
median, 95th percentile and worst time (goal: under 1 s), both memory peaks against the
session budget, what each session showed in the end (its error line) and after how long, and
the load average.

This is a benchmark, not a test: run it on a quiet machine::

    .venv/bin/python benchmarks/load.py                 # 5 heavy sessions, 3 probes each way
    .venv/bin/python benchmarks/load.py --heavy 2 --probes 1     # smoke
    .venv/bin/python benchmarks/load.py --hostile 3     # three hostile QE uploads at once
    .venv/bin/python benchmarks/load.py --hostile 3 --visits 14 --py-spy spy.txt
        # ... while fresh sessions open the pages, the server's GIL holders recorded
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))
sys.path.insert(0, str(REPO_ROOT / "benchmarks"))

from dashboard_render import free_port, make_scores, start_app  # noqa: E402

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.browser.helpers import CHART_SELECTOR  # noqa: E402

N_CHARTS = 5
_SESSION_LP = re.compile(r"s\d+[a-z]-en")  #: the LP names of session_lps
GOAL_RATIO = 3.0
GOAL_RSS_MB = 1_500
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


class RssSampler:
    """The server's resident memory (VmRSS of its process tree, MB), sampled every ``every``
    seconds in the background; ``peak`` is the largest sample."""

    def __init__(self, server_pid: int, every: float = 0.2):
        self.server_pid, self.every, self.peak, self._task = server_pid, every, 0.0, None

    def sample(self) -> float:
        total = 0
        for pid in _tree(_processes(), self.server_pid):
            try:
                status = Path(f"/proc/{pid}/status").read_text()
            except OSError:
                continue
            total += next((int(line.split()[1]) for line in status.splitlines()
                           if line.startswith("VmRSS:")), 0)  # fmt: skip
        mb = total / 1024
        self.peak = max(self.peak, mb)
        return mb

    async def _run(self):
        while True:
            await asyncio.to_thread(self.sample)
            await asyncio.sleep(self.every)

    def start(self):
        self._task = asyncio.get_running_loop().create_task(self._run())

    def stop(self):
        if self._task:
            self._task.cancel()


#: the heavy analyses: pages with their settings (a new seed per run)
HEAVY_PAGES = ("mt_systems?resamples=10000&seed={seed}", "human?resamples=10000&seed={seed}")


async def heavy_shows_own_seed(page, seed: int) -> bool:
    """Once its analysis is done: the page names its own seed beside the p-values, and no
    other."""
    await page.wait_for_function(
        "() => document.querySelector('[data-testid=\"stApp\"]')"
        "?.getAttribute('data-test-script-state') === 'notRunning'"
        " && document.querySelectorAll('.js-plotly-plot').length > 0"
        " && !document.querySelector('[data-testid=\"stProgress\"]')",
        polling=500,
    )
    text = await page.evaluate("() => document.body.innerText")
    return set(re.findall(r"seed (\d+)", text)) == {str(seed)}


async def heavy_session(browser, url: str, k: int, stop: asyncio.Event) -> tuple[int, int]:
    """A session that runs heavy analyses, one after another with a new seed each (so nothing
    is cached), until ``stop`` is set; returns (analyses finished, those that showed exactly
    their own seed beside the p-values)."""
    context = await browser.new_context(viewport={"width": 1600, "height": 1000})
    page = await context.new_page()
    page.set_default_timeout(900_000)
    runs = own = 0
    try:
        while not stop.is_set():
            seed = 700_000 + 1_009 * k + 97 * runs + os.getpid() % 1_000
            await page.goto(f"{url}/{HEAVY_PAGES[k % len(HEAVY_PAGES)].format(seed=seed)}")
            own += await heavy_shows_own_seed(page, seed)
            runs += 1
    finally:
        await context.close()
    return runs, own


async def probe_times(browser, url: str, tmp: Path, args, tag: str, count: int):
    """``count`` timed uploads of new files, each in a new probe session (a second upload in
    one session would add to the first): (times, every session saw exactly its own data)."""
    times, correct = [], True
    for i in range(count):
        context, page = await open_session(browser, url)
        path = tmp / f"probe_{tag}_{i}.tsv"
        own = write_file(path, 10 + 10 * i + (50 if tag == "loaded" else 0), args)
        t, ok = await timed_upload(page, path, own)
        await context.close()
        times.append(t)
        correct &= ok
    return times, correct


async def main_async(args) -> None:
    from playwright.async_api import async_playwright

    port = free_port()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        log = open(tmp / "streamlit.log", "wb")  # noqa: SIM115
        proc = start_app(port, log)
        rss = RssSampler(proc.pid)
        url = f"http://127.0.0.1:{port}"
        try:
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                rss.start()
                print(
                    f"Load test: probe session on Metrics vs humans (its own file of {args.lps} "
                    f"LPs x {args.systems} systems x {args.metrics} metrics per upload), idle "
                    f"and beside {args.heavy} heavy sessions (10,000 resamples, all pairs)"
                )
                await probe_times(browser, url, tmp, args, "warm", 1)  # imports, compiles
                idle, idle_ok = await probe_times(browser, url, tmp, args, "idle", args.probes)
                stop = asyncio.Event()
                heavy = [
                    asyncio.create_task(heavy_session(browser, url, k, stop))
                    for k in range(args.heavy)
                ]
                await asyncio.sleep(args.ramp)  # every heavy session computing
                loaded, loaded_ok = await probe_times(
                    browser, url, tmp, args, "loaded", args.probes
                )
                stop.set()
                counts = await asyncio.gather(*heavy)
                rss.stop()
                await browser.close()
                ratio = statistics.median(loaded) / statistics.median(idle)
                fmt = lambda ts: ", ".join(f"{t:.2f}" for t in ts)  # noqa: E731
                print(
                    f"  probe idle:   median {statistics.median(idle):.2f} s ({fmt(idle)}); "
                    f"own data: {idle_ok}\n"
                    f"  probe loaded: median {statistics.median(loaded):.2f} s ({fmt(loaded)}); "
                    f"own data: {loaded_ok}\n"
                    f"  ratio loaded / idle: {ratio:.2f}x (goal: at most {GOAL_RATIO:g}x)\n"
                    f"  heavy sessions: {sum(r for r, _ in counts)} analyses finished, "
                    f"{sum(o for _, o in counts)} of them showing exactly their own seed\n"
                    f"  server RSS peak (sampled every 0.2 s throughout): {rss.peak:.0f} MB "
                    f"(goal: below {GOAL_RSS_MB:,} MB); load average {os.getloadavg()[0]:.1f}"
                )
        finally:
            rss.stop()
            proc.terminate()
            proc.wait(timeout=30)


GOAL_HEALTH = 1.0  #: seconds


class RssPair(RssSampler):
    """The server process's own resident memory and its tree's (MB), peaks of both."""

    def __init__(self, server_pid: int, every: float = 0.1):
        super().__init__(server_pid, every)
        self.own_peak = 0.0

    def sample(self) -> float:
        try:
            status = Path(f"/proc/{self.server_pid}/status").read_text()
            own = next(int(line.split()[1]) for line in status.splitlines()
                       if line.startswith("VmRSS:")) / 1024  # fmt: skip
            self.own_peak = max(self.own_peak, own)
        except (OSError, StopIteration):
            pass
        return super().sample()


async def open_qe(browser, url: str):
    """A new session on the QE page, drawn (the sample) and idle: (context, page)."""
    context = await browser.new_context(viewport={"width": 1600, "height": 1000})
    page = await context.new_page()
    page.set_default_timeout(900_000)
    await page.goto(f"{url}/qe")
    await page.wait_for_selector(
        '[data-testid="stFileUploader"] input[type="file"]', state="attached"
    )
    await page.wait_for_function(_IDLE_JS, polling=250)
    return context, page


async def hostile_upload(page, files: list[Path], start: asyncio.Event) -> tuple[float, str]:
    """Upload ``files`` once ``start`` is set: (seconds from the upload to the session's
    error box, its text)."""
    await start.wait()
    t0 = time.monotonic()
    field = page.locator('[data-testid="stFileUploader"] input[type="file"]').first
    await field.set_input_files([str(f) for f in files])
    await page.wait_for_function(
        "() => !!document.querySelector('[data-testid=\"stAlertContentError\"]')"
        " || !!document.querySelector('[data-testid=\"stException\"]')",
        polling=250,
    )
    took = time.monotonic() - t0
    text = await page.evaluate(
        "() => (document.querySelector('[data-testid=\"stAlertContentError\"]')"
        " || document.querySelector('[data-testid=\"stException\"]')).innerText"
    )
    return took, " ".join(text.split())[:300]


_IDLE_JS = (
    "() => document.querySelector('[data-testid=\"stApp\"]')"
    "?.getAttribute('data-test-script-state') === 'notRunning'"
)


async def health_loop(url: str, times: list[float], slow: list[float], stop: asyncio.Event) -> None:
    """Time ``/_stcore/health`` back to back (10 ms apart) until ``stop``, in this process
    (beside Playwright); ``slow``: when each answer over :data:`GOAL_HEALTH` came."""
    import urllib.request

    def once() -> float:
        t0 = time.perf_counter()
        with urllib.request.urlopen(f"{url}/_stcore/health", timeout=60) as resp:
            resp.read()
        return time.perf_counter() - t0

    while not stop.is_set():
        times.append(await asyncio.to_thread(once))
        if times[-1] > GOAL_HEALTH:
            slow.append(time.monotonic())
        await asyncio.sleep(0.01)


#: the health check timed back to back (10 ms apart) in a process of its own, until its
#: standard input closes: one line per call, "<time.monotonic() at the answer> <seconds>"
_HEALTH_PROBER = """
import sys, threading, time, urllib.request
url, done = sys.argv[1], threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
while not done.is_set():
    t0 = time.perf_counter()
    with urllib.request.urlopen(url + "/_stcore/health", timeout=60) as resp:
        resp.read()
    print(time.monotonic(), time.perf_counter() - t0, flush=True)
    time.sleep(0.01)
"""


def start_health_prober(url: str):
    """:data:`_HEALTH_PROBER` started (a ``subprocess.Popen``; :func:`stop_health_prober`)."""
    import subprocess

    return subprocess.Popen(
        [sys.executable, "-c", _HEALTH_PROBER, url],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip


def stop_health_prober(prober) -> list[tuple[float, float]]:
    """Its ``(monotonic time of the answer, seconds)`` per call."""
    out, _ = prober.communicate(input="", timeout=120)
    return [(float(a), float(b)) for a, b in (line.split() for line in out.splitlines())]


#: pages a fresh session opens during the hostile uploads (``--visits``): each draws its sample
VISIT_PAGES = ("metrics", "mt_systems", "human", "leaderboard", "power", "autorank", "qe")


async def visit_pages(browser, url: str, count: int, stop: asyncio.Event) -> list[float]:
    """Open ``count`` fresh sessions one after another (until ``stop``), each on the next page
    of :data:`VISIT_PAGES`, waiting until its first run is idle: the seconds each took."""
    took = []
    for k in range(count):
        if stop.is_set():
            break
        t0 = time.monotonic()
        context = await browser.new_context(viewport={"width": 1600, "height": 1000})
        page = await context.new_page()
        page.set_default_timeout(600_000)
        await page.goto(f"{url}/{VISIT_PAGES[k % len(VISIT_PAGES)]}")
        await page.wait_for_selector('[data-testid="stApp"]', state="attached")
        await page.wait_for_function(_IDLE_JS, polling=250)
        took.append(time.monotonic() - t0)
        await context.close()
    return took


def start_py_spy(pid: int, out: str):
    """``py-spy record`` of the server (``$PY_SPY`` or ``py-spy`` on the PATH): every thread,
    only samples holding the GIL, without pausing the server (``--nonblocking``)."""
    import shutil
    import subprocess

    exe = os.environ.get("PY_SPY") or shutil.which("py-spy")
    if not exe:
        raise SystemExit("py-spy not found: set PY_SPY to its path")
    return subprocess.Popen(
        [exe, "record", "--pid", str(pid), "--threads", "--gil", "--nonblocking",
         "--rate", "100", "--format", "raw", "--output", out],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


async def hostile_async(args) -> None:
    from playwright.async_api import async_playwright

    from tests._big_qe import write_qe_upload

    port = free_port()
    with tempfile.TemporaryDirectory() as tmpdir:
        tmp = Path(tmpdir)
        uploads = [
            write_qe_upload(
                tmp,
                segments=args.segments,
                teams=args.teams,
                lps=3,
                seed=k,
                bad_last_row=True,
                tag=f"_{k}",
            )  # fmt: skip
            for k in range(args.hostile)
        ]
        zip_mb = statistics.mean(z.stat().st_size for z, _ in uploads) / 1e6
        log = open(tmp / "streamlit.log", "wb")  # noqa: SIM115
        proc = start_app(port, log)
        rss = RssPair(proc.pid)
        url = f"http://127.0.0.1:{port}"
        own = None
        try:
            async with async_playwright() as pw:
                browser = await pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                # a first visit: the page's imports and the sample, before anything is timed
                first, _ = await open_qe(browser, url)
                await first.close()
                # the sessions, each with its page drawn (their first runs are not timed)
                sessions = await asyncio.gather(*(open_qe(browser, url) for _ in uploads))
                idle_rss = rss.sample()
                rss.own_peak = rss.peak = 0.0
                rss.start()
                health: list[float] = []
                stop, start = asyncio.Event(), asyncio.Event()
                slow: list[float] = []
                own = start_health_prober(url)  # the server's answer, from outside
                prober = asyncio.create_task(health_loop(url, health, slow, stop))
                tasks = [
                    asyncio.create_task(hostile_upload(page, list(files), start))
                    for (_, page), files in zip(sessions, uploads, strict=True)
                ]
                spy = start_py_spy(proc.pid, args.py_spy) if args.py_spy else None
                visits = (
                    asyncio.create_task(visit_pages(browser, url, args.visits, stop))
                    if args.visits
                    else None
                )
                t_start = time.monotonic()
                start.set()  # all at once
                ends = await asyncio.gather(*tasks)
                stop.set()
                await prober
                visited = await visits if visits is not None else []
                if spy is not None:
                    spy.send_signal(__import__("signal").SIGINT)
                    spy.wait(timeout=60)
                outside = stop_health_prober(own)
                rss.stop()
                await browser.close()
            from dashboard.components import SESSION_MAX_MEMORY

            def summary(times: list[float], when: list[float]) -> str:
                times = sorted(times)
                p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
                return (
                    f"{len(times)} calls, median {statistics.median(times):.3f} s, "
                    f"p95 {p95:.3f} s, worst {times[-1]:.3f} s (goal: under {GOAL_HEALTH:g} s); "
                    f"{len(when)} over the goal"
                    + (f", at {', '.join(f'{t - t_start:.1f}' for t in when)} s" if when else "")
                )

            print(
                f"Hostile uploads: {args.hostile} sessions on Quality estimation, each a "
                f"{zip_mb:.1f} MB QE submissions zip ({args.teams} teams x 3 LPs x "
                f"{args.segments:,} segments, last row bad) + gold file, uploaded at once "
                "(timed from the uploads to the last error box)\n"
                "  health check from a process of its own: "
                + summary([d for _, d in outside], [t for t, d in outside if d > GOAL_HEALTH])
                + "\n  health check from this process, beside Playwright handing over the "
                "uploads: " + summary(health, slow) + "\n"
                f"  server memory: {idle_rss:.0f} MB before; peak {rss.own_peak:.0f} MB (server "
                f"process), {rss.peak:.0f} MB (with the processes reading); session budget "
                f"{SESSION_MAX_MEMORY / 2**20:,.0f} MiB\n"
                + "\n".join(
                    f"  session {k + 1}: {t:.1f} s to: {text}" for k, (t, text) in enumerate(ends)
                )  # fmt: skip
                + (
                    f"\n  {len(visited)} fresh sessions opened meanwhile, each drawn in "
                    + ", ".join(f"{t:.1f}" for t in visited)
                    + " s"
                    if args.visits
                    else ""
                )
                + f"\n  load average {os.getloadavg()[0]:.1f} "
                f"({os.cpu_count()} cores; other work on the machine counts in it)"
            )
        finally:
            if own is not None and own.poll() is None:
                own.kill()
            rss.stop()
            proc.terminate()
            proc.wait(timeout=30)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--heavy", type=int, default=5, help="heavy sessions (default 5)")
    ap.add_argument("--probes", type=int, default=3, help="timed uploads each way (default 3)")
    ap.add_argument(
        "--ramp",
        type=float,
        default=8.0,
        help="seconds the heavy sessions run before the probe (default 8)",
    )
    ap.add_argument("--lps", type=int, default=3)
    ap.add_argument("--systems", type=int, default=15)
    ap.add_argument("--metrics", type=int, default=12)
    ap.add_argument(
        "--hostile",
        type=int,
        default=0,
        help="instead: this many hostile QE uploads at once",
    )
    ap.add_argument(
        "--segments",
        type=int,
        default=200_000,
        help="segments per language pair of a hostile upload (default 200,000)",
    )
    ap.add_argument(
        "--teams",
        type=int,
        default=6,
        help="teams of a hostile upload (default 6: a zip of about 26 MB)",
    )
    ap.add_argument(
        "--visits",
        type=int,
        default=0,
        help="with --hostile: this many fresh sessions opened one after another meanwhile, "
        "on the pages in turn (each drawing its sample)",
    )
    ap.add_argument(
        "--py-spy",
        default="",
        help="with --hostile: py-spy's raw record of the server's threads holding the GIL "
        "while the uploads run, written to this file ($PY_SPY or py-spy on the PATH)",
    )
    args = ap.parse_args(argv)
    if not os.path.exists(CHROMIUM):
        raise SystemExit(f"{CHROMIUM} not found: this benchmark needs Debian's chromium")
    asyncio.run(hostile_async(args) if args.hostile else main_async(args))


if __name__ == "__main__":
    main()
