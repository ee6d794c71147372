"""Progress on stderr for the subcommands whose runs can take more than a few seconds at the
field's sizes (``human``, ``accuracy``, ``qe``, ``power``): a tqdm bar named for the run with
the time left, on a terminal only (``--quiet`` and a pipe get none), as ``rank``,
``meta-eval`` and ``randomized`` (tests/cli/test_cli_long_runs.py, which tests the bars' rules
themselves). Small inputs: each command's bar is drawn, the run's numbers are tested elsewhere."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from stats.cli import main
from tests._qe_wmt_data import generate

ROOT = Path(__file__).resolve().parents[2]
MT = ROOT / "sample_data" / "mt"


class _Terminal(io.StringIO):
    def isatty(self):
        return True


@pytest.fixture(scope="module")
def inputs(tmp_path_factory):
    root = tmp_path_factory.mktemp("progress")
    d = generate()
    (root / "subs.zip").write_bytes(d["zip"])
    (root / "gold.tsv").write_text(d["gold"])
    return root


def _commands(root: Path) -> dict:
    hyps = [str(p) for p in sorted((MT / "hyp").glob("*.txt"))]
    return {
        "power": ["power", "--scores", MT / "segment_scores.tsv", "--score-metric", "chrF",
                  "--baseline", "Aurora", "--system", "Borealis", "--effect", "2", "--n", "40",
                  "--test", "t", "--simulations", "50", "--seed", "3"],
        "human": ["human", "--human", ROOT / "sample_data" / "human" / "judgements.tsv"],
        "accuracy": ["accuracy", "--human", ROOT / "sample_data" / "human" / "judgements.tsv",
                     "--ref", MT / "reference.txt", "--hyp", *hyps, "--metric", "bleu",
                     "--tests", "paired-bootstrap", "--resamples", "99", "--seed", "3"],
        "qe": ["qe", "--data", root / "subs.zip", "--gold", root / "gold.tsv", "--resamples",
               "50"],
    }  # fmt: skip


@pytest.mark.parametrize("command", ["power", "human", "accuracy", "qe"])
def test_bar_on_a_terminal(command, inputs, monkeypatch):
    argv = [str(a) for a in _commands(inputs)[command]]
    monkeypatch.setattr("stats.cli._progress.DELAY", 0)
    monkeypatch.setattr("stats.cli._progress.MININTERVAL", 0)
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    term = _Terminal()
    monkeypatch.setattr(sys, "stderr", term)
    assert main(argv) == 0, term.getvalue()
    shown = term.getvalue()
    assert f"\r{command}: " in shown and "%|" in shown and "left" in shown, shown
    if command == "power":  # --quiet: none (the mechanism is shared: once is enough)
        quiet = _Terminal()
        monkeypatch.setattr(sys, "stderr", quiet)
        assert main([*argv, "--quiet"]) == 0, quiet.getvalue()
        assert "%|" not in quiet.getvalue()
