"""The seeded WMT25 automatic-scores generator of sample_data/make_wmt25_sample.py, for tests
and benchmarks: files in the published layout (``SYSTEM.jsonl``, one JSON line per document)."""

from __future__ import annotations

import functools
import importlib.util
from pathlib import Path

_PATH = Path(__file__).resolve().parent.parent / "sample_data" / "make_wmt25_sample.py"


@functools.lru_cache(maxsize=1)
def module():
    spec = importlib.util.spec_from_file_location("make_wmt25_sample", _PATH)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def generate(seed: int = 20250901, **kwargs) -> dict[str, bytes]:
    """``{"SYSTEM.jsonl": bytes}`` (:func:`make_wmt25_sample.generate`)."""
    return module().generate(seed, **kwargs)


def published_size(systems: int = 60, seed: int = 25) -> dict[str, bytes]:
    """Files of the published size: ``systems`` systems x WMT25's 31 language pairs, about
    1.4 MB per system file."""
    mod = module()
    quality = {f"SYS-{i:02d}": 0.45 + 0.4 * i / systems for i in range(systems)}
    return mod.generate(seed, systems=quality, lps=mod.WMT25_LPS, documents=60, paragraphs=(4, 16))
