"""WMT24-style human rankings (stats.human.paired) and the readers of today's human evaluation
files (Appraise ESA/DA+SQM exports, MQM error spans, the documents file).

Golden values: scipy.stats.wilcoxon and scipy.stats.norm on hand-made paired data, and a plain
second formulation of the whole procedure (written from the WMT24 findings' description and
the issue's definitions, with loops and dicts) on generated files.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from stats import StatsInputError
from stats.human.paired import paired_ranking, rank_ranges, stouffer
from stats.pairwise.clusters import separated_clusters
from stats.readers.appraise import is_appraise_export, read_appraise
from stats.readers.documents import attach_domains, read_documents
from stats.readers.mqm import is_mqm_file, read_mqm

_GEN = Path(__file__).resolve().parents[2] / "sample_data" / "make_wmt_human_sample.py"
_spec = importlib.util.spec_from_file_location("make_wmt_human_sample", _GEN)
make = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make)

SYSTEMS = {"A": 0.8, "B": 0.7, "C": 0.68, "D": 0.5, "E": 0.45}


@pytest.fixture(scope="module")
def files():
    # about 30 segments per domain: every pair shares more than 13 items, so scipy's default
    # method is exact or asymptotic (its permutation path for <= 13 tied items takes seconds)
    return make.generate(7, systems=SYSTEMS, n_segments=100, n_domains=3, n_users=4)


# ---------------------------------------------------------------------------------------------
# the plain second formulation
# ---------------------------------------------------------------------------------------------


def plain_appraise_items(text: str, docs: str) -> dict:
    """{system: {(domain, document, segment): mean score}} as WMT's scripts filter."""
    domain_of = [line.split("\t")[0] for line in docs.splitlines()]
    kept: dict = {}
    for pos, row in enumerate(csv.reader(io.StringIO(text))):
        user, system, seg, kind, _src, _tgt, score, doc = row[:8]
        low = doc.lower()
        if kind != "TGT" or "tutorial" in low or "#incomplete" in low or "#dup" in low:
            continue
        key = (system, doc, seg, user)
        rank = (float(row[-1]), pos)
        if key not in kept or rank > kept[key][0]:
            kept[key] = (rank, float(score))
    ratings: dict = {}
    for (system, doc, seg, _user), (_r, score) in kept.items():
        item = (domain_of[int(seg)], doc, seg)
        ratings.setdefault(system, {}).setdefault(item, []).append(score)
    return {s: {i: sum(v) / len(v) for i, v in items.items()} for s, items in ratings.items()}


# mt-metrics-eval's converters/score_mqm.py, its --weights default (google-research/
# mt-metrics-eval): "Major:5 Minor:1 Neutral:0 Major/Non-translation!:25
# Minor/Fluency/Punctuation:0.1"; the most specific severity/category match, else 0
SCORE_MQM_WEIGHTS = {"major": 5.0, "minor": 1.0, "neutral": 0.0,
                     "major/non-translation!": 25.0, "minor/fluency/punctuation": 0.1}  # fmt: skip


def plain_weight(category: str, severity: str) -> float:
    items = [severity.lower(), *category.lower().split("/")]
    while items:
        if "/".join(items) in SCORE_MQM_WEIGHTS:
            return SCORE_MQM_WEIGHTS["/".join(items)]
        items = items[:-1]
    return 0.0


def plain_mqm_items(text: str, docs: str) -> dict:
    domain_of = [line.split("\t")[0] for line in docs.splitlines()]
    per_rater: dict = {}
    for line in text.splitlines()[1:]:
        system, doc, _doc_id, seg, rater, _src, _tgt, category, severity = line.split("\t")
        key = (system, (domain_of[int(seg)], doc, seg), rater)
        per_rater[key] = per_rater.get(key, 0.0) - plain_weight(category, severity)
    ratings: dict = {}
    for (system, item, _rater), score in per_rater.items():
        ratings.setdefault(system, {}).setdefault(item, []).append(score)
    return {s: {i: sum(v) / len(v) for i, v in items.items()} for s, items in ratings.items()}


