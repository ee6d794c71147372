"""The manners every ``mt-stats`` subcommand shares (as sacreBLEU's): ``--version``, the
program's own name in usage lines, ``-`` for standard input and ``--format latex``."""

from __future__ import annotations

import argparse
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from stats.cli import build_parser, main
from stats.cli._common import program_name

ROOT = Path(__file__).resolve().parents[2]
METRICS = ROOT / "sample_data" / "metrics"
JUDGEMENTS = ROOT / "sample_data" / "human" / "judgements.tsv"
MT_STATS = Path(sys.executable).with_name("mt-stats")


class _Stdin:
    """A stand-in for ``sys.stdin``: the CLI reads its bytes from ``.buffer``."""

    def __init__(self, data: bytes):
        self.buffer = io.BytesIO(data)


def _run(capsys, monkeypatch, argv, stdin: bytes | None = None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", _Stdin(stdin))
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_program_name_is_the_command_people_typed():
    assert program_name("/usr/local/bin/mt-stats") == "mt-stats"
    assert program_name("/x/stats/__main__.py") == "python -m stats"


@pytest.mark.skipif(not MT_STATS.exists(), reason="mt-stats is not installed in this venv")
def test_installed_command_says_its_name_and_version():
    from importlib.metadata import version

    res = subprocess.run([MT_STATS, "--version"], capture_output=True, text=True, check=True)
    assert res.stdout.strip() == f"mt-stats {version('mt-significance')}"
    res = subprocess.run([MT_STATS, "williams", "--help"], capture_output=True, text=True)
    assert res.returncode == 0 and res.stdout.startswith("usage: mt-stats williams")


def _subcommands():
    parser = build_parser()
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def test_every_table_format_offers_latex_and_every_file_option_standard_input():
    subs = _subcommands()
    assert subs
    for name, sub in subs.items():
        for action in sub._actions:
            if "--format" in action.option_strings:
                assert "latex" in action.choices, name
            if action.option_strings and action.metavar in ("FILE", "PATH"):
                assert "'-': standard input" in action.help, (name, action.dest)


def test_standard_input_reads_as_the_file_would(capsys, monkeypatch):
    by_path = _run(
        capsys,
        monkeypatch,
        [
            "williams",
            "--human",
            METRICS / "human.tsv",
            "--metrics",
            METRICS / "metrics.tsv",
            "--lp",
            "de-en",
        ],
    )
    by_stdin = _run(
        capsys,
        monkeypatch,
        ["williams", "--human", METRICS / "human.tsv", "--metrics", "-", "--lp", "de-en"],
        stdin=(METRICS / "metrics.tsv").read_bytes(),
    )
    assert by_path[0] == by_stdin[0] == 0, by_stdin[2]
    assert by_stdin[1] == by_path[1]


@pytest.mark.parametrize(
    ("argv", "stdin", "message"),
    [
        (["williams", "--human", "-", "--metrics", "-"], b"x", "can be read once"),
        (["williams", "--scores", "-"], b"", "standard input is empty"),
    ],
)
def test_standard_input_misuse_is_one_line_and_exit_2(capsys, monkeypatch, argv, stdin, message):
    code, out, err = _run(capsys, monkeypatch, argv, stdin=stdin)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err


def test_williams_latex_is_booktabs_with_significant_cells_bold(capsys, monkeypatch):
    common = [
        "williams",
        "--human",
        METRICS / "human.tsv",
        "--metrics",
        METRICS / "metrics.tsv",
        "--lp",
        "de-en",
        "--alpha",
        "0.05",
    ]
    code, tex, err = _run(capsys, monkeypatch, [*common, "--format", "latex"])
    assert code == 0, err
    code, out, _ = _run(capsys, monkeypatch, common)
    block = json.loads(out)["language_pairs"][0]
    significant = sum(
        p is not None and p < 0.05 for row in block["williams_p"].values() for p in row.values()
    )
    assert 0 < significant and tex.count(r"\textbf{") == significant
    assert r"\toprule" in tex and r"\bottomrule" in tex
    assert not any(line.startswith("#") for line in tex.splitlines())  # captions: % comments
    assert tex.startswith("% de-en")
    rows = [line for line in tex.splitlines() if line.endswith(r"\\")]
    assert len(rows) == 1 + len(block["metrics"])  # the header row, then one per metric


def test_latex_of_another_subcommand_comes_from_the_same_writer(capsys, monkeypatch):
    # randomized has no LaTeX of its own: its TSV tables come out as booktabs rows
    hyps = sorted((ROOT / "sample_data" / "mt" / "hyp").glob("*.txt"))
    argv = ["randomized", "--ref", ROOT / "sample_data" / "mt" / "reference.txt", "--hyp", *hyps,
            "--metric", "bleu", "--resamples", "50", "--seed", "1"]  # fmt: skip
    code, tex, err = _run(capsys, monkeypatch, [*argv, "--format", "latex"])
    assert code == 0, err
    code, tsv, _ = _run(capsys, monkeypatch, [*argv, "--format", "tsv"])
    body = [line for line in tex.splitlines() if line.endswith(r"\\")]
    rows = [line for line in tsv.splitlines() if line and not line.startswith("#")]
    assert len(body) == len(rows)  # every TSV row, headers included, is one LaTeX row
    assert re.match(r"system & score & CI low & CI high \\\\", body[0])


def test_a_subcommand_with_its_own_latex_keeps_it(capsys, monkeypatch):
    # human writes the findings' ranking table itself; the shared path must not replace it
    argv = ["human", "--human", JUDGEMENTS, "--lp", "de-en", "--format", "latex"]
    code, tex, err = _run(capsys, monkeypatch, argv)
    assert code == 0, err
    assert r"\begin{table}" in tex or r"\begin{tabular}" in tex


def test_cli_and_dashboard_share_one_latex_writer():
    from dashboard import export
    from stats import export_tables

    assert export.dataframe_to_latex is export_tables.dataframe_to_latex


def test_a_dash_is_standard_input_only_for_file_options(capsys, monkeypatch):
    # meta-eval's --gold names a human score type (qe's --gold is a file): '-' stays a name
    argv = [
        "meta-eval",
        "--data",
        ROOT / "sample_data" / "meta" / "en-de_wide.csv",
        "--gold",
        "-",
        "--level",
        "sys",
        "--correlation",
        "pearson",
    ]
    code, out, err = _run(capsys, monkeypatch, argv, stdin=b"never read")
    assert code == 2 and "'-'" in err and "standard input" not in err
    assert sys.stdin.buffer.read() == b"never read"
