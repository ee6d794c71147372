"""_ngrams._split_words (pyarrow) against str.split() and pandas.factorize (a plain second
formulation), on text made of every Unicode whitespace character, empty and blank lines, and
lone surrogates (which pyarrow cannot hold: split by Python)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from stats.mt._ngrams import _split_words

WHITESPACE = [chr(c) for c in range(0x110000) if chr(c).isspace()]


def _python(texts):
    words = [w for t in texts for w in t.split()]
    ids, uniques = pd.factorize(np.array(words, dtype=object), sort=False)
    return ids, list(uniques), [len(t.split()) for t in texts]


@pytest.mark.parametrize("surrogate", [False, True])
def test_split_words_equals_str_split(surrogate):
    rng = np.random.default_rng(int(surrogate))
    alphabet = ["a", "b", "é", "日", ".", ",", "\u200b", "\x1b", *WHITESPACE]
    texts = ["".join(rng.choice(alphabet, rng.integers(0, 12))) for _ in range(3000)]
    texts += ["", " ", "\u3000\x85", "a" + "\x1c" + "b"]
    if surrogate:
        texts.append("x\udc80y z")
    ids, words, counts = _split_words(texts)
    want_ids, want_words, want_counts = _python(texts)
    np.testing.assert_array_equal(ids, want_ids)
    assert words == want_words
    np.testing.assert_array_equal(counts, want_counts)


def test_no_other_character_splits_a_word():
    rng = np.random.default_rng(2)
    points = rng.choice(0x110000, 20000, replace=False)
    chars = [chr(c) for c in points if not 0xD800 <= c < 0xE000 and not chr(c).isspace()]
    _, _, counts = _split_words(["a" + c + "b" for c in chars])
    assert (counts == 1).all()
