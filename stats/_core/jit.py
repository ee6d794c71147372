"""numba's compiler for the project's compiled paths, loaded when one is first needed (importing
numba takes seconds) and absent where numba is not installed (a dependency, optional at run
time): every compiled path keeps an array fallback or the general path for that case."""

from __future__ import annotations

import functools

__all__ = ["njit", "njit_one"]


@functools.cache
def njit(*functions):
    """``functions`` compiled by numba (``cache=True``: the machine code is kept on disk;
    ``nogil=True``: they run in threads without the GIL), in order, or None without numba.
    Each set of functions is compiled once per process."""
    try:
        import numba  # noqa: PLC0415 (lazy: a slow import)
    except ImportError:  # pragma: no cover - exercised where numba is absent
        return None
    jit = numba.njit(cache=True, nogil=True)
    return tuple(jit(f) for f in functions)


def njit_one(function):
    """``function`` compiled (:func:`njit`), or None without numba."""
    got = njit(function)
    return None if got is None else got[0]
