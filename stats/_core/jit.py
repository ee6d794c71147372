"""numba's compiler for the project's compiled paths, loaded when one is first needed (importing
numba takes seconds) and absent where numba is not installed (a dependency, optional at run
time): every compiled path keeps an array fallback or the general path for that case.

No compile at first use: every kernel is compiled when the package is installed
(:func:`precompile`, run by setup.py's build step for ``pip install -e .`` and into a wheel)
for the argument types the package calls it with (:data:`KERNELS`), into numba's on-disk
cache next to the kernel's source (``__pycache__``). numba (0.68 on) keys that cache on the
source file's content, the machine's CPU and numba's version, so a run finds the machine code
wherever the files were copied to; a call with other types, another CPU or another numba
compiles once, as before, and caches the result.
"""

from __future__ import annotations

import functools
import importlib
import time

__all__ = ["KERNELS", "njit", "njit_one", "precompile"]

#: every compiled kernel: module -> {function: the argument types of each specialisation the
#: package calls it with} (numba's type syntax: ``int64[::1]`` a contiguous 1-d array,
#: ``float64[:, :, :]`` any 3-d one). benchmarks/cold_start.py checks that a fresh install's
#: first run compiles nothing (first run within 2x the CPU of the next).
KERNELS: dict[str, dict[str, tuple[str, ...]]] = {
    "stats.mt._ngrams_kernel": {
        # tokens, starts, lengths, max_order, bits, keys, rows, hyp_rows, ref_rows, out, pairs
        "_kernel": (
            "(int64[::1], int64[::1], int64[::1], int64, int64, int64[::1], int64, int64, "
            "int64[::1], int64[::1], int64[:, ::1], int64, int64)",
        ),
    },
    "stats.mt._ter_numba": {
        "_ter_batch": ("(" + ", ".join(["int64[::1]"] * 7) + ")",),
    },
    "stats.metaeval.perm_both._ties": {
        "_kernel": (
            "(uint8[:, ::1], int64[::1], int64[::1], boolean[::1], int64[:, ::1], "
            "int64[:, ::1], int64[:, ::1], float64[:, ::1], float64[:, ::1], boolean[::1], "
            "float64[::1], float64[::1], int64[::1], int64[::1], int64, float64[:, :, :, ::1])",
        ),
    },
    "stats.metaeval.perm_both._spa_numba": {
        "_counts": (
            "(float64[:, :, :, ::1], float64[:, :, ::1], float64[:, :, :, ::1], int64[::1], "
            "int64[::1], int64[::1], int64[:, :, :, ::1])",
        ),
    },
    "stats.metaeval.perm_both._calibrated": {
        "_scan": (
            "(uint8[:, ::1], float64[::1], uint8[::1], uint8[::1], int64[::1], int64[::1], "
            "boolean[::1])",
        ),
    },
    "stats.metaeval.perm_both._calibrated_one": {
        "_scan": ("(uint8[:, ::1], int32[::1], int32[::1], int32[::1], boolean[::1])",),
    },
    "stats.power._signed_rank_kernel": {
        # counts (items x data sets), order, bounds, positive, has_zero, out
        "_sums": (
            "(int64[:, ::1], int64[::1], int64[::1], boolean[::1], boolean, float64[:, ::1])",
        ),
    },
    "stats.metaeval.perm_both._long": {
        "_terms": (
            "(float64[::1], float64[::1], float64[::1], boolean, float64, float64, int64[::1])",
        ),
        "_counted": ("(float64[::1], float64)",),
    },
}


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


def precompile(modules=None, *, quiet: bool = False) -> float:
    """Compile every kernel of :data:`KERNELS` (of ``modules``, default all) for its listed
    argument types into numba's cache (a kernel already there is loaded, not compiled); return
    the seconds it took. Without numba, nothing (the array fallbacks run)."""
    t0 = time.perf_counter()
    try:
        import numba  # noqa: PLC0415 (lazy: a slow import)
        import numba.core.sigutils  # noqa: PLC0415
    except ImportError:  # pragma: no cover - exercised where numba is absent
        return 0.0
    for module_name, functions in KERNELS.items():
        if modules is not None and module_name not in modules:
            continue
        module = importlib.import_module(module_name)
        for name, signatures in functions.items():
            function = getattr(module, name)
            dispatcher = function if hasattr(function, "compile") else njit_one(function)
            for signature in signatures:
                # as a call compiles: numba's cache index keys on this tuple of types
                args, _ = numba.core.sigutils.normalize_signature(signature)
                dispatcher.compile(tuple(args))
            if not quiet:
                print(f"compiled {module_name}.{name} ({time.perf_counter() - t0:.1f} s)")
    return time.perf_counter() - t0
