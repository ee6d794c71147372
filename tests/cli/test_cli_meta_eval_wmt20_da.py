"""WMT17-21 segment-level results from the published files: the organisers' DA
segment files read as published (``metrics-ad-seg-scores-xx-yy.csv``: ``SYS SEGID RAW.SCR
Z.SCR N SID``, SEGID ``DOCID::SEGID``) beside WMT metric files (``METRIC LP TESTSET REFSET
SYSTEM DOCID SEGID SCORE``), and WMT20's Kendall tau-like from them pinned against a plain
second implementation of the organisers' pair rule.

The pair rule, as WMT-Metrics-task/wmt20-metrics runs it (manual-evaluation/DA2RR/
seglevel-ken-rr.py, then results/combine-scores-seg-RR.py): per SEGID, systems whose names
start with ``Human`` skipped, every two systems with a DA score form a pair, kept when their
raw scores differ by 25 or more; the higher raw score is "better"; a metric is concordant on
a pair when it scores the better one strictly higher, discordant otherwise (ties included);
tau = (Conc - Disc) / (Conc + Disc), printed with Conc + Disc. All files here are generated.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from stats.cli import main

LP = "de-en"
TESTSET = "newstest2020"
DOCS = {"pnp.de.342686": 5, "dw.de.1201": 4, "faz.9917": 6}
SYSTEMS = ("OPPO.1360", "Online-B.1587", "yolo.1052", "UEDIN.1066", "Human-B.0")


def write_files(tmp_path, seed: int = 3):
    """A metrics-ad DA file (not every cell rated; raw scores on the 0-100 scale with ties
    and differences of exactly 25) and two metrics' segment files (one with ties)."""
    rng = np.random.default_rng(seed)
    segs = [(d, k) for d, n in DOCS.items() for k in range(1, n + 1)]
    da = ["SYS SEGID RAW.SCR Z.SCR N SID"]
    sid = 0
    for system in SYSTEMS:
        for i, (doc, k) in enumerate(segs):
            sid = i + 571
            if rng.random() < 0.2:
                continue  # not every translation was rated
            raw = float(rng.choice([0, 25, 50, 60, 75, 85, 100, 37.5, 62.5]))
            z = (raw - 60) / 20 + float(rng.normal(0, 0.1))
            da.append(f"{system} {doc}::{k} {raw!r} {z!r} {int(rng.integers(1, 3))} {sid}")
    da_path = tmp_path / f"metrics-ad-seg-scores-{LP}.csv"
    da_path.write_text("\n".join(da) + "\n")
    paths = [da_path]
    for metric, digits in (("chrF", 6), ("BLEU", 1)):
        rows = []
        for system in SYSTEMS:
            for doc, k in segs:
                v = round(float(rng.normal(0.5, 0.2)), digits)
                rows.append(f"{metric}\t{LP}\t{TESTSET}\t{TESTSET}\t{system}\t{doc}\t{k}\t{v!r}")
        p = tmp_path / f"{metric}.seg.score"
        p.write_text("\n".join(rows) + "\n")
        paths.append(p)
    return paths


def organisers_tau(da_path, metric_path, threshold=25.0):
    """A plain second implementation of the WMT20 organisers' two scripts (see the module
    notes): (tau, Conc + Disc)."""
    scores: dict = {}
    for line in da_path.read_text().splitlines()[1:]:
        c = line.split()
        if c[0].startswith("Human"):
            continue
        scores.setdefault(c[1], {}).setdefault(c[0], float(c[2]))
    pairs = []
    for sid, by_system in scores.items():
        for s1 in by_system:
            for s2 in by_system:
                if s1 > s2:
                    r1, r2 = by_system[s1], by_system[s2]
                    better, worse = (s1, s2) if r1 > r2 else (s2, s1)
                    if abs(r1 - r2) >= threshold:
                        pairs.append((sid, better, worse))
    metric: dict = {}
    for line in metric_path.read_text().splitlines():
        c = line.split()
        metric.setdefault(c[5] + "::" + c[6], {}).setdefault(c[4], float(c[7]))
    conc = sum(metric[sid][b] > metric[sid][w] for sid, b, w in pairs)
    disc = len(pairs) - conc
    return (conc - disc) / (conc + disc), conc + disc


