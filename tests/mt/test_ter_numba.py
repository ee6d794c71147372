"""The compiled TER (stats.mt._ter_numba) against sacreBLEU's own TER, called live: the same edits
and reference lengths on sentence- and paragraph-level data, with every TER option and several
references."""

from __future__ import annotations

import random

import numpy as np
import pytest
from sacrebleu.metrics import TER
from sacrebleu.metrics.lib_ter import translation_edit_rate

from stats.mt._ter_numba import ter_edits
from stats.mt.sufficient import extract_statistics

VOCAB = ["the", "a", "house", "is", "small", ",", ".", "Das", "Haus", "ist", "klein", "und",
         "nicht", "heute", "—", "«", "»", "東京", "です", "3.5", "U.S.", "don't", "Straße"]


def _perturbed(rng: random.Random, ref: list[str]) -> list[str]:
    """An MT-like output: the reference with moved blocks, substitutions, drops, insertions."""
    hyp = list(ref)
    for _ in range(rng.randint(0, 2 + len(ref) // 8)):
        op = rng.random()
        if op < 0.35 and hyp:
            a = rng.randrange(len(hyp))
            block = hyp[a : a + rng.randint(1, 6)]
            del hyp[a : a + len(block)]
            at = rng.randint(0, len(hyp))
            hyp[at:at] = block
        elif op < 0.6 and hyp:
            hyp[rng.randrange(len(hyp))] = rng.choice(VOCAB)
        elif op < 0.8 and hyp:
            del hyp[rng.randrange(len(hyp))]
        else:
            hyp.insert(rng.randint(0, len(hyp)), rng.choice(VOCAB))
    return hyp


def _corpus(seed: int, n_seg: int, words: tuple[int, int], n_sys: int = 2, n_refs: int = 1):
    rng = random.Random(seed)
    refs = [[] for _ in range(n_refs)]
    hyps = {f"S{k}": [] for k in range(n_sys)}
    for _ in range(n_seg):
        base = [rng.choice(VOCAB) for _ in range(rng.randint(*words))]
        for stream in refs:
            stream.append(" ".join(_perturbed(rng, base) if stream is not refs[0] else base))
        for lines in hyps.values():
            lines.append(" ".join(_perturbed(rng, base)))
    hyps["S0"][0] = ""  # an empty output
    return refs, hyps


def test_pairs_equal_sacrebleu_edit_by_edit():
    # source: sacrebleu 2.6 lib_ter.translation_edit_rate, called live
    rng = random.Random(7)
    pairs = []
    for n in [0, 1, 2, 5, 12, 30, 60, 0, 3]:
        ref = [rng.choice(VOCAB[:8]) for _ in range(n)]
        pairs.append((_perturbed(rng, ref), ref))
        pairs.append((ref * 2, ref))  # a long hypothesis: the wider beam
        pairs.append((ref[: n // 3], ref))  # a short one
    vocab: dict[str, int] = {}
    ids = [([vocab.setdefault(w, len(vocab)) for w in h],
            [vocab.setdefault(w, len(vocab)) for w in r]) for h, r in pairs]
    want = [translation_edit_rate(h, r)[0] for h, r in pairs]
    assert ter_edits(ids, threads=2).tolist() == want


@pytest.mark.parametrize(
    "opts", [{}, {"case_sensitive": True}, {"normalized": True, "asian_support": True},
             {"no_punct": True}],
    ids=str,
)
def test_sentence_level_equals_sacrebleu(opts):
    refs, hyps = _corpus(1, 40, (0, 25), n_sys=3, n_refs=2)
    got = extract_statistics(refs, hyps, metric="ter", jobs=1, **opts)
    for k, lines in enumerate(hyps.values()):
        scorer = TER(**opts)
        want = np.array(scorer._extract_corpus_statistics(lines, refs), dtype=float)
        np.testing.assert_array_equal(got.stats[k], want)  # edits and reference lengths
        assert got.corpus_scores[k] == pytest.approx(scorer.corpus_score(lines, refs).score,
                                                     abs=1e-9)


def test_paragraph_level_equals_sacrebleu():
    # paragraphs of ~100 words, as WMT23's en-de test set: the beam and the 1,000-candidate
    # limit of the shift search matter here
    refs, hyps = _corpus(2, 3, (80, 120), n_sys=2)
    got = extract_statistics(refs, hyps, metric="ter", jobs=2)
    for k, lines in enumerate(hyps.values()):
        want = np.array(TER()._extract_corpus_statistics(lines, refs), dtype=float)
        np.testing.assert_array_equal(got.stats[k], want)


def test_progress_reported_in_pieces(monkeypatch):
    # often enough for the page's Stop button to end a long extraction between two pieces
    refs, hyps = _corpus(3, 60, (5, 20))
    seen = []
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", "off")
    extract_statistics(refs, hyps, metric="ter", jobs=1, progress=seen.append)
    assert len(seen) >= 10 and seen == sorted(seen) and seen[-1] == pytest.approx(1.0)
