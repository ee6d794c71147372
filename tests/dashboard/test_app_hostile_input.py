"""AppTest: every reproducer of the hostile/huge input report ends, on its page, in one
``st.error`` line (no exception, no chart), and UTF-16 uploads are read as text."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from dashboard import components
from tests.dashboard.helpers import assert_no_exception, files, metric_values

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_data"
MT = SAMPLE / "mt"
LONG_NAME = "x" * 140_000  # over the csv module's default field limit of 131,072


def _long_named(path: Path, line: int, old: str) -> tuple[str, bytes, str]:
    lines = path.read_text().splitlines()
    lines[line - 1] = lines[line - 1].replace(old, LONG_NAME, 1)
    return (path.name, ("\n".join(lines) + "\n").encode(), "text/csv")


def assert_one_error(at, *needles):
    assert_no_exception(at)
    assert len(at.error) == 1, [e.value for e in at.error]
    msg = at.error[0].value.replace("\\", "")  # Markdown escapes of the file name
    assert "\n" not in msg
    for needle in needles:
        assert needle in msg, msg
    assert not at.get("plotly_chart")  # the page stopped at the error


def _scores_page(fresh_run):
    at = fresh_run("views/mt_systems.py")
    at.radio(key="mt_source").set_value("Segment scores").run()
    return at


@pytest.mark.parametrize(
    "page, key, upload",
    [
        (None, "metrics_upload", (SAMPLE / "metrics" / "es-en_wide.csv", 2, "online-A")),
        ("views/qe.py", "qe_upload", (SAMPLE / "qe" / "hter_wide.csv", 1, "baseline")),
        ("views/human.py", "human_judgements_upload", (SAMPLE / "human" / "judgements.csv", 2, "Glacier")),
    ],
)
def test_a_field_over_the_limit_is_one_error_line(fresh_run, page, key, upload):
    at = fresh_run(page)
    at.file_uploader(key=key).set_value([_long_named(*upload)]).run()
    assert_one_error(at, "a field of 140,000 characters", "limit of 100,000 characters")


def test_segment_scores_field_over_the_limit(fresh_run):
    at = _scores_page(fresh_run)
    bad = _long_named(MT / "segment_scores_wide.csv", 1, "Aurora")
    at.file_uploader(key="mt_scores").set_value([bad]).run()
    assert_one_error(at, "segment_scores_wide.csv, line 1: a field of 140,000 characters")


def test_a_million_columns_are_refused_before_parsing(fresh_run):
    n = 1_000_000
    wide = ("SEGMENT," + ",".join(f"s{i}" for i in range(n)) + "\n1," + ",".join(["0.5"] * n))
    at = _scores_page(fresh_run)
    at.file_uploader(key="mt_scores").set_value([("wide.csv", wide.encode(), "text/csv")]).run()
    assert_one_error(at, "wide.csv, line 1: the header has 1,000,001 fields", "10,000 columns")


def test_thousands_of_systems_are_refused_at_once(fresh_run):
    rng = np.random.default_rng(0)
    k = 2000
    rows = ["SEGMENT," + ",".join(f"s{i}" for i in range(k))]
    rows += [f"{j}," + ",".join(f"{v:.2f}" for v in rng.random(k)) for j in range(1, 6)]
    at = _scores_page(fresh_run)
    at.file_uploader(key="mt_scores").set_value([("many.csv", "\n".join(rows).encode(), "text/csv")]).run()
    assert_one_error(at, "2,000 systems is over the limit of 1,000")


def test_a_session_is_capped_below_the_command_line_budget(fresh_run):
    """200 systems x 1,000 segments x 10,000 resamples is within the command line's budget but
    over one dashboard session's: one error line saying how many resamples fit."""
    rng = np.random.default_rng(1)
    k, n = 200, 1000
    rows = ["SEGMENT," + ",".join(f"s{i}" for i in range(k))]
    rows += [f"{j}," + ",".join(f"{v:.2f}" for v in rng.random(k)) for j in range(1, n + 1)]
    at = _scores_page(fresh_run)
    at.selectbox(key="mt_resamples").set_value(10000)
    at.file_uploader(key="mt_scores").set_value([("big.csv", "\n".join(rows).encode(), "text/csv")]).run()
    per_resample = n * k + k * (k - 1) // 2
    most = int(components.SESSION_MAX_WORK // per_resample)
    assert_one_error(at, f"budget of {components.SESSION_MAX_WORK:.3g}", f"at most {most:,}",
                     "reduce “Resamples” to", "“Resamples” = 10,000")
    assert "n_resamples" not in at.error[0].value  # the page's control, not a Python argument


def test_predictions_scaled_to_1e300_are_named_not_called_constant(fresh_run):
    lines = (SAMPLE / "qe" / "hter_wide.csv").read_text().splitlines()
    out = [lines[0]]
    for line in lines[1:]:
        cells = line.split(",")
        cells[2] = repr(float(cells[2]) * 1e300)
        out.append(",".join(cells))
    at = fresh_run("views/qe.py")
    at.file_uploader(key="qe_upload").set_value([("big.csv", "\n".join(out).encode(), "text/csv")]).run()
    assert_one_error(at, "big.csv, line 2, column ALPHA-svr", "is too large")
    assert "constant" not in at.error[0].value


def test_utf16_outputs_are_read_like_utf8(fresh_run):
    def upload(encoding):
        at = fresh_run("views/mt_systems.py")
        at.file_uploader(key="mt_refs").set_value(files(MT / "reference.txt"))
        hyps = [(f"{s}.txt", (MT / "hyp" / f"{s}.txt").read_text().encode(encoding), "text/plain")
                for s in ("Aurora", "Delta")]
        at.selectbox(key="mt_resamples").set_value(200)
        at.file_uploader(key="mt_hyps").set_value(hyps).run()
        assert_no_exception(at)
        assert not at.error, [e.value for e in at.error]
        return metric_values(at)

    assert upload("utf-16") == upload("utf-8")
