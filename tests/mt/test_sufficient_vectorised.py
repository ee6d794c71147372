"""Vectorised BLEU/chrF sufficient statistics equal sacrebleu's, integer for integer.

Golden source: sacrebleu 2.6 itself, ``Metric._extract_corpus_statistics(hypotheses,
references)`` -- its per-sentence Counter-based extraction, an independent code path from our
array counting (stats.mt._ngrams). The references are given to the scorer once
(``BLEU(references=...)``, sacrebleu's own cache: the reference n-grams it would extract again
for each system and each call) and every system's statistics and corpus score are sacrebleu's
against that cache.
"""

from __future__ import annotations

import numpy as np
import pytest
import sacrebleu

from stats.mt.sufficient import extract_statistics
from tests._data import mt_sample_text

CLASSES = {"bleu": sacrebleu.BLEU, "chrf": sacrebleu.CHRF, "ter": sacrebleu.TER}


def _available_tokenizers():
    from sacrebleu.metrics.bleu import _TOKENIZERS

    out = []
    for name in _TOKENIZERS:
        if name == "spm":  # a deprecated alias of flores101
            continue
        try:
            sacrebleu.BLEU(tokenize=name).tokenizer("probe")
        except (ImportError, RuntimeError):  # mecab / sentencepiece not installed
            continue
        out.append(name)
    return out


TOKENIZERS = _available_tokenizers()

REFERENCE = [
    "The cat sat on the mat.",
    "",
    "Ça coûte 5,00 € — n'est-ce pas ? «Oui», dit-il.",
    "東京は日本の首都です。人口は約1400万人です。",
    "Emoji 🎉🎉 party 👩‍👩‍👧 family!!! (yes) [no] {maybe}",
    "a a a a a a b b b a a a",
    "Straße naïve café coöperate Ångström ÉCOLE",
    "   leading and trailing spaces   ",
    "tabs\tand\u00a0non-breaking\u3000ideographic spaces",
    "...!!!???,,,;;;:::---",
    "서울은 한국의 수도입니다.",
    "x",
    "Mixed CASE and lower case WORDS Words words.",
    "e\u0301 combining accent vs é precomposed",
    " ".join(f"w{i % 37}" for i in range(3000)),  # a very long line
    "It's 3.14 -- or is it 22/7? (approx.)",
]
HYPOTHESIS = [
    "The cat sat on a mat .",
    "nothing to match",
    "Ça coûte 5 € , n'est-ce pas? « Oui » dit-il",
    "東京は日本の首都だ。人口は1400万人。",
    "Emoji 🎉 party 👩‍👩‍👧 family! (yes)",
    "a a a b b b b b a",
    "strasse naive cafe cooperate Angstrom école",
    "leading and trailing spaces",
    "tabs and non-breaking ideographic spaces",
    "!!!...???",
    "서울은 한국의 수도다.",
    "",
    "mixed case and LOWER CASE words WORDS Words",
    "é combining accent vs e\u0301 precomposed",
    " ".join(f"w{(i * 7) % 41}" for i in range(2500)),
    "It's 3.14 -- or is it 22/7 ? ( approx . )",
]
SECOND_REFERENCE = [
    "A cat was sitting on the mat.",
    "nothing",
    "Cela coûte 5 euros, n'est-ce pas ?",
    "日本の首都は東京です。",
    "party 🎉 time",
    "b b b b a a",
    "strasse naive",
    "spaces",
    "tabs",
    "???",
    "한국의 수도는 서울이다.",
    "y",
    "MIXED case",
    "combining",
    " ".join(f"w{i % 41}" for i in range(2800)),
    "Is it 22/7?",
]
THIRD_REFERENCE = [r[::-1] for r in REFERENCE]  # reversed characters: other n-grams, same lengths


def _systems():
    rot = HYPOTHESIS[1:] + HYPOTHESIS[:1]  # misaligned: few matches
    return {
        "hyp": HYPOTHESIS,
        "ref-copy": list(REFERENCE),  # every n-gram clipped at the reference count
        "rotated": rot,
        "upper": [h.upper() for h in HYPOTHESIS],
        "empty": [""] * len(HYPOTHESIS),
    }


def _golden(scorer, hyps):
    """sacrebleu's own per-sentence statistics, system by system (against the scorer's
    cached references)."""
    return np.stack(
        [np.asarray(scorer._extract_corpus_statistics(h, None), dtype=float) for h in hyps.values()]
    )


def _assert_equal_to_sacrebleu(metric, opts, refs, hyps):
    data = extract_statistics(refs, hyps, metric=metric, **opts)
    scorer = CLASSES[metric](**opts, references=refs)
    np.testing.assert_array_equal(data.stats, _golden(scorer, hyps))
    for k, name in enumerate(data.systems):
        assert data.corpus_scores[k] == scorer.corpus_score(hyps[name], None).score
    return data


