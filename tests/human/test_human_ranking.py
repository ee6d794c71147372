"""Human rankings as in the WMT findings: published DA segment files, one-sided Wilcoxon
rank-sum p-values for every ordered pair, cluster lines, the ``human`` subcommand.

Golden values: R 4.x, ``wilcox.test(x, y, alternative = "greater", exact = FALSE, correct =
TRUE)$p.value`` on the file :func:`da_text` writes (script in ``R_SCRIPT``; recorded below and
also run live when Rscript is installed). Cluster lines: exhaustive check of the rule over
every boundary (a brute-force loop written from the findings' definition).
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from stats import StatsInputError
from stats.analyses import human_rankings
from stats.cli import main
from stats.human.ranking import human_ranking, rank_sum_grid
from stats.pairwise.clusters import separated_clusters
from stats.readers.da_segments import language_pair_from_name, read_da_segment_scores
from tests._data import run_rscript

SYSTEMS = ["Online-B", "sysC", "Human-A", "sysA", "tied"]


def da_text(seed: int = 11) -> str:
    """A published-format segment-level DA file: 5 systems x 30 segments, z rounded to 0.1
    (ties), raw with noise of its own."""
    rng = np.random.default_rng(seed)
    lines = ["SYS SID RAW.SCR Z.SCR N"]
    for k, s in enumerate(SYSTEMS):
        for i in range(30):
            z = round(rng.normal(0.25 * k - 0.5, 0.7), 1)
            lines.append(f"{s} {i + 1} {round(60 + 20 * z + rng.normal(0, 6)):d} {z:.1f} "
                         f"{rng.integers(1, 3)}")  # fmt: skip
    return "\n".join(lines) + "\n"


R_SCRIPT = """
d <- read.table(commandArgs(TRUE)[1], header = TRUE)
s <- unique(d$SYS)
for (a in s) for (b in s) if (a != b) cat(a, b,
  sprintf("%.15g", wilcox.test(d$Z.SCR[d$SYS == a], d$Z.SCR[d$SYS == b],
          alternative = "greater", exact = FALSE, correct = TRUE)$p.value),
  sprintf("%.15g", wilcox.test(d$RAW.SCR[d$SYS == a], d$RAW.SCR[d$SYS == b],
          alternative = "greater", exact = FALSE, correct = TRUE)$p.value), "\\n")
