"""TER statistics over worker processes and the on-disk statistics cache.

Golden source: sacrebleu 2.6's own sequential ``TER._extract_corpus_statistics`` and
``TER.corpus_score`` on the same strings.
"""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

import stats.mt._ter_parallel as ter_parallel
from stats import StatsInputError, statistics_cache_dir
from stats.mt.sufficient import extract_statistics
from tests._data import mt_sample_text


@pytest.fixture(scope="module")
def corpus():
    refs, hyps = mt_sample_text()
    n = 40  # TER is slow: a slice, still several chunks per worker
    refs = [r[:n] for r in refs]
    hyps = {k: v[:n] for k, v in list(hyps.items())[:3]}
    hyps["Empty"] = [""] * 5 + hyps["Aurora"][5:]
    return refs, hyps


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache"


def _sequential(refs, hyps, **opts):
    scorer = sacrebleu.TER(**opts)
    return np.stack(
        [np.asarray(scorer._extract_corpus_statistics(h, refs), dtype=float) for h in hyps.values()]
    )


@pytest.mark.parametrize("opts", [{}, {"normalized": True, "case_sensitive": True}])
def test_parallel_equals_sequential_sacrebleu(corpus, cache, opts):
    refs, hyps = corpus
    data = extract_statistics(refs, hyps, metric="ter", jobs=2, **opts)
    np.testing.assert_array_equal(data.stats, _sequential(refs, hyps, **opts))
    for k, name in enumerate(data.systems):
        assert data.corpus_scores[k] == sacrebleu.TER(**opts).corpus_score(hyps[name], refs).score


def test_two_references_and_one_job(corpus, cache):
    refs, hyps = corpus
    n = 12  # reversed references make TER's shift search slow: fewer segments do
    refs2 = [refs[0][:n], [" ".join(r.split()[::-1]) for r in refs[0][:n]]]
    hyps = {k: v[:n] for k, v in hyps.items()}
    data = extract_statistics(refs2, hyps, metric="ter", jobs=1)
    np.testing.assert_array_equal(data.stats, _sequential(refs2, hyps))


def test_second_run_reads_the_cache(corpus, cache, monkeypatch):
    refs, hyps = corpus
    first = extract_statistics(refs, hyps, metric="ter", jobs=2)
    assert len(list(cache.glob("ter-*.npy"))) == len(hyps)

    def fail(*args, **kwargs):
        raise AssertionError("recomputed although cached")

    monkeypatch.setattr(ter_parallel, "_score_chunk", fail)
    monkeypatch.setattr(ter_parallel, "_numba_compute", fail)
    second = extract_statistics(refs, hyps, metric="ter", jobs=2)
    np.testing.assert_array_equal(second.stats, first.stats)
    np.testing.assert_array_equal(second.corpus_scores, first.corpus_scores)


def test_cache_key_covers_options_references_and_hypotheses(corpus, cache):
    refs, hyps = corpus
    extract_statistics(refs, hyps, metric="ter", jobs=1)
    n = len(list(cache.glob("ter-*.npy")))
    extract_statistics(refs, hyps, metric="ter", jobs=1, normalized=True)  # other options
    extract_statistics([refs[0][::-1]], hyps, metric="ter", jobs=1)  # other references
    changed = dict(hyps, Aurora=["changed"] + hyps["Aurora"][1:])  # one system changed
    extract_statistics(refs, changed, metric="ter", jobs=1)
    assert len(list(cache.glob("ter-*.npy"))) == 3 * n + 1


def test_cache_key_covers_the_extraction_code(corpus, cache, monkeypatch):
    # what an earlier version of the extraction wrote (before a fix, say) is never read back
    refs, hyps = corpus
    hyps = dict(list(hyps.items())[:2])
    extract_statistics(refs, hyps, metric="chrf", jobs=1)
    n = len(list(cache.glob("chrf-*.npy")))
    assert n == 2
    digest = ter_parallel._code_digest.__wrapped__()  # the sources' own digest, computed again
    assert digest == ter_parallel._code_digest() and len(digest) == 64
    monkeypatch.setattr(ter_parallel, "_code_digest", lambda: "another version of stats/mt")
    extract_statistics(refs, hyps, metric="chrf", jobs=1)
    assert len(list(cache.glob("chrf-*.npy"))) == 2 * n