def plain_ranking(items: dict, alpha: float = 0.05, average: str = "macro") -> dict:
    def score(s):
        if average == "micro":
            return sum(items[s].values()) / len(items[s])
        doms = sorted({i[0] for i in items[s]})
        means = []
        for d in doms:
            v = [x for i, x in items[s].items() if i[0] == d]
            means.append(sum(v) / len(v))
        return sum(means) / len(means)

    scores = {s: score(s) for s in items}
    order = sorted(scores, key=lambda s: -scores[s])
    p = {}
    for a in order:
        for b in order:
            if a == b:
                continue
            zs = []
            for d in sorted({i[0] for i in items[a]} | {i[0] for i in items[b]}):
                shared = sorted(i for i in items[a] if i[0] == d and i in items[b])
                if not shared:
                    continue
                x = [items[a][i] for i in shared]
                y = [items[b][i] for i in shared]
                pd_ = sps.wilcoxon(x, y).pvalue  # scipy's default: two-sided
                zs.append(sps.norm.ppf(1 - pd_))
            z = sum(zs) / math.sqrt(len(zs))
            p[a, b] = 1 - sps.norm.cdf(z)
    n = len(order)
    ranges = {}
    for a in order:
        beaten_by = sum(1 for b in order if b != a and p[b, a] < alpha and scores[b] > scores[a])
        beats = sum(1 for b in order if b != a and p[a, b] < alpha and scores[a] > scores[b])
        ranges[a] = (1 + beaten_by, n - beats)
    clusters, current = [], [order[0]]
    for i in range(1, n):
        if all(p[u, v] <= alpha for u in order[:i] for v in order[i:]):
            clusters.append(current)
            current = []
        current.append(order[i])
    clusters.append(current)
    return {"order": order, "scores": scores, "p": p, "ranges": ranges, "clusters": clusters}


def check_equal(res, plain):
    assert list(res.systems) == plain["order"]
    for s in res.systems:
        assert res.score[s] == pytest.approx(plain["scores"][s], abs=1e-12)
        assert tuple(res.rank_range.loc[s]) == plain["ranges"][s]
    for (a, b), p in plain["p"].items():
        assert res.pvalue.loc[a, b] == pytest.approx(p, abs=1e-12), (a, b)
    assert [list(c) for c in res.clusters] == plain["clusters"]


# ---------------------------------------------------------------------------------------------
# golden values
# ---------------------------------------------------------------------------------------------


def test_appraise_by_domain_equals_plain_formulation(files):
    ratings = read_appraise(files["en-de.esa.csv"].encode(), name="en-de.esa.csv")
    assert ratings.protocol == "ESA"
    assert ratings.dropped["quality-control items (type not TGT)"] > 0
    assert ratings.dropped["tutorial rows"] == 4
    assert ratings.dropped["repeated judgements (kept the last)"] > 0
    docs = read_documents(files["en-de.docs"].encode(), name="en-de.docs")
    rated = attach_domains(ratings, [docs])
    res = paired_ranking(rated.frame, lp="eng-deu")
    plain = plain_ranking(plain_appraise_items(files["en-de.esa.csv"], files["en-de.docs"]))
    check_equal(res, plain)
    assert len(res.domains) == 3
    assert len(res.clusters) > 1  # the data separate some systems


def test_mqm_by_domain_equals_plain_formulation(files):
    ratings = read_mqm(files["en-de.mqm.tsv"].encode(), name="en-de.mqm.tsv")
    assert ratings.protocol == "MQM" and ratings.language_pairs == ("en-de",)
    docs = read_documents(files["en-de.docs"].encode(), name="en-de.docs")
    res = paired_ranking(attach_domains(ratings, [docs]).frame, lp="en-de", average="micro")
    plain = plain_ranking(
        plain_mqm_items(files["en-de.mqm.tsv"], files["en-de.docs"]), average="micro"
    )
    check_equal(res, plain)


def test_signed_rank_and_stouffer_golden_scipy():
    # hand-made: two domains, three systems; expected from scipy.stats.wilcoxon and norm (no
    # tied |differences|: scipy's exact method, not its slow permutation path)
    a1, b1, c1 = [5, 7, 9, 4, 8, 6], [4, 7.5, 6.2, 3.4, 5.9, 6.9], [1.2, 2.2, 3.3, 2.4, 4.5, 1.7]
    a2, b2, c2 = [60, 62, 58, 70, 65], [58.7, 61.3, 60, 64, 55], [50, 51, 52, 49, 60]
    rows = []
    for dom, vals in (("news", (a1, b1, c1)), ("chat", (a2, b2, c2))):
        for s, v in zip("ABC", vals, strict=True):
            for k, x in enumerate(v):
                rows.append({"system": s, "domain": dom, "document": f"{dom}1",
                             "segment": str(k), "score": float(x)})  # fmt: skip
    frame = pd.DataFrame(rows)
    res = paired_ranking(frame)
    for x1, y1, x2, y2, pair in ((a1, b1, a2, b2, "AB"), (a1, c1, a2, c2, "AC")):
        p1, p2 = sps.wilcoxon(x1, y1).pvalue, sps.wilcoxon(x2, y2).pvalue
        z = (sps.norm.ppf(1 - p1) + sps.norm.ppf(1 - p2)) / math.sqrt(2)
        assert res.pvalue.loc[pair[0], pair[1]] == pytest.approx(1 - sps.norm.cdf(z), abs=1e-15)
        assert res.domain_pvalue["news"].loc[pair[0], pair[1]] == pytest.approx(p1, abs=1e-15)
    # without domains: one test on all shared items
    one = paired_ranking(frame, by_domain=False)
    assert one.pvalue.loc["A", "B"] == pytest.approx(
        sps.wilcoxon(a1 + a2, b1 + b2).pvalue, abs=1e-15
    )
    # macro: mean of the domain means
    assert res.score["A"] == pytest.approx((np.mean(a1) + np.mean(a2)) / 2, abs=1e-12)
    assert stouffer(np.array([0.3]))[()] == pytest.approx(0.3, abs=1e-12)


