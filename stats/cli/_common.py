"""Output helpers shared by the ``python -m stats`` subcommands."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd


def jsonable(obj):
    """Convert numpy/pandas scalars and containers to plain JSON types; NaN becomes None."""
    if isinstance(obj, Mapping):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, pd.DataFrame):
        return {str(r): jsonable(obj.loc[r].to_dict()) for r in obj.index}
    if isinstance(obj, pd.Series):
        return {str(k): jsonable(v) for k, v in obj.items()}
    if isinstance(obj, np.ndarray):
        return [jsonable(v) for v in obj.tolist()]
    if isinstance(obj, (list, tuple)):
        return [jsonable(v) for v in obj]
    if isinstance(obj, (np.bool_, bool)):
        return bool(obj)
    if isinstance(obj, (np.integer,)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        value = float(obj)
        return None if math.isnan(value) or math.isinf(value) else value
    return obj


def dumps(obj) -> str:
    """Deterministic JSON text (same input, byte-identical output)."""
    return json.dumps(jsonable(obj), indent=2, allow_nan=False)


def pvalue_matrix_json(matrix: pd.DataFrame) -> dict:
    """``{row: {col: p or None}}`` from a square p-value DataFrame (NaN -> None)."""
    return {
        str(r): {str(c): jsonable(matrix.at[r, c]) for c in matrix.columns} for r in matrix.index
    }


def matrix_tsv(matrix: pd.DataFrame, *, empty: str = "-", fmt: str = "{:.6g}") -> str:
    """Tab-separated matrix with a header row; NaN cells print as ``empty``."""
    lines = ["\t".join(["", *map(str, matrix.columns)])]
    for r in matrix.index:
        cells = []
        for c in matrix.columns:
            v = matrix.at[r, c]
            cells.append(empty if v is None or (isinstance(v, float) and math.isnan(v)) else fmt.format(v))
        lines.append("\t".join([str(r), *cells]))
    return "\n".join(lines)


def table_tsv(rows: Sequence[Mapping], columns: Sequence[str], *, fmt: str = "{:.6g}") -> str:
    """Tab-separated table of ``rows`` (dicts) restricted to ``columns``."""

    def cell(v):
        if v is None:
            return "-"
        if isinstance(v, (float, np.floating)):
            return "-" if math.isnan(v) else fmt.format(v)
        return str(v)

    out = ["\t".join(columns)]
    out += ["\t".join(cell(row.get(c)) for c in columns) for row in rows]
    return "\n".join(out)
