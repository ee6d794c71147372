"""The resampling threads of :func:`stats._core.random.in_threads` run BLAS on one thread
each (its own threads on top of ours only contend for the cores), the setting restored after,
and their results are a serial run's."""

import numpy as np
import pytest

from stats._core.random import chunks, in_threads

threadpoolctl = pytest.importorskip("threadpoolctl")


def _blas_threads() -> list[int]:
    return [i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"]


@pytest.mark.parametrize("jobs", [1, 2])
def test_parallel_work_runs_blas_on_one_thread_and_restores_it(jobs):
    before = _blas_threads()
    a = np.arange(64.0).reshape(8, 8)
    seen, out = [], {}

    def work(start, size, x):
        seen.append(_blas_threads())
        return x @ x

    in_threads(jobs, chunks(6, 2), lambda start, size: a * (start + 1), work,
               lambda start, size, r: out.__setitem__(start, r))
    if jobs > 1:
        assert seen and all(t == [1] * len(before) for t in seen)
    else:  # serially BLAS keeps its threads
        assert all(t == before for t in seen)
    assert _blas_threads() == before
    assert sorted(out) == [0, 2, 4]
    for start, r in out.items():
        np.testing.assert_array_equal(r, (a * (start + 1)) @ (a * (start + 1)))


def test_overlapping_runs_restore_blas_once_the_last_one_ends():
    import threading

    before = _blas_threads()
    inside = threading.Barrier(2)
    a = np.ones((4, 4))

    def run():
        in_threads(2, chunks(4, 2), lambda start, size: a,
                   lambda start, size, x: inside.wait(timeout=30) is None or x @ x,
                   lambda start, size, r: None)

    threads = [threading.Thread(target=run) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert _blas_threads() == before
