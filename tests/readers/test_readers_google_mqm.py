"""Google's MQM side files as published, generated in their exact layouts
(google/wmt-mqm-human-evaluation):

* ``mqm_newstest2020_ende.avg_seg_scores.tsv``: header ``system mqm_avg_score seg_id`` and
  rows separated by single spaces (``eTranslation.737 -2.333333 1``);
  ``mqm_newstest2021_zhen.avg_seg_scores.tsv`` and the TED files: the same header, rows with
  a tab after the system and a space before the segment, ``None`` where a segment was not
  rated (``Borderline<TAB>None 1``);
* ``mqm_newstest2020_ende.source-errors.tsv``: Google's 9-column MQM header, only
  ``Source error/-`` rows; the zh-en file has 8 fields a row under the same header (system,
  doc, doc_id, source, target, ``Source error``, severity, an empty field).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from stats import StatsInputError
from stats.analyses import paired_rankings, read_human_ratings
from stats.cli import main
from stats.readers.mqm import language_pair_of
from stats.readers.mqm_google import MQM_AVERAGES, read_mqm_averages, read_source_errors

HEAD = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity"
SYSTEMS_2020 = ("eTranslation.737", "Human-B.0", "OPPO.1535", "Online-A.1574")


@pytest.mark.parametrize("name, lp", [
    ("mqm_newstest2020_ende.source-errors.tsv", "en-de"),
    ("mqm_newstest2020_zhen.avg_seg_scores.tsv", "zh-en"),
    ("mqm_newstest2020_ende.no-postedits.tsv", "en-de"),
    ("mqm_generalMT2022_ende.3ratingsPerSegment.tsv", "en-de"),
    ("sxs_mqm_generalMT2023_zhen.3ratingsPerSegment.tsv.tar.gz", "zh-en"),
    ("mqm-ted_zhen.tsv", "zh-en"),
    ("psqm_newstest2020_ende.tsv", "en-de"),
    ("mqm_generalMT2024_jazh.tsv", "ja-zh"),
    ("newstest2021/zhen/mqm_newstest2021_zhen.avg_seg_scores.tsv", "zh-en"),
])  # fmt: skip
def test_language_pair_from_every_google_file_name(name, lp):
    assert language_pair_of(name) == lp


def averages_2020(rng, n_seg=12):
    lines = ["system mqm_avg_score seg_id"]
    values = {}
    for s in SYSTEMS_2020:
        for k in range(1, n_seg + 1):
            v = -round(float(rng.gamma(1.5, 2.0)) * 3) / 3
            values[(s, str(k))] = float(f"{v:.6f}")
            lines.append(f"{s} {v:.6f} {k}")
    return "\n".join(lines) + "\n", values


def averages_2021(rng, n_seg=12):
    lines = ["system mqm_avg_score seg_id"]
    values, unrated = {}, 0
    for s in ("Borderline", "DIDI-NLP", "ref-A", "Online-W"):
        for k in range(1, n_seg + 1):
            if k % 4 == 0:
                lines.append(f"{s}\tNone {k}")
                unrated += 1
                continue
            v = -float(rng.choice([0, 0.1, 1, 5, 5.1, 10, 25]))
            values[(s, str(k))] = v
            lines.append(f"{s}\t{v:.6f} {k}")
    return "\n".join(lines) + "\n", values, unrated


def test_averages_read_as_mqm_scores_per_segment(tmp_path, capsys):
    rng = np.random.default_rng(4)
    text, values = averages_2020(rng)
    path = tmp_path / "mqm_newstest2020_ende.avg_seg_scores.tsv"
    path.write_text(text)
    r = read_mqm_averages(path)
    assert r.protocol == MQM_AVERAGES and r.language_pairs == ("en-de",)
    got = {(s, g): v for s, g, v in zip(r.frame["system"], r.frame["segment"], r.frame["score"],
                                        strict=True)}
    assert got == values
    assert "segment averages" in r.read_as and "en-de from the file name" in r.read_as
    # ranked like any human score, with the paired tests; its segment scores are the file's
    (res,) = paired_rankings([str(path)])
    assert res.lp == "en-de" and set(res.systems) == set(SYSTEMS_2020)
    seg = res.segment_scores
    for s, g, v in zip(seg["system"], seg["segment"], seg["score"], strict=True):
        assert v == pytest.approx(values[(s, g)], abs=1e-12)
    for s in SYSTEMS_2020:
        want = np.mean([v for (s2, _), v in values.items() if s2 == s])
        assert res.score[s] == pytest.approx(want, abs=1e-12)
    assert main(["human", "--human", str(path)]) == 0
    cap = capsys.readouterr()
    assert "Google's MQM segment averages" in cap.err
    (block,) = json.loads(cap.out)["language_pairs"]
    assert block["lp"] == "en-de"


def test_averages_2021_layout_with_none_rows(tmp_path):
    rng = np.random.default_rng(5)
    text, values, unrated = averages_2021(rng)
    path = tmp_path / "mqm_newstest2021_zhen.avg_seg_scores.tsv"
    path.write_text(text)
    (r,) = read_human_ratings([str(path)])
    assert r.protocol == MQM_AVERAGES and r.language_pairs == ("zh-en",)
    assert len(r.frame) == len(values)
    assert any(f"{unrated:,} rows with score None" in n for n in r.notes)
    bad = tmp_path / "mqm_ted_zhen.avg_seg_scores.tsv"
    bad.write_text(text.replace("None 4", "n/a 4", 1))
    with pytest.raises(StatsInputError, match=r"line \d+, column mqm_avg_score"):
        read_mqm_averages(bad)


def source_errors_ende(rng, n=30):
    rows = []
    for _ in range(n):
        s = SYSTEMS_2020[int(rng.integers(len(SYSTEMS_2020)))]
        seg = int(rng.integers(1, 40))
        sev = str(rng.choice(["Minor", "Minor", "Major", "Neutral"]))
        rows.append(f'{s}\tupi.205721\t{seg % 9}\t{seg}\trater1\t"src ""q"""\ttgt\tSource error/-\t{sev}')
    return HEAD + "\n" + "\n".join(rows) + "\n"


