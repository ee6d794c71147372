"""The first page's sample analyses kept on disk between server starts
(:func:`dashboard.data.samples.kept_for_sample`): the bundled sample only (byte for byte), keyed
on the arguments and the code, read back equal, computed again when unreadable, never with the
statistics cache off; and what a user uploads is never written."""

from __future__ import annotations

import pandas as pd
import pytest

from dashboard.data import metrics, samples


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", str(tmp_path))
    return tmp_path / "dashboard-samples"


def _counting():
    calls = []

    @samples.kept_for_sample
    def compute(uploads, alpha=0.05):
        calls.append(alpha)
        return {"alpha": alpha, "files": [name for name, _ in uploads]}

    return compute, calls


def _sample():
    return samples.sample_files("metrics", samples.METRICS_SAMPLE_FILES)


def test_the_sample_is_computed_once_and_read_back(cache):
    compute, calls = _counting()
    first = compute(_sample(), alpha=0.05)
    assert compute(_sample(), alpha=0.05) == first and calls == [0.05]
    assert len(list(cache.glob("*.pickle"))) == 1
    compute(_sample(), alpha=0.01)  # other arguments: another entry
    assert calls == [0.05, 0.01] and len(list(cache.glob("*.pickle"))) == 2
    for path in cache.glob("*.pickle"):  # unreadable: computed again, and rewritten
        path.write_bytes(b"not a pickle")
    assert compute(_sample(), alpha=0.05) == first and calls == [0.05, 0.01, 0.05]
    assert not list(cache.glob("*.tmp"))


def test_uploads_are_never_written(cache):
    compute, calls = _counting()
    (name, data), *rest = _sample()
    changed = ((name, data + b"\n"), *rest)  # one byte more: a user's file, not the sample
    compute(changed)
    compute(changed)
    assert calls == [0.05, 0.05] and not cache.exists()


def test_off_with_the_statistics_cache(cache, monkeypatch):
    monkeypatch.setenv("MT_SIGNIFICANCE_CACHE", "off")
    compute, calls = _counting()
    compute(_sample())
    compute(_sample())
    assert calls == [0.05, 0.05] and not cache.exists()


def test_the_key_holds_the_code(cache, monkeypatch):
    compute, calls = _counting()
    compute(_sample())
    monkeypatch.setattr(samples, "_code_fingerprint", lambda: "another version")
    compute(_sample())
    assert calls == [0.05, 0.05] and len(list(cache.glob("*.pickle"))) == 2


def test_the_page_data_read_back_equals_the_computed(cache):
    uploads = _sample()
    fresh = metrics.analysis.__wrapped__.__wrapped__(uploads, "greater", metrics.ALL_SYSTEMS)
    metrics.analysis.__wrapped__(uploads, "greater", metrics.ALL_SYSTEMS)  # written
    kept = metrics.analysis.__wrapped__(uploads, "greater", metrics.ALL_SYSTEMS)  # read
    assert list(kept.analyses) == list(fresh.analyses)
    for key, a in fresh.analyses.items():
        pd.testing.assert_frame_equal(kept.analyses[key].williams.pvalue, a.williams.pvalue)


def test_results_of_other_code_are_deleted_after_a_week(cache):
    import os
    import time

    cache.mkdir(parents=True)
    old, recent = cache / "0123456789ab-f-old.pickle", cache / "0123456789ab-f-new.pickle"
    for path in (old, recent):
        path.write_bytes(b"x")
    week = time.time() - 8 * 24 * 3600
    os.utime(old, (week, week))
    compute, _ = _counting()
    compute(_sample())
    assert not old.exists() and recent.exists() and len(list(cache.glob("*.pickle"))) == 2