def test_rank_ranges_and_clusters_by_hand():
    p = np.array([[np.nan, 0.2, 0.01], [0.2, np.nan, 0.03], [0.01, 0.03, np.nan]])
    ranges = rank_ranges(p, np.array([3.0, 2.0, 1.0]), alpha=0.05)
    assert ranges.tolist() == [[1, 2], [1, 2], [3, 3]]
    grid = pd.DataFrame(p, index=list("ABC"), columns=list("ABC"))
    assert separated_clusters(grid, alpha=0.05, inclusive=True) == (("A", "B"), ("C",))
    # p <= alpha draws the line (inclusive, WMT24's get_clusters); p < alpha does not
    assert separated_clusters(grid, alpha=0.03, inclusive=True) == (("A", "B"), ("C",))
    assert separated_clusters(grid, alpha=0.03) == (("A", "B", "C"),)


def test_rank_sum_and_holm_stay(files):
    ratings = read_appraise(files["en-de.esa.csv"].encode(), name="x.csv")
    res = paired_ranking(ratings.frame, test="rank-sum", correction="holm")
    raw = paired_ranking(ratings.frame, test="rank-sum")
    assert (res.pvalue.fillna(0).to_numpy() >= raw.pvalue.fillna(0).to_numpy() - 1e-15).all()
    assert res.domains == ("all",) and "rank-sum" in res.describe()


# ---------------------------------------------------------------------------------------------
# readers: detection and one clear line on bad input
# ---------------------------------------------------------------------------------------------


def test_detection(files):
    assert is_appraise_export(files["en-de.esa.csv"])
    assert not is_appraise_export(files["en-de.mqm.tsv"])
    assert is_mqm_file(files["en-de.mqm.tsv"])
    assert not is_mqm_file(files["en-de.esa.csv"])


def test_document_mismatch_is_one_clear_error(files):
    ratings = read_appraise(files["en-de.esa.csv"].encode(), name="esa.csv")
    lines = files["en-de.docs"].splitlines()
    lines[5] = lines[5].split("\t")[0] + "\tsome_other_doc"
    docs = read_documents("\n".join(lines).encode(), name="en-de.docs")
    with pytest.raises(StatsInputError, match=r"segment 5 is in document .* in 'some_other_doc'"):
        attach_domains(ratings, [docs])
    short = read_documents("\n".join(lines[:10]).encode(), name="en-de.docs")
    with pytest.raises(StatsInputError, match="is not a line of en-de.docs"):
        attach_domains(ratings, [short])


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("u1,sysA,3,TGT,eng\n", "line 1: 5 field"),
        ("u1,sysA,3,TGT,eng,deu,abc,doc1\n", "line 1, field 7 .score.: 'abc'"),
        ("u1,,3,TGT,eng,deu,50,doc1\n", "line 1: empty system"),
        ("u1,sysA,3,BAD,eng,deu,50,doc1\n", "no judgements left"),
    ],
)
def test_appraise_bad_input(text, match):
    with pytest.raises(StatsInputError, match=match):
        read_appraise(text.encode(), name="a.csv")


