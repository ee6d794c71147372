"""AppTest: Google's MQM side files on "Tests vs humans": the per-segment averages
are ranked like any human score; a source-error file alone is refused in one line saying what it
holds, and beside the averages it is named in the "Read" caption, not ranked."""

from __future__ import annotations

import numpy as np
import pytest

from tests.dashboard.helpers import assert_no_exception
from tests.readers.test_readers_google_mqm import SYSTEMS_2020, averages_2020, source_errors_ende

PAGE = "views/human.py"


@pytest.fixture
def at(fresh_run):
    at = fresh_run(PAGE, timeout=180)
    assert_no_exception(at)
    return at


def test_google_side_files_on_the_page(at):
    rng = np.random.default_rng(12)
    averages, _ = averages_2020(rng, n_seg=30)
    errors = source_errors_ende(rng)
    avg_name = "mqm_newstest2020_ende.avg_seg_scores.tsv"
    err_name = "mqm_newstest2020_ende.source-errors.tsv"
    at.file_uploader(key="human_judgements_upload").set_value(
        [(err_name, errors.encode(), "text/plain")]
    ).run()
    assert_no_exception(at)
    assert len(at.error) == 1 and "source-error file" in at.error[0].value
    assert "not ranked" in at.error[0].value
    at.file_uploader(key="human_judgements_upload").set_value(
        [(avg_name, averages.encode(), "text/plain"), (err_name, errors.encode(), "text/plain")]
    ).run()
    assert_no_exception(at)
    assert not at.error
    (table,) = [t.value for t in at.table]
    assert sorted(table.index) == sorted(SYSTEMS_2020)
    read = " ".join(c.value for c in at.caption if c.value.startswith("Read:"))
    assert "MQM (segment averages)" in read and "source-error file" in read
