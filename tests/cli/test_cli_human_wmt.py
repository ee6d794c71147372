"""``python -m stats human`` on WMT22-25 files: the paired ranking's JSON, TSV and LaTeX, and one
line with exit status 2 on bad input."""

from __future__ import annotations

import json

import pytest

from stats.cli import main
from tests.human.test_human_paired import SYSTEMS, make


@pytest.fixture(scope="module")
def wmt_files(tmp_path_factory):
    out = tmp_path_factory.mktemp("wmt_human")
    texts = make.generate(11, systems=SYSTEMS, n_segments=90, n_domains=3, n_users=4)
    for name, text in texts.items():
        (out / name).write_text(text, encoding="utf-8")
    return out


def test_json_fields(wmt_files, capsys):
    esa, docs = wmt_files / "en-de.esa.csv", wmt_files / "en-de.docs"
    assert main(["human", "--human", str(esa), "--documents", str(docs)]) == 0
    (block,) = json.loads(capsys.readouterr().out)["language_pairs"]
    assert block["lp"] == "en-de" and block["protocol"] == "ESA"  # eng-deu in the export
    assert block["test"] == "signed-rank" and block["average"] == "macro"
    assert len(block["domains"]) == 3 and block["by_domain"]
    assert "Stouffer" in block["description"]
    systems = block["systems"]
    assert sorted(systems) == sorted(SYSTEMS)
    scores = [block["score"][s] for s in systems]
    assert scores == sorted(scores, reverse=True)
    assert set(block["rank_range"]) == set(systems)
    assert all(1 <= t <= b <= len(systems) for t, b in block["rank_range"].values())
    assert [s for c in block["clusters"] for s in c] == systems
    assert block["pvalues"][systems[0]][systems[1]] == block["pvalues"][systems[1]][systems[0]]
    assert all(n > 0 for n in block["n_items"].values())


def test_rank_sum_micro_and_no_domains(wmt_files, capsys):
    mqm = wmt_files / "en-de.mqm.tsv"
    argv = ["human", "--human", str(mqm), "--test", "rank-sum", "--average", "micro"]
    assert main([*argv, "--correction", "holm"]) == 0
    (block,) = json.loads(capsys.readouterr().out)["language_pairs"]
    assert block["protocol"] == "MQM" and block["test"] == "rank-sum"
    assert block["domains"] == ["all"] and not block["by_domain"]
    assert block["correction"] == "holm"
    raw, adjusted = block["pvalues"], block["pvalues_adjusted"]  # raw kept, adjusted added
    a, b = block["systems"][:2]
    assert adjusted[a][b] >= raw[a][b]


def test_tsv_and_latex(wmt_files, capsys):
    esa, docs = wmt_files / "en-de.esa.csv", wmt_files / "en-de.docs"
    assert main(["human", "--human", str(esa), "--documents", str(docs), "--format", "tsv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t")[:6] == ["lp", "protocol", "system", "rank_top", "rank_bottom",
                                        "cluster"]  # fmt: skip
    assert len(lines) == 1 + len(SYSTEMS)
    assert main(["human", "--human", str(esa), "--format", "latex"]) == 0
    tex = capsys.readouterr().out
    assert tex.startswith("\\begin{table}") and "\\caption{ESA en-de" in tex
    assert tex.count(" \\\\\n") == 1 + len(SYSTEMS)


def test_bad_input_one_line_exit_2(wmt_files, tmp_path, capsys):
    esa = wmt_files / "en-de.esa.csv"
    bad_docs = tmp_path / "en-de.docs"
    bad_docs.write_text("canary\tx\nnews\tnot_the_doc\n" * 200)
    assert main(["human", "--human", str(esa), "--documents", str(bad_docs)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "the documents file does not match" in err
    bad = tmp_path / "bad.csv"
    bad.write_text("u1,sysA,3,TGT,eng,deu,high,doc1\n")
    assert main(["human", "--human", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 1, field 7 (score)" in err


def test_lp_names_an_mqm_file_without_one(wmt_files, tmp_path, capsys):
    mqm = tmp_path / "ratings.tsv"
    mqm.write_text((wmt_files / "en-de.mqm.tsv").read_text())
    assert main(["human", "--human", str(mqm), "--lp", "en-de", "--no-by-domain"]) == 0
    (block,) = json.loads(capsys.readouterr().out)["language_pairs"]
    assert block["lp"] == "en-de"
