"""text_statistics_by_metric: several metrics from files read once, each equal to
text_statistics of that metric (a plain second formulation); BLEU and chrF in two threads
where more than one core is allowed, with the serial results and errors."""

from __future__ import annotations

import threading

import numpy as np
import pytest

from stats import StatsInputError
from stats.analyses import mt_systems, text_statistics, text_statistics_by_metric
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


def _recording(monkeypatch, fail=()):
    """extract_statistics of mt_systems replaced by one that records the thread of each metric
    and raises StatsInputError for the metrics of ``fail``."""
    threads = {}
    real = mt_systems.extract_statistics

    def recording(refs, hyps, *, metric, **kwargs):
        threads[metric] = threading.current_thread()
        if metric in fail:
            raise StatsInputError(f"{metric} failed")
        return real(refs, hyps, metric=metric, **kwargs)

    monkeypatch.setattr(mt_systems, "extract_statistics", recording)
    return threads


def test_bleu_and_chrf_run_in_two_threads_with_the_serial_results(tmp_path, monkeypatch):
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", "off")
    refs, hyps = _files(tmp_path)
    serial = text_statistics_by_metric(refs, hyps, metrics=["bleu", "chrf", "ter"], jobs=1)
    threads = _recording(monkeypatch)
    got = text_statistics_by_metric(refs, hyps, metrics=["bleu", "chrf", "ter"], jobs=2)
    assert list(got) == ["bleu", "chrf", "ter"]
    assert threads["bleu"] is threads["ter"] is threading.current_thread()
    assert threads["chrf"] is not threading.current_thread()
    for metric, data in got.items():
        np.testing.assert_array_equal(data.stats, serial[metric].stats)
        np.testing.assert_array_equal(data.corpus_scores, serial[metric].corpus_scores)
        assert data.signature == serial[metric].signature
    threads.clear()
    text_statistics_by_metric(refs, hyps, metrics=["bleu", "chrf"], jobs=1)  # one core: serial
    assert threads["bleu"] is threads["chrf"] is threading.current_thread()


def test_concurrent_metrics_raise_the_error_a_serial_run_raises(tmp_path, monkeypatch):
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", "off")
    refs, hyps = _files(tmp_path)
    _recording(monkeypatch, fail=("chrf",))
    with pytest.raises(StatsInputError, match="^chrf failed"):
        text_statistics_by_metric(refs, hyps, metrics=["bleu", "chrf"], jobs=2)
    _recording(monkeypatch, fail=("chrf", "bleu"))
    with pytest.raises(StatsInputError, match="^bleu failed"):
        text_statistics_by_metric(refs, hyps, metrics=["bleu", "chrf"], jobs=2)
    with pytest.raises(StatsInputError, match="^chrf failed"):
        text_statistics_by_metric(refs, hyps, metrics=["chrf", "bleu"], jobs=2)
