"""The C-level pre-check of the field-length limit (stats.readers._limits._has_long_run)
against its definition by splitting the text (golden: ``str.split``/``str.splitlines``)."""

from __future__ import annotations

import numpy as np
import pytest

import stats.readers._limits as limits
from stats import StatsInputError
from stats.readers._limits import _has_long_run, check_text_size


def test_long_run_equals_the_longest_run_by_splitting():
    rng = np.random.default_rng(8)
    pieces = ["x", "yy", "\n", "\r", "\r\n", "\u2028", "\t", ","]
    for _ in range(300):
        text = "".join(rng.choice(pieces, size=rng.integers(0, 60)))
        longest_run = max(map(len, text.split("\n")))
        longest_line = max(map(len, text.splitlines()), default=0)
        for limit in range(40):
            assert _has_long_run(text, limit) == (longest_run > limit)
            if longest_line > limit:  # never misses a line over the limit
                assert _has_long_run(text, limit)


def test_a_long_field_is_still_refused(monkeypatch):
    monkeypatch.setattr(limits, "MAX_FIELD_CHARS", 50)
    ok = "SYSTEM\tSEGMENT\tSCORE\n" + "A\ts1\t0.5\n" * 40
    check_text_size(ok, "f.tsv")
    check_text_size(ok + "A\t" + "s" * 50 + "\t0.5\n", "f.tsv")  # 50 characters: allowed
    with pytest.raises(StatsInputError, match=r"f.tsv, line 42: a field of 51 characters"):
        check_text_size(ok + "A\t" + "s" * 51 + "\t0.5\n", "f.tsv")
