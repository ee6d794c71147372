"""Benchmark: PNG/SVG exports in the kept kaleido Chromium against one Chromium an export.

Renders the same ``--n`` figures (SVG and PNG alternately) first as plotly's own export does,
a Chromium started for each (``fig.to_image``, what :mod:`dashboard.export` falls back to), then
through :func:`dashboard.export.figure_to_bytes`, whose first export opens the kept Chromium and
the next ones reuse it; the kept Chromium is closed before its time is read, so that its CPU is
counted. Prints wall and CPU seconds (this process plus its ended children: Chromium and
choreographer's wrapper) of each way, their ratios, and the load average.

Usage::

    .venv/bin/python benchmarks/exports.py [--n 5]
"""

from __future__ import annotations

import argparse
import os
import resource
import time
from collections.abc import Callable

import plotly.graph_objects as go

from dashboard import export


def _cpu() -> float:
    """CPU seconds of this process and of its children that have ended."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def _figure(k: int) -> go.Figure:
    systems = [f"system-{j}" for j in range(12)]
    return go.Figure(
        go.Bar(x=systems, y=[(j * 7 + k) % 10 for j in range(12)]),
        layout={"title": f"figure {k}", "width": 800, "height": 500},
    )


def _timed(label: str, exports: Callable[[], list[bytes]]) -> tuple[float, float]:
    cpu, wall = _cpu(), time.perf_counter()
    out = exports()
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    assert all(len(b) > 1000 for b in out), label
    print(f"{label:34s} wall {wall:6.2f} s  cpu {cpu:6.2f} s  ({len(out)} exports)")
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--n", type=int, default=5)
    args = parser.parse_args()
    export.ensure_browser_env()
    if export.find_browser() is None:
        raise SystemExit("no Chromium for kaleido: set BROWSER_PATH")
    figs = [_figure(k) for k in range(args.n)]
    fmts = ["svg" if k % 2 == 0 else "png" for k in range(args.n)]
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}; {os.cpu_count()} cores")

    def one_shot() -> list[bytes]:
        out = []
        for fig, fmt in zip(figs, fmts, strict=True):
            width, height = export.export_size(fig)
            out.append(fig.to_image(format=fmt, width=width, height=height, scale=2.0))
        return out

    def kept() -> list[bytes]:
        out = [export.figure_to_bytes(fig, fmt) for fig, fmt in zip(figs, fmts, strict=True)]
        export.close_kept_browser()  # its Chromium ends, so that its CPU is counted
        return out

    one_wall, one_cpu = _timed("one Chromium an export", one_shot)
    kept_wall, kept_cpu = _timed("kept Chromium (opened, then closed)", kept)
    print(
        f"kept / one-shot: wall {kept_wall / one_wall:.2f}, cpu {kept_cpu / one_cpu:.2f}; "
        f"load average after {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
