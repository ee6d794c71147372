"""Unknown is refused: unknown keys at every level of a task set, a column
named twice in a header, a file given twice, a boolean column in another spelling, archive
members that are links, exclusions and outliers that match nothing, a segment id ``0x10``, a
carriage return inside an MQM field and a 5,000-digit exclusion id -- each on a generated file
in its published layout."""

from __future__ import annotations

import io
import json
import tarfile
from pathlib import Path

import pytest

from stats import StatsInputError
from stats.analyses import read_human_ratings
from stats.cli import main
from stats.metaeval.task_sets import read_task_set
from stats.readers import read_appraise, read_meta_eval, read_mqm
from stats.readers.qe_wmt import read_qe_exclude, read_qe_submissions, read_qe_wmt_gold
from tests._qe_wmt_data import generate

ROOT = Path(__file__).resolve().parents[1]
METRICS = ROOT / "sample_data" / "metrics"


def _cli(argv, capsys):
    code = main([str(a) for a in argv])
    cap = capsys.readouterr()
    assert "Traceback" not in cap.err
    return code, cap.out, cap.err


# ---- task sets: unknown keys at every level, with the accepted spellings named ----

TASKS = [
    {"lp": "en-de", "level": "seg", "correlation": "acc23"},
    {"lp": "en-de", "level": "sys", "correlation": "pearson"},
    {"lp": "zh-en", "level": "seg", "correlation": "acc23"},
]


def _task_set(doc: dict):
    return read_task_set("mine.json", text=json.dumps(doc))


def test_task_set_option_spelling_of_weight_by_weighs():
    ts = _task_set({"weight-by": ["lp"], "tasks": TASKS})
    assert ts.weights == pytest.approx((0.25, 0.25, 0.5))
    assert _task_set({"weight_by": "lp", "tasks": TASKS}).weights == ts.weights


def test_task_set_defaults_in_option_spelling():
    ts = _task_set({"defaults": {"tie-calibration": True}, "tasks": [TASKS[0], TASKS[2]]})
    assert all(t.tie_calibration for t in ts.tasks)


@pytest.mark.parametrize(
    ("doc", "match"),
    [
        ({"default": {"gold": "mqm"}, "tasks": TASKS},
         r"mine.json: unknown key 'default'; accepted: defaults, name, source, tasks, "
         r"test_set \(or test-set\), weight_by \(or weight-by\)"),
        ({"weigth_by": ["lp"], "tasks": TASKS}, "unknown key 'weigth_by'"),
        ({"defaults": {"colour": "red"}, "tasks": TASKS},
         r"mine.json, defaults: unknown key 'colour'; accepted: .*tie_calibration \(or "
         r"tie-calibration\)"),
        ({"tasks": [{**TASKS[0], "corr": "x"}]}, r"task 1: unknown key 'corr'; accepted:"),
        ({"weight_by": ["lp"], "weight-by": ["level"], "tasks": TASKS}, "weight_by is given twice"),
        ({"tasks": [{**TASKS[0], "weight": 1e200}]}, r"weight must be a number >= 0 \(at most"),
        ({"tasks": [{**TASKS[0], "epsilon": 1e300}]}, r"epsilon must be a number >= 0 \(at most"),
    ],
)  # fmt: skip
def test_task_set_unknown_keys_refused(doc, match):
    with pytest.raises(StatsInputError, match=match):
        _task_set(doc)


# ---- a column named twice in the header, in every reader that reads a header ----


def _meta_long(sep: str) -> bytes:
    rows = [sep.join(["METRIC", "LP", "TESTSET", "SYSTEM", "SEGMENT", "SCORE", "SCORE"])]
    for metric in ("BLEU", "human"):
        for system in "ABCD":
            rows += [sep.join([metric, "en-de", "t", system, str(g), f"{g / 10}", f"{-g}"])
                     for g in range(1, 4)]  # fmt: skip
    return ("\n".join(rows) + "\n").encode()


@pytest.mark.parametrize(
    ("read", "data"),
    [
        (lambda d: read_meta_eval(("long.tsv", d)), _meta_long("\t")),
        (lambda d: read_meta_eval(("long.csv", d)), _meta_long(",")),
        (lambda d: read_meta_eval(("wide.csv", d)),
         b"lp,system,segment,human,BLEU,bleu\nen-de,A,1,1,2,3\nen-de,B,1,1,2,3\n"),
        (lambda d: read_qe_wmt_gold(d, name="train.ende.df.short.tsv"),
         b"lp\tsrc\tmt\tz_mean\tZ_MEAN\nen-de\ta\tb\t1\t2\nen-de\tc\td\t2\t3\n"),
        (lambda d: read_mqm(d, name="en-de.mqm.tsv"),
         b"system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\tSystem\n"),
    ],
)  # fmt: skip
def test_a_column_named_twice_is_refused(read, data):
    with pytest.raises(StatsInputError, match="line 1: column '[^']+' appears twice"):
        read(data)


