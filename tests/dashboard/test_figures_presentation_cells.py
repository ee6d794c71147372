"""Presentation mode prints heatmap cell values only where they fit (at 1920 px the
values of a 30-metric heatmap would run together); hover keeps them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from dashboard.figures import apply_presentation
from dashboard.figures.grids import correlation_heatmap


def _heatmap(n: int):
    names = [f"metric{k}" for k in range(n)]
    values = np.random.default_rng(0).uniform(-1, 1, (n, n))
    return correlation_heatmap(pd.DataFrame(values, index=names, columns=names))


def test_values_kept_where_they_fit_and_dropped_where_not():
    small = apply_presentation(_heatmap(6), True)
    assert small.data[0].texttemplate == "%{text}"
    large = apply_presentation(_heatmap(30), True)
    assert large.data[0].texttemplate is None
    assert large.data[0].text is not None  # hover still has the values
    assert _heatmap(30).data[0].texttemplate == "%{text}"  # on screen, unchanged
