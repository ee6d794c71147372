"""The "Download report" bundle of a page (pure: no Streamlit, testable without a browser).

While a page runs, :mod:`dashboard.components` records what it shows in a :class:`PageReport`
(figures, tables with their export settings, the page's settings and its input files);
:func:`build_report` turns that record into one zip:

- ``report.html``: self-contained (plotly.js inlined once by plotly's own
  ``include_plotlyjs=True``, no network): a summary first (page, whether the data were
  uploaded or the sample, the errors and warnings shown, each metric's sacreBLEU signature
  and options in words, inputs, settings as a table, the key table), the figures under the
  titles they show, the figures interactive at the size they were laid out for, the other tables, and
  the record at the end, folded;
- ``tables/<name>.csv`` for every table, and ``tables/<name>.tex`` (booktabs) for those of
  at most :data:`LATEX_MAX_ROWS` rows (the tables a paper takes; not the segment table);
- ``figures/<name>.svg``: vector figures rendered by kaleido (skipped, with a note in the
  record, when no Chromium is found);
- ``record.json``: every number of the tables, the settings (seeds, resamples, α, correction,
  ...), the input files with their SHA-256, and the versions of the project and its libraries.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import html
import io
import json
import math
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import metadata

import pandas as pd
import plotly.graph_objects as go

from dashboard import export

#: Distributions whose versions the record names (looked up without importing them).
VERSIONED = ("mt-significance", "numpy", "scipy", "pandas", "sacrebleu", "streamlit", "plotly")
#: The kinds of notes a report states, in the order it states them.
NOTE_KINDS = ("error", "warning", "left out", "signature", "note")
#: Tables longer than this are exported as CSV only (a paper takes the system tables, not the
#: segment table; its LaTeX was 722 KB).
LATEX_MAX_ROWS = 100
#: Setting keys picked out into the record's top level by a word in their widget key.
SETTING_KINDS = {
    "seeds": "seed",
    "resamples": "resample",
    "alpha": "alpha",
    "correction": "correction",
}


@dataclass
class TableEntry:
    """A table as a page exported it (the arguments of ``components.table_downloads``)."""

    df: pd.DataFrame
    filename: str
    caption: str | None = None
    index: bool = True
    column_config: Mapping | None = None
    float_format: str | None = None
    marks: export.Marks | None = None

    def export_kwargs(self) -> dict:
        return {
            "index": self.index,
            "column_config": self.column_config,
            "float_format": self.float_format,
            "marks": self.marks,
        }


@dataclass
class PageReport:
    """What one run of a page showed, keyed by widget key (a rerun of a fragment replaces its
    own entries in place and keeps the rest)."""

    page: str
    figures: dict[str, tuple[str, go.Figure]] = field(default_factory=dict)
    tables: dict[str, TableEntry] = field(default_factory=dict)
    settings: dict[str, dict] = field(default_factory=dict)
    inputs: dict[str, dict] = field(default_factory=dict)
    notes: dict[str, dict] = field(default_factory=dict)

    def add_note(self, key: str, kind: str, text: str) -> None:
        """A line the page showed that a reader of the report needs: ``kind`` one of
        :data:`NOTE_KINDS` (a metric's sacreBLEU signature and options in words, a note, a
        warning, an error)."""
        self.notes[key] = {"kind": kind, "text": str(text)}

    def add_figure(self, key: str, fig: go.Figure, filename: str) -> None:
        self.figures[key] = (filename, fig)

    def add_table(self, key: str, entry: TableEntry) -> None:
        self.tables[key] = entry

    def add_setting(self, key: str, label: str, value) -> None:
        self.settings[key] = {"label": label, "value": _jsonable(value)}

    def add_inputs(self, key: str, uploads, *, sample: bool) -> None:
        """Record the files of the uploader ``key`` (``(name, bytes)`` pairs; hashed when the
        report is built)."""
        self.inputs[key] = {"files": list(uploads), "sample": bool(sample)}


def _jsonable(value):
    """``value`` as JSON data: numpy scalars to Python numbers, NaN/inf to ``None``,
    sequences to lists, anything else to its ``str``."""
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        try:
            value = value.item()
        except (TypeError, ValueError):
            pass
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [_jsonable(v) for v in value]
    return str(value)


def versions() -> dict[str, str | None]:
    """Installed versions of :data:`VERSIONED` (``None`` for one that is not installed)."""
    out = {}
    for name in VERSIONED:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def table_record(entry: TableEntry) -> dict:
    """One table in the JSON record: caption, export headers and every value at full
    precision (``null`` for a missing one)."""
    frame = export.csv_frame(entry.df, column_config=entry.column_config)
    return {
        "file": entry.filename,
        "caption": entry.caption,
        "marks": entry.marks.note if entry.marks is not None else None,
        "index": _jsonable([str(v) for v in frame.index]) if entry.index else None,
        "index_name": frame.index.name if entry.index else None,
        "columns": [str(c) for c in frame.columns],
        "data": [[_jsonable(v) for v in row] for row in frame.itertuples(index=False)],
    }


def report_record(report: PageReport, *, figures_note: str | None = None) -> dict:
    """The JSON record of ``report`` (see the module docstring)."""
    settings = _shown_settings(report)
    picked = {
        kind: {k: v["value"] for k, v in settings.items() if word in k.lower()}
        for kind, word in SETTING_KINDS.items()
    }
    inputs = {
        key: {
            "sample": value["sample"],
            "files": [
                {"name": name, "sha256": hashlib.sha256(data).hexdigest(), "bytes": len(data)}
                for name, data in value["files"]
            ],
        }
        for key, value in report.inputs.items()
    }
    return {
        "page": report.page,
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        **picked,
        "settings": settings,
        "inputs": inputs,
        "notes": [dict(v) for v in _sorted_notes(report)],
        "versions": versions(),
        "tables": {_stem(e.filename): table_record(e) for e in report.tables.values()},
        "figures": [_stem(name) for name, _ in report.figures.values()],
        "figure_titles": [figure_title(fig, name) for name, fig in report.figures.values()],
        "figures_note": figures_note,
        "data": "uploaded" if uploaded(report) else "sample",
    }


def uploaded(report: PageReport) -> bool:
    """Whether the page analysed uploaded files (any input not the bundled sample)."""
    return any(not v["sample"] and v["files"] for v in report.inputs.values())


def _shown_settings(report: PageReport) -> dict:
    """The settings, without the choice of sample data when the page analysed uploads (the
    sample was not used: "Sample data: HTER, 10 systems" under settings misled)."""
    if not uploaded(report):
        return dict(report.settings)
    return {
        k: v
        for k, v in report.settings.items()
        if not (k.endswith("_sample") or str(v["label"]).lower().startswith("sample data"))
    }


def _sorted_notes(report: PageReport) -> list[dict]:
    order = {kind: k for k, kind in enumerate(NOTE_KINDS)}
    return sorted(report.notes.values(), key=lambda n: order.get(n["kind"], len(order)))


def figure_title(fig: go.Figure, fallback: str) -> str:
    """The title a figure shows on the page (its layout's title, markup removed), else
    ``fallback`` (its file name)."""
    import re

    text = fig.layout.title.text if fig.layout.title is not None else None
    if not text:
        return fallback
    return re.sub(r"<[^>]+>", " ", str(text)).replace("  ", " ").strip() or fallback


def setting_words(value) -> str:
    """A setting's value as a reader says it: ``yes``/``no``, lists joined by commas, numbers
    as written, nothing JSON-quoted."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, (list, tuple)):
        return ", ".join(setting_words(v) for v in value) or "(none)"
    if isinstance(value, Mapping):
        return "; ".join(f"{k}: {setting_words(v)}" for k, v in value.items())
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _stem(name: str) -> str:
    return export.slugify(name)


def table_html(entry: TableEntry) -> str:
    """An HTML ``<table>`` with the export headers, formats and marks (everything escaped)."""
    t = export.format_table(entry.df, **entry.export_kwargs())
    esc = html.escape

    def cell(tag: str, text: str, bold: bool = False, dagger: bool = False, num: bool = False):
        body = esc(text) + (export.DAGGER if dagger and text else "")
        if bold and text:
            body = f"<b>{body}</b>"
        align = ' class="num"' if num else ""
        return f"<{tag}{align}>{body}</{tag}>"

    head = ([cell("th", t.index_label or "")] if entry.index else []) + [
        cell("th", h) for h in t.headers
    ]
    rows = []
    for k, (name, values) in enumerate(zip(t.row_labels, t.cells, strict=True)):
        cells = [cell("th", name, t.bold[k, 0], t.dagger[k, 0])] if entry.index else []
        cells += [
            cell("td", v, t.bold[k, j + 1], t.dagger[k, j + 1], t.numeric[j])
            for j, v in enumerate(values)
        ]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    caption = entry.caption or ""
    if entry.marks is not None and entry.marks.note:
        caption = f"{caption} {entry.marks.note}".strip()
    return (
        f"<table><caption>{esc(caption)}</caption><thead><tr>{''.join(head)}</tr></thead>"
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 1400px; color: #222;
       padding: 0 1.5rem; }
table { border-collapse: collapse; margin: 1rem 0 2rem; font-size: 0.9rem; }
caption { caption-side: top; text-align: left; font-weight: 600; padding-bottom: 0.4rem; }
th, td { padding: 0.2rem 0.6rem; border-bottom: 1px solid #ddd; text-align: left; }
thead th { border-bottom: 2px solid #444; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
table.summary th { font-weight: 600; width: 16rem; }
code { font-size: 0.85rem; }
details { margin: 1rem 0; }
summary { cursor: pointer; font-weight: 600; }
pre { background: #f6f6f6; padding: 1rem; overflow-x: auto; }
.figure { margin: 0.5rem 0 2rem; overflow-x: auto; }
"""

#: Tables longer than this many rows are folded (``<details>``) in report.html; their CSV and
#: LaTeX files hold them whole.
FOLD_ROWS = 30
#: Height (px) a figure without one of its own gets per row of subplots, so that no subplot
#: title is drawn over the panel above it.
SUBPLOT_ROW_PX = 320


def figure_size(fig: go.Figure) -> tuple[str, str]:
    """CSS ``(width, height)`` of ``fig`` in report.html: the size it was laid out for (its
    layout's; the full width and :data:`~dashboard.export.DEFAULT_EXPORT_HEIGHT` otherwise, at
    least :data:`SUBPLOT_ROW_PX` per row of subplots), never the 450 px plotly falls back to
    in a page, which crowds the subplot titles of a tall figure."""
    rows = {tuple(ax.domain) for ax in fig.select_yaxes() if ax.domain is not None}
    height = fig.layout.height or max(export.DEFAULT_EXPORT_HEIGHT, SUBPLOT_ROW_PX * len(rows))
    width = f"{int(fig.layout.width)}px" if fig.layout.width else "100%"
    return width, f"{int(height)}px"


def _summary_rows(pairs) -> str:
    esc = html.escape
    return "".join(f"<tr><th>{esc(str(k))}</th><td>{v}</td></tr>" for k, v in pairs)


def _summary(report: PageReport, record: dict) -> list[str]:
    """The summary report.html opens with: inputs, settings and the page's first (key)
    table."""
    esc = html.escape
    files = []
    data = (
        "your uploaded files" if uploaded(report) else "the bundled synthetic sample data"
    )
    for value in record["inputs"].values():
        for f in value["files"]:
            label = f"{f['name']} (sample)" if value["sample"] else f["name"]
            files.append(
                (label, f"{f['bytes']:,} bytes, SHA-256 <code>{esc(f['sha256'][:16])}…</code>")
            )
    settings = [(v["label"], esc(setting_words(v["value"]))) for v in record["settings"].values()]
    parts = ["<h2>Summary</h2>", f"<p>Data: {esc(data)}.</p>"]
    parts += _notes_block(record["notes"])
    if files:
        parts.append(
            f'<table class="summary"><caption>Inputs</caption>{_summary_rows(files)}</table>'
        )
    if settings:
        parts.append(
            f'<table class="summary"><caption>Settings</caption>{_summary_rows(settings)}</table>'
        )
    if report.tables:
        parts.append(_table_block(next(iter(report.tables.values()))))
    return parts


_NOTE_TITLES = {
    "error": "Errors shown",
    "warning": "Warnings shown",
    "left out": "Left out, and why",
    "signature": "Metrics: sacreBLEU signatures and options",
    "note": "Notes",
}


def _notes_block(notes: list[dict]) -> list[str]:
    """The errors, warnings, signatures and notes the page showed, one list per kind."""
    esc = html.escape
    parts = []
    for kind in NOTE_KINDS:
        lines = [n["text"] for n in notes if n["kind"] == kind]
        if not lines:
            continue
        items = "".join(
            f"<li><code>{esc(t)}</code></li>" if kind == "signature" else f"<li>{esc(t)}</li>"
            for t in lines
        )
        parts.append(f'<h3 class="{kind.replace(" ", "-")}">{_NOTE_TITLES[kind]}</h3><ul>{items}</ul>')
    return parts


def _table_block(entry: TableEntry) -> str:
    """A table of report.html; one longer than :data:`FOLD_ROWS` rows folded."""
    body = table_html(entry)
    if len(entry.df) <= FOLD_ROWS:
        return body
    title = html.escape(entry.caption or entry.filename)
    return (
        f"<details><summary>{title} ({len(entry.df):,} rows; also in tables/"
        f"{html.escape(_stem(entry.filename))}.csv)</summary>{body}</details>"
    )


def report_html(report: PageReport, record: dict) -> str:
    """The self-contained ``report.html``: title; a summary (inputs, settings, the page's first
    table); every figure at the size it was laid out for (interactive; plotly.js inlined with
    the first one); the other tables; the JSON record at the end, folded."""
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{esc(report.page)}: MT significance report</title>",
        f"<style>{_STYLE}</style></head><body>",
        f"<h1>{esc(report.page)}</h1>",
        f"<p>Created {esc(record['created'])} with mt-significance "
        f"{esc(str(record['versions'].get('mt-significance')))}.</p>",
        *_summary(report, record),
    ]
    if report.figures:
        parts.append("<h2>Figures</h2>")
    for k, (name, fig) in enumerate(report.figures.values()):
        width, height = figure_size(fig)
        parts.append(f"<h3>{esc(figure_title(fig, name))}</h3>")
        parts.append(
            '<div class="figure">'
            + fig.to_html(
                full_html=False,
                include_plotlyjs=k == 0,  # plotly's own inlining, once for the whole page
                config={"displaylogo": False},
                default_width=width,
                default_height=height,
            )
            + "</div>"
        )
    others = list(report.tables.values())[1:]  # the first is in the summary
    if others:
        parts.append("<h2>Tables</h2>")
    parts += [_table_block(entry) for entry in others]
    parts += [
        "<h2>Record</h2>",
        "<details><summary>Settings, inputs (SHA-256), versions and every number "
        "(record.json)</summary><pre>"
        + esc(json.dumps(record, indent=2, ensure_ascii=False, allow_nan=False))
        + "</pre></details>",
        "</body></html>",
    ]
    return "\n".join(parts)


def _unique_stems(names) -> list[str]:
    seen: dict[str, int] = {}
    out = []
    for name in names:
        stem = _stem(name)
        seen[stem] = seen.get(stem, 0) + 1
        out.append(stem if seen[stem] == 1 else f"{stem}_{seen[stem]}")
    return out


def build_report(report: PageReport, *, svg: bool = True) -> bytes:
    """The zip bytes of ``report`` (see the module docstring). ``svg=False`` skips kaleido."""
    figures = list(report.figures.values())
    note = None
    svgs: list[bytes] = []
    if svg and figures:
        try:
            svgs = export.figures_to_svg([fig for _, fig in figures])
        except export.ExportUnavailableError as exc:
            note = f"No SVG figures: {exc}"
    elif figures:
        note = "No SVG figures: not requested"
    record = report_record(report, figures_note=note)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("report.html", report_html(report, record))
        entries = list(report.tables.values())
        for stem, entry in zip(_unique_stems(e.filename for e in entries), entries, strict=True):
            kwargs = entry.export_kwargs()
            if len(entry.df) <= LATEX_MAX_ROWS:  # a table a paper takes
                zf.writestr(
                    f"tables/{stem}.tex",
                    export.dataframe_to_latex(entry.df, caption=entry.caption, **kwargs),
                )
            zf.writestr(
                f"tables/{stem}.csv",
                export.dataframe_to_csv(
                    entry.df, index=entry.index, column_config=entry.column_config
                ),
            )
        stems = _unique_stems(name for name, _ in figures)
        for stem, data in zip(stems, svgs, strict=False):
            zf.writestr(f"figures/{stem}.svg", data)
        zf.writestr(
            "record.json", json.dumps(record, indent=2, ensure_ascii=False, allow_nan=False)
        )
    return buffer.getvalue()


def report_filename(page: str) -> str:
    """``report_<page>_<UTC date-time>.zip``."""
    stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y%m%d-%H%M%S")
    return f"report_{_stem(page.lower())}_{stamp}.zip"
