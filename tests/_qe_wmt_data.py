"""The seeded WMT-QE-like generator of sample_data/make_qe_wmt_sample.py, for tests."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parent.parent / "sample_data" / "make_qe_wmt_sample.py"


def _module():
    spec = importlib.util.spec_from_file_location("make_qe_wmt_sample", _PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@functools.lru_cache(maxsize=4)
def generate(seed: int = 2023, n: int = 40, hallucinations: int = 3) -> dict:
    return _module().generate(seed=seed, n=n, hallucinations=hallucinations)


@functools.lru_cache(maxsize=2)
def generate_wmt23_folder(seed: int = 23, n: int = 30) -> dict:
    """The WMT23 submissions folder layout (one folder per team, per-pair and multilingual
    files, three empty files): :func:`make_qe_wmt_sample.generate_wmt23_folder`."""
    return _module().generate_wmt23_folder(seed=seed, n=n)
