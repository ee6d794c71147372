"""Several references and chrF: the order is stated, and a warning says when two
references score a segment equally with different statistics (sacreBLEU keeps the first best,
so the other order gives another score; checked against sacreBLEU itself)."""

from __future__ import annotations

import warnings

import pytest
from sacrebleu.metrics import CHRF

from stats.analyses import reference_order, text_statistics
from stats.analyses.mt_systems import chrf_order_ties
from stats.cli import main

# "aaaa" gets the same sentence chrF from "aba" and from "aabb" with different statistics
# (found by enumerating short strings with sacreBLEU's own CHRF._compute_f_score)
REF_A = ["aba", "abc"]
REF_B = ["aabb", "abc"]
HYPS = {"S1": ["aaaa", "abcab"], "S2": ["abc", "abc"]}


def _files(tmp_path):
    paths = []
    for name, lines in [("refA.txt", REF_A), ("refB.txt", REF_B), *(
            (f"{s}.txt", h) for s, h in HYPS.items())]:  # fmt: skip
        p = tmp_path / name
        p.write_text("\n".join(lines) + "\n", encoding="utf-8")
        paths.append(p)
    return paths[:2], paths[2:]


def test_order_ties_found_and_the_score_depends_on_the_order():
    ties = chrf_order_ties([REF_A, REF_B], HYPS)
    assert ties.tolist() == [[True, False], [False, False]]
    # sacreBLEU itself: the two orders give S1 two scores
    forward = CHRF().corpus_score(HYPS["S1"], [REF_A, REF_B]).score
    backward = CHRF().corpus_score(HYPS["S1"], [REF_B, REF_A]).score
    assert forward != pytest.approx(backward, abs=1e-9)


def test_warning_and_note_name_the_order(tmp_path):
    refs, hyps = _files(tmp_path)
    with pytest.warns(UserWarning, match=r"refA.txt, .*refB.txt.*1 of 2 segments"):
        text_statistics([str(p) for p in refs], [str(p) for p in hyps], metric="chrf", jobs=1)
    note = reference_order([str(p) for p in refs], [str(p) for p in hyps])
    assert "in this order" in note and "S1" in note
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no tie: no warning
        text_statistics([str(refs[0])], [str(p) for p in hyps], metric="chrf", jobs=1)


def test_cli_warns_on_stderr(tmp_path, capsys):
    refs, hyps = _files(tmp_path)
    code = main(["randomized", "--ref", *map(str, refs), "--hyp", *map(str, hyps),
                 "--metric", "chrf", "--resamples", "20"])
    err = capsys.readouterr().err
    assert code == 0 and err.count("warning: chrF with 2 references in this order") == 1
