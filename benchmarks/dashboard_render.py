"""Responsiveness of the "Metrics vs humans" page in a real browser.

Starts ``streamlit run dashboard/app.py`` on a free port, opens it in Debian's chromium via
Playwright, uploads one WMT system-level file of LPS language pairs x SYSTEMS systems x METRICS
metrics (synthetic, seeded; default 10 x 20 x 50) through the page's file input, and prints:

* seconds from the upload to every figure drawn (goal < 3 s), and
* seconds from changing alpha to every figure redrawn (goal < 0.5 s; the computations are
  cached, only the figures are rebuilt).

Both clocks start at the browser's input event (the file input's ``change``, the radio's
``pointerdown``), read in the page, and stop at the first animation frame where every chart
shows the new data -- what a user waits for. Before the alpha click the radio is scrolled into
view and the page left alone for ``SETTLE_MS``, as a user who scrolls to it and looks first.

Each timing is the median of ``--runs`` fresh browser sessions (the first upload in a session
parses and computes; the server cache is cleared between runs by uploading different bytes).
This is a benchmark, not a test: run it on a quiet machine::

    .venv/bin/python benchmarks/dashboard_render.py               # full size
    .venv/bin/python benchmarks/dashboard_render.py --lps 2 --metrics 10 --runs 1   # smoke
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO_ROOT))

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.browser.helpers import CHART_SELECTOR, wait_for_idle  # noqa: E402

GOAL_UPLOAD = 3.0
GOAL_ALPHA = 0.5
N_CHARTS = 5  # dots, scatter, heatmap, Williams grid, all-LP grids
SETTLE_MS = 1000  # pause after scrolling to the alpha radio, before clicking it


def make_scores(path: Path, lps: int, systems: int, metrics: int, seed: int) -> list[str]:
    """Write a WMT system-level file (HUMAN rows included); return the LP names."""
    rng = np.random.default_rng(seed)
    names = [f"l{k:02d}-en" for k in range(lps)]
    lines = ["METRIC\tLP\tTESTSET\tSYSTEM\tSCORE"]
    for lp in names:
        human = rng.normal(size=systems)
        noise = rng.uniform(0.1, 1.2, size=metrics)
        for s in range(systems):
            lines.append(f"HUMAN\t{lp}\tnewstest\tsys{s:02d}\t{human[s]:.6f}")
        for m in range(metrics):
            name = "BLEU" if m == 0 else f"metric{m:02d}"
            sign = -1.0 if m % 7 == 3 else 1.0  # some error metrics
            vals = sign * (human + rng.normal(scale=noise[m], size=systems))
            lines.extend(
                f"{name}\t{lp}\tnewstest\tsys{s:02d}\t{vals[s]:.6f}" for s in range(systems)
            )
    path.write_text("\n".join(lines) + "\n")
    return names


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(port: int, log) -> subprocess.Popen:
    env = dict(os.environ, BROWSER_PATH=os.environ.get("BROWSER_PATH", CHROMIUM))
    cmd = [
        sys.executable, "-m", "streamlit", "run", "dashboard/app.py",
        "--server.headless", "true", "--server.address", "127.0.0.1",
        "--server.port", str(port), "--browser.gatherUsageStats", "false",
    ]  # fmt: skip
    proc = subprocess.Popen(cmd, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2):
                return proc
        except OSError:
            time.sleep(0.3)
    proc.terminate()
    raise SystemExit("streamlit did not start; see the log")


# True once every chart is drawn, the uploaded data is shown (its last LP is a panel title
# of the all-LP chart) and the alpha in the grid title matches.
_READY_JS = """
([sel, n, lp, alpha]) => {
  const charts = document.querySelectorAll(sel);
  if (charts.length < n) return false;
  const app = document.querySelector('[data-testid="stApp"]');
  if (app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  const texts = Array.from(document.querySelectorAll(
      '.js-plotly-plot .gtitle, .js-plotly-plot .annotation-text')).map(e => e.textContent);
  return texts.includes(lp) && texts.some(t => t.includes('α = ' + alpha));
}
"""


# Records when the app's script state changes, to split each timing into "until the script
# finished" (upload + server run + messages) and "drawing after it", and when the user's input
# reached the page: the first pointerdown (a click) or change event (a file chosen) after this
# runs. That is when a user's wait starts; Playwright's own actionability checks before it
# dispatches the click (two animation frames of a stable box, scrolling) are not the app's time.
_OBSERVE_JS = """
() => {
  window._runs = [];
  window._input = null;
  const app = document.querySelector('[data-testid="stApp"]');
  new MutationObserver(() => {
    if (app.getAttribute('data-test-script-state') === 'notRunning') {
      window._runs.push(performance.now());
    }
  }).observe(app, {attributes: true, attributeFilter: ['data-test-script-state']});
  const mark = (e) => { if (window._input === null) window._input = e.timeStamp; };
  document.addEventListener('pointerdown', mark, {capture: true});
  document.addEventListener('change', mark, {capture: true});
  return performance.now();
}
"""


def _timed(page, action, ready_args) -> tuple[float, float]:
    """(seconds from the input event until all drawn, seconds from it until the script run
    finished) after ``action()``; from the Playwright call when no input event was seen."""
    armed = page.evaluate(_OBSERVE_JS)
    action()
    page.wait_for_function(_READY_JS, arg=ready_args, polling="raf")
    t1 = page.evaluate("performance.now()")
    runs, t0 = page.evaluate("[window._runs, window._input]")
    t0 = armed if t0 is None else t0
    finished = (runs[-1] - t0) / 1000 if runs else float("nan")
    return (t1 - t0) / 1000, finished


def time_session(browser, url: str, file: Path, last_lp: str) -> tuple[float, float, float, float]:
    context = browser.new_context(viewport={"width": 1600, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(120_000)
    try:
        page.goto(url)
        wait_for_idle(page)
        page.wait_for_function(_READY_JS, arg=[CHART_SELECTOR, N_CHARTS, "es-en", "0.05"])
        uploader = page.locator('[data-testid="stFileUploader"] input[type="file"]').first
        upload, upload_run = _timed(
            page,
            lambda: uploader.set_input_files(str(file)),
            [CHART_SELECTOR, N_CHARTS, last_lp, "0.05"],
        )
        # a user scrolls to the alpha control and looks at the figures before changing alpha;
        # without the scroll here, Playwright's click scrolls the control into view right
        # before its pointerdown, and the page's own reaction to that scroll (Streamlit
        # re-renders on scroll, ~25 ms here) would be timed as if alpha had caused it
        page.locator(".st-key-metrics_alpha").scroll_into_view_if_needed()
        page.wait_for_timeout(SETTLE_MS)
        radio = page.locator(".st-key-metrics_alpha").get_by_text("0.01", exact=True)
        alpha, alpha_run = _timed(page, radio.click, [CHART_SELECTOR, N_CHARTS, last_lp, "0.01"])
        return upload, alpha, upload_run, alpha_run
    finally:
        context.close()


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--lps", type=int, default=10)
    ap.add_argument("--systems", type=int, default=20)
    ap.add_argument("--metrics", type=int, default=50)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args(argv)
    if not os.path.exists(CHROMIUM):
        raise SystemExit(f"{CHROMIUM} not found: this benchmark needs Debian's chromium")
    from playwright.sync_api import sync_playwright

    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        log = open(Path(tmp) / "streamlit.log", "wb")  # noqa: SIM115
        proc = start_app(port, log)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                uploads, alphas = [], []
                for run in range(args.runs):
                    file = Path(tmp) / f"scores_{run}.tsv"  # new bytes each run: cache miss
                    lps = make_scores(file, args.lps, args.systems, args.metrics, seed=run)
                    up, al, up_run, al_run = time_session(
                        browser, f"http://127.0.0.1:{port}", file, lps[-1]
                    )
                    uploads.append(up)
                    alphas.append(al)
                    print(
                        f"run {run + 1}: upload -> drawn {up:.2f} s (script run done at "
                        f"{up_run:.2f} s), alpha -> redrawn {al:.2f} s (script done at "
                        f"{al_run:.2f} s)"
                    )
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=20)
            log.close()
    size = f"{args.lps} LPs x {args.systems} systems x {args.metrics} metrics"
    up, al = statistics.median(uploads), statistics.median(alphas)
    print(f"\nMetrics vs humans page, {size}, median of {args.runs} run(s):")
    print(f"  upload to all {N_CHARTS} figures drawn: {up:.2f} s  (goal < {GOAL_UPLOAD} s, "
          f"ratio {up / GOAL_UPLOAD:.2f} of goal)")  # fmt: skip
    print(f"  re-render after changing alpha:   {al:.2f} s  (goal < {GOAL_ALPHA} s, "
          f"ratio {al / GOAL_ALPHA:.2f} of goal)")  # fmt: skip


if __name__ == "__main__":
    main()
