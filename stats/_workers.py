"""Worker processes for the CPU-bound extraction steps (TER, BLEU tokenisation)."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ProcessPoolExecutor


def process_pool(max_workers: int, preload: tuple[str, ...] = ()) -> ProcessPoolExecutor:
    """A process pool whose workers start from a fork server, not as forks of this process.

    The dashboard extracts statistics inside Streamlit's multi-threaded server, and a forked
    copy of a threaded process can inherit a lock held by another thread and hang; the fork
    server is a fresh single-threaded process. Work submitted must be a module-level function.

    ``preload``: modules the fork server imports before forking the workers (so each worker
    does not import them again); only heeded when the fork server is not running yet.
    """
    context = multiprocessing.get_context("forkserver")
    if preload:
        context.set_forkserver_preload(["__main__", *preload])  # "__main__": the default
    return ProcessPoolExecutor(max_workers=max_workers, mp_context=context)
