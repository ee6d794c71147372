"""The WMT23 QE task 1 submissions folder as published (WMT-QE-Task/wmt-qe-2023-data,
submissions/T1_sentence/: one folder per team, per-language-pair files, multilingual files,
a team-level file, metadata.txt, three empty files), read in one go: as a folder, one zip of
the whole folder, one zip per team, or uploaded files named by their relative paths."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from stats import StatsInputError
from stats.analyses.qe_wmt import is_wmt_qe_input, sort_wmt_qe_files
from stats.cli import main
from stats.qe.wmt import compare_qe_systems
from stats.readers.qe_wmt import (
    read_qe_submissions,
    read_qe_wmt_gold,
    submission_origin,
    system_label,
)
from tests._qe_wmt_data import generate_wmt23_folder

READ_AS = (
    "read as WMT QE sentence-level submissions, 22 files: 8 teams, 12 submissions "
    "(2 multilingual), 4 language pairs; 3 empty files and 1 file of header lines only skipped"
)
KEY = ["lp", "system", "sid"]


def _sorted(s):
    return s.scores[[*KEY, "score"]].sort_values(KEY, ignore_index=True)


def _ways(d, tmp_path):
    """The same folder given four ways."""
    for path, text in d["files"].items():
        (tmp_path / "T1_sentence" / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "T1_sentence" / path).write_text(text)
    return {
        "folder": [str(tmp_path / "T1_sentence")],
        "zip": [("T1_sentence.zip", d["zip"])],
        "team zips": [(f"{t}.zip", z) for t, z in d["team_zips"].items()],
        "relative paths": [(f"T1_sentence/{p}", t.encode()) for p, t in d["files"].items()],
    }


def test_every_way_reads_the_same_submissions(tmp_path):
    d = generate_wmt23_folder()
    ways = {k: read_qe_submissions(v) for k, v in _ways(d, tmp_path).items()}
    first = ways["zip"]
    assert first.read_as == READ_AS
    assert first.systems == sorted({s for _, m in d["truth"].values() for s in m})
    for name, s in ways.items():
        assert s.read_as == READ_AS, name
        pd.testing.assert_frame_equal(_sorted(s), _sorted(first), obj=name)
    # the skipped files are named, each once
    notes = "\n".join(first.notes)
    for f in ("en-de", "he-en", "zh-en"):
        assert f"T1_sentence/asmith-LabA/{f}/predictions.txt: empty, skipped" in notes
    assert "asmith-LabA/test.txt: header lines only, no prediction rows, skipped" in notes
    assert "metadata" not in notes  # the team's description is no submission: left out
    # the team-level file repeats the en-mr file: read once, said so
    assert (
        "asmith-LabA/predictions.txt: repeats 30 prediction(s) of 'asmith-LabA/ensembleTQ'" in notes
    )


def test_correlations_file_by_file_equal_the_task_semantics():
    """Every (language pair, submission): scipy on the items left after deleting the
    hallucinations, as the WMT23 scoring program (task1_sentence_evaluate.py) does."""
    d = generate_wmt23_folder()
    subs = read_qe_submissions([("T1_sentence.zip", d["zip"])])
    gold = read_qe_wmt_gold(d["gold"].encode(), name="gold.tsv")
    res = compare_qe_systems(subs, gold, n_resamples=20, tests=False, rng=0)
    checked = 0
    for lp, (g, methods) in d["truth"].items():
        keep = ~np.isnan(g)
        table = res.language_pairs[lp].table
        assert set(table.index) == set(methods)
        for label, p in methods.items():
            row = table.loc[label]
            assert abs(row["spearman"] - sps.spearmanr(g[keep], p[keep]).statistic) < 1e-12
            assert abs(row["pearson"] - sps.pearsonr(g[keep], p[keep]).statistic) < 1e-12
            assert abs(row["kendall"] - sps.kendalltau(g[keep], p[keep]).statistic) < 1e-12
            checked += 1
    assert checked == 31
    # a team's multilingual and per-pair submissions are different submissions
    de = res.language_pairs["en-de"].table
    assert (
        de.at["gao-LabG/score_ensemble", "spearman"]
        != de.at["gao-LabG/multilingual/score_ensemble", "spearman"]
    )
    # one method across per-pair files is one submission: it has the average
    assert "gao-LabG/score_ensemble" in res.average.index
    assert "bjones-LabB/Kiwi-Ens" not in res.average.index  # en-de, en-mr only
    # a per-pair file holding a second pair's rows gives both pairs
    assert "cwu-LabC/labc_10" in res.language_pairs["he-en"].table.index


@pytest.mark.parametrize(
    "label, want",
    [
        ("T1_sentence.zip:T1_sentence/team-A/en-de/predictions.txt", ("team-A", False)),
        ("team-A.zip:multilingual/predictions.txt", ("team-A", True)),
        ("team-A.zip:team-A/predictions.txt", ("team-A", False)),
        ("subs/team-A/multilingual/predictions.txt", ("team-A", True)),
        ("predictions.txt", (None, False)),
        ("C:\\sub\\team-A\\zh-en\\predictions.txt", ("team-A", False)),
    ],
)
def test_team_and_scope_from_the_path(label, want):
    assert submission_origin(label) == want


def test_labels():
    assert system_label("t", True, "m") == "t/multilingual/m"
    assert system_label(None, False, "m") == "m"


def test_a_team_zip_is_told_by_its_first_file_with_rows():
    """The team zip of asmith-LabA starts with an empty file: before, the page took it for a
    Graham 2015 file and answered 'not valid UTF-8 (byte 0x..)'."""
    d = generate_wmt23_folder()
    team = [("asmith-LabA.zip", d["team_zips"]["asmith-LabA"])]
    assert is_wmt_qe_input(team) == "sentence"
    files = sort_wmt_qe_files([*team, ("gold.tsv", d["gold"].encode())])
    assert files.gold[0] == "gold.tsv"
    assert len(files.submissions) == 6  # 2 with rows; 3 empty and test.txt, named by the reader
    s = read_qe_submissions(list(files.submissions))
    assert s.systems == ["asmith-LabA/ensembleTQ"] and len(s.skipped) == 4


def test_two_files_of_one_submission_that_disagree_are_refused():
    d = generate_wmt23_folder()
    path = "T1_sentence/asmith-LabA/predictions.txt"
    files = [(f"T1_sentence/{p}", t.encode()) for p, t in d["files"].items()]
    files = [
        (n, re.sub(rb"(en-mr\tensembleTQ\t7\t)[^\n]*", rb"\g<1>9.5", t) if n == path else t)
        for n, t in files
    ]
    with pytest.raises(
        StatsInputError,
        match=r"asmith-LabA/predictions.txt: method "
        r"'asmith-LabA/ensembleTQ' scores en-mr segment 7 .*/en-mr/predictions.txt",
    ):
        read_qe_submissions(files)


def test_only_empty_files():
    with pytest.raises(StatsInputError, match=r"no submission file given \(skipped: a/en-de/p.txt"):
        read_qe_submissions([("a/en-de/p.txt", b""), ("a/test.txt", b"1\n2\n")])


def test_cli_reads_the_folder_and_says_what_it_read(capsys, tmp_path):
    d = generate_wmt23_folder()
    folder = _ways(d, tmp_path)["folder"][0]
    (tmp_path / "gold.tsv").write_text(d["gold"])
    code = main(["qe", "--data", folder, "--gold", str(tmp_path / "gold.tsv"), "--resamples", "20"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"note: {READ_AS}" in err.splitlines()
    assert "asmith-LabA/zh-en/predictions.txt: empty, skipped" in err
    gold_line = (
        f"read {tmp_path / 'gold.tsv'} as WMT QE gold labels (lp gold segid score): 120 items, "
        "4 language pairs, 8 marked hallucination"
    )
    assert f"note: {gold_line}" in err.splitlines()
    doc = json.loads(out)
    assert doc["read_as"] == READ_AS and doc["gold_read_as"] == gold_line
    assert len(doc["skipped"]) == 4 and doc["skipped"][0]["why"] == "empty"
    assert [b["lp"] for b in doc["language_pairs"]] == ["en-de", "en-mr", "he-en", "zh-en"]
    systems = {s["system"] for b in doc["language_pairs"] for s in b["systems"]}
    assert (
        "bjones-LabB/multilingual/Kiwi-Ens-II" in systems and "bjones-LabB/Kiwi-Ens-II" in systems
    )


def test_a_method_pooled_over_per_pair_files_is_marked_in_the_average(capsys, tmp_path):
    """The average lists a team's method over its separately submitted per-pair files beside
    the multilingual files the task scored as one: the pooled row says so (``files``,
    ``pooled``) in the result, the JSON, the TSV and the LaTeX."""
    d = generate_wmt23_folder()
    subs = read_qe_submissions([("T1_sentence.zip", d["zip"])])
    assert len(subs.system_files["gao-LabG/score_ensemble"]) == 4  # en-de, en-mr, he-en, zh-en
    assert subs.system_files["gao-LabG/multilingual/score_ensemble"] == (
        "T1_sentence.zip:T1_sentence/gao-LabG/multilingual/predictions.txt",
    )
    gold = read_qe_wmt_gold(d["gold"].encode(), name="gold.tsv")
    avg = compare_qe_systems(subs, gold, n_resamples=20, tests=False, rng=0).average
    assert avg.at["gao-LabG/score_ensemble", "pooled"]
    assert avg.at["gao-LabG/score_ensemble", "files"] == 4
    assert not avg.at["gao-LabG/multilingual/score_ensemble", "pooled"]
    assert not avg.at["bjones-LabB/multilingual/Kiwi-Ens-II", "pooled"]
    folder = _ways(d, tmp_path)["folder"][0]
    (tmp_path / "gold.tsv").write_text(d["gold"])
    args = ["qe", "--data", folder, "--gold", str(tmp_path / "gold.tsv"), "--resamples", "20"]
    assert main(args) == 0
    rows = {r["system"]: r for r in json.loads(capsys.readouterr().out)["average"]}
    assert rows["gao-LabG/score_ensemble"]["pooled"] is True
    assert rows["gao-LabG/score_ensemble"]["files"] == 4
    assert rows["gao-LabG/multilingual/score_ensemble"]["pooled"] is False
    assert main([*args, "--format", "tsv"]) == 0
    assert "# pooled = True: one method's separately submitted files" in capsys.readouterr().out
    assert main([*args, "--format", "latex"]) == 0
    tex = capsys.readouterr().out
    assert r"gao-LabG/score\_ensemble$^\dagger$" in tex and r"\dag{} one method's" in tex
    assert r"multilingual/score\_ensemble$^\dagger$" not in tex


def test_word_level_team_folders_are_labelled_the_same_way():
    """WMT23's T1_word folder has the same layout: one method per language-pair file."""
    from stats.readers.qe_word import read_word_submissions

    def rows(lp):
        return "".join(f"{lp}\tKiwi\tmt\t{i}\t0\tw\tOK\n" for i in range(3))

    files = [
        (f"T1_word/teamA/{lp}/predictions.txt", rows(lp).encode()) for lp in ("en-de", "zh-en")
    ]
    s = read_word_submissions(files)
    assert sorted(s.system.unique()) == ["teamA/Kiwi"] and sorted(s.lp.unique()) == [
        "en-de",
        "zh-en",
    ]
    with pytest.raises(StatsInputError, match="method 'teamA/Kiwi' has en-de tags in .* too"):
        read_word_submissions([files[0], ("T1_word/teamA/predictions.txt", rows("en-de").encode())])


def test_empty_files_of_a_word_level_folder_stay_word_level():
    from stats.analyses.qe_wmt import sort_wmt_qe_files

    row = b"en-de\tKiwi\tmt\t0\t0\tw\tOK\n"
    f = sort_wmt_qe_files(
        [("T1_word/t/en-de/predictions.txt", row), ("T1_word/t/zh-en/p.txt", b"")]
    )
    assert not f.sentence and len(f.word_submissions) == 2
