"""BLEU and chrF statistics are cached by content like TER's: a second extraction of the same
references and outputs (same options, same sacrebleu) reads them back; a changed output or
option is recomputed. Golden values: sacrebleu's own ``_extract_corpus_statistics``."""

import numpy as np
import pytest
import sacrebleu

from stats.mt import _ngrams
from stats.mt.sufficient import extract_statistics
from tests._data import mt_sample_text

SCORERS = {"bleu": sacrebleu.BLEU, "chrf": sacrebleu.CHRF}


@pytest.fixture
def corpus():
    refs, hyps = mt_sample_text()
    return [r[:60] for r in refs], {k: v[:60] for k, v in list(hyps.items())[:3]}


@pytest.mark.parametrize("metric", ["bleu", "chrf"])
def test_second_run_reads_the_cache_and_equals_sacrebleu(corpus, metric, tmp_path, monkeypatch):
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", str(tmp_path))
    refs, hyps = corpus
    first = extract_statistics(refs, hyps, metric=metric, jobs=1)
    assert len(list(tmp_path.glob(f"{metric}-*.npy"))) == len(hyps)

    def fail(*args, **kwargs):
        raise AssertionError("recomputed although cached")

    monkeypatch.setattr(_ngrams, f"{metric}_statistics", fail)
    second = extract_statistics(refs, hyps, metric=metric, jobs=1)
    np.testing.assert_array_equal(first.stats, second.stats)
    assert first.stats.dtype == second.stats.dtype
    np.testing.assert_array_equal(second.corpus_scores, first.corpus_scores)
    scorer = SCORERS[metric](references=refs)
    golden = [scorer._extract_corpus_statistics(h, None) for h in hyps.values()]
    np.testing.assert_array_equal(second.stats, np.asarray(golden, dtype=float))

    # another option or a changed output is not read from the cache
    with pytest.raises(AssertionError, match="recomputed"):
        extract_statistics(refs, hyps, metric=metric, jobs=1, lowercase=True)
    changed = dict(hyps)
    name = next(iter(changed))
    changed[name] = ["x"] + changed[name][1:]
    with pytest.raises(AssertionError, match="recomputed"):
        extract_statistics(refs, changed, metric=metric, jobs=1)


def test_tokenized_input_warns_also_from_the_cache(corpus, tmp_path, monkeypatch, caplog):
    # sacrebleu logs a warning for 100+ hypothesis lines ending in " ." (tokenized input)
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", str(tmp_path))
    refs, hyps = corpus
    refs = [r * 2 for r in refs]
    tokenized = {k: [ln + " ." for ln in v] * 2 for k, v in hyps.items()}
    logs = []
    for _ in range(2):  # cold, then warm
        caplog.clear()
        with caplog.at_level("WARNING", logger="sacrebleu"):
            extract_statistics(refs, tokenized, metric="bleu", jobs=1)
        logs.append([r.getMessage() for r in caplog.records])
    assert logs[0] and logs[0] == logs[1]
