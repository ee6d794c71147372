"""Helpers for AppTest tests of the dashboard pages (the ``app_test`` fixture is in conftest.py).

Example::

    from tests.dashboard.helpers import assert_no_exception, files, frame_with, metric_values

    at = app_test("views/qe.py").run()
    assert_no_exception(at)
    at.file_uploader(key="qe_upload").set_value(files(path)).run()
    table = frame_with(at, "rank_change")
"""

from __future__ import annotations

import base64
from pathlib import Path

import numpy as np
import pandas as pd


def assert_no_exception(at) -> None:
    """The script run raised nothing (the exception messages are shown otherwise)."""
    assert not at.exception, [e.value for e in at.exception]


def metric_values(at) -> dict[str, str]:
    """``st.metric`` label -> value."""
    return {m.label: m.value for m in at.metric}


def frame_with(at, column: str) -> pd.DataFrame:
    """The first ``st.dataframe`` with a column ``column`` (AppTest exposes no dataframe keys)."""
    frames = [d.value for d in at.dataframe if column in getattr(d.value, "columns", [])]
    assert frames, f"no table with a column {column!r}"
    return frames[0]


def files(*paths, mime: str = "text/plain") -> list[tuple[str, bytes, str]]:
    """Files for ``at.file_uploader(key=...).set_value(...)``: (name, bytes, MIME type)."""
    return [(Path(p).name, Path(p).read_bytes(), mime) for p in paths]


def wmt_sample_outputs(testset: str, lp: str, systems) -> tuple[list, list]:
    """The bundled sample's reference and system outputs as uploads named as WMT publishes
    them (``<testset>.<lp>.ref.refA.<trg>``, ``<testset>.<lp>.hyp.<system>.<trg>``)."""
    from tests._data import MT

    trg = lp.split("-")[1]
    ref = [(f"{testset}.{lp}.ref.refA.{trg}", (MT / "reference.txt").read_bytes(), "text/plain")]
    hyps = [
        (f"{testset}.{lp}.hyp.{s}.{trg}", (MT / "hyp" / f"{s}.txt").read_bytes(), "text/plain")
        for s in systems
    ]
    return ref, hyps


def arr(value) -> np.ndarray:
    """A figure array as sent to the browser: plain list or plotly's typed array (base64)."""
    if isinstance(value, dict) and "bdata" in value:
        flat = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        shape = [int(k) for k in str(value.get("shape", len(flat))).split(",")]
        return flat.reshape(shape).astype(float)
    return np.asarray(value, dtype=float)
