"""BLEU tokenization word by word (stats.mt._ngrams._word_token_ids) equals sacrebleu's
pre-processing of whole lines, token for token.

Golden source: sacrebleu 2.6's own ``BLEU._preprocess_segment`` (lowercasing, then the 13a or
none tokenizer on the whole line), run here line by line, and its
``_extract_corpus_statistics`` for the statistics.
"""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

from stats.mt._ngrams import _by_words, _word_token_ids
from stats.mt.sufficient import extract_statistics

#: pieces that exercise every rule of the 13a tokenizer and of Python's lowercasing at word and
#: line boundaries: digits next to '.', ',' and '-', the punctuation class it splits off,
#: the entities and '<skipped>' it rewrites, every kind of whitespace str.split knows, a
#: final sigma, characters that lowercase to two, combining marks, emoji, CJK
PIECES = [
    "0", "1", "9", ".", ",", "-", "a", "Z", "é", "Σ", "ς", "İ", "ß", "\u0301", "🎉", "日本",
    "&", "<", ">", '"', "'", "(", ")", "/", "[", "\\", "]", "{", "|", "}", "~", "@", "`", "_",
    "^", "+", "*", "!", "?", ":", ";", "=", "#", "$", "%", "€", "«", "»", "—", "·",
    "&quot;", "&amp;", "&lt;", "&gt;", "&amp;quot;", "<skipped>", "<skip", "ped>",
    " ", " ", " ", "\t", "\u3000", "\xa0", "\x1c", "\u2028", "\r", "\x0b", "\x85", "\u200b",
    "word", "WORD", "3.14", "1,000", "x-1",
]


#: the pieces as the array ``rng.choice`` makes of the list (once, not once a line)
_PIECES = np.array(PIECES)


def _random_lines(n: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return ["".join(rng.choice(_PIECES, size=rng.integers(0, 30))) for _ in range(n)]


def _per_line(scorer, texts):
    return [scorer._preprocess_segment(t).split() for t in texts]


def _by_word(scorer, texts):
    tokens, lengths, vocabulary = _word_token_ids(scorer, texts)
    words = list(vocabulary[tokens])
    ends = np.cumsum(lengths)
    return [words[e - n:e] for e, n in zip(ends, lengths, strict=True)]


@pytest.mark.parametrize("tokenize", ["13a", "none"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_random_lines_token_for_token(tokenize, lowercase):
    scorer = sacrebleu.BLEU(tokenize=tokenize, lowercase=lowercase)
    texts = _random_lines(8000, seed=len(tokenize) + lowercase)
    texts += ["", " ", "end.", "end .", "5.", ".5", "a,", ",a", "Σ", "ΑΣ", "ΑΣ.", "ΑΣ\t", "x&"]
    assert _by_words(scorer, texts)
    assert _by_word(scorer, texts) == _per_line(scorer, texts)


def test_every_pair_of_pieces():
    # each ordered pair of pieces, alone and between words: all two-character contexts
    scorer = sacrebleu.BLEU()
    texts = [a + b for a in PIECES for b in PIECES]
    texts += [f"w{a}{b}w" for a in PIECES for b in PIECES]
    texts += [f"{a} {b}" for a in PIECES for b in PIECES]
    assert _by_word(scorer, texts) == _per_line(scorer, texts)


def test_other_tokenizers_and_line_breaks_take_the_per_line_path():
    assert not _by_words(sacrebleu.BLEU(tokenize="intl"), ["a b"])
    assert not _by_words(sacrebleu.BLEU(tokenize="char"), ["a b"])
    assert not _by_words(sacrebleu.BLEU(), ["a-\nb", "c"])  # 13a joins words around '-\n'


@pytest.mark.parametrize("lowercase", [False, True])
def test_statistics_equal_sacrebleu_on_random_text(lowercase):
    refs = [_random_lines(400, 1), _random_lines(400, 2)]
    hyps = {f"s{k}": _random_lines(400, 10 + k) for k in range(3)}
    hyps["s3"] = list(refs[0])  # identical to a reference: every n-gram matches
    hyps["s4"] = [t + "\n-x" if k % 7 == 0 else t for k, t in enumerate(refs[1])]  # line breaks
    for stream in (refs[:1], refs):
        data = extract_statistics(stream, hyps, metric="bleu", lowercase=lowercase)
        scorer = sacrebleu.BLEU(lowercase=lowercase, references=stream)
        golden = [scorer._extract_corpus_statistics(h, None) for h in hyps.values()]
        np.testing.assert_array_equal(data.stats, np.asarray(golden, dtype=float))
