"""The comparison of what two ways of reading one file gave: frames and series exactly equal
(values, dtypes, index; a frame's ``attrs`` and, for a pyarrow string index, its arrow type),
dataclasses field by field, anything else by ``==``; a refusal (its message) against the
other's outcome by ``==``."""

from __future__ import annotations

import dataclasses

import pandas as pd


def assert_same(a, b) -> None:
    if isinstance(a, pd.DataFrame):
        pd.testing.assert_frame_equal(a, b, check_exact=True)
        assert a.attrs == b.attrs
        if isinstance(a.index.dtype, pd.StringDtype):
            assert a.index.array._pa_array.type == b.index.array._pa_array.type
    elif isinstance(a, pd.Series):
        pd.testing.assert_series_equal(a, b, check_exact=True)
    elif dataclasses.is_dataclass(a):
        for f in dataclasses.fields(a):
            assert_same(getattr(a, f.name), getattr(b, f.name))
    else:
        assert a == b


def assert_same_outcome(got, expected) -> None:
    """``got`` and ``expected`` are each a reader's result or its refusal's message."""
    if isinstance(expected, str) or isinstance(got, str):
        assert got == expected
    else:
        assert_same(got, expected)
