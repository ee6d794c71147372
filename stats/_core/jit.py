"""numba's compiler for the project's compiled paths, loaded when one is first needed (importing
numba takes seconds) and absent where numba is not installed (a dependency, optional at run
time): every compiled path keeps an array fallback or the general path for that case.

No compile at first use: every kernel is compiled when the package is installed
(:func:`precompile`, run by setup.py's build step for ``pip install -e .`` and into a wheel)
for the argument types the package calls it with (:data:`KERNELS`), into numba's on-disk
cache next to the kernel's source (``__pycache__``). numba (0.68 on) keys that cache on the
source file's content, the machine's CPU and numba's version, so a run finds the machine code
wherever the files were copied to; a call with other types, another CPU or another numba
compiles once and caches the result.

No numba at all where loading it costs more than the work: the kernels of :data:`AOT` (BLEU's
and chrF's n-gram matching, a fraction of a second of work whose numba load -- numba, then
scipy.linalg for its BLAS check -- cost about 0.5 s of CPU in every process) are also compiled
at install, by the same source and numba's ahead-of-time compiler (``numba.pycc``), into a
plain extension module next to the source (``<module>_aot``), which imports in a millisecond
without numba. :func:`aot` returns its function only where it was built from the current
source (a checksum of the source is compiled in); otherwise the caller runs the numba kernel.
The same source compiled by the same compiler: the same numbers.
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import os
import time
import zlib

__all__ = ["AOT", "KERNELS", "aot", "njit", "njit_one", "precompile"]

#: every compiled kernel: module -> {function: the argument types of each specialisation the
#: package calls it with} (numba's type syntax: ``int64[::1]`` a contiguous 1-d array,
#: ``float64[:, :, :]`` any 3-d one). benchmarks/cold_start.py checks that a fresh install's
#: first run compiles nothing (first run within 1.2x the CPU of the next).
KERNELS: dict[str, dict[str, tuple[str, ...]]] = {
    "stats.mt._ngrams_kernel": {
        # tokens, starts, lengths, max_order, bits, keys, rows, built, hyp_rows, ref_rows, out,
        # pairs
        "_kernel": (
            "(int32[::1], int64[::1], int64[::1], int64, int64, int64[::1], int64, int64, int64, "
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
    "stats.metaeval.perm_both._tau_sums_kernel": {
        # order, newblock, pos_u, sorted_u, order_v, sorted_v, out
        "_sums": (
            "(int64[::1], boolean[::1], int64[::1], int64[::1], int64[::1], int64[::1], "
            "int64[::1])",
        ),
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

#: kernels of :data:`KERNELS` also compiled ahead of time (module -> functions; each with its
#: first signature in :data:`KERNELS`), into an extension module ``<module>_aot`` beside it
AOT: dict[str, tuple[str, ...]] = {"stats.mt._ngrams_kernel": ("_kernel",)}


def _source_crc(module_name: str) -> int | None:
    """CRC-32 of the module's source file, without importing it (None if it has none)."""
    spec = importlib.util.find_spec(module_name)
    if spec is None or not spec.origin or not spec.origin.endswith(".py"):
        return None
    try:
        with open(spec.origin, "rb") as f:
            return zlib.crc32(f.read())
    except OSError:
        return None


@functools.cache
def aot(module_name: str, function: str):
    """The ahead-of-time compiled ``function`` of ``module_name`` (:data:`AOT`), or None where it
    was not built (numba missing at install, a failed build) or was built from another version
    of the source. It runs without the GIL, as the numba kernel does."""
    try:
        module = importlib.import_module(module_name + "_aot")
    except ImportError:
        return None
    crc = _source_crc(module_name)
    if crc is None or int(module.source_crc()) != crc:
        return None
    return getattr(module, function, None)


def _build_aot(module_name: str) -> None:
    """Compile :data:`AOT`'s functions of ``module_name`` into ``<module>_aot`` beside it.

    ``numba.pycc`` has no option for releasing the GIL; its compile flags get numba's
    ``release_gil`` (what ``nogil=True`` sets for the JIT) so that threads still run the
    kernel in parallel. Its deprecation notice is silenced: if a numba version drops pycc,
    the build fails here, the note says so and the numba kernel runs instead."""
    import warnings  # noqa: PLC0415

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import numba.pycc.compiler as pycc_compiler  # noqa: PLC0415
        from numba.pycc import CC  # noqa: PLC0415

    class _NoGil(pycc_compiler.Flags):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            self.release_gil = True

    module = importlib.import_module(module_name)
    name = module_name.rpartition(".")[2]
    crc = _source_crc(module_name)
    if crc is None:
        return
    cc = CC(name + "_aot")
    cc.output_dir = os.path.dirname(module.__file__)
    cc.verbose = False
    for function in AOT[module_name]:
        signature = KERNELS[module_name][function][0]
        cc.export(function, "void" + signature)(getattr(module, function).py_func)
    cc.export("source_crc", "int64()")(lambda: crc)
    saved = pycc_compiler.Flags
    setattr(pycc_compiler, "Flags", _NoGil)  # noqa: B010 (a class attribute for mypy)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            cc.compile()
    finally:
        setattr(pycc_compiler, "Flags", saved)  # noqa: B010
    aot.cache_clear()


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
        if module_name in AOT:
            try:
                _build_aot(module_name)
            except Exception as exc:  # noqa: BLE001 - any failure: the numba kernel runs
                print(f"note: {module_name} not compiled ahead of time ({exc}); its numba "
                      "kernel runs instead")
            else:
                if not quiet:
                    print(f"compiled {module_name} ahead of time "
                          f"({time.perf_counter() - t0:.1f} s)")
    return time.perf_counter() - t0
