"""Screenshots of every dashboard page on the bundled sample data, for the README.

    .venv/bin/python benchmarks/screenshots.py [--out benchmarks/screenshots] [--width 1400]
        [--height 1000]

Starts the app on a free loopback port (as the browser tests do), opens each page in Debian's
Chromium through Playwright (``/usr/bin/chromium``, never a downloaded browser), waits until the
page's script run has finished, its charts are drawn and the DOM is still, and saves the top
``--width`` x ``--height`` of the page as ``PAGE.png`` in ``--out``. The README shows these
files; rerun the script after a change to a page's look.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dashboard_render import free_port, start_app  # noqa: E402

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS  # noqa: E402
from tests.browser.helpers import goto_page, wait_for_charts, wait_until_still  # noqa: E402

#: url_path (dashboard/app.py) -> file name, and how many charts the top of the page draws
PAGES = {
    "": ("metrics", 3),  # the default page
    "qe": ("quality_estimation", 3),
    "mt_systems": ("mt_systems", 2),
    "human": ("tests_vs_humans", 2),
}


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parent / "screenshots")
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=2400)
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    port = free_port()
    with tempfile.TemporaryFile("w+") as log:
        proc = start_app(port, log)
        try:
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                page = browser.new_page(viewport={"width": args.width, "height": args.height})
                for url_path, (name, charts) in PAGES.items():
                    goto_page(page, f"http://127.0.0.1:{port}", url_path)
                    wait_for_charts(page, charts, timeout=180)
                    wait_until_still(page, timeout=120)
                    path = args.out / f"{name}.png"
                    page.screenshot(path=str(path))
                    print(f"{path}  ({args.width}x{args.height})")
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)


if __name__ == "__main__":
    main()
