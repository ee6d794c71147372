"""BLEU and chrF statistics on generated multilingual text equal sacreBLEU's, integer for integer.

Golden source: sacrebleu 2.6's own per-sentence extraction (``_extract_corpus_statistics``,
Counter-based n-grams), an independent code path from our token ids, packed n-gram keys and
compiled matching (stats.mt._ngrams, stats.mt._ngrams_numba). The text is drawn at random
from Chinese, Japanese (kana and kanji), Korean (Hangul), accented Latin, digits with ``.``/``,``,
ASCII and CJK punctuation and several kinds of whitespace (tab, no-break, ideographic,
doubled spaces), so that every tokenizer's rules and chrF's whitespace handling are hit;
systems are noisy copies of the first reference (many matches, repeated n-grams to clip).
"""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

from stats.mt.sufficient import extract_statistics

PIECES = (
    list("的一是不了人我在有他这中大来上国个到说们为子和你地出道也时年")
    + list("あいうえおかきくけこさしすせそたちつてとなにぬねのアイウエオカキクケコ漢字日本語")
    + list("한국어서울수도입니다사람시간")
    + ["Straße", "café", "naïve", "ÉCOLE", "the", "cat", "mat", "New", "York", "it's"]
    + ["3.14", "1,000", "5,00", "22/7", "2024-01-02", "A.B.", "e.g."]
    + list(".,;:!?()[]\"'-") + ["。", "、", "！", "？", "「", "」", "…", "—", "«", "»"]
)
SPACES = [" ", " ", " ", "  ", "\t", "\u00a0", "\u3000", ""]


def _line(rng, n):
    words = rng.choice(len(PIECES), size=n)
    gaps = rng.choice(len(SPACES), size=n)
    return "".join(PIECES[w] + SPACES[g] for w, g in zip(words, gaps, strict=True)).strip(" ")


def _noisy(rng, line, rate):
    chars = list(line)
    for i in np.flatnonzero(rng.random(len(chars)) < rate):
        chars[i] = PIECES[int(rng.integers(len(PIECES)))]
    return "".join(chars)


@pytest.fixture(scope="module")
def corpus():
    rng = np.random.default_rng(47)
    n = 60
    ref = [_line(rng, int(k)) for k in rng.integers(0, 40, n)]
    ref[3] = ""  # an empty reference
    second = [_noisy(rng, r, 0.3) for r in ref]
    hyps = {f"sys{k}": [_noisy(rng, r, 0.1 * k) for r in ref] for k in range(4)}
    hyps["sys1"][5] = ""  # an empty hypothesis
    return [ref, second], hyps


def _golden(scorer, hyps):
    """sacrebleu's per-sentence statistics of each system against the references given to
    ``scorer`` (sacrebleu's reference cache: their n-grams extracted once, not per system)."""
    return np.stack(
        [np.asarray(scorer._extract_corpus_statistics(h, None), dtype=float) for h in hyps.values()]
    )


TOKENIZERS = ["13a", "intl", "zh", "char", "none", "ja-mecab", "ko-mecab"]


@pytest.mark.parametrize("tokenize", TOKENIZERS)
@pytest.mark.parametrize("n_refs", [1, 2])
def test_bleu_on_generated_multilingual_text(corpus, tokenize, n_refs):
    refs, hyps = corpus
    refs = refs[:n_refs]
    opts = {"tokenize": tokenize, "lowercase": tokenize == "intl"}
    try:
        sacrebleu.BLEU(**opts).tokenizer("probe")
    except (ImportError, RuntimeError):  # pragma: no cover - mecab not installed
        pytest.skip(f"sacrebleu's {tokenize} tokenizer is not installed")
    scorer = sacrebleu.BLEU(**opts, references=refs)
    data = extract_statistics(refs, hyps, metric="bleu", **opts)
    np.testing.assert_array_equal(data.stats, _golden(scorer, hyps))
    for k, name in enumerate(data.systems):
        assert data.corpus_scores[k] == scorer.corpus_score(hyps[name], None).score


@pytest.mark.parametrize(
    "opts",
    [
        {},  # chrF2: characters, whitespace removed
        {"whitespace": True},  # whitespace characters kept as characters
        {"word_order": 2},  # chrF++: word unigrams and bigrams, punctuation split off
        {"word_order": 2, "whitespace": True, "lowercase": True},
        {"char_order": 4, "word_order": 3, "beta": 1},
    ],
)
@pytest.mark.parametrize("n_refs", [1, 2])
def test_chrf_on_generated_multilingual_text(corpus, opts, n_refs):
    refs, hyps = corpus
    refs = refs[:n_refs]
    data = extract_statistics(refs, hyps, metric="chrf", **opts)
    scorer = sacrebleu.CHRF(**opts, references=refs)
    np.testing.assert_array_equal(data.stats, _golden(scorer, hyps))
    for k, name in enumerate(data.systems):
        assert data.corpus_scores[k] == scorer.corpus_score(hyps[name], None).score
