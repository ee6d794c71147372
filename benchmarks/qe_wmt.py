"""Time the WMT QE comparison's resampling against the obvious loops over resamples.

Figures printed (seconds, medians of 3 alternating runs, same data and resamples):

* Kendall tau-b on 1,000 bootstrap resamples of n segments: ours (a Fenwick tree over the y
  ranks holding all resamples at once, ``stats.qe.wmt._weighted_kendall``) against ``scipy.stats.kendalltau``
  called on each resample (what a loop around the WMT23 scoring program's call would do);
* Spearman on the same resamples: weighted mid-ranks against ``scipy.stats.spearmanr`` per
  resample;
* word-level MCC paired bootstrap (1,000 resamples, 5 systems): one matrix product against a
  loop over resamples summing per-sentence confusion counts.

Run: ``python benchmarks/qe_wmt.py [n]`` (default n = 2000, a WMT23 test set's size).
"""

from __future__ import annotations

import statistics
import sys
import time

import numpy as np
from scipy import stats as sps

from stats.qe.wmt import _counts, _weighted_kendall, _weighted_pearson, _weighted_ranks
from stats.qe.word import word_scores_from_confusion


def _median_time(fn, runs: int = 3) -> float:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return statistics.median(out)


def main(n: int = 2000, R: int = 1000) -> None:
    rng = np.random.default_rng(1)
    x = np.round(rng.normal(size=n), 2)
    y = np.round(x + rng.normal(size=n), 2)
    W = _counts(np.random.default_rng(2), R, n)
    # the resamples as index lists, for the loops (same multisets as W)
    idx = [np.repeat(np.arange(n), W[r].astype(int)) for r in range(R)]

    def ours_k():
        return _weighted_kendall(W, x, y)

    def loop_k():
        return [sps.kendalltau(x[i], y[i]).statistic for i in idx]

    def ours_s():
        return _weighted_pearson(W, _weighted_ranks(W, x), _weighted_ranks(W, y))

    def loop_s():
        return [sps.spearmanr(x[i], y[i]).statistic for i in idx]

    assert np.allclose(ours_k(), loop_k(), atol=1e-12)
    assert np.allclose(ours_s(), loop_s(), atol=1e-12)
    times = {}
    for name, a, b in (("kendall", ours_k, loop_k), ("spearman", ours_s, loop_s)):
        ta, tb = [], []
        for _ in range(3):  # alternate: machine load hits both alike
            ta.append(_median_time(a, 1))
            tb.append(_median_time(b, 1))
        times[name] = (statistics.median(ta), statistics.median(tb))
    S, K = 1000, 5
    C = rng.integers(0, 6, size=(K, S, 4)).astype(float)
    Wb = _counts(np.random.default_rng(3), R, S)

    def ours_w():
        conf = np.einsum("rs,ksc->rkc", Wb, C)
        return word_scores_from_confusion(*np.moveaxis(conf, -1, 0))["mcc"]

    rows = [np.repeat(np.arange(S), Wb[r].astype(int)) for r in range(R)]

    def loop_w():
        return [
            [word_scores_from_confusion(*C[k][i].sum(axis=0))["mcc"] for k in range(K)]
            for i in rows
        ]

    assert np.allclose(ours_w(), np.asarray(loop_w(), dtype=float), atol=1e-12)
    tw = (_median_time(ours_w), _median_time(loop_w))
    print(f"n = {n} segments, R = {R} bootstrap resamples (medians of 3 alternating runs)")
    for name, (a, b) in times.items():
        print(f"{name:9s} ours {a:7.3f} s   scipy per resample {b:7.3f} s   ratio {b / a:6.1f}x")
    print(
        f"word MCC  ours {tw[0]:7.3f} s   loop over resamples {tw[1]:7.3f} s   "
        f"ratio {tw[1] / tw[0]:6.1f}x  ({K} systems, {S} sentences)"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
