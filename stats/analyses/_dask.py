"""Running the pieces of a task set on Dask distributed (optional extra ``dask``).

``scheduler`` is ``None`` (this process), ``local:N`` (a ``LocalCluster`` of N worker
processes, one thread each, started and closed here) or the address of a running scheduler
(``tcp://host:8786``). The pieces are pure functions of their inputs
(:func:`stats.analyses._task_draws.piece_draws`), so every scheduler gives the same bytes.
"""

from __future__ import annotations

from stats._core.errors import StatsInputError
from stats._core.workers import without_main_module

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


#: seconds to wait for a scheduler to connect and greet (its handshake), before Dask is used
PROBE_SECONDS = 4.0
#: largest first message a scheduler greets with (its handshake is a few hundred bytes)
_MAX_GREETING = 2**20


def probe_scheduler(scheduler: str, seconds: float = PROBE_SECONDS) -> None:
    """Refuse, in one line and within ``seconds``, an address where no Dask scheduler answers.

    A scheduler greets a new connection first: 8 bytes (the length of its handshake message)
    then the message. A silent server sends nothing, a web server waits for a request, and
    either would keep Dask's client waiting past its own timeout (or, given bytes that are
    not its protocol, read a length of exabytes); so the greeting is awaited here with a plain
    socket and a deadline, and its length checked, before the client connects.
    """
    import socket
    import struct
    import time
    from urllib.parse import urlsplit

    if "://" in scheduler and not scheduler.startswith("tcp://"):
        return  # tls://, ucx://, ...: Dask's client and its timeout
    where = urlsplit(scheduler if "://" in scheduler else f"tcp://{scheduler}")
    try:
        host, port = where.hostname, where.port
    except ValueError:
        host, port = None, None
    if not host or port is None:
        raise StatsInputError(
            f"--scheduler {scheduler[:100]!r}: not an address (tcp://host:port or local:N)"
        )
    deadline = time.monotonic() + seconds
    head = b""
    try:
        with socket.create_connection((host, port), timeout=seconds) as sock:
            while len(head) < 8:
                sock.settimeout(max(deadline - time.monotonic(), 0.01))
                chunk = sock.recv(8 - len(head))
                if not chunk:
                    break
                head += chunk
    except TimeoutError:
        raise StatsInputError(
            f"--scheduler {scheduler[:100]!r}: no Dask scheduler answered within "
            f"{seconds:g} s (a server that says nothing, or not a Dask scheduler)"
        ) from None
    except OSError as exc:
        raise StatsInputError(
            f"--scheduler {scheduler[:100]!r}: cannot reach the Dask scheduler "
            f"({exc.strerror or exc})"
        ) from None
    if len(head) < 8 or not 0 < struct.unpack("<Q", head)[0] <= _MAX_GREETING:
        raise StatsInputError(
            f"--scheduler {scheduler[:100]!r}: the server there does not speak Dask's protocol "
            "(a web server or another service?); give the scheduler's address"
        )


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
            with without_main_module():  # under Streamlit __main__ is a page script
                cluster = LocalCluster(
                    n_workers=_local_workers(scheduler),
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=40,
                )
            client = Client(cluster)
        else:
            probe_scheduler(scheduler)
            try:
                client = Client(scheduler, timeout="10s")
            except (OSError, TimeoutError, ValueError, MemoryError) as exc:
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
