"""The one shared "MDE beside not significant" helper (dashboard/components/power_note.py) and
its statistic, stats.power.normal_mde (checked against the noncentral-t MDE, which it
approaches as n grows: a second formulation)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from dashboard.components.power_note import mde_text
from stats.power import normal_mde, paired_t_mde


def test_normal_mde_is_the_large_sample_t_mde():
    for n in (2000, 20000):
        assert normal_mde(se=10 / np.sqrt(n)) == pytest.approx(paired_t_mde(sd=10, n=n),
                                                                rel=2e-3)
    assert np.isnan(normal_mde(se=0.0)) and np.isnan(normal_mde(se=np.nan))
    one = normal_mde(se=1.0, alternative="greater")
    assert one == pytest.approx(1.6448536 + 0.8416212, abs=1e-6)


def test_mde_text_only_beside_not_significant():
    text = mde_text(pvalue=0.3, alpha=0.05, spread=0.5, unit="BLEU")
    assert "Not significant" in text and "1.4 BLEU" in text and "80% power" in text
    assert mde_text(pvalue=0.01, alpha=0.05, spread=0.5) == ""
    assert mde_text(pvalue=np.nan, alpha=0.05, spread=0.5) == ""
    assert mde_text(pvalue=0.5, alpha=0.05, spread=np.nan) == ""


def test_human_pairs_note(monkeypatch):
    import dashboard.components.power_note as note

    shown = []
    monkeypatch.setattr(note.st, "caption", shown.append)

    class Gold:
        criteria = ("adequacy",)
        scores = pd.DataFrame({"adequacy_n": [100, 400, 100]}, index=["a", "b", "c"])

    pairs = pd.DataFrame({"system_a": ["a", "a", "b"], "system_b": ["b", "c", "c"],
                          "combined": [0, 1, 0]})
    text = note.human_mde_note(Gold(), pairs, 0.05)
    expected = normal_mde(se=np.sqrt(1 / 100 + 1 / 400))  # both unseparated pairs: same n
    assert text == shown[0] and "pairs the humans do not separate (2)" in text.lower()
    assert f"{expected:.3g} z" in text
