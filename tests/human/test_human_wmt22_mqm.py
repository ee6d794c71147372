"""Human files as the field publishes them: MQM scored as mt-metrics-eval's
score_mqm.py scores it (TED-like files with Source error and Non-translation rows, Marot
columns), WMT22 DA+SQM segment and document files (9 and 11 fields), published DA segment
files with submission ids in the system names."""

from __future__ import annotations

import json
import statistics
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest

from stats import StatsInputError
from stats.analyses import paired_rankings, read_human_ratings
from stats.cli import main
from stats.readers.appraise import read_appraise
from stats.readers.da_segments import read_da_segment_scores
from stats.readers.mqm import MTME_WEIGHTS, mqm_weight, parse_mqm_weights, read_mqm

# mt-metrics-eval converters/score_mqm.py, the --weights default (google-research/
# mt-metrics-eval): "Major:5 Minor:1 Neutral:0 Major/Non-translation!:25
# Minor/Fluency/Punctuation:0.1"
SCORE_MQM_DEFAULT = {"major": 5.0, "minor": 1.0, "neutral": 0.0,
                     "major/non-translation!": 25.0, "minor/fluency/punctuation": 0.1}  # fmt: skip


def score_mqm(severity: str, category: str, weights=SCORE_MQM_DEFAULT) -> float:
    """A plain second formulation of score_mqm.py's Score(): longest prefix, else 0."""
    items = [severity.lower(), *category.lower().split("/")]
    for k in range(len(items), 0, -1):
        if "/".join(items[:k]) in weights:
            return weights["/".join(items[:k])]
    return 0.0


HEAD = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
ERRORS = [  # (category, severity): TED-like, with what score_mqm weighs unlike a guess
    ("No-error", "no-error"),
    ("Accuracy/Mistranslation", "Major"),
    ("Accuracy/Mistranslation", "Minor"),
    ("Fluency/Punctuation", "Minor"),
    ("Fluency/Punctuation", "Major"),
    ("Non-translation!", "Major"),
    ("Non-translation!", "Minor"),
    ("Source error", "Major"),
    ("Source_error", "Minor"),
    ("Accuracy/Omission", "Critical"),
    ("Other", "HOTW-test"),
    ("Style/Awkward", "Neutral"),
]


def ted_like(seed: int = 7) -> list[tuple[str, ...]]:
    rng = np.random.default_rng(seed)
    rows = []
    for system in ("sysA", "sysB", "sysC"):
        for doc in range(3):
            for k in range(1, 5):
                seg = doc * 4 + k
                for rater in ("rater1", "rater2"):
                    for _ in range(int(rng.integers(1, 4))):
                        cat, sev = ERRORS[int(rng.integers(len(ERRORS)))]
                        rows.append((system, f"talk{doc}", str(k), str(seg), rater,
                                     'src "q"', "tgt", cat, sev))  # fmt: skip
    return rows


def write_mqm(path: Path, rows, head: str = HEAD) -> Path:
    path.write_text(head + "\n" + "\n".join("\t".join(r) for r in rows) + "\n")
    return path


def plain_segments(rows, weights=SCORE_MQM_DEFAULT) -> dict:
    """score_mqm.py's output: per (system, doc, doc_id), minus the mean over raters of the sum
    of weights."""
    per = defaultdict(lambda: defaultdict(float))
    for system, doc, doc_id, _seg, rater, _s, _t, cat, sev in rows:
        per[(system, doc, doc_id)][rater] += score_mqm(sev, cat, weights)
    return {k: -sum(v.values()) / len(v) for k, v in per.items()}