def run(capsys, *argv):
    code = main(["meta-eval", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize("seed", [3, 11])
def test_kendall_like_equals_the_organisers_pair_rule(tmp_path, capsys, seed):
    da, chrf, bleu = write_files(tmp_path, seed)
    code, out, err = run(capsys, "--data", chrf, bleu, da, "--gold", "da-raw", "--level", "seg",
                         "--correlation", "kendall-like", "--grouping", "item")
    assert code == 0, err
    (block,) = json.loads(out)["language_pairs"]
    assert block["lp"] == LP and block["gold"] == "da-raw"
    for name, path in (("chrF-newstest2020", chrf), ("BLEU-newstest2020", bleu)):
        tau, n_pairs = organisers_tau(da, path)
        assert block["correlation"][name] == pytest.approx(tau, abs=1e-12)
        assert block["pairs"][name] == n_pairs
    # the human translation is left out, as the organisers' script skips it, and the note
    # names the option that keeps it
    assert "Human-B.0" in err and "--include-human" in err
    assert "read as WMT DA segment scores" in err and "DOCID:SEGID" in err
    # TSV prints the organisers' pair counts beside each tau
    code, out, _ = run(capsys, "--data", chrf, bleu, da, "--gold", "da-raw", "--level", "seg",
                       "--correlation", "kendall-like", "--grouping", "item", "--format", "tsv")
    head = out.splitlines()[1].split("\t")
    assert code == 0 and "pairs" in head and "concordant" in head


def test_threshold_counts_a_difference_of_exactly_25(tmp_path, capsys):
    da = tmp_path / f"metrics-ad-seg-scores-{LP}.csv"
    da.write_text("SYS SEGID RAW.SCR Z.SCR N SID\nA.1 d::1 75 0.5 1 1\nB.2 d::1 50 0.1 1 1\n"
                  "C.3 d::1 74.5 0.4 2 1\nA.1 d::2 10 0 1 2\nB.2 d::2 90 1 1 2\n")
    metric = tmp_path / "M.seg.score"
    metric.write_text("".join(f"M\t{LP}\tt\tt\t{s}\td\t{k}\t{v}\n" for s, k, v in (
        ("A.1", 1, 0.2), ("B.2", 1, 0.2), ("C.3", 1, 0.9), ("A.1", 2, 0.1), ("B.2", 2, 0.3), ("C.3", 2, 0.5))))
    code, out, err = run(capsys, "--data", da, metric, "--gold", "da-raw", "--level", "seg",
                         "--correlation", "kendall-like", "--grouping", "item")
    assert code == 0, err
    (block,) = json.loads(out)["language_pairs"]
    # pairs: (d:1 A>B, 25: a metric tie -> discordant), (d:1 C>B, 24.5: not counted),
    # (d:2 B>A, 80: concordant) -> (1 - 1) / 2
    assert block["pairs"]["M-t"] == 2 and block["concordant"]["M-t"] == 1
    assert block["correlation"]["M-t"] == 0.0


def test_gold_types_and_keys_are_announced_and_refused_when_they_cannot_meet(tmp_path, capsys):
    da, chrf, _ = write_files(tmp_path)
    code, _, err = run(capsys, "--data", da, chrf, "--level", "seg", "--correlation", "pearson")
    assert code == 2 and err.count("\n") == 1
    assert "da-raw" in err and "da-z" in err and "--gold" in err
    # the news task's file numbers segments by SID: it cannot meet DOCID:SEGID items
    news = tmp_path / "sid" / f"ad-seg-scores-{LP}.csv"
    news.parent.mkdir()
    news.write_text("SYS SID RAW.SCR Z.SCR N\nOPPO.1360 571 100 1.78 1\nyolo.1052 571 40 -1 1\n")
    code, _, err = run(capsys, "--data", chrf, news, "--gold", "da-z", "--level", "seg",
                       "--correlation", "pearson")
    assert code == 2 and err.count("\n") == 1
    assert "metrics-ad-seg-scores" in err and "DOCID:SEGID" in err
    # no language pair in the name
    nameless = tmp_path / "scores.csv"
    nameless.write_text(da.read_text())
    code, _, err = run(capsys, "--data", chrf, nameless, "--gold", "da-z", "--level", "seg",
                       "--correlation", "pearson")
    assert code == 2 and "xx-yy" in err and err.count("\n") == 1


def test_z_scores_correlate_as_pearson_on_the_same_items(tmp_path, capsys):
    da, chrf, _ = write_files(tmp_path)
    code, out, err = run(capsys, "--data", da, chrf, "--gold", "da-z", "--level", "seg",
                         "--correlation", "pearson")
    assert code == 0, err
    value = json.loads(out)["language_pairs"][0]["correlation"]["chrF-newstest2020"]
    z = {}
    for line in da.read_text().splitlines()[1:]:
        c = line.split()
        if not c[0].startswith("Human"):
            z[(c[0], c[1].replace("::", ":"))] = float(c[3])
    m = {}
    for line in chrf.read_text().splitlines():
        c = line.split("\t")
        m[(c[4], f"{c[5]}:{c[6]}")] = float(c[7])
    keys = sorted(z)
    want = np.corrcoef([z[k] for k in keys], [m[k] for k in keys])[0, 1]  # numpy, all cells
    assert value == pytest.approx(want, abs=1e-12)


def darr_file(da_path, out, *, with_diff=True, threshold=25.0):
    """The organisers' DArr-seglevel.csv from a DA file, as DA2RR/seglevel-ken-rr.py writes it
    (header LP DATA SID BETTER WORSE; every pair with its |raw difference|), or, without the
    difference, the pairs already kept (as earlier years published them)."""
    scores: dict = {}
    for line in da_path.read_text().splitlines()[1:]:
        c = line.split()
        if c[0].startswith("Human"):
            continue
        scores.setdefault(c[1], {}).setdefault(c[0], float(c[2]))
    rows = ["LP DATA SID BETTER WORSE"]
    for sid, by_system in scores.items():
        for s1 in by_system:
            for s2 in by_system:
                if s1 > s2:
                    r1, r2 = by_system[s1], by_system[s2]
                    better, worse = (s1, s2) if r1 > r2 else (s2, s1)
                    if with_diff:
                        rows.append(f"{LP} {TESTSET} {sid} {better} {worse} {abs(r1 - r2)}")
                    elif abs(r1 - r2) >= threshold:
                        rows.append(f"{LP} {TESTSET} {sid} {better} {worse}")
    out.write_text("\n".join(rows) + "\n")
    return out


@pytest.mark.parametrize("with_diff", [True, False])
def test_published_relative_ranking_pairs_give_the_same_tau(tmp_path, capsys, with_diff):
    da, chrf, bleu = write_files(tmp_path, 5)
    darr = darr_file(da, tmp_path / "DArr-seglevel.csv", with_diff=with_diff)
    code, out, err = run(capsys, "--data", chrf, bleu, darr, "--gold", "da-rr", "--level", "seg",
                         "--correlation", "kendall-like")
    assert code == 0, err
    assert "read as WMT relative-ranking pairs" in err
    (block,) = json.loads(out)["language_pairs"]
    for name, path in (("chrF-newstest2020", chrf), ("BLEU-newstest2020", bleu)):
        tau, n_pairs = organisers_tau(da, path)
        assert block["correlation"][name] == pytest.approx(tau, abs=1e-12)
        assert block["pairs"][name] == n_pairs
    code, _, err = run(capsys, "--data", chrf, darr, "--gold", "da-rr", "--level", "seg",
                       "--correlation", "pearson")
    assert code == 2 and "kendall-like" in err and err.count("\n") == 1


@pytest.mark.parametrize("header", ["DATA SID BETTER WORSE", "LP SID BETTER WORSE"])
def test_wmt18_header_with_a_name_missing_is_read_by_position(tmp_path, capsys, header):
    # WMT18's RR-seglevel.csv names four of its five columns; the organisers' scripts skip the
    # header and split each row into LP DATA SID BETTER WORSE (WMT17's
    # final-metric-scores script: lines.pop(0); lp, data, sid, better, worse = l.split())
    da, chrf, _ = write_files(tmp_path, 6)
    full = darr_file(da, tmp_path / "DArr-seglevel.csv", with_diff=False)
    lines = full.read_text().splitlines()
    short = tmp_path / "RR-seglevel.csv"
    short.write_text("\n".join([header, *lines[1:]]) + "\n")
    outs = []
    for path in (full, short):
        code, out, err = run(capsys, "--data", chrf, path, "--gold", "da-rr", "--level", "seg",
                             "--correlation", "kendall-like")
        assert code == 0, err
        outs.append(json.loads(out)["language_pairs"][0])
    assert "the header names 4 of the 5 columns" in err and "read by position" in err
    assert outs[0]["correlation"] == outs[1]["correlation"]
    assert outs[0]["pairs"] == outs[1]["pairs"]
    bad = tmp_path / "bad-RR-seglevel.csv"
    bad.write_text("\n".join([header, *[" ".join(x.split()[1:]) for x in lines[1:]]]) + "\n")
    code, _, err = run(capsys, "--data", chrf, bad, "--gold", "da-rr", "--level", "seg",
                       "--correlation", "kendall-like")
    assert code == 2 and err.count("\n") == 1 and "the header names 4 columns" in err
