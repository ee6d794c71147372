"""MTME-layout files with a DOMAIN column, generated in the published layouts:

* NRC's MSLC23 metric files in MTME's folder layout (nrc-cnrc/MSLC, 2023/README.md):
  ``metric-scores/SRC-TRG/METRICNAME-REF.seg.score``, tab-separated ``DOMAIN SYSNAME SCORE``,
  for each SYSNAME the lines in the order of ``documents/SRC-TRG.docs``;
* MTME's own domain-level files (google-research/mt-metrics-eval data.py,
  ``ReadDomainScoreFile``): ``LP.NAME.domain.score`` / ``METRIC-REF.domain.score``, lines
  ``DOMAIN SYSNAME SCORE`` split on whitespace, ``None`` a missing score.

Values are checked against numpy/scipy on the same numbers with the DOMAIN column dropped.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.stats

from stats import DegenerateInputWarning, StatsInputError
from stats.cli import main
from stats.readers.meta import read_meta_eval

LP = "en-de"
SYSTEMS = ("00054", "00079", "00091", "400k-00004")
DOMAINS = ["news"] * 6 + ["social"] * 5 + ["speech"] * 4


def scores(seed=1):
    rng = np.random.default_rng(seed)
    gold = rng.normal(0, 1, (len(SYSTEMS), len(DOMAINS))).round(3)
    metrics = {
        "chrF-refA": gold + rng.normal(0, 0.8, gold.shape),
        "MetricX-23-QE-src": (gold + rng.normal(0, 1.2, gold.shape)).round(1),  # ties
    }
    return gold, metrics


def write(root, gold, metrics, *, domain_column=True, domain_level=True):
    (root / "human-scores").mkdir(parents=True)
    (root / "metric-scores" / LP).mkdir(parents=True)
    g = [f"{s}\t{float(gold[i, j])!r}" for i, s in enumerate(SYSTEMS) for j in range(gold.shape[1])]
    (root / "human-scores" / f"{LP}.mqm.seg.score").write_text("\n".join(g) + "\n")
    for name, m in metrics.items():
        rows = [
            (f"{DOMAINS[j]}\t" if domain_column else "") + f"{s}\t{float(m[i, j])!r}"
            for i, s in enumerate(SYSTEMS) for j in range(m.shape[1])
        ]
        (root / "metric-scores" / LP / f"{name}.seg.score").write_text("\n".join(rows) + "\n")
    if domain_level:
        def per_domain(x):
            # exp of the domain's mean: not what the means of the segments would give
            return [f"{d} {s} " + repr(float(np.exp(np.mean(
                        x[i, [k for k, e in enumerate(DOMAINS) if e == d]]))))
                    for d in sorted(set(DOMAINS)) for i, s in enumerate(SYSTEMS)]
        (root / "human-scores" / f"{LP}.mqm.domain.score").write_text(
            "\n".join(per_domain(gold)) + "\n")
        for name, m in metrics.items():
            (root / "metric-scores" / LP / f"{name}.domain.score").write_text(
                "\n".join(per_domain(m)) + "\n")
    return root


def run(capsys, *argv):
    code = main(["meta-eval", *map(str, argv)])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_three_field_segment_files_read_as_mtme_reads_them(tmp_path, capsys):
    gold, metrics = scores()
    with_domain = write(tmp_path / "mslc", gold, metrics)
    plain = write(tmp_path / "plain", gold, metrics, domain_column=False, domain_level=False)
    data = read_meta_eval(with_domain)
    assert data.domains(LP) == tuple(DOMAINS)
    assert "DOMAIN column" in data.read_as and "news, social, speech" in data.read_as
    assert "3 domain-level file(s)" in data.read_as
    for correlation in ("pearson", "kendall"):
        code, out, err = run(capsys, "--data", with_domain, "--level", "seg", "--correlation",
                             correlation)
        assert code == 0, err
        a = json.loads(out)["language_pairs"][0]["correlation"]
        code, out, _ = run(capsys, "--data", plain, "--level", "seg", "--correlation",
                           correlation)
        b = json.loads(out)["language_pairs"][0]["correlation"]
        assert a == b
        for name, m in metrics.items():  # scipy over all cells, system by system
            f = scipy.stats.pearsonr if correlation == "pearson" else scipy.stats.kendalltau
            assert a[name] == pytest.approx(f(m.ravel(), gold.ravel())[0], abs=1e-12)


@pytest.mark.parametrize("domain", ["social", "speech"])
def test_by_domain_segment_and_system_level(tmp_path, capsys, domain):
    gold, metrics = scores(2)
    root = write(tmp_path / "mslc", gold, metrics)
    cols = [k for k, d in enumerate(DOMAINS) if d == domain]
    code, out, err = run(capsys, "--data", root, "--level", "seg", "--correlation", "pearson",
                         "--domain", domain)
    assert code == 0, err
    block = json.loads(out)["language_pairs"][0]
    assert block["n_items"] == len(cols)
    for name, m in metrics.items():
        want = scipy.stats.pearsonr(m[:, cols].ravel(), gold[:, cols].ravel())[0]
        assert block["correlation"][name] == pytest.approx(want, abs=1e-12)
    # system level: the *.domain.score files' scores of that domain (MTME's domain level)
    code, out, err = run(capsys, "--data", root, "--level", "sys", "--correlation", "pearson",
                         "--domain", domain)
    assert code == 0, err
    block = json.loads(out)["language_pairs"][0]
    for name, m in metrics.items():
        want = scipy.stats.pearsonr(np.exp(m[:, cols].mean(axis=1)),
                                    np.exp(gold[:, cols].mean(axis=1)))[0]
        assert block["correlation"][name] == pytest.approx(want, abs=1e-9)


def test_domain_errors_are_one_line(tmp_path, capsys):
    gold, metrics = scores(3)
    root = write(tmp_path / "mslc", gold, metrics)
    code, _, err = run(capsys, "--data", root, "--level", "seg", "--correlation", "pearson",
                       "--domain", "sport")
    assert code == 2 and err.count("\n") == 1 and "news, social, speech" in err
    plain = write(tmp_path / "plain", gold, metrics, domain_column=False, domain_level=False)
    code, _, err = run(capsys, "--data", plain, "--level", "seg", "--correlation", "pearson",
                       "--domain", "news")
    assert code == 2 and err.count("\n") == 1 and "DOMAIN column" in err
    # two systems giving a segment different domains
    f = root / "metric-scores" / LP / "chrF-refA.seg.score"
    lines = f.read_text().splitlines()
    lines[len(DOMAINS) + 2] = lines[len(DOMAINS) + 2].replace("news", "social", 1)
    f.write_text("\n".join(lines) + "\n")
    with pytest.raises(StatsInputError, match="segment 3 domain 'social'"):
        read_meta_eval(root)
    # a line of two fields among lines of three
    lines[len(DOMAINS) + 2] = lines[len(DOMAINS) + 2].split("\t", 1)[1]
    f.write_text("\n".join(lines) + "\n")
    with pytest.raises(StatsInputError, match=r"line 18: expected SYSTEM<TAB>SCORE, or DOMAIN"):
        read_meta_eval(root)


def test_none_in_domain_files_read_as_mtme_reads_it(tmp_path, capsys):
    # mt-metrics-eval data.py (commit 68a481a), ReadDomainScoreFile: 'None' -> None (missing);
    # CheckScores raises for None in a metric's scores, keeps it in human scores, and
    # GetCorrelations leaves out a system with no gold score left
    gold, metrics = scores(4)
    root = write(tmp_path / "mslc", gold, metrics)
    f = root / "human-scores" / f"{LP}.mqm.domain.score"
    lines = f.read_text().splitlines()
    hit = [k for k, ln in enumerate(lines) if ln.startswith(f"speech {SYSTEMS[1]} ")]
    lines[hit[0]] = f"speech {SYSTEMS[1]} None"
    f.write_text("\n".join(lines) + "\n")
    with pytest.warns(DegenerateInputWarning, match=rf"{LP}.mqm.domain.score: 1 human score\(s\) "
                      rf"None \(line\(s\) {hit[0] + 1}\): read as missing, as MTME"):
        read_meta_eval(root)
    code, out, err = run(capsys, "--data", root, "--level", "sys", "--correlation", "pearson",
                         "--domain", "speech")
    assert code == 0, err
    assert f"line(s) {hit[0] + 1}" in err and f"{SYSTEMS[1]}" in err  # both notes printed
    block = json.loads(out)["language_pairs"][0]
    cols = [k for k, d in enumerate(DOMAINS) if d == "speech"]
    keep = [0, 2, 3]
    for name, m in metrics.items():
        want = scipy.stats.pearsonr(np.exp(m[keep][:, cols].mean(axis=1)),
                                    np.exp(gold[keep][:, cols].mean(axis=1)))[0]
        assert block["correlation"][name] == pytest.approx(want, abs=1e-9)
    # None in a metric's domain file: refused, as MTME's CheckScores
    m = root / "metric-scores" / LP / "chrF-refA.domain.score"
    mlines = m.read_text().splitlines()
    mlines[2] = mlines[2].rsplit(" ", 1)[0] + " None"
    m.write_text("\n".join(mlines) + "\n")
    with pytest.raises(StatsInputError, match="chrF-refA.domain.score, line 3: metric score is "
                       "missing"), pytest.warns(DegenerateInputWarning):  # the human file's
        read_meta_eval(root)


def test_by_domain_over_two_systems_is_undefined_and_says_why(tmp_path, capsys):
    # system level in one domain, two systems left: a correlation of 2 items is always +-1,
    # so it is undefined (null), named with the language pair and why
    gold, metrics = scores(5)
    root = write(tmp_path / "mslc", gold, metrics)
    code, out, err = run(capsys, "--data", root, "--level", "sys", "--correlation", "pearson",
                         "--domain", "news", "--exclude-systems", *SYSTEMS[2:])
    assert code == 0, err
    block = json.loads(out)["language_pairs"][0]
    assert all(v is None for v in block["correlation"].values())
    assert (f"{LP}: pearson: the system scores (2 systems with a gold score): fewer than 3 "
            "items, so the correlation is undefined") in err
    # by item over the same two systems: every item is a group of 2
    code, out, err = run(capsys, "--data", root, "--level", "seg", "--grouping", "item",
                         "--correlation", "kendall", "--domain", "news",
                         "--exclude-systems", *SYSTEMS[2:])
    assert code == 0, err
    block = json.loads(out)["language_pairs"][0]
    assert all(v is None for v in block["correlation"].values())
    assert "6 of 6 groups by item" in err
