"""The "Quality estimation" page: WMT QE submissions are read and compared
in a child process (dashboard.data.qe_wmt through stats._core.workers.run_isolated), so the
session's memory budget is held while they are read -- an upload that needs more is refused in
one line, the server's own memory untouched -- and the numbers are those of the same
computation run here."""

from __future__ import annotations

import numpy as np

import dashboard.components
from dashboard.data import _qe_wmt_work as work
from dashboard.data import qe_wmt as data
from tests._big_qe import write_qe_upload
from tests.dashboard.helpers import assert_no_exception

PAGE = "views/qe.py"


def _rss_mb() -> float:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024


def test_an_upload_past_the_sessions_memory_budget_is_refused_while_it_is_read(
    app_test, tmp_path, monkeypatch
):
    # 4 teams x 3 language pairs x 20,000 segments (7.7 MB of text): about 95 MiB to read,
    # against a session budget of 48 MiB
    monkeypatch.setattr(dashboard.components, "SESSION_MAX_MEMORY", 48 * 2**20)
    paths = write_qe_upload(tmp_path, segments=20_000, teams=4, seed=3)
    at = app_test(PAGE, timeout=180)
    at.session_state["qe_wmt_resamples"] = 50
    at.run()
    before = _rss_mb()
    at.file_uploader(key="qe_upload").set_value(
        [(p.name, p.read_bytes(), "application/octet-stream") for p in paths]
    ).run()
    assert_no_exception(at)
    errors = [e.value for e in at.error]
    assert len(errors) == 1, errors
    # refused by the child that sorts the files or by the one that reads them (the first,
    # where the fork server was started before without the work's modules: it imports them)
    assert errors[0].startswith(
        ("sorting the QE files: ", "reading and comparing the QE submissions: ")
    ) and "needs more than 48 MiB of memory" in errors[0], errors[0]
    assert errors[0].endswith("upload fewer or smaller files")
    # the server read none of it: its own memory grew by the upload's copies, no more
    assert _rss_mb() - before < 150


def test_the_isolated_comparison_gives_the_numbers_computed_here(tmp_path):
    paths = write_qe_upload(tmp_path, segments=300, teams=3, seed=4)
    uploads = tuple((p.name, p.read_bytes()) for p in paths)
    here = work.compare(uploads, "spearman", 200, 7, progress=lambda *a: None)
    there = data.comparison(uploads, "spearman", 200, 7)
    assert there.read_as == here.read_as
    for lp, want in here.result.language_pairs.items():
        got = there.result.language_pairs[lp].table
        assert list(got.index) == list(want.table.index)
        assert np.array_equal(got.to_numpy(float), want.table.to_numpy(float), equal_nan=True)


def test_the_server_holds_the_names_and_sizes_of_the_sorted_files_not_their_content(tmp_path):
    paths = write_qe_upload(tmp_path, segments=300, teams=3, seed=5)
    uploads = tuple((p.name, p.read_bytes()) for p in paths)
    files = data.files(uploads)
    assert [name for name, _ in files.submissions] == [
        f"{paths[0].name}:submissions/team{t:02d}/predictions.txt" for t in range(3)
    ]
    assert files.gold == (paths[1].name, len(paths[1].read_bytes()))
    assert all(isinstance(size, int) and size > 0 for _, size in files.submissions)
    assert files.sentence and not files.word