# ---- a file given twice ----

SEGLVL = "\n".join(
    f"u{u},{system},{item},TGT,eng,deu,{50 + 7 * u + 3 * item + (9 if system == 'A' else 0)},"
    f"{item}.0,{item}.5"
    for u in (1, 2)
    for system in ("A", "B", "C")
    for item in range(1, 7)
) + "\n"  # WMT22.Appraise.SegLvl*.csv: username,system,itemId,itemType,srcLang,trgLang,score,...


def test_the_same_file_twice_is_refused(tmp_path, capsys):
    path = tmp_path / "WMT22.Appraise.SegLvl.csv"
    path.write_text(SEGLVL)
    code, _, err = _cli(["human", "--human", path, path], capsys)
    assert code == 2 and err.count("\n") == 1
    assert "--human: the same file is given twice" in err
    link = tmp_path / "copy.csv"
    link.symlink_to(path)
    code, _, err = _cli(["human", "--human", path, link], capsys)
    assert code == 2 and "given twice" in err
    with pytest.raises(StatsInputError, match="b.csv: has the same content as a.csv"):
        read_human_ratings([("a.csv", SEGLVL.encode()), ("b.csv", SEGLVL.encode())])
    assert len(read_human_ratings([("a.csv", SEGLVL.encode())])) == 1


# ---- a boolean column in another spelling: WMT22 DocLvl isDocScore as 1/0 ----


def test_doclvl_is_doc_score_as_one_and_zero_reads_as_true_and_false():
    rows = [
        "u1,Online-W,1,TGT,eng,deu,70,doc1,{f},1.0,2.0",
        "u1,Online-B,1,TGT,eng,deu,60,doc1,{f},3.0,4.0",
        "u1,Online-W,2,TGT,eng,deu,80,doc1,{f},5.0,6.0",
        "u1,Online-B,2,TGT,eng,deu,40,doc1,{f},7.0,8.0",
        "u1,Online-W,2,TGT,eng,deu,75,doc1,{t},9.0,10.0",
        "u1,Online-B,2,TGT,eng,deu,35,doc1,{t},11.0,12.0",
    ]
    words = read_appraise("\n".join(rows).format(f="False", t="True").encode(), name="d.csv")
    digits = read_appraise("\n".join(rows).format(f="0", t="1").encode(), name="d.csv")
    assert "11 fields" in digits.read_as and "2 document-level" in digits.read_as
    assert digits.frame["score"].tolist() == words.frame["score"].tolist() == [70, 60, 80, 40]
    assert digits.documents["score"].tolist() == [75.0, 35.0]
    with pytest.raises(StatsInputError, match=r"isDocScore.: '2' is not True or False"):
        read_appraise("\n".join(rows[:4] + [rows[4].format(t="2")]).format(f="0").encode(),
                      name="d.csv")  # fmt: skip


# ---- archive members that are links ----


def _tar(members) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tf:
        for name, kind, payload in members:
            info = tarfile.TarInfo(name)
            if kind == "file":
                info.size = len(payload)
                tf.addfile(info, io.BytesIO(payload))
            else:
                info.type = tarfile.LNKTYPE if kind == "hard" else tarfile.SYMTYPE
                info.linkname = payload
                tf.addfile(info)
    return buf.getvalue()


def test_qe_tar_hard_link_reads_its_target_and_symlink_is_refused():
    text = generate()["submissions"]["alpha"].encode()
    hard = _tar([("subs/alpha/predictions.txt", "file", text),
                 ("subs/gamma/predictions.txt", "hard", "subs/alpha/predictions.txt")])  # fmt: skip
    with pytest.warns(RuntimeWarning, match="subs/gamma/predictions.txt is a hard link to "
                      "subs/alpha/predictions.txt .*: read as a copy of it"):
        subs = read_qe_submissions([("subs.tar", hard)])
    systems = set(subs.scores["system"].unique())
    assert {"alpha/ALPHA-xl", "gamma/ALPHA-xl"} <= systems  # GNU tar's identical files: both
    sym = _tar([("subs/alpha/predictions.txt", "file", text),
                ("subs/gamma/predictions.txt", "sym", "../alpha/predictions.txt")])  # fmt: skip
    with pytest.raises(StatsInputError, match="subs/gamma/predictions.txt is a symbolic link"):
        read_qe_submissions([("subs.tar", sym)])
    dangling = _tar([("subs/gamma/predictions.txt", "hard", "subs/x.bin")])
    with pytest.raises(StatsInputError, match="is a hard link to subs/x.bin, not a file"):
        read_qe_submissions([("subs.tar", dangling)])


