"""Running the pieces of a task set on Dask distributed (optional extra ``dask``).

``scheduler`` is ``None`` (this process), ``local:N`` (a ``LocalCluster`` of N worker
processes, one thread each, started and closed here) or the address of a running scheduler
(``tcp://host:8786``). The pieces are pure functions of their inputs
(:func:`stats.metaeval._task_draws.piece_draws`), so every scheduler gives the same bytes.
"""

from __future__ import annotations

from stats._core.errors import StatsInputError

from ._task_draws import piece_draws

__all__ = ["run_pieces"]


def _local_workers(scheduler: str) -> int:
    text = scheduler.split(":", 1)[1]
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise StatsInputError(
            f"scheduler=local:N needs a positive worker count; got {scheduler!r}"
        )
    return n


def run_pieces(jobs: list, seed: int, scheduler: str | None = None) -> list:
    """``piece_draws(prepared, piece, seed)`` of every ``(prepared, piece)`` in ``jobs``, in
    order, here or on Dask workers."""
    if scheduler is None:
        return [piece_draws(prepared, piece, seed) for prepared, piece in jobs]
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise StatsInputError(
            "scheduler= needs Dask distributed: pip install 'mt-significance[dask]'"
        ) from None
    cluster = None
    try:
        if scheduler.startswith("local:"):
            cluster = LocalCluster(
                n_workers=_local_workers(scheduler),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=40,
            )
            client = Client(cluster)
        else:
            try:
                client = Client(scheduler, timeout="10s")
            except (OSError, TimeoutError, ValueError) as exc:
                raise StatsInputError(
                    f"scheduler={scheduler!r}: cannot reach the Dask scheduler ({exc})"
                ) from None
        with client:
            # each task's data goes to the workers once, not once per piece
            shared = {}
            for prepared, _ in jobs:
                if prepared.index not in shared:
                    shared[prepared.index] = client.scatter(prepared, broadcast=True)
            futures = [
                client.submit(piece_draws, shared[prepared.index], piece, seed, pure=True)
                for prepared, piece in jobs
            ]
            return client.gather(futures)
    finally:
        if cluster is not None:
            cluster.close()