def test_mqm_bad_input():
    head = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
    # score_mqm.py scores a severity its weights do not list 0: so do we, with a note
    odd = read_mqm((head + "s\td\t1\t1\tr\tx\ty\tAccuracy\tHuge\n").encode(), name="m.tsv")
    assert odd.frame["score"].tolist() == [0.0]
    assert "'Huge' (1 rows)" in odd.notes[0] and "as score_mqm does" in odd.notes[0]
    with pytest.raises(StatsInputError, match=r"line 2, column severity: 'Huge' is not a sev"):
        read_mqm((head + "s\td\t1\t1\tr\tx\ty\tAccuracy\tHuge\n").encode(), name="m.tsv",
                 weights="wmt24")  # fmt: skip
    with pytest.raises(StatsInputError, match="line 2: 3 field"):
        read_mqm((head + "s\td\t1\n").encode(), name="m.tsv")
    with pytest.raises(StatsInputError, match="lacks rater"):
        read_mqm(b"system\tdoc\tseg_id\tcategory\tseverity\n", name="m.tsv")


def test_documents_bad_input():
    with pytest.raises(StatsInputError, match="line 1: expected DOMAIN<TAB>DOCUMENT"):
        read_documents(b"canary\tx\nnews only\n", name="en-de.docs")


def test_da_sqm_export_without_spans_and_language_codes():
    text = (
        "u1,sysA,1,TGT,eng,jpn,70,doc1,False,[],1,2\n"
        "u1,sysB,1,TGT,eng,jpn,60,doc1,False,[],3,4\n"
        "u2,sysA,1,TGT,eng,xyz_Latn,10,doc1,False,[],5,6\n"
    )
    ratings = read_appraise(text.encode(), name="dasqm.csv")
    assert ratings.protocol == "DA+SQM"
    assert ratings.language_pairs == ("en-ja", "en-xyz_Latn")  # unknown codes kept


def test_mqm_domain_column_and_documents_by_language_pair(files):
    lines = files["en-de.mqm.tsv"].splitlines()
    domain_of = [line.split("\t")[0] for line in files["en-de.docs"].splitlines()]
    with_domain = [lines[0] + "\tdomain"] + [
        f"{line}\t{domain_of[int(line.split(chr(9))[3])]}" for line in lines[1:]
    ]
    by_column = read_mqm("\n".join(with_domain).encode(), name="x.en-de.tsv")
    assert by_column.has_domains
    docs = read_documents(files["en-de.docs"].encode(), name="en-de.docs")
    other = read_documents(b"canary\tx\nnews\tother\n", name="en-ja.docs")
    by_file = attach_domains(read_mqm(files["en-de.mqm.tsv"].encode(), name="m.en-de.tsv"),
                             [other, docs])  # fmt: skip
    a = paired_ranking(by_column.frame)
    b = paired_ranking(by_file.frame)
    assert a.systems == b.systems and a.domains == b.domains
    np.testing.assert_allclose(a.pvalue.to_numpy(), b.pvalue.to_numpy(), rtol=0, atol=1e-15)
    with pytest.raises(StatsInputError, match="no documents file for en-de"):
        attach_domains(read_mqm(files["en-de.mqm.tsv"].encode(), name="m.en-de.tsv"), [other])


def test_appraise_header_line_is_skipped(files):
    text = files["en-de.esa.csv"]
    header = "userID,systemID,itemID,itemType,sourceLang,targetLang,score,documentID,x,spans,s,e\n"
    assert is_appraise_export(header + text)
    plain = read_appraise(text.encode(), name="a.csv")
    with_header = read_appraise((header + text).encode(), name="a.csv")
    pd.testing.assert_frame_equal(
        plain.frame.drop(columns="_line"), with_header.frame.drop(columns="_line")
    )
    assert (with_header.frame["_line"].to_numpy() == plain.frame["_line"].to_numpy() + 1).all()


def test_signed_rank_rows_equal_one_scipy_call_per_row():
    # rows of several sizes, with and without zeros and tied magnitudes (scipy's exact,
    # permutation and asymptotic methods), NaN = not a shared item
    from stats.human.paired import signed_rank_rows

    rng = np.random.default_rng(5)
    rows = []
    for n in (0, 1, 5, 9, 20, 60):
        for kind in ("distinct", "ties", "zeros"):
            if kind == "distinct":
                v = rng.normal(0.3, 1, n)
            elif kind == "ties":
                v = rng.integers(-3, 4, n).astype(float) + 0.5
            else:
                v = rng.integers(-2, 3, n).astype(float)
            rows.append(np.concatenate([v, np.full(60 - n, np.nan)]))
    diff = np.array(rows)
    rng.shuffle(diff, axis=1)  # NaN scattered among the values
    got = signed_rank_rows(diff)
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns about the 1-value and all-zero rows
        want = [
            sps.wilcoxon(r[~np.isnan(r)]).pvalue if (~np.isnan(r)).any() else np.nan for r in diff
        ]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-15, equal_nan=True)