def test_weights_pinned_to_score_mqm():
    assert dict(MTME_WEIGHTS) == SCORE_MQM_DEFAULT
    sev = [s for _, s in ERRORS] + ["Minor", "MAJOR"]
    cat = [c for c, _ in ERRORS] + ["Fluency/Punctuation/Comma", "Non-translation"]
    got = mqm_weight(np.array(sev), np.array(cat)).tolist()
    assert got == [score_mqm(s, c) for s, c in zip(sev, cat, strict=True)]
    # Critical 0, Major Source error 5 whatever its spelling, HOTW-test 0, as score_mqm
    assert got[ERRORS.index(("Accuracy/Omission", "Critical"))] == 0.0
    assert got[ERRORS.index(("Source error", "Major"))] == 5.0
    assert got[ERRORS.index(("Source_error", "Minor"))] == 1.0
    assert got[-2:] == [0.1, 5.0]  # a subcategory below Punctuation; no '!' -> plain Major


def test_mqm_segment_scores_equal_score_mqm(tmp_path, capsys):
    rows = ted_like()
    path = write_mqm(tmp_path / "mqm_ted_zhen.tsv", rows)
    ratings = read_mqm(path)
    assert ratings.language_pairs == ("zh-en",)
    assert "((" not in ratings.describe() and "Critical" in ratings.describe()
    assert "HOTW-test" in ratings.notes[0]
    (res,) = paired_rankings([str(path)])
    want = plain_segments(rows)
    seg = res.segment_scores
    doc_id = {(r[0], r[1], r[3]): r[2] for r in rows}
    got = {
        (s, d, doc_id[(s, d, g)]): v
        for s, d, g, v in zip(seg["system"], seg["document"], seg["segment"], seg["score"],
                              strict=True)
    }  # fmt: skip
    assert got.keys() == want.keys()
    for k, v in want.items():
        assert got[k] == pytest.approx(v, abs=1e-12)
    doc = res.document_scores.set_index(["system", "document"])["score"]
    for (s, d), v in doc.items():
        mine = [x for (s2, d2, _), x in want.items() if (s2, d2) == (s, d)]
        assert v == pytest.approx(float(np.mean(mine)), abs=1e-12)
    # the CLI: JSON and --segments TSV, read_as on stderr
    out = tmp_path / "seg.tsv"
    assert main(["human", "--human", str(path), "--segments", str(out)]) == 0
    cap = capsys.readouterr()
    assert "read as MQM error spans" in cap.err and "zh-en from the file name" in cap.err
    (block,) = json.loads(cap.out)["language_pairs"]
    assert block["lp"] == "zh-en" and block["human_score"] == "raw"
    assert len(block["segments"]) == len(want) and block["documents"]
    lines = out.read_text().splitlines()
    assert lines[0].split("\t")[:4] == ["lp", "protocol", "human_score", "level"]
    assert sum(line.split("\t")[3] == "segment" for line in lines[1:]) == len(want)


def test_marot_columns_read_alike(tmp_path):
    rows = ted_like(3)
    plain = read_mqm(write_mqm(tmp_path / "mqm_generalMT2024_ende.tsv", rows))
    order = [1, 0, 3, 2, 4, 5, 6, 7, 8]  # doc, system, globalSegId, docSegId, ...
    head = "doc\tsystem\tglobalSegId\tdocSegId\trater\tsource\ttarget\tcategory\tseverity"
    marot = read_mqm(write_mqm(tmp_path / "marot_ende.tsv",
                               [tuple(r[i] for i in order) for r in rows], head))  # fmt: skip
    assert "Marot export" in marot.read_as and marot.language_pairs == ("en-de",)
    a = plain.frame.drop(columns="_line").sort_values(["system", "segment", "rater"])
    b = marot.frame.drop(columns="_line").sort_values(["system", "segment", "rater"])
    np.testing.assert_array_equal(a.to_numpy(), b.to_numpy())


