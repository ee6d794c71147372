"""Tables for papers and spreadsheets, UI-free: the booktabs LaTeX writer and safe CSV shared by
the command line (``mt-stats ... --format latex``) and the dashboard's exports.

Numbers get one format per column (a square p-value matrix one for all of it), headers are
spelled out from field names, significance marks become ``\\textbf`` and ``\\dag``, and every text
is escaped for pdflatex. A ``column_config`` is a mapping in the shape of Streamlit's (a plain
dict here): ``None`` hides a column, a string or ``label`` renames it, ``type_config.format``
formats it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from stats.escape import csv_cell as csv_safe
from stats.escape import latex as latex_escape

#: Raw result-field names -> human table headers (used when a page gives no label). A name not
#: listed here that looks like a field (lower-case words joined by ``_``) is spelled out word by
#: word with :data:`_HUMAN_WORDS`; other names (metric and system names) are left as they are.
HUMAN_HEADERS = {
    "pvalue": "p",
    "pearson_p": "p (r ≠ 0)",
    "pearson_pvalue": "p (r ≠ 0)",
    "statistic": "statistic",
    "pearson": "Pearson r",
    "spearman": "Spearman ρ",
    "kendall": "Kendall τ",
    "r_better": "r (better)",
    "r_worse": "r (worse)",
    "r_metrics": "r between metrics",
    "difference": "Δr",
    "ci_low": "CI low",
    "ci_high": "CI high",
    "diff_ci_low": "difference CI low",
    "diff_ci_high": "difference CI high",
    "pearson_without": "r without it",
    "most_influential": "most influential system",
}
_HUMAN_WORDS = {"mae": "MAE", "rmse": "RMSE", "ci": "CI", "p": "p", "pvalue": "p", "lp": "LP"}
_FIELD_NAME = re.compile(r"[a-z][a-z0-9]*(_[a-z0-9]+)+|[a-z]+")

#: Tables wider than this many columns are scaled to the text width in LaTeX (``\resizebox``).
RESIZE_COLUMNS = 8
#: Marks written after a marked cell, and how they are explained in captions.
DAGGER = "†"


def human_header(name: object) -> str:
    """The header shown for a column or index named ``name``: :data:`HUMAN_HEADERS`, a
    ``snake_case`` field name spelled out ("mae_rescaled" -> "MAE rescaled"), else ``name``."""
    text = str(name)
    if text in HUMAN_HEADERS:
        return HUMAN_HEADERS[text]
    if _FIELD_NAME.fullmatch(text):
        return " ".join(_HUMAN_WORDS.get(word, word) for word in text.split("_"))
    return text


@dataclass(frozen=True)
class Column:
    """How one column of an exported table is shown: its source ``name``, its ``label`` (the
    header) and ``fmt``, the number format (``"%.4f"``, ``"%.2e"``, ``"%d"``, ``"%+d"``,
    ``"percent"``) or ``None`` for text and automatic numbers."""

    name: object
    label: str
    fmt: str | None = None
    numeric: bool = False


def config_entry(column, column_config: Mapping | None) -> tuple[bool, str | None, str | None]:
    """``(shown, label, format)`` of ``column`` in a Streamlit ``column_config``: ``None``
    hides it, a string or a config's ``label`` renames it, a config's ``format`` formats it."""
    config = column_config or {}
    spec = config.get(column, {})
    if column in config and spec is None:
        return False, None, None
    if isinstance(spec, str):
        return True, spec, None
    if isinstance(spec, Mapping):
        return True, spec.get("label"), (spec.get("type_config") or {}).get("format")
    return True, None, None


def column_specs(df: pd.DataFrame, column_config: Mapping | None = None) -> list[Column]:
    """The visible columns of ``df`` with their labels and formats, from a Streamlit
    ``column_config`` (``None`` hides a column; a string or a config's ``label`` renames it; a
    config's ``format`` formats it). Columns without a label get :func:`human_header` -- except
    in a square matrix whose rows and columns are the same names (metric/system names)."""
    matrix = _is_matrix(df)
    specs = []
    for column in df.columns:
        shown, label, fmt = config_entry(column, column_config)
        if not shown:
            continue
        if not label:
            label = str(column) if matrix else human_header(column)
        values = df[column]
        numeric = pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)
        if fmt == "percent" and numeric:
            label = f"{label} (%)"
        specs.append(Column(column, str(label), fmt if numeric else None, numeric))
    return specs


def _is_matrix(df: pd.DataFrame) -> bool:
    return len(df.columns) > 0 and list(map(str, df.index)) == list(map(str, df.columns))


def _round_trips(values: np.ndarray, decimals: int) -> bool:
    return bool(
        np.all(np.abs(np.round(values, decimals) - values) < 1e-9 * np.maximum(1, abs(values)))
    )


def auto_format(values) -> str:
    """One ``str.format`` spec for a whole column (or matrix) of numbers: integers as
    integers; p-value-like columns (every value in [-1, 1], some non-zero value below 0.001) in
    scientific notation with 3 significant digits; otherwise the fewest decimals (at most 4,
    2 from 100 on, 1 from 10,000 on) that show every value exactly, or the most allowed."""
    arr = np.asarray(values, dtype=float).ravel()
    arr = arr[np.isfinite(arr)]
    if arr.size == 0:
        return "{:.4f}"
    if _round_trips(arr, 0) and np.all(np.abs(arr) < 2**53):
        return "{:.0f}"
    biggest = float(np.max(np.abs(arr)))
    smallest = np.abs(arr[arr != 0])
    if biggest <= 1 and smallest.size and float(smallest.min()) < 1e-3:
        return "{:.2e}"
    most = 4 if biggest < 100 else 2 if biggest < 10_000 else 1
    decimals = next((d for d in range(1, most) if _round_trips(arr, d)), most)
    return f"{{:.{decimals}f}}"


def _printf_formatter(fmt: str):
    if fmt == "percent":
        return lambda v: f"{100 * v:.1f}"
    if re.fullmatch(r"%[+]?\.?\d*[dieEfFgG]", fmt):
        integer = fmt.endswith(("d", "i"))
        return lambda v: fmt % (int(round(v)) if integer else v)
    return None


def number_formatter(fmt: str | None, values, float_format: str | None = None):
    """The formatter of one numeric column: its printf ``fmt`` when it has one, else
    ``float_format`` (a ``str.format`` spec) for floats, else :func:`auto_format` of
    ``values``. Missing values print as ``""``."""
    one = _printf_formatter(fmt) if fmt else None
    if one is None:
        spec = (
            float_format
            if float_format and pd.api.types.is_float_dtype(np.asarray(values))
            else auto_format(values)
        )
        one = spec.format

    def formatter(value) -> str:
        if value is None or pd.isna(value):
            return ""
        try:
            return one(value)
        except (TypeError, ValueError):
            return str(value)

    return formatter


@dataclass(frozen=True)
class Marks:
    """Significance marks of an exported table: ``bold`` and ``dagger`` are boolean masks,
    either a DataFrame aligned with the table (cells) or a Series over its index (rows: the row
    label is marked). ``note`` explains them (added to the LaTeX caption and the report)."""

    bold: pd.DataFrame | pd.Series | None = None
    dagger: pd.DataFrame | pd.Series | None = None
    note: str = ""


def pvalue_marks(significant: pd.DataFrame, *, alpha: float) -> Marks:
    """Bold every significant cell of a p-value matrix (``significant``: the test's own
    decision at ``alpha``, e.g. ``WilliamsResult.significant(alpha)``)."""
    return Marks(bold=significant, note=f"Bold: significant at α = {alpha:g}.")


def ranking_marks(
    significant: pd.DataFrame,
    *,
    alpha: float,
    baseline: object | None = None,
    undefined: Sequence = (),
) -> Marks:
    """Row marks of a ranking (rows best first, ``significant`` the (row better than column)
    decision matrix at ``alpha``): bold for the top cluster -- the best row and every row it
    does not significantly beat -- and † for the rows significantly better than ``baseline``.
    A row in ``undefined`` (its statistic undefined, e.g. a constant system's correlation:
    never tested) is never marked."""
    order = list(significant.index)
    skip = set(undefined)
    best = next((r for r in order if r not in skip), order[0])
    bold = ~significant.loc[best].reindex(order).fillna(False).astype(bool)
    bold.loc[best] = best not in skip
    bold[[r in skip for r in order]] = False
    note = f"Bold: not significantly worse than {best} (α = {alpha:g})."
    dagger = None
    if baseline is not None and baseline in significant.columns:
        dagger = significant[baseline].reindex(order).fillna(False).astype(bool)
        dagger[[r in skip for r in order]] = False
        note += f" {DAGGER}: significantly better than the baseline {baseline}."
    return Marks(bold=bold, dagger=dagger, note=note)


@dataclass(frozen=True)
class FormattedTable:
    """A table as shown in exports: header labels, the index header, row labels and cell
    strings (numbers formatted, one precision per column), numeric flags and marks."""

    index_label: str | None
    headers: list[str]
    row_labels: list[str]
    cells: list[list[str]]
    numeric: list[bool]
    bold: np.ndarray  # (rows, columns + 1) booleans, column 0 = row label
    dagger: np.ndarray


def _mask(marks, df: pd.DataFrame, columns: list[Column]) -> np.ndarray:
    out = np.zeros((len(df), len(columns) + 1), dtype=bool)
    if marks is None:
        return out
    if isinstance(marks, pd.Series):
        out[:, 0] = marks.reindex(df.index).eq(True).to_numpy(dtype=bool)
        return out
    aligned = marks.reindex(index=df.index, columns=[c.name for c in columns])
    out[:, 1:] = aligned.eq(True).to_numpy(dtype=bool)  # missing (NaN) -> False
    return out


def format_table(
    df: pd.DataFrame,
    *,
    index: bool = True,
    column_config: Mapping | None = None,
    float_format: str | None = None,
    marks: Marks | None = None,
) -> FormattedTable:
    """``df`` formatted for LaTeX and HTML exports (text, not escaped). A matrix (rows and
    columns the same names) gets one number format for all its cells."""
    columns = column_specs(df, column_config)
    matrix_values = df.to_numpy(dtype=float, na_value=np.nan) if _is_matrix(df) else None
    cells_by_column = []
    for c in columns:
        values = df[c.name]
        if c.numeric:
            source = matrix_values if matrix_values is not None else values
            formatter = number_formatter(c.fmt, source, float_format)
        else:
            formatter = _plain_text
        cells_by_column.append([formatter(v) for v in values])
    rows = (
        [list(r) for r in zip(*cells_by_column, strict=True)] if columns else [[] for _ in df.index]
    )
    index_name = df.index.name if index else None
    return FormattedTable(
        index_label=(human_header(index_name) if index_name is not None else "") if index else None,
        headers=[c.label for c in columns],
        row_labels=[_plain_text(v) for v in df.index],
        cells=rows,
        numeric=[c.numeric for c in columns],
        bold=_mask(marks.bold if marks else None, df, columns),
        dagger=_mask(marks.dagger if marks else None, df, columns),
    )


def _plain_text(value) -> str:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return ""
    return str(value)


# ---- CSV ----

def csv_frame(df: pd.DataFrame, *, column_config: Mapping | None = None) -> pd.DataFrame:
    """``df`` with the export headers of :func:`column_specs` (percent columns times 100, as
    their "(%)" header says), full precision, and every text cell, header and row label passed
    through :func:`csv_safe`."""
    columns = column_specs(df, column_config)
    out = pd.DataFrame(
        {
            i: (df[c.name] * 100 if c.fmt == "percent" else df[c.name]).map(csv_safe)
            if not c.numeric or c.fmt == "percent"
            else df[c.name]
            for i, c in enumerate(columns)
        },
        index=df.index,
    )
    out.columns = [csv_safe(c.label) for c in columns]
    out.index = pd.Index([csv_safe(v) for v in df.index], name=df.index.name)
    if df.index.name is not None:
        out.index.name = csv_safe(human_header(df.index.name))
    return out


def dataframe_to_csv(
    df: pd.DataFrame, *, index: bool = True, column_config: Mapping | None = None
) -> bytes:
    """UTF-8 CSV bytes with the export headers; empty cells (NaN) stay empty, floats keep full
    precision, text is neutralised against formula injection (:func:`csv_frame`)."""
    return csv_frame(df, column_config=column_config).to_csv(index=index).encode("utf-8")


# ---- LaTeX ----


def _latex_cell(text: str, bold: bool, dagger: bool, na_rep: str) -> str:
    cell = latex_escape(text) if text != "" else na_rep
    if bold and text != "":
        cell = rf"\textbf{{{cell}}}"
    if dagger and text != "":
        cell += r"\textsuperscript{\dag}"
    return cell


def dataframe_to_latex(
    df: pd.DataFrame,
    *,
    index: bool = True,
    column_config: Mapping | None = None,
    float_format: str | None = None,
    marks: Marks | None = None,
    na_rep: str = "--",
    caption: str | None = None,
    label: str | None = None,
) -> str:
    """A paper-ready LaTeX ``tabular`` of ``df`` (needs ``\\usepackage{booktabs}``, and
    ``graphicx`` for wide tables).

    - booktabs rules (``\\toprule``, ``\\midrule``, ``\\bottomrule``) and one header row: the
      ``column_config`` labels or :func:`human_header`, never a second pandas header row;
    - one number format per column (:func:`number_formatter`; a matrix gets one for all of
      it); missing cells -- e.g. the empty mirror half of a p-value matrix -- become ``na_rep``;
    - ``marks`` (:class:`Marks`): ``\\textbf`` and ``\\dag``; their ``note`` is appended to
      the caption;
    - more than :data:`RESIZE_COLUMNS` columns: the tabular is scaled to ``\\textwidth``;
    - every text (names, headers, caption) escaped with :func:`latex_escape`; with
      ``caption``/``label`` the tabular is wrapped in a ``table`` environment, the label
      reduced to the characters LaTeX labels accept safely (:func:`latex_label`).
    """
    t = format_table(
        df, index=index, column_config=column_config, float_format=float_format, marks=marks
    )
    spec = ("l" if index else "") + "".join("r" if num else "l" for num in t.numeric)
    header = ([latex_escape(t.index_label)] if index else []) + [latex_escape(h) for h in t.headers]
    lines = [rf"\begin{{tabular}}{{{spec}}}", r"\toprule", " & ".join(header) + r" \\", r"\midrule"]
    for k, (name, row) in enumerate(zip(t.row_labels, t.cells, strict=True)):
        cells = [_latex_cell(name, t.bold[k, 0], t.dagger[k, 0], "")] if index else []
        cells += [
            _latex_cell(text, t.bold[k, j + 1], t.dagger[k, j + 1], na_rep)
            for j, text in enumerate(row)
        ]
        lines.append(" & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    if len(spec) > RESIZE_COLUMNS:
        lines = [r"\resizebox{\textwidth}{!}{%", *lines, "}"]
    if marks is not None and marks.note:
        caption = f"{caption.rstrip('. ')}. {marks.note}" if caption else marks.note
    if caption is not None or label is not None:
        head = [r"\begin{table}", r"\centering"]
        if caption is not None:
            head.append(rf"\caption{{{latex_escape(caption)}}}")
        if label is not None:
            head.append(rf"\label{{{latex_label(label)}}}")
        lines = [*head, *lines, r"\end{table}"]
    return "\n".join(lines) + "\n"


def latex_label(label: str) -> str:
    """A ``\\label`` key: anything but letters, digits and ``: . - _`` becomes ``-``."""
    return re.sub(r"[^A-Za-z0-9:._-]+", "-", str(label))