REFSETS = {
    "one": [REFERENCE],
    "two": [REFERENCE, SECOND_REFERENCE],
    "three": [REFERENCE, SECOND_REFERENCE, THIRD_REFERENCE],
}


@pytest.mark.parametrize("tokenize", TOKENIZERS)
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("refset", list(REFSETS))
def test_bleu_statistics_every_tokenizer(tokenize, lowercase, refset):
    _assert_equal_to_sacrebleu(
        "bleu", {"tokenize": tokenize, "lowercase": lowercase}, REFSETS[refset], _systems()
    )


@pytest.mark.parametrize("order", [1, 2, 3, 5, 6])
def test_bleu_statistics_other_orders(order):
    data = _assert_equal_to_sacrebleu(
        "bleu", {"max_ngram_order": order, "smooth_method": "floor"}, REFSETS["two"], _systems()
    )
    assert data.stats.shape[-1] == 2 + 2 * order


@pytest.mark.parametrize(
    "opts",
    [
        {},
        {"word_order": 1},
        {"word_order": 2},
        {"whitespace": True},
        {"whitespace": True, "word_order": 2},
        {"lowercase": True, "word_order": 2},
        {"char_order": 3, "beta": 1},
        {"char_order": 8, "word_order": 3},
        {"eps_smoothing": True, "word_order": 2},
    ],
)
@pytest.mark.parametrize("refset", list(REFSETS))
def test_chrf_statistics(opts, refset):
    _assert_equal_to_sacrebleu("chrf", opts, REFSETS[refset], _systems())


def test_closest_reference_length_tie_takes_the_shorter():
    # hypothesis length 4; references of lengths 5 and 3 are equally close: sacrebleu takes 3
    refs = [["a b c d e", "a b c d e"], ["a b c", "x y z w v u"]]
    hyps = {"A": ["a b c d", "a b c d"], "B": ["a b c", "x y z w v"]}
    data = _assert_equal_to_sacrebleu("bleu", {}, refs, hyps)
    np.testing.assert_array_equal(data.stats[0, :, 1], [3, 5])


def test_random_texts_with_many_repeats():
    # a tiny vocabulary makes repeated n-grams (clipping) and ties between references common
    rng = np.random.default_rng(11)
    vocab = np.array(["a", "b", "c", "a,", "(b", "é", "😀", "日本", "."])

    def lines(n):
        return [" ".join(rng.choice(vocab, size=rng.integers(0, 25))) for _ in range(n)]

    refs = [lines(100), lines(100), lines(100)]  # 9 words: repeats on every line
    hyps = {f"s{k}": lines(100) for k in range(4)}
    for metric, opts in [
        ("bleu", {}),
        ("bleu", {"tokenize": "char"}),
        ("chrf", {}),
        ("chrf", {"word_order": 2}),
        ("chrf", {"whitespace": True}),
    ]:
        _assert_equal_to_sacrebleu(metric, opts, refs, hyps)
        _assert_equal_to_sacrebleu(metric, opts, refs[:1], hyps)


@pytest.mark.parametrize(
    ("metric", "opts"), [("bleu", {}), ("chrf", {}), ("chrf", {"word_order": 2})]
)
def test_mt_sample_files(metric, opts):
    refs, hyps = mt_sample_text()  # 8 systems x 500 segments: the first 150 of each
    refs, hyps = [r[:150] for r in refs], {k: v[:150] for k, v in hyps.items()}
    _assert_equal_to_sacrebleu(metric, opts, refs, hyps)


def test_all_empty_corpus():
    refs = [["", ""]]
    hyps = {"A": ["", ""], "B": ["x", ""]}
    for metric in ("bleu", "chrf"):
        _assert_equal_to_sacrebleu(metric, {}, refs, hyps)


def test_tokenized_period_warning_kept(caplog):
    refs = [["a b ."] * 100]
    with caplog.at_level("WARNING", logger="sacrebleu"):
        extract_statistics(refs, {"A": ["a b ."] * 100}, metric="bleu")
    assert "tokenized period" in caplog.text


def test_bleu_tokenized_in_worker_processes(monkeypatch):
    import stats.mt._ngrams as ngrams

    monkeypatch.setattr(ngrams, "MIN_PARALLEL_TOKENIZE", 10)  # the pool even for small input
    refs = [REFERENCE, SECOND_REFERENCE]
    for opts in ({}, {"tokenize": "intl", "lowercase": True}):
        data = extract_statistics(refs, _systems(), metric="bleu", jobs=2, **opts)
        np.testing.assert_array_equal(
            data.stats, _golden(sacrebleu.BLEU(**opts, references=refs), _systems())
        )
