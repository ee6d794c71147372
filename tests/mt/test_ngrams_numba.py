"""The compiled all-orders n-gram matching (stats.mt._ngrams_numba) against the numpy path and
sacreBLEU's own chrF/BLEU statistics (sacrebleu called live), on small seeded text."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from sacrebleu.metrics import BLEU, CHRF

from stats.mt import _ngrams, _ngrams_numba

pytestmark = pytest.mark.skipif(not _ngrams_numba.available(), reason="numba not installed")


def _corpus(alphabet: str, n_sys: int, n_seg: int, seed: int):
    rng = np.random.default_rng(seed)
    letters = np.array(list(alphabet))

    def line():
        words = [
            "".join(rng.choice(letters, rng.integers(1, 6))) for _ in range(rng.integers(0, 25))
        ]
        return " ".join(words)

    ref = [line() for _ in range(n_seg)]
    systems = {f"s{k}": [line() if rng.random() < 0.5 else r for r in ref] for k in range(n_sys)}
    return ref, systems


def _numpy_path(monkeypatch):
    monkeypatch.setattr(_ngrams_numba, "fits", lambda n_ids, max_order: False)


@pytest.mark.parametrize("alphabet", ["abcde.,", "aäöüß–„“xyz", "日本語の文字列漢字かな"])
def test_chrf_compiled_equals_numpy_and_sacrebleu(alphabet, monkeypatch):
    ref, systems = _corpus(alphabet, 3, 40, seed=len(alphabet))
    scorer = CHRF(word_order=2)
    got = _ngrams.chrf_statistics(scorer, [ref], systems, None)
    want = np.array([scorer._extract_corpus_statistics(v, [ref]) for v in systems.values()])
    np.testing.assert_array_equal(got, want)
    _numpy_path(monkeypatch)
    np.testing.assert_array_equal(_ngrams.chrf_statistics(scorer, [ref], systems, None), want)


def test_bleu_compiled_equals_sacrebleu(monkeypatch):
    ref, systems = _corpus("abcd ,.", 3, 40, seed=3)
    scorer = BLEU()
    want = np.array([scorer._extract_corpus_statistics(v, [ref]) for v in systems.values()])
    np.testing.assert_array_equal(_ngrams.bleu_statistics(scorer, [ref], systems), want)
    _numpy_path(monkeypatch)
    np.testing.assert_array_equal(_ngrams.bleu_statistics(scorer, [ref], systems), want)


def test_wide_vocabulary_falls_back_exactly():
    # 3,000 distinct characters need 12 bits: 6 orders do not fit in 63 bits
    assert not _ngrams_numba.fits(3000, 6) and _ngrams_numba.fits(3000, 4)
    alphabet = "".join(chr(0x4E00 + i) for i in range(3000))
    ref, systems = _corpus(alphabet, 2, 30, seed=5)
    scorer = CHRF()
    want = np.array([scorer._extract_corpus_statistics(v, [ref]) for v in systems.values()])
    np.testing.assert_array_equal(_ngrams.chrf_statistics(scorer, [ref], systems, None), want)


def test_order_matches_by_hand():
    # "aab" vs "ab": unigrams min(2,1)+min(1,1) = 2; bigrams "ab" 1; trigram none
    tokens = np.array([0, 0, 1, 0, 1])
    got = _ngrams_numba.order_matches(tokens, np.array([3, 2]), 2, 3, np.array([0]), np.array([1]))
    np.testing.assert_array_equal(got[:, 0], [2, 1, 0])


def _brute_matches(tokens, lengths, max_order, hyp_rows, ref_rows):
    """sum over n-grams of min(hyp count, ref count), with Counters (a second formulation)."""
    from collections import Counter

    starts = np.cumsum(lengths) - lengths
    seqs = [tuple(tokens[s : s + n]) for s, n in zip(starts, lengths, strict=True)]
    out = np.zeros((max_order, len(hyp_rows)), dtype=np.int64)
    for p, (h, r) in enumerate(zip(hyp_rows, ref_rows, strict=True)):
        for n in range(1, max_order + 1):
            ch = Counter(seqs[h][i : i + n] for i in range(len(seqs[h]) - n + 1))
            cr = Counter(seqs[r][i : i + n] for i in range(len(seqs[r]) - n + 1))
            out[n - 1, p] = sum(min(c, cr[g]) for g, c in ch.items())
    return out


@pytest.mark.parametrize(("n_ids", "max_order"), [(1, 4), (3, 6), (7, 3), (255, 4), (256, 6)])
def test_order_matches_equal_counting_sorting_and_threads(n_ids, max_order, monkeypatch):
    # rows long enough for the radix sort (and empty ones), a digit equal to the mask
    # (n_ids = 2**k - 1), and the threaded path (forced on small input) giving the same counts
    rng = np.random.default_rng(n_ids)
    lengths = rng.integers(0, 400, 24)
    lengths[3] = 0
    tokens = rng.integers(0, n_ids, int(lengths.sum()))
    tokens[: n_ids // 2] = n_ids - 1
    hyp_rows = np.arange(8, 24)
    ref_rows = np.tile(np.arange(8), 2)
    want = _brute_matches(tokens, lengths, max_order, hyp_rows, ref_rows)
    got = _ngrams_numba.order_matches(tokens, lengths, n_ids, max_order, hyp_rows, ref_rows)
    np.testing.assert_array_equal(got, want)
    monkeypatch.setattr(_ngrams_numba, "MIN_THREADED", 0)
    got = _ngrams_numba.order_matches(
        tokens, lengths, n_ids, max_order, hyp_rows, ref_rows, threads=3
    )
    np.testing.assert_array_equal(got, want)


def test_char_ids_are_the_characters_sacrebleu_counts():
    # every code point str.split() splits at, among letters, an astral character and a lone
    # surrogate; empty texts and texts of whitespace only: the ids spell "".join(t.split())
    # (whitespace=False) or the text itself (whitespace=True), one id per distinct character
    spaces = "".join(chr(c) for c in range(0x110000) if chr(c).isspace())
    texts = ["", "a b", spaces, f"x{spaces}y\U0001f600z\ud800", "  ", "äöü\u3000ß", "日本", " ", ""]
    for whitespace in (False, True):
        ids, lengths, n_ids = _ngrams._char_ids(texts, whitespace)
        want = texts if whitespace else ["".join(t.split()) for t in texts]
        alphabet = sorted(set("".join(want)))
        assert n_ids == len(alphabet) and ids.dtype == np.int32
        assert lengths.tolist() == [len(t) for t in want]
        assert "".join(alphabet[i] for i in ids) == "".join(want)
    assert _ngrams._char_ids(["", ""], False)[1].tolist() == [0, 0]
    assert _ngrams._char_ids([" ", "\t"], False)[2] == 1
    # a text ending in a kept character before empty texts, and every other order of empty,
    # blank and spaced texts (the last text's last character once went uncounted when empty
    # texts followed it)
    for texts in itertools.permutations(["ab c", "", "", " ", "d ", "e"]):
        got = _ngrams._char_ids(list(texts), False)[1].tolist()
        assert got == [len("".join(t.split())) for t in texts], texts
