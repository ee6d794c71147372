"""Argument checks shared by the public functions of :mod:`stats`.

Every check raises :class:`~stats.StatsInputError` naming the argument and what was received.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from .errors import DegenerateInputWarning, StatsInputError

ALTERNATIVES = ("two-sided", "greater", "less")


def check_alternative(alternative: str, allowed: Sequence[str] = ALTERNATIVES) -> str:
    """Return ``alternative`` if it is one of ``allowed``; raise otherwise."""
    if alternative not in allowed:
        raise StatsInputError(
            f"alternative must be one of {', '.join(repr(a) for a in allowed)}; got {alternative!r}"
        )
    return alternative


def check_confidence_level(confidence_level: float) -> float:
    """Return ``confidence_level`` as float if it lies strictly between 0 and 1."""
    try:
        value = float(confidence_level)
    except (TypeError, ValueError):
        raise StatsInputError(
            f"confidence_level must be a number in (0, 1); got {confidence_level!r}"
        ) from None
    if not 0.0 < value < 1.0:
        raise StatsInputError(f"confidence_level must be in (0, 1); got {confidence_level!r}")
    return value


def check_positive_int(value, name: str, minimum: int = 1) -> int:
    """Return ``value`` as int if it is an integer >= ``minimum``; raise otherwise."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise StatsInputError(f"{name} must be an integer >= {minimum}; got {value!r}")
    if value < minimum:
        raise StatsInputError(f"{name} must be an integer >= {minimum}; got {value!r}")
    return int(value)


def check_alpha(alpha: float, name: str = "alpha") -> float:
    """Return ``alpha`` as float if it lies strictly between 0 and 1."""
    try:
        value = float(alpha)
    except (TypeError, ValueError):
        raise StatsInputError(f"{name} must be a number in (0, 1); got {alpha!r}") from None
    if not 0.0 < value < 1.0:
        raise StatsInputError(f"{name} must be in (0, 1); got {alpha!r}")
    return value


def as_float_array(x, name: str, *, ndim: int = 1, min_size: int = 1) -> np.ndarray:
    """Convert ``x`` to a float array of ``ndim`` dimensions with finite values.

    Raises :class:`StatsInputError` naming ``name`` when the conversion fails, the shape
    is wrong, it has fewer than ``min_size`` entries along its last axis, or a value is
    NaN or infinite.
    """
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError):
        raise StatsInputError(f"{name} must be numeric; got {type(x).__name__}") from None
    if arr.ndim != ndim:
        raise StatsInputError(f"{name} must be {ndim}-dimensional; got shape {arr.shape}")
    if arr.shape[-1] < min_size if arr.ndim else True:
        raise StatsInputError(
            f"{name} needs at least {min_size} values; got {arr.shape[-1] if arr.ndim else 0}"
        )
    bad = ~np.isfinite(arr)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        where = idx[0] if len(idx) == 1 else idx
        raise StatsInputError(f"{name} has a non-finite value ({arr[idx]}) at index {where}")
    return arr


def metric_arrays_like(metrics: Mapping, gold: np.ndarray) -> dict[str, np.ndarray]:
    """Each metric's scores as a float array of ``gold``'s shape (systems x items), in the order
    given; a metric of another shape is refused naming it and both shapes."""
    arrays = {}
    for m, v in metrics.items():
        a = np.asarray(v, dtype=float)
        if a.shape != gold.shape:
            raise StatsInputError(f"metrics[{m!r}] has shape {a.shape} but gold has {gold.shape}")
        arrays[m] = a
    return arrays


def warn_degenerate(message: str, stacklevel: int = 3) -> None:
    """Emit a :class:`DegenerateInputWarning` (the result will contain NaN)."""
    warnings.warn(message, DegenerateInputWarning, stacklevel=stacklevel)


def is_default_index(index) -> bool:
    """True for pandas' positional default index 0..n-1 (labels that name nothing)."""
    return isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1


def align_by_label(series, index, *, message: str, missing: str, extra: str):
    """Reorder the Series ``series`` to ``index`` when both carry meaningful labels.

    The same set of unique labels in any order is aligned on ``index``. Otherwise inputs
    matched by position are returned unchanged (the caller checks lengths): ``series`` not a
    pandas Series, ``index`` None, or either side pandas' default 0..n-1 index (plain arrays,
    freshly built frames). When both sides name their items (sentence or segment ids, systems)
    and the names differ, :class:`StatsInputError` is raised: used by position, the values
    would pair one item with another item's.

    ``message`` starts the error (e.g. ``"gold (a Series) is indexed by other sentence ids than
    predictions"``); ``missing`` and ``extra`` precede the labels of ``index`` absent from
    ``series`` and those of ``series`` absent from ``index`` (at most five of each shown).
    """
    if not isinstance(series, pd.Series) or index is None:
        return series
    index = pd.Index(index)
    if series.index.equals(index):
        return series
    have, want = set(series.index), set(index)
    unique = series.index.is_unique and index.is_unique
    if have == want and unique:
        return series.reindex(index)
    if is_default_index(series.index) or is_default_index(index):
        return series
    for idx in (index, series.index):
        if not idx.is_unique:
            dup = [str(i) for i in idx[idx.duplicated()].unique()[:5]]
            raise StatsInputError(f"{message}: labels must be unique; duplicated: {', '.join(dup)}")
    absent = [str(i) for i in index if i not in have]
    surplus = [str(i) for i in series.index if i not in want]
    parts = []
    if absent:
        parts.append(f"{missing} {', '.join(absent[:5])}" + (" ..." if len(absent) > 5 else ""))
    if surplus:
        parts.append(f"{extra} {', '.join(surplus[:5])}" + (" ..." if len(surplus) > 5 else ""))
    if {str(i) for i in have} == {str(i) for i in want}:
        parts.append("(the labels differ only in type, e.g. 1 versus '1')")
    raise StatsInputError(f"{message}: " + "; ".join(parts))
