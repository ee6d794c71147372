"""``python -m stats autorank``: the JSON shape the issue states, TSV and LaTeX, and one line with
exit status 2 on bad input."""

from __future__ import annotations

import json

import pytest

from stats.cli import main
from tests._wmt25_data import generate


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    out = tmp_path_factory.mktemp("automatic_scores")
    for name, data in generate(3).items():
        (out / name).write_bytes(data)
    return out


def test_json_shape(folder, capsys):
    assert main(["autorank", "--scores", str(folder), "--resamples", "200", "--seed", "4"]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert "note: read as WMT25 automatic scores: 8 systems, 4 language pairs, 6 metrics" in captured.err
    lps = [b["lp"] for b in doc["language_pairs"]]
    assert lps == ["en-bho_IN", "en-cs_CZ", "en-de_DE", "en-ja_JP"]
    block = doc["language_pairs"][1]
    assert block["metrics"] == ["CometKiwi-XL", "GEMBA-ESA-CMDA", "GEMBA-ESA-GPT4.1",
                                "MetricX-24-Hybrid-XL", "XCOMET-XL"]  # fmt: skip
    systems = block["systems"]
    ranks = [s["autorank"] for s in systems]
    assert ranks == sorted(ranks) and ranks[0] == 1.0
    assert ranks[-1] == pytest.approx(len(systems))
    first = systems[0]
    assert set(first) >= {"system", "autorank", "scores", "interval"}
    assert set(first["scores"]) == set(block["metrics"])
    lo, hi = first["interval"]
    assert lo <= hi
    names = [s["system"] for s in systems]
    assert [s for c in block["clusters"] for s in c] == names
    assert set(block["pvalues"]) == set(names)
    assert block["pvalues"][names[0]][names[1]] is not None
    assert block["pvalues"][names[1]][names[0]] is None
    assert doc["language_pairs"][0]["metrics"] == ["chrF++"]
    assert doc["seed"] == 4


def test_tsv_says_which_neighbours_cannot_be_separated(folder, capsys):
    argv = ["autorank", "--scores", str(folder), "--lp", "en-de_DE", "--resamples", "200",
            "--format", "tsv", "--correction", "holm"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("# en-de_DE: AutoRank over")
    assert "# neighbours the data cannot separate:" in out
    assert "system\tautorank\tlow\thigh\tcluster" in out


def test_latex_and_point_only(folder, capsys):
    argv = ["autorank", "--scores", str(folder), "--lp", "en-cs_CZ", "--format", "latex",
            "--no-intervals"]  # fmt: skip
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert r"\toprule" in out and r"\bottomrule" in out and "interval" not in out
    argv = ["autorank", "--scores", str(folder), "--lp", "en-cs_CZ", "--metrics", "XCOMET-XL",
            "--no-intervals"]  # fmt: skip
    assert main(argv) == 0
    block = json.loads(capsys.readouterr().out)["language_pairs"][0]
    assert block["metrics"] == ["XCOMET-XL"] and "interval" not in block["systems"][0]


@pytest.mark.parametrize(
    ("extra", "match"),
    [
        (["--lp", "xx-yy"], "--lp: xx-yy not among the language pairs read"),
        (["--metrics", "BLEU"], "--metrics: BLEU not among the metrics read"),
        (["--lp", "en-bho_IN", "--metrics", "XCOMET-XL"], "en-bho_IN: no value of XCOMET-XL"),
        (["--resamples", "0"], "--resamples must be a positive integer"),
        (["--confidence-level", "1.5"], "--confidence-level must be in"),
        (["--metrics", "XCOMET-XL", "--preset", "wmt25"], "give one of them"),
    ],
)
def test_errors_are_one_line_exit_2(folder, capsys, extra, match):
    assert main(["autorank", "--scores", str(folder), *extra]) == 2
    err = capsys.readouterr().err
    assert match in err and err.count("\n") == 1 and "Traceback" not in err


def test_bad_file_one_line(tmp_path, capsys):
    bad = tmp_path / "A.jsonl"
    bad.write_text('{"language_pair": "en-de_DE"}\n')
    assert main(["autorank", "--scores", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "A.jsonl, line 1: field domain is missing" in err and err.count("\n") == 1


def test_systems_metadata_filters_and_names_who_is_left_out(folder, tmp_path, capsys):
    names = sorted(p.name[:-6] for p in folder.glob("*.jsonl"))
    meta = {s: {"constrained": True, "supported_lps": {"en-cs_CZ": "supported", "en-de_DE": "supported"}}
            for s in names[1:]}  # fmt: skip
    path = tmp_path / "systems_metadata_updated3.json"
    path.write_text(json.dumps(meta))
    argv = ["autorank", "--scores", str(folder), "--lp", "en-cs_CZ", "--no-intervals",
            "--systems-metadata", str(path)]  # fmt: skip
    assert main(argv) == 0
    captured = capsys.readouterr()
    block = json.loads(captured.out)["language_pairs"][0]
    assert names[0] not in [s["system"] for s in block["systems"]]
    assert f"en-cs_CZ: 1 system(s) not in the systems metadata, not ranked (the organisers' team filter): {names[0]}" in captured.err
    path.write_text("[]")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "systems_metadata_updated3.json: expected a JSON object" in err and err.count("\n") == 1
