"""BLEU and chrF statistics on the compiled path used at run time (the n-gram kernel compiled
ahead of time at install, :func:`stats._core.jit.aot`, else numba's) against sacreBLEU's own
``_extract_corpus_statistics`` (sacrebleu called live), on generated multilingual text with
the edge cases: empty hypotheses and references, several references, Unicode punctuation,
very long segments; and the checks that keep a stale ahead-of-time build from running."""

from __future__ import annotations

import zlib

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF

from stats._core import jit
from stats.mt import _ngrams_numba
from stats.mt.sufficient import extract_statistics

WORDS = {
    "de": ["Straße", "über", "größer", "„Haus“", "–", "Öl", "z.B.", "10,5", "Mädchen", "ß"],
    "cs": ["přes", "řeka", "čtvrť", "«ano»", "…", "žluť", "Úžas", "2.5", "ďábel", "ů"],
    "ja": ["日本語", "の", "文字列", "「東京」", "。", "、", "漢字", "かな", "カタカナ", "！"],
    "ru": ["Москва", "—", "«да»", "ёлка", "съел", "щи", "Й", "3,14", "это", "?"],
}


def _corpus(seed: int, n_seg: int = 40, n_sys: int = 3, n_refs: int = 1):
    rng = np.random.default_rng(seed)
    vocab = [w for words in WORDS.values() for w in words] + [".", ",", "!", "(", ")", "-"]

    def line(k):
        if k % 11 == 3:
            return ""  # empty segment
        n = 600 if k % 13 == 5 else int(rng.integers(1, 30))  # a very long one now and then
        return " ".join(rng.choice(vocab, n))

    refs = [[line(k) for k in range(n_seg)]]
    for _ in range(n_refs - 1):  # further references: edits of the first
        refs.append([r if rng.random() < 0.3 else line(k + 1) for k, r in enumerate(refs[0])])
    systems = {}
    for s in range(n_sys):
        lines = []
        for k, r in enumerate(refs[0]):
            words = r.split()
            keep = rng.random(len(words)) >= 0.1 + 0.15 * s
            out = " ".join(w if ok else str(rng.choice(vocab)) for w, ok in zip(words, keep, strict=True))
            lines.append("" if k % 7 == 2 else out)  # empty hypotheses
        systems[f"sys{s}"] = lines
    return refs, systems


def _sacrebleu(scorer, systems):
    """sacreBLEU's statistics of each system against the references given to ``scorer``
    (sacreBLEU's reference cache: their n-grams extracted once, not per system)."""
    return np.array([scorer._extract_corpus_statistics(v, None) for v in systems.values()],
                    dtype=float)


@pytest.mark.parametrize("n_refs", [1, 2])
@pytest.mark.parametrize(
    ("metric", "options"),
    [
        ("bleu", {}),
        ("bleu", {"tokenize": "intl"}),
        ("bleu", {"tokenize": "char", "lowercase": True}),
        ("chrf", {}),
        ("chrf", {"word_order": 2}),
    ],
)
def test_statistics_equal_sacrebleus(metric, options, n_refs, monkeypatch):
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", "off")
    refs, systems = _corpus(seed=n_refs * 7 + len(options), n_refs=n_refs)
    got = extract_statistics(refs, systems, metric=metric, jobs=1, **options)
    scorer = (BLEU if metric == "bleu" else CHRF)(**options, references=refs)
    np.testing.assert_array_equal(got.stats, _sacrebleu(scorer, systems))
    want = [scorer.corpus_score(v, None).score for v in systems.values()]
    assert got.corpus_scores.tolist() == want


def test_threads_give_the_same_statistics(monkeypatch):
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", "off")
    monkeypatch.setattr(_ngrams_numba, "MIN_THREADED", 0)
    refs, systems = _corpus(seed=3)
    for metric in ("bleu", "chrf"):
        one = extract_statistics(refs, systems, metric=metric, jobs=1)
        two = extract_statistics(refs, systems, metric=metric, jobs=2)
        np.testing.assert_array_equal(one.stats, two.stats)


def test_the_ahead_of_time_kernel_runs_only_when_built_from_this_source(monkeypatch):
    # built by the install (setup.py -> precompile); where it is absent, numba's kernel runs
    kernel = jit.aot("stats.mt._ngrams_kernel", "_kernel")
    if kernel is not None:
        assert _ngrams_numba._kernel() is kernel
        # numba is not needed to run it
        module = __import__("stats.mt._ngrams_kernel_aot", fromlist=["source_crc"])
        with open(jit.importlib.util.find_spec("stats.mt._ngrams_kernel").origin, "rb") as f:
            assert int(module.source_crc()) == zlib.crc32(f.read())
    # another source (an edited kernel) -> the build is not used
    jit.aot.cache_clear()
    monkeypatch.setattr(jit, "_source_crc", lambda name: -1)
    assert jit.aot("stats.mt._ngrams_kernel", "_kernel") is None
    jit.aot.cache_clear()
    monkeypatch.undo()
    jit.aot.cache_clear()
    # a module never built -> None
    assert jit.aot("stats.mt._no_such_kernel", "_kernel") is None
