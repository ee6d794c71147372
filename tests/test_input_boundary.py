"""Hostile and huge input at the boundary shared by the CLI and the dashboard: each reproducer of
the "never a traceback, never a hang" report ends in one StatsInputError line (CLI: exit 2, one
line on stderr), and UTF-16 files are decoded to the same result as UTF-8 ones."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import stats._core.budget as budget
import stats.readers._limits as limits
from stats import StatsInputError
from stats.cli import main
from stats.readers import read_judgements, read_qe, read_segment_scores, read_wide_system_scores
from stats.readers._common import decode, load_bytes, to_float
from stats.readers._limits import detect_encoding

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_data"
MT = SAMPLE / "mt"
LONG_NAME = "x" * 140_000  # over the csv module's default field limit of 131,072


def run_cli(argv, capsys):
    """``python -m stats`` in process: (exit code, stdout, stderr); a traceback fails the test."""
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code, err, *needles):
    assert code == 2, err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in err, err


# ---- 1. CSV fields over the csv module's limit, in every CSV reader ----


def _with_long_name(path: Path, tmp_path: Path, line: int, old: str) -> Path:
    lines = path.read_text().splitlines()
    lines[line - 1] = lines[line - 1].replace(old, LONG_NAME, 1)
    out = tmp_path / path.name
    out.write_text("\n".join(lines) + "\n")
    return out


@pytest.fixture
def long_field_files(tmp_path):
    return {
        "judgements": _with_long_name(SAMPLE / "human" / "judgements.csv", tmp_path, 2, "Glacier"),
        "qe": _with_long_name(SAMPLE / "qe" / "hter_wide.csv", tmp_path, 1, "baseline"),
        "segments": _with_long_name(MT / "segment_scores_wide.csv", tmp_path, 1, "Aurora"),
        "system": _with_long_name(SAMPLE / "metrics" / "es-en_wide.csv", tmp_path, 2, "online-A"),
    }


@pytest.mark.parametrize(
    "kind, reader",
    [
        ("judgements", read_judgements),
        ("qe", read_qe),
        ("segments", read_segment_scores),
        ("system", read_wide_system_scores),
    ],
)
def test_a_field_over_the_limit_names_file_line_and_limit(long_field_files, kind, reader):
    path = long_field_files[kind]
    with pytest.raises(StatsInputError) as exc:
        reader(path)
    line = 1 if kind in ("qe", "segments") else 2
    msg = str(exc.value)
    assert msg.startswith(f"{path}, line {line}: a field of 140,000 characters")
    assert "limit of 100,000 characters" in msg and "\n" not in msg


@pytest.mark.parametrize(
    "kind, argv",
    [
        ("judgements", ["accuracy", "--human", "{}", "--scores", MT / "segment_scores.tsv"]),
        ("qe", ["qe", "--data", "{}"]),
        ("segments", ["randomized", "--scores", "{}", "--resamples", "10"]),
        ("system", ["williams", "--metrics", "{}"]),
    ],
)
def test_cli_field_over_the_limit_is_one_line(long_field_files, capsys, kind, argv):
    argv = [long_field_files[kind] if a == "{}" else a for a in argv]
    code, out, err = run_cli(argv, capsys)
    assert_one_line_error(code, err, "a field of 140,000 characters", "100,000")
    assert out == ""


def test_cli_as_a_process_exits_2_without_traceback(long_field_files):
    """The same reproducer through ``python -m stats`` (what the report ran)."""
    proc = subprocess.run(
        [sys.executable, "-m", "stats", "qe", "--data", str(long_field_files["qe"])],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_a_quoted_field_the_csv_module_refuses_is_one_line():
    """Commas inside a quoted cell hide its length from the pre-check; the csv module's own
    limit is the backstop and its error becomes a StatsInputError naming the line."""
    cell = '"' + ",".join(["y" * 90_000] * 6) + '"'
    data = f"SEGMENT,A,B\n1,0.5,0.4\n2,{cell},0.3\n".encode()
    with pytest.raises(StatsInputError, match=r"^s\.csv, line 3: cannot be split as CSV"):
        read_segment_scores(data, name="s.csv")


# ---- 2. sizes: bytes, lines, columns; resamples and systems ----


def test_header_with_more_columns_than_the_limit(tmp_path, capsys):
    n = limits.MAX_COLUMNS + 1
    path = tmp_path / "wide.csv"
    path.write_text("SEGMENT," + ",".join(f"s{i}" for i in range(n)) + "\n1," + ",".join(["0.5"] * n) + "\n")
    code, _, err = run_cli(["randomized", "--scores", path, "--resamples", "10"], capsys)
    assert_one_line_error(code, err, "wide.csv, line 1", f"{n + 1:,} fields", "10,000 columns")


def test_bytes_and_lines_limits_are_checked_before_parsing(monkeypatch, tmp_path):
    path = tmp_path / "big.tsv"
    path.write_bytes(b"SYSTEM\tSEGMENT\tSCORE\n" + b"A\t1\t0.5\n" * 100)
    monkeypatch.setattr(limits, "MAX_BYTES", 500)
    with pytest.raises(StatsInputError, match=r"big\.tsv: 821 bytes is over the input limit of 500"):
        load_bytes(path)
    with pytest.raises(StatsInputError, match="over the input limit of 500"):
        load_bytes(path.read_bytes(), name="upload.tsv")
    monkeypatch.setattr(limits, "MAX_BYTES", 10**6)
    monkeypatch.setattr(limits, "MAX_LINES", 50)
    with pytest.raises(StatsInputError, match=r"big\.tsv: 101 lines is over the limit of 50"):
        read_segment_scores(path)
    # a final line break ends the last line (no empty line after it): 101 lines, not 102
    text = path.read_text()
    monkeypatch.setattr(limits, "MAX_LINES", 101)
    limits.check_text_size(text, "big.tsv")  # exactly at the limit: accepted
    monkeypatch.setattr(limits, "MAX_LINES", 100)
    with pytest.raises(StatsInputError, match=r"big\.tsv: 101 lines is over the limit of 100"):
        limits.check_text_size(text, "big.tsv")
    with pytest.raises(StatsInputError, match=r"102 lines is over the limit of 100"):
        limits.check_text_size(text + "A", "big.tsv")  # no final line break: 102 lines


def test_a_trillion_resamples_is_refused_before_allocating(capsys):
    code, _, err = run_cli(
        ["randomized", "--scores", MT / "segment_scores_wide.csv", "--resamples", 10**12], capsys
    )
    assert_one_line_error(code, err, "--resamples 1,000,000,000,000", "of memory", "reduce --resamples")


def test_work_over_budget_says_how_many_resamples_fit(capsys):
    argv = ["randomized", "--scores", MT / "segment_scores_wide.csv", "--resamples", 10**7]
    code, _, err = run_cli([*argv, "--max-seconds", "1"], capsys)
    # 500 segments x 8 systems + 28 pairs = 4,028 operations per resample, against the time
    # asked for (no operation count refuses a run)
    assert_one_line_error(code, err, "operations, an estimated", "resamples to at most")


def test_many_systems_from_a_tiny_file_are_refused_at_once(tmp_path, capsys):
    rng = np.random.default_rng(0)
    k = budget.MAX_SYSTEMS + 1
    rows = ["SEGMENT," + ",".join(f"s{i}" for i in range(k))]
    rows += [f"{j}," + ",".join(f"{v:.3f}" for v in rng.random(k)) for j in range(1, 6)]
    path = tmp_path / "many.csv"
    path.write_text("\n".join(rows) + "\n")
    code, _, err = run_cli(["randomized", "--scores", path, "--resamples", "10"], capsys)
    assert_one_line_error(code, err, f"{k:,} systems is over the limit of 1,000", "fewer systems")


def test_check_budget_reports_each_limit(monkeypatch):
    monkeypatch.setattr(budget, "MAX_METRICS", 2)
    with pytest.raises(StatsInputError, match="^x: 3 metrics is over the limit of 2; compare fewer"):
        budget.check_budget(what="x", n_metrics=3)
    with pytest.raises(StatsInputError, match=r"needs about 1\.0 GiB of memory, over the budget of 512\.0 MiB"):
        budget.check_budget(what="x", memory=2**30, max_memory=2**29)
    with pytest.raises(StatsInputError, match=r"reduce n_resamples to at most 1,000"):
        budget.check_budget(what="x", n_resamples=2000, n_segments=10, max_work=10_000)
    # within every limit: nothing raised
    budget.check_budget(what="x", n_resamples=1000, n_segments=500, n_systems=8, n_pairs=28)


def test_perm_both_and_bootstrap_intervals_check_the_budget():
    from stats.metaeval.meta_eval import meta_correlation
    from stats.metaeval.perm_both.core import perm_both

    rng = np.random.default_rng(1)
    gold = rng.random((4, 50))
    metrics = {m: gold + rng.random((4, 50)) for m in "ABC"}
    with pytest.raises(StatsInputError, match=r"^PERM-BOTH: n_resamples=1,000,000,000 .*reduce n_resamples"):
        perm_both(metrics, gold, n_resamples=10**9)
    with pytest.raises(StatsInputError, match=r"^bootstrap confidence interval: .*memory"):
        meta_correlation(metrics["A"], gold, n_resamples=10**9)


# ---- 5. extreme values and encodings ----


def _scaled_qe(tmp_path: Path, value: str | None = None, scale: float | None = None) -> Path:
    lines = (SAMPLE / "qe" / "hter_wide.csv").read_text().splitlines()
    out = [lines[0]]
    for i, line in enumerate(lines[1:]):
        cells = line.split(",")
        if scale is not None:
            cells[2] = repr(float(cells[2]) * scale)
        elif i == 3:
            cells[2] = value
        out.append(",".join(cells))
    path = tmp_path / "qe.csv"
    path.write_text("\n".join(out) + "\n")
    return path


def test_predictions_scaled_to_1e300_are_too_large_not_constant(tmp_path, capsys):
    path = _scaled_qe(tmp_path, scale=1e300)
    code, _, err = run_cli(["qe", "--data", path], capsys)
    assert_one_line_error(code, err, "qe.csv, line 2, column ALPHA-svr", "is too large", "1e+150")
    assert "constant" not in err


@pytest.mark.parametrize(
    "value, reason",
    [
        ("1e400", "score '1e400' overflows a 64-bit float"),
        ("-1E999", "score '-1E999' overflows a 64-bit float"),
        ("nan", "score is missing or NaN ('nan')"),
        ("-inf", "score is infinite ('-inf')"),
        ("Infinity", "score is infinite ('Infinity')"),
    ],
)
def test_non_finite_and_overflowing_values_are_named(tmp_path, capsys, value, reason):
    path = _scaled_qe(tmp_path, value=value)
    code, _, err = run_cli(["qe", "--data", path], capsys)
    assert_one_line_error(code, err, f"qe.csv, line 5, column ALPHA-svr: {reason}")


def test_to_float_keeps_ordinary_large_values():
    import pandas as pd

    frame = pd.DataFrame({"S": ["1e149", "-3", "0"], "_line": [2, 3, 4]})
    assert to_float(frame, "S", "f").tolist() == [1e149, -3.0, 0.0]


@pytest.mark.parametrize(
    "encoding, bom",
    [("utf-16", True), ("utf-16-le", False), ("utf-16-be", False), ("utf-32", True), ("utf-8-sig", True)],
)
def test_utf16_and_utf32_text_decodes_to_the_same_text(encoding, bom):
    text = "SYSTEM\tSEGMENT\tSCORE\nÄrger\t1\t0.5\n"
    data = text.encode(encoding)
    assert decode(data, "f") == text
    assert (detect_encoding(data)[1] > 0) == bom


def test_utf16_hypothesis_gives_the_same_result_as_utf8(tmp_path, capsys):
    systems = ("Aurora", "Delta")
    args = ["randomized", "--ref", MT / "reference.txt", "--resamples", "50", "--seed", "3"]
    code, expected, _ = run_cli([*args, "--hyp", *(MT / "hyp" / f"{s}.txt" for s in systems)], capsys)
    assert code == 0
    (tmp_path / "Aurora.txt").write_bytes((MT / "hyp" / "Aurora.txt").read_text().encode("utf-16"))
    (tmp_path / "Delta.txt").write_bytes((MT / "hyp" / "Delta.txt").read_text().encode("utf-16-le"))
    code, out, err = run_cli([*args, "--hyp", *(tmp_path / f"{s}.txt" for s in systems)], capsys)
    assert code == 0, err
    assert json.loads(out)["pvalues"] == json.loads(expected)["pvalues"]


def test_binary_and_broken_utf16_are_refused_in_one_line(tmp_path, capsys):
    (tmp_path / "bin.txt").write_bytes(b"PK\x03\x04abc\x00def\x01\nmore text\n")
    code, _, err = run_cli(
        ["randomized", "--ref", MT / "reference.txt", "--hyp", tmp_path / "bin.txt", MT / "hyp" / "Delta.txt"],
        capsys,
    )
    assert_one_line_error(code, err, "bin.txt", "binary file")
    with pytest.raises(StatsInputError, match=r"^f: looks like UTF-16-LE text but cannot be decoded"):
        decode(b"\xff\xfeA\x00\x00\xd8", "f")  # a lone surrogate


# ---- long computations can be stopped ----


@pytest.mark.parametrize("test", ["paired-bootstrap", "approximate-randomization"])
def test_a_stop_request_ends_a_long_test_within_one_chunk(test):
    """The dashboard's progress callback runs after every chunk of resamples; Streamlit's Stop
    raises its StopException there. Any exception from the callback ends the test at once."""
    import pandas as pd

    from stats.mt.randomized import pairwise_significance
    from stats.mt.sufficient import statistics_from_scores

    rng = np.random.default_rng(2)
    data = statistics_from_scores(pd.DataFrame(rng.random((200, 4)), columns=list("ABCD")))
    calls = []

    class Stop(Exception):
        pass

    def progress(fraction):
        calls.append(fraction)
        if len(calls) == 3:
            raise Stop

    with pytest.raises(Stop):
        pairwise_significance(data, test=test, n_resamples=100_000, chunk_size=100, rng=1,
                              progress=progress)
    assert len(calls) == 3 and calls[-1] < 0.01  # stopped after 300 of 100,000 resamples


def test_bytes_that_only_look_like_utf16_are_refused():
    """FF FE followed by binary: a UTF-16 BOM, but the text it decodes to has no line break,
    delimiter or digit, as every input has."""
    with pytest.raises(StatsInputError, match=r"^junk\.bin: not valid UTF-8, and not UTF-16-LE"):
        decode(b"\xff\xfe\x00garbage", "junk.bin")


# ---- one bounded reader, every line break counted, one number rule, escaping ----


class _Endless:
    """``cat /dev/zero`` as standard input: bytes for ever, counted."""

    def __init__(self):
        self.given = 0

    def read(self, size=-1):
        assert size > 0, "read whole"
        self.given += size
        return b"\0" * size


def test_endless_standard_input_is_refused_while_it_is_read(monkeypatch, capsys):
    monkeypatch.setattr(limits, "MAX_BYTES", 2**20)
    endless = _Endless()
    monkeypatch.setattr(sys, "stdin", type("In", (), {"buffer": endless})())
    code, _, err = run_cli(["human", "--human", "-"], capsys)
    assert_one_line_error(code, err, "standard input", "more than 1,048,576 bytes")
    assert endless.given <= 2**20 + 1


def test_devices_and_fifos_are_read_bounded(monkeypatch, tmp_path, capsys):
    import os
    import threading

    monkeypatch.setattr(limits, "MAX_BYTES", 2**20)
    code, _, err = run_cli(["human", "--human", "/dev/zero"], capsys)
    assert_one_line_error(code, err, "/dev/zero", "more than 1,048,576 bytes")
    fifo = tmp_path / "judgements.csv"
    os.mkfifo(fifo)
    with pytest.raises(StatsInputError, match="file is empty"):  # no writer: no hang
        load_bytes(fifo)
    data = (SAMPLE / "human" / "judgements.csv").read_bytes()
    writer = threading.Thread(target=lambda: fifo.write_bytes(data))
    writer.start()
    got = None
    deadline = time.monotonic() + 10  # until the writer has the FIFO open (a thread on a loaded
    while got is None and time.monotonic() < deadline:  # machine may take a while to start)
        try:
            got = load_bytes(fifo)[0]
        except StatsInputError:
            time.sleep(0.01)
    writer.join(5)
    assert got == data


def test_a_task_set_path_that_is_a_device_or_a_fifo_is_bounded(tmp_path):
    import os

    from stats.metaeval.task_sets import read_task_set

    with pytest.raises(StatsInputError, match="/dev/zero: more than 16,777,216 bytes"):
        read_task_set("/dev/zero")
    fifo = tmp_path / "ts.json"
    os.mkfifo(fifo)
    with pytest.raises(StatsInputError) as err:
        read_task_set(fifo)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("brk", ["\r", "\u2028", "\x0c", "\x85"])
def test_the_line_limit_counts_every_break_splitlines_counts(monkeypatch, brk):
    monkeypatch.setattr(limits, "MAX_LINES", 1_000)
    text = "SYSTEM\tSEGMENT\tSCORE" + brk + ("a\t1\t0.5" + brk) * 1_050
    with pytest.raises(StatsInputError, match="1,051 lines is over the limit of 1,000"):
        decode(text.encode(), "cr.tsv")


@pytest.mark.parametrize("raw", ["5_0", "0x10", "1_000.5", "٣", "１", "0b1", "1" * 5_000])
def test_numbers_follow_one_rule_in_every_reader(raw):
    from stats.readers._common import is_finite_number, parse_float, strict_float

    frame = __import__("pandas").DataFrame({"SCORE": [raw], "_line": [4]})
    with pytest.raises(StatsInputError, match="a.tsv, line 4, column SCORE"):
        to_float(frame, "SCORE", "a.tsv")
    with pytest.raises(StatsInputError, match="a.tsv, line 4, column SCORE"):
        parse_float(raw, "a.tsv", "SCORE", 4)
    with pytest.raises(ValueError):
        strict_float(raw)
    assert not is_finite_number(raw)


def test_a_qe_submission_score_spelled_with_an_underscore_is_refused():
    from stats.readers.qe_wmt import read_qe_submissions

    rows = ["en-de\tm\t0\t0.5", "en-de\tm\t1\t5_0"]
    with pytest.raises(StatsInputError, match="5_0"):
        read_qe_submissions([("sub.tsv", ("\n".join(rows) + "\n").encode())])


def test_every_writer_escapes_with_the_one_function_of_its_language():
    import stats.cli._common as cli_common
    import stats.cli.qe_wmt as cli_qe_wmt
    import stats.cli.rank as cli_rank
    import stats.export_tables as export_tables
    import stats.human.paired as paired
    from stats import escape

    for module in (cli_rank, cli_qe_wmt, paired, cli_common, export_tables):
        assert module.latex_escape is escape.latex, module.__name__
    assert export_tables.csv_safe is escape.csv_cell
    hostile = "\\input{/etc/passwd}^^5c^^M\n\\input{x}"
    out = escape.latex(hostile)
    assert "\\input" not in out and "^" not in out and "\n" not in out
    assert cli_common.finish("# metric " + hostile + "\nx", "latex").split("\n")[0].count(
        "\\input"
    ) == 0


def test_error_lines_are_terminal_safe_and_at_most_300_characters(tmp_path, capsys):
    name = "\x1b[31mred\x1b]0;title\x07" + "n" * 230 + ".tsv"
    path = tmp_path / name
    path.write_text("SYSTEM\tSEGMENT\tSCORE\nA\t1\tx\n")
    code, _, err = run_cli(["randomized", "--scores", path], capsys)
    assert_one_line_error(code, err)
    assert "\x1b" not in err and "\x07" not in err and "\\x1b[31mred" in err
    assert len(err.rstrip("\n")) <= len("error: ") + 300


# ---- work budgets for whole runs ----


@pytest.fixture(scope="module")
def wmt_like(tmp_path_factory):
    from tests._task_set_data import write_wmt_like

    root = tmp_path_factory.mktemp("wmt")
    return write_wmt_like(root, lps=("en-de",), n_systems=5, n_items=12, seed=4)


def _task_set(path: Path, n: int) -> Path:
    task = {"lp": "en-de", "level": "seg", "correlation": "kendall"}
    path.write_text(json.dumps({"tasks": [task] * n}))
    return path


@pytest.mark.parametrize(
    "n_tasks, resamples, bound, needle",
    [
        # no operation count refuses a run; the time asked for with --max-seconds does
        (1, "1000000000", ["--max-seconds", "60"], "an estimated"),
        (1_000, "100", ["--max-seconds", "5"], "an estimated"),
        (100_000, "100", ["--max-seconds", "5"], "an estimated"),
    ],
)
def test_rank_budgets_the_whole_run_before_it_starts(
    wmt_like, tmp_path, capsys, n_tasks, resamples, bound, needle
):
    ts = _task_set(tmp_path / "ts.json", n_tasks)
    code, _, err = run_cli(
        ["rank", "--data", wmt_like, "--task-set", ts, "--resamples", resamples, *bound], capsys
    )
    assert_one_line_error(code, err, needle)


def test_a_human_ranking_of_1500_systems_is_refused_before_its_tests(tmp_path, capsys):
    rows = [
        f"u{s % 7},sys{s},{i},TGT,eng,deu,{(s * 7 + i) % 100},doc{i},True,\"[]\",1.0,2.0"
        for s in range(1_500)
        for i in range(5)
    ]
    path = tmp_path / "esa.csv"
    path.write_text("\n".join(rows) + "\n")
    code, _, err = run_cli(["human", "--human", path], capsys)
    assert_one_line_error(code, err, "human ranking of en-de", "1,500 systems is over the limit")


def test_names_with_ansi_escapes_reach_a_terminal_escaped(tmp_path, capsys, monkeypatch):
    path = tmp_path / "s.tsv"
    rows = [f"{s}\t{i}\t{0.1 * k + 0.01 * i:.2f}" for k, s in enumerate(["A", "\x1b[2J\x1b]0;x\x07B"]) for i in range(8)]
    path.write_text("SYSTEM\tSEGMENT\tSCORE\n" + "\n".join(rows) + "\n")
    argv = ["randomized", "--scores", path, "--resamples", "50", "--format", "tsv"]
    code, out, err = run_cli(argv, capsys)
    assert code == 0, err
    assert "\x1b" in out  # to a file or a pipe: the bytes as they are
    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    code, out, err = run_cli(argv, capsys)
    assert code == 0 and "\x1b" not in out and "\x07" not in out and "\\x1b[2J" in out
