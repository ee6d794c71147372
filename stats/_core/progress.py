"""Progress callbacks of long computations: a plain ``progress(fraction)`` callable (no UI
here), given by a caller that shows a bar or can interrupt the run from it."""

from __future__ import annotations

from .errors import StatsInputError


def check_progress(progress):
    """``progress`` as given (None or a callable), else :class:`StatsInputError`."""
    if progress is not None and not callable(progress):
        raise StatsInputError(
            f"progress must be a callable taking the fraction done, or None; got {progress!r}"
        )
    return progress


def part(progress, k: int, n: int):
    """A callback for the ``k``-th of ``n`` equal parts of a run reported to ``progress``
    (fraction f of part k is ``(k + f) / n`` overall); None when ``progress`` is None."""
    if progress is None:
        return None

    def update(fraction: float) -> None:
        progress((k + min(1.0, max(0.0, float(fraction)))) / n)

    return update
