"""Outputs cannot be shifted or executed, and inputs are never written:
every TSV writer escapes tabs and line breaks in names and neutralises formula prefixes as the
dashboard's CSV writer does; an output file that is an input is refused before anything is
written."""

from __future__ import annotations

import os

import numpy as np
import pandas as pd
import pytest

from stats.cli import main
from stats.cli._common import matrix_tsv, table_tsv
from stats.escape import csv_cell, tsv_cell, tsv_comment
from tests.cli.test_cli_human_wmt import SYSTEMS, make

HOSTILE = {
    "tab": "A\tB",
    "newline": "line\nbreak",
    "formula": "=HYPERLINK(1)",
    "at": "@SUM(1)",
}


def _cli(argv, capsys):
    code = main([str(a) for a in argv])
    cap = capsys.readouterr()
    assert "Traceback" not in cap.err
    return code, cap.out, cap.err


def _check_tsv(out: str, width: int | None = None) -> list[list[str]]:
    """Every line a comment or a row of ``width`` cells; no cell a formula."""
    rows = []
    for line in out.splitlines():
        if not line or line.startswith(("#", "%")):
            continue
        cells = line.split("\t")
        rows.append(cells)
        assert not any(c.startswith(("=", "+", "@")) for c in cells), line
        assert not any(c.startswith("-") and not c.lstrip("-").replace(".", "").replace(
            "e", "").isdigit() and c not in ("-", "--") for c in cells), line  # fmt: skip
    if width is not None:
        assert {len(r) for r in rows} == {width}, rows
    return rows


def test_tsv_cell_is_csv_cell_plus_escapes():
    for name in HOSTILE.values():
        cell = tsv_cell(name)
        assert "\t" not in cell and "\n" not in cell
        assert cell == csv_cell(name.replace("\t", "\\t").replace("\n", "\\n"))
    assert tsv_cell("-0.5") == "-0.5" and tsv_cell("-") == "-" and tsv_cell("x\r") == "x\\r"
    assert tsv_comment("a\nb\tc") == "# a\\nb\\tc"


def test_shared_table_writers_escape_names():
    rows = [{"system": n, "score": 0.5} for n in HOSTILE.values()]
    _check_tsv(table_tsv(rows, ["system", "score"]), width=2)
    names = list(HOSTILE.values())
    matrix = pd.DataFrame(np.eye(len(names)), index=names, columns=names)
    _check_tsv(matrix_tsv(matrix), width=len(names) + 1)


@pytest.fixture(scope="module")
def hostile_outputs(tmp_path_factory):
    """A reference and four system outputs whose file names are hostile system names."""
    out = tmp_path_factory.mktemp("hyp")
    rng = np.random.default_rng(3)
    words = np.array("the a cat dog sat on mat house red blue".split())
    refs = [" ".join(rng.choice(words, 8)) for _ in range(30)]
    (out / "ref.txt").write_text("\n".join(refs) + "\n")
    hyps = []
    for name in HOSTILE.values():
        lines = [" ".join(w if rng.random() < 0.7 else rng.choice(words) for w in r.split())
                 for r in refs]  # fmt: skip
        path = out / f"{name}.txt"
        path.write_text("\n".join(lines) + "\n")
        hyps.append(path)
    return out / "ref.txt", hyps


def test_randomized_tsv_escapes_system_names(hostile_outputs, capsys):
    ref, hyps = hostile_outputs
    code, out, err = _cli(["randomized", "--ref", ref, "--hyp", *hyps, "--resamples", 30,
                           "--format", "tsv"], capsys)  # fmt: skip
    assert code == 0, err
    rows = _check_tsv(out)
    assert {r[0] for r in rows} >= {"A\\tB", "line\\nbreak", "'=HYPERLINK(1)", "'@SUM(1)"}
    assert len(out.splitlines()) == len(out.split("\n")) - out.endswith("\n")


def test_randomized_systems_table_tsv(hostile_outputs, capsys):
    ref, hyps = hostile_outputs
    code, out, err = _cli(["randomized", "--ref", ref, "--hyp", *hyps, "--resamples", 30,
                           "--metric", "bleu", "chrf", "--baseline", hyps[2].stem,
                           "--format", "tsv"], capsys)  # fmt: skip
    assert code == 0, err
    rows = _check_tsv(out)  # (comment lines are one cell: tabs and breaks escaped)
    cells = [c for r in rows for c in r]
    assert "'=HYPERLINK(1)" in cells and not any(c.startswith("=") for c in cells)
    assert all("\t" not in line for line in out.splitlines() if line.startswith("#"))


@pytest.fixture(scope="module")
def mqm_path(tmp_path_factory):
    out = tmp_path_factory.mktemp("mqm")
    text = make.generate(5, systems=SYSTEMS, n_segments=30, n_domains=2, n_users=2)["en-de.mqm.tsv"]
    lines = text.splitlines()
    rows = [lines[0]] + [
        ("=HYPERLINK(1)" + ln[1:] if ln.startswith("A\t") else "@SUM(1)" + ln[1:]
         if ln.startswith("B\t") else ln) for ln in lines[1:]
    ]  # fmt: skip
    path = out / "en-de.mqm.tsv"
    path.write_text("\n".join(rows) + "\n")
    return path


def test_human_segments_and_tsv_escape_names(mqm_path, tmp_path, capsys):
    segments = tmp_path / "segments.tsv"
    code, out, err = _cli(["human", "--human", mqm_path, "--segments", segments,
                           "--format", "tsv"], capsys)  # fmt: skip
    assert code == 0, err
    _check_tsv(out)
    written = segments.read_text()
    rows = _check_tsv(written)
    assert len({len(r) for r in rows}) == 1
    assert "'=HYPERLINK(1)" in written and "'@SUM(1)" in written


# ---- 4. inputs are never written ----


def test_output_equal_to_an_input_is_refused(mqm_path, tmp_path, capsys):
    before = mqm_path.read_bytes()
    code, _, err = _cli(["human", "--human", mqm_path, "--segments", mqm_path], capsys)
    assert code == 2 and err.count("\n") == 1
    assert f"--segments {mqm_path}: is the input file {mqm_path} (--human)" in err
    link = tmp_path / "link.tsv"
    link.symlink_to(mqm_path)
    hard = tmp_path / "hard.tsv"
    os.link(mqm_path, hard)
    for out in (link, hard):
        code, _, err = _cli(["human", "--human", mqm_path, "--segments", out], capsys)
        assert code == 2 and "would overwrite the input" in err
    code, _, err = _cli(["human", "--human", link, "--segments", mqm_path], capsys)
    assert code == 2 and "would overwrite the input" in err
    assert mqm_path.read_bytes() == before
