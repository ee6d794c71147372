"""Exceptions and warnings raised at the public boundary of :mod:`stats`."""

from __future__ import annotations

__all__ = ["StatsInputError", "DegenerateInputWarning"]


class StatsInputError(ValueError):
    """Bad input at a public boundary.

    The message is one line and names the argument, file, line or column, and what was
    received, e.g. ``"scores.tsv, line 14, column SCORE: 'abc' is not a number"``.
    The CLI prints it and exits with status 2; the dashboard shows it with ``st.error``.
    """


class DegenerateInputWarning(RuntimeWarning):
    """Input is valid but a statistic is undefined on it (e.g. a constant metric).

    The affected value is returned as NaN, never as a silently wrong number.
    """
