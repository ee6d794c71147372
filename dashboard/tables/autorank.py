"""The AutoRank page's table: the organisers' layout (system, AutoRank, each metric's mean) with
the interval and cluster the bootstrap adds, and the findings' shading of the metric cells.
Pure: results in, DataFrame or Styler out."""

from __future__ import annotations

import numpy as np
import pandas as pd

from stats.analyses.autorank import AutoRankLanguagePair
from stats.mt.automatic_ranking import findings_shading, metric_digits

#: the light ends of the findings' red-to-green shading (screen colours: the LaTeX export
#: writes the findings' own ``\cellcolor{green!G!red!R}``)
WORST, BEST = np.array([244, 176, 176]), np.array([176, 226, 176])


def autorank_table(pair: AutoRankLanguagePair) -> pd.DataFrame:
    """One row per system, best first: ``AutoRank``, with a bootstrap ``low``, ``high`` and
    ``cluster``, then each metric's mean (NaN where a system has none)."""
    boot = pair.bootstrap
    table = pd.DataFrame({"AutoRank": pair.point.autorank})
    if boot is not None:
        table["low"] = boot.interval_low
        table["high"] = boot.interval_high
        table["cluster"] = boot.significance.rank.astype("Int64")
    for m in pair.point.scores.columns:
        table[m] = pair.point.scores[m]
    table.index.name = "system"
    return table


def shade_share(values: pd.Series) -> np.ndarray:
    """The findings' share of green of each cell (:func:`stats.mt.automatic_ranking.findings_shading`)."""
    return findings_shading(values.to_numpy(dtype=float))


def cell_colours(values: pd.Series) -> list[str]:
    """CSS backgrounds of a metric column (empty for a missing value)."""
    out = []
    for g in shade_share(values):
        if np.isnan(g):
            out.append("")
            continue
        r, gr, b = (WORST + (BEST - WORST) * g).round().astype(int)
        out.append(f"background-color: rgb({r}, {gr}, {b}); color: #111111")
    return out


def shaded(table: pd.DataFrame, metrics) -> pd.io.formats.style.Styler:
    """``table`` as a Styler: metric cells shaded per metric as the findings, numbers as the
    findings print them (AutoRank and interval to one decimal, COMET-family means to three,
    the others to one)."""
    formats = {c: "{:.1f}" for c in ("AutoRank", "low", "high") if c in table}
    formats.update({m: f"{{:.{metric_digits(m)}f}}" for m in metrics})
    styler = table.style.format(formats, na_rep="–")
    for m in metrics:
        styler = styler.apply(lambda col: cell_colours(col), subset=[m])
    return styler


def number_formats(metrics) -> dict[str, tuple[str, str]]:
    """``{column: (label, printf format)}`` of the table's number columns (the interactive
    table's and the exports' headers)."""
    formats = {
        "AutoRank": ("AutoRank ↓", "%.2f"),
        "low": ("interval low", "%.2f"),
        "high": ("interval high", "%.2f"),
    }
    for m in metrics:
        formats[m] = (f"{m} ↑", f"%.{metric_digits(m) + 1}f")
    return formats