"""

# (a, b): (p on Z.SCR, p on RAW.SCR) printed by R_SCRIPT (R 4.2.2) on da_text()
R_RECORDED = {
    ("Online-B", "sysC"): (0.899854405944732, 0.878803371324856),
    ("Online-B", "Human-A"): (0.999972651081137, 0.999796340228041),
    ("Online-B", "sysA"): (0.999991863817191, 0.999855211958384),
    ("Online-B", "tied"): (0.999991137614034, 0.999990433609996),
    ("sysC", "Online-B"): (0.102771513705062, 0.124203362309552),
    ("sysC", "Human-A"): (0.995900488781494, 0.989503283949427),
    ("sysC", "sysA"): (0.997760423959548, 0.991383127828159),
    ("sysC", "tied"): (0.999448015731258, 0.999540165705495),
    ("Human-A", "Online-B"): (2.91258025011566e-05, 0.000215364263494726),
    ("Human-A", "sysC"): (0.00428243184932226, 0.0109151669918698),
    ("Human-A", "sysA"): (0.684904479501946, 0.57045164069098),
    ("Human-A", "tied"): (0.928662237093193, 0.934309998617981),
    ("sysA", "Online-B"): (8.69903417002943e-06, 0.000153300977953197),
    ("sysA", "sysC"): (0.00234579146815663, 0.00896914289671533),
    ("sysA", "Human-A"): (0.320377342396179, 0.435365336945119),
    ("sysA", "tied"): (0.879000158524101, 0.907290839914188),
    ("tied", "Online-B"): (9.47232243746062e-06, 1.02219659209955e-05),
    ("tied", "sysC"): (0.000581506076201873, 0.000484770467707912),
    ("tied", "Human-A"): (0.0733769894596953, 0.0676020227601522),
    ("tied", "sysA"): (0.124005694517978, 0.0951894580182645),
}


@pytest.fixture
def da_file(tmp_path):
    path = tmp_path / "ad-seg-scores-cs-en.csv"
    path.write_text(da_text())
    return path


def _check(results, recorded):
    (res_z, res_raw) = results
    for (a, b), (pz, praw) in recorded.items():
        assert res_z.pvalue.at[a, b] == pytest.approx(pz, rel=1e-9, abs=1e-15), (a, b)
        assert res_raw.pvalue.at[a, b] == pytest.approx(praw, rel=1e-9, abs=1e-15), (a, b)


def test_pvalues_equal_r_wilcox_test_for_every_ordered_pair(da_file):
    results = [human_rankings([da_file], score=s)[0] for s in ("z", "raw")]
    assert len(R_RECORDED) == 5 * 4
    _check(results, R_RECORDED)
    assert np.isnan(np.diag(results[0].pvalue.to_numpy())).all()


def test_pvalues_equal_live_r(da_file):
    out = run_rscript(R_SCRIPT, da_file)
    live = {}
    for line in out.splitlines():
        a, b, pz, praw = line.split()
        live[(a, b)] = (float(pz), float(praw))
    assert len(live) == 20
    _check([human_rankings([da_file], score=s)[0] for s in ("z", "raw")], live)


def test_ranking_order_means_and_counts(da_file):
    frame = pd.read_csv(da_file, sep=" ")
    res = human_rankings([da_file])[0]
    means = frame.groupby("SYS")["Z.SCR"].mean().sort_values(ascending=False)
    assert list(res.systems) == list(means.index)
    assert res.z.to_numpy() == pytest.approx(means.to_numpy(), rel=1e-12)
    raw = frame.groupby("SYS")["RAW.SCR"].mean()
    assert res.raw.to_numpy() == pytest.approx(raw[list(res.systems)].to_numpy(), rel=1e-12)
    assert res.n.tolist() == [30] * 5
    assert res.lp == "cs-en" and res.score == "z"


def _lines_by_definition(pvalue: pd.DataFrame, alpha: float) -> list[int]:
    """Boundaries m (a line below position m) where every system above beats every one below."""
    names = list(pvalue.index)
    return [
        m
        for m in range(len(names) - 1)
        if all(pvalue.iat[i, j] < alpha for i in range(m + 1) for j in range(m + 1, len(names)))
    ]


@pytest.mark.parametrize("alpha", [0.001, 0.01, 0.05, 0.2, 0.6])
def test_clusters_follow_the_findings_rule(da_file, alpha):
    res = human_rankings([da_file], alpha=alpha)[0]
    sizes = np.cumsum([len(c) for c in res.clusters])[:-1] - 1
    assert sizes.tolist() == _lines_by_definition(res.pvalue, alpha)
    assert [s for c in res.clusters for s in c] == list(res.systems)


def test_clusters_on_random_grids_match_the_definition():
    rng = np.random.default_rng(5)
    for _ in range(200):
        k = int(rng.integers(1, 9))
        names = [f"s{i}" for i in range(k)]
        p = pd.DataFrame(rng.uniform(0, 0.1, (k, k)) ** rng.uniform(0.3, 3), index=names,
                         columns=names)  # fmt: skip
        got = np.cumsum([len(c) for c in separated_clusters(p, alpha=0.05)])[:-1] - 1
        assert got.tolist() == _lines_by_definition(p, 0.05)


def test_a_clear_ranking_has_one_system_per_cluster():
    rng = np.random.default_rng(2)
    frame = pd.DataFrame(
        {
            "system": np.repeat(["a", "b", "c"], 200),
            "z": np.concatenate([rng.normal(m, 0.3, 200) for m in (2.0, 0.0, -2.0)]),
        }
    ).assign(raw=lambda f: f["z"] * 20 + 50)
    res = human_ranking(frame, lp="xx-yy")
    assert res.clusters == (("a",), ("b",), ("c",))
    assert res.to_frame()["cluster"].tolist() == [1, 2, 3]


def test_language_pair_from_file_name():
    assert language_pair_from_name("ad-seg-scores-de-en.csv") == "de-en"
    assert language_pair_from_name("/x/y/DA-seglevel.zh-en.tsv.gz") == "zh-en"
    assert language_pair_from_name("scores.csv") is None


def test_reader_errors_name_file_and_line(tmp_path):
    no_lp = tmp_path / "scores.csv"
    no_lp.write_text(da_text())
    with pytest.raises(StatsInputError, match=r"scores.csv: no language pair.*lp=XX-YY"):
        read_da_segment_scores(no_lp)
    assert read_da_segment_scores(no_lp, lp="de-en")["lp"].eq("de-en").all()
    bad = tmp_path / "x-de-en.csv"
    bad.write_text("SYS SID RAW.SCR Z.SCR N\nA 1 70 0.1 1\nA 2 seventy 0.2 1\n")
    with pytest.raises(StatsInputError, match=r"x-de-en.csv, line 3, column RAW.SCR"):
        read_da_segment_scores(bad)
    twice = tmp_path / "y-de-en.csv"
    twice.write_text("SYS SID RAW.SCR Z.SCR N\nA 1 70 0.1 1\nA 1 71 0.2 1\n")
    with pytest.raises(StatsInputError, match=r"y-de-en.csv, lines 2 and 3: .*'A'.*'1' twice"):
        read_da_segment_scores(twice)


def test_rank_sum_grid_rejects_a_single_system():
    with pytest.raises(StatsInputError, match="at least two systems"):
        rank_sum_grid({"a": [1.0, 2.0]})


def test_cli_json_and_tsv(da_file, capsys):
    assert main(["human", "--human", str(da_file)]) == 0
    out = json.loads(capsys.readouterr().out)
    (block,) = out["language_pairs"]
    assert block["lp"] == "cs-en" and block["score"] == "z"
    for (a, b), (pz, _) in R_RECORDED.items():
        assert block["pvalues"][a][b] == pytest.approx(pz, rel=1e-9)
    assert [s for c in block["clusters"] for s in c] == block["systems"]
    assert main(["human", "--human", str(da_file), "--human-score", "raw", "--format", "tsv"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split("\t") == ["lp", "system", "cluster", "z", "raw", "n"]
    assert len(lines) == 1 + 5


def test_cli_bad_input_is_one_line_exit_2(tmp_path, capsys):
    bad = tmp_path / "ad-seg-scores-de-en.csv"
    bad.write_text("SYS SID RAW.SCR Z.SCR N\nA 1 70 inf 1\nB 1 70 0.3 1\n")
    assert main(["human", "--human", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 2, column Z.SCR" in err and "infinite" in err


def test_judgement_files_are_ranked_by_adequacy(tmp_path):
    rng = np.random.default_rng(4)
    rows = ["SYSTEM\tSEGMENT\tANNOTATOR\tCRITERION\tSCORE"]
    for s, shift in (("good", 20), ("bad", -20)):
        for seg in range(25):
            for ann in ("x", "y"):
                rows.append(f"{s}\t{seg}\t{ann}\tadequacy\t{50 + shift + rng.normal(0, 10):.1f}")
    path = tmp_path / "judgements-fr-en.tsv"
    path.write_text("\n".join(rows) + "\n")
    (res,) = human_rankings([path])
    assert res.lp == "fr-en" and res.systems == ("good", "bad")
    assert res.n.tolist() == [25, 25]
    assert res.clusters == (("good",), ("bad",))


def test_da_files_are_a_gold_standard_as_they_are(da_file, tmp_path):
    from stats.analyses import human_gold
    from stats.human.gold import rank_sum_all_pairs

    gold = human_gold([da_file], alpha=0.05)
    assert gold.criteria == ("adequacy",)
    frame = pd.read_csv(da_file, sep=" ")
    groups = {s: g.to_numpy() for s, g in frame.groupby("SYS", sort=False)["Z.SCR"]}
    expected = rank_sum_all_pairs(groups, order=gold.systems).pvalue
    pd.testing.assert_frame_equal(gold.pvalue["adequacy"], expected)
    # R's wilcox.test, recorded above: the p of the winner's row
    for (a, b), (pz, _) in R_RECORDED.items():
        if not np.isnan(gold.pvalue["adequacy"].at[a, b]):
            assert gold.pvalue["adequacy"].at[a, b] == pytest.approx(pz, rel=1e-9)
    means = frame.groupby("SYS")["Z.SCR"].mean()
    assert gold.scores["adequacy_z"].to_numpy() == pytest.approx(
        means[list(gold.systems)].to_numpy(), rel=1e-12
    )
    unnamed = tmp_path / "scores.csv"
    unnamed.write_text(da_text())
    assert human_gold([unnamed]).systems == gold.systems
    other = tmp_path / "ad-seg-scores-de-en.csv"
    other.write_text(da_text(seed=3))
    with pytest.raises(StatsInputError, match="per language pair.*cs-en, de-en"):
        human_gold([da_file, other])


@pytest.mark.parametrize(
    "layout",
    ["A 1 70 0.1 1\nB 1 71 0.2 2\n",  # one space: read by columns, each space as a tab
     "A  1 70 0.1 1\nB 1   71 0.2 2\n",  # runs of spaces: the same fields
     " A 1 70 0.1 1\nB 1 71 0.2 2 \n",  # a space at either end of a line
     "A\t1 70 0.1 1\nB 1 71\t0.2 2\r\n"],  # tabs and CRLF among the spaces
)
def test_da_segment_fields_split_at_runs_of_whitespace(layout):
    frame = read_da_segment_scores(("SYS SID RAW.SCR Z.SCR N\n" + layout).encode(),
                                   name="ad-seg-scores-de-en.csv")
    assert frame["system"].tolist() == ["A", "B"] and frame["segment"].tolist() == ["1", "1"]
    assert frame["raw"].tolist() == [70.0, 71.0] and frame["n"].tolist() == [1.0, 2.0]
    assert "space-separated" in frame.attrs["read_as"]


def test_da_segment_row_short_by_a_field_with_a_double_space():
    # "A  70 0.1 1" is four fields split at runs of spaces, not an empty segment id
    data = b"SYS SID RAW.SCR Z.SCR N\nA 1 70 0.1 1\nA  70 0.1 1\n"
    with pytest.raises(StatsInputError, match=r"de-en.csv, line 3: expected 5 fields"):
        read_da_segment_scores(data, name="de-en.csv")
