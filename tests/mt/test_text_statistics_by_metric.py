"""text_statistics_by_metric: several metrics from files read once, each equal to
text_statistics of that metric (a plain second formulation)."""

from __future__ import annotations

import numpy as np

from stats.analyses import text_statistics, text_statistics_by_metric
from stats.readers import mt_text


def _files(tmp_path):
    rng = np.random.default_rng(7)
    words = np.array(["der", "die", "das", "Haus", "ist", "groß", ",", ".", "ja"])
    ref = [" ".join(rng.choice(words, 12)) for _ in range(20)]
    ref_path = tmp_path / "generaltest2023.en-de.ref.refA.de"
    ref_path.write_text("\n".join(ref) + "\n", encoding="utf-8")
    hyps = []
    for name in ("A", "B", "C"):
        lines = [" ".join(rng.choice(words, 10)) for _ in ref]
        path = tmp_path / f"generaltest2023.en-de.hyp.{name}.de"
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        hyps.append(path)
    return [ref_path], hyps


def test_each_metric_equals_text_statistics_and_files_read_once(tmp_path, monkeypatch):
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", "off")
    refs, hyps = _files(tmp_path)
    options = {"bleu": {"lowercase": True}, "chrf": {"word_order": 2}, "ter": None}
    calls = []
    read = mt_text.read_mt_lines

    def counting(source, name=None):
        calls.append(source)
        return read(source, name)

    monkeypatch.setattr(mt_text, "read_mt_lines", counting)
    got = text_statistics_by_metric(refs, hyps, metrics=["chrf", "bleu", "ter"], options=options)
    assert list(got) == ["chrf", "bleu", "ter"]
    assert len(calls) == 4  # one reference and three outputs, once each
    for metric, data in got.items():
        want = text_statistics(refs, hyps, metric=metric, options=options[metric])
        assert data.systems == want.systems == ("A", "B", "C")
        assert data.signature == want.signature
        np.testing.assert_array_equal(data.stats, want.stats)
        np.testing.assert_array_equal(data.corpus_scores, want.corpus_scores)