def test_mqm_weights_syntax_and_wmt24_preset(tmp_path, capsys):
    rows = ted_like(5)
    path = write_mqm(tmp_path / "mqm_ted_ende.tsv", rows)
    spec = "Major:5;Minor:1;Major/Source error:0;Critical:10"
    weights = parse_mqm_weights(spec, sep=";")
    assert weights == {"major": 5.0, "minor": 1.0, "major/source error": 0.0, "critical": 10.0}
    (res,) = paired_rankings([str(path)], mqm_weights=weights)
    want = plain_segments(rows, weights)
    assert res.segment_scores["score"].sum() == pytest.approx(sum(want.values()), abs=1e-9)
    argv = ["human", "--human", str(path), "--mqm-weights", spec, "--mqm-weights-sep", ";"]
    assert main(argv) == 0
    assert "the weights major:5" in capsys.readouterr().err
    # wmt24: WMT24's tools.py refuses capitalised severities, as here (one line, exit 2)
    assert main(["human", "--human", str(path), "--mqm-weights", "wmt24"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "tools.py" in err
    low = [(*r[:7], r[7], r[8].lower() if r[8] != "no-error" else "No-error") for r in rows]
    low = [r for r in low if r[8] != "hotw-test"]
    lower = write_mqm(tmp_path / "mqm_wmt24_ende.tsv", low)
    (res24,) = paired_rankings([str(lower)], mqm_weights="wmt24")
    assert "tools.py" in res24.read_as[0]
    assert main(["human", "--human", str(path), "--mqm-weights", "Major=5"]) == 2
    assert "--mqm-weights: 'Major=5' is not severity" in capsys.readouterr().err


def test_mqm_z_per_rater_and_exclude(tmp_path, capsys):
    rows = ted_like(11)
    path = write_mqm(tmp_path / "mqm_ted_ende.tsv", rows)
    ratings = read_mqm(path).frame
    ratings = ratings[ratings["system"] != "sysC"]
    (res,) = paired_rankings([str(path)], score="z", exclude=["sysC"])
    assert res.score_kind == "z" and "sysC" not in res.systems
    assert "left out by choice: sysC" in res.notes
    # plain: each rater's item scores standardised with the sample SD (statistics.stdev)
    z = {}
    for rater, block in ratings.groupby("rater"):
        m, sd = statistics.mean(block["score"]), statistics.stdev(block["score"])
        for (_, row) in block.iterrows():
            z[(row["system"], row["segment"], rater)] = (row["score"] - m) / sd
    for system in res.systems:
        per_seg = defaultdict(list)
        for (s, seg, _), v in z.items():
            if s == system:
                per_seg[seg].append(v)
        want = np.mean([np.mean(v) for v in per_seg.values()])
        assert res.score[system] == pytest.approx(want, abs=1e-12)
    assert main(["human", "--human", str(path), "--human-score", "z", "--exclude", "sysC"]) == 0
    (block,) = json.loads(capsys.readouterr().out)["language_pairs"]
    assert block["human_score"] == "z" and "sysC" not in block["systems"]
    assert main(["human", "--human", str(path), "--exclude", "nosuch"]) == 2
    assert "no judgements of nosuch" in capsys.readouterr().err


# ---------------------------------------------------------------- WMT22 DA+SQM


def wmt22_seglvl(seed: int = 22) -> str:
    """WMT22.Appraise.SegLvlLiv*.csv: username,system,itemId,itemType,srcLang,trgLang,score,
    timeStart,timeEnd (no header, no document), system names as output file names."""
    rng = np.random.default_rng(seed)
    out, t = [], 1665744151.0
    for lp, (src, tgt, ext) in {"en-liv": ("eng", "liv", "liv"),
                                "liv-en": ("liv", "eng", "en")}.items():  # fmt: skip
        for u in range(4):
            for system, mu in (("NiuTrans", 40), ("TartuNLP", 55), ("Liv4ever", 50)):
                for seg in range(1, 21):
                    kind = "BAD" if rng.random() < 0.05 else "TGT"
                    score = int(np.clip(rng.normal(mu + 5 * u, 20), 0, 100))
                    out.append(f"{src}{tgt}0d0{u},generaltest2022.{lp}.hyp.{system}.{ext}.txt,"
                               f"{seg},{kind},{src},{tgt},{score},{t:.3f},{t + 9.5:.3f}")
                    t += 11
    # an annotator with one rating only: no SD, left out as make_rankings.py leaves it
    out.append(f"engliv0d09,generaltest2022.en-liv.hyp.NiuTrans.liv.txt,3,TGT,eng,liv,50,"
               f"{t:.3f},{t + 3:.3f}")  # fmt: skip
    return "\n".join(out) + "\n"


def plain_wmt22(text: str) -> dict:
    """WMT22 make_rankings.py's definitions, written plainly: TGT rows; z per (annotator,
    source, target) with the sample SD, annotators with SD 0/undefined out; segment means,
    then the system mean."""
    rows = [line.split(",") for line in text.splitlines()]
    rows = [r for r in rows if r[3] == "TGT"]
    by_ann = defaultdict(list)
    for r in rows:
        by_ann[(r[0], r[4], r[5])].append(float(r[6]))
    seg = defaultdict(list)
    for r in rows:
        vals = by_ann[(r[0], r[4], r[5])]
        if len(vals) < 2 or statistics.stdev(vals) == 0:
            continue
        z = (float(r[6]) - statistics.mean(vals)) / statistics.stdev(vals)
        seg[(r[4], r[5], r[1].split(".")[3], r[2])].append(z)
    system = defaultdict(list)
    for (s, t, name, _), v in seg.items():
        system[(s, t, name)].append(statistics.mean(v))
    return {k: statistics.mean(v) for k, v in system.items()}


def test_wmt22_segment_file_as_published(tmp_path, capsys):
    text = wmt22_seglvl()
    path = tmp_path / "WMT22.Appraise.SegLvlLivRef.20221031.filtered.csv"
    path.write_text(text)
    (ratings,) = read_human_ratings([str(path)])
    assert ratings.read_as.startswith("read as WMT22 DA+SQM segment ratings")
    assert "9 fields" in ratings.read_as and "2 LP(s)" in ratings.read_as
    assert set(ratings.frame["system"]) == {"NiuTrans", "TartuNLP", "Liv4ever"}
    assert (ratings.frame["document"] == "").all()  # no timestamp taken for a document
    results = paired_rankings([str(path)])
    want = plain_wmt22(text)
    code = {"eng": "en", "liv": "liv"}
    for res in results:
        assert res.score_kind == "z"
        for system in res.systems:
            src, tgt = res.lp.split("-")
            key = next(k for k in want if code[k[0]] == src and code[k[1]] == tgt
                       and k[2] == system)  # fmt: skip
            assert res.score[system] == pytest.approx(want[key], abs=1e-12)
    assert any("engliv0d09 (en-liv)" in n for n in results[0].notes)
    assert main(["human", "--human", str(path)]) == 0
    cap = capsys.readouterr()
    assert "9 fields" in cap.err and "Traceback" not in cap.err
    blocks = json.loads(cap.out)["language_pairs"]
    assert [b["lp"] for b in blocks] == ["en-liv", "liv-en"]
    assert all(b["human_score"] == "z" for b in blocks)


def test_wmt22_document_level_rows_kept_apart(tmp_path):
    lines = [
        "u1,Online-W,1,TGT,eng,deu,70,doc1,False,1.0,2.0",
        "u1,Online-B,1,TGT,eng,deu,60,doc1,False,3.0,4.0",
        "u1,Online-W,2,TGT,eng,deu,80,doc1,False,5.0,6.0",
        "u1,Online-B,2,TGT,eng,deu,40,doc1,False,7.0,8.0",
        "u1,Online-W,2,TGT,eng,deu,75,doc1,True,9.0,10.0",
        "u1,Online-B,2,BAD,eng,deu,10,doc1,False,11.0,12.0",
    ]
    ratings = read_appraise(("\n".join(lines) + "\n").encode(), name="WMT22.DocLvl.csv")
    assert len(ratings.frame) == 4 and len(ratings.documents) == 1
    assert ratings.documents["score"].tolist() == [75.0]
    assert "11 fields" in ratings.read_as and "1 document-level" in ratings.read_as
    bad = "\n".join([*lines[:2], "u1,Online-W,2,TGT,eng,deu,80,doc1,maybe,5.0,6.0"])
    with pytest.raises(StatsInputError, match="line 3, field 9 .isDocScore.: 'maybe'"):
        read_appraise(bad.encode(), name="d.csv")


def test_da_segment_names_without_submission_id(tmp_path):
    rows = ["SYS SID RAW.SCR Z.SCR N"]
    for system in ("Online-Y.3", "Online-W.2", "JDExploreAcademy.169"):
        rows += [f"{system} {i} {50 + i} {i / 10} 1" for i in range(1, 6)]
    path = tmp_path / "ad-seg-scores-de-en.csv"
    path.write_text("\n".join(rows) + "\n")
    frame = read_da_segment_scores(path)
    assert set(frame["system"]) == {"Online-Y", "Online-W", "JDExploreAcademy"}
    assert "Online-Y.3 -> Online-Y" in frame.attrs["notes"][0]
    assert "read as published DA segment scores" in frame.attrs["read_as"]
    # two submissions of one system keep their ids (and say nothing)
    two = tmp_path / "ad-seg-scores-cs-en.csv"
    two.write_text("\n".join([rows[0], "A.1 1 5 0 1", "A.2 1 6 0 1", "A.1 2 5 0 1",
                              "A.2 2 6 0 1"]) + "\n")  # fmt: skip
    assert set(read_da_segment_scores(two)["system"]) == {"A.1", "A.2"}


def test_marot_global_segment_ids_meet_the_documents_file(tmp_path):
    """WMT24's MQM files (Marot exports): globalSegId 1 is the canary line, so a segment's
    line of the documents file is globalSegId - 1, as the organisers' tools.py aligns them."""
    docs = ["canary\tcanary"] + [f"{'news' if d < 2 else 'speech'}\tdoc{d}"
                                 for d in range(3) for _ in range(4)]  # fmt: skip
    (tmp_path / "en-de.docs").write_text("\n".join(docs) + "\n")
    head = "system\tdoc\tdocSegId\tglobalSegId\trater\tsource\ttarget\tcategory\tseverity"
    rows = []
    for system, sev in (("A", "minor"), ("B", "major")):
        for line in range(1, 13):
            rows.append((system, f"doc{(line - 1) // 4}", str((line - 1) % 4 + 1), str(line + 1),
                         "r1", "s", "t", "Accuracy/Mistranslation", sev))  # fmt: skip
    path = write_mqm(tmp_path / "mqm_generalMT2024_ende.tsv", rows, head)
    (res,) = paired_rankings([str(path)], documents=[str(tmp_path / "en-de.docs")],
                             mqm_weights="wmt24")  # fmt: skip
    assert set(res.domains) == {"news", "speech"}
    assert res.systems == ("A", "B") and res.score["A"] == pytest.approx(-1.0)
    assert "globalSegId - 1" in res.read_as[0]


def test_options_that_do_not_apply_are_refused_in_one_line(tmp_path, capsys):
    rows = ["SYS SID RAW.SCR Z.SCR N"] + [f"{s}.1 {i} {50 + i} {i / 10} 1"
                                          for s in "AB" for i in range(1, 6)]  # fmt: skip
    da = tmp_path / "ad-seg-scores-de-en.csv"
    da.write_text("\n".join(rows) + "\n")
    for extra in (["--test", "signed-rank", "--human-score", "raw"], ["--segments", "x.tsv"],
                  ["--mqm-weights", "wmt24"]):  # fmt: skip
        assert main(["human", "--human", str(da), *extra]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("error: --"), err