def test_only_new_systems_are_computed(corpus, cache, monkeypatch):
    refs, hyps = corpus
    first = dict(list(hyps.items())[:2])
    extract_statistics(refs, first, metric="ter", jobs=1)
    seen = []
    real = ter_parallel._numba_compute

    def spy(options, references, todo, jobs, progress):
        seen.append(len(todo))
        return real(options, references, todo, jobs, progress)

    monkeypatch.setattr(ter_parallel, "_numba_compute", spy)
    data = extract_statistics(refs, hyps, metric="ter", jobs=1)
    assert seen == [len(hyps) - 2]
    np.testing.assert_array_equal(data.stats, _sequential(refs, hyps))


def test_cache_off_writes_nothing(corpus, tmp_path, monkeypatch):
    refs, hyps = corpus
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", "off")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert statistics_cache_dir() is None
    small = [refs[0][:10]]
    extract_statistics(small, {k: v[:10] for k, v in hyps.items()}, metric="ter", jobs=1)
    assert not any(tmp_path.rglob("*.npy"))


def test_default_cache_dir(monkeypatch, tmp_path):
    monkeypatch.delenv("MT_SIGNIFICANCE_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert statistics_cache_dir() == tmp_path / "mt-significance"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert statistics_cache_dir() == tmp_path / "home" / ".cache" / "mt-significance"


def test_corrupt_cache_file_is_recomputed(corpus, cache):
    refs, hyps = corpus
    small = [refs[0][:10]]
    few = {k: v[:10] for k, v in hyps.items()}
    first = extract_statistics(small, few, metric="ter", jobs=1)
    for path in cache.glob("ter-*.npy"):
        path.write_bytes(b"not an array")
    again = extract_statistics(small, few, metric="ter", jobs=1)
    np.testing.assert_array_equal(again.stats, first.stats)


def test_progress_reaches_one(corpus, cache):
    refs, hyps = corpus
    seen = []
    extract_statistics(refs, hyps, metric="ter", jobs=2, progress=seen.append)
    assert seen[-1] == 1.0 and seen == sorted(seen)


@pytest.mark.parametrize("jobs", [0, -1, 1.5, "2", True])
def test_bad_jobs(jobs):
    with pytest.raises(StatsInputError, match="jobs"):
        extract_statistics([["a"]], {"A": ["a"]}, metric="ter", jobs=jobs)


def test_chunks_cover_every_segment_once_longest_first():
    rng = np.random.default_rng(4)
    refs = [[" ".join(["w"] * int(k)) for k in rng.integers(0, 60, 300)]]
    hyps = [[" ".join(["v"] * int(k)) for k in rng.integers(0, 60, 300)] for _ in range(3)]
    chunks = ter_parallel._longest_first(refs, hyps, 16)
    assert 1 < len(chunks) <= 16
    np.testing.assert_array_equal(np.sort(np.concatenate(chunks)), np.arange(300))
    size = np.array([max(len(r) for r in refs_) for refs_ in zip(*refs, strict=True)])
    cost = ((np.array([[len(h) for h in lines] for lines in hyps]) + size) ** 2).sum(axis=0) + 1
    assert cost[chunks[0]].max() == cost.max()  # the most expensive segment goes first
    per_chunk = np.array([cost[c].sum() for c in chunks])
    assert per_chunk.max() <= cost.sum() / 16 + cost.max()  # about equal shares
    for first, then in zip(chunks[:-1], chunks[1:], strict=True):  # in decreasing cost
        assert cost[first].min() >= cost[then].max()
    assert [c.tolist() for c in ter_parallel._longest_first(refs, hyps, 1)] == [list(range(300))]


def test_each_distinct_hypothesis_of_a_segment_scored_once(corpus, cache, monkeypatch):
    refs, hyps = corpus
    base = hyps["Aurora"]
    same = {"A": base, "B": list(base), "C": [h if k % 2 else "other words" for k, h in
                                                enumerate(base)]}
    calls = []
    import stats.mt._ter_numba as ter_numba

    real = ter_numba.ter_edits

    def count(pairs, threads=1):  # the compiled kernel: one (hypothesis, reference) per pair
        calls.extend(pairs)
        return real(pairs, threads=threads)

    monkeypatch.setattr(ter_numba, "ter_edits", count)
    data = extract_statistics(refs, same, metric="ter", jobs=1)  # in this process: counted
    n = len(base)
    # A: every segment; B: none (same as A); C: its even segments, unless A has them too
    assert len(calls) == n + sum(base[k] != "other words" for k in range(0, n, 2))
    monkeypatch.undo()
    np.testing.assert_array_equal(data.stats, _sequential(refs, same))
