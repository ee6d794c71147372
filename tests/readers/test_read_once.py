"""Each file is read and decoded once on the way to a human ranking: the workflows (and the
CLI) look at a file's content to choose its reader, then hand the reader the decoded text."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from stats import analyses as A
from stats.cli import main
from stats.readers import _common

ROOT = Path(__file__).resolve().parents[2]
_GEN = ROOT / "sample_data" / "make_wmt_human_sample.py"
_spec = importlib.util.spec_from_file_location("make_wmt_human_sample", _GEN)
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)


@pytest.fixture(scope="module")
def wmt_files(tmp_path_factory):
    """The generated ESA export, MQM file and documents file, written to disk."""
    base = tmp_path_factory.mktemp("wmt_human")
    systems = {"Aurora": 0.4, "Borealis": 0.0, "Cirrus": -0.3, "Delta": -0.5}
    # 30 segments per domain: more than 13 shared items per pair, so scipy's signed-rank test
    # takes its exact or asymptotic path, not the slow permutation one
    texts = make.generate(5, systems=systems, n_segments=60, n_domains=2, n_users=3)
    for name, text in texts.items():
        (base / name).write_text(text, encoding="utf-8")
    return base


@pytest.fixture
def decodes(monkeypatch):
    """Display names of the files decoded, one entry per decode."""
    seen: list[str] = []
    real = _common.decode

    def counted(data, label):
        seen.append(Path(label).name)
        return real(data, label)

    monkeypatch.setattr(_common, "decode", counted)
    return seen


def test_wmt_gold_decodes_each_file_once(wmt_files, decodes):
    files = [wmt_files / "en-de.esa.csv", wmt_files / "en-de.docs"]
    gold = A.human_gold(files)
    assert len(gold.systems) == 4
    assert sorted(decodes) == ["en-de.docs", "en-de.esa.csv"]


def test_judgements_and_da_files_decoded_once(decodes):
    A.human_gold([ROOT / "sample_data" / "human" / "judgements.tsv"])
    assert decodes == ["judgements.tsv"]


def test_cli_human_decodes_each_file_once(wmt_files, decodes, capsys):
    esa, mqm = wmt_files / "en-de.esa.csv", wmt_files / "en-de.mqm.tsv"
    docs = wmt_files / "en-de.docs"
    code = main(["human", "--human", str(esa), str(mqm), "--documents", str(docs)])
    assert code == 0, capsys.readouterr().err
    assert '"systems"' in capsys.readouterr().out
    assert sorted(decodes) == ["en-de.docs", "en-de.esa.csv", "en-de.mqm.tsv"]


def test_decoded_items_read_as_their_files(wmt_files):
    """A reader given a decoded item returns what it returns for the file itself."""
    path = wmt_files / "en-de.esa.csv"
    once = A.decode_files([path])[0]
    assert once.name == str(path) and "characters" in repr(once)
    a = A.read_human_ratings([path])[0].frame
    b = A.read_human_ratings([once])[0].frame
    assert a.equals(b)
