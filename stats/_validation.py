"""Argument checks shared by the public functions of :mod:`stats`.

Every check raises :class:`~stats.StatsInputError` naming the argument and what was received.
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence

import numpy as np

from ._errors import DegenerateInputWarning, StatsInputError

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


def warn_degenerate(message: str, stacklevel: int = 3) -> None:
    """Emit a :class:`DegenerateInputWarning` (the result will contain NaN)."""
    warnings.warn(message, DegenerateInputWarning, stacklevel=stacklevel)
