"""Where :mod:`stats` caches what it computed (the statistics of text metrics, the dashboard's
sample results): one folder, chosen by one environment variable."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CACHE_ENV", "statistics_cache_dir"]

#: the environment variable naming the cache's folder (``off`` turns the cache off)
CACHE_ENV = "MT_SIGNIFICANCE_CACHE"


def statistics_cache_dir() -> Path | None:
    """The folder where extracted statistics are cached: ``$MT_SIGNIFICANCE_CACHE``, else
    ``mt-significance`` in ``$XDG_CACHE_HOME`` or ``~/.cache``; None when
    ``MT_SIGNIFICANCE_CACHE=off``."""
    env = os.environ.get(CACHE_ENV)
    if env is not None and env.strip().lower() in ("off", "none", "0", "false", "no", ""):
        return None
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "mt-significance"