def source_errors_zhen(rng, n=12):
    rows = []
    for _ in range(n):
        s = str(rng.choice(["Human-A.0", "OPPO.1422", "DeepMind.381"]))
        sev = str(rng.choice(["Minor", "Major"]))
        rows.append(f"{s}\ttsrus.cn.2112\t{int(rng.integers(1, 30))}\t源\tThe source\tSource error\t"
                    f"{sev}\t")
    return HEAD + "\n" + "\n".join(rows) + "\n"


def full_mqm(rng, systems=SYSTEMS_2020, category=None):
    rows = []
    for s in systems:
        for seg in range(1, 9):
            for rater in ("rater1", "rater2"):
                cat = category or str(rng.choice(["Accuracy/Mistranslation", "Fluency/Grammar",
                                                  "No-error"]))
                sev = "no-error" if cat == "No-error" else str(rng.choice(["Minor", "Major"]))
                rows.append(f"{s}\tdoc1\t{seg}\t{seg}\t{rater}\tsrc\ttgt\t{cat}\t{sev}")
    return HEAD + "\n" + "\n".join(rows) + "\n"


def test_source_errors_are_read_as_what_they_hold_never_ranked(tmp_path, capsys):
    rng = np.random.default_rng(6)
    ende = tmp_path / "mqm_newstest2020_ende.source-errors.tsv"
    ende.write_text(source_errors_ende(rng))
    zhen = tmp_path / "mqm_newstest2020_zhen.source-errors.tsv"
    zhen.write_text(source_errors_zhen(rng))
    r = read_source_errors(ende)
    assert len(r.frame) == 0 and "not ranked" in r.read_as and "en-de" in r.read_as
    assert "30 rows" in r.read_as and "'Source error/-'" in r.read_as
    rz = read_source_errors(zhen)  # 8 fields a row under the 9-column header
    assert "12 rows" in rz.read_as and "zh-en" in rz.read_as and "8 fields" in rz.read_as
    for path in (ende, zhen):
        assert main(["human", "--human", str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "source-error file" in err and "not ranked" in err
    # beside the full ratings: those are ranked, and the side file is said in the notes
    full = tmp_path / "mqm_newstest2020_ende.tsv"
    full.write_text(full_mqm(rng))
    (res,) = paired_rankings([str(full), str(ende)])
    assert res.protocol == "MQM" and any("source-error file" in n for n in res.notes)
    assert main(["human", "--human", str(full), str(ende)]) == 0
    assert "source-error file" in capsys.readouterr().err


def test_a_file_of_source_errors_only_is_told_by_its_content(tmp_path):
    rng = np.random.default_rng(7)
    renamed = tmp_path / "mqm_newstest2020_ende.tsv"  # the name does not say it
    renamed.write_text(source_errors_ende(rng))
    with pytest.raises(StatsInputError, match="source-error file.*not ranked"):
        paired_rankings([str(renamed)])


def test_one_error_category_is_ranked_with_a_note(tmp_path):
    rng = np.random.default_rng(8)
    path = tmp_path / "mqm_ted_ende.tsv"
    path.write_text(full_mqm(rng, category="Accuracy/Mistranslation"))
    (res,) = paired_rankings([str(path)])
    assert any("has category 'Accuracy/Mistranslation'" in n for n in res.notes)
