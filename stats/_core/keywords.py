"""Keyword-only calls where papers and peers disagree on notation.

``r12``, ``r13`` and ``r23`` name different correlations in Graham & Baldwin (2014), in
``psych::r.test`` and in mt-metrics-eval's ``WilliamsTest``: the same positional call gives
p = 0.92 in one and 0.0047 in another. Such functions take self-explaining keywords only; a
positional call, or one with the old ambiguous names, is refused with one line saying which
keywords to use.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])


def keyword_only(usage: str, *, refused: Mapping[str, str] = {}) -> Callable[[F], F]:
    """Refuse positional arguments (a ``TypeError`` naming ``usage``) and the ambiguous
    keywords of ``refused`` (name -> what to pass instead)."""

    def decorate(func: F) -> F:
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if args:
                raise TypeError(
                    f"{func.__name__} takes keyword arguments only, as in {usage}; "
                    f"got {len(args)} positional"
                )
            old = [name for name in kwargs if name in refused]
            if old:
                hints = ", ".join(f"{name}= -> {refused[name]}" for name in old)
                raise TypeError(
                    f"{func.__name__} no longer takes {', '.join(old)} (their meaning differs "
                    f"between the paper, psych and mt-metrics-eval): {hints}, as in {usage}"
                )
            return func(**kwargs)

        return wrapper  # type: ignore[return-value]

    return decorate

