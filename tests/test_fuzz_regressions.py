"""Inputs the fuzz suite (tests/fuzz) found raising a traceback, each now one StatsInputError
line or a valid result."""

from __future__ import annotations

import pandas as pd
import pytest

from stats import StatsInputError
from stats.readers import read_qe, read_wmt_scores
from tests._wmt_data import segment_level_text


def test_wmt_scores_in_utf16_read_as_utf8():
    text = segment_level_text()
    plain = read_wmt_scores(text.encode("utf-8"), name="m.seg.score")
    utf16 = read_wmt_scores(text.encode("utf-16"), name="m.seg.score")  # BOM: read by decode
    pd.testing.assert_frame_equal(plain.frame, utf16.frame)


def test_qe_file_of_one_comma_is_one_line():
    with pytest.raises(StatsInputError, match=r"^x: unrecognised QE file layout \(first line ','\)"):
        read_qe(b",", name="x")


def test_qe_wide_with_two_missing_ids_names_the_lines():
    rows = ["sid,gold,A,B", *[f"{i},0.{i},0.{i + 1},0.{i + 2}" for i in range(1, 8)], ",0.5,0.1,0.2",
            ",0.4,0.3,0.1"]  # fmt: skip
    with pytest.raises(StatsInputError, match=r"w\.csv, line 10: .*twice \(first on line 9\)"):
        read_qe(("\n".join(rows) + "\n").encode(), name="w.csv")


# ---- each reproducer of the report, one line (or the right answer) ----

_MQM_HEAD = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
_MQM_ROW = "sysA\td1\t1\t1\trater1\tsrc\ttgt\tFluency\tMinor\n"


def test_mqm_with_a_duplicated_header_column_is_one_line():
    from stats.readers.mqm import read_mqm

    text = _MQM_HEAD.replace("\n", "\tseverity\n") + _MQM_ROW.replace("\n", "\tMinor\n")
    with pytest.raises(StatsInputError, match="column 'severity' appears twice in the header"):
        read_mqm(text.encode(), name="en-de.mqm.tsv")


def test_mqm_with_a_carriage_return_in_a_text_is_refused_and_a_blank_first_line_reads():
    from stats.readers.mqm import read_mqm

    plain = read_mqm((_MQM_HEAD + _MQM_ROW).encode(), name="en-de.mqm.tsv")
    with pytest.raises(StatsInputError, match=r"line 2, column target: a carriage return"):
        # one row to us, two lines to mt-metrics-eval's score_mqm: refused, never read as either
        read_mqm((_MQM_HEAD + _MQM_ROW.replace("tgt", "t\rgt")).encode(), name="en-de.mqm.tsv")
    blank = read_mqm(("\n" + _MQM_HEAD + _MQM_ROW).encode(), name="en-de.mqm.tsv")
    assert blank.frame["_line"].tolist() == [3]  # the header is found after the blank line
    pd.testing.assert_frame_equal(blank.frame.drop(columns="_line"), plain.frame.drop(columns="_line"))


def test_qe_submission_whose_row_21_has_3_fields_names_the_line():
    from stats.readers.qe_wmt import read_qe_submissions

    rows = [f"en-de\tm\t{i}\t0.{i}" for i in range(30)]
    rows[20] = "en-de\tm\t20"
    with pytest.raises(StatsInputError, match=r"sub\.tsv, line 21: expected 4 .* got 3"):
        read_qe_submissions([("sub.tsv", ("\n".join(rows) + "\n").encode())])


def test_qe_segment_ids_of_5000_digits_are_read_as_ids():
    from stats.readers.qe_wmt import _norm_sid, read_qe_submissions

    big = "0" + "1" * 5_000
    rows = [f"en-de\tm\t{big if i == 3 else i}\t0.{i}" for i in range(30)]
    read_qe_submissions([("sub.tsv", ("\n".join(rows) + "\n").encode())])
    assert _norm_sid(big) == "1" * 5_000 and _norm_sid("-007") == "-7" and _norm_sid("-0") == "0"


def test_cr_only_appraise_export_reads_as_the_crlf_one():
    from pathlib import Path

    from stats.readers.appraise import is_appraise_export, read_appraise

    esa = Path(__file__).parents[1] / "sample_data" / "wmt_human" / "en-de.esa.csv"
    lf = esa.read_bytes().replace(b"\r\n", b"\n")
    cr = lf.replace(b"\n", b"\r")
    assert is_appraise_export(cr.decode())
    pd.testing.assert_frame_equal(
        read_appraise(cr, name="e.csv").frame, read_appraise(lf, name="e.csv").frame
    )


def test_all_none_gold_says_so(tmp_path):
    import shutil
    from pathlib import Path

    from stats.readers import read_meta_eval

    root = tmp_path / "ws"
    shutil.copytree(Path(__file__).parents[1] / "sample_data" / "meta" / "wmt-sample", root)
    for f in (root / "human-scores").glob("*.mqm.seg.score"):
        f.write_text("".join(ln.rsplit("\t", 1)[0] + "\tNone\n" for ln in f.read_text().splitlines()))
    data = read_meta_eval(root)
    for level in ("seg", "sys"):
        with pytest.raises(StatsInputError, match="gold 'mqm': no system has a human score .*en-de.mqm.seg.score"):
            data.table("en-de", gold="mqm", level=level)


def _server(kind: str):
    import http.server
    import socket
    import threading

    if kind == "web":
        srv = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler
        )
        threading.Thread(target=srv.serve_forever, daemon=True).start()
        return srv.server_address[1], srv.shutdown
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    sock.listen(8)
    held = []

    def serve():
        while True:
            try:
                conn, _ = sock.accept()
            except OSError:  # the test closed the socket: the server's work is done
                return
            held.append(conn)
            if kind == "greets":  # bytes that are not Dask's: a length of exabytes
                conn.sendall(b"HTTP/1.1 400 Bad Request\r\n\r\n")

    threading.Thread(target=serve, daemon=True).start()
    return sock.getsockname()[1], sock.close


@pytest.mark.parametrize("kind", ["web", "silent", "greets"])
def test_scheduler_that_is_no_dask_scheduler_is_one_line_within_10_s(kind):
    import time

    pytest.importorskip("distributed")
    from stats.analyses._dask import probe_scheduler

    port, stop = _server(kind)
    try:
        start = time.perf_counter()
        with pytest.raises(StatsInputError, match="--scheduler") as err:
            probe_scheduler(f"tcp://127.0.0.1:{port}", seconds=1.0)
        assert time.perf_counter() - start < 10
        # a web server waits for a request: as silent as a silent one
        expect = "does not speak Dask's protocol" if kind == "greets" else "answered within 1 s"
        assert expect in str(err.value)
    finally:
        stop()