# ---- exclusions and outliers that match nothing, segment ids, MQM fields ----


def test_segment_id_0x10_is_not_16():
    text = "\n".join(f"en-de\tM\t{sid}\t0.{i}" for i, sid in enumerate(["1", "2", "0x10"])) + "\n"
    subs = read_qe_submissions([("team/en-de/predictions.txt", text.encode())])
    assert sorted(subs.scores["sid"].astype(str)) == ["0x10", "1", "2"]
    plain = text.replace("0x10", "16")
    assert sorted(read_qe_submissions([("t/p.txt", plain.encode())]).scores["sid"]) == [
        "1", "16", "2"]  # fmt: skip


@pytest.mark.parametrize(
    ("sid", "match"),
    [("0x10", "segment number '0x10' is not an integer"),
     ("١٢", "segment number '١٢' is not an integer"),
     ("9" * 5000, "segment number a text of 5,000 characters is not an integer"),
     ("1" + "0" * 200, "segment number a text of 201 characters is beyond")],
)  # fmt: skip
def test_exclusion_ids_by_the_number_rule(sid, match):
    text = f"lp\tsegid\nen-de\t3\nen-de\t{sid}\n".encode()
    with pytest.raises(StatsInputError, match=f"line 3: {match}"):
        read_qe_exclude(text, name="excl.tsv")


def test_carriage_return_inside_an_mqm_field_is_refused():
    head = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
    row = "A\td1\t1\t1\tr1\tsrc\ttgt\tAccuracy/Mistranslation\tMajor"
    good = f"{head}\n{row}\n{row.replace('A', 'B', 1)}\r\n"
    assert len(read_mqm(good.encode(), name="en-de.mqm.tsv").frame) == 2
    bad = f"{head}\n{row.replace('src', 'sr' + chr(13) + 'c')}\n"
    with pytest.raises(StatsInputError, match="line 2, column source: a carriage return"):
        read_mqm(bad.encode(), name="en-de.mqm.tsv")


def test_outliers_matching_nothing_are_named(tmp_path, capsys):
    outliers = tmp_path / "outliers.json"
    outliers.write_text(json.dumps({"xx-yy": ["A"], "es-en": ["online-A", "Nobody"]}))
    argv = ["williams", "--human", METRICS / "human.tsv", "--metrics", METRICS / "metrics.tsv",
            "--format", "tsv"]  # fmt: skip
    code, out, err = _cli([*argv, "--outliers", outliers], capsys)
    assert code == 0, err
    assert "language pair(s) xx-yy are not in the files; their outliers matched nothing" in err
    assert "es-en" in err and "not systems of this block (matched nothing): Nobody" in err


def test_outliers_from_standard_input(tmp_path, capsys, monkeypatch):
    data = json.dumps({"es-en": ["online-A"]}).encode()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data)))
    argv = ["williams", "--human", METRICS / "human.tsv", "--metrics", METRICS / "metrics.tsv",
            "--format", "json", "--lp", "es-en"]  # fmt: skip
    code, out, err = _cli([*argv, "--outliers", "-"], capsys)
    assert code == 0, err
    assert json.loads(out)["language_pairs"][0]["outliers"] == ["online-A"]


def test_exclusions_matching_nothing_are_named(tmp_path, capsys):
    files = generate()
    subs = []
    for team, text in files["submissions"].items():
        path = tmp_path / team / "predictions.txt"
        path.parent.mkdir()
        path.write_text(text)
        subs.append(path)
    gold = tmp_path / "gold.tsv"
    gold.write_text(files["gold"])
    excl = tmp_path / "excl.tsv"
    excl.write_text(files["exclude"] + "en-de\t999\nxx-yy\t1\n")
    code, _, err = _cli(["qe", "--data", *subs, "--gold", gold, "--exclude", excl,
                         "--resamples", 20, "--format", "json"], capsys)  # fmt: skip
    assert code == 0, err
    assert "exclude index: 2 item(s) match no gold item and leave nothing out: en-de 999, " \
        "xx-yy 1" in err


def test_directory_links_are_named_not_skipped_unsaid(tmp_path):
    from stats.readers._archives import expand_sources

    (tmp_path / "a.tsv").write_text("x\n")
    d = tmp_path / "d"
    d.mkdir()
    (d / "m.tsv").write_text("x\n")
    (d / "linked.tsv").symlink_to(tmp_path / "a.tsv")
    with pytest.warns(RuntimeWarning, match=r"links not followed, not read: .*linked.tsv"):
        assert [n for n, _ in expand_sources([d])] == [str(d / "m.tsv")]
